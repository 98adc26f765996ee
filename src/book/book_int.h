/* What the files of book/ share (table.c, build.c, book.c): positions by key, the
 * coding model and its contexts, and the byte helpers of the header. Not for use
 * outside book/. */
#ifndef PK_BOOK_INT_H
#define PK_BOOK_INT_H

#include <math.h>
#include "base/hash.h"
#include "book/book.h"
#include "book/rc.h"

#define MAX_DEPTH 1024            /* depth-first recursion bound (hostile files included) */
#define BOOK_MAX_KEPT 256         /* book moves of a position: ordinals are bytes */

/* A position of the book's game: English draughts (v NULL, in e) or another variant (in
 * x); key is what the book finds it by (for a variant its vpos_state_key). */
typedef struct {
	const pk_variant *v;
	pk_pos e;
	pk_vpos x;
	uint64_t key;
} bpos;

void bp_from_pos(bpos *b, const pk_pos *p);
void bp_from_vpos(bpos *b, const pk_vpos *p);
int bp_stm(const bpos *p);

/* The legal moves of a position (English in e, a variant's in x, allocated on first
 * use) and scratch for their ranks; one per ply of a walk, in a pool. */
typedef struct {
	int n;
	pk_movelist e;
	pk_vmovelist *x;
	int rank[VAR_MAX_MOVES], by_rank[VAR_MAX_MOVES];
} bmoves;

#define BM_POOL (MAX_DEPTH + 2)
typedef struct {
	bmoves *at[BM_POOL];
} bm_pool;

/* The pool's list for ply (made on first use); NULL when out of memory or range. */
bmoves *bm_at(bm_pool *pool, int ply);
void bm_pool_free(bm_pool *pool);

/* Generate p's legal moves into m: their number, -1 when out of memory. */
int bp_gen(const bpos *p, bmoves *m);
/* m->rank[i]: the rank of move i in the file's fixed ranking (book_rank_moves,
 * book_vrank_moves); m->by_rank[r]: the move of rank r. */
void bp_rank(const bpos *p, bmoves *m);
/* The position after move ord of m. */
void bp_make(const bpos *p, const bmoves *m, int ord, bpos *c);
int bp_fen(const bpos *p, char *buf, size_t size);
/* Move ord of m as PDN writes it in the game's notation. */
int bp_move_text(const bpos *p, const bmoves *m, int ord, char *buf, size_t size);
/* The move-number token before the move at ply (0-based, from the book's root) made
 * from `before`: "N." or "N..." (see movenum_token_as); "" when not needed. */
int bp_movenum(const bpos *before, int ply, bool first, char *buf, size_t size);

/* A book move of a position: its ordinal, games, results and score. */
typedef struct {
	int ordinal;
	uint32_t games, bw, dr, ww;
	int score;
} bmv;

/* The book moves of the position of variant v (NULL: English) and key, with n legal
 * moves, most played first. */
int bk_probe(const pk_book *bk, const pk_variant *v, uint64_t key, int n, bmv *out);
const bpos *bk_root(const pk_book *bk);

extern const uint8_t book_magic[8];

/* Positions by key: open addressing. */
typedef struct {
	uint64_t key;
	int first;                 /* first move (builder: list head; book: index) or -1 */
	int n;                     /* moves */
} node;

typedef struct {
	node *slot;
	size_t mask, count;
} table;


int bk_table_init(table *t, size_t want);
void bk_table_free(table *t);
node *bk_table_find(const table *t, uint64_t key);
/* The node of key, made (with *created set) when absent; NULL when out of memory. */
node *bk_table_get(table *t, uint64_t key, bool *created);

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

void bk_model_init(model *m);

static inline int shape_ctx(int ply, int plies, int parent_k)
{
	if (ply >= plies)
		return 5;
	return parent_k > 3 ? 4 : parent_k;   /* 0..4 (0: the root) */
}

static inline int bits_for(int range)
{
	int b = 0;
	while ((1 << b) < range)
		b++;
	return b;
}

static inline int games_ctx(uint32_t parent_games)
{
	return parent_games <= 1 ? 0 : parent_games <= 4 ? 1 : 2;
}

static inline uint32_t zigzag(int v) { return v >= 0 ? (uint32_t)v * 2 : (uint32_t)(-(int64_t)v * 2 - 1); }
static inline int unzigzag(uint32_t v) { return v & 1 ? -(int)((v + 1) / 2) : (int)(v / 2); }

static inline void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

static inline uint32_t checksum(const uint8_t *p, size_t n) { return fnv32(FNV32_INIT, p, n); }


/* log2 of n choose k: the bits a uniform code of the kept moves would take. */
static inline double log2_choose(int n, int k)
{
	return (lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)) / log(2.0);
}

#endif
