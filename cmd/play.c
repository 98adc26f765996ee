/* pdnkit play: a game against the engine, full-screen in a terminal or in lines of text
 * (when standard input is not a terminal, or with --line), with levels or a clock, hints,
 * analysis, take-backs, set-up positions, three-move openings and games saved as PDN. */
#include <ctype.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "proto/client.h"
#include "commands.h"
#include "engine_opts.h"
#include "play.h"
#include "analysis/match.h"
#include "rules/fen.h"

static pctx *the_game;   /* for the SIGINT handler */

static void on_sigint(int sig)
{
	(void)sig;
	if (the_game)
		the_game->stop = 1;
}

/* The terminal closed (SIGHUP) or the program asked to end (SIGTERM): the game ends
 * here and, with -o, is saved. */
static volatile sig_atomic_t ended_by;
static void on_end_signal(int sig)
{
	ended_by = sig;
	if (the_game)
		the_game->stop = 1;
}

/* ---- what the engine says while it searches ---- */

void pc_score_for_view(const pctx *c, int score, int side, char *buf, size_t size)
{
	/* one side for every score of a game: the player's when one side is played by a
	 * person and the other by the engine, else the side that moves first */
	int view = c->engine_plays[PK_BLACK] != c->engine_plays[PK_WHITE]
			   ? (c->engine_plays[PK_BLACK] ? PK_WHITE : PK_BLACK)
			   : gpos_first(&c->g.pos);
	cli_score_text(side == view ? score : -score, view, buf, size);
}

void pc_move_text(const pk_gpos *p, const pk_gmove *m, char *buf, size_t size)
{
	if (p->v) {
		vmove_text(p->v, &m->x, false, buf, size);
		return;
	}
	char mv[PK_MOVE_STRLEN];
	pdn_move_string(&p->e, &m->e, false, mv);
	snprintf(buf, size, "%s", mv);
}

/* The line pv from root, as the variant writes its moves. */
static void pv_text(const pk_gpos *root, const pk_gmove *pv, int n, char *buf, size_t size)
{
	pk_gpos p = *root;
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < n && len + 80 < size; i++) {
		char mv[400];
		pc_move_text(&p, &pv[i], mv, sizeof mv);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", mv);
		pk_gpos q;
		gpos_make(&p, &pv[i], &q);
		p = q;
	}
}

static void pc_on_iteration(void *vctx, const pk_giteration *it)
{
	pc_itctx *x = vctx;
	pctx *c = x->c;
	pv_text(x->root, it->pv, it->npv, c->line, sizeof c->line);
	c->depth = it->depth;
	c->score = it->score;
	c->score_side = gpos_stm(x->root);
	c->seconds = it->seconds;
	c->nodes = it->nodes;
	if (c->screen)
		view_draw(c);
	else if (x->print) {
		char s[48];
		pc_score_for_view(c, it->score, gpos_stm(x->root), s, sizeof s);
		printf("depth %d  score %s  %.1f s  %s\n", it->depth, s, it->seconds, c->line);
		fflush(stdout);
	}
}

void pc_think(pctx *c, const pk_gpos *root, const pk_history *h, const pk_limits *lim, bool use_book,
	      bool print, void (*watch)(void *wctx, const atomic_bool *done), void *wctx, pc_result *r)
{
	memset(r, 0, sizeof *r);
	pc_itctx x = { c, root, print };
	c->stop = 0;
	const pk_book *bk = use_book ? c->bk : NULL;
	pk_gresult *res = malloc(sizeof *res);
	if (!res)
		return;
	if (watch)
		play_gthink(c->ge, bk, root, h, lim, &c->stop, pc_on_iteration, &x, watch, wctx, res, &r->from_book);
	else
		gengine_book_search(c->ge, bk, root, h, lim, &c->stop, pc_on_iteration, &x, res, &r->from_book);
	r->has_move = res->has_move;
	r->forced = res->forced;
	r->best = res->best;
	r->score = res->last.score;
	r->depth = res->last.depth;
	for (int i = 0; i < 2 && i < res->last.npv; i++)
		r->pv[r->npv++] = res->last.pv[i];
	free(res);
}

