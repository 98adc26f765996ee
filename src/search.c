/* The search. Scores are from the side to move's view; a side without a legal move has
 * lost. Every leaf is quiet: a position with a capture, or with a single legal move, is
 * searched further without spending depth (captures are compulsory, so there is no
 * "standing pat" on them). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "search.h"

#define INF 32000
#define MAX_GAME 2048

const pk_features features_all = { .lmr = 1, .killers = true, .history = true, .aspiration = true };

struct pk_engine {
	pk_tt tt;
	pk_weights w;
	pk_features f;
	pk_move killers[MAX_PLY][2];
	uint32_t history[32][32];
	/* the current search */
	uint64_t nodes, node_limit;
	double t0, deadline;
	volatile sig_atomic_t *stop;
	bool stopped;
	uint64_t keys[MAX_GAME + MAX_PLY];
	int rev[MAX_GAME + MAX_PLY];     /* reversible plies ending at each entry */
	int base;                         /* entries before the root */
	pk_move pv[MAX_PLY][MAX_PLY];
	int pvlen[MAX_PLY];
	const pk_move *exclude;           /* root moves left out */
	int nexclude;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

pk_engine *engine_new(size_t hash_mb, const pk_weights *w)
{
	pk_engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (tt_init(&e->tt, hash_mb ? hash_mb : 1) < 0) {
		free(e);
		return NULL;
	}
	e->w = w ? *w : *eval_tuned_weights();
	e->f = features_all;
	return e;
}

void engine_free(pk_engine *e)
{
	if (!e)
		return;
	tt_free(&e->tt);
	free(e);
}

void engine_new_game(pk_engine *e)
{
	tt_clear(&e->tt);
	memset(e->killers, 0, sizeof e->killers);
	memset(e->history, 0, sizeof e->history);
}

void engine_set_weights(pk_engine *e, const pk_weights *w)
{
	e->w = *w;
}

void engine_set_features(pk_engine *e, const pk_features *f)
{
	e->f = *f;
}

static int to_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s;
}

static int from_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s;
}

static bool out_of_budget(pk_engine *e)
{
	if (e->stop && *e->stop)
		return true;
	if (e->node_limit && e->nodes >= e->node_limit)
		return true;
	return e->deadline > 0 && now() >= e->deadline;
}

/* Move ordering: the hash move, then (for captures) the biggest catch, then killers,
 * then the history of plain moves that refuted other positions. */
static void score_moves(const pk_engine *e, const pk_pos *p, const pk_movelist *ml, int tt_move, int ply,
			int *score)
{
	for (int i = 0; i < ml->n; i++) {
		const pk_move *m = &ml->m[i];
		int s;
		if (i == tt_move)
			s = 1 << 30;
		else if (move_is_capture(m))
			s = (1 << 24) + 16 * bb_count(m->captured) + bb_count(m->captured & p->kings);
		else if (e->f.killers && move_same_effect(m, &e->killers[ply][0]))
			s = (1 << 22);
		else if (e->f.killers && move_same_effect(m, &e->killers[ply][1]))
			s = (1 << 22) - 1;
		else if (e->f.history)
			s = (int)(e->history[m->from][move_to(m)] > (1u << 21) ? (1u << 21) : e->history[m->from][move_to(m)]);
		else
			s = 0;
		score[i] = s;
	}
}

static int pick(int *score, int n, int from)
{
	int best = from;
	for (int i = from + 1; i < n; i++)
		if (score[i] > score[best])
			best = i;
	return best;
}

static bool excluded(const pk_engine *e, const pk_move *m)
{
	for (int i = 0; i < e->nexclude; i++)
		if (move_equal(&e->exclude[i], m))
			return true;
	return false;
}

