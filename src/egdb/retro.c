/* Retrograde analysis of one slice pair, in three steps:
 *  1. every position is looked at once: moves that leave the pair (captures, crownings)
 *     are valued from the slices already built; a position with no move is lost in 0;
 *     the moves that stay in the pair are counted;
 *  2. positions are settled in order of distance (a bucket queue): a position lost in d
 *     makes each of its predecessors won in d + 1; a position won in d takes one from
 *     the count of each predecessor, and a predecessor whose moves are all used up this
 *     way is lost in the longer of d + 1 and its moves out of the pair;
 *  3. what is left is drawn.
 * Predecessors come from un-making the other side's quiet moves (a king steps back in any
 * direction, a man backwards) and keeping those where that side had no capture (captures
 * are compulsory, so a quiet move was legal only without one). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/pool.h"
#include "egdb/retro.h"
#include "rules/gen.h"
#include "rules/tables.h"

typedef struct {
	uint64_t *v;
	size_t n, cap;
} bucket;

/* The levels (distances) still to settle, each a list of entries (table << 62 | index).
 * Each thread settling a level adds to a set of its own; a level is the union of them. */
struct retro_levels {
	bucket *b;
	size_t nb;
};
typedef struct retro_levels levels;

/* Lets go of a bucket, its entries no longer counted. */
static void bucket_drop(retro_pair *pr, bucket *b)
{
	if (b->cap)
		atomic_fetch_sub(&pr->queued, b->cap);
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}

/* Adds an entry to a level; a level past the queue's cap is marked to be found by a scan
 * instead and its entries let go (this thread's now, the others' when they next add to it
 * or when it is settled). */
static int push(retro_pair *pr, levels *lq, unsigned level, int t, uint64_t idx)
{
	if (__atomic_load_n(&pr->over[level], __ATOMIC_RELAXED)) {
		if (level < lq->nb && lq->b[level].cap)
			bucket_drop(pr, &lq->b[level]);
		return 0;
	}
	if (level >= lq->nb) {
		size_t nb = lq->nb ? lq->nb : 64;
		while (nb <= level)
			nb *= 2;
		bucket *b = realloc(lq->b, sizeof *b * nb);
		if (!b)
			return -1;
		memset(b + lq->nb, 0, sizeof *b * (nb - lq->nb));
		lq->b = b;
		lq->nb = nb;
	}
	bucket *b = &lq->b[level];
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		/* while the entries move, the old and the new array are both held */
		uint64_t q = atomic_fetch_add(&pr->queued, cap) + cap;
		if (pr->queue_cap && q > pr->queue_cap) {
			atomic_fetch_sub(&pr->queued, cap);
			__atomic_store_n(&pr->over[level], 1, __ATOMIC_RELAXED);
			bucket_drop(pr, b);
			return 0;
		}
		uint64_t *v = realloc(b->v, sizeof *v * cap);
		if (!v) {
			atomic_fetch_sub(&pr->queued, cap);
			return -1;
		}
		atomic_fetch_sub(&pr->queued, b->cap);
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = (uint64_t)t << 62 | idx;
	return 0;
}

/* A move that leaves the pair: a capture, or a man crowned; when the pair is of parts,
 * also a man's step that moves its side's leading row on (into a part built before). */
static bool leaves(const retro_pair *pr, const pk_pos *p, const pk_move *m)
{
	if (move_is_capture(m))
		return true;
	if (p->kings >> m->from & 1)
		return false;
	bb_t to = bb_sq(move_to(m));
	if (to & BB_BLACK_KINGROW)
		return true;
	/* the mover's men move up the squares' order: its lead is its highest man's row */
	return pr->t[0].sl.part && (31 - __builtin_clz(to)) / 4 > (31 - __builtin_clz(p->side[0] & ~p->kings)) / 4;
}

