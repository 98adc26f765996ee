/* The search: iterative deepening, principal variation search with aspiration windows,
 * captures and forced moves searched without spending depth, a transposition table,
 * killer and history move ordering, and draws by repetition and by the move-count rule. */
#ifndef PK_SEARCH_H
#define PK_SEARCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "egdb/egdb.h"
#include "engine/eval.h"
#include "rules/gen.h"
#include "engine/tt.h"

#define SCORE_WIN 30000           /* a win in n plies scores SCORE_WIN - n */
#define SCORE_WIN_MIN (SCORE_WIN - 1000)
#define MAX_PLY 128

typedef struct {
	int depth;                  /* 0: no limit */
	uint64_t nodes;             /* 0: no limit */
	double movetime;            /* seconds; 0: no limit */
	double hardtime;            /* seconds never passed, even by time-panic (a clock's
				     * reserve, an exact time); 0: movetime x time-panic */
	const pk_move *exclude;     /* root moves not to consider (for several best lines) */
	int nexclude;
	bool clock;                 /* movetime is a share of a game's clock (clock_share), which
				     * time-opening and time-middle may shape by the game's phase */
} pk_limits;

typedef struct {
	int depth;
	int score;                  /* side to move's view */
	uint64_t nodes;
	double seconds;
	pk_move pv[MAX_PLY];
	int npv;
	uint64_t egdb_hits;         /* nodes valued by the endgame databases */
} pk_iteration;

typedef struct {
	pk_move best;
	bool has_move;              /* false when the side to move has no legal move */
	bool forced;                /* only one legal move: played without a search */
	pk_iteration last;          /* the last completed iteration */
	bool in_egdb;               /* the root is in the endgame databases: */
	pk_egdb_result egdb;        /* its value there */
} pk_result;

/* Past positions of the game before the root, for repetitions: keys oldest first, and
 * how many of the last plies were reversible (no capture, no man moved); for another
 * variant, the plies already played in the root's limited ending as its draw rule counts
 * them (pk_vdraw.ending, rules/vdraw.c; 0: none, or not counted). */
typedef struct {
	const uint64_t *keys;
	int nkeys;
	int reversible;
	int ending;
} pk_history;

/* Search features that can be switched, so that a match can show what each one is
 * worth (features_all: the defaults, each kept because it won its match). */
