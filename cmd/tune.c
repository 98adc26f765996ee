/* pdnkit tune: fit the evaluation weights to game results by logistic regression over
 * the quiet positions of a collection, and report the fit on held-out games. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

extern const char eval_weights_text[];



/* Whether -o can be written: a regular file we may write, or a new one in a directory
 * we may write; and never, unless forced, the weights file this pdnkit was built with
 * (tune run in the source tree with -o book/weights.txt). -1 after saying why. */
static int check_output(const char *path, bool force)
{
	if (!strcmp(path, "-"))
		return 0;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			cli_error("cannot write '%s': not a regular file", path);
			return -1;
		}
		if (access(path, W_OK) != 0) {
			cli_error("cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
		size_t n = strlen(eval_weights_text);
		if (!force && (size_t)st.st_size == n) {
			FILE *f = fopen(path, "rb");
			char *buf = malloc(n + 1);
			bool same = f && buf && fread(buf, 1, n, f) == n && !memcmp(buf, eval_weights_text, n);
			if (f)
				fclose(f);
			free(buf);
			if (same) {
				cli_error("'%s' holds the weights built into this pdnkit (book/weights.txt): write elsewhere, or give --force to replace them",
					  path);
				return -1;
			}
		}
		return 0;
	}
	return cli_check_output(path);
}