/* Step 1 for one position; returns -1 when a slice (or part) it needs is missing. */
static int init_one(retro_pair *pr, retro_table *t, pk_slice_walk *walk, uint64_t idx)
{
	pk_pos p;
	if (!slice_walk_position(walk, idx, &p)) {
		t->val[idx] = V_HOLE;
		return 0;
	}
	pk_movelist ml;
	gen_moves(&p, &ml);
	bool capture = ml.n && move_is_capture(&ml.m[0]);
	unsigned win = V_UNKNOWN, bound = 0;
	int inside = 0;
	bool draw = false;
	for (int i = 0; i < ml.n; i++) {
		if (!leaves(pr, &p, &ml.m[i])) {
			inside++;
			continue;
		}
		pk_pos q;
		pos_make(&p, &ml.m[i], &q);
		int c = egdb_code(pr->db, &q);
		if (c < 0)
			return -1;
		if (c == EGDB_CODE_DRAW)
			draw = true;
		else if (c & 1) {
			if ((unsigned)c < win)
				win = (unsigned)c;      /* they lose in c - 1: we win in c */
		} else if ((unsigned)c > bound)
			bound = (unsigned)c;
	}
	t->cnt[idx] = capture ? C_CAPTURE : (uint8_t)inside;
	if (win != V_UNKNOWN)
		t->val[idx] = (uint16_t)win;
	else if (inside == 0)
		t->val[idx] = draw ? V_DRAW : (uint16_t)bound;   /* bound 0: no move at all */
	else {
		t->val[idx] = V_UNKNOWN;
		if (draw)
			t->cnt[idx] = C_NEVER;
	}
	return 0;
}

#define CHUNK 4096

static void init_worker(int i, void *ctx)
{
	(void)i;
	retro_pair *pr = ctx;
	uint64_t total = 0;
	for (int k = 0; k < pr->nt; k++)
		total += pr->t[k].sl.size;
	for (;;) {
		uint64_t start = atomic_fetch_add(&pr->next, CHUNK);
		if (start >= total || atomic_load(&pr->failed) || (pr->stop && *pr->stop))
			return;
		uint64_t end = start + CHUNK < total ? start + CHUNK : total;
		pk_slice_walk walk[2];
		for (int k = 0; k < pr->nt; k++)
			slice_walk_init(&walk[k], &pr->t[k].sl);
		for (uint64_t g = start; g < end; g++) {
			int k = g >= pr->t[0].sl.size;
			uint64_t idx = k ? g - pr->t[0].sl.size : g;
			if (init_one(pr, &pr->t[k], &walk[k], idx) < 0) {
				atomic_store(&pr->failed, 1);
				return;
			}
		}
	}
}

/* The loss distance of a position whose quiet moves all lose: its moves out of the pair
 * count too. */
static unsigned loss_bound(retro_pair *pr, const pk_pos *p)
{
	pk_movelist ml;
	gen_moves(p, &ml);
	unsigned bound = 0;
	for (int i = 0; i < ml.n; i++) {
		if (!leaves(pr, p, &ml.m[i]))
			continue;
		pk_pos q;
		pos_make(p, &ml.m[i], &q);
		int c = egdb_code(pr->db, &q);
		if (c > 0 && !(c & 1) && (unsigned)c > bound)
			bound = (unsigned)c;
	}
	return bound;
}

/* One predecessor q (canonical, at index j of table t) of a position settled at level d;
 * new levels go to lq. Threads may settle the same q at once: a level only sets values
 * of higher levels (wins on even levels, losses on odd ones), so the outcome does not
 * depend on their order, and the entries are changed atomically. */
