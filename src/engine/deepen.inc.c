/* Iterative deepening, written once for every board (included after engine/node.inc.c
 * by each instance, with its macros, plus N_ITERATION, N_ITERATION_CB, N_RESULT and
 * N_PV_MAX, the longest line an iteration keeps, and N_SET_EXCLUDE(e, lim), which sets
 * the root moves left out): aspiration windows, time and node
 * budgets, the principal variation, and the helper threads that search beside the main
 * one (lazy SMP with deferred moves) sharing what they complete. */
/* A line cut short by a table hit on the way is continued with the table's best moves
 * (exact scores only), as far as the iteration's depth and without repeating a position. */
static void extend_pv(N_ENGINE *e, const N_POS *root, N_ITERATION *it)
{
	N_POS p = *root, c;
	uint64_t seen[N_PV_MAX];
	int nseen = 0;
	for (int i = 0; i < it->npv; i++) {
		seen[nseen++] = N_KEY(&p);
		N_MAKE(&p, &it->pv[i], &c);
		p = c;
	}
	while (it->npv < it->depth && it->npv < N_PV_MAX - 1) {
		tt_data te;
		if (!tt_probe(&e->tt, N_KEY(&p), &te) || te.bound != TT_EXACT || !te.move)
			break;
		N_MOVELIST ml;
		int n = N_GEN(&p, &ml);
		if (te.move - 1 >= n)
			break;
		for (int i = 0; i < nseen; i++)
			if (seen[i] == N_KEY(&p))
				return;
		seen[nseen++] = N_KEY(&p);
		it->pv[it->npv++] = ml.m[te.move - 1];
		N_MAKE(&p, &ml.m[te.move - 1], &c);
		p = c;
	}
}

/* Publishes a completed iteration when it is the deepest yet (several threads). */
static void share_iteration(N_ENGINE *e, int depth, int score, const N_WORKER *w)
{
	pthread_mutex_lock(&e->lock);
	if (depth > e->shared.depth) {
		e->shared.depth = depth;
		e->shared.score = score;
		e->shared.npv = w->pvlen[0] < N_PV_MAX ? w->pvlen[0] : N_PV_MAX;
		memcpy(e->shared.pv, w->pv[0], sizeof(N_MOVE) * (size_t)e->shared.npv);
		atomic_store_explicit(&e->shared_depth, depth, memory_order_relaxed);
	}
	pthread_mutex_unlock(&e->lock);
}

/* Iterative deepening from the root; the main thread (id 0) fills out and reports. With
 * several threads, the helpers search the same root (one ply deeper on odd ids) and feed
 * the shared table; an iteration any thread completes ends the same iteration in the
 * others, which go on with the next, and the main thread reports it. */
