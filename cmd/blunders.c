/* pdnkit blunders: the worst moves of the annotated games of a database, as a table, as
 * JSON Lines, or as PDN set-up games (the position before the move, the engine's line
 * as the main line and the move played as a variation) ready to study; with a second
 * opinion, another engine's move in each position, and the flags it disputes (it plays
 * the move itself). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "engine_opts.h"
#include "pdn/pdn_write.h"
#include "proto/client.h"
#include "proto/spec.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "dbcli.h"
#include "engine/search.h"
#include "rules/fen.h"

enum { FMT_TABLE, FMT_PDN, FMT_JSON };

typedef struct {
	pk_store *s;
	int format;
	long rows, skipped;
	pk_game g;
	pk_replay rp;
	int loaded;
	int err;
	pk_client *second;          /* the second opinion's engine, or NULL */
	double second_time;
	long asked, disputed, failed;
} bctx;

/* The second opinion on ply of the loaded game: the other engine's move in the position
 * before it (given the game's moves, for repetitions). Its move as text in mv ("" when it
 * gave none: the reason in detail); true when it is the move played. */
static bool second_opinion(bctx *b, int ply, char *mv, pk_client_answer *a)
{
	*mv = 0;
	if (b->rp.variant_replayed || ply > b->rp.nply) {
		snprintf(a->detail, sizeof a->detail, "a game of another variant: not asked");
		a->status = CLIENT_NO_MOVE;
		return false;
	}
	if (!client_alive(b->second)) {
		snprintf(a->detail, sizeof a->detail, "the engine stopped earlier: not asked");
		a->status = CLIENT_CRASHED;
		b->failed++;
		return false;
	}
	pk_move moves[1024];
	int n = ply - 1;
	for (int i = 0; i < n && n <= 1024; i++)
		moves[i] = b->rp.plies[i].move;
	client_new_game(b->second);
	if (n <= 1024)
		client_go(b->second, &b->rp.start, moves, n, b->second_time, a);
	else   /* a game longer than that: the position alone */
		client_go(b->second, replay_pos_before(&b->rp, ply), NULL, 0, b->second_time, a);
	b->asked++;
	if (a->status != CLIENT_OK) {
		if (!b->failed++) {
			char safe[900];
			cli_error("--second-opinion: %s", cli_safe_text(a->detail, safe, sizeof safe));
		}
		return false;
	}
	pdn_move_string(replay_pos_before(&b->rp, ply), &a->move, false, mv);
	bool same = move_equal(&a->move, &b->rp.plies[ply - 1].move);
	b->disputed += same;
	return same;
}

static int load_one(void *ctx, const pk_row *r)
{
	bctx *b = ctx;
	b->loaded = store_load_game(b->s, r, &b->g, &b->rp) == 0;
	return 1;
}

static void pdn_tag(const char *name, const char *value)
{
	printf("[%s \"", name);
	for (const char *p = value ? value : "?"; *p; p++) {
		if (*p == '"' || *p == '\\')
			putchar('\\');
		putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
	}
	printf("\"]\n");
}

static const char *nz(const char *s) { return s ? s : ""; }

/* A score in men ("+0.35"), or a win or loss found by search in plies ("-#3"). */
static const char *score_str(int s, char *buf, size_t size)
{
	if (score_is_win(s))
		snprintf(buf, size, "%s#%d", s > 0 ? "+" : "-", score_plies(s));
	else
		snprintf(buf, size, "%+.2f", s / 100.0);
	return buf;
}

/* Numbered moves of a line starting at move number n; opens: its first move opens the
 * number (Black's in English draughts, the first mover's in the other variants). */
static void print_line(const char *line, int number, bool opens)
{
	char buf[4096];
	movenum_line_as(line, number, opens, ' ', buf, sizeof buf);
	fputs(buf, stdout);
}

/* The position before ply of the loaded game, as FEN, and who is to move there; 0, or
 * -1 when the game does not replay that far. */
