/* Fitting the network of the evaluation to game results (engine/net.h), over the
 * collection of learn.c. */
#include <math.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/pool.h"
#include "engine/learn_int.h"
#include "engine/search.h"
#include "rules/gen.h"

/* Fitting the network (engine/net.h): minibatches of training positions in an order
 * shuffled by the seed, the gradient of each batch summed over NCHUNK fixed parts (taken
 * by the threads as they come, added in part order: the same sums whatever the number of
 * threads), Adam steps, the step shrinking each epoch; the epoch with the lowest
 * held-out loss kept. The network learns what the base evaluation (hand-set terms and
 * patterns) misses: its output starts at 0. */

#define NCHUNK 8
/* The offsets of each layer in the flat parameter vector (the file's order). */
#define P_W1 0
#define P_B1 (P_W1 + NET_IN_MAX * NET_H1)
#define P_W2 (P_B1 + NET_H1)
#define P_B2 (P_W2 + NET_H2 * NET_H1)
#define P_W3 (P_B2 + NET_H2)
#define P_B3 (P_W3 + NET_H2)
#define NP NET_NWEIGHTS_IN(NET_IN_MAX)

/* The inputs that are 1 of sample i (an English or a 10x10 position); their number. */
static int sample_inputs(const pk_learn_data *d, size_t i, int in[50])
{
	return d->variant ? vnet_inputs(&d->vpos[i], in) : net_inputs(&d->pos[i], in);
}

typedef struct {
	const pk_learn_data *d;
	const int16_t *base;            /* the base evaluation of each position, mover's view */
	const float *P;
	const uint32_t *order;          /* this batch's positions */
	size_t nbatch;
	double K, lambda;
	float *grad[NCHUNK];
	double loss[NCHUNK];
	_Atomic int next;
} net_job;

static inline double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* The network's output (men) for the inputs in[0..k), with the layers' values. */
static double net_forward(const float *P, const int *in, int k, float *a1, float *a2)
{
	for (int j = 0; j < NET_H1; j++)
		a1[j] = P[P_B1 + j];
	for (int i = 0; i < k; i++) {
		const float *row = P + P_W1 + in[i] * NET_H1;
		for (int j = 0; j < NET_H1; j++)
			a1[j] += row[j];
	}
	float h1[NET_H1];
	for (int j = 0; j < NET_H1; j++)
		h1[j] = (float)clamp01(a1[j]);
	double out = P[P_B3];
	for (int o = 0; o < NET_H2; o++) {
		const float *row = P + P_W2 + o * NET_H1;
		float s = P[P_B2 + o];
		for (int j = 0; j < NET_H1; j++)
			s += row[j] * h1[j];
		a2[o] = s;
		out += P[P_W3 + o] * clamp01(s);
	}
	return out;
}

static double net_target(const sample *s, double K, double lambda)
{
	double target = s->y / 2.0;
	if (s->score != NO_SCORE)
		target = lambda * target + (1 - lambda) * sigmoid(K * s->score / 100.0);
	return target;
}

static void net_batch_thread(int id, void *arg)
{
	(void)id;
	net_job *j = arg;
	int c;
	while ((c = atomic_fetch_add(&j->next, 1)) < NCHUNK) {
		float *g = j->grad[c];
		memset(g, 0, sizeof(float) * NP);
		double loss = 0;
		size_t lo = j->nbatch * (size_t)c / NCHUNK, hi = j->nbatch * (size_t)(c + 1) / NCHUNK;
		for (size_t b = lo; b < hi; b++) {
			size_t i = j->order[b];
			const sample *s = &j->d->v[i];
			int in[50], k = sample_inputs(j->d, i, in);
			float a1[NET_H1], a2[NET_H2];
			double out = net_forward(j->P, in, k, a1, a2);
			double p = sigmoid(j->K * (j->base[i] + 100 * out) / 100.0);
			loss += logloss(p, s->y / 2.0);
			float e = (float)((p - net_target(s, j->K, j->lambda)) * j->K);  /* d loss / d out */
			g[P_B3] += e;
			float g1[NET_H1] = { 0 };
			for (int o = 0; o < NET_H2; o++) {
				float h2 = (float)clamp01(a2[o]);
				g[P_W3 + o] += e * h2;
				if (a2[o] <= 0 || a2[o] >= 1)
					continue;
				float e2 = e * j->P[P_W3 + o];
				g[P_B2 + o] += e2;
				const float *row = j->P + P_W2 + o * NET_H1;
				float *grow = g + P_W2 + o * NET_H1;
				for (int q = 0; q < NET_H1; q++) {
					grow[q] += e2 * (float)clamp01(a1[q]);
					g1[q] += e2 * row[q];
				}
			}
			for (int q = 0; q < NET_H1; q++)
				if (a1[q] <= 0 || a1[q] >= 1)
					g1[q] = 0;
			for (int q = 0; q < NET_H1; q++)
				g[P_B1 + q] += g1[q];
			for (int t = 0; t < k; t++) {
				float *grow = g + P_W1 + in[t] * NET_H1;
				for (int q = 0; q < NET_H1; q++)
					grow[q] += g1[q];
			}
		}
		j->loss[c] = loss;
	}
}

