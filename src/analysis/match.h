/* The match referee: two engine settings play every opening with both colours, under the
 * rules of a finished game (no legal move loses; threefold repetition and 50 moves
 * without a capture or a man moved draw; a move limit), on N threads, in English
 * draughts or, with the variant engine, any other variant; the score and the
 * Elo difference with its 95% interval (pdnkit match). */
#ifndef PK_MATCH_H
#define PK_MATCH_H

#include <stdatomic.h>
#include "book/book.h"
#include "engine/search.h"
#include "engine/vsearch.h"

#define MATCH_MAX_PLIES 400

typedef struct {
	pk_pos start;
	pk_vpos vstart;             /* the start, in a match of another variant */
	char text[160];             /* the opening moves, or the FEN it starts from */
	int nply;
	uint64_t keys[8];           /* the positions before start, for repetitions */
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
} pk_player;

typedef struct {
	int a_black;                /* player A has Black (in every variant) */
	int opening;
	int result;                 /* RES_* */
	int plies;
	char *movetext;             /* numbered PDN move text, malloc'ed */
	const char *reason;         /* how it ended */
	atomic_bool finished;       /* played to its end (not cut short by a stop) */
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
} pk_match;

/* Every legal sequence of three plies from the start (the three-move ballots) into a
 * malloc'ed array; returns how many, or -1 when out of memory. */
int match_ballots(pk_opening **out);
/* The opening a replayed game gives (its start and first 8 plies); false when its end
 * position has no legal move. */
bool match_opening_of(const pk_replay *rp, pk_opening *o);

/* The same for another variant: every legal sequence of two plies from its start (the
 * first move and the reply), and a replayed game's first 8 plies (false when it is not
 * a game of v or its position has no legal move). */
int match_vopenings(const pk_variant *v, pk_opening **out);
bool match_vopening_of(const pk_variant *v, const pk_replay *rp, pk_opening *o);

/* Plays m->ngames games (m->games allocated by the call) on `concurrency` threads.
 * 0, or -1 when out of memory. After a stop, only the finished games are scored and
 * match_finished() tells how many there are. */
int match_run(pk_match *m, int ngames, int concurrency);
void match_free_games(pk_match *m);
int match_finished(const pk_match *m);

/* Wins, draws and losses from A's view; the score and Elo difference with its 95%
 * interval (infinite when the score is 0 or 1). */
typedef struct {
	long wins, draws, losses;
	double score, elo, elo_low, elo_high;
} pk_match_score;
void match_score(const pk_match *m, pk_match_score *out);

#endif
