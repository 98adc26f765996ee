/* Fitting the evaluation weights to game results by logistic regression. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/tune.h"
#include "engine/vsearch.h"
#include "rules/gen.h"

/* Terms fitted to results. The endgame technique terms (king_corner, drive) are
 * knowledge of how to win won endings, not of who wins: they keep their values. */
bool tune_is_fitted(int k) { return k != W_KING_CORNER && k != W_DRIVE; }

typedef struct {
	float f[TUNE_MAX_W];
	uint32_t game;      /* its game's number in the collection */
	int16_t men;
	uint8_t result;     /* the first mover's score: 0, 1 (draw), 2 */
	uint8_t heldout;
} sample;

struct pk_tune_data {
	sample *v;
	size_t n, cap;
	long games;
	const pk_variant *variant;   /* NULL: English draughts */
	int nw;
	double start[TUNE_MAX_W];
	bool fitted[TUNE_MAX_W];
	const char *const *names;
};
typedef pk_tune_data dataset;

/* The score of the side a result names first ("1-0": English draughts' Black, the
 * first mover of the other variants) of a finished game: 2 win, 1 draw, 0 loss; -1
 * otherwise. */
static int first_score(int result)
{
	return result == RES_BLACK_WINS ? 2 : result == RES_WHITE_WINS ? 0 : result == RES_DRAW ? 1 : -1;
}

static sample *new_sample(dataset *d, int res)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 1 << 14;
		sample *v = realloc(d->v, cap * sizeof *v);
		if (!v)
			return NULL;
		d->v = v;
		d->cap = cap;
	}
	sample *s = &d->v[d->n++];
	memset(s, 0, sizeof *s);
	s->result = (uint8_t)res;
	s->game = (uint32_t)d->games;
	s->heldout = d->games % 10 == 0;   /* every tenth game is held out */
	return s;
}

static int add_game(dataset *d, const pk_replay *rp, int skip_plies)
{
	if (!rp->supported || !rp->complete || rp->nply < skip_plies + 2)
		return 0;
	int res = first_score(rp->result);
	if (res < 0)
		return 0;
	d->games++;
	for (int i = skip_plies; i < rp->nply; i++) {
		const pk_pos *p = &rp->plies[i].after;
		if (gen_has_capture(p))
			continue;   /* only quiet positions: a capture pending is no position to judge */
		sample *s = new_sample(d, res);
		if (!s)
			return -1;
		int men, f[W_NUM];
		eval_features(p, &men, f);
		for (int k = 0; k < W_NUM; k++)
			s->f[k] = (float)f[k];
		s->men = (int16_t)men;
	}
	return 0;
}

/* The same for a game of d->variant, replayed with its ordinals kept. The features are
 * taken from the view of the variant's first mover, as the result is. */
static int add_vgame(dataset *d, const pk_replay *rp, int skip_plies)
{
	const pk_vreplay *vr = &rp->vr;
	if (rp->variant != d->variant->gametype || !vr->ord || !vr->complete || vr->plies < skip_plies + 2)
		return 0;
	int res = first_score(rp->result);   /* the score of "1-0"'s side: the variant's first mover */
	if (res < 0)
		return 0;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	d->games++;
	pk_vpos p = vr->start;
	int status = 0;
	for (int i = 0; i < vr->plies; i++) {
		int n = vgen(&p, ml);
		if (vr->ord[i] < 0 || vr->ord[i] >= n)
			break;
		pk_vpos q;
		vmake(&p, &ml->m[vr->ord[i]], &q);
		p = q;
		if (i + 1 < skip_plies || (vgen(&p, ml) > 0 && ml->m[0].ncap > 0))
			continue;
		sample *s = new_sample(d, res);
		if (!s) {
			status = -1;
			break;
		}
		int men;
		double f[VW_NUM];
		pk_vpos view = p;
		view.stm = d->variant->first;   /* the view of the result's first side (a game
						 * set up with the other side to move keeps it) */
		vfeatures(&view, &men, f);
		for (int k = 0; k < VW_NUM; k++)
			s->f[k] = (float)f[k];
		s->men = (int16_t)men;
	}
	free(ml);
	return status;
}

