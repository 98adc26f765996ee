/* The search. Scores are from the side to move's view; a side without a legal move has
 * lost. Every leaf is quiet: a position with a capture, or with a single legal move, is
 * searched further without spending depth (captures are compulsory, so there is no
 * "standing pat" on them). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "base/pool.h"
#include "engine/search.h"

#define INF 32000
#define MAX_GAME 2048

const pk_features features_all = {
	.lmr = 3, .killers = true, .history = true, .aspiration = 2, .tt_ways = 1, .lmp = 3, .probcut = 60,
};

#define MAX_THREADS 64

static const struct {
	const char *name;
	int lo, hi;
	size_t off;
	bool flag;
} feature_names[] = {
	{ "lmr", 0, 4, offsetof(pk_features, lmr), false },
	{ "killers", 0, 1, offsetof(pk_features, killers), true },
	{ "history", 0, 1, offsetof(pk_features, history), true },
	{ "aspiration", 0, 2, offsetof(pk_features, aspiration), false },
	{ "tt-ways", 1, 2, offsetof(pk_features, tt_ways), false },
	{ "tt-horizon", 0, 1, offsetof(pk_features, tt_horizon), true },
	{ "history-malus", 0, 1, offsetof(pk_features, history_malus), true },
	{ "lmp", 0, 3, offsetof(pk_features, lmp), false },
	{ "probcut", 0, 1000, offsetof(pk_features, probcut), false },
};
#define NFEATURES (sizeof feature_names / sizeof feature_names[0])

int features_parse(const char *spec, pk_features *f, char *err, size_t errsize)
{
	const char *p = spec;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		size_t nlen = eq ? (size_t)(eq - p) : len;
		size_t i = 0;
		while (i < NFEATURES && (strlen(feature_names[i].name) != nlen ||
					 strncmp(feature_names[i].name, p, nlen) != 0))
			i++;
		if (i == NFEATURES) {
			snprintf(err, errsize, "unknown search feature '%.*s'", (int)nlen, p);
			return -1;
		}
		char *end = NULL;
		long v = eq ? strtol(eq + 1, &end, 10) : 0;
		if (!eq || end == eq + 1 || end != p + len || v < feature_names[i].lo || v > feature_names[i].hi) {
			snprintf(err, errsize, "search feature '%s' needs a value from %d to %d",
				 feature_names[i].name, feature_names[i].lo, feature_names[i].hi);
			return -1;
		}
		char *field = (char *)f + feature_names[i].off;
		if (feature_names[i].flag)
			*(bool *)field = v != 0;
		else
			*(int *)field = (int)v;
		p += len + (p[len] == ',');
	}
	return 0;
}

void features_format(const pk_features *f, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NFEATURES && used < size; i++) {
		const char *field = (const char *)f + feature_names[i].off;
		int v = feature_names[i].flag ? *(const bool *)field : *(const int *)field;
		int k = snprintf(buf + used, size - used, "%s%s=%d", i ? "," : "", feature_names[i].name, v);
		if (k < 0)
			break;
		used += (size_t)k;
	}
}

/* What one thread of the search owns; the transposition table is shared. */
typedef struct worker {
	struct pk_engine *e;
	int id;                           /* 0: the main thread, which reports */
	pk_move killers[MAX_PLY][2];
	uint32_t history[32][32];
	uint64_t nodes;
	uint64_t egdb_hits;
	_Atomic uint64_t shown_nodes;     /* nodes, published every 1024 for the others */
	bool stopped;
	uint64_t keys[MAX_GAME + MAX_PLY];
	int rev[MAX_GAME + MAX_PLY];     /* reversible plies ending at each entry */
	int base;                         /* entries before the root */
	pk_move pv[MAX_PLY][MAX_PLY];
	int pvlen[MAX_PLY];
	int iter_depth;                   /* the iteration being searched */
	bool superseded;                  /* stopped because another thread completed it */
} worker;

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

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lmr_table[2][64][64];
/* Moves tried at a null-window node before the rest are left out, by remaining depth. */
static const int lmp_limit[4][4] = { { 0 }, { 0, 5, 7, 10 }, { 0, 4, 6, 8 }, { 0, 3, 5, 7 } };

