/* Draughts variants by PDN GameType: their boards and rules as data, and one general
 * move generator over a square array for all of them. English draughts keeps its own
 * bitboard core (rules/gen.c, the fast one); this generator plays English too, and the
 * tests hold the two to the same counts.
 *
 * Geometry: the board is rows x cols cells, row 0 at the top (Black's side), White at
 * the bottom moving up. The playing squares are numbered 1..n row by row from the top
 * left, as the numeric notation of International draughts numbers them. */
#ifndef PK_VARIANT_H
#define PK_VARIANT_H

#include <stdbool.h>
#include <stdint.h>

/* The order of vgen()'s moves is part of what the store (move ordinals of variant games)
 * and the variant books (pdnkit-book(5), version 2) keep: a change to it is a format
 * change and must bump this. */
#define VGEN_ORDER_VERSION 1
#define VAR_MAX_SQ 72            /* 12 x 12 / 2 (Canadian) */
#define VAR_MAX_MOVES 512
#define VAR_MAX_CAP 32           /* pieces one move can capture */

/* Which captures are allowed: any (FREE); the most pieces (MAX); the most pieces, then
 * the most kings (SPANISH); also with a king before a man, and the earliest king
 * (ITALIAN); a king's capture before a man's (CZECH); the highest value, a man 100 and a
 * king 199 ("a king is worth less than two men"), then a king's before a man's
 * (FRISIAN). */
enum { VRULE_FREE, VRULE_MAX, VRULE_SPANISH, VRULE_ITALIAN, VRULE_CZECH, VRULE_FRISIAN };

typedef struct {
	int gametype;                /* PDN GameType */
	const char *key;             /* for --variant: "international" */
	const char *name;            /* "International draughts" */
	int rows, cols;
	int men_rows;                /* rows of men each side starts with */
	int first;                   /* PK_WHITE or PK_BLACK moves first */
	bool inverted;               /* the bottom-left corner is not a playing square */
	bool orthogonal;             /* Turkish: all 64 squares, moves along ranks and files */
	bool men_capture_back;
	bool flying;                 /* kings move and capture any distance */
	bool short_landing;          /* a flying king lands on the square just behind (Thai) */
	bool crown_in_capture;       /* a man crowned during a capture goes on as a king (Russian) */
	bool men_spare_kings;        /* men cannot capture kings (Italian) */
	bool remove_at_once;         /* captured pieces leave at once; kings may not turn back (Turkish) */
	int rule;                    /* VRULE_*: which captures are allowed */
	bool alphanumeric;           /* PDN writes its moves "c3-d4" (the GameType's A notation) */
	bool replayable;             /* its rules are implemented and proved */
	bool capture_straight;       /* Frisian: men and kings also capture along ranks and files */
	int king_moves;              /* Frisian: quiet moves in a row one king may make while its
					side has men (0: no limit) */
} pk_variant;

/* Pieces on a square. */
enum { VP_EMPTY, VP_WMAN, VP_WKING, VP_BMAN, VP_BKING };

typedef struct {
	const pk_variant *v;
	uint8_t sq[VAR_MAX_SQ + 1];  /* 1..n */
	int stm;                     /* PK_WHITE or PK_BLACK */
	/* With king_moves (Frisian), per side: the king that made the side's last moves,
	 * all quiet, and how many (0: none); not part of FEN or vpos_key. */
	uint8_t ksq[2], kn[2];
} pk_vpos;

typedef struct {
	uint8_t from, to;
	uint8_t nland;               /* landing squares of a capture, to included */
	uint8_t land[VAR_MAX_CAP];
	uint8_t ncap;                /* pieces captured, in capture order */
	uint8_t cap[VAR_MAX_CAP];
	uint8_t kings;               /* of them kings */
	bool by_king, crowns;
} pk_vmove;

typedef struct {
	int n;
	pk_vmove m[VAR_MAX_MOVES];
} pk_vmovelist;

/* A plain move from s to t: every field a quiet move has (no clearing of the capture's
 * lists: the generators' hot path). */
