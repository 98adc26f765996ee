/* pdnkit bench: a fixed set of positions searched to fixed depths. The total node count
 * is a signature of search behaviour: it changes only when the search or the evaluation
 * does. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "engine_opts.h"
#include "engine/vsearch.h"
#include "rules/fen.h"

static const struct {
	const char *name, *fen;
	int depth;
} positions[] = {
	{ "initial position", "B:W21-32:B1-12", 17 },
	{ "1981 game 37 after 10 moves", "B:W5,18,21,22,23,24,25,26,29,31:B1,2,3,4,6,7,8,11,12,20,27", 19 },
	{ "a middle game", "W:W13,17,18,21,22,23,25,26,29,30,31:B1,2,3,4,6,8,9,10,11,14,15,16", 19 },
	{ "kings and men", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", 17 },
	{ "two kings against one", "W:WK32,K29:BK1", 20 },
	{ "a late ending", "B:W20,26,K10:B1,3,K27", 17 },
};

/* The variants' bench (--variant): positions of International draughts, searched by the
 * same search on the mailbox board. */
static const struct {
	const char *name, *fen;
	int depth;
} vpositions[] = {
	{ "initial position", "W:W31-50:B1-20", 11 },
	{ "the deck's first opening", "B:W17,31,33-50:B1-16,18-20", 11 },
	{ "a middle game", "W:W24,27,28,30,31,32,33,34,36,37,38,39,40,41,43,45:B3,6,7,8,9,11,12,13,14,15,16,18,19,20,21,23", 10 },
	{ "kings and men", "W:W28,33,39,K46:B12,17,22,K5", 10 },
};

static int bench_variant(const char *name, size_t mb, const pk_features *f, int nthreads, bool json)
{
	const pk_variant *v = variant_by_name(name);
	if (!v || v->gametype == 21 || !v->replayable) {
		cli_error("--variant: '%s' is no other variant pdnkit plays (the English bench is the default)", name);
		return EXIT_USAGE;
	}
	if (v->gametype != 20) {
		cli_error("--variant: the variants' bench has International draughts' positions only");
		return EXIT_USAGE;
	}
	pk_vengine *e = vengine_new(mb);
	if (!e || vengine_set_threads(e, nthreads) < 0) {
		cli_error("cannot allocate a %zu MB transposition table", mb);
		vengine_free(e);
		return EXIT_RUNTIME;
	}
	vengine_set_features(e, f);
	uint64_t total = 0;
	double secs = 0;
	if (json)
		printf("{\"variant\":\"%s\",\"positions\":[", v->key);
	for (size_t i = 0; i < sizeof vpositions / sizeof vpositions[0]; i++) {
		pk_vpos p;
		char err[200];
		if (vfen_parse(v, vpositions[i].fen, &p, err, sizeof err) < 0) {
			cli_error("bench position %zu: %s", i + 1, err);
			vengine_free(e);
			return EXIT_RUNTIME;
		}
		vengine_new_game(e);
		pk_limits lim = { .depth = vpositions[i].depth };
		pk_vresult r;
		vengine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
		char mv[96];
		vmove_text(v, &r.best, false, mv, sizeof mv);
		total += r.last.nodes;
		secs += r.last.seconds;
		if (json)
			printf("%s{\"name\":\"%s\",\"depth\":%d,\"nodes\":%llu,\"seconds\":%.3f,\"bestmove\":\"%s\",\"score\":%d}",
			       i ? "," : "", vpositions[i].name, vpositions[i].depth, (unsigned long long)r.last.nodes,
			       r.last.seconds, mv, r.last.score);
		else
			printf("%-30s depth %2d  %12llu nodes  %7.3f s  bestmove %-6s score %d\n", vpositions[i].name,
			       vpositions[i].depth, (unsigned long long)r.last.nodes, r.last.seconds, mv, r.last.score);
	}
	if (json)
		printf("],\"nodes\":%llu,\"seconds\":%.3f,\"nps\":%.0f}\n", (unsigned long long)total, secs,
		       secs > 0 ? (double)total / secs : 0);
	else
		printf("\n%s %llu nodes, %.3f s, %.0f nodes/s\n", nthreads > 1 ? "total (threads: no signature)" : "signature",
		       (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
	vengine_free(e);
	return EXIT_OK;
}

int cmd_bench(int argc, const char **argv)
{
	char *hash = NULL, *threads = NULL, *features = NULL, *variant = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "hash", 0, POPT_ARG_STRING, &hash, 0, "transposition table size in MB (default 64)", "MB" },
		{ "threads", 0, POPT_ARG_STRING, &threads, 0, "search with N threads (the node count is then no signature)", "N" },
		{ "features", 0, POPT_ARG_STRING, &features, 0, "search features changed from the defaults, e.g. \"lmr=0\"", "LIST" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "the bench of another variant's search (international)", "NAME" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_engine *e = NULL;
	if (rc)
		goto out;
	long mb = 64, nthreads = 1;
	if ((hash && cli_int(hash, 1, 65536, "--hash", &mb)) || (threads && cli_int(threads, 1, 64, "--threads", &nthreads))) {
		rc = EXIT_USAGE;
		goto out;
	}
	pk_features f;
	if (engine_features(&(engine_args){ .features = features }, &f) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (variant) {
		rc = bench_variant(variant, (size_t)mb, &f, (int)nthreads, json);
		goto out;
	}
	e = engine_new((size_t)mb, NULL);
	if (!e || engine_set_threads(e, (int)nthreads) < 0) {
		cli_error("cannot allocate a %ld MB transposition table", mb);
		rc = EXIT_RUNTIME;
		goto out;
	}
	engine_set_features(e, &f);
	uint64_t total = 0;
	double secs = 0;
	if (json)
		printf("{\"positions\":[");
	for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
		pk_pos p;
		pk_fen_error fe;
		if (fen_parse(positions[i].fen, strlen(positions[i].fen), &p, &fe) < 0) {
			cli_error("bench position %zu: %s", i + 1, fe.msg);
			rc = EXIT_RUNTIME;
			goto out;
		}
		engine_new_game(e);
		pk_limits lim = { .depth = positions[i].depth };
		pk_result r;
		engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
		char mv[PK_MOVE_STRLEN];
		move_format(&r.best, false, mv, sizeof mv);
		total += r.last.nodes;
		secs += r.last.seconds;
		if (json)
			printf("%s{\"name\":\"%s\",\"depth\":%d,\"nodes\":%llu,\"seconds\":%.3f,\"bestmove\":\"%s\",\"score\":%d}",
			       i ? "," : "", positions[i].name, positions[i].depth, (unsigned long long)r.last.nodes,
			       r.last.seconds, mv, r.last.score);
		else
			printf("%-30s depth %2d  %12llu nodes  %7.3f s  bestmove %-6s score %d\n", positions[i].name,
			       positions[i].depth, (unsigned long long)r.last.nodes, r.last.seconds, mv, r.last.score);
	}
	if (json)
		printf("],\"nodes\":%llu,\"seconds\":%.3f,\"nps\":%.0f}\n", (unsigned long long)total, secs,
		       secs > 0 ? (double)total / secs : 0);
	else
		printf("\n%s %llu nodes, %.3f s, %.0f nodes/s\n", nthreads > 1 ? "total (threads: no signature)" : "signature",
		       (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
	rc = EXIT_OK;
out:
	engine_free(e);
	poptFreeContext(ctx);
	free(hash);
	free(threads);
	free(features);
	free(variant);
	return rc;
}