static void lmr_init(void)
{
	for (int d = 1; d < 64; d++)
		for (int k = 1; k < 64; k++) {
			lmr_table[0][d][k] = (int)(0.5 + log((double)d) * log((double)k) / 1.6);
			lmr_table[1][d][k] = (int)(0.5 + log((double)d) * log((double)k) / 1.25);
		}
}

static worker *worker_new(pk_engine *e, int id)
{
	worker *w = calloc(1, sizeof *w);
	if (w) {
		w->e = e;
		w->id = id;
	}
	return w;
}

pk_engine *engine_new(size_t hash_mb, const pk_weights *w)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, lmr_init);
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

int engine_set_threads(pk_engine *e, int n)
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

void engine_free(pk_engine *e)
{
	if (!e)
		return;
	for (int i = 0; i < MAX_THREADS; i++)
		free(e->wk[i]);
	tt_free(&e->tt);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

void engine_new_game(pk_engine *e)
{
	tt_clear(&e->tt);
	for (int i = 0; i < MAX_THREADS && e->wk[i]; i++) {
		memset(e->wk[i]->killers, 0, sizeof e->wk[i]->killers);
		memset(e->wk[i]->history, 0, sizeof e->wk[i]->history);
	}
}

void engine_set_weights(pk_engine *e, const pk_weights *w)
{
	e->w = *w;
}

void engine_set_features(pk_engine *e, const pk_features *f)
{
	e->f = *f;
	e->tt.ways = f->tt_ways == 2 ? 2 : 1;
}

void engine_set_egdb(pk_engine *e, pk_egdb *db)
{
	e->egdb = db;
	e->egdb_pieces = db ? egdb_pieces(db) : 0;
}

/* The search's score of a database value, ply plies from the root. */
static int egdb_score(const pk_egdb_result *r, const pk_pos *p, const pk_weights *wt, int ply)
{
	if (r->value == EGDB_DRAW)
		return 0;
	if (r->plies >= 0)
		return r->value == EGDB_WIN ? SCORE_WIN - ply - r->plies : -SCORE_WIN + ply + r->plies;
	int v = eval(p, wt);
	v = v > 2000 ? 2000 : v < -2000 ? -2000 : v;
	return r->value == EGDB_WIN ? SCORE_EGDB_WIN + v : -SCORE_EGDB_WIN + v;
}

static int to_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s;
}

static int from_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s;
}

static bool out_of_budget(worker *w)
{
	pk_engine *e = w->e;
	atomic_store_explicit(&w->shown_nodes, w->nodes, memory_order_relaxed);
	if (e->nthreads > 1 && atomic_load_explicit(&e->shared_depth, memory_order_relaxed) >= w->iter_depth) {
		w->superseded = true;
		return true;
	}
	if (w->id > 0)
		return atomic_load_explicit(&e->abort, memory_order_relaxed);
	if (e->stop && *e->stop)
		return true;
	if (e->node_limit) {
		uint64_t total = w->nodes;
		for (int i = 1; i < e->nthreads; i++)
			total += atomic_load_explicit(&e->wk[i]->shown_nodes, memory_order_relaxed);
		if (total >= e->node_limit)
			return true;
	}
	return e->deadline > 0 && now() >= e->deadline;
}

/* Move ordering: the hash move, then (for captures) the biggest catch, then killers,
 * then the history of plain moves that refuted other positions. */
static void score_moves(const worker *w, const pk_pos *p, const pk_movelist *ml, int tt_move, int ply,
			int *score)
{
	for (int i = 0; i < ml->n; i++) {
		const pk_move *m = &ml->m[i];
		int s;
		if (i == tt_move)
			s = 1 << 30;
		else if (move_is_capture(m))
			s = (1 << 24) + 16 * bb_count(m->captured) + bb_count(m->captured & p->kings);
		else if (w->e->f.killers && move_same_effect(m, &w->killers[ply][0]))
			s = (1 << 22);
		else if (w->e->f.killers && move_same_effect(m, &w->killers[ply][1]))
			s = (1 << 22) - 1;
		else if (w->e->f.history)
			s = (int)(w->history[m->from][move_to(m)] > (1u << 21) ? (1u << 21) : w->history[m->from][move_to(m)]);
		else
			s = 0;
		score[i] = s;
	}
}

