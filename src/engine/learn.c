/* Fitting the pattern weights to game results. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/pool.h"
#include "engine/learn.h"
#include "engine/search.h"
#include "rules/gen.h"

#define NW (PAT_PHASES * PAT_WINDOWS * PAT_INDEX)
#define MAX_THREADS 64

typedef struct {
	uint16_t idx[PAT_WINDOWS];
	int16_t base;                   /* the base evaluation, mover's view, hundredths */
	int16_t score;                  /* a search's score (mover's view), or NO_SCORE */
	uint8_t phase, t;               /* between phase and phase + 1, t of PAT_SEG past it */
	uint8_t y;                      /* 0 loss, 1 draw, 2 win for the side to move */
	uint8_t held;
} sample;

#define NO_SCORE INT16_MIN

struct pk_learn_data {
	pk_weights base;
	sample *v;
	pk_pos *pos;                    /* each sample's position, kept for learn_label */
	size_t n, cap;
	long games;
	size_t labelled;
};

pk_learn_data *learn_data_new(const pk_weights *base)
{
	pk_learn_data *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->base = *base;
	d->base.pat = NULL;
	return d;
}

void learn_data_free(pk_learn_data *d)
{
	if (!d)
		return;
	free(d->v);
	free(d->pos);
	free(d);
}

size_t learn_positions(const pk_learn_data *d) { return d->n; }
long learn_games(const pk_learn_data *d) { return d->games; }

int learn_add_game(pk_learn_data *d, const pk_replay *rp, int skip)
{
	if (!rp->supported || !rp->complete || rp->nply < skip + 2)
		return 0;
	int first = rp->result == RES_BLACK_WINS ? 2 : rp->result == RES_WHITE_WINS ? 0 : rp->result == RES_DRAW ? 1 : -1;
	if (first < 0)
		return 0;
	/* Held out by opening: the games whose position after three plies (the ballot) hashes
	 * to a tenth, so that no held-out game shares its opening with a training game (games
	 * of one ballot are alike, and a held-out loss over them would reward learning them
	 * by heart). */
	bool held = (rp->plies[rp->nply > 2 ? 2 : rp->nply - 1].after.key * 0x9E3779B97F4A7C15ull >> 56) % 10 == 0;
	d->games++;
	for (int i = skip; i < rp->nply; i++) {
		const pk_pos *p = &rp->plies[i].after;
		if (gen_has_capture(p))
			continue;
		pk_movelist ml;
		if (gen_moves(p, &ml) == 0)
			continue;
		if (d->n == d->cap) {
			size_t cap = d->cap ? d->cap * 2 : 1 << 16;
			sample *v = realloc(d->v, cap * sizeof *v);
			if (!v)
				return -1;
			d->v = v;
			pk_pos *ps = realloc(d->pos, cap * sizeof *ps);
			if (!ps)
				return -1;
			d->pos = ps;
			d->cap = cap;
		}
		d->pos[d->n] = *p;
		sample *s = &d->v[d->n++];
		s->score = NO_SCORE;
		int ph, t;
		pattern_indices(p, s->idx, &ph, &t);
		s->phase = (uint8_t)ph;
		s->t = (uint8_t)t;
		int b = eval(p, &d->base);
		s->base = (int16_t)(b > 3000 ? 3000 : b < -3000 ? -3000 : b);
		s->y = (uint8_t)(p->stm == PK_BLACK ? first : 2 - first);
		s->held = held;
	}
	return 0;
}

size_t learn_labelled(const pk_learn_data *d) { return d->labelled; }

typedef struct {
	pk_learn_data *d;
	const pk_weights *w;
	pk_egdb *db;
	int depth, every, nthreads;
	_Atomic size_t done[MAX_THREADS];   /* read by thread 0 for the progress */
	size_t labelled[MAX_THREADS];
	const volatile sig_atomic_t *stop;
	void (*progress)(void *ctx, size_t done, size_t total);
	void *ctx;
	atomic_bool failed;
} label_job;

static void label_thread(int id, void *arg)
{
	label_job *j = arg;
	pk_learn_data *d = j->d;
	pk_engine *e = engine_new(16, j->w);
	if (!e) {
		atomic_store(&j->failed, true);
		return;
	}
	engine_set_egdb(e, j->db);
	size_t lo = d->n * (size_t)id / (size_t)j->nthreads, hi = d->n * (size_t)(id + 1) / (size_t)j->nthreads;
	pk_limits lim = { .depth = j->depth };
	for (size_t i = lo; i < hi; i++) {
		if (j->stop && *j->stop)
			break;
		atomic_store_explicit(&j->done[id], i - lo + 1, memory_order_relaxed);
		if (id == 0 && j->progress && (i - lo) % 4096 == 0) {
			size_t all = 0;
			for (int t = 0; t < j->nthreads; t++)
				all += atomic_load_explicit(&j->done[t], memory_order_relaxed);
			j->progress(j->ctx, all, d->n);
		}
		if (i % (size_t)j->every)
			continue;
		pk_result r;
		if (engine_search(e, &d->pos[i], NULL, &lim, NULL, NULL, NULL, &r) < 0 || !r.has_move || r.forced)
			continue;
		int s = r.last.score;
		d->v[i].score = (int16_t)(s > 3000 ? 3000 : s < -3000 ? -3000 : s);
		j->labelled[id]++;
	}
	engine_free(e);
}

