/* Opening books: decoding and probing. The format is pdnkit-book(5). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book/book_int.h"
#include "rules/fen.h"

/* ---- decoding --------------------------------------------------------------------- */

typedef struct {
	uint8_t ordinal;
	int16_t score;
	uint32_t games, bw, dr, ww;
} smove;

struct pk_book {
	pk_pos root;
	uint32_t id;
	table t;                 /* first: index into m */
	smove *m;
	size_t nm, mcap;
	pk_book_info info;
};

typedef struct {
	pk_book *bk;
	rc_dec tree, stats;
	model m;
	int plies;
	bool scores;
	long max_positions, max_moves;
	const char *err;
} decoder;

static int decode_node(decoder *d, const pk_pos *p, int ply, int parent_k, uint32_t parent_games)
{
	pk_book *bk = d->bk;
	if (ply > MAX_DEPTH) {
		d->err = "the tree is deeper than any book";
		return -1;
	}
	if (d->tree.overrun > 8 || d->stats.overrun > 8) {
		d->err = "truncated data";
		return -1;
	}
	bk->info.positions++;
	if (bk->info.positions > d->max_positions) {
		d->err = "more positions than the header says";
		return -1;
	}
	if (ply > bk->info.max_ply)
		bk->info.max_ply = ply;
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	node *nd = bk_table_find(&bk->t, p->key);   /* inserted by the caller */
	if (n == 0)
		return 0;
	int sc = shape_ctx(ply, d->plies, parent_k);
	int nk = 0;
	while (nk < n && rc_dec_bit(&d->tree, &d->m.shape[sc][nk < 7 ? nk : 7]))
		nk++;
	if (nk == 0)
		return 0;
	if (bk->info.moves + nk > d->max_moves) {
		d->err = "more moves than the header says";
		return -1;
	}
	if (bk->nm + (size_t)nk > bk->mcap) {
		size_t cap = bk->mcap * 2 > bk->nm + (size_t)nk ? bk->mcap * 2 : bk->nm + (size_t)nk + 1024;
		smove *nm = realloc(bk->m, sizeof *nm * cap);
		if (!nm) {
			d->err = "out of memory";
			return -1;
		}
		bk->m = nm;
		bk->mcap = cap;
	}
	int rank[PK_MAX_MOVES], by_rank[PK_MAX_MOVES];
	book_rank_moves(p, &ml, rank);
	for (int i = 0; i < n; i++)
		by_rank[rank[i]] = i;
	size_t first = bk->nm;
	int prev = -1;
	for (int j = 0; j < nk; j++) {
		int range = n - prev - 1 - (nk - j - 1);
		int gap = 0;
		if (range > 1)
			gap = (int)rc_dec_tree(&d->tree, d->m.gap[range < 16 ? range : 16][j == 0], bits_for(range));
		if (gap >= range) {
			d->err = "a move outside the legal moves";
			return -1;
		}
		prev += gap + 1;
		bk->m[bk->nm++] = (smove){ .ordinal = (uint8_t)by_rank[prev], .score = INT16_MIN };
	}
	bk->info.uniform_bits += log2_choose(n, nk);
	bk->info.ordinal_bits += nk * log2(n);
	bk->info.inner++;
	bk->info.moves += nk;
	if (n == 1)
		bk->info.forced += nk;
	/* statistics, in the same order */
	model *m = &d->m;
	for (int j = 0; j < nk; j++) {
		smove *x = &bk->m[first + (size_t)j];
		x->games = rc_dec_gamma(&d->stats, m->games[games_ctx(parent_games)]);
		uint32_t unknown = rc_dec_gamma(&d->stats, m->unknown);
		if (unknown > x->games) {
			d->err = "inconsistent statistics";
			return -1;
		}
		uint32_t known = x->games - unknown;
		if (known == 1) {
			uint32_t sym = rc_dec_tree(&d->stats, m->one[games_ctx(parent_games)], 2);
			x->bw = sym == 0;
			x->dr = sym == 1;
			x->ww = sym >= 2;
		} else if (known > 1) {
			x->bw = rc_dec_gamma(&d->stats, m->bw);
			x->dr = rc_dec_gamma(&d->stats, m->dr);
			if ((uint64_t)x->bw + x->dr > known) {
				d->err = "inconsistent statistics";
				return -1;
			}
			x->ww = known - x->bw - x->dr;
		}
		if (d->scores) {
			uint32_t s = rc_dec_gamma(&d->stats, m->score);
			x->score = s == 0 ? INT16_MIN : (int16_t)unzigzag(s - 1);
		}
	}
	nd->first = (int)first;
	nd->n = nk;
	for (int j = 0; j < nk; j++) {
		const smove *x = &bk->m[first + (size_t)j];
		pk_pos c;
		pos_make(p, &ml.m[x->ordinal], &c);
		bool created;
		node *cn = bk_table_get(&bk->t, c.key, &created);
		if (!cn) {
			d->err = "out of memory";
			return -1;
		}
		if (!created) {
			bk->info.links++;
			continue;
		}
		if (decode_node(d, &c, ply + 1, nk, x->games) < 0)
			return -1;
	}
	return 0;
}

