/* Driving a Hub engine (or a CheckerBoard library through pdnkit engine --cb). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proto/child.h"
#include "proto/client.h"
#include "proto/hub.h"

#define MAX_PARAMS 32
#define MAX_STRAY_LINES 1000

struct pk_client {
	pk_engine_spec spec;
	pk_client_opts o;
	pk_child ch;
	bool alive;
	char name[160];
	char *params[MAX_PARAMS];
	int nparams;
};

const char *client_status_name(pk_client_status s)
{
	static const char *const names[] = { "ok", "crashed", "time", "illegal", "garbage", "no move" };
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* Whether a line is text: no control character but tab, valid UTF-8. */
static bool is_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p < 0x80) {
			if ((*p < 32 && *p != '\t') || *p == 127)
				return false;
			p++;
			continue;
		}
		int n = (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
		if (n < 0 || *p == 0xC0 || *p == 0xC1)
			return false;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return false;
	}
	return true;
}

/* A line for messages: cut, control characters shown as '?'. */
static void quote(const char *s, char *out, size_t size)
{
	size_t k = 0;
	bool text = is_text(s);
	for (const unsigned char *p = (const unsigned char *)s; *p && k + 4 < size; p++)
		out[k++] = (*p < 32 || *p == 127 || (!text && *p >= 0x80)) ? '?' : (char)*p;
	if (*s && strlen(s) > k)
		memcpy(out + (k > size - 4 ? size - 4 : k), "...", 4);
	else
		out[k] = 0;
}

/* How the engine ended, with its last words on standard error. */
static void ended(pk_client *c, const char *doing, char *out, size_t size)
{
	char how[120], words[300];
	child_exit_text(&c->ch, 0.5, how, sizeof how);
	child_last_words(&c->ch, words, sizeof words);
	snprintf(out, size, "%s %s while %s%s%s%s", c->spec.label, how, doing, *words ? " (its last words: \"" : "",
		 words, *words ? "\")" : "");
	child_stop(&c->ch, 0);
	c->alive = false;
}

static bool send_line(pk_client *c, const char *line)
{
	return c->alive && child_send(&c->ch, line) == 0;
}

/* Reads lines until one whose command is want; 1, 0 on timeout, -1 on end of input or
 * garbage (why in err). The lines before it go to on_line. */
static int wait_for(pk_client *c, const char *want, double timeout, const char *doing, char *err, size_t errsize)
{
	double end = child_now() + timeout;
	char line[4096];
	int stray = 0;
	for (;;) {
		double left = end - child_now();
		int k = left > 0 ? child_read_line(&c->ch, line, sizeof line, left) : 0;
		if (k == 0) {
			snprintf(err, errsize, "%s did not answer '%s' within %.1f s while %s", c->spec.label, want, timeout, doing);
			return 0;
		}
		if (k < 0) {
			ended(c, doing, err, errsize);
			return -1;
		}
		if (!is_text(line) || c->ch.in.overlong || ++stray > MAX_STRAY_LINES) {
			char q[120];
			quote(line, q, sizeof q);
			snprintf(err, errsize, "%s wrote garbage while %s: \"%s\"", c->spec.label, doing, q);
			return -1;
		}
		char copy[4096];
		snprintf(copy, sizeof copy, "%s", line);
		hub_line l;
		char *cmd = hub_parse(line, &l);
		if (!cmd)
			continue;
		if (!strcmp(cmd, want))
			return 1;
		if (!strcmp(cmd, "id")) {
			const char *n = hub_arg(&l, "name"), *v = hub_arg(&l, "version");
			if (n)
				snprintf(c->name, sizeof c->name, "%s%s%s", n, v && *v ? " " : "", v && *v ? v : "");
		} else if (!strcmp(cmd, "param") && c->nparams < MAX_PARAMS) {
			c->params[c->nparams] = strdup(copy);
			if (c->params[c->nparams])
				c->nparams++;
		} else if (!strcmp(cmd, "error")) {
			const char *m = hub_arg(&l, "message");
			char q[300];
			quote(m ? m : copy, q, sizeof q);
			snprintf(err, errsize, "%s: %s (while %s)", c->spec.label, q, doing);
			if (strcmp(want, "ready") == 0)
				return -1;   /* init refused */
		}
	}
}