int learn_label(pk_learn_data *d, const pk_weights *w, pk_egdb *db, int depth, int every, int threads,
		const volatile sig_atomic_t *stop, void (*progress)(void *ctx, size_t done, size_t total), void *ctx)
{
	label_job j = { .d = d, .w = w, .db = db, .depth = depth < 1 ? 1 : depth, .every = every < 1 ? 1 : every, .stop = stop,
			.progress = progress, .ctx = ctx };
	j.nthreads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
	pool_run(j.nthreads, label_thread, &j);
	d->labelled = 0;
	for (int t = 0; t < j.nthreads; t++)
		d->labelled += j.labelled[t];
	return atomic_load(&j.failed) ? -1 : 0;
}

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static inline double value(const sample *s, const float *w)
{
	double a = 0, b = 0;
	const float *wa = w + (size_t)s->phase * PAT_WINDOWS * PAT_INDEX, *wb = wa + PAT_WINDOWS * PAT_INDEX;
	for (int k = 0; k < PAT_WINDOWS; k++) {
		a += wa[k * PAT_INDEX + s->idx[k]];
		b += wb[k * PAT_INDEX + s->idx[k]];
	}
	return s->base + (a * (PAT_SEG - s->t) + b * s->t) / PAT_SEG;
}

/* The log loss of p against the target t (0 .. 1). */
static inline double logloss(double p, double t)
{
	const double eps = 1e-12;
	return -(t * log(p + eps) + (1 - t) * log(1 - p + eps));
}

/* One pass on a thread: the gradient of its share of the training part into grad, the
 * losses of both parts into sums. */
typedef struct {
	const pk_learn_data *d;
	const float *w;
	double K;
	double lambda;                  /* the result's share of the target where there is a score */
	int nthreads;
	float *grad[MAX_THREADS];
	float *hess[MAX_THREADS];
	double loss[MAX_THREADS][2];
	size_t count[MAX_THREADS][2];
	bool want_grad;
} pass;

static void pass_thread(int id, void *arg)
{
	pass *ps = arg;
	const pk_learn_data *d = ps->d;
	size_t lo = d->n * (size_t)id / (size_t)ps->nthreads, hi = d->n * (size_t)(id + 1) / (size_t)ps->nthreads;
	float *g = ps->grad[id], *hs = ps->hess[id];
	if (ps->want_grad) {
		memset(g, 0, sizeof(float) * NW);
		memset(hs, 0, sizeof(float) * NW);
	}
	double l[2] = { 0, 0 };
	size_t c[2] = { 0, 0 };
	for (size_t i = lo; i < hi; i++) {
		const sample *s = &d->v[i];
		double p = sigmoid(ps->K * value(s, ps->w) / 100.0);
		/* the losses are against the game's result: what the held-out loss measures */
		l[s->held] += logloss(p, s->y / 2.0);
		c[s->held]++;
		if (s->held || !ps->want_grad)
			continue;
		double target = s->y / 2.0;
		if (s->score != NO_SCORE)
			target = ps->lambda * target + (1 - ps->lambda) * sigmoid(ps->K * s->score / 100.0);
		double e = (p - target) * ps->K / 100.0, cv = p * (1 - p) * (ps->K / 100.0) * (ps->K / 100.0);
		double a1 = (double)s->t / PAT_SEG, a0 = 1 - a1;
		float e0 = (float)(e * a0), e1 = (float)(e * a1), h0 = (float)(cv * a0 * a0), h1 = (float)(cv * a1 * a1);
		for (int k = 0; k < PAT_WINDOWS; k++) {
			size_t i0 = ((size_t)s->phase * PAT_WINDOWS + k) * PAT_INDEX + s->idx[k], i1 = i0 + PAT_WINDOWS * PAT_INDEX;
			g[i0] += e0;
			g[i1] += e1;
			hs[i0] += h0;
			hs[i1] += h1;
		}
	}
	ps->loss[id][0] = l[0];
	ps->loss[id][1] = l[1];
	ps->count[id][0] = c[0];
	ps->count[id][1] = c[1];
}

/* Mean losses of w (train, held out), and with want_grad the summed gradient in grad[0]. */
static void run_pass(pass *ps, bool want_grad, double *train, double *held)
{
	ps->want_grad = want_grad;
	pool_run(ps->nthreads, pass_thread, ps);
	double l[2] = { 0, 0 };
	size_t c[2] = { 0, 0 };
	for (int t = 0; t < ps->nthreads; t++)   /* in thread order: the same sums every run */
		for (int h = 0; h < 2; h++) {
			l[h] += ps->loss[t][h];
			c[h] += ps->count[t][h];
		}
	*train = c[0] ? l[0] / (double)c[0] : 0;
	*held = c[1] ? l[1] / (double)c[1] : 0;
	if (want_grad)
		for (int t = 1; t < ps->nthreads; t++)
			for (size_t i = 0; i < NW; i++) {
				ps->grad[0][i] += ps->grad[t][i];
				ps->hess[0][i] += ps->hess[t][i];
			}
}