/* Watchers: what runs beside a search (play_think). */
void pc_watch_key(void *ctx, const atomic_bool *done)
{
	(void)ctx;
	view_keys_raw(true);
	while (!atomic_load(done))
		if (view_key(50) != -1)
			break;
	view_keys_raw(false);
}

void pc_watch_none(void *ctx, const atomic_bool *done)
{
	(void)ctx;
	struct timespec ts = { 0, 20000000 };
	while (!atomic_load(done))
		nanosleep(&ts, NULL);
}

void pc_watch_line(void *ctx, const atomic_bool *done)
{
	(void)done;
	pc_line_watch *w = ctx;
	w->got = view_read_line(w->c, w->buf, w->size) != NULL;
}

/* The limits of the engine's next move: the clock's share, else the level's. */
pk_limits pc_move_limits(const pctx *c)
{
	pk_limits lim = c->lim;
	if (c->clocked) {
		lim.depth = 0;
		lim.nodes = 0;
		lim.movetime = clock_budget(&c->clk, pc_stm(c));
		lim.hardtime = c->clk.left[pc_stm(c)] * 0.5;   /* time-panic's bound */
		lim.clock = true;
	}
	return lim;
}

/* ---- the game's end ---- */

void pc_announce(pctx *c, int result, const char *text)
{
	c->over = true;
	c->result = result;
	snprintf(c->end_text, sizeof c->end_text, "%s", text);
	view_say(c, "game over: %s (%s)", text, result_string(result));
}

void pc_check_end(pctx *c)
{
	if (c->over)
		return;
	int st = play_status(&c->g);
	if (st != PLAY_ON)
		pc_announce(c, play_status_result(&c->g, st), play_status_text(&c->g, st));
}

/* A move made by either side: the clock, the record, the end. */
static int make_move(pctx *c, const pk_gmove *m, double spent)
{
	int side = pc_stm(c);
	if (play_move(&c->g, m) < 0) {
		cli_error("out of memory");
		return -1;
	}
	if (c->clocked && !clock_charge(&c->clk, side, spent)) {
		char t[80];
		snprintf(t, sizeof t, "%s lost on time", pc_side_name(side));
		pc_announce(c, pc_loss(c, side), t);
		return 0;
	}
	pc_check_end(c);
	return 0;
}

/* ---- the engine's move ---- */

pk_move pc_expected;             /* the reply the engine expects, for pondering */
bool pc_have_expected;

