/* The variants' general move generator, proved four ways:
 * - published perft counts from the start: International draughts (Aart Bik, "BikDam:
 *   international checkers", aartbik.blogspot.com, counts with duplicate captures
 *   removed), Brazilian draughts (Rein Halbersma, "Perft for all recognized draughts
 *   variants", damforum.nl / laatste.info, 2010, first derived on shashki.com);
 * - English draughts against the bitboard core (rules/gen.c), which is itself held to
 *   OEIS A133046;
 * - every other variant against a second generator written apart (tests/naive_variant.c),
 *   from the start and from positions with kings where the rules differ most;
 * - every variant against that generator on 3,000 random positions each (perft 1, and
 *   perft 2 on one in eight), Frisian's king-move counts included; there too the
 *   bitboards of rules/vbits.h (captures, quiet-move counts, made moves) against the
 *   walk over the board, and the key carried over a move against the key made anew;
 * and the rule traps of each (majority, crowning in a capture, king priorities,
 * Frisian's captures along ranks and files, its values and its king-move limit) by
 * hand-built positions with the legal moves expected. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "naive_variant.h"
#include "rules/fen.h"
#include "rules/perft.h"
#include "rules/variant.h"
#include "rules/vbits.h"

static void published(const char *name, const uint64_t *want, int n)
{
	const pk_variant *v = variant_by_name(name);
	CHECK(v != NULL);
	if (!v)
		return;
	pk_vpos p;
	vpos_start(v, &p);
	for (int d = 1; d <= n; d++)
		CHECK_REPORT(vperft(&p, d) == want[d - 1], "%s perft(%d) = %llu, published %llu", name, d,
			     (unsigned long long)vperft(&p, d), (unsigned long long)want[d - 1]);
}

static void against_naive(const char *name, const char *fen, int depth)
{
	const pk_variant *v = variant_by_name(name);
	CHECK(v != NULL);
	if (!v)
		return;
	pk_vpos p;
	char err[200];
	if (fen) {
		int ok = vfen_parse(v, fen, &p, err, sizeof err) == 0;
		CHECK_REPORT(ok, "%s FEN %s: %s", name, fen, err);
		if (!ok)
			return;
	} else {
		vpos_start(v, &p);
	}
	for (int d = 1; d <= depth; d++) {
		uint64_t a = vperft(&p, d), b = naive_variant_perft(&p, d);
		CHECK_REPORT(a == b, "%s %s perft(%d): %llu, the second generator %llu", name, fen ? fen : "start", d,
			     (unsigned long long)a, (unsigned long long)b);
	}
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Random positions of every density, men and kings of both sides (a man never on the
 * row where it would have been crowned), either side to move, and for Frisian the
 * count of a king's quiet moves in a row: the two generators agree on every move count
 * (perft 1) and, on one position in eight, on perft 2. */
/* A random position of v: each square taken (by a man or king of either side) with a
 * chance of 5 to 5 + spread percent, no man on its far row, either side to move. */
static void random_position(const pk_variant *v, pk_vpos *p, int spread)
{
	vpos_clear(v, p, rnd(2) ? PK_WHITE : PK_BLACK);
	int density = 5 + (int)rnd((unsigned)spread);
	for (int s = 1; s <= variant_squares(v); s++) {
		if ((int)rnd(100) >= density)
			continue;
		int piece = 1 + (int)rnd(4), row, col;
		variant_square_rc(v, s, &row, &col);
		if (piece == VP_WMAN && row == 0)
			piece = VP_WKING;
		if (piece == VP_BMAN && row == v->rows - 1)
			piece = VP_BKING;
		p->sq[s] = (uint8_t)piece;
	}
}

