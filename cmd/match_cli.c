/* What pdnkit match and pdnkit selfplay share (match_cli.h). */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "pdn/pdn.h"
#include "commands.h"
#include "engine_opts.h"
#include "analysis/match.h"
#include "rules/fen.h"
#include "store/games.h"
#include "egdb_opts.h"
#include "proto/spec.h"
#include "match_cli.h"

/* Parse "--depth 6 --no-lmr" into a player. */
int match_parse_player(const char *what, const char *spec, const pk_variant *v, bool as_engine, pk_player *pl)
{
	engine_args ea;
	engine_args_init(&ea);
	ea.playing = true;
	int no_lmr = 0, strong_lmr = 0, no_killers = 0, no_history = 0, no_aspiration = 0;
	char *book = NULL, *lmr = NULL;
	int tt_buckets = 0;
	struct poptOption extra[] = {
		{ "no-lmr", 0, POPT_ARG_NONE, &no_lmr, 0, NULL, NULL },
		{ "strong-lmr", 0, POPT_ARG_NONE, &strong_lmr, 0, NULL, NULL },
		{ "lmr", 0, POPT_ARG_STRING, &lmr, 0, NULL, NULL },
		{ "tt-buckets", 0, POPT_ARG_NONE, &tt_buckets, 0, NULL, NULL },
		{ "no-killers", 0, POPT_ARG_NONE, &no_killers, 0, NULL, NULL },
		{ "no-history", 0, POPT_ARG_NONE, &no_history, 0, NULL, NULL },
		{ "no-aspiration", 0, POPT_ARG_NONE, &no_aspiration, 0, NULL, NULL },
		{ "book", 0, POPT_ARG_STRING, &book, 0, NULL, NULL },
		POPT_TABLEEND
	};
	int status = 0;
	if (engine_args_from_string(what, spec, extra, &ea) < 0)
		status = -1;
	else if (engine_args_resolve(&ea, &pl->lim) || (!v && engine_weights(&ea, &pl->w) < 0))
		status = -1;
	else if (book_option_for(book, as_engine, v, &pl->bk) < 0)
		status = -1;
	if (engine_features(&ea, &pl->f) < 0)
		status = -1;
	/* the older switches, kept beside --features */
	char given[32];
	if (no_lmr || strong_lmr) {
		snprintf(given, sizeof given, "lmr=%d", no_lmr ? 0 : 2);
		features_parse(given, &pl->f, NULL, 0);
	}
	long lv;
	if (lmr) {
		if (cli_int(lmr, 0, 5, "--lmr", &lv))
			status = -1;
		else {
			snprintf(given, sizeof given, "lmr=%ld", lv);
			features_parse(given, &pl->f, NULL, 0);
		}
	}
	free(lmr);
	if (no_killers)
		pl->f.killers = false;
	if (no_history)
		pl->f.history = false;
	if (no_aspiration)
		pl->f.aspiration = 0;
	if (tt_buckets)
		pl->f.tt_ways = 2;
	if (v) {
		/* the variant engine: English draughts' search on its board (its features and
		 * threads too); --egdb names where the variant's own databases are */
		if (ea.egdb_cache) {
			cli_error("%s: with --variant the engine takes --depth, --nodes, --movetime, --level, --hash, "
				  "--weights, --patterns, --net, --features, --threads, --egdb and --book only", what);
			status = -1;
		} else if (ea.egdb && !strcmp(ea.egdb, "none"))
			pl->vegdb = 2;
		else if (ea.egdb) {
			pl->vegdb = 1;
			egdb_dir(strcmp(ea.egdb, "default") ? ea.egdb : NULL, pl->vegdb_dir, sizeof pl->vegdb_dir);
		}
		if (status == 0 && engine_vweights(&ea, v, &pl->vw) < 0) {
			status = -1;
		}
	} else if (status == 0 && engine_egdb(&ea, &pl->egdb) < 0) {
		status = -1;
	}
	free(book);
	ea.db = NULL;                   /* the player's now */
	/* --engine pdnkit is the engine as analyze and play have it (64 MB); --a and --b
	 * keep the smaller table of self-play matches */
	pl->hash = ea.hash ? (size_t)atol(ea.hash) : as_engine ? 64 : 16;
	pl->threads = engine_threads(&ea);
	engine_args_free(&ea);
	return status;
}

