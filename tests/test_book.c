/* Opening books: built from games and read back, the book holds exactly the positions
 * and moves of the games' first N plies with their counts and results (checked against
 * a direct scan), probes agree with the walk, filters do what they say, and damaged or
 * truncated files are refused, never followed. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "base/hash.h"
#include "analysis/expand.h"
#include "book/book.h"
#include "rules/fen.h"

/* The direct scan: (position key, ordinal) -> games, results. */
typedef struct {
	uint64_t key;
	int ordinal;
	uint32_t games, bw, dr, ww;
	long last_game;
} pair;

typedef struct {
	pair *p;
	int n, cap;
} pairs;

static pair *pair_get(pairs *ps, uint64_t key, int ordinal)
{
	for (int i = 0; i < ps->n; i++)
		if (ps->p[i].key == key && ps->p[i].ordinal == ordinal)
			return &ps->p[i];
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 256;
		ps->p = realloc(ps->p, sizeof *ps->p * (size_t)ps->cap);
	}
	ps->p[ps->n] = (pair){ key, ordinal, 0, 0, 0, 0, -1 };
	return &ps->p[ps->n++];
}

/* Build from the games of path (first `plies` plies), scan them directly too. */
static pk_bookb *build(const char *path, int plies, pairs *scan, long *ngames)
{
	int err;
	pk_reader *r = pdn_open(path, &err);
	if (!r)
		return NULL;
	pk_pos start;
	pos_start(&start);
	pk_bookb *b = bookb_new(&start, plies);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	long gi = 0;
	while (pdn_read(r, &g) > 0) {
		replay_game(&g, &rp);
		if (!rp.supported || rp.start.key != start.key)
			continue;
		gi++;
		bookb_add_game(b, &rp, rp.result);
		for (int i = 0; i < rp.nply && i < plies; i++) {
			pair *x = pair_get(scan, replay_pos_before(&rp, i + 1)->key, rp.plies[i].ordinal);
			if (x->last_game == gi)
				continue;
			x->last_game = gi;
			x->games++;
			x->bw += rp.result == RES_BLACK_WINS;
			x->dr += rp.result == RES_DRAW;
			x->ww += rp.result == RES_WHITE_WINS;
		}
	}
	*ngames = gi;
	game_free(&g);
	replay_free(&rp);
	pdn_close(r);
	return b;
}

typedef struct {
	pairs *scan;
	int walked, missing, wrong;
} walk_ctx;

static int on_move(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	(void)ply;
	(void)transposes;
	walk_ctx *w = ctx;
	w->walked++;
	pair *x = NULL;
	for (int i = 0; i < w->scan->n && !x; i++)
		if (w->scan->p[i].key == before->key && w->scan->p[i].ordinal == m->ordinal)
			x = &w->scan->p[i];
	if (!x)
		w->missing++;
	else if (x->games != m->games || x->bw != m->black_wins || x->dr != m->draws || x->ww != m->white_wins)
		w->wrong++;
	return 0;
}

static uint32_t fnv(const uint8_t *p, size_t n) { return fnv32(FNV32_INIT, p, n); }

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Of about `tries` bytes spread over the file, each flipped by mask in turn: how many
 * copies still load (0 for a file whose checksums catch all). */
static int flips_accepted(uint8_t *buf, size_t len, size_t tries, uint8_t mask)
{
	char err[400];
	int accepted = 0;
	for (size_t i = 0; i < len; i += 1 + len / tries) {
		buf[i] ^= mask;
		pk_book *x = book_load(buf, len, err, sizeof err);
		accepted += x != NULL;
		book_free(x);
		buf[i] ^= mask;
	}
	return accepted;
}

