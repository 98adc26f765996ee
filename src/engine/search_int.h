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

#define EGDB_SEEN_SLOTS (1u << 16)

/* Moves being searched by some thread, so that the others try them last (deferred
 * moves, after ABDADA): a slot holds the hash of a position and a move. */
#define BUSY_SLOTS 32768

/* The English instance: the 32-square bitboards. */
#define N_MOVE pk_move
#define N_SQ 32
#define N_WORKER worker
#define N_ENGINE_STRUCT struct pk_engine
#define N_WEIGHTS pk_weights
#define N_ITERATION pk_iteration
#define N_EGDB 1
#include "engine/worker.inc.h"
#undef N_MOVE
#undef N_SQ
#undef N_WORKER
#undef N_ENGINE_STRUCT
#undef N_WEIGHTS
#undef N_ITERATION
#undef N_EGDB

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
