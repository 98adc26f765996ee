/* A CheckerBoard library as a Hub engine. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proto/cbboard.h"
#include "proto/cbhost.h"
#include "proto/child.h"
#include "proto/hub.h"
#include "rules/fen.h"
#include "base/port.h"

typedef int (*getmove_fn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow, int info,
			  int moreinfo, struct CBmove *move);
typedef int (*command_fn)(char command[256], char reply[1024]);

typedef struct {
	int out;
	getmove_fn getmove;
	command_fn command;
	pk_pos start, pos;          /* of the last pos */
	bool have_pos;
	char *moves;                /* the moves of the last pos, as given */
	char *expect;               /* the moves of the last go and its answer: a pos that
				     * goes on from them keeps the library's history */
	bool reset;
	double maxtime;
	bool eval_mover;            /* the status line's eval is the mover's, not Black's */
} host;

static void say(host *h, const char *fmt, ...) PK_PRINTF(2, 3);
static void say(host *h, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = (int)sizeof buf - 2;
	buf[n++] = '\n';
	for (const char *p = buf; n > 0;) {
		ssize_t k = write(h->out, p, (size_t)n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		p += k;
		n -= (int)k;
	}
}

/* A library's text for a Hub value: no quotes, no control characters. */
static void clean(char *s)
{
	for (; *s; s++)
		if (*s == '"')
			*s = '\'';
		else if ((unsigned char)*s < 32)
			*s = ' ';
}

/* A number after a word of the library's status line ("Eval: -24", "depth 14"): the
 * word is matched without case, then up to 3 characters of ':', '=' or spaces. */
static bool number_after(const char *str, const char *word, long *out)
{
	size_t n = strlen(word);
	for (const char *p = str; *p; p++) {
		size_t i = 0;
		while (i < n && p[i] && (p[i] | 0x20) == word[i])
			i++;
		if (i < n)
			continue;
		const char *q = p + n;
		for (int k = 0; k < 3 && (*q == ':' || *q == '=' || *q == ' '); k++)
			q++;
		char *e;
		long v = strtol(q, &e, 10);
		if (e != q) {
			*out = v;
			return true;
		}
	}
	return false;
}

static void set_position(host *h, const hub_line *l)
{
	h->have_pos = false;
	const char *ps = hub_arg(l, "pos"), *mv = hub_arg(l, "moves");
	pk_pos p;
	if (hub_arg(l, "start"))
		pos_start(&p);
	else if (!ps || hub_pos(ps, &p) < 0) {
		say(h, "error message=\"pos: needs pos=... (a side letter and 32 of w, b, W, B, e) or start\"");
		return;
	}
	h->start = p;
	if (mv && *mv) {
		char buf[16384];
		snprintf(buf, sizeof buf, "%s", mv);
		char *save = NULL;
		for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			pk_move m;
			if (!hub_read_move(&p, tok, false, &m)) {
				say(h, "error message=\"pos moves: %.40s is not a legal move here\"", tok);
				return;
			}
			pk_pos q;
			pos_make(&p, &m, &q);
			p = q;
		}
	}
	const char *keep = h->expect;
	bool goes_on = keep && mv && !strncmp(mv, keep, strlen(keep)) && !h->reset;
	if (!goes_on)
		h->reset = true;
	free(h->moves);
	h->moves = strdup(mv ? mv : "");
	h->pos = p;
	h->have_pos = h->moves != NULL;
}

static void go(host *h)
{
	if (!h->have_pos) {
		say(h, "error message=\"go: no position\"");
		say(h, "done");
		return;
	}
	pk_movelist ml;
	if (gen_moves(&h->pos, &ml) == 0) {
		say(h, "error message=\"the position has no legal move\"");
		say(h, "done");
		return;
	}
	int board[8][8];
	cb_pos_to_board(&h->pos, board);
	char str[1024] = "";
	int playnow = 0;
	struct CBmove cm;
	memset(&cm, 0, sizeof cm);
	int r = h->getmove(board, h->pos.stm == PK_WHITE ? CB_WHITE : CB_BLACK, h->maxtime, str, &playnow,
			   h->reset ? CB_RESET_MOVES : 0, 0, &cm);
	h->reset = false;
	str[sizeof str - 1] = 0;
	clean(str);
	const char *claim = r == CB_WIN ? "win" : r == CB_LOSS ? "loss" : r == CB_DRAW ? "draw" : "unknown";
	/* a score and depth when the status line has them as most engines write it (GuiNN,
	 * Cake, Kingsrow, pdnkit: "eval", "value" or "score" in hundredths of a man, "depth") */
	long ev, dp;
	char extra[96] = "";
	size_t k = 0;
	if (number_after(str, "eval", &ev) || number_after(str, "value", &ev) || number_after(str, "score", &ev)) {
		if (!h->eval_mover && h->pos.stm == PK_WHITE)
			ev = -ev;   /* Black's view, as GuiNN writes it: the mover's for Hub */
		k += (size_t)snprintf(extra + k, sizeof extra - k, " score=%.2f", ev / 100.0);
	}
	if (number_after(str, "depth", &dp))
		snprintf(extra + k, sizeof extra - k, " depth=%ld", dp);
	say(h, "info claim=%s%s str=\"%.900s\"", claim, extra, str);
	/* the move is the legal move that gives the board the library returned */
	pk_pos after;
	const char *why = cb_board_light_written(board) ? "a light square written" :
			  cb_board_to_pos(board, h->pos.stm == PK_WHITE ? CB_BLACK : CB_WHITE, &after);
	int found = -1;
	for (int i = 0; why == NULL && i < ml.n; i++) {
		pk_pos q;
		pos_make(&h->pos, &ml.m[i], &q);
		if (q.side[0] == after.side[0] && q.side[1] == after.side[1] && q.kings == after.kings) {
			found = i;
			break;
		}
	}
	if (found < 0) {
		char fen[200] = "";
		pk_pos shown;
		if (!cb_board_to_pos(board, h->pos.stm == PK_WHITE ? CB_BLACK : CB_WHITE, &shown))
			fen_format(&shown, fen, sizeof fen);
		say(h, "done illegal=\"%s\"", *fen ? fen : why ? why : "an impossible board");
		free(h->expect);
		h->expect = NULL;
		return;
	}
	char mv[64];
	hub_move_text(&h->pos, &ml.m[found], false, mv, sizeof mv);
	/* the next pos goes on from here when it starts with these moves and this one */
	size_t n = strlen(h->moves) + strlen(mv) + 2;
	free(h->expect);
	if ((h->expect = malloc(n)))
		snprintf(h->expect, n, "%s%s%s", h->moves, *h->moves ? " " : "", mv);
	say(h, "done move=%s", mv);
}

