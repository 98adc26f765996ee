/* pdnkit analyze: search a position of any variant and show each completed iteration. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "analyze.h"
#include "cli.h"
#include "proto/client.h"
#include "commands.h"
#include "engine_opts.h"
#include "dbcli.h"
#include "book/book.h"
#include "pdn/pdn_write.h"
#include "rules/fen.h"
#include "pdn/replay.h"

static volatile sig_atomic_t stop_flag;

static void on_sigint(int sig)
{
	(void)sig;
	stop_flag = 1;
}

typedef struct {
	bool json;
	pk_gpos root;
	int line;          /* which of the --multipv lines, from 1; 0 when only one */
	bool headed;
} actx;

void analyze_score_text(int s, int stm, char *buf, size_t n)
{
	if (score_is_win(s))
		cli_score_text(s, stm, buf, n);   /* "White wins in 5" */
	else
		snprintf(buf, n, "%+d", s);         /* hundredths, the header names the side */
}

static void print_pv(const pk_gpos *root, const pk_gmove *pv, int n, bool json)
{
	pk_gpos p = *root;
	for (int i = 0; i < n; i++) {
		char mv[160];
		gmove_format(&p, &pv[i], false, mv, sizeof mv);
		if (json)
			printf("%s\"%s\"", i ? "," : "", mv);
		else
			printf(" %s", mv);
		pk_gpos q;
		gpos_make(&p, &pv[i], &q);
		p = q;
	}
}

static void on_iteration(void *vctx, const pk_giteration *it)
{
	actx *c = vctx;
	double nps = it->seconds > 0 ? (double)it->nodes / it->seconds : 0;
	if (c->json) {
		printf("{");
		if (c->line)
			printf("\"multipv\":%d,", c->line);
		printf("\"depth\":%d,\"score\":%d,", it->depth, it->score);
		if (score_is_win(it->score))
			printf("\"win_in\":%d,", it->score > 0 ? score_plies(it->score) : -score_plies(it->score));
		printf("\"nodes\":%llu,\"nps\":%.0f,\"seconds\":%.3f,\"pv\":[", (unsigned long long)it->nodes, nps,
		       it->seconds);
		print_pv(&c->root, it->pv, it->npv, true);
		printf("]}\n");
	} else {
		if (!c->headed)
			printf("depth  score (1/100 man, %s's view)  nodes  speed  time  line\n",
			       gpos_stm(&c->root) == PK_BLACK ? "Black" : "White");
		c->headed = true;
		char s[32];
		analyze_score_text(it->score, gpos_stm(&c->root), s, sizeof s);
		if (c->line)
			printf("[%d] ", c->line);
		printf("%3d %15s %12llu %9.0f k/s %8.2f s ", it->depth, s, (unsigned long long)it->nodes, nps / 1000,
		       it->seconds);
		print_pv(&c->root, it->pv, it->npv, false);
		putchar('\n');
	}
	fflush(stdout);
}

void analyze_book_move(bool json, int i, const char *mv, uint32_t games, uint32_t bw, uint32_t dr, uint32_t ww,
		       int score)
{
	if (json) {
		printf("%s{\"move\":\"%s\",\"games\":%u,\"black_wins\":%u,\"draws\":%u,\"white_wins\":%u", i ? "," : "", mv,
		       games, bw, dr, ww);
		if (score != BOOK_NO_SCORE)
			printf(",\"score\":%d", score);
		printf("}");
	} else {
		printf("book %-8s %6u games (%u-%u-%u)", mv, games, bw, dr, ww);
		if (score != BOOK_NO_SCORE)
			printf("  score %+d", score);
		putchar('\n');
	}
}

/* analyze --engine: another engine's move, score and depth in the position (given
 * without its history). */