static int search(pk_engine *e, const pk_pos *p, int depth, int alpha, int beta, int ply)
{
	e->pvlen[ply] = 0;
	if ((e->nodes & 1023) == 0 && out_of_budget(e))
		e->stopped = true;
	if (e->stopped)
		return 0;
	e->nodes++;

	int gi = e->base + ply;
	e->keys[gi] = p->key;
	if (ply > 0) {
		int r = e->rev[gi];
		if (r >= DRAW_PLIES)
			return 0;
		for (int j = gi - 2; j >= 0 && gi - j <= r; j -= 2)
			if (e->keys[j] == p->key)
				return 0;
	}

	/* At the horizon most positions are quiet leaves: decide that from the bitboards
	 * before building a move list. */
	if (depth <= 0 && !gen_has_capture(p)) {
		uint64_t count = gen_count(p);
		if (count == 0)
			return -SCORE_WIN + ply;
		if (count > 1 || ply >= MAX_PLY - 2)
			return eval(p, &e->w);
	}
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	if (n == 0)
		return -SCORE_WIN + ply;
	bool capture = move_is_capture(&ml.m[0]);
	if (ply >= MAX_PLY - 2)
		return eval(p, &e->w);
	if (depth <= 0 && !capture && n > 1)
		return eval(p, &e->w);
	int child_depth = capture || n == 1 ? depth : depth - 1;

	/* No score can beat a win in the fewest plies possible from here. */
	if (alpha < -SCORE_WIN + ply)
		alpha = -SCORE_WIN + ply;
	if (beta > SCORE_WIN - ply - 1)
		beta = SCORE_WIN - ply - 1;
	if (alpha >= beta)
		return alpha;

	int tt_move = -1;
	tt_entry *te = tt_probe(&e->tt, p->key);
	if (te->key == p->key) {
		tt_move = te->move ? te->move - 1 : -1;
		if (tt_move >= n)
			tt_move = -1;
		if (ply > 0 && te->depth >= depth) {
			int s = from_tt(te->score, ply);
			if (te->bound == TT_EXACT || (te->bound == TT_LOWER && s >= beta) ||
			    (te->bound == TT_UPPER && s <= alpha))
				return s;
		}
	}

	int score[PK_MAX_MOVES];
	score_moves(e, p, &ml, tt_move, ply, score);
	int idx[PK_MAX_MOVES];
	for (int i = 0; i < n; i++)
		idx[i] = i;

	int best = -INF, best_move = -1, old_alpha = alpha;
	for (int k = 0; k < n; k++) {
		int j = pick(score, n, k);
		int ts = score[k], ti = idx[k];
		score[k] = score[j];
		idx[k] = idx[j];
		score[j] = ts;
		idx[j] = ti;
		const pk_move *m = &ml.m[idx[k]];
		if (ply == 0 && excluded(e, m))
			continue;
		pk_pos c;
		pos_make(p, m, &c);
		bool reversible = !capture && (p->kings >> m->from & 1);
		e->rev[gi + 1] = reversible ? e->rev[gi] + 1 : 0;
		int s;
		if (k == 0) {
			s = -search(e, &c, child_depth, -beta, -alpha, ply + 1);
		} else {
			/* Late plain moves of a null-window node are tried a ply shallower first;
			 * not a man about to crown, which changes the game. */
			int r = 0;
			bool crowning = bb_sq(move_to(m)) & (p->stm == PK_BLACK ? 0xFF000000u : 0x000000FFu) & ~p->kings;
			if (e->f.lmr == 1 && !capture && depth >= 3 && k >= 3 && beta - alpha == 1 && !crowning)
				r = k >= 8 && depth >= 5 ? 2 : 1;
			else if (e->f.lmr == 2 && !capture && depth >= 2 && k >= 2 && beta - alpha == 1 && !crowning)
				r = k >= 10 && depth >= 7 ? 3 : k >= 5 && depth >= 4 ? 2 : 1;
			s = -search(e, &c, child_depth - r, -alpha - 1, -alpha, ply + 1);
			if (r && s > alpha && !e->stopped)
				s = -search(e, &c, child_depth, -alpha - 1, -alpha, ply + 1);
			if (s > alpha && s < beta && !e->stopped)
				s = -search(e, &c, child_depth, -beta, -alpha, ply + 1);
		}
		if (e->stopped)
			return 0;
		if (s > best) {
			best = s;
			best_move = idx[k];
			if (s > alpha) {
				alpha = s;
				e->pv[ply][0] = *m;
				memcpy(&e->pv[ply][1], e->pv[ply + 1], sizeof(pk_move) * (size_t)e->pvlen[ply + 1]);
				e->pvlen[ply] = e->pvlen[ply + 1] + 1;
				if (s >= beta) {
					if (!capture && e->f.killers && !move_same_effect(m, &e->killers[ply][0])) {
						e->killers[ply][1] = e->killers[ply][0];
						e->killers[ply][0] = *m;
					}
					if (!capture && e->f.history)
						e->history[m->from][move_to(m)] += (uint32_t)(depth > 0 ? depth * depth : 1);
					break;
				}
			}
		}
	}
	int bound = best >= beta ? TT_LOWER : best > old_alpha ? TT_EXACT : TT_UPPER;
	tt_store(&e->tt, p->key, depth, to_tt(best, ply), bound, best_move);
	return best;
}