static void random_against_naive(const pk_variant *v, int count)
{
	int n = variant_squares(v), agree = 0, tried = 0, cap_agree = 0;
	int bits_agree = 0, bits_tried = 0, key_agree = 0, key_tried = 0;
	static pk_vmovelist cml;
	for (int k = 0; k < count; k++) {
		pk_vpos p;
		random_position(v, &p, 45);
		int kings[2][VAR_MAX_SQ], nk[2] = { 0, 0 };
		for (int s = 1; s <= n; s++)
			if (p.sq[s] == VP_WKING || p.sq[s] == VP_BKING) {
				int side = p.sq[s] == VP_WKING ? PK_WHITE : PK_BLACK;
				kings[side][nk[side]++] = s;
			}
		for (int side = 0; v->king_moves && side < 2; side++)
			if (nk[side] && rnd(2)) {
				p.ksq[side] = (uint8_t)kings[side][rnd((unsigned)nk[side])];
				p.kn[side] = (uint8_t)(1 + rnd(3));
			}
		/* vhas_capture, the search's question at the horizon, against the generator */
		int nm = vgen(&p, &cml);
		cap_agree += vhas_capture(&p) == (nm > 0 && cml.m[0].ncap > 0) && vcount(&p) == nm;
		/* the bitboards' answers, and the key carried over each move */
		if (vbits_supported(v)) {
			pk_vbits b;
			vbits_of(&p, &b);
			bool cap = vbits_has_capture(v, &b, p.stm);
			bits_tried++;
			bits_agree += cap == vhas_capture(&p) && (cap || vbits_quiet_count(v, &b, p.stm) == nm);
			for (int i = 0; i < nm; i++) {
				pk_vpos q;
				pk_vbits qb, want;
				vmake(&p, &cml.m[i], &q);
				vbits_make(&b, &p, &cml.m[i], &q, &qb);
				vbits_of(&q, &want);
				bits_agree += memcmp(&qb, &want, sizeof qb) == 0 ? 0 : -1000000;
			}
		}
		for (int i = 0; i < nm; i++) {
			pk_vpos q;
			vmake(&p, &cml.m[i], &q);
			key_agree += vpos_key_after(&p, &cml.m[i], &q, vpos_state_key(&p)) == vpos_state_key(&q);
			key_tried++;
			if (!v->king_moves) {   /* the key without the move made (the search's ETC) */
				key_agree += vpos_key_of_move(&p, &cml.m[i], vpos_state_key(&p)) == vpos_state_key(&q);
				key_tried++;
			}
		}
		int depth = k % 8 == 0 ? 2 : 1;
		uint64_t a = vperft(&p, depth), b = naive_variant_perft(&p, depth);
		tried++;
		agree += a == b;
		if (a != b) {
			char fen[VAR_FEN_STRLEN];
			vfen_format(&p, fen, sizeof fen);
			CHECK_REPORT(false, "%s %s (king moves %d@%d, %d@%d) perft(%d): %llu, the second generator %llu",
				     v->key, fen, p.kn[PK_WHITE], p.ksq[PK_WHITE], p.kn[PK_BLACK], p.ksq[PK_BLACK], depth,
				     (unsigned long long)a, (unsigned long long)b);
		}
	}
	CHECK_REPORT(agree == tried, "%s: %d of %d random positions agree", v->key, agree, tried);
	CHECK_REPORT(cap_agree == count, "%s: vhas_capture and vcount agree with vgen in %d of %d positions", v->key, cap_agree, count);
	CHECK_REPORT(bits_agree == bits_tried, "%s: the bitboards agree in %d of %d positions (and their moves)", v->key,
		     bits_agree, bits_tried);
	CHECK_REPORT(key_agree == key_tried, "%s: the key after a move agrees with the key made anew in %d of %d moves",
		     v->key, key_agree, key_tried);
}

static void english_against_core(void)
{
	const pk_variant *v = variant_by_name("english");
	pk_vpos vp;
	vpos_start(v, &vp);
	pk_pos p;
	pos_start(&p);
	for (int d = 1; d <= 8; d++) {
		uint64_t a = vperft(&vp, d), b = perft(&p, d, true);
		CHECK_REPORT(a == b, "English perft(%d): general %llu, bitboard core %llu", d, (unsigned long long)a,
			     (unsigned long long)b);
	}
	/* a position with kings and a double capture */
	const char *fen = "W:WK10,18,19,27:B14,K23,6,7";
	pk_fen_error fe;
	CHECK(fen_parse(fen, strlen(fen), &p, &fe) == 0);
	char err[200];
	CHECK(vfen_parse(v, fen, &vp, err, sizeof err) == 0);
	for (int d = 1; d <= 6; d++)
		CHECK_U64(vperft(&vp, d), perft(&p, d, true));
}

/* The legal moves of a position, written in full in the variant's notation, sorted and
 * joined by spaces, against the list expected. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void moves_are(const char *variant, const char *fen, const char *want)
{
	const pk_variant *v = variant_by_name(variant);
	char err[200];
	pk_vpos p;
	static pk_vmovelist ml;
	if (vfen_parse(v, fen, &p, err, sizeof err) != 0) {
		CHECK_REPORT(false, "%s %s: %s", variant, fen, err);
		return;
	}
	int n = vgen(&p, &ml);
	char text[64][64], *ptr[64], got[4096] = "";
	for (int i = 0; i < n && i < 64; i++) {
		vmove_text(v, &ml.m[i], true, text[i], sizeof text[i]);
		ptr[i] = text[i];
	}
	qsort(ptr, (size_t)(n < 64 ? n : 64), sizeof ptr[0], cmp_str);
	for (int i = 0; i < n && i < 64; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? " " : "", ptr[i]);
	CHECK_REPORT(strcmp(got, want) == 0, "%s %s: moves [%s], want [%s]", variant, fen, got, want);
}

/* A flying king that has taken a piece lands on any free square beyond it, unless from
 * one of them it can take again: then it must land on one of those and go on (Russian
 * rules, FMJD-64 article 4.6: a capture is completed; the answers here are worked out
 * from that text by hand, not by pdnkit). Pool and Czech kings complete their captures
 * the same way; Thai kings land just behind the piece; where the majority rule holds
 * the shorter sequence is dropped anyway. */
