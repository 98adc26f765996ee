/* pdnkit train: learn the pattern evaluation from the results of games (PDN files: a
 * collection, self-play or match games), the games of a tenth of the openings held out, and write the
 * weights as a pattern file (pdnkit-patterns(5)) that --patterns loads and
 * book/patterns.txt builds in. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "egdb_opts.h"
#include "engine_opts.h"
#include "engine/learn.h"
#include "store/games.h"

typedef struct {
	long epochs;
	bool quiet;
	double t0;
} progress_ctx;

static void show_epoch(void *ctx, long epoch, double train, double held)
{
	progress_ctx *c = ctx;
	if (c->quiet)
		return;
	if (cli_stderr_is_tty())
		fprintf(stderr, "\rtrain: epoch %ld of %ld: training loss %.5f, held-out %.5f\033[K", epoch, c->epochs, train, held);
	else if (epoch % 25 == 0 || epoch == c->epochs)
		fprintf(stderr, "train: epoch %ld of %ld: training loss %.5f, held-out %.5f (%.0f s)\n", epoch, c->epochs, train,
			held, cli_now() - c->t0);
}

typedef struct {
	bool quiet;
	double t0;
} label_ctx;

static void show_label(void *ctx, size_t done, size_t total)
{
	label_ctx *c = ctx;
	if (c->quiet || !cli_stderr_is_tty() || done == 0)
		return;
	double secs = cli_now() - c->t0, eta = secs * (double)(total - done) / (double)done;
	fprintf(stderr, "\rtrain: labelling: %zu of %zu positions, ETA %d:%02d\033[K", done, total, (int)eta / 60,
		(int)eta % 60);
}

int cmd_train(int argc, const char **argv)
{
	char *out = NULL, *epochs_arg = NULL, *rate_arg = NULL, *l2_arg = NULL, *min_arg = NULL, *threads_arg = NULL,
	     *skip_arg = NULL, *ldepth_arg = NULL, *levery_arg = NULL, *lambda_arg = NULL, *lpat = NULL, *legdb = NULL, *lcache_arg = NULL;
	int json = 0, quiet = 0;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the pattern weights here (default: none, only the figures)", "FILE" },
		{ "epochs", 0, POPT_ARG_STRING, &epochs_arg, 0, "passes over the training positions (default 300)", "N" },
		{ "rate", 0, POPT_ARG_STRING, &rate_arg, 0, "the share of each weight's Newton step taken an epoch (default 0.3)", "R" },
		{ "l2", 0, POPT_ARG_STRING, &l2_arg, 0, "the ridge, as that many positions seen at 0 (default 20)", "N" },
		{ "min-count", 0, POPT_ARG_STRING, &min_arg, 0, "a pattern seen in fewer training positions stays 0 (default 3)", "N" },
		{ "skip", 0, POPT_ARG_STRING, &skip_arg, 0, "leave out each game's first N plies (default 6)", "N" },
		{ "threads", 0, POPT_ARG_STRING, &threads_arg, 0, "threads (default: one per core)", "N" },
		{ "label-depth", 0, POPT_ARG_STRING, &ldepth_arg, 0, "also label positions with the score of a search this deep (default 0: results only)", "D" },
		{ "label-every", 0, POPT_ARG_STRING, &levery_arg, 0, "search only every Nth position (default 1)", "N" },
		{ "label-patterns", 0, POPT_ARG_STRING, &lpat, 0, "the patterns of the labelling search (default: the built-in ones)", "FILE|none" },
		{ "label-egdb", 0, POPT_ARG_STRING, &legdb, 0, "the endgame databases the labelling search probes (default: those of the default directory, when there)", "DIR|none" },
		{ "label-egdb-cache", 0, POPT_ARG_STRING, &lcache_arg, 0, "the databases' cache of decompressed blocks, in MiB (default 3072: the 6-piece databases whole, after the first probes)", "MB" },
		{ "lambda", 0, POPT_ARG_STRING, &lambda_arg, 0, "the result's share of a labelled position's target, 0 to 1 (default 0.5)", "L" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no progress", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	pk_learn_data *d = NULL;
	pk_patterns *pt = NULL;
	pk_egdb *db = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	if (nfiles == 0) {
		cli_error("no games: give PDN files (a collection, self-play or match games with results)");
		goto out;
	}
	pk_learn_opts lo = { .epochs = 300, .rate = 0.3, .l2 = 20, .min_count = 3, .threads = (int)sysconf(_SC_NPROCESSORS_ONLN) };
	long x, skip = 6;
	if (epochs_arg && !cli_int(epochs_arg, 1, 100000, "--epochs", &x))
		lo.epochs = x;
	else if (epochs_arg)
		goto out;
	if (min_arg && !cli_int(min_arg, 1, 1000000, "--min-count", &x))
		lo.min_count = (int)x;
	else if (min_arg)
		goto out;
	if (threads_arg && !cli_int(threads_arg, 1, 64, "--threads", &x))
		lo.threads = (int)x;
	else if (threads_arg)
		goto out;
	if (skip_arg && !cli_int(skip_arg, 0, 200, "--skip", &x))
		skip = x;
	else if (skip_arg)
		goto out;
	long ldepth = 0, levery = 1;
	if (ldepth_arg && cli_int(ldepth_arg, 0, 30, "--label-depth", &ldepth))
		goto out;
	if (levery_arg && cli_int(levery_arg, 1, 1000000, "--label-every", &levery))
		goto out;
	lo.lambda = 0.5;
	if (lambda_arg) {
		char *e;
		lo.lambda = strtod(lambda_arg, &e);
		if (e == lambda_arg || *e || !(lo.lambda >= 0 && lo.lambda <= 1)) {
			cli_error("--lambda: '%s' is not a number from 0 to 1", lambda_arg);
			goto out;
		}
	}
	long lcache = 3072;
	if (lcache_arg && cli_int(lcache_arg, 1, 1 << 20, "--label-egdb-cache", &lcache))
		goto out;
	if ((levery_arg || lambda_arg || lpat || legdb || lcache_arg) && !ldepth) {
		cli_error("--label-every, --label-patterns, --label-egdb, --label-egdb-cache and --lambda go with --label-depth");
		goto out;
	}
	pk_weights lw;
	engine_args lea;
	engine_args_init(&lea);
	lea.patterns = lpat;
	int lwrc = engine_weights(&lea, &lw);
	lea.patterns = NULL;
	engine_args_free(&lea);
	if (lwrc < 0)
		goto out;
	if (rate_arg) {
		char *e;
		lo.rate = strtod(rate_arg, &e);
		if (e == rate_arg || *e || !(lo.rate > 0 && lo.rate <= 1)) {
			cli_error("--rate: '%s' is not a number above 0 and up to 1", rate_arg);
			goto out;
		}
	}
	if (l2_arg) {
		char *e;
		lo.l2 = strtod(l2_arg, &e);
		if (e == l2_arg || *e || !(lo.l2 >= 0 && lo.l2 <= 1e6)) {
			cli_error("--l2: '%s' is not a number of positions from 0 to 1000000", l2_arg);
			goto out;
		}
	}
	if (out && cli_check_output(out) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_RUNTIME;
	cli_catch_signals(true);
	lo.stop = &cli_interrupted;
	pk_source src = { .files = files, .nfiles = nfiles, .stop = &cli_interrupted };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		goto out;
	}
	/* the patterns add to the engine's hand-set evaluation, without its own patterns */
	if (!(d = learn_data_new(eval_tuned_weights()))) {
		games_close(it);
		cli_error("out of memory");
		goto out;
	}
	double t0 = cli_now();
	int got;
	pk_game *g;
	pk_replay *rp;
	long read = 0;
	while ((got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got == GAMES_ERROR) {
			cli_error("%s", games_error(it));
			games_close(it);
			goto out;
		}
		read++;
		if (got == GAMES_FATAL || (g->findings.errors == 0 && learn_add_game(d, rp, (int)skip) < 0)) {
			cli_error("out of memory");
			games_close(it);
			goto out;
		}
	}
	games_close(it);
	if (cli_interrupted) {
		cli_error("interrupted while reading the games; nothing was fitted");
		rc = 128 + cli_interrupted;
		goto out;
	}
	if (!quiet)
		fprintf(stderr, "train: %ld games read, %ld with a result, %zu quiet positions (%.1f s)\n", read, learn_games(d),
			learn_positions(d), cli_now() - t0);
	if (learn_positions(d) == 0) {
		cli_error("no quiet position of a finished game: nothing to learn from");
		goto out;
	}
	if (ldepth > 0) {
		double tl = cli_now();
		label_ctx lc = { quiet, tl };
		bool dbfailed = false;
		db = egdb_use_option_cache(legdb, legdb == NULL || quiet, &dbfailed, (size_t)lcache << 20);
		if (dbfailed) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (learn_label(d, &lw, db, (int)ldepth, (int)levery, lo.threads, &cli_interrupted, show_label, &lc) < 0) {
			cli_error("out of memory");
			goto out;
		}
		if (!quiet && cli_stderr_is_tty())
			fprintf(stderr, "\r\033[K");
		if (cli_interrupted) {
			cli_error("interrupted while labelling the positions; nothing was fitted");
			rc = 128 + cli_interrupted;
			goto out;
		}
		if (!quiet)
			fprintf(stderr, "train: %zu positions labelled by a search to depth %ld%s (%.1f s)\n", learn_labelled(d), ldepth,
				db ? " with the endgame databases" : "", cli_now() - tl);
	}
	if (!(pt = malloc(sizeof *pt))) {
		cli_error("out of memory");
		goto out;
	}
	progress_ctx pc = { lo.epochs, quiet, cli_now() };
	pk_learn_result r;
	double t1 = cli_now();
	if (learn_fit(d, &lo, show_epoch, &pc, pt, &r) < 0) {
		cli_error("out of memory");
		goto out;
	}
	if (!quiet && cli_stderr_is_tty())
		fprintf(stderr, "\r\033[K");
	double secs = cli_now() - t1;
	if (out) {
		char comment[400];
		snprintf(comment, sizeof comment,
			 "pdnkit train: %ld games, %zu training and %zu held-out positions; held-out log loss %.5f -> %.5f "
			 "(epoch %ld of %ld); K %.4f; %s%s; checksum %08x",
			 learn_games(d), r.train, r.heldout, r.base_held, r.best_held, r.best_epoch, r.epochs_done, r.K,
			 ldepth ? "labelled by a search" : "labelled by results alone",
			 ldepth ? (db ? " with the endgame databases" : " without endgame databases") : "", (unsigned)pt->checksum);
		char *text = patterns_format(pt, comment);
		cli_text txt;
		FILE *f = text ? cli_text_begin(&txt) : NULL;
		if (!f) {
			free(text);
			cli_error("out of memory");
			goto out;
		}
		fputs(text, f);
		free(text);
		if (cli_text_commit(&txt, out) < 0)
			goto out;
	}
	if (json)
		printf("{\"games\":%ld,\"train\":%zu,\"heldout\":%zu,\"K\":%.5f,\"base_train\":%.5f,\"base_held\":%.5f,"
		       "\"train_loss\":%.5f,\"held_loss\":%.5f,\"best_epoch\":%ld,\"epochs\":%ld,\"patterns\":%ld,\"nonzero\":%ld,"
		       "\"checksum\":\"%08x\",\"labelled\":%zu,\"seconds\":%.1f}\n",
		       learn_games(d), r.train, r.heldout, r.K, r.base_train, r.base_held, r.best_train, r.best_held, r.best_epoch,
		       r.epochs_done, r.used, pt->nonzero, (unsigned)pt->checksum, learn_labelled(d), secs);
	else
		printf("%ld games: %zu training positions, %zu held out (the games of a tenth of the openings)\n"
		       "log loss of the hand-set evaluation (K %.4f): training %.5f, held-out %.5f\n"
		       "with the patterns (epoch %ld of %ld, the lowest held-out loss): training %.5f, held-out %.5f\n"
		       "%ld patterns seen %d times or more, %ld weights not zero, checksum %08x; %.1f s\n",
		       learn_games(d), r.train, r.heldout, r.K, r.base_train, r.base_held, r.best_epoch, r.epochs_done,
		       r.best_train, r.best_held, r.used, lo.min_count, pt->nonzero, (unsigned)pt->checksum, secs);
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	learn_data_free(d);
	free(pt);
	poptFreeContext(ctx);
	free(out);
	free(epochs_arg);
	free(rate_arg);
	free(l2_arg);
	free(min_arg);
	free(threads_arg);
	free(skip_arg);
	free(ldepth_arg);
	free(levery_arg);
	free(lambda_arg);
	free(lpat);
	free(legdb);
	free(lcache_arg);
	egdb_free(db);
	return rc;
}
