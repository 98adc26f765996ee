/* The node of the search, written once for every board: alpha-beta with the
 * transposition table, the reductions and prunings that matches accepted, move
 * ordering (table move, captures, killers, countermove, history), draws by the rules.
 * Included by one file per board family, which first defines its types and operations:
 *   N_POS N_MOVE N_MOVELIST N_WORKER N_ENGINE  the position, move, list, thread, engine
 *   N_NAME(x)           the name of a global function of the instance
 *   N_GEN(p, ml)        the legal moves, in the generator's order (their number)
 *   N_MAKE(p, m, c)     c is p after m          N_KEY(p)   its hash key
 *   N_HAS_CAPTURE(p)    whether the side to move must capture
 *   N_COUNT(p)          its number of legal moves (without a list when it can)
 *   N_IS_CAPTURE(m)     N_REVERSIBLE(p, m) (no capture, no man moved)
 *   N_SAME_EFFECT(a, b) N_EQUAL(a, b)   N_NO_MOVE(m) (an empty slot of a table)
 *   N_FROM(m) N_TO(m)   squares (indexes of the history and countermove tables)
 *   N_CAPTURE_VALUE(p, m)  the ordering value of a capture
 *   N_CROWNING(p, m)    a move into the mover's last two rows
 *   N_PIECES(p)         pieces on the board     N_EVAL(p, w)  the static evaluation
 *   N_DRAW_PLIES(w)     reversible plies that draw   N_MAX_MOVES  the most legal moves
 *   N_FLIP(p)           the other side to move (the position's key need not follow)
 *   N_EGDB              1 where the endgame databases are probed
 *   N_TABLE_PROBE(w, p, ply, &s)  (optional) true with the score s of a position that
 *                       another kind of database holds exactly
 *   N_CHILD_KEY(p, m)   (optional) N_KEY of p after m, without the move made
 *   N_EVAL_CACHE        (optional) the slots of each thread's cache of N_EVAL by N_KEY
 *                       (a power of two; for an evaluation that costs more than a
 *                       memory access)
 *   N_TT_KEY(w, p, ply) (optional) the key of p's table entries when more than the
 *                       position decides its value (a limited ending's count); N_KEY(p)
 * The English instance (search.c) expands to the search as it was written for its
 * bitboards: the bench signature is the check. */
#ifndef N_TT_KEY
#define N_TT_KEY(w_, p_, ply_) N_KEY(p_)
#endif
#ifndef N_CHILD_KEY
static inline uint64_t N_NAME(child_key)(const N_POS *p, const N_MOVE *m)
{
	N_POS c;
	N_MAKE(p, m, &c);
	return N_KEY(&c);
}
#define N_CHILD_KEY(p_, m_) N_NAME(child_key)(p_, m_)
#endif
static int lmr_table[3][64][64];
/* Moves tried at a null-window node before the rest are left out, by remaining depth. */
static const int lmp_limit[5][4] = { { 0 }, { 0, 5, 7, 10 }, { 0, 4, 6, 8 }, { 0, 3, 5, 7 }, { 0, 3, 4, 6 } };

void N_NAME(se_lmr_init)(void)
{
	for (int d = 1; d < 64; d++)
		for (int k = 1; k < 64; k++) {
			lmr_table[0][d][k] = (int)(0.5 + log((double)d) * log((double)k) / 1.6);
			lmr_table[1][d][k] = (int)(0.5 + log((double)d) * log((double)k) / 1.25);
			lmr_table[2][d][k] = (int)(0.5 + log((double)d) * log((double)k) / 1.0);
		}
}

static bool out_of_budget(N_WORKER *w);