static void king_completes_capture(void)
{
	/* pydraughts' issue #28 (fixed there in 0.6.1): the man crowned on f8 takes c5 as a
	 * king and must land on b4, not a3, to take d2 */
	moves_are("russian", "W:Wh6:Bg7,c5,d2", "h6:f8:b4:e1");
	moves_are("russian", "W:W12:B8,14,26", "h6:f8:b4:e1");
	/* Ka1 takes c3: only e5 goes on (takes f4); d4, f6, g7, h8 would stop short */
	moves_are("russian", "W:WKa1:Bc3,f4", "a1:e5:g3 a1:e5:h2");
	moves_are("pool", "W:WK29:B22,19", "29x15x24 29x15x28");
	moves_are("czech", "W:WKa1:Bc3,f4", "a1:e5:g3 a1:e5:h2");
	moves_are("brazilian", "W:WKa1:Bc3,f4", "a1:e5:g3 a1:e5:h2");
	moves_are("thai", "W:WK29:B22,19", "29x18");
	/* two landing squares go on (e5 takes f4, f6 takes e7): the choice between them is
	 * free; the stops on d4, g7 and h8 are not */
	moves_are("russian", "W:WKa1:Bc3,f4,e7", "a1:e5:g3 a1:e5:h2 a1:f6:d8");
	/* the same in the middle of a sequence: Kh8 takes f6 (e5), then d4, where only c3
	 * goes on (b4, then b6 with the free choice of c7 or d8 at the end); b2 and a1
	 * would stop short */
	moves_are("russian", "B:BKh8:Wf6,d4,b4,b6", "h8:e5:c3:a5:c7 h8:e5:c3:a5:d8");
}