static void round_trip(const char *path, int plies)
{
	pairs scan = { 0 };
	long ngames = 0;
	pk_bookb *b = build(path, plies, &scan, &ngames);
	CHECK(b != NULL);
	if (!b)
		return;
	CHECK(ngames > 0);
	pk_book_filter none = { .side = -1 };
	uint8_t *buf;
	size_t len;
	pk_book_info wi;
	CHECK_INT(bookb_encode(b, &none, &buf, &len, &wi), 0);
	CHECK_INT(wi.moves, scan.n);
	char err[200];
	pk_book *bk = book_load(buf, len, err, sizeof err);
	CHECK_REPORT(bk != NULL, "%s: %s", path, err);
	if (bk) {
		pk_book_info ri;
		book_info(bk, &ri);
		CHECK_INT(ri.moves, wi.moves);
		CHECK_INT(ri.positions, wi.positions);
		CHECK_INT(ri.links, wi.links);
		/* the walk gives exactly the scanned pairs, with their counts */
		walk_ctx w = { &scan, 0, 0, 0 };
		CHECK_INT(book_walk(bk, on_move, &w), 0);
		CHECK_INT(w.walked, scan.n);
		CHECK_INT(w.missing, 0);
		CHECK_INT(w.wrong, 0);
		/* the root's moves, most played first, account for every game */
		int bad = 0;
		pk_book_move mv[PK_MAX_MOVES];
		int n = book_probe(bk, book_root(bk), mv, PK_MAX_MOVES);
		uint32_t total = 0;
		for (int i = 0; i < n; i++) {
			total += mv[i].games;
			if (i && mv[i].games > mv[i - 1].games)
				bad++;
		}
		CHECK_INT(bad, 0);
		CHECK_INT(total, ngames);
		book_free(bk);
	}
	/* A filter: moves of at least 2 games only. */
	pk_book_filter two = { .min_games = 2, .side = -1 };
	uint8_t *buf2;
	size_t len2;
	pk_book_info fi;
	CHECK_INT(bookb_encode(b, &two, &buf2, &len2, &fi), 0);
	pk_book *bk2 = book_load(buf2, len2, err, sizeof err);
	CHECK(bk2 != NULL);
	if (bk2) {
		walk_ctx w = { &scan, 0, 0, 0 };
		book_walk(bk2, on_move, &w);
		CHECK(w.walked == fi.moves && w.missing == 0 && w.wrong == 0);
		CHECK(fi.moves < wi.moves);
		book_free(bk2);
	}
	free(buf2);

	/* Damage: every single flipped byte is caught by a checksum. */
	CHECK_INT(flips_accepted(buf, len, 97, 0x20), 0);
	/* Truncation anywhere is reported as such. */
	int truncated_msgs = 0, cuts = 0;
	for (size_t cut = 0; cut < len; cut += 1 + len / 50) {
		pk_book *x = book_load(buf, cut, err, sizeof err);
		CHECK(x == NULL);
		book_free(x);
		cuts++;
		truncated_msgs += cut < BOOK_HEADER_BYTES || strstr(err, "truncated") != NULL;
	}
	CHECK_INT(truncated_msgs, cuts);
	/* Damage with the checksums made right again (a hostile file): refused or read,
	 * never followed out of bounds (the sanitizer build checks that). */
	uint32_t seed = 7;
	for (int t = 0; t < 300; t++) {
		uint8_t *copy = malloc(len);
		memcpy(copy, buf, len);
		seed = seed * 1103515245u + 12345u;
		size_t at = BOOK_HEADER_BYTES + (seed >> 8) % (len - BOOK_HEADER_BYTES);
		copy[at] ^= (uint8_t)(1 + (seed >> 3) % 255);
		put32(copy + 60, fnv(copy + BOOK_HEADER_BYTES, len - BOOK_HEADER_BYTES));
		put32(copy + 56, fnv(copy, 56));
		pk_book *x = book_load(copy, len, err, sizeof err);
		book_free(x);
		free(copy);
	}
	CHECK(1);
	free(buf);
	free(scan.p);
	bookb_free(b);
}

