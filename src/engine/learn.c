/* Fitting the pattern weights to game results. */
#include <math.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/pool.h"
#include "engine/learn.h"
#include "engine/search.h"
#include "rules/gen.h"
#include "engine/vpattern.h"

#include "engine/learn_int.h"

pk_learn_data *learn_data_new(const pk_weights *base)
{
	pk_learn_data *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->base = *base;
	d->base.pat = NULL;
	return d;
}

pk_learn_data *learn_data_new_endgame(const pk_weights *base, int max_pieces)
{
	pk_learn_data *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->base = *base;
	d->max_pieces = max_pieces;
	return d;
}

void learn_data_free(pk_learn_data *d)
{
	if (!d)
		return;
	free(d->v);
	free(d->pos);
	free(d->vpos);
	free(d->kidx);
	free(d->kept_keys);
	free(d->kept_scores);
	free(d);
}

size_t learn_positions(const pk_learn_data *d) { return d->n; }
long learn_games(const pk_learn_data *d) { return d->games; }

/* Room for twice as many samples. */
static int grow(pk_learn_data *d)
{
	size_t cap = d->cap ? d->cap * 2 : 1 << 16;
	sample *v = realloc(d->v, cap * sizeof *v);
	if (!v)
		return -1;
	d->v = v;
	pk_pos *ps = realloc(d->pos, cap * sizeof *ps);
	if (!ps)
		return -1;
	d->pos = ps;
	if (d->variant) {
		pk_vpos *vp = realloc(d->vpos, cap * sizeof *vp);
		if (!vp)
			return -1;
		d->vpos = vp;
	}
	if (d->max_pieces) {
		uint32_t (*k)[PAT_WINDOWS_BASIC] = realloc(d->kidx, cap * sizeof *k);
		if (!k)
			return -1;
		d->kidx = k;
	}
	d->cap = cap;
	return 0;
}

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
	size_t n0 = d->n;
	for (int i = skip; i < rp->nply; i++) {
		const pk_pos *p = &rp->plies[i].after;
		if (gen_has_capture(p) || (d->max_pieces && bb_count(p->side[0] | p->side[1]) > d->max_pieces))
			continue;
		pk_movelist ml;
		if (gen_moves(p, &ml) == 0)
			continue;
		if (d->n == d->cap && grow(d) < 0)
			return -1;
		if (d->kidx)
			pattern_king_indices(p, d->kidx[d->n]);
		d->pos[d->n] = *p;
		sample *s = &d->v[d->n++];
		s->tried = 0;
		s->score = NO_SCORE;
		int ph, t;
		pattern_indices(p, PAT_WINDOWS, true, s->idx, &ph, &t);
		s->phase = (uint8_t)ph;
		s->t = (uint8_t)t;
		int b = eval(p, &d->base);
		s->base = (int16_t)(b > 3000 ? 3000 : b < -3000 ? -3000 : b);
		s->y = (uint8_t)(p->stm == PK_BLACK ? first : 2 - first);
		s->held = held;
		s->stm = (uint8_t)p->stm;
		s->opens = d->n - 1 == n0;
	}
	return 0;
}

pk_learn_data *learn_data_new_variant(const pk_variant *v, const pk_vweights *base, const pk_patterns *base_pat)
{
	if (!vpattern_board(v))
		return NULL;
	pk_learn_data *d = learn_data_new(eval_tuned_weights());
	if (!d)
		return NULL;
	d->variant = v;
	d->vbase = *base;
	d->vbase.pat = base_pat;   /* what the patterns add to: the hand-set terms alone, or with these */
	return d;
}

void learn_set_calm(pk_learn_data *d, bool calm) { d->calm = calm; }
void learn_set_men_only(pk_learn_data *d, bool men_only) { d->men_only = men_only; }
void learn_set_tempo(pk_learn_data *d, bool tempo) { d->tempo = tempo; }