int pc_engine_move(pctx *c)
{
	pk_gpos root = c->g.pos;
	int stm = gpos_stm(&root);
	pk_gmove m;
	char mv[400];
	double t0 = cli_now();
	pc_have_expected = false;
	if (c->client) {
		/* another engine (English draughts): the game from its start, its time from the
		 * level or the clock */
		pk_client_answer a;
		pk_move *moves = malloc(sizeof *moves * (size_t)(c->g.nply + 1));
		if (!moves) {
			cli_error("out of memory");
			return -1;
		}
		for (int i = 0; i < c->g.nply; i++)
			moves[i] = c->g.moves[i].e;
		if (c->clocked)
			client_go_clock(c->client, &c->g.start.e, moves, c->g.nply, c->clk.left[stm], c->clk.inc, &a);
		else {
			pk_limits lim = pc_move_limits(c);
			client_go(c->client, &c->g.start.e, moves, c->g.nply, lim.movetime > 0 ? lim.movetime : 5.0, &a);
		}
		free(moves);
		if (a.status != CLIENT_OK) {
			char safe[800], t[120];
			view_say(c, "%s", cli_safe_text(a.detail, safe, sizeof safe));
			snprintf(t, sizeof t, "%s's engine failed (%s)", pc_side_name(stm), client_status_name(a.status));
			pc_announce(c, pc_loss(c, stm), t);
			return 0;
		}
		m.e = a.move;
		c->depth = a.depth;
		if (a.has_score) {
			c->score = (int)(a.score * 100 + (a.score < 0 ? -0.5 : 0.5));
			c->score_side = stm;
		}
		c->seconds = a.seconds;
		pc_move_text(&root, &m, mv, sizeof mv);
		snprintf(c->last_move, sizeof c->last_move, "%s", mv);
		snprintf(c->line, sizeof c->line, "%s", mv);
		char s[48] = "?";
		if (a.has_score)
			pc_score_for_view(c, c->score, c->score_side, s, sizeof s);
		view_say(c, "%s plays %s   time %.1f s  score %s  depth %d  (%s)", pc_side_name(stm), mv, c->seconds, s,
			 c->depth, c->engine_name);
	} else {
		pk_limits lim = pc_move_limits(c);
		pk_history h = play_history(&c->g);
		pc_result res;
		c->thinking = true;
		pc_think(c, &root, &h, &lim, true, false, c->screen ? pc_watch_key : NULL, NULL, &res);
		c->thinking = false;
		if (!res.has_move)
			return 0;
		m = res.best;
		if (res.from_book && res.forced) {
			/* the book's move, unsearched */
			pc_move_text(&root, &m, mv, sizeof mv);
			snprintf(c->last_move, sizeof c->last_move, "%s", mv);
			snprintf(c->line, sizeof c->line, "(book)");
			c->depth = 0;
			c->seconds = 0;
			view_say(c, "%s plays %s (from the book)", pc_side_name(stm), mv);
			goto made;
		}
		if (res.from_book)
			snprintf(c->line, sizeof c->line, "(book, searched)");
		if (res.forced) {
			c->depth = 0;
			c->score = res.score;
			c->score_side = stm;
			pc_move_text(&root, &m, c->line, sizeof c->line);
		}
		c->seconds = cli_now() - t0;
		if (!root.v && res.npv >= 2 && move_equal(&res.pv[0].e, &m.e)) {
			pc_expected = res.pv[1].e;
			pc_have_expected = true;
		}
		pc_move_text(&root, &m, mv, sizeof mv);
		snprintf(c->last_move, sizeof c->last_move, "%s", mv);
		char s[48];
		pc_score_for_view(c, c->score, c->score_side, s, sizeof s);
		view_say(c, "%s plays %s   time %.1f s  score %s  iteration %d  line %s", pc_side_name(stm), mv,
			 c->seconds, s, c->depth, c->line);
	}
made:
	if (make_move(c, &m, cli_now() - t0) < 0)
		return -1;
	if (!c->screen && !c->quiet)
		view_board_text(c);
	return 0;
}

/* ---- moves typed ---- */

/* Reads a move; asks which one when a jump can go on in several ways. 1 when a move
 * was made, 0 when not (said why), -1 on a failure. */
/* The legal moves that text may be, into cand: how many (0: none, said why in why). */
static int read_moves(const pk_gpos *p, const char *text, pk_gmove *cand, int max, char *why, size_t whysize)
{
	if (!p->v) {
		pk_move e[PK_MAX_MOVES];
		int n = replay_read_move(&p->e, text, e, PK_MAX_MOVES, why, (int)whysize);
		for (int i = 0; i < n && i < max; i++)
			cand[i].e = e[i];
		return n < max ? n : max;
	}
	pk_vmove *x = malloc(sizeof *x * VAR_MAX_MOVES);
	if (!x) {
		snprintf(why, whysize, "out of memory");
		return 0;
	}
	int n = vreplay_read_move(&p->x, text, x, VAR_MAX_MOVES);
	if (n < 0)
		snprintf(why, whysize, "%s: not a move (squares 1 to %d, as \"32-28\" or \"28x19\")", text,
			 variant_squares(p->v));
	else if (n == 0)
		snprintf(why, whysize, "%s: not a legal move here", text);
	for (int i = 0; i < n && i < max; i++)
		cand[i].x = x[i];
	free(x);
	return n < 0 ? 0 : n < max ? n : max;
}

