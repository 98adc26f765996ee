/* pdnkit match: the engine against itself with different settings, every opening with
 * both colours; games written as PDN; the score and the Elo difference with its 95%
 * interval. */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "engine_opts.h"
#include "analysis/match.h"
#include "rules/fen.h"
#include "store/games.h"

/* Parse "--depth 6 --no-lmr" into a player. */
static int parse_player(const char *what, const char *spec, const pk_variant *v, pk_player *pl)
{
	engine_args ea;
	engine_args_init(&ea);
	int no_lmr = 0, strong_lmr = 0, no_killers = 0, no_history = 0, no_aspiration = 0;
	char *book = NULL, *lmr = NULL;
	int tt_buckets = 0;
	struct poptOption extra[] = {
		{ "no-lmr", 0, POPT_ARG_NONE, &no_lmr, 0, NULL, NULL },
		{ "strong-lmr", 0, POPT_ARG_NONE, &strong_lmr, 0, NULL, NULL },
		{ "lmr", 0, POPT_ARG_STRING, &lmr, 0, NULL, NULL },
		{ "tt-buckets", 0, POPT_ARG_NONE, &tt_buckets, 0, NULL, NULL },
		{ "no-killers", 0, POPT_ARG_NONE, &no_killers, 0, NULL, NULL },
		{ "no-history", 0, POPT_ARG_NONE, &no_history, 0, NULL, NULL },
		{ "no-aspiration", 0, POPT_ARG_NONE, &no_aspiration, 0, NULL, NULL },
		{ "book", 0, POPT_ARG_STRING, &book, 0, NULL, NULL },
		POPT_TABLEEND
	};
	int status = 0;
	if (engine_args_from_string(what, spec, extra, &ea) < 0)
		status = -1;
	else if (engine_args_resolve(&ea, &pl->lim) || (!v && engine_weights(&ea, &pl->w) < 0))
		status = -1;
	else if (book_option_for(book, false, v, &pl->bk) < 0)
		status = -1;
	if (engine_features(&ea, &pl->f) < 0)
		status = -1;
	/* the older switches, kept beside --features */
	if (no_lmr || strong_lmr)
		pl->f.lmr = no_lmr ? 0 : 2;
	long lv;
	if (lmr) {
		if (cli_int(lmr, 0, 4, "--lmr", &lv))
			status = -1;
		else
			pl->f.lmr = (int)lv;
	}
	free(lmr);
	if (no_killers)
		pl->f.killers = false;
	if (no_history)
		pl->f.history = false;
	if (no_aspiration)
		pl->f.aspiration = 0;
	if (tt_buckets)
		pl->f.tt_ways = 2;
	if (v) {
		/* the variant engine: limits, hash, weights and a book; the rest is English draughts' */
		if (ea.egdb || ea.features || ea.threads || no_lmr || strong_lmr || lmr || tt_buckets ||
		    no_killers || no_history || no_aspiration) {
			cli_error("%s: with --variant the engine takes --depth, --nodes, --movetime, --level, --hash, "
				  "--weights and --book only", what);
			status = -1;
		} else if (status == 0 && engine_vweights(&ea, v, &pl->vw) < 0) {
			status = -1;
		}
	} else if (status == 0 && engine_egdb(&ea, &pl->egdb) < 0) {
		status = -1;
	}
	free(book);
	ea.db = NULL;                   /* the player's now */
	pl->hash = ea.hash ? (size_t)atol(ea.hash) : 16;
	pl->threads = engine_threads(&ea);
	engine_args_free(&ea);
	return status;
}

/* Openings from a PDN file: each game's FEN (or the start) plus its moves. */
static int openings_from_file(const char *path, const pk_variant *var, pk_opening **out)
{
	const char *files[] = { path };
	pk_source src = { .files = files, .nfiles = 1 };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		return -1;
	}
	int cap = 256, n = 0, got;
	pk_opening *v = malloc(sizeof *v * (size_t)cap);
	pk_game *g;
	pk_replay *rp;
	while (v && (got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got != GAMES_GAME) {
			cli_error("%s", games_error(it));
			free(v);
			v = NULL;
			break;
		}
		if (g->findings.errors || (var ? rp->variant != var->gametype : !rp->supported))
			continue;
		if (n == cap) {
			pk_opening *nv = realloc(v, sizeof *v * (size_t)(cap *= 2));
			if (!nv) {
				cli_error("out of memory");
				free(v);
				v = NULL;
				break;
			}
			v = nv;
		}
		n += var ? match_vopening_of(var, rp, &v[n]) : match_opening_of(rp, &v[n]);
	}
	games_close(it);
	*out = v;
	return v ? n : -1;
}


