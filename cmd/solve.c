/* pdnkit solve: for positions whose Result tag gives the outcome with best play, how many
 * the engine judges right under a limit, and which it misses. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "proto/client.h"
#include "commands.h"
#include "engine_opts.h"
#include "store/games.h"

/* The engine of a problem's variant (English draughts', or another's with its weights),
 * made when the first problem of that variant comes. */
#define SOLVE_VARIANTS 32
static pk_gengine *engine_for(pk_gengine *engines[SOLVE_VARIANTS], engine_args *ea, const pk_variant *v)
{
	int i = v ? (int)(v - variant_at(0)) + 1 : 0;
	if (i < 0 || i >= SOLVE_VARIANTS)
		return NULL;
	if (!engines[i])
		engines[i] = gengine_from_args(ea, v);
	return engines[i];
}

int cmd_solve(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	char *margin_arg = NULL, *engine_spec = NULL, *engines_file = NULL;
	int json = 0, quiet = 0;
	pk_engine_spec ext;
	pk_client *cl = NULL;
	pk_client_opts co = { 0 };
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "Search limits (default: 1 s a position):", NULL },
		{ "margin", 0, POPT_ARG_STRING, &margin_arg, 0, "a score beyond +-CP counts as a win or loss (default 80)", "CP" },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0, "judge with another engine: cb:LIB.so, hub:COMMAND or a name of --engines (English positions; its score after --movetime seconds)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "print only the summary", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON Lines: one object per position, then the totals", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	pk_gengine *engines[SOLVE_VARIANTS] = { NULL };
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	if (!nfiles) {
		cli_error("no FILE given");
		goto out;
	}
	long margin = 80;
	if (margin_arg && cli_int(margin_arg, 1, 10000, "--margin", &margin))
		goto out;
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level)
		ea.movetime = strdup("1");
	pk_limits lim;
	if (engine_args_resolve(&ea, &lim))
		goto out;
	if (engine_spec && strcmp(engine_spec, "pdnkit") != 0) {
		char why[800], safe[900];
		if (spec_parse(engine_spec, engines_file_option(engines_file), &ext, why, sizeof why) < 0) {
			cli_error("--engine %s", why);
			goto out;
		}
		if (ext.kind == SPEC_PDNKIT || ext.kind == SPEC_DXP || ea.depth || ea.nodes) {
			cli_error("--engine %s: %s", engine_spec, ext.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines" :
				  ext.kind == SPEC_PDNKIT ? "give the built-in engine's options to solve itself" :
				  "another engine is given seconds (--movetime), not a depth or nodes");
			goto out;
		}
		if (!(cl = client_open(&ext, &co, why, sizeof why))) {
			cli_error("--engine %s", cli_safe_text(why, safe, sizeof safe));
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	if (!engine_for(engines, &ea, NULL)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	long positions = 0, correct = 0, skipped = 0, by_egdb = 0, contradictions = 0;
	pk_source src = { .files = files, .nfiles = nfiles };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	double t0 = cli_now();
	int got;
	pk_game *gp;
	pk_replay *rpp;
	while ((got = games_next(it, &gp, &rpp)) != GAMES_END) {
		if (got != GAMES_GAME) {
			cli_error("%s", games_error(it));
			rc = EXIT_RUNTIME;
			if (got == GAMES_FATAL)
				break;
			continue;
		}
		const pk_game *g = gp;
		const pk_replay *rp = rpp;
		const char *file = games_file(it);
		int want = result_parse(game_tag(g, "Result"));
		/* another variant's set-up position, replayed under its rules */
		const pk_variant *v = rp->variant != 21 && rp->vr.custom_start ? variant_by_gametype(rp->variant) : NULL;
		if (!(rp->supported && rp->custom_start) && !v) {
			skipped++;
			continue;
		}
		if (want != RES_BLACK_WINS && want != RES_WHITE_WINS && want != RES_DRAW) {
			skipped++;
			continue;
		}
		/* The problem is the set-up position, before any solution moves. A result is
		 * written from the first mover's side ("1-0": Black in English draughts, White
		 * in the others), as RES_BLACK_WINS. */
		const pk_pos *p = &rp->start;
		bool empty = true;
		if (v) {
			for (int sq = 1; sq <= VAR_MAX_SQ; sq++)
				empty = empty && rp->vr.start.sq[sq] == VP_EMPTY;
		} else {
			empty = !(p->side[PK_BLACK] | p->side[PK_WHITE]);
		}
		if (empty) {
			/* No piece of either side is no problem at all (a record whose FEN was
			 * lost): said, and skipped rather than judged. */
			char safe[300];
			const char *name = game_tag(g, "Event");
			cli_warning("%s: game %d (%s): the set-up position has no pieces: skipped", file, g->index,
				    name ? cli_safe_text(name, safe, sizeof safe) : "?");
			skipped++;
			continue;
		}
		static pk_gresult res;
		memset(&res, 0, sizeof res);
		char mv[PK_MOVE_STRLEN + 64] = "-";
		int s, depth, first = PK_BLACK, stm = p->stm;
		bool fault = false;
		if (v) {
			first = v->first;
			stm = rp->vr.start.stm;
		}
		if (cl && !v) {
			/* another engine: its score after the time; a fault is a wrong answer, said */
			pk_client_answer a;
			char why[800];
			if (!client_alive(cl)) {
				client_close(cl);
				cl = client_open(&ext, &co, why, sizeof why);
			}
			if (cl) {
				client_new_game(cl);
				client_go(cl, p, NULL, 0, lim.movetime > 0 ? lim.movetime : 1.0, &a);
			} else {
				a.status = CLIENT_CRASHED;
				snprintf(a.detail, sizeof a.detail, "%.600s", why);
			}
			depth = a.depth;
			if (a.status == CLIENT_OK && a.has_score) {
				s = (int)(a.score * 100 + (a.score < 0 ? -0.5 : 0.5));
				res.has_move = true;
				move_format(&a.move, false, mv, sizeof mv);
			} else {
				char safe[900];
				cli_warning("%s: game %d: %s", file, g->index,
					    cli_safe_text(a.status == CLIENT_OK ? "the engine gave no score" : a.detail, safe, sizeof safe));
				s = 0;
				fault = true;   /* counted, never right */
			}
		} else {
			/* pdnkit's engine of the problem's variant, one call for every variant */
			pk_gpos root;
			if (v)
				gpos_variant(&root, &rp->vr.start);
			else
				gpos_english(&root, p);
			pk_gengine *ge = engine_for(engines, &ea, v);
			if (!ge) {
				rc = EXIT_RUNTIME;
				break;
			}
			gengine_new_game(ge);
			gengine_search(ge, &root, NULL, &lim, NULL, 0, NULL, NULL, NULL, &res);
			s = res.has_move ? res.last.score : -SCORE_WIN;
			depth = res.last.depth;
			if (res.has_move)
				gmove_format(&root, &res.best, false, mv, sizeof mv);
		}
		int judged = s > margin ? (stm == first ? RES_BLACK_WINS : RES_WHITE_WINS) :
			     s < -margin ? (stm == first ? RES_WHITE_WINS : RES_BLACK_WINS) : RES_DRAW;
		if (res.in_egdb) {
			/* The database's value is exact: it judges, not the score. */
			judged = res.egdb.value == EGDB_DRAW ? RES_DRAW :
				 (res.egdb.value == EGDB_WIN) == (p->stm == PK_BLACK) ? RES_BLACK_WINS : RES_WHITE_WINS;
			by_egdb++;
		}
		positions++;
		bool ok = judged == want && !fault;
		/* The databases are exact: a stated result they contradict is the problem's
		 * error (a transcription, the side to move), not the engine's. */
		bool contradicted = res.in_egdb && !ok;
		contradictions += contradicted;
		correct += ok;
		const char *name = game_tag(g, "Event");
		if (json) {
			printf("{\"file\":");
			json_string(stdout, file);
			printf(",\"game\":%d,", g->index);
			if (v)
				printf("\"variant\":\"%s\",", v->key);
			printf("\"event\":");
			json_string(stdout, name ? name : "");
			printf(",\"expected\":\"%s\",\"judged\":\"%s\",\"score\":%d,\"depth\":%d,\"bestmove\":\"%s\",\"egdb\":%s,\"contradicted\":%s,\"correct\":%s}\n",
			       result_string(want), result_string(judged), s, depth, mv, res.in_egdb ? "true" : "false",
			       contradicted ? "true" : "false", ok ? "true" : "false");
		} else if (contradicted && !quiet) {
			char safe[256];
			printf("%s: game %d (%s): the stated result %s is wrong: the endgame databases prove %s (%s; best move %s)\n",
			       file, g->index, name ? cli_safe_text(name, safe, sizeof safe) : "?", result_string(want),
			       result_string(judged), judged == RES_DRAW ? "a draw" : judged == RES_BLACK_WINS ? "Black wins" : "White wins", mv);
		} else if (!ok && !quiet) {
			char safe[256];
			char sc[48];
			cli_score_text(s, stm, sc, sizeof sc);
			printf("%s: game %d (%s): expected %s, judged %s (%s at depth %d, %s)\n", file, g->index,
			       name ? cli_safe_text(name, safe, sizeof safe) : "?", result_string(want), result_string(judged), sc,
			       depth, mv);
		}
		fflush(stdout);   /* each result as it comes, also into a file or a pipe */
		cli_progress("solve", positions, 0);
	}
	games_close(it);
	cli_progress_done();
	double secs = cli_now() - t0;
	if (json)
		printf("{\"positions\":%ld,\"correct\":%ld,\"by_egdb\":%ld,\"contradicted\":%ld,\"skipped\":%ld,\"seconds\":%.1f}\n",
		       positions, correct, by_egdb, contradictions, skipped, secs);
	else
		printf("%ld of %ld positions judged right (%.1f%%), %ld by the endgame databases (%ld stated result%s they prove wrong); "
		       "%ld skipped (no set-up position, no pieces or no result); %.1f s\n",
		       correct, positions, positions ? 100.0 * (double)correct / (double)positions : 0.0, by_egdb, contradictions,
		       contradictions == 1 ? "" : "s", skipped, secs);
	if (rc == EXIT_USAGE)
		rc = EXIT_OK;
out:
	for (int i = 0; i < SOLVE_VARIANTS; i++)
		gengine_free(engines[i]);
	client_close(cl);
	free(engine_spec);
	free(engines_file);
	poptFreeContext(ctx);
	engine_args_free(&ea);
	free(margin_arg);
	return rc;
}
