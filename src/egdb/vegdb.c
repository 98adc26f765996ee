/* Endgame databases of the other variants (egdb/vegdb.h): built by retrograde analysis
 * over the variant's own move generator, checked by a forward pass, kept whole in
 * memory. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include "egdb/egdb.h"
#include "base/pool.h"
#include "egdb/vegdb.h"
#include "pdn/zio.h"
#include "rules/pos.h"

#define T_NONE 255          /* no position at this index */
#define MAX_LEVEL 254       /* distances 0..253 fit a byte as d + 1 */
#define MAGIC "PKVDB1\n"

static uint64_t binom[VAR_MAX_SQ + 1][VEGDB_MAX_PIECES + 2];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void binom_init(void)
{
	for (int n = 0; n <= VAR_MAX_SQ; n++) {
		binom[n][0] = 1;
		for (int k = 1; k <= VEGDB_MAX_PIECES + 1; k++)
			binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
	}
}

/* A material: [0] white men, [1] white kings, [2] black men, [3] black kings. */
typedef struct {
	int n[4];
	int pieces, men;
	uint64_t radix[4];          /* C(squares, n[g]) */
	uint64_t size;              /* placements times two sides to move */
	uint8_t *t;
	char name[16];
	bool present;               /* its file is there with a right header (read when needed) */
	bool failed;                /* its file failed to read (vegdb_error says why) */
} vclass;

struct pk_vegdb {
	const pk_variant *v;
	int nsq;
	int pieces;                 /* every class of this many pieces or fewer is held */
	int threads;                /* of a build */
	int nclass;
	vclass *cls;
	int map[VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1];
	bool crown[2][VAR_MAX_SQ + 1];   /* a man of this side on this square would be crowned */
	char dir[4096];                  /* where the files are (opened databases) */
	pthread_mutex_t lock;            /* reading a class on its first probe */
	char err[700];                   /* the first class that failed to read */
};

static int group_of(int piece)
{
	switch (piece) {
	case VP_WMAN: return 0;
	case VP_WKING: return 1;
	case VP_BMAN: return 2;
	case VP_BKING: return 3;
	default: return -1;
	}
}

static const int piece_of[4] = { VP_WMAN, VP_WKING, VP_BMAN, VP_BKING };

bool vegdb_supported(const pk_variant *v) { return v && !v->king_moves && v->replayable; }

static void class_name(const int n[4], char *buf, size_t size)
{
	char s[2 * VEGDB_MAX_PIECES + 2];
	int k = 0;
	for (int g = 0; g < 4; g++) {
		for (int i = 0; i < n[g] && k < (int)sizeof s - 2; i++)
			s[k++] = g % 2 ? 'K' : 'M';
		if (g == 1)
			s[k++] = '-';
	}
	s[k] = 0;
	snprintf(buf, size, "%s", s);
}

static int cmp_class(const void *a, const void *b)
{
	const vclass *x = a, *y = b;
	if (x->pieces != y->pieces)
		return x->pieces - y->pieces;
	if (x->men != y->men)
		return x->men - y->men;
	return strcmp(x->name, y->name);
}

/* Every class of v up to `pieces` pieces, each side at least one, in build order: fewer
 * pieces first, then fewer men (a crowning lands in a class of one man fewer). */
static pk_vegdb *vegdb_new(const pk_variant *v, int pieces)
{
	pthread_once(&binom_once, binom_init);
	pk_vegdb *db = calloc(1, sizeof *db);
	if (!db)
		return NULL;
	db->v = v;
	db->nsq = variant_squares(v);
	pthread_mutex_init(&db->lock, NULL);
	memset(db->map, -1, sizeof db->map);
	for (int s = 1; s <= db->nsq; s++) {
		int r, c;
		variant_square_rc(v, s, &r, &c);
		db->crown[PK_WHITE][s] = r == 0;
		db->crown[PK_BLACK][s] = r == v->rows - 1;
	}
	int cap = 0;
	for (int a = 0; a <= pieces; a++)
		for (int b = 0; a + b <= pieces; b++)
			for (int c = 0; a + b + c <= pieces; c++)
				for (int d = 0; a + b + c + d <= pieces; d++)
					if (a + b >= 1 && c + d >= 1)
						cap++;
	db->cls = calloc((size_t)cap, sizeof *db->cls);
	if (!db->cls) {
		free(db);
		return NULL;
	}
	for (int a = 0; a <= pieces; a++)
		for (int b = 0; a + b <= pieces; b++)
			for (int c = 0; a + b + c <= pieces; c++)
				for (int d = 0; a + b + c + d <= pieces; d++) {
					if (a + b < 1 || c + d < 1)
						continue;
					vclass *k = &db->cls[db->nclass++];
					int n[4] = { a, b, c, d };
					memcpy(k->n, n, sizeof n);
					k->pieces = a + b + c + d;
					k->men = a + c;
					k->size = 2;
					for (int g = 0; g < 4; g++) {
						k->radix[g] = binom[db->nsq][n[g]];
						k->size *= k->radix[g];
					}
					class_name(n, k->name, sizeof k->name);
				}
	qsort(db->cls, (size_t)db->nclass, sizeof *db->cls, cmp_class);
	for (int i = 0; i < db->nclass; i++) {
		const int *n = db->cls[i].n;
		db->map[n[0]][n[1]][n[2]][n[3]] = i;
	}
	return db;
}

