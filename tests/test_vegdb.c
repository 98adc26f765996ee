/* The other variants' endgame databases (egdb/vegdb.h): built for several variants up to
 * 3 pieces, then checked apart from their builder:
 * - against plain minimax over the tests' own move generator (tests/naive_variant.c) on
 *   random positions: a win or loss within the horizon has the same distance, any other
 *   value is neither a win nor a loss there;
 * - English draughts' against the English databases (egdb/build.c, another builder over
 *   another generator): every position's value and distance;
 * - every value against its moves' values over the tests' own generator, on random
 *   positions (a win in n has a move to a loss in n - 1, ...): with distances, values
 *   consistent everywhere are the true ones; `test_vegdb --check VARIANT DIR N` does it
 *   for a level built apart (International's 5 pieces, say);
 * - the search counts FMJD's 5-move ending on from the game's history: a win the
 *   databases give in N plies is a draw once fewer than N plies of the count are left;
 * - a damaged file is refused with its name, a missing level is not claimed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "naive_variant.h"
#include "egdb/build.h"
#include "egdb/egdb.h"
#include "egdb/vegdb.h"
#include "analysis/match.h"
#include "engine/vsearch.h"
#include "rules/fen.h"
#include "rules/variant.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random position of 2 to most pieces, each side at least one, men off their crowning
 * rows. */
static void random_pos(const pk_variant *v, int most, pk_vpos *p)
{
	int n = variant_squares(v);
	vpos_clear(v, p, rnd(2) ? PK_WHITE : PK_BLACK);
	int pieces = 2 + (int)rnd((unsigned)most - 1);
	for (int i = 0; i < pieces;) {
		int s = 1 + (int)rnd((unsigned)n), r, c;
		if (p->sq[s])
			continue;
		variant_square_rc(v, s, &r, &c);
		bool white = i == 0 ? true : i == 1 ? false : rnd(2);
		bool king = rnd(2) == 0;
		if (!king && ((white && r == 0) || (!white && r == v->rows - 1)))
			continue;
		p->sq[s] = white ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN);
		i++;
	}
}

/* The databases against minimax within `depth` plies on `samples` random positions. */
static void against_minimax(const char *dir, const char *name, int pieces, int depth, int samples)
{
	const pk_variant *v = variant_by_name(name);
	char err[600] = "";
	CHECK_REPORT(vegdb_build(v, pieces, 2, dir, NULL, NULL, NULL, err, sizeof err) == 0, "%s: build: %s", name, err);
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	CHECK_REPORT(db != NULL, "%s: open: %s", name, err);
	if (!db)
		return;
	CHECK_INT(vegdb_pieces(db), pieces);
	int agree = 0, decided = 0;
	for (int i = 0; i < samples; i++) {
		pk_vpos p;
		random_pos(v, pieces, &p);
		int value, plies;
		if (!vegdb_probe(db, &p, &value, &plies)) {
			CHECK_REPORT(0, "%s: a position of %d pieces or fewer not held", name, pieces);
			continue;
		}
		int want = value == EGDB_DRAW || plies > depth ? 0 : value == EGDB_WIN ? 1000 + plies : -(1000 + plies);
		int got = naive_variant_solve(&p, depth);
		char fen[400];
		vfen_format(&p, fen, sizeof fen);
		CHECK_REPORT(got == want, "%s %s: the databases say %s in %d plies, minimax to %d plies %d", name, fen,
			     value == EGDB_WIN ? "win" : value == EGDB_LOSS ? "loss" : "draw", plies, depth, got);
		agree += got == want;
		decided += want != 0;
	}
	printf("(%.1f s) %s: %d of %d random positions as minimax to %d plies finds them (%d decided within it)\n", (double)clock() / CLOCKS_PER_SEC, name, agree,
	       samples, depth, decided);
	vegdb_free(db);
}

struct each_ctx {
	pk_egdb *en;
	int n, same;
};