int pc_human_move(pctx *c, const char *text, double spent)
{
	pk_gmove *cand = malloc(sizeof *cand * VAR_MAX_MOVES);
	if (!cand)
		return -1;
	char why[300];
	int rc = 0;
	int n = read_moves(&c->g.pos, text, cand, VAR_MAX_MOVES, why, sizeof why);
	if (n == 0) {
		view_say(c, "%s", why);
		goto out;
	}
	int pick = 0;
	if (n > 1) {
		char list[400];
		size_t len = 0;
		for (int i = 0; i < n && len < sizeof list - 60; i++) {
			char mv[400];
			gmove_format(&c->g.pos, &cand[i], true, mv, sizeof mv);
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%d) %s", i ? "  " : "", i + 1, mv);
		}
		view_say(c, "%s can go on in %d ways: %s; which one?", text, n, list);
		char buf[128];
		if (!view_read_line(c, buf, sizeof buf))
			goto out;
		char *end;
		long k = strtol(buf, &end, 10);
		if (end != buf && !*end && k >= 1 && k <= n)
			pick = (int)k - 1;
		else {
			pk_gmove *again = malloc(sizeof *again * VAR_MAX_MOVES);
			int m = again ? read_moves(&c->g.pos, buf, again, VAR_MAX_MOVES, why, sizeof why) : 0;
			pick = -1;
			for (int i = 0; m == 1 && i < n; i++)
				if (gmove_same(&c->g.pos, &again[0], &cand[i]))
					pick = i;
			free(again);
			if (pick < 0) {
				view_say(c, "not one of them: the move is not played");
				goto out;
			}
		}
	}
	if (c->over && c->result == RES_DRAW)
		c->over = false;   /* a claimed draw: playing on */
	rc = make_move(c, &cand[pick], spent) < 0 ? -1 : 1;
out:
	free(cand);
	return rc;
}

/* Waits for the player's line; while waiting, the engine may think on the expected
 * reply (--ponder). */
static char *read_turn(pctx *c, char *buf, size_t size)
{
	int stm = pc_stm(c);
	if (c->ponder && pc_have_expected && !c->over && c->engine_plays[!stm] && !c->g.pos.v) {
		pk_movelist ml;
		gen_moves(&c->g.pos.e, &ml);
		bool legal = false;
		for (int i = 0; i < ml.n; i++)
			legal = legal || move_equal(&ml.m[i], &pc_expected);
		if (legal) {
			pk_pos after;
			pos_make(&c->g.pos.e, &pc_expected, &after);
			if (gen_count(&after) > 0) {
				/* The expected position's history: the game, then the expected move. */
				if (play_move_english(&c->g, &pc_expected) == 0) {
					pk_history h = play_history(&c->g);
					pk_limits lim = { .movetime = 3600 };
					pk_result res;
					pc_line_watch lw = { c, buf, size, false };
					c->stop = 0;
					play_takeback(&c->g, 1);   /* the board shows the real position */
					play_think(c->eng, &after, &h, &lim, &c->stop, NULL, NULL, pc_watch_line, &lw, &res);
					return lw.got ? buf : NULL;
				}
			}
		}
	}
	return view_read_line(c, buf, size);
}

