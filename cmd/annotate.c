/* pdnkit annotate: every move of a game, a file or a database scored by the engine,
 * written as PDN comments, NAGs and variations, as JSON Lines, or into the database
 * (resumable), with a summary per game and per player. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "proto/client.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "analysis/batch.h"
#include "book/book.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

/* What the command prints as the batch hands games back. */
typedef struct {
	FILE *sum;                   /* the summary: stdout, or stderr when the PDN goes there */
	pk_out *pdn;
	int variations;              /* 0 none, 1 mistakes and blunders, 2 also inaccuracies */
	bool json, quiet, tty, shown;
	bool progress;               /* --progress: a line a finished game, also off a terminal */
	long done_shown;             /* the games done the last such line said */
	double t0, last_shown;
	int err;
} out;

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static bool in_book(void *ctx, const pk_gpos *p, const pk_gmove *m) { return book_has_gmove(ctx, p, m); }

static const char *side_name(int side) { return side == PK_BLACK ? "black" : "white"; }

static void clear_progress(out *o)
{
	if (o->shown)
		fprintf(stderr, "\r\033[K");
	o->shown = false;
}

static void on_progress(void *ctx, long done, long total, long pos)
{
	out *o = ctx;
	double t = cli_now();
	if (!o->tty) {
		/* off a terminal, with --progress: a line each time a game is done */
		if (!o->progress || done == o->done_shown)
			return;
		o->done_shown = done;
		fprintf(stderr, "annotate: %ld", done);
		if (total > 0)
			fprintf(stderr, "/%ld", total);
		fprintf(stderr, " games done, %ld positions, %.1f s\n", pos, t - o->t0);
		return;
	}
	if (pos >= 0 && t - o->last_shown < 0.5)
		return;
	o->last_shown = t;
	double secs = t - o->t0;
	fprintf(stderr, "\rannotate: %ld", done);
	if (total > 0)
		fprintf(stderr, "/%ld", total);
	if (pos >= 0)
		fprintf(stderr, " games, %ld positions, %.1f positions/s", pos, secs > 0 ? (double)pos / secs : 0);
	if (total > 0 && done > 0 && secs > 1) {
		double eta = secs * (double)(total - done) / (double)done;
		fprintf(stderr, ", ETA %d:%02d:%02d", (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	}
	fputs("\033[K", stderr);
	o->shown = true;
}

static void on_error(void *ctx, const char *msg)
{
	out *o = ctx;
	clear_progress(o);
	cli_error("%s", msg);
	o->err = EXIT_RUNTIME;
}

typedef struct {
	const pk_bgame *b;
	int variations;
	char buf[4096];
} wr_ctx;

static const char *after_move(void *ctx, int ply)
{
	wr_ctx *w = ctx;
	return batch_comment(w->b, ply, w->variations, w->buf, sizeof w->buf);
}

static void json_note(FILE *f, const pk_tnote *t)
{
	fprintf(f, "{\"ply\":%d,\"move\":", t->ply);
	json_string(f, t->move);
	fprintf(f, ",\"side\":\"%s\",\"best\":", side_name(t->side));
	if (t->scored) {
		json_string(f, t->best);
		fprintf(f, ",\"score_best\":%d,\"score_played\":%d,\"loss\":%d", t->score_best, t->score_played, t->loss);
	} else {
		fputs("null,\"score_best\":null,\"score_played\":null,\"loss\":null", f);
	}
	fprintf(f, ",\"class\":\"%s\",\"depth\":%d", class_name[t->cls], t->depth);
	if (t->egdb)
		fprintf(f, ",\"egdb\":\"%s\"", t->egdb == 3 ? "win" : t->egdb == 2 ? "draw" : "loss");
	fputc('}', f);
}

static void json_tally(FILE *f, const pk_tally *t)
{
	fprintf(f, "{\"moves\":%d,\"average_loss\":%.1f,\"blunders\":%d,\"mistakes\":%d,\"inaccuracies\":%d,\"only\":%d,\"forced\":%d,\"book\":%d}",
		t->moves, tally_average(t), t->count[CLASS_BLUNDER], t->count[CLASS_MISTAKE], t->count[CLASS_INACCURACY],
		t->count[CLASS_ONLY], t->count[CLASS_FORCED], t->count[CLASS_BOOK]);
}

static const char *tag_or(const pk_game *g, const char *name)
{
	const char *v = game_tag(g, name);
	return v && *v ? v : "?";
}

static void print_json(const pk_bgame *j)
{
	const pk_tnote *d = j->decisive >= 0 && j->decisive < bgame_plies(j) ? &j->notes[j->decisive] : NULL;
	printf("{\"game\":%lld,", (long long)j->id);
	if (j->file) {
		printf("\"file\":");
		json_string(stdout, j->file);
		putchar(',');
	}
	printf("\"event\":");
	json_string(stdout, tag_or(&j->g, "Event"));
	printf(",\"black\":");
	json_string(stdout, tag_or(&j->g, "Black"));
	printf(",\"white\":");
	json_string(stdout, tag_or(&j->g, "White"));
	if (j->rp.variant_replayed)
		printf(",\"gametype\":%d", j->rp.variant);
	printf(",\"result\":\"%s\",\"moves\":[", result_string(j->rp.result));
	bool first = true;
	for (int i = 0; i < bgame_plies(j); i++) {
		if (j->notes[i].cls == CLASS_NONE)
			continue;
		if (!first)
			putchar(',');
		json_note(stdout, &j->notes[i]);
		first = false;
	}
	printf("],\"summary\":{\"black\":");
	json_tally(stdout, &j->side[PK_BLACK]);
	printf(",\"white\":");
	json_tally(stdout, &j->side[PK_WHITE]);
	printf(",\"decisive\":");
	if (d) {
		printf("{\"ply\":%d,\"move_number\":%d,\"side\":\"%s\",\"move\":", d->ply,
		       replay_move_number(&j->rp, d->ply), side_name(d->side));
		json_string(stdout, d->move);
		printf(",\"loss\":%d}", d->loss);
	} else {
		printf("null");
	}
	printf("}}\n");
}

static void print_text(FILE *f, const pk_bgame *j)
{
	const pk_tnote *d = j->decisive >= 0 && j->decisive < bgame_plies(j) ? &j->notes[j->decisive] : NULL;
	fprintf(f, "%s%lld: %s - %s, %s, %s\n", j->file ? "game " : "game #", (long long)j->id, tag_or(&j->g, "Black"),
		tag_or(&j->g, "White"), tag_or(&j->g, "Event"), result_string(j->rp.result));
	for (int k = 0; k < 2; k++)
		fprintf(f, "  %-5s %3d moves scored (book and forced moves left out), average loss %5.1f, %d blunders, "
			"%d mistakes, %d inaccuracies, %d only moves\n",
			side_name(k), j->side[k].moves, tally_average(&j->side[k]), j->side[k].count[CLASS_BLUNDER],
			j->side[k].count[CLASS_MISTAKE], j->side[k].count[CLASS_INACCURACY], j->side[k].count[CLASS_ONLY]);
	for (int i = 0; i < bgame_plies(j); i++) {
		const pk_tnote *t = &j->notes[i];
		if (t->cls != CLASS_BLUNDER && t->cls != CLASS_MISTAKE)
			continue;
		fprintf(f, "  %d%s %s%s  best %s  loss %d%s\n", replay_move_number(&j->rp, t->ply),
			t->side == bgame_first(j) ? "." : "...", t->move, t->cls == CLASS_BLUNDER ? "??" : "?", t->best, t->loss,
			d == t ? "  (decisive)" : "");
	}
	if (d && d->cls != CLASS_BLUNDER && d->cls != CLASS_MISTAKE)
		fprintf(f, "  decisive: %d%s %s, loss %d%s\n", replay_move_number(&j->rp, d->ply),
			d->side == bgame_first(j) ? "." : "...", d->move, d->loss,
			d->loss <= 0 ? " (the loser's last move before the winner's score stayed a blunder's worth up: "
				       "the game was lost earlier, by a margin the search saw only here)" : "");
}

static void on_game(void *ctx, const pk_bgame *j)
{
	out *o = ctx;
	clear_progress(o);
	if (j->file && bgame_annotatable(j) && !j->rp.complete)
		cli_warning("%s: game %d stops at an error after %d plies (see pdnkit validate); "
			    "the moves before it are annotated", j->file, j->g.index, bgame_plies(j));
	if (!j->ok && j->error[0]) {
		char safe[700];
		cli_warning("%s%sgame %d: not annotated: %s", j->file ? j->file : "", j->file ? ": " : "",
			    j->file ? j->g.index : (int)j->id, cli_safe_text(j->error, safe, sizeof safe));
	}
	if (j->ok) {
		if (o->json)
			print_json(j);
		else if (!o->quiet)
			print_text(o->sum, j);
		fflush(o->json ? stdout : o->sum);   /* each game's result as it comes, into a file or pipe too */
		if (o->pdn) {
			wr_ctx w = { .b = j, .variations = o->variations };
			pk_write_opts wo = { .width = 80, .verbatim_tags = true, .after_move = after_move, .ctx = &w };
			if (pdn_write_game(&j->g, &j->rp, &wo, cli_sink_out, o->pdn) < 0 && !o->err) {
				cli_error("cannot write the annotated PDN");
				o->err = EXIT_RUNTIME;
			}
		}
	}
}

static void print_players(out *o, pk_batch *b)
{
	int n;
	const pk_player_sum *ps = batch_players(b, &n);
	if (n == 0 || (!o->json && o->quiet))
		return;
	if (o->json) {
		printf("{\"players\":[");
		for (int i = 0; i < n; i++) {
			printf("%s{\"name\":", i ? "," : "");
			json_string(stdout, ps[i].name);
			printf(",\"games\":%d,\"summary\":", ps[i].games);
			json_tally(stdout, &ps[i].t);
			putchar('}');
		}
		printf("]}\n");
		return;
	}
	fprintf(o->sum, "\n%-28s %5s %6s %8s %8s %8s %8s\n", "player", "games", "moves", "avg loss", "blunders", "mistakes",
		"inaccur.");
	for (int i = 0; i < n; i++)
		fprintf(o->sum, "%-28.28s %5d %6d %8.1f %8d %8d %8d\n", ps[i].name, ps[i].games, ps[i].t.moves,
			tally_average(&ps[i].t), ps[i].t.count[CLASS_BLUNDER], ps[i].t.count[CLASS_MISTAKE],
			ps[i].t.count[CLASS_INACCURACY]);
}

int cmd_annotate(int argc, const char **argv)
{
	filter_args fa = { 0 };
	engine_args ea;
	engine_args_init(&ea);
	pk_book *bk = NULL;
	char *book_arg = NULL;
	char *engine_spec = NULL, *engines_file = NULL;
	char *out_path = NULL, *blunder = NULL, *mistake = NULL, *inaccuracy = NULL, *variations = NULL, *shard = NULL,
	     *merge = NULL, *verify = NULL, *verify_rounds = NULL;
	int json = 0, quiet = 0, progress = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games, with --db:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "Search limits (default: --depth 10):", NULL },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0,
		  "annotate with another engine: cb:LIB.so[,key=value...], hub:COMMAND or a name of --engines (English games; --movetime its seconds a search, default 1)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "blunder", 0, POPT_ARG_STRING, &blunder, 0, "a loss of at least CP is a blunder ?? (default 100)", "CP" },
		{ "mistake", 0, POPT_ARG_STRING, &mistake, 0, "a mistake ? (default 50)", "CP" },
		{ "inaccuracy", 0, POPT_ARG_STRING, &inaccuracy, 0, "an inaccuracy ?! (default 25)", "CP" },
		{ "verify", 0, POPT_ARG_STRING, &verify, 0,
		  "search a move classed a mistake or blunder again this many plies deeper and class it by that search (0: not; default 6)", "PLIES" },
		{ "verify-rounds", 0, POPT_ARG_STRING, &verify_rounds, 0,
		  "check a move still flagged again, --verify plies deeper each round, up to N rounds (1 to 4; default 2)", "N" },
		{ "variations", 0, POPT_ARG_STRING, &variations, 0,
		  "best lines as variations: none, mistakes (and blunders; the default) or all (inaccuracies too)", "WHICH" },
		{ "book", 0, POPT_ARG_STRING, &book_arg, 0,
		  "mark the moves of this opening book as book moves, unsearched ('none': no book; default: the shipped one)", "FILE" },
		{ "shard", 0, POPT_ARG_STRING, &shard, 0, "annotate only the K-th of N disjoint parts of the games", "K/N" },
		{ "merge", 0, POPT_ARG_STRING, &merge, 0, "add the annotations of another database (a shard's) to --db, then stop", "DB" },
		{ "output", 'o', POPT_ARG_STRING, &out_path, 0, "write the annotated games as PDN here ('-': standard output; .zst: compressed)", "OUT" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON Lines: one object per game", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no per-game summary", NULL },
		{ "progress", 0, POPT_ARG_NONE, &progress, 0,
		  "when standard error is not a terminal, a line there as each game is done (games done, positions, seconds), in the order they finish", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [FILE... | --db PATH [filters]]");
	int rc = cli_parse_options(ctx, opts);
	pk_batch_opts bo = { 0 };
	out o = { 0 };
	pk_store *s = NULL;
	pk_batch *b = NULL;
	if (rc)
		goto done;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	bool use_db = filter_args_given(&fa) || merge;
	if (use_db && nfiles) {
		cli_error("give FILEs or --db with filters, not both");
		rc = EXIT_USAGE;
		goto done;
	}
	if (!use_db && !nfiles) {
		cli_error("nothing to annotate: give PDN FILEs, or --db PATH (with query filters)");
		rc = EXIT_USAGE;
		goto done;
	}
	pk_engine_spec ext;
	if (engine_spec) {
		char why[800];
		if (spec_parse(engine_spec, engines_file_option(engines_file), &ext, why, sizeof why) < 0) {
			cli_error("--engine %s", why);
			rc = EXIT_USAGE;
			goto done;
		}
		if (ext.kind == SPEC_DXP || (ext.kind == SPEC_PDNKIT && *ext.target)) {
			cli_error("--engine %s: %s", engine_spec, ext.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines"
				  : "give the built-in engine's options to annotate itself (--depth 12, not --engine \"pdnkit:--depth 12\")");
			rc = EXIT_USAGE;
			goto done;
		}
		if (ext.kind != SPEC_PDNKIT) {
			if (ea.depth || ea.nodes || ea.level) {
				cli_error("--engine %s: another engine is given seconds a search (--movetime), not a depth, nodes or a level",
					  engine_spec);
				rc = EXIT_USAGE;
				goto done;
			}
			if (verify_option(verify, verify_rounds, true, &bo.ao.verify, &bo.ao.verify_rounds) < 0) {
				rc = EXIT_USAGE;
				goto done;
			}
			bo.ext = &ext;
			bo.english_only = true;
			bo.ext_time = ea.movetime ? atof(ea.movetime) : 1.0;
			char why2[800], safe[900];
			pk_client *c = client_open(&ext, &bo.copts, why2, sizeof why2);
			if (!c) {
				cli_error("--engine %s", cli_safe_text(why2, safe, sizeof safe));
				rc = EXIT_RUNTIME;
				goto done;
			}
			client_close(c);
		}
	}
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level) {
		char d[16];
		snprintf(d, sizeof d, "%d", ANNOTATE_DEFAULT_DEPTH);
		ea.depth = strdup(d);
	}
	pk_annotate_opts *ao = &bo.ao;
	if (engine_args_resolve(&ea, &ao->lim) || engine_weights(&ea, &bo.w) < 0 || engine_features(&ea, &bo.f) < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	ao->th = thresholds_default;
	long v;
	if ((blunder && (cli_int(blunder, 1, LOSS_CAP * 2, "--blunder", &v) || !((ao->th.blunder = (int)v)))) ||
	    (mistake && (cli_int(mistake, 1, LOSS_CAP * 2, "--mistake", &v) || !((ao->th.mistake = (int)v)))) ||
	    (inaccuracy && (cli_int(inaccuracy, 1, LOSS_CAP * 2, "--inaccuracy", &v) || !((ao->th.inaccuracy = (int)v))))) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (!bo.ext && verify_option(verify, verify_rounds, false, &ao->verify, &ao->verify_rounds) < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (!(ao->th.blunder >= ao->th.mistake && ao->th.mistake >= ao->th.inaccuracy)) {
		cli_error("thresholds must satisfy --blunder >= --mistake >= --inaccuracy (have %d, %d, %d)", ao->th.blunder,
			  ao->th.mistake, ao->th.inaccuracy);
		rc = EXIT_USAGE;
		goto done;
	}
	if (engine_egdb(&ea, &ao->egdb) < 0) {
		rc = EXIT_RUNTIME;
		goto done;
	}
	o.variations = 1;
	if (variations) {
		if (!strcmp(variations, "none"))
			o.variations = 0;
		else if (!strcmp(variations, "mistakes"))
			o.variations = 1;
		else if (!strcmp(variations, "all"))
			o.variations = 2;
		else {
			cli_error("--variations must be none, mistakes or all, not '%s'", variations);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	bo.shard_k = bo.shard_n = 1;
	if (shard) {
		char extra;
		if (sscanf(shard, "%d/%d%c", &bo.shard_k, &bo.shard_n, &extra) != 2 || bo.shard_n < 1 || bo.shard_k < 1 ||
		    bo.shard_k > bo.shard_n) {
			cli_error("--shard must be K/N with 1 <= K <= N, not '%s'", shard);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	if (json && out_path && !strcmp(out_path, "-")) {
		cli_error("--json and -o - both want standard output");
		rc = EXIT_USAGE;
		goto done;
	}
	/* a book of any game: it marks the moves of that game's games */
	if (book_option_any(book_arg, true, &bk) < 0) {
		rc = EXIT_RUNTIME;
		goto done;
	}
	if (bk) {
		ao->in_book = in_book;
		ao->book_ctx = bk;
	}
	bo.threads = engine_threads(&ea);
	bo.hash = ea.hash ? (size_t)atol(ea.hash) : 32;
	pk_filter f;
	filter_init(&f);
	if (use_db && (rc = filter_resolve(&fa, &f)) != 0)
		goto done;
	f.shard_k = bo.shard_k;
	f.shard_n = bo.shard_n;
	if (use_db) {
		if (!(s = db_open(&fa, STORE_WRITE))) {
			rc = EXIT_RUNTIME;
			goto done;
		}
		if (merge) {
			long added = 0;
			if (store_merge_annotations(s, merge, &added) < 0) {
				cli_error("cannot merge '%s': %s", merge, store_error(s));
				rc = EXIT_RUNTIME;
				goto done;
			}
			printf("merged the annotations of %ld games from %s\n", added, merge);
			goto done;
		}
		char settings[1024];
		batch_settings(&bo, bk ? book_id(bk) : 0u, settings, sizeof settings);
		if (store_annotation_run(s, settings, "pdnkit " PK_VERSION, &bo.run) < 0) {
			cli_error("%s", store_error(s));
			rc = EXIT_RUNTIME;
			goto done;
		}
		bo.store = s;
	}
	if (out_path) {
		int err = 0;
		if (!(o.pdn = zout_open(out_path, &err))) {
			cli_error("cannot write %s: %s", cli_out_name(out_path), strerror(err));
			rc = EXIT_RUNTIME;
			goto done;
		}
	}
	o.sum = out_path && !strcmp(out_path, "-") ? stderr : stdout;
	o.json = json;
	o.quiet = quiet;
	o.tty = cli_stderr_is_tty();
	o.progress = progress;
	o.t0 = cli_now();
	bo.read_back = o.pdn || json || !quiet;
	bo.stop = &stop_flag;
	bo.on_game = on_game;
	bo.on_error = on_error;
	bo.on_progress = on_progress;
	bo.ctx = &o;
	char err[600];
	if (!(b = batch_new(&bo, err, sizeof err))) {
		cli_error("%s", err);
		rc = EXIT_RUNTIME;
		goto done;
	}
	pk_source src = { .files = files, .nfiles = nfiles, .store = s, .filter = &f, .stop = &stop_flag };
	stop_flag = 0;
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	if (batch_run(b, &src) < 0) {
		clear_progress(&o);
		cli_error("%s", batch_error(b));
		rc = EXIT_RUNTIME;
	}
	sigaction(SIGINT, &old, NULL);
	clear_progress(&o);
	if (!rc)
		rc = o.err;
	double secs = cli_now() - o.t0;
	const pk_batch_counts *n = batch_counts(b);
	if (!rc)
		print_players(&o, b);
	fflush(stdout);
	fprintf(stderr, "annotate: %ld games annotated", n->annotated);
	if (n->reused)
		fprintf(stderr, ", %ld read back (done before with these settings)", n->reused);
	if (n->skipped)
		fprintf(stderr, ", %ld skipped (done before with these settings)", n->skipped);
	if (n->unsupported)
		fprintf(stderr, ", %ld not replayed (not annotated; see pdnkit validate)", n->unsupported);
	fprintf(stderr, "; %ld positions in %.1f s (%.1f positions/s)\n", n->positions, secs,
		secs > 0 ? (double)n->positions / secs : 0);
	if (stop_flag) {
		fprintf(stderr, "annotate: interrupted; %s\n",
			use_db ? "the games finished are stored: run the same command again to go on"
			       : "the games finished were written");
		if (!rc)
			rc = 130;
	}
	const char *zmsg = NULL;
	if (o.pdn && zout_close(o.pdn, &zmsg) < 0 && !rc) {
		cli_error("cannot finish %s: %s", cli_out_name(out_path), zmsg ? zmsg : "write error");
		rc = EXIT_RUNTIME;
	}
	o.pdn = NULL;
done:
	if (o.pdn)
		zout_close(o.pdn, NULL);
	batch_free(b);
	store_close(s);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	engine_args_free(&ea);
	free(out_path);
	free(blunder);
	free(mistake);
	free(inaccuracy);
	free(variations);
	free(shard);
	free(merge);
	free(verify);
	free(verify_rounds);
	free(book_arg);
	free(engine_spec);
	free(engines_file);
	book_free(bk);
	return rc < 0 ? EXIT_OK : rc;
}