#if N_EGDB
/* The search's score of a database value, ply plies from the root. */
int N_NAME(se_egdb_score)(const pk_egdb_result *r, const N_POS *p, const pk_weights *wt, int ply)
{
	if (r->value == EGDB_DRAW)
		return 0;
	if (r->plies >= 0)
		return r->value == EGDB_WIN ? SCORE_WIN - ply - r->plies : -SCORE_WIN + ply + r->plies;
	int v = eval(p, wt);
	v = v > 2000 ? 2000 : v < -2000 ? -2000 : v;
	return r->value == EGDB_WIN ? SCORE_EGDB_WIN + v : -SCORE_EGDB_WIN + v;
}

/* A probe through the thread's own table of recent results, which spares the shared
 * cache's lock: a slot holds the key's high 48 bits and the result in the low 16 (bit 0
 * set in a used slot, bits 1-2 the value + 1, bits 3-15 the plies + 1). */

static int egdb_probe_seen(N_WORKER *w, const N_POS *p, pk_egdb_result *r)
{
	if (!w->egdb_seen && !(w->egdb_seen = calloc(EGDB_SEEN_SLOTS, sizeof(uint64_t))))
		return egdb_probe(w->e->egdb, p, r);   /* (no memory for the table: every probe shared) */
	uint64_t *slot = &w->egdb_seen[N_KEY(p) & (EGDB_SEEN_SLOTS - 1)];
	uint64_t hi = N_KEY(p) & ~0xFFFFull;
	if (*slot & 1 && (*slot & ~0xFFFFull) == hi) {
		r->value = (int)((*slot >> 1) & 3) - 1;
		r->plies = (int)((*slot >> 3) & 0x1FFF) - 1;
		return EGDB_FOUND;
	}
	int got = egdb_probe(w->e->egdb, p, r);
	/* A probe of the shared cache may read and unpack a block: the clock is looked at
	 * every 64 of them too, not only every 1024 nodes. */
	if ((++w->egdb_reads & 63) == 0 && out_of_budget(w))
		w->stopped = true;
	if (got == EGDB_FOUND && r->plies < 0x1FFF - 1)
		*slot = hi | (uint64_t)(r->plies + 1) << 3 | (uint64_t)(r->value + 1) << 1 | 1;
	return got;
}

#endif

static int to_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s;
}

static int from_tt(int s, int ply)
{
	return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s;
}

static bool out_of_budget(N_WORKER *w)
{
	N_ENGINE *e = w->e;
	atomic_store_explicit(&w->shown_nodes, w->nodes, memory_order_relaxed);
	if (e->nthreads > 1 && atomic_load_explicit(&e->shared_depth, memory_order_relaxed) >= w->iter_depth) {
		w->superseded = true;
		return true;
	}
	if (w->id > 0)
		return atomic_load_explicit(&e->abort, memory_order_relaxed);
	if (e->stop && *e->stop)
		return true;
	if (e->node_limit) {
		uint64_t total = w->nodes;
		for (int i = 1; i < e->nthreads; i++)
			total += atomic_load_explicit(&e->wk[i]->shown_nodes, memory_order_relaxed);
		if (total >= e->node_limit)
			return true;
	}
	return e->deadline > 0 && se_now() >= e->deadline;
}

/* Move ordering: the hash move, then (for captures) the biggest catch, then killers,
 * then the history of plain moves that refuted other positions. */
static void score_moves(const N_WORKER *w, const N_POS *p, const N_MOVELIST *ml, int tt_move, int ply,
			int *score)
{
	(void)p;   /* (an instance's capture value may not need the position) */
	/* the refutation of the opponent's last move, when there is one */
	const N_MOVE *cm = NULL;
	if (w->e->f.countermove && ply > 0) {
		const N_MOVE *last = &w->path[ply - 1];
		cm = &w->counter[N_FROM(last)][N_TO(last)];
		if (N_NO_MOVE(cm))
			cm = NULL;   /* none yet */
	}
	for (int i = 0; i < ml->n; i++) {
		const N_MOVE *m = &ml->m[i];
		int s;
		if (i == tt_move)
			s = 1 << 30;
		else if (N_IS_CAPTURE(m))
			s = (1 << 24) + N_CAPTURE_VALUE(p, m);
		else if (w->e->f.killers && N_SAME_EFFECT(m, &w->killers[ply][0]))
			s = (1 << 22);
		else if (w->e->f.killers && N_SAME_EFFECT(m, &w->killers[ply][1]))
			s = (1 << 22) - 1;
		else if (cm && N_SAME_EFFECT(m, cm))
			s = (1 << 22) - 2;
		else if (w->e->f.history)
			s = (int)(w->history[N_FROM(m)][N_TO(m)] > (1u << 21) ? (1u << 21) : w->history[N_FROM(m)][N_TO(m)]);
		else
			s = 0;
		score[i] = s;
	}
}