static pk_book *fail_load(pk_book *bk, char *err, size_t size, const char *fmt, const char *what)
{
	snprintf(err, size, fmt, what);
	book_free(bk);
	return NULL;
}

pk_book *book_load(const uint8_t *data, size_t len, char *err, size_t errsize)
{
	if (len < BOOK_HEADER_BYTES || memcmp(data, book_magic, 8) != 0)
		return fail_load(NULL, err, errsize, "%s", len < 8 ? "too short to be a book" : "not a pdnkit book (bad book_magic number)");
	if (get32(data + 56) != checksum(data, 56))
		return fail_load(NULL, err, errsize, "%s", "the header is damaged (header checksum mismatch)");
	unsigned version = get16(data + 8), order = get16(data + 10), rankv = get16(data + 12);
	if (version != BOOK_FORMAT_VERSION) {
		char m[80];
		snprintf(m, sizeof m, "format version %u, this pdnkit reads version %d", version, BOOK_FORMAT_VERSION);
		return fail_load(NULL, err, errsize, "%s", m);
	}
	if (order != GEN_ORDER_VERSION || rankv != BOOK_RANK_VERSION || get32(data + 40) != book_rank_check())
		return fail_load(NULL, err, errsize, "%s",
				 "made with another move order or ranking than this pdnkit's: rebuild it");
	unsigned flags = get16(data + 14), plies = get16(data + 16), flen = get16(data + 18);
	uint32_t positions = get32(data + 20), moves = get32(data + 24), links = get32(data + 28);
	uint32_t tree_len = get32(data + 32), stats_len = get32(data + 36);
	uint64_t want = (uint64_t)BOOK_HEADER_BYTES + flen + tree_len + stats_len;
	if (want > len) {
		char m[120];
		snprintf(m, sizeof m, "truncated: %zu bytes, the header announces %llu", len, (unsigned long long)want);
		return fail_load(NULL, err, errsize, "%s", m);
	}
	if (want < len)
		return fail_load(NULL, err, errsize, "%s", "trailing bytes after the book");
	if (get32(data + 60) != checksum(data + BOOK_HEADER_BYTES, len - BOOK_HEADER_BYTES))
		return fail_load(NULL, err, errsize, "%s", "the data is damaged (checksum mismatch)");
	/* Every move but a link adds a position; a move's statistics take some bits. The
	 * counts are checked again after decoding; here they bound the work and memory. */
	if (flags > 1 || flen >= PK_FEN_STRLEN || links > moves || positions != moves - links + 1 ||
	    moves > 256 * ((uint64_t)stats_len + 64))
		return fail_load(NULL, err, errsize, "%s", "impossible header values");
	pk_book *bk = calloc(1, sizeof *bk);
	if (!bk)
		return fail_load(NULL, err, errsize, "%s", "out of memory");
	pk_fen_error fe;
	if (fen_parse((const char *)data + BOOK_HEADER_BYTES, flen, &bk->root, &fe) < 0)
		return fail_load(bk, err, errsize, "its root position does not read: %s", fe.msg);
	if (bk_table_init(&bk->t, positions < (1u << 16) ? positions + 16 : 1u << 16) < 0)
		return fail_load(bk, err, errsize, "%s", "out of memory");
	decoder d;
	memset(&d, 0, sizeof d);
	d.bk = bk;
	d.plies = (int)plies;
	d.scores = flags & 1;
	d.max_positions = positions;
	d.max_moves = moves;
	bk_model_init(&d.m);
	const uint8_t *tree = data + BOOK_HEADER_BYTES + flen;
	rc_dec_init(&d.tree, tree, tree_len);
	rc_dec_init(&d.stats, tree + tree_len, stats_len);
	bk_table_get(&bk->t, bk->root.key, NULL);
	if (decode_node(&d, &bk->root, 0, 0, get32(data + 44)) < 0)
		return fail_load(bk, err, errsize, "damaged: %s", d.err);
	if ((uint32_t)bk->info.positions != positions || (uint32_t)bk->info.moves != moves ||
	    (uint32_t)bk->info.links != links || d.tree.overrun > 4 || d.stats.overrun > 4)
		return fail_load(bk, err, errsize, "%s", "damaged: the tree does not match its counts");
	bk->id = get32(data + 60);
	bk->info.plies = (int)plies;
	bk->info.scores = d.scores;
	bk->info.bytes = len;
	bk->info.header_bytes = BOOK_HEADER_BYTES + flen;
	bk->info.tree_bytes = tree_len;
	bk->info.stats_bytes = stats_len;
	snprintf(bk->info.root_fen, sizeof bk->info.root_fen, "%.*s", (int)flen, (const char *)data + BOOK_HEADER_BYTES);
	return bk;
}