static double first_eval(const sample *s, const double *w)
{
	double v = 100.0 * s->men;
	for (int k = 0; k < TUNE_MAX_W; k++)   /* the unused ones are 0 */
		v += s->f[k] * w[k];
	return v;
}

/* Which samples a pass uses: folds 0, the fixed split (every tenth game held out);
 * else the games numbered fold modulo folds are held out. */
typedef struct {
	int folds, fold;
} split;

static bool held_out(const sample *s, split sp)
{
	return sp.folds ? (int)(s->game % (uint32_t)sp.folds) == sp.fold : s->heldout;
}

/* Mean log loss of sigmoid(K * eval / 100) against the result, on one part. */
static double loss(const dataset *d, const double *w, double K, split sp, bool heldout)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		const sample *s = &d->v[i];
		if (held_out(s, sp) != heldout)
			continue;
		double p = 1.0 / (1.0 + exp(-K * first_eval(s, w) / 100.0));
		double y = s->result / 2.0;
		p = p < 1e-9 ? 1e-9 : p > 1 - 1e-9 ? 1 - 1e-9 : p;
		sum -= y * log(p) + (1 - y) * log(1 - p);
		n++;
	}
	return n ? sum / (double)n : 0;
}

/* The scale K that best fits w on the training part, by golden-section search. */
static double fit_scale(const dataset *d, const double *w, split sp)
{
	double lo = 0.1, hi = 3.0;
	for (int it = 0; it < 40; it++) {
		double a = hi - (hi - lo) / 1.618, b = lo + (hi - lo) / 1.618;
		if (loss(d, w, a, sp, false) < loss(d, w, b, sp, false))
			hi = b;
		else
			lo = a;
	}
	return (lo + hi) / 2;
}

/* Adam over the training part from w (in place), the log loss plus ridge times the
 * squared distance of the fitted weights from the start (in hundredths). */
