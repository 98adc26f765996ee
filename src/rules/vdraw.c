/* The draw rules of the variants by their federations' texts (rules/variant.h,
 * pk_vdraw): the counts a referee and a search keep beside repetition. */
#include <string.h>
#include "rules/pos.h"
#include "rules/variant.h"

static int colour_of(int piece) { return piece == VP_WMAN || piece == VP_WKING ? PK_WHITE : PK_BLACK; }

/* The draw rules of each variant, as its federation writes them (or, where no
 * federation's text was found, the published description named):
 * - International (FMJD, Annex 1 "Official FMJD rules for international draughts",
 *   article 6): 25 successive moves each of kings only, without a man moved or a
 *   capture; three pieces, at least one a king, against a lone king: 16 moves each;
 *   two kings, a king and a man, or a king, against a lone king: 5 moves each.
 * - Brazilian: "the same rules and conventions as International draughts" on a board of
 *   8x8 (Wikipedia, "Brazilian draughts"; ludoteka.com, "Brasilian draughts": "rules are
 *   exactly the same as International draughts"): International's counts above.
 * - Canadian: "the same rules and conventions as international draughts", on 12x12
 *   (Wikipedia, "Canadian checkers"); windames.free.fr, "Canadian 12x12 checkers": three
 *   kings against one, 16 moves each without a capture: International's counts above.
 * - Czech (FMJD's brief rules of Czech draughts): "no jump or move by a man within 15
 *   moves".
 * - Russian (the rules of the Russian draughts federation): 15 moves each of kings only,
 *   without a man moved or a capture.
 * - Italian (FID's brief rules of Italian draughts): a draw by agreement or by the
 *   same position three times; no count of moves.
 * - Spanish: "40 successive king moves (20 each side) without any capture" (the rules of
 *   Spanish draughts as lidraughts-style sites publish them, e.g. section64port.online,
 *   "Spanish Draughts"); Portuguese draughts is the same game on a board turned a
 *   quarter (brainking.com's table of the rules: "Damas Españolas (también conocidas
 *   como Damas Portuguesas con el tablero rotado)"): 20 moves each.
 * - American pool checkers (Wikipedia, "Pool checkers", citing the APCA Playing Rules):
 *   "if one player has three kings and the other has just one king, the player who has
 *   the three kings must win within thirteen moves"; no count of kings' moves found, so
 *   the English 50 moves each stays beside it.
 * - Turkish (boardgamesoftheworld.com, "Dama"): "If the same position is encountered
 *   three times the game results in a draw"; no count of moves.
 * - Frisian: its king endings (vdraw_plies), two and seven moves each.
 * - Thai: no published count found; the English 50 moves each of kings only. */
int vdraw_kings_only_plies(const pk_variant *v)
{
	switch (v->gametype) {
	case 20: case 26: case 27: return 50;
	case 22: case 30: return 0;   /* none */
	case 24: case 28: return 40;
	case 25: case 29: return 30;
	default: return 100;
	}
}

/* The pieces (n) and kings (k) of each side. */
static void material(const pk_vpos *p, int n[2], int k[2])
{
	int sq = variant_squares(p->v);
	n[0] = n[1] = k[0] = k[1] = 0;
	for (int s = 1; s <= sq; s++) {
		int piece = p->sq[s];
		if (!piece)
			continue;
		n[colour_of(piece)]++;
		k[colour_of(piece)] += piece == VP_WKING || piece == VP_BKING;
	}
}

/* Frisian's king endings: two moves each of a king against a king, seven of two kings
 * against one. */
int vdraw_plies_of(const pk_variant *v, const int n[2], const int k[2])
{
	if (!v->king_moves || n[0] != k[0] || n[1] != k[1])
		return 0;               /* not Frisian, or a man on the board */
	int lo = k[0] < k[1] ? k[0] : k[1], hi = k[0] + k[1] - lo;
	return lo == 1 && hi == 1 ? 4 : lo == 1 && hi == 2 ? 14 : 0;
}

int vdraw_plies(const pk_vpos *p)
{
	if (!p->v->king_moves)
		return 0;
	int n[2], k[2];
	material(p, n, k);
	return vdraw_plies_of(p->v, n, k);
}

void vdraw_init(pk_vdraw *d) { memset(d, 0, sizeof *d); }

/* International's limited endings: 1 three pieces (a king among them) against a lone
 * king, 16 moves each; 2 two pieces or one (a king among them) against a lone king,
 * 5 moves each; 0 none. */
static int fmjd_ending_of(const int n[2], const int k[2])
{
	for (int side = 0; side < 2; side++) {
		int o = !side;
		if (n[o] == 1 && k[o] == 1 && k[side] >= 1) {
			if (n[side] == 3)
				return 1;
			if (n[side] <= 2)
				return 2;
		}
	}
	return 0;
}

/* American pool checkers' limited ending: three kings (and nothing else) against a lone
 * king. */