int engine_search(pk_engine *e, const pk_pos *root, const pk_history *h, const pk_limits *lim,
		  volatile sig_atomic_t *stop, pk_iteration_cb cb, void *ctx, pk_result *out)
{
	memset(out, 0, sizeof *out);
	e->t0 = now();
	e->nodes = 0;
	e->node_limit = lim->nodes;
	e->deadline = lim->movetime > 0 ? e->t0 + lim->movetime : 0;
	e->stop = stop;
	e->stopped = false;
	e->tt.age++;
	e->exclude = lim->exclude;
	e->nexclude = lim->nexclude;

	/* The game so far, for repetitions. */
	int nk = h ? h->nkeys : 0;
	if (nk > MAX_GAME - 1)
		nk = MAX_GAME - 1;
	for (int i = 0; i < nk; i++)
		e->keys[i] = h->keys[h->nkeys - nk + i];
	for (int i = 0; i <= nk; i++)
		e->rev[i] = 0;
	e->base = nk;
	e->rev[nk] = h ? h->reversible : 0;

	pk_movelist ml;
	int n = gen_moves(root, &ml);
	if (n == 0) {
		out->has_move = false;
		out->last.score = -SCORE_WIN;
		return 0;
	}
	int first = -1, included = 0;
	for (int i = 0; i < n; i++)
		if (!excluded(e, &ml.m[i])) {
			included++;
			if (first < 0)
				first = i;
		}
	if (included == 0) {
		out->has_move = false;
		return 0;
	}
	out->has_move = true;
	out->best = ml.m[first];
	if (n == 1) {
		out->forced = true;
		out->last.depth = 0;
		out->last.score = eval(root, &e->w);
		out->last.pv[0] = ml.m[0];
		out->last.npv = 1;
		return 0;
	}

	int max_depth = lim->depth > 0 ? lim->depth : MAX_PLY - 8;
	int prev = 0;
	for (int d = 1; d <= max_depth; d++) {
		int alpha = -INF, beta = INF, s;
		if (e->f.aspiration && d >= 5 && !score_is_win(prev)) {
			alpha = prev - 40;
			beta = prev + 40;
		}
		for (;;) {
			s = search(e, root, d, alpha, beta, 0);
			if (e->stopped)
				break;
			if (s <= alpha && alpha > -INF)
				alpha = -INF;
			else if (s >= beta && beta < INF)
				beta = INF;
			else
				break;
		}
		if (e->stopped) {
			/* In an unfinished iteration, a root move whose search completed and raised
			 * alpha (only then is the root PV set) is the better choice. */
			if (e->pvlen[0] > 0 && d > 1)
				out->best = e->pv[0][0];
			break;
		}
		prev = s;
		pk_iteration *it = &out->last;
		it->depth = d;
		it->score = s;
		it->nodes = e->nodes;
		it->seconds = now() - e->t0;
		it->npv = e->pvlen[0];
		memcpy(it->pv, e->pv[0], sizeof(pk_move) * (size_t)it->npv);
		if (it->npv > 0)
			out->best = it->pv[0];
		if (cb)
			cb(ctx, it);
		if (score_is_win(s) && score_plies(s) <= d)
			break;   /* the outcome is proven: deeper iterations cannot change it */
		/* With a time limit, an iteration that would likely not finish is not begun. */
		if (e->deadline > 0 && now() - e->t0 > 0.45 * lim->movetime)
			break;
	}
	out->last.nodes = e->nodes;
	out->last.seconds = now() - e->t0;
	return 0;
}
