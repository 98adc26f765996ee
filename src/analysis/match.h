/* The match referee: two engine settings play every opening with both colours, under the
 * rules of a finished game (no legal move loses; threefold repetition and 50 moves
 * without a capture or a man moved draw; a move limit), on N threads, in English
 * draughts or, with the variant engine, any other variant; the score and the
 * Elo difference with its 95% interval (pdnkit match). */
#ifndef PK_MATCH_H
#define PK_MATCH_H

#include <stdatomic.h>
#include "book/book.h"
#include "egdb/vegdb.h"
#include "engine/search.h"
#include "engine/vsearch.h"
#include "proto/client.h"
#include "rules/gpos.h"

#define MATCH_MAX_PLIES 400
/* The SPRT decides only after this many pairs of games. */
#define MATCH_SPRT_MIN_PAIRS 8

typedef struct {
	pk_pos start;
	pk_vpos vstart;             /* the start, in a match of another variant */
	char text[160];             /* the opening moves, or the FEN it starts from */
	int nply;
	uint64_t keys[8];           /* the positions before start, for repetitions */
	pk_pos root;                /* English: the position before the opening's plies */
	pk_move pre[8];             /* and the plies (nply of them), for engines that keep
				     * the game's history and for the record */
	pk_vpos vroot;              /* the same in a match of another variant */
	pk_vmove vpre[8];
} pk_opening;

typedef struct {
	const char *spec;           /* the options as given, for the record */
	pk_limits lim;
	pk_features f;
	size_t hash;                /* MB */
	int threads;
	pk_weights w;
	pk_book *bk;                /* plays from it while the position is in it (may be NULL) */
	pk_egdb *egdb;              /* endgame databases the search probes (may be NULL) */
	pk_vweights vw;             /* the weights, in a match of another variant */
	int vegdb;                  /* and its endgame databases (egdb/vegdb.h): 0 the process's */
	char vegdb_dir[1024];       /* default, 1 those in vegdb_dir, 2 none */
	const pk_engine_spec *ext;  /* another engine (English only), or NULL for pdnkit's */
	double ext_time;            /* its seconds a move */
	char name[160];             /* the other engine's name as it gives it (after the run) */
	/* the time it used (after the run): in all, its longest move, moves searched */
	double used, longest;
	long searched;
} pk_player;

typedef struct {
	int a_black;                /* player A has Black (in every variant) */
	int opening;
	int result;                 /* RES_* */
	int plies;
	char *movetext;             /* numbered PDN move text, malloc'ed */
	const char *reason;         /* how it ended */
	char *detail;               /* a fault: what the engine did (malloc'ed), else NULL */
	int fault_by;               /* 0 A, 1 B, -1 none */
	pk_client_status fault;
	double used[2];             /* seconds A and B used */
	int moves[2];               /* moves A and B searched (not from a book) */
	atomic_bool finished;       /* played to its end (not cut short by a stop) */
	/* With m->judge: the databases' value (RES_*) of the game's first position of as many
	 * pieces as they hold or fewer, or the game's result when it ended before one; RES_NONE
	 * when the databases lacked that position's slice. */
	int judged;
} pk_match_game;

typedef struct {
	const pk_variant *variant;  /* NULL: English draughts; else the variant engine plays */
	pk_player pl[2];            /* A and B */
	const pk_opening *op;
	int nop;
	pk_match_game *games;       /* game i: opening (i / 2) % nop, A with Black when i is even */
	int ngames;
	long book_moves[2];
	/* internal */
	atomic_int next, done;
	atomic_long book_count[2];
	/* called on the thread that finished game gi, after it is marked finished; one
	 * call at a time */
	void (*progress)(void *ctx, int done, int gi);
	void *ctx;
	const volatile sig_atomic_t *stop;   /* when set: the games being played are abandoned
					      * (not counted), no new one begins */
	int failed;                 /* out of memory somewhere */
	pk_client_opts copts;       /* for the other engines */
	bool stop_on_fault;         /* a fault ends the run (after the games being played) */
	pk_egdb *adjudicate;        /* ends a game at an exact value of these databases (may be NULL) */
	const pk_vegdb *vadjudicate; /* the same for a variant's games (may be NULL): a draw,
				      * or a win no draw rule's count can end first */
	pk_egdb *judge;             /* judges each game at its first position they hold (games[].judged;
				     * may be NULL) */
	/* Adjudication by the engines' scores (hundredths of a man, English draughts): a
	 * win when both engines' last score_moves scores each gave one side score_win or
	 * more; a draw from ply draw_ply on when both engines' last score_moves scores each
	 * stayed within draw_score of 0. score_moves 0: off. */
	int score_moves, score_win, draw_ply, draw_score, draw_moves;
	double sprt_elo0, sprt_elo1;  /* when they differ: stop when the SPRT decides */
	int sprt_decision;          /* after the run: 1 H1 (elo1) accepted, -1 H0, 0 neither */
	double clock_base, clock_inc;  /* a clock: seconds for the game and added after each move
				       * (0: each engine's time a move, pl[].lim / ext_time) */
	bool opening_per_game;      /* game i plays opening i (self-play), not (i / 2) % nop */
	bool no_notes;              /* the moves alone in the record, without their notes
				     * ({[%eval] [%depth] [%emt]}, {book}): self-play's data */
	atomic_bool halt;           /* no new game: a fault with stop_on_fault, or the SPRT */
	atomic_int faults;
} pk_match;