static void specific_rules(void)
{
	char err[200];
	pk_vpos p;
	pk_vmovelist ml;
	/* International: the majority capture is compulsory (3 pieces, not 1). */
	const pk_variant *in = variant_by_name("international");
	CHECK(vfen_parse(in, "W:W46:B41,31,22,32", &p, err, sizeof err) == 0);
	CHECK_INT(vgen(&p, &ml), 1);
	CHECK_INT(ml.m[0].ncap, 3);
	/* Russian: free choice of captures, and a man crowned in the middle of a capture goes on
	 * as a king. */
	const pk_variant *ru = variant_by_name("russian");
	CHECK(vfen_parse(ru, "W:W9:B6,11", &p, err, sizeof err) == 0);
	int n = vgen(&p, &ml);
	bool crowned_and_on = false;
	for (int i = 0; i < n; i++)
		crowned_and_on |= ml.m[i].crowns && ml.m[i].ncap == 2;
	CHECK_REPORT(crowned_and_on, "Russian: a man crowned on 2 does not go on capturing as a king (%d moves)", n);
	/* Brazilian (International rules): the same man reaches the crown row as a man, cannot
	 * take the second piece, and is crowned at the end. */
	const pk_variant *br = variant_by_name("brazilian");
	CHECK(vfen_parse(br, "W:W9:B6,11", &p, err, sizeof err) == 0);
	n = vgen(&p, &ml);
	bool two = false;
	for (int i = 0; i < n; i++)
		two |= ml.m[i].ncap == 2;
	CHECK_REPORT(!two, "Brazilian: a man went on capturing as a king after crossing the crown row");
	/* Czech: when a king can capture it must, even if a man could take more. */
	const pk_variant *cz = variant_by_name("czech");
	CHECK(vfen_parse(cz, "W:WK32,21:B27,17,9", &p, err, sizeof err) == 0);
	n = vgen(&p, &ml);
	CHECK(n > 0);
	for (int i = 0; i < n; i++)
		CHECK_REPORT(ml.m[i].by_king, "Czech: a man captured while a king could");
	/* Italian: a man may not capture a king. */
	const pk_variant *it = variant_by_name("italian");
	CHECK(it != NULL && it->men_spare_kings);
	/* Frisian (rules of the Frisian draughts association; lidraughts and dctl implement
	 * the same): captures also along ranks and files, to the next dark square; the
	 * capture of the highest value, a man 100 and a king 199; then a king's capture
	 * before a man's; one king may not move quietly more than three times in a row while
	 * its side has men. */
	const pk_variant *fr = variant_by_name("frisian");
	CHECK(fr != NULL && fr->replayable);
	static const struct {
		const char *fen, *moves, *why;
	} frisian[] = {
		{ "W:W28:B18", "28x8", "a man captures up a file" },
		{ "W:W28:B29", "28x30", "a man captures along a rank" },
		{ "W:W28,48:BK27,43,34", "48x39x30", "two men (200) before a king (199)" },
		{ "W:W28,48:BK27,43", "28x26", "a king (199) before a man (100)" },
		{ "W:WK46,28:B29,41", "46x37 46x32", "equal values: the king captures" },
		{ "W:WK46,28:B27,41", "46x37x17 46x37x7 46x32x21 46x32x16", "a flying king turns up a file" },
		{ "W:W24:B14,10", "24x4x15", "a man passing the crown row goes on as a man" },
	};
	for (size_t i = 0; i < sizeof frisian / sizeof frisian[0]; i++) {
		CHECK(vfen_parse(fr, frisian[i].fen, &p, err, sizeof err) == 0);
		n = vgen(&p, &ml);
		char got[400] = "";
		for (int k = 0; k < n; k++) {
			char mv[120];
			vmove_text(fr, &ml.m[k], true, mv, sizeof mv);
			snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? " " : "", mv);
		}
		CHECK_REPORT(!strcmp(got, frisian[i].moves), "Frisian %s (%s): %s, want %s", frisian[i].fen, frisian[i].why,
			     got, frisian[i].moves);
	}
	pk_vpos q2;
	CHECK(vfen_parse(fr, "W:W24:B14,10", &p, err, sizeof err) == 0 && vgen(&p, &ml) == 1);
	vmake(&p, &ml.m[0], &q2);
	CHECK_REPORT(q2.sq[15] == VP_WMAN, "Frisian: a man that ends its capture off the crown row is not crowned");
	/* the king-move limit: three quiet moves of king 46, then only the man moves; a
	 * move of the man frees the king; with no man, no limit */
	CHECK(vfen_parse(fr, "W:WK46,30:B1", &p, err, sizeof err) == 0);
	const int path[3][2] = { { 46, 41 }, { 41, 37 }, { 37, 41 } };
	for (int k = 0; k < 3; k++) {
		n = vgen(&p, &ml);
		int at = -1;
		for (int j = 0; j < n; j++)
			if (ml.m[j].from == path[k][0] && ml.m[j].to == path[k][1])
				at = j;
		CHECK_REPORT(at >= 0, "Frisian: king move %d-%d legal", path[k][0], path[k][1]);
		if (at < 0)
			break;
		vmake(&p, &ml.m[at], &q2);
		/* Black's reply: its man steps down */
		pk_vmovelist bl;
		CHECK(vgen(&q2, &bl) > 0);
		vmake(&q2, &bl.m[0], &p);
	}
	CHECK_INT(p.kn[PK_WHITE], 3);
	n = vgen(&p, &ml);
	bool king_moves = false;
	for (int j = 0; j < n; j++)
		king_moves |= ml.m[j].by_king;
	CHECK_REPORT(!king_moves && n == 2, "Frisian: a fourth quiet move of the same king (%d moves)", n);
	vmake(&p, &ml.m[0], &q2);            /* the man moves */
	CHECK_INT(q2.kn[PK_WHITE], 0);
	CHECK(vpos_state_key(&p) != vpos_key(&p) && vpos_state_key(&q2) == vpos_key(&q2));
	CHECK(vfen_parse(fr, "W:WK46:B1", &p, err, sizeof err) == 0);
	p.ksq[PK_WHITE] = 46;
	p.kn[PK_WHITE] = 3;
	CHECK_INT(vgen(&p, &ml), 9);
	/* Frisian's endgame draws: king against king two moves each, two kings against one
	 * seven; other material, and other variants, none */
	static const struct {
		const char *key, *fen;
		int plies;
	} draws[] = {
		{ "frisian", "W:WK1:BK50", 4 },       { "frisian", "B:WK1,K2:BK50", 14 },
		{ "frisian", "W:WK1:BK49,K50", 14 },  { "frisian", "W:WK1,K2:BK49,K50", 0 },
		{ "frisian", "W:WK1,30:BK50", 0 },    { "international", "W:WK1:BK50", 0 },
	};
	for (size_t i = 0; i < sizeof draws / sizeof draws[0]; i++) {
		CHECK(vfen_parse(variant_by_name(draws[i].key), draws[i].fen, &p, err, sizeof err) == 0);
		CHECK_REPORT(vdraw_plies(&p) == draws[i].plies, "%s %s: draw after %d plies, want %d", draws[i].key,
			     draws[i].fen, vdraw_plies(&p), draws[i].plies);
	}
	/* FEN round trip and errors */
	const pk_variant *ca = variant_by_name("canadian");
	vpos_start(ca, &p);
	char buf[600];
	vfen_format(&p, buf, sizeof buf);
	pk_vpos q;
	CHECK(vfen_parse(ca, buf, &q, err, sizeof err) == 0);
	CHECK(memcmp(p.sq, q.sq, sizeof p.sq) == 0);
	CHECK(vfen_parse(in, "W:W51:B1", &q, err, sizeof err) < 0);
	CHECK(strstr(err, "out of range 1..50") != NULL);
	CHECK(vfen_parse(in, "W:W1-20:B15", &q, err, sizeof err) < 0);
	CHECK(vfen_parse(in, "X:W1:B2", &q, err, sizeof err) < 0);
	CHECK_INT(variant_squares(in), 50);
	CHECK_INT(variant_squares(ca), 72);
	CHECK_INT(variant_squares(variant_by_name("turkish")), 64);
	CHECK(variant_by_name("25") == ru && variant_by_name("Russian draughts") == ru && !variant_by_name("chess"));
}