static inline void vmove_quiet(pk_vmove *m, int s, int t, bool king)
{
	m->from = (uint8_t)s;
	m->to = (uint8_t)t;
	m->nland = 1;
	m->land[0] = (uint8_t)t;
	m->ncap = 0;
	m->kings = 0;
	m->by_king = king;
	m->crowns = false;
}

/* The table of variants; NULL when the GameType or name is unknown. */
const pk_variant *variant_by_gametype(int gametype);
const pk_variant *variant_by_name(const char *name);   /* key, name or GameType number */
const pk_variant *variant_at(int i);                   /* 0.. until NULL */
int variant_squares(const pk_variant *v);              /* playing squares */

/* Square (1..n) to row and column, and back (0 when not a playing square). */
void variant_square_rc(const pk_variant *v, int sq, int *row, int *col);
int variant_rc_square(const pk_variant *v, int row, int col);

void vpos_start(const pk_variant *v, pk_vpos *p);
void vpos_clear(const pk_variant *v, pk_vpos *p, int stm);
/* The pieces on p's board, and on the board of v's starting position. */
int vpos_pieces(const pk_vpos *p);
int variant_start_pieces(const pk_variant *v);
/* The legal moves (captures obligatory, with the variant's priorities; captures that
 * differ only in the order of the same pieces are one move). */
int vgen(const pk_vpos *p, pk_vmovelist *ml);
/* vgen with the captures looked for from the squares of `from` only (bit s - 1 for square
 * s; squares past 64 always): the same list when every piece that can capture is there. */
int vgen_from(const pk_vpos *p, uint64_t from, pk_vmovelist *ml);
/* Whether the side to move has a capture (then vgen lists captures only), without
 * listing any: what the search asks at its horizon. */
bool vhas_capture(const pk_vpos *p);
/* The number of legal moves (vgen's n), counted without listing the quiet ones. */
int vcount(const pk_vpos *p);
/* vgen() of a position whose side to move has no capture (the caller knows it). */
int vgen_quiet(const pk_vpos *p, pk_vmovelist *ml);
/* The same from the squares of `from` only (bit s - 1 for square s, in the order of the
 * squares; every square on boards past 64): the same list when they hold every piece of
 * the side to move. */
int vgen_quiet_from(const pk_vpos *p, uint64_t from, pk_vmovelist *ml);
void vmake(const pk_vpos *p, const pk_vmove *m, pk_vpos *out);
/* The same move: from the same square to the same square, capturing the same pieces
 * (as vgen() counts moves; the order of the captures aside). */
bool vmove_same(const pk_vmove *a, const pk_vmove *b);
/* Whether p can arise in a game: no man on its own crowning row, no side with more
 * pieces than it starts with. 0, or -1 with the reason in err. */
int vpos_check(const pk_vpos *p, char *err, size_t errsize);
uint64_t vperft(const pk_vpos *p, int depth);
/* A Zobrist key of the position: pieces, side to move and variant (positions of two
 * variants never share a key by design). Part of the store's format: the store indexes
 * the positions of variant games by it, so the keys must never change. */
uint64_t vpos_key(const pk_vpos *p);
/* vpos_key with the king-move counts (Frisian) too: the position as the rules see it,
 * for the engine's table and repetitions. Equal to vpos_key when the counts are 0. */
uint64_t vpos_state_key(const pk_vpos *p);
/* vpos_state_key(after), after = vmake(p, m), from key = vpos_state_key(p): a few
 * words changed instead of the board walked. */
uint64_t vpos_key_after(const pk_vpos *p, const pk_vmove *m, const pk_vpos *after, uint64_t key);
/* The same without the position after the move, for the variants without king-move
 * counts (!v->king_moves; with them the counts need the move made). */
uint64_t vpos_key_of_move(const pk_vpos *p, const pk_vmove *m, uint64_t key);

/* Frisian's endgame draws: a king against a king is drawn after two more moves each,
 * two kings against one after seven. The plies the position's material allows (4 or
 * 14), or 0 where no such rule applies (other variants: the referee's general rules). */
