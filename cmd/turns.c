/* pdnkit turns: where each decided game turned, read from the engines' scores its
 * moves carry (match records, annotated games): the move after which the winner's
 * advantage stayed, what the loser's engine thought of it, and how much later than its
 * opponent it saw the loss; then, for each player, the sums. Nothing is searched. */
#include <stdlib.h>
#include <string.h>
#include "analysis/turns.h"
#include "cli.h"
#include "commands.h"
#include "engine/search.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"

typedef struct {
	char name[200];
	long lost, turned, lost_scored, both_saw, won;
	double loser_sum, lag_sum;
} player_sum;

typedef struct {
	player_sum *p;
	int n, cap;
} player_table;

static player_sum *player_get(player_table *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->p[i].name, name))
			return &t->p[i];
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 8;
		player_sum *p = realloc(t->p, (size_t)cap * sizeof *p);
		if (!p)
			return NULL;
		t->p = p;
		t->cap = cap;
	}
	player_sum *s = &t->p[t->n++];
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	return s;
}

/* A score in men with its sign, or a win or loss in plies ("+#12"). */
static const char *score_text(int s, char *buf, size_t size)
{
	if (abs(s) > TURNS_WIN / 2)
		snprintf(buf, size, "%s#%d", s > 0 ? "+" : "-", TURNS_WIN - abs(s));
	else
		snprintf(buf, size, "%+.2f", s / 100.0);
	return buf;
}

/* Ply p of the game as PDN numbers it: "20." for the move of the side that opens the
 * move numbers (Black in English draughts, White in International), "20..." for the
 * other's. */
static const char *ply_number(const pk_replay *rp, int p, char *buf, size_t size)
{
	pk_gpos before;
	pk_gmove m;
	if (!rp->variant_replayed)
		movenum_token(replay_move_number(rp, p), replay_pos_before(rp, p)->stm, true, buf, size);
	else if (replay_gply(rp, p, &before, &m))
		movenum_token_as(replay_move_number(rp, p), before.x.stm == rp->variant_first, true, buf, size);
	else
		snprintf(buf, size, "?");
	return buf;
}

/* The move of ply p in its variant's notation. */
static void ply_move(const pk_replay *rp, int p, char *buf, size_t size)
{
	pk_gpos before;
	pk_gmove m;
	if (!replay_gply(rp, p, &before, &m))
		snprintf(buf, size, "?");
	else if (before.v)
		vmove_pdn(&before.x, &m.x, buf, size);
	else {
		char t[PK_MOVE_STRLEN];
		pdn_move_string(&before.e, &m.e, false, t);
		snprintf(buf, size, "%s", t);
	}
}

