/* What the files of engine/ share (search.c, deepen.c, engine.c): the state of a
 * search thread and of the engine. Not for use outside engine/. */
#ifndef PK_SEARCH_INT_H
#define PK_SEARCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include "engine/search.h"

#define INF 32000
#define MAX_GAME 2048
#define MAX_THREADS 64

/* What one thread of the search owns; the transposition table is shared. */
typedef struct worker {
	struct pk_engine *e;
	int id;                           /* 0: the main thread, which reports */
	pk_move killers[MAX_PLY][2];
	uint32_t history[32][32];
	pk_move counter[32][32];          /* the refutation of a move, by its from and to */
	pk_move path[MAX_PLY];            /* the move played at each ply of the line searched */
	uint64_t nodes;
	uint64_t egdb_hits;
	uint64_t egdb_reads;              /* probes that went to the shared cache */
	_Atomic uint64_t shown_nodes;     /* nodes, published every 1024 for the others */
	bool stopped;
	uint64_t keys[MAX_GAME + MAX_PLY];
	int rev[MAX_GAME + MAX_PLY];     /* reversible plies ending at each entry */
	int base;                         /* entries before the root */
	pk_move pv[MAX_PLY][MAX_PLY];
	int pvlen[MAX_PLY];
	int iter_depth;                   /* the iteration being searched */
	bool superseded;                  /* stopped because another thread completed it */
	uint64_t *egdb_seen;              /* this thread's recent database results: the key's
					   * high bits and the result (NULL until the first probe) */
} worker;

#define EGDB_SEEN_SLOTS (1u << 16)

/* Moves being searched by some thread, so that the others try them last (deferred
 * moves, after ABDADA): a slot holds the hash of a position and a move. */
#define BUSY_SLOTS 32768

struct pk_engine {
	pk_tt tt;
	pk_weights w;
	pk_features f;
	int nthreads;
	worker *wk[MAX_THREADS];
	/* the current search */
	uint64_t node_limit;
	double t0, deadline;
	volatile sig_atomic_t *stop;
	atomic_bool abort;                /* set by the main thread: helpers end */
	pk_egdb *egdb;
	int egdb_pieces;                  /* probe positions of up to this many pieces */
	bool draw_play;                   /* the root is a database draw played for a win */
	bool win_play;                    /* the root is a database win or loss without
					   * distances (egdb-wins=1): such positions below it
					   * are searched on to the horizon, not scored at once */
	bool root_in_egdb;                /* the root's database score is known: */
	int root_egdb_score;
	const pk_move *exclude;           /* root moves left out */
	int nexclude;
	/* the deepest iteration any thread has completed */
	pthread_mutex_t lock;
	atomic_int shared_depth;
	pk_iteration shared;
	_Atomic uint64_t busy[BUSY_SLOTS];
};


/* Seconds on a monotonic clock. */
double se_now(void);
/* The tables the search's reductions read; once, before the first search. */
void se_lmr_init(void);
/* The alpha-beta search of one thread (search.c). */
int se_search(worker *w, const pk_pos *p, int depth, int alpha, int beta, int ply);
/* The search's score of a database value, ply plies from the root. */
int se_egdb_score(const pk_egdb_result *r, const pk_pos *p, const pk_weights *wt, int ply);
/* Whether a root move is left out (pk_limits.exclude). */
bool se_excluded(const pk_engine *e, const pk_move *m);

#endif
