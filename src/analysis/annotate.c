/* Annotation of a game, move by move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/annotate.h"

const char *const class_name[CLASS_NONE + 1] = { "good", "inaccuracy", "mistake", "blunder", "only",
						  "forced", "book", "none" };
const pk_thresholds thresholds_default = { .blunder = 100, .mistake = 50, .inaccuracy = 25 };

int class_nag(int cls)
{
	switch (cls) {
	case CLASS_BLUNDER: return 4;
	case CLASS_MISTAKE: return 2;
	case CLASS_INACCURACY: return 6;
	case CLASS_ONLY: return 1;
	default: return 0;
	}
}

int score_capped(int s)
{
	return s > LOSS_CAP ? LOSS_CAP : s < -LOSS_CAP ? -LOSS_CAP : s;
}

int annotate_classify(const pk_thresholds *th, int loss)
{
	if (loss >= th->blunder)
		return CLASS_BLUNDER;
	if (loss >= th->mistake)
		return CLASS_MISTAKE;
	if (loss >= th->inaccuracy)
		return CLASS_INACCURACY;
	return CLASS_GOOD;
}

void tally_add(pk_tally *t, const pk_note *n)
{
	if (n->cls == CLASS_NONE)
		return;
	t->count[n->cls]++;
	if (n->cls == CLASS_FORCED || n->cls == CLASS_BOOK)
		return;
	t->moves++;
	t->total_loss += n->loss;
}

void annotate_note_best(pk_note *n, const pk_thresholds *th, bool has_second, int second)
{
	n->score_played = n->score_best;
	n->loss = 0;
	n->cls = CLASS_GOOD;
	int best = score_capped(n->score_best);
	if (has_second && best > -th->blunder && score_capped(second) <= best - th->blunder)
		n->cls = CLASS_ONLY;
}

void annotate_note_played(pk_note *n, const pk_thresholds *th, int score_played, uint64_t nodes)
{
	n->score_played = score_played;
	n->nodes += nodes;
	int loss = score_capped(n->score_best) - score_capped(score_played);
	n->loss = loss > 0 ? loss : 0;
	n->cls = annotate_classify(th, n->loss);
}

bool annotate_verify_limits(const pk_annotate_opts *o, const pk_note *n, int round, int depth0, pk_limits *deep)
{
	int rounds = o->verify_rounds > 0 ? o->verify_rounds : 1;
	if (o->verify <= 0 || round > rounds || (n->cls != CLASS_MISTAKE && n->cls != CLASS_BLUNDER) ||
	    score_is_win(n->score_best))
		return false;
	*deep = o->lim;
	deep->depth = depth0 + round * o->verify;
	/* a time or node limit bounds it too, at 16 times the first's, 4 times more each round */
	uint64_t f = (uint64_t)16 << (2 * (round - 1));
	deep->nodes = o->lim.nodes * f;
	deep->movetime = o->lim.movetime * (double)f;
	return true;
}

/* The game's positions before ply p, for repetitions: the start and each position after. */
static void history_before(const pk_replay *rp, int p, uint64_t *keys, pk_history *h)
{
	h->reversible = replay_ghistory(rp, p, keys);
	h->ending = replay_gending(rp, p);
	h->keys = keys;
	h->nkeys = p;         /* the positions before ply p's position (which is the root) */
}

/* A move between positions the databases hold is classed by them, whatever the search
 * said: a value given up is a blunder, a value kept is no mistake. */
static void egdb_classify(pk_egdb *db, const pk_pos *before, const pk_move *m, pk_note *n)
{
	pk_pos after;
	pos_make(before, m, &after);
	pk_egdb_result rb, ra;
	if (egdb_probe(db, before, &rb) != EGDB_FOUND || egdb_probe(db, &after, &ra) != EGDB_FOUND)
		return;
	n->egdb = true;
	n->egdb_before = rb.value;
	n->egdb_after = -ra.value;
	if (n->egdb_after < n->egdb_before)
		n->cls = CLASS_BLUNDER;
	else if (n->cls == CLASS_BLUNDER || n->cls == CLASS_MISTAKE || n->cls == CLASS_INACCURACY)
		n->cls = CLASS_GOOD;
}

/* The other engine's score of a position, in hundredths for the side to move, within
 * what a loss counts; false (and the reason) when it fails or gives no score. */
static bool client_score(const pk_annotate_opts *o, const pk_pos *start, const pk_move *moves, int n,
			 pk_client_answer *a)
{
	client_go(o->client, start, moves, n, o->client_time, a);
	if (a->status != CLIENT_OK) {
		if (o->client_error)
			snprintf(o->client_error, o->client_error_size, "%s", a->detail);
		return false;
	}
	if (!a->has_score) {
		if (o->client_error)
			snprintf(o->client_error, o->client_error_size,
				 "%s gives no score with its move (annotate needs one)", client_name(o->client));
		return false;
	}
	return true;
}