int learn_fit(const pk_learn_data *d, const pk_learn_opts *o, void (*progress)(void *ctx, long epoch, double train,
										double held),
	      void *ctx, pk_patterns *out, pk_learn_result *r)
{
	memset(out, 0, sizeof *out);
	memset(r, 0, sizeof *r);
	long epochs = o->epochs > 0 ? o->epochs : 300;
	double rate = o->rate > 0 ? o->rate : 0.3, l2 = o->l2 >= 0 ? o->l2 : 20;
	int min_count = o->min_count > 0 ? o->min_count : 3;
	int nt = o->threads < 1 ? 1 : o->threads > MAX_THREADS ? MAX_THREADS : o->threads;
	float *w = calloc(NW, sizeof *w), *best = calloc(NW, sizeof *best), *keep = calloc(NW, sizeof *keep);
	int *count = calloc(NW, sizeof *count);
	pass ps = { .d = d, .w = w, .nthreads = nt, .lambda = o->lambda < 0 ? 0 : o->lambda > 1 ? 1 : o->lambda };
	int rc = 0;
	for (int t = 0; t < nt; t++)
		if (!(ps.grad[t] = malloc(sizeof(float) * NW)) || !(ps.hess[t] = malloc(sizeof(float) * NW)))
			rc = -1;
	if (!w || !best || !keep || !count || rc < 0) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < d->n; i++) {
		const sample *s = &d->v[i];
		r->train += !s->held;
		r->heldout += s->held;
		if (s->held)
			continue;
		for (int k = 0; k < PAT_WINDOWS; k++) {
			size_t i0 = ((size_t)s->phase * PAT_WINDOWS + k) * PAT_INDEX + s->idx[k];
			count[i0] += s->t < PAT_SEG;
			count[i0 + PAT_WINDOWS * PAT_INDEX] += s->t > 0;
		}
	}
	for (size_t i = 0; i < NW; i++)
		r->used += count[i] >= min_count;
	/* the scale that fits the base evaluation best (golden section) */
	double lo = 0.05, hi = 3.0, tr, he;
	for (int it = 0; it < 30; it++) {
		double a = hi - (hi - lo) / 1.618, b = lo + (hi - lo) / 1.618, la, lb;
		ps.K = a;
		run_pass(&ps, false, &la, &he);
		ps.K = b;
		run_pass(&ps, false, &lb, &he);
		if (la < lb)
			hi = b;
		else
			lo = a;
	}
	ps.K = r->K = (lo + hi) / 2;
	run_pass(&ps, false, &r->base_train, &r->base_held);
	r->best_train = r->base_train;
	r->best_held = r->base_held;
	/* Damped Newton steps on each weight alone (its gradient over its curvature, both
	 * summed over the positions it is seen in): a pattern moves as far as its own
	 * evidence says, seldom-seen ones little; the ridge counts as l2 positions at zero. */
	double ridge = l2 * 0.25 * (ps.K / 100.0) * (ps.K / 100.0) * 0.5;
	/* A step that raises the training loss is taken back and the share halved: the
	 * windows overlap, so the steps of a position's 18 weights add up. */
	double prev = r->base_train;
	for (long e = 1; e <= epochs; e++) {
		if (o->stop && *o->stop)
			break;
		run_pass(&ps, true, &tr, &he);
		memcpy(keep, w, sizeof(float) * NW);
		for (;;) {
			for (size_t i = 0; i < NW; i++) {
				if (count[i] < min_count)
					continue;
				double g = ps.grad[0][i] + 2 * ridge * keep[i], h = ps.hess[0][i] + 2 * ridge;
				w[i] = h > 0 ? (float)(keep[i] - rate * g / h) : keep[i];
			}
			/* the losses of the weights after the step */
			run_pass(&ps, false, &tr, &he);
			if (tr <= prev || rate < 1e-4)
				break;
			rate /= 2;
		}
		prev = tr;
		r->epochs_done = e;
		if (r->heldout == 0 || he < r->best_held) {
			r->best_held = he;
			r->best_train = tr;
			r->best_epoch = e;
			memcpy(best, w, sizeof(float) * NW);
		}
		if (progress)
			progress(ctx, e, tr, he);
	}
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (int k = 0; k < PAT_WINDOWS; k++)
			for (int i = 0; i < PAT_INDEX; i++) {
				double x = best[(ph * PAT_WINDOWS + k) * PAT_INDEX + i];
				x = x > 3000 ? 3000 : x < -3000 ? -3000 : x;
				out->w[ph][k][i] = (int16_t)lround(x);
			}
	patterns_checksum(out);
out:
	for (int t = 0; t < nt; t++) {
		free(ps.grad[t]);
		free(ps.hess[t]);
	}
	free(w);
	free(best);
	free(keep);
	free(count);
	return rc;
}
