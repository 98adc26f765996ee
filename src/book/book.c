/* Opening books: building, coding, decoding and probing. The format is pdnkit-book(5). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/hash.h"
#include "book/book.h"
#include "rules/fen.h"
#include "book/rc.h"

#define MAX_DEPTH 1024            /* depth-first recursion bound (hostile files included) */

static const uint8_t magic[8] = { 'P', 'D', 'N', 'B', 'O', 'O', 'K', 0 };

/* ---- positions by key: open addressing ------------------------------------------ */

typedef struct {
	uint64_t key;
	int first;                 /* first move (builder: list head; book: index) or -1 */
	int n;                     /* moves */
} node;

typedef struct {
	node *slot;
	size_t mask, count;
} table;

static int table_init(table *t, size_t want)
{
	size_t n = 1024;
	while (n < want * 2)
		n *= 2;
	t->slot = malloc(sizeof *t->slot * n);
	if (!t->slot)
		return -1;
	for (size_t i = 0; i < n; i++)
		t->slot[i].first = -2;    /* empty */
	t->mask = n - 1;
	t->count = 0;
	return 0;
}

static void table_free(table *t)
{
	free(t->slot);
	t->slot = NULL;
}

static node *table_find(const table *t, uint64_t key)
{
	for (size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;; i = (i + 1) & t->mask) {
		if (t->slot[i].first == -2)
			return NULL;
		if (t->slot[i].key == key)
			return &t->slot[i];
	}
}

static int table_grow(table *t);

/* The node for key, created (first = -1, n = 0) when missing; NULL when out of memory. */
static node *table_get(table *t, uint64_t key, bool *created)
{
	if ((t->count + 1) * 2 > t->mask + 1 && table_grow(t) < 0)
		return NULL;
	size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & t->mask;
	for (;; i = (i + 1) & t->mask) {
		if (t->slot[i].first == -2)
			break;
		if (t->slot[i].key == key) {
			if (created)
				*created = false;
			return &t->slot[i];
		}
	}
	t->slot[i] = (node){ key, -1, 0 };
	t->count++;
	if (created)
		*created = true;
	return &t->slot[i];
}

static int table_grow(table *t)
{
	table nt;
	if (table_init(&nt, (t->mask + 1)) < 0)
		return -1;
	for (size_t i = 0; i <= t->mask; i++)
		if (t->slot[i].first != -2) {
			node *n = table_get(&nt, t->slot[i].key, NULL);
			*n = t->slot[i];
		}
	free(t->slot);
	*t = nt;
	return 0;
}

/* ---- the builder ------------------------------------------------------------------ */

typedef struct {
	int next;
	uint8_t ordinal;
	uint32_t games, bw, dr, ww;
	int16_t score;
} bmove;

struct pk_bookb {
	pk_pos root;
	int plies;
	table t;
	bmove *m;
	size_t nm, cap;
	long games;
};

pk_bookb *bookb_new(const pk_pos *root, int plies)
{
	pk_bookb *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	if (table_init(&b->t, 1 << 16) < 0) {
		free(b);
		return NULL;
	}
	b->root = *root;
	b->plies = plies;
	return b;
}

void bookb_free(pk_bookb *b)
{
	if (!b)
		return;
	table_free(&b->t);
	free(b->m);
	free(b);
}

long bookb_games(const pk_bookb *b) { return b->games; }

int bookb_add_move(pk_bookb *b, const pk_pos *p, int ordinal, uint32_t games, uint32_t bw, uint32_t dr,
		   uint32_t ww, int score)
{
	node *n = table_get(&b->t, p->key, NULL);
	if (!n)
		return -1;
	for (int i = n->first; i >= 0; i = b->m[i].next)
		if (b->m[i].ordinal == ordinal) {
			b->m[i].games += games;
			b->m[i].bw += bw;
			b->m[i].dr += dr;
			b->m[i].ww += ww;
			if (score != BOOK_NO_SCORE)
				b->m[i].score = (int16_t)score;
			return 0;
		}
	if (b->nm == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1 << 16;
		bmove *nm = realloc(b->m, sizeof *nm * cap);
		if (!nm)
			return -1;
		b->m = nm;
		b->cap = cap;
	}
	b->m[b->nm] = (bmove){ n->first, (uint8_t)ordinal, games, bw, dr, ww,
			       (int16_t)(score == BOOK_NO_SCORE ? INT16_MIN : score) };
	n->first = (int)b->nm++;
	n->n++;
	return 0;
}

