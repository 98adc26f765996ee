/* The canonical PDN writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"
#include "pdn/written.h"

typedef struct {
	pk_sink sink;
	void *ctx;
	int width, col;
	bool failed;
	bool need_space;
} out;

static void put(out *o, const char *s, size_t n)
{
	if (!o->failed && o->sink(o->ctx, s, n) < 0)
		o->failed = true;
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

/* A move-text token, wrapped at the line width; tokens are never split. */
static void token(out *o, const char *s, size_t n)
{
	if (o->need_space) {
		if (o->col + 1 + (int)n > o->width && o->col > 0) {
			put(o, "\n", 1);
			o->col = 0;
		} else {
			put(o, " ", 1);
			o->col++;
		}
	}
	put(o, s, n);
	const char *nl = memchr(s, '\n', n);
	if (nl) {
		const char *last = s + n;
		while (last > s && last[-1] != '\n')
			last--;
		o->col = (int)(s + n - last);
	} else {
		o->col += (int)n;
	}
	o->need_space = true;
}

static void token_s(out *o, const char *s) { token(o, s, strlen(s)); }

static void tag(out *o, const char *name, const char *value)
{
	puts_(o, "[");
	puts_(o, name);
	puts_(o, " \"");
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			put(o, "\\", 1);
		if (*p == '\n' || *p == '\r')
			put(o, " ", 1);
		else
			put(o, p, 1);
	}
	puts_(o, "\"]\n");
}

static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };

static bool in_roster(const char *name)
{
	for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
		if (strcasecmp(name, roster[i]) == 0)
			return true;
	return false;
}

int pdn_move_string(const pk_pos *before, const pk_move *m, bool full, char *buf)
{
	bool need_full = full && move_is_capture(m);
	if (!need_full && move_is_capture(m)) {
		pk_movelist ml;
		gen_moves(before, &ml);
		for (int i = 0; i < ml.n && !need_full; i++)
			need_full = ml.m[i].from == m->from && move_to(&ml.m[i]) == move_to(m) &&
				    ml.m[i].captured != m->captured;
	}
	return move_format(m, need_full, buf, PK_MOVE_STRLEN);
}

static void move_text(const pk_ply *pl, const pk_pos *before, bool full, char *buf)
{
	int n = pdn_move_string(before, &pl->move, full, buf);
	snprintf(buf + n, (size_t)(PK_MOVE_STRLEN - n), "%s", pl->marks);
}

/* Text after a move from the caller: tokens separated by newlines; "(" and ")" open and
 * close a variation. */
static void extra_tokens(out *o, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		if (n == 1 && *text == ')')
			o->need_space = false;
		if (n)
			token(o, text, n);
		if (n == 1 && *text == '(')
			o->need_space = false;
		text += n + (nl ? 1 : 0);
	}
}