static int to_hundredths(double men)
{
	double x = men * 100;
	return x > 2 * LOSS_CAP ? 2 * LOSS_CAP : x < -2 * LOSS_CAP ? -2 * LOSS_CAP : (int)(x < 0 ? x - 0.5 : x + 0.5);
}

#define FORCED_MAX 32

/* The value of the position after moves[0..n) for its side to move, in hundredths: a
 * forced move (engines answer those at once, without a score) is played and the value
 * after it taken, as many times as they follow; a side with no move has lost. moves has
 * room for FORCED_MAX more. */
static bool client_value(const pk_annotate_opts *o, const pk_pos *start, pk_move *moves, int n, int *value)
{
	pk_pos p = *start;
	for (int i = 0; i < n; i++) {
		pk_pos q;
		pos_make(&p, &moves[i], &q);
		p = q;
	}
	int sign = 1;
	for (int k = 0; k < FORCED_MAX; k++) {
		pk_movelist ml;
		int nl = gen_moves(&p, &ml);
		if (nl == 0) {
			*value = -LOSS_CAP * sign;
			return true;
		}
		if (nl > 1)
			break;
		moves[n++] = ml.m[0];
		pk_pos q;
		pos_make(&p, &ml.m[0], &q);
		p = q;
		sign = -sign;
	}
	pk_client_answer a;
	if (!client_score(o, start, moves, n, &a))
		return false;
	*value = sign * to_hundredths(a.score);
	return true;
}

/* annotate_game with another engine. */
static int annotate_client(const pk_replay *rp, const pk_annotate_opts *o, pk_note *notes)
{
	pk_move *moves = malloc(sizeof *moves * (size_t)(rp->nply + 1 + FORCED_MAX));
	if (!moves)
		return -1;
	int rc = 0;
	client_new_game(o->client);
	const pk_pos *start = &rp->start;
	int first = 0;               /* the moves from start: those after the last set-up */
	for (int i = 0; i < rp->nply; i++) {
		pk_note *n = &notes[i];
		const pk_ply *pl = &rp->plies[i];
		if (pl->ordinal < 0) {
			start = &pl->after;
			first = i + 1;
			continue;
		}
		if (o->stop && *o->stop) {
			rc = 1;
			break;
		}
		const pk_pos *before = replay_pos_before(rp, i + 1);
		pk_gpos gbefore;
		gpos_english(&gbefore, before);
		n->side = before->stm;
		n->played.e = pl->move;
		n->best.e = pl->move;
		int nm = 0;
		for (int k = first; k < i; k++)
			moves[nm++] = rp->plies[k].move;
		if (pl->nlegal == 1) {
			n->cls = CLASS_FORCED;
			goto next;
		}
		if (o->in_book && o->in_book(o->book_ctx, &gbefore, &n->played)) {
			n->cls = CLASS_BOOK;
			goto next;
		}
		pk_client_answer a;
		if (!client_score(o, start, moves, nm, &a)) {
			rc = o->stop && *o->stop ? 1 : 2;
			break;
		}
		n->best.e = a.move;
		n->score_best = to_hundredths(a.score);
		n->depth = a.depth;
		n->npv = 1;
		n->pv[0].e = a.move;
		if (move_same_effect(&a.move, &pl->move))
			annotate_note_best(n, &o->th, false, 0);
		else {
			moves[nm] = pl->move;
			int after;
			if (!client_value(o, start, moves, nm + 1, &after)) {
				rc = o->stop && *o->stop ? 1 : 2;
				break;
			}
			annotate_note_played(n, &o->th, -after, 0);
		}
		if (o->egdb)
			egdb_classify(o->egdb, before, &pl->move, n);
	next:
		if (o->on_move)
			o->on_move(o->ctx, n);
	}
	free(moves);
	return rc;
}

/* Search the position before a move and score the move played at the same depth (the
 * note's best, scores, class, depth and line). With `only`, a move that is the engine's
 * best is tested for being the only one that holds. 0; 1 when stopped; -1 when out of
 * memory. */
