/* pdnkit selfplay: the engine against itself from the deck's ballots and random plies,
 * games appended to a PDN file in batches, resumable and sharded, for training. */
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
#include "egdb_opts.h"
#include "proto/spec.h"
#include "match_cli.h"

/* selfplay's: the games of the batches before this one count too */
static long sp_before, sp_total;

static void show_selfplay_progress(void *ctx, int done, int gi)
{
	(void)ctx;
	(void)gi;
	if (!cli_stderr_is_tty())
		return;
	long all = sp_before + done;
	double secs = cli_now() - match_progress_t0;
	double eta = all > 0 ? secs * (double)(sp_total - all) / (double)all : 0;
	fprintf(stderr, "\rselfplay: %ld/%ld games, %.1f a second, ETA %d:%02d:%02d\033[K", all, sp_total,
		secs > 0 ? all / secs : 0.0, (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	match_progress_shown = true;
}


/* The rounds already played in a self-play file (resuming), its size in *n: a game
 * counts only when it is whole (its result written, every move replayed). A game cut
 * short at the end of the file (the program was killed while writing it) is cut off
 * the file and played again; *cut says how many such games were dropped. */
static long *rounds_in(const char *path, long *n, long *cut)
{
	*n = 0;
	*cut = 0;
	if (access(path, F_OK) != 0)
		return NULL;
	const char *files[] = { path };
	pk_source src = { .files = files, .nfiles = 1 };
	char err[400];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it)
		return NULL;
	long cap = 0, *v = NULL;
	long long tail = -1;   /* where the games cut short at the end begin */
	pk_game *g;
	pk_replay *rp;
	int got;
	while ((got = games_next(it, &g, &rp)) != GAMES_END && got != GAMES_FATAL) {
		if (got != GAMES_GAME)
			continue;
		const char *rt = game_tag(g, "Round");
		char *e;
		long r = rt ? strtol(rt, &e, 10) : 0;
		bool whole = rt && *e == 0 && r > 0 && rp->result_el >= 0 && rp->complete && g->findings.errors == 0 &&
			     (rp->supported || rp->variant_replayed);
		if (!whole) {
			if (tail < 0)
				tail = (long long)g->offset;
			(*cut)++;
			continue;
		}
		tail = -1;
		*cut = 0;
		if (*n == cap) {
			long *nv = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 1024));
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = r;
	}
	games_close(it);
	if (tail >= 0 && truncate(path, (off_t)tail) < 0) {
		cli_error("%s: cannot cut off the game cut short at its end: %s", path, strerror(errno));
		*cut = -1;
	}
	return v;
}

static bool has_round(const long *v, long n, long r)
{
	for (long i = 0; i < n; i++)
		if (v[i] == r)
			return true;
	return false;
}