/* English draughts: every position of the variant databases against the English ones. */
static void against_english(const char *dir)
{
	const pk_variant *v = variant_by_name("english");
	char err[600] = "", edir[300];
	snprintf(edir, sizeof edir, "%s/english-egdb", dir);
	pk_build_opts o = { .pieces = 3, .threads = 1, .dist_pieces = 8, .dist_men = -1, .level = 3, .dir = edir };
	CHECK_REPORT(mkdir(edir, 0777) == 0, "%s", edir);
	CHECK_REPORT(egdb_build(&o, err, sizeof err) == 0, "English build: %s", err);
	pk_egdb *en = egdb_new(8 << 20);
	CHECK(egdb_add_dir(en, edir, err, sizeof err) > 0);
	CHECK_REPORT(vegdb_build(v, 3, 2, dir, NULL, NULL, NULL, err, sizeof err) == 0, "english: build: %s", err);
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	CHECK_REPORT(db != NULL, "english: open: %s", err);
	if (!db) {
		egdb_free(en);
		return;
	}
	int n = 0, same = 0;
	/* every placement of 2 and 3 pieces, both sides to move */
	for (int a = 1; a <= 32; a++)
		for (int b = 1; b <= 32; b++)
			for (int c = 0; c <= 32; c++) {
				if (a == b || (c && (c == a || c == b)) || (c && c < b))
					continue;
				for (int kinds = 0; kinds < (c ? 8 : 4); kinds++)
					for (int stm = 0; stm < 2; stm++) {
						pk_vpos p;
						vpos_clear(v, &p, stm ? PK_BLACK : PK_WHITE);
						int sq[3] = { a, b, c };
						bool ok = true;
						for (int i = 0; i < (c ? 3 : 2); i++) {
							bool white = i == 0, king = kinds >> i & 1;
							int r, col;
							variant_square_rc(v, sq[i], &r, &col);
							if (!king && ((white && r == 0) || (!white && r == v->rows - 1)))
								ok = false;
							p.sq[sq[i]] = white ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN);
						}
						if (!ok)
							continue;
						int value, plies;
						if (!vegdb_probe(db, &p, &value, &plies))
							continue;
						char fen[400];
						vfen_format(&p, fen, sizeof fen);
						pk_pos q;
						pk_fen_error fe;
						if (fen_parse(fen, strlen(fen), &q, &fe) < 0)
							continue;
						pk_egdb_result r;
						if (egdb_probe(en, &q, &r) != EGDB_FOUND)
							continue;
						n++;
						bool eq = r.value == value && (value == EGDB_DRAW || r.plies == plies);
						same += eq;
						if (!eq && n - same <= 5)
							CHECK_REPORT(0, "english %s: variant databases %d in %d, English %d in %d", fen,
								     value, plies, r.value, r.plies);
					}
			}
	CHECK(n > 100000);
	CHECK_INT(same, n);
	printf("english: %d positions of 2 and 3 pieces, %d as the English databases say\n", n, same);
	vegdb_free(db);
	egdb_free(en);
}

/* The value the children's stored values give p, by the tests' generator (as the build's
 * check does by the core's): a win in 1 + the shortest loss among them, else a draw when
 * one is drawn, else a loss in 1 + the longest win; no move: lost in 0. -2 when a child
 * is not held. As (value, plies): 1 win, 0 draw, -1 loss. */
