/* The engine: alpha-beta, PVS, aspiration and the transposition table must give the
 * minimax score (checked against a plain minimax on random positions); two kings beat
 * one; draws by repetition and by the move-count rule; bench is deterministic; a time
 * limit is kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "check.h"
#include "book/book.h"
#include "rules/fen.h"
#include "engine/net.h"
#include "engine/pattern.h"
#include "engine/search.h"
#include "engine/search_mb.h"
#include "engine/vsearch.h"

/* Minimax with the engine's rules: captures and forced moves do not spend depth, quiet
 * leaves are evaluated, no legal move loses. No pruning, no table. */
static int minimax(const pk_pos *p, int depth, int ply)
{
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	if (n == 0)
		return -SCORE_WIN + ply;
	bool capture = move_is_capture(&ml.m[0]);
	if (ply >= MAX_PLY - 2)
		return eval(p, &eval_default_weights);
	if (depth <= 0 && !capture && n > 1)
		return eval(p, &eval_default_weights);
	int child = capture || n == 1 ? depth : depth - 1;
	int best = -32000;
	for (int i = 0; i < n; i++) {
		pk_pos c;
		pos_make(p, &ml.m[i], &c);
		int s = -minimax(&c, child, ply + 1);
		if (s > best)
			best = s;
	}
	return best;
}

static uint32_t rs = 99;
static unsigned rnd(void)
{
	rs = rs * 1103515245u + 12345u;
	return rs >> 8;
}

static void random_men(pk_pos *p)
{
	pos_clear(p, rnd() & 1);
	int count[2] = { 0, 0 };
	for (int sq = 1; sq <= 32; sq++) {
		if (rnd() % 3)
			continue;
		int c = rnd() & 1;
		if ((c == PK_BLACK && sq >= 29) || (c == PK_WHITE && sq <= 4) || count[c] == 8)
			continue;
		count[c]++;
		pos_put(p, sq, c, false);
	}
}

static void test_against_minimax(void)
{
	pk_features plain = features_all;
	/* reductions and pruning change scores by design; the rest must not */
	plain.lmr = 0;
	plain.lmp = 0;
	plain.probcut = 0;
	plain.rfp = 0;
	plain.razor = 0;
	plain.iir = 0;
	plain.progress = 0;   /* the minimax's leaves are not scaled */
	/* one and two slots a key, the table at the horizon or not, one and two threads, both
	 * kinds of aspiration windows (from depth 5), the children's table entries looked at
	 * before the search of a node (etc, at every depth) */
	for (int variant = 0; variant < 6; variant++) {
		plain.tt_ways = 1 + (variant & 1);
		plain.tt_horizon = variant == 2;
		plain.aspiration = variant == 4 ? 2 : 1;
		plain.etc = variant == 5 ? 1 : 0;
		pk_engine *e = engine_new(8, &eval_default_weights);
		engine_set_features(e, &plain);
		if (variant == 3)
			CHECK(engine_set_threads(e, 2) == 0);
		int bad = 0;
		for (int t = 0; t < 300; t++) {
			pk_pos p;
			random_men(&p);
			pk_movelist ml;
			if (gen_moves(&p, &ml) < 2)
				continue;
			int depth = 1 + t % (variant == 0 || variant >= 4 ? 6 : 4);
			engine_new_game(e);
			pk_limits lim = { .depth = depth };
			pk_result r;
			engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
			int want = minimax(&p, depth, 0);
			if (r.last.score != want && bad++ < 3) {
				char fen[PK_FEN_STRLEN];
				fen_format(&p, fen, sizeof fen);
				printf("FAIL variant %d depth %d %s: search %d, minimax %d\n", variant, depth, fen, r.last.score,
				       want);
			}
		}
		CHECK_INT(bad, 0);
		engine_free(e);
	}
}

/* Two kings against one: from many starts, the stronger side takes the lone king. */
static void test_two_kings(void)
{
	pk_engine *e = engine_new(16, NULL);
	int failures = 0, games = 0, longest = 0;
	for (int a = 1; a <= 32 && games < 24; a += 3)
		for (int b = 2; b <= 32 && games < 24; b += 7) {
			int c = 33 - a;
			if (a == b || b == c || a == c)
				continue;
			pk_pos p;
			pos_clear(&p, PK_WHITE);
			pos_put(&p, a, PK_WHITE, true);
			pos_put(&p, b, PK_WHITE, true);
			pos_put(&p, c, PK_BLACK, true);
			games++;
			engine_new_game(e);
			uint64_t keys[400];
			int nkeys = 0, rev = 0, ply;
			bool won = false;
			for (ply = 0; ply < 160 && !won; ply++) {
				pk_history h = { keys, nkeys, rev, 0 };
				pk_limits lim = { .depth = 14 };
				pk_result r;
				engine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r);
				if (!r.has_move) {
					won = p.stm == PK_BLACK;
					break;
				}
				keys[nkeys++] = p.key;
				rev = move_is_capture(&r.best) ? 0 : rev + 1;
				pk_pos q;
				pos_make(&p, &r.best, &q);
				p = q;
				if (!p.side[PK_BLACK]) {
					won = true;
					ply++;
				}
			}
			if (!won && failures++ < 3)
				printf("FAIL two kings on %d, %d against one on %d: not won in 160 plies\n", a, b, c);
			if (ply > longest)
				longest = ply;
		}
	CHECK_INT(failures, 0);
	CHECK(games >= 20);
	printf("two kings against one: %d games won, the longest in %d plies\n", games - failures, longest);
	engine_free(e);
}

static void test_draw_rules(void)
{
	pk_engine *e = engine_new(8, NULL);
	pk_pos p;
	pk_fen_error fe;
	/* Two kings against one far away: a clear advantage ... */
	const char *fen = "W:WK19,K18:BK1";
	fen_parse(fen, strlen(fen), &p, &fe);
	pk_limits lim = { .depth = 6 };
	pk_result r;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
	CHECK(r.last.score > 100);
	/* ... but 99 reversible plies already played: any king move ends it in a draw. */
	uint64_t keys[1] = { 0 };
	pk_history h = { keys, 1, DRAW_PLIES - 1, 0 };
	engine_new_game(e);
	engine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r);
	CHECK_INT(r.last.score, 0);

	/* Repetition: a history in which every position White can move to occurred before
	 * (with Black to move, within the reversible plies) leaves only draws. */
	pk_movelist ml;
	int n = gen_moves(&p, &ml);
	uint64_t hist[64];
	int nh = 2 * n - 1;
	for (int i = 0; i < nh; i++)
		hist[i] = 0x1234567ull + (uint64_t)i;   /* positions that never occur */
	for (int i = 0; i < n; i++) {
		pk_pos c;
		pos_make(&p, &ml.m[i], &c);
		hist[nh - 1 - 2 * i] = c.key;
	}
	pk_history hr = { hist, nh, nh, 0 };
	engine_new_game(e);
	engine_search(e, &p, &hr, &lim, NULL, NULL, NULL, &r);
	CHECK_INT(r.last.score, 0);
	/* With one way out left, that move is chosen and the advantage stays. */
	hist[nh - 1] = 0x7777ull;
	engine_new_game(e);
	engine_search(e, &p, &hr, &lim, NULL, NULL, NULL, &r);
	CHECK(r.last.score > 100);
	CHECK(move_equal(&r.best, &ml.m[0]));
	engine_free(e);
}

