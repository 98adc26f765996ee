/* Rules core: the generator against OEIS A133046, against hand-derived positions, and
 * against the independent array generator in naive.c on thousands of random positions;
 * move formatting; Zobrist keys; canonical order. */
#include <stdlib.h>
#include "check.h"
#include "naive.h"
#include "rules/fen.h"
#include "rules/gen.h"
#include "rules/perft.h"

static pk_pos from_fen(const char *fen)
{
	pk_pos p;
	pk_fen_error e;
	if (fen_parse(fen, strlen(fen), &p, &e) < 0) {
		printf("FAIL bad test FEN %s: %s\n", fen, e.msg);
		check_failed++;
		pos_start(&p);
	}
	return p;
}

/* The move list as one string "a b c" in generator order, full paths. */
static const char *list_str(const pk_pos *p)
{
	static char buf[4096];
	pk_movelist ml;
	gen_moves(p, &ml);
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < ml.n && n + PK_MOVE_STRLEN < sizeof buf; i++) {
		if (i)
			buf[n++] = ' ';
		n += (size_t)move_format(&ml.m[i], true, buf + n, sizeof buf - n);
	}
	return buf;
}

static void test_start_perft(void)
{
	static const uint64_t want[] = { 1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931,
					 3963680, 18391564, 85242128 };
	pk_pos p;
	pos_start(&p);
	for (int d = 0; d <= 11; d++)
		CHECK_U64(perft(&p, d, false), want[d]);
	/* Without captures of two paths to one result, both conventions agree this far. */
	CHECK_U64(perft(&p, 9, true), want[9]);
	pk_movelist roots;
	uint64_t counts[PK_MAX_MOVES];
	CHECK_U64(perft_divide(&p, 9, false, 2, &roots, counts), want[9]);
	uint64_t sum = 0;
	for (int i = 0; i < roots.n; i++)
		sum += counts[i];
	CHECK_U64(sum, want[9]);
	CHECK_STR(list_str(&p), "9-13 9-14 10-14 10-15 11-15 11-16 12-16");
}

/* Positions whose move lists were worked out by hand on a drawn board. */
static void test_hand_positions(void)
{
	/* A man's double jump: 9 over 14 to 18, over 23 to 27. */
	pk_pos p = from_fen("B:W14,23:B9");
	CHECK_STR(list_str(&p), "9x18x27");

	/* Crowned by a jump, the move ends on 30 although a king there could jump 26. */
	p = from_fen("B:W25,26:B21");
	CHECK_STR(list_str(&p), "21x30");
	pk_movelist ml;
	gen_moves(&p, &ml);
	pk_pos c;
	pos_make(&p, &ml.m[0], &c);
	char fen[PK_FEN_STRLEN];
	fen_format(&c, fen, sizeof fen);
	CHECK_STR(fen, "W:W26:BK30");

	/* White's only man is blocked and cannot jump: no legal move. */
	p = from_fen("W:W29:B25,22");
	CHECK_U64(gen_count(&p), 0);
	CHECK_U64(perft(&p, 3, false), 0);

	/* A king circles the four men 14, 15, 22, 23 either way round: two paths, one result. */
	p = from_fen("W:WK10:B14,15,22,23");
	CHECK_STR(list_str(&p), "10x17x26x19x10 10x19x26x17x10");
	CHECK_U64(gen_count(&p), 2);
	CHECK_U64(gen_count_unique(&p), 1);
	CHECK_U64(perft(&p, 1, false), 2);
	CHECK_U64(perft(&p, 1, true), 1);
	gen_moves(&p, &ml);
	char s[PK_MOVE_STRLEN];
	move_format(&ml.m[0], false, s, sizeof s);
	CHECK_STR(s, "10x10");
	CHECK_INT(bb_count(ml.m[0].captured), 4);

	/* Men move forward only; kings both ways; capture is compulsory for every piece. */
	p = from_fen("B:W:B5,K18");
	CHECK_STR(list_str(&p), "5-9 18-14 18-15 18-22 18-23");
	p = from_fen("W:W22,K11:B18");
	CHECK_STR(list_str(&p), "22x15");
	p = from_fen("B:WK7:B3");
	CHECK_STR(list_str(&p), "3x10");
}