/* The first of the highest scores from `from` on (the best score kept in a register:
 * reading score[best] again each time made every step wait on the last). */
static int pick(const int *score, int n, int from)
{
	int best = from, top = score[from];
	for (int i = from + 1; i < n; i++) {
		int s = score[i];
		best = s > top ? i : best;
		top = s > top ? s : top;
	}
	return best;
}

static inline uint64_t busy_hash(uint64_t key, int move)
{
	return (key ^ (uint64_t)(move + 1) * 0x9E3779B97F4A7C15ull) | 1;
}

bool N_NAME(se_excluded)(const N_ENGINE *e, const N_MOVE *m)
{
	for (int i = 0; i < e->nexclude; i++)
		if (N_EQUAL(&e->exclude[i], m))
			return true;
	return false;
}

/* A position of key `key`, gi entries into the keys after r reversible plies, is drawn
 * by the rules: the 50-move count has run out, or it repeats one of those plies (the
 * same side to move, so every other entry). */
static inline bool draw_by_rule(const N_WORKER *w, int gi, uint64_t key, int r)
{
	if (r >= N_DRAW_PLIES(w))
		return true;
	for (int j = gi - 2; j >= 0 && gi - j <= r; j -= 2)
		if (w->keys[j] == key)
			return true;
	return false;
}

static int search_node(N_WORKER *w, const N_POS *p, int depth, int alpha, int beta, int ply);
#if N_EGDB
static int draw_played_on(N_WORKER *w, const N_POS *p, int depth, int alpha, int beta, int ply);
#endif

int N_NAME(se_search)(N_WORKER *w, const N_POS *p, int depth, int alpha, int beta, int ply)
{
	N_ENGINE *e = w->e;
	(void)e;
	w->pvlen[ply] = 0;
	if ((w->nodes & 1023) == 0 && out_of_budget(w))
		w->stopped = true;
	if (w->stopped)
		return 0;
	w->nodes++;

	int gi = w->base + ply;
	w->keys[gi] = N_KEY(p);
	if (ply > 0 && draw_by_rule(w, gi, N_KEY(p), w->rev[gi]))
		return 0;

#if N_EGDB
	if (ply > 0 && e->egdb_pieces && N_PIECES(p) <= e->egdb_pieces) {
		pk_egdb_result r;
		if (egdb_probe_seen(w, p, &r) == EGDB_FOUND) {
			w->egdb_hits++;
			if (r.value == EGDB_DRAW && e->draw_play)
				return draw_played_on(w, p, depth, alpha, beta, ply);
			/* A won ending played out (see win_play): a win or loss without
			 * distances is searched on to the horizon, scored there as below. */
			if (r.value != EGDB_DRAW && r.plies < 0 && e->win_play && (depth > 0 || N_HAS_CAPTURE(p)))
				return search_node(w, p, depth, alpha, beta, ply);
			return N_NAME(se_egdb_score)(&r, p, &e->w, ply);
		}
	}
#endif
#ifdef N_TABLE_PROBE
	int table_score;
	if (ply > 0 && N_TABLE_PROBE(w, p, ply, &table_score))
		return table_score;
#endif
	return search_node(w, p, depth, alpha, beta, ply);
}