static int forward(const pk_vegdb *db, const pk_vpos *p, int *plies)
{
	static pk_vpos kids[VAR_MAX_MOVES];
	int n = naive_variant_children(p, kids, VAR_MAX_MOVES);
	*plies = 0;
	if (n == 0)
		return -1;
	int minloss = -1, maxwin = -1;
	bool draw = false;
	for (int i = 0; i < n; i++) {
		int value, d, pieces = 0;
		for (int s = 1; s <= variant_squares(p->v); s++)
			pieces += kids[i].sq[s] != VP_EMPTY;
		bool none = true;   /* the side to move after the move has no piece: lost */
		for (int s = 1; s <= variant_squares(p->v) && none; s++) {
			int pc = kids[i].sq[s];
			none = !(pc && ((pc == VP_WMAN || pc == VP_WKING) == (kids[i].stm == PK_WHITE)));
		}
		if (none) {
			value = EGDB_LOSS;
			d = 0;
		} else if (!vegdb_probe(db, &kids[i], &value, &d))
			return -2;
		if (value == EGDB_LOSS && (minloss < 0 || d < minloss))
			minloss = d;
		else if (value == EGDB_WIN && d > maxwin)
			maxwin = d;
		else if (value == EGDB_DRAW)
			draw = true;
	}
	if (minloss >= 0) {
		*plies = minloss + 1;
		return 1;
	}
	if (draw)
		return 0;
	*plies = maxwin + 1;
	return -1;
}

/* n random positions of v's databases in dir checked by forward(): how many agree. */
static int consistent(const char *name, const char *dir, int n, bool report)
{
	const pk_variant *v = variant_by_name(name);
	char err[600] = "";
	pk_vegdb *db = v ? vegdb_open(v, dir, err, sizeof err) : NULL;
	CHECK_REPORT(db != NULL, "%s: open: %s", name, err);
	if (!db)
		return 0;
	int pieces = vegdb_pieces(db), agree = 0, tried = 0;
	for (int i = 0; i < n; i++) {
		pk_vpos p;
		random_pos(v, pieces, &p);
		int value, plies, fp;
		if (!vegdb_probe(db, &p, &value, &plies))
			continue;
		tried++;
		int fv = forward(db, &p, &fp), sv = value == EGDB_WIN ? 1 : value == EGDB_LOSS ? -1 : 0;
		bool ok = fv == sv && (sv == 0 || fp == plies);
		agree += ok;
		if (!ok && report) {
			char fen[400];
			vfen_format(&p, fen, sizeof fen);
			CHECK_REPORT(0, "%s %s: stored %d in %d plies, its moves by the tests' generator give %d in %d", name, fen,
				     sv, plies, fv, fp);
		}
	}
	printf("%s: %d of %d random positions of up to %d pieces as their moves (the tests' generator) prove\n", name,
	       agree, tried, pieces);
	CHECK(tried > n / 2);
	vegdb_free(db);
	return agree;
}

/* A won International position of FMJD's 5-move ending (two pieces, a king among them,
 * against a lone king) in N plies, searched with the count of the ending already at
 * 10 - N (a win: its last move is the count's tenth ply) and at 11 - N (a draw). */
static void ending_count(const char *dir)
{
	const pk_variant *v = variant_by_name("international");
	char err[600] = "";
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	CHECK_REPORT(db != NULL, "open: %s", err);
	if (!db)
		return;
	pk_vpos p;
	int value = 0, plies = 0, tries = 0;
	for (;; tries++) {
		CHECK(tries < 2000000);
		if (tries >= 2000000) {
			vegdb_free(db);
			return;
		}
		random_pos(v, 3, &p);
		if (vdraw_ending_class(&p) != 2 || vhas_capture(&p) || vegdb_probe(db, &p, &value, &plies) != 1)
			continue;
		if (value == EGDB_WIN && plies >= 5 && plies <= 9)
			break;
	}
	vegdb_free(db);
	pk_vengine *e = vengine_new(4);
	CHECK(e != NULL);
	if (!e)
		return;
	CHECK(vengine_set_tables_dir(e, dir) == 0);
	char fen[200];
	vfen_format(&p, fen, sizeof fen);
	pk_limits lim = { .depth = 12 };
	for (int k = 0; k < 3; k++) {
		int done = k == 0 ? 0 : 10 - plies + (k - 1);
		pk_history h = { NULL, 0, 0, done };
		pk_vresult r;
		vengine_new_game(e);
		CHECK(vengine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r) == 0);
		bool draw = k == 2;
		CHECK_REPORT(draw ? r.last.score == 0 : r.last.score == SCORE_WIN - plies,
			     "%s, won in %d plies by the databases, %d plies of the ending played: scored %d", fen, plies,
			     done, r.last.score);
	}
	/* the same engine on, its table kept as in a game: the search with the count at its
	 * start, then with the count one ply short; the second must not take the first's
	 * wins from the table (the count is part of a table entry's position) */
	for (int k = 0; k < 4; k++) {
		if (k == 2)
			CHECK(vengine_set_tables_dir(e, NULL) == 0);   /* and the search alone */
		int done = k % 2 == 0 ? 0 : 11 - plies;
		pk_history h = { NULL, 0, 0, done };
		pk_vresult r;
		if (k % 2 == 0)
			vengine_new_game(e);
		CHECK(vengine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r) == 0);
		CHECK_REPORT(k % 2 ? r.last.score == 0 : r.last.score == SCORE_WIN - plies,
			     "%s, won in %d plies by the databases, %d plies of the ending played, the table kept: scored %d",
			     fen, plies, done, r.last.score);
	}
	printf("international: %s won in %d plies; with %d plies of the 5-move ending left a draw\n", fen, plies,
	       plies - 1);
	vengine_free(e);
}

