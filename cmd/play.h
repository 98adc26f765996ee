/* pdnkit play: what the game loop (play.c) and the drawing (play_view.c) share. */
#ifndef PK_PLAY_CMD_H
#define PK_PLAY_CMD_H

#include <signal.h>
#include <stdbool.h>
#include "analysis/play.h"
#include "book/book.h"
#include "engine/gengine.h"

#define MSG_LINES 3

typedef struct {
	pk_play g;                  /* of any variant: g.pos.v NULL for English draughts */
	const pk_variant *v;        /* the variant played (NULL: English draughts) */
	pk_gengine *ge;             /* the engine of the variant played */
	pk_engine *eng;             /* English draughts': ge's (NULL in another variant) */
	pk_vengine *veng;           /* another variant's: ge's (NULL in English draughts) */
	struct pk_client *client;   /* another engine plays the engine's side (--engine), or NULL */
	char engine_name[64];       /* "pdnkit", or the other engine's name */
	pk_book *bk;
	pk_limits lim;              /* per move, when there is no game clock */
	char level_text[48];        /* "level 3 (5 s a move)" */
	bool engine_plays[2];       /* by PK_BLACK, PK_WHITE */
	bool screen;                /* full-screen; else line mode */
	bool numbers, flip, ponder, quiet;
	bool clocked;
	pk_clock clk;
	char names[2][64];
	char user[64];              /* the player's name */
	/* the engine's last search, for the screen */
	int depth, score;
	int score_side;            /* the side score is from: the side that searched */
	double seconds;
	uint64_t nodes;
	char line[400];             /* its principal variation */
	char last_move[400];
	bool thinking;
	/* the game's end, once announced */
	bool over;
	int result;                 /* RES_* */
	char end_text[120];
	char msg[MSG_LINES][240];   /* messages under the board (screen) */
	int nmsg;
	volatile sig_atomic_t stop;
	const char *output;         /* --output: the game is saved there on leaving */
	int saved_plies;            /* the plies of the game when it was last saved (-1: never) */
	int cols;                   /* the terminal's width in full screen (80 or more) */
} pctx;

/* A search's score (from side's view) as the game's panel and lines say every score: for
 * one side throughout (the person's against the engine, else the first mover's). */
void pc_score_for_view(const pctx *c, int score, int side, char *buf, size_t size);

/* Says something: printed in line mode, kept under the board in full-screen mode. */
void view_say(pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Draws the board and everything around it (full-screen), or the board as text. */
void view_draw(pctx *c);
/* The board as text on standard output (line mode, and the "board" command). */
void view_board_text(pctx *c);
/* Full-screen terminal: taking it and giving it back; reading one key (non-blocking up
 * to ms milliseconds; -1 for none). */
int view_screen_begin(void);
void view_screen_end(void);
int view_key(int ms);
void view_keys_raw(bool raw);
/* The prompt line, and reading one line of input (NULL at the end of input). */
char *view_read_line(pctx *c, char *buf, size_t size);

/* What play.c, play_commands.c and play_view.c share. */
static inline const char *pc_side_name(int side) { return side == PK_BLACK ? "Black" : "White"; }
typedef struct {
	pctx *c;
	const pk_gpos *root;
	bool print;         /* line mode: one line per iteration (analyse) */
} pc_itctx;
typedef struct {
	pctx *c;
	char *buf;
	size_t size;
	bool got;
} pc_line_watch;
extern pk_move pc_expected;      /* the reply the engine expects after its move (English) */
extern bool pc_have_expected;
/* The side that moves first (Black in English draughts, White in most others), and the
 * result when `loser` has lost ("0-1" when it moves first: replay.h's RES_* by the first
 * mover). */
static inline int pc_first(const pctx *c) { return c->v ? c->v->first : PK_BLACK; }
static inline int pc_loss(const pctx *c, int loser) { return loser == pc_first(c) ? RES_WHITE_WINS : RES_BLACK_WINS; }
static inline int pc_stm(const pctx *c) { return gpos_stm(&c->g.pos); }
/* A search of the current position (or root) by the engine of the variant, with the
 * book where it has the position, a watcher beside it as play_think; the best move's
 * text into mv. */
typedef struct {
	pk_gmove best;
	bool has_move, forced, from_book;
	int score, depth;
	int npv;
	pk_gmove pv[2];             /* the first two moves of the line */
} pc_result;
void pc_think(pctx *c, const pk_gpos *root, const pk_history *h, const pk_limits *lim, bool use_book,
	      bool print, void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pc_result *r);
/* A move of p as PDN writes it. */
void pc_move_text(const pk_gpos *p, const pk_gmove *m, char *buf, size_t size);
/* Watchers beside a search: a key, nothing (a timed search), a line of input. */
void pc_watch_key(void *ctx, const atomic_bool *done);
void pc_watch_none(void *ctx, const atomic_bool *done);
void pc_watch_line(void *ctx, const atomic_bool *done);
pk_limits pc_move_limits(const pctx *c);
void pc_announce(pctx *c, int result, const char *text);
void pc_check_end(pctx *c);
int pc_engine_move(pctx *c);
int pc_human_move(pctx *c, const char *text, double spent);
void pc_new_game(pctx *c, const pk_gpos *start, bool setup);
int pc_save_game(pctx *c, const char *path);
int pc_load_game(pctx *c, const char *path, long n);
void pc_describe_level(pctx *c);
/* A new game from a three-move opening ("random" or its number): 0, 1 for a bad number
 * (said: as an option's error when option is set), -1 when out of memory. */
int pc_ballot(pctx *c, const char *arg, bool option);
/* One line typed: a command or a move. 1 to leave, 0 to go on, -1 on a failure. */
int pc_command(pctx *c, char *line, double spent, bool *paused);

#endif