typedef struct {
	const pk_learn_data *d;
	const int16_t *base;
	const pk_net *qnet;             /* the integer network, as the engine has it; or */
	const float *P;                 /* the float one */
	double K, lambda;               /* the losses against the fit's targets (net_target) */
	bool labelled_only;             /* of the positions with a search's score alone */
	size_t stride;                  /* every stride-th position */
	double loss[NCHUNK][2];
	size_t count[NCHUNK][2];
	_Atomic int next;
} net_eval_job;

static void net_loss_thread(int id, void *arg)
{
	(void)id;
	net_eval_job *j = arg;
	int c;
	while ((c = atomic_fetch_add(&j->next, 1)) < NCHUNK) {
		double l[2] = { 0, 0 };
		size_t n[2] = { 0, 0 };
		size_t lo = j->d->n * (size_t)c / NCHUNK, hi = j->d->n * (size_t)(c + 1) / NCHUNK;
		for (size_t i = lo; i < hi; i += j->stride) {
			const sample *s = &j->d->v[i];
			if (j->labelled_only && s->score == NO_SCORE)
				continue;
			double v;
			int in[50], k = sample_inputs(j->d, i, in);
			if (j->qnet) {
				v = j->base[i] + net_eval_inputs(j->qnet, in, k);
			} else {
				float a1[NET_H1], a2[NET_H2];
				v = j->base[i] + 100 * net_forward(j->P, in, k, a1, a2);
			}
			l[s->held] += logloss(sigmoid(j->K * v / 100.0), net_target(s, j->K, j->lambda));
			n[s->held]++;
		}
		for (int h = 0; h < 2; h++) {
			j->loss[c][h] = l[h];
			j->count[c][h] = n[h];
		}
	}
}

/* Mean losses (training, held out) of base + the network (qnet, or P; neither: base). */
static void net_losses(const pk_learn_data *d, const int16_t *base, const pk_net *qnet, const float *P, double K,
		       double lambda, bool labelled_only, size_t stride, int threads, double *train, double *held)
{
	static const float zero[NP];
	net_eval_job j = { .d = d, .base = base, .qnet = qnet, .P = qnet || P ? P : zero, .K = K, .lambda = lambda,
			  .labelled_only = labelled_only, .stride = stride };
	pool_run(threads, net_loss_thread, &j);
	double l[2] = { 0, 0 };
	size_t n[2] = { 0, 0 };
	for (int c = 0; c < NCHUNK; c++)
		for (int h = 0; h < 2; h++) {
			l[h] += j.loss[c][h];
			n[h] += j.count[c][h];
		}
	*train = n[0] ? l[0] / (double)n[0] : 0;
	*held = n[1] ? l[1] / (double)n[1] : 0;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *s, double a) { return a * (2.0 * (double)(rng_next(s) >> 11) / 9007199254740992.0 - 1); }

static long qround(double x, double lim)
{
	x = x > lim ? lim : x < -lim ? -lim : x;
	return lround(x);
}