static void deepen(N_WORKER *w, const N_POS *root, int max_depth, const pk_limits *lim, N_ITERATION_CB cb,
		   void *ctx, N_RESULT *out)
{
	N_ENGINE *e = w->e;
	int prev = 0;
	double done_at[4] = { 0, 0, 0, 0 };
	N_MOVE prev_best;
	bool have_prev_best = false;
	for (int d = 1 + (w->id & 1); d <= max_depth; d++) {
		w->iter_depth = d;
		int alpha = -INF, beta = INF, s = 0, depth_done = d;
		N_ITERATION got;
		bool taken = false;
		if (e->nthreads > 1 && atomic_load_explicit(&e->shared_depth, memory_order_relaxed) >= d)
			w->stopped = w->superseded = true;
		else {
			/* 1: a window of 0.4 men, opened fully on the side that fails; 2: a window
			 * of 0.2 men that doubles on the side that fails. */
			int delta = e->f.aspiration == 2 ? 20 : 40;
			if (e->f.aspiration && d >= 5 && !score_is_win(prev)) {
				alpha = prev - delta;
				beta = prev + delta;
			}
			for (;;) {
				s = N_NAME(se_search)(w, root, d, alpha, beta, 0);
				if (w->stopped)
					break;
				bool low = s <= alpha && alpha > -INF, high = !low && s >= beta && beta < INF;
				if (!low && !high)
					break;
				if (low && lim && e->f.time_panic > 100 && e->deadline > 0) {
					/* the best move fails: more time to find another */
					double later = e->t0 + N_NAME(engine_panic_time)(&e->f, lim);
					if (later > e->deadline)
						e->deadline = later;
				}
				delta *= 2;
				if (e->f.aspiration == 2 && delta <= 320 && !score_is_win(s)) {
					if (low)
						alpha = s - delta;
					else
						beta = s + delta;
				} else if (low) {
					alpha = -INF;
				} else {
					beta = INF;
				}
			}
		}
		if (w->stopped && w->superseded) {
			/* Another thread completed this iteration (or a deeper one): take its
			 * result and go on from there. */
			w->stopped = w->superseded = false;
			pthread_mutex_lock(&e->lock);
			got = e->shared;
			pthread_mutex_unlock(&e->lock);
			taken = true;
			s = got.score;
			depth_done = got.depth;
			d = got.depth + (w->id & 1 && got.depth + 1 < max_depth);   /* the next starts above */
		} else if (w->stopped) {
			/* In an unfinished iteration, a root move whose search completed and raised
			 * alpha (only then is the root PV set) is the better choice. */
			if (out && w->pvlen[0] > 0 && d > 1)
				out->best = w->pv[0][0];
			break;
		} else if (e->nthreads > 1) {
			share_iteration(e, d, s, w);
		}
		int before = prev;   /* the last iteration's score */
		prev = s;
		if (!out)
			continue;
		N_ITERATION *it = &out->last;
		uint64_t total = w->nodes;
		for (int i = 1; i < e->nthreads; i++)
			total += atomic_load_explicit(&e->wk[i]->shown_nodes, memory_order_relaxed);
		if (taken) {
			*it = got;
		} else {
			it->depth = d;
			it->score = s;
			it->npv = w->pvlen[0] < N_PV_MAX ? w->pvlen[0] : N_PV_MAX;
			memcpy(it->pv, w->pv[0], sizeof(N_MOVE) * (size_t)it->npv);
		}
		it->depth = depth_done;
		extend_pv(e, root, it);
		it->nodes = total;
		it->seconds = se_now() - e->t0;
		if (it->npv > 0)
			out->best = it->pv[0];
		if (cb)
			cb(ctx, it);
		if (score_is_win(s) && score_plies(s) <= depth_done)
			break;   /* the outcome is proven: deeper iterations cannot change it */
#if N_EGDB
		if (e->root_in_egdb && s == e->root_egdb_score && depth_done >= 2)
			break;   /* a move that keeps the database's value: nothing to find */
#endif
		/* With a time limit, an iteration that would likely not finish is not begun.
		 * The time to complete depth d grows about geometrically; its factor is taken
		 * over the last two iterations (odd and even depths differ), from the times
		 * since the start, which stay smooth when threads take iterations over. */
		double t = se_now() - e->t0;
		done_at[d % 4] = t;
		double growth = d >= 3 && done_at[(d - 2) % 4] > 0.0005 ? sqrt(t / done_at[(d - 2) % 4]) : 2.5;
		growth = growth < 1.3 ? 1.3 : growth > 4 ? 4 : growth;
		int use = e->f.time_use;
		if (e->f.time_unstable && d >= 5 && have_prev_best && it->npv > 0 &&
		    (!N_EQUAL(&prev_best, &it->pv[0]) || s < before - 20))
			use = e->f.time_unstable;   /* the choice is in doubt: more time for it */
		if (it->npv > 0) {
			prev_best = it->pv[0];
			have_prev_best = true;
		}
		if (e->deadline > 0 && (use > 0 ? t > lim->movetime * use / 100.0 : t * growth > lim->movetime))
			break;
	}
}

/* One search on the engine's threads: thread 0 is the main one, which reports and keeps
 * time; the helpers run until it is done. */
typedef struct {
	N_ENGINE *e;
	const N_POS *root;
	int max_depth;
	const pk_limits *lim;
	N_ITERATION_CB cb;
	void *ctx;
	N_RESULT *out;
} search_job;

static void search_thread(int i, void *arg)
{
	search_job *s = arg;
	if (i > 0) {
		deepen(s->e->wk[i], s->root, s->max_depth, NULL, NULL, NULL, NULL);
		return;
	}
	deepen(s->e->wk[0], s->root, s->max_depth, s->lim, s->cb, s->ctx, s->out);
	atomic_store(&s->e->abort, true);
}

static void worker_start(N_WORKER *w, const pk_history *h)
{
	w->nodes = 0;
#if N_EGDB
	w->egdb_hits = 0;
#endif
	atomic_store_explicit(&w->shown_nodes, 0, memory_order_relaxed);
	w->stopped = w->superseded = false;
#ifdef N_EVAL_CACHE
	memset(w->eval_cache, 0, sizeof w->eval_cache);   /* the weights may have changed */
#endif
	/* The game so far, for repetitions. */
	int nk = h ? h->nkeys : 0;
	if (nk > MAX_GAME - 1)
		nk = MAX_GAME - 1;
	for (int i = 0; i < nk; i++)
		w->keys[i] = h->keys[h->nkeys - nk + i];
	for (int i = 0; i <= nk; i++)
		w->rev[i] = 0;
	w->base = nk;
	w->rev[nk] = h ? h->reversible : 0;
	if (w->e->f.history_decay)
		for (int i = 0; i < N_SQ; i++)
			for (int j = 0; j < N_SQ; j++)
				w->history[i][j] >>= w->e->f.history_decay;
}