int cmd_tune(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *out = NULL, *epochs_arg = NULL, *variant_arg = NULL, *folds_arg = NULL, *ridge_arg = NULL;
	int use_db = 0, force = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, db_option(&fa), 0, NULL, NULL },
		{ "from-db", 0, POPT_ARG_NONE, &use_db, 0, "take the games from the database instead of FILEs", NULL },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the fitted weights here", "WEIGHTS" },
		{ "force", 0, POPT_ARG_NONE, &force, 0, "replace the weights built into pdnkit (book/weights.txt) with -o", NULL },
		{ "epochs", 0, POPT_ARG_STRING, &epochs_arg, 0, "passes of gradient descent (default 400)", "N" },
		{ "folds", 0, POPT_ARG_STRING, &folds_arg, 0,
		  "also cross-validate: each of N folds of games held out in turn (2-50)", "N" },
		{ "ridge", 0, POPT_ARG_STRING, &ridge_arg, 0,
		  "penalty on moving the weights from the engine's (default 0); 'auto' chooses it by --folds", "L|auto" },
		{ "variant", 0, POPT_ARG_STRING, &variant_arg, 0,
		  "fit the weights of this variant's engine to its games (default: English)", "NAME|GAMETYPE" },
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
	/* the output is checked before minutes of fitting, not after */
	if (out && check_output(out, force) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	long epochs = 400;
	if (epochs_arg && cli_int(epochs_arg, 1, 100000, "--epochs", &epochs))
		goto out;
	const pk_variant *v = NULL;
	if (variant_arg && !(v = cli_variant(variant_arg)))
		goto out;
	pk_tune_opts to = { .epochs = epochs };
	long folds = 0;
	if (folds_arg && cli_int(folds_arg, 2, 50, "--folds", &folds))
		goto out;
	to.folds = (int)folds;
	if (ridge_arg && !strcmp(ridge_arg, "auto")) {
		if (!folds) {
			cli_error("--ridge auto chooses by cross-validation: give --folds too");
			goto out;
		}
		to.ridge = -1;
	} else if (ridge_arg) {
		char *end;
		errno = 0;
		to.ridge = strtod(ridge_arg, &end);
		if (end == ridge_arg || *end || errno || !(to.ridge >= 0 && to.ridge <= 1)) {
			cli_error("--ridge: '%s' is not a number from 0 to 1, or 'auto'", ridge_arg);
			goto out;
		}
	}
	rc = EXIT_RUNTIME;
	pk_store *st = NULL;
	if (use_db && !(st = db_open(&fa, STORE_READ)))
		goto out;
	cli_catch_signals(true);
	to.stop = &cli_interrupted;
	pk_source src = { .files = files, .nfiles = use_db ? 0 : nfiles, .store = st, .stop = &cli_interrupted };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		store_close(st);
		goto out;
	}
	int got = GAMES_FATAL;
	if (!(d = tune_data_new(v)))
		goto walk_done;
	pk_game *g;
	pk_replay *rp;
	while ((got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got == GAMES_ERROR) {
			if (!cli_interrupted)   /* a read stopped by a signal is said below */
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
	if (cli_interrupted && got != GAMES_FATAL) {
		cli_error("interrupted while reading the games; nothing was fitted");
		rc = 128 + cli_interrupted;
		goto out;
	}
	if (got != GAMES_END)
		goto out;
	pk_tune_result tr;
	progress_ctx pc = { epochs };
	double t0 = cli_now();
	if (folds)
		fprintf(stderr, "pdnkit tune: cross-validating over %ld folds...\n", folds);
	if (tune_fit(d, &to, show_epoch, &pc, &tr) < 0) {
		if (cli_interrupted)
			rc = 128 + cli_interrupted;
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
	if (tr.ncv) {
		printf("cross-validated over %ld folds: mean held-out log loss\n  %-8s %9s %9s\n", folds, "ridge", "before",
		       "after");
		for (int i = 0; i < tr.ncv; i++)
			printf("  %-8g %9.5f %9.5f%s\n", tr.cv[i].ridge, tr.cv[i].before, tr.cv[i].after,
			       tr.ncv > 1 && tr.cv[i].ridge == tr.ridge ? "   (chosen)" : "");
	}
	printf("log loss   before     after%s\n  fitting  %.5f   %.5f\n  held out %.5f   %.5f\n",
	       tr.ridge > 0 ? "  (ridge)" : "", before_train, after_train, before_held, after_held);
	printf("\n%-12s %8s %8s\n", "weight", "before", "after");
	for (int k = 0; k < tr.nw; k++)
		printf("%-12s %8d %8d%s\n", tr.names[k], tr.start[k], tr.fitted[k],
		       tr.kept[k] ? "   (kept: endgame technique)" : "");
	if (out) {
		cli_text txt;
		FILE *f = cli_text_begin(&txt);
		if (!f)
			goto out;
		fprintf(f, "# pdnkit evaluation weights%s%s (hundredths of a man; a man is 100).\n"
			   "# Produced by: pdnkit tune", v ? " for " : "", v ? v->name : "");
		if (v)
			fprintf(f, " --variant %s", v->key);
		if (use_db)
			fprintf(f, " --from-db");
		if (folds)
			fprintf(f, " --folds %ld", folds);
		if (ridge_arg)
			fprintf(f, " --ridge %s", ridge_arg);
		for (int i = 0; i < nfiles; i++) {
			const char *base = strrchr(files[i], '/');
			fprintf(f, " %s", base ? base + 1 : files[i]);
		}
		fprintf(f, " -o %s\n# %zu quiet positions of %ld games; held-out log loss %.5f -> %.5f (scale %.3f); %ld epochs%s.\n",
			out, tr.train + tr.heldout, tr.games, before_held, after_held, K, tr.epochs_done,
			cli_interrupted ? " (interrupted)" : "");
		for (int i = 0; i < tr.ncv; i++)
			if (tr.cv[i].ridge == tr.ridge)
				fprintf(f, "# %ld-fold cross-validated log loss %.5f -> %.5f with ridge %g.\n", folds,
					tr.cv[i].before, tr.cv[i].after, tr.ridge);
		if (v)
			fprintf(f, "%-12s %d\n", "gametype", v->gametype);
		for (int k = 0; k < tr.nw; k++)
			fprintf(f, "%-12s %d\n", tr.names[k], tr.fitted[k]);
		if (cli_text_commit(&txt, out) < 0)
			goto out;
	}
	if (cli_interrupted)
		fprintf(stderr, "pdnkit tune: interrupted after %ld of %ld epochs of the fit%s; the weights above are those reached%s\n",
			tr.epochs_done, epochs, tr.cv_cut ? " (the cross-validation unfinished: its ridge is not chosen)" : "",
			out ? ", and written" : "");
	fprintf(stderr, "pdnkit tune: %.1f s\n", cli_now() - t0);
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	tune_data_free(d);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(out);
	free(epochs_arg);
	free(variant_arg);
	free(folds_arg);
	free(ridge_arg);
	return rc;
}
