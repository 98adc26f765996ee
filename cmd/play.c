/* pdnkit play: a game against the engine, full-screen in a terminal or in lines of text
 * (when standard input is not a terminal, or with --line), with levels or a clock, hints,
 * analysis, take-backs, set-up positions, three-move openings and games saved as PDN. */
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
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

static const char *side_name(int s) { return s == PK_BLACK ? "Black" : "White"; }

/* ---- what the engine says while it searches ---- */

static void pv_text(const pk_pos *root, const pk_move *pv, int n, char *buf, size_t size)
{
	pk_pos p = *root;
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < n && len + PK_MOVE_STRLEN + 2 < size; i++) {
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(&p, &pv[i], false, mv);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", mv);
		pk_pos q;
		pos_make(&p, &pv[i], &q);
		p = q;
	}
}

typedef struct {
	pctx *c;
	const pk_pos *root;
	bool print;         /* line mode: one line per iteration (analyse) */
} itctx;

static void on_iteration(void *vctx, const pk_iteration *it)
{
	itctx *x = vctx;
	pctx *c = x->c;
	c->depth = it->depth;
	c->score = it->score;
	c->seconds = it->seconds;
	c->nodes = it->nodes;
	pv_text(x->root, it->pv, it->npv, c->line, sizeof c->line);
	if (c->screen)
		view_draw(c);
	else if (x->print) {
		char s[32];
		if (score_is_win(it->score))
			snprintf(s, sizeof s, "%s in %d", it->score > 0 ? "win" : "loss", score_plies(it->score));
		else
			snprintf(s, sizeof s, "%+d", it->score);
		printf("depth %d  score %s  %.1f s  %s\n", it->depth, s, it->seconds, c->line);
		fflush(stdout);
	}
}

/* Watchers: what runs beside a search (play_think). */
static void watch_key(void *ctx, const atomic_bool *done)
{
	(void)ctx;
	view_keys_raw(true);
	while (!atomic_load(done))
		if (view_key(50) != -1)
			break;
	view_keys_raw(false);
}

static void watch_none(void *ctx, const atomic_bool *done)
{
	(void)ctx;
	struct timespec ts = { 0, 20000000 };
	while (!atomic_load(done))
		nanosleep(&ts, NULL);
}

typedef struct {
	pctx *c;
	char *buf;
	size_t size;
	bool got;
} line_watch;

static void watch_line(void *ctx, const atomic_bool *done)
{
	(void)done;
	line_watch *w = ctx;
	w->got = view_read_line(w->c, w->buf, w->size) != NULL;
}

/* The limits of the engine's next move: the clock's share, else the level's. */
static pk_limits move_limits(const pctx *c)
{
	pk_limits lim = c->lim;
	if (c->clocked) {
		lim.depth = 0;
		lim.nodes = 0;
		lim.movetime = clock_budget(&c->clk, c->g.pos.stm);
	}
	return lim;
}

/* ---- the game's end ---- */

static void announce(pctx *c, int result, const char *text)
{
	c->over = true;
	c->result = result;
	snprintf(c->end_text, sizeof c->end_text, "%s", text);
	view_say(c, "game over: %s (%s)", text, result_string(result));
}

static void check_end(pctx *c)
{
	if (c->over)
		return;
	int st = play_status(&c->g);
	if (st != PLAY_ON)
		announce(c, play_status_result(&c->g, st), play_status_text(&c->g, st));
}

/* A move made by either side: the clock, the record, the end. */
static int make_move(pctx *c, const pk_move *m, double spent)
{
	int side = c->g.pos.stm;
	if (play_move(&c->g, m) < 0) {
		cli_error("out of memory");
		return -1;
	}
	if (c->clocked && !clock_charge(&c->clk, side, spent)) {
		char t[80];
		snprintf(t, sizeof t, "%s lost on time", side_name(side));
		announce(c, side == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS, t);
		return 0;
	}
	check_end(c);
	return 0;
}

