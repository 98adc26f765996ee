/* pdnkit perft: leaf counts of the legal move tree, per root move with --divide. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "rules/fen.h"
#include "rules/perft.h"
#include "rules/variant.h"
#include "rules/vbits.h"

#define MAX_DEPTH 30

/* perft --variant: the general generator of rules/variant.c, or the bitboards' of
 * rules/vbits.c where its rules are those it takes (--generator). */
static int variant_perft(const char *name, const char *fen, int depth, bool divide, bool json, const char *gen)
{
	const pk_variant *v;
	pk_vpos p;
	if (cli_variant_position(name, fen, &v, &p) < 0)
		return EXIT_USAGE;
	bool bits;
	if (!gen || strcmp(gen, "auto") == 0) {
		bits = vbits_gen_supported(v);
	} else if (strcmp(gen, "mailbox") == 0) {
		bits = false;
	} else if (strcmp(gen, "bitboards") == 0) {
		if (!vbits_gen_supported(v)) {
			cli_error("--generator bitboards: no bitboard generator for %s (the general one plays it: --generator mailbox)",
				  v->name);
			return EXIT_USAGE;
		}
		bits = true;
	} else {
		cli_error("--generator: '%s' is not one of auto, mailbox, bitboards", gen);
		return EXIT_USAGE;
	}
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	double t0 = cli_now();
	int n = vgen(&p, ml);
	uint64_t total = 0, *counts = calloc((size_t)n + 1, sizeof *counts);
	if (!counts) {
		free(ml);
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	if (depth == 0)
		total = 1;
	for (int i = 0; i < n && depth > 0; i++) {
		pk_vpos c;
		vmake(&p, &ml->m[i], &c);
		if (bits) {
			pk_vbits b;
			vbits_of(&c, &b);
			counts[i] = vbits_perft(v, &b, c.stm, depth - 1);
		} else {
			counts[i] = vperft(&c, depth - 1);
		}
		total += counts[i];
	}
	double secs = cli_now() - t0;
	char fenbuf[600], mv[160];
	vfen_format(&p, fenbuf, sizeof fenbuf);
	if (json) {
		printf("{\"variant\":\"%s\",\"gametype\":%d,\"fen\":", v->key, v->gametype);
		json_string(stdout, fenbuf);
		printf(",\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f,\"generator\":\"%s\"", depth, (unsigned long long)total,
		       secs, bits ? "bitboards" : "mailbox");
		if (divide) {
			printf(",\"divide\":[");
			for (int i = 0; i < n && depth > 0; i++) {
				vmove_text(v, &ml->m[i], true, mv, sizeof mv);
				printf("%s{\"move\":\"%s\",\"nodes\":%llu}", i ? "," : "", mv, (unsigned long long)counts[i]);
			}
			printf("]");
		}
		printf("}\n");
	} else {
		for (int i = 0; divide && depth > 0 && i < n; i++) {
			vmove_text(v, &ml->m[i], true, mv, sizeof mv);
			printf("%3d  %-12s  %llu\n", i, mv, (unsigned long long)counts[i]);
		}
		printf("perft(%d) = %llu  (%s, %.3f s, %.1f M nodes/s, %s)\n", depth, (unsigned long long)total, v->name, secs,
		       secs > 0 ? (double)total / secs / 1e6 : 0.0, bits ? "bitboards" : "mailbox");
	}
	free(counts);
	free(ml);
	return EXIT_OK;
}

int cmd_perft(int argc, const char **argv)
{
	char *fen = NULL, *threads_arg = NULL, *variant = NULL, *gen = NULL;
	int divide = 0, unique = 0, json = 0;
	struct poptOption opts[] = {
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "start from this position instead of the initial one", "FEN" },
		{ "divide", 0, POPT_ARG_NONE, &divide, 0, "print the count under each root move, in generator order", NULL },
		{ "unique", 'u', POPT_ARG_NONE, &unique, 0, "count moves of identical effect once (default: every capture path)", NULL },
		{ "threads", 0, POPT_ARG_STRING, &threads_arg, 0, "share the work among N threads (0 = one per core)", "N" },
		{ "variant", 'v', POPT_ARG_STRING, &variant, 0,
		  "count with the general generator of this variant (name or PDN GameType: international, russian, 25, ...; one thread)", "NAME" },
		{ "generator", 0, POPT_ARG_STRING, &gen, 0,
		  "with --variant: auto (the bitboards' where they play the variant's rules: International, Brazilian), mailbox (the general one) or bitboards", "GEN" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] DEPTH");
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;

	int nargs;
	const char **args = cli_args(ctx, &nargs);
	long depth = 0, threads = 1;
	rc = EXIT_USAGE;
	if (nargs != 1) {
		cli_error(nargs ? "expected one DEPTH, got %d arguments" : "missing DEPTH%.0d", nargs);
		fprintf(stderr, "Try 'pdnkit perft --help' for more information.\n");
		goto out;
	}
	if (cli_int(args[0], 0, MAX_DEPTH, "DEPTH", &depth) ||
	    (threads_arg && cli_int(threads_arg, 0, 256, "--threads", &threads)))
		goto out;
	if (threads == 0)
		threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (gen && !variant) {
		cli_error("--generator chooses between the other variants' generators: give --variant too (English counts on its bitboards)");
		goto out;
	}
	if (variant) {
		rc = variant_perft(variant, fen, (int)depth, divide, json, gen);
		goto out;
	}

	pk_pos pos;
	if (fen) {
		pk_fen_error err;
		if (fen_parse(fen, strlen(fen), &pos, &err) < 0) {
			cli_error("bad FEN at column %zu: %s", err.offset + 1, err.msg);
			goto out;
		}
	} else {
		pos_start(&pos);
	}

	pk_movelist *roots = malloc(sizeof *roots);
	uint64_t *counts = malloc(sizeof *counts * PK_MAX_MOVES);
	if (!roots || !counts) {
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		free(roots);
		free(counts);
		goto out;
	}
	double t0 = cli_now();
	uint64_t nodes = perft_divide(&pos, (int)depth, unique, (int)threads, roots, counts);
	double secs = cli_now() - t0;
	if (nodes == UINT64_MAX) {
		cli_error("cannot start the counting threads");
		rc = EXIT_RUNTIME;
		free(roots);
		free(counts);
		goto out;
	}
	double rate = secs > 0 ? (double)nodes / secs : 0;
	char mv[PK_MOVE_STRLEN], fenbuf[PK_FEN_STRLEN];
	fen_format(&pos, fenbuf, sizeof fenbuf);

	if (json) {
		printf("{\"fen\":");
		json_string(stdout, fenbuf);
		printf(",\"depth\":%ld,\"unique\":%s,\"threads\":%ld,\"nodes\":%llu,\"seconds\":%.6f,"
		       "\"nodes_per_second\":%.0f",
		       depth, unique ? "true" : "false", threads, (unsigned long long)nodes, secs, rate);
		if (divide) {
			printf(",\"divide\":[");
			for (int i = 0; i < roots->n && depth > 0; i++) {
				move_format(&roots->m[i], true, mv, sizeof mv);
				printf("%s{\"ordinal\":%d,\"move\":\"%s\",\"nodes\":%llu}", i ? "," : "", i, mv,
				       (unsigned long long)counts[i]);
			}
			printf("]");
		}
		printf("}\n");
	} else {
		int width = 5;
		for (int i = 0; divide && i < roots->n; i++) {
			int w = move_format(&roots->m[i], true, mv, sizeof mv);
			width = w > width ? w : width;
		}
		if (divide && depth > 0)
			for (int i = 0; i < roots->n; i++) {
				move_format(&roots->m[i], true, mv, sizeof mv);
				printf("%3d  %-*s  %llu\n", i, width, mv, (unsigned long long)counts[i]);
			}
		printf("perft(%ld) = %llu  (%.3f s, %.1f M nodes/s, %ld thread%s%s)\n", depth,
		       (unsigned long long)nodes, secs, rate / 1e6, threads, threads > 1 ? "s" : "",
		       unique ? ", unique moves" : "");
	}
	rc = EXIT_OK;
	free(roots);
	free(counts);
out:
	poptFreeContext(ctx);
	free(fen);
	free(gen);
	free(threads_arg);
	free(variant);
	return rc;
}