void vegdb_free(pk_vegdb *db)
{
	if (!db)
		return;
	for (int i = 0; i < db->nclass; i++)
		free(db->cls[i].t);
	free(db->cls);
	pthread_mutex_destroy(&db->lock);
	free(db);
}

/* p's pieces by group (n) and each group's rank as a combination (rank): false when p
 * has more pieces than db holds. The board is read eight squares a word, empty words
 * skipped (a few pieces on 32 to 72 squares). */
static bool scan(const pk_vegdb *db, const pk_vpos *p, int n[4], uint64_t rank[4])
{
	int total = 0;
	n[0] = n[1] = n[2] = n[3] = 0;
	rank[0] = rank[1] = rank[2] = rank[3] = 0;
	for (int base = 1; base <= db->nsq; base += 8) {
		uint64_t w;
		memcpy(&w, &p->sq[base], sizeof w);   /* (sq has room past the last square) */
		while (w) {
			int b = __builtin_ctzll(w) >> 3, s = base + b;
			w &= ~(0xFFull << (8 * b));
			if (s > db->nsq)
				break;
			int g = group_of(p->sq[s]);
			if (g < 0)
				continue;
			if (++total > db->pieces || n[g] >= VEGDB_MAX_PIECES)
				return false;
			rank[g] += binom[s - 1][n[g] + 1];
			n[g]++;
		}
	}
	return true;
}

/* The index of a scanned position in its class (*cls), or -1 when db has no such class
 * (a side without pieces). */
static int64_t index_in(const pk_vegdb *db, const int n[4], const uint64_t rank[4], int stm, int *cls)
{
	int c = db->map[n[0]][n[1]][n[2]][n[3]];
	if (c < 0)
		return -1;
	const vclass *k = &db->cls[c];
	uint64_t idx = ((rank[0] * k->radix[1] + rank[1]) * k->radix[2] + rank[2]) * k->radix[3] + rank[3];
	*cls = c;
	return (int64_t)(idx * 2 + (stm == PK_WHITE ? 0 : 1));
}

/* The class of p and its index there; -1 when p's material is not one of db's (too many
 * pieces, or a side without any). */
static int64_t index_of(const pk_vegdb *db, const pk_vpos *p, int *cls)
{
	int n[4];
	uint64_t rank[4];
	if (!scan(db, p, n, rank))
		return -1;
	return index_in(db, n, rank, p->stm, cls);
}

/* The position at idx of class k; false when there is none (two pieces on a square, a
 * man on its crowning row). */
static bool decode(const pk_vegdb *db, const vclass *k, uint64_t idx, pk_vpos *p)
{
	vpos_clear(db->v, p, idx & 1 ? PK_BLACK : PK_WHITE);
	idx >>= 1;
	uint64_t rank[4];
	for (int g = 3; g >= 0; g--) {
		rank[g] = idx % k->radix[g];
		idx /= k->radix[g];
	}
	for (int g = 0; g < 4; g++) {
		uint64_t r = rank[g];
		int hi = db->nsq - 1;
		for (int i = k->n[g] - 1; i >= 0; i--) {
			while (binom[hi][i + 1] > r)
				hi--;
			r -= binom[hi][i + 1];
			int s = hi + 1;
			if (p->sq[s])
				return false;
			if (g % 2 == 0 && db->crown[g == 0 ? PK_WHITE : PK_BLACK][s])
				return false;
			p->sq[s] = (uint8_t)piece_of[g];
			hi--;
		}
	}
	return true;
}