int learn_add_vgame(pk_learn_data *d, const pk_replay *rp, int skip)
{
	const pk_vreplay *vr = &rp->vr;
	if (!d->variant || !rp->variant_replayed || rp->variant != d->variant->gametype || !rp->complete ||
	    vr->plies < skip + 2)
		return 0;
	/* "1-0" is the first mover's win (pdn/replay.h's RES_BLACK_WINS in every variant) */
	int first = rp->result == RES_BLACK_WINS ? 2 : rp->result == RES_WHITE_WINS ? 0 : rp->result == RES_DRAW ? 1 : -1;
	if (first < 0)
		return 0;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	pk_vpos p = vr->start;
	bool held = false;
	size_t n0 = d->n;
	d->games++;
	int rc = 0;
	for (int i = 0; i < vr->plies; i++) {
		if (vgen(&p, ml) <= vr->ord[i])
			break;
		pk_vpos q;
		vmake(&p, &ml->m[vr->ord[i]], &q);
		p = q;
		if (i == 2)
			held = (vpos_key(&p) * 0x9E3779B97F4A7C15ull >> 56) % 10 == 0;   /* by opening, as English's */
		if (i + 1 < skip || vhas_capture(&p) || vcount(&p) == 0)
			continue;
		if (d->calm) {
			pk_vpos o = p;
			o.stm = !o.stm;
			if (vhas_capture(&o))
				continue;
		}
		if (d->n == d->cap && grow(d) < 0) {
			rc = -1;
			break;
		}
		memset(&d->pos[d->n], 0, sizeof d->pos[d->n]);
		d->pos[d->n].key = vpos_state_key(&p);   /* what the labels file checks its positions by */
		d->vpos[d->n] = p;
		sample *s = &d->v[d->n++];
		s->tried = 0;
		s->score = NO_SCORE;
		int ph, t;
		memset(s->idx, 0, sizeof s->idx);
		vpattern_indices(&p, d->men_only, d->tempo, s->idx, &ph, &t);
		s->phase = (uint8_t)ph;
		s->t = (uint8_t)t;
		int b = veval(&p, &d->vbase);
		s->base = (int16_t)(b > 3000 ? 3000 : b < -3000 ? -3000 : b);
		s->y = (uint8_t)(p.stm == d->variant->first ? first : 2 - first);
		s->held = false;
		s->stm = (uint8_t)p.stm;
		s->opens = d->n - 1 == n0;
	}
	/* the game's samples held out or not, by its opening */
	for (size_t k = n0; k < d->n; k++)
		d->v[k].held = held;
	free(ml);
	return rc;
}

int learn_add_position(pk_learn_data *d, const pk_pos *p, int value)
{
	if (d->max_pieces && bb_count(p->side[0] | p->side[1]) > d->max_pieces)
		return 0;
	if (d->n == d->cap && grow(d) < 0)
		return -1;
	if (d->kidx)
		pattern_king_indices(p, d->kidx[d->n]);
	d->pos[d->n] = *p;
	sample *s = &d->v[d->n++];
	s->tried = 0;
	s->score = NO_SCORE;
	int ph, t;
	pattern_indices(p, PAT_WINDOWS, true, s->idx, &ph, &t);
	s->phase = (uint8_t)ph;
	s->t = (uint8_t)t;
	int b = eval(p, &d->base);
	s->base = (int16_t)(b > 3000 ? 3000 : b < -3000 ? -3000 : b);
	s->y = (uint8_t)(value + 1);
	s->held = 0;
	s->stm = (uint8_t)p->stm;
	s->opens = 1;
	d->exact++;
	return 0;
}

size_t learn_exact(const pk_learn_data *d) { return d->exact; }

size_t learn_labelled(const pk_learn_data *d) { return d->labelled; }

/* The positions on the stride (every `every`th) not searched yet, into todo when not
 * NULL: how many. */
static size_t unsearched(const pk_learn_data *d, int every, size_t *todo)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i += (size_t)(every < 1 ? 1 : every))
		if (!d->v[i].tried) {
			if (todo)
				todo[n] = i;
			n++;
		}
	return n;
}

size_t learn_unsearched(const pk_learn_data *d, int every) { return unsearched(d, every, NULL); }