pk_book *book_open(const char *path, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errsize, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			uint8_t *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errsize, "out of memory");
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		snprintf(err, errsize, "cannot read '%s'", path);
		return NULL;
	}
	char why[200];
	pk_book *bk = book_load(buf, len, why, sizeof why);
	free(buf);
	if (!bk)
		snprintf(err, errsize, "%s: %s", path, why);
	return bk;
}

void book_free(pk_book *bk)
{
	if (!bk)
		return;
	bk_table_free(&bk->t);
	free(bk->m);
	free(bk);
}

void book_info(const pk_book *bk, pk_book_info *info) { *info = bk->info; }
const pk_pos *book_root(const pk_book *bk) { return &bk->root; }

static int by_popularity(const void *a, const void *b)
{
	const pk_book_move *x = a, *y = b;
	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->ordinal - y->ordinal;
}

int book_probe(const pk_book *bk, const pk_pos *p, pk_book_move *out, int cap)
{
	const node *nd = bk_table_find(&bk->t, p->key);
	if (!nd || nd->n <= 0)
		return 0;
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	pk_book_move all[PK_MAX_MOVES];
	int k = 0;
	for (int j = 0; j < nd->n && k < PK_MAX_MOVES; j++) {
		const smove *x = &bk->m[(size_t)nd->first + (size_t)j];
		if (x->ordinal >= n)
			continue;    /* a key collision with another position */
		all[k++] = (pk_book_move){ ml.m[x->ordinal], x->ordinal, x->games, x->bw, x->dr, x->ww,
					   x->score == INT16_MIN ? BOOK_NO_SCORE : x->score };
	}
	qsort(all, (size_t)k, sizeof *all, by_popularity);
	memcpy(out, all, sizeof *all * (size_t)(k < cap ? k : cap));
	return k;
}

typedef struct {
	const pk_book *bk;
	table seen;
	book_walk_fn enter;
	void *ctx;
	int stop;
} walker;

static void walk(walker *w, const pk_pos *p, int ply)
{
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(w->bk, p, mv, PK_MAX_MOVES);
	for (int j = 0; j < n && !w->stop; j++) {
		pk_pos c;
		pos_make(p, &mv[j].move, &c);
		bool created;
		if (!bk_table_get(&w->seen, c.key, &created)) {
			w->stop = -1;
			return;
		}
		if ((w->stop = w->enter(w->ctx, p, &mv[j], ply, !created)) != 0)
			return;
		if (created && ply < MAX_DEPTH)
			walk(w, &c, ply + 1);
	}
}

int book_walk(const pk_book *bk, book_walk_fn enter, void *ctx)
{
	walker w = { bk, { 0 }, enter, ctx, 0 };
	if (bk_table_init(&w.seen, bk->t.count + 16) < 0)
		return -1;
	bk_table_get(&w.seen, bk->root.key, NULL);
	walk(&w, &bk->root, 0);
	bk_table_free(&w.seen);
	return w.stop < 0 ? -1 : 0;
}

bool book_choose(const pk_book *bk, const pk_pos *p, pk_move *out)
{
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(bk, p, mv, PK_MAX_MOVES);
	if (n == 0)
		return false;
	int best = 0;
	for (int i = 1; i < n; i++) {
		const pk_book_move *a = &mv[i], *b = &mv[best];
		if (a->games > b->games || (a->games == b->games && a->score > b->score))
			best = i;
	}
	*out = mv[best].move;
	return true;
}

bool book_has_move(const pk_book *bk, const pk_pos *p, const pk_move *m)
{
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(bk, p, mv, PK_MAX_MOVES);
	for (int i = 0; i < n; i++)
		if (move_same_effect(&mv[i].move, m))
			return true;
	return false;
}

uint32_t book_id(const pk_book *bk) { return bk->id; }

extern const unsigned char pk_book_default_data[];
extern const size_t pk_book_default_size;

pk_book *book_default(char *err, size_t errsize)
{
	if (pk_book_default_size == 0) {
		snprintf(err, errsize, "this pdnkit was built without a book (make book)");
		return NULL;
	}
	char why[300];
	pk_book *bk = book_load(pk_book_default_data, pk_book_default_size, why, sizeof why);
	if (!bk)
		snprintf(err, errsize, "the built-in book is refused: %s", why);
	return bk;
}

