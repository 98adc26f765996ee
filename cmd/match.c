/* pdnkit match: two engines (pdnkit with some settings, or another engine through the
 * CheckerBoard or Hub interface) play every opening with both colours; games written as
 * PDN; the score and the Elo difference with its 95% interval from the pairs of games,
 * an SPRT stop rule, each engine's time and faults. */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "engine_opts.h"
#include "analysis/match.h"
#include "rules/fen.h"
#include "store/games.h"
#include "egdb_opts.h"
#include "proto/dxp.h"
#include "proto/spec.h"
#include "match_cli.h"

/* Each game written as it finishes (a long match interrupted, even killed, keeps what
 * it played: --resume goes on from there). */
static const char *write_to;
static const char *write_event = "pdnkit match";
static bool write_failed;

static void progress_and_write(void *ctx, int done, int gi)
{
	pk_match *m = ctx;
	match_show_progress(ctx, done, gi);
	if (!write_to || write_failed)
		return;
	FILE *f = fopen(write_to, "a");
	if (f)
		match_write_game(f, m, gi, write_event, gi + 1);
	if (!f || fclose(f) != 0) {
		match_clear_progress();
		cli_error("cannot write %s: %s; the match goes on without writing", write_to, strerror(errno));
		write_failed = true;
	}
}

/* Every pair of np engines plays the openings (the template m gives the openings and
 * the rules), one pair after the other; a line a pair, then each engine's points, score
 * and Elo against the field. */
/* The score of the games judged at their first position the databases hold. */
/* An Elo figure as text: "0" rather than "-0" or "+0", else its sign; "+inf", "-inf". */
static const char *elo_text(double e, char *buf, size_t size)
{
	if (!isfinite(e))
		snprintf(buf, size, "%sinf", e > 0 ? "+" : "-");
	else if (fabs(e) < 0.5)
		snprintf(buf, size, "0");
	else
		snprintf(buf, size, "%+.0f", e);
	return buf;
}

static void print_judged(const pk_match *m)
{
	pk_match_score js;
	match_score_judged(m, &js);
	long n = js.wins + js.draws + js.losses;
	printf("judged at %d pieces (the databases' value of each game's first position of %d pieces or fewer): ",
	       egdb_pieces(m->judge), egdb_pieces(m->judge));
	if (!n) {
		printf("no game\n");
		return;
	}
	char e0[16], e1[16], e2[16];
	printf("A won %ld, drew %ld, lost %ld; score %.1f%%; Elo difference %s (95%%: %s .. %s)\n", js.wins, js.draws,
	       js.losses, 100 * js.score, elo_text(js.elo, e0, sizeof e0), elo_text(js.elo_low, e1, sizeof e1),
	       elo_text(js.elo_high, e2, sizeof e2));
}

/* An Elo difference as JSON: a number, or null when infinite (a score of 0 or 1). */
static void elo_json(double e, char *buf, size_t size)
{
	if (isfinite(e))
		snprintf(buf, size, "%.1f", e + 0.0);   /* no "-0.0" */
	else
		snprintf(buf, size, "null");
}

/* ,"judged":{...} of a match with --judge (nothing without). */
static void print_judged_json(const pk_match *m)
{
	if (!m->judge)
		return;
	pk_match_score js;
	match_score_judged(m, &js);
	char elo[3][16];
	elo_json(js.elo, elo[0], sizeof elo[0]);
	elo_json(js.elo_low, elo[1], sizeof elo[1]);
	elo_json(js.elo_high, elo[2], sizeof elo[2]);
	printf(",\"judged\":{\"pieces\":%d,\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,"
	       "\"elo\":%s,\"elo_low\":%s,\"elo_high\":%s}", egdb_pieces(m->judge), js.wins + js.draws + js.losses,
	       js.wins, js.draws, js.losses, js.score, elo[0], elo[1], elo[2]);
}