int cmd_turns(int argc, const char **argv)
{
	char *threshold_arg = NULL, *depth_arg = NULL;
	int json = 0, rc = EXIT_USAGE;
	struct poptOption opts[] = {
		{ "threshold", 0, POPT_ARG_STRING, &threshold_arg, 0, "the winner's advantage that must stay, in hundredths of a man (default 50)", "CP" },
		{ "min-depth", 0, POPT_ARG_STRING, &depth_arg, 0, "pass over a score of a shallower search (a forced move answered at once; default 4)", "D" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON Lines: one object per decided game, then the players' sums and the counts", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("pdnkit turns", argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	player_table players = { 0 };
	int prc = cli_parse_options(ctx, opts);
	if (prc) {
		rc = prc < 0 ? EXIT_OK : prc;
		goto out;
	}
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	if (nfiles == 0) {
		cli_error("give the PDN files to read (match records, annotated games; - for standard input)");
		goto out;
	}
	long threshold = 50;
	if (threshold_arg && cli_int(threshold_arg, 1, 10000, "--threshold", &threshold))
		goto out;
	long min_depth = 4;
	if (depth_arg && cli_int(depth_arg, 0, 1000, "--min-depth", &min_depth))
		goto out;
	pk_source src = { .files = files, .nfiles = nfiles };
	pk_games *it = cli_games_open(&src);
	if (!it) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_OK;
	long games = 0, decided = 0, draws = 0, unnoted = 0, other = 0, unturned = 0;
	bool unreadable = false, header = false;
	pk_game *g;
	pk_replay *rp;
	int got;
	while ((got = cli_next_game(it, &g, &rp, &unreadable)) == GAMES_GAME) {
		games++;
		pk_turn t;
		int r = turns_find(g, rp, (int)threshold, (int)min_depth, &t);
		if (r == -2) {
			cli_error("out of memory");
			rc = EXIT_RUNTIME;
			break;
		}
		if (r < 0) {
			other++;
			continue;
		}
		if (t.winner < 0) {
			draws++;
			continue;
		}
		if (t.notes == 0) {
			unnoted++;
			continue;
		}
		decided++;
		const char *bname = game_tag(g, "Black"), *wname = game_tag(g, "White");
		char safe_w[200], safe_l[200];
		const char *winner = cli_safe_text(t.winner == PK_BLACK ? (bname ? bname : "?") : (wname ? wname : "?"), safe_w, sizeof safe_w);
		const char *loser = cli_safe_text(t.winner == PK_BLACK ? (wname ? wname : "?") : (bname ? bname : "?"), safe_l, sizeof safe_l);
		player_sum *ws = player_get(&players, winner), *ls = player_get(&players, loser);
		if (!ws || !ls) {
			cli_error("out of memory");
			rc = EXIT_RUNTIME;
			break;
		}
		ws->won++;
		ls->lost++;
		char mv[160] = "", num[16] = "", wnum[16] = "", lnum[16] = "", ls_txt[16] = "", ws_txt[16] = "";
		if (t.turn) {
			ls->turned++;
			ply_move(rp, t.turn, mv, sizeof mv);
			ply_number(rp, t.turn, num, sizeof num);
			if (t.has_loser_score) {
				ls->lost_scored++;
				ls->loser_sum += abs(t.loser_score) > TURNS_WIN / 2 ? (t.loser_score > 0 ? 20 : -20) : t.loser_score / 100.0;
			}
			if (t.winner_ply && t.loser_ply) {
				ls->both_saw++;
				ls->lag_sum += t.loser_ply - t.winner_ply;
			}
		} else {
			unturned++;
		}
		if (t.winner_ply)
			ply_number(rp, t.winner_ply, wnum, sizeof wnum);
		if (t.loser_ply)
			ply_number(rp, t.loser_ply, lnum, sizeof lnum);
		if (t.has_loser_score)
			score_text(t.loser_score, ls_txt, sizeof ls_txt);
		if (t.has_winner_score)
			score_text(t.winner_score, ws_txt, sizeof ws_txt);
		const char *round = game_tag(g, "Round");
		char safe_r[40];
		if (json) {
			printf("{\"file\":");
			json_string(stdout, games_file(it));
			printf(",\"game\":%d,\"round\":", g->index);
			json_string(stdout, round ? round : "");
			printf(",\"result\":\"%s\",\"winner\":", result_string(t.result));
			json_string(stdout, winner);
			printf(",\"loser\":");
			json_string(stdout, loser);
			printf(",\"loser_colour\":\"%s\",\"notes\":%d", t.winner == PK_BLACK ? "white" : "black", t.notes);
			if (t.turn) {
				printf(",\"ply\":%d,\"move_number\":%d,\"move\":\"%s\"", t.turn, replay_move_number(rp, t.turn), mv);
				if (t.has_loser_score)
					printf(",\"loser_score\":\"%s\"", ls_txt);
				if (t.has_winner_score)
					printf(",\"winner_score\":\"%s\"", ws_txt);
			} else {
				printf(",\"ply\":null");
			}
			printf(",\"winner_saw\":");
			if (t.winner_ply)
				printf("%d", t.winner_ply);
			else
				printf("null");
			printf(",\"loser_saw\":");
			if (t.loser_ply)
				printf("%d", t.loser_ply);
			else
				printf("null");
			printf("}\n");
			continue;
		}
		if (!header) {
			printf("%-5s %-5s %-7s ", "game", "round", "result");
			cli_cell(stdout, "loser", 24, false);
			printf(" %-6s %-16s %7s %7s  %-10s %s\n", "colour", "deciding move", "loser", "winner", "winner saw", "loser saw");
			header = true;
		}
		printf("%-5d %-5s %-7s ", g->index, round ? cli_safe_text(round, safe_r, sizeof safe_r) : "-", result_string(t.result));
		cli_cell(stdout, loser, 24, false);
		printf(" %-6s ", t.winner == PK_BLACK ? "White" : "Black");
		char dm[sizeof num + sizeof mv + 2];
		if (t.turn)
			snprintf(dm, sizeof dm, "%s %s", num, mv);
		else
			snprintf(dm, sizeof dm, "none");   /* see turns.h */
		printf("%-16s %7s %7s  %-10s %s\n", dm, t.has_loser_score ? ls_txt : "-", t.has_winner_score ? ws_txt : "-",
		       t.winner_ply ? wnum : "-", t.loser_ply ? lnum : "-");
	}
	if (got == GAMES_FATAL)
		rc = EXIT_RUNTIME;
	if (unreadable && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	games_close(it);
	if (json) {
		for (int i = 0; i < players.n; i++) {
			player_sum *s = &players.p[i];
			printf("{\"player\":");
			json_string(stdout, s->name);
			printf(",\"won\":%ld,\"lost\":%ld,\"turned\":%ld", s->won, s->lost, s->turned);
			if (s->lost_scored)
				printf(",\"loser_score_mean\":%.2f", s->loser_sum / (double)s->lost_scored);
			if (s->both_saw)
				printf(",\"lag_plies_mean\":%.1f", s->lag_sum / (double)s->both_saw);
			printf("}\n");
		}
		printf("{\"games\":%ld,\"decided\":%ld,\"no_turn\":%ld,\"not_decided\":%ld,\"without_scores\":%ld,\"other_variants\":%ld,\"threshold\":%ld,\"min_depth\":%ld}\n",
		       games, decided, unturned, draws, unnoted, other, threshold, min_depth);
		goto out;
	}
	if (players.n)
		printf("\n");
	for (int i = 0; i < players.n; i++) {
		player_sum *s = &players.p[i];
		if (!s->lost)
			continue;
		printf("%s: lost %ld, a deciding move found in %ld", s->name, s->lost, s->turned);
		if (s->lost_scored)
			printf("; its own score there %+.2f on average", s->loser_sum / (double)s->lost_scored);
		if (s->both_saw) {
			double lag = s->lag_sum / (double)s->both_saw;
			printf("; its scores stayed with the winner %.1f plies %s its opponent's on average (%ld game%s)", lag < 0 ? -lag : lag,
			       lag < 0 ? "before" : "after", s->both_saw, s->both_saw == 1 ? "" : "s");
		}
		printf("\n");
	}
	printf("%ld game%s: %ld decided with scores (%ld without a deciding move: the winner's advantage of %.2f men never stayed), %ld decided without scores, %ld not decided",
	       games, games == 1 ? "" : "s", decided, unturned, threshold / 100.0, unnoted, draws);
	if (other)
		printf(", %ld of other variants (not read)", other);
	printf("\n");
out:
	free(players.p);
	free(threshold_arg);
	free(depth_arg);
	poptFreeContext(ctx);
	return rc;
}
