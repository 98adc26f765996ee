/* Annotation of a game of another variant: as annotate_game, with the variant engine. */
#include <stdlib.h>
#include <string.h>
#include "analysis/annotate.h"

/* Stopped: this note and those after it are left unscored. */
static bool halted(const pk_annotate_opts *o, pk_note *n)
{
	if (!(o->stop && *o->stop))
		return false;
	n->cls = CLASS_NONE;
	return true;
}

/* The position before ply i searched and the move played scored at the same depth (see
 * annotate.c's judge). 0; 1 when stopped. */
static int vjudge(pk_vengine *e, const pk_vpos *before, const pk_vreplay *vr, int i, const pk_limits *limits,
		  const pk_vmove *played, const pk_vmovelist *ml, pk_vmove *others, int nm, const pk_annotate_opts *o,
		  bool only, pk_note *n, pk_vnote *vn)
{
	pk_limits lim = *limits;
	lim.exclude = NULL;
	lim.nexclude = 0;
	pk_vresult r;
	vengine_search(e, before, vr->key, i, &lim, o->stop, NULL, NULL, &r);
	if (o->stop && *o->stop)
		return 1;
	vn->best = r.best;
	n->score_best = r.last.score;
	n->depth = r.last.depth;
	n->nodes = r.last.nodes;
	vn->npv = r.last.npv < NOTE_PV ? r.last.npv : NOTE_PV;
	memcpy(vn->pv, r.last.pv, sizeof(pk_vmove) * (size_t)vn->npv);
	if (vmove_same(&r.best, played)) {
		if (!only) {
			annotate_note_best(n, &o->th, false, 0);
			return 0;
		}
		/* the only move: the best does not lose, every other does */
		vengine_exclude(e, &r.best, 1);
		pk_vresult r2;
		vengine_search(e, before, vr->key, i, &lim, o->stop, NULL, NULL, &r2);
		if (o->stop && *o->stop)
			return 1;
		annotate_note_best(n, &o->th, r2.has_move, r2.last.score);
		return 0;
	}
	/* the move played, scored at the same depth: every other move left out */
	int k = 0;
	for (int j = 0; j < nm; j++)
		if (!vmove_same(&ml->m[j], played))
			others[k++] = ml->m[j];
	vengine_exclude(e, others, k);
	if ((lim.depth == 0 || lim.movetime > 0 || lim.nodes) && n->depth > 0)
		lim.depth = n->depth;    /* a time or node limit: the depth reached */
	pk_vresult r2;
	vengine_search(e, before, vr->key, i, &lim, o->stop, NULL, NULL, &r2);
	if (o->stop && *o->stop)
		return 1;
	annotate_note_played(n, &o->th, r2.last.score, r2.last.nodes);
	return 0;
}

int vannotate_game(pk_vengine *e, const pk_vreplay *vr, const pk_annotate_opts *o, pk_note *notes, pk_vnote *vnotes)
{
	vengine_new_game(e);
	pk_vmovelist *ml = malloc(sizeof *ml);
	pk_vmove *others = malloc(sizeof *others * VAR_MAX_MOVES);
	if (!ml || !others) {
		free(ml);
		free(others);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < vr->plies; i++) {
		notes[i] = (pk_note){ .ply = i + 1, .cls = CLASS_NONE };
		memset(&vnotes[i], 0, sizeof vnotes[i]);
	}
	pk_vpos before = vr->start;
	for (int i = 0; i < vr->plies; i++) {
		pk_note *n = &notes[i];
		pk_vnote *vn = &vnotes[i];
		if (halted(o, n)) {
			rc = 1;
			break;
		}
		int nm = vgen(&before, ml);
		if (vr->ord[i] < 0 || vr->ord[i] >= nm)
			break;                   /* not the replay of this game: nothing more to say */
		const pk_vmove played = ml->m[vr->ord[i]];
		n->side = before.stm;
		vn->played = vn->best = played;
		if (nm == 1) {
			n->cls = CLASS_FORCED;
			goto next;
		}
		if (o->in_vbook && o->in_vbook(o->book_ctx, &before, &played)) {
			n->cls = CLASS_BOOK;
			goto next;
		}
		if (vjudge(e, &before, vr, i, &o->lim, &played, ml, others, nm, o, true, n, vn)) {
			n->cls = CLASS_NONE;
			rc = 1;
			break;
		}
		/* checked deeper, round by round while still flagged */
		pk_limits deep;
		int depth0 = n->depth;
		bool stopped = false;
		for (int r = 1; !stopped && annotate_verify_limits(o, n, r, depth0, &deep); r++) {
			uint64_t nodes = n->nodes;
			if (vjudge(e, &before, vr, i, &deep, &played, ml, others, nm, o, false, n, vn)) {
				n->cls = CLASS_NONE;
				rc = 1;
				stopped = true;
			}
			n->nodes += nodes;
		}
		if (stopped)
			break;
	next:
		if (o->on_move)
			o->on_move(o->ctx, n);
		pk_vpos after;
		vmake(&before, &played, &after);
		before = after;
	}
	free(ml);
	free(others);
	return rc;
}
