/* pdnkit play: the commands typed at the prompt (new, undo, hint, analyse, set-ups,
 * ballots, levels, save and load...). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "proto/client.h"
#include "engine_opts.h"
#include "play.h"
#include "analysis/match.h"
#include "rules/fen.h"

/* ---- commands ---- */

static void say_help(pctx *c)
{
	static const char *lines[] = {
		"11-15, 22x15, 22x15x24  a move (a jump that can go on in several ways asks which;",
		"                    in International draughts 32-28, 28x19 ...)",
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
		"ballot [N|random]   a new game from a three-move opening (English draughts)",
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

void pc_describe_level(pctx *c)
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
			snprintf(c->names[s], sizeof c->names[s], "%s", c->engine_name);
}

void pc_new_game(pctx *c, const pk_gpos *start, bool setup)
{
	if (c->client)
		client_new_game(c->client);
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
	pc_have_expected = false;
	if (c->clocked)
		clock_init(&c->clk, c->clk.base, c->clk.inc);
	gengine_new_game(c->ge);
	pc_check_end(c);
}

int pc_save_game(pctx *c, const char *path)
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
	if (cli_text_commit(&out, path) < 0)
		return -1;
	c->saved_plies = c->g.nply;
	return 0;
}

int pc_load_game(pctx *c, const char *path, long n)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	int rc = cli_load_game(path, n, &g, &rp);
	if (rc == 0) {
		const pk_variant *gv = rp.variant_replayed ? variant_by_gametype(rp.variant) : NULL;
		if ((!rp.supported && !rp.variant_replayed) || gv != c->v) {
			view_say(c, "game %ld of '%s' is of %s, not %s: not loaded (--variant chooses the game played)", n, path,
				 variant_name(rp.variant), c->v ? c->v->name : "English draughts");
			rc = -1;
		} else {
			/* the moves replayed, up to the first illegal one */
			pk_play loaded = { .draw_moves = c->g.draw_moves };
			bool complete = rp.complete;
			rp.complete = true;   /* the plies replayed, up to the first illegal move */
			if (play_load(&loaded, &rp, -1) < 0) {
				view_say(c, "game %ld of '%s' could not be loaded", n, path);
				play_free(&loaded);
				rc = -1;
			} else {
				pc_new_game(c, &loaded.start, loaded.setup);
				for (int i = 0; i < loaded.nply; i++)
					play_move(&c->g, &loaded.moves[i]);
				play_free(&loaded);
				c->over = false;
				pc_check_end(c);
				view_say(c, "loaded game %ld of '%s': %d plies%s", n, path, c->g.nply,
					 complete ? "" : ", up to its first illegal move");
			}
		}
	}
	game_free(&g);
	replay_free(&rp);
	return rc;
}

/* The position after a change by hand: a new game from there. */
static void setup_position(pctx *c, const pk_gpos *p)
{
	pk_gpos q = *p;
	if (!q.v)
		q.e.key = pos_compute_key(&q.e);
	pc_new_game(c, &q, true);
}

static int set_square(pctx *c, const char *args)
{
	char what[8];
	int sq, nsq = c->v ? variant_squares(c->v) : 32;
	if (sscanf(args, "%d %7s", &sq, what) != 2 || sq < 1 || sq > nsq || strlen(what) != 1 ||
	    !strchr("bwBW.", what[0])) {
		view_say(c, "set SQ PIECE: a square 1..%d and b, w (men), B, W (kings) or . (empty)", nsq);
		return 0;
	}
	pk_gpos g = c->g.pos;
	if (g.v) {
		static const uint8_t piece[] = { ['b'] = VP_BMAN, ['w'] = VP_WMAN, ['B'] = VP_BKING, ['W'] = VP_WKING };
		g.x.sq[sq] = what[0] == '.' ? VP_EMPTY : piece[(unsigned char)what[0]];
		char err[160];
		if (vpos_check(&g.x, err, sizeof err) < 0) {
			view_say(c, "set %d %c: %s", sq, what[0], err);
			return 0;
		}
		setup_position(c, &g);
		return 0;
	}
	pk_pos p;
	pos_clear(&p, g.e.stm);
	for (int s = 1; s <= 32; s++) {
		int col;
		bool king;
		if (s != sq && pos_piece_at(&g.e, s, &col, &king))
			pos_put(&p, s, col, king);
	}
	if (what[0] != '.')
		pos_put(&p, sq, tolower((unsigned char)what[0]) == 'b' ? PK_BLACK : PK_WHITE, isupper((unsigned char)what[0]));
	gpos_english(&g, &p);
	setup_position(c, &g);
	return 0;
}