int match_vadjudicate_option(const char *arg, const pk_variant *v, const pk_vegdb **out)
{
	*out = NULL;
	const char *env = getenv("PDNKIT_EGDB");
	if ((arg && !strcmp(arg, "none")) || (!arg && env && !strcmp(env, "none")))
		return 0;
	bool asked = arg != NULL;
	char dir[4096];
	egdb_dir(arg && strcmp(arg, "default") ? arg : NULL, dir, sizeof dir);
	struct stat st;
	if (asked && stat(dir, &st) != 0) {
		cli_error("--adjudicate: no endgame databases at %s (the directory does not exist): build them with "
			  "'pdnkit egdb build --variant %s --egdb %s', or give --adjudicate none", dir, v->key, dir);
		return -1;
	}
	*out = vegdb_shared_in(dir, v);
	if (!*out && asked)
		cli_warning("no %s endgame databases in %s: games are not adjudicated%s%s%s", v->name, dir,
			    vegdb_supported(v) ? " (pdnkit egdb build --variant " : "", vegdb_supported(v) ? v->key : "",
			    vegdb_supported(v) ? ")" : "");
	return 0;
}

/* On a terminal, a line kept up to date as games finish: how many, A's score so far and
 * the Elo interval, the time left at this pace. */
double match_progress_t0;
bool match_progress_shown;

int match_progress_resumed;