static int position_before(const pk_replay *rp, int ply, char *fen, size_t size, int *stm)
{
	if (rp->variant_replayed) {
		pk_vpos p;
		if (ply > rp->vr.plies || vreplay_pos_before(&rp->vr, ply, &p, NULL) < 0)
			return -1;
		vfen_format(&p, fen, size);
		*stm = p.stm;
		return 0;
	}
	if (ply > rp->nply)
		return -1;
	const pk_pos *before = replay_pos_before(rp, ply);
	fen_format(before, fen, size);
	*stm = before->stm;
	return 0;
}

static int row(void *ctx, const pk_blunder *bl)
{
	bctx *b = ctx;
	long long id = (long long)bl->game;
	int ply = bl->ply;
	/* The game, for the move number and the position before the move. */
	pk_filter one;
	filter_init(&one);
	one.id = id;
	b->loaded = 0;
	char fen[VAR_FEN_STRLEN > PK_FEN_STRLEN ? VAR_FEN_STRLEN : PK_FEN_STRLEN];
	int stm = PK_BLACK;
	if (store_query(b->s, &one, load_one, b) < 0 || !b->loaded || ply < 1 ||
	    position_before(&b->rp, ply, fen, sizeof fen, &stm) < 0) {
		/* a damaged row is named and passed over; the other rows are listed */
		char safe[600];
		cli_error("game %lld: cannot replay it to ply %d%s%s; skipped", id, ply, b->loaded ? "" : ": ",
			  b->loaded ? "" : cli_safe_text(store_error(b->s), safe, sizeof safe));
		b->err = EXIT_RUNTIME;
		b->skipped++;
		return 0;
	}
	int number = replay_move_number(&b->rp, ply);
	bool black = stm == PK_BLACK;
	bool opens = stm == (b->rp.variant_replayed ? b->rp.variant_first : PK_BLACK);
	int sb = bl->score_best, sp = bl->score_played, loss = bl->loss;
	char depth[16] = "null";
	if (bl->depth >= 0)
		snprintf(depth, sizeof depth, "%d", bl->depth);
	b->rows++;
	char mv2[PK_MOVE_STRLEN + 8] = "", safe[900];
	pk_client_answer a2;
	bool disputed = b->second && second_opinion(b, ply, mv2, &a2);
	if (b->format == FMT_JSON) {
		printf("{\"game\":%lld,", id);
		if (b->rp.variant_replayed)
			printf("\"gametype\":%d,", b->rp.variant);
		printf("\"event\":");
		json_string(stdout, nz(bl->event));
		printf(",\"black\":");
		json_string(stdout, nz(bl->black));
		printf(",\"white\":");
		json_string(stdout, nz(bl->white));
		printf(",\"date\":");
		json_string(stdout, nz(bl->date));
		printf(",\"ply\":%d,\"move_number\":%d,\"side\":\"%s\",\"move\":", ply, number, black ? "black" : "white");
		json_string(stdout, nz(bl->move));
		printf(",\"best\":");
		json_string(stdout, nz(bl->best));
		printf(",\"score_best\":%d,\"score_played\":%d,\"loss\":%d,\"class\":\"%s\",\"depth\":%s,\"fen\":", sb, sp,
		       loss, nz(bl->cls), depth);
		json_string(stdout, fen);
		printf(",\"pv\":");
		json_string(stdout, nz(bl->pv));
		if (b->second) {
			printf(",\"second\":{\"engine\":");
			json_string(stdout, client_name(b->second));
			printf(",\"status\":\"%s\",\"move\":", client_status_name(a2.status));
			json_string(stdout, mv2);
			printf(",\"disputed\":%s", disputed ? "true" : "false");
			if (a2.status == CLIENT_OK && a2.has_score)
				printf(",\"score\":%d", (int)lround(a2.score * 100));
			if (a2.status != CLIENT_OK) {
				printf(",\"detail\":");
				json_string(stdout, a2.detail);
			}
			printf("}");
		}
		printf("}\n");
	} else if (b->format == FMT_PDN) {
		pdn_tag("Event", bl->event);
		pdn_tag("Date", bl->date);
		pdn_tag("Black", bl->black);
		pdn_tag("White", bl->white);
		pdn_tag("Result", "*");
		if (b->rp.variant_replayed) {
			char gt[16];
			snprintf(gt, sizeof gt, "%d", b->rp.variant);
			pdn_tag("GameType", gt);
		}
		pdn_tag("SetUp", "1");
		pdn_tag("FEN", fen);
		char s1[16], s2[16];
		printf("\n{Game %lld, move %d (%s): %s played, scored %s, a loss of %.2f; the engine's line at depth %s, "
		       "scored %s (side to move's view).}\n",
		       id, number, black ? "Black" : "White", nz(bl->move), score_str(sp, s1, sizeof s1), loss / 100.0,
		       depth, score_str(sb, s2, sizeof s2));
		if (b->second) {
			char safe2[900];
			printf("{%s: %s%s}\n", cli_safe_text(client_name(b->second), safe, sizeof safe),
			       a2.status != CLIENT_OK ? "no move: " : disputed ? "plays the move played itself (the flag is disputed): " : "plays ",
			       a2.status != CLIENT_OK ? cli_safe_text(a2.detail, safe2, sizeof safe2) : mv2);
		}
		/* The engine's first move, the move played as its alternative, the rest of the line. */
		const char *line = bl->pv && *bl->pv ? bl->pv : nz(bl->best);
		const char *sp1 = strchr(line, ' ');
		char first[PK_MOVE_STRLEN];
		snprintf(first, sizeof first, "%.*s", sp1 ? (int)(sp1 - line) : (int)strlen(line), line);
		/* A set-up game is numbered from 1 (its comment gives the game's move number). */
		print_line(first, 1, opens);
		printf(" (");
		print_line(nz(bl->move), 1, opens);
		printf(" $4)");
		if (sp1) {
			putchar(' ');
			print_line(sp1 + 1, opens ? 1 : 2, !opens);
		}
		printf(" *\n\n");
	} else {
		if (b->rows == 1)
			printf("%6s  %7s  %-9s  %-10s %7s  %-10s %7s  %s%s\n%s\n", "loss", "game", "move", "played", "score", "best", "score",
			       b->second ? "2nd opinion   " : "", "players, event",
			       b->second ? "  (loss in hundredths of a man; scores in men, for the side that moved; the second opinion's move,"
					   " = when it plays the move played)"
					 : "  (loss in hundredths of a man; scores in men, for the side that moved)");
		char mv[32];
		snprintf(mv, sizeof mv, "%d%s", number, opens ? "." : "...");
		char s1[16], s2[16];
		char second[PK_MOVE_STRLEN + 16] = "";
		if (b->second)
			snprintf(second, sizeof second, "%-12s  ", a2.status != CLIENT_OK ? "(no move)" : disputed ? "= (disputed)" : mv2);
		printf("%6d  %7lld  %-9s  %-10s %7s  %-10s %7s  %s%s - %s, %s\n", loss, id, mv, nz(bl->move),
		       score_str(sp, s1, sizeof s1), nz(bl->best), score_str(sb, s2, sizeof s2), second, nz(bl->black),
		       nz(bl->white), nz(bl->event));
	}
	return 0;
}