int pc_ballot(pctx *c, const char *arg, bool option)
{
	if (c->v) {
		view_say(c, "ballot: the three-move openings are English draughts'; this game is %s", c->v->name);
		return 0;
	}
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
	pk_gpos start;
	gpos_start(&start, NULL);
	pc_new_game(c, &start, false);
	char text[sizeof op[0].text];
	snprintf(text, sizeof text, "%s", op[k - 1].text);
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " ")) {
		pk_move m[4];
		char why[200];
		if (isdigit((unsigned char)tok[0]) && replay_read_move(&c->g.pos.e, tok, m, 4, why, sizeof why) == 1)
			play_move_english(&c->g, &m[0]);
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
	pc_describe_level(c);
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
	if (gpos_count(&c->g.pos) == 0) {
		view_say(c, "no legal move to analyse");
		return;
	}
	pk_gpos root = c->g.pos;
	pk_history h = play_history(&c->g);
	pc_result res;
	char buf[64];
	pc_line_watch lw = { c, buf, sizeof buf, false };
	c->thinking = true;
	if (c->screen) {
		view_say(c, "analysing: any key stops");
		view_draw(c);
		pc_think(c, &root, &h, &lim, false, true, lim.movetime ? pc_watch_none : pc_watch_key, NULL, &res);
	} else if (lim.movetime) {
		pc_think(c, &root, &h, &lim, false, true, NULL, NULL, &res);
	} else {
		if (isatty(STDIN_FILENO))
			printf("analysing: press Enter to stop\n");
		pc_think(c, &root, &h, &lim, false, true, pc_watch_line, &lw, &res);
	}
	c->thinking = false;
	char mv[400];
	pc_move_text(&root, &res.best, mv, sizeof mv);
	char sc[48];
	pc_score_for_view(c, res.score, gpos_stm(&root), sc, sizeof sc);
	view_say(c, "analysis: best %s, score %s at iteration %d", mv, sc, res.depth);
}

static void hint(pctx *c)
{
	pk_gpos root = c->g.pos;
	char mv[400];
	if (gpos_count(&root) == 0) {
		view_say(c, "no legal move");
		return;
	}
	pk_limits lim = pc_move_limits(c);
	pk_history h = play_history(&c->g);
	pc_result res;
	/* the search's own line is kept on the screen: hint does not change the panel */
	char keep[sizeof c->line];
	snprintf(keep, sizeof keep, "%s", c->line);
	int kd = c->depth, ks = c->score, kside = c->score_side;
	double ksec = c->seconds;
	uint64_t kn = c->nodes;
	pc_think(c, &root, &h, &lim, true, false, NULL, NULL, &res);
	char line[400];
	snprintf(line, sizeof line, "%s", c->line);
	snprintf(c->line, sizeof c->line, "%s", keep);
	c->depth = kd, c->score = ks, c->score_side = kside, c->seconds = ksec, c->nodes = kn;
	pc_move_text(&root, &res.best, mv, sizeof mv);
	if (res.from_book && res.forced) {
		view_say(c, "hint: %s (from the book)", mv);
		return;
	}
	if (res.forced) {
		/* the only legal move: not searched, no line of its own */
		view_say(c, "hint: %s (the only legal move)", mv);
		return;
	}
	char sc[48];
	pc_score_for_view(c, res.score, gpos_stm(&root), sc, sizeof sc);
	view_say(c, "hint: %s  (score %s, iteration %d, line %s)", mv, sc, res.depth, line);
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
			char mv[400];
			play_move_text(&c->g, i, mv, sizeof mv);
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i > from ? " " : "", mv);
		}
		view_say(c, "%s%s", from ? "... " : "", buf);
		return;
	}
	play_write_pdn(&c->g, &t, cli_sink_file, stdout);
	fflush(stdout);
}