int pdn_write_game(const pk_game *g, const pk_replay *rp, const pk_write_opts *opts,
		   pk_sink sink, void *ctx)
{
	out o = { sink, ctx, opts->width > 20 ? opts->width : 80, 0, false, false };
	char buf[256];

	/* Tags: the seven-tag roster in order ("?" when missing), then the others as read;
	 * or, verbatim, every tag as read. */
	for (int i = 0; opts->verbatim_tags && i < g->ntags; i++)
		tag(&o, game_str(g, g->tags[i].name), game_str(g, g->tags[i].value));
	for (size_t i = 0; !opts->verbatim_tags && i < sizeof roster / sizeof roster[0]; i++) {
		const char *v = game_tag(g, roster[i]);
		if (i == 6) {
			int res = result_parse(v);
			if (res == RES_NONE || rp->result != RES_NONE)
				res = rp->result != RES_NONE ? rp->result : res;
			v = res != RES_NONE ? result_string(res) : (v ? v : "*");
		}
		tag(&o, roster[i], v ? v : "?");
	}
	for (int i = 0; !opts->verbatim_tags && i < g->ntags; i++) {
		const char *name = game_str(g, g->tags[i].name);
		if (!in_roster(name))
			tag(&o, name, game_str(g, g->tags[i].value));
	}

	put(&o, "\n", 1);

	/* Move text. */
	int ply = 0;                 /* plies written so far */
	bool number_due = true;      /* after a comment, variation or the start, White's move gets "N..." */
	/* Another variant's game is written as read, with what after_move says after each
	 * move; a move of the side that does not open the number gets "N..." after it. */
	const pk_vreplay *vr = rp->variant_replayed && rp->vr.el ? &rp->vr : NULL;
	bool vnumber_due = false, after_number = false;
	for (int i = 0; i < g->nel; i++) {
		const pk_el *e = &g->els[i];
		const char *text = game_str(g, e->off);
		if (opts->plain && (e->depth > 0 || e->kind == EL_COMMENT || e->kind == EL_NAG ||
				    e->kind == EL_VAR_START || e->kind == EL_VAR_END))
			continue;
		if (vr && e->depth == 0 && ply < vr->plies && vr->el[2 * ply] == i) {
			ply++;
			bool opens = (rp->start.stm ^ ((ply - 1) & 1)) == rp->variant_first;
			if (vnumber_due && !after_number && !opens && !opts->plain &&
			    movenum_token_as(replay_move_number(rp, ply), false, true, buf, sizeof buf))
				token_s(&o, buf);
			for (int k = i; k <= vr->el[2 * ply - 1]; k++)
				token_s(&o, game_str(g, g->els[k].off));
			i = vr->el[2 * ply - 1];
			vnumber_due = after_number = false;
			const char *extra = opts->after_move && !opts->plain ? opts->after_move(opts->ctx, ply) : NULL;
			if (extra && *extra) {
				extra_tokens(&o, extra);
				vnumber_due = true;
			}
			continue;
		}
		if (vr) {
			vnumber_due |= e->kind == EL_VAR_END || (e->depth == 0 && e->kind == EL_COMMENT);
			if (e->depth == 0)
				after_number = e->kind == EL_NUMBER;
		}
		if (e->depth == 0 && ply < rp->nply && rp->plies[ply].el == i) {
			const pk_ply *pl = &rp->plies[ply];
			ply++;
			if (pl->ordinal < 0) {          /* a /FEN/ set-up */
				snprintf(buf, sizeof buf, "/FEN \"%s\"/", text);
				token_s(&o, buf);
				number_due = true;
				continue;
			}
			const pk_pos *before = replay_pos_before(rp, ply);
			int number = replay_move_number(rp, ply);
			if (movenum_token(number, before->stm, number_due && !opts->plain, buf, sizeof buf) &&
			    (!opts->plain || !strstr(buf, "...")))
				token_s(&o, buf);
			number_due = false;
			char mv[PK_MOVE_STRLEN + 8];
			move_text(pl, before, opts->full_jumps, mv);
			token_s(&o, mv);
			if (opts->after_move && !opts->plain) {
				const char *extra = opts->after_move(opts->ctx, ply);
				if (extra && *extra) {
					extra_tokens(&o, extra);
					number_due = true;
				}
			}
			if (pl->glued_el >= 0 && !opts->plain) {
				/* Prose glued to the move is kept, as a comment. */
				const char *t = game_str(g, g->els[pl->glued_el].off);
				pk_written w;
				char why[80];
				if (written_parse(t, &w, why, sizeof why) == 0 && w.glued &&
				    result_parse(w.glued) == RES_NONE) {
					snprintf(buf, sizeof buf, "{%s}", w.glued);
					token_s(&o, buf);
					number_due = true;
				}
			}
			i = pl->el_last;
			continue;
		}
		switch (e->kind) {
		case EL_NUMBER:
			if (e->depth > 0 || ply >= rp->nply)
				token_s(&o, text);   /* numbers in variations and after an error stay */
			break;
		case EL_MOVE:
			token_s(&o, text);
			break;
		case EL_COMMENT: {
			size_t n = strlen(text);
			char *c = malloc(n + 3);
			if (!c)
				return -1;
			c[0] = '{';
			memcpy(c + 1, text, n);
			c[n + 1] = '}';
			c[n + 2] = 0;
			token(&o, c, n + 2);
			free(c);
			if (e->depth == 0)
				number_due = true;
			break;
		}
		case EL_NAG:
			token_s(&o, text);
			break;
		case EL_VAR_START:
			token_s(&o, "(");
			o.need_space = false;
			break;
		case EL_VAR_END:
			o.need_space = false;
			token_s(&o, ")");
			if (e->depth == 1)
				number_due = true;
			break;
		case EL_SETUP:
			snprintf(buf, sizeof buf, "/FEN \"%.200s\"/", text);
			token_s(&o, buf);
			break;
		case EL_RESULT:
			if (e->depth > 0)
				token_s(&o, text);
			break;
		}
	}
	token_s(&o, result_string(rp->result == RES_NONE ? RES_UNKNOWN : rp->result));
	put(&o, "\n\n", 2);
	return o.failed ? -1 : 0;
}

int game_fix_move(pk_game *g, int el, const char *text, const char *note)
{
	if (el < 0 || el >= g->nel)
		return -1;
	uint32_t off = game_store(g, text, strlen(text));
	if (off == UINT32_MAX)
		return -1;
	g->els[el].off = off;
	g->els[el].len = (uint32_t)strlen(text);
	pk_el saved = g->els[el];
	if (!game_add_el(g, EL_COMMENT, saved.depth, saved.line, saved.col, note, strlen(note)))
		return -1;
	pk_el comment = g->els[g->nel - 1];
	memmove(&g->els[el + 2], &g->els[el + 1], sizeof(pk_el) * (size_t)(g->nel - 1 - (el + 1)));
	g->els[el + 1] = comment;
	return 0;
}