static int pick(int *score, int n, int from)
{
	int best = from;
	for (int i = from + 1; i < n; i++)
		if (score[i] > score[best])
			best = i;
	return best;
}

static inline uint64_t busy_hash(uint64_t key, int move)
{
	return (key ^ (uint64_t)(move + 1) * 0x9E3779B97F4A7C15ull) | 1;
}

static bool excluded(const pk_engine *e, const pk_move *m)
{
	for (int i = 0; i < e->nexclude; i++)
		if (move_equal(&e->exclude[i], m))
			return true;
	return false;
}

static int search(worker *w, const pk_pos *p, int depth, int alpha, int beta, int ply)
{
	pk_engine *e = w->e;
	w->pvlen[ply] = 0;
	if ((w->nodes & 1023) == 0 && out_of_budget(w))
		w->stopped = true;
	if (w->stopped)
		return 0;
	w->nodes++;

	int gi = w->base + ply;
	w->keys[gi] = p->key;
	if (ply > 0) {
		int r = w->rev[gi];
		if (r >= DRAW_PLIES)
			return 0;
		for (int j = gi - 2; j >= 0 && gi - j <= r; j -= 2)
			if (w->keys[j] == p->key)
				return 0;
	}

	if (ply > 0 && e->egdb_pieces && bb_count(p->side[0] | p->side[1]) <= e->egdb_pieces) {
		pk_egdb_result r;
		if (egdb_probe(e->egdb, p, &r) == EGDB_FOUND) {
			w->egdb_hits++;
			return egdb_score(&r, p, &e->w, ply);
		}
	}

	/* At the horizon most positions are quiet leaves: decide that from the bitboards
	 * before building a move list. */
	if (depth <= 0 && !gen_has_capture(p)) {
		uint64_t count = gen_count(p);
		if (count == 0)
			return -SCORE_WIN + ply;
		if (count > 1 || ply >= MAX_PLY - 2)
			return eval(p, &e->w);
	}
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	if (n == 0)
		return -SCORE_WIN + ply;
	bool capture = move_is_capture(&ml.m[0]);
	if (ply >= MAX_PLY - 2)
		return eval(p, &e->w);
	if (depth <= 0 && !capture && n > 1)
		return eval(p, &e->w);
	int child_depth = capture || n == 1 ? depth : depth - 1;

	/* No score can beat a win in the fewest plies possible from here. */
	if (alpha < -SCORE_WIN + ply)
		alpha = -SCORE_WIN + ply;
	if (beta > SCORE_WIN - ply - 1)
		beta = SCORE_WIN - ply - 1;
	if (alpha >= beta)
		return alpha;

	int tt_move = -1;
	tt_data te;
	bool use_tt = depth > 0 || e->f.tt_horizon;
	if (use_tt && tt_probe(&e->tt, p->key, &te)) {
		tt_move = te.move ? te.move - 1 : -1;
		if (tt_move >= n)
			tt_move = -1;
		if (ply > 0 && te.depth >= depth) {
			int s = from_tt(te.score, ply);
			if (te.bound == TT_EXACT || (te.bound == TT_LOWER && s >= beta) ||
			    (te.bound == TT_UPPER && s <= alpha))
				return s;
		}
	}

	bool pv_node = beta - alpha > 1;
	/* Few pieces: a king hunt is a long narrow line that cuts would lose. */
	bool few_pieces = bb_count(p->side[0] | p->side[1]) <= 6;
	/* A shallow null-window search well above beta that holds there is taken as
	 * the deep one holding at beta. */
	if (e->f.probcut && !pv_node && !capture && depth >= 5 && ply > 0 && !few_pieces &&
	    !score_is_win(beta) && !score_is_win(alpha)) {
		int rbeta = beta + e->f.probcut;
		int s = search(w, p, depth - 4, rbeta - 1, rbeta, ply);
		if (w->stopped)
			return 0;
		if (s >= rbeta)
			return s;
	}

	int score[PK_MAX_MOVES];
	score_moves(w, p, &ml, tt_move, ply, score);
	int idx[PK_MAX_MOVES];
	for (int i = 0; i < n; i++)
		idx[i] = i;

	int best = -INF, best_move = -1, old_alpha = alpha;
	int quiet_tried[PK_MAX_MOVES], nquiet = 0;
	/* With several threads, a move another thread is searching here is put off until
	 * the others are done: by then its result may be in the table. */
	bool share = e->nthreads > 1 && depth >= 3;
	int deferred[PK_MAX_MOVES], deferred_k[PK_MAX_MOVES], ndeferred = 0;
	for (int step = 0; step < n + ndeferred; step++) {
		int k, mi;
		if (step < n) {
			k = step;
			int j = pick(score, n, k);
			int ts = score[k], ti = idx[k];
			score[k] = score[j];
			idx[k] = idx[j];
			score[j] = ts;
			idx[j] = ti;
			mi = idx[k];
		} else {
			mi = deferred[step - n];
			k = deferred_k[step - n];
		}
		uint64_t bh = busy_hash(p->key, mi);
		_Atomic uint64_t *slot = &e->busy[bh & (BUSY_SLOTS - 1)];
		if (share && step < n && k > 0 && atomic_load_explicit(slot, memory_order_relaxed) == bh) {
			deferred[ndeferred] = mi;
			deferred_k[ndeferred++] = k;
			continue;
		}
		const pk_move *m = &ml.m[mi];
		if (ply == 0 && excluded(e, m))
			continue;
		/* Moves into the mover's last two rows, by a man (crowning now or next) or by a
		 * king alike: the destination is empty, so the kings mask does not tell them
		 * apart. Kept so (the bench signature and the matches that tuned the reductions
		 * were measured with it). */
		bool crowning = bb_sq(move_to(m)) & (p->stm == PK_BLACK ? 0xFF000000u : 0x000000FFu);
		/* Late plain moves near the horizon of a null-window node are not tried. */
		if (e->f.lmp && !pv_node && !capture && depth <= 3 && !few_pieces && !crowning && best > -INF &&
		    k >= lmp_limit[e->f.lmp][depth])
			continue;
		pk_pos c;
		pos_make(p, m, &c);
		tt_prefetch(&e->tt, c.key);
		bool reversible = move_is_reversible(p, m);
		w->rev[gi + 1] = reversible ? w->rev[gi] + 1 : 0;
		if (share)
			atomic_store_explicit(slot, bh, memory_order_relaxed);
		int s;
		if (k == 0) {
			s = -search(w, &c, child_depth, -beta, -alpha, ply + 1);
		} else {
			/* Late plain moves of a null-window node are tried a ply shallower first;
			 * not a move into the last two rows (see crowning above). */
			int r = 0;
			if (e->f.lmr == 1 && !capture && depth >= 3 && k >= 3 && beta - alpha == 1 && !crowning)
				r = k >= 8 && depth >= 5 ? 2 : 1;
			else if (e->f.lmr == 2 && !capture && depth >= 2 && k >= 2 && beta - alpha == 1 && !crowning)
				r = k >= 10 && depth >= 7 ? 3 : k >= 5 && depth >= 4 ? 2 : 1;
			else if (e->f.lmr >= 3 && !capture && depth >= 2 && k >= 2 && !crowning && !few_pieces) {
				r = lmr_table[e->f.lmr - 3][depth < 64 ? depth : 63][k < 64 ? k : 63];
				if (beta - alpha > 1 && r > 0)
					r--;
				if (r > child_depth - 1)
					r = child_depth - 1 > 0 ? child_depth - 1 : 0;
			}
			s = -search(w, &c, child_depth - r, -alpha - 1, -alpha, ply + 1);
			if (r && s > alpha && !w->stopped)
				s = -search(w, &c, child_depth, -alpha - 1, -alpha, ply + 1);
			if (s > alpha && s < beta && !w->stopped)
				s = -search(w, &c, child_depth, -beta, -alpha, ply + 1);
		}
		if (share) {
			uint64_t expect = bh;
			atomic_compare_exchange_strong_explicit(slot, &expect, 0, memory_order_relaxed, memory_order_relaxed);
		}
		if (w->stopped)
			return 0;
		if (!capture && nquiet < PK_MAX_MOVES)
			quiet_tried[nquiet++] = mi;
		if (s > best) {
			best = s;
			best_move = mi;
			if (s > alpha) {
				alpha = s;
				w->pv[ply][0] = *m;
				memcpy(&w->pv[ply][1], w->pv[ply + 1], sizeof(pk_move) * (size_t)w->pvlen[ply + 1]);
				w->pvlen[ply] = w->pvlen[ply + 1] + 1;
				if (s >= beta) {
					if (!capture && e->f.killers && !move_same_effect(m, &w->killers[ply][0])) {
						w->killers[ply][1] = w->killers[ply][0];
						w->killers[ply][0] = *m;
					}
					if (!capture && e->f.history) {
						uint32_t bonus = (uint32_t)(depth > 0 ? depth * depth : 1);
						w->history[m->from][move_to(m)] += bonus;
						if (e->f.history_malus)
							for (int q = 0; q < nquiet - 1; q++) {
								const pk_move *o = &ml.m[quiet_tried[q]];
								uint32_t *h = &w->history[o->from][move_to(o)];
								*h = *h > bonus ? *h - bonus : 0;
							}
					}
					break;
				}
			}
		}
	}
	int bound = best >= beta ? TT_LOWER : best > old_alpha ? TT_EXACT : TT_UPPER;
	if (use_tt)
		tt_store(&e->tt, p->key, depth, to_tt(best, ply), bound, best_move);
	return best;
}

