/* Recorded results against the endgame databases. */
#include <stdio.h>
#include "analysis/verdict.h"
#include "egdb/vegdb.h"
#include "pdn/vreplay.h"

int verdict_text(const pk_egdb_result *r, int stm, int result, char *buf, size_t size)
{
	int winner = r->value == EGDB_DRAW ? -1 : r->value == EGDB_WIN ? stm : !stm;
	int want = winner < 0 ? RES_DRAW : winner == PK_BLACK ? RES_BLACK_WINS : RES_WHITE_WINS;
	buf[0] = 0;
	if (want == result)
		return VERDICT_AGREES;
	if (winner < 0)
		snprintf(buf, size, "result %s, but the final position is a draw (endgame database)", result_string(result));
	else if (r->plies >= 0)
		snprintf(buf, size, "result %s, but %s wins here in %d plies (endgame database)", result_string(result),
			 winner == PK_BLACK ? "Black" : "White", r->plies);
	else
		snprintf(buf, size, "result %s, but %s wins here (endgame database)", result_string(result),
			 winner == PK_BLACK ? "Black" : "White");
	return VERDICT_CONTRADICTS;
}

int verdict_result(pk_egdb *db, pk_game *g, const pk_replay *rp)
{
	if (!db || !rp->supported || !rp->complete || g->findings.errors)
		return VERDICT_NOT_COVERED;
	if (rp->result != RES_BLACK_WINS && rp->result != RES_WHITE_WINS && rp->result != RES_DRAW)
		return VERDICT_NOT_COVERED;
	const pk_pos *p = rp->nply ? &rp->plies[rp->nply - 1].after : &rp->start;
	if (bb_count(p->side[0] | p->side[1]) > egdb_max_pieces(db) || !p->side[p->stm] || !p->side[!p->stm])
		return VERDICT_NOT_COVERED;
	pk_egdb_result r;
	int st = egdb_probe(db, p, &r);
	if (st == EGDB_MISSING)
		return VERDICT_NOT_COVERED;
	if (st == EGDB_FAILED)
		return VERDICT_FAILED;
	char msg[200];
	int v = verdict_text(&r, p->stm, rp->result, msg, sizeof msg);
	if (v == VERDICT_CONTRADICTS)
		findings_add(&g->findings, SEV_WARNING, "result-egdb", 0, 0, rp->nply, "%s", msg);
	return v;
}

int verdict_variant_result(pk_game *g, const pk_replay *rp)
{
	if (!rp->variant_replayed || !rp->complete || g->findings.errors || !rp->vr.ord)
		return VERDICT_NOT_COVERED;
	if (rp->result != RES_BLACK_WINS && rp->result != RES_WHITE_WINS && rp->result != RES_DRAW)
		return VERDICT_NOT_COVERED;
	const pk_variant *v = variant_by_gametype(rp->variant);
	const pk_vegdb *db = v ? vegdb_shared(v) : NULL;
	pk_vpos p;
	int value, plies;
	if (!db || vreplay_pos_before(&rp->vr, rp->vr.plies + 1, &p, NULL) < 0 || !vegdb_probe(db, &p, &value, &plies))
		return VERDICT_NOT_COVERED;
	/* a variant's result counts from its first mover: "1-0" (RES_BLACK_WINS) is a win of
	 * the side that moves first */
	int winner = value == EGDB_DRAW ? -1 : value == EGDB_WIN ? p.stm : !p.stm;
	int want = winner < 0 ? RES_DRAW : winner == v->first ? RES_BLACK_WINS : RES_WHITE_WINS;
	if (want == rp->result)
		return VERDICT_AGREES;
	/* a draw by a rule that counts moves is not the databases' to judge: a limited ending
	 * (its count not known here), or kings' plain moves enough for the variant's count */
	int kings_only = vdraw_kings_only_plies(v);
	if (rp->result == RES_DRAW && (vdraw_ending_plies(&p) > 0 ||
				       (rp->vr.rev && kings_only > 0 && rp->vr.rev[rp->vr.plies] >= kings_only)))
		return VERDICT_NOT_COVERED;
	if (winner < 0)
		findings_add(&g->findings, SEV_WARNING, "result-egdb", 0, 0, rp->vr.plies,
			     "result %s, but the final position is a draw (%s endgame database)", result_string(rp->result),
			     v->name);
	else
		findings_add(&g->findings, SEV_WARNING, "result-egdb", 0, 0, rp->vr.plies,
			     "result %s, but %s wins here in %d plies (%s endgame database)", result_string(rp->result),
			     winner == PK_BLACK ? "Black" : "White", plies, v->name);
	return VERDICT_CONTRADICTS;
}