/* ---- the engine's move ---- */

static pk_move expected;         /* the reply the engine expects, for pondering */
static bool have_expected;

static int engine_move(pctx *c)
{
	pk_pos root = c->g.pos;
	pk_move m;
	char mv[PK_MOVE_STRLEN];
	double t0 = cli_now();
	have_expected = false;
	if (c->bk && book_choose(c->bk, &root, &m)) {
		pdn_move_string(&root, &m, false, mv);
		snprintf(c->last_move, sizeof c->last_move, "%s", mv);
		snprintf(c->line, sizeof c->line, "(book)");
		c->depth = 0;
		c->seconds = 0;
		view_say(c, "%s plays %s (from the book)", side_name(root.stm), mv);
	} else {
		pk_limits lim = move_limits(c);
		pk_history h = play_history(&c->g);
		pk_result res;
		itctx x = { c, &root, false };
		c->stop = 0;
		c->thinking = true;
		if (c->screen)
			play_think(c->eng, &root, &h, &lim, &c->stop, on_iteration, &x, watch_key, NULL, &res);
		else
			engine_search(c->eng, &root, &h, &lim, &c->stop, on_iteration, &x, &res);
		c->thinking = false;
		if (!res.has_move)
			return 0;
		m = res.best;
		if (res.forced) {
			c->depth = 0;
			c->score = res.last.score;
			pv_text(&root, &m, 1, c->line, sizeof c->line);
		}
		c->seconds = cli_now() - t0;
		if (res.last.npv >= 2 && move_equal(&res.last.pv[0], &m)) {
			expected = res.last.pv[1];
			have_expected = true;
		}
		pdn_move_string(&root, &m, false, mv);
		snprintf(c->last_move, sizeof c->last_move, "%s", mv);
		char s[32];
		if (score_is_win(c->score))
			snprintf(s, sizeof s, "%s in %d", c->score > 0 ? "win" : "loss", score_plies(c->score));
		else
			snprintf(s, sizeof s, "%+d", c->score);
		view_say(c, "%s plays %s   time %.1f s  score %s  iteration %d  line %s", side_name(root.stm), mv,
			 c->seconds, s, c->depth, c->line);
	}
	if (make_move(c, &m, cli_now() - t0) < 0)
		return -1;
	if (!c->screen && !c->quiet)
		view_board_text(c);
	return 0;
}

/* ---- moves typed ---- */

/* Reads a move; asks which one when a jump can go on in several ways. 1 when a move
 * was made, 0 when not (said why), -1 on a failure. */
static int human_move(pctx *c, const char *text, double spent)
{
	pk_move cand[PK_MAX_MOVES];
	char why[300];
	int n = replay_read_move(&c->g.pos, text, cand, PK_MAX_MOVES, why, sizeof why);
	if (n == 0) {
		view_say(c, "%s", why);
		return 0;
	}
	int pick = 0;
	if (n > 1) {
		char list[400];
		size_t len = 0;
		for (int i = 0; i < n && len < sizeof list - 60; i++) {
			char mv[PK_MOVE_STRLEN];
			pdn_move_string(&c->g.pos, &cand[i], true, mv);
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%d) %s", i ? "  " : "", i + 1, mv);
		}
		view_say(c, "%s can go on in %d ways: %s; which one?", text, n, list);
		char buf[128];
		if (!view_read_line(c, buf, sizeof buf))
			return 0;
		char *end;
		long k = strtol(buf, &end, 10);
		if (end != buf && !*end && k >= 1 && k <= n)
			pick = (int)k - 1;
		else {
			pk_move again[PK_MAX_MOVES];
			int m = replay_read_move(&c->g.pos, buf, again, PK_MAX_MOVES, why, sizeof why);
			pick = -1;
			for (int i = 0; m == 1 && i < n; i++)
				if (move_same_effect(&again[0], &cand[i]))
					pick = i;
			if (pick < 0) {
				view_say(c, "not one of them: the move is not played");
				return 0;
			}
		}
	}
	if (c->over && c->result == RES_DRAW)
		c->over = false;   /* a claimed draw: playing on */
	if (make_move(c, &cand[pick], spent) < 0)
		return -1;
	return 1;
}