/* The value of p, a position of FMJD's 16-move ending (three pieces, a king among them,
 * against a lone king) with `used` plies of the count played, worked out apart from the
 * search: over the tests' generator, each move that stays in the ending counts a ply (the
 * 32nd a draw); a move that leaves it (a capture) is valued by the databases, with the
 * 5-move ending's count begun anew (a win in d plies is one when d <= 10). 1 win, 0
 * draw, -1 loss for the side to move. */
static int counted_value(const pk_vegdb *db, const pk_vpos *p, int used)
{
	pk_vpos kids[64];
	int n = naive_variant_children(p, kids, 64);
	if (n == 0)
		return -1;
	int best = -1;
	for (int i = 0; i < n && best < 1; i++) {
		const pk_vpos *q = &kids[i];
		int v;
		bool none = true;   /* the side to move after the move has no piece: lost */
		for (int s = 1; s <= variant_squares(q->v) && none; s++) {
			int pc = q->sq[s];
			none = !(pc && ((pc == VP_WMAN || pc == VP_WKING) == (q->stm == PK_WHITE)));
		}
		if (none)
			v = 1;
		else if (vdraw_ending_class(q) == 1)
			v = used + 1 >= 32 ? 0 : -counted_value(db, q, used + 1);
		else {
			int value = EGDB_DRAW, plies = 0;
			if (!vegdb_probe(db, q, &value, &plies))
				return -2;
			int limit = vdraw_ending_plies(q);
			if (value != EGDB_DRAW && limit && plies > limit)
				value = EGDB_DRAW;
			v = value == EGDB_WIN ? -1 : value == EGDB_LOSS ? 1 : 0;
		}
		if (v > best)
			best = v;
	}
	return best;
}

/* The search in the last plies of a 16-move ending (Brazilian draughts: International's
 * rules on 8x8, its databases of 4 pieces built in seconds): a win the databases give in
 * more plies than the count has left can still be one, when a capture on the way begins
 * the 5-move ending's count (a piece given up to force the lone king to take it); it was
 * scored a draw. Random positions with 1 to 3 plies of the count left, the search's value
 * against counted_value's. */