static uint32_t rnd_state = 12345;
static unsigned rnd(void)
{
	/* A fixed linear congruential sequence: the same random positions every run. */
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) & 0xFFFFFF;
}

static void random_position(pk_pos *p, nv_pos *nv)
{
	int kind[33] = { 0 }, count[2] = { 0, 0 };
	int density = 4 + (int)(rnd() % 12);
	bool black = rnd() & 1;
	pos_clear(p, black ? PK_BLACK : PK_WHITE);
	for (int sq = 1; sq <= 32; sq++) {
		if ((int)(rnd() % 32) >= density)
			continue;
		int colour = rnd() & 1;
		bool king = rnd() % 3 == 0;
		if (!king && colour == PK_BLACK && sq >= 29)
			king = true;
		if (!king && colour == PK_WHITE && sq <= 4)
			king = true;
		if (count[colour] == 12)
			continue;
		count[colour]++;
		pos_put(p, sq, colour, king);
		kind[sq] = colour == PK_BLACK ? (king ? NV_BK : NV_BM) : (king ? NV_WK : NV_WM);
	}
	nv_from_squares(nv, kind, black);
}

static void test_against_naive(void)
{
	int mismatched_lists = 0, mismatched_perft = 0, bad_keys = 0, bad_counts = 0;
	for (int t = 0; t < 4000; t++) {
		pk_pos p;
		nv_pos nv;
		random_position(&p, &nv);
		pk_movelist ml;
		nv_move ref[512];
		int n = gen_moves(&p, &ml);
		int rn = nv_moves(&nv, ref, 512);
		bool same = n == rn && !ml.overflow;
		for (int i = 0; same && i < n; i++) {
			same = ml.m[i].from + 1 == ref[i].path[0] && ml.m[i].nland == ref[i].len - 1 &&
			       ml.m[i].captured == ref[i].captured;
			for (int k = 0; same && k < ml.m[i].nland; k++)
				same = ml.m[i].land[k] + 1 == ref[i].path[k + 1];
		}
		if (!same && mismatched_lists++ < 3) {
			char fen[PK_FEN_STRLEN];
			fen_format(&p, fen, sizeof fen);
			printf("FAIL move list differs from the reference in %s: %s\n", fen, list_str(&p));
		}
		if (gen_count(&p) != (uint64_t)n)
			bad_counts++;
		for (int i = 0; i < n; i++) {
			pk_pos c;
			pos_make(&p, &ml.m[i], &c);
			if (c.key != pos_compute_key(&c))
				bad_keys++;
		}
		if (t < 1500) {
			int depth = 2 + t % 3;
			for (int u = 0; u < 2; u++)
				if (perft(&p, depth, u) != nv_perft(&nv, depth, u) && mismatched_perft++ < 3) {
					char fen[PK_FEN_STRLEN];
					fen_format(&p, fen, sizeof fen);
					printf("FAIL perft(%d%s) of %s: %" PRIu64 ", reference %" PRIu64 "\n", depth,
					       u ? ", unique" : "", fen, perft(&p, depth, u), nv_perft(&nv, depth, u));
				}
		}
	}
	CHECK_INT(mismatched_lists, 0);
	CHECK_INT(mismatched_perft, 0);
	CHECK_INT(bad_keys, 0);
	CHECK_INT(bad_counts, 0);
}

static void test_naive_start(void)
{
	/* The reference generator agrees with OEIS too, so agreement above means something. */
	int kind[33] = { 0 };
	for (int sq = 1; sq <= 12; sq++)
		kind[sq] = NV_BM;
	for (int sq = 21; sq <= 32; sq++)
		kind[sq] = NV_WM;
	nv_pos nv;
	nv_from_squares(&nv, kind, true);
	CHECK_U64(nv_perft(&nv, 7, false), 179740);
}