static int judge(pk_gengine *e, const pk_gpos *before, const pk_history *h, const pk_limits *lim,
		 const pk_gmove *played, const pk_annotate_opts *o, bool only, pk_note *n)
{
	pk_gresult *r = malloc(sizeof *r);
	if (!r)
		return -1;
	int rc = 0;
	gengine_search(e, before, h, lim, NULL, 0, o->stop, NULL, NULL, r);
	if (o->stop && *o->stop) {
		rc = 1;
		goto out;
	}
	n->best = r->best;
	n->score_best = r->last.score;
	n->depth = r->last.depth;
	n->nodes = r->last.nodes;
	n->npv = r->last.npv < NOTE_PV ? r->last.npv : NOTE_PV;
	memcpy(n->pv, r->last.pv, sizeof(pk_gmove) * (size_t)n->npv);
	if (gmove_same(before, &r->best, played)) {
		if (!only) {
			annotate_note_best(n, &o->th, false, 0);
			goto out;
		}
		/* The only move: the best does not lose, every other does. */
		pk_gmove best = r->best;
		gengine_search(e, before, h, lim, &best, 1, o->stop, NULL, NULL, r);
		if (o->stop && *o->stop)
			rc = 1;
		else
			annotate_note_best(n, &o->th, r->has_move, r->last.score);
		goto out;
	}
	/* The move played, scored at the same depth: every other move left out. */
	pk_gmove *others = malloc(sizeof *others * VAR_MAX_MOVES);
	int nm = others ? gpos_gen(before, others, VAR_MAX_MOVES) : -1;
	if (nm < 0) {
		free(others);
		rc = -1;
		goto out;
	}
	int k = 0;
	for (int j = 0; j < nm; j++)
		if (!gmove_same(before, &others[j], played))
			others[k++] = others[j];
	pk_limits pl = *lim;
	if ((pl.depth == 0 || pl.movetime > 0 || pl.nodes) && n->depth > 0)
		pl.depth = n->depth;   /* a time or node limit: the depth reached */
	gengine_search(e, before, h, &pl, others, k, o->stop, NULL, NULL, r);
	free(others);
	if (o->stop && *o->stop)
		rc = 1;
	else
		annotate_note_played(n, &o->th, r->last.score, r->last.nodes);
out:
	free(r);
	return rc;
}

int annotate_game(pk_gengine *e, const pk_replay *rp, const pk_annotate_opts *o, pk_note *notes)
{
	int plies = replay_gplies(rp);
	for (int i = 0; i < plies; i++)
		notes[i] = (pk_note){ .ply = i + 1, .cls = CLASS_NONE };
	if (o->client && !rp->variant_replayed)
		return annotate_client(rp, o, notes);
	if (rp->variant_replayed ? !gengine_other(e) || !rp->vr.ord : !gengine_english(e))
		return -1;
	gengine_new_game(e);
	uint64_t *keys = malloc(sizeof *keys * (size_t)(plies + 1));
	if (!keys)
		return -1;
	int rc = 0;
	for (int i = 0; i < plies; i++) {
		pk_note *n = &notes[i];
		pk_gpos before;
		pk_gmove played;
		if (!replay_gply(rp, i + 1, &before, &played)) {
			if (rp->variant_replayed)
				break;        /* not the replay of this game: nothing more to say */
			continue;             /* a /FEN/ set-up */
		}
		if (o->stop && *o->stop) {
			n->cls = CLASS_NONE;
			rc = 1;
			break;
		}
		n->side = gpos_stm(&before);
		n->played = n->best = played;
		if ((rp->variant_replayed ? gpos_count(&before) : rp->plies[i].nlegal) == 1) {
			n->cls = CLASS_FORCED;
			goto next;
		}
		if (o->in_book && o->in_book(o->book_ctx, &before, &played)) {
			n->cls = CLASS_BOOK;
			goto next;
		}
		pk_history h;
		history_before(rp, i, keys, &h);
		int jr = judge(e, &before, &h, &o->lim, &played, o, true, n);
		if (jr) {
			n->cls = CLASS_NONE;
			rc = jr;
			break;
		}
		/* Checked deeper, round by round while still flagged: the class is what the
		 * deepest search says. */
		pk_limits deep;
		int depth0 = n->depth;
		bool stopped = false;
		for (int r = 1; !stopped && annotate_verify_limits(o, n, r, depth0, &deep); r++) {
			uint64_t nodes = n->nodes;
			if ((jr = judge(e, &before, &h, &deep, &played, o, false, n)) != 0) {
				n->cls = CLASS_NONE;
				rc = jr;
				stopped = true;
			}
			n->nodes += nodes;
		}
		if (stopped)
			break;
		if (o->egdb && !before.v)
			egdb_classify(o->egdb, &before.e, &played.e, n);
	next:
		if (o->on_move)
			o->on_move(o->ctx, n);
	}
	free(keys);
	return rc;
}

int annotate_decisive(const pk_note *notes, int n, int result, const pk_thresholds *th)
{
	if (result != RES_BLACK_WINS && result != RES_WHITE_WINS)
		return -1;
	int winner = result == RES_BLACK_WINS ? PK_BLACK : PK_WHITE;
	int candidate = -1;
	for (int i = 0; i < n; i++) {
		const pk_note *x = &notes[i];
		if (x->cls == CLASS_NONE || x->cls == CLASS_FORCED || x->cls == CLASS_BOOK)
			continue;
		/* the score after move i-1 from the winner's view is the score before move i */
		int for_winner = x->side == winner ? score_capped(x->score_best) : -score_capped(x->score_best);
		if (for_winner >= th->blunder) {
			if (candidate < 0) {
				/* the loser's last scored move before this position */
				for (int j = i - 1; j >= 0; j--)
					if (notes[j].side != winner && notes[j].cls != CLASS_NONE &&
					    notes[j].cls != CLASS_FORCED && notes[j].cls != CLASS_BOOK) {
						candidate = j;
						break;
					}
				if (candidate < 0)
					candidate = -2;   /* lost from the start position */
			}
		} else {
			candidate = -1;
		}
	}
	return candidate >= 0 ? candidate : -1;
}