/* vpos_key: the store indexes the positions of variant games by it, so its values are
 * part of the database format (pinned here: a change needs a new schema version). */
static void keys(void)
{
	const pk_variant *in = variant_by_name("international"), *ru = variant_by_name("russian");
	const pk_variant *en = variant_by_name("english"), *pool = variant_by_name("pool");
	pk_vpos a, b;
	vpos_start(in, &a);
	CHECK_U64(vpos_key(&a), 0x9d188e203621a767ULL);
	vpos_start(ru, &a);
	CHECK_U64(vpos_key(&a), 0xa87f5036eaef7651ULL);
	/* the same men on the same squares in two variants: two keys */
	vpos_start(en, &a);
	vpos_start(pool, &b);
	CHECK(memcmp(a.sq, b.sq, sizeof a.sq) == 0 && a.stm == b.stm);
	CHECK(vpos_key(&a) != vpos_key(&b));
	/* the side to move counts */
	b = a;
	b.stm = b.stm == PK_WHITE ? PK_BLACK : PK_WHITE;
	CHECK(vpos_key(&a) != vpos_key(&b));
	/* one position by two move orders: one key (Russian c3-d4 f6-g5 g3-f4 and
	 * g3-f4 f6-g5 c3-d4) */
	const char *orders[2][3] = { { "c3", "f6", "g3" }, { "g3", "f6", "c3" } };
	const char *to[2][3] = { { "d4", "g5", "f4" }, { "f4", "g5", "d4" } };
	uint64_t k[2];
	for (int o = 0; o < 2; o++) {
		vpos_start(ru, &a);
		for (int i = 0; i < 3; i++) {
			pk_vmovelist *ml = malloc(sizeof *ml);
			int n = vgen(&a, ml), found = -1;
			for (int m = 0; m < n; m++) {
				char from[8], dest[8];
				vsquare_name(ru, ml->m[m].from, from, sizeof from);
				vsquare_name(ru, ml->m[m].to, dest, sizeof dest);
				if (!strcmp(from, orders[o][i]) && !strcmp(dest, to[o][i]))
					found = m;
			}
			CHECK(found >= 0);
			if (found >= 0) {
				vmake(&a, &ml->m[found], &b);
				a = b;
			}
			free(ml);
		}
		k[o] = vpos_key(&a);
	}
	CHECK(k[0] == k[1]);
}

/* Plays quiet king moves (each turn the first that leaves the opponent no capture; the
 * counters do not look at repetitions) from fen under variant's rules; the ply at which vdraw_after declares a draw (0: none in max plies),
 * and its reason in *why. */
static int draw_ply_from(const char *variant, const char *fen, bool capture_first, int max, const char **why);
static int draw_ply(const char *variant, const char *fen, int max, const char **why)
{
	return draw_ply_from(variant, fen, false, max, why);
}

/* As draw_ply, the first ply a capture (after which the opponent has none), not counted
 * in the plies returned: the count of an ending that a capture reaches. */
static int draw_ply_from(const char *variant, const char *fen, bool capture_first, int max, const char **why)
{
	const pk_variant *v = variant_by_name(variant);
	pk_vpos p;
	char err[200];
	*why = NULL;
	if (vfen_parse(v, fen, &p, err, sizeof err) < 0)
		return -1;
	pk_vdraw d;
	vdraw_init(&d);
	static pk_vmovelist ml;
	for (int ply = capture_first ? 0 : 1; ply <= max; ply++) {
		int n = vgen(&p, &ml), pick = -1;
		/* a quiet move (the first ply with capture_first: a capture) after which the
		 * opponent has no capture */
		for (int i = 0; i < n && pick < 0; i++) {
			if ((ml.m[i].ncap != 0) != (ply == 0))
				continue;
			pk_vpos c;
			vmake(&p, &ml.m[i], &c);
			static pk_vmovelist reply;
			int k = vgen(&c, &reply);
			if (k > 0 && reply.m[0].ncap == 0)
				pick = i;
		}
		if (pick < 0)
			return -2;
		pk_vpos q;
		vmake(&p, &ml.m[pick], &q);
		*why = vdraw_after(&d, &p, &ml.m[pick], &q);
		p = q;
		if (*why)
			return ply;
	}
	return 0;
}