static void net_quantize(const float *P, int inputs, pk_net *n)
{
	memset(n, 0, sizeof *n);
	n->inputs = inputs;
	for (int i = 0; i < inputs; i++)
		for (int q = 0; q < NET_H1; q++)
			n->w1[i][q] = (int16_t)qround(P[P_W1 + i * NET_H1 + q] * NET_Q1, 32767);
	for (int q = 0; q < NET_H1; q++)
		n->b1[q] = (int16_t)qround(P[P_B1 + q] * NET_Q1, 32767);
	for (int o = 0; o < NET_H2; o++) {
		for (int q = 0; q < NET_H1; q++)
			n->w2[o][q] = (int16_t)qround(P[P_W2 + o * NET_H1 + q] * NET_Q2, 32767);
		n->b2[o] = (int32_t)qround(P[P_B2 + o] * NET_Q1 * NET_Q2, 1 << 30);
		n->w3[o] = (int16_t)qround(P[P_W3 + o] * NET_Q2, 32767);
	}
	n->b3 = (int32_t)qround(P[P_B3] * NET_Q1 * NET_Q2, 1 << 30);
	net_prepare(n);
}

/* The base evaluation of each position (a share of them on each thread). */
typedef struct {
	const pk_learn_data *d;
	const pk_weights *w;
	int16_t *base;
	_Atomic int next;
} base_job;

static void base_thread(int id, void *arg)
{
	(void)id;
	base_job *j = arg;
	int c;
	while ((c = atomic_fetch_add(&j->next, 1)) < NCHUNK) {
		size_t lo = j->d->n * (size_t)c / NCHUNK, hi = j->d->n * (size_t)(c + 1) / NCHUNK;
		for (size_t i = lo; i < hi; i++) {
			/* a 10x10 position's: its sample's, the whole evaluation the network adds to */
			int b = j->d->variant ? j->d->v[i].base : eval(&j->d->pos[i], j->w);
			j->base[i] = (int16_t)(b > 3000 ? 3000 : b < -3000 ? -3000 : b);
		}
	}
}