/* A line cut short by a table hit on the way is continued with the table's best moves
 * (exact scores only), as far as the iteration's depth and without repeating a position. */
static void extend_pv(pk_engine *e, const pk_pos *root, pk_iteration *it)
{
	pk_pos p = *root, c;
	uint64_t seen[MAX_PLY];
	int nseen = 0;
	for (int i = 0; i < it->npv; i++) {
		seen[nseen++] = p.key;
		pos_make(&p, &it->pv[i], &c);
		p = c;
	}
	while (it->npv < it->depth && it->npv < MAX_PLY - 1) {
		tt_data te;
		if (!tt_probe(&e->tt, p.key, &te) || te.bound != TT_EXACT || !te.move)
			break;
		pk_movelist ml;
		int n = gen_moves(&p, &ml);
		if (te.move - 1 >= n)
			break;
		for (int i = 0; i < nseen; i++)
			if (seen[i] == p.key)
				return;
		seen[nseen++] = p.key;
		it->pv[it->npv++] = ml.m[te.move - 1];
		pos_make(&p, &ml.m[te.move - 1], &c);
		p = c;
	}
}

/* Publishes a completed iteration when it is the deepest yet (several threads). */
static void share_iteration(pk_engine *e, int depth, int score, const worker *w)
{
	pthread_mutex_lock(&e->lock);
	if (depth > e->shared.depth) {
		e->shared.depth = depth;
		e->shared.score = score;
		e->shared.npv = w->pvlen[0];
		memcpy(e->shared.pv, w->pv[0], sizeof(pk_move) * (size_t)w->pvlen[0]);
		atomic_store_explicit(&e->shared_depth, depth, memory_order_relaxed);
	}
	pthread_mutex_unlock(&e->lock);
}