/* ---- commands ---- */

static void say_help(pctx *c)
{
	static const char *lines[] = {
		"11-15, 22x15, 22x15x24  a move (a jump that can go on in several ways asks which)",
		"new                 a new game from the start",
		"switch              the engine takes the side to move, you the other",
		"go                  the engine moves now for the side to move",
		"auto                the engine plays both sides to the end (a key stops it)",
		"undo [N]            take back N plies (default: to your previous move)",
		"hint                the engine's move and line, not played",
		"analyse [S]         search the position until a key (or S seconds)",
		"fen [FEN]           show the position as FEN, or set one up",
		"set SQ b|w|B|W|.    put a man, a king or nothing on a square (set-up)",
		"turn                the other side to move (set-up)",
		"ballot [N|random]   a new game from a three-move opening",
		"level N | movetime S | time 5m+2s   how long the engine thinks",
		"save FILE, load FILE [N]   the game as PDN",
		"moves, board, flip, numbers, resign, help, quit",
	};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		if (c->screen) {
			/* Too many for the lines under the board: shown on a page of their own. */
			if (i == 0)
				printf("\033[H\033[2J\033[0m");
			printf("  %s\r\n", lines[i]);
		} else
			printf("%s\n", lines[i]);
	}
	if (c->screen) {
		printf("\r\n  press Enter to go back to the board");
		fflush(stdout);
		char buf[16];
		if (!fgets(buf, sizeof buf, stdin))
			return;
	}
	fflush(stdout);
}

static void describe_level(pctx *c)
{
	if (c->clocked) {
		char b[24];
		clock_format(c->clk.base, b, sizeof b);
		snprintf(c->level_text, sizeof c->level_text, "clock %s + %g s", b, c->clk.inc);
	} else if (c->lim.depth)
		snprintf(c->level_text, sizeof c->level_text, "depth %d", c->lim.depth);
	else if (c->lim.nodes)
		snprintf(c->level_text, sizeof c->level_text, "%llu nodes a move", (unsigned long long)c->lim.nodes);
	else {
		int level = -1;
		for (int i = 0; i <= 10; i++)
			if (level_seconds[i] == c->lim.movetime)
				level = i;
		if (level >= 0)
			snprintf(c->level_text, sizeof c->level_text, "level %d (%g s a move)", level, c->lim.movetime);
		else
			snprintf(c->level_text, sizeof c->level_text, "%g s a move", c->lim.movetime);
	}
	for (int s = 0; s < 2; s++)
		if (c->engine_plays[s])
			snprintf(c->names[s], sizeof c->names[s], "pdnkit");
}

static void new_game(pctx *c, const pk_pos *start, bool setup)
{
	if (play_init(&c->g, start, setup) < 0) {
		cli_error("out of memory");
		exit(EXIT_RUNTIME);
	}
	c->over = false;
	c->result = RES_NONE;
	c->end_text[0] = 0;
	c->last_move[0] = 0;
	c->line[0] = 0;
	c->depth = c->score = 0;
	c->seconds = 0;
	have_expected = false;
	if (c->clocked)
		clock_init(&c->clk, c->clk.base, c->clk.inc);
	engine_new_game(c->eng);
	check_end(c);
}

