/* Telling variants apart: their names by GameType, and the signs that a game without
 * a GameType tag is not English draughts. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/replay_int.h"
#include "rules/pos.h"
#include "rules/variant.h"

const char *variant_name(int v)
{
	switch (v) {
	case 20: return "International draughts";
	case 21: return "English draughts";
	case 22: return "Italian draughts";
	case 23: return "American pool checkers";
	case 24: return "Spanish draughts";
	case 25: return "Russian draughts";
	case 26: return "Brazilian draughts";
	case 27: return "Canadian draughts";
	case 28: return "Portuguese draughts";
	case 29: return "Czech draughts";
	case 30: return "Turkish draughts";
	case 31: return "Thai draughts";
	case 40: return "Frisian draughts";
	case 41: return "Spantsiretti";
	default: return "unknown variant";
	}
}

/* Signs that a game without a GameType tag is not English draughts: alphanumeric
 * squares, squares above 32 (10x10 boards), Italian tag names, or a first move that
 * only White could make from the initial position (most other variants start with
 * White). Returns a description (in why), or NULL when the game looks English. */
const char *rp_other_variant(const pk_game *g, bool full, char why[WHY_SIZE])
{
	if (game_tag(g, "Bianco") || game_tag(g, "Nero") || game_tag(g, "Risultato"))
		return "Italian tag names (Bianco, Nero) suggest Italian draughts";
	const char *fen = game_tag(g, "FEN");
	if (fen)
		for (const char *q = fen; *q; q++)
			if (isdigit((unsigned char)*q) && (q == fen || !isdigit((unsigned char)q[-1])) && atoi(q) > 32) {
				snprintf(why, WHY_SIZE, "the FEN names square %d, so the board is larger than 8x8", atoi(q));
				return why;
			}
	bool first = true;
	int moves = 0, big = 0;
	for (int i = 0; i < g->nel; i++) {
		const pk_el *e = &g->els[i];
		if (e->kind != EL_MOVE || e->depth != 0)
			continue;
		const char *t = game_str(g, e->off);
		if (isalpha((unsigned char)t[0]) && isdigit((unsigned char)t[1])) {
			snprintf(why, WHY_SIZE, "alphanumeric moves such as '%.20s' are not English draughts notation", t);
			return why;
		}
		if (!first && !full)
			break;
		pk_written w;
		char err[120];
		if (written_parse(t, &w, err, sizeof err) < 0)
			continue;
		/* One typo must not turn an English game into another variant: a square above
		 * 32 counts among the first four moves, or when three moves name one. */
		moves++;
		for (int k = 0; k < w.n; k++)
			if (w.sq[k] > 32 && w.sq[k] <= 50) {
				if (big++ == 0)
					snprintf(why, WHY_SIZE, "move %.20s names square %d, so the board is larger than 8x8", t, w.sq[k]);
				if (moves <= 4 || big >= 3)
					return why;
				break;
			}
		if (first && fen)
			first = false;
		if (first && w.n >= 2) {
			first = false;
			pk_pos p;
			pos_start(&p);
			pk_movelist ml;
			int idx[1];
			gen_moves(&p, &ml);
			if (rp_find_matches(&ml, w.sq, w.n, idx, 1) == 0) {
				p.stm = PK_WHITE;
				gen_moves(&p, &ml);
				if (rp_find_matches(&ml, w.sq, w.n, idx, 1) > 0) {
					snprintf(why, WHY_SIZE, "the first move %.20s is White's, and in English draughts Black moves first", t);
					return why;
				}
				/* White's first moves on the 10x10 board: 31..35 to 26..30. */
				int a = w.sq[0], b = w.sq[1];
				if (w.n == 2 && a >= 31 && a <= 35 && b >= 26 && b <= 30 && (a - b == 4 || a - b == 5)) {
					snprintf(why, WHY_SIZE, "the first move %.20s is an opening move of International draughts (10x10)", t);
					return why;
				}
			}
		}
	}
	return NULL;
}


void rp_check_gametype_form(pk_game *g, int gametype)
{
	const pk_tag *t = NULL;
	for (int i = 0; i < g->ntags && !t; i++)
		if (!strcasecmp(game_str(g, g->tags[i].name), "GameType"))
			t = &g->tags[i];
	const char *text = t ? game_str(g, t->value) : NULL;
	if (!text || !strchr(text, ','))
		return;   /* the number alone */
	char colour = 0, letter = 0, extra;
	int type, width, height, corner, invert;
	int n = sscanf(text, " %d , %c , %d , %d , %c%d , %d %c", &type, &colour, &width, &height, &letter, &corner, &invert,
		       &extra);
	if (n != 7 || (colour != 'W' && colour != 'B') || !strchr("ANS", letter) || letter == 0 || width < 1 ||
	    height < 1 || (invert != 0 && invert != 1)) {
		findings_add_once(&g->findings, SEV_WARNING, "gametype-form", t->line, t->col, 0,
				  "GameType \"%s\": its full form is six fields, e.g. \"20,W,10,10,N2,0\" (type, the colour "
				  "that moves first, board width and height, notation A, N or S with a corner 0-3, invert 0 or 1); "
				  "only the type was read", text);
		return;
	}
	const pk_variant *v = variant_by_gametype(gametype);
	if (!v)
		return;
	int first = colour == 'W' ? PK_WHITE : PK_BLACK;
	if (first != v->first || width != v->cols || height != v->rows)
		findings_add_once(&g->findings, SEV_WARNING, "gametype-form", t->line, t->col, 0,
				  "GameType \"%s\" says %s moves first on a %dx%d board, but %s has %s move first on %dx%d; "
				  "replayed under the rules of %s", text, first == PK_WHITE ? "White" : "Black", width, height,
				  v->name, v->first == PK_WHITE ? "White" : "Black", v->cols, v->rows, v->name);
}