/* One line typed: a command or a move. 1 to leave, 0 to go on, -1 on a failure. */
int pc_command(pctx *c, char *line, double spent, bool *paused)
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
		int r = pc_human_move(c, line, spent);
		if (r > 0)
			*paused = false;
		return r < 0 ? -1 : 0;
	}
	if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit") || !strcmp(cmd, "q")) {
		/* A game played and not saved, at a terminal: offered to save (with -o it is
		 * saved on leaving anyway). */
		if (!c->output && c->saved_plies != c->g.nply && c->g.nply > 0 && isatty(STDIN_FILENO)) {
			view_say(c, "save the game first? a file name, or Enter to leave without saving");
			char name[512];
			if (view_read_line(c, name, sizeof name) && *name) {
				if (pc_save_game(c, name) == 0)
					view_say(c, "the game is saved in '%s'", name);
				else
					return 0;   /* could not save: stay, the message says why */
			}
		}
		return 1;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "?"))
		say_help(c);
	else if (!strcmp(cmd, "new")) {
		pk_gpos p;
		gpos_start(&p, c->v);
		pc_new_game(c, &p, false);
		*paused = false;
		int f = pc_first(c);
		view_say(c, "new game: %s %s", c->engine_plays[f] ? "the engine has" : "you have", pc_side_name(f));
	} else if (!strcmp(cmd, "switch")) {
		int s = pc_stm(c);
		c->engine_plays[s] = true;
		c->engine_plays[!s] = false;
		snprintf(c->names[s], sizeof c->names[s], "%s", c->engine_name);
		snprintf(c->names[!s], sizeof c->names[!s], "%s", c->user);
		*paused = false;
		view_say(c, "you now play %s", pc_side_name(!s));
	} else if (!strcmp(cmd, "go")) {
		if (c->over) {
			view_say(c, "the game is over (%s)", c->end_text);
			return 0;
		}
		return pc_engine_move(c) < 0 ? -1 : 0;
	} else if (!strcmp(cmd, "auto")) {
		c->engine_plays[0] = c->engine_plays[1] = true;
		snprintf(c->names[0], sizeof c->names[0], "%s", c->engine_name);
		snprintf(c->names[1], sizeof c->names[1], "%s", c->engine_name);
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
			if (c->g.nply >= 2 && c->engine_plays[(pc_stm(c) + 1) % 2] && !c->engine_plays[pc_stm(c)])
				n = 2;
		}
		int k = play_takeback(&c->g, n);
		if (k) {
			/* the panel's search was of a move taken back: it no longer holds */
			c->last_move[0] = 0;
			c->line[0] = 0;
			c->depth = c->score = 0;
			c->seconds = 0;
			c->nodes = 0;
		}
		c->over = false;
		pc_check_end(c);
		*paused = true;
		pc_have_expected = false;
		view_say(c, k ? "took back %d pl%s: %s to move%s" : "nothing to take back", k, k == 1 ? "y" : "ies",
			 pc_side_name(pc_stm(c)), c->engine_plays[pc_stm(c)] ? " (go: the engine moves)" : "");
	} else if (!strcmp(cmd, "hint"))
		hint(c);
	else if (!strcmp(cmd, "analyse") || !strcmp(cmd, "analyze"))
		analyse(c, arg);
	else if (!strcmp(cmd, "fen")) {
		if (!*arg) {
			char fen[600];
			gpos_fen(&c->g.pos, fen, sizeof fen);
			view_say(c, "%s", fen);
		} else {
			pk_gpos p;
			if (c->v) {
				char err[200];
				if (vfen_parse(c->v, arg, &p.x, err, sizeof err) < 0) {
					view_say(c, "not a FEN of %s: %s", c->v->name, err);
					return 0;
				}
				p.v = c->v;
			} else {
				pk_fen_error err;
				pk_pos e;
				if (fen_parse(arg, strlen(arg), &e, &err) < 0) {
					view_say(c, "not a FEN: %s", err.msg);
					return 0;
				}
				gpos_english(&p, &e);
			}
			setup_position(c, &p);
			*paused = true;
			int stm = gpos_stm(&p);
			view_say(c, "set up: %s to move%s", pc_side_name(stm), c->engine_plays[stm] ? " (go: the engine moves)" : "");
		}
	} else if (!strcmp(cmd, "set")) {
		set_square(c, arg);
		*paused = true;
	} else if (!strcmp(cmd, "turn")) {
		pk_gpos p = c->g.pos;
		if (p.v)
			p.x.stm = !p.x.stm;
		else
			p.e.stm = !p.e.stm;
		setup_position(c, &p);
		*paused = true;
		view_say(c, "%s to move", pc_side_name(gpos_stm(&p)));
	} else if (!strcmp(cmd, "ballot")) {
		if (pc_ballot(c, arg, false) < 0)
			return -1;
		*paused = false;
	} else if (!strcmp(cmd, "level") || !strcmp(cmd, "movetime") || !strcmp(cmd, "time"))
		set_level(c, cmd, arg);
	else if (!strcmp(cmd, "save")) {
		if (!*arg)
			view_say(c, "save FILE");
		else if (pc_save_game(c, arg) == 0)
			view_say(c, "saved to '%s'", arg);
	} else if (!strcmp(cmd, "load")) {
		char path[1024];
		long n = 1;
		if (sscanf(arg, "%1023s %ld", path, &n) < 1 || n < 1)
			view_say(c, "load FILE [N]");
		else {
			pc_load_game(c, path, n);
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
			int s = pc_stm(c);
			char t[64];
			snprintf(t, sizeof t, "%s resigned", pc_side_name(s));
			pc_announce(c, pc_loss(c, s), t);
		}
	} else
		view_say(c, "'%s' is neither a move nor a pc_command (help lists them)", cmd);
	return 0;
}