/* The stored byte of p (a child of a position being built or checked): a side to move
 * without pieces has lost; -1 when its class is not held. */
static int byte_of(const pk_vegdb *db, const pk_vpos *p, int *cls)
{
	int n[4], c = -1;
	uint64_t rank[4];
	*cls = -1;
	if (!scan(db, p, n, rank))
		return -1;
	if ((p->stm == PK_WHITE ? n[0] + n[1] : n[2] + n[3]) == 0)
		return 1;                      /* no pieces: lost, in 0 plies */
	int64_t i = index_in(db, n, rank, p->stm, &c);
	*cls = c;
	if (i < 0 || !db->cls[c].t)
		return -1;
	return db->cls[c].t[i];
}

/* ---- building --------------------------------------------------------------------- */

typedef struct {
	uint32_t *a;
	size_t n, cap;
} ilist;

static int push(ilist *l, uint32_t x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		uint32_t *a = realloc(l->a, cap * sizeof *a);
		if (!a)
			return -1;
		l->a = a;
		l->cap = cap;
	}
	l->a[l->n++] = x;
	return 0;
}

/* The byte a position's children give it: a win in 1 + the shortest loss among them,
 * else a loss in 1 + the longest win when all are wins, else a draw. -1 for a child not
 * held. */
static int forward_value(const pk_vegdb *db, const pk_vpos *p, pk_vmovelist *ml)
{
	int n = vgen(p, ml);
	if (n == 0)
		return 1;
	int minloss = MAX_LEVEL, maxwin = -1;
	bool draw = false;
	for (int i = 0; i < n; i++) {
		pk_vpos q;
		vmake(p, &ml->m[i], &q);
		int c, b = byte_of(db, &q, &c);
		if (b < 0 || b == T_NONE)
			return -1;
		if (b == 0)
			draw = true;
		else if ((b - 1) % 2 == 0)
			minloss = b - 1 < minloss ? b - 1 : minloss;
		else
			maxwin = b - 1 > maxwin ? b - 1 : maxwin;
	}
	if (minloss < MAX_LEVEL)
		return minloss + 2;
	if (draw)
		return 0;
	return maxwin + 2;
}

typedef struct {
	pk_vegdb *db;
	int c;
	uint8_t *cnt, *ext;
	ilist level[MAX_LEVEL + 2];
	pk_vmovelist ml;
} builder;

/* Whether q (side to move X) may play the quiet move o -> s: no capture for X there, and
 * the move among its piece's quiet moves. */
static bool quiet_move_legal(builder *b, const pk_vpos *q, int o, int s)
{
	if (vhas_capture(q))
		return false;
	int n = vgen_quiet_from(q, b->db->nsq <= 64 ? 1ull << (o - 1) : ~0ull, &b->ml);
	for (int i = 0; i < n; i++)
		if (b->ml.m[i].from == o && b->ml.m[i].to == s)
			return true;
	return false;
}

/* Calls fn for every position q of the class from which a quiet move of the side that
 * just moved leads to p (its predecessors): a piece of that side taken back from its
 * square s to an empty square o. */