int cmd_play(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	ea.playing = true;
	char *side = NULL, *time_arg = NULL, *book_arg = NULL, *fen = NULL, *ballot_arg = NULL, *load = NULL,
	     *game_arg = NULL, *draw_arg = NULL, *output = NULL, *name = NULL, *seed_arg = NULL, *engine_spec = NULL,
	     *engines_file = NULL, *variant = NULL;
	int ponder = 0, numbers = 0, flip = 0, line_mode = 0, screen_mode = 0, quiet = 0;
	struct poptOption opts[] = {
		{ "side", 's', POPT_ARG_STRING, &side, 0, "the side you play: the one that moves first (the default: Black in English draughts, White in International), black, white, both (two players, the engine only on request) or none (the engine plays itself)", "SIDE" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "play another variant (name or PDN GameType: international, russian, frisian, ...) on its board, by its rules, against its engine", "NAME" },
		{ "time", 'T', POPT_ARG_STRING, &time_arg, 0, "a game clock for each side, with an increment a move, e.g. 5m+2s", "BASE[+INC]" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "How the engine plays (default: --level 3, 5 s a move):", NULL },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0, "play against another engine: cb:LIB.so, hub:COMMAND or a name of --engines (hint and analyse stay pdnkit's)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "ponder", 0, POPT_ARG_NONE, &ponder, 0, "the engine thinks on your time about the reply it expects", NULL },
		{ "book", 0, POPT_ARG_STRING, &book_arg, 0, "opening book (default: the shipped one), or 'none'", "FILE" },
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "start from this position", "FEN" },
		{ "ballot", 0, POPT_ARG_STRING, &ballot_arg, 0, "start from a three-move opening: its number, or 'random'", "N" },
		{ "load", 0, POPT_ARG_STRING, &load, 0, "go on with a game of a PDN file (at its last position)", "FILE" },
		{ "game", 'g', POPT_ARG_STRING, &game_arg, 0, "with --load: the N-th game of the file (default 1)", "N" },
		{ "draw-moves", 0, POPT_ARG_STRING, &draw_arg, 0, "moves by each side without a capture or a man moved that draw (default 40)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &output, 0, "save the game here as PDN when leaving", "FILE" },
		{ "name", 0, POPT_ARG_STRING, &name, 0, "your name in the saved game", "NAME" },
		{ "seed", 0, POPT_ARG_STRING, &seed_arg, 0, "seed of the random ballot", "N" },
		{ "numbers", 0, POPT_ARG_NONE, &numbers, 0, "square numbers on the board", NULL },
		{ "flip", 0, POPT_ARG_NONE, &flip, 0, "White's side at the top", NULL },
		{ "line", 0, POPT_ARG_NONE, &line_mode, 0, "lines of text even on a terminal (the default when input is not one)", NULL },
		{ "screen", 0, POPT_ARG_NONE, &screen_mode, 0, "full-screen even when it cannot be sure the terminal can", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "line mode: no board after the engine's moves", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	pctx c;
	memset(&c, 0, sizeof c);
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, "a game to go on with is given with --load FILE") < 0)
		goto out;
	if (engine_args_resolve(&ea, &c.lim))
		goto out;
	const pk_variant *v = NULL;
	if (variant && !(v = cli_variant(variant)))
		goto out;
	if (v && v->gametype == 21)
		v = NULL;   /* English draughts by name */
	if (v && (ballot_arg || draw_arg || ponder || engine_spec)) {
		cli_error("--variant %s: %s", v->key, ballot_arg ? "the ballots are English draughts' openings" :
			  draw_arg ? "the variant's own draw rules apply (--draw-moves is English draughts')" :
			  ponder ? "--ponder is for English draughts" : "another engine plays English draughts here");
		goto out;
	}
	c.v = v;
	int you = v ? v->first : PK_BLACK;   /* the side the player has; 2: both; -1: none */
	if (side) {
		if (!strcasecmp(side, "black"))
			you = PK_BLACK;
		else if (!strcasecmp(side, "white"))
			you = PK_WHITE;
		else if (!strcasecmp(side, "both"))
			you = 2;
		else if (!strcasecmp(side, "none"))
			you = -1;
		else {
			cli_error("--side is black, white, both or none, not '%s'", side);
			goto out;
		}
	}
	c.engine_plays[PK_BLACK] = you == PK_WHITE || you == -1;
	c.engine_plays[PK_WHITE] = you == PK_BLACK || you == -1;
	if (time_arg) {
		double base, inc;
		if (clock_parse(time_arg, &base, &inc) < 0) {
			cli_error("--time is BASE[+INC] (e.g. 5m+2s, 90s, 1h), not '%s'", time_arg);
			goto out;
		}
		if (ea.depth || ea.nodes || ea.movetime || ea.level) {
			cli_error("--time is a game clock: it does not go with --depth, --nodes, --movetime or --level");
			goto out;
		}
		clock_init(&c.clk, base, inc);
		c.clocked = true;
	}
	long num;
	if (draw_arg) {
		if (cli_int(draw_arg, 1, 1000, "--draw-moves", &num))
			goto out;
		c.g.draw_moves = (int)num;
	}
	long game_no = 1;
	if (game_arg && (!load || cli_int(game_arg, 1, 100000000, "--game", &game_no))) {
		if (!load)
			cli_error("--game goes with --load");
		goto out;
	}
	if ((fen != NULL) + (ballot_arg != NULL) + (load != NULL) > 1) {
		cli_error("--fen, --ballot and --load each give the start: one of them");
		goto out;
	}
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	if (seed_arg) {
		if (cli_int(seed_arg, 0, 4294967295L, "--seed", &num))
			goto out;
		seed = (unsigned)num;
	}
	srand(seed);
	if (ballot_arg && strcmp(ballot_arg, "random") != 0 && cli_int(ballot_arg, 1, 1000, "--ballot", &num))
		goto out;
	pk_gpos start;
	if (v) {
		pk_vpos vp;
		if (cli_variant_position(variant, fen, &v, &vp) < 0)
			goto out;
		gpos_variant(&start, &vp);
	} else {
		pk_pos ep;
		pos_start(&ep);
		if (fen) {
			pk_fen_error err;
			if (fen_parse(fen, strlen(fen), &ep, &err) < 0) {
				cli_error("--fen: %s", err.msg);
				goto out;
			}
		}
		gpos_english(&start, &ep);
	}
	if (line_mode && screen_mode) {
		cli_error("--line and --screen: one of them");
		goto out;
	}
	const char *term = getenv("TERM");
	c.screen = screen_mode || (!line_mode && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term &&
				   strcmp(term, "dumb") != 0);
	if (c.screen && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) {
		cli_error("--screen needs a terminal on standard input and output");
		goto out;
	}
	/* The full screen needs 80x24: a smaller terminal gets the game in lines, said so. */
	struct winsize ws;
	c.cols = 80;
	if (c.screen && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		if (ws.ws_col < 80 || ws.ws_row < 24) {
			if (!screen_mode) {
				fprintf(stderr, "pdnkit play: the terminal is %dx%d, the board needs 80x24: playing in lines\n",
					ws.ws_col, ws.ws_row);
				c.screen = false;
			}
		} else {
			c.cols = ws.ws_col > 300 ? 300 : ws.ws_col;
		}
	}
	rc = EXIT_RUNTIME;
	if (book_option_for(book_arg, true, v, &c.bk) < 0)
		goto out;
	if (!(c.ge = gengine_from_args(&ea, v)))
		goto out;
	c.eng = gengine_english(c.ge);
	c.veng = gengine_other(c.ge);
	snprintf(c.engine_name, sizeof c.engine_name, "pdnkit");
	pk_engine_spec ext;
	if (engine_spec && strcmp(engine_spec, "pdnkit") != 0) {
		char why[800], safe[900];
		if (spec_parse(engine_spec, engines_file_option(engines_file), &ext, why, sizeof why) < 0) {
			cli_error("--engine %s", why);
			rc = EXIT_USAGE;
			goto out;
		}
		if (ext.kind == SPEC_PDNKIT || ext.kind == SPEC_DXP || ea.depth || ea.nodes || ponder) {
			cli_error("--engine %s: %s", engine_spec, ext.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines" :
				  ext.kind == SPEC_PDNKIT ? "give the built-in engine's options to play itself" :
				  "another engine is given a level, seconds a move or a clock; not --depth, --nodes or --ponder");
			rc = EXIT_USAGE;
			goto out;
		}
		pk_client_opts co = { 0 };
		if (!(c.client = client_open(&ext, &co, why, sizeof why))) {
			cli_error("--engine %s", cli_safe_text(why, safe, sizeof safe));
			goto out;
		}
		snprintf(c.engine_name, sizeof c.engine_name, "%s", client_name(c.client));
		client_new_game(c.client);
	}
	c.numbers = numbers;
	c.flip = flip;
	c.ponder = ponder;
	c.quiet = quiet;
	c.output = output;
	c.saved_plies = -1;
	const char *user = name ? name : getenv("USER");
	snprintf(c.user, sizeof c.user, "%s", user && *user ? user : "Player");
	for (int s = 0; s < 2; s++)
		snprintf(c.names[s], sizeof c.names[s], "%s", c.user);
	pc_describe_level(&c);
	pc_new_game(&c, &start, fen != NULL);

	the_game = &c;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	struct sigaction se = { 0 };
	se.sa_handler = on_end_signal;   /* no SA_RESTART: a read waiting for a line returns */
	sigaction(SIGHUP, &se, NULL);
	sigaction(SIGTERM, &se, NULL);
	if (c.screen)
		view_screen_begin();
	bool paused = false;
	if (load) {
		if (pc_load_game(&c, load, game_no) != 0) {
			view_screen_end();
			goto out;
		}
		paused = true;
	} else if (ballot_arg && (rc = pc_ballot(&c, ballot_arg, true)) != 0) {
		view_screen_end();
		rc = rc < 0 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (!c.screen) {
		printf("pdnkit play: you have %s; the engine plays at %s. Type a move, or help.\n",
		       you == 2 ? "both sides" : you == -1 ? "no side" : pc_side_name(you), c.level_text);
		view_board_text(&c);
	}
	rc = EXIT_OK;
	char buf[1024];
	for (;;) {
		if (ended_by)
			break;
		if (!c.over && !paused && c.engine_plays[pc_stm(&c)]) {
			bool auto_play = c.engine_plays[0] && c.engine_plays[1];
			if (pc_engine_move(&c) < 0) {
				rc = EXIT_RUNTIME;
				break;
			}
			/* In full screen a key during the engine's own game stops it. */
			if (auto_play && c.screen && c.stop) {
				c.engine_plays[pc_stm(&c)] = false;
				view_say(&c, "stopped: you have %s", pc_side_name(pc_stm(&c)));
			}
			continue;
		}
		double t0 = cli_now();
		if (!read_turn(&c, buf, sizeof buf) || ended_by)
			break;
		int r = pc_command(&c, buf, cli_now() - t0, &paused);
		if (r < 0) {
			rc = EXIT_RUNTIME;
			break;
		}
		if (r > 0)
			break;
		if (!c.screen && c.over && !c.quiet && strncmp(buf, "resign", 6) != 0 && isdigit((unsigned char)buf[0]))
			view_board_text(&c);
	}
	view_screen_end();
	if (c.over)
		printf("%s: %s\n", result_string(c.result), c.end_text);
	if (ended_by)
		fprintf(stderr, "pdnkit play: ended by a signal (%s) after %d plies%s\n", ended_by == SIGHUP ? "the terminal closed" : "SIGTERM",
			c.g.nply, output ? "; the game is saved" : "");
	if (output && pc_save_game(&c, output) == 0)
		printf("the game is saved in '%s'\n", output);
	else if (output)
		rc = EXIT_RUNTIME;
	if (ended_by && rc == EXIT_OK)
		rc = 128 + ended_by;
out:
	the_game = NULL;
	gengine_free(c.ge);
	client_close(c.client);
	free(engine_spec);
	free(engines_file);
	free(variant);
	book_free(c.bk);
	play_free(&c.g);
	engine_args_free(&ea);
	free(side);
	free(time_arg);
	free(book_arg);
	free(fen);
	free(ballot_arg);
	free(load);
	free(game_arg);
	free(draw_arg);
	free(output);
	free(name);
	free(seed_arg);
	poptFreeContext(ctx);
	return rc;
}