int bookb_add_game(pk_bookb *b, const pk_replay *rp, int result)
{
	/* from the first time the game reaches the root */
	int from = -1;
	if (rp->start.key == b->root.key)
		from = 0;
	for (int i = 0; from < 0 && i < rp->nply; i++)
		if (rp->plies[i].after.key == b->root.key)
			from = i + 1;
	if (from < 0)
		return 0;
	b->games++;
	uint32_t bw = result == RES_BLACK_WINS, dr = result == RES_DRAW, ww = result == RES_WHITE_WINS;
	for (int i = from; i < rp->nply && i < from + b->plies; i++) {
		const pk_ply *pl = &rp->plies[i];
		if (pl->ordinal < 0 || pl->ordinal > 255)
			break;      /* a set-up in the middle: the book stops there */
		/* a position met twice in one game counts the game once */
		bool again = false;
		const pk_pos *before = replay_pos_before(rp, i + 1);
		for (int j = from; j < i && !again; j++)
			again = replay_pos_before(rp, j + 1)->key == before->key && rp->plies[j].ordinal == pl->ordinal;
		if (!again && bookb_add_move(b, before, pl->ordinal, 1, bw, dr, ww, BOOK_NO_SCORE) < 0)
			return -1;
	}
	return 0;
}

/* ---- coding ----------------------------------------------------------------------- */

/* Contexts of the tree stream and of the statistics stream. */
typedef struct {
	rc_prob shape[6][8];                /* [context][i]: more than i moves? */
	rc_prob gap[17][2][32];             /* [min(range, 16)][first?]: a bit tree */
	rc_prob games[3][RC_GAMMA_PROBS];
	rc_prob unknown[RC_GAMMA_PROBS];
	rc_prob one[3][4];                  /* the result of a single game, by context */
	rc_prob bw[RC_GAMMA_PROBS], dr[RC_GAMMA_PROBS];
	rc_prob score[RC_GAMMA_PROBS];
} model;

static void model_init(model *m)
{
	rc_probs_init(&m->shape[0][0], sizeof m->shape / sizeof(rc_prob));
	rc_probs_init(&m->gap[0][0][0], sizeof m->gap / sizeof(rc_prob));
	rc_probs_init(&m->games[0][0], sizeof m->games / sizeof(rc_prob));
	rc_probs_init(m->unknown, RC_GAMMA_PROBS);
	rc_probs_init(&m->one[0][0], sizeof m->one / sizeof(rc_prob));
	rc_probs_init(m->bw, RC_GAMMA_PROBS);
	rc_probs_init(m->dr, RC_GAMMA_PROBS);
	rc_probs_init(m->score, RC_GAMMA_PROBS);
}

static int shape_ctx(int ply, int plies, int parent_k)
{
	if (ply >= plies)
		return 5;
	return parent_k > 3 ? 4 : parent_k;   /* 0..4 (0: the root) */
}

static int bits_for(int range)
{
	int b = 0;
	while ((1 << b) < range)
		b++;
	return b;
}

static int games_ctx(uint32_t parent_games)
{
	return parent_games <= 1 ? 0 : parent_games <= 4 ? 1 : 2;
}

static uint32_t zigzag(int v) { return v >= 0 ? (uint32_t)v * 2 : (uint32_t)(-(int64_t)v * 2 - 1); }
static int unzigzag(uint32_t v) { return v & 1 ? -(int)((v + 1) / 2) : (int)(v / 2); }

typedef struct {
	uint8_t ordinal;
	uint8_t rank;
	uint32_t games, bw, dr, ww;
	int16_t score;
} kept;

typedef struct {
	pk_bookb *b;
	const pk_book_filter *f;
	rc_enc tree, stats;
	model m;
	table seen;
	pk_book_info *info;
	bool scores;
	int err;                 /* 1 memory, 2 too deep */
} encoder;

static bool keep_move(const pk_book_filter *f, int stm, const bmove *m)
{
	if (f->min_games > 0 && m->games < (uint32_t)f->min_games)
		return false;
	if (f->min_score > 0 && (f->side < 0 || f->side == stm)) {
		uint32_t known = m->bw + m->dr + m->ww;
		double wins = stm == PK_BLACK ? m->bw : m->ww;
		double s = known ? (wins + 0.5 * m->dr) / known : 0.5;
		if (s < f->min_score)
			return false;
	}
	return true;
}