static int save_game(pctx *c, const char *path)
{
	char date[16];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y.%m.%d", &tm);
	char tc[64] = "";
	if (c->clocked)
		snprintf(tc, sizeof tc, "%g+%g", c->clk.base, c->clk.inc);
	pk_play_tags t = { .event = "pdnkit play", .site = "?", .date = date, .black = c->names[PK_BLACK],
			   .white = c->names[PK_WHITE], .time_control = c->clocked ? tc : NULL,
			   .result = c->over ? c->result : RES_NONE, .termination = c->over ? c->end_text : NULL };
	cli_text out;
	FILE *f = cli_text_begin(&out);
	if (!f)
		return -1;
	play_write_pdn(&c->g, &t, cli_sink_file, f);
	return cli_text_commit(&out, path);
}

static int load_game(pctx *c, const char *path, long n)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	int rc = cli_load_game(path, n, &g, &rp);
	if (rc == 0) {
		if (!rp.supported) {
			view_say(c, "game %ld of '%s' is not English draughts (%s): not loaded", n, path,
				 variant_name(rp.variant));
			rc = -1;
		} else {
			new_game(c, &rp.start, rp.custom_start);
			for (int i = 0; i < rp.nply; i++)
				play_move(&c->g, &rp.plies[i].move);
			c->over = false;
			check_end(c);
			view_say(c, "loaded game %ld of '%s': %d plies%s", n, path, rp.nply,
				 rp.complete ? "" : ", up to its first illegal move");
		}
	}
	game_free(&g);
	replay_free(&rp);
	return rc;
}

/* The position after a change by hand: a new game from there. */
static void setup_position(pctx *c, const pk_pos *p)
{
	pk_pos q = *p;
	q.key = pos_compute_key(&q);
	new_game(c, &q, true);
}

static int set_square(pctx *c, const char *args)
{
	char what[8];
	int sq;
	if (sscanf(args, "%d %7s", &sq, what) != 2 || sq < 1 || sq > 32 || strlen(what) != 1 ||
	    !strchr("bwBW.", what[0])) {
		view_say(c, "set SQ PIECE: a square 1..32 and b, w (men), B, W (kings) or . (empty)");
		return 0;
	}
	pk_pos p;
	pos_clear(&p, c->g.pos.stm);
	for (int s = 1; s <= 32; s++) {
		int col;
		bool king;
		if (s != sq && pos_piece_at(&c->g.pos, s, &col, &king))
			pos_put(&p, s, col, king);
	}
	if (what[0] != '.')
		pos_put(&p, sq, tolower((unsigned char)what[0]) == 'b' ? PK_BLACK : PK_WHITE, isupper((unsigned char)what[0]));
	setup_position(c, &p);
	return 0;
}

static int ballot(pctx *c, const char *arg, bool option)
{
	pk_opening *op = NULL;
	int n = match_ballots(&op);
	if (n <= 0) {
		cli_error("out of memory");
		return -1;
	}
	long k = 0;
	if (!*arg || !strcmp(arg, "random"))
		k = 1 + rand() % n;
	else {
		char *end;
		k = strtol(arg, &end, 10);
		if (*end || k < 1 || k > n) {
			if (option)
				cli_error("--ballot is an opening from 1 to %d, or random, not '%s'", n, arg);
			else
				view_say(c, "ballot N: an opening from 1 to %d, or random", n);
			free(op);
			return 1;
		}
	}
	pk_pos start;
	pos_start(&start);
	new_game(c, &start, false);
	char text[sizeof op[0].text];
	snprintf(text, sizeof text, "%s", op[k - 1].text);
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
		pk_move m[4];
		char why[200];
		if (isdigit((unsigned char)tok[0]) && replay_read_move(&c->g.pos, tok, m, 4, why, sizeof why) == 1)
			play_move(&c->g, &m[0]);
	}
	view_say(c, "ballot %ld of %d: %s", k, n, op[k - 1].text);
	free(op);
	return 0;
}