static void test_transposition(void)
{
	/* Two games reaching the same position by different orders: the position and its
	 * next move are stored once, with both games counted. */
	const char *pdn = "[Result \"1-0\"]\n1. 11-15 23-19 2. 9-14 22-17 3. 5-9 1-0\n\n"
			  "[Result \"0-1\"]\n1. 9-14 22-17 2. 11-15 23-19 3. 5-9 0-1\n";
	pk_reader *r = pdn_open_mem(pdn, strlen(pdn));
	pk_pos start;
	pos_start(&start);
	pk_bookb *b = bookb_new(&start, 10);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	while (pdn_read(r, &g) > 0) {
		replay_game(&g, &rp);
		bookb_add_game(b, &rp, rp.result);
	}
	pdn_close(r);
	pk_book_filter none = { .side = -1 };
	uint8_t *buf;
	size_t len;
	pk_book_info wi;
	CHECK_INT(bookb_encode(b, &none, &buf, &len, &wi), 0);
	/* 5 moves each, the last (5-9) shared: 9 moves, one of them a link */
	CHECK_INT(wi.moves, 9);
	CHECK_INT(wi.links, 1);
	char err[200];
	pk_book *bk = book_load(buf, len, err, sizeof err);
	CHECK(bk != NULL);
	if (bk) {
		pk_pos p = rp.plies[3].after;     /* after 11-15 23-19 9-14 22-17 / the other order */
		pk_book_move mv[4];
		CHECK_INT(book_probe(bk, &p, mv, 4), 1);
		CHECK_INT(mv[0].games, 2);
		CHECK(mv[0].black_wins == 1 && mv[0].white_wins == 1);
		char m[PK_MOVE_STRLEN];
		move_format(&mv[0].move, false, m, sizeof m);
		CHECK_STR(m, "5-9");
		book_free(bk);
	}
	pk_book_filter black = { .min_score = 0.75, .side = PK_BLACK };
	free(buf);
	CHECK_INT(bookb_encode(b, &black, &buf, &len, &wi), 0);
	/* min-score for Black only: the root's 11-15 (won by Black) stays with White's
	 * replies and Black's 9-14 after it; 9-14 first (lost) goes with its subtree; and the
	 * shared 5-9 (one win, one loss: 0.5 for Black) goes too: four moves */
	CHECK_INT(wi.moves, 4);
	free(buf);
	game_free(&g);
	replay_free(&rp);
	bookb_free(b);
}

/* The ranking is part of the file format: frozen (book/rank.c), whatever the engine's
 * evaluation does. Its check value is recorded here, and the shipped book must load. */
static void test_frozen_ranking(void)
{
	CHECK_U64(book_rank_check(), 0x917b56e6u);
	char err[400] = "";
	pk_book *bk = book_default(err, sizeof err);
	CHECK_REPORT(bk != NULL, "the shipped book is refused: %s", err);
	if (!bk)
		return;
	pk_pos p;
	pos_start(&p);
	pk_book_move mv[PK_MAX_MOVES];
	CHECK(book_probe(bk, &p, mv, PK_MAX_MOVES) > 0);
	book_free(bk);
}

/* ---- books of the other variants -------------------------------------------------- */

typedef struct {
	pairs *scan;
	long walked, missing, wrong;
} vwalk_ctx;

static int on_vmove(void *ctx, const pk_vpos *before, const pk_book_vmove *m, int ply, bool transposes)
{
	(void)ply;
	(void)transposes;
	vwalk_ctx *w = ctx;
	w->walked++;
	uint64_t key = vpos_state_key(before);
	pair *x = NULL;
	for (int i = 0; i < w->scan->n && !x; i++)
		if (w->scan->p[i].key == key && w->scan->p[i].ordinal == m->ordinal)
			x = &w->scan->p[i];
	if (!x)
		w->missing++;
	else if (x->games != m->games || x->bw != m->black_wins || x->dr != m->draws || x->ww != m->white_wins)
		w->wrong++;
	return 0;
}

/* For every variant: random games (a third of them sharing their first moves, so that
 * positions have several book moves and some games transpose), added as replays; the
 * book read back holds exactly the (position, move) pairs of a direct scan with their
 * counts, every scanned position probes to them, and a damaged or re-labelled file is
 * refused. */
