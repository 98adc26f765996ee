/* Building a book: moves of games (or of a search) gathered by position, then coded
 * depth-first into the tree and statistics streams. The format is pdnkit-book(5). */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book/book_int.h"
#include "rules/fen.h"

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
	if (bk_table_init(&b->t, 1 << 16) < 0) {
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
	bk_table_free(&b->t);
	free(b->m);
	free(b);
}

long bookb_games(const pk_bookb *b) { return b->games; }

int bookb_add_move(pk_bookb *b, const pk_pos *p, int ordinal, uint32_t games, uint32_t bw, uint32_t dr,
		   uint32_t ww, int score)
{
	assert(ordinal >= 0 && ordinal < PK_MAX_MOVES);
	node *n = bk_table_get(&b->t, p->key, NULL);
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
	node *nd = bk_table_find(&b->t, p->key);
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
		if (!bk_table_get(&e->seen, c.key, &created)) {
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
	bk_model_init(&e.m);
	rc_enc_init(&e.tree);
	rc_enc_init(&e.stats);
	if (bk_table_init(&e.seen, b->t.count + 16) < 0)
		return -1;
	bk_table_get(&e.seen, b->root.key, NULL);
	encode_node(&e, &b->root, 0, 0, (uint32_t)(b->games > 0xFFFFFFF ? 0xFFFFFFF : b->games));
	bk_table_free(&e.seen);
	int rc = -1;
	if (!e.err && rc_enc_finish(&e.tree) == 0 && rc_enc_finish(&e.stats) == 0) {
		char fen[PK_FEN_STRLEN];
		size_t flen = (size_t)fen_format(&b->root, fen, sizeof fen);
		size_t total = BOOK_HEADER_BYTES + flen + e.tree.len + e.stats.len;
		uint8_t *buf = calloc(1, total);
		if (buf) {
			memcpy(buf, book_magic, 8);
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