#if N_EGDB
/* A drawn ending played for a win (the root a database draw, egdb-draws=1): a drawn
 * position is searched on like any other, wins and losses still exact, and its score
 * bounded to what a draw can be worth: from 0 to EGDB_DRAW_MAX for the root's side (it
 * can lose nothing there; only its chances count), from -EGDB_DRAW_MAX to 0 for the
 * other. The bound is monotone, so a bound of the search is one of the score. */
static int draw_played_on(N_WORKER *w, const N_POS *p, int depth, int alpha, int beta, int ply)
{
	int lo = ply % 2 == 0 ? 0 : -EGDB_DRAW_MAX, hi = ply % 2 == 0 ? EGDB_DRAW_MAX : 0;
	if (beta <= lo)
		return lo;
	if (alpha >= hi)
		return hi;
	int s = search_node(w, p, depth, alpha > lo - 1 ? alpha : lo - 1, beta < hi + 1 ? beta : hi + 1, ply);
	return s < lo ? lo : s > hi ? hi : s;
}

#endif

/* The evaluation of a quiet position gi plies into the keys: with the progress feature,
 * scaled down by the reversible plies (king moves, no capture) that lead to it, to 0
 * at f.progress of them, so that a side ahead that only shuffles its kings is found
 * drawing, and a line that makes progress (a man's move, an exchange) is preferred. */
static inline int leaf_eval(N_WORKER *w, const N_POS *p, int gi)
{
	const N_ENGINE *e = w->e;
#ifdef N_EVAL_CACHE
	/* the thread's recent evaluations: a slot holds the key's high 47 bits (bit 16
	 * set, so that an empty slot matches none) and the evaluation in the low 16 */
	uint64_t key = N_KEY(p), tag = (key | 0x10000) & ~0xFFFFull;
	uint64_t *slot = &w->eval_cache[key & (N_EVAL_CACHE - 1)];
	int v;
	if ((*slot & ~0xFFFFull) == tag) {
		v = (int16_t)(uint16_t)*slot;
	} else {
		v = N_EVAL(p, &e->w);
		if (v >= INT16_MIN && v <= INT16_MAX)
			*slot = tag | (uint16_t)v;
	}
#else
	int v = N_EVAL(p, &e->w);
#endif
	int n = e->f.progress, r = w->rev[gi];
	if (n > 0 && r > 0)
		v = r >= n ? 0 : (int)((long)v * (n - r) / n);
	/* draw-seek: each piece on the board costs the root's side (to move at even plies) */
	if (e->f.draw_seek)
		v -= (((gi - w->base) & 1) ? -1 : 1) * e->f.draw_seek * N_PIECES(p);
	return v;
}

/* A quiet leaf (depth 0, no kings on the board) with offers on: the side to move may
 * stand on its evaluation or play a plain move that gives the other side a capture (an
 * exchange or the start of a shot), searched through the captures that follow and no
 * further (depth -1: one offer a line). Only the mover's choice: what it stands on is
 * the least it gets, so a leaf never scores below its evaluation. */
static int quiet_offers(N_WORKER *w, const N_POS *p, int alpha, int beta, int ply, int gi)
{
	int best = leaf_eval(w, p, gi);
	if (best >= beta)
		return best;
	N_MOVELIST ml;
	int n = N_GEN(p, &ml);
	for (int i = 0; i < n; i++) {
		N_POS c;
		N_MAKE(p, &ml.m[i], &c);
		if (!N_HAS_CAPTURE(&c))
			continue;
		w->rev[gi + 1] = 0;
		if (w->e->f.countermove)
			w->path[ply] = ml.m[i];
		int s = -N_NAME(se_search)(w, &c, -1, -beta, -(alpha > best ? alpha : best), ply + 1);
		if (w->stopped)
			return 0;
		if (s > best) {
			best = s;
			if (s > alpha) {
				w->pv[ply][0] = ml.m[i];
				memcpy(&w->pv[ply][1], w->pv[ply + 1], sizeof(N_MOVE) * (size_t)w->pvlen[ply + 1]);
				w->pvlen[ply] = w->pvlen[ply + 1] + 1;
			}
			if (s >= beta)
				break;
		}
	}
	return best;
}

