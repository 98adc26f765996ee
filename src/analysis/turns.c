/* Where a decided game turned, from the scores its moves carry (turns.h). */
#include <stdlib.h>
#include <string.h>
#include "analysis/turns.h"

bool turns_parse_eval(const char *comment, int *score)
{
	const char *p = strstr(comment, "[%eval");
	if (!p)
		return false;
	p += 6;
	while (*p == ' ')
		p++;
	bool win = *p == '#';
	p += win;
	int sign = 1;
	if (*p == '-' || *p == '+')
		sign = *p++ == '-' ? -1 : 1;
	if (*p < '0' || *p > '9')
		return false;
	long whole = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (whole < TURNS_WIN)
			whole = whole * 10 + (*p - '0');
	if (win) {
		if (whole >= TURNS_WIN / 2 || (*p != ']' && *p != ' '))
			return false;
		*score = sign * (TURNS_WIN - (int)whole);
		return true;
	}
	long frac = 0;
	int digits = 0;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (digits < 2) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
	if (digits == 1)
		frac *= 10;
	if (*p != ']' && *p != ' ')
		return false;
	long v = whole * 100 + frac;
	if (v >= TURNS_WIN / 2)   /* not an evaluation: taken as a win */
		v = TURNS_WIN / 2;
	*score = sign * (int)v;
	return true;
}

int turns_parse_depth(const char *comment)
{
	const char *p = strstr(comment, "[%depth");
	if (!p)
		return -1;
	p += 7;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	int d = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (d < 10000)
			d = d * 10 + (*p - '0');
	return d;
}

/* The first ply of side's notes from which all its later notes give the winner at least
 * threshold; 0 when its last note does not. */
static int stays_from(const int *has, const int *mover, const int *wv, int n, int side, int threshold)
{
	int from = 0;
	for (int p = n; p >= 1; p--) {
		if (!has[p] || mover[p] != side)
			continue;
		if (wv[p] < threshold)
			break;
		from = p;
	}
	return from;
}

int turns_find(const pk_game *g, const pk_replay *rp, int threshold, int min_depth, pk_turn *t)
{
	memset(t, 0, sizeof *t);
	t->winner = -1;
	t->result = rp->result;
	/* another variant's replay keeps each ply's elements and positions in vr */
	const pk_vreplay *vr = rp->variant_replayed && rp->vr.el && rp->vr.pos ? &rp->vr : NULL;
	if (!vr && (rp->variant_replayed || !rp->supported))
		return -1;
	int n = vr ? vr->plies : rp->nply;
	/* the notes' scores are the first mover's: Black's in English draughts */
	int first = vr ? vr->first : PK_BLACK;
	int *has = calloc((size_t)n + 1, sizeof *has), *mover = calloc((size_t)n + 1, sizeof *mover),
	    *wv = calloc((size_t)n + 1, sizeof *wv);
	if (!has || !mover || !wv) {
		free(has);
		free(mover);
		free(wv);
		return -2;
	}
	/* "1-0" (RES_BLACK_WINS) is the first mover's win in every variant */
	int winner = rp->result == RES_BLACK_WINS ? first : rp->result == RES_WHITE_WINS ? !first : -1;
	for (int p = 1; p <= n; p++) {
		mover[p] = vr ? vr->pos[p - 1].stm : replay_pos_before(rp, p)->stm;
		for (int e = (vr ? vr->el[2 * (p - 1) + 1] : rp->plies[p - 1].el_last) + 1; e < g->nel; e++) {
			const pk_el *el = &g->els[e];
			if (el->depth > 0 || el->kind == EL_NAG || el->kind == EL_VAR_START || el->kind == EL_VAR_END)
				continue;
			if (el->kind != EL_COMMENT)
				break;
			int s;
			const char *text = game_str(g, el->off);
			if (turns_parse_eval(text, &s)) {
				int d = turns_parse_depth(text);
				if (d >= 0 && d < min_depth)
					break;   /* a forced move's shallow score */
				has[p] = 1;
				wv[p] = winner == first ? s : -s;
				t->notes++;
				break;
			}
		}
	}
	t->winner = winner;
	if (winner >= 0) {
		int loser = !winner;
		t->winner_ply = stays_from(has, mover, wv, n, winner, threshold);
		t->loser_ply = stays_from(has, mover, wv, n, loser, threshold);
		int start = t->winner_ply && t->loser_ply ? (t->winner_ply < t->loser_ply ? t->winner_ply : t->loser_ply)
							  : t->winner_ply + t->loser_ply;
		int turn = start - 1;
		while (turn >= 1 && mover[turn] != loser)
			turn--;
		if (start > 0 && turn >= 1) {
			t->turn = turn;
			if (has[turn]) {
				t->has_loser_score = true;
				t->loser_score = -wv[turn];
			}
			for (int p = turn + 1; p <= n; p++)
				if (has[p] && mover[p] == winner) {
					t->has_winner_score = true;
					t->winner_score = wv[p];
					break;
				}
		}
	}
	free(has);
	free(mover);
	free(wv);
	return 0;
}
