/* The engine's life: tables, threads, weights, features, databases. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "base/pool.h"
#include "engine/search_en.h"

double se_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#include "engine/life.inc.c"

pk_engine *engine_new(size_t hash_mb, const pk_weights *w)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, se_lmr_init);
	pk_engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (tt_init(&e->tt, hash_mb ? hash_mb : 1) < 0) {
		free(e);
		return NULL;
	}
	e->w = w ? *w : *eval_tuned_weights();
	e->f = features_all;
	e->nthreads = 1;
	pthread_mutex_init(&e->lock, NULL);
	e->wk[0] = worker_new(e, 0);
	if (!e->wk[0]) {
		engine_free(e);
		return NULL;
	}
	return e;
}

void engine_set_weights(pk_engine *e, const pk_weights *w)
{
	e->w = *w;
}

void engine_set_egdb(pk_engine *e, pk_egdb *db)
{
	e->egdb = db;
	e->egdb_pieces = db ? egdb_max_pieces(db) : 0;   /* a partial level too: an absent slice is a miss */
	for (int i = 0; i < MAX_THREADS; i++)
		if (e->wk[i] && e->wk[i]->egdb_seen)
			memset(e->wk[i]->egdb_seen, 0, EGDB_SEEN_SLOTS * sizeof(uint64_t));
}

