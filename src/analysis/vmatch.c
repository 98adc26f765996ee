/* The match referee for the other variants: the variant engines play from every
 * two-ply opening, under the same rules of a finished game as English draughts. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/match_int.h"
#include "pdn/movenum.h"
#include "proto/child.h"

int match_vopenings(const pk_variant *v, pk_opening **out)
{
	pk_vmovelist *m1 = malloc(sizeof *m1), *m2 = malloc(sizeof *m2);
	int n = 0, cap = 0;
	pk_opening *list = NULL;
	if (!m1 || !m2)
		goto fail;
	pk_vpos s;
	vpos_start(v, &s);
	vgen(&s, m1);
	for (int a = 0; a < m1->n; a++) {
		pk_vpos p1;
		vmake(&s, &m1->m[a], &p1);
		vgen(&p1, m2);
		for (int b = 0; b < m2->n; b++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				pk_opening *nl = realloc(list, sizeof *nl * (size_t)cap);
				if (!nl)
					goto fail;
				list = nl;
			}
			pk_opening *o = &list[n++];
			memset(o, 0, sizeof *o);
			vmake(&p1, &m2->m[b], &o->vstart);
			char x[64], y[64];
			vmove_text(v, &m1->m[a], false, x, sizeof x);
			vmove_text(v, &m2->m[b], false, y, sizeof y);
			snprintf(o->text, sizeof o->text, "1. %s %s", x, y);
			o->nply = 2;
			o->keys[0] = vpos_key(&s);
			o->keys[1] = vpos_key(&p1);
		}
	}
	free(m1);
	free(m2);
	*out = list;
	return n;
fail:
	free(m1);
	free(m2);
	free(list);
	return -1;
}

bool match_vrandomize(const pk_variant *v, const pk_opening *base, int plies, uint64_t seed, pk_opening *o)
{
	*o = *base;
	uint64_t st = seed;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return false;
	pk_vpos p = o->vstart;
	bool ok = true;
	for (int k = 0; k < plies && o->nply < 8; k++) {
		if (vgen(&p, ml) == 0) {
			ok = false;
			break;
		}
		/* splitmix64 */
		uint64_t z = (st += 0x9E3779B97F4A7C15ull);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		const pk_vmove *mv = &ml->m[z % (uint64_t)ml->n];
		o->keys[o->nply++] = vpos_key(&p);
		char t[96];
		vmove_text(v, mv, false, t, sizeof t);
		size_t len = strlen(o->text);
		snprintf(o->text + len, sizeof o->text - len, " %s", t);
		pk_vpos q;
		vmake(&p, mv, &q);
		p = q;
	}
	o->vstart = p;
	ok = ok && vgen(&p, ml) > 0;
	free(ml);
	return ok;
}

bool match_vopening_of(const pk_variant *v, const pk_replay *rp, pk_opening *o)
{
	const pk_vreplay *vr = &rp->vr;
	if (rp->variant != v->gametype || !vr->ord || !vr->key)
		return false;
	memset(o, 0, sizeof *o);
	o->nply = vr->plies > 8 ? 8 : vr->plies;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return false;
	pk_vpos p = vr->start;
	for (int i = 0; i < o->nply; i++) {
		o->keys[i] = vr->key[i];
		vgen(&p, ml);
		pk_vpos q;
		vmake(&p, &ml->m[vr->ord[i]], &q);
		p = q;
	}
	o->vstart = p;
	vfen_format(&vr->start, o->text, sizeof o->text);
	bool ok = vgen(&p, ml) > 0;
	free(ml);
	return ok;
}

static pthread_mutex_t vtime_lock = PTHREAD_MUTEX_INITIALIZER;

/* The DXP engine of player i, connected (again) when it is not; NULL with the reason. */
static dxp_client *dxp_seat(pk_match *m, int i, dxp_client *dc[2], char *err, size_t errsize)
{
	if (dxp_client_alive(dc[i]))
		return dc[i];
	dxp_client_close(dc[i]);
	dc[i] = dxp_client_open(m->pl[i].ext, &m->copts, err, errsize);
	if (dc[i])
		dxp_client_set_time(dc[i], (int)(m->clock_base / 60 + 0.5), 0);
	return dc[i];
}