static int analyze_with(const char *text, const char *file, const pk_pos *root, const engine_args *ea,
			const pk_limits *lim, long multipv, int json)
{
	pk_engine_spec spec;
	char err[800], safe[900];
	if (spec_parse(text, engines_file_option(file), &spec, err, sizeof err) < 0) {
		cli_error("--engine %s", err);
		return EXIT_USAGE;
	}
	if (spec.kind == SPEC_PDNKIT || spec.kind == SPEC_DXP) {
		cli_error("--engine %s: %s", text, spec.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines"
			  : "give the built-in engine's options to analyze itself");
		return EXIT_USAGE;
	}
	if (ea->depth || ea->nodes || multipv > 1 || ea->egdb || ea->features || ea->threads) {
		cli_error("--engine: another engine is given seconds (--movetime or --level), not --depth, --nodes, --multipv, "
			  "--egdb, --features or --threads");
		return EXIT_USAGE;
	}
	pk_movelist ml;
	if (gen_moves(root, &ml) == 0) {
		cli_error("the position has no legal move");
		return EXIT_USAGE;
	}
	pk_client_opts co = { 0 };
	pk_client *cl = client_open(&spec, &co, err, sizeof err);
	if (!cl) {
		cli_error("--engine %s", cli_safe_text(err, safe, sizeof safe));
		return EXIT_RUNTIME;
	}
	pk_client_answer a;
	client_new_game(cl);
	client_go(cl, root, NULL, 0, lim->movetime > 0 ? lim->movetime : 1.0, &a);
	int rc = EXIT_OK;
	char mv[PK_MOVE_STRLEN] = "";
	if (a.status == CLIENT_OK)
		pdn_move_string(root, &a.move, false, mv);
	if (json) {
		printf("{\"engine\":");
		json_string(stdout, client_name(cl));
		printf(",\"status\":\"%s\",\"best\":", client_status_name(a.status));
		json_string(stdout, mv);
		if (a.has_score)
			printf(",\"score\":%d", (int)lround(a.score * 100));
		printf(",\"depth\":%d,\"seconds\":%.3f", a.depth, a.seconds);
		if (a.status != CLIENT_OK) {
			printf(",\"detail\":");
			json_string(stdout, a.detail);
		}
		printf("}\n");
	} else if (a.status == CLIENT_OK) {
		printf("%s: bestmove %s", cli_safe_text(client_name(cl), safe, sizeof safe), mv);
		if (a.has_score)
			printf("  score %+.2f for the side to move", a.score);
		if (a.depth)
			printf("  depth %d", a.depth);
		printf("  %.2f s\n", a.seconds);
	}
	if (a.status != CLIENT_OK) {
		cli_error("%s", cli_safe_text(a.detail, safe, sizeof safe));
		rc = EXIT_RUNTIME;
	}
	client_close(cl);
	return rc;
}

/* In the book: its moves and the engine's choice among them (book-min, book-score),
 * without a search. Whether the engine takes a move of the book there. */
static bool book_answer(const pk_book *bk, pk_gengine *e, const pk_gpos *root, bool json)
{
	char mv[160];
	pk_gmove choice;
	int nb;
	if (!gengine_book_move(e, bk, root, &choice))
		return false;
	if (!root->v) {
		pk_book_move bm[PK_MAX_MOVES];
		nb = book_probe(bk, &root->e, bm, PK_MAX_MOVES);
		if (json)
			printf("{\"book\":[");
		for (int i = 0; i < nb; i++) {
			pdn_move_string(&root->e, &bm[i].move, false, mv);
			analyze_book_move(json, i, mv, bm[i].games, bm[i].black_wins, bm[i].draws, bm[i].white_wins,
					  bm[i].score);
		}
		pdn_move_string(&root->e, &choice.e, false, mv);
	} else {
		pk_book_vmove *bm = malloc(sizeof *bm * 256);
		if (!bm)
			return false;
		nb = book_vprobe(bk, &root->x, bm, 256);
		if (json)
			printf("{\"book\":[");
		for (int i = 0; i < nb; i++) {
			vmove_text(root->v, &bm[i].move, false, mv, sizeof mv);
			analyze_book_move(json, i, mv, bm[i].games, bm[i].black_wins, bm[i].draws, bm[i].white_wins,
					  bm[i].score);
		}
		free(bm);
		vmove_text(root->v, &choice.x, false, mv, sizeof mv);
	}
	if (json) {
		printf("]}\n{");
		if (root->v)
			printf("\"variant\":\"%s\",", root->v->key);
		printf("\"bestmove\":\"%s\",\"book\":true}\n", mv);
	} else {
		printf("bestmove %s (book)\n", mv);
	}
	return true;
}