static int each_predecessor(builder *b, const pk_vpos *p, int (*fn)(builder *b, uint32_t qi, void *ctx), void *ctx)
{
	const pk_vegdb *db = b->db;
	const pk_variant *v = db->v;
	int x = !p->stm;
	for (int s = 1; s <= db->nsq; s++) {
		int piece = p->sq[s];
		if (!piece || (piece == VP_WMAN || piece == VP_WKING) != (x == PK_WHITE))
			continue;
		bool king = piece == VP_WKING || piece == VP_BKING;
		int orig[VAR_MAX_MOVES], no = 0;
		if (king) {
			/* a king's quiet moves are symmetric: where it can go from s is where it can
			 * have come from */
			pk_vpos k = *p;
			k.stm = x;
			pk_vmovelist *ml = &b->ml;
			int n = vgen_quiet_from(&k, db->nsq <= 64 ? 1ull << (s - 1) : ~0ull, ml);
			for (int i = 0; i < n; i++)
				if (ml->m[i].from == s)
					orig[no++] = ml->m[i].to;
		} else {
			int r, c;
			variant_square_rc(v, s, &r, &c);
			for (int dr = -1; dr <= 1; dr++)
				for (int dc = -1; dc <= 1; dc++) {
					int o = (dr || dc) ? variant_rc_square(v, r + dr, c + dc) : 0;
					if (o && !p->sq[o])
						orig[no++] = o;
				}
		}
		for (int i = 0; i < no; i++) {
			int o = orig[i];
			pk_vpos q = *p;
			q.sq[o] = q.sq[s];
			q.sq[s] = VP_EMPTY;
			q.stm = x;
			if (!king && db->crown[x][o])
				continue;
			if (!quiet_move_legal(b, &q, o, s))
				continue;
			int c;
			int64_t qi = index_of(db, &q, &c);
			if (qi < 0 || c != b->c)
				continue;
			int rc = fn(b, (uint32_t)qi, ctx);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int on_predecessor(builder *b, uint32_t qi, void *ctx)
{
	int k = *(int *)ctx;
	uint8_t *t = b->db->cls[b->c].t;
	if (t[qi])
		return 0;
	if (k % 2 == 0)
		return push(&b->level[k + 1], qi);           /* a move to a loss: a win */
	if (b->cnt[qi] == 255 || --b->cnt[qi] > 0)
		return 0;
	int at = b->ext[qi] > k + 1 ? b->ext[qi] : k + 1;  /* every move to a win: a loss */
	return push(&b->level[at], qi);
}

/* A pass over a class's positions, split among threads: each takes a range of indexes
 * and, in the first pass, lists its positions by the level where they are decided (its
 * own lists, merged after). */
typedef struct {
	builder *b;
	vclass *k;
	int c, nt;
	ilist *lists[VEGDB_MAX_THREADS];
	pthread_mutex_t lock;
	int failed;                 /* (read by the threads through __atomic_load_n) */
	char err[600];
} pass_ctx;

static bool pass_failed(pass_ctx *pc) { return __atomic_load_n(&pc->failed, __ATOMIC_RELAXED) != 0; }

static void pass_fail(pass_ctx *pc, const char *msg)
{
	pthread_mutex_lock(&pc->lock);
	if (!pc->failed)
		snprintf(pc->err, sizeof pc->err, "%s", msg);
	__atomic_store_n(&pc->failed, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pc->lock);
}

static void init_range(int t, void *ctx)
{
	pass_ctx *pc = ctx;
	builder *b = pc->b;
	const pk_vegdb *db = b->db;
	vclass *k = pc->k;
	ilist *level = pc->lists[t] = calloc(MAX_LEVEL + 2, sizeof *level);
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!level || !ml) {
		free(ml);
		pass_fail(pc, "out of memory");
		return;
	}
	uint64_t lo = k->size * (uint64_t)t / (uint64_t)pc->nt, hi = k->size * (uint64_t)(t + 1) / (uint64_t)pc->nt;
	for (uint64_t i = lo; i < hi && !pass_failed(pc); i++) {
		pk_vpos p;
		if (!decode(db, k, i, &p)) {
			k->t[i] = T_NONE;
			continue;
		}
		int n = vgen(&p, ml);
		int same = 0, minloss = MAX_LEVEL, maxwin = -1;
		bool never_loss = false;
		for (int m = 0; m < n; m++) {
			/* a plain move that crowns nothing stays in the class: counted, not looked up */
			const pk_vmove *mv = &ml->m[m];
			int piece = p.sq[mv->from];
			if (mv->ncap == 0 && !((piece == VP_WMAN || piece == VP_BMAN) && db->crown[p.stm][mv->to])) {
				same++;
				continue;
			}
			pk_vpos q;
			vmake(&p, mv, &q);
			int qc, v = byte_of(db, &q, &qc);
			if (qc == pc->c) {
				same++;
				continue;
			}
			if (v < 0 || v == T_NONE) {
				char msg[100];
				snprintf(msg, sizeof msg, "class %s: a move leads to a class not built", k->name);
				pass_fail(pc, msg);
				break;
			}
			if (v == 0)
				never_loss = true;
			else if ((v - 1) % 2 == 0) {
				never_loss = true;
				minloss = v - 1 < minloss ? v - 1 : minloss;
			} else
				maxwin = v - 1 > maxwin ? v - 1 : maxwin;
		}
		b->cnt[i] = never_loss ? 255 : (uint8_t)(same > 254 ? 254 : same);
		b->ext[i] = (uint8_t)(maxwin + 1);
		if ((n == 0 && push(&level[0], (uint32_t)i)) ||
		    (minloss < MAX_LEVEL && push(&level[minloss + 1], (uint32_t)i)) ||
		    (n > 0 && !never_loss && same == 0 && push(&level[maxwin + 1], (uint32_t)i))) {
			pass_fail(pc, "out of memory");
			break;
		}
	}
	free(ml);
}

/* The threads' lists into one a level; -1 on a failure of the pass or of memory. */
static int pass_merge(pass_ctx *pc, ilist *into)
{
	int rc = pc->failed ? -1 : 0;
	for (int t = 0; t < pc->nt; t++) {
		ilist *l = pc->lists[t];
		for (int lv = 0; l && lv <= MAX_LEVEL + 1; lv++) {
			for (size_t j = 0; j < l[lv].n && rc == 0; j++)
				rc = push(&into[lv], l[lv].a[j]);
			free(l[lv].a);
		}
		free(l);
		pc->lists[t] = NULL;
	}
	return rc;
}

static void check_range(int t, void *ctx)
{
	pass_ctx *pc = ctx;
	const pk_vegdb *db = pc->b->db;
	vclass *k = pc->k;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml) {
		pass_fail(pc, "out of memory");
		return;
	}
	uint64_t lo = k->size * (uint64_t)t / (uint64_t)pc->nt, hi = k->size * (uint64_t)(t + 1) / (uint64_t)pc->nt;
	for (uint64_t i = lo; i < hi && !pass_failed(pc); i++) {
		if (k->t[i] == T_NONE)
			continue;
		pk_vpos p;
		decode(db, k, i, &p);
		int want = forward_value(db, &p, ml);
		if (want != k->t[i]) {
			char fen[256] = "", msg[500];
			vfen_format(&p, fen, sizeof fen);
			snprintf(msg, sizeof msg, "class %s: %s is stored %d but its moves give %d (a fault of the builder)",
				 k->name, fen, k->t[i], want);
			pass_fail(pc, msg);
		}
	}
	free(ml);
}

static int build_class(pk_vegdb *db, int c, volatile sig_atomic_t *stop, char *err, size_t errsize)
{
	vclass *k = &db->cls[c];
	if (k->size > UINT32_MAX) {
		snprintf(err, errsize, "class %s: %llu positions, more than this format indexes", k->name,
			 (unsigned long long)k->size);
		return -1;
	}
	builder *b = calloc(1, sizeof *b);
	k->t = calloc(k->size, 1);
	if (b) {
		b->cnt = malloc(k->size);
		b->ext = malloc(k->size);
	}
	int rc = -1;
	if (!b || !k->t || !b->cnt || !b->ext) {
		snprintf(err, errsize, "class %s: out of memory (%llu positions)", k->name, (unsigned long long)k->size);
		goto out;
	}
	b->db = db;
	b->c = c;
	/* every position's moves (those into other classes are final already), the range
	 * shared among the threads */
	pass_ctx pc = { .b = b, .k = k, .c = c, .nt = db->threads };
	pthread_mutex_init(&pc.lock, NULL);
	pool_run(pc.nt, init_range, &pc);
	if (pass_merge(&pc, b->level) < 0) {
		snprintf(err, errsize, "%s", pc.err[0] ? pc.err : "out of memory");
		pthread_mutex_destroy(&pc.lock);
		goto out;
	}
	/* level by level: set the positions of that distance, then their predecessors */
	for (int lv = 0; lv <= MAX_LEVEL; lv++) {
		if (stop && *stop) {
			snprintf(err, errsize, "interrupted");
			goto out;
		}
		ilist *l = &b->level[lv];
		for (size_t j = 0; j < l->n; j++) {
			uint32_t i = l->a[j];
			if (k->t[i])
				continue;
			if (lv == MAX_LEVEL) {
				snprintf(err, errsize, "class %s: a distance of more than %d plies", k->name, MAX_LEVEL - 1);
				goto out;
			}
			k->t[i] = (uint8_t)(lv + 1);
			pk_vpos p;
			decode(db, k, i, &p);
			int r = each_predecessor(b, &p, on_predecessor, &lv);
			if (r)
				goto nomem;
		}
		free(l->a);
		l->a = NULL;
		l->n = l->cap = 0;
	}
	for (size_t j = 0; j < b->level[MAX_LEVEL + 1].n; j++)
		if (!k->t[b->level[MAX_LEVEL + 1].a[j]]) {
			snprintf(err, errsize, "class %s: a distance of more than %d plies", k->name, MAX_LEVEL - 1);
			goto out;
		}
	/* the check: every value is the best of its moves' values */
	pool_run(pc.nt, check_range, &pc);
	pthread_mutex_destroy(&pc.lock);
	if (pc.failed) {
		snprintf(err, errsize, "%s", pc.err);
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errsize, "class %s: out of memory", k->name);
out:
	if (b) {
		for (int lv = 0; lv <= MAX_LEVEL + 1; lv++)
			free(b->level[lv].a);
		free(b->cnt);
		free(b->ext);
		free(b);
	}
	if (rc) {
		free(k->t);
		k->t = NULL;
	}
	return rc;
}

/* ---- files ------------------------------------------------------------------------ */

static uint64_t fnv(const uint8_t *a, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ a[i]) * 0x100000001b3ULL;
	return h;
}

