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
#include "egdb/check.h"
#include "engine/learn.h"
#include "engine/vpattern.h"
#include "pdn/zio.h"
#include "store/games.h"

typedef struct {
	long epochs;
	bool quiet;
	double t0, shown;
} progress_ctx;

static void show_epoch(void *ctx, long epoch, double train, double held)
{
	progress_ctx *c = ctx;
	if (c->quiet)
		return;
	if (cli_stderr_is_tty())
		fprintf(stderr, "\rtrain: epoch %ld of %ld: training loss %.5f, held-out %.5f\033[K", epoch, c->epochs, train, held);
	else if (epoch % 25 == 0 || epoch == c->epochs || cli_now() - c->shown >= 30) {
		/* a line every 25 epochs, or every half minute when epochs are long */
		c->shown = cli_now();
		fprintf(stderr, "train: epoch %ld of %ld: training loss %.5f, held-out %.5f (%.0f s)\n", epoch, c->epochs, train,
			held, c->shown - c->t0);
	}
}

typedef struct {
	bool quiet;
	double t0, shown;   /* the seconds of the last line written to a log */
} label_ctx;

static void show_label(void *ctx, size_t done, size_t total)
{
	label_ctx *c = ctx;
	if (c->quiet || done == 0)
		return;
	double secs = cli_now() - c->t0, eta = secs * (double)(total - done) / (double)done;
	if (cli_stderr_is_tty())
		fprintf(stderr, "\rtrain: labelling: %zu of %zu positions, ETA %d:%02d\033[K", done, total, (int)eta / 60,
			(int)eta % 60);
	else if (secs >= c->shown + 60) {
		/* a log: a line a minute */
		c->shown = secs;
		fprintf(stderr, "train: labelling: %zu of %zu positions, ETA %d:%02d\n", done, total, (int)eta / 60, (int)eta % 60);
	}
}

/* The engine's weights with these patterns and network (NULL: the built-in ones);
 * -1 after saying why. */
static int weights_with(char *patterns, char *net, pk_weights *w)
{
	engine_args ea;
	engine_args_init(&ea);
	ea.patterns = patterns;
	ea.net = net;
	int rc = engine_weights(&ea, w);
	ea.patterns = NULL;   /* not ours to free */
	ea.net = NULL;
	engine_args_free(&ea);
	return rc;
}

/* The labels file whole, through pdn/zio (a zstd frame read as such): NULL with errno set
 * when it cannot be read; *len its size. */