/* The search of a node past the repetition and database checks. */
static int search_node(N_WORKER *w, const N_POS *p, int depth, int alpha, int beta, int ply)
{
	N_ENGINE *e = w->e;
	int gi = w->base + ply;

	/* At the horizon most positions are quiet leaves: decide that from the bitboards
	 * before building a move list. A leaf where the opponent could capture if it were
	 * to move is not quiet for it: with the threat feature its moves are searched (at
	 * depth 0 only, so once on a line), the capture to come seen in the replies. */
	bool threatened = false;
	if (depth <= 0 && !N_HAS_CAPTURE(p)) {
		uint64_t count = N_COUNT(p);
		if (count == 0)
			return -SCORE_WIN + ply;
		if (count > 1 || ply >= MAX_PLY - 2) {
			if (e->f.threat && depth == 0 && ply < MAX_PLY - 8) {
				N_POS q = *p;
				N_FLIP(&q);
				threatened = N_HAS_CAPTURE(&q);
			}
			if (!threatened)
				return e->f.offers && depth == 0 && ply < MAX_PLY - 8 && !N_HAS_KINGS(p) ?
				       quiet_offers(w, p, alpha, beta, ply, gi) : leaf_eval(w, p, gi);
		}
	}
	N_MOVELIST ml;
	int n = N_GEN(p, &ml);
	if (n == 0)
		return -SCORE_WIN + ply;
	bool capture = N_IS_CAPTURE(&ml.m[0]);
	if (ply >= MAX_PLY - 2)
		return leaf_eval(w, p, gi);
	if (depth <= 0 && !capture && n > 1 && !threatened)
		return leaf_eval(w, p, gi);
	int child_depth = (capture && !(e->f.capture_ply && n > 1 && depth > e->f.capture_ply)) || n == 1 ||
				  (!capture && n <= e->f.few && ply < MAX_PLY / 2) ? depth : depth - 1;

	/* No score can beat a win in the fewest plies possible from here. */
	if (alpha < -SCORE_WIN + ply)
		alpha = -SCORE_WIN + ply;
	if (beta > SCORE_WIN - ply - 1)
		beta = SCORE_WIN - ply - 1;
	if (alpha >= beta)
		return alpha;

	int tt_move = -1;
	tt_data te;
	bool use_tt = depth > 0 || e->f.tt_horizon;
	uint64_t tt_key = N_TT_KEY(w, p, ply);
	if (use_tt && tt_probe(&e->tt, tt_key, &te)) {
		tt_move = te.move ? te.move - 1 : -1;
		if (tt_move >= n)
			tt_move = -1;
		if (ply > 0 && te.depth >= depth) {
			int s = from_tt(te.score, ply);
			if (te.bound == TT_EXACT || (te.bound == TT_LOWER && s >= beta) ||
			    (te.bound == TT_UPPER && s <= alpha))
				return s;
		}
	}

	/* No table move at a deep node: searched a ply shallower (its move ordering is
	 * guesswork; the next iteration finds a table move). */
	if (e->f.iir && tt_move < 0 && depth >= e->f.iir && !capture && n > 1) {
		depth--;
		child_depth--;
	}

	bool pv_node = beta - alpha > 1;
	/* Enhanced transposition cutoff: a child whose table entry, deep enough, already
	 * holds the opponent at or below -beta refutes this node without a search. */
	if (e->f.etc && ply > 0 && depth >= e->f.etc && !pv_node) {
		/* the children's slots asked for first, so that their fetches overlap */
		uint64_t ckey[N_MAX_MOVES];
		for (int i = 0; i < n; i++) {
			ckey[i] = N_CHILD_KEY(p, &ml.m[i]);
			tt_prefetch(&e->tt, ckey[i]);
		}
		for (int i = 0; i < n; i++) {
			/* a child that repeats the game or ends the 50-move count is a draw
			 * whatever the table says: left to the search */
			if (N_REVERSIBLE(p, &ml.m[i]) && draw_by_rule(w, gi + 1, ckey[i], w->rev[gi] + 1))
				continue;
			tt_data ce;
			if (!tt_probe(&e->tt, ckey[i], &ce) || ce.depth < child_depth ||
			    (ce.bound != TT_EXACT && ce.bound != TT_UPPER))
				continue;
			int s = -from_tt(ce.score, ply + 1);
			if (s >= beta) {
				tt_store(&e->tt, tt_key, depth, to_tt(s, ply), TT_LOWER, i);
				return s;
			}
		}
	}
	/* Few pieces: a king hunt is a long narrow line that cuts would lose. */
	bool few_pieces = N_PIECES(p) <= e->f.prune_pieces;
	/* The static evaluation, computed once for the cuts near the horizon below. */
	int se = 0;
	bool have_se = false;
	/* Near the horizon, a quiet position whose evaluation stands well above beta is
	 * taken to hold there (no capture for either side: a shot to come is not seen by
	 * the evaluation). */
	if (e->f.rfp && !pv_node && !capture && depth >= 1 && depth <= 3 && ply > 0 && !few_pieces &&
	    !score_is_win(beta) && !score_is_win(alpha)) {
		se = leaf_eval(w, p, gi);
		have_se = true;
		if (se - e->f.rfp * depth >= beta) {
			N_POS q = *p;
			N_FLIP(&q);
			if (!N_HAS_CAPTURE(&q))
				return se - e->f.rfp * depth;
		}
	}
	/* Near the horizon, a quiet position whose evaluation stands well below alpha is
	 * searched one ply deep (its captures played out) below alpha by the margin: when
	 * it stays there, so does the node. */
	if (e->f.razor && !pv_node && !capture && depth >= 2 && depth <= 3 && ply > 0 && !few_pieces &&
	    !score_is_win(beta) && !score_is_win(alpha)) {
		int margin = e->f.razor * depth;
		if (!have_se)
			se = leaf_eval(w, p, gi);
		if (se + margin <= alpha) {
			int s = search_node(w, p, 1, alpha - margin, alpha - margin + 1, ply);
			if (w->stopped)
				return 0;
			if (s <= alpha - margin)
				return s;
		}
	}
	/* A shallow null-window search well above beta that holds there is taken as
	 * the deep one holding at beta. */
	if (e->f.probcut && !pv_node && !capture && depth >= (e->f.probcut_depth ? 3 : 5) && ply > 0 &&
	    !few_pieces && !w->in_probcut && !score_is_win(beta) && !score_is_win(alpha)) {
		int rbeta = beta + e->f.probcut + e->f.probcut_slope * depth;
		int rdepth = depth - 4;
		if (e->f.probcut_depth) {
			rdepth = depth * e->f.probcut_depth / 100;
			if (rdepth < 1)
				rdepth = 1;
			w->in_probcut++;
		}
		int s = N_NAME(se_search)(w, p, rdepth, rbeta - 1, rbeta, ply);
		if (e->f.probcut_depth)
			w->in_probcut--;
		if (w->stopped)
			return 0;
		if (s >= rbeta)
			return s - (e->f.probcut_depth ? rbeta - beta : 0);
	}

	/* A table move that every other move, searched to half the depth, stays well below
	 * is the only good move here: it is searched a ply deeper. */
	int singular_move = -1;
	if (e->f.singular && ply > 0 && ply < 2 * w->iter_depth && depth >= 8 && tt_move >= 0 && !capture && n > 1 &&
	    te.depth >= depth - 3 && te.bound != TT_UPPER && !score_is_win(from_tt(te.score, ply))) {
		int sbeta = from_tt(te.score, ply) - e->f.singular;
		int sdepth = (depth - 1) / 2;
		bool single = true;
		for (int i = 0; i < n && single; i++) {
			if (i == tt_move)
				continue;
			N_POS c;
			N_MAKE(p, &ml.m[i], &c);
			w->rev[gi + 1] = N_REVERSIBLE(p, &ml.m[i]) ? w->rev[gi] + 1 : 0;
			if (e->f.countermove)
				w->path[ply] = ml.m[i];
			int s = -N_NAME(se_search)(w, &c, sdepth, -sbeta, -sbeta + 1, ply + 1);
			if (w->stopped)
				return 0;
			single = s < sbeta;
		}
		if (single)
			singular_move = tt_move;
	}

	int score[N_MAX_MOVES];
	score_moves(w, p, &ml, tt_move, ply, score);
	int idx[N_MAX_MOVES];
	for (int i = 0; i < n; i++)
		idx[i] = i;

	int best = -INF, best_move = -1, old_alpha = alpha;
	int quiet_tried[N_MAX_MOVES], nquiet = 0;
	/* With several threads, a move another thread is searching here is put off until
	 * the others are done: by then its result may be in the table. */
	bool share = e->nthreads > 1 && depth >= 3;
	int deferred[N_MAX_MOVES], deferred_k[N_MAX_MOVES], ndeferred = 0;
	for (int step = 0; step < n + ndeferred; step++) {
		int k, mi;
		if (step < n) {
			k = step;
			int j = pick(score, n, k);
			int ts = score[k], ti = idx[k];
			score[k] = score[j];
			idx[k] = idx[j];
			score[j] = ts;
			idx[j] = ti;
			mi = idx[k];
		} else {
			mi = deferred[step - n];
			k = deferred_k[step - n];
		}
		uint64_t bh = share ? busy_hash(N_KEY(p), mi) : 0;
		_Atomic uint64_t *slot = &e->busy[bh & (BUSY_SLOTS - 1)];
		if (share && step < n && k > 0 && atomic_load_explicit(slot, memory_order_relaxed) == bh) {
			deferred[ndeferred] = mi;
			deferred_k[ndeferred++] = k;
			continue;
		}
		const N_MOVE *m = &ml.m[mi];
		if (ply == 0 && N_NAME(se_excluded)(e, m))
			continue;
		/* Moves into the mover's last two rows, by a man (crowning now or next) or by a
		 * king alike: the destination is empty, so the kings mask does not tell them
		 * apart. Kept so (the bench signature and the matches that tuned the reductions
		 * were measured with it). */
		bool crowning = N_CROWNING(p, m);
		/* Late plain moves near the horizon of a null-window node are not tried. */
		bool lmp_cut = e->f.lmp && !pv_node && !capture && depth <= 3 && depth > 0 && !few_pieces && !crowning &&
			       best > -INF && k >= lmp_limit[e->f.lmp][depth];
		if (lmp_cut && !e->f.sac && !e->f.shots)
			continue;
		N_POS c;
		N_MAKE(p, m, &c);
		/* sac, shots: a move that gives the other side a capture opens a shot */
		bool gives = (e->f.sac || e->f.shots) && !capture && (lmp_cut || (e->f.sac && k > 0)) && N_HAS_CAPTURE(&c);
		if (lmp_cut && !gives)
			continue;
		/* the child's slot asked for ahead of its probe; a child at the horizon does
		 * not probe the table (use_tt), and its slot's fetch would only crowd out
		 * others' */
		if (child_depth + (mi == singular_move) > 0 || e->f.tt_horizon)
			tt_prefetch(&e->tt, N_KEY(&c));
		if (e->f.countermove)
			w->path[ply] = *m;   /* the refutation table's key at the next ply */
		bool reversible = N_REVERSIBLE(p, m);
		w->rev[gi + 1] = reversible ? w->rev[gi] + 1 : 0;
		if (share)
			atomic_store_explicit(slot, bh, memory_order_relaxed);
		int s;
		if (k == 0) {
			s = -N_NAME(se_search)(w, &c, child_depth + (mi == singular_move), -beta, -alpha, ply + 1);
		} else {
			/* Late plain moves of a null-window node are tried a ply shallower first;
			 * not a move into the last two rows (see crowning above). */
			int r = 0;
			if (e->f.lmr == 1 && !capture && depth >= 3 && k >= 3 && beta - alpha == 1 && !crowning)
				r = k >= 8 && depth >= 5 ? 2 : 1;
			else if (e->f.lmr == 2 && !capture && depth >= 2 && k >= 2 && beta - alpha == 1 && !crowning)
				r = k >= 10 && depth >= 7 ? 3 : k >= 5 && depth >= 4 ? 2 : 1;
			else if (e->f.lmr >= 3 && !capture && depth >= 2 && k >= 2 && !crowning && !few_pieces) {
				r = lmr_table[e->f.lmr - 3][depth < 64 ? depth : 63][k < 64 ? k : 63];
				if (beta - alpha > 1 && r > 0)
					r--;
				/* lmr-adjust: a killer a ply less; 2: a move no cut-off has
				 * credited yet a ply more */
				if (e->f.lmr_adjust && score[k] >= (1 << 22) - 1 && r > 0)
					r--;
				else if (e->f.lmr_adjust >= 2 && score[k] == 0 && depth >= 3)
					r++;
				if (gives && r > 0)
					r = e->f.sac >= r ? 0 : r - e->f.sac;
				if (r > child_depth - 1)
					r = child_depth - 1 > 0 ? child_depth - 1 : 0;
			}
			s = -N_NAME(se_search)(w, &c, child_depth - r, -alpha - 1, -alpha, ply + 1);
			if (r && s > alpha && !w->stopped)
				s = -N_NAME(se_search)(w, &c, child_depth, -alpha - 1, -alpha, ply + 1);
			if (s > alpha && s < beta && !w->stopped)
				s = -N_NAME(se_search)(w, &c, child_depth, -beta, -alpha, ply + 1);
		}
		if (share) {
			uint64_t expect = bh;
			atomic_compare_exchange_strong_explicit(slot, &expect, 0, memory_order_relaxed, memory_order_relaxed);
		}
		if (w->stopped)
			return 0;
		if (!capture && nquiet < N_MAX_MOVES)
			quiet_tried[nquiet++] = mi;
		if (s > best) {
			best = s;
			best_move = mi;
			if (s > alpha) {
				alpha = s;
				w->pv[ply][0] = *m;
				memcpy(&w->pv[ply][1], w->pv[ply + 1], sizeof(N_MOVE) * (size_t)w->pvlen[ply + 1]);
				w->pvlen[ply] = w->pvlen[ply + 1] + 1;
				if (s >= beta) {
					if (!capture && e->f.killers && !N_SAME_EFFECT(m, &w->killers[ply][0])) {
						w->killers[ply][1] = w->killers[ply][0];
						w->killers[ply][0] = *m;
					}
					if (!capture && e->f.countermove && ply > 0) {
						const N_MOVE *last = &w->path[ply - 1];
						w->counter[N_FROM(last)][N_TO(last)] = *m;
					}
					if (!capture && e->f.history) {
						uint32_t bonus = (uint32_t)(depth > 0 ? depth * depth : 1);
						w->history[N_FROM(m)][N_TO(m)] += bonus;
						if (e->f.history_malus)
							for (int q = 0; q < nquiet - 1; q++) {
								const N_MOVE *o = &ml.m[quiet_tried[q]];
								uint32_t *h = &w->history[N_FROM(o)][N_TO(o)];
								*h = *h > bonus ? *h - bonus : 0;
							}
					}
					break;
				}
			}
		}
	}
	int bound = best >= beta ? TT_LOWER : best > old_alpha ? TT_EXACT : TT_UPPER;
	if (use_tt)
		tt_store(&e->tt, tt_key, depth, to_tt(best, ply), bound, best_move);
	return best;
}