static int set_level(pctx *c, const char *cmd, const char *arg)
{
	char *end;
	if (!strcmp(cmd, "level")) {
		long v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 0 || v > 10) {
			view_say(c, "level N: 0..10 (0.5 s to 4 min a move)");
			return 0;
		}
		memset(&c->lim, 0, sizeof c->lim);
		c->lim.movetime = level_seconds[v];
		c->clocked = false;
	} else if (!strcmp(cmd, "movetime")) {
		double v = strtod(arg, &end);
		if (end == arg || *end || !(v > 0 && v <= 86400)) {
			view_say(c, "movetime S: seconds a move, above 0");
			return 0;
		}
		memset(&c->lim, 0, sizeof c->lim);
		c->lim.movetime = v;
		c->clocked = false;
	} else {
		double base, inc;
		if (clock_parse(arg, &base, &inc) < 0) {
			view_say(c, "time BASE[+INC]: e.g. 5m+2s, 90s, 1h");
			return 0;
		}
		clock_init(&c->clk, base, inc);
		c->clocked = true;
	}
	describe_level(c);
	view_say(c, "the engine plays at %s", c->level_text);
	return 0;
}

static void analyse(pctx *c, const char *arg)
{
	pk_limits lim = { 0 };
	if (*arg) {
		char *end;
		double s = strtod(arg, &end);
		if (end == arg || *end || !(s > 0 && s <= 86400)) {
			view_say(c, "analyse [S]: seconds, above 0");
			return;
		}
		lim.movetime = s;
	}
	if (gen_count(&c->g.pos) == 0) {
		view_say(c, "no legal move to analyse");
		return;
	}
	pk_pos root = c->g.pos;
	pk_history h = play_history(&c->g);
	pk_result res;
	itctx x = { c, &root, true };
	char buf[64];
	line_watch lw = { c, buf, sizeof buf, false };
	c->stop = 0;
	c->thinking = true;
	if (c->screen) {
		view_say(c, "analysing: any key stops");
		view_draw(c);
		play_think(c->eng, &root, &h, &lim, &c->stop, on_iteration, &x, lim.movetime ? watch_none : watch_key,
			   NULL, &res);
	} else if (lim.movetime) {
		engine_search(c->eng, &root, &h, &lim, &c->stop, on_iteration, &x, &res);
	} else {
		if (isatty(STDIN_FILENO))
			printf("analysing: press Enter to stop\n");
		play_think(c->eng, &root, &h, &lim, &c->stop, on_iteration, &x, watch_line, &lw, &res);
	}
	c->thinking = false;
	char mv[PK_MOVE_STRLEN];
	pdn_move_string(&root, &res.best, false, mv);
	view_say(c, "analysis: best %s, score %+d at iteration %d", mv, res.last.score, res.last.depth);
}

static void hint(pctx *c)
{
	pk_pos root = c->g.pos;
	pk_move m;
	char mv[PK_MOVE_STRLEN];
	if (gen_count(&root) == 0) {
		view_say(c, "no legal move");
		return;
	}
	if (c->bk && book_choose(c->bk, &root, &m)) {
		pdn_move_string(&root, &m, false, mv);
		view_say(c, "hint: %s (from the book)", mv);
		return;
	}
	pk_limits lim = move_limits(c);
	pk_history h = play_history(&c->g);
	pk_result res;
	c->stop = 0;
	engine_search(c->eng, &root, &h, &lim, &c->stop, NULL, NULL, &res);
	char line[400];
	pv_text(&root, res.last.pv, res.last.npv, line, sizeof line);
	pdn_move_string(&root, &res.best, false, mv);
	view_say(c, "hint: %s  (score %+d, iteration %d, line %s)", mv, res.last.score, res.last.depth, line);
}