static void ending_conversion(const char *dir)
{
	const pk_variant *v = variant_by_name("brazilian");
	char err[600] = "";
	CHECK_REPORT(vegdb_build(v, 4, 2, dir, NULL, NULL, NULL, err, sizeof err) == 0, "brazilian: build: %s", err);
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	CHECK_REPORT(db != NULL, "brazilian: open: %s", err);
	pk_vengine *e = vengine_new(8);
	CHECK(e != NULL);
	if (!db || !e) {
		vegdb_free(db);
		vengine_free(e);
		return;
	}
	CHECK(vengine_set_tables_dir(e, dir) == 0);
	int n = 0, agree = 0, beyond = 0, converted = 0;
	for (int tries = 0; n < 300 && tries < 200000; tries++) {
		pk_vpos p;
		vpos_clear(v, &p, rnd(2) ? PK_WHITE : PK_BLACK);
		int strong = (int)rnd(2), kings = 1 + (int)rnd(3);
		for (int i = 0; i < 4;) {
			int s = 1 + (int)rnd(32), r, c;
			if (p.sq[s])
				continue;
			variant_square_rc(v, s, &r, &c);
			bool white = i < 3 ? strong == PK_WHITE : strong != PK_WHITE, king = i == 3 || i < kings;
			if (!king && ((white && r == 0) || (!white && r == v->rows - 1)))
				continue;
			p.sq[s] = white ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN);
			i++;
		}
		int value, plies;
		if (vdraw_ending_class(&p) != 1 || !vegdb_probe(db, &p, &value, &plies) || value == EGDB_DRAW)
			continue;
		int left = 1 + (int)rnd(3);
		if (plies <= left)
			continue;   /* won in time by the databases alone */
		pk_vpos kids[64];
		if (naive_variant_children(&p, kids, 64) < 2)
			continue;   /* one move: played at once, with no score of the search's */
		int truth = counted_value(db, &p, 32 - left);
		if (truth == -2)
			continue;
		n++;
		beyond++;
		converted += truth != 0;
		pk_history h = { NULL, 0, 0, 32 - left };
		pk_limits lim = { .depth = 16 };
		pk_vresult r;
		vengine_new_game(e);
		CHECK(vengine_search(e, &p, &h, &lim, NULL, NULL, NULL, &r) == 0);
		int got = r.last.score >= SCORE_WIN - 500 ? 1 : r.last.score <= -SCORE_WIN + 500 ? -1 : r.last.score == 0 ? 0 : 9;
		agree += got == truth;
		if (got != truth && n - agree <= 5) {
			char fen[200];
			vfen_format(&p, fen, sizeof fen);
			CHECK_REPORT(0, "brazilian %s: the databases %s in %d plies, %d plies of the count left: searched %d, "
				     "worked out %d", fen, value == EGDB_WIN ? "win" : "loss", plies, left, r.last.score, truth);
		}
	}
	CHECK(n >= 300);
	CHECK_INT(agree, n);
	CHECK(converted >= 10);   /* the case itself: wins and losses past the count's end */
	printf("brazilian: %d positions of the 16-move ending won or lost past the count's end, %d of them decided by a "
	       "capture that begins the 5-move ending's count; the search agrees on %d\n", beyond, converted, agree);
	vengine_free(e);
	vegdb_free(db);
}

/* A referee's adjudication by the databases (match_vegdb_result): a draw there is a
 * draw; a win ends the game only when no draw rule's count can end it first. */