/* Iterative deepening from the root; the main thread (id 0) fills out and reports. With
 * several threads, the helpers search the same root (one ply deeper on odd ids) and feed
 * the shared table; an iteration any thread completes ends the same iteration in the
 * others, which go on with the next, and the main thread reports it. */
static void deepen(worker *w, const pk_pos *root, int max_depth, const pk_limits *lim, pk_iteration_cb cb,
		   void *ctx, pk_result *out)
{
	pk_engine *e = w->e;
	int prev = 0;
	double done_at[4] = { 0, 0, 0, 0 };
	for (int d = 1 + (w->id & 1); d <= max_depth; d++) {
		w->iter_depth = d;
		int alpha = -INF, beta = INF, s = 0, depth_done = d;
		pk_iteration got;
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
				s = search(w, root, d, alpha, beta, 0);
				if (w->stopped)
					break;
				bool low = s <= alpha && alpha > -INF, high = !low && s >= beta && beta < INF;
				if (!low && !high)
					break;
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
		prev = s;
		if (!out)
			continue;
		pk_iteration *it = &out->last;
		uint64_t total = w->nodes;
		for (int i = 1; i < e->nthreads; i++)
			total += atomic_load_explicit(&e->wk[i]->shown_nodes, memory_order_relaxed);
		if (taken) {
			*it = got;
		} else {
			it->depth = d;
			it->score = s;
			it->npv = w->pvlen[0];
			memcpy(it->pv, w->pv[0], sizeof(pk_move) * (size_t)it->npv);
		}
		it->depth = depth_done;
		extend_pv(e, root, it);
		it->nodes = total;
		it->seconds = now() - e->t0;
		if (it->npv > 0)
			out->best = it->pv[0];
		if (cb)
			cb(ctx, it);
		if (score_is_win(s) && score_plies(s) <= depth_done)
			break;   /* the outcome is proven: deeper iterations cannot change it */
		if (e->root_in_egdb && s == e->root_egdb_score && depth_done >= 2)
			break;   /* a move that keeps the database's value: nothing to find */
		/* With a time limit, an iteration that would likely not finish is not begun.
		 * The time to complete depth d grows about geometrically; its factor is taken
		 * over the last two iterations (odd and even depths differ), from the times
		 * since the start, which stay smooth when threads take iterations over. */
		double t = now() - e->t0;
		done_at[d % 4] = t;
		double growth = d >= 3 && done_at[(d - 2) % 4] > 0.0005 ? sqrt(t / done_at[(d - 2) % 4]) : 2.5;
		growth = growth < 1.3 ? 1.3 : growth > 4 ? 4 : growth;
		if (e->deadline > 0 && t * growth > lim->movetime)
			break;
	}
}