/* On a terminal, a line kept up to date as games finish: how many, A's score so far and
 * the Elo interval, the time left at this pace. */
static double progress_t0;
static bool progress_shown;

static void show_progress(void *ctx, int done, int gi)
{
	(void)gi;
	pk_match *m = ctx;
	if (!cli_stderr_is_tty())
		return;
	pk_match_score sc;
	match_score(m, &sc);
	double secs = cli_now() - progress_t0;
	double eta = done > 0 ? secs * (m->ngames - done) / done : 0;
	fprintf(stderr, "\rmatch: %d/%d games, A +%ld =%ld -%ld, %.1f%%", done, m->ngames, sc.wins, sc.draws,
		sc.losses, 100 * sc.score);
	if (isfinite(sc.elo_low) && isfinite(sc.elo_high))
		fprintf(stderr, ", Elo %+.0f (%+.0f .. %+.0f)", sc.elo, sc.elo_low, sc.elo_high);
	fprintf(stderr, ", ETA %d:%02d:%02d\033[K", (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	progress_shown = true;
}

static void clear_progress(void)
{
	if (progress_shown)
		fprintf(stderr, "\r\033[K");
	progress_shown = false;
}

/* A PDN tag pair; quotes and backslashes in the value (an engine's options) escaped. */
static void tag(FILE *f, const char *name, const char *value)
{
	fprintf(f, "[%s \"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs("\"]\n", f);
}

int cmd_match(int argc, const char **argv)
{
	char *a = NULL, *b = NULL, *openings = NULL, *games_arg = NULL, *conc = NULL, *out = NULL, *variant = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "a", 0, POPT_ARG_STRING, &a, 0, "engine A's options, e.g. \"--depth 8\"", "OPTIONS" },
		{ "b", 0, POPT_ARG_STRING, &b, 0, "engine B's options, e.g. \"--depth 8 --no-lmr\"", "OPTIONS" },
		{ "openings", 0, POPT_ARG_STRING, &openings, 0,
		  "openings from a PDN file (default: every three-move ballot; with --variant, every first move and reply)", "FILE" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "play this variant with the variant engine (default: English)",
		  "NAME|GAMETYPE" },
		{ "games", 0, POPT_ARG_STRING, &games_arg, 0, "play at most N games (default: every opening, both colours)", "N" },
		{ "concurrency", 'c', POPT_ARG_STRING, &conc, 0, "games played at once (default: one per core)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the games as PDN here", "FILE" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_match m = { .progress = show_progress, .stop = &cli_interrupted };
	m.ctx = &m;
	pk_opening *op = NULL;
	if (rc)
		goto out;
	if (out && cli_check_output(out) < 0) {   /* said now, not after hours of games */
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_USAGE;
	if (variant && !(m.variant = cli_variant(variant)))
		goto out;
	if (m.variant && m.variant->gametype == 21)
		m.variant = NULL;               /* English: its own engine */
	m.pl[0].spec = a ? a : "--depth 6";
	m.pl[1].spec = b ? b : "--depth 6";
	if (parse_player("--a", m.pl[0].spec, m.variant, &m.pl[0]) < 0 ||
	    parse_player("--b", m.pl[1].spec, m.variant, &m.pl[1]) < 0)
		goto out;
	long ngames = 0, nconc = sysconf(_SC_NPROCESSORS_ONLN);
	if (games_arg && cli_int(games_arg, 1, 10000000, "--games", &ngames))
		goto out;
	if (conc && cli_int(conc, 1, 256, "--concurrency", &nconc))
		goto out;
	m.nop = openings ? openings_from_file(openings, m.variant, &op)
			 : m.variant ? match_vopenings(m.variant, &op) : match_ballots(&op);
	m.op = op;
	if (m.nop <= 0) {
		if (m.nop == 0)
			cli_error("no usable opening in '%s'", openings);
		rc = m.nop < 0 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	double t0 = cli_now();
	progress_t0 = t0;
	/* A signal ends the match: the games being played are abandoned, the finished ones
	 * are counted, shown and written. */
	cli_catch_signals(true);
	if (match_run(&m, ngames ? (int)ngames : 2 * m.nop, (int)nconc) < 0) {
		clear_progress();
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	clear_progress();
	if (cli_interrupted)
		fprintf(stderr, "pdnkit match: interrupted after %d of %d games; the finished games are counted%s\n",
			match_finished(&m), m.ngames, out ? " and written" : "");
	double secs = cli_now() - t0;
	pk_match_score sc;
	match_score(&m, &sc);
	long w = sc.wins, d = sc.draws, l = sc.losses, n = w + d + l;
	double s = sc.score;
	if (json) {
		/* an infinite Elo (a score of 0 or 1) is no JSON number: null */
		char elo[3][16];
		double e[3] = { sc.elo, sc.elo_low, sc.elo_high };
		for (int i = 0; i < 3; i++)
			if (isfinite(e[i]))
				snprintf(elo[i], sizeof elo[i], "%.1f", e[i] + 0.0);   /* no "-0.0" */
			else
				strcpy(elo[i], "null");
		printf("{");
		if (m.variant)
			printf("\"variant\":\"%s\",", m.variant->key);
		printf("\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,\"elo\":%s,"
		       "\"elo_low\":%s,\"elo_high\":%s,\"seconds\":%.1f}\n", n, w, d, l, s, elo[0], elo[1], elo[2], secs);
	}
	else {
		if (m.variant)
			printf("%s\n", m.variant->name);
		printf("A: %s\nB: %s\n%ld games: A won %ld, drew %ld, lost %ld; score %.1f%%; Elo difference %+.0f "
		       "(95%%: %+.0f .. %+.0f); %.0f s\n", m.pl[0].spec, m.pl[1].spec, n, w, d, l, 100 * s, sc.elo,
		       sc.elo_low, sc.elo_high, secs);
	}
	if (!json && (m.pl[0].bk || m.pl[1].bk))
		printf("book moves played: A %ld, B %ld\n", m.book_moves[0], m.book_moves[1]);
	if (out) {
		cli_text txt;
		FILE *f = cli_text_begin(&txt);
		if (!f) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		for (int i = 0; i < m.ngames; i++) {
			const pk_match_game *g = &m.games[i];
			if (!atomic_load(&g->finished))
				continue;
			const pk_opening *o = &m.op[g->opening];
			char event[48];
			snprintf(event, sizeof event, "pdnkit match, game %d", i + 1);
			tag(f, "Event", event);
			tag(f, "Black", g->a_black ? m.pl[0].spec : m.pl[1].spec);
			tag(f, "White", g->a_black ? m.pl[1].spec : m.pl[0].spec);
			tag(f, "Result", result_string(g->result));
			tag(f, "Opening", o->text);
			tag(f, "Termination", g->reason);
			char fen[VAR_FEN_STRLEN];
			bool second = false;    /* the second mover moves first: "1... " */
			if (m.variant) {
				fprintf(f, "[GameType \"%d\"]\n", m.variant->gametype);
				vfen_format(&o->vstart, fen, sizeof fen);
				second = o->vstart.stm != m.variant->first;
			} else {
				fen_format(&o->start, fen, sizeof fen);
				second = o->start.stm == PK_WHITE;
			}
			fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s%s %s\n\n", fen, second ? "1... " : "",
				g->movetext ? g->movetext : "", result_string(g->result));
		}
		if (cli_text_commit(&txt, out) < 0) {
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	match_free_games(&m);
	free(op);
	book_free(m.pl[0].bk);
	book_free(m.pl[1].bk);
	egdb_free(m.pl[0].egdb);
	egdb_free(m.pl[1].egdb);
	poptFreeContext(ctx);
	free(a);
	free(b);
	free(openings);
	free(games_arg);
	free(conc);
	free(out);
	free(variant);
	return rc;
}
