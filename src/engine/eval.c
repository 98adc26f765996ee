/* The evaluation: material, then positional terms that matter in checkers, then
 * endgame knowledge for the phases where a search horizon does not see the plan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/eval.h"
#include "engine/net.h"
#include "engine/pattern.h"
#include "rules/gen.h"

const char *const eval_weight_names[W_NUM] = {
	"king", "back_rank", "bridge", "centre_man", "centre_king", "edge_man", "mobility", "tempo",
	"runaway", "dog_hole", "trade_down", "king_corner", "drive",
};

const pk_weights eval_default_weights = { {
	[W_KING] = 130, [W_BACK_RANK] = 6, [W_BRIDGE] = 8, [W_CENTRE_MAN] = 5, [W_CENTRE_KING] = 8,
	[W_EDGE_MAN] = -3, [W_MOBILITY] = 2, [W_TEMPO] = 1, [W_RUNAWAY] = 30, [W_DOG_HOLE] = -10,
	[W_TRADE_DOWN] = 4, [W_KING_CORNER] = 25, [W_DRIVE] = 3,
}, NULL, NULL, 0 };

#define CENTRE ((1u << 9) | (1u << 10) | (1u << 13) | (1u << 14) | (1u << 17) | (1u << 18) | (1u << 21) | (1u << 22))
#define EDGES  ((1u << 4) | (1u << 11) | (1u << 12) | (1u << 19) | (1u << 20) | (1u << 27))
/* Double corners: squares 1 and 5 (Black's side), 28 and 32 (White's side). */
#define DOUBLE_CORNERS ((1u << 0) | (1u << 4) | (1u << 27) | (1u << 31))

static int row_of(int b) { return b / 4; }
static int col_of(int b) { int r = b / 4; return (r % 2 == 0) ? 2 * (b % 4) + 1 : 2 * (b % 4); }

static int distance(int a, int b)
{
	int dr = abs(row_of(a) - row_of(b)), dc = abs(col_of(a) - col_of(b));
	return dr > dc ? dr : dc;
}

/* Men of `colour` that can walk to the crowning row unopposed: every square of the
 * cone in front of them is empty of enemy pieces and the next step is free. The cone of
 * a man within three rows of crowning (the squares ahead within reach of a diagonal step
 * a row) and its next steps, by colour and square; 0 further back. */
static bb_t cone_of[2][32], step_of[2][32];

__attribute__((constructor)) static void init_cones(void)
{
	for (int colour = 0; colour < 2; colour++)
		for (int b = 0; b < 32; b++) {
			int to_go = colour == PK_BLACK ? 7 - row_of(b) : row_of(b);
			bb_t cone = 0, front = bb_sq(b);
			for (int k = 0; k < to_go && to_go <= 3; k++) {
				front = colour == PK_BLACK ? bb_down_left(front) | bb_down_right(front)
							   : bb_up_left(front) | bb_up_right(front);
				cone |= front;
			}
			cone_of[colour][b] = cone;
			step_of[colour][b] = to_go > 3 ? 0
					   : colour == PK_BLACK ? bb_down_left(bb_sq(b)) | bb_down_right(bb_sq(b))
								: bb_up_left(bb_sq(b)) | bb_up_right(bb_sq(b));
		}
}

static int runaways(const pk_pos *p, int colour)
{
	/* only men within three rows of crowning have a step */
	bb_t near = colour == PK_BLACK ? 0xFFFF0000u : 0x0000FFFFu;
	bb_t men = p->side[colour] & ~p->kings & near, enemy = p->side[!colour], empty = pos_empty(p);
	int n = 0;
	for (bb_t x = men; x; x = bb_clear_first(x)) {
		int b = bb_first(x);
		n += !(cone_of[colour][b] & enemy) && (step_of[colour][b] & empty);
	}
	return n;
}

static int plain_moves(const pk_pos *p, int colour)
{
	bb_t own = p->side[colour], empty = pos_empty(p);
	bb_t down = colour == PK_BLACK ? own : own & p->kings;
	bb_t up = colour == PK_WHITE ? own : own & p->kings;
	return bb_count(bb_down_left(down) & empty) + bb_count(bb_down_right(down) & empty) +
	       bb_count(bb_up_left(up) & empty) + bb_count(bb_up_right(up) & empty);
}