/* Play a move given in short form, e.g. "9-13"; false when it is not legal. */
static bool play(pk_pos *p, const char *text)
{
	pk_movelist ml;
	char s[PK_MOVE_STRLEN];
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		move_format(&ml.m[i], false, s, sizeof s);
		if (strcmp(s, text) == 0) {
			pk_pos c;
			pos_make(p, &ml.m[i], &c);
			*p = c;
			return true;
		}
	}
	return false;
}

static void test_keys(void)
{
	pk_pos a, b;
	pos_start(&a);
	CHECK(a.key == pos_compute_key(&a));
	b = from_fen("B:W21-32:B1-12");
	CHECK(pos_equal(&a, &b) && a.key == b.key);
	pk_pos w = from_fen("W:W21-32:B1-12");
	CHECK(w.key != a.key);

	/* One position reached by two move orders has one key. */
	pk_pos x, y;
	pos_start(&x);
	pos_start(&y);
	CHECK(play(&x, "9-13") && play(&x, "22-18") && play(&x, "10-14"));
	CHECK(play(&y, "10-14") && play(&y, "22-18") && play(&y, "9-13"));
	CHECK(pos_equal(&x, &y));
	CHECK(x.key == y.key && x.key == pos_compute_key(&x));
	CHECK(!play(&x, "9-13"));
}

/* Every position of corpora/positions.fen against the reference generator, to depth 5. */
static void test_position_file(void)
{
	FILE *f = fopen("corpora/positions.fen", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char line[512];
	int checked = 0;
	while (fgets(line, sizeof line, f)) {
		char *bar = strchr(line, '|');
		if (line[0] == '#' || !bar)
			continue;
		line[strcspn(line, "\r\n")] = 0;
		pk_pos p = from_fen(bar + 1);
		int kind[33] = { 0 };
		for (int sq = 1; sq <= 32; sq++) {
			int c;
			bool k;
			if (pos_piece_at(&p, sq, &c, &k))
				kind[sq] = c == PK_BLACK ? (k ? NV_BK : NV_BM) : (k ? NV_WK : NV_WM);
		}
		nv_pos nv;
		nv_from_squares(&nv, kind, p.stm == PK_BLACK);
		for (int d = 1; d <= 5; d++)
			for (int u = 0; u < 2; u++) {
				uint64_t got = perft(&p, d, u), want = nv_perft(&nv, d, u);
				CHECK_REPORT(got == want, "%s: perft(%d%s) = %" PRIu64 ", reference %" PRIu64,
					     line, d, u ? ", unique" : "", got, want);
			}
		checked++;
	}
	fclose(f);
	CHECK(checked >= 8);
}

/* The board turned half a circle: square n to 33 - n, each square alone and together;
 * turned twice, the board is as it was. */
static void test_reverse(void)
{
	int wrong = 0;
	for (int b = 0; b < 32; b++)
		wrong += bb_reverse32(bb_sq(b)) != bb_sq(31 - b);
	CHECK_INT(wrong, 0);
	uint32_t x = 0x9E3779B9u;
	for (int i = 0; i < 1000; i++) {
		x = x * 1664525u + 1013904223u;
		bb_t want = 0;
		for (int b = 0; b < 32; b++)
			if (x >> b & 1)
				want |= bb_sq(31 - b);
		wrong += bb_reverse32(x) != want || bb_reverse32(bb_reverse32(x)) != x;
	}
	CHECK_INT(wrong, 0);
}

int main(void)
{
	test_reverse();
	test_position_file();
	test_start_perft();
	test_hand_positions();
	test_naive_start();
	test_against_naive();
	test_keys();
	return check_done("test_rules");
}