static int round_robin(const pk_match *tmpl, pk_player *pl, int np, long ngames, long nconc, const char *out, int json,
		       bool gauntlet)
{
	double pts[MAX_ENGINES] = { 0 };
	long played[MAX_ENGINES] = { 0 };
	/* Each pair's games written as they finish, after the pairs before (-o -: each pair's
	 * at its end, after its line). */
	bool to_stdout = out && !strcmp(out, "-");
	if (out && !to_stdout) {
		FILE *f = fopen(out, "w");
		if (!f || fclose(f) != 0) {
			cli_error("cannot write %s: %s", out, strerror(errno));
			return EXIT_RUNTIME;
		}
		write_to = out;
	}
	static char event[200];   /* the pair's, for progress_and_write */
	write_event = event;
	double t0 = cli_now();
	if (json)
		printf("{\"pairs\":[");
	int npair = 0;
	for (int i = 0; i < (gauntlet ? 1 : np) && !cli_interrupted; i++)
		for (int j = i + 1; j < np && !cli_interrupted; j++) {
			snprintf(event, sizeof event, "pdnkit match, %c-%c", 'A' + i, 'A' + j);
			pk_match m = *tmpl;
			m.games = NULL;
			m.ctx = &m;
			m.pl[0] = pl[i];
			m.pl[1] = pl[j];
			match_progress_t0 = cli_now();
			if (match_run(&m, ngames ? (int)ngames : 2 * m.nop, (int)nconc) < 0) {
				match_clear_progress();
				match_free_games(&m);
				cli_error("out of memory");
				return EXIT_RUNTIME;
			}
			match_clear_progress();
			pk_match_score sc;
			match_score(&m, &sc);
			pts[i] += (double)sc.wins + 0.5 * (double)sc.draws;
			pts[j] += (double)sc.losses + 0.5 * (double)sc.draws;
			played[i] += sc.wins + sc.draws + sc.losses;
			played[j] += sc.wins + sc.draws + sc.losses;
			pl[i] = m.pl[0];   /* its time counters and name */
			pl[j] = m.pl[1];
			if (json) {
				printf("%s{\"a\":", npair++ ? "," : "");
				json_string(stdout, pl[i].name);
				printf(",\"b\":");
				json_string(stdout, pl[j].name);
				printf(",\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f", sc.wins, sc.draws, sc.losses, sc.score);
				print_judged_json(&m);
				printf("}");
			} else {
				char e0[16], e1[16], e2[16];
				printf("%c-%c  %s - %s: +%ld =%ld -%ld, %.1f%%, Elo %s (95%%: %s .. %s)\n", 'A' + i, 'A' + j,
				       pl[i].name, pl[j].name, sc.wins, sc.draws, sc.losses, 100 * sc.score,
				       elo_text(sc.elo, e0, sizeof e0), elo_text(sc.elo_low, e1, sizeof e1),
				       elo_text(sc.elo_high, e2, sizeof e2));
				if (m.judge) {
					printf("     ");
					print_judged(&m);
				}
			}
			fflush(stdout);
			if (to_stdout && match_write_games(&m, out, event, NULL, false) < 0) {
				match_free_games(&m);
				return EXIT_RUNTIME;
			}
			match_free_games(&m);
		}
	if (json)
		printf("],\"engines\":[");
	else
		printf("\n%-3s %-40s %6s %7s %7s %8s %10s\n", "", "engine", "games", "points", "score", "Elo", "s a move");
	for (int i = 0; i < np; i++) {
		double sc = played[i] ? pts[i] / (double)played[i] : 0;
		double elo = sc <= 0 ? -INFINITY : sc >= 1 ? INFINITY : -400 * log10(1 / sc - 1);
		double spm = pl[i].searched ? pl[i].used / (double)pl[i].searched : 0;
		if (json) {
			printf("%s{\"name\":", i ? "," : "");
			json_string(stdout, pl[i].name);
			printf(",\"games\":%ld,\"points\":%.1f,\"score\":%.4f,\"seconds_a_move\":%.4f}", played[i], pts[i], sc, spm);
		} else
			printf("%-3c %-40.40s %6ld %7.1f %6.1f%% %+8.0f %10.3f\n", 'A' + i, pl[i].name, played[i], pts[i], 100 * sc, elo,
			       spm);
	}
	if (json)
		printf("],\"seconds\":%.1f}\n", cli_now() - t0);
	else
		printf("(Elo against the field: from each engine's score over all its games; %.0f s)\n", cli_now() - t0);
	if (cli_interrupted) {
		fprintf(stderr, "pdnkit match: interrupted; the pairs finished are shown%s\n", out ? ", their games and those of the pair under way written" : "");
		return 128 + cli_interrupted;
	}
	return EXIT_OK;
}