static void code_stats(encoder *e, const kept *k, int nk, uint32_t parent_games)
{
	model *m = &e->m;
	for (int j = 0; j < nk; j++) {
		const kept *x = &k[j];
		rc_enc_gamma(&e->stats, m->games[games_ctx(parent_games)], x->games);
		uint32_t known = x->bw + x->dr + x->ww;
		rc_enc_gamma(&e->stats, m->unknown, x->games - known);
		if (known == 1) {
			int c = games_ctx(parent_games);
			int sym = x->bw ? 0 : x->dr ? 1 : 2;
			rc_enc_tree(&e->stats, m->one[c], 2, (uint32_t)sym);
		} else if (known > 1) {
			rc_enc_gamma(&e->stats, m->bw, x->bw);
			rc_enc_gamma(&e->stats, m->dr, x->dr);
			/* white wins = known - bw - dr */
		}
		if (e->scores)
			rc_enc_gamma(&e->stats, m->score, x->score == INT16_MIN ? 0 : zigzag(x->score) + 1);
	}
}

static int cmp_rank(const void *a, const void *b)
{
	return (int)((const kept *)a)->rank - (int)((const kept *)b)->rank;
}

static double log2_choose(int n, int k)
{
	return (lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)) / log(2.0);
}

static void encode_node(encoder *e, const pk_pos *p, int ply, int parent_k, uint32_t parent_games)
{
	if (e->err)
		return;
	if (ply > MAX_DEPTH) {
		e->err = 2;
		return;
	}
	pk_bookb *b = e->b;
	e->info->positions++;
	if (ply > e->info->max_ply)
		e->info->max_ply = ply;
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	if (n == 0)
		return;
	node *nd = table_find(&b->t, p->key);
	kept k[PK_MAX_MOVES];
	int nk = 0;
	int rank[PK_MAX_MOVES];
	book_rank_moves(p, &ml, rank);
	for (int i = nd ? nd->first : -1; i >= 0; i = b->m[i].next) {
		const bmove *m = &b->m[i];
		if (m->ordinal >= n || !keep_move(e->f, p->stm, m))
			continue;
		k[nk++] = (kept){ m->ordinal, (uint8_t)rank[m->ordinal], m->games, m->bw, m->dr, m->ww, m->score };
	}
	qsort(k, (size_t)nk, sizeof *k, cmp_rank);
	/* shape: the number of book moves, in unary */
	int sc = shape_ctx(ply, b->plies, parent_k);
	for (int i = 0; i < n; i++) {
		int more = nk > i;
		rc_enc_bit(&e->tree, &e->m.shape[sc][i < 7 ? i : 7], more);
		if (!more)
			break;
	}
	/* ranks: gaps within what is left */
	int prev = -1;
	for (int j = 0; j < nk; j++) {
		int range = n - prev - 1 - (nk - j - 1);
		int gap = k[j].rank - prev - 1;
		if (range > 1)
			rc_enc_tree(&e->tree, e->m.gap[range < 16 ? range : 16][j == 0], bits_for(range), (uint32_t)gap);
		prev = k[j].rank;
	}
	if (nk) {
		e->info->uniform_bits += log2_choose(n, nk);
		e->info->ordinal_bits += nk * log2(n);
		e->info->inner++;
	}
	e->info->moves += nk;
	if (n == 1)
		e->info->forced += nk;
	code_stats(e, k, nk, parent_games);
	for (int j = 0; j < nk && !e->err; j++) {
		pk_pos c;
		pos_make(p, &ml.m[k[j].ordinal], &c);
		bool created;
		if (!table_get(&e->seen, c.key, &created)) {
			e->err = 1;
			return;
		}
		if (!created) {
			e->info->links++;
			continue;
		}
		encode_node(e, &c, ply + 1, nk, k[j].games);
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

static uint32_t checksum(const uint8_t *p, size_t n) { return fnv32(FNV32_INIT, p, n); }

int bookb_encode(pk_bookb *b, const pk_book_filter *f, uint8_t **out, size_t *len, pk_book_info *info)
{
	encoder e;
	memset(&e, 0, sizeof e);
	memset(info, 0, sizeof *info);
	e.b = b;
	e.f = f;
	e.info = info;
	for (size_t i = 0; i < b->nm && !e.scores; i++)
		e.scores = b->m[i].score != INT16_MIN;
	model_init(&e.m);
	rc_enc_init(&e.tree);
	rc_enc_init(&e.stats);
	if (table_init(&e.seen, b->t.count + 16) < 0)
		return -1;
	table_get(&e.seen, b->root.key, NULL);
	encode_node(&e, &b->root, 0, 0, (uint32_t)(b->games > 0xFFFFFFF ? 0xFFFFFFF : b->games));
	table_free(&e.seen);
	int rc = -1;
	if (!e.err && rc_enc_finish(&e.tree) == 0 && rc_enc_finish(&e.stats) == 0) {
		char fen[PK_FEN_STRLEN];
		size_t flen = (size_t)fen_format(&b->root, fen, sizeof fen);
		size_t total = BOOK_HEADER_BYTES + flen + e.tree.len + e.stats.len;
		uint8_t *buf = calloc(1, total);
		if (buf) {
			memcpy(buf, magic, 8);
			put16(buf + 8, BOOK_FORMAT_VERSION);
			put16(buf + 10, GEN_ORDER_VERSION);
			put16(buf + 12, BOOK_RANK_VERSION);
			put16(buf + 14, e.scores ? 1 : 0);
			put16(buf + 16, (unsigned)b->plies);
			put16(buf + 18, (unsigned)flen);
			put32(buf + 20, (uint32_t)info->positions);
			put32(buf + 24, (uint32_t)info->moves);
			put32(buf + 28, (uint32_t)info->links);
			put32(buf + 32, (uint32_t)e.tree.len);
			put32(buf + 36, (uint32_t)e.stats.len);
			put32(buf + 40, book_rank_check());
			put32(buf + 44, (uint32_t)(b->games > 0xFFFFFFFF ? 0xFFFFFFFF : b->games));
			memcpy(buf + BOOK_HEADER_BYTES, fen, flen);
			memcpy(buf + BOOK_HEADER_BYTES + flen, e.tree.buf, e.tree.len);
			memcpy(buf + BOOK_HEADER_BYTES + flen + e.tree.len, e.stats.buf, e.stats.len);
			put32(buf + 60, checksum(buf + BOOK_HEADER_BYTES, total - BOOK_HEADER_BYTES));
			put32(buf + 56, checksum(buf, 56));
			*out = buf;
			*len = total;
			info->bytes = total;
			info->header_bytes = BOOK_HEADER_BYTES + flen;
			info->tree_bytes = e.tree.len;
			info->stats_bytes = e.stats.len;
			info->plies = b->plies;
			info->scores = e.scores;
			snprintf(info->root_fen, sizeof info->root_fen, "%s", fen);
			rc = 0;
		}
	}
	rc_enc_free(&e.tree);
	rc_enc_free(&e.stats);
	return rc == 0 ? 0 : e.err == 2 ? -2 : -1;
}

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
	node *nd = table_find(&bk->t, p->key);   /* inserted by the caller */
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
		node *cn = table_get(&bk->t, c.key, &created);
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
	if (len < BOOK_HEADER_BYTES || memcmp(data, magic, 8) != 0)
		return fail_load(NULL, err, errsize, "%s", len < 8 ? "too short to be a book" : "not a pdnkit book (bad magic number)");
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
	if (table_init(&bk->t, positions < (1u << 16) ? positions + 16 : 1u << 16) < 0)
		return fail_load(bk, err, errsize, "%s", "out of memory");
	decoder d;
	memset(&d, 0, sizeof d);
	d.bk = bk;
	d.plies = (int)plies;
	d.scores = flags & 1;
	d.max_positions = positions;
	d.max_moves = moves;
	model_init(&d.m);
	const uint8_t *tree = data + BOOK_HEADER_BYTES + flen;
	rc_dec_init(&d.tree, tree, tree_len);
	rc_dec_init(&d.stats, tree + tree_len, stats_len);
	table_get(&bk->t, bk->root.key, NULL);
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
	table_free(&bk->t);
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
	const node *nd = table_find(&bk->t, p->key);
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
		if (!table_get(&w->seen, c.key, &created)) {
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
	if (table_init(&w.seen, bk->t.count + 16) < 0)
		return -1;
	table_get(&w.seen, bk->root.key, NULL);
	walk(&w, &bk->root, 0);
	table_free(&w.seen);
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