static void class_path(const pk_vegdb *db, const vclass *k, const char *dir, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s/%s%s", dir, db->v->key, k->name, VEGDB_SUFFIX);
}

typedef struct {
	char magic[8];
	uint32_t gametype;
	uint8_t n[4];
	uint64_t size, check, packed;
} vheader;

static int write_class(const pk_vegdb *db, const vclass *k, const char *dir, char *err, size_t errsize)
{
	char path[4096], tmp[4200];
	class_path(db, k, dir, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	size_t bound = zio_block_bound(k->size);
	uint8_t *z = malloc(bound);
	if (!z) {
		snprintf(err, errsize, "%s: out of memory", path);
		return -1;
	}
	size_t zn = zio_block_compress(z, bound, k->t, k->size, 9);
	if (zn == 0) {
		free(z);
		snprintf(err, errsize, "%s: compression failed", path);
		return -1;
	}
	vheader h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, MAGIC, 8);
	h.gametype = (uint32_t)db->v->gametype;
	for (int g = 0; g < 4; g++)
		h.n[g] = (uint8_t)k->n[g];
	h.size = k->size;
	h.check = fnv(k->t, k->size);
	h.packed = zn;
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(z, 1, zn, f) == zn;
	if (f && fclose(f))
		ok = false;
	free(z);
	if (!ok || rename(tmp, path)) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

/* Reads class k from dir (with header_only its header alone, and the file's length
 * checked against it): 1 read, 0 no file, -1 damaged (message in err). */
static int read_class(const pk_vegdb *db, vclass *k, const char *dir, bool header_only, char *err, size_t errsize)
{
	char path[4096];
	class_path(db, k, dir, path, sizeof path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	vheader h;
	int rc = -1;
	uint8_t *z = NULL;
	if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, MAGIC, 8) || h.gametype != (uint32_t)db->v->gametype ||
	    h.size != k->size || h.n[0] != k->n[0] || h.n[1] != k->n[1] || h.n[2] != k->n[2] || h.n[3] != k->n[3] ||
	    h.packed > zio_block_bound(k->size)) {
		snprintf(err, errsize, "%s: not a %s database of this class (rebuild it: pdnkit egdb build --variant %s)",
			 path, db->v->name, db->v->key);
		goto out;
	}
	if (header_only) {
		long here = ftell(f);
		if (fseek(f, 0, SEEK_END) || ftell(f) != here + (long)h.packed) {
			snprintf(err, errsize, "%s: truncated (rebuild it: pdnkit egdb build --variant %s)", path, db->v->key);
			goto out;
		}
		k->present = true;
		rc = 1;
		goto out;
	}
	z = malloc(h.packed ? h.packed : 1);
	k->t = malloc(k->size);
	if (!z || !k->t) {
		snprintf(err, errsize, "%s: out of memory", path);
		goto out;
	}
	if (fread(z, 1, h.packed, f) != h.packed) {
		snprintf(err, errsize, "%s: truncated (rebuild it: pdnkit egdb build --variant %s)", path, db->v->key);
		goto out;
	}
	long n = zio_block_decompress(k->t, k->size, z, h.packed);
	if (n < 0 || (uint64_t)n != k->size || fnv(k->t, k->size) != h.check) {
		snprintf(err, errsize, "%s: damaged (its checksum differs; rebuild it: pdnkit egdb build --variant %s)", path,
			 db->v->key);
		goto out;
	}
	k->present = true;
	rc = 1;
out:
	fclose(f);
	free(z);
	if (rc < 0) {
		free(k->t);
		k->t = NULL;
	}
	return rc;
}