/* Returns the epochs run: fewer than asked when stop was set. */
static long adam(const dataset *d, double *w, double K, split sp, long epochs, double ridge,
		 void (*progress)(void *ctx, long epoch, double loss), void *ctx, const volatile sig_atomic_t *stop)
{
	long done = 0;
	double m[TUNE_MAX_W] = { 0 }, v[TUNE_MAX_W] = { 0 }, grad[TUNE_MAX_W];
	const double lr = 1.0, b1 = 0.9, b2 = 0.999;
	size_t train = 0;
	for (size_t i = 0; i < d->n; i++)
		train += !held_out(&d->v[i], sp);
	if (!train)
		return 0;
	for (long ep = 1; ep <= epochs && !(stop && *stop); ep++) {
		done = ep;
		memset(grad, 0, sizeof grad);
		for (size_t i = 0; i < d->n; i++) {
			const sample *s = &d->v[i];
			if (held_out(s, sp))
				continue;
			double p = 1.0 / (1.0 + exp(-K * first_eval(s, w) / 100.0));
			double e = (p - s->result / 2.0) * K / 100.0;
			for (int k = 0; k < d->nw; k++)
				grad[k] += e * s->f[k];
		}
		for (int k = 0; k < d->nw; k++) {
			if (!d->fitted[k])
				continue;
			double gk = grad[k] / (double)train + 2 * ridge * (w[k] - d->start[k]);
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
			progress(ctx, ep, loss(d, w, K, sp, false));
	}
	for (int k = 0; k < d->nw; k++)
		w[k] = lround(w[k]);
	return done;
}

pk_tune_data *tune_data_new(const pk_variant *v)
{
	pk_tune_data *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	if (v && v->gametype != 21) {
		pk_vweights w;
		vweights_hand_set(v, &w);
		d->variant = v;
		d->nw = VW_NUM;
		d->names = vweight_names;
		for (int k = 0; k < VW_NUM; k++) {
			d->start[k] = w.w[k];
			d->fitted[k] = k != VW_DRAWISH;   /* a switch, not a weight */
		}
	} else {
		d->nw = W_NUM;
		d->names = eval_weight_names;
		for (int k = 0; k < W_NUM; k++) {
			d->start[k] = eval_default_weights.w[k];
			d->fitted[k] = tune_is_fitted(k);
		}
	}
	return d;
}

void tune_data_free(pk_tune_data *d)
{
	if (d)
		free(d->v);
	free(d);
}

int tune_add_game(pk_tune_data *d, const pk_replay *rp)
{
	return d->variant ? add_vgame(d, rp, 8) : add_game(d, rp, 8);
}

/* Mean held-out loss over `folds` folds, of the start weights and of the fitted ones. */
static void cross_validate(const dataset *d, long epochs, int folds, double ridge, double *before, double *after,
			   const volatile sig_atomic_t *stop)
{
	*before = *after = 0;
	for (int f = 0; f < folds; f++) {
		split sp = { folds, f };
		double w[TUNE_MAX_W] = { 0 };
		for (int k = 0; k < d->nw; k++)
			w[k] = d->start[k];
		double K = fit_scale(d, w, sp);
		*before += loss(d, w, K, sp, true) / folds;
		adam(d, w, K, sp, epochs, ridge, NULL, NULL, stop);
		*after += loss(d, w, K, sp, true) / folds;
	}
}

static const double ridge_grid[] = { 0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3 };

int tune_fit(const pk_tune_data *d, const pk_tune_opts *o, void (*progress)(void *ctx, long epoch, double loss),
	     void *ctx, pk_tune_result *out)
{
	split fixed = { 0, 0 };
	size_t train = 0;
	for (size_t i = 0; i < d->n; i++)
		train += !d->v[i].heldout;
	memset(out, 0, sizeof *out);
	out->train = train;
	out->heldout = d->n - train;
	out->games = d->games;
	out->nw = d->nw;
	out->names = d->names;
	if (train < 1000)
		return -1;
	out->ridge = o->ridge;
	if (o->folds > 1) {
		/* The ridge that fits held-out games best, each fold in turn held out. */
		int ng = o->ridge < 0 ? (int)(sizeof ridge_grid / sizeof *ridge_grid) : 1;
		double best = INFINITY;
		for (int i = 0; i < ng; i++) {
			double r = o->ridge < 0 ? ridge_grid[i] : o->ridge, before, after;
			if (o->stop && *o->stop) {
				out->cv_cut = true;
				break;
			}
			cross_validate(d, o->epochs, o->folds, r, &before, &after, o->stop);
			out->cv_cut |= o->stop && *o->stop;
			if (i < TUNE_MAX_RIDGES) {
				out->cv[i].ridge = r;
				out->cv[i].before = before;
				out->cv[i].after = after;
				out->ncv = i + 1;
			}
			if (after < best) {
				best = after;
				out->ridge = r;
			}
		}
	} else if (o->ridge < 0) {
		out->ridge = 0;   /* choosing needs folds */
	}

	double w[TUNE_MAX_W] = { 0 };
	for (int k = 0; k < d->nw; k++)
		w[k] = d->start[k];
	double K = fit_scale(d, w, fixed);
	out->K = K;
	out->before_train = loss(d, w, K, fixed, false);
	out->before_held = loss(d, w, K, fixed, true);
	out->epochs_done = adam(d, w, K, fixed, o->epochs, out->ridge, progress, ctx, o->stop);
	out->after_train = loss(d, w, K, fixed, false);
	out->after_held = loss(d, w, K, fixed, true);
	for (int k = 0; k < d->nw; k++) {
		out->kept[k] = !d->fitted[k];
		out->start[k] = (int)d->start[k];
		out->fitted[k] = (int)w[k];
	}
	return 0;
}
