/* pdnkit book dump and stats: a book's whole tree, and what it holds and costs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "analysis/expand.h"
#include "book/book.h"
#include "store/games.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

#include "book_cmd.h"

/* ---- dump ------------------------------------------------------------------------- */

static int dump_text_line(const char *num, const char *mv, uint32_t games, uint32_t bw, uint32_t dr, uint32_t ww,
			  int score, int ply, bool transposes)
{
	char s[32];
	book_score_text(score, s, sizeof s);
	printf("%*s%s %s  %u games (%u-%u-%u)%s%s%s\n", 2 * ply, "", num, mv, games, bw, dr, ww,
	       score != BOOK_NO_SCORE ? "  " : "", score != BOOK_NO_SCORE ? s : "",
	       transposes ? "  (transposes: continued above)" : "");
	return ferror(stdout) ? -1 : 0;
}

static int dump_text_enter(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	(void)ctx;
	char mv[PK_MOVE_STRLEN], num[24];
	pdn_move_string(before, &m->move, false, mv);
	movenum_token(movenum_at(1, before->stm ^ (ply & 1), ply), before->stm, true, num, sizeof num);
	return dump_text_line(num, mv, m->games, m->black_wins, m->draws, m->white_wins, m->score, ply, transposes);
}

static int dump_text_venter(void *ctx, const pk_vpos *before, const pk_book_vmove *m, int ply, bool transposes)
{
	(void)ctx;
	char mv[VAR_FEN_STRLEN], num[24];
	int opener = before->v->first, root_stm = before->stm ^ (ply & 1);
	vmove_text(before->v, &m->move, false, mv, sizeof mv);
	movenum_token_as(1 + (ply + (root_stm != opener)) / 2, before->stm == opener, true, num, sizeof num);
	return dump_text_line(num, mv, m->games, m->black_wins, m->draws, m->white_wins, m->score, ply, transposes);
}

