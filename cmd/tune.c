/* pdnkit tune: fit the evaluation weights to game results by logistic regression over
 * the quiet positions of a collection, and report the fit on held-out games. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "analysis/tune.h"
#include "store/games.h"

typedef struct {
	long epochs;
} progress_ctx;

static void show_epoch(void *ctx, long epoch, double loss)
{
	progress_ctx *c = ctx;
	if (cli_stderr_is_tty())
		fprintf(stderr, "\rtune: epoch %ld of %ld, training loss %.5f ", epoch, c->epochs, loss);
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
	int rc = cli_parse_options(ctx, opts);
	pk_tune_data *d = NULL;
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
	pk_store *st = NULL;
	if (use_db && !(st = db_open(&fa, false)))
		goto out;
	pk_source src = { .files = files, .nfiles = use_db ? 0 : nfiles, .store = st };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		store_close(st);
		goto out;
	}
	int got = GAMES_FATAL;
	if (!(d = tune_data_new()))
		goto walk_done;
	pk_game *g;
	pk_replay *rp;
	while ((got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got == GAMES_ERROR) {
			cli_error("%s", games_error(it));
			goto walk_done;
		}
		if (got == GAMES_FATAL || (g->findings.errors == 0 && tune_add_game(d, rp) < 0)) {
			cli_error("out of memory");
			goto walk_done;
		}
	}
	games_close(it);
	it = NULL;
	store_close(st);
	st = NULL;
walk_done:
	games_close(it);
	store_close(st);
	if (got != GAMES_END)
		goto out;
	pk_tune_result tr;
	progress_ctx pc = { epochs };
	double t0 = cli_now();
	if (tune_fit(d, epochs, show_epoch, &pc, &tr) < 0) {
		cli_error("too few positions to fit (%zu)", tr.train);
		goto out;
	}
	if (cli_stderr_is_tty())
		fprintf(stderr, "\r\033[K");
	size_t train = tr.train;
	double K = tr.K, before_train = tr.before_train, before_held = tr.before_held;
	double after_train = tr.after_train, after_held = tr.after_held;
	printf("positions: %zu for fitting, %zu held out (every tenth game), from %ld games; scale K = %.3f\n",
	       train, tr.heldout, tr.games, K);
	printf("log loss   before     after\n  fitting  %.5f   %.5f\n  held out %.5f   %.5f\n", before_train,
	       after_train, before_held, after_held);
	printf("\n%-12s %8s %8s\n", "weight", "before", "after");
	for (int k = 0; k < W_NUM; k++)
		printf("%-12s %8d %8d%s\n", eval_weight_names[k], tr.start[k], tr.fitted[k],
		       tune_is_fitted(k) ? "" : "   (kept: endgame technique)");
	if (out) {
		cli_text txt;
		FILE *f = cli_text_begin(&txt);
		if (!f)
			goto out;
		fprintf(f, "# pdnkit evaluation weights (hundredths of a man; a man is 100).\n"
			   "# Produced by: pdnkit tune");
		for (int i = 0; i < nfiles; i++) {
			const char *base = strrchr(files[i], '/');
			fprintf(f, " %s", base ? base + 1 : files[i]);
		}
		fprintf(f, " -o %s\n# %zu quiet positions of %ld games; held-out log loss %.5f -> %.5f (scale %.3f); %ld epochs.\n",
			out, tr.train + tr.heldout, tr.games, before_held, after_held, K, epochs);
		for (int k = 0; k < W_NUM; k++)
			fprintf(f, "%-12s %d\n", eval_weight_names[k], tr.fitted[k]);
		if (cli_text_commit(&txt, out) < 0)
			goto out;
	}
	fprintf(stderr, "pdnkit tune: %.1f s\n", cli_now() - t0);
	rc = EXIT_OK;
out:
	tune_data_free(d);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(out);
	free(epochs_arg);
	return rc;
}