/* One search on the engine's threads: thread 0 is the main one, which reports and keeps
 * time; the helpers run until it is done. */
typedef struct {
	pk_engine *e;
	const pk_pos *root;
	int max_depth;
	const pk_limits *lim;
	pk_iteration_cb cb;
	void *ctx;
	pk_result *out;
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

static void worker_start(worker *w, const pk_history *h)
{
	w->nodes = 0;
	w->egdb_hits = 0;
	atomic_store_explicit(&w->shown_nodes, 0, memory_order_relaxed);
	w->stopped = w->superseded = false;
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
}

int engine_search(pk_engine *e, const pk_pos *root, const pk_history *h, const pk_limits *lim,
		  volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx, pk_result *out)
{
	memset(out, 0, sizeof *out);
	e->t0 = now();
	e->node_limit = lim->nodes;
	e->deadline = lim->movetime > 0 ? e->t0 + lim->movetime : 0;
	e->stop = stop;
	atomic_store(&e->abort, false);
	atomic_store(&e->shared_depth, 0);
	memset(&e->shared, 0, sizeof e->shared);
	e->tt.age++;
	e->exclude = lim->exclude;
	e->nexclude = lim->nexclude;

	e->root_in_egdb = false;
	if (e->egdb_pieces && bb_count(root->side[0] | root->side[1]) <= e->egdb_pieces &&
	    egdb_probe(e->egdb, root, &out->egdb) == EGDB_FOUND) {
		out->in_egdb = true;
		if (out->egdb.value == EGDB_DRAW || out->egdb.plies >= 0) {
			e->root_in_egdb = true;
			e->root_egdb_score = egdb_score(&out->egdb, root, &e->w, 0);
		}
	}
	pk_movelist ml;
	int n = gen_moves(root, &ml);
	if (n == 0) {
		out->has_move = false;
		out->last.score = -SCORE_WIN;
		return 0;
	}
	int first = -1, included = 0;
	for (int i = 0; i < n; i++)
		if (!excluded(e, &ml.m[i])) {
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
		out->last.score = eval(root, &e->w);
		out->last.pv[0] = ml.m[0];
		out->last.npv = 1;
		return 0;
	}

	int max_depth = lim->depth > 0 ? lim->depth : MAX_PLY - 8;
	for (int i = 0; i < e->nthreads; i++)
		worker_start(e->wk[i], h);
	search_job job = { e, root, max_depth, lim, cb, ctx, out };
	pool_run(e->nthreads, search_thread, &job);
	uint64_t total = 0, hits = 0;
	for (int i = 0; i < e->nthreads; i++) {
		total += e->wk[i]->nodes;
		hits += e->wk[i]->egdb_hits;
	}
	out->last.nodes = total;
	out->last.egdb_hits = hits;
	out->last.seconds = now() - e->t0;
	return 0;
}
