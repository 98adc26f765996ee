/* Fitting the evaluation weights to game results by logistic regression. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/tune.h"
#include "rules/gen.h"

/* Terms fitted to results. The endgame technique terms (king_corner, drive) are
 * knowledge of how to win won endings, not of who wins: they keep their values. */
bool tune_is_fitted(int k) { return k != W_KING_CORNER && k != W_DRIVE; }

typedef struct {
	int16_t f[W_NUM];
	int16_t men;
	uint8_t result;     /* Black's score: 0, 1 (draw), 2 */
	uint8_t heldout;
} sample;

struct pk_tune_data {
	sample *v;
	size_t n, cap;
	long games;
};
typedef pk_tune_data dataset;

static int add_game(dataset *d, const pk_replay *rp, int skip_plies)
{
	if (!rp->supported || !rp->complete || rp->nply < skip_plies + 2)
		return 0;
	int res = rp->result == RES_BLACK_WINS ? 2 : rp->result == RES_WHITE_WINS ? 0 : rp->result == RES_DRAW ? 1 : -1;
	if (res < 0)
		return 0;
	d->games++;
	for (int i = skip_plies; i < rp->nply; i++) {
		const pk_pos *p = &rp->plies[i].after;
		if (gen_has_capture(p))
			continue;   /* only quiet positions: a capture pending is no position to judge */
		if (d->n == d->cap) {
			d->cap = d->cap ? d->cap * 2 : 1 << 16;
			sample *v = realloc(d->v, d->cap * sizeof *v);
			if (!v)
				return -1;
			d->v = v;
		}
		sample *s = &d->v[d->n++];
		int men, f[W_NUM];
		eval_features(p, &men, f);
		for (int k = 0; k < W_NUM; k++)
			s->f[k] = (int16_t)f[k];
		s->men = (int16_t)men;
		s->result = (uint8_t)res;
		s->heldout = d->games % 10 == 0;   /* every tenth game is held out */
	}
	return 0;
}

static double black_eval(const sample *s, const double *w)
{
	double v = 100.0 * s->men;
	for (int k = 0; k < W_NUM; k++)
		v += s->f[k] * w[k];
	return v;
}

/* Mean log loss of sigmoid(K * eval / 100) against the result, on one part. */
static double loss(const dataset *d, const double *w, double K, int heldout)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		const sample *s = &d->v[i];
		if (s->heldout != heldout)
			continue;
		double p = 1.0 / (1.0 + exp(-K * black_eval(s, w) / 100.0));
		double y = s->result / 2.0;
		p = p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p;
		sum -= y * log(p) + (1 - y) * log(1 - p);
		n++;
	}
	return n ? sum / (double)n : 0;
}


pk_tune_data *tune_data_new(void) { return calloc(1, sizeof(pk_tune_data)); }

void tune_data_free(pk_tune_data *d)
{
	if (d)
		free(d->v);
	free(d);
}

int tune_add_game(pk_tune_data *d, const pk_replay *rp) { return add_game(d, rp, 8); }

int tune_fit(const pk_tune_data *dp, long epochs, void (*progress)(void *ctx, long epoch, double loss),
	     void *ctx, pk_tune_result *out)
{
	const dataset d = *dp;
	size_t train = 0;
	for (size_t i = 0; i < d.n; i++)
		train += !d.v[i].heldout;
	memset(out, 0, sizeof *out);
	out->train = train;
	if (train < 1000)
		return -1;

	double w[W_NUM], start[W_NUM];
	for (int k = 0; k < W_NUM; k++)
		w[k] = start[k] = eval_default_weights.w[k];
	/* The scale K that best fits the starting weights, by golden-section search. */
	double lo = 0.1, hi = 3.0;
	for (int it = 0; it < 40; it++) {
		double a = hi - (hi - lo) / 1.618, b = lo + (hi - lo) / 1.618;
		if (loss(&d, w, a, 0) < loss(&d, w, b, 0))
			hi = b;
		else
			lo = a;
	}
	double K = (lo + hi) / 2;
	double before_train = loss(&d, w, K, 0), before_held = loss(&d, w, K, 1);

	/* Adam over the whole training part. */
	double m[W_NUM] = { 0 }, v[W_NUM] = { 0 }, grad[W_NUM];
	const double lr = 1.0, b1 = 0.9, b2 = 0.999;
	for (long ep = 1; ep <= epochs; ep++) {
		memset(grad, 0, sizeof grad);
		for (size_t i = 0; i < d.n; i++) {
			const sample *s = &d.v[i];
			if (s->heldout)
				continue;
			double p = 1.0 / (1.0 + exp(-K * black_eval(s, w) / 100.0));
			double e = (p - s->result / 2.0) * K / 100.0;
			for (int k = 0; k < W_NUM; k++)
				grad[k] += e * s->f[k];
		}
		for (int k = 0; k < W_NUM; k++) {
			if (!tune_is_fitted(k))
				continue;
			double gk = grad[k] / (double)train;
			m[k] = b1 * m[k] + (1 - b1) * gk;
			v[k] = b2 * v[k] + (1 - b2) * gk * gk;
			double mh = m[k] / (1 - pow(b1, (double)ep)), vh = v[k] / (1 - pow(b2, (double)ep));
			w[k] -= lr * mh / (sqrt(vh) + 1e-8);
			if (w[k] > 500)
				w[k] = 500;
			if (w[k] < -500)
				w[k] = -500;
		}
		if (ep % 50 == 0 && progress)
			progress(ctx, ep, loss(&d, w, K, 0));
	}
	double wi[W_NUM];
	for (int k = 0; k < W_NUM; k++)
		wi[k] = lround(w[k]);
	double after_train = loss(&d, wi, K, 0), after_held = loss(&d, wi, K, 1);
	out->heldout = d.n - train;
	out->games = d.games;
	out->K = K;
	out->before_train = before_train;
	out->before_held = before_held;
	out->after_train = after_train;
	out->after_held = after_held;
	for (int k = 0; k < W_NUM; k++) {
		out->start[k] = (int)start[k];
		out->fitted[k] = (int)wi[k];
	}
	return 0;
}