/* The draw rules of the federations, as rules/variant.c cites them. */
static void draw_rules(void)
{
	const char *why;
	/* FMJD, Annex 1, article 6: three pieces (a king among them) against a lone king,
	 * 16 moves each */
	CHECK(draw_ply("international", "W:WK46,K47,K48:BK3", 100, &why) == 32);
	CHECK(why && strstr(why, "16 moves each"));
	/* two kings against a lone king: 5 moves each */
	CHECK(draw_ply("international", "W:WK46,K47:BK3", 100, &why) == 10);
	CHECK(why && strstr(why, "5 moves each"));
	/* reached by a capture, each side has its moves after it: the capture is not one */
	CHECK(draw_ply_from("international", "B:WK33,K46,K5:BK28", true, 100, &why) == 10);
	CHECK(why && strstr(why, "5 moves each"));
	CHECK(draw_ply_from("international", "B:WK33,K46,K5,K1:BK28", true, 100, &why) == 32);
	CHECK(why && strstr(why, "16 moves each"));
	/* 25 moves each of kings only, without a man moved or a capture */
	CHECK(draw_ply("international", "W:WK46,K47,K48,K49:BK3,K4,K1", 200, &why) == 50);
	CHECK(why && strstr(why, "25 moves each of kings only"));
	/* Russian: 15 moves each of kings only; Czech: 15 moves without a man moved */
	CHECK(draw_ply("russian", "W:WK1,K3:BK30,K32", 200, &why) == 30);
	CHECK(draw_ply("czech", "W:WK1,K3:BK30,K32", 200, &why) == 30);
	/* Brazilian: International's rules on 8x8 (its counts cited in rules/vdraw.c) */
	CHECK(draw_ply("brazilian", "W:WK29,K30:BK3", 100, &why) == 10);
	CHECK(why && strstr(why, "5 moves each"));
	CHECK(draw_ply("brazilian", "W:WK29,K30,K31:BK3,K4", 200, &why) == 50);
	CHECK(why && strstr(why, "25 moves each of kings only"));
	/* Italian (FID): repetition only, no count of moves */
	CHECK(draw_ply("italian", "W:WK1,K3:BK30,K32", 200, &why) == 0);
	/* Spanish and Portuguese: 20 moves each of kings only without a capture */
	CHECK(draw_ply("spanish", "W:WK1,K3:BK30,K32", 200, &why) == 40);
	CHECK(why && strstr(why, "20 moves each of kings only"));
	CHECK(draw_ply("portuguese", "W:WK1,K3:BK30,K32", 200, &why) == 40);
	/* Canadian: International's rules on 12x12 */
	CHECK(draw_ply("canadian", "W:WK70,K71,K72:BK3", 100, &why) == 32);
	CHECK(why && strstr(why, "16 moves each"));
	CHECK(draw_ply("canadian", "W:WK70,K71,K72,K69:BK3,K4", 200, &why) == 50);
	CHECK(why && strstr(why, "25 moves each of kings only"));
	/* Pool (APCA): three kings against one must win within 13 moves; other king endings
	 * the English 50 moves each */
	CHECK(draw_ply("pool", "B:WK29,K30,K31:BK3", 100, &why) == 26);
	CHECK(why && strstr(why, "13 moves"));
	CHECK(draw_ply("pool", "B:WK29,K30:BK3,K4", 200, &why) == 100);
	/* Turkish: repetition only, no count of moves */
	CHECK(draw_ply("turkish", "W:WK1,K3:BK30,K32", 200, &why) == 0);
	/* Thai: no federation's text found, the English rule */
	CHECK(draw_ply("thai", "W:WK1,K3:BK30,K32", 200, &why) == 100);
	/* Frisian: a king against a king, two moves each */
	CHECK(draw_ply("frisian", "W:WK46:BK1", 100, &why) == 4);
}

/* The count of a limited ending a ply at a time (vdraw_ending_next, which the search
 * keeps along its lines) is the count vdraw_after keeps, at every ply of random games
 * of the variants with such endings, from random positions of 3 to 6 pieces (kings
 * among them, so that endings come). */