typedef struct {
	int lmr;           /* late quiet moves searched shallower first: 0 off; 1 by one or two
			    * plies at non-PV nodes; 2 by up to three plies, earlier; 3 (default)
			    * log(depth) log(move number) / 1.6 plies, one less at PV nodes;
			    * 4 the same over 1.25, 5 over 1.0 */
	bool killers;
	bool history;
	int aspiration;    /* root windows: 0 none; 1 0.4 men, opened fully on a failure;
			    * 2 (default) 0.2 men, doubled on the failing side */
	int tt_ways;       /* transposition table slots a key may use: 1 (default; two-slot
			    * buckets measured +7 Elo, 95% -16..+31, not adopted) or 2 */
	bool tt_horizon;   /* the table also at the horizon's capture-only nodes (default off:
			    * equal per node, a memory access slower) */
	bool history_malus;/* a cut-off also lowers the history of the plain moves tried
			    * before (default on, with the decay: +32 Elo, 95% +15..+49, at
			    * 30,000 nodes; alone it measured +8, -16..+32) */
	int lmp;           /* late plain moves of null-window nodes near the horizon not
			    * searched: 0 off, 1..4 from fewer to more pruning (default 3) */
	int probcut;       /* margin (hundredths) of the shallow search that cuts a null-window
			    * node off early; 0 off (default 60) */
	int probcut_depth; /* that shallow search's depth as a share (%) of the node's, from
			    * depth 3, with no shallow search of its own inside it; 0: four
			    * plies less, from depth 5 (default) */
	int probcut_slope; /* hundredths added to probcut's margin for each ply of depth
			    * (default 0) */
	int time_use;      /* with a time limit, a new iteration is begun while less than this
			    * share (percent) of the time is used, and cut off at the limit
			    * (its best move kept once the first root move is searched); 0: only
			    * an iteration predicted to finish is begun (the older rule) */
	int threat;        /* a quiet leaf where the opponent could capture if it were to move
			    * (a piece left hanging) is searched one ply more: 0 off, 1 on */
	int egdb_draws;    /* a root the databases hold drawn: 0 any move that keeps the draw,
			    * at once; 1 played for a win: searched with the time given, drawn
			    * positions searched on (not cut off by the databases) with scores
			    * bounded to 0 .. EGDB_DRAW_MAX for the root's side (the clipped
			    * evaluation; a bound of 0.5 men made 10 wins of drawn endings
			    * where this made 17, in 312 games against GuiNN) */
	int egdb_wins;     /* a root the databases hold won or lost, without distances (6
			    * pieces): 0 the positions below it that they hold are scored at
			    * once (a win plus the evaluation), so the choice is greedy on the
			    * evaluation; 1 (default) such positions are searched on to the
			    * horizon and scored so there, so that exchanges into endings with
			    * distances, repetitions and the 50-move counter are seen (from 115
			    * won 6-piece positions against GuiNN at 0.1 s: 115 of 115 won,
			    * against 93 with 0) */
	int history_decay; /* at the start of each search the history of plain moves is shifted
			    * right this many bits (0: kept whole from search to search, as it
			    * was; default 2) */
	int rfp;           /* a null-window node near the horizon (remaining depth 1 to 3), no
			    * capture on the board for either side, whose evaluation exceeds beta
			    * by this margin (hundredths) a ply of depth is cut off with it; 0 off */
	int razor;         /* a null-window node with 2 or 3 plies left, no capture, whose
			    * evaluation is this margin (hundredths) a ply below alpha and whose
			    * search one ply deep stays there, is cut off with it; 0 off */
	int lmr_adjust;    /* lmr 3 and 4: 1 a killer move reduced a ply less; 2 also a plain
			    * move without history a ply more (depth 3 or more); 0 off */
	int time_unstable; /* with a time limit: a new iteration is begun under this share (%)
			    * of the time instead of time-use when the last one changed the best
			    * move or lost more than 0.2 men; 0 off */
	int countermove;   /* 1: the plain move that refuted the opponent's last move, there,
			    * ordered after the killers; 0 off */
	int iir;           /* a node of at least this depth without a table move is searched a
			    * ply shallower (internal iterative reduction); 0 off */
	int singular;      /* a table move whose stored lower bound every other move stays this
			    * margin (hundredths) below in a search of half the depth is
			    * searched a ply deeper (singular extension; depth 8 or more, the
			    * table's depth at most 3 plies short); 0 off */
	int book_check;    /* a book move is played only when a search of it alone, to the depth
			    * a search of the whole position completed (70% of the limits),
			    * scores no more than this margin (hundredths) below that search's
			    * best (engine_book_search); 0: book moves at once, unsearched */
	int book_min;      /* the book's move is played only when it was played in at least
			    * this many of the book's games; else the position is searched
			    * (0 or 1: whenever the book has a move) */
	int book_score;    /* a book move is played only when its games scored at least this
			    * share (%) for the side that played it, a draw half a point, with
			    * half a point of one game more (a move of 2 games, both lost, 17%);
			    * else the next most played, else the position is searched; 0 off
			    * (default 30) */
	int prune_pieces;  /* positions of at most this many pieces are not pruned or reduced
			    * (rfp, razor, probcut, lmp, lmr 3 and 4): a king hunt is a long
			    * narrow line that cuts would lose (default 6) */
	int time_panic;    /* with a time limit: when the root's search of depth 5 or more fails
			    * low (the best move's score falls below the window), the search may
			    * go on to this share (%) of the time given, never past the limits'
			    * hardtime; 0 off (never past it; default 300) */
	int etc;           /* enhanced transposition cutoff: at a null-window node of at least
			    * this depth, before its moves are searched, the table's entry of
			    * each child is looked at, and one that already proves a cut-off
			    * ends the node at once; 0 off (default 4) */
	int progress;      /* a quiet leaf's evaluation falls linearly with the plies of king
			    * moves without a capture that lead to it (the game's and the
			    * line's), to 0 at this many: a side ahead that cannot make
			    * progress is drawing; 0 off */
	int sac;           /* a plain move after which the other side must capture (a
			    * sacrifice or an exchange offered: the start of a shot) is never
			    * left out by lmp, and reduced by lmr 3 and 4 this many plies less
			    * (2 or more: not at all); 0 off */
	bool shots;        /* such a move is never left out by lmp, and reduced by lmr as any
			    * other (sac's exemption from pruning alone); off by default */
	int time_opening;  /* on a clock: the share (%) of clock_share's time taken while at
			    * least 90% of the starting pieces are on the board (default 100) */
	int time_middle;   /* and while at least half of them are (default 100); never past
			    * the limits' hardtime */
	int offers;        /* 1: at a quiet leaf without kings whose evaluation is below beta,
			    * the mover's plain moves that give the other side a capture (an
			    * exchange offered, a shot begun) are searched through the captures
			    * that follow, the best kept where it beats the evaluation; 0 off */
	int time_togo;     /* on a clock: the moves to go that clock_share's time is shared
			    * over fall from 30 with every piece on the board to this many at
			    * a quarter of them (clock_phase_share); 0 off (25 throughout) */
	int capture_ply;   /* a capture with more than one way to take, at a node with more
			    * than this many plies to go, costs a ply as a quiet move does (a
			    * forced capture never does); 0 off: captures never cost a ply */
	int draw_seek;     /* each piece on the board costs the side the search is for (the
			    * root's side to move) this many hundredths of a man at a quiet
			    * leaf, so that of two lines it judges alike it prefers the one that
			    * trades more, and a draw (0) to an even position with pieces left:
			    * for play against a stronger engine, never for analysis (its
			    * scores are the evaluation's less that); 0 off */
	int few;           /* a node whose side to move has at most this many moves, none a
			    * capture, costs its children no ply (a squeeze searched on until a
			    * side has room again); 0 off */
	uint64_t given;    /* bit i: the i-th of features_parse's names was given (by the
			    * user), which a variant's own defaults then leave as given */
} pk_features;

