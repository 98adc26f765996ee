/* An engine's life, written once for every board (included by engine.c and search_mb.c
 * with their macros, engine/node.inc.c's): its threads, a new game, its features, its
 * end. Its birth differs by board (weights) and is each instance's own. */

static N_WORKER *worker_new(N_ENGINE *e, int id)
{
	N_WORKER *w = calloc(1, sizeof *w);
	if (w) {
		w->e = e;
		w->id = id;
	}
	return w;
}

int N_NAME(engine_set_threads)(N_ENGINE *e, int n)
{
	if (n < 1)
		n = 1;
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	for (int i = 1; i < n; i++)
		if (!e->wk[i] && !(e->wk[i] = worker_new(e, i)))
			return -1;
	e->nthreads = n;
	return 0;
}

void N_NAME(engine_free)(N_ENGINE *e)
{
	if (!e)
		return;
	for (int i = 0; i < MAX_THREADS; i++)
		if (e->wk[i]) {
#if N_EGDB
			free(e->wk[i]->egdb_seen);
#endif
			free(e->wk[i]);
		}
	tt_free(&e->tt);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

void N_NAME(engine_new_game)(N_ENGINE *e)
{
	tt_clear(&e->tt);
	for (int i = 0; i < MAX_THREADS && e->wk[i]; i++) {
		memset(e->wk[i]->killers, 0, sizeof e->wk[i]->killers);
		memset(e->wk[i]->history, 0, sizeof e->wk[i]->history);
		memset(e->wk[i]->counter, 0, sizeof e->wk[i]->counter);
	}
}

void N_NAME(engine_set_features)(N_ENGINE *e, const pk_features *f)
{
	e->f = *f;
	e->tt.ways = f->tt_ways == 2 ? 2 : 1;
}