static unsigned char *labels_slurp(const char *path, size_t *len)
{
	int err = 0;
	pk_in *in = zin_open(path, &err);
	if (!in) {
		errno = err > 0 ? err : EINVAL;
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	long got = 0;
	while (buf && (got = zin_read(in, buf + n, cap - n)) > 0)
		if ((n += (size_t)got) == cap) {
			unsigned char *more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		}
	zin_close(in);
	if (!buf || got < 0) {
		errno = buf ? EIO : ENOMEM;
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The labels to path, in the ordered form or the keyed one, compressed when the name ends
 * in ".zst"; written whole or not at all. 0, or -1 after saying why. */
static int labels_write(const pk_learn_data *d, uint64_t lkey, const char *path, bool ordered)
{
	cli_text lt;
	FILE *f = cli_text_begin(&lt);
	if (!f)
		return -1;
	if ((ordered ? learn_labels_save_ordered(d, lkey, f) : learn_labels_save(d, lkey, f)) < 0) {
		fclose(f);
		free(lt.buf);
		cli_error("cannot write the labels: out of memory");
		return -1;
	}
	if (fclose(f) != 0) {
		free(lt.buf);
		cli_error("out of memory");
		return -1;
	}
	int err = 0;
	const char *msg = NULL;
	pk_out *o = zout_open(path, &err);
	if (!o) {
		free(lt.buf);
		cli_error("cannot write the labels '%s': %s", path, strerror(err));
		return -1;
	}
	int rc = zout_write(o, lt.buf, lt.len);
	free(lt.buf);
	if (zout_close(o, &msg) < 0 || rc < 0) {
		cli_error("cannot write the labels '%s': %s", path, msg ? msg : "write error");
		return -1;
	}
	return 0;
}

/* The --net part: fit, write, report. */
static int train_net(pk_learn_data *d, const pk_weights *base, const pk_net_opts *no, long ldepth, bool with_db,
		     const char *out, int json, int quiet)
{
	pk_net *n = malloc(sizeof *n);
	if (!n) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	progress_ctx pc = { no->epochs, quiet, cli_now(), cli_now() };
	pk_learn_result r;
	pk_net_opts o = *no;
	o.stop = &cli_interrupted;
	double t1 = cli_now();
	if (learn_fit_net(d, base, &o, show_epoch, &pc, n, &r) < 0) {
		cli_error("out of memory");
		free(n);
		return EXIT_RUNTIME;
	}
	if (!quiet && cli_stderr_is_tty())
		fprintf(stderr, "\r\033[K");
	double secs = cli_now() - t1;
	if (out) {
		char comment[400];
		snprintf(comment, sizeof comment,
			 "pdnkit train --net: %ld games, %zu training and %zu held-out positions; held-out log loss %.5f -> %.5f "
			 "(epoch %ld of %ld); K %.4f; %s%s; seed %llu; checksum %08x",
			 learn_games(d), r.train, r.heldout, r.base_held, r.best_held, r.best_epoch, r.epochs_done, r.K,
			 ldepth ? "labelled by a search" : "labelled by results alone",
			 ldepth ? (with_db ? " with the endgame databases" : "") : "", (unsigned long long)no->seed,
			 (unsigned)n->checksum);
		char *text = net_format(n, comment);
		cli_text txt;
		FILE *f = text ? cli_text_begin(&txt) : NULL;
		if (!f) {
			free(text);
			free(n);
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		fputs(text, f);
		free(text);
		if (cli_text_commit(&txt, out) < 0) {
			free(n);
			return EXIT_RUNTIME;
		}
	}
	if (json)
		printf("{\"games\":%ld,\"train\":%zu,\"heldout\":%zu,\"K\":%.5f,\"base_train\":%.5f,\"base_held\":%.5f,"
		       "\"train_loss\":%.5f,\"held_loss\":%.5f,\"best_epoch\":%ld,\"epochs\":%ld,\"weights\":%d,"
		       "\"last_train\":%.5f,\"last_held\":%.5f,\"checksum\":\"%08x\",\"labelled\":%zu,\"seconds\":%.1f}\n",
		       learn_games(d), r.train, r.heldout, r.K, r.base_train, r.base_held, r.best_train, r.best_held, r.best_epoch,
		       r.epochs_done, NET_NWEIGHTS_IN(net_inputs_of(n)), r.last_train, r.last_held, (unsigned)n->checksum, learn_labelled(d), secs);
	else
		printf("%ld games: %zu training positions, %zu held out (the games of a tenth of the openings)\n"
		       "log loss against %s of the built-in evaluation without a network (K %.4f): training %.5f, held-out %.5f\n"
		       "with the network (epoch %ld of %ld, %s): training %.5f, held-out %.5f\n"
		       "%d weights, checksum %08x; %.1f s\n",
		       learn_games(d), r.train, r.heldout, ldepth && no->lambda < 1 ? "the targets (scores and results by --lambda)" : "the results",
		       r.K, r.base_train, r.base_held, r.best_epoch, r.epochs_done,
		       no->keep_last ? "the last" : "the lowest held-out loss", r.best_train, r.best_held, NET_NWEIGHTS_IN(net_inputs_of(n)), (unsigned)n->checksum, secs);
	free(n);
	return cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
}

int cmd_train(int argc, const char **argv)
{
	char *out = NULL, *epochs_arg = NULL, *rate_arg = NULL, *l2_arg = NULL, *min_arg = NULL, *threads_arg = NULL,
	     *skip_arg = NULL, *ldepth_arg = NULL, *levery_arg = NULL, *lambda_arg = NULL, *td_arg = NULL, *lpat = NULL, *legdb = NULL, *lcache_arg = NULL,
	     *batch_arg = NULL, *seed_arg = NULL, *decay_arg = NULL, *lfile = NULL, *lformat = NULL, *npat = NULL, *epos_arg = NULL,
	     *windows_arg = NULL, *endgame_arg = NULL, *bpat = NULL, *lend_arg = NULL, *variant_arg = NULL, *tie_arg = NULL,
	     *phase_arg = NULL;
	int json = 0, quiet = 0, net = 0, keep_last = 0, material = 0, calm = 0, labelled_only = 0, men_only = 0, end_phase = 0, kept_only = 0;
	const pk_variant *variant = NULL;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the pattern weights (or the network) here (default: none, only the figures)", "FILE" },
		{ "variant", 0, POPT_ARG_STRING, &variant_arg, 0, "learn the patterns of a 10x10 variant (international, frisian) from its games (and with --label-depth from its engine's searches), as what its hand-set evaluation misses (pdnkit-vpatterns files); with --net its network", "NAME" },
		{ "net", 0, POPT_ARG_NONE, &net, 0, "learn a network (pdnkit-net(5)) that adds to the built-in evaluation and patterns, instead of patterns", NULL },
		{ "epochs", 0, POPT_ARG_STRING, &epochs_arg, 0, "passes over the training positions (default 300; 30 with --net)", "N" },
		{ "rate", 0, POPT_ARG_STRING, &rate_arg, 0, "the share of each weight's Newton step taken an epoch (default 0.3); with --net, the first epoch's step (default 0.001)", "R" },
		{ "decay", 0, POPT_ARG_STRING, &decay_arg, 0, "with --net: the step's factor from one epoch to the next (default 0.9)", "R" },
		{ "batch", 0, POPT_ARG_STRING, &batch_arg, 0, "with --net: positions a step (default 1024)", "N" },
		{ "net-patterns", 0, POPT_ARG_STRING, &npat, 0, "with --net: the patterns the network adds to (default: the built-in ones)", "FILE|none" },
		{ "endgame", 0, POPT_ARG_STRING, &endgame_arg, 0, "learn an endgame table (nine windows) for positions of at most N pieces (3-16), as what the evaluation with --base-patterns misses there; -o writes those patterns with the table", "N" },
		{ "base-patterns", 0, POPT_ARG_STRING, &bpat, 0, "with --endgame: the patterns the table adds to, and that -o writes with it (default: the built-in ones; their own endgame table left out); with --variant: patterns (a file, or builtin) the fit adds to, whose windows it takes (or more of them with --windows), -o writing the sum", "FILE|builtin" },
		{ "keep-last", 0, POPT_ARG_NONE, &keep_last, 0, "keep the last epoch's weights or network, not those of the lowest held-out loss", NULL },
		{ "seed", 0, POPT_ARG_STRING, &seed_arg, 0, "with --net: the first weights and the order of the positions (default 1)", "N" },
		{ "l2", 0, POPT_ARG_STRING, &l2_arg, 0, "the ridge, as that many positions seen at 0 (default 20)", "N" },
		{ "windows", 0, POPT_ARG_STRING, &windows_arg, 0, "the 4x4 regions: 9 (two squares apart; the default) or 25 (every place on the board); with --variant 16 (two squares apart; the default), 25 (the nine between them too) or 35 (and ten strips across the board, two squares by eight)", "9|16|25|35" },
		{ "tie", 0, POPT_ARG_STRING, &tie_arg, 0, "with --variant: fit the windows of each row of four as one table (rows), all sixteen as one (all), each window and its partner half a circle round as one with the sides swapped (colours), or each its own (none, the default): fewer weights, learned from fewer games", "rows|all|none|colours" },
		{ "men-only", 0, POPT_ARG_NONE, &men_only, 0, "with --variant: the windows see men only (a king's square read as empty; kings left to the hand-set terms); the patterns written say so", NULL },
		{ "phase", 0, POPT_ARG_STRING, &phase_arg, 0, "with --variant: place the phases by the pieces on the board (40 down to 2; the default) or by the tempo, the men's rows to go (300 down to 0)", "pieces|tempo" },
		{ "end-phase", 0, POPT_ARG_NONE, &end_phase, 0, "with --variant: fit the last phase's weights alone (those of 2 pieces), the middle game's (40 pieces) left as they are: a correction learned from endings", NULL },
		{ "calm", 0, POPT_ARG_NONE, &calm, 0, "with --variant: leave out the positions where the side not to move has a capture too (their outcome, and a search's label of them, is tactics the windows cannot see)", NULL },
		{ "material", 0, POPT_ARG_NONE, &material, 0, "also learn a weight for each material (each side's pieces and kings)", NULL },
		{ "min-count", 0, POPT_ARG_STRING, &min_arg, 0, "a pattern seen in fewer training positions stays 0 (default 3)", "N" },
		{ "skip", 0, POPT_ARG_STRING, &skip_arg, 0, "leave out each game's first N plies (default 6)", "N" },
		{ "threads", 0, POPT_ARG_STRING, &threads_arg, 0, "threads (default: one per core)", "N" },
		{ "label-depth", 0, POPT_ARG_STRING, &ldepth_arg, 0, "also label positions with the score of a search this deep (default 0: results only)", "D" },
		{ "label-endgame", 0, POPT_ARG_STRING, &lend_arg, 0, "search the positions of at most N pieces to depth D instead of --label-depth", "N:D" },
		{ "label-every", 0, POPT_ARG_STRING, &levery_arg, 0, "search only every Nth position (default 1)", "N" },
		{ "label-patterns", 0, POPT_ARG_STRING, &lpat, 0, "the patterns of the labelling search (default: the built-in ones)", "FILE|none" },
		{ "label-egdb", 0, POPT_ARG_STRING, &legdb, 0, "the endgame databases the labelling search probes (default: those of the default directory, when there)", "DIR|none" },
		{ "label-egdb-cache", 0, POPT_ARG_STRING, &lcache_arg, 0, "the databases' cache of decompressed blocks, in MiB (default 3072: the 6-piece databases whole, after the first probes)", "MB" },
		{ "egdb-positions", 0, POPT_ARG_STRING, &epos_arg, 0, "add N random quiet positions of the endgame databases (those of --label-egdb), labelled with their exact value, to the training part", "N" },
		{ "label-file", 0, POPT_ARG_STRING, &lfile, 0, "keep the labels in FILE: read from it when it holds those of these games at this depth, else written after labelling (compressed when FILE ends in .zst)", "FILE" },
		{ "label-format", 0, POPT_ARG_STRING, &lformat, 0, "how --label-file is written: keyed (each position's key and score: serves other collections holding the same positions; the default) or ordered (a score for each position of these games in their order: a fifth of the size, read back only with the same games; the default when the file read was so)", "keyed|ordered" },
		{ "lambda", 0, POPT_ARG_STRING, &lambda_arg, 0, "the result's share of a labelled position's target, 0 to 1 (default 0.5)", "L" },
		{ "td", 0, POPT_ARG_STRING, &td_arg, 0, "temporal differences instead of --lambda: a labelled position's target is (1 - L) times its score's and L times that of its game's next position (the result after the last), 0.01 to 1", "L" },
		{ "kept-labels-only", 0, POPT_ARG_NONE, &kept_only, 0, "search nothing: the positions --label-file holds are labelled, the others are not (an interrupted labelling fitted as far as it went)", NULL },
		{ "labelled-only", 0, POPT_ARG_NONE, &labelled_only, 0, "fit only the positions a search labelled (with --label-every above 1, the others are otherwise fitted to their game's result)", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no progress", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	pk_learn_data *d = NULL;
	pk_patterns *pt = NULL, *basept = NULL;
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
	if (variant_arg) {
		variant = variant_by_name(variant_arg);
		if (!variant || !vpattern_board(variant)) {
			cli_error("--variant: '%s' has no learned patterns (international and frisian do: 10x10 boards)", variant_arg);
			goto out;
		}
		if (endgame_arg || lpat || legdb || epos_arg) {
			cli_error("--variant learns its windows (or with --net its network) from results, and from a search "
				  "with --label-depth: not with --endgame, --label-patterns, --label-egdb or --egdb-positions");
			goto out;
		}
		if (net && (bpat || tie_arg || men_only || phase_arg || end_phase)) {
			cli_error("--variant --net: the network adds to the built-in patterns (or --net-patterns); "
				  "--base-patterns, --tie, --men-only, --phase and --end-phase are for windows");
			goto out;
		}
		/* the network adds to the whole evaluation: the hand-set terms and these patterns */
		if (net && !(npat && !strcmp(npat, "none")) && !(bpat = strdup(npat ? npat : "builtin"))) {
			cli_error("out of memory");
			goto out;
		}
		if (bpat && (men_only || phase_arg || material)) {
			cli_error("--base-patterns: what the windows see, the phases and the material table are the base "
				  "patterns' own: not with --men-only, --phase or --material");
			goto out;
		}
	}
	pk_learn_opts lo = { .epochs = 300, .rate = 0.3, .l2 = 20, .min_count = 3, .threads = (int)sysconf(_SC_NPROCESSORS_ONLN) };
	if (men_only && !variant) {
		cli_error("--men-only is for a 10x10 variant's windows: give --variant too");
		goto out;
	}
	if (end_phase && !variant) {
		cli_error("--end-phase is for a 10x10 variant's patterns: give --variant too");
		goto out;
	}
	if (calm && !variant) {
		cli_error("--calm is for a 10x10 variant's positions: give --variant too");
		goto out;
	}
	bool tempo = false;
	if (phase_arg) {
		if (!variant) {
			cli_error("--phase is for a 10x10 variant's patterns: give --variant too");
			goto out;
		}
		if (strcmp(phase_arg, "tempo") && strcmp(phase_arg, "pieces")) {
			cli_error("--phase: '%s': pieces or tempo", phase_arg);
			goto out;
		}
		tempo = !strcmp(phase_arg, "tempo");
	}
	if (tie_arg) {
		if (!variant) {
			cli_error("--tie ties a 10x10 variant's windows: give --variant too");
			goto out;
		}
		const char *const ties[] = { "none", "rows", "all", "colours" };
		int k = 0;
		while (k < 4 && strcmp(tie_arg, ties[k]) != 0)
			k++;
		if (k == 4) {
			cli_error("--tie: '%s': give rows, all, colours or none", tie_arg);
			cli_did_you_mean(tie_arg, ties, 4);
			goto out;
		}
		lo.tie = k;
	}
	long x, skip = 6;
	if (net)
		lo.epochs = 30;
	lo.keep_last = keep_last;
	if (epochs_arg && !cli_int(epochs_arg, 1, 100000, "--epochs", &x))
		lo.epochs = x;
	else if (epochs_arg)
		goto out;
	if (min_arg && !cli_int(min_arg, 1, 1000000, "--min-count", &x))
		lo.min_count = (int)x;
	else if (min_arg)
		goto out;
	lo.windows = variant ? VPAT_WINDOWS_BASIC : PAT_WINDOWS_BASIC;
	lo.material = material;
	lo.end_phase = end_phase;
	if (windows_arg) {
		/* 8x8: 9 or 25 places of a 4x4 region; 10x10: the 16 two squares apart, 25 with the
		 * nine between them, 35 with the ten strips too */
		int few = variant ? VPAT_WINDOWS_BASIC : PAT_WINDOWS_BASIC, all = variant ? VPAT_WINDOWS : PAT_WINDOWS;
		int most = variant ? VPAT_WINDOWS_STRIPS : PAT_WINDOWS;
		if (cli_int(windows_arg, few, most, "--windows", &x))
			goto out;
		if (x != few && x != all && x != most) {
			if (variant)
				cli_error("--windows: %s: give %d, %d or %d", windows_arg, few, all, most);
			else
				cli_error("--windows: %s: give %d or %d", windows_arg, few, all);
			goto out;
		}
		lo.windows = (int)x;
	}
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
	long lend_pieces = 0, lend_depth = 0;
	if (lend_arg) {
		char *colon = strchr(lend_arg, ':');
		if (!colon) {
			cli_error("--label-endgame: '%s': give N:D, the most pieces and the depth (e.g. 10:12)", lend_arg);
			goto out;
		}
		*colon = 0;
		int bad = cli_int(lend_arg, 2, variant ? 40 : 24, "--label-endgame (pieces)", &lend_pieces) ||
			  cli_int(colon + 1, 1, 30, "--label-endgame (depth)", &lend_depth);
		*colon = ':';
		if (bad)
			goto out;
	}
	lo.lambda = 0.5;
	lo.labelled_only = labelled_only;
	if (lambda_arg && cli_number(lambda_arg, 0, 1, "--lambda", &lo.lambda))
		goto out;
	/* --td: above 0 (at 0 the targets are the scores alone: --lambda 0) */
	if (td_arg && cli_number(td_arg, 0.01, 1, "--td", &lo.td))
		goto out;
	if (td_arg && (lambda_arg || net)) {
		cli_error("--td sets the targets itself: not with --lambda or --net");
		goto out;
	}
	long lcache = 3072;
	if (lcache_arg && cli_int(lcache_arg, 1, 1 << 20, "--label-egdb-cache", &lcache))
		goto out;
	long epos = 0;
	if (epos_arg && cli_int(epos_arg, 1, 100000000, "--egdb-positions", &epos))
		goto out;
	if (kept_only && !lfile) {
		cli_error("--kept-labels-only fits the labels of --label-file: give it");
		goto out;
	}
	bool ordered = false;
	if (lformat) {
		if (!lfile) {
			cli_error("--label-format is how --label-file is written: give it");
			goto out;
		}
		if (strcmp(lformat, "keyed") && strcmp(lformat, "ordered")) {
			cli_error("--label-format: '%s': give keyed or ordered", lformat);
			goto out;
		}
		ordered = !strcmp(lformat, "ordered");
	}
	if ((levery_arg || lambda_arg || td_arg || lpat || (legdb && !epos) || lcache_arg || lfile || lend_arg || labelled_only) && !ldepth) {
		cli_error("--label-every, --label-endgame, --label-patterns, --label-egdb, --label-egdb-cache, --label-file, --lambda, --td and --labelled-only go with --label-depth");
		goto out;
	}
	if (net && (l2_arg || min_arg || windows_arg || material)) {
		cli_error("--l2, --min-count, --windows and --material are for patterns, not with --net");
		goto out;
	}
	long endgame = 0;
	if (endgame_arg && cli_int(endgame_arg, PAT_END_MIN, PAT_END_MAX, "--endgame", &endgame))
		goto out;
	if (endgame && (net || windows_arg || material)) {
		cli_error("--endgame learns nine windows of patterns: not with --net, --windows or --material");
		goto out;
	}
	if (bpat && !endgame && !variant) {
		cli_error("--base-patterns goes with --endgame, or with --variant");
		goto out;
	}
	if (!net && (decay_arg || batch_arg || seed_arg || npat)) {
		cli_error("--decay, --batch, --seed and --net-patterns go with --net");
		goto out;
	}
	/* what the network adds to: the built-in evaluation, or its hand-set terms with
	 * other patterns (or none); what an endgame table adds to: the same with the base
	 * patterns, their own table left out */
	pk_weights nbase, ebase;
	if (weights_with(variant ? NULL : npat, "none", &nbase) < 0 || weights_with(variant ? NULL : bpat, "none", &ebase) < 0)
		goto out;
	/* a variant's base patterns: the fit learns what the evaluation with them misses, and
	 * -o writes their sum */
	pk_vweights vbase;
	const pk_patterns *vbase_pat = NULL;
	if (variant) {
		engine_args ea;
		engine_args_init(&ea);
		ea.patterns = bpat && strcmp(bpat, "builtin") ? bpat : NULL;
		int vrc = engine_vweights(&ea, variant, &vbase);
		ea.patterns = NULL;   /* not ours to free */
		engine_args_free(&ea);
		if (vrc < 0)
			goto out;
		if (bpat && !vbase.pat) {
			cli_error("--base-patterns: %s has no built-in patterns", variant->name);
			goto out;
		}
		if (bpat) {
			vbase_pat = vbase.pat;
			men_only = vbase_pat->men_only;
			tempo = vbase_pat->tempo;
			/* more windows than the base's: those it lacks start at 0 */
			if (!windows_arg || lo.windows < vbase_pat->windows) {
				if (windows_arg) {
					cli_error("--windows %d: the base patterns have %d; give as many or more", lo.windows,
						  vbase_pat->windows);
					goto out;
				}
				lo.windows = vbase_pat->windows;
			}
			lo.material = vbase_pat->material;
		}
	}
	if (endgame) {
		if (!(basept = calloc(1, sizeof *basept))) {
			cli_error("out of memory");
			goto out;
		}
		if (ebase.pat)
			*basept = *ebase.pat;
		else
			basept->windows = PAT_WINDOWS_BASIC;
		basept->end_pieces = 0;
		memset(basept->e, 0, sizeof basept->e);
		patterns_checksum(basept);
		ebase.pat = basept;
	}
	pk_net_opts no = { .epochs = lo.epochs, .rate = 0.001, .decay = 0.9, .batch = 1024, .threads = lo.threads, .seed = 1,
			  .keep_last = keep_last, .lambda = lo.lambda, .labelled_only = lo.labelled_only };
	if (batch_arg && !cli_int(batch_arg, 1, 1 << 20, "--batch", &x))
		no.batch = (int)x;
	else if (batch_arg)
		goto out;
	if (seed_arg && !cli_int(seed_arg, 0, 1000000000000L, "--seed", &x))
		no.seed = (uint64_t)x;
	else if (seed_arg)
		goto out;
	if (decay_arg) {
		char *e;
		no.decay = strtod(decay_arg, &e);
		if (e == decay_arg || *e || !(no.decay > 0 && no.decay <= 1)) {
			cli_error("--decay: '%s' is not a number above 0 and up to 1", decay_arg);
			goto out;
		}
	}
	pk_weights lw;
	if (weights_with(lpat, NULL, &lw) < 0)
		goto out;
	if (rate_arg) {
		char *e;
		lo.rate = strtod(rate_arg, &e);
		if (e == rate_arg || *e || !(lo.rate > 0 && lo.rate <= 1)) {
			cli_error("--rate: '%s' is not a number above 0 and up to 1", rate_arg);
			goto out;
		}
		no.rate = lo.rate;
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
	/* the patterns add to the engine's hand-set evaluation, without its own patterns; an
	 * endgame table to the whole evaluation, the base patterns' own table left out */
	d = variant ? learn_data_new_variant(variant, &vbase, vbase_pat)
	    : endgame ? learn_data_new_endgame(&ebase, (int)endgame) : learn_data_new(eval_tuned_weights());
	if (!d) {
		games_close(it);
		cli_error("out of memory");
		goto out;
	}
	if (calm)
		learn_set_calm(d, true);
	if (men_only)
		learn_set_men_only(d, true);
	if (tempo)
		learn_set_tempo(d, true);
	double t0 = cli_now();
	int got;
	pk_game *g;
	pk_replay *rp;
	long read = 0;
	while ((got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got == GAMES_ERROR && !cli_interrupted) {
			cli_error("%s", games_error(it));
			games_close(it);
			goto out;
		}
		if (got == GAMES_ERROR)   /* a read stopped by a signal: said below */
			break;
		read++;
		if (got == GAMES_FATAL ||
		    (g->findings.errors == 0 && (variant ? learn_add_vgame(d, rp, (int)skip) : learn_add_game(d, rp, (int)skip)) < 0)) {
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
	/* the labels' file is for these settings: the depths and how many positions */
	/* (the stride kept to its field: a file's labels serve every stride, and a stride past
	 * 255 spilled into the depths' fields, and the file was replaced) */
	uint64_t lkey = (uint64_t)ldepth | (uint64_t)(levery & 0xFF) << 8;
	if (lend_arg)
		lkey |= (uint64_t)lend_pieces << 40 | (uint64_t)lend_depth << 48;
	bool have_labels = false, migrate = false;
	if (ldepth > 0 && lfile) {
		size_t len = 0;
		unsigned char *buf = labels_slurp(lfile, &len);
		if (!buf && (errno != ENOENT || kept_only)) {
			cli_error("cannot read the labels '%s': %s", lfile, strerror(errno));
			goto out;
		}
		if (buf) {
			size_t matched = 0;
			FILE *f = fmemopen(buf, len ? len : 1, "rb");
			int lr = f ? learn_labels_load(d, lkey, &matched, f) : -2;
			if (f)
				fclose(f);
			free(buf);
			if (lr == -2) {
				cli_error("out of memory reading the labels '%s'", lfile);
				goto out;
			}
			if (lr < 0) {
				cli_error("'%s' is no labels file of pdnkit train, or is damaged or cut short (its check fails); remove it to label again", lfile);
				goto out;
			}
			if (lr == 1) {
				/* never replaced: its searches may have taken hours */
				cli_error("'%s' holds labels of other settings (another --label-depth or --label-endgame), of other games (an ordered file) or of an older format; it is left as it is: give another --label-file, or remove it to label again", lfile);
				rc = EXIT_USAGE;
				goto out;
			}
			if (lr == 4) {   /* the ordered form: written so again unless told otherwise */
				lr = 0;
				if (!lformat)
					ordered = true;
			}
			/* every position the stride picks already searched: nothing to search */
			migrate = lr == 3;
			if (migrate)
				lr = 0;
			have_labels = lr == 0 && (kept_only || learn_unsearched(d, (int)levery) == 0);
			if (!quiet) {
				if (lr == 0)
					fprintf(stderr, "train: %zu of %zu positions labelled from the labels file (%zu with a score)%s\n",
						matched, learn_positions(d), learn_labelled(d),
						kept_only ? "; the others left unlabelled" : have_labels ? "" : "; searching the others");
			}
		}
	}
	if (migrate && have_labels) {
		/* a file of the older format, read whole: written again with the positions' keys */
		if (labels_write(d, lkey, lfile, ordered) < 0)
			goto out;
		if (!quiet)
			fprintf(stderr, "train: '%s' written again in the labels' %s\n", lfile,
				ordered ? "ordered form" : "new format (with each position's key)");
	}
	if (ldepth > 0 && !have_labels) {
		double tl = cli_now();
		label_ctx lc = { quiet, tl, 0 };
		bool dbfailed = false;
		if (!variant)   /* the databases are English draughts' */
			db = egdb_use_option_cache(legdb, legdb == NULL || quiet, &dbfailed, (size_t)lcache << 20);
		if (dbfailed) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (learn_label(d, &lw, db, (int)ldepth, (int)lend_pieces, (int)lend_depth, (int)levery, lo.threads, &cli_interrupted, show_label, &lc) < 0) {
			cli_error("out of memory");
			goto out;
		}
		if (!quiet && cli_stderr_is_tty())
			fprintf(stderr, "\r\033[K");
		if (cli_interrupted) {
			/* the positions searched so far are kept: a rerun searches the others */
			bool kept = lfile && labels_write(d, lkey, lfile, ordered) == 0;
			if (kept)
				cli_error("interrupted while labelling the positions; nothing was fitted; the %zu searched are kept in "
					  "'%s' (the same command goes on from them)", learn_searched(d), lfile);
			else
				cli_error("interrupted while labelling the positions; nothing was fitted");
			rc = 128 + cli_interrupted;
			goto out;
		}
		if (!quiet) {
			char endtxt[64] = "";
			if (lend_arg)
				snprintf(endtxt, sizeof endtxt, " (%ld for those of at most %ld pieces)", lend_depth, lend_pieces);
			fprintf(stderr, "train: %zu positions labelled by a search to depth %ld%s%s (%.1f s)\n", learn_labelled(d), ldepth,
				endtxt, db ? " with the endgame databases" : "", cli_now() - tl);
		}
		if (lfile && labels_write(d, lkey, lfile, ordered) < 0)
			goto out;
	}
	if (epos) {
		/* exact positions, added after the labelling (a labels file covers the games' positions) */
		if (!db) {
			bool dbfailed = false;
			db = egdb_use_option_cache(legdb, quiet, &dbfailed, (size_t)lcache << 20);
			if (dbfailed)
				goto out;
			if (!db) {
				cli_error("--egdb-positions: no endgame databases (--label-egdb DIR, $PDNKIT_EGDB or the default directory)");
				rc = EXIT_USAGE;
				goto out;
			}
		}
		uint64_t seed = 1;
		int maxp = egdb_pieces(db);
		if (endgame && maxp > endgame)
			maxp = (int)endgame;
		long added = 0, tries = 0;
		double te = cli_now();
		while (added < epos && tries++ < 1000 * epos + 1000000 && maxp >= 3) {
			/* half with as many pieces on each side (the endings games reach), half any */
			bool even = maxp >= 4 && (egdb_rng(&seed) & 1);
			int np = even ? 4 + 2 * (int)(egdb_rng(&seed) % (uint64_t)((maxp - 2) / 2)) : 3 + (int)(egdb_rng(&seed) % (uint64_t)(maxp - 2));
			pk_pos p;
			pk_egdb_result er;
			if (!egdb_random_quiet(&seed, np, even, &p) || egdb_probe(db, &p, &er) != EGDB_FOUND)
				continue;
			if (learn_add_position(d, &p, er.value) < 0) {
				cli_error("out of memory");
				goto out;
			}
			added++;
		}
		if (!quiet)
			fprintf(stderr, "train: %ld positions of up to %d pieces from the endgame databases (%.1f s)\n", added, maxp,
				cli_now() - te);
	}
	if (net) {
		rc = train_net(d, &nbase, &no, ldepth, db != NULL || have_labels, out, json, quiet);
		goto out;
	}
	if (!(pt = malloc(sizeof *pt))) {
		cli_error("out of memory");
		goto out;
	}
	progress_ctx pc = { lo.epochs, quiet, cli_now(), cli_now() };
	pk_learn_result r;
	double t1 = cli_now();
	if (learn_fit(d, &lo, show_epoch, &pc, pt, &r) < 0) {
		cli_error("out of memory");
		goto out;
	}
	if (!quiet && cli_stderr_is_tty())
		fprintf(stderr, "\r\033[K");
	double secs = cli_now() - t1;
	if (variant) {
		pt->windows = lo.windows;
		if (vbase_pat) {
			/* what was fitted, added to the base patterns' weights */
			for (int ph = 0; ph < PAT_PHASES; ph++)
				for (int k = 0; k < PAT_TABLES; k++)
					for (int i = 0; i < PAT_INDEX; i++) {
						int sum = pt->w[ph][k][i] + vbase_pat->w[ph][k][i];
						pt->w[ph][k][i] = (int16_t)(sum > 3000 ? 3000 : sum < -3000 ? -3000 : sum);
					}
			pt->men_only = vbase_pat->men_only;
			pt->tempo = vbase_pat->tempo;
			pt->material = vbase_pat->material;
		}
		vpatterns_checksum(pt);   /* the windows' weights name them */
	}
	if (endgame) {
		/* the table is what was fitted, written with the base patterns */
		memcpy(basept->e, pt->e, sizeof basept->e);
		basept->end_pieces = (int)endgame;
		patterns_checksum(basept);
		long nz = pt->nonzero;
		*pt = *basept;
		pt->nonzero = nz;   /* the table's weights */
	}
	if (out) {
		char comment[400];
		snprintf(comment, sizeof comment,
			 "pdnkit train%s: %ld games, %zu training and %zu held-out positions; held-out log loss %.5f -> %.5f "
			 "(epoch %ld of %ld); K %.4f; %s%s; checksum %08x",
			 endgame ? " --endgame" : "", learn_games(d), r.train, r.heldout, r.base_held, r.best_held, r.best_epoch,
			 r.epochs_done, r.K, ldepth ? "labelled by a search" : "labelled by results alone",
			 ldepth ? (have_labels ? " (its scores read from a labels file)" : db ? " with the endgame databases" :
				   " without endgame databases") : "", (unsigned)pt->checksum);
		char *text = variant ? vpatterns_format(pt, variant, comment) : patterns_format(pt, comment);
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
		       "\"checksum\":\"%08x\",\"labelled\":%zu,\"endgame\":%ld,\"seconds\":%.1f}\n",
		       learn_games(d), r.train, r.heldout, r.K, r.base_train, r.base_held, r.best_train, r.best_held, r.best_epoch,
		       r.epochs_done, r.used, pt->nonzero, (unsigned)pt->checksum, learn_labelled(d), endgame, secs);
	else
		printf("%ld games: %zu training positions, %zu held out (the games of a tenth of the openings)\n"
		       "log loss of the %s (K %.4f): training %.5f, held-out %.5f\n"
		       "with the %s (epoch %ld of %ld, %s): training %.5f, held-out %.5f\n"
		       "%ld patterns seen %d times or more, %ld weights not zero, checksum %08x; %.1f s\n",
		       learn_games(d), r.train, r.heldout,
		       endgame ? "evaluation with its patterns, in these endings" : "hand-set evaluation", r.K, r.base_train,
		       r.base_held, endgame ? "endgame table" : "patterns", r.best_epoch, r.epochs_done,
		       lo.keep_last ? "the last" : "the lowest held-out loss",
		       r.best_train, r.best_held, r.used, lo.min_count, pt->nonzero, (unsigned)pt->checksum, secs);
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	learn_data_free(d);
	free(pt);
	free(basept);
	free(endgame_arg);
	free(bpat);
	free(lend_arg);
	poptFreeContext(ctx);
	free(out);
	free(variant_arg);
	free(epochs_arg);
	free(rate_arg);
	free(l2_arg);
	free(min_arg);
	free(threads_arg);
	free(skip_arg);
	free(ldepth_arg);
	free(levery_arg);
	free(lambda_arg);
	free(td_arg);
	free(lpat);
	free(legdb);
	free(lcache_arg);
	free(batch_arg);
	free(seed_arg);
	free(decay_arg);
	free(lfile);
	free(lformat);
	free(npat);
	free(epos_arg);
	free(windows_arg);
	free(tie_arg);
	free(phase_arg);
	egdb_free(db);
	return rc;
}