static void adjudication(const char *dir)
{
	const pk_variant *v = variant_by_name("international");
	char ferr[200];
	const pk_vegdb *db = vegdb_shared_in(dir, v);
	CHECK(db != NULL);
	pk_vpos p;
	pk_vdraw d;
	vdraw_init(&d);
	/* a man race won in 5 plies by White, International's first mover: "1-0" */
	CHECK(vfen_parse(v, "W:W28:B3", &p, ferr, sizeof ferr) == 0);
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_BLACK_WINS);
	/* the same men, Black to move, lost in 14 plies: longer than the 5-move ending the
	 * line could reach (10 plies), so played on */
	CHECK(vfen_parse(v, "B:W22:B3", &p, ferr, sizeof ferr) == 0);
	int value, plies;
	CHECK(vegdb_probe(db, &p, &value, &plies) == 1);
	CHECK_INT(plies, 14);
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_NONE);
	/* two kings against one: a draw whatever the counts */
	CHECK(vfen_parse(v, "W:WK46,K47:BK3", &p, ferr, sizeof ferr) == 0);
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_DRAW);
	d.kings_only = 49;
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_DRAW);
	/* White wins in 4 plies: a win at the ending's start, played on with 3 plies of its
	 * count left or 2 of the kings-only count */
	vdraw_init(&d);
	CHECK(vfen_parse(v, "B:WK1,K6:BK50", &p, ferr, sizeof ferr) == 0);
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_BLACK_WINS);
	d.ending_class = vdraw_ending_class(&p);
	d.ending = 7;
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_NONE);
	d.ending = 6;
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_BLACK_WINS);
	vdraw_init(&d);
	d.kings_only = 48;
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_NONE);
	/* no databases, or a position past them: none */
	CHECK_INT(match_vegdb_result(NULL, &d, &p), RES_NONE);
	CHECK(vfen_parse(v, "W:W28,29,30,31:B3", &p, ferr, sizeof ferr) == 0);
	CHECK_INT(match_vegdb_result(db, &d, &p), RES_NONE);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--check")) {
		/* on demand: a level built apart */
		consistent(argv[2], argv[3], atoi(argv[4]), true);
		return check_done("test_vegdb --check");
	}
	char dir[] = "/tmp/pdnkit-vegdb-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	against_minimax(dir, "international", 3, 5, 150);
	consistent("international", dir, 3000, true);
	ending_count(dir);
	ending_conversion(dir);
	adjudication(dir);
	against_minimax(dir, "russian", 3, 5, 150);
	consistent("russian", dir, 2000, true);
	against_minimax(dir, "italian", 3, 5, 150);
	against_minimax(dir, "thai", 3, 5, 150);
	against_minimax(dir, "turkish", 2, 4, 150);   /* (64 squares: 3 pieces take 17 s) */
	against_english(dir);

	/* Frisian's positions hold king-move counts: refused, said why */
	char err[600] = "";
	CHECK(vegdb_build(variant_by_name("frisian"), 3, 1, dir, NULL, NULL, NULL, err, sizeof err) < 0);
	CHECK(strstr(err, "king-move counts") != NULL);

	/* a damaged file: refused with its name; a level not built is not claimed */
	const pk_variant *v = variant_by_name("international");
	char path[400];
	snprintf(path, sizeof path, "%s/international/MK-K.vdb", dir);
	FILE *f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (f) {
		fseek(f, -3, SEEK_END);
		fputc('x', f);
		fputc('y', f);
		fclose(f);
	}
	/* (a table is read when first needed: the damage is found then) */
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	CHECK(db != NULL);
	pk_vpos p;
	char ferr[200];
	CHECK(vfen_parse(v, "W:WK46,47:B3", &p, ferr, sizeof ferr) == 0);
	int value, plies;
	if (db) {
		CHECK(vegdb_probe(db, &p, &value, &plies) == 1);      /* MK-M: sound */
		CHECK(vegdb_error(db) == NULL);
		CHECK(vfen_parse(v, "W:WK46,47:BK3", &p, ferr, sizeof ferr) == 0);
		CHECK(vegdb_probe(db, &p, &value, &plies) == 0);      /* MK-K: damaged */
		CHECK_REPORT(vegdb_error(db) && strstr(vegdb_error(db), "MK-K.vdb: damaged"), "damaged: %s",
			     vegdb_error(db) ? vegdb_error(db) : "(none)");
	}
	vegdb_free(db);
	/* truncated: refused when opened */
	CHECK(truncate(path, 100) == 0);
	db = vegdb_open(v, dir, err, sizeof err);
	CHECK(db == NULL);
	CHECK_REPORT(strstr(err, "MK-K.vdb: truncated") != NULL, "truncated: %s", err);
	vegdb_free(db);
	remove(path);
	db = vegdb_open(v, dir, err, sizeof err);
	CHECK(db != NULL);
	CHECK_INT(vegdb_pieces(db), 2);     /* the 3-piece level lacks MK-K */
	CHECK(vfen_parse(v, "W:WK46,47:B3", &p, ferr, sizeof ferr) == 0);
	CHECK(vegdb_probe(db, &p, &value, &plies) == 0);
	vegdb_free(db);

	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return check_done("test_vegdb");
}