static void ending_steps(void)
{
	static const char *names[] = { "international", "brazilian", "canadian", "pool", "frisian" };
	uint64_t r = 0x9E3779B97F4A7C15ULL;
	static pk_vmovelist ml;
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		const pk_variant *v = variant_by_name(names[k]);
		int plies = 0, counted = 0, agree = 0;
		for (int game = 0; game < 3000; game++) {
			pk_vpos p;
			vpos_clear(v, &p, rnd(2) ? PK_WHITE : PK_BLACK);
			int want_pieces = 3 + (int)rnd(4);
			for (int i = 0; i < want_pieces;) {
				int sq = 1 + (int)rnd((unsigned)variant_squares(v)), row, col;
				if (p.sq[sq])
					continue;
				variant_square_rc(v, sq, &row, &col);
				bool white = i == 0 ? true : i == 1 ? false : rnd(2), king = rnd(2);
				if (!king && ((white && row == 0) || (!white && row == v->rows - 1)))
					continue;
				p.sq[sq] = white ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN);
				i++;
			}
			pk_vdraw d;
			vdraw_init(&d);
			for (int ply = 0; ply < 300; ply++) {
				int n = vgen(&p, &ml);
				if (n == 0)
					break;
				r ^= r << 13;
				r ^= r >> 7;
				r ^= r << 17;
				const pk_vmove *m = &ml.m[r % (uint64_t)n];
				pk_vpos q;
				vmake(&p, m, &q);
				int before = vdraw_ending_count(&d, &p), cb = vdraw_ending_class(&p);
				const char *why = vdraw_after(&d, &p, m, &q);
				int want = vdraw_ending_count(&d, &q);
				int got = vdraw_ending_next(v, cb, before, vdraw_ending_class(&q), m->ncap > 0);
				plies++;
				counted += want > 0;
				agree += got == want;
				if (got != want && plies - agree <= 3)
					CHECK_REPORT(0, "%s game %d ply %d: vdraw_after counts %d, vdraw_ending_next %d", names[k], game,
						     ply, want, got);
				p = q;
				if (why)
					break;
			}
		}
		CHECK_INT(agree, plies);
		CHECK(counted > 100);
		printf("%s: %d plies of random games, %d in a limited ending: its count a ply at a time as the game's in %d\n",
		       names[k], plies, counted, agree);
	}
}

/* vgen_from with the pieces vbits_capturers names gives vgen's list, move for move in
 * the same order, in every position of random games of the variants with bitboards
 * where the side to move must capture (kings among them); vgen_quiet_from with the
 * squares of the side's pieces gives vgen's list where it has no capture. */
static void capturers_agree(void)
{
	int tried = 0, same = 0, qtried = 0, qsame = 0;
	static pk_vmovelist a, b;
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable || !vbits_supported(v))
			continue;
		for (int game = 0; game < 60; game++) {
			pk_vpos p;
			vpos_start(v, &p);
			for (int ply = 0; ply < 160; ply++) {
				int n = vgen(&p, &a);
				if (n == 0)
					break;
				if (!a.m[0].ncap) {
					/* the quiet moves from the squares of the side's pieces */
					pk_vbits bits;
					vbits_of(&p, &bits);
					int k = vgen_quiet_from(&p, vbits_squares(v, bits.men[p.stm] | bits.kings[p.stm]), &b);
					bool ok = k == n;
					for (int j = 0; ok && j < n; j++)
						ok = vmove_same(&a.m[j], &b.m[j]);
					qtried++;
					qsame += ok;
				}
				if (a.m[0].ncap) {
					pk_vbits bits;
					vbits_of(&p, &bits);
					int k = vgen_from(&p, vbits_capturers(v, &bits, p.stm), &b);
					bool ok = k == n;
					for (int j = 0; ok && j < n; j++)
						ok = vmove_same(&a.m[j], &b.m[j]);
					tried++;
					same += ok;
					if (!ok) {
						char fen[VAR_FEN_STRLEN];
						vfen_format(&p, fen, sizeof fen);
						CHECK_REPORT(ok, "%s %s: %d moves by vgen, %d from the capturers", v->key, fen, n, k);
					}
				}
				pk_vpos q;
				vmake(&p, &a.m[rnd((unsigned)n)], &q);
				p = q;
			}
		}
	}
	printf("%d positions with captures: the capturers' list as vgen's in %d\n", tried, same);
	CHECK(tried > 2000 && same == tried);
	printf("%d positions without: the pieces' quiet moves as vgen's in %d\n", qtried, qsame);
	CHECK(qtried > 2000 && qsame == qtried);
}

/* The bitboards' own generator (vbits_gen) gives vgen's list, move for move in the same
 * order (and vbits_count vcount's count), and vbits_make_move the bitboards of vmake's position, in every position of
 * random games and in random positions thick with kings, for the variants it takes; its
 * perft is the published one from the start and vperft's from positions with kings. */