int vdraw_plies(const pk_vpos *p);
/* The same from each side's pieces (n, kings among them) and kings (k). */
int vdraw_plies_of(const pk_variant *v, const int n[2], const int k[2]);

/* A game's draw counters under its variant's own rules (the federation's texts are
 * cited in rules/variant.c): moves of kings only without a capture, and the moves played
 * in the endings that have a limit of their own. vdraw_after is called after each move
 * (before, the move, after); it returns why the game is now drawn, or NULL. Threefold
 * repetition is the referee's, for every variant. */
typedef struct {
	int kings_only;              /* plies of kings only, without a capture or a man moved */
	int ending;                  /* plies in the current limited ending */
	int ending_class;            /* which (0: none) */
} pk_vdraw;
void vdraw_init(pk_vdraw *d);
const char *vdraw_after(pk_vdraw *d, const pk_vpos *before, const pk_vmove *m, const pk_vpos *after);
/* The plies a limited ending of p's material lasts before it is drawn, counted from the
 * move that reached it (FMJD's 16 and 5 moves each in International, Brazilian and
 * Canadian draughts, pool's 13 moves of three kings against one, Frisian's king endings);
 * 0 where its material has no such limit. */
int vdraw_ending_plies(const pk_vpos *p);
/* Which of its variant's limited endings p's material is (0: none); two positions of
 * the same class a game's moves reach in turn are one ending, whose plies count on. */
int vdraw_ending_class(const pk_vpos *p);
/* The same from each side's pieces (n, kings among them) and kings (k) (a search that
 * keeps bitboards counts them there), and the plies an ending of that class lasts. */
int vdraw_ending_class_of(const pk_variant *v, const int n[2], const int k[2]);
int vdraw_class_plies(const pk_variant *v, int cls);
/* The plies counted so far in p's limited ending by d, the count kept over the moves
 * that reached p (0 when p's material has no limit). */
int vdraw_ending_count(const pk_vdraw *d, const pk_vpos *p);
/* The count of a limited ending after a move, from what the move changed: the class
 * (vdraw_ending_class) of the position before it and its count there, the class after
 * it, and whether it captured: the count vdraw_after keeps (the search keeps its own
 * with it, a ply at a time). */
int vdraw_ending_next(const pk_variant *v, int class_before, int count_before, int class_after, bool capture);
/* The plies of kings-only moves after which a game of v is drawn (0: its rules have no
 * such count). */
int vdraw_kings_only_plies(const pk_variant *v);

/* FEN: "W:W31-50:B1-20", K before a king, ranges allowed; squares also by file and rank
 * ("W:Wa1,c3,Ke5:Bb6"), in any variant. 0, or -1 with a message in err. vfen_format
 * writes the squares as the variant's notation does: numbers, or file and rank for the
 * alphanumeric ones (Russian, Brazilian, Czech, Turkish). */
int vfen_parse(const pk_variant *v, const char *s, pk_vpos *p, char *err, size_t errsize);
#define VAR_FEN_STRLEN 400        /* room for any position's FEN */
int vfen_format(const pk_vpos *p, char *buf, size_t size);
/* With numbers for squares in every variant: the form the files pdnkit writes keep
 * (a book's root, the store's start column), whatever the notation. */
int vfen_format_as(const pk_vpos *p, bool numbers, char *buf, size_t size);
/* "32-28", "28x19" or with every landing square "26x17x8". */
int vmove_format(const pk_vmove *m, bool full, char *buf, size_t size);
/* A square and a move as the variant's PDN writes them: numbers, or for the
 * alphanumeric ones (Russian, Brazilian, Czech, Turkish) file and rank, "c3-d4",
 * captures "c3:e5". */
int vsquare_name(const pk_variant *v, int sq, char *buf, size_t size);
int vmove_text(const pk_variant *v, const pk_vmove *m, bool full, char *buf, size_t size);
/* A move of p as a game record writes it: from and to, and every landing square where
 * another legal move of p with other captures has the same ends (as English draughts'
 * pdn_move_string), so that a replay reads back the move played. */
int vmove_pdn(const pk_vpos *p, const pk_vmove *m, char *buf, size_t size);

#endif