static bool pool_ending_of(const int n[2], const int k[2])
{
	for (int side = 0; side < 2; side++)
		if (n[side] == 3 && k[side] == 3 && n[!side] == 1 && k[!side] == 1)
			return true;
	return false;
}

int vdraw_class_plies(const pk_variant *v, int cls)
{
	switch (v->gametype) {
	case 20: case 26: case 27: return cls == 1 ? 32 : cls == 2 ? 10 : 0;
	case 23: return cls ? 26 : 0;
	case 40: return cls;   /* Frisian's classes are their plies */
	default: return 0;
	}
}

int vdraw_ending_class_of(const pk_variant *v, const int n[2], const int k[2])
{
	switch (v->gametype) {
	case 20: case 26: case 27: return fmjd_ending_of(n, k);
	case 23: return pool_ending_of(n, k) ? 1 : 0;
	case 40: return vdraw_plies_of(v, n, k);
	default: return 0;
	}
}

int vdraw_ending_class(const pk_vpos *p)
{
	int n[2], k[2];
	switch (p->v->gametype) {
	case 20: case 26: case 27: case 23: case 40:
		material(p, n, k);
		return vdraw_ending_class_of(p->v, n, k);
	default:
		return 0;
	}
}

int vdraw_ending_plies(const pk_vpos *p) { return vdraw_class_plies(p->v, vdraw_ending_class(p)); }

int vdraw_ending_next(const pk_variant *v, int class_before, int count_before, int class_after, bool capture)
{
	switch (v->gametype) {
	case 20: case 26: case 27:
		/* reaching an ending (or another) is not one of its moves */
		return class_after && class_after == class_before ? count_before + 1 : 0;
	case 23:
		return class_after ? (class_before ? count_before + 1 : 1) : 0;
	case 40:
		return class_after && !capture ? count_before + 1 : 0;
	default:
		return 0;
	}
}

int vdraw_ending_count(const pk_vdraw *d, const pk_vpos *p)
{
	return vdraw_ending_class(p) ? d->ending : 0;
}

const char *vdraw_after(pk_vdraw *d, const pk_vpos *before, const pk_vmove *m, const pk_vpos *after)
{
	const pk_variant *v = before->v;
	int piece = before->sq[m->from];
	bool king = piece == VP_WKING || piece == VP_BKING;
	d->kings_only = king && m->ncap == 0 ? d->kings_only + 1 : 0;
	int limit = vdraw_kings_only_plies(v);
	if (v->gametype == 40) {
		/* Frisian: the plies played in a material its draw rule counts */
		int fp = vdraw_plies(after);
		d->ending = fp && m->ncap == 0 ? d->ending + 1 : 0;
		if (fp && d->ending >= fp)
			return fp == 4 ? "a king against a king, two moves each" : "two kings against one, seven moves each";
	}
	if (v->gametype == 23) {
		/* the count starts when the ending is reached; the stronger side has 13 moves */
		bool in = vdraw_ending_class(after) != 0;
		d->ending = in && d->ending_class ? d->ending + 1 : in ? 1 : 0;
		d->ending_class = in;
		if (in && d->ending >= 26)
			return "three kings against one, 13 moves (APCA)";
	}
	if (v->gametype == 20 || v->gametype == 26 || v->gametype == 27) {
		int c = vdraw_ending_class(after);
		/* a capture within an ending of 16 moves keeps its count; reaching the ending of
		 * 5 moves starts that one's. The count is of the moves played in the ending: the
		 * move that reaches it (a capture, a crowning) is not one of them, so each side
		 * has its 5 or 16 moves after it ("after each player has made 5 moves"). A game
		 * that begins in an ending counts from its first move. */
		bool reached = c && vdraw_ending_class(before) != c;
		if (c != d->ending_class) {
			d->ending = (c == 1 && d->ending_class == 0) || c == 2 ? 0 : d->ending;
			d->ending_class = c;
		}
		if (c && !reached) {
			d->ending++;
			bool fmjd = v->gametype == 20;   /* Brazilian, Canadian: International's rules */
			if (c == 1 && d->ending >= 32)
				return fmjd ? "three pieces against a lone king, 16 moves each (FMJD)"
					    : "three pieces against a lone king, 16 moves each (International rules)";
			if (c == 2 && d->ending >= 10)
				return fmjd ? "two pieces or one against a lone king, 5 moves each (FMJD)"
					    : "two pieces or one against a lone king, 5 moves each (International rules)";
		}
	}
	if (limit > 0 && d->kings_only >= limit) {
		switch (v->gametype) {
		case 20: return "25 moves each of kings only (FMJD)";
		case 26: case 27: return "25 moves each of kings only (International rules)";
		case 24: case 28: return "20 moves each of kings only";
		case 25: return "15 moves each of kings only";
		case 29: return "15 moves without a man moved or a capture";
		default: return "50 moves each of kings only";
		}
	}
	return NULL;
}