pk_client *client_open(const pk_engine_spec *s, const pk_client_opts *o, char *err, size_t errsize)
{
	if (s->kind == SPEC_PDNKIT) {
		snprintf(err, errsize, "the built-in engine runs in pdnkit itself, not as a client");
		return NULL;
	}
	if (s->kind == SPEC_DXP) {
		snprintf(err, errsize, "%s: a DXP engine is driven by proto/dxp.h, not as a Hub client", s->text);
		return NULL;
	}
	pk_client *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	c->spec = *s;
	c->o.startup = o && o->startup > 0 ? o->startup : 10;
	c->o.margin = o && o->margin > 0 ? o->margin : 1;
	c->o.helper = o && o->helper ? o->helper : "/proc/self/exe";
	snprintf(c->name, sizeof c->name, "%s", s->label);
	char words[1200], *argv[64];
	if (s->kind == SPEC_CB) {
		argv[0] = (char *)c->o.helper;
		argv[1] = (char *)"engine";
		argv[2] = (char *)"--cb";
		argv[3] = c->spec.target;
		argv[4] = NULL;
	} else if (spec_split(s->target, words, sizeof words, argv, 64) < 1) {
		snprintf(err, errsize, "%s: the command has an unbalanced quote or too many words", s->text);
		free(c);
		return NULL;
	}
	if (child_start(&c->ch, argv, err, errsize) < 0) {
		free(c);
		return NULL;
	}
	c->alive = true;
	char line[600];
	err[0] = 0;
	if (!send_line(c, "hub") || wait_for(c, "wait", c->o.startup, "starting (hub)", err, errsize) != 1)
		goto fail;
	for (int i = 0; i < s->nparams; i++) {
		char v[300];
		snprintf(v, sizeof v, "%s", s->value[i]);
		for (char *p = v; *p; p++)
			if (*p == '"')
				*p = '\'';
		snprintf(line, sizeof line, "set-param name=%s value=\"%s\"", s->key[i], v);
		if (!send_line(c, line))
			goto fail;
	}
	/* an engine that says which variants it plays must play English draughts */
	for (int i = 0; i < c->nparams; i++) {
		char copy[4096];
		snprintf(copy, sizeof copy, "%s", c->params[i]);
		hub_line l;
		hub_parse(copy, &l);
		const char *pn = hub_arg(&l, "name"), *vals = hub_arg(&l, "values"), *val = hub_arg(&l, "value");
		if (pn && !strcmp(pn, "variant")) {
			const char *list = vals ? vals : val ? val : "";
			if (!strstr(list, "english")) {
				char q[200];
				quote(list, q, sizeof q);
				snprintf(err, errsize, "%s plays %s, not English draughts (its variant parameter)", s->label, q);
				goto fail;
			}
			if (!send_line(c, "set-param name=variant value=english"))
				goto fail;
		}
	}
	err[0] = 0;
	if (!send_line(c, "init") || wait_for(c, "ready", c->o.startup, "starting (init)", err, errsize) != 1)
		goto fail;
	/* an error about a parameter, said before ready */
	return c;
fail:
	/* a line the engine could not be sent: it has ended (before it read the line, or at
	 * once, as an engine that cannot start does) or closed its input */
	if (!err[0]) {
		if (child_wait(&c->ch, 0.5))
			ended(c, "starting", err, errsize);
		else
			snprintf(err, errsize, "%s: could not be started (it does not read its input)", s->label);
	}
	client_close(c);
	return NULL;
}

const char *client_name(const pk_client *c) { return c->name; }

const char *client_param(const pk_client *c, int i) { return i >= 0 && i < c->nparams ? c->params[i] : NULL; }

bool client_alive(const pk_client *c) { return c && c->alive; }

void client_new_game(pk_client *c)
{
	send_line(c, "new-game");
}

static void go(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double movetime, double left,
	       double inc, pk_client_answer *a);

void client_go(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double movetime,
	       pk_client_answer *a)
{
	go(c, start, moves, nmoves, movetime, 0, 0, a);
}

void client_go_clock(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double left, double inc,
		     pk_client_answer *a)
{
	go(c, start, moves, nmoves, 0, left, inc, a);
}