static void show_moves(pctx *c)
{
	pk_play_tags t = { .event = "pdnkit play", .black = c->names[0], .white = c->names[1],
			   .result = c->over ? c->result : RES_NONE };
	if (c->screen) {
		/* Only the move text, on the message lines. */
		char buf[240] = "";
		size_t len = 0;
		int from = c->g.nply > 16 ? c->g.nply - 16 : 0;
		for (int i = from; i < c->g.nply && len < sizeof buf - 40; i++) {
			char mv[PK_MOVE_STRLEN];
			play_move_text(&c->g, i, mv);
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i > from ? " " : "", mv);
		}
		view_say(c, "%s%s", from ? "... " : "", buf);
		return;
	}
	play_write_pdn(&c->g, &t, cli_sink_file, stdout);
	fflush(stdout);
}

/* One line typed: a command or a move. 1 to leave, 0 to go on, -1 on a failure. */
static int command(pctx *c, char *line, double spent, bool *paused)
{
	while (*line == ' ')
		line++;
	if (!*line)
		return 0;
	char cmd[32] = "";
	sscanf(line, "%31s", cmd);
	const char *arg = line + strlen(cmd);
	while (*arg == ' ')
		arg++;
	if (isdigit((unsigned char)cmd[0])) {
		if (c->over && c->result != RES_DRAW) {
			view_say(c, "the game is over (%s): new, undo or load", c->end_text);
			return 0;
		}
		int r = human_move(c, line, spent);
		if (r > 0)
			*paused = false;
		return r < 0 ? -1 : 0;
	}
	if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit") || !strcmp(cmd, "q"))
		return 1;
	if (!strcmp(cmd, "help") || !strcmp(cmd, "?"))
		say_help(c);
	else if (!strcmp(cmd, "new")) {
		pk_pos p;
		pos_start(&p);
		new_game(c, &p, false);
		*paused = false;
		view_say(c, "new game: %s", c->engine_plays[PK_BLACK] ? "the engine has Black" : "you have Black");
	} else if (!strcmp(cmd, "switch")) {
		int s = c->g.pos.stm;
		c->engine_plays[s] = true;
		c->engine_plays[!s] = false;
		snprintf(c->names[s], sizeof c->names[s], "pdnkit");
		snprintf(c->names[!s], sizeof c->names[!s], "%s", c->user);
		*paused = false;
		view_say(c, "you now play %s", side_name(!s));
	} else if (!strcmp(cmd, "go")) {
		if (c->over) {
			view_say(c, "the game is over (%s)", c->end_text);
			return 0;
		}
		return engine_move(c) < 0 ? -1 : 0;
	} else if (!strcmp(cmd, "auto")) {
		c->engine_plays[0] = c->engine_plays[1] = true;
		snprintf(c->names[0], sizeof c->names[0], "pdnkit");
		snprintf(c->names[1], sizeof c->names[1], "pdnkit");
		*paused = false;
		view_say(c, "the engine plays both sides%s", c->screen ? " (a key stops it)" : "");
	} else if (!strcmp(cmd, "undo") || !strcmp(cmd, "takeback")) {
		int n;
		if (*arg) {
			char *end;
			long v = strtol(arg, &end, 10);
			if (end == arg || *end || v < 1 || v > 100000) {
				view_say(c, "undo [N]: plies to take back");
				return 0;
			}
			n = (int)v;
		} else {
			/* Back to the player's previous turn. */
			n = 1;
			if (c->g.nply >= 2 && c->engine_plays[(c->g.pos.stm + 1) % 2] && !c->engine_plays[c->g.pos.stm])
				n = 2;
		}
		int k = play_takeback(&c->g, n);
		c->over = false;
		check_end(c);
		*paused = true;
		have_expected = false;
		view_say(c, k ? "took back %d pl%s: %s to move%s" : "nothing to take back", k, k == 1 ? "y" : "ies",
			 side_name(c->g.pos.stm), c->engine_plays[c->g.pos.stm] ? " (go: the engine moves)" : "");
	} else if (!strcmp(cmd, "hint"))
		hint(c);
	else if (!strcmp(cmd, "analyse") || !strcmp(cmd, "analyze"))
		analyse(c, arg);
	else if (!strcmp(cmd, "fen")) {
		if (!*arg) {
			char fen[200];
			fen_format(&c->g.pos, fen, sizeof fen);
			view_say(c, "%s", fen);
		} else {
			pk_pos p;
			pk_fen_error err;
			if (fen_parse(arg, strlen(arg), &p, &err) < 0) {
				view_say(c, "not a FEN: %s", err.msg);
				return 0;
			}
			setup_position(c, &p);
			*paused = true;
			view_say(c, "set up: %s to move%s", side_name(p.stm),
				 c->engine_plays[p.stm] ? " (go: the engine moves)" : "");
		}
	} else if (!strcmp(cmd, "set")) {
		set_square(c, arg);
		*paused = true;
	} else if (!strcmp(cmd, "turn")) {
		pk_pos p = c->g.pos;
		p.stm = !p.stm;
		setup_position(c, &p);
		*paused = true;
		view_say(c, "%s to move", side_name(p.stm));
	} else if (!strcmp(cmd, "ballot")) {
		if (ballot(c, arg, false) < 0)
			return -1;
		*paused = false;
	} else if (!strcmp(cmd, "level") || !strcmp(cmd, "movetime") || !strcmp(cmd, "time"))
		set_level(c, cmd, arg);
	else if (!strcmp(cmd, "save")) {
		if (!*arg)
			view_say(c, "save FILE");
		else if (save_game(c, arg) == 0)
			view_say(c, "saved to '%s'", arg);
	} else if (!strcmp(cmd, "load")) {
		char path[1024];
		long n = 1;
		if (sscanf(arg, "%1023s %ld", path, &n) < 1 || n < 1)
			view_say(c, "load FILE [N]");
		else {
			load_game(c, path, n);
			*paused = true;
		}
	} else if (!strcmp(cmd, "moves"))
		show_moves(c);
	else if (!strcmp(cmd, "board"))
		view_board_text(c);
	else if (!strcmp(cmd, "flip"))
		c->flip = !c->flip;
	else if (!strcmp(cmd, "numbers"))
		c->numbers = !c->numbers;
	else if (!strcmp(cmd, "resign")) {
		if (!c->over) {
			int s = c->g.pos.stm;
			char t[64];
			snprintf(t, sizeof t, "%s resigned", side_name(s));
			announce(c, s == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS, t);
		}
	} else
		view_say(c, "'%s' is neither a move nor a command (help lists them)", cmd);
	return 0;
}