static void account(pk_match *m, pk_match_game *g, int who, double dt)
{
	g->used[who] += dt;
	g->moves[who]++;
	pthread_mutex_lock(&vtime_lock);
	m->pl[who].used += dt;
	m->pl[who].searched++;
	if (dt > m->pl[who].longest)
		m->pl[who].longest = dt;
	pthread_mutex_unlock(&vtime_lock);
}

void match_vplay(pk_match *m, pk_match_game *g, pk_vengine *eng[2], dxp_client *dc[2])
{
	const pk_opening *o = &m->op[g->opening];
	const pk_variant *v = m->variant;
	int first = v->first;
	int idx_of[2];                          /* the player of each colour */
	idx_of[PK_BLACK] = g->a_black ? 0 : 1;
	idx_of[PK_WHITE] = !idx_of[PK_BLACK];
	uint64_t keys[MATCH_MAX_PLIES + 16];
	pk_vmove played[MATCH_MAX_PLIES + 16];
	double times[MATCH_MAX_PLIES + 16];
	int nkeys = 0;
	for (int i = 0; i < o->nply; i++)
		keys[nkeys++] = o->keys[i];
	pk_vpos p = o->vstart;
	int rev = 0;
	pk_vdraw dr;
	vdraw_init(&dr);
	size_t cap = 0, len = 0;
	char *text = NULL;
	bool ok = match_append(&text, &len, &cap, "");
	g->fault_by = -1;
	for (int i = 0; i < 2; i++) {
		if (eng[i])
			vengine_new_game(eng[i]);
		else if (dc[i])
			dxp_client_new_game(dc[i]);
	}
	g->result = RES_DRAW;
	g->reason = "move limit";
	int ply;
	double saved[2] = { 0, 0 };
	double clock[2] = { m->clock_base, m->clock_base };
	bool timed = m->clock_base > 0;
	for (ply = 0; ply < MATCH_MAX_PLIES && ok; ply++) {
		int who = idx_of[p.stm];
		pk_vresult r;
		memset(&r, 0, sizeof r);
		pk_move_note note = { 0 };
		if (m->pl[who].ext) {
			pk_vmovelist *ml = malloc(sizeof *ml);
			int legal = ml ? vgen(&p, ml) : -1;
			free(ml);
			if (legal < 0) {
				ok = false;
				break;
			}
			if (legal > 0) {
				char err[700];
				dxp_client *c = dxp_seat(m, who, dc, err, sizeof err);
				if (!c) {
					match_forfeit(m, g, who, p.stm == first ? PK_BLACK : PK_WHITE, CLIENT_CRASHED, err);
					break;
				}
				pk_client_answer a;
				dxp_client_go(c, &o->vstart, played, times, ply, clock[who], &a, &r.best);
				pthread_mutex_lock(&vtime_lock);
				snprintf(m->pl[who].name, sizeof m->pl[who].name, "%s", dxp_client_name(c));
				pthread_mutex_unlock(&vtime_lock);
				clock[who] -= a.seconds;
				account(m, g, who, a.seconds);
				note.seconds = a.seconds;
				note.depth = a.depth;
				if (a.has_score && a.score > -1000 && a.score < 1000) {
					note.has_score = true;
					note.score_black = (int)(a.score * 100 + (a.score < 0 ? -0.5 : 0.5));
				}
				if (m->stop && *m->stop)
					break;
				if (a.status != CLIENT_OK) {
					char d[900];
					snprintf(d, sizeof d, "ply %d: %s", o->nply + ply + 1, a.detail);
					/* "side" in match_forfeit is English's: the first mover is Black there */
					match_forfeit(m, g, who, p.stm == first ? PK_BLACK : PK_WHITE, a.status, d);
					break;
				}
				r.has_move = true;
			}
		} else {
			pk_limits lim = m->pl[who].lim;
			if (timed)
				lim.movetime = match_clock_share(clock[who], m->clock_inc);   /* the clock rules, as in English */
			else if (lim.movetime > 0)
				lim.movetime += saved[who];
			if (m->pl[who].bk && book_vchoose(m->pl[who].bk, &p, &r.best)) {
				r.has_move = true;       /* a book move: instant */
				r.forced = true;
				note.book = true;
				atomic_fetch_add(&m->book_count[who], 1);
			} else {
				double t0 = child_now();
				vengine_search(eng[who], &p, keys, nkeys, &lim, (volatile sig_atomic_t *)m->stop, NULL, NULL, &r);
				if (m->stop && *m->stop)
					break;   /* abandoned: not finished, not counted */
				double dt = child_now() - t0;
				if (timed)
					clock[who] -= dt;
				account(m, g, who, dt);
				note.seconds = dt;
				if (!r.forced && r.last.depth > 0) {
					note.has_score = true;
					note.score_black = r.last.score;
					note.depth = r.last.depth;
				}
			}
			if (m->pl[who].lim.movetime > 0 && !timed)
				saved[who] = r.forced ? lim.movetime : 0;
		}
		if (timed) {
			if (clock[who] < -m->copts.margin) {
				char d[200];
				snprintf(d, sizeof d, "ply %d: %s's clock fell %.2f s below zero", o->nply + ply + 1,
					 m->pl[who].name, -clock[who]);
				match_forfeit(m, g, who, p.stm == first ? PK_BLACK : PK_WHITE, CLIENT_TIMEOUT, d);
				break;
			}
			clock[who] += m->clock_inc;
		}
		if (!r.has_move) {
			/* "1-0" is the first mover's win */
			g->result = p.stm == first ? RES_WHITE_WINS : RES_BLACK_WINS;
			g->reason = "no legal move";
			break;
		}
		/* the number before the first mover's moves: movenum counts the first mover as
		 * English draughts' Black */
		int rel = p.stm == first ? PK_BLACK : PK_WHITE, rel0 = o->vstart.stm == first ? PK_BLACK : PK_WHITE;
		char mv[96];
		vmove_text(v, &r.best, false, mv, sizeof mv);
		ok = match_append_move(&text, &len, &cap, movenum_at(1, rel0, ply), rel, ply == 0 || !m->no_notes, mv);
		/* the mover's score, from the first mover's view */
		if (rel != PK_BLACK)
			note.score_black = -note.score_black;
		ok = ok && (m->no_notes || match_append_note(&text, &len, &cap, &note));
		bool reversible = r.best.ncap == 0 && (p.sq[r.best.from] == VP_WKING || p.sq[r.best.from] == VP_BKING);
		keys[nkeys++] = vpos_key(&p);
		played[ply] = r.best;
		times[ply] = note.seconds;
		pk_vpos q;
		vmake(&p, &r.best, &q);
		/* the variant's own draw rules (rules/variant.c cites them) */
		const char *drawn = vdraw_after(&dr, &p, &r.best, &q);
		p = q;
		rev = reversible ? rev + 1 : 0;
		if (drawn) {
			g->reason = drawn;
			ply++;
			break;
		}
		/* threefold repetition (the kings-only count is the variant's, above) */
		if ((g->reason = match_drawn(keys, nkeys, vpos_key(&p), rev < 99 ? rev : 99)) != NULL) {
			ply++;
			break;
		}
		g->reason = "move limit";
	}
	if (!ok) {
		free(text);
		text = NULL;
		m->failed = 1;
	}
	/* the DXP engines are told the result now (not when the next game starts), from
	 * their own view */
	for (int i = 0; i < 2 && !(m->stop && *m->stop); i++) {
		if (!dc[i] || !m->pl[i].ext)
			continue;
		int colour = idx_of[PK_WHITE] == i ? PK_WHITE : PK_BLACK;
		bool first_mover = colour == first;
		int res = g->result == RES_DRAW ? 0 :
			  g->result == RES_BLACK_WINS ? (first_mover ? 1 : -1) :
			  g->result == RES_WHITE_WINS ? (first_mover ? -1 : 1) : DXP_RESULT_UNKNOWN;
		dxp_client_end_game(dc[i], res);
	}
	g->plies = ply;
	g->movetext = text;
	if (ok && !(m->stop && *m->stop))
		atomic_store(&g->finished, true);
}