int learn_fit_net(const pk_learn_data *d, const pk_weights *base_w, const pk_net_opts *o,
		  void (*progress)(void *ctx, long epoch, double train, double held), void *ctx, pk_net *out,
		  pk_learn_result *r)
{
	memset(out, 0, sizeof *out);
	memset(r, 0, sizeof *r);
	long epochs = o->epochs > 0 ? o->epochs : 30;
	double rate = o->rate > 0 ? o->rate : 0.001, decay = o->decay > 0 ? o->decay : 0.9;
	int batch = o->batch > 0 ? o->batch : 1024;
	int nt = o->threads < 1 ? 1 : o->threads > MAX_THREADS ? MAX_THREADS : o->threads;
	double lambda = o->lambda < 0 ? 0 : o->lambda > 1 ? 1 : o->lambda;
	pk_weights bw = *base_w;
	bw.net = NULL;
	int16_t *base = malloc(sizeof(int16_t) * (d->n ? d->n : 1));
	uint32_t *order = malloc(sizeof(uint32_t) * (d->n ? d->n : 1));
	float *P = calloc(NP, sizeof *P), *best = calloc(NP, sizeof *best), *m = calloc(NP, sizeof *m),
	      *v = calloc(NP, sizeof *v);
	net_job job = { .d = d, .base = base, .P = P, .lambda = lambda };
	int rc = 0;
	for (int c = 0; c < NCHUNK; c++)
		if (!(job.grad[c] = malloc(sizeof(float) * NP)))
			rc = -1;
	if (!base || !order || !P || !best || !m || !v || rc < 0 || d->n > UINT32_MAX) {
		rc = -1;
		goto out;
	}
	base_job bj = { .d = d, .w = &bw, .base = base };
	pool_run(nt, base_thread, &bj);
	size_t ntrain = 0;
	for (size_t i = 0; i < d->n; i++)
		if (!d->v[i].held && !(o->labelled_only && d->v[i].score == NO_SCORE))
			order[ntrain++] = (uint32_t)i;
	r->train = ntrain;
	for (size_t i = 0; i < d->n; i++)
		r->heldout += d->v[i].held && !(o->labelled_only && d->v[i].score == NO_SCORE);
	r->used = NET_NWEIGHTS_IN(d->variant ? NET_VIN : NET_IN);
	/* the scale that fits the base evaluation best (golden section, on a seventh of
	 * the positions) */
	double lo = 0.05, hi = 3.0, tr, he;
	for (int it = 0; it < 30; it++) {
		double a = hi - (hi - lo) / 1.618, b = lo + (hi - lo) / 1.618, la, lb;
		net_losses(d, base, NULL, NULL, a, 1, false, 7, nt, &la, &he);
		net_losses(d, base, NULL, NULL, b, 1, false, 7, nt, &lb, &he);
		if (la < lb)
			hi = b;
		else
			lo = a;
	}
	job.K = r->K = (lo + hi) / 2;
	net_losses(d, base, NULL, NULL, r->K, lambda, o->labelled_only, 1, nt, &r->base_train, &r->base_held);
	r->best_train = r->base_train;
	r->best_held = r->base_held;
	/* the first layers' units start in their linear part; the output at 0 */
	uint64_t seed = o->seed ? o->seed : 1;
	int inputs = d->variant ? NET_VIN : NET_IN;
	for (int i = 0; i < inputs * NET_H1; i++)
		P[P_W1 + i] = (float)rng_uniform(&seed, 0.1);
	for (int q = 0; q < NET_H1; q++)
		P[P_B1 + q] = 0.5f;
	for (int i = 0; i < NET_H2 * NET_H1; i++)
		P[P_W2 + i] = (float)rng_uniform(&seed, 0.3);
	for (int q = 0; q < NET_H2; q++)
		P[P_B2 + q] = 0.5f;
	memcpy(best, P, sizeof(float) * NP);
	long step = 0;
	for (long e = 1; e <= epochs; e++) {
		if (o->stop && *o->stop)
			break;
		/* the training positions in a new order (Fisher-Yates) */
		for (size_t i = ntrain; i > 1; i--) {
			size_t k = (size_t)(rng_next(&seed) % i);
			uint32_t t = order[i - 1];
			order[i - 1] = order[k];
			order[k] = t;
		}
		double lr = rate * pow(decay, (double)(e - 1));
		for (size_t b0 = 0; b0 < ntrain; b0 += (size_t)batch) {
			if (o->stop && *o->stop)
				break;
			job.order = order + b0;
			job.nbatch = ntrain - b0 < (size_t)batch ? ntrain - b0 : (size_t)batch;
			atomic_store(&job.next, 0);
			pool_run(nt, net_batch_thread, &job);
			float *g = job.grad[0];
			for (int c = 1; c < NCHUNK; c++)
				for (int i = 0; i < NP; i++)
					g[i] += job.grad[c][i];
			step++;
			double c1 = 1 - pow(0.9, (double)step), c2 = 1 - pow(0.999, (double)step);
			for (int i = 0; i < NP; i++) {
				double gi = g[i] / (double)job.nbatch;
				m[i] = (float)(0.9 * m[i] + 0.1 * gi);
				v[i] = (float)(0.999 * v[i] + 0.001 * gi * gi);
				P[i] -= (float)(lr * (m[i] / c1) / (sqrt(v[i] / c2) + 1e-8));
			}
			/* within what the integer network holds */
			for (int i = P_W1; i < P_B1; i++)
				P[i] = P[i] > 4 ? 4 : P[i] < -4 ? -4 : P[i];
			for (int i = P_W2; i < P_B2; i++)
				P[i] = P[i] > 64 ? 64 : P[i] < -64 ? -64 : P[i];
			for (int i = P_W3; i < P_B3; i++)
				P[i] = P[i] > 64 ? 64 : P[i] < -64 ? -64 : P[i];
		}
		if (o->stop && *o->stop)
			break;
		net_losses(d, base, NULL, P, r->K, lambda, o->labelled_only, 1, nt, &tr, &he);
		r->epochs_done = e;
		r->last_train = tr;
		r->last_held = he;
		if (r->heldout == 0 || he < r->best_held || o->keep_last) {
			r->best_held = he;
			r->best_train = tr;
			r->best_epoch = e;
			memcpy(best, P, sizeof(float) * NP);
		}
		if (progress)
			progress(ctx, e, tr, he);
	}
	net_quantize(best, inputs, out);
	if (r->best_epoch) {
		/* the losses of the integer network, as the engine will see it */
		net_losses(d, base, out, NULL, r->K, lambda, o->labelled_only, 1, nt, &r->best_train, &r->best_held);
	}
out:
	for (int c = 0; c < NCHUNK; c++)
		free(job.grad[c]);
	free(base);
	free(order);
	free(P);
	free(best);
	free(m);
	free(v);
	return rc;
}