/* Waits for the player's line; while waiting, the engine may think on the expected
 * reply (--ponder). */
static char *read_turn(pctx *c, char *buf, size_t size)
{
	int stm = c->g.pos.stm;
	if (c->ponder && have_expected && !c->over && c->engine_plays[!stm]) {
		pk_movelist ml;
		gen_moves(&c->g.pos, &ml);
		bool legal = false;
		for (int i = 0; i < ml.n; i++)
			legal = legal || move_equal(&ml.m[i], &expected);
		if (legal) {
			pk_pos after;
			pos_make(&c->g.pos, &expected, &after);
			if (gen_count(&after) > 0) {
				/* The expected position's history: the game, then the expected move. */
				if (play_move(&c->g, &expected) == 0) {
					pk_history h = play_history(&c->g);
					pk_limits lim = { .movetime = 3600 };
					pk_result res;
					line_watch lw = { c, buf, size, false };
					c->stop = 0;
					play_takeback(&c->g, 1);   /* the board shows the real position */
					play_think(c->eng, &after, &h, &lim, &c->stop, NULL, NULL, watch_line, &lw, &res);
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
	char *side = NULL, *time_arg = NULL, *book_arg = NULL, *fen = NULL, *ballot_arg = NULL, *load = NULL,
	     *game_arg = NULL, *draw_arg = NULL, *output = NULL, *name = NULL, *seed_arg = NULL;
	int ponder = 0, numbers = 0, flip = 0, line_mode = 0, screen_mode = 0, quiet = 0;
	struct poptOption opts[] = {
		{ "side", 's', POPT_ARG_STRING, &side, 0, "the side you play: black (the default; Black moves first), white, both (two players, the engine only on request) or none (the engine plays itself)", "SIDE" },
		{ "time", 'T', POPT_ARG_STRING, &time_arg, 0, "a game clock for each side, with an increment a move, e.g. 5m+2s", "BASE[+INC]" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "How the engine plays (default: --level 3, 5 s a move):", NULL },
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
		{ "numbers", 'n', POPT_ARG_NONE, &numbers, 0, "square numbers on the board", NULL },
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
	int you = PK_BLACK;   /* the side the player has; 2: both; -1: none */
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
	long v;
	if (draw_arg) {
		if (cli_int(draw_arg, 1, 1000, "--draw-moves", &v))
			goto out;
		c.g.draw_moves = (int)v;
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
		if (cli_int(seed_arg, 0, 4294967295L, "--seed", &v))
			goto out;
		seed = (unsigned)v;
	}
	srand(seed);
	if (ballot_arg && strcmp(ballot_arg, "random") != 0 && cli_int(ballot_arg, 1, 1000, "--ballot", &v))
		goto out;
	pk_pos start;
	pos_start(&start);
	if (fen) {
		pk_fen_error err;
		if (fen_parse(fen, strlen(fen), &start, &err) < 0) {
			cli_error("--fen: %s", err.msg);
			goto out;
		}
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
	rc = EXIT_RUNTIME;
	if (book_option(book_arg, true, &c.bk) < 0)
		goto out;
	if (!(c.eng = engine_from_args(&ea)))
		goto out;
	c.numbers = numbers;
	c.flip = flip;
	c.ponder = ponder;
	c.quiet = quiet;
	c.output = output;
	const char *user = name ? name : getenv("USER");
	snprintf(c.user, sizeof c.user, "%s", user && *user ? user : "Player");
	for (int s = 0; s < 2; s++)
		snprintf(c.names[s], sizeof c.names[s], "%s", c.user);
	describe_level(&c);
	new_game(&c, &start, fen != NULL);

	the_game = &c;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	if (c.screen)
		view_screen_begin();
	bool paused = false;
	if (load) {
		if (load_game(&c, load, game_no) != 0) {
			view_screen_end();
			goto out;
		}
		paused = true;
	} else if (ballot_arg && (rc = ballot(&c, ballot_arg, true)) != 0) {
		view_screen_end();
		rc = rc < 0 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (!c.screen) {
		printf("pdnkit play: you have %s; the engine plays at %s. Type a move, or help.\n",
		       you == 2 ? "both sides" : you == -1 ? "no side" : side_name(you), c.level_text);
		view_board_text(&c);
	}
	rc = EXIT_OK;
	char buf[1024];
	for (;;) {
		if (!c.over && !paused && c.engine_plays[c.g.pos.stm]) {
			bool auto_play = c.engine_plays[0] && c.engine_plays[1];
			if (engine_move(&c) < 0) {
				rc = EXIT_RUNTIME;
				break;
			}
			/* In full screen a key during the engine's own game stops it. */
			if (auto_play && c.screen && c.stop) {
				c.engine_plays[c.g.pos.stm] = false;
				view_say(&c, "stopped: you have %s", side_name(c.g.pos.stm));
			}
			continue;
		}
		double t0 = cli_now();
		if (!read_turn(&c, buf, sizeof buf))
			break;
		int r = command(&c, buf, cli_now() - t0, &paused);
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
	if (output && save_game(&c, output) == 0)
		printf("the game is saved in '%s'\n", output);
	else if (output)
		rc = EXIT_RUNTIME;
out:
	the_game = NULL;
	if (c.eng)
		engine_free(c.eng);
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