typedef struct {
	pk_learn_data *d;
	const pk_weights *w;
	pk_egdb *db;
	int depth, end_pieces, end_depth, every, nthreads;
	/* the positions to search (on the stride, not searched before), each thread a run
	 * of them in order: the same labels every run, the work shared evenly */
	size_t *todo, ntodo;
	_Atomic size_t done[MAX_THREADS];   /* read by thread 0 for the progress */
	size_t labelled[MAX_THREADS];
	const volatile sig_atomic_t *stop;
	void (*progress)(void *ctx, size_t done, size_t total);
	void *ctx;
	atomic_bool failed;
} label_job;

/* The labelling of a variant's positions: its engine, its built-in evaluation. */
static void label_vthread(int id, label_job *j)
{
	pk_learn_data *d = j->d;
	pk_vengine *e = vengine_new(16);
	if (!e) {
		atomic_store(&j->failed, true);
		return;
	}
	size_t lo = j->ntodo * (size_t)id / (size_t)j->nthreads, hi = j->ntodo * (size_t)(id + 1) / (size_t)j->nthreads;
	pk_limits lim = { .depth = j->depth }, end_lim = { .depth = j->end_depth };
	for (size_t k = lo; k < hi; k++) {
		if (j->stop && *j->stop)
			break;
		size_t i = j->todo[k];
		atomic_store_explicit(&j->done[id], k - lo + 1, memory_order_relaxed);
		if (id == 0 && j->progress && (k - lo) % 256 == 0) {
			size_t all = 0;
			for (int t = 0; t < j->nthreads; t++)
				all += atomic_load_explicit(&j->done[t], memory_order_relaxed);
			j->progress(j->ctx, all, j->ntodo);
		}
		d->v[i].tried = 1;
		const pk_vpos *p = &d->vpos[i];
		bool end = j->end_pieces && vpos_pieces(p) <= j->end_pieces;
		pk_vresult r;
		if (vengine_search(e, p, NULL, end ? &end_lim : &lim, NULL, NULL, NULL, &r) < 0 || !r.has_move || r.forced)
			continue;
		int s = r.last.score;
		d->v[i].score = (int16_t)(s > 3000 ? 3000 : s < -3000 ? -3000 : s);
		j->labelled[id]++;
	}
	vengine_free(e);
}

static void label_thread(int id, void *arg)
{
	label_job *j = arg;
	pk_learn_data *d = j->d;
	if (d->variant) {
		label_vthread(id, j);
		return;
	}
	pk_engine *e = engine_new(16, j->w);
	if (!e) {
		atomic_store(&j->failed, true);
		return;
	}
	engine_set_egdb(e, j->db);
	size_t lo = j->ntodo * (size_t)id / (size_t)j->nthreads, hi = j->ntodo * (size_t)(id + 1) / (size_t)j->nthreads;
	pk_limits lim = { .depth = j->depth }, end_lim = { .depth = j->end_depth };
	for (size_t k = lo; k < hi; k++) {
		if (j->stop && *j->stop)
			break;
		size_t i = j->todo[k];
		atomic_store_explicit(&j->done[id], k - lo + 1, memory_order_relaxed);
		if (id == 0 && j->progress && (k - lo) % 1024 == 0) {
			size_t all = 0;
			for (int t = 0; t < j->nthreads; t++)
				all += atomic_load_explicit(&j->done[t], memory_order_relaxed);
			j->progress(j->ctx, all, j->ntodo);
		}
		d->v[i].tried = 1;
		pk_result r;
		const pk_pos *p = &d->pos[i];
		bool end = j->end_pieces && bb_count(p->side[0] | p->side[1]) <= j->end_pieces;
		if (engine_search(e, p, NULL, end ? &end_lim : &lim, NULL, NULL, NULL, &r) < 0 || !r.has_move || r.forced)
			continue;
		int s = r.last.score;
		d->v[i].score = (int16_t)(s > 3000 ? 3000 : s < -3000 ? -3000 : s);
		j->labelled[id]++;
	}
	engine_free(e);
}