void eval_features(const pk_pos *p, int *material_men, int f[W_NUM])
{
	bb_t bm = p->side[PK_BLACK] & ~p->kings, wm = p->side[PK_WHITE] & ~p->kings;
	bb_t bk = p->side[PK_BLACK] & p->kings, wk = p->side[PK_WHITE] & p->kings;
	int nbm = bb_count(bm), nwm = bb_count(wm), nbk = bb_count(bk), nwk = bb_count(wk);
	int pieces = nbm + nwm + nbk + nwk;
	*material_men = nbm - nwm;
	for (int i = 0; i < W_NUM; i++)
		f[i] = 0;
	f[W_KING] = nbk - nwk;
	f[W_BACK_RANK] = bb_count(bm & BB_WHITE_KINGROW) - bb_count(wm & BB_BLACK_KINGROW);
	f[W_BRIDGE] = ((bm & 0x5u) == 0x5u) - ((wm & 0xA0000000u) == 0xA0000000u);
	f[W_CENTRE_MAN] = bb_count(bm & CENTRE) - bb_count(wm & CENTRE);
	f[W_CENTRE_KING] = bb_count(bk & CENTRE) - bb_count(wk & CENTRE);
	f[W_EDGE_MAN] = bb_count(bm & EDGES) - bb_count(wm & EDGES);
	f[W_MOBILITY] = plain_moves(p, PK_BLACK) - plain_moves(p, PK_WHITE);
	/* Tempo counts in the middle game, where advanced men are a strength. */
	if (pieces >= 10 && pieces <= 20) {
		/* the rows of Black's men counted from its back row, less White's from its own */
		int tempo = 0;
		for (int r = 1; r < 8; r++)
			tempo += r * (bb_count(bm & BB_ROW(r)) - bb_count(wm & BB_ROW(7 - r)));
		f[W_TEMPO] = tempo;
	}
	f[W_RUNAWAY] = runaways(p, PK_BLACK) - runaways(p, PK_WHITE);
	f[W_DOG_HOLE] = ((bm >> 4) & 1) - ((wm >> 27) & 1);

	/* Endgame knowledge. */
	int bmat = 100 * nbm + 130 * nbk, wmat = 100 * nwm + 130 * nwk;
	if (bmat != wmat) {
		int sign = bmat > wmat ? 1 : -1;
		f[W_TRADE_DOWN] = sign * (24 - pieces);
		/* The weaker side's lone king: safe in a double corner; the stronger side's kings
		 * should close in on it. */
		bb_t strong_kings = sign > 0 ? bk : wk, weak = p->side[sign > 0 ? PK_WHITE : PK_BLACK];
		bb_t weak_kings = weak & p->kings;
		if (weak == weak_kings && bb_count(weak) <= 2 && strong_kings) {
			f[W_KING_CORNER] = -sign * bb_count(weak_kings & DOUBLE_CORNERS);
			int close = 0;
			for (bb_t s = strong_kings; s; s = bb_clear_first(s))
				for (bb_t w = weak_kings; w; w = bb_clear_first(w))
					close += 7 - distance(bb_first(s), bb_first(w));
			f[W_DRIVE] = sign * close;
		}
	}
}

/* Known wins that game results cannot teach (they are too rare in games): two or more
 * kings against a lone king. The stronger kings close in on the lone king, one of them
 * sits next to it, and a lone king in the single corner or on the edge is nearly caught.
 * Fixed values, not tuned; from Black's view. */
static int mop_up(const pk_pos *p)
{
	for (int s = 0; s < 2; s++) {
		bb_t strong = p->side[s], weak = p->side[!s];
		if (bb_count(weak) != 1 || !(weak & p->kings) || bb_count(strong & p->kings) < 2)
			continue;
		int wsq = bb_first(weak), near = 0, total = 0;
		for (bb_t k = strong & p->kings; k; k = bb_clear_first(k)) {
			int d = distance(bb_first(k), wsq);
			total += 7 - d;
			near += d <= 2;
		}
		int v = 12 * total + 20 * (near > 0) + (DOUBLE_CORNERS & weak ? 0 : 30);
		return s == PK_BLACK ? v : -v;
	}
	return 0;
}

