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
	bpos root;
	int plies;
	table t;
	bmove *m;
	size_t nm, cap;
	long games;
};

static pk_bookb *builder(const bpos *root, int plies)
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

pk_bookb *bookb_new(const pk_pos *root, int plies)
{
	bpos r;
	bp_from_pos(&r, root);
	return builder(&r, plies);
}

pk_bookb *bookb_vnew(const pk_vpos *root, int plies)
{
	bpos r;
	bp_from_vpos(&r, root);
	return builder(&r, plies);
}

const pk_variant *bookb_variant(const pk_bookb *b) { return b->root.v; }

void bookb_free(pk_bookb *b)
{
	if (!b)
		return;
	bk_table_free(&b->t);
	free(b->m);
	free(b);
}

long bookb_games(const pk_bookb *b) { return b->games; }

static int add_move(pk_bookb *b, uint64_t key, int ordinal, uint32_t games, uint32_t bw, uint32_t dr, uint32_t ww,
		    int score)
{
	assert(ordinal >= 0 && ordinal < BOOK_MAX_KEPT);
	node *n = bk_table_get(&b->t, key, NULL);
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

int bookb_add_move(pk_bookb *b, const pk_pos *p, int ordinal, uint32_t games, uint32_t bw, uint32_t dr,
		   uint32_t ww, int score)
{
	return b->root.v ? 0 : add_move(b, p->key, ordinal, games, bw, dr, ww, score);
}

int bookb_add_gmove(pk_bookb *b, const pk_gpos *p, int ordinal, int score)
{
	if (p->v != b->root.v)
		return 0;
	return add_move(b, p->v ? vpos_state_key(&p->x) : p->e.key, ordinal, 0, 0, 0, 0, score);
}

/* The moves of one game from the first time it reaches the root, at most b->plies of
 * them: keys[i] the position before ply i (0-based) and ords[i] the move played there,
 * n plies. A position met twice in the window counts the game once. */
static int add_line(pk_bookb *b, const uint64_t *keys, const int *ords, int n, int result)
{
	int from = -1;
	for (int i = 0; i <= n && from < 0; i++)
		if (keys[i] == b->root.key)
			from = i;
	if (from < 0)
		return 0;
	b->games++;
	uint32_t bw = result == RES_BLACK_WINS, dr = result == RES_DRAW, ww = result == RES_WHITE_WINS;
	for (int i = from; i < n && i < from + b->plies; i++) {
		if (ords[i] < 0 || ords[i] >= BOOK_MAX_KEPT)
			break;      /* a set-up in the middle, or beyond a byte: the book stops there */
		bool again = false;
		for (int j = from; j < i && !again; j++)
			again = keys[j] == keys[i] && ords[j] == ords[i];
		if (!again && add_move(b, keys[i], ords[i], 1, bw, dr, ww, BOOK_NO_SCORE) < 0)
			return -1;
	}
	return 0;
}

int bookb_add_game(pk_bookb *b, const pk_replay *rp, int result)
{
	if (b->root.v)
		return 0;
	uint64_t *keys = malloc(sizeof *keys * ((size_t)rp->nply + 1));
	int *ords = malloc(sizeof *ords * ((size_t)rp->nply + 1));
	int rc = -1;
	if (keys && ords) {
		for (int i = 0; i < rp->nply; i++) {
			keys[i] = replay_pos_before(rp, i + 1)->key;
			ords[i] = rp->plies[i].ordinal;
		}
		keys[rp->nply] = rp->nply ? rp->plies[rp->nply - 1].after.key : rp->start.key;
		rc = add_line(b, keys, ords, rp->nply, result);
	}
	free(keys);
	free(ords);
	return rc;
}

int bookb_add_vgame(pk_bookb *b, const pk_vreplay *rp, int result)
{
	if (!b->root.v || rp->start.v != b->root.v || (rp->plies && !rp->ord))
		return 0;
	uint64_t *keys = malloc(sizeof *keys * ((size_t)rp->plies + 1));
	int *ords = malloc(sizeof *ords * ((size_t)rp->plies + 1));
	pk_vmovelist *ml = malloc(sizeof *ml);
	int rc = -1, n = 0;
	if (keys && ords && ml) {
		/* replayed forward here: the keys with the king-move counts (Frisian) */
		pk_vpos p = rp->start;
		keys[0] = vpos_state_key(&p);
		for (; n < rp->plies; n++) {
			int k = vgen(&p, ml);
			if (rp->ord[n] < 0 || rp->ord[n] >= k)
				break;
			ords[n] = rp->ord[n];
			pk_vpos q;
			vmake(&p, &ml->m[rp->ord[n]], &q);
			p = q;
			keys[n + 1] = vpos_state_key(&p);
		}
		rc = add_line(b, keys, ords, n, result);
	}
	free(keys);
	free(ords);
	free(ml);
	return rc;
}

/* ---- coding ----------------------------------------------------------------------- */

typedef struct {
	uint8_t ordinal;
	uint16_t rank;
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
	bm_pool pool;
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

static void encode_node(encoder *e, const bpos *p, int ply, int parent_k, uint32_t parent_games)
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
	bmoves *ml = bm_at(&e->pool, ply);
	int n = ml ? bp_gen(p, ml) : -1;
	if (n < 0) {
		e->err = 1;
		return;
	}
	if (n == 0)
		return;
	node *nd = bk_table_find(&b->t, p->key);
	kept k[BOOK_MAX_KEPT];
	int nk = 0;
	if (nd && nd->first >= 0)
		bp_rank(p, ml);
	for (int i = nd ? nd->first : -1; i >= 0 && nk < BOOK_MAX_KEPT; i = b->m[i].next) {
		const bmove *m = &b->m[i];
		if (m->ordinal >= n || !keep_move(e->f, bp_stm(p), m))
			continue;
		k[nk++] = (kept){ m->ordinal, (uint16_t)ml->rank[m->ordinal], m->games, m->bw, m->dr, m->ww, m->score };
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
		bpos c;
		bp_make(p, ml, k[j].ordinal, &c);
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
	bm_pool_free(&e.pool);
	int rc = -1;
	if (!e.err && rc_enc_finish(&e.tree) == 0 && rc_enc_finish(&e.stats) == 0) {
		char fen[VAR_FEN_STRLEN];
		size_t flen = (size_t)bp_fen(&b->root, fen, sizeof fen);
		const pk_variant *v = b->root.v;
		size_t total = BOOK_HEADER_BYTES + flen + e.tree.len + e.stats.len;
		uint8_t *buf = calloc(1, total);
		if (buf) {
			memcpy(buf, book_magic, 8);
			put16(buf + 8, v ? BOOK_VFORMAT_VERSION : BOOK_FORMAT_VERSION);
			put16(buf + 10, v ? VGEN_ORDER_VERSION : GEN_ORDER_VERSION);
			put16(buf + 12, v ? BOOK_VRANK_VERSION : BOOK_RANK_VERSION);
			put16(buf + 14, e.scores ? 1 : 0);
			put16(buf + 16, (unsigned)b->plies);
			put16(buf + 18, (unsigned)flen);
			put32(buf + 20, (uint32_t)info->positions);
			put32(buf + 24, (uint32_t)info->moves);
			put32(buf + 28, (uint32_t)info->links);
			put32(buf + 32, (uint32_t)e.tree.len);
			put32(buf + 36, (uint32_t)e.stats.len);
			put32(buf + 40, v ? book_vrank_check(v) : book_rank_check());
			put32(buf + 44, (uint32_t)((uint64_t)b->games > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint64_t)b->games));
			if (v)
				put16(buf + 48, (unsigned)v->gametype);
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
			info->gametype = v ? v->gametype : 21;
			rc = 0;
		}
	}
	rc_enc_free(&e.tree);
	rc_enc_free(&e.stats);
	return rc == 0 ? 0 : e.err == 2 ? -2 : -1;
}