/* The position of --fen or --moves (or the start) of v (NULL: English draughts), and the
 * game's positions before it (English draughts' moves: for repetitions). */
static int root_option(const char *variant, const char *fen, const char *moves, pk_gpos *root, uint64_t **keys,
		       pk_history *h)
{
	memset(h, 0, sizeof *h);
	if (!variant) {
		pk_pos p;
		bool given;
		if (position_option(fen, moves, &p, keys, h, &given) < 0)
			return -1;
		gpos_english(root, &p);
		return 0;
	}
	if (fen && moves) {
		cli_error("give --fen or --moves, not both");
		return -1;
	}
	const pk_variant *v;
	pk_vpos p;
	if (cli_variant_position(variant, fen, &v, &p) < 0)
		return -1;
	if (moves) {
		uint8_t buf[1024];
		int k;
		filter_pos at;
		if (parse_moves_arg("moves", moves, v, buf, (int)sizeof buf, &k, &at) < 0)
			return -1;
		p = at.vpos;
		/* the game so far: its positions (repetitions), its kings' moves and the
		 * count of a limited ending (the variant's draw rules) */
		pk_game g;
		pk_replay rp;
		game_init(&g);
		replay_init(&rp);
		const char *error;
		if (replay_moves_text_as(moves, v->gametype, &g, &rp, &error) == 0 && rp.variant_replayed &&
		    (*keys = malloc(sizeof **keys * (size_t)(rp.vr.plies + 1)))) {
			int n = rp.vr.plies + 1;
			h->reversible = replay_ghistory(&rp, n, *keys);
			h->ending = replay_gending(&rp, n);
			h->keys = *keys;
			h->nkeys = n;
		}
		game_free(&g);
		replay_free(&rp);
	}
	gpos_variant(root, &p);
	return 0;
}