static void variant_round_trip(const pk_variant *v)
{
	enum { GAMES = 90, PLIES = 14 };
	pairs scan = { 0 };
	pk_vpos start;
	vpos_start(v, &start);
	pk_bookb *b = bookb_vnew(&start, PLIES);
	CHECK(b != NULL && bookb_variant(b) == v);
	pk_vmovelist *ml = malloc(sizeof *ml);
	uint32_t seed = 12345u + (uint32_t)v->gametype;
	for (long gi = 0; gi < GAMES; gi++) {
		int ord[PLIES];
		pk_vpos p = start;
		int n = 0;
		uint64_t keys[PLIES];
		for (; n < PLIES; n++) {
			int k = vgen(&p, ml);
			if (k == 0)
				break;
			seed = seed * 1103515245u + 12345u;
			/* the first moves from a small set: shared openings */
			int pick = n < 3 ? (int)((seed >> 16) % (k < 2 ? k : 2)) : (int)((seed >> 16) % (uint32_t)k);
			ord[n] = pick;
			keys[n] = vpos_state_key(&p);
			pk_vpos q;
			vmake(&p, &ml->m[pick], &q);
			p = q;
		}
		int result = (int)(gi % 3) == 0 ? RES_BLACK_WINS : gi % 3 == 1 ? RES_DRAW : RES_WHITE_WINS;
		for (int i = 0; i < n; i++) {
			pair *x = pair_get(&scan, keys[i], ord[i]);
			if (x->last_game == gi)
				continue;
			x->last_game = gi;
			x->games++;
			x->bw += result == RES_BLACK_WINS;
			x->dr += result == RES_DRAW;
			x->ww += result == RES_WHITE_WINS;
		}
		pk_vreplay rp;
		memset(&rp, 0, sizeof rp);
		rp.start = start;
		rp.plies = n;
		rp.ord = ord;
		CHECK_INT(bookb_add_vgame(b, &rp, result), 0);
	}
	CHECK_INT(bookb_games(b), GAMES);
	uint8_t *buf = NULL;
	size_t len = 0;
	pk_book_filter none = { .side = -1 };
	pk_book_info wi;
	CHECK_INT(bookb_encode(b, &none, &buf, &len, &wi), 0);
	CHECK_INT(wi.moves, scan.n);
	CHECK_INT(wi.gametype, v->gametype);
	char err[400] = "";
	pk_book *bk = book_load(buf, len, err, sizeof err);
	CHECK_REPORT(bk != NULL, "%s: %s", v->name, err);
	if (bk) {
		CHECK(book_variant(bk) == v);
		pk_book_info ri;
		book_info(bk, &ri);
		CHECK_INT(ri.moves, wi.moves);
		CHECK_INT(ri.links, wi.links);
		CHECK_INT(ri.gametype, v->gametype);
		vwalk_ctx w = { &scan, 0, 0, 0 };
		CHECK_INT(book_vwalk(bk, on_vmove, &w), 0);
		CHECK_INT(w.walked, scan.n);
		CHECK_INT(w.missing, 0);
		CHECK_INT(w.wrong, 0);
		/* English functions find nothing in it */
		pk_pos e;
		pos_start(&e);
		pk_book_move em[4];
		CHECK_INT(book_probe(bk, &e, em, 4), 0);
		/* every scanned pair probes to its counts, along a replay of the scan's games */
		pk_book_vmove *mv = malloc(sizeof *mv * 256);
		long bad = 0;
		seed = 12345u + (uint32_t)v->gametype;
		for (long gi = 0; gi < GAMES; gi++) {
			pk_vpos p = start;
			for (int n = 0; n < PLIES; n++) {
				int k = vgen(&p, ml);
				if (k == 0)
					break;
				seed = seed * 1103515245u + 12345u;
				int pick = n < 3 ? (int)((seed >> 16) % (k < 2 ? k : 2)) : (int)((seed >> 16) % (uint32_t)k);
				int nb = book_vprobe(bk, &p, mv, 256), found = 0;
				for (int j = 0; j < nb; j++)
					found += mv[j].ordinal == pick && vmove_same(&mv[j].move, &ml->m[pick]);
				bad += found != 1;
				pk_vpos q;
				vmake(&p, &ml->m[pick], &q);
				p = q;
			}
		}
		CHECK_INT(bad, 0);
		free(mv);
		book_free(bk);
	}
	/* a flipped byte anywhere is caught */
	CHECK_INT(flips_accepted(buf, len, 61, 0x10), 0);
	/* another GameType in a header made consistent again: refused for its ranking check
	 * (or as a game pdnkit does not play), never decoded under the wrong rules */
	static const unsigned other[] = { 21, 99, 20, 25 };
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		if ((int)other[i] == v->gametype)
			continue;
		uint8_t *copy = malloc(len);
		memcpy(copy, buf, len);
		copy[48] = (uint8_t)other[i];
		copy[49] = 0;
		put32(copy + 56, fnv(copy, 56));
		pk_book *x = book_load(copy, len, err, sizeof err);
		CHECK_REPORT(x == NULL, "%s book read as GameType %u", v->name, other[i]);
		book_free(x);
		free(copy);
	}
	free(buf);
	free(ml);
	free(scan.p);
	bookb_free(b);
}