int cmd_match(int argc, const char **argv)
{
	char *a = NULL, *b = NULL, *openings = NULL, *games_arg = NULL, *conc = NULL, *out = NULL, *variant = NULL;
	char **engines = NULL, *engines_file = NULL, *time_arg = NULL, *ballots = NULL, *sprt = NULL, *margin = NULL;
	char *judge = NULL, *at_arg = NULL;
	char *on_fault = NULL, *adjudicate = NULL, *startup = NULL, *clock_arg = NULL, *adj_win = NULL, *adj_draw = NULL;
	int json = 0, gauntlet = 0, resume = 0;
	struct poptOption opts[] = {
		{ "gauntlet", 0, POPT_ARG_NONE, &gauntlet, 0, "with three engines or more: the first plays each of the others (not every pair)", NULL },
		{ "engine", 'E', POPT_ARG_ARGV, &engines, 0,
		  "an engine, twice (A, then B): pdnkit[:OPTIONS], cb:LIB.so[,key=value...], hub:COMMAND, dxp:HOST:PORT (International draughts), or a name of --engines", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file that names engines (pdnkit-engines(5))", "FILE" },
		{ "time", 't', POPT_ARG_STRING, &time_arg, 0, "seconds a move for every engine (default for pdnkit: its --movetime or --depth; 0.1 for others)", "SECONDS" },
		{ "clock", 0, POPT_ARG_STRING, &clock_arg, 0, "a clock for the game instead: SECONDS, plus INC seconds after each move (e.g. 60+0.5)", "SECONDS[+INC]" },
		{ "a", 0, POPT_ARG_STRING, &a, 0, "engine A is pdnkit with these options, e.g. \"--depth 8\"", "OPTIONS" },
		{ "b", 0, POPT_ARG_STRING, &b, 0, "engine B is pdnkit with these options, e.g. \"--depth 8 --no-lmr\"", "OPTIONS" },
		{ "ballots", 0, POPT_ARG_STRING, &ballots, 0,
		  "the openings: acf3 (the ACF three-move deck, 156), all3 (every three-ply opening, 302; the default), all2 (every two-ply opening, 49), or a PDN file", "DECK" },
		{ "openings", 0, POPT_ARG_STRING, &openings, 0,
		  "openings from a PDN file (with --variant the default is every first move and reply)", "FILE" },
		{ "at-pieces", 0, POPT_ARG_STRING, &at_arg, 0, "with --openings: start from each game's first position of at most N pieces where the side to move has no capture (games without one left out): a match of the endings", "N" },
		{ "sprt", 0, POPT_ARG_STRING, &sprt, 0, "stop when a sequential test decides between Elo ELO0 and ELO1 for A (alpha = beta = 0.05)", "ELO0,ELO1" },
		{ "startup", 0, POPT_ARG_STRING, &startup, 0, "seconds another engine has to start and greet (default 10)", "SECONDS" },
		{ "margin", 0, POPT_ARG_STRING, &margin, 0, "seconds another engine may take past its time before it loses on time (default 1)", "SECONDS" },
		{ "on-fault", 0, POPT_ARG_STRING, &on_fault, 0, "when an engine crashes, hangs, plays an illegal move or writes garbage: lose the game and go on (continue, the default) or also stop the run (stop)", "continue|stop" },
		{ "adjudicate-win", 0, POPT_ARG_STRING, &adj_win, 0, "end a game as a win when both engines' last MOVES scores each gave that side SCORE men or more (e.g. 3,4; off by default)", "SCORE,MOVES" },
		{ "adjudicate-draw", 0, POPT_ARG_STRING, &adj_draw, 0, "end a game as a draw from ply PLY on when both engines' last MOVES scores each stayed within SCORE men of 0 (e.g. 80,0.1,8; off by default)", "PLY,SCORE,MOVES" },
		{ "adjudicate", 0, POPT_ARG_STRING, &adjudicate, 0, "end a game at the exact value of these endgame databases (a variant's own with --variant; default: the default directory's, when there are any)", "DIR|default|none" },
		{ "judge", 0, POPT_ARG_STRING, &judge, 0, "score each game a second time by these endgame databases' value of its first position of as many pieces as they hold (the play before the ending; off by default)", "DIR|default|none" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "play this variant with the variant engine (default: English)",
		  "NAME|GAMETYPE" },
		{ "games", 0, POPT_ARG_STRING, &games_arg, 0, "play at most N games (default: every opening, both colours)", "N" },
		{ "concurrency", 'c', POPT_ARG_STRING, &conc, 0, "games played at once (default: one per core)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the games as PDN here, each as it finishes", "FILE" },
		{ "resume", 0, POPT_ARG_NONE, &resume, 0,
		  "with -o FILE: the games of this match already in FILE are counted, not played again; the others are "
		  "added to it", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_match m = { .progress = progress_and_write, .stop = &cli_interrupted };
	pk_engine_spec specs[MAX_ENGINES];
	char *pdnkit_opts_keep[MAX_ENGINES] = { NULL };
	pk_player rr[MAX_ENGINES];          /* the engines (A and B are rr[0] and rr[1]) */
	memset(rr, 0, sizeof rr);
	int np = 2;
	m.ctx = &m;
	pk_opening *op = NULL;
	if (rc)
		goto out;
	if (resume && (!out || !strcmp(out, "-"))) {
		cli_error("--resume: give -o FILE, the record of the games played so far (a file, not standard output)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (out && cli_check_output(out) < 0) {   /* said now, not after hours of games */
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_USAGE;
	if (variant && !(m.variant = cli_variant(variant)))
		goto out;
	if (m.variant && m.variant->gametype == 21)
		m.variant = NULL;               /* English: its own engine */
	/* the two engines: --engine twice, or --a/--b (pdnkit's options) */
	int ne = 0;
	while (engines && engines[ne])
		ne++;
	if (ne && (a || b)) {
		cli_error("--engine and --a/--b do not go together (--a OPTIONS is --engine \"pdnkit:OPTIONS\")");
		goto out;
	}
	if (ne == 1 || ne > MAX_ENGINES) {
		cli_error("--engine: give it twice (engine A, then engine B), or up to %d times for a round robin (%d given)",
			  MAX_ENGINES, ne);
		goto out;
	}
	if (ne > 2) {
		if (m.variant) {
			cli_error("--variant: a round robin is of English draughts engines");
			goto out;
		}
		np = ne;
	}
	double per_move = 0;
	if (time_arg && cli_number(time_arg, 0.001, 3600, "--time", &per_move))
		goto out;
	if (clock_arg) {
		char *e, *e2 = NULL;
		m.clock_base = strtod(clock_arg, &e);
		m.clock_inc = *e == '+' ? strtod(e + 1, &e2) : 0;
		if (e == clock_arg || (*e && *e != '+') || (e2 && (e2 == e + 1 || *e2)) || !(m.clock_base >= 0.01 && m.clock_base <= 86400) ||
		    !(m.clock_inc >= 0 && m.clock_inc <= 3600)) {
			cli_error("--clock: '%s' is not SECONDS or SECONDS+INC (e.g. 60+0.5)", clock_arg);
			goto out;
		}
		if (time_arg) {
			cli_error("--clock and --time do not go together");
			goto out;
		}
	}
	char *pdnkit_opts[MAX_ENGINES] = { NULL };
	for (int i = 0; i < np; i++) {
		if (ne) {
			char err[600];
			if (spec_parse(engines[i], engines_file, &specs[i], err, sizeof err) < 0) {
				cli_error("--engine %s", err);
				goto out;
			}
			if (specs[i].kind == SPEC_DXP) {
				/* DXP: International draughts, a clock of whole minutes for the game */
				if (!m.variant || strcmp(m.variant->key, "international")) {
					cli_error("--engine %s: a DXP engine plays International draughts: add --variant international",
						  engines[i]);
					goto out;
				}
				if (m.clock_base <= 0 || m.clock_inc > 0 || fmod(m.clock_base, 60) != 0) {
					cli_error("--engine %s: a DXP engine plays on a clock of whole minutes for the game, without an "
						  "increment: give --clock SECONDS (60, 120, ...)", engines[i]);
					goto out;
				}
				rr[i].ext = &specs[i];
				rr[i].spec = specs[i].text;
				snprintf(rr[i].name, sizeof rr[i].name, "%s", specs[i].label);
				continue;
			}
			if (specs[i].kind != SPEC_PDNKIT) {
				if (m.variant) {
					cli_error("--engine %s: other engines play English draughts only here", engines[i]);
					goto out;
				}
				rr[i].ext = &specs[i];
				rr[i].ext_time = per_move > 0 ? per_move : 0.1;
				rr[i].spec = specs[i].text;
				snprintf(rr[i].name, sizeof rr[i].name, "%s", specs[i].label);
				continue;
			}
		}
		const char *given = ne ? specs[i].target : i == 0 ? a : b;
		bool has_limit = given && (strstr(given, "--depth") || strstr(given, "--movetime") || strstr(given, "--nodes") ||
					   strstr(given, "--level") || strstr(given, "-d ") || strstr(given, "-t "));
		size_t n = (given ? strlen(given) : 0) + 64;
		if (!(pdnkit_opts[i] = malloc(n))) {
			cli_error("out of memory");
			goto out;
		}
		if (m.clock_base > 0 || has_limit || !per_move)
			/* with a clock, no limit of its own: the clock gives each move its time */
			snprintf(pdnkit_opts[i], n, "%s", given && *given ? given : m.clock_base > 0 ? "" : "--depth 6");
		else
			snprintf(pdnkit_opts[i], n, "%s%s--movetime %g", given ? given : "", given && *given ? " " : "", per_move);
		rr[i].spec = pdnkit_opts_keep[i] = pdnkit_opts[i];
		snprintf(rr[i].name, sizeof rr[i].name, "pdnkit%s%s", *pdnkit_opts[i] ? " " : "", pdnkit_opts[i]);
		char what[32];
		snprintf(what, sizeof what, "engine %c", 'A' + i);
		if (match_parse_player(ne ? what : (i == 0 ? "--a" : "--b"), pdnkit_opts[i], m.variant, ne > 0, &rr[i]) < 0)
			goto out;
	}
	if ((margin && cli_number(margin, 0.001, 3600, "--margin", &m.copts.margin)) ||
	    (startup && cli_number(startup, 0.01, 3600, "--startup", &m.copts.startup)))
		goto out;
	/* the other engines are started once now: one that cannot start is said at once,
	 * not as a lost game after another */
	for (int i = 0; i < np; i++) {
		if (!rr[i].ext)
			continue;
		char err[800], safe[900];
		if (rr[i].ext->kind == SPEC_DXP) {
			dxp_client *d = dxp_client_open(rr[i].ext, &m.copts, err, sizeof err);
			if (!d) {
				cli_error("engine %c: %s", 'A' + i, cli_safe_text(err, safe, sizeof safe));
				rc = EXIT_RUNTIME;
				goto out;
			}
			dxp_client_close(d);   /* its name comes with the first game's GAMEACC */
			continue;
		}
		pk_client *c = client_open(rr[i].ext, &m.copts, err, sizeof err);
		if (!c) {
			cli_error("engine %c: %s", 'A' + i, cli_safe_text(err, safe, sizeof safe));
			rc = EXIT_RUNTIME;
			goto out;
		}
		snprintf(rr[i].name, sizeof rr[i].name, "%s", client_name(c));
		client_close(c);
	}
	m.pl[0] = rr[0];
	m.pl[1] = rr[1];
	if (adj_win) {
		double sc;
		int mv, used = 0;
		if (sscanf(adj_win, "%lf,%d%n", &sc, &mv, &used) != 2 || adj_win[used] || !(sc >= 0.1 && sc <= 100) || mv < 1 ||
		    mv > 100) {
			cli_error("--adjudicate-win: '%s' is not SCORE,MOVES (men from 0.1 to 100, moves from 1 to 100; e.g. 3,4)",
				  adj_win);
			goto out;
		}
		m.score_win = (int)(sc * 100 + 0.5);
		m.score_moves = mv;
	}
	if (adj_draw) {
		double sc;
		int pl, mv, used = 0;
		if (sscanf(adj_draw, "%d,%lf,%d%n", &pl, &sc, &mv, &used) != 3 || adj_draw[used] || pl < 0 || pl > MATCH_MAX_PLIES ||
		    !(sc >= 0 && sc <= 10) || mv < 1 || mv > 100) {
			cli_error("--adjudicate-draw: '%s' is not PLY,SCORE,MOVES (e.g. 80,0.1,8)", adj_draw);
			goto out;
		}
		m.draw_ply = pl;
		m.draw_score = (int)(sc * 100 + 0.5);
		m.draw_moves = mv;
	}
	if (on_fault && strcmp(on_fault, "continue") && strcmp(on_fault, "stop")) {
		cli_error("--on-fault: '%s' is neither continue nor stop", on_fault);
		goto out;
	}
	m.stop_on_fault = on_fault && !strcmp(on_fault, "stop");
	if (sprt) {
		char *e, *e2;
		m.sprt_elo0 = strtod(sprt, &e);
		m.sprt_elo1 = *e == ',' ? strtod(e + 1, &e2) : 0;
		if (e == sprt || *e != ',' || e2 == e + 1 || *e2 || !isfinite(m.sprt_elo0) || !isfinite(m.sprt_elo1) ||
		    m.sprt_elo0 >= m.sprt_elo1 || fabs(m.sprt_elo0) > 1000 || fabs(m.sprt_elo1) > 1000) {
			cli_error("--sprt: '%s' is not ELO0,ELO1 with ELO0 < ELO1 (e.g. 0,10)", sprt);
			goto out;
		}
	}
	if (!m.variant) {
		bool failed = false;
		if (adjudicate && !strcmp(adjudicate, "default"))
			m.adjudicate = egdb_use_option(NULL, true, &failed);
		else if (!adjudicate || strcmp(adjudicate, "none"))
			m.adjudicate = egdb_use_option(adjudicate, adjudicate == NULL, &failed);
		if (failed)
			goto out;
		if (judge && strcmp(judge, "none") && !(m.judge = egdb_use_option(judge, false, &failed))) {
			if (!failed)
				cli_error("--judge: no endgame databases to judge with");
			rc = EXIT_RUNTIME;
			goto out;
		}
	} else if (judge && strcmp(judge, "none")) {
		cli_error("--judge: the endgame databases are of English draughts");
		goto out;
	} else if (match_vadjudicate_option(adjudicate, m.variant, &m.vadjudicate) < 0) {
		goto out;
	}
	long ngames = 0, nconc = sysconf(_SC_NPROCESSORS_ONLN);
	if (games_arg && cli_int(games_arg, 1, 10000000, "--games", &ngames))
		goto out;
	if (conc && cli_int(conc, 1, 256, "--concurrency", &nconc))
		goto out;
	for (int i = 0; i < np; i++)
		if (rr[i].ext && rr[i].ext->kind == SPEC_DXP) {
			/* DXP is one game over a connection: an engine that takes one connection at a
			 * time plays one game at a time */
			if (!conc)
				nconc = 1;
			else if (nconc > 1)
				fprintf(stderr, "pdnkit match: note: -c %ld opens %ld connections to the DXP engine at once; "
					"an engine that serves one at a time needs -c 1\n", nconc, nconc);
		}
	if (ballots && openings) {
		cli_error("--ballots and --openings do not go together");
		goto out;
	}
	if (ballots && strcmp(ballots, "acf3") && strcmp(ballots, "all3") && strcmp(ballots, "all2")) {
		if (access(ballots, F_OK) != 0) {
			cli_error("--ballots: '%s' is neither acf3, all3, all2 nor a PDN file", ballots);
			goto out;
		}
		openings = ballots;
		ballots = NULL;
	}
	if (ballots && m.variant) {
		cli_error("--ballots %s: the decks are of English draughts (use --openings FILE with --variant)", ballots);
		goto out;
	}
	long at_pieces = 0;
	if (at_arg && (!openings || cli_int(at_arg, 2, m.variant ? variant_squares(m.variant) : 32, "--at-pieces", &at_pieces))) {
		if (!openings)
			cli_error("--at-pieces picks a position of each game of --openings FILE: give --openings too");
		goto out;
	}
	m.nop = openings ? match_openings_file(openings, m.variant, (int)at_pieces, &op)
		: m.variant ? match_vopenings(m.variant, &op)
		: ballots && !strcmp(ballots, "acf3") ? match_deck(3, &op)
		: ballots && !strcmp(ballots, "all2") ? match_deck(2, &op) : match_ballots(&op);
	m.op = op;
	if (m.nop <= 0) {
		if (m.nop == 0)
			cli_error("no usable opening in '%s'", openings);
		rc = m.nop < 0 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (np > 2) {
		if (resume) {
			cli_error("--resume: a match of two engines only");
			goto out;
		}
		rc = round_robin(&m, rr, np, ngames, nconc, out, json, gauntlet);
		goto out;
	}
	if (match_prepare(&m, ngames ? (int)ngames : 2 * m.nop) < 0) {
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	int resumed = 0;
	if (resume && (resumed = match_resume(&m, out, "pdnkit match")) < 0) {
		rc = EXIT_FINDINGS;
		goto out;
	}
	bool to_stdout = out && !strcmp(out, "-");   /* written at the end, after the result */
	if (out && !resume && !to_stdout) {
		FILE *f = fopen(out, "w");   /* the games are added as they finish */
		if (!f || fclose(f) != 0) {
			cli_error("cannot write %s: %s", out, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	write_to = to_stdout ? NULL : out;
	match_progress_resumed = resumed;
	if (resumed && !json)
		printf("resumed: %d of %d games read from %s (their time is not in the figures below)\n", resumed, m.ngames, out);
	fflush(stdout);
	double t0 = cli_now();
	match_progress_t0 = t0;
	/* A signal ends the match: the games being played are abandoned, the finished ones
	 * are counted, shown and written. */
	cli_catch_signals(true);
	if (match_play(&m, (int)nconc) < 0) {
		match_clear_progress();
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	match_clear_progress();
	if (cli_interrupted)
		fprintf(stderr, "pdnkit match: interrupted after %d of %d games; the finished games are counted%s\n",
			match_finished(&m), m.ngames, out ? " and written" : "");
	double secs = cli_now() - t0;
	pk_match_score sc;
	match_score(&m, &sc);
	long w = sc.wins, d = sc.draws, l = sc.losses, n = w + d + l;
	double s = sc.score;
	/* faults by kind and engine */
	long faults[2][6];
	memset(faults, 0, sizeof faults);
	for (int i = 0; i < m.ngames; i++)
		if (atomic_load(&m.games[i].finished) && m.games[i].fault_by >= 0)
			faults[m.games[i].fault_by][m.games[i].fault]++;
	double lo, hi;
	match_sprt_bounds(&lo, &hi);
	const char *decision = m.sprt_decision > 0 ? "H1" : m.sprt_decision < 0 ? "H0" : NULL;
	if (json) {
		/* an infinite Elo (a score of 0 or 1) is no JSON number: null */
		char elo[3][16];
		elo_json(sc.elo, elo[0], sizeof elo[0]);
		elo_json(sc.elo_low, elo[1], sizeof elo[1]);
		elo_json(sc.elo_high, elo[2], sizeof elo[2]);
		printf("{");
		if (m.variant)
			printf("\"variant\":\"%s\",", m.variant->key);
		printf("\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,\"elo\":%s,"
		       "\"elo_low\":%s,\"elo_high\":%s,\"pairs\":%ld", n, w, d, l, s, elo[0], elo[1], elo[2], sc.pairs);
		print_judged_json(&m);
		printf(",");
		if (sprt)
			printf("\"sprt\":{\"elo0\":%g,\"elo1\":%g,\"llr\":%.3f,\"lower\":%.3f,\"upper\":%.3f,\"decision\":%s%s%s},",
			       m.sprt_elo0, m.sprt_elo1, sc.llr, lo, hi, decision ? "\"" : "", decision ? decision : "null",
			       decision ? "\"" : "");
		printf("\"engines\":[");
		for (int i = 0; i < 2; i++) {
			pk_player *pl = &m.pl[i];
			printf("%s{\"spec\":", i ? "," : "");
			json_string(stdout, pl->spec);
			printf(",\"name\":");
			json_string(stdout, pl->name);
			printf(",\"moves_searched\":%ld,\"seconds_used\":%.3f,\"seconds_a_move\":%.4f,\"longest_move\":%.3f,"
			       "\"limit\":%g,\"crashes\":%ld,\"time_losses\":%ld,\"illegal_moves\":%ld,\"garbage\":%ld,\"no_move\":%ld}",
			       pl->searched, pl->used, pl->searched ? pl->used / (double)pl->searched : 0, pl->longest,
			       m.clock_base > 0 ? 0 : pl->ext ? pl->ext_time : pl->lim.movetime, faults[i][CLIENT_CRASHED], faults[i][CLIENT_TIMEOUT],
			       faults[i][CLIENT_ILLEGAL], faults[i][CLIENT_GARBAGE], faults[i][CLIENT_NO_MOVE]);
		}
		printf("],\"resumed\":%d,\"seconds\":%.1f}\n", resumed, secs);
	}
	else {
		if (m.variant)
			printf("%s\n", m.variant->name);
		for (int i = 0; i < 2; i++) {
			pk_player *pl = &m.pl[i];
			printf("%s: %s", i ? "B" : "A", pl->name);
			if (pl->ext && strcmp(pl->name, pl->spec))
				printf(" (%s)", pl->spec);
			double limit = m.clock_base > 0 ? 0 : pl->ext ? pl->ext_time : pl->lim.movetime;
			if (pl->searched) {
				printf("; %.3f s a move", pl->used / (double)pl->searched);
				if (limit > 0)
					printf(" (%.0f%% of %g s)", 100 * pl->used / (double)pl->searched / limit, limit);
				printf(", longest %.2f s", pl->longest);
			}
			printf("\n");
		}
		char e0[16], e1[16], e2[16];
		printf("%ld games: A won %ld, drew %ld, lost %ld; score %.1f%%; Elo difference %s "
		       "(95%%: %s .. %s%s); %.0f s\n", n, w, d, l, 100 * s, elo_text(sc.elo, e0, sizeof e0),
		       elo_text(sc.elo_low, e1, sizeof e1), elo_text(sc.elo_high, e2, sizeof e2),
		       sc.pairs >= 2 ? ", from the pairs" : "", secs);
		if (m.judge)
			print_judged(&m);
		if (sprt)
			printf("SPRT Elo %g vs %g: LLR %.2f (bounds %.2f, %.2f): %s\n", m.sprt_elo0, m.sprt_elo1, sc.llr, lo, hi,
			       decision ? (m.sprt_decision > 0 ? "H1 accepted (A is better by ELO1 rather than ELO0)" :
					   "H0 accepted (A is not better by ELO1)") : "undecided");
		for (int i = 0; i < 2; i++) {
			long total = 0;
			for (int k = 1; k < 6; k++)
				total += faults[i][k];
			if (total)
				printf("%s faults: %ld crashed, %ld on time, %ld illegal, %ld garbage, %ld no move\n", i ? "B" : "A",
				       faults[i][CLIENT_CRASHED], faults[i][CLIENT_TIMEOUT], faults[i][CLIENT_ILLEGAL],
				       faults[i][CLIENT_GARBAGE], faults[i][CLIENT_NO_MOVE]);
		}
		int shown = 0;
		for (int i = 0; i < m.ngames && shown < 20; i++)
			if (atomic_load(&m.games[i].finished) && m.games[i].detail) {
				char safe[1200];
				cli_safe_text(m.games[i].detail, safe, sizeof safe);
				printf("game %d: %s lost: %s\n", i + 1, m.games[i].fault_by ? "B" : "A", safe);
				shown++;
			}
	}
	if (!json && (m.pl[0].bk || m.pl[1].bk))
		printf("book moves played: A %ld, B %ld\n", m.book_moves[0], m.book_moves[1]);
	if (write_failed || (to_stdout && match_write_games(&m, out, "pdnkit match", NULL, false) < 0)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	match_free_games(&m);
	free(op);
	for (int i = 0; i < np; i++) {
		book_free(rr[i].bk);
		egdb_free(rr[i].egdb);
	}
	poptFreeContext(ctx);
	free(a);
	free(b);
	free(openings);
	free(games_arg);
	free(conc);
	free(out);
	free(variant);
	for (int i = 0; engines && engines[i]; i++)
		free(engines[i]);
	free(engines);
	free(engines_file);
	free(time_arg);
	free(ballots);
	free(sprt);
	free(margin);
	free(on_fault);
	free(adjudicate);
	free(judge);
	free(at_arg);
	free(adj_win);
	free(adj_draw);
	free(startup);
	for (int i = 0; i < MAX_ENGINES; i++)
		free(pdnkit_opts_keep[i]);
	free(clock_arg);
	egdb_free(m.adjudicate);
	egdb_free(m.judge);
	return rc;
}