int learn_label(pk_learn_data *d, const pk_weights *w, pk_egdb *db, int depth, int end_pieces, int end_depth, int every, int threads,
		const volatile sig_atomic_t *stop, void (*progress)(void *ctx, size_t done, size_t total), void *ctx)
{
	label_job j = { .d = d, .w = w, .db = db, .depth = depth < 1 ? 1 : depth, .end_pieces = end_depth > 0 ? end_pieces : 0,
			.end_depth = end_depth, .every = every < 1 ? 1 : every, .stop = stop,
			.progress = progress, .ctx = ctx };
	j.nthreads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
	j.todo = malloc(sizeof *j.todo * (d->n ? d->n : 1));
	if (!j.todo)
		return -1;
	j.ntodo = unsearched(d, j.every, j.todo);
	pool_run(j.nthreads, label_thread, &j);
	free(j.todo);
	/* added to those read from a labels file */
	for (int t = 0; t < j.nthreads; t++)
		d->labelled += j.labelled[t];
	return atomic_load(&j.failed) ? -1 : 0;
}

/* The targets of temporal differences (pk_learn_opts.td): each game's samples from its
 * last to its first, the target carried back from the next sample (turned to this one's
 * side to move: 1 - it when the mover differs) and, at a sample with a search score,
 * mixed with that score's sigmoid: (1 - td) sigmoid(K score) + td carried. The last
 * sample's carried target is its game's result. A sample without a score passes the
 * carried target on unchanged. */
static float *td_targets(const pk_learn_data *d, double td, double K)
{
	float *t = malloc(sizeof *t * (d->n ? d->n : 1));
	if (!t)
		return NULL;
	double carry = 0;
	for (size_t k = d->n; k-- > 0;) {
		const sample *s = &d->v[k];
		if (k + 1 == d->n || d->v[k + 1].opens)
			carry = s->y / 2.0;   /* the game's last sample: its result */
		else if (d->v[k + 1].stm != s->stm)
			carry = 1 - carry;
		if (s->score != NO_SCORE)
			carry = (1 - td) * sigmoid(K * s->score / 100.0) + td * carry;
		t[k] = (float)carry;
	}
	return t;
}

/* One pass on a thread: the gradient of its share of the training part into grad, the
 * losses of both parts into sums. */
typedef struct {
	const pk_learn_data *d;
	const float *w;
	double K;
	double lambda;                  /* the result's share of the target where there is a score */
	bool labelled_only;             /* positions without a score not fitted */
	const float *td;                /* with --td: each sample's target (td_targets) */
	int nthreads;
	int tab[PAT_TABLES], ntab;      /* the tables fitted */
	int map[PAT_TABLES];            /* each table's weights: those of table map[k] (tied) */
	int mirror[PAT_TABLES];         /* tie 3: a window's partner half a circle round, whose
					 * weights of the index turned and its sides swapped are
					 * taken away (-1: none) */
	uint16_t *turned;               /* with a mirror: vpattern_turned of each index */
	bool kings;                     /* the endgame table: the windows with kings (d->kidx) */
	size_t lt, ts, nw;              /* tables a phase, weights a table, weights in all */
	float *grad[MAX_THREADS];
	float *hess[MAX_THREADS];
	double loss[MAX_THREADS][2];
	size_t count[MAX_THREADS][2];
	bool want_grad;
} pass;

/* The offset of sample i's weight of table k in phase 0 (the next phase's is ps->lt *
 * ps->ts further). */
static inline size_t weight_at(const pass *ps, size_t i, int k)
{
	const sample *s = &ps->d->v[i];
	return ((size_t)s->phase * ps->lt + (size_t)ps->map[k]) * ps->ts + (ps->kings ? ps->d->kidx[i][k] : s->idx[k]);
}

/* The offset of the weight that sample i's window k takes away under tie 3 (its
 * partner's, of the turned index), in phase 0. */
static inline size_t mirror_at(const pass *ps, size_t i, int k)
{
	const sample *s = &ps->d->v[i];
	return ((size_t)s->phase * ps->lt + (size_t)ps->mirror[k]) * ps->ts + ps->turned[s->idx[k]];
}