int cmd_analyze(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	char *fen = NULL, *moves = NULL, *multipv_arg = NULL, *book_arg = NULL, *variant = NULL, *engine_spec = NULL,
	     *engines_file = NULL;
	pk_book *bk = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "the position to analyse", "FEN" },
		{ "moves", 'm', POPT_ARG_STRING, &moves, 0, "or the position after these moves from the start", "\"9-14 23-18 ...\"" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "Search limits and engine:", NULL },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "a position of another variant (name or PDN GameType: international, russian, 25, ...; its FEN with --fen, its moves with --moves)", "NAME" },
		{ "book", 0, POPT_ARG_STRING, &book_arg, 0, "answer from this opening book when the position is in it (of the position's variant; 'default': the shipped English book)", "FILE" },
		{ "multipv", 0, POPT_ARG_STRING, &multipv_arg, 0, "show the K best moves, each with its line", "K" },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0, "ask another engine instead: cb:LIB.so, hub:COMMAND or a name of --engines (its move, score and depth in --movetime seconds)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON Lines: one object per iteration, then the best move", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	pk_gengine *e = NULL;
	uint64_t *keys = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, NULL) < 0)
		goto out;
	pk_limits lim;
	long multipv = 1;
	if (engine_args_resolve(&ea, &lim) || (multipv_arg && cli_int(multipv_arg, 1, 64, "--multipv", &multipv)))
		goto out;
	const pk_variant *v = NULL;
	if (variant && !(v = cli_variant(variant)))
		goto out;
	if (v && v->gametype == 21)
		v = NULL;
	actx c = { .json = json };
	pk_history h;
	if (root_option(v ? variant : NULL, fen, moves, &c.root, &keys, &h) < 0)
		goto out;
	if (v && moves && !json) {
		/* the draw rules' counts the search takes from the game */
		int ending = vdraw_ending_plies(&c.root.x), kings = vdraw_kings_only_plies(v);
		if (ending > 0)
			printf("the game so far: %d of the %d plies of this ending played (the variant's draw rule)\n",
			       h.ending, ending);
		if (kings > 0 && h.reversible > 0)
			printf("the game so far: %d of %d plies of kings only\n", h.reversible, kings);
	}
	if (engine_spec && strcmp(engine_spec, "pdnkit") != 0) {
		if (v) {
			cli_error("--engine: another engine analyses English draughts here (match --variant drives a DXP engine)");
			goto out;
		}
		rc = analyze_with(engine_spec, engines_file, &c.root.e, &ea, &lim, multipv, json);
		goto out;
	}
	if (book_option_for(book_arg, false, v, &bk) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	e = gengine_from_args(&ea, v);
	if (!e) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (book_answer(bk, e, &c.root, json)) {
		rc = EXIT_OK;
		goto out;
	}
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	/* With --multipv, line k is the same search with the moves of lines 1..k-1 left out. */
	pk_gmove chosen[64];
	static pk_gresult res, first;
	for (int k = 1; k <= multipv && !stop_flag; k++) {
		c.line = multipv > 1 ? k : 0;
		if (k > 1)
			gengine_new_game(e);
		gengine_search(e, &c.root, &h, &lim, chosen, k - 1, &stop_flag, on_iteration, &c, &res);
		if (k == 1)
			first = res;
		if (!res.has_move || res.forced)
			break;
		chosen[k - 1] = res.best;
		if (multipv > 1) {
			char m1[160], s1[32];
			gmove_format(&c.root, &res.best, false, m1, sizeof m1);
			analyze_score_text(res.last.score, gpos_stm(&c.root), s1, sizeof s1);
			if (json)
				printf("{\"multipv\":%d,\"move\":\"%s\",\"score\":%d,\"depth\":%d}\n", k, m1,
				       res.last.score, res.last.depth);
			else
				printf("line %d: %s  score %s  depth %d\n", k, m1, s1, res.last.depth);
		}
	}
	res = first;
	char mv[160], s[32];
	int stm = gpos_stm(&c.root);
	if (res.in_egdb) {
		const char *side = stm == PK_BLACK ? "Black" : "White", *other = stm == PK_BLACK ? "White" : "Black";
		const pk_egdb_result *r = &res.egdb;
		const char *value = r->value == EGDB_WIN ? "win" : r->value == EGDB_LOSS ? "loss" : "draw";
		if (json) {
			printf("{\"egdb\":{\"value\":\"%s\"", value);
			if (r->plies >= 0)
				printf(",\"plies\":%d", r->plies);
			printf("}}\n");
		} else if (r->value == EGDB_DRAW)
			printf("database: a draw with best play\n");
		else if (r->plies >= 0)
			printf("database: %s wins in %d plies\n", r->value == EGDB_WIN ? side : other, r->plies);
		else
			printf("database: %s wins\n", r->value == EGDB_WIN ? side : other);
	}
	char vkey[64] = "";
	if (c.root.v)
		snprintf(vkey, sizeof vkey, "\"variant\":\"%s\",", c.root.v->key);
	if (!res.has_move) {
		if (json)
			printf("{%s\"bestmove\":null,\"score\":%d,\"depth\":0}\n", vkey, -SCORE_WIN);
		else
			printf("no legal move: %s has lost\n", stm == PK_BLACK ? "Black" : "White");
	} else {
		gmove_format(&c.root, &res.best, false, mv, sizeof mv);
		analyze_score_text(res.last.score, gpos_stm(&c.root), s, sizeof s);
		if (json)
			printf("{%s\"bestmove\":\"%s\",\"score\":%d,\"depth\":%d,\"nodes\":%llu,\"seconds\":%.3f%s}\n", vkey, mv,
			       res.last.score, res.last.depth, (unsigned long long)res.last.nodes, res.last.seconds,
			       res.forced ? ",\"forced\":true" : "");
		else if (res.forced)
			printf("bestmove %s (forced: the only legal move)\n", mv);
		else
			printf("bestmove %s  score %s  depth %d%s\n", mv, s, res.last.depth,
			       stop_flag ? "  (interrupted)" : "");
	}
	rc = EXIT_OK;
out:
	gengine_free(e);
	book_free(bk);
	free(book_arg);
	free(keys);
	poptFreeContext(ctx);
	free(fen);
	free(moves);
	free(multipv_arg);
	free(engine_spec);
	free(engines_file);
	free(variant);
	engine_args_free(&ea);
	return rc;
}