static void go(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double movetime, double left,
	       double inc, pk_client_answer *a)
{
	memset(a, 0, sizeof *a);
	double t0 = child_now();
	if (!c->alive) {
		a->status = CLIENT_CRASHED;
		snprintf(a->detail, sizeof a->detail, "%s is not running", c->spec.label);
		return;
	}
	/* the position as the game's start and its moves, so that it knows the history */
	size_t cap = 64 + (size_t)nmoves * 48, len;
	char *line = malloc(cap);
	if (!line) {
		a->status = CLIENT_NO_MOVE;
		snprintf(a->detail, sizeof a->detail, "out of memory");
		return;
	}
	char hp[34];
	hub_pos_text(start, hp);
	len = (size_t)snprintf(line, cap, "pos pos=%s", hp);
	pk_pos p = *start;
	if (nmoves > 0)
		len += (size_t)snprintf(line + len, cap - len, " moves=\"");
	for (int i = 0; i < nmoves; i++) {
		char mv[64];
		hub_move_text(&p, &moves[i], false, mv, sizeof mv);
		len += (size_t)snprintf(line + len, cap - len, "%s%s", i ? " " : "", mv);
		pk_pos q;
		pos_make(&p, &moves[i], &q);
		p = q;
	}
	if (nmoves > 0)
		snprintf(line + len, cap - len, "\"");
	char lv[64];
	if (movetime > 0)
		snprintf(lv, sizeof lv, "level move-time=%.3f", movetime);
	else
		snprintf(lv, sizeof lv, "level time=%.3f inc=%.3f", left, inc);
	bool sent = send_line(c, line) && send_line(c, lv) && send_line(c, "go think");
	free(line);
	if (!sent) {
		a->status = CLIENT_CRASHED;
		ended(c, "being sent the position", a->detail, sizeof a->detail);
		return;
	}
	double limit = movetime > 0 ? movetime : left;
	double deadline = t0 + limit + c->o.margin;
	char buf[4096], errmsg[400] = "";
	int stray = 0;
	for (;;) {
		double rest = deadline - child_now();
		int k = rest > 0 ? child_read_line(&c->ch, buf, sizeof buf, rest) : 0;
		a->seconds = child_now() - t0;
		if (k == 0) {
			a->status = CLIENT_TIMEOUT;
			snprintf(a->detail, sizeof a->detail, "%s gave no move within %.2f s (%.2f s %s and a margin of %.2f s); "
				 "stopped", c->spec.label, limit + c->o.margin, limit, movetime > 0 ? "a move" : "on its clock",
				 c->o.margin);
			child_stop(&c->ch, 0);
			c->alive = false;
			return;
		}
		if (k < 0) {
			a->status = CLIENT_CRASHED;
			ended(c, "thinking", a->detail, sizeof a->detail);
			return;
		}
		if (!is_text(buf) || c->ch.in.overlong || ++stray > MAX_STRAY_LINES) {
			char q[120];
			quote(buf, q, sizeof q);
			a->status = CLIENT_GARBAGE;
			snprintf(a->detail, sizeof a->detail, "%s wrote garbage while thinking: \"%s\"%s; stopped", c->spec.label, q,
				 stray > MAX_STRAY_LINES ? " (more than 1000 lines for one move)" : "");
			child_stop(&c->ch, 0);
			c->alive = false;
			return;
		}
		hub_line l;
		char copy[4096];
		snprintf(copy, sizeof copy, "%s", buf);
		char *cmd = hub_parse(buf, &l);
		if (!cmd)
			continue;
		if (!strcmp(cmd, "info")) {
			const char *v;
			if ((v = hub_arg(&l, "depth")))
				a->depth = atoi(v);
			if ((v = hub_arg(&l, "score")) && *v) {
				char *e;
				double x = strtod(v, &e);
				if (!*e && isfinite(x)) {
					a->score = x;
					a->has_score = true;
				}
			}
		} else if (!strcmp(cmd, "error")) {
			const char *m = hub_arg(&l, "message");
			quote(m ? m : copy, errmsg, sizeof errmsg);
		} else if (!strcmp(cmd, "done")) {
			const char *mv = hub_arg(&l, "move"), *ill = hub_arg(&l, "illegal");
			if (mv && *mv) {
				snprintf(a->text, sizeof a->text, "%s", mv);
				if (hub_read_move(&p, mv, false, &a->move)) {
					a->status = CLIENT_OK;
					return;
				}
				char q[80];
				quote(mv, q, sizeof q);
				a->status = CLIENT_ILLEGAL;
				snprintf(a->detail, sizeof a->detail, "%s played %s, which is not a legal move here", c->spec.label, q);
				return;
			}
			if (ill) {
				char q[200];
				quote(ill, q, sizeof q);
				a->status = CLIENT_ILLEGAL;
				snprintf(a->detail, sizeof a->detail, "%s returned a board that no legal move gives: %s", c->spec.label, q);
				return;
			}
			a->status = CLIENT_NO_MOVE;
			snprintf(a->detail, sizeof a->detail, "%s answered without a move%s%s", c->spec.label,
				 *errmsg ? ": " : "", errmsg);
			return;
		}
		/* other lines (pong, stray output) are let through */
	}
}

void client_close(pk_client *c)
{
	if (!c)
		return;
	if (c->alive)
		child_send(&c->ch, "quit");
	child_stop(&c->ch, c->alive ? 0.5 : 0);
	for (int i = 0; i < c->nparams; i++)
		free(c->params[i]);
	free(c);
}