void match_show_progress(void *ctx, int done, int gi)
{
	(void)gi;
	pk_match *m = ctx;
	if (!cli_stderr_is_tty())
		return;
	pk_match_score sc;
	match_score(m, &sc);
	double secs = cli_now() - match_progress_t0;
	int played = done - match_progress_resumed;   /* this sitting's games */
	double eta = played > 0 ? secs * (m->ngames - done) / played : 0;
	fprintf(stderr, "\rmatch: %d/%d games, A +%ld =%ld -%ld, %.1f%%", done, m->ngames, sc.wins, sc.draws,
		sc.losses, 100 * sc.score);
	if (isfinite(sc.elo_low) && isfinite(sc.elo_high))
		fprintf(stderr, ", Elo %+.0f (%+.0f .. %+.0f)", sc.elo, sc.elo_low, sc.elo_high);
	fprintf(stderr, ", ETA %d:%02d:%02d\033[K", (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	match_progress_shown = true;
}

void match_clear_progress(void)
{
	if (match_progress_shown)
		fprintf(stderr, "\r\033[K");
	match_progress_shown = false;
}

/* A PDN tag pair; quotes and backslashes in the value (an engine's options) escaped. */
static void tag(FILE *f, const char *name, const char *value)
{
	fprintf(f, "[%s \"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs("\"]\n", f);
}

/* The time control as the record names it ("" when there is none to name). */
static void time_control(const pk_match *m, char *tc, size_t n)
{
	double limit = m->pl[0].ext ? m->pl[0].ext_time : m->pl[0].lim.movetime;
	if (m->clock_base > 0)
		snprintf(tc, n, "%g+%g", m->clock_base, m->clock_inc);   /* PGN's form: seconds+increment */
	else if (limit > 0)
		snprintf(tc, n, "%g s a move", limit);
	else
		*tc = '\0';
}

void match_write_game(FILE *f, const pk_match *m, int i, const char *event_name, long id)
{
	const pk_match_game *g = &m->games[i];
	const pk_opening *o = &m->op[g->opening];
	char event[64], num[32];
	int bl = g->a_black ? 0 : 1;
	snprintf(event, sizeof event, "%s, game %ld", event_name, id);
	tag(f, "Event", event);
	snprintf(num, sizeof num, "%ld", id);
	tag(f, "Round", num);
	tag(f, "Black", m->pl[bl].name);
	tag(f, "White", m->pl[!bl].name);
	tag(f, "Result", result_string(g->result));
	tag(f, "Opening", o->text);
	tag(f, "Termination", g->reason);
	if (g->detail)
		tag(f, "TerminationDetail", g->detail);
	char tc[48];
	time_control(m, tc, sizeof tc);
	if (*tc)
		tag(f, "TimeControl", tc);
	snprintf(tc, sizeof tc, "%.2f", g->used[bl]);
	tag(f, "BlackSeconds", tc);
	snprintf(tc, sizeof tc, "%.2f", g->used[!bl]);
	tag(f, "WhiteSeconds", tc);
	/* The record starts where the opening starts (its plies are the first of the move
	 * text), the initial position without a FEN, so that a store finds the game by its
	 * opening moves; an opening that is a position of its own starts with its FEN. */
	char fen[VAR_FEN_STRLEN] = "";
	pk_gpos root, initial;
	if (m->variant)
		fprintf(f, "[GameType \"%d\"]\n", m->variant->gametype);
	if (!match_opening_root(o, m->variant, &root)) {
		if (m->variant)
			vfen_format(&o->vstart, fen, sizeof fen);
		else
			fen_format(&o->start, fen, sizeof fen);
	} else {
		gpos_start(&initial, m->variant);
		if (gpos_key(&root) != gpos_key(&initial) || gpos_stm(&root) != gpos_stm(&initial))
			gpos_fen(&root, fen, sizeof fen);
	}
	if (*fen)
		fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
	/* (the move text numbers a start by the second mover "1... " itself) */
	fprintf(f, "\n%s%s%s\n\n", g->movetext ? g->movetext : "", g->movetext && *g->movetext ? " " : "",
		result_string(g->result));
}

/* The finished games as PDN into out (replaced, or appended to with append): the
 * engines' names, the opening, how it ended, the time control and time used. Game i is
 * round ids[i] (ids NULL: i + 1). -1 after saying why. */
int match_write_games(const pk_match *mp, const char *out, const char *event_name, const long *ids, bool append)
{
	cli_text txt;
	FILE *f = append ? fopen(out, "a") : cli_text_begin(&txt);
	if (!f) {
		if (append)
			cli_error("cannot write %s: %s", out, strerror(errno));
		return -1;
	}
	for (int i = 0; i < mp->ngames; i++)
		if (atomic_load(&mp->games[i].finished))
			match_write_game(f, mp, i, event_name, ids ? ids[i] : i + 1);
	if (append) {
		if (fclose(f) != 0) {
			cli_error("cannot write %s: %s", out, strerror(errno));
			return -1;
		}
		return 0;
	}
	return cli_text_commit(&txt, out) < 0 ? -1 : 0;
}

/* A game of a record judged as match_play judges the games it plays (m->judge): its moves
 * replayed up to its first position the databases hold. 0, or -1 when out of memory. */
static int judge_record(pk_egdb *db, pk_game *g, pk_replay *rp, int result, int *judged)
{
	if (replay_game(g, rp) < 0)
		return -1;
	if (match_judge_step(db, &rp->start, result, judged))
		return 0;
	for (int i = 0; i < rp->nply; i++)
		if (match_judge_step(db, &rp->plies[i].after, result, judged))
			return 0;
	match_judge_step(db, NULL, result, judged);
	return 0;
}

/* Whether a recorded player is this seat's engine. A DXP engine gives its name with a game's
 * GAMEACC, so before its first game here it is known by its label only: the name the file
 * records for its seat is taken, and every other game of the file must then agree with it. */
static bool seat_is(pk_player *pl, const char *recorded)
{
	if (!strcmp(recorded, pl->name))
		return true;
	if (!pl->ext || pl->ext->kind != SPEC_DXP || strcmp(pl->name, pl->ext->label) || !*recorded)
		return false;
	snprintf(pl->name, sizeof pl->name, "%s", recorded);
	return true;
}

int match_resume(pk_match *m, const char *path, const char *event_name)
{
	int err = 0;
	pk_reader *r = pdn_open(path, &err);
	if (!r) {
		if (errno == ENOENT)
			return 0;       /* nothing played yet */
		cli_error("--resume: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	pk_game g;
	game_init(&g);
	pk_replay rp;
	replay_init(&rp);
	int got, n = 0, rc = 0;
	char want_tc[48];
	time_control(m, want_tc, sizeof want_tc);
	size_t elen = strlen(event_name);
	while ((got = pdn_read(r, &g)) == 1) {
		const char *ev = game_tag(&g, "Event"), *round = game_tag(&g, "Round"), *res = game_tag(&g, "Result");
		const char *black = game_tag(&g, "Black"), *white = game_tag(&g, "White"), *opening = game_tag(&g, "Opening");
		const char *tc = game_tag(&g, "TimeControl"), *term = game_tag(&g, "Termination");
		const char *detail = game_tag(&g, "TerminationDetail"), *gt = game_tag(&g, "GameType");
		const char *why = NULL;
		char *e = NULL;
		long id = round ? strtol(round, &e, 10) : 0;
		int result = RES_NONE;
		for (int k = RES_BLACK_WINS; k <= RES_DRAW && res; k++)
			if (!strcmp(res, result_string(k)))
				result = k;
		if (!ev || strncmp(ev, event_name, elen) || strncmp(ev + elen, ", game ", 7) || !round || e == round || *e ||
		    id < 1 || strtol(ev + elen + 7, NULL, 10) != id)
			why = "it is no game of a match (its Event and Round are not \"pdnkit match, game N\" and N)";
		else if (id > m->ngames)
			why = "its round is past the games of this match (another deck or --games?)";
		else if (atomic_load(&m->games[id - 1].finished))
			why = "its round is in the file twice";
		else if (result == RES_NONE)
			why = "it has no result";
		else if (strcmp(tc ? tc : "", want_tc))
			why = "its time control is not this match's";
		else if (m->variant ? !gt || atoi(gt) != m->variant->gametype : gt && atoi(gt) != 21)
			why = "its variant is not this match's";
		if (!why) {
			pk_match_game *mg = &m->games[id - 1];
			int bl = mg->a_black ? 0 : 1;
			/* the players last: a DXP seat takes its name from the first game that
			 * passes every other check */
			if (!opening || strcmp(opening, m->op[mg->opening].text))
				why = "its opening is not this round's opening of the deck";
			else if (!black || !white || !seat_is(&m->pl[bl], black) || !seat_is(&m->pl[!bl], white))
				why = "its players are not this match's engines with those colours";
			else {
				mg->result = result;
				mg->reason = "resumed";
				mg->fault_by = -1;
				/* a fault, by the referee's words for it: the engine that lost is the
				 * one at fault */
				static const pk_client_status faults[] = { CLIENT_TIMEOUT, CLIENT_ILLEGAL, CLIENT_CRASHED,
									   CLIENT_GARBAGE, CLIENT_NO_MOVE };
				for (size_t k = 0; term && result != RES_DRAW && k < sizeof faults / sizeof *faults; k++)
					if (!strcmp(term, match_fault_reason(faults[k]))) {
						/* results count from the first mover (White in International
						 * draughts), as the match's score counts them */
						bool loser_first = result == RES_WHITE_WINS;
						bool a_first = match_a_first(m, (int)(mg - m->games));
						mg->reason = match_fault_reason(faults[k]);
						mg->fault = faults[k];
						mg->fault_by = loser_first == a_first ? 0 : 1;
						if (detail && !(mg->detail = strdup(detail))) {
							why = "out of memory";
							break;
						}
					}
				if (!why && m->judge && judge_record(m->judge, &g, &rp, result, &mg->judged) < 0)
					why = "out of memory";
				atomic_store(&mg->finished, true);
				n++;
			}
		}
		if (why) {
			cli_error("--resume: %s: game %d (line %u): %s; nothing played", path, g.index, g.line, why);
			rc = -1;
			break;
		}
	}
	if (got < 0 && !rc) {
		cli_error("--resume: %s: %s", path, pdn_error(r));
		rc = -1;
	}
	game_free(&g);
	replay_free(&rp);
	pdn_close(r);
	return rc < 0 ? -1 : n;
}

/* Openings from a PDN file: each game's FEN (or the start) plus its moves. */
int match_openings_file(const char *path, const pk_variant *var, int at_pieces, pk_opening **out)
{
	const char *files[] = { path };
	pk_source src = { .files = files, .nfiles = 1 };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		return -1;
	}
	int cap = 256, n = 0, got;
	pk_opening *v = malloc(sizeof *v * (size_t)cap);
	pk_game *g;
	pk_replay *rp;
	while (v && (got = games_next(it, &g, &rp)) != GAMES_END) {
		if (got != GAMES_GAME) {
			cli_error("%s", games_error(it));
			free(v);
			v = NULL;
			break;
		}
		if (g->findings.errors || (var ? rp->variant != var->gametype : !rp->supported))
			continue;
		if (n == cap) {
			pk_opening *nv = realloc(v, sizeof *v * (size_t)(cap *= 2));
			if (!nv) {
				cli_error("out of memory");
				free(v);
				v = NULL;
				break;
			}
			v = nv;
		}
		n += var ? match_vopening_of(var, rp, at_pieces, &v[n]) : match_opening_of(rp, at_pieces, &v[n]);
	}
	games_close(it);
	*out = v;
	return v ? n : -1;
}