/* pdnkit selfplay: games of the engine against itself for training data. */
int cmd_selfplay(int argc, const char **argv)
{
	char *games_arg = NULL, *conc = NULL, *out = NULL, *random_arg = NULL, *seed_arg = NULL, *shard = NULL,
	     *adjudicate = NULL, *openings = NULL, *variant = NULL, *at_arg = NULL;
	engine_args ea;
	engine_args_init(&ea);
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "The engine (default: --depth 6):", NULL },
		{ "games", 'n', POPT_ARG_STRING, &games_arg, 0, "games numbered 1..N in all (default 1000)", "N" },
		{ "random", 0, POPT_ARG_STRING, &random_arg, 0, "random plies after the three-move ballot (0-5, default 2)", "N" },
		{ "seed", 0, POPT_ARG_STRING, &seed_arg, 0, "seed of the random plies (default 1)", "S" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "games of another variant (name or GameType: international, russian, ...), played by the same search on its board, from every first move and reply (or --openings of that variant) and the random plies", "NAME" },
		{ "openings", 0, POPT_ARG_STRING, &openings, 0, "start from the positions of a PDN file instead of the ballots (each game's FEN and first moves; game g from the ((g - 1) mod N + 1)th, then its random plies)", "FILE" },
		{ "at-pieces", 0, POPT_ARG_STRING, &at_arg, 0, "with --openings: start from each game's first position of at most N pieces where the side to move has no capture (games without one left out), for games of the endings", "N" },
		{ "shard", 0, POPT_ARG_STRING, &shard, 0, "play only the games whose number is K modulo N (1 <= K <= N)", "K/N" },
		{ "concurrency", 'c', POPT_ARG_STRING, &conc, 0, "games played at once (default: one per core)", "N" },
		{ "adjudicate", 0, POPT_ARG_STRING, &adjudicate, 0, "end games at the exact value of these endgame databases (a variant's own with --variant; default: the default directory's)", "DIR|default|none" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "append the games here as PDN; the games already there are not played again", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_match m = { .progress = show_selfplay_progress, .stop = &cli_interrupted, .opening_per_game = true, .no_notes = true };
	m.ctx = &m;
	pk_opening *deck = NULL, *op = NULL;
	long *done = NULL, *ids = NULL, ndone = 0;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, NULL) < 0)
		goto out;
	if (!out) {
		cli_error("-o FILE is needed: the games are appended there (and a rerun resumes)");
		goto out;
	}
	long total = 1000, nconc = sysconf(_SC_NPROCESSORS_ONLN), random_plies = 2, k = 1, n = 1;
	unsigned long long seed = 1;
	if ((games_arg && cli_int(games_arg, 1, 100000000, "--games", &total)) ||
	    (conc && cli_int(conc, 1, 256, "--concurrency", &nconc)) ||
	    (random_arg && cli_int(random_arg, 0, 5, "--random", &random_plies)))
		goto out;
	if (seed_arg) {
		char *e;
		seed = strtoull(seed_arg, &e, 10);
		if (e == seed_arg || *e) {
			cli_error("--seed: '%s' is not a whole number", seed_arg);
			goto out;
		}
	}
	if (shard) {
		char extra;
		if (sscanf(shard, "%ld/%ld%c", &k, &n, &extra) != 2 || n < 1 || k < 1 || k > n) {
			cli_error("--shard must be K/N with 1 <= K <= N, not '%s'", shard);
			goto out;
		}
	}
	const pk_variant *v = NULL;
	if (variant) {
		v = variant_by_name(variant);
		if (!v || !v->replayable) {
			cli_error("--variant: '%s' is no variant pdnkit plays (international, russian, brazilian, ...)", variant);
			goto out;
		}
		if (v->gametype == 21)
			v = NULL;   /* English draughts: the default */
	}
	m.variant = v;
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level)
		ea.depth = strdup("6");
	/* both sides the same engine, without the book: the openings vary by themselves */
	char spec[1024];
	size_t sl = 0;
	const struct { const char *opt, *val; } given[] = {
		{ "--depth", ea.depth }, { "--nodes", ea.nodes }, { "--movetime", ea.movetime }, { "--level", ea.level },
		{ "--hash", ea.hash }, { "--weights", ea.weights }, { "--patterns", ea.patterns },
		{ "--features", ea.features }, { "--egdb", ea.egdb },
	};
	for (size_t i = 0; i < sizeof given / sizeof given[0]; i++)
		if (given[i].val && sl < sizeof spec)
			sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%s%s %s", sl ? " " : "", given[i].opt, given[i].val);
	if (sl >= sizeof spec - 16) {
		cli_error("the engine options are too long");
		goto out;
	}
	if (!v)
		snprintf(spec + sl, sizeof spec - sl, " --book none");
	for (int i = 0; i < 2; i++) {
		m.pl[i].spec = spec;
		snprintf(m.pl[i].name, sizeof m.pl[i].name, "pdnkit %.150s", spec);
		if (match_parse_player("the engine", spec, v, false, &m.pl[i]) < 0)
			goto out;
	}
	bool failed = false;
	if (v)
		failed = match_vadjudicate_option(adjudicate, v, &m.vadjudicate) < 0;
	else if (adjudicate && !strcmp(adjudicate, "default"))
		m.adjudicate = egdb_use_option(NULL, true, &failed);
	else if (!adjudicate || strcmp(adjudicate, "none"))
		m.adjudicate = egdb_use_option(adjudicate, adjudicate == NULL, &failed);
	if (failed)
		goto out;
	rc = EXIT_RUNTIME;
	long at_pieces = 0;
	if (at_arg && (!openings || cli_int(at_arg, 2, v ? variant_squares(v) : 32, "--at-pieces", &at_pieces))) {
		if (!openings)
			cli_error("--at-pieces picks a position of each game of --openings FILE: give --openings too");
		rc = EXIT_USAGE;
		goto out;
	}
	int nd = openings ? match_openings_file(openings, v, (int)at_pieces, &deck) : v ? match_vopenings(v, &deck) : match_ballots(&deck);
	if (openings && nd == 0) {
		if (at_pieces)
			cli_error("no %s game in '%s' reaches %ld pieces or fewer with no capture to make", v ? v->name : "English",
				  openings, at_pieces);
		else
			cli_error("no usable %s position in '%s'", v ? v->name : "English", openings);
		rc = EXIT_USAGE;
		goto out;
	}
	if (nd < 0)
		goto out;
	long cut = 0;
	done = rounds_in(out, &ndone, &cut);
	if (cut < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (cut > 0)
		fprintf(stderr, "selfplay: %ld game%s cut short at the end of %s dropped (played again)\n", cut,
			cut == 1 ? "" : "s", out);
	long todo = 0;
	for (long g = k; g <= total; g += n)
		todo += !has_round(done, ndone, g);
	if (todo == 0) {
		printf("selfplay: all %ld games of this shard are in %s already\n", (total - k) / n + 1, out);
		rc = EXIT_OK;
		goto out;
	}
	if (nd <= 0 || !(op = calloc((size_t)todo, sizeof *op)) || !(ids = calloc((size_t)todo, sizeof *ids))) {
		cli_error("out of memory");
		goto out;
	}
	long t = 0;
	for (long g = k; g <= total; g += n) {
		if (has_round(done, ndone, g))
			continue;
		/* game g: ballot (or opening) (g - 1) modulo their number, then its own random
		 * plies (an opening that leaves no legal move gives way to the next) */
		uint64_t s = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)g;
		for (int tries = 0; v ? !match_vrandomize(v, &deck[(g - 1 + tries) % nd], (int)random_plies, s + (uint64_t)tries, &op[t])
				       : !match_randomize(&deck[(g - 1 + tries) % nd], (int)random_plies, s + (uint64_t)tries, &op[t]);
		     tries++)
			;
		ids[t++] = g;
	}
	if (ndone)
		fprintf(stderr, "selfplay: %ld games in %s already; %ld to play\n", ndone, out, todo);
	match_progress_t0 = cli_now();
	cli_catch_signals(true);
	/* In batches, each appended when it is done: a run killed outright loses at most
	 * the batch in play. */
	long w = 0, d = 0, l = 0, played = 0;
	const long batch = nconc * 250;
	for (long from = 0; from < todo && !cli_interrupted; from += batch) {
		long nb = todo - from < batch ? todo - from : batch;
		sp_before = from;
		sp_total = todo;
		match_free_games(&m);
		m.op = op + from;
		m.nop = (int)nb;
		if (match_run(&m, (int)nb, (int)nconc) < 0) {
			match_clear_progress();
			cli_error("out of memory");
			goto out;
		}
		match_clear_progress();
		if (match_write_games(&m, out, "pdnkit selfplay", ids + from, true) < 0)
			goto out;
		for (int i = 0; i < m.ngames; i++) {
			if (!atomic_load(&m.games[i].finished))
				continue;
			int r = m.games[i].result;
			w += r == RES_BLACK_WINS;
			d += r == RES_DRAW;
			l += r == RES_WHITE_WINS;
			played++;
		}
	}
	printf("selfplay: %ld games played (%s won %ld, drew %ld, lost %ld) in %.0f s, appended to %s%s\n",
	       played, v ? "the first mover" : "Black", w, d, l, cli_now() - match_progress_t0, out,
	       cli_interrupted ? "; interrupted: the finished games are kept, a rerun plays the rest" : "");
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	match_free_games(&m);
	free(op);
	free(deck);
	free(done);
	free(ids);
	book_free(m.pl[0].bk);
	book_free(m.pl[1].bk);
	egdb_free(m.pl[0].egdb);
	egdb_free(m.pl[1].egdb);
	egdb_free(m.adjudicate);
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(games_arg);
	free(conc);
	free(out);
	free(random_arg);
	free(seed_arg);
	free(shard);
	free(adjudicate);
	free(openings);
	free(at_arg);
	free(variant);
	return rc;
}