static int make_dir(const char *path)
{
	return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int vegdb_build(const pk_variant *v, int pieces, int threads, const char *dir, volatile sig_atomic_t *stop,
		void (*progress)(void *ctx, const pk_vegdb_progress *p), void *ctx, char *err, size_t errsize)
{
	if (!vegdb_supported(v)) {
		snprintf(err, errsize, "%s: no databases for this variant (%s)", v ? v->name : "?",
			 v && v->king_moves ? "its king-move counts are part of a position" : "its rules are not implemented");
		return -1;
	}
	if (pieces < 2 || pieces > VEGDB_MAX_PIECES) {
		snprintf(err, errsize, "pieces: from 2 to %d", VEGDB_MAX_PIECES);
		return -1;
	}
	char sub[4096];
	snprintf(sub, sizeof sub, "%s/%s", dir, v->key);
	if (make_dir(dir) || make_dir(sub)) {
		snprintf(err, errsize, "%s: %s", sub, strerror(errno));
		return -1;
	}
	pk_vegdb *db = vegdb_new(v, pieces);
	if (!db) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	db->pieces = pieces;
	db->threads = threads < 1 ? 1 : threads > VEGDB_MAX_THREADS ? VEGDB_MAX_THREADS : threads;
	int rc = 0;
	for (int c = 0; c < db->nclass && rc == 0; c++) {
		vclass *k = &db->cls[c];
		pk_vegdb_progress pr = { .name = k->name, .done = c, .total = db->nclass, .positions = k->size };
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		int got = read_class(db, k, dir, false, err, errsize);
		if (got < 0)
			rc = -1;
		else if (got == 0) {
			if (progress)
				progress(ctx, &pr);
			rc = build_class(db, c, stop, err, errsize);
			if (rc == 0)
				rc = write_class(db, k, dir, err, errsize);
		} else
			pr.skipped = true;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		pr.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		pr.done = c + 1;
		if (rc == 0 && progress)
			progress(ctx, &pr);
	}
	vegdb_free(db);
	return rc;
}

/* ---- reading ---------------------------------------------------------------------- */

pk_vegdb *vegdb_open(const pk_variant *v, const char *dir, char *err, size_t errsize)
{
	if (!vegdb_supported(v)) {
		snprintf(err, errsize, "%s: no databases for this variant", v ? v->name : "?");
		return NULL;
	}
	pk_vegdb *db = vegdb_new(v, VEGDB_MAX_PIECES);
	if (!db) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	/* level by level: a level is held when every class of it is read */
	for (int level = 2; level <= VEGDB_MAX_PIECES; level++) {
		bool all = true;
		for (int c = 0; c < db->nclass; c++) {
			vclass *k = &db->cls[c];
			if (k->pieces != level)
				continue;
			int got = read_class(db, k, dir, true, err, errsize);
			if (got < 0) {
				vegdb_free(db);
				return NULL;
			}
			all = all && got == 1;
		}
		if (!all) {
			for (int c = 0; c < db->nclass; c++)
				if (db->cls[c].pieces == level)
					db->cls[c].present = false;
			break;
		}
		db->pieces = level;
	}
	snprintf(db->dir, sizeof db->dir, "%s", dir);
	if (db->pieces < 2) {
		snprintf(err, errsize, "%s/%s: no %s databases (build them: pdnkit egdb build --variant %s)", dir, v->key,
			 v->name, v->key);
		vegdb_free(db);
		return NULL;
	}
	return db;
}

int vegdb_pieces(const pk_vegdb *db) { return db ? db->pieces : 0; }
const pk_variant *vegdb_variant(const pk_vegdb *db) { return db->v; }

size_t vegdb_bytes(const pk_vegdb *db)
{
	size_t n = 0;
	for (int c = 0; c < db->nclass; c++)
		if (db->cls[c].t)
			n += db->cls[c].size;
	return n;
}

/* The table of class c, read on its first need (a search's threads may ask at once);
 * NULL when it cannot be read (db->err says why). */
static const uint8_t *table(const pk_vegdb *cdb, int c)
{
	pk_vegdb *db = (pk_vegdb *)cdb;   /* (reading a class changes nothing a probe sees) */
	vclass *k = &db->cls[c];
	const uint8_t *t = __atomic_load_n(&k->t, __ATOMIC_ACQUIRE);
	if (t || !k->present || k->failed)
		return t;
	pthread_mutex_lock(&db->lock);
	if (!k->t && !k->failed) {
		vclass tmp = *k;
		char err[700];
		if (read_class(db, &tmp, db->dir, false, err, sizeof err) == 1)
			__atomic_store_n(&k->t, tmp.t, __ATOMIC_RELEASE);
		else {
			k->failed = true;
			if (!db->err[0])
				snprintf(db->err, sizeof db->err, "%s", err);
		}
	}
	t = k->t;
	pthread_mutex_unlock(&db->lock);
	return t;
}

const char *vegdb_error(const pk_vegdb *db)
{
	pthread_mutex_lock((pthread_mutex_t *)&db->lock);
	const char *e = db->err[0] ? db->err : NULL;
	pthread_mutex_unlock((pthread_mutex_t *)&db->lock);
	return e;
}

int vegdb_probe(const pk_vegdb *db, const pk_vpos *p, int *value, int *plies)
{
	if (!db || p->v != db->v)
		return 0;
	int c;
	int64_t i = index_of(db, p, &c);
	if (i < 0)
		return 0;
	const uint8_t *t = table(db, c);
	if (!t)
		return 0;
	int b = t[i];
	if (b == T_NONE)
		return 0;
	if (b == 0) {
		*value = EGDB_DRAW;
		*plies = -1;
	} else {
		*plies = b - 1;
		*value = (b - 1) % 2 ? EGDB_WIN : EGDB_LOSS;
	}
	return 1;
}

int vegdb_each_class(const pk_vegdb *db, int (*fn)(void *ctx, const pk_vegdb_class_stats *s), void *ctx)
{
	for (int c = 0; c < db->nclass; c++) {
		const vclass *k = &db->cls[c];
		if (!k->present || k->pieces > db->pieces)
			continue;
		const uint8_t *t = table(db, c);
		if (!t)
			return -1;
		pk_vegdb_class_stats s;
		memset(&s, 0, sizeof s);
		snprintf(s.name, sizeof s.name, "%s", k->name);
		s.pieces = k->pieces;
		for (uint64_t i = 0; i < k->size; i++) {
			int b = t[i];
			if (b == T_NONE)
				continue;
			s.positions++;
			if (b == 0)
				s.draws++;
			else if ((b - 1) % 2) {
				s.wins++;
				s.longest = b - 1 > s.longest ? b - 1 : s.longest;
			} else
				s.losses++;
		}
		int rc = fn(ctx, &s);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the search's databases ------------------------------------------------------- */

/* Opened once a directory and a variant, kept for the process. */
typedef struct shared_db {
	char *dir;
	int gametype;
	pk_vegdb *db;               /* NULL: none there */
	struct shared_db *next;
} shared_db;

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static char *shared_dir;
static shared_db *shared_list;

void vegdb_set_dir(const char *dir)
{
	pthread_mutex_lock(&shared_lock);
	free(shared_dir);
	shared_dir = dir ? strdup(dir) : NULL;
	pthread_mutex_unlock(&shared_lock);
}

const pk_vegdb *vegdb_shared_in(const char *dir, const pk_variant *v)
{
	if (!dir || !vegdb_supported(v))
		return NULL;
	pthread_mutex_lock(&shared_lock);
	shared_db *d = shared_list;
	while (d && (d->gametype != v->gametype || strcmp(d->dir, dir)))
		d = d->next;
	if (!d && (d = calloc(1, sizeof *d)) && (d->dir = strdup(dir))) {
		char err[512];
		d->gametype = v->gametype;
		d->db = vegdb_open(v, dir, err, sizeof err);   /* (none: searched without) */
		d->next = shared_list;
		shared_list = d;
	} else if (d && !d->dir) {
		free(d);
		d = NULL;
	}
	pk_vegdb *db = d ? d->db : NULL;
	pthread_mutex_unlock(&shared_lock);
	return db;
}

const pk_vegdb *vegdb_shared(const pk_variant *v)
{
	pthread_mutex_lock(&shared_lock);
	char *dir = shared_dir ? strdup(shared_dir) : NULL;
	pthread_mutex_unlock(&shared_lock);
	const pk_vegdb *db = vegdb_shared_in(dir, v);
	free(dir);
	return db;
}
