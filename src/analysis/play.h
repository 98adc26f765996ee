/* A game being played: the moves from its start, taking them back, the draws a player
 * claims (threefold repetition, a number of moves without a capture or a man moved) and
 * the end (no legal move); the game as PDN; the clock; and the engine thinking on a
 * thread of its own while the caller watches for the player (pdnkit play, pdnkit engine). */
#ifndef PK_PLAY_H
#define PK_PLAY_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "book/book.h"
#include "engine/gengine.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "rules/gpos.h"

#define PLAY_DRAW_MOVES 40   /* moves by each side without a capture or a man moved */

/* A game of any variant (rules/gpos.h): English draughts' positions in pos.e, another
 * variant's in pos.x (start.v the variant, NULL for English draughts). */
typedef struct {
	pk_gpos start;
	bool setup;                /* began from a position other than the initial one */
	pk_gpos pos;               /* the current position */
	pk_gmove *moves;
	uint64_t *keys;            /* keys[i]: the position before ply i; keys[nply]: now (gpos_key) */
	int *rev;                  /* rev[i]: reversible plies in a row ending at position i */
	int nply, cap;
	int draw_moves;            /* English draughts' move-count rule: moves by each side (40);
				    * the other variants keep their own (rules/vdraw.c) */
} pk_play;

enum { PLAY_ON, PLAY_NO_MOVE, PLAY_REPETITION, PLAY_MOVE_RULE };

/* A game from start (setup: from a FEN). 0, or -1 when out of memory. */
int play_init(pk_play *g, const pk_gpos *start, bool setup);
/* The same from English draughts' position. */
int play_init_english(pk_play *g, const pk_pos *start, bool setup);
void play_free(pk_play *g);
/* Plays a legal move of the current position. 0, or -1 when out of memory. */
int play_move(pk_play *g, const pk_gmove *m);
/* The same with English draughts' move. */
int play_move_english(pk_play *g, const pk_move *m);
/* Takes back up to n plies; returns how many were taken back. */
int play_takeback(pk_play *g, int n);
/* A replayed game's start and main line (all of it, or its first `plies` when >= 0), of
 * any variant. -1 when the game was not wholly replayed (its moves are not all known). */
int play_load(pk_play *g, const pk_replay *rp, int plies);
/* How often the current position has occurred (1 the first time). */
int play_repetitions(const pk_play *g);
/* PLAY_NO_MOVE (the side to move has lost), PLAY_REPETITION (the third occurrence),
 * PLAY_MOVE_RULE (English draughts: draw_moves moves each without a capture or a man
 * moved; another variant: its own count, rules/vdraw.c) or PLAY_ON. */
int play_status(const pk_play *g);
/* The result (RES_*) of a status other than PLAY_ON; RES_NONE while the game is on.
 * "1-0" is the first mover's win in every variant (as pdn/replay.h's RES_*). */
int play_status_result(const pk_play *g, int status);
/* A sentence for a status: "White has no legal move", "threefold repetition", ... */
const char *play_status_text(const pk_play *g, int status);
/* The game before the current position, for the search's repetition checks. */
pk_history play_history(const pk_play *g);
/* The move of ply i (0-based) as PDN writes it, into buf (room for size). */
void play_move_text(const pk_play *g, int i, char *buf, size_t size);
/* The position before ply i (0-based; nply: the current one). */
void play_pos_at(const pk_play *g, int i, pk_gpos *out);

typedef struct {
	const char *event, *site, *date, *black, *white, *time_control;
	int result;                /* RES_*; RES_NONE writes "*" (an unfinished game) */
	const char *termination;   /* a comment after the last move, or NULL */
} pk_play_tags;
/* The game as one PDN game (tags, numbered moves, result, a blank line). 0 or -1. */
int play_write_pdn(const pk_play *g, const pk_play_tags *t, pk_sink sink, void *ctx);

/* A game clock: base seconds for each side, an increment added after each move. */
typedef struct {
	double base, inc;
	double left[2];            /* by PK_BLACK, PK_WHITE */
} pk_clock;
/* "5m+2s", "90s", "1h", "10m+5", "0.5m": 0, or -1 when the text is not a time. */
int clock_parse(const char *text, double *base, double *inc);
void clock_init(pk_clock *c, double base, double inc);
/* The time to spend on this move: clock_share's (engine/search.h), the rule of every
 * clock pdnkit plays on. */
double clock_budget(const pk_clock *c, int side);
/* Takes `spent` seconds from side and adds the increment; false when the flag fell. */
bool clock_charge(pk_clock *c, int side, double spent);
/* "4:59.5" (or "1:02:03") into buf. */
void clock_format(double seconds, char *buf, size_t size);

/* Searches root on the calling thread while watch(wctx, done) runs on a thread of its
 * own (reading the player's keys or a GUI's commands). watch returns when *done becomes
 * true (the search finished) or when it wants the search stopped; *stop is then set and
 * the search ends with its best move so far. When no thread can be started, watch runs
 * after the search, so a search without a limit must not be asked for then. */
int play_think(pk_engine *e, const pk_pos *root, const pk_history *h, const pk_limits *lim,
	       volatile sig_atomic_t *stop, pk_iteration_cb cb, void *cbctx,
	       void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_result *out);
/* The same with a book (engine_book_search): *from_book says whether the book's move is
 * the one in *out. NULL bk: play_think. */
int play_think_book(pk_engine *e, const pk_book *bk, const pk_pos *root, const pk_history *h, const pk_limits *lim,
		    volatile sig_atomic_t *stop, pk_iteration_cb cb, void *cbctx,
		    void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_result *out, bool *from_book);
/* The same for a position of any variant (engine/gengine.h), with a book of its variant
 * (NULL: none; gengine_book_search). */
int play_gthink(pk_gengine *g, const pk_book *bk, const pk_gpos *root, const pk_history *h, const pk_limits *lim,
		volatile sig_atomic_t *stop, pk_giteration_cb cb, void *cbctx,
		void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pk_gresult *out, bool *from_book);

#endif