extern const pk_features features_all;

/* Changes features from "name=value,..." (names: lmr, killers, history, aspiration,
 * tt-ways, tt-horizon, history-malus, lmp, probcut, time-use, threat, egdb-draws, egdb-wins, history-decay,
 * rfp, razor, lmr-adjust, book-check, book-min, book-score, time-unstable, countermove, iir, singular,
 * time-panic, prune-pieces, etc, progress, sac, shots, time-opening, time-middle, offers, time-togo, capture-ply, draw-seek; booleans 0
 * or 1). 0, or -1 with the reason in err. */
int features_parse(const char *spec, pk_features *f, char *err, size_t errsize);
/* The features as that text, every one named. */
void features_format(const pk_features *f, char *buf, size_t size);
/* Only the features whose values differ from base's ("" when none do): a setting that
 * stays as stable as the features a user changed when features are added. */
void features_format_changed(const pk_features *f, const pk_features *base, char *buf, size_t size);
/* Whether a and b search alike (every feature the same; what was given aside). */
bool features_same(const pk_features *a, const pk_features *b);
/* f with the defaults of the variant of that PDN GameType where it has its own (the
 * features that won its matches; none for English draughts), the features given to
 * features_parse left as they were. */
void features_for_variant(pk_features *f, int gametype);
/* A move's seconds from a clock of `left` seconds with `inc` more after each move and
 * `moves` still to play before the clock is reset (0: unknown, taken as 25): the share
 * of those moves of the clock less a reserve of CLOCK_RESERVE seconds, and most of the
 * increment, never more than 0.4 of the clock nor less than a thousandth of a second.
 * One rule for match's clocks, play's, the Hub's level and the DXP follower's game. */
#define CLOCK_RESERVE 0.5
double clock_share(double left, double inc, int moves);
/* The share (%) of that time a search takes by the game's phase: time-opening while at
 * least 90% of the start's pieces are on the board, time-middle while at least half
 * are, else 100. The search applies it when its limits say `clock`. */
int clock_phase_share(const pk_features *f, int pieces, int start_pieces);

typedef struct pk_engine pk_engine;

pk_engine *engine_new(size_t hash_mb, const pk_weights *w);
void engine_free(pk_engine *e);
/* Threads of the search (default 1): helpers search the same root and share the table.
 * With one thread and a depth or node limit, a search gives the same result every run. */
int engine_set_threads(pk_engine *e, int n);
void engine_new_game(pk_engine *e);      /* forget the TT, killers and history */
void engine_set_weights(pk_engine *e, const pk_weights *w);
void engine_set_features(pk_engine *e, const pk_features *f);

/* Endgame databases to probe at every node with few enough pieces (NULL: none). Not
 * owned; must outlive the searches. A position they hold scores exactly: a win in n
 * plies as a win found by search, a draw 0; slices without distances score a win as
 * SCORE_EGDB_WIN plus the evaluation, so that the search makes progress towards slices
 * with distances. */
#define SCORE_EGDB_WIN 20000
#define EGDB_DRAW_MAX 2000
void engine_set_egdb(pk_engine *e, pk_egdb *db);

/* Called after each completed iteration (may be NULL). */
typedef void (*pk_iteration_cb)(void *ctx, const pk_iteration *it);

/* The seconds from its start a timed search whose best move fails low may run to:
 * movetime x time-panic %, never past hardtime (when set) nor below movetime. */
double engine_panic_time(const pk_features *f, const pk_limits *lim);

/* Search root under the limits. *stop, when non-NULL, is polled: set it (e.g. from a
 * SIGINT handler) to end the search with the best move found so far. */
int engine_search(pk_engine *e, const pk_pos *root, const pk_history *h, const pk_limits *lim,
		  volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx, pk_result *out);

struct pk_book;
/* The move of root with a book: gengine_book_search (engine/gengine.h) for English
 * draughts' callers, its iterations and result as theirs. NULL bk: engine_search. */
int engine_book_search(pk_engine *e, const struct pk_book *bk, const pk_pos *root, const pk_history *h,
		       const pk_limits *lim, volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx,
		       pk_result *out, bool *from_book);

/* Whether a score announces a win (>0) or loss (<0) found by search, and in how many plies. */
static inline bool score_is_win(int s) { return s >= SCORE_WIN_MIN || s <= -SCORE_WIN_MIN; }
static inline int score_plies(int s) { return s > 0 ? SCORE_WIN - s : SCORE_WIN + s; }

#endif