static inline double value(const pass *ps, size_t i, const float *w)
{
	const sample *s = &ps->d->v[i];
	double a = 0, b = 0;
	size_t next = ps->lt * ps->ts;
	for (int j = 0; j < ps->ntab; j++) {
		size_t o = weight_at(ps, i, ps->tab[j]);
		a += w[o];
		b += w[o + next];
		if (ps->mirror[ps->tab[j]] >= 0) {
			o = mirror_at(ps, i, ps->tab[j]);
			a -= w[o];
			b -= w[o + next];
		}
	}
	return s->base + (a * (PAT_SEG - s->t) + b * s->t) / PAT_SEG;
}

static void pass_thread(int id, void *arg)
{
	pass *ps = arg;
	const pk_learn_data *d = ps->d;
	size_t lo = d->n * (size_t)id / (size_t)ps->nthreads, hi = d->n * (size_t)(id + 1) / (size_t)ps->nthreads;
	float *g = ps->grad[id], *hs = ps->hess[id];
	if (ps->want_grad) {
		memset(g, 0, sizeof(float) * ps->nw);
		memset(hs, 0, sizeof(float) * ps->nw);
	}
	double l[2] = { 0, 0 };
	size_t c[2] = { 0, 0 };
	for (size_t i = lo; i < hi; i++) {
		const sample *s = &d->v[i];
		double p = sigmoid(ps->K * value(ps, i, ps->w) / 100.0);
		/* the losses are against the game's result: what the held-out loss measures */
		l[s->held] += logloss(p, s->y / 2.0);
		c[s->held]++;
		if (s->held || !ps->want_grad || (ps->labelled_only && s->score == NO_SCORE))
			continue;
		double target = s->y / 2.0;
		if (ps->td)
			target = ps->td[i];
		else if (s->score != NO_SCORE)
			target = ps->lambda * target + (1 - ps->lambda) * sigmoid(ps->K * s->score / 100.0);
		double e = (p - target) * ps->K / 100.0, cv = p * (1 - p) * (ps->K / 100.0) * (ps->K / 100.0);
		double a1 = (double)s->t / PAT_SEG, a0 = 1 - a1;
		float e0 = (float)(e * a0), e1 = (float)(e * a1), h0 = (float)(cv * a0 * a0), h1 = (float)(cv * a1 * a1);
		for (int j = 0; j < ps->ntab; j++) {
			size_t i0 = weight_at(ps, i, ps->tab[j]), i1 = i0 + ps->lt * ps->ts;
			g[i0] += e0;
			g[i1] += e1;
			hs[i0] += h0;
			hs[i1] += h1;
			if (ps->mirror[ps->tab[j]] >= 0) {
				i0 = mirror_at(ps, i, ps->tab[j]);
				i1 = i0 + ps->lt * ps->ts;
				g[i0] -= e0;
				g[i1] -= e1;
				hs[i0] += h0;
				hs[i1] += h1;
			}
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
			for (size_t i = 0; i < ps->nw; i++) {
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
	/* an endgame collection fits the endgame table: nine windows with kings */
	bool kings = d->kidx != NULL;
	size_t lt = kings ? PAT_WINDOWS_BASIC : PAT_TABLES, ts = kings ? PAT_KINDEX : PAT_INDEX, NW = PAT_PHASES * lt * ts;
	float *w = calloc(NW, sizeof *w), *best = calloc(NW, sizeof *best), *keep = calloc(NW, sizeof *keep);
	int *count = calloc(NW, sizeof *count);
	int nwin = o->windows == PAT_WINDOWS && !kings ? PAT_WINDOWS : PAT_WINDOWS_BASIC;
	if (d->variant)   /* a 10x10 variant's windows */
		nwin = o->windows == VPAT_WINDOWS || o->windows == VPAT_WINDOWS_STRIPS ? o->windows : VPAT_WINDOWS_BASIC;
	pass ps = { .d = d, .w = w, .nthreads = nt, .lambda = o->lambda < 0 ? 0 : o->lambda > 1 ? 1 : o->lambda,
		    .labelled_only = o->labelled_only, .kings = kings, .lt = lt, .ts = ts, .nw = NW };
	for (int k = 0; k < PAT_TABLES; k++) {
		ps.map[k] = k;
		ps.mirror[k] = -1;
	}
	for (int wi = 0; wi < nwin; wi++) {
		int k = d->variant ? vpattern_table(wi) : wi;
		ps.tab[ps.ntab++] = k;
		if (d->variant && o->tie == 3 && !kings)   /* the window at the turned origin */
			ps.mirror[k] = vpattern_partner(k);
		else if (d->variant && o->tie == 1 && k < VPAT_WINDOWS)
			ps.map[k] = k < VPAT_WINDOWS_BASIC ? k / 4 * 4 : 16 + (k - 16) / 3 * 3;   /* a row of windows */
		else if (d->variant && o->tie == 2 && k < VPAT_WINDOWS)
			ps.map[k] = 0;
	}
	if (o->material && !kings)
		ps.tab[ps.ntab++] = PAT_MATERIAL;   /* a 10x10 variant's: vpattern_material_index() */
	int rc = 0;
	if (!(ps.turned = malloc(PAT_INDEX * sizeof *ps.turned)))
		rc = -1;
	for (int i = 0; rc == 0 && i < PAT_INDEX; i++)
		ps.turned[i] = (uint16_t)vpattern_turned(i);
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
		for (int j = 0; j < ps.ntab; j++) {
			size_t i0 = weight_at(&ps, i, ps.tab[j]);
			count[i0] += s->t < PAT_SEG;
			count[i0 + lt * ts] += s->t > 0;
			if (ps.mirror[ps.tab[j]] >= 0) {
				i0 = mirror_at(&ps, i, ps.tab[j]);
				count[i0] += s->t < PAT_SEG;
				count[i0 + lt * ts] += s->t > 0;
			}
		}
	}
	if (o->end_phase)   /* the phases before the last stay as they are */
		memset(count, 0, sizeof *count * (size_t)(PAT_PHASES - 1) * lt * ts);
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
	if (o->td > 0 && !(ps.td = td_targets(d, o->td > 1 ? 1 : o->td, ps.K))) {
		rc = -1;
		goto out;
	}
	run_pass(&ps, false, &r->base_train, &r->base_held);
	r->best_train = r->base_train;
	r->best_held = r->base_held;
	/* Damped Newton steps on each weight alone (its gradient over its curvature, both
	 * summed over the positions it is seen in): a pattern moves as far as its own
	 * evidence says, seldom-seen ones little; the ridge counts as l2 positions at zero. */
	double ridge = l2 * 0.25 * (ps.K / 100.0) * (ps.K / 100.0) * 0.5;
	/* A step that raises the training loss is taken back and the share halved: the
	 * windows overlap, so the steps of a position's 18 (to 52) weights add up. */
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
		if (r->heldout == 0 || he < r->best_held || o->keep_last) {
			r->best_held = he;
			r->best_train = tr;
			r->best_epoch = e;
			memcpy(best, w, sizeof(float) * NW);
		}
		r->last_train = tr;
		r->last_held = he;
		if (progress)
			progress(ctx, e, tr, he);
	}
	out->windows = nwin;
	out->material = o->material != 0 && !kings;
	out->men_only = d->variant && d->men_only;
	out->tempo = d->variant && d->tempo;
	for (int ph = 0; ph < PAT_PHASES; ph++)
		for (size_t k = 0; k < lt; k++)
			for (size_t i = 0; i < ts; i++) {
				double x = best[(ph * lt + (size_t)ps.map[k]) * ts + i];
				if (ps.mirror[k] >= 0)   /* what the partner's turned index takes away */
					x -= best[(ph * lt + (size_t)ps.mirror[k]) * ts + ps.turned[i]];
				x = x > 3000 ? 3000 : x < -3000 ? -3000 : x;
				if (kings)
					out->e[ph][k][i] = (int16_t)lround(x);
				else
					out->w[ph][k][i] = (int16_t)lround(x);
			}
	if (kings)
		out->end_pieces = d->max_pieces < PAT_END_MIN ? PAT_END_MIN : d->max_pieces > PAT_END_MAX ? PAT_END_MAX : d->max_pieces;
	patterns_checksum(out);
out:
	for (int t = 0; t < nt; t++) {
		free(ps.grad[t]);
		free(ps.hess[t]);
	}
	free(ps.turned);
	free((float *)ps.td);
	free(w);
	free(best);
	free(keep);
	free(count);
	return rc;
}