/* Whether player A moves first in game i (White in International draughts, Black in
 * English): results count from the first mover ("1-0": it won). */
static inline bool match_a_first(const pk_match *m, int i)
{
	bool white_first = m->variant && m->variant->first == PK_WHITE;
	return white_first ? !m->games[i].a_black : m->games[i].a_black;
}

/* Every legal sequence of three plies from the start (the three-move ballots) into a
 * malloc'ed array; returns how many, or -1 when out of memory. */
int match_ballots(pk_opening **out);
/* The ACF three-move deck (156 openings, analysis/ballots.h), or with plies 2 every
 * legal two-ply opening (49), the same way. */
int match_deck(int plies, pk_opening **out);
/* base followed by plies random legal moves chosen by seed (at most 8 plies in all), its
 * text extended; false when the position reached has no legal move. */
bool match_randomize(const pk_opening *base, int plies, uint64_t seed, pk_opening *o);
/* The opening a replayed game gives (its start and first 8 plies); false when its end
 * position has no legal move. With at_pieces > 0, the game's first position of at most
 * that many pieces where the side to move has no capture (reached by the game's 8 plies
 * before it, from the position there); false when the game has none. */
bool match_opening_of(const pk_replay *rp, int at_pieces, pk_opening *o);

/* The same for another variant: every legal sequence of two plies from its start (the
 * first move and the reply), and a replayed game's first 8 plies or its position of
 * at_pieces (false when it is not a game of v or its position has no legal move). */
int match_vopenings(const pk_variant *v, pk_opening **out);
bool match_vopening_of(const pk_variant *v, const pk_replay *rp, int at_pieces, pk_opening *o);
/* base followed by plies random legal moves of v chosen by seed (at most 8 plies in all),
 * as match_randomize does for English draughts. */
bool match_vrandomize(const pk_variant *v, const pk_opening *base, int plies, uint64_t seed, pk_opening *o);

/* Whether a game from o is recorded from the opening's root (its plies the first of the
 * move text; v NULL: English draughts), and if so that root into *root. */
bool match_opening_root(const pk_opening *o, const pk_variant *v, pk_gpos *root);

/* Plays m->ngames games (m->games allocated by the call) on `concurrency` threads.
 * 0, or -1 when out of memory. After a stop, only the finished games are scored and
 * match_finished() tells how many there are. */
int match_run(pk_match *m, int ngames, int concurrency);
/* The same in two steps: match_prepare allocates the games and gives each its opening and
 * colours (-1 when out of memory); a game the caller then marks finished (with its result,
 * read from an earlier run's record) is counted and not played again by match_play. */
int match_prepare(pk_match *m, int ngames);
int match_play(pk_match *m, int concurrency);
void match_free_games(pk_match *m);
int match_finished(const pk_match *m);

/* How a game lost by a fault ended, as the record's Termination says it. */
const char *match_fault_reason(pk_client_status st);

/* Wins, draws and losses from A's view; the score and Elo difference with its 95%
 * interval (infinite when the score is 0 or 1). */
typedef struct {
	long wins, draws, losses;
	double score, elo, elo_low, elo_high;
	long pairs;                 /* openings played with both colours: the interval is from
				     * them when there are at least two (pentanomial) */
	double llr;                 /* the SPRT's log-likelihood ratio when one is set */
} pk_match_score;
void match_score(const pk_match *m, pk_match_score *out);
/* The same with each game's judged result in place of its result (m->judge); a game
 * without one (RES_NONE) is left out. */
void match_score_judged(const pk_match *m, pk_match_score *out);
/* The databases' value of p as a result (RES_BLACK_WINS, RES_WHITE_WINS, RES_DRAW), or
 * RES_NONE when they do not hold it. */
int match_egdb_result(pk_egdb *db, const pk_pos *p);
/* The same for a variant's position, with the game's draw counts d: a draw, or a win
 * whose distance no count can cut short (else RES_NONE: the game is played on). */
int match_vegdb_result(const pk_vegdb *db, const pk_vdraw *d, const pk_vpos *p);
/* Judging a game position by position (m->judge): *state starts at 0; each position in
 * turn, then the game's result with p NULL, until it returns true, *judged set. */
bool match_judge_step(pk_egdb *db, const pk_pos *p, int result, int *judged);
/* The SPRT's bounds for alpha = beta = 0.05: below lower accepts elo0, above upper elo1. */
void match_sprt_bounds(double *lower, double *upper);

#endif