int book_dump(int argc, const char **argv)
{
	char *format = NULL;
	struct poptOption opts[] = {
		{ "format", 0, POPT_ARG_STRING, &format, 0, "text (indented, the default) or pdn (one game with variations)", "FMT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.book");
	int rc = cli_parse_options(ctx, opts);
	pk_book *bk = NULL;
	if (rc)
		goto out;
	bool pdn = false;
	if (format && !strcmp(format, "pdn"))
		pdn = true;
	else if (format && strcmp(format, "text")) {
		cli_error("--format must be text or pdn, not '%s'", format);
		rc = EXIT_USAGE;
		goto out;
	}
	const char *path;
	if (!(bk = book_open_arg(ctx, &path))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (pdn) {
		char event[600];
		snprintf(event, sizeof event, "opening book %s", path);
		rc = book_write_pdn(bk, event, cli_sink_file, stdout);
	} else {
		rc = book_variant(bk) ? book_vwalk(bk, dump_text_venter, NULL) : book_walk(bk, dump_text_enter, NULL);
	}
	if (fflush(stdout) != 0 || rc < 0) {
		cli_error("cannot write the dump to standard output");
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	poptFreeContext(ctx);
	free(format);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- stats ------------------------------------------------------------------------ */

/* For --measure: every position with book moves (English in pos, another variant in
 * vpos, with its key in vkey), and the text dump in memory. */
typedef struct {
	pk_vpos p;
	uint64_t key;
} vmeasured;

typedef struct {
	pk_pos *pos;
	vmeasured *vpos;
	size_t n, cap;
	char *text;
	size_t len, tcap;
	bool oom;
} measure_ctx;

static void text_add(measure_ctx *m, const char *s, size_t n)
{
	if (m->len + n + 1 > m->tcap) {
		size_t cap = m->tcap ? m->tcap * 2 : 1 << 20;
		while (cap < m->len + n + 1)
			cap *= 2;
		char *nt = realloc(m->text, cap);
		if (!nt) {
			m->oom = true;
			return;
		}
		m->text = nt;
		m->tcap = cap;
	}
	memcpy(m->text + m->len, s, n);
	m->len += n;
}

/* One book move: its position (once per run of moves from it; duplicates are removed
 * later) and the content as text, the indented dump's lines. */
static int measure_add(measure_ctx *mc, const pk_pos *pos, const pk_vpos *vpos, const char *mv, uint32_t games,
		       uint32_t bw, uint32_t dr, uint32_t ww, int ply, bool transposes)
{
	uint64_t key = pos ? pos->key : vpos_state_key(vpos);
	uint64_t last = mc->n == 0 ? 0 : pos ? mc->pos[mc->n - 1].key : mc->vpos[mc->n - 1].key;
	if (mc->n == 0 || last != key) {     /* duplicates are removed later */
		if (mc->n == mc->cap) {
			size_t cap = mc->cap ? mc->cap * 2 : 4096;
			if (pos) {
				pk_pos *np = realloc(mc->pos, sizeof *np * cap);
				if (!np)
					return -1;
				mc->pos = np;
			} else {
				vmeasured *np = realloc(mc->vpos, sizeof *np * cap);
				if (!np)
					return -1;
				mc->vpos = np;
			}
			mc->cap = cap;
		}
		if (pos)
			mc->pos[mc->n++] = *pos;
		else
			mc->vpos[mc->n++] = (vmeasured){ *vpos, key };
	}
	/* the content as text: the indented dump's lines */
	char line[VAR_FEN_STRLEN];
	int n = snprintf(line, sizeof line, "%*s%s %u %u %u %u%s\n", ply, "", mv, games, bw, dr, ww, transposes ? " t" : "");
	text_add(mc, line, (size_t)n);
	return mc->oom ? -1 : 0;
}

static int measure_enter(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	char mv[PK_MOVE_STRLEN];
	pdn_move_string(before, &m->move, false, mv);
	return measure_add(ctx, before, NULL, mv, m->games, m->black_wins, m->draws, m->white_wins, ply, transposes);
}

static int measure_venter(void *ctx, const pk_vpos *before, const pk_book_vmove *m, int ply, bool transposes)
{
	char mv[VAR_FEN_STRLEN];
	vmove_text(before->v, &m->move, false, mv, sizeof mv);
	return measure_add(ctx, NULL, before, mv, m->games, m->black_wins, m->draws, m->white_wins, ply, transposes);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const pk_pos *)a)->key, y = ((const pk_pos *)b)->key;
	return x < y ? -1 : x > y;
}

static int by_vkey(const void *a, const void *b)
{
	uint64_t x = ((const vmeasured *)a)->key, y = ((const vmeasured *)b)->key;
	return x < y ? -1 : x > y;
}

int book_stats(int argc, const char **argv)
{
	int json = 0, measure = 0;
	struct poptOption opts[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "one JSON object", NULL },
		{ "measure", 0, POPT_ARG_NONE, &measure, 0, "time a probe of every position, and compare with the content as zstd-compressed text", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.book");
	int rc = cli_parse_options(ctx, opts);
	pk_book *bk = NULL;
	if (rc)
		goto out;
	const char *path;
	double t0 = cli_now();
	if (!(bk = book_open_arg(ctx, &path))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	double load = cli_now() - t0;
	pk_book_info in;
	book_info(bk, &in);
	if (!measure || !json)
		book_print_info(&in, json, -1, -1);
	if (!json)
		printf("load          %.3f s (checked and decoded)\n", load);
	if (measure) {
		measure_ctx mc = { 0 };
		bool var = book_variant(bk) != NULL;
		if ((var ? book_vwalk(bk, measure_venter, &mc) : book_walk(bk, measure_enter, &mc)) < 0 || mc.oom) {
			cli_error("out of memory");
			free(mc.pos);
			free(mc.vpos);
			free(mc.text);
			rc = EXIT_RUNTIME;
			goto out;
		}
		/* probes: every position with moves once, several rounds */
		size_t u = 0;
		if (var) {
			qsort(mc.vpos, mc.n, sizeof *mc.vpos, by_vkey);
			for (size_t i = 0; i < mc.n; i++)
				if (u == 0 || mc.vpos[u - 1].key != mc.vpos[i].key)
					mc.vpos[u++] = mc.vpos[i];
		} else {
			qsort(mc.pos, mc.n, sizeof *mc.pos, by_key);
			for (size_t i = 0; i < mc.n; i++)
				if (u == 0 || mc.pos[u - 1].key != mc.pos[i].key)
					mc.pos[u++] = mc.pos[i];
		}
		mc.n = u;
		pk_book_move mv[PK_MAX_MOVES];
		pk_book_vmove *vmv = malloc(sizeof *vmv * 256);
		long found = 0;
		int rounds = mc.n < 100000 ? 5 : 1;
		double t1 = cli_now();
		for (int r = 0; r < rounds; r++)
			for (size_t i = 0; i < mc.n; i++)
				found += (var ? vmv && book_vprobe(bk, &mc.vpos[i].p, vmv, 256) > 0
					      : book_probe(bk, &mc.pos[i], mv, PK_MAX_MOVES) > 0);
		free(vmv);
		double us = mc.n ? (cli_now() - t1) * 1e6 / ((double)mc.n * rounds) : 0;
		size_t z = zio_compressed_size(mc.text, mc.len, 19);
		double zbpm = in.moves ? 8.0 * (double)z / (double)in.moves : 0;
		double fbpm = in.moves ? 8.0 * (double)(in.tree_bytes + in.stats_bytes) / (double)in.moves : 0;
		if (json)
			printf("{\"positions\":%ld,\"moves\":%ld,\"bytes\":%zu,\"bits_per_move\":%.3f,\"stats_bits_per_move\":%.3f,"
			       "\"probe_us\":%.3f,\"probes\":%zu,\"load_seconds\":%.3f,\"text_bytes\":%zu,\"text_zstd_bytes\":%zu,"
			       "\"text_zstd_bits_per_move\":%.3f,\"book_bits_per_move\":%.3f}\n",
			       in.positions, in.moves, in.bytes, in.moves ? 8.0 * (double)in.tree_bytes / (double)in.moves : 0,
			       in.moves ? 8.0 * (double)in.stats_bytes / (double)in.moves : 0, us, mc.n, load, mc.len, z, zbpm,
			       fbpm);
		else {
			printf("probe         %.3f us a position (%zu positions with moves, %d round%s; %ld found)\n", us, mc.n,
			       rounds, rounds > 1 ? "s" : "", found);
			printf("as text       %zu bytes (the indented dump: move, games, results); zstd -19: %zu bytes =\n"
			       "              %.2f bits a move for tree and statistics together, against %.2f in this file\n",
			       mc.len, z, zbpm, fbpm);
		}
		free(mc.pos);
		free(mc.vpos);
		free(mc.text);
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	poptFreeContext(ctx);
	return rc < 0 ? EXIT_OK : rc;
}