int cmd_blunders(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *min_loss = NULL, *format = NULL, *second = NULL, *second_time = NULL, *engines_file = NULL;
	int json_flag = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games (--limit: how many moves):", NULL },
		{ "min-loss", 0, POPT_ARG_STRING, &min_loss, 0, "moves that lost at least CP (default 100, a blunder)", "CP" },
		{ "format", 0, POPT_ARG_STRING, &format, 0, "table (default), pdn (a set-up game per move) or json", "FMT" },
		{ "json", 'j', POPT_ARG_NONE, &json_flag, 0, "the same as --format json", NULL },
		{ "second-opinion", 0, POPT_ARG_STRING, &second, 0,
		  "ask another engine (cb:LIB.so, hub:COMMAND or a name of --engines) for its move in each position: a move "
		  "it plays itself is a disputed flag", "SPEC" },
		{ "second-time", 0, POPT_ARG_STRING, &second_time, 0, "its seconds a position (default 1)", "SECONDS" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	bctx b = { 0 };
	game_init(&b.g);
	replay_init(&b.rp);
	if (rc)
		goto out;
	int nargs;
	const char **args = cli_args(ctx, &nargs);
	if (nargs) {
		cli_error("unexpected argument '%s' (the games come from --db)", args[0]);
		rc = EXIT_USAGE;
		goto out;
	}
	long minl = 100, limit = 20;
	if (min_loss && cli_int(min_loss, 0, 100000, "--min-loss", &minl)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fa.limit && cli_int(fa.limit, 1, 100000000, "--limit", &limit)) {
		rc = EXIT_USAGE;
		goto out;
	}
	b.format = FMT_TABLE;
	if (json_flag)
		b.format = FMT_JSON;
	else if (format) {
		if (!strcmp(format, "pdn"))
			b.format = FMT_PDN;
		else if (!strcmp(format, "json"))
			b.format = FMT_JSON;
		else if (strcmp(format, "table")) {
			cli_error("--format must be table, pdn or json, not '%s'", format);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	b.second_time = 1;
	if (second_time && (!second || cli_number(second_time, 0.01, 3600, "--second-time", &b.second_time))) {
		if (!second)
			cli_error("--second-time goes with --second-opinion");
		rc = EXIT_USAGE;
		goto out;
	}
	pk_filter f;
	if ((rc = filter_resolve(&fa, &f)) != 0)
		goto out;
	f.limit = 0;
	if (second) {
		pk_engine_spec spec;
		char err[800], safe[900];
		if (spec_parse(second, engines_file_option(engines_file), &spec, err, sizeof err) < 0) {
			cli_error("--second-opinion %s", err);
			rc = EXIT_USAGE;
			goto out;
		}
		if (spec.kind != SPEC_CB && spec.kind != SPEC_HUB) {
			cli_error("--second-opinion %s: give another engine (cb:LIB.so, hub:COMMAND or a name of --engines)", second);
			rc = EXIT_USAGE;
			goto out;
		}
		pk_client_opts co = { 0 };
		if (!(b.second = client_open(&spec, &co, err, sizeof err))) {
			cli_error("--second-opinion %s", cli_safe_text(err, safe, sizeof safe));
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	if (!(b.s = db_open(&fa, STORE_READ))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	f.own_moves = true;   /* --player, --black, --white: that player's own moves */
	if (store_blunders(b.s, &f, (int)minl, limit, row, &b) < 0) {
		cli_error("%s", store_error(b.s));
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = b.err;
	if (b.skipped)
		fprintf(stderr, "blunders: %ld move%s of games damaged in the store left out (named above)\n", b.skipped,
			b.skipped == 1 ? "" : "s");
	if (!rc && b.rows == 0) {
		long annotated = 0;
		if (store_count_annotated(b.s, &f, &annotated) == 0 && annotated > 0)
			fprintf(stderr, "blunders: %ld annotated game%s in the selection; no move of %s lost %ld or more\n",
				annotated, annotated == 1 ? "" : "s", annotated == 1 ? "it" : "them", minl);
		else
			fprintf(stderr, "blunders: no game of the selection is annotated (annotate them first: pdnkit annotate "
					"--db ... with the same filters)\n");
	}
	if (b.second && b.rows) {
		char safe[300];
		fflush(stdout);
		fprintf(stderr, "blunders: second opinion of %s at %g s a position: it plays %ld of the %ld moves listed itself "
			"(%.0f%%: disputed flags)", cli_safe_text(client_name(b.second), safe, sizeof safe), b.second_time, b.disputed,
			b.rows, 100.0 * (double)b.disputed / (double)b.rows);
		if (b.failed)
			fprintf(stderr, "; %ld positions without its move", b.failed);
		fprintf(stderr, "\n");
		if (b.failed && !rc)
			rc = EXIT_RUNTIME;
	}
out:
	game_free(&b.g);
	replay_free(&b.rp);
	store_close(b.s);
	client_close(b.second);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(min_loss);
	free(format);
	free(second);
	free(second_time);
	free(engines_file);
	return rc < 0 ? EXIT_OK : rc;
}