/* The built-in weights are book/weights.txt, and they parse. */
static void test_weights(void)
{
	const pk_weights *t = eval_tuned_weights();
	FILE *f = fopen("book/weights.txt", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	pk_weights w = eval_default_weights;
	char err[160];
	CHECK(weights_parse(text, &w, err, sizeof err) == 0);
	CHECK(memcmp(w.w, t->w, sizeof w.w) == 0);
	CHECK(weights_parse("king 120\nbogus 3\n", &w, err, sizeof err) < 0);
	CHECK_STR(err, "line 2: unknown weight 'bogus'");
	CHECK(weights_parse("king\n", &w, err, sizeof err) < 0);
	CHECK_STR(err, "line 1: expected 'name value'");
}

/* The network's value from its first layer's sums, by hand, in the integer arithmetic
 * net.h describes. */
static int net_value_by_hand(const pk_net *n, const pk_net_acc *a)
{
	int64_t out = n->b3;
	for (int o = 0; o < NET_H2; o++) {
		int32_t s = n->b2[o];
		for (int j = 0; j < NET_H1; j++) {
			int h = a->v[j] < 0 ? 0 : a->v[j] > 127 ? 127 : a->v[j];
			s += n->w2[o][j] * h;
		}
		int32_t h = s < 0 ? 0 : s / 64;
		out += (int64_t)n->w3[o] * (h > 127 ? 127 : h);
	}
	return (int)(out * 100 / (127 * 64));
}

/* The second layer in bytes (weights of -128 .. 127) and in 16 bits (any other) gives the
 * value by hand for sums of every kind: below 0, in range, above 127. */
static void test_net_layers(void)
{
	pk_net *n = calloc(1, sizeof *n);
	CHECK(n != NULL);
	if (!n)
		return;
	uint64_t r = 987654321;
#define RND(lo, hi) ((int)((r = r * 6364136223846793005ull + 1442695040888963407ull) >> 33) % ((hi) - (lo) + 1) + (lo))
	for (int big = 0; big < 2; big++) {
		for (int o = 0; o < NET_H2; o++) {
			for (int j = 0; j < NET_H1; j++)
				n->w2[o][j] = (int16_t)RND(-128, 127);
			n->b2[o] = RND(-5000, 5000);
			n->w3[o] = (int16_t)RND(-2000, 2000);
		}
		n->w2[0][0] = big ? 300 : -128;
		n->w2[NET_H2 - 1][NET_H1 - 1] = 127;
		n->b3 = RND(-100000, 100000);
		net_prepare(n);
		CHECK(n->w2_bytes == !big);
		int differ = 0;
		for (int t = 0; t < 3000; t++) {
			pk_net_acc a;
			for (int j = 0; j < NET_H1; j++)
				a.v[j] = (int16_t)RND(-200, 330);
			differ += net_eval_acc(n, &a) != net_value_by_hand(n, &a);
		}
		CHECK(differ == 0);
	}
#undef RND
	free(n);
}

/* The network: a file's text and back is the same network; its value is the integer
 * arithmetic of its layers, the same for a position and its mirror with colours turned;
 * the built-in file parses. */
static void test_net(void)
{
	pk_net *n = calloc(1, sizeof *n), *m = calloc(1, sizeof *m);
	CHECK(n && m);
	if (!n || !m)
		return;
	uint64_t r = 12345;
	for (int i = 0; i < NET_IN; i++)
		for (int j = 0; j < NET_H1; j++)
			n->w1[i][j] = (int16_t)((int)((r = r * 6364136223846793005ull + 1442695040888963407ull) >> 58) - 32);
	for (int j = 0; j < NET_H1; j++) {
		n->b1[j] = 60;
		for (int o = 0; o < NET_H2; o++)
			n->w2[o][j] = (int16_t)((o + j) % 5 - 2);
	}
	for (int o = 0; o < NET_H2; o++) {
		n->b2[o] = 64 * 60;
		n->w3[o] = (int16_t)(o % 2 ? 64 : -32);
	}
	n->b3 = 127 * 64 / 2;
	net_prepare(n);
	char *text = net_format(n, "test");
	char err[200];
	CHECK(text && net_parse(text, m, err, sizeof err) == 0);
	CHECK(m->checksum == n->checksum);
	CHECK(memcmp(m->w1, n->w1, sizeof n->w1) == 0 && memcmp(m->w2, n->w2, sizeof n->w2) == 0 && m->b3 == n->b3);
	free(text);
	/* the value by hand for the initial position, Black to move */
	pk_pos p;
	pk_fen_error fe;
	const char *f1 = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
	/* the same position seen from White: square n is 33 - n, the colours swapped */
	const char *f3 = "B:W19,23,K27:B9,K10,14", *f2 = "W:W24,K23,19:B14,10,K6";
	CHECK(fen_parse(f1, strlen(f1), &p, &fe) == 0);
	int in[32], k = net_inputs(&p, in);
	CHECK(k == 24);
	int32_t h1[NET_H1];
	for (int j = 0; j < NET_H1; j++) {
		int32_t a = n->b1[j];
		for (int i = 0; i < k; i++)
			a += n->w1[in[i]][j];
		h1[j] = a < 0 ? 0 : a > 127 ? 127 : a;
	}
	int64_t out = n->b3;
	for (int o = 0; o < NET_H2; o++) {
		int32_t s = n->b2[o];
		for (int j = 0; j < NET_H1; j++)
			s += n->w2[o][j] * h1[j];
		int32_t h = s < 0 ? 0 : s / 64;
		out += n->w3[o] * (h > 127 ? 127 : h);
	}
	CHECK(net_eval(n, &p) == (int)(out * 100 / (127 * 64)));
	pk_pos q;
	CHECK(fen_parse(f2, strlen(f2), &q, &fe) == 0);
	CHECK(fen_parse(f3, strlen(f3), &p, &fe) == 0);
	CHECK(net_eval(n, &q) == net_eval(n, &p));
	char hdr[80], hdr3[96];
	snprintf(hdr, sizeof hdr, "pdnkit-net 1\nlayers %d %d %d 1\n", NET_IN, NET_H1, NET_H2);
	snprintf(hdr3, sizeof hdr3, "%s1 2 3\n", hdr);
	CHECK(net_parse(hdr, m, err, sizeof err) == 1);
	CHECK(net_parse(hdr3, m, err, sizeof err) < 0);
	char want[80];
	snprintf(want, sizeof want, "line 4: 3 weights, the network has %d", NET_NWEIGHTS);
	CHECK_STR(err, want);
	CHECK(net_parse("pdnkit-net 2\n", m, err, sizeof err) < 0);
	CHECK_STR(err, "line 1: not a network file of format 1 (\"pdnkit-net 1\" first)");
	FILE *f = fopen("book/net.txt", "r");
	CHECK(f != NULL);
	if (f) {
		static char buf[1 << 20];
		size_t got = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[got] = 0;
		CHECK(net_parse(buf, m, err, sizeof err) >= 0);
		CHECK((net_builtin() != NULL) == (net_parse(buf, m, err, sizeof err) == 0));
	}
	free(n);
	free(m);
}

/* A 10x10 board's network: 200 inputs from the side to move's view (a position and its
 * mirror with the colours turned have one value), its text and back, and first-layer sums
 * brought up to date input by input equal to those made afresh. */
static void test_vnet(void)
{
	pk_net *n = calloc(1, sizeof *n), *m = calloc(1, sizeof *m);
	CHECK(n && m);
	if (!n || !m)
		return;
	n->inputs = NET_VIN;
	uint64_t r = 99;
	for (int i = 0; i < NET_VIN; i++)
		for (int j = 0; j < NET_H1; j++)
			n->w1[i][j] = (int16_t)((int)((r = r * 6364136223846793005ull + 1442695040888963407ull) >> 58) - 32);
	for (int j = 0; j < NET_H1; j++) {
		n->b1[j] = 40;
		for (int o = 0; o < NET_H2; o++)
			n->w2[o][j] = (int16_t)((o * 3 + j) % 7 - 3);
	}
	for (int o = 0; o < NET_H2; o++) {
		n->b2[o] = 64 * 50;
		n->w3[o] = (int16_t)(o % 3 ? 40 : -50);
	}
	n->b3 = -1000;
	net_prepare(n);
	char *text = net_format(n, "test");
	char err[200];
	CHECK(text && strncmp(text, "pdnkit-net 1\nlayers 200 ", 24) == 0);
	CHECK(text && net_parse(text, m, err, sizeof err) == 0);
	CHECK(m->inputs == NET_VIN && m->checksum == n->checksum && memcmp(m->w1, n->w1, sizeof n->w1) == 0);
	free(text);
	const pk_variant *v = variant_by_name("international");
	pk_vpos p, q;
	/* White's men on 28, 33, a king on 45, to move; Black's on 19, 24, a king on 6; then
	 * the mirror: square s as 51 - s, the colours swapped, Black to move */
	CHECK(vfen_parse(v, "W:W28,33,K45:B19,24,K6", &p, err, sizeof err) == 0);
	CHECK(vfen_parse(v, "B:W27,32,K45:B23,18,K6", &q, err, sizeof err) == 0);
	int in[50], k = vnet_inputs(&p, in), in2[50], k2 = vnet_inputs(&q, in2);
	CHECK_INT(k, 6);
	CHECK_INT(k2, 6);
	/* the mover's men first (28 and 33 at 27 and 32), its king (45: 50 + 44) */
	CHECK(k == 6 && in[0] == 27 && in[1] == 32 && in[2] == 94 && in[3] == 118 && in[4] == 123 && in[5] == 155);
	CHECK_INT(net_eval_inputs(n, in, k), net_eval_inputs(n, in2, k2));
	CHECK(net_eval_inputs(n, in, k) != net_eval_inputs(n, in, k - 1));
	/* sums made afresh for in[1..6) against those of in[0..5) with input 0 taken away and
	 * input 5 added */
	pk_net_acc a, b;
	net_acc_full(n, &a, in, 5);
	net_acc_add(n, &a, in[0], -1);
	net_acc_add(n, &a, in[5], 1);
	net_acc_full(n, &b, in + 1, 5);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	/* the search's sums, brought up to date move by move along random International
	 * games (captures of many pieces and crownings among them), against sums made afresh
	 * for every position, from both sides' views; and the key and bitboards likewise */
	int plies = 0, differ = 0;
	uint64_t seed = 7;
	for (int g = 0; g < 40; g++) {
		pk_vpos start;
		vpos_start(v, &start);
		mb_pos x, fresh;
		mb_pos_of(&start, &x);
		mb_pos_use_net(&x, n);
		for (int ply = 0; ply < 200; ply++) {
			pk_vmovelist ml;
			int nm = vgen(&x.p, &ml);
			if (nm == 0)
				break;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			mb_pos c;
			mb_pos_after(&x, &ml.m[(seed >> 33) % (uint64_t)nm], &c);
			x = c;
			mb_pos_of(&x.p, &fresh);
			mb_pos_use_net(&fresh, n);
			differ += x.net != n || x.key != fresh.key || memcmp(&x.b, &fresh.b, sizeof x.b) != 0 ||
				  memcmp(x.acc, fresh.acc, sizeof x.acc) != 0;
			plies++;
		}
	}
	CHECK(plies > 2000);
	CHECK_INT(differ, 0);
	/* no sums on a board the network is not for */
	pk_vpos e;
	vpos_start(variant_by_name("russian"), &e);
	mb_pos rx;
	mb_pos_of(&e, &rx);
	mb_pos_use_net(&rx, n);
	CHECK(rx.net == NULL);
	/* English draughts' file has 128 inputs; a 10x10 one of the wrong count is refused */
	char bad[120];
	snprintf(bad, sizeof bad, "pdnkit-net 1\nlayers 50 %d %d 1\n", NET_H1, NET_H2);
	CHECK(net_parse(bad, m, err, sizeof err) < 0);
	free(n);
	free(m);
}

/* The move of ordinal ord among p's legal moves. */
static pk_move p_moves_ord(const pk_pos *p, int ord)
{
	pk_movelist ml;
	gen_moves(p, &ml);
	return ml.m[ord];
}

/* A book of one position p holding moves of the ordinals ord[0..n-1], each with its games
 * and Black's wins, the draws and White's wins in them (g[i][0..3]). */
static pk_book *moves_book(const pk_pos *p, int n, const int *ord, const uint32_t (*g)[4])
{
	pk_bookb *b = bookb_new(p, 4);
	for (int i = 0; i < n; i++)
		CHECK_INT(bookb_add_move(b, p, ord[i], g[i][0], g[i][1], g[i][2], g[i][3], BOOK_NO_SCORE), 0);
	pk_book_filter none = { .side = -1 };
	uint8_t *buf = NULL;
	size_t len = 0;
	pk_book_info info;
	CHECK_INT(bookb_encode(b, &none, &buf, &len, &info), 0);
	bookb_free(b);
	char err[200];
	pk_book *bk = book_load(buf, len, err, sizeof err);
	CHECK(bk != NULL);
	free(buf);
	return bk;
}

/* A book of one position p holding one move, the move of ordinal ord, drawn twice. */
static pk_book *one_move_book(const pk_pos *p, int ord)
{
	static const uint32_t drawn[1][4] = { { 2, 0, 2, 0 } };
	return moves_book(p, 1, &ord, drawn);
}

/* book-score: the book's most played move is passed over when its games went badly for
 * the side that played it (White to move at p), for the next most played, or for the
 * search when none scored well enough. */
static void test_book_score(pk_engine *e, const pk_pos *p, int good, int bad)
{
	static const uint32_t lost3_drawn2[2][4] = { { 3, 3, 0, 0 }, { 2, 0, 2, 0 } }, lost2[1][4] = { { 2, 2, 0, 0 } };
	int ords[2] = { bad, good };
	pk_book *two = moves_book(p, 2, ords, lost3_drawn2), *lost = moves_book(p, 1, &bad, lost2);
	if (!two || !lost)
		return;
	pk_move mgood = p_moves_ord(p, good), mbad = p_moves_ord(p, bad);
	pk_limits lim = { .depth = 6 };
	pk_result r;
	bool from_book = false;
	pk_features f = features_all;
	f.book_score = 0;
	engine_set_features(e, &f);
	/* off: the most played, whatever its games' results */
	CHECK_INT(engine_book_search(e, two, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && r.forced && move_equal(&r.best, &mbad));
	f.book_score = 30;
	engine_set_features(e, &f);
	/* three games lost score 1/8 (12.5%): the two drawn (3/6, 50%) are played instead */
	CHECK_INT(engine_book_search(e, two, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && r.forced && move_equal(&r.best, &mgood));
	/* no book move scores enough: the search's move */
	CHECK_INT(engine_book_search(e, lost, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(!from_book && move_equal(&r.best, &mgood));
	/* two games lost score 1/6: passed at 16%, not at 17% */
	f.book_score = 16;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, lost, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && move_equal(&r.best, &mbad));
	f.book_score = 17;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, lost, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(!from_book);
	engine_set_features(e, &features_all);
	book_free(two);
	book_free(lost);
}

/* The book's move checked by a search (book-check): at p only 28-24 keeps White from
 * staying a man down, so a book holding another move is overruled, one holding 28-24 is
 * followed, and without the check the book is followed whatever it holds. */
static void test_book_check(pk_engine *e, const pk_pos *p)
{
	pk_movelist ml;
	int n = gen_moves(p, &ml), good = -1, bad = -1;
	for (int i = 0; i < n; i++) {
		char m[PK_MOVE_STRLEN];
		move_format(&ml.m[i], false, m, sizeof m);
		if (!strcmp(m, "28-24"))
			good = i;
		else if (bad < 0)
			bad = i;
	}
	CHECK(good >= 0 && bad >= 0);
	if (good < 0 || bad < 0)
		return;
	pk_book *bad_book = one_move_book(p, bad), *good_book = one_move_book(p, good);
	if (!bad_book || !good_book)
		return;
	pk_limits lim = { .depth = 6 };
	pk_result r;
	bool from_book = false;
	pk_features f = features_all;
	f.book_check = 0;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, bad_book, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && r.forced && move_equal(&r.best, &ml.m[bad]));
	f.book_check = 30;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, bad_book, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(!from_book && move_equal(&r.best, &ml.m[good]));
	CHECK_INT(engine_book_search(e, good_book, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && !r.forced && move_equal(&r.best, &ml.m[good]) && r.last.depth >= 1);
	/* no bound on the search: the book at once */
	pk_limits none = { 0 };
	CHECK_INT(engine_book_search(e, bad_book, p, NULL, &none, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && move_equal(&r.best, &ml.m[bad]));
	/* no book: the search */
	CHECK_INT(engine_book_search(e, NULL, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(!from_book && move_equal(&r.best, &ml.m[good]));
	/* book-min: the book's move (played in two games) only when two games are enough */
	f.book_check = 0;
	f.book_min = 3;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, bad_book, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(!from_book && move_equal(&r.best, &ml.m[good]));
	f.book_min = 2;
	engine_set_features(e, &f);
	CHECK_INT(engine_book_search(e, bad_book, p, NULL, &lim, NULL, NULL, NULL, &r, &from_book), 0);
	CHECK(from_book && r.forced && move_equal(&r.best, &ml.m[bad]));
	engine_set_features(e, &features_all);
	book_free(bad_book);
	book_free(good_book);
	test_book_score(e, p, good, bad);
}

/* Shots from real play, with the reason written down. */
static void test_shots(void)
{
	pk_engine *e = engine_new(16, NULL);
	/* 1981, game 37 (Tinsley-Long), after 9...11x18, White to move and a man down (Black
	 * has taken four, White three): 28-24 gives a man, Black must take it (20x27, the
	 * only capture), and 32x23x14x5 takes three back: a man up instead of a man down. */
	static const char *const moves[] = { "9-14", "23-18", "14x23", "27x18", "5-9", "26-23", "12-16",
					     "30-26", "16-19", "24x15", "10x19", "23x16", "11x20", "22-17",
					     "7-11", "18-15", "11x18", NULL };
	pk_pos p;
	pos_start(&p);
	for (int i = 0; moves[i]; i++) {
		pk_movelist ml;
		gen_moves(&p, &ml);
		int k = 0;
		char buf[PK_MOVE_STRLEN];
		while (k < ml.n && (move_format(&ml.m[k], false, buf, sizeof buf), strcmp(buf, moves[i]) != 0))
			k++;
		CHECK(k < ml.n);
		if (k == ml.n)
			return;
		pk_pos q;
		pos_make(&p, &ml.m[k], &q);
		p = q;
	}
	pk_limits lim = { .depth = 6 };
	pk_result r;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
	char mv[PK_MOVE_STRLEN];
	move_format(&r.best, false, mv, sizeof mv);
	CHECK_STR(mv, "28-24");
	CHECK_REPORT(r.last.score > 0, "after the shot White is better: score %d", r.last.score);
	int men, f[W_NUM];
	eval_features(&p, &men, f);
	CHECK_INT(men, 1);   /* before it, Black is a man up */
	/* The line it sees: 28-24 20x27 32x23x14x5. */
	CHECK(r.last.npv >= 3);
	if (r.last.npv >= 3) {
		move_format(&r.last.pv[1], false, mv, sizeof mv);
		CHECK_STR(mv, "20x27");
		move_format(&r.last.pv[2], true, mv, sizeof mv);
		CHECK_STR(mv, "32x23x14x5");
	}
	test_book_check(e, &p);
	engine_free(e);
}

static void test_determinism_and_time(void)
{
	pk_engine *e = engine_new(16, NULL);
	pk_pos p;
	pos_start(&p);
	pk_limits lim = { .depth = 11 };
	pk_result a, b;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &a);
	engine_new_game(e);
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &b);
	CHECK(a.last.nodes == b.last.nodes && a.last.score == b.last.score && move_equal(&a.best, &b.best));
	/* A node limit is deterministic too. */
	pk_limits nl = { .nodes = 200000 };
	engine_new_game(e);
	engine_search(e, &p, NULL, &nl, NULL, NULL, NULL, &a);
	engine_new_game(e);
	engine_search(e, &p, NULL, &nl, NULL, NULL, NULL, &b);
	CHECK(a.last.nodes == b.last.nodes && move_equal(&a.best, &b.best));
	CHECK(a.last.nodes >= 200000 && a.last.nodes < 200000 + 2048);
	/* A time limit ends the search (generous bound: this is not a speed test). */
	pk_limits tl = { .movetime = 0.3 };
	engine_new_game(e);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	engine_search(e, &p, NULL, &tl, NULL, NULL, NULL, &a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	CHECK_REPORT(secs < 0.3 * 1.1 + 0.05, "0.3 s search took %.3f s", secs);
	CHECK(a.has_move && a.last.depth >= 1);
	/* A stop flag ends it at once. */
	volatile sig_atomic_t stop = 1;
	pk_limits none = { 0 };
	engine_search(e, &p, NULL, &none, &stop, NULL, NULL, &a);
	CHECK(a.has_move);
	engine_free(e);
}

/* Two threads share the table: the shot is still found, the score of a won ending is
 * still a win, and the limits hold for the threads together. */
static void test_threads(void)
{
	pk_engine *e = engine_new(16, NULL);
	CHECK(engine_set_threads(e, 2) == 0);
	pk_pos p;
	pk_fen_error fe;
	/* two kings against one: the threads see the stronger side well ahead */
	CHECK(fen_parse("B:WK32:BK1,K5", 13, &p, &fe) == 0);
	pk_limits lim = { .depth = 20 };
	pk_result r;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &r);
	CHECK(r.has_move && r.last.score > 200);
	/* a node limit counts every thread's nodes */
	pos_start(&p);
	pk_limits nl = { .nodes = 300000 };
	engine_new_game(e);
	engine_search(e, &p, NULL, &nl, NULL, NULL, NULL, &r);
	CHECK_REPORT(r.last.nodes >= 300000 && r.last.nodes < 300000 + 4 * 2048 + 200000,
		     "node limit 300000, searched %llu", (unsigned long long)r.last.nodes);
	/* a time limit */
	pk_limits tl = { .movetime = 0.3 };
	engine_new_game(e);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	engine_search(e, &p, NULL, &tl, NULL, NULL, NULL, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	CHECK_REPORT(secs < 0.3 * 1.1 + 0.05, "0.3 s search with 2 threads took %.3f s", secs);
	CHECK(r.has_move && r.last.depth >= 1);
	engine_free(e);
}

/* probcut-depth: the shallow search a share of the node's depth (from depth 3, none
 * nested), with probcut-slope's margin growing with the depth; off by default. On, a
 * depth-11 search from the start cuts more (fewer nodes) and still plays a legal move. */
static void test_probcut_depth(void)
{
	pk_features f = features_all;
	char err[160];
	CHECK(features_all.probcut_depth == 0 && features_all.probcut_slope == 0);
	CHECK(features_parse("probcut-depth=40,probcut=1,probcut-slope=5", &f, err, sizeof err) == 0 &&
	      f.probcut_depth == 40 && f.probcut == 1 && f.probcut_slope == 5);
	CHECK(features_parse("probcut-depth=91", &f, err, sizeof err) < 0 && strstr(err, "from 0 to 90"));
	CHECK(features_parse("probcut-slope=101", &f, err, sizeof err) < 0 && strstr(err, "from 0 to 100"));
	pk_engine *e = engine_new(16, NULL);
	pk_pos p;
	pos_start(&p);
	pk_limits lim = { .depth = 11 };
	pk_result a, b;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &a);
	engine_set_features(e, &f);
	engine_new_game(e);
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &b);
	CHECK(b.last.depth == 11 && b.last.nodes < a.last.nodes);
	pk_movelist ml;
	int n = gen_moves(&p, &ml);
	bool legal = false;
	for (int i = 0; i < n; i++)
		legal |= move_equal(&ml.m[i], &b.best);
	CHECK(legal);
	engine_free(e);
}

/* Search features from text: named values change, the rest keep their defaults, and
 * anything else is refused with the reason. */
static void test_features_text(void)
{
	pk_features f = features_all;
	char err[160], text[512];
	CHECK(features_parse("lmr=0,killers=0,probcut=60", &f, err, sizeof err) == 0);
	CHECK(f.lmr == 0 && !f.killers && f.probcut == 60 && f.history == features_all.history);
	features_format(&f, text, sizeof text);
	pk_features g = features_all;
	CHECK(features_parse(text, &g, err, sizeof err) == 0);
	CHECK(features_same(&f, &g) && memcmp(&f, &g, sizeof f) != 0);   /* g was given every one */
	/* the changed ones alone: what an annotation's stored settings name, which a
	 * feature added later (at its default) leaves as it was */
	features_format_changed(&f, &features_all, text, sizeof text);
	CHECK_REPORT(strcmp(text, "lmr=0,killers=0") == 0, "changed features: %s", text);
	features_format_changed(&features_all, &features_all, text, sizeof text);
	CHECK(text[0] == 0);
	/* a variant's own defaults go where the features were not given */
	pk_features v = features_all, u = features_all;
	features_for_variant(&v, 20);
	CHECK(v.lmr == 4 && !features_same(&v, &features_all));
	features_format_changed(&v, &features_all, text, sizeof text);
	CHECK_REPORT(strcmp(text, "lmr=4") == 0, "International's own features: %s", text);
	v.lmr = features_all.lmr;
	CHECK(features_same(&v, &features_all));
	CHECK(features_parse("lmr=3,killers=0", &u, err, sizeof err) == 0);
	features_for_variant(&u, 20);
	CHECK(u.lmr == 3 && !u.killers);
	u = features_all;
	features_for_variant(&u, 21);   /* English draughts: features_all are its own */
	CHECK(memcmp(&u, &features_all, sizeof u) == 0);
	CHECK(features_parse("", &g, err, sizeof err) == 0);
	CHECK(features_parse("speed=1", &g, err, sizeof err) < 0 && strstr(err, "unknown search feature 'speed'"));
	CHECK(features_parse("lmr=9", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 5"));
	CHECK(features_parse("lmr", &g, err, sizeof err) < 0);
	CHECK(features_parse("lmr=1x", &g, err, sizeof err) < 0);
	CHECK(features_parse("lmr=", &g, err, sizeof err) < 0);
	CHECK(features_parse("tt-ways=0", &g, err, sizeof err) < 0);
	CHECK(features_parse("history-decay=32", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 31"));
	CHECK(features_parse("history-decay=5", &g, err, sizeof err) == 0 && g.history_decay == 5);
	CHECK(features_all.rfp == 20);
	CHECK(features_parse("rfp=0", &g, err, sizeof err) == 0 && g.rfp == 0);
	CHECK(features_parse("rfp=1001", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 1000"));
	char fb[512];
	features_format(&features_all, fb, sizeof fb);
	CHECK(strlen(fb) < sizeof fb - 1);
	CHECK(strstr(fb, "rfp=20") != NULL);
	CHECK(features_all.razor == 40 && features_all.lmr_adjust == 2 && features_all.book_check == 0);
	CHECK(strstr(fb, "razor=40,lmr-adjust=2,book-check=0") != NULL);
	CHECK(features_parse("razor=0,lmr-adjust=1,book-check=25", &g, err, sizeof err) == 0 && g.razor == 0 &&
	      g.lmr_adjust == 1 && g.book_check == 25);
	CHECK(features_parse("lmr-adjust=3", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 2"));
	/* measured and left off: the refutation table, more time for an unstable choice;
	 * on: the reduction without a table move from depth 3 */
	CHECK(features_all.countermove == 0 && features_all.iir == 3 && features_all.time_unstable == 0);
	CHECK(strstr(fb, "time-unstable=0,countermove=0,iir=3") != NULL);
	CHECK(features_parse("countermove=1,iir=4,time-unstable=85", &g, err, sizeof err) == 0 && g.countermove == 1 &&
	      g.iir == 4 && g.time_unstable == 85);
	CHECK(features_parse("countermove=2", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 1"));
	CHECK(features_all.singular == 0 && strstr(fb, "iir=3,singular=0") != NULL);
	CHECK(features_parse("singular=20", &g, err, sizeof err) == 0 && g.singular == 20);
	CHECK(features_all.book_min == 0 && strstr(fb, "book-min=0") != NULL);
	CHECK(features_parse("book-min=3", &g, err, sizeof err) == 0 && g.book_min == 3);
	CHECK(features_parse("book-min=-1", &g, err, sizeof err) < 0);
	CHECK(features_all.book_score == 30 && strstr(fb, "book-min=0,book-score=30") != NULL);
	CHECK(features_parse("book-score=30", &g, err, sizeof err) == 0 && g.book_score == 30);
	CHECK(features_parse("book-score=101", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 100"));
	CHECK(features_parse("singular=1001", &g, err, sizeof err) < 0);
	CHECK(features_parse("time-unstable=101", &g, err, sizeof err) < 0);
	/* a clock's share by the game's phase: unchanged by default; time-opening while 90%
	 * of the start's pieces are on the board (36 of International's 40, 22 of English's
	 * 24), time-middle down to half of them */
	CHECK(features_all.time_opening == 100 && features_all.time_middle == 100 &&
	      strstr(fb, "time-opening=100,time-middle=100") != NULL);
	CHECK(features_parse("time-opening=50,time-middle=130", &g, err, sizeof err) == 0 &&
	      g.time_opening == 50 && g.time_middle == 130);
	CHECK(features_parse("time-opening=0", &g, err, sizeof err) < 0 && strstr(err, "from 10 to 300"));
	CHECK(clock_phase_share(&features_all, 40, 40) == 100 && clock_phase_share(&features_all, 20, 40) == 100);
	CHECK(clock_phase_share(&g, 40, 40) == 50 && clock_phase_share(&g, 36, 40) == 50);
	CHECK(clock_phase_share(&g, 35, 40) == 130 && clock_phase_share(&g, 20, 40) == 130);
	CHECK(clock_phase_share(&g, 19, 40) == 100 && clock_phase_share(&g, 2, 40) == 100);
	CHECK(clock_phase_share(&g, 22, 24) == 50 && clock_phase_share(&g, 21, 24) == 130);
	CHECK(clock_phase_share(&g, 12, 24) == 130 && clock_phase_share(&g, 11, 24) == 100);
	/* time-togo: the moves to go fall from 30 (full board) to it (a quarter of the
	 * board: International's 10 pieces, English's 6), so 25/30 of the share at the
	 * start, 25/10 at the end with time-togo=10; off (0) by default */
	CHECK(features_all.time_togo == 0 && strstr(fb, "time-togo=0") != NULL);
	CHECK(features_parse("time-togo=31", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 30"));
	CHECK(features_parse("time-togo=10", &g, err, sizeof err) == 0 && g.time_togo == 10);
	g.time_opening = g.time_middle = 100;
	CHECK(clock_phase_share(&g, 40, 40) == 83 && clock_phase_share(&g, 10, 40) == 250 &&
	      clock_phase_share(&g, 4, 40) == 250 && clock_phase_share(&g, 25, 40) == 125 &&
	      clock_phase_share(&g, 24, 24) == 83 && clock_phase_share(&g, 6, 24) == 250);
	CHECK(features_parse("time-opening=50", &g, err, sizeof err) == 0 && clock_phase_share(&g, 40, 40) == 41);
	/* a clock's share: a 25th of the clock less the reserve, most of the increment, at
	 * most 0.4 of the clock, a thousandth of a second below the reserve; a game of 210
	 * moves a side on a clock of 10 s without an increment, each move costing 4 ms more
	 * than its share, ends with time left (a 25th of the whole clock each move, as
	 * before the reserve, falls at move 117 with 2 ms) */
	CHECK(fabs(clock_share(60, 0, 0) - (60 - CLOCK_RESERVE) / 25) < 1e-9);
	CHECK(fabs(clock_share(60, 0, 10) - (60 - CLOCK_RESERVE) / 10) < 1e-9);
	CHECK(fabs(clock_share(10, 1, 0) - ((10 - CLOCK_RESERVE) / 25 + 0.8)) < 1e-9);
	CHECK(fabs(clock_share(1, 2, 0) - 0.4) < 1e-9);
	CHECK(clock_share(CLOCK_RESERVE * 0.9, 0, 0) == 0.001 && clock_share(0, 0, 0) == 0.001);
	{
		double left = 10, least = 10;
		for (int i = 0; i < 210; i++) {
			left -= clock_share(left, 0, 0) + 0.004;
			least = left < least ? left : least;
		}
		CHECK_REPORT(least > 0, "210 moves on a 10 s clock: %.3f s left at the least", least);
	}
	/* the time a failing best move may take past the limit: three times it by default */
	CHECK(features_all.time_panic == 300 && strstr(fb, "time-panic=300") != NULL);
	CHECK(features_parse("time-panic=300", &g, err, sizeof err) == 0 && g.time_panic == 300);
	CHECK(features_parse("time-panic=1001", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 1000"));
	/* ... never past the limits' hard time (a clock's reserve), never below the move's time */
	{
		pk_limits tl = { .movetime = 0.1 };
		CHECK(engine_panic_time(&features_all, &tl) > 0.2999 && engine_panic_time(&features_all, &tl) < 0.3001);
		tl.hardtime = 0.15;
		CHECK(engine_panic_time(&features_all, &tl) > 0.1499 && engine_panic_time(&features_all, &tl) < 0.1501);
		tl.hardtime = 0.05;
		CHECK(engine_panic_time(&features_all, &tl) > 0.0999 && engine_panic_time(&features_all, &tl) < 0.1001);
		pk_features off = features_all;
		off.time_panic = 0;
		tl.hardtime = 0;
		CHECK(engine_panic_time(&off, &tl) > 0.0999 && engine_panic_time(&off, &tl) < 0.1001);
	}
	/* the endings kept whole by the cuts: six pieces or fewer by default */
	CHECK(features_all.prune_pieces == 6 && strstr(fb, "prune-pieces=6") != NULL);
	CHECK(features_parse("prune-pieces=10", &g, err, sizeof err) == 0 && g.prune_pieces == 10);
	CHECK(features_parse("prune-pieces=25", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 24"));
	/* the enhanced transposition cutoff: from a depth, 0 off */
	CHECK(features_all.etc == 4 && strstr(fb, "etc=4") != NULL);
	CHECK(features_parse("etc=0", &g, err, sizeof err) == 0 && g.etc == 0);
	CHECK(features_parse("etc=65", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 64"));
	/* the evaluation's fall with the reversible plies: measured and left off */
	CHECK(features_all.progress == 0 && strstr(fb, "etc=4,progress=0") != NULL);
	CHECK(features_parse("progress=60", &g, err, sizeof err) == 0 && g.progress == 60);
	CHECK(features_parse("progress=1001", &g, err, sizeof err) < 0 && strstr(err, "from 0 to 1000"));
}

/* prune-pieces: an ending of eight pieces searched to the same depth takes more nodes
 * when the cuts leave it whole, and the same nodes when the bound is below it. */
static void test_prune_pieces(void)
{
	pk_engine *e = engine_new(16, NULL);
	pk_pos p;
	pk_fen_error fe;
	const char *fen = "W:W21,25,K3,K11:B22,K14,K18,K30";
	CHECK(fen_parse(fen, strlen(fen), &p, &fe) == 0);
	pk_limits lim = { .depth = 10 };
	pk_result a, b;
	pk_features f = features_all;
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &a);
	f.prune_pieces = 8;
	engine_set_features(e, &f);
	engine_new_game(e);
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &b);
	CHECK_REPORT(b.last.nodes > a.last.nodes, "prune-pieces=8: %llu nodes, 6: %llu",
		     (unsigned long long)b.last.nodes, (unsigned long long)a.last.nodes);
	f.prune_pieces = 0;
	engine_set_features(e, &f);
	engine_new_game(e);
	engine_search(e, &p, NULL, &lim, NULL, NULL, NULL, &b);
	CHECK(b.last.nodes <= a.last.nodes);
	engine_free(e);
}

/* progress: the evaluation of a quiet leaf falls linearly to 0 with the reversible plies
 * that lead to it. Kings far apart (no capture within reach): at depth 1 each leaf is one
 * king's move past the root, so the score is the plain one times (N - R - 1) / N, give
 * or take the rounding of each leaf; at R = N - 1 it is 0. From the start, where every
 * move is a man's, it changes nothing. */
static void test_progress(void)
{
	pk_engine *e = engine_new(8, NULL);
	pk_pos p;
	const char *fen = "W:WK29,K30,K31:BK1,K2";
	CHECK(fen_parse(fen, strlen(fen), &p, NULL) == 0);
	pk_limits lim = { .depth = 1 };
	pk_features f = features_all;
	int plain = 0;
	for (int n = 0; n < 4; n++) {
		static const int prog[4] = { 0, 40, 40, 40 }, rev[4] = { 0, 0, 20, 39 };
		f.progress = prog[n];
		engine_set_features(e, &f);
		engine_new_game(e);
		pk_history h = { NULL, 0, rev[n], 0 };
		pk_result r;
		engine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r);
		if (n == 0) {
			plain = r.last.score;
			CHECK(plain > 100);   /* three kings against two */
			continue;
		}
		long want = (long)plain * (prog[n] - rev[n] - 1) / prog[n];
		CHECK_REPORT(labs(r.last.score - want) <= 1, "progress=%d after %d plies: %d, plain %d, want %ld",
			     prog[n], rev[n], r.last.score, plain, want);
	}
	pk_pos s;
	const char *sf = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
	CHECK(fen_parse(sf, strlen(sf), &s, NULL) == 0);
	lim.depth = 6;
	int sc[2];
	for (int n = 0; n < 2; n++) {
		f.progress = n ? 40 : 0;
		engine_set_features(e, &f);
		engine_new_game(e);
		pk_history h = { NULL, 0, 39, 0 };
		pk_result r;
		engine_search(e, &s, &h, &lim, NULL, NULL, NULL, &r);
		sc[n] = r.last.score;
	}
	CHECK_INT(sc[1], sc[0]);
	engine_free(e);
}

/* The patterns' indices: each window reads eight squares (3^8 contents); the material
 * index tells apart every count of pieces and kings up to 12 and 8, the mover's first;
 * a table's text and back is the same table, whichever windows it uses. */
static void test_pattern_indices(void)
{
	/* the material: all counts of (pieces, kings) a side can have, distinct and in range */
	static bool seen[PAT_INDEX];
	memset(seen, 0, sizeof seen);
	int distinct = 0;
	for (int n = 0; n <= 12; n++)
		for (int k = 0; k <= n && k <= 8; k++) {
			/* n pieces for the mover (k kings: squares 1 ..), one man for the opponent */
			pk_pos p;
			char fen[200], *q = fen;
			q += sprintf(q, "B:W32:B");
			for (int i = 0; i < n; i++)
				q += sprintf(q, "%s%s%d", i ? "," : "", i < k ? "K" : "", i + 1);
			if (n == 0)
				sprintf(fen, "B:W32:B");
			if (n == 0 || fen_parse(fen, strlen(fen), &p, NULL) < 0)
				continue;
			uint16_t idx[PAT_TABLES];
			int ph, t;
			pattern_indices(&p, PAT_WINDOWS, true, idx, &ph, &t);
			CHECK(idx[PAT_MATERIAL] < PAT_INDEX);
			for (int w = 0; w < PAT_WINDOWS; w++)
				CHECK(idx[w] < PAT_INDEX);
			if (idx[PAT_MATERIAL] < PAT_INDEX && !seen[idx[PAT_MATERIAL]]) {
				seen[idx[PAT_MATERIAL]] = true;
				distinct++;
			}
		}
	CHECK_INT(distinct, 80);          /* 81 cases of a side but the empty one */
	/* the same material seen by the other side: another index (the mover's first) */
	pk_pos a, b;
	CHECK(fen_parse("B:W30,31,32:B1", 14, &a, NULL) == 0);
	CHECK(fen_parse("W:W30,31,32:B1", 14, &b, NULL) == 0);
	uint16_t ia[PAT_TABLES], ib[PAT_TABLES];
	int ph, t;
	pattern_indices(&a, PAT_WINDOWS, true, ia, &ph, &t);
	pattern_indices(&b, PAT_WINDOWS, true, ib, &ph, &t);
	CHECK(ia[PAT_MATERIAL] != ib[PAT_MATERIAL]);
	/* a full board: every window holds 8 pieces or empties, the start is symmetric */
	pk_pos s;
	const char *sf = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
	CHECK(fen_parse(sf, strlen(sf), &s, NULL) == 0);
	pattern_indices(&s, PAT_WINDOWS, true, ia, &ph, &t);
	CHECK_INT(ph, 0);
	CHECK_INT(t, 0);
	/* every window's index against the definition, square by square (the window's
	 * squares in bit order, base-3 digits: 1 the mover's piece, 2 the opponent's; the
	 * board turned for White), over random positions of men and kings */
	{
		/* (the random positions of the other tests stay as they were: a search may
		 * differ from a minimax of the same depth where a transposition brings a
		 * deeper table entry, and the sequence they use has none) */
		uint32_t saved = rs;
		int wrong = 0;
		for (int n = 0; n < 400; n++) {
			pk_pos r;
			random_men(&r);
			for (int sq = 1; sq <= 32; sq++) {
				int colour;
				bool king;
				if (!(rnd() % 7) && !pos_piece_at(&r, sq, &colour, &king))
					pos_put(&r, sq, rnd() & 1, true);
			}
			uint16_t ix[PAT_TABLES];
			pattern_indices(&r, PAT_WINDOWS, false, ix, &ph, &t);
			uint32_t own = (uint32_t)r.side[r.stm], opp = (uint32_t)r.side[!r.stm];
			if (r.stm == PK_WHITE) {
				own = bb_reverse32(own);
				opp = bb_reverse32(opp);
			}
			int k = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int y0 = 0; y0 <= 4; y0++)
					for (int x0 = 0; x0 <= 4; x0++) {
						if ((x0 % 2 == 0 && y0 % 2 == 0) != (pass == 0))
							continue;
						int want = 0, p3 = 1;
						for (int sqb = 0; sqb < 32; sqb++) {
							int row = sqb / 4, col = row % 2 == 0 ? 2 * (sqb % 4) + 1 : 2 * (sqb % 4);
							if (row < y0 || row >= y0 + 4 || col < x0 || col >= x0 + 4)
								continue;
							want += p3 * ((own >> sqb & 1) ? 1 : (opp >> sqb & 1) ? 2 : 0);
							p3 *= 3;
						}
						wrong += ix[k++] != want;
					}
		}
		CHECK_INT(wrong, 0);
		rs = saved;
	}
	/* text and back, with 25 windows and the material table */
	static pk_patterns pt, back;
	memset(&pt, 0, sizeof pt);
	pt.windows = PAT_WINDOWS;
	pt.material = 1;
	pt.w[0][24][17] = 5;
	pt.w[1][PAT_MATERIAL][6560] = -7;
	pt.w[1][3][0] = 2;
	patterns_checksum(&pt);
	char *text = patterns_format(&pt, "test");
	CHECK(text != NULL);
	if (!text)
		return;
	char err[200];
	CHECK(patterns_parse(text, &back, err, sizeof err) == 0);
	CHECK(memcmp(back.w, pt.w, sizeof pt.w) == 0);
	CHECK_INT(back.windows, PAT_WINDOWS);
	CHECK_INT(back.material, 1);
	CHECK(back.checksum == pt.checksum);
	free(text);
	/* nine windows and no material: format 2, and its checksum leaves the rest out */
	memset(&pt, 0, sizeof pt);
	pt.w[0][8][100] = 3;
	patterns_checksum(&pt);
	uint32_t c9 = pt.checksum;
	text = patterns_format(&pt, "test");
	CHECK(text != NULL && strncmp(text, "pdnkit-patterns 2\n", 18) == 0);
	CHECK(text && patterns_parse(text, &back, err, sizeof err) == 0 && back.checksum == c9 && back.windows == 9 &&
	      !back.material);
	free(text);
	/* the endgame table's windows tell kings from men: base-5 digits, the window's
	 * first square the lowest (window 0: squares 1, 2, 5, 6, ...) */
	uint32_t kx[PAT_WINDOWS_BASIC];
	pk_pos kp;
	CHECK(fen_parse("B:W6:B1", 7, &kp, NULL) == 0);
	pattern_king_indices(&kp, kx);
	CHECK_INT((int)kx[0], 1 + 2 * 125);
	CHECK(fen_parse("B:WK6:BK1", 9, &kp, NULL) == 0);
	pattern_king_indices(&kp, kx);
	CHECK_INT((int)kx[0], 3 + 4 * 125);
	CHECK(fen_parse("W:WK6:BK1", 9, &kp, NULL) == 0);   /* White to move: the board turned */
	pattern_king_indices(&kp, kx);
	CHECK_INT((int)kx[0], 0);
	CHECK_INT((int)kx[8], 3 * 625 + 4 * 78125);
	/* the endgame table: format 5, in the checksum, read back, and added only in
	 * positions of at most its number of pieces */
	const char *ef = "W:W30,31,32:B1,3";   /* 5 pieces */
	pk_pos e5;
	CHECK(fen_parse(ef, strlen(ef), &e5, NULL) == 0);
	int v0 = pattern_eval(&pt, &e5), v12 = pattern_eval(&pt, &s);
	pattern_king_indices(&e5, kx);
	for (int q = 0; q < PAT_PHASES; q++)
		pt.e[q][4][kx[4]] = 40;
	pt.end_pieces = 6;
	patterns_checksum(&pt);
	CHECK(pt.checksum != c9);
	CHECK_INT(pattern_eval(&pt, &e5), v0 + 40);
	CHECK_INT(pattern_eval(&pt, &s), v12);
	pt.end_pieces = 4;
	CHECK_INT(pattern_eval(&pt, &e5), v0);
	pt.end_pieces = 6;
	patterns_checksum(&pt);
	text = patterns_format(&pt, "test");
	CHECK(text != NULL && strncmp(text, "pdnkit-patterns 5\n", 18) == 0 && strstr(text, "\nendgame 6\n") != NULL);
	CHECK(text && patterns_parse(text, &back, err, sizeof err) == 0 && back.checksum == pt.checksum &&
	      back.end_pieces == 6 && memcmp(back.e, pt.e, sizeof pt.e) == 0 && memcmp(back.w, pt.w, sizeof pt.w) == 0);
	free(text);
	/* a king where the table has a man: not the same weight (square 30 is in window 1
	 * of the turned board; the other windows and the main table see the same) */
	pattern_king_indices(&e5, kx);
	for (int q = 0; q < PAT_PHASES; q++)
		pt.e[q][1][kx[1]] = 25;
	patterns_checksum(&pt);
	CHECK(fen_parse("W:WK30,31,32:B1,3", 17, &kp, NULL) == 0);
	CHECK_INT(pattern_eval(&pt, &e5) - pattern_eval(&pt, &kp), 25);
	/* format 4's table (three states a square): each weight read into every state with
	 * a man or a king where it has a piece (3-state 55: the mover's piece on square 1,
	 * the opponent's on 6) */
	CHECK(patterns_parse("pdnkit-patterns 4\nphases 2\nwindows 9\nendgame 8\ne 0 0 55 7\n", &back, err, sizeof err) == 0);
	CHECK(back.e[0][0][1 + 2 * 125] == 7 && back.e[0][0][3 + 4 * 125] == 7 && back.e[0][0][3 + 2 * 125] == 7 &&
	      back.e[0][0][1 + 4 * 125] == 7 && back.e[0][0][1] == 0 && back.e[0][0][55] == 0 && back.e[1][0][251] == 0);
	CHECK(patterns_parse("pdnkit-patterns 4\nphases 2\nwindows 9\nendgame 8\ne 0 0 6561 7\n", &back, err, sizeof err) < 0 &&
	      strstr(err, "INDEX 0-6560") != NULL);
	CHECK(patterns_parse("pdnkit-patterns 5\nphases 2\nwindows 9\nendgame 8\ne 0 0 390624 7\n", &back, err, sizeof err) == 0 &&
	      back.e[0][0][390624] == 7);
	CHECK(patterns_parse("pdnkit-patterns 5\nphases 2\nwindows 9\nendgame 8\ne 0 0 390625 7\n", &back, err, sizeof err) < 0);
	CHECK(patterns_parse("pdnkit-patterns 3\nphases 2\nwindows 9\nendgame 8\n", &back, err, sizeof err) < 0 &&
	      strstr(err, "format 1 to 3") != NULL);
	CHECK(patterns_parse("pdnkit-patterns 4\nphases 2\nwindows 9\ne 0 1 2 3\n", &back, err, sizeof err) < 0 &&
	      strstr(err, "before the \"endgame\" line") != NULL);
	CHECK(patterns_parse("pdnkit-patterns 4\nphases 2\nwindows 9\nendgame 8\ne 0 9 2 3\n", &back, err, sizeof err) < 0 &&
	      strstr(err, "line 5: expected e PHASE WINDOW (0-8)") != NULL);
	CHECK(patterns_parse("pdnkit-patterns 4\nphases 2\nwindows 9\nendgame 2\n", &back, err, sizeof err) < 0 &&
	      strstr(err, "from 3 to 16") != NULL);
}

int main(void)
{
	test_pattern_indices();
	test_features_text();
	test_probcut_depth();
	test_prune_pieces();
	test_progress();
	test_against_minimax();
	test_two_kings();
	test_draw_rules();
	test_weights();
	test_net();
	test_net_layers();
	test_vnet();
	test_shots();
	test_determinism_and_time();
	test_threads();
	return check_done("test_search");
}