int eval(const pk_pos *p, const pk_weights *w)
{
	int men, f[W_NUM];
	eval_features(p, &men, f);
	int v = 100 * men;
	for (int i = 0; i < W_NUM; i++)
		v += f[i] * w->w[i];
	v += mop_up(p);
	v = p->stm == PK_BLACK ? v : -v;
	if (w->pat)
		v += pattern_eval(w->pat, p);
	if (w->net)
		v += net_eval(w->net, p);
	/* as many pieces on each side and kings on both: most such endings are drawn */
	if (w->draw_scale > 0 && w->draw_scale < 100 && bb_count(p->side[0]) == bb_count(p->side[1]) &&
	    (p->side[0] & p->kings) && (p->side[1] & p->kings))
		v = v * w->draw_scale / 100;
	return v;
}

int weights_parse(const char *text, pk_weights *w, char *err, size_t errsize)
{
	/* the linear weights, and draw_scale apart */
	static const char *names[W_NUM + 1];
	for (int i = 0; i < W_NUM; i++)
		names[i] = eval_weight_names[i];
	names[W_NUM] = "draw_scale";
	int all[W_NUM + 1];
	memcpy(all, w->w, sizeof w->w);
	all[W_NUM] = w->draw_scale;
	if (weights_parse_named(text, names, W_NUM + 1, all, err, errsize) < 0)
		return -1;
	if (all[W_NUM] < 0 || all[W_NUM] > 100) {
		snprintf(err, errsize, "draw_scale = %d: give a percentage from 0 to 100", all[W_NUM]);
		return -1;
	}
	memcpy(w->w, all, sizeof w->w);
	w->draw_scale = all[W_NUM];
	return 0;
}

int weights_parse_named(const char *text, const char *const *names, int n_names, int *w, char *err, size_t errsize)
{
	int line = 0;
	for (const char *p = text; *p;) {
		line++;
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *q = p, *stop = p + len;
		p += len + (end ? 1 : 0);
		const char *hash = memchr(q, '#', len);
		if (hash)
			stop = hash;   /* a comment, however long, is no part of the line */
		/* the line as tokens: a name, a whole number, nothing else */
		const char *tok[3];
		size_t tlen[3];
		int n = 0;
		while (q < stop) {
			while (q < stop && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++;
			if (q == stop)
				break;
			const char *b = q;
			while (q < stop && *q != ' ' && *q != '\t' && *q != '\r')
				q++;
			if (n == 3)
				break;
			tok[n] = b;
			tlen[n++] = (size_t)(q - b);
		}
		if (n == 0)
			continue;
		if (n != 2) {
			snprintf(err, errsize, "line %d: expected 'name value'", line);
			return -1;
		}
		int k = 0;
		while (k < n_names && (strlen(names[k]) != tlen[0] || memcmp(names[k], tok[0], tlen[0]) != 0))
			k++;
		if (k == n_names) {
			snprintf(err, errsize, "line %d: unknown weight '%.*s'", line, (int)(tlen[0] > 60 ? 60 : tlen[0]), tok[0]);
			return -1;
		}
		char num[24];
		if (tlen[1] >= sizeof num) {
			snprintf(err, errsize, "line %d: %s: '%.20s...' is not a whole number from -10000 to 10000", line, names[k], tok[1]);
			return -1;
		}
		memcpy(num, tok[1], tlen[1]);
		num[tlen[1]] = 0;
		char *e;
		long v = strtol(num, &e, 10);
		if (*e || e == num) {
			snprintf(err, errsize, "line %d: %s: '%s' is not a whole number", line, names[k], num);
			return -1;
		}
		if (v < -10000 || v > 10000) {
			snprintf(err, errsize, "line %d: %s = %ld is out of range", line, names[k], v);
			return -1;
		}
		w[k] = (int)v;
	}
	return 0;
}

/* book/weights.txt as text, generated at build time into weights_data.c. */
extern const char eval_weights_text[];

const pk_weights *eval_tuned_weights(void)
{
	static pk_weights w;
	static int ready;
	if (!ready) {
		char err[160];
		w = eval_default_weights;
		if (weights_parse(eval_weights_text, &w, err, sizeof err) < 0)
			w = eval_default_weights;   /* a broken file is caught by the tests */
		w.pat = patterns_builtin();
		w.net = net_builtin();
		ready = 1;
	}
	return &w;
}
