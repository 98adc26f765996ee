/* pdnkit analyze --variant: the search of the other variants (engine/vsearch), with the
 * same output as English positions get. */
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "analyze.h"
#include "cli.h"
#include "engine_opts.h"
#include "dbcli.h"
#include "book/book.h"
#include "engine/vsearch.h"
#include "rules/pos.h"

typedef struct {
	bool json;
	const pk_vpos *root;
} vctx;

static void pv_print(const pk_vpos *root, const pk_vmove *pv, int n, bool json)
{
	pk_vpos p = *root;
	for (int i = 0; i < n; i++) {
		char mv[64];
		vmove_text(root->v, &pv[i], false, mv, sizeof mv);
		printf(json ? "%s\"%s\"" : "%s%s", json ? (i ? "," : "") : " ", mv);
		pk_vpos q;
		vmake(&p, &pv[i], &q);
		p = q;
	}
}

static void on_iteration(void *vc, const pk_viteration *it)
{
	vctx *c = vc;
	double nps = it->seconds > 0 ? (double)it->nodes / it->seconds : 0;
	if (c->json) {
		printf("{\"depth\":%d,\"score\":%d,\"nodes\":%llu,\"nps\":%.0f,\"seconds\":%.3f,\"pv\":[", it->depth, it->score,
		       (unsigned long long)it->nodes, nps, it->seconds);
		pv_print(c->root, it->pv, it->npv, true);
		printf("]}\n");
	} else {
		char s[32];
		analyze_score_text(it->score, s, sizeof s);
		printf("%3d %10s %12llu %9.0f k/s %8.2f s ", it->depth, s, (unsigned long long)it->nodes, nps / 1000,
		       it->seconds);
		pv_print(c->root, it->pv, it->npv, false);
		putchar('\n');
	}
	fflush(stdout);
}

/* In the book: its moves and its choice, printed as for English positions. */
static void book_answer(const pk_book *bk, const pk_vpos *root, bool json)
{
	pk_book_vmove *bm = malloc(sizeof *bm * 256);
	if (!bm)
		return;
	int nb = book_vprobe(bk, root, bm, 256);
	char mv[64];
	if (json)
		printf("{\"book\":[");
	for (int i = 0; i < nb; i++) {
		vmove_text(root->v, &bm[i].move, false, mv, sizeof mv);
		analyze_book_move(json, i, mv, bm[i].games, bm[i].black_wins, bm[i].draws, bm[i].white_wins, bm[i].score);
	}
	pk_vmove choice;
	book_vchoose(bk, root, &choice);
	vmove_text(root->v, &choice, false, mv, sizeof mv);
	if (json)
		printf("]}\n{\"variant\":\"%s\",\"bestmove\":\"%s\",\"book\":true}\n", root->v->key, mv);
	else
		printf("bestmove %s (book)\n", mv);
	free(bm);
}

int analyze_variant(const char *name, const char *fen, const char *moves, const char *book_arg, const pk_limits *lim,
		    const engine_args *ea, bool json, volatile sig_atomic_t *stop)
{
	const pk_variant *v;
	pk_vpos root;
	pk_vweights w;
	if (fen && moves) {
		cli_error("give --fen or --moves, not both");
		return EXIT_USAGE;
	}
	if (cli_variant_position(name, fen, &v, &root) < 0)
		return EXIT_USAGE;
	if (moves) {
		uint8_t buf[1024];
		int k;
		filter_pos at;
		if (parse_moves_arg("--moves", moves, v, buf, (int)sizeof buf, &k, &at) < 0)
			return EXIT_USAGE;
		root = at.vpos;
	}
	pk_book *bk = NULL;
	if (book_option_for(book_arg, false, v, &bk) < 0)
		return EXIT_RUNTIME;
	if (bk && book_vprobe(bk, &root, NULL, 0) > 0) {
		book_answer(bk, &root, json);
		book_free(bk);
		return EXIT_OK;
	}
	book_free(bk);
	if (engine_vweights(ea, v, &w) < 0)
		return EXIT_RUNTIME;
	size_t hash_mb = ea->hash ? (size_t)atol(ea->hash) : 64;
	pk_vengine *e = vengine_new(hash_mb);
	if (!e) {
		cli_error("cannot allocate a %zu MB transposition table", hash_mb);
		return EXIT_RUNTIME;
	}
	vengine_set_weights(e, &w);
	pk_features f;
	if (engine_features(ea, &f) < 0 || vengine_set_threads(e, engine_threads(ea)) < 0) {
		vengine_free(e);
		return EXIT_USAGE;
	}
	vengine_set_features(e, &f);
	vctx c = { json, &root };
	pk_vresult res;
	vengine_search(e, &root, NULL, 0, lim, stop, on_iteration, &c, &res);
	char mv[64], s[32];
	if (!res.has_move) {
		if (json)
			printf("{\"bestmove\":null,\"score\":%d,\"depth\":0}\n", -SCORE_WIN);
		else
			printf("no legal move: %s has lost\n", root.stm == PK_BLACK ? "Black" : "White");
	} else {
		vmove_text(v, &res.best, false, mv, sizeof mv);
		analyze_score_text(res.last.score, s, sizeof s);
		if (json)
			printf("{\"variant\":\"%s\",\"bestmove\":\"%s\",\"score\":%d,\"depth\":%d,\"nodes\":%llu,\"seconds\":%.3f%s}\n",
			       v->key, mv, res.last.score, res.last.depth, (unsigned long long)res.last.nodes,
			       res.last.seconds, res.forced ? ",\"forced\":true" : "");
		else if (res.forced)
			printf("bestmove %s (forced: the only legal move)\n", mv);
		else
			printf("bestmove %s  score %s  depth %d%s\n", mv, s, res.last.depth, *stop ? "  (interrupted)" : "");
	}
	vengine_free(e);
	return EXIT_OK;
}
