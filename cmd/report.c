/* pdnkit report: annotated games as one self-contained HTML page: contents, players,
 * and for each game an evaluation graph, the moves with their classes and a diagram
 * before each mistake. Games not yet annotated are annotated first. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "proto/client.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "pdn/zio.h"
#include "book/book.h"
#include "report/report.h"

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
	(void)sig;
	stop_flag = 1;
}

typedef struct {
	pk_report *r;
	bool oom, tty, shown;
	double t0, last;
	long games;
} rctx;

static void on_game(void *ctx, const pk_bgame *b)
{
	rctx *c = ctx;
	c->games++;
	if ((b->status == BATCH_ANNOTATED || b->status == BATCH_REUSED) && report_add(c->r, b) < 0)
		c->oom = true;
}

static void on_error(void *ctx, const char *msg)
{
	(void)ctx;
	cli_error("%s", msg);
}

static void on_progress(void *ctx, long done, long total, long pos)
{
	rctx *c = ctx;
	double t = cli_now();
	if (!c->tty || t - c->last < 0.5)
		return;
	c->last = t;
	fprintf(stderr, "\rreport: annotating: %ld", done);
	if (total > 0)
		fprintf(stderr, "/%ld", total);
	fprintf(stderr, " games, %ld positions\033[K", pos);
	c->shown = true;
}

static bool in_book(void *ctx, const pk_gpos *p, const pk_gmove *m) { return book_has_gmove(ctx, p, m); }

int cmd_report(int argc, const char **argv)
{
	filter_args fa = { 0 };
	engine_args ea;
	engine_args_init(&ea);
	char *out_path = NULL, *title = NULL, *book_arg = NULL, *engine_spec = NULL, *engines_file = NULL, *verify = NULL, *verify_rounds = NULL;
	pk_engine_spec ext;
	int no_script = 0, inaccuracies = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games, with --db:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "Annotation of games not yet annotated (default: --depth 8):", NULL },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0, "annotate with another engine: cb:LIB.so, hub:COMMAND or a name of --engines (--movetime its seconds, default 1)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "verify", 0, POPT_ARG_STRING, &verify, 0, "check a mistake or blunder by a search this many plies deeper (0: not; default 6)", "PLIES" },
		{ "verify-rounds", 0, POPT_ARG_STRING, &verify_rounds, 0, "check a move still flagged again, --verify plies deeper each round, up to N rounds (1 to 4; default 2)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &out_path, 0, "the HTML file to write", "OUT.html" },
		{ "title", 0, POPT_ARG_STRING, &title, 0, "the page's title (default: from the games)", "TEXT" },
		{ "book", 0, POPT_ARG_STRING, &book_arg, 0, "book moves from this book ('none': no book; default: the shipped one)", "FILE" },
		{ "inaccuracies", 0, POPT_ARG_NONE, &inaccuracies, 0, "diagrams for inaccuracies too", NULL },
		{ "no-script", 0, POPT_ARG_NONE, &no_script, 0, "no board to step through the games (a page without JavaScript)", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] (FILE... | --db PATH [filters]) -o OUT.html");
	int rc = cli_parse_options(ctx, opts);
	pk_batch_opts bo = { 0 };
	rctx c = { 0 };
	pk_store *s = NULL;
	pk_batch *b = NULL;
	pk_book *bk = NULL;
	pk_out *o = NULL;
	if (rc)
		goto done;
	rc = EXIT_USAGE;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	bool use_db = filter_args_given(&fa);
	if (use_db == (nfiles > 0)) {
		cli_error(nfiles ? "give FILEs or --db with filters, not both" : "no games: give PDN FILEs, or --db PATH (with filters)");
		goto done;
	}
	if (!out_path) {
		cli_error("no output: give -o OUT.html");
		goto done;
	}
	if (cli_check_output(out_path) < 0) {   /* before the games are annotated */
		rc = EXIT_RUNTIME;
		goto done;
	}
	if (engine_spec && strcmp(engine_spec, "pdnkit") != 0) {
		char why[800], safe[900];
		if (spec_parse(engine_spec, engines_file_option(engines_file), &ext, why, sizeof why) < 0) {
			cli_error("--engine %s", why);
			goto done;
		}
		if (ext.kind == SPEC_PDNKIT || ext.kind == SPEC_DXP || ea.depth || ea.nodes || ea.level) {
			cli_error("--engine %s: %s", engine_spec, ext.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines" :
				  ext.kind == SPEC_PDNKIT ? "give the built-in engine's options to report itself" :
				  "another engine is given seconds a search (--movetime), not a depth, nodes or a level");
			goto done;
		}
		if (verify_option(verify, verify_rounds, true, &bo.ao.verify, &bo.ao.verify_rounds) < 0)
			goto done;
		bo.ext = &ext;
		bo.ext_time = ea.movetime ? atof(ea.movetime) : 1.0;
		pk_client *cl = client_open(&ext, &bo.copts, why, sizeof why);
		if (!cl) {
			cli_error("--engine %s", cli_safe_text(why, safe, sizeof safe));
			rc = EXIT_RUNTIME;
			goto done;
		}
		client_close(cl);
	}
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level) {
		char d[16];
		snprintf(d, sizeof d, "%d", ANNOTATE_DEFAULT_DEPTH);
		ea.depth = strdup(d);
	}
	if (engine_args_resolve(&ea, &bo.ao.lim) || engine_weights(&ea, &bo.w) < 0 || engine_features(&ea, &bo.f) < 0)
		goto done;
	bo.ao.th = thresholds_default;
	if (!bo.ext && verify_option(verify, verify_rounds, false, &bo.ao.verify, &bo.ao.verify_rounds) < 0)
		goto done;
	rc = EXIT_RUNTIME;
	if (engine_egdb(&ea, &bo.ao.egdb) < 0 || book_option(book_arg, true, &bk) < 0)
		goto done;
	if (bk) {
		bo.ao.in_book = in_book;
		bo.ao.book_ctx = bk;
	}
	bo.threads = engine_threads(&ea);
	bo.hash = ea.hash ? (size_t)atol(ea.hash) : 32;
	pk_filter f;
	filter_init(&f);
	if (use_db) {
		if ((rc = filter_resolve(&fa, &f)) != 0)
			goto done;
		rc = EXIT_RUNTIME;
		if (!(s = db_open(&fa, STORE_WRITE)))
			goto done;
		/* the same settings as annotate: what annotate stored is read back, what is
		 * annotated here is stored for annotate and blunders */
		char settings[1024];
		batch_settings(&bo, bk ? book_id(bk) : 0u, settings, sizeof settings);
		if (store_annotation_run(s, settings, "pdnkit " PK_VERSION, &bo.run) < 0) {
			cli_error("%s", store_error(s));
			goto done;
		}
		bo.store = s;
		bo.read_back = true;
	}
	pk_report_opts ro = { .script = !no_script, .inaccuracies = inaccuracies };
	char tbuf[300], sub[400];
	if (title)
		ro.title = title;
	else {
		snprintf(tbuf, sizeof tbuf, "Annotated games: %s", use_db ? db_path(&fa) : files[0]);
		ro.title = tbuf;
	}
	if (bo.ext)
		snprintf(sub, sizeof sub, "pdnkit " PK_VERSION ", the engine %.200s at %g s a search, thresholds %d/%d/%d",
			 ext.text, bo.ext_time, bo.ao.th.blunder, bo.ao.th.mistake, bo.ao.th.inaccuracy);
	else
		snprintf(sub, sizeof sub, "pdnkit " PK_VERSION ", search to %s%s%s%.0d%s%.0d%s, thresholds %d/%d/%d",
			 bo.ao.lim.depth ? "depth " : "", ea.depth ? ea.depth : ea.nodes ? "a node limit" : "a time limit",
			 bo.ao.verify ? " (mistakes checked " : "", bo.ao.verify,
			 bo.ao.verify ? (bo.ao.verify_rounds > 1 ? " plies deeper, rounds: " : " plies deeper") : "",
			 bo.ao.verify && bo.ao.verify_rounds > 1 ? bo.ao.verify_rounds : 0, bo.ao.verify ? ")" : "",
			 bo.ao.th.blunder, bo.ao.th.mistake, bo.ao.th.inaccuracy);
	ro.subtitle = sub;
	if (!(c.r = report_new(&ro))) {
		cli_error("out of memory");
		goto done;
	}
	c.tty = cli_stderr_is_tty();
	c.t0 = cli_now();
	bo.english_only = bo.ext != NULL;   /* another engine: English draughts only */
	bo.stop = &stop_flag;
	bo.on_game = on_game;
	bo.on_error = on_error;
	bo.on_progress = on_progress;
	bo.ctx = &c;
	char err[600];
	if (!(b = batch_new(&bo, err, sizeof err))) {
		cli_error("%s", err);
		goto done;
	}
	pk_source src = { .files = files, .nfiles = nfiles, .store = s, .filter = &f, .stop = &stop_flag };
	signal(SIGINT, on_sigint);
	int brc = batch_run(b, &src);
	if (c.shown)
		fprintf(stderr, "\r\033[K");
	if (brc < 0 || c.oom) {
		cli_error("%s", c.oom ? "out of memory" : batch_error(b));
		goto done;
	}
	if (stop_flag) {
		cli_error("interrupted: no report written");
		rc = 130;
		goto done;
	}
	int n, e = 0;
	const pk_player_sum *ps = batch_players(b, &n);
	if (!(o = zout_open_plain(out_path, &e))) {
		cli_error("cannot write %s: %s", cli_out_name(out_path), strerror(e));
		goto done;
	}
	int w = report_write(c.r, ps, n, cli_sink_out, o);
	const char *msg = NULL;
	int cl = zout_close(o, &msg);
	o = NULL;
	if (w < 0 || cl < 0) {
		cli_error("cannot write %s: %s", cli_out_name(out_path), msg ? msg : "write error");
		goto done;
	}
	const pk_batch_counts *k = batch_counts(b);
	fprintf(stderr, "report: %d games in %s (%ld annotated now, %ld read back", report_games(c.r), out_path, k->annotated,
		k->reused);
	if (k->unsupported)
		fprintf(stderr, ", %ld of other variants left out", k->unsupported);
	fprintf(stderr, "); %.1f s\n", cli_now() - c.t0);
	rc = k->unreadable ? EXIT_RUNTIME : EXIT_OK;
done:
	if (o)
		zout_close(o, NULL);
	report_free(c.r);
	batch_free(b);
	store_close(s);
	book_free(bk);
	free(engine_spec);
	free(engines_file);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	engine_args_free(&ea);
	free(out_path);
	free(title);
	free(verify);
	free(verify_rounds);
	free(book_arg);
	return rc < 0 ? EXIT_OK : rc;
}