int cbhost_run(const char *lib, int in, int out, char *err, size_t errsize)
{
	void *dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		snprintf(err, errsize, "cannot load %s: %s", lib, dlerror());
		return -1;
	}
	host h;
	memset(&h, 0, sizeof h);
	h.out = out;
	h.maxtime = 1;
	*(void **)&h.getmove = dlsym(dl, "getmove");
	*(void **)&h.command = dlsym(dl, "enginecommand");
	if (!h.getmove) {
		snprintf(err, errsize, "%s has no getmove: not a CheckerBoard engine", lib);
		dlclose(dl);
		return -1;
	}
	pk_linebuf *lb = calloc(1, sizeof *lb);
	char *line = malloc(65536);
	if (!lb || !line) {
		snprintf(err, errsize, "out of memory");
		free(lb);
		free(line);
		dlclose(dl);
		return -1;
	}
	bool quit = false;
	while (!quit && linebuf_read(lb, in, line, 65536, -1) == 1) {
		hub_line l;
		char *cmd = hub_parse(line, &l);
		if (!cmd)
			continue;
		if (!strcmp(cmd, "hub")) {
			char c[256] = "name", reply[1024] = "";
			const char *base = strrchr(lib, '/');
			if (!h.command || !h.command(c, reply) || !*reply)
				snprintf(reply, sizeof reply, "%s", base ? base + 1 : lib);
			reply[sizeof reply - 1] = 0;
			clean(reply);
			say(&h, "id name=\"%s\" version=\"\"", reply);
			say(&h, "param name=variant value=english type=enum values=\"english\"");
			say(&h, "param name=eval-side value=black type=enum values=\"black mover\"");
			say(&h, "wait");
		} else if (!strcmp(cmd, "set-param")) {
			const char *k = hub_arg(&l, "name"), *v = hub_arg(&l, "value");
			char c[256], reply[1024] = "";
			if (!k || !v)
				say(&h, "error message=\"set-param needs name=... value=...\"");
			else if (!strcmp(k, "eval-side")) {
				if (strcmp(v, "black") && strcmp(v, "mover"))
					say(&h, "error message=\"set-param eval-side=%s: black or mover is expected\"", v);
				else
					h.eval_mover = !strcmp(v, "mover");
			} else if (!strcmp(k, "variant")) {
				if (strcmp(v, "english"))
					say(&h, "error message=\"set-param variant=%s: a CheckerBoard engine plays English draughts\"", v);
			} else {
				snprintf(c, sizeof c, "set %s %s", k, v);
				if (!h.command || !h.command(c, reply)) {
					reply[sizeof reply - 1] = 0;
					clean(reply);
					say(&h, "error message=\"the library did not accept 'set %s %s'%s%s\"", k, v,
					    *reply ? ": " : "", reply);
				}
			}
		} else if (!strcmp(cmd, "init"))
			say(&h, "ready");
		else if (!strcmp(cmd, "new-game")) {
			h.reset = true;
			free(h.expect);
			h.expect = NULL;
		} else if (!strcmp(cmd, "pos"))
			set_position(&h, &l);
		else if (!strcmp(cmd, "level")) {
			/* a CheckerBoard engine takes seconds a move: from a clock, a share of
			 * what is left and most of the increment */
			const char *v = hub_arg(&l, "move-time"), *t = hub_arg(&l, "time"), *iv = hub_arg(&l, "inc");
			char *e = NULL, *e2 = NULL;
			double x = v ? strtod(v, &e) : t ? strtod(t, &e) : 0, inc = iv ? strtod(iv, &e2) : 0;
			if ((v || t) && !*e && x > 0 && x < 1e7 && (!iv || (!*e2 && inc >= 0 && inc < 1e6))) {
				h.maxtime = v ? x : x / 25 + inc * 0.8;
				if (!v && h.maxtime > x * 0.4)
					h.maxtime = x * 0.4;
			} else
				say(&h, "error message=\"level: move-time=SECONDS, or time=SECONDS [inc=SECONDS]\"");
		} else if (!strcmp(cmd, "go"))
			go(&h);
		else if (!strcmp(cmd, "ping"))
			say(&h, "pong");
		else if (!strcmp(cmd, "quit"))
			quit = true;
	}
	free(h.moves);
	free(h.expect);
	free(lb);
	free(line);
	dlclose(dl);
	return 0;
}
