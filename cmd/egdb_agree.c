/* pdnkit egdb agree: the engine's judgement against the databases' exact values. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "egdb/check.h"
#include "egdb/egdb.h"
#include "egdb_cmd.h"
#include "egdb_opts.h"
#include "engine_opts.h"
#include "rules/gen.h"
#include "store/games.h"

/* How the engine's judgement agrees with the databases: random quiet positions they
 * hold, each classed by the evaluation (or a search without the databases) as a win,
 * a draw or a loss for the side to move, against their exact value. */
int egdb_agree_cmd(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	char *n_arg = NULL, *pieces_arg = NULL, *seed_arg = NULL, *margin_arg = NULL;
	int from_games = 0;
	int json = 0, even = 0;
	struct poptOption opts[] = {
		{ "from", 0, POPT_ARG_NONE, &from_games, 0, "the positions of the games of the FILEs that the databases hold (each once), not random ones", NULL },
		{ "positions", 'n', POPT_ARG_STRING, &n_arg, 0, "positions to draw (default 10000)", "N" },
		{ "pieces", 0, POPT_ARG_STRING, &pieces_arg, 0, "at most this many pieces (default: the most the databases hold)", "N" },
		{ "seed", 0, POPT_ARG_STRING, &seed_arg, 0, "the draw of positions (default 1)", "N" },
		{ "even", 0, POPT_ARG_NONE, &even, 0, "as many pieces on each side (4 or 6; the men and kings drawn at random)", NULL },
		{ "margin", 0, POPT_ARG_STRING, &margin_arg, 0, "a score beyond +-M hundredths of a man is a win or a loss, within it a draw (default 50)", "M" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "The engine (--egdb: the databases to compare with; the engine does not probe them; no limit: the static evaluation):", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "the figures as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [--from FILE...]");
	int rc = cli_parse_options(ctx, opts);
	pk_egdb *db = NULL;
	pk_engine *e = NULL;
	pk_games *it = NULL;
	uint64_t *seen = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	long npos = 10000, maxp = 0, seedv = 1, margin = 50;
	int nfiles = 0;
	const char **files = from_games ? cli_args(ctx, &nfiles) : NULL;
	if (from_games && (nfiles == 0 || even || seed_arg)) {
		cli_error("--from takes PDN files, and neither --even nor --seed");
		goto out;
	}
	if (!from_games && cli_no_args(ctx, NULL) < 0)
		goto out;
	if ((n_arg && cli_int(n_arg, 1, 100000000, "--positions", &npos)) ||
	    (pieces_arg && cli_int(pieces_arg, 3, 24, "--pieces", &maxp)) || (seed_arg && cli_int(seed_arg, 0, 1000000000000L, "--seed", &seedv)) ||
	    (margin_arg && cli_int(margin_arg, 0, 10000, "--margin", &margin)))
		goto out;
	pk_limits lim;
	bool search = ea.depth || ea.nodes || ea.movetime || ea.level;
	if (engine_args_resolve(&ea, &lim))
		goto out;
	pk_weights w;
	if (engine_weights(&ea, &w) < 0)
		goto out;
	rc = EXIT_RUNTIME;
	if (ea.egdb && !strcmp(ea.egdb, "none")) {
		cli_error("--egdb none: there is nothing to compare with");
		rc = EXIT_USAGE;
		goto out;
	}
	if (!(db = egdb_open_option(ea.egdb)))
		goto out;
	int dbp = egdb_pieces(db);
	if (dbp < 3) {
		cli_error("the databases hold fewer than 3 pieces: nothing to measure");
		goto out;
	}
	if (!maxp || maxp > dbp)
		maxp = dbp;
	if (even && maxp < 4) {
		cli_error("--even needs databases of 4 pieces or more");
		goto out;
	}
	if (search && !(e = engine_new(16, &w))) {
		cli_error("out of memory");
		goto out;
	}
	/* table[true][guess]: value and guess 0 loss, 1 draw, 2 win */
	long table[3][3] = { { 0 } }, drawn = 0;
	uint64_t seed = (uint64_t)seedv;
	double t0 = cli_now();
	cli_catch_signals(true);
	/* --from: the games' positions, each once (a table of keys, open addressing) */
	size_t seen_cap = 1 << 20, seen_n = 0;
	pk_replay *rp = NULL;
	int ply = 0;
	if (from_games) {
		pk_source src = { .files = files, .nfiles = nfiles, .stop = &cli_interrupted };
		char err[600];
		if (!(it = games_open(&src, err, sizeof err))) {
			cli_error("%s", err);
			goto out;
		}
		if (!(seen = calloc(seen_cap, sizeof *seen))) {
			cli_error("out of memory");
			goto out;
		}
	}
	for (long i = 0; i < npos && !cli_interrupted;) {
		pk_pos p;
		if (from_games) {
			if (!rp || ply >= rp->nply) {
				pk_game *g;
				int got = games_next(it, &g, &rp);
				if (got == GAMES_END)
					break;
				if (got == GAMES_ERROR || got == GAMES_FATAL) {
					cli_error("%s", got == GAMES_ERROR ? games_error(it) : "out of memory");
					goto out;
				}
				ply = 0;
				if (!rp || !rp->supported)
					rp = NULL;
				continue;
			}
			p = rp->plies[ply++].after;
			pk_movelist ml;
			if (bb_count(p.side[0] | p.side[1]) > maxp || gen_has_capture(&p) || gen_moves(&p, &ml) == 0)
				continue;
			size_t h = (size_t)(p.key * 0x9E3779B97F4A7C15ull >> 40) & (seen_cap - 1);
			while (seen[h] && seen[h] != (p.key | 1))
				h = (h + 1) & (seen_cap - 1);
			if (seen[h])
				continue;
			if (seen_n * 2 >= seen_cap)
				continue;       /* a million positions measured: enough */
			seen[h] = p.key | 1;
			seen_n++;
		} else {
		int n = even ? 4 + 2 * (int)(egdb_rng(&seed) % (uint64_t)((maxp - 2) / 2)) : 3 + (int)(egdb_rng(&seed) % (uint64_t)(maxp - 2));
		drawn++;
		if (drawn > 1000 * npos + 1000000)
			break;
		if (!egdb_random_quiet(&seed, n, even, &p))
			continue;
		}
		pk_egdb_result r;
		if (egdb_probe(db, &p, &r) != EGDB_FOUND)
			continue;
		int v;
		if (e) {
			pk_result res;
			if (engine_search(e, &p, NULL, &lim, &cli_interrupted, NULL, NULL, &res) < 0)
				break;
			v = res.last.score;
		} else {
			v = eval(&p, &w);
		}
		int guess = v > margin ? 2 : v < -margin ? 0 : 1;
		table[r.value + 1][guess]++;
		i++;
	}
	long total = 0, right = 0, of[3] = { 0, 0, 0 };
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++) {
			total += table[a][b];
			of[a] += table[a][b];
			right += a == b ? table[a][b] : 0;
		}
	if (!total) {
		cli_error("no position drawn was held by the databases");
		goto out;
	}
	static const char *const name[3] = { "loss", "draw", "win" };
	if (json) {
		printf("{\"positions\":%ld,\"pieces\":%ld,\"even\":%s,\"margin\":%ld,\"search\":%s,\"agree\":%.4f", total, maxp,
		       even ? "true" : "false", margin, search ? "true" : "false", (double)right / (double)total);
		for (int a = 0; a < 3; a++)
			printf(",\"%s\":{\"positions\":%ld,\"loss\":%ld,\"draw\":%ld,\"win\":%ld}", name[a], of[a], table[a][0],
			       table[a][1], table[a][2]);
		printf(",\"seconds\":%.1f}\n", cli_now() - t0);
	} else {
		printf("%ld quiet positions of %s%ld pieces%s held by the databases; the %s of the side to move, "
		       "beyond +-%ld a win or a loss:\n", total, from_games ? "the games, up to " : even ? "4 to " : "3 to ", maxp,
		       even ? " (as many on each side)" : "", search ? "search's score" : "evaluation", margin);
		printf("agrees with the databases on %.1f%%\n", 100.0 * (double)right / (double)total);
		printf("%-10s %9s %9s %9s %9s\n", "value", "positions", "as loss", "as draw", "as win");
		for (int a = 0; a < 3; a++)
			printf("%-10s %9ld %8.1f%% %8.1f%% %8.1f%%\n", name[a], of[a],
			       of[a] ? 100.0 * (double)table[a][0] / (double)of[a] : 0.0,
			       of[a] ? 100.0 * (double)table[a][1] / (double)of[a] : 0.0,
			       of[a] ? 100.0 * (double)table[a][2] / (double)of[a] : 0.0);
	}
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	engine_free(e);
	egdb_free(db);
	games_close(it);
	free(seen);
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(n_arg);
	free(pieces_arg);
	free(seed_arg);
	free(margin_arg);
	return rc;
}
