/* perft, single-threaded and split over threads. The work is cut into the subtrees
 * below the first two plies and handed out one at a time, so that two threads stay
 * busy even when one root move owns most of the tree. */
#include <stdatomic.h>
#include <stdlib.h>
#include "base/pool.h"
#include "rules/perft.h"

static inline uint64_t leaves1(const pk_pos *c, bool unique)
{
	return unique ? gen_count_unique(c) : gen_count(c);
}

/* Leaves two plies below p. Plain moves, by far the most common, are made straight
 * from the bitboards: no move list and no Zobrist update, which the counts never read. */
static uint64_t perft2(const pk_pos *p, bool unique)
{
	pk_movelist ml;
	uint64_t n = 0;
	if (gen_has_capture(p)) {
		if (unique)
			gen_moves_unique(p, &ml);
		else
			gen_moves(p, &ml);
		for (int i = 0; i < ml.n; i++) {
			pk_pos c;
			pos_make(p, &ml.m[i], &c);
			n += leaves1(&c, unique);
		}
		return n;
	}
	int us = p->stm;
	bb_t own = p->side[us], kings = p->kings, empty = pos_empty(p);
	bb_t down = us == PK_BLACK ? own : own & kings;
	bb_t up = us == PK_WHITE ? own : own & kings;
	bb_t crown = us == PK_BLACK ? BB_BLACK_KINGROW : BB_WHITE_KINGROW;
	pk_pos c = *p;
	c.stm = !us;
#define EACH_STEP(TARGETS, BACK)                                                          \
	for (bb_t t = (TARGETS) & empty; t; t = bb_clear_first(t)) {                      \
		bb_t to = t & (0u - t), from = BACK(to);                                   \
		c.side[us] = own ^ from ^ to;                                              \
		c.kings = (kings & from) ? kings ^ from ^ to : (to & crown) ? kings | to : kings; \
		n += leaves1(&c, unique);                                                  \
	}
	EACH_STEP(bb_down_left(down), bb_up_right)
	EACH_STEP(bb_down_right(down), bb_up_left)
	EACH_STEP(bb_up_left(up), bb_down_right)
	EACH_STEP(bb_up_right(up), bb_down_left)
#undef EACH_STEP
	return n;
}

uint64_t perft(const pk_pos *p, int depth, bool unique)
{
	if (depth <= 0)
		return 1;
	if (depth == 1)
		return leaves1(p, unique);
	if (depth == 2)
		return perft2(p, unique);
	pk_movelist ml;
	if (unique)
		gen_moves_unique(p, &ml);
	else
		gen_moves(p, &ml);
	uint64_t n = 0;
	for (int i = 0; i < ml.n; i++) {
		pk_pos c;
		pos_make(p, &ml.m[i], &c);
		n += perft(&c, depth - 1, unique);
	}
	return n;
}

typedef struct {
	pk_pos pos;
	int root;
	uint64_t count;
} job;

typedef struct {
	job *jobs;
	int njobs;
	int depth;      /* depth remaining below each job's position */
	bool unique;
	atomic_int next;
} pool;

static void worker(int id, void *arg)
{
	(void)id;
	pool *w = arg;
	for (;;) {
		int i = atomic_fetch_add(&w->next, 1);
		if (i >= w->njobs)
			return;
		w->jobs[i].count = perft(&w->jobs[i].pos, w->depth, w->unique);
	}
}

static int list_moves(const pk_pos *p, bool unique, pk_movelist *ml)
{
	return unique ? gen_moves_unique(p, ml) : gen_moves(p, ml);
}

uint64_t perft_divide(const pk_pos *p, int depth, bool unique, int threads,
		      pk_movelist *roots, uint64_t *counts)
{
	list_moves(p, unique, roots);
	for (int i = 0; i < roots->n; i++)
		counts[i] = 0;
	if (depth <= 0)
		return 1;

	/* Jobs are the positions after two plies (or one, for shallow trees). */
	int split = depth >= 3 ? 2 : 1;
	int cap = roots->n * PK_MAX_MOVES, njobs = 0;
	job *jobs = malloc(sizeof *jobs * (size_t)(cap ? cap : 1));
	pk_movelist *ml2 = malloc(sizeof *ml2);
	if (!jobs || !ml2) {
		free(jobs);
		free(ml2);
		return UINT64_MAX;
	}
	for (int i = 0; i < roots->n; i++) {
		pk_pos c;
		pos_make(p, &roots->m[i], &c);
		if (split == 1) {
			jobs[njobs++] = (job){ .pos = c, .root = i };
			continue;
		}
		list_moves(&c, unique, ml2);
		for (int j = 0; j < ml2->n; j++) {
			jobs[njobs] = (job){ .root = i };
			pos_make(&c, &ml2->m[j], &jobs[njobs].pos);
			njobs++;
		}
	}
	free(ml2);

	pool w = { .jobs = jobs, .njobs = njobs, .depth = depth - split, .unique = unique };
	atomic_init(&w.next, 0);
	pool_run(threads, worker, &w);

	uint64_t total = 0;
	for (int k = 0; k < njobs; k++) {
		counts[jobs[k].root] += jobs[k].count;
		total += jobs[k].count;
	}
	free(jobs);
	return total;
}