/* The variant ranking (version 1) is frozen like the English one. */
static void test_frozen_vranking(void)
{
	static const struct {
		int gametype;
		uint32_t check;
	} frozen[] = {
		{ 20, 0xbe677f63u }, { 22, 0x7173b6e4u }, { 23, 0x6c096d81u }, { 24, 0xf79783c6u },
		{ 25, 0x9afa3f19u }, { 26, 0xf56d6054u }, { 27, 0x43a33967u }, { 28, 0x135261a2u },
		{ 29, 0xe304d5f9u }, { 30, 0x7bbf581du }, { 31, 0xcbdc0858u }, { 40, 0xb3d9aaf7u },
	};
	for (size_t i = 0; i < sizeof frozen / sizeof frozen[0]; i++) {
		const pk_variant *v = variant_by_gametype(frozen[i].gametype);
		CHECK(v != NULL);
		if (v)
			CHECK_U64(book_vrank_check(v), frozen[i].check);
	}
}

/* Drop-out expansion: a move found after the first may score above it (the searches
 * differ in what they leave out); the losses along a path are from the best of them, so
 * no leaf gets a priority below 0 and jumps ahead of the shallow ones. A scripted
 * searcher: the first search answers the first legal move at 0, the second (with it left
 * out) the second legal move at +50. */
static int scripted_search(void *sctx, const pk_gpos *pos, const pk_gmove *exclude, int nexclude, pk_gresult *r)
{
	(void)sctx;
	(void)exclude;
	pk_movelist ml;
	int n = gen_moves(&pos->e, &ml);
	memset(r, 0, sizeof *r);
	if (nexclude >= n || nexclude >= 2)
		return 0;
	r->has_move = true;
	r->best.e = ml.m[nexclude];
	r->last.score = nexclude == 0 ? 0 : 50;
	return 0;
}

static long lowest_priority;
static void note_priority(void *ctx, const pk_expand_step *st)
{
	(void)ctx;
	if (st->priority < lowest_priority)
		lowest_priority = st->priority;
}

static void test_expand_losses(void)
{
	pk_pos root;
	pos_start(&root);
	pk_gpos groot;
	gpos_english(&groot, &root);
	pk_bookb *b = bookb_new(&root, 1000);
	CHECK(b != NULL);
	pk_expand_opts o = { .positions = 40, .margin = 100, .width = 2, .dropout = 10, .on_step = note_priority,
			     .search = scripted_search };
	lowest_priority = 0;
	CHECK_INT((int)expand_book(NULL, b, &groot, &o), 40);
	CHECK(lowest_priority >= 0);
	bookb_free(b);
}

int main(void)
{
	const char *tests = getenv("TESTS_DIR") ? getenv("TESTS_DIR") : "tests";
	const char *corpora = getenv("CORPORA") ? getenv("CORPORA") : "../shared/corpora";
	char path[1024];
	test_transposition();
	test_expand_losses();
	test_frozen_ranking();
	test_frozen_vranking();
	for (int i = 0; variant_at(i); i++)
		if (variant_at(i)->replayable && variant_at(i)->gametype != 21)
			variant_round_trip(variant_at(i));
	snprintf(path, sizeof path, "%s/../corpora/fixtures/duplicates.pdn", tests);
	round_trip(path, 40);
	snprintf(path, sizeof path, "%s/tinsley.pdn", corpora);
	FILE *f = fopen(path, "r");
	if (f) {
		fclose(f);
		round_trip(path, 12);
		round_trip(path, 30);
	} else {
		printf("SKIP round trips of real games: %s not found\n", path);
	}
	return check_done("test_book");
}