static int settle_pred(retro_pair *pr, levels *lq, int t, uint64_t j, const pk_pos *q, unsigned d)
{
	retro_table *tb = &pr->t[t];
	uint16_t v = __atomic_load_n(&tb->val[j], __ATOMIC_RELAXED);
	if (!(d & 1)) {
		/* q can move to a position lost in d: q is won in d + 1. */
		while (v == V_UNKNOWN || (v != V_DRAW && v > d + 1))
			if (__atomic_compare_exchange_n(&tb->val[j], &v, (uint16_t)(d + 1), false, __ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
				return push(pr, lq, d + 1, t, j);
		return 0;
	}
	/* On an odd level the value of q changes only here, by the thread that takes its
	 * count to 0: the counts are exact (one a quiet move of q), so no thread takes one
	 * from a count already at 0. */
	if (v != V_UNKNOWN || __atomic_load_n(&tb->cnt[j], __ATOMIC_RELAXED) == C_NEVER)
		return 0;
	if (__atomic_sub_fetch(&tb->cnt[j], 1, __ATOMIC_RELAXED) == 0) {
		unsigned l = loss_bound(pr, q);
		if (l < d + 1)
			l = d + 1;
		__atomic_store_n(&tb->val[j], (uint16_t)l, __ATOMIC_RELAXED);
		return push(pr, lq, l, t, j);
	}
	return 0;
}

/* A predecessor waiting in a batch: its table, index and position. */
typedef struct {
	pk_pos q;
	uint64_t j;
	int t;
} pending;

/* Every predecessor of p (canonical, Black to move): White un-makes a quiet move. The
 * predecessor, turned round, has Black to move again. They are added to out (at most
 * 4 a piece), their table entries fetched ahead: settling them is a random read of a
 * table far larger than the caches, the build's main cost. */
static int predecessors(const retro_pair *pr, int t, const pk_pos *p, unsigned d, pending *out)
{
	int pt = pr->nt == 1 ? 0 : !t, n = 0;
	const retro_table *tb = &pr->t[pt];
	bb_t empty = pos_empty(p);
	for (bb_t w = p->side[PK_WHITE]; w; w = bb_clear_first(w)) {
		int s = bb_first(w);
		bool king = p->kings >> s & 1;
		for (int dir = 0; dir < 4; dir++) {
			/* White's men move up (towards square 1): one came from below. */
			if (!king && dir != DIR_DL && dir != DIR_DR)
				continue;
			int r = tab_step[dir][s];
			if (r < 0 || !(empty & bb_sq(r)))
				continue;
			bb_t white = (p->side[PK_WHITE] & ~bb_sq(s)) | bb_sq(r);
			bb_t kings = king ? (p->kings & ~bb_sq(s)) | bb_sq(r) : p->kings;
			pk_pos before = { .side = { p->side[PK_BLACK], white }, .kings = kings, .stm = PK_WHITE };
			pending *e = &out[n];
			egdb_canonical(&before, &e->q);
			if (gen_has_capture(&e->q))
				continue;
			if (tb->sl.part) {
				/* a predecessor whose leading rows are not this part's lies in a part
				 * built after this one, which reads this one's values */
				int lead[2];
				slice_leads(&e->q, lead);
				if (lead[0] != tb->sl.lead[0] || lead[1] != tb->sl.lead[1])
					continue;
			}
			e->t = pt;
			e->j = slice_index(&tb->sl, &e->q);
			__builtin_prefetch(&tb->val[e->j], 1);
			if (d & 1)      /* counts are read only on odd levels */
				__builtin_prefetch(&tb->cnt[e->j], 1);
			n++;
		}
	}
	return n;
}

void retro_free(retro_pair *pr)
{
	for (int k = 0; k < 2; k++) {
		free(pr->t[k].val);
		free(pr->t[k].cnt);
		pr->t[k].val = NULL;
		pr->t[k].cnt = NULL;
	}
	for (int q = 0; q < pr->nlq; q++) {
		for (size_t i = 0; i < pr->lq[q].nb; i++)
			free(pr->lq[q].b[i].v);
		free(pr->lq[q].b);
	}
	free(pr->lq);
	pr->lq = NULL;
	pr->nlq = 0;
	free(pr->over);
	pr->over = NULL;
}

/* Settling one level: its entries (the union of the threads' lists) are shared out in
 * chunks; each chunk is taken a batch at a time: the batch's entries are fetched ahead,
 * then all their predecessors' entries, then the predecessors are settled. */
enum { BATCH = 64, LEVEL_CHUNK = 16 * BATCH, PARALLEL_LEVEL = 4096 };

typedef struct {
	retro_pair *pr;
	unsigned d;
	const uint64_t *lv[POOL_MAX_THREADS];
	size_t ln[POOL_MAX_THREADS];
	int nl;
	bool scan;              /* the level's positions found by a scan of the tables */
	size_t total;
	atomic_size_t next;
	atomic_int failed;      /* 1 out of memory, 2 a distance too long */
} level_job;

static uint64_t level_entry(const level_job *j, size_t g)
{
	int q = 0;
	while (g >= j->ln[q])
		g -= j->ln[q++];
	return j->lv[q][g];
}

static void prefetch_entry(const retro_pair *pr, uint64_t e)
{
	__builtin_prefetch(&pr->t[e >> 62].val[e & ((1ull << 62) - 1)]);
}

/* Settles a batch of entries of level d (those still at d): their predecessors are
 * found, their table entries fetched ahead, then settled. 0, or the failure (1 out of
 * memory, 2 a distance too long). */
static int settle_batch(retro_pair *pr, levels *lq, unsigned d, const uint64_t *ents, int n, pending *pend)
{
	int np = 0;
	for (int i = 0; i < n; i++) {
		int k = (int)(ents[i] >> 62);
		uint64_t idx = ents[i] & ((1ull << 62) - 1);
		if (pr->t[k].val[idx] != d)
			continue;       /* settled since at a lower level */
		if (d + 2 >= V_MAX)
			return 2;
		pk_pos p = { .stm = 0 };
		slice_position(&pr->t[k].sl, idx, &p);
		np += predecessors(pr, k, &p, d, pend + np);
	}
	for (int i = 0; i < np; i++)
		if (settle_pred(pr, lq, pend[i].t, pend[i].j, &pend[i].q, d) < 0)
			return 1;
	return 0;
}

enum { SCAN_CHUNK = 1 << 16 };

static void level_worker(int w, void *ctx)
{
	level_job *j = ctx;
	retro_pair *pr = j->pr;
	levels *lq = &pr->lq[w];
	unsigned d = j->d;
	pending *pend = malloc(sizeof *pend * BATCH * 4 * EGDB_MAX_PIECES);
	if (!pend) {
		atomic_store(&j->failed, 1);
		return;
	}
	uint64_t ents[BATCH];
	int rc = 0;
	size_t chunk = j->scan ? SCAN_CHUNK : LEVEL_CHUNK;
	while (!rc) {
		size_t from = atomic_fetch_add(&j->next, chunk);
		if (from >= j->total || atomic_load(&j->failed))
			break;
		size_t to = from + chunk < j->total ? from + chunk : j->total;
		if (j->scan) {
			/* the level's positions are those whose value is d, found in order */
			int n = 0;
			for (size_t g = from; g < to && !rc; g++) {
				uint64_t n0 = pr->t[0].sl.size;
				int k = g >= n0;
				uint64_t idx = k ? g - n0 : g;
				if (pr->t[k].val[idx] != d)
					continue;
				ents[n++] = (uint64_t)k << 62 | idx;
				if (n == BATCH) {
					rc = settle_batch(pr, lq, d, ents, n, pend);
					n = 0;
				}
			}
			if (n && !rc)
				rc = settle_batch(pr, lq, d, ents, n, pend);
			continue;
		}
		for (size_t i = from; i < to && i < from + BATCH; i++)
			prefetch_entry(pr, level_entry(j, i));
		for (size_t i0 = from; i0 < to && !rc; i0 += BATCH) {
			size_t i1 = i0 + BATCH < to ? i0 + BATCH : to;
			/* the next batch's entries, fetched while this one is worked on */
			for (size_t i = i1; i < to && i < i1 + BATCH; i++)
				prefetch_entry(pr, level_entry(j, i));
			int n = 0;
			for (size_t i = i0; i < i1; i++)
				ents[n++] = level_entry(j, i);
			rc = settle_batch(pr, lq, d, ents, n, pend);
		}
	}
	if (rc)
		atomic_store(&j->failed, rc);
	free(pend);
}

/* Steps 1-3 for the pair; 0, 1 stopped, -1 with the reason. Step 2 settles a level on
 * every thread when it is large enough to pay for starting them (one pair at a time:
 * the largest 7-piece pairs do not fit two at once). */
int retro_solve(retro_pair *pr, int threads, char *err, size_t errsize)
{
	for (int k = 0; k < pr->nt; k++) {
		size_t n = pr->t[k].sl.size;
		pr->t[k].val = malloc(sizeof *pr->t[k].val * (n ? n : 1));
		pr->t[k].cnt = malloc(n ? n : 1);
		if (!pr->t[k].val || !pr->t[k].cnt) {
			snprintf(err, errsize, "out of memory (%zu positions)", n);
			return -1;
		}
	}
	if (threads < 1)
		threads = 1;
	if (threads > POOL_MAX_THREADS)
		threads = POOL_MAX_THREADS;
	pr->lq = calloc((size_t)threads, sizeof *pr->lq);
	if (!pr->lq)
		goto oom;
	pr->nlq = threads;
	pr->over = calloc(V_MAX, 1);
	if (!pr->over)
		goto oom;
	pr->scans = 0;
	atomic_store(&pr->queued, 0);
	atomic_store(&pr->next, 0);
	atomic_store(&pr->failed, 0);
	pool_run(threads, init_worker, pr);
	if (pr->stop && *pr->stop)
		return 1;
	if (atomic_load(&pr->failed)) {
		snprintf(err, errsize, "a slice it depends on is missing or unreadable: %s", egdb_error(pr->db));
		return -1;
	}
	for (int k = 0; k < pr->nt; k++)
		for (uint64_t i = 0; i < pr->t[k].sl.size; i++) {
			uint16_t v = pr->t[k].val[i];
			if (v < V_MAX && push(pr, &pr->lq[0], v, k, i) < 0)
				goto oom;
		}
	for (size_t d = 0;; d++) {
		if (pr->stop && *pr->stop)
			return 1;
		/* Nothing is added to level d while it is settled (the arrays of levels may
		 * move; this level's entries do not). */
		level_job *job = calloc(1, sizeof *job);
		if (!job)
			goto oom;
		job->pr = pr;
		job->d = (unsigned)d;
		bool more = false;
		for (int q = 0; q < pr->nlq; q++)
			if (d < pr->lq[q].nb)
				more = true;
		if (d < V_MAX && pr->over[d]) {
			/* past the queue's cap: every position of this level is found by a scan
			 * (no position takes this value while the level is settled) */
			job->scan = true;
			for (int k = 0; k < pr->nt; k++)
				job->total += pr->t[k].sl.size;
			pr->scans++;
		} else
			for (int q = 0; q < pr->nlq; q++) {
				levels *l = &pr->lq[q];
				if (d < l->nb) {
					job->lv[job->nl] = l->b[d].v;
					job->ln[job->nl] = l->b[d].n;
					job->total += l->b[d].n;
					job->nl++;
				}
			}
		if (!more) {
			free(job);
			break;
		}
		int failed = 0;
		if (job->total) {
			pool_run(threads > 1 && job->total >= PARALLEL_LEVEL ? threads : 1, level_worker, job);
			failed = atomic_load(&job->failed);
		}
		free(job);
		if (failed == 2) {
			snprintf(err, errsize, "a distance beyond %u plies", V_MAX);
			return -1;
		}
		if (failed)
			goto oom;
		/* this level's entries, and those of levels since marked for a scan */
		for (int q = 0; q < pr->nlq; q++)
			for (size_t l = d; l < pr->lq[q].nb; l++)
				if ((l == d || pr->over[l]) && pr->lq[q].b[l].cap)
					bucket_drop(pr, &pr->lq[q].b[l]);
	}
	for (int k = 0; k < pr->nt; k++)
		for (uint64_t i = 0; i < pr->t[k].sl.size; i++)
			if (pr->t[k].val[i] == V_UNKNOWN)
				pr->t[k].val[i] = V_DRAW;
	return 0;
oom:
	snprintf(err, errsize, "out of memory");
	return -1;
}
