/* pdnkit tune: fit the evaluation weights to game results by logistic regression over
 * the quiet positions of a collection, and report the fit on held-out games. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "engine/eval.h"
#include "rules/gen.h"
#include "pdn/pdn.h"
#include "pdn/replay.h"

/* Terms fitted to results. The endgame technique terms (king_corner, drive) are
 * knowledge of how to win won endings, not of who wins: they keep their values. */
static bool fitted(int k) { return k != W_KING_CORNER && k != W_DRIVE; }

typedef struct {
	int16_t f[W_NUM];
	int16_t men;
	uint8_t result;     /* Black's score: 0, 1 (draw), 2 */
	uint8_t heldout;
} sample;

typedef struct {
	sample *v;
	size_t n, cap;
	long games;
} dataset;

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

typedef struct {
	pk_store *s;
	dataset *d;
	pk_game *g;
	pk_replay *rp;
	int failed;
} db_ctx;

static int from_db(void *ctx, const pk_row *row)
{
	db_ctx *c = ctx;
	if (row->status >= STATUS_ERRORS)
		return 0;
	if (store_load_game(c->s, row, c->g, c->rp) < 0 || add_game(c->d, c->rp, 8) < 0) {
		c->failed = 1;
		return 1;
	}
	return 0;
}

int cmd_tune(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *out = NULL, *epochs_arg = NULL;
	int use_db = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, db_option(&fa), 0, NULL, NULL },
		{ "from-db", 0, POPT_ARG_NONE, &use_db, 0, "take the games from the database instead of FILEs", NULL },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the fitted weights here", "WEIGHTS" },
		{ "epochs", 0, POPT_ARG_STRING, &epochs_arg, 0, "passes of gradient descent (default 400)", "N" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [FILE...]");
	int rc = cli_parse_options(ctx);
	dataset d = { 0 };
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	if (!nfiles && !use_db) {
		cli_error("give PDN files, or --from-db");
		goto out;
	}
	long epochs = 400;
	if (epochs_arg && cli_int(epochs_arg, 1, 100000, "--epochs", &epochs))
		goto out;
	rc = EXIT_RUNTIME;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	for (int i = 0; i < nfiles; i++) {
		int err = 0;
		pk_reader *r = pdn_open(files[i], &err);
		if (!r) {
			cli_error("cannot open '%s': %s", files[i], strerror(err));
			goto out;
		}
		replay_new_file(&rp);
		while (pdn_read(r, &g) == 1)
			if (replay_game(&g, &rp) < 0 || add_game(&d, &rp, 8) < 0) {
				cli_error("out of memory");
				pdn_close(r);
				goto out;
			}
		pdn_close(r);
	}
	if (use_db) {
		pk_store *s = db_open(&fa, false);
		if (!s)
			goto out;
		db_ctx c = { s, &d, &g, &rp, 0 };
		pk_filter f;
		filter_init(&f);
		if (store_query(s, &f, from_db, &c) < 0 || c.failed) {
			cli_error("%s", store_error(s));
			store_close(s);
			goto out;
		}
		store_close(s);
	}
	game_free(&g);
	replay_free(&rp);
	size_t train = 0;
	for (size_t i = 0; i < d.n; i++)
		train += !d.v[i].heldout;
	if (train < 1000) {
		cli_error("too few positions to fit (%zu)", train);
		goto out;
	}

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
	double t0 = cli_now();
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
			if (!fitted(k))
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
		if (ep % 50 == 0 && cli_stderr_is_tty())
			fprintf(stderr, "\rtune: epoch %ld of %ld, training loss %.5f ", ep, epochs, loss(&d, w, K, 0));
	}
	if (cli_stderr_is_tty())
		fprintf(stderr, "\r\033[K");
	double wi[W_NUM];
	for (int k = 0; k < W_NUM; k++)
		wi[k] = lround(w[k]);
	double after_train = loss(&d, wi, K, 0), after_held = loss(&d, wi, K, 1);
	printf("positions: %zu for fitting, %zu held out (every tenth game), from %ld games; scale K = %.3f\n",
	       train, d.n - train, d.games, K);
	printf("log loss   before     after\n  fitting  %.5f   %.5f\n  held out %.5f   %.5f\n", before_train,
	       after_train, before_held, after_held);
	printf("\n%-12s %8s %8s\n", "weight", "before", "after");
	for (int k = 0; k < W_NUM; k++)
		printf("%-12s %8.0f %8.0f%s\n", eval_weight_names[k], start[k], wi[k], fitted(k) ? "" : "   (kept: endgame technique)");
	if (out) {
		FILE *f = fopen(out, "w");
		if (!f) {
			cli_error("cannot create '%s'", out);
			goto out;
		}
		fprintf(f, "# pdnkit evaluation weights (hundredths of a man; a man is 100).\n"
			   "# Produced by: pdnkit tune");
		for (int i = 0; i < nfiles; i++) {
			const char *base = strrchr(files[i], '/');
			fprintf(f, " %s", base ? base + 1 : files[i]);
		}
		fprintf(f, " -o %s\n# %zu quiet positions of %ld games; held-out log loss %.5f -> %.5f (scale %.3f); %ld epochs.\n",
			out, d.n, d.games, before_held, after_held, K, epochs);
		for (int k = 0; k < W_NUM; k++)
			fprintf(f, "%-12s %d\n", eval_weight_names[k], (int)wi[k]);
		fclose(f);
	}
	fprintf(stderr, "pdnkit tune: %.1f s\n", cli_now() - t0);
	rc = EXIT_OK;
out:
	free(d.v);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(out);
	free(epochs_arg);
	return rc;
}