double N_NAME(engine_panic_time)(const pk_features *f, const pk_limits *lim)
{
	double t = f->time_panic > 100 ? lim->movetime * f->time_panic / 100.0 : lim->movetime;
	if (lim->hardtime > 0 && t > lim->hardtime)
		t = lim->hardtime > lim->movetime ? lim->hardtime : lim->movetime;
	return t;
}

int N_NAME(engine_search)(N_ENGINE *e, const N_POS *root, const pk_history *h, const pk_limits *lim,
		  volatile sig_atomic_t *stop, N_ITERATION_CB cb, void *ctx, N_RESULT *out)
{
	memset(out, 0, sizeof *out);
	e->t0 = se_now();
	/* A clock's share shaped by the game's phase (time-opening, time-middle, time-togo). */
	pk_limits shaped;
	int phase_share = lim->clock ? clock_phase_share(&e->f, N_PIECES(root), N_START_PIECES(root)) : 100;
	if (lim->movetime > 0 && phase_share != 100) {
		shaped = *lim;
		shaped.movetime = lim->movetime * phase_share / 100.0;
		if (shaped.hardtime > 0 && shaped.movetime > shaped.hardtime)
			shaped.movetime = shaped.hardtime;
		lim = &shaped;
	}
	e->node_limit = lim->nodes;
	e->deadline = lim->movetime > 0 ? e->t0 + lim->movetime : 0;
	e->stop = stop;
	atomic_store(&e->abort, false);
	atomic_store(&e->shared_depth, 0);
	memset(&e->shared, 0, sizeof e->shared);
	e->tt.age++;
	N_SET_EXCLUDE(e, lim);

#if N_EGDB
	e->root_in_egdb = e->draw_play = e->win_play = false;
	if (e->egdb_pieces && N_PIECES(root) <= e->egdb_pieces &&
	    egdb_probe(e->egdb, root, &out->egdb) == EGDB_FOUND) {
		out->in_egdb = true;
		/* A draw played for a win is searched with the time given. */
		if (out->egdb.value == EGDB_DRAW && e->f.egdb_draws) {
			e->draw_play = true;
		} else if (out->egdb.value != EGDB_DRAW && out->egdb.plies < 0 && e->f.egdb_wins) {
			e->win_play = true;
		} else if (out->egdb.value == EGDB_DRAW || out->egdb.plies >= 0) {
			e->root_in_egdb = true;
			e->root_egdb_score = N_NAME(se_egdb_score)(&out->egdb, root, &e->w, 0);
		}
	}
#endif
	N_MOVELIST ml;
	int n = N_GEN(root, &ml);
	if (n == 0) {
		out->has_move = false;
		out->last.score = -SCORE_WIN;
		return 0;
	}
	int first = -1, included = 0;
	for (int i = 0; i < n; i++)
		if (!N_NAME(se_excluded)(e, &ml.m[i])) {
			included++;
			if (first < 0)
				first = i;
		}
	if (included == 0) {
		out->has_move = false;
		return 0;
	}
	out->has_move = true;
	out->best = ml.m[first];
	if (n == 1) {
		out->forced = true;
		out->last.depth = 0;
		out->last.score = N_EVAL(root, &e->w);
		out->last.pv[0] = ml.m[0];
		out->last.npv = 1;
		return 0;
	}

	int max_depth = lim->depth > 0 ? lim->depth : MAX_PLY - 8;
	for (int i = 0; i < e->nthreads; i++)
		worker_start(e->wk[i], h);
	search_job job = { e, root, max_depth, lim, cb, ctx, out };
	pool_run(e->nthreads, search_thread, &job);
	uint64_t total = 0;
#if N_EGDB
	uint64_t hits = 0;
#endif
	for (int i = 0; i < e->nthreads; i++) {
		total += e->wk[i]->nodes;
#if N_EGDB
		hits += e->wk[i]->egdb_hits;
#endif
	}
	out->last.nodes = total;
#if N_EGDB
	out->last.egdb_hits = hits;
#endif
	out->last.seconds = se_now() - e->t0;
	return 0;
}