static void bits_gen_agree(void)
{
	int tried = 0, same = 0, made = 0, made_ok = 0, variants = 0;
	static pk_vmovelist a, b;
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable || !vbits_gen_supported(v))
			continue;
		variants++;
		for (int game = 0; game < 400; game++) {
			pk_vpos p;
			if (game % 2 == 0) {
				vpos_start(v, &p);
			} else {
				random_position(v, &p, 40);
			}
			for (int ply = 0; ply < 160; ply++) {
				int n = vgen(&p, &a);
				pk_vbits bits;
				vbits_of(&p, &bits);
				int k = vbits_gen(v, &bits, p.stm, &b);
				bool ok = k == n;
				for (int j = 0; ok && j < n; j++)
					ok = vmove_same(&a.m[j], &b.m[j]) && a.m[j].kings == b.m[j].kings &&
					     a.m[j].by_king == b.m[j].by_king && a.m[j].crowns == b.m[j].crowns &&
					     a.m[j].nland == b.m[j].nland &&
					     memcmp(a.m[j].land, b.m[j].land, a.m[j].nland) == 0 &&
					     memcmp(a.m[j].cap, b.m[j].cap, a.m[j].ncap) == 0;
				ok = ok && vbits_count(v, &bits, p.stm) == vcount(&p);
				tried++;
				same += ok;
				if (!ok) {
					char fen[VAR_FEN_STRLEN];
					vfen_format(&p, fen, sizeof fen);
					CHECK_REPORT(ok, "%s %s: %d moves by vgen, %d by vbits_gen, %d counted (vcount %d)", v->key, fen,
						     n, k, vbits_count(v, &bits, p.stm), vcount(&p));
				}
				if (n == 0)
					break;
				for (int j = 0; j < n; j++) {
					pk_vpos q;
					pk_vbits qb, want;
					vmake(&p, &a.m[j], &q);
					vbits_make_move(v, &bits, p.stm, &a.m[j], &qb);
					vbits_of(&q, &want);
					made++;
					made_ok += memcmp(&qb, &want, sizeof qb) == 0;
				}
				pk_vpos q;
				vmake(&p, &a.m[rnd((unsigned)n)], &q);
				p = q;
			}
		}
	}
	printf("vbits_gen: %d variants, %d positions, vgen's list in %d; %d moves made, the same bitboards in %d\n",
	       variants, tried, same, made, made_ok);
	CHECK(variants >= 2 && tried > 20000 && same == tried);
	CHECK(made > 100000 && made_ok == made);
	/* perft: the published counts from the start, and vperft's from positions with kings */
	const pk_variant *iv = variant_by_name("international"), *bv = variant_by_name("brazilian");
	pk_vpos p;
	pk_vbits bits;
	vpos_start(iv, &p);
	vbits_of(&p, &bits);
	CHECK(vbits_perft(iv, &bits, p.stm, 6) == 167140);
	vpos_start(bv, &p);
	vbits_of(&p, &bits);
	CHECK(vbits_perft(bv, &bits, p.stm, 7) == 187302);
	static const char *const kings[] = {
		"W:WK46,K5,28,33,37:B12,K19,22,24,K44,30,31",
		"B:WK1,K4,10,11,19,38,42:B26,K28,21,18,13,K50",
		"W:W6,7,8,K23,K27:B16,17,18,K31,K40,43,44",
	};
	for (size_t k = 0; k < sizeof kings / sizeof kings[0]; k++) {
		char err[200];
		CHECK(vfen_parse(iv, kings[k], &p, err, sizeof err) == 0);
		vbits_of(&p, &bits);
		uint64_t want = vperft(&p, 4), got = vbits_perft(iv, &bits, p.stm, 4);
		CHECK_REPORT(want == got, "%s: perft(4) %llu, vbits_perft %llu", kings[k],
			     (unsigned long long)want, (unsigned long long)got);
	}
}

int main(void)
{
	keys();
	draw_rules();
	ending_steps();
	capturers_agree();
	bits_gen_agree();
	static const uint64_t international[] = { 9, 81, 658, 4265, 27117, 167140, 1049442 };
	static const uint64_t brazilian[] = { 7, 49, 302, 1469, 7473, 37628, 187302 };
	published("international", international, 7);
	published("brazilian", brazilian, 7);
	english_against_core();
	specific_rules();
	king_completes_capture();
	/* every implemented variant against the second generator */
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable)
			continue;
		against_naive(v->key, NULL, v->rows > 8 ? 5 : 6);
	}
	/* positions with kings, where flying, landing, crowning and priorities differ */
	static const char *const eight[] = {
		"W:WK29,K21,18,14:BK4,K8,11,19,26,23",
		"B:W22,K24,17,13:BK5,10,15,K30",
		"W:W10,K31,27:BK3,7,14,22,K19",
		"B:WK1,K4,10,11,19:B26,K28,21,18,13",
	};
	static const char *const keys8[] = { "russian", "brazilian", "pool", "czech", "spanish", "italian",
					     "portuguese", "thai", "english" };
	for (size_t k = 0; k < sizeof keys8 / sizeof keys8[0]; k++)
		for (size_t f = 0; f < sizeof eight / sizeof eight[0]; f++)
			against_naive(keys8[k], eight[f], 4);
	against_naive("international", "W:WK46,K5,28,33,37:B12,K19,22,24,K44,30,31", 4);
	against_naive("canadian", "B:WK70,K3,40,41,52:BK10,25,K33,29,46,57", 4);
	against_naive("turkish", "W:WK1,K60,20,27,35:B12,K37,22,44,K52,30,53", 4);
	against_naive("frisian", "W:WK46,K5,28,33,37:B12,K19,22,24,K44,30,31", 4);
	for (int i = 0; variant_at(i); i++)
		if (variant_at(i)->replayable)
			random_against_naive(variant_at(i), 3000);
	printf("test_variant: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
