/* The match referee. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/ballots.h"
#include "analysis/match_int.h"
#include "base/pool.h"
#include "egdb/egdb.h"
#include "egdb/vegdb.h"
#include "engine/gengine.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"
#include "proto/child.h"
#include "rules/fen.h"


const char *match_drawn(const uint64_t *keys, int nkeys, uint64_t key, int rev)
{
	if (rev >= DRAW_PLIES)
		return "50 moves without a capture or a man moved";
	int reps = 0;
	for (int j = nkeys - 2; j >= 0 && nkeys - j <= rev + 1; j -= 2)
		reps += keys[j] == key;
	return reps >= 2 ? "threefold repetition" : NULL;
}

bool match_append_move(char **text, size_t *len, size_t *cap, int number, int stm, bool after_note, const char *move)
{
	/* "N. " before Black's moves, "N... " before White's after a note or at a White
	 * start (after_note) */
	char tok[128];
	int k = *len ? snprintf(tok, sizeof tok, " ") : 0;
	int nl = movenum_token(number, stm, after_note, tok + k, sizeof tok - (size_t)k);
	if (nl) {
		k += nl;
		tok[k++] = ' ';
	}
	snprintf(tok + k, sizeof tok - (size_t)k, "%s", move);
	return match_append(text, len, cap, tok);
}

/* What a move of the record says (a comment after it): the score after it from Black's
 * view in men ([%eval], "#n" for a win in n plies, as annotate writes it), the depth
 * ([%depth]) and the seconds the mover took ([%emt]); "{book}" for a book move. */
bool match_append_note(char **text, size_t *len, size_t *cap, const pk_move_note *n)
{
	char buf[96];
	if (n->book)
		return match_append(text, len, cap, " {book}");
	size_t k = (size_t)snprintf(buf, sizeof buf, " {");
	if (n->has_score) {
		int s = n->score_black;
		if (score_is_win(s))
			k += (size_t)snprintf(buf + k, sizeof buf - k, "[%%eval #%s%d] ", s > 0 ? "" : "-",
					      score_plies(s) > 0 ? score_plies(s) - 1 : 0);
		else
			k += (size_t)snprintf(buf + k, sizeof buf - k, "[%%eval %.2f] ", s / 100.0);
	}
	if (n->depth > 0)
		k += (size_t)snprintf(buf + k, sizeof buf - k, "[%%depth %d] ", n->depth);
	snprintf(buf + k, sizeof buf - k, "[%%emt %.2f]}", n->seconds);
	return match_append(text, len, cap, buf);
}

bool match_append(char **text, size_t *len, size_t *cap, const char *s)
{
	/* A word that would take its line past 79 columns begins the next line. */
	char brk[1024];
	size_t col = 0;
	while (col < *len && (*text)[*len - 1 - col] != '\n')
		col++;
	if (s[0] == ' ' && col > 0 && col + strlen(s) > 79 && strlen(s) < sizeof brk) {
		snprintf(brk, sizeof brk, "\n%s", s + 1);
		s = brk;
	}
	size_t n = strlen(s);
	if (*len + n + 1 > *cap) {
		size_t nc = (*len + n + 1) * 2;
		char *t = realloc(*text, nc);
		if (!t)
			return false;
		*text = t;
		*cap = nc;
	}
	memcpy(*text + *len, s, n + 1);
	*len += n;
	return true;
}

static pthread_mutex_t time_lock = PTHREAD_MUTEX_INITIALIZER;

/* A player's engine in one worker: pdnkit's (for the match's variant), or a client of
 * another engine: Hub or CheckerBoard (English draughts), DXP (International). */
typedef struct {
	pk_gengine *e;
	pk_client *c;
	dxp_client *dc;
	char err[700];              /* why the client could not be started */
} seat;

/* The other engine of player i, started (again) when it is not running; false with
 * the reason in s->err. */
static bool seat_ready(pk_match *m, int i, seat *s)
{
	if (m->variant) {
		if (dxp_client_alive(s->dc))
			return true;
		dxp_client_close(s->dc);
		s->dc = dxp_client_open(m->pl[i].ext, &m->copts, s->err, sizeof s->err);
		if (s->dc)
			dxp_client_set_time(s->dc, (int)(m->clock_base / 60 + 0.5), 0);
		return s->dc != NULL;
	}
	if (client_alive(s->c))
		return true;
	client_close(s->c);
	s->c = client_open(m->pl[i].ext, &m->copts, s->err, sizeof s->err);
	if (s->c) {
		pthread_mutex_lock(&time_lock);
		snprintf(m->pl[i].name, sizeof m->pl[i].name, "%s", client_name(s->c));
		pthread_mutex_unlock(&time_lock);
	}
	return s->c != NULL;
}


const char *match_fault_reason(pk_client_status st)
{
	return st == CLIENT_TIMEOUT ? "time forfeit" : st == CLIENT_ILLEGAL ? "illegal move" :
	       st == CLIENT_CRASHED ? "engine crashed" : st == CLIENT_GARBAGE ? "engine wrote garbage" :
	       "engine gave no move";
}

/* The game is lost by player who, for what its engine did. */
void match_forfeit(pk_match *m, pk_match_game *g, int who, int side, pk_client_status st, const char *detail)
{
	g->result = side == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS;
	g->fault = st;
	g->fault_by = who;
	g->reason = match_fault_reason(st);
	free(g->detail);
	g->detail = strdup(detail);
	atomic_fetch_add(&m->faults, 1);
	if (m->stop_on_fault)
		atomic_store(&m->halt, true);
}

int match_egdb_result(pk_egdb *db, const pk_pos *p)
{
	if (!db || __builtin_popcountll((unsigned long long)(p->side[0] | p->side[1])) > egdb_max_pieces(db))
		return RES_NONE;
	pk_egdb_result r;
	if (egdb_probe(db, p, &r) != EGDB_FOUND)
		return RES_NONE;
	if (r.value == EGDB_DRAW)
		return RES_DRAW;
	int winner = r.value == EGDB_WIN ? p->stm : !p->stm;
	return winner == PK_BLACK ? RES_BLACK_WINS : RES_WHITE_WINS;
}

bool match_judge_step(pk_egdb *db, const pk_pos *p, int result, int *judged)
{
	if (!p) {
		*judged = result;   /* ended before it came down to the databases */
		return true;
	}
	if (__builtin_popcountll((unsigned long long)(p->side[0] | p->side[1])) > egdb_pieces(db))
		return false;
	*judged = match_egdb_result(db, p);
	return true;
}

/* match_egdb_result for a variant's position p, d the game's draw counts: the databases' values
 * are the game's under its move rules alone, so a draw there is a draw, and a win
 * ends the game only when its distance is within every count that could draw it
 * first: the kings-only moves left, the current limited ending's plies left, and the
 * shortest limited ending of the variant (one the winning line may reach, its count
 * then starting afresh). Otherwise the game is played on. */
int match_vegdb_result(const pk_vegdb *db, const pk_vdraw *d, const pk_vpos *p)
{
	int value, plies;
	if (!db || !vegdb_probe(db, p, &value, &plies))
		return RES_NONE;
	const pk_variant *v = p->v;
	if (value != EGDB_DRAW) {
		int ko = vdraw_kings_only_plies(v), cls = vdraw_ending_class(p);
		if (ko > 0 && plies > ko - d->kings_only)
			return RES_NONE;
		if (cls && plies > vdraw_class_plies(v, cls) - vdraw_ending_count(d, p))
			return RES_NONE;
		for (int c = 1; c <= 2; c++) {
			int lim = vdraw_class_plies(v, c);
			if (lim > 0 && plies > lim)
				return RES_NONE;
		}
	}
	/* results count from the first mover ("1-0": the first mover won) */
	if (value == EGDB_DRAW)
		return RES_DRAW;
	int winner = value == EGDB_WIN ? p->stm : !p->stm;
	return winner == v->first ? RES_BLACK_WINS : RES_WHITE_WINS;
}

/* The time a player spent on a move, counted. */
static void account(pk_match *m, pk_match_game *g, int who, double dt)
{
	g->used[who] += dt;
	g->moves[who]++;
	pthread_mutex_lock(&time_lock);
	m->pl[who].used += dt;
	m->pl[who].searched++;
	if (dt > m->pl[who].longest)
		m->pl[who].longest = dt;
	pthread_mutex_unlock(&time_lock);
}

/* One game of the match, of any variant. Colours are the board's (a_black: A has Black);
 * results and the record's numbers count from the side that moves first ("1-0": the
 * first mover won, Black in English draughts, White in International), as "rel" below
 * maps a colour to English draughts' Black for the first mover. */
typedef struct {
	pk_move e[MATCH_MAX_PLIES + 16];     /* English: the opening's plies, then the game's */
	pk_vmove x[MATCH_MAX_PLIES + 16];    /* another variant: the game's plies (DXP's history) */
	double times[MATCH_MAX_PLIES + 16];
	uint64_t keys[MATCH_MAX_PLIES + 16];
	pk_gresult r;
} game_state;

static void play(pk_match *m, pk_match_game *g, seat st[2])
{
	const pk_opening *o = &m->op[g->opening];
	const pk_variant *v = m->variant;
	game_state *gs = malloc(sizeof *gs);
	if (!gs) {
		m->failed = 1;
		return;
	}
	pk_gpos p;
	if (v)
		gpos_variant(&p, &o->vstart);
	else
		gpos_english(&p, &o->start);
	const int first = gpos_first(&p);
#define REL(stm) ((stm) == first ? PK_BLACK : PK_WHITE)
	int idx_of[2];                          /* the player of each colour */
	idx_of[PK_BLACK] = g->a_black ? 0 : 1;
	idx_of[PK_WHITE] = !idx_of[PK_BLACK];
	int nkeys = 0, nmoves = 0, ngame = 0;
	for (int i = 0; i < o->nply; i++) {
		gs->keys[nkeys++] = o->keys[i];
		if (!v)
			gs->e[nmoves++] = o->pre[i];
	}
	/* the record starts at the opening's root, its plies first (a store finds the game by
	 * its opening), so the game's moves are numbered on from them */
	pk_gpos q0;
	const bool opened = match_opening_root(o, v, &q0);
	const int rel_start = REL(gpos_stm(opened ? &q0 : &p));
	int rev = 0;
	pk_vdraw dr;
	vdraw_init(&dr);
	size_t cap = 0, len = 0;
	char *text = NULL;
	bool ok = match_append(&text, &len, &cap, "");
	/* the opening's plies first: the record starts where the opening starts (a store then
	 * finds the game by its opening) */
	if (opened) {
		int r0 = REL(gpos_stm(&q0));
		for (int i = 0; i < o->nply && ok; i++) {
			pk_gmove mv;
			char t[160];
			if (v) {
				mv.x = o->vpre[i];
				vmove_pdn(&q0.x, &mv.x, t, sizeof t);
			} else {
				mv.e = o->pre[i];
				char e[PK_MOVE_STRLEN];
				pdn_move_string(&q0.e, &mv.e, false, e);
				snprintf(t, sizeof t, "%s", e);
			}
			ok = match_append_move(&text, &len, &cap, movenum_at(1, r0, i), REL(gpos_stm(&q0)), i == 0, t);
			pk_gpos q1;
			gpos_make(&q0, &mv, &q1);
			q0 = q1;
		}
	}
	bool selfplay = !m->pl[0].ext && !m->pl[1].ext;
	g->fault_by = -1;
	for (int i = 0; i < 2; i++) {
		if (st[i].e)
			gengine_new_game(st[i].e);
		else if (seat_ready(m, i, &st[i])) {
			if (v)
				dxp_client_new_game(st[i].dc);
			else
				client_new_game(st[i].c);
		}
	}
	g->result = RES_DRAW;
	g->reason = "move limit";
	int ply;
	/* Between two settings of pdnkit, time saved on instant (forced) moves is carried
	 * forward, as Querg Draughts did; against another engine every move has its limit. */
	double saved[2] = { 0, 0 };
	double clock[2] = { m->clock_base, m->clock_base };
	bool timed = m->clock_base > 0;
	/* runs of agreeing scores, by the mover's colour (relative): that one side is winning,
	 * and that the game is level */
	int win_run[2][2] = { { 0, 0 }, { 0, 0 } }, level_run[2] = { 0, 0 };
	bool judging = !v && m->judge && egdb_pieces(m->judge) > 0;
	g->judged = RES_NONE;
	if (judging && match_judge_step(m->judge, &p.e, 0, &g->judged))
		judging = false;
	pk_gresult *r = &gs->r;
	for (ply = 0; ply < MATCH_MAX_PLIES && ok; ply++) {
		int stm = gpos_stm(&p), rel = REL(stm);
		int who = idx_of[stm];
		pk_player *pl = &m->pl[who];
		memset(r, 0, sizeof *r);
		bool has_score = false;
		int score = 0;
		pk_move_note note = { 0 };
		if (pl->ext) {
			if (gpos_count(&p) == 0) {
				r->has_move = false;
			} else if (!seat_ready(m, who, &st[who])) {
				match_forfeit(m, g, who, rel, CLIENT_CRASHED, st[who].err);
				break;
			} else {
				pk_client_answer a;
				if (v) {
					dxp_client_go(st[who].dc, &o->vstart, gs->x, gs->times, ngame, clock[who], &a, &r->best.x);
					pthread_mutex_lock(&time_lock);
					snprintf(pl->name, sizeof pl->name, "%s", dxp_client_name(st[who].dc));
					pthread_mutex_unlock(&time_lock);
				} else if (timed)
					client_go_clock(st[who].c, &o->root, gs->e, nmoves, clock[who], m->clock_inc, &a);
				else
					client_go(st[who].c, &o->root, gs->e, nmoves, pl->ext_time, &a);
				if (timed)
					clock[who] -= a.seconds;
				account(m, g, who, a.seconds);
				if (m->stop && *m->stop)
					break;
				if (a.status != CLIENT_OK) {
					char d[900];
					snprintf(d, sizeof d, "ply %d: %s", o->nply + ply + 1, a.detail);
					match_forfeit(m, g, who, rel, a.status, d);
					break;
				}
				r->has_move = true;
				if (!v)
					r->best.e = a.move;
				if (a.has_score && a.score > -1000 && a.score < 1000) {
					has_score = true;
					score = (int)(a.score * 100 + (a.score < 0 ? -0.5 : 0.5));
				}
				note.depth = a.depth;
				note.seconds = a.seconds;
			}
		} else {
			pk_history h = { gs->keys, nkeys, rev, v ? vdraw_ending_count(&dr, &p.x) : 0 };
			pk_limits lim = pl->lim;
			if (timed) {
				lim.movetime = clock_share(clock[who], m->clock_inc, 0);
				lim.hardtime = clock[who] * 0.5;   /* time-panic's bound: half the clock */
				lim.clock = true;
			} else if (lim.movetime > 0)
				lim.movetime += saved[who];
			bool from_book = false;
			double t0 = child_now();
			gengine_book_search(st[who].e, pl->bk, &p, &h, &lim, (volatile sig_atomic_t *)m->stop, NULL, NULL, r,
					    &from_book);
			if (from_book)
				atomic_fetch_add(&m->book_count[who], 1);
			if (from_book && r->forced) {
				/* a book move, unsearched: instant */
				note.book = true;
			} else {
				has_score = !r->forced && r->last.depth > 0;
				score = r->last.score;
				double dt = child_now() - t0;
				note.depth = has_score ? r->last.depth : 0;
				note.seconds = dt;
				if (timed)
					clock[who] -= dt;
				account(m, g, who, dt);
				if (m->stop && *m->stop)
					break;   /* abandoned: not finished, not counted */
			}
			if (pl->lim.movetime > 0 && selfplay && !timed)
				saved[who] = r->forced ? lim.movetime : 0;
		}
		if (timed) {
			if (clock[who] < -m->copts.margin) {
				char d[200];
				snprintf(d, sizeof d, "ply %d: %s's clock fell %.2f s below zero", o->nply + ply + 1, pl->name,
					 -clock[who]);
				match_forfeit(m, g, who, rel, CLIENT_TIMEOUT, d);
				break;
			}
			clock[who] += m->clock_inc;
		}
		if (!r->has_move) {
			g->result = rel == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS;
			g->reason = "no legal move";
			break;
		}
		char mv[160];
		if (v) {
			vmove_pdn(&p.x, &r->best.x, mv, sizeof mv);
		} else {
			char t[PK_MOVE_STRLEN];
			pdn_move_string(&p.e, &r->best.e, false, t);   /* the whole path where the short form is ambiguous */
			snprintf(mv, sizeof mv, "%s", t);
		}
		ok = match_append_move(&text, &len, &cap, movenum_at(1, rel_start, (opened ? o->nply : 0) + ply),
				       rel, (ply == 0 && !opened) || (ply > 0 && !m->no_notes), mv);
		note.has_score = has_score;
		/* the mover's score before its move is the score after it; from the first mover's view */
		note.score_black = rel == PK_BLACK ? score : -score;
		ok = ok && (m->no_notes || match_append_note(&text, &len, &cap, &note));
		bool reversible = v ? r->best.x.ncap == 0 && (p.x.sq[r->best.x.from] == VP_WKING || p.x.sq[r->best.x.from] == VP_BKING)
				    : move_is_reversible(&p.e, &r->best.e);
		gs->keys[nkeys++] = v ? vpos_key(&p.x) : p.e.key;
		if (v) {
			gs->x[ngame] = r->best.x;
			gs->times[ngame] = note.seconds;
		} else {
			gs->e[nmoves++] = r->best.e;
		}
		ngame++;
		pk_gpos q;
		gpos_make(&p, &r->best, &q);
		/* the variant's own draw rules (rules/vdraw.c cites them) */
		const char *drawn = v ? vdraw_after(&dr, &p.x, &r->best.x, &q.x) : NULL;
		p = q;
		rev = reversible ? rev + 1 : 0;
		if (judging && match_judge_step(m->judge, &p.e, 0, &g->judged))
			judging = false;
		if (drawn) {
			g->reason = drawn;
			ply++;
			break;
		}
		/* threefold repetition, and English draughts' 50 moves (the variants' kings-only
		 * counts are their own, above) */
		uint64_t key = v ? vpos_key(&p.x) : p.e.key;
		if ((g->reason = match_drawn(gs->keys, nkeys, key, v ? (rev < 99 ? rev : 99) : rev)) != NULL) {
			ply++;
			break;
		}
		if (m->score_moves || m->draw_moves) {
			int mover = rel;   /* relative: PK_BLACK the first mover */
			int first_view = mover == PK_BLACK ? score : -score;
			for (int side = 0; side < 2; side++) {
				bool ahead = side == PK_BLACK ? first_view >= m->score_win : first_view <= -m->score_win;
				win_run[mover][side] = has_score && ahead ? win_run[mover][side] + 1 : 0;
			}
			bool level = has_score && o->nply + ply + 1 >= m->draw_ply && score <= m->draw_score &&
				     score >= -m->draw_score;
			level_run[mover] = level ? level_run[mover] + 1 : 0;
			int winner = -1;
			for (int side = 0; side < 2 && m->score_moves; side++)
				if (win_run[PK_BLACK][side] >= m->score_moves && win_run[PK_WHITE][side] >= m->score_moves)
					winner = side;
			if (winner >= 0) {
				g->result = winner == PK_BLACK ? RES_BLACK_WINS : RES_WHITE_WINS;
				g->reason = "adjudicated: both engines' scores agreed on a win";
				ply++;
				break;
			}
			if (m->draw_moves && level_run[PK_BLACK] >= m->draw_moves && level_run[PK_WHITE] >= m->draw_moves) {
				g->reason = "adjudicated: both engines' scores agreed on a draw";
				ply++;
				break;
			}
		}
		/* the exact value of the databases ends the game */
		int adj = v ? match_vegdb_result(m->vadjudicate, &dr, &p.x) : match_egdb_result(m->adjudicate, &p.e);
		if (adj != RES_NONE) {
			g->result = adj;
			g->reason = adj == RES_DRAW ? "adjudicated: a draw in the endgame databases" :
				    "adjudicated: a win in the endgame databases";
			ply++;
			break;
		}
		g->reason = "move limit";
	}
#undef REL
	if (!ok) {
		free(text);
		text = NULL;
		m->failed = 1;
	}
	if (judging)
		match_judge_step(m->judge, NULL, g->result, &g->judged);
	/* DXP engines are told the result now (not when the next game starts), from their
	 * own view */
	for (int i = 0; v && i < 2 && !(m->stop && *m->stop); i++) {
		if (!st[i].dc || !m->pl[i].ext)
			continue;
		bool first_mover = (idx_of[first] == i);
		int res = g->result == RES_DRAW ? 0 :
			  g->result == RES_BLACK_WINS ? (first_mover ? 1 : -1) :
			  g->result == RES_WHITE_WINS ? (first_mover ? -1 : 1) : DXP_RESULT_UNKNOWN;
		dxp_client_end_game(st[i].dc, res);
	}
	g->plies = ply;
	g->movetext = text;
	free(gs);
	if (ok && !(m->stop && *m->stop))
		atomic_store(&g->finished, true);
}

/* The progress callback, one call at a time whatever the thread. */
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static void report_progress(pk_match *m, int done, int gi)
{
	if (!m->progress)
		return;
	pthread_mutex_lock(&progress_lock);
	m->progress(m->ctx, done, gi);
	pthread_mutex_unlock(&progress_lock);
}

/* After a finished game: the SPRT, when one is set, may end the run. */
static void check_sprt(pk_match *m)
{
	if (m->sprt_elo0 == m->sprt_elo1)
		return;
	pk_match_score sc;
	match_score(m, &sc);
	double lo, hi;
	match_sprt_bounds(&lo, &hi);
	if (sc.llr >= hi || sc.llr <= lo) {
		m->sprt_decision = sc.llr >= hi ? 1 : -1;
		atomic_store(&m->halt, true);
	}
}

/* pdnkit's engine for player i: English draughts', or the match variant's. */
static pk_gengine *player_engine(pk_match *m, int i)
{
	const pk_player *pl = &m->pl[i];
	if (!m->variant) {
		pk_engine *e = engine_new(pl->hash, &pl->w);
		if (!e)
			return NULL;
		engine_set_features(e, &pl->f);
		engine_set_egdb(e, pl->egdb);
		engine_set_threads(e, pl->threads);
		return gengine_new(e, NULL);
	}
	pk_vengine *ve = vengine_new(pl->hash);
	if (!ve)
		return NULL;
	vengine_set_weights(ve, &pl->vw);
	vengine_set_features(ve, &pl->f);   /* the same search features as in English */
	if (pl->vegdb && vengine_set_tables_dir(ve, pl->vegdb == 1 ? pl->vegdb_dir : NULL) < 0) {
		vengine_free(ve);
		return NULL;
	}
	if (vengine_set_threads(ve, pl->threads > 0 ? pl->threads : 1) < 0) {
		vengine_free(ve);
		return NULL;
	}
	return gengine_new(NULL, ve);
}

static void worker(int id, void *arg)
{
	(void)id;
	pk_match *m = arg;
	seat st[2];
	memset(st, 0, sizeof st);
	for (int i = 0; i < 2; i++) {
		if (m->pl[i].ext)
			continue;   /* started (or connected) at its first move */
		if (!(st[i].e = player_engine(m, i))) {
			m->failed = 1;
			goto out;
		}
	}
	for (;;) {
		if ((m->stop && *m->stop) || atomic_load(&m->halt))
			break;
		int gi = atomic_fetch_add(&m->next, 1);
		if (gi >= m->ngames)
			break;
		if (atomic_load(&m->games[gi].finished))
			continue;   /* played before (a resumed match) */
		play(m, &m->games[gi], st);
		if (!atomic_load(&m->games[gi].finished))
			continue;
		int done = atomic_fetch_add(&m->done, 1) + 1;
		pthread_mutex_lock(&time_lock);
		check_sprt(m);
		pthread_mutex_unlock(&time_lock);
		report_progress(m, done, gi);
	}
out:
	for (int i = 0; i < 2; i++) {
		gengine_free(st[i].e);
		client_close(st[i].c);
		dxp_client_close(st[i].dc);
	}
}

int match_prepare(pk_match *m, int ngames)
{
	m->ngames = ngames;
	if (!(m->games = calloc((size_t)ngames, sizeof *m->games)))
		return -1;
	for (int i = 0; i < ngames; i++) {
		m->games[i].opening = m->opening_per_game ? i % m->nop : (i / 2) % m->nop;
		m->games[i].a_black = i % 2 == 0;
		m->games[i].fault_by = -1;
	}
	return 0;
}

int match_play(pk_match *m, int concurrency)
{
	int already = 0;
	for (int i = 0; i < m->ngames; i++)
		already += atomic_load(&m->games[i].finished);
	atomic_init(&m->next, 0);
	atomic_init(&m->done, already);
	atomic_init(&m->book_count[0], 0);
	atomic_init(&m->book_count[1], 0);
	atomic_init(&m->halt, false);
	atomic_init(&m->faults, 0);
	m->sprt_decision = 0;
	m->failed = 0;
	if (already < m->ngames)
		pool_run(concurrency, worker, m);
	m->book_moves[0] = atomic_load(&m->book_count[0]);
	m->book_moves[1] = atomic_load(&m->book_count[1]);
	return m->failed || (atomic_load(&m->done) < m->ngames && !(m->stop && *m->stop) && !atomic_load(&m->halt)) ? -1 : 0;
}

int match_run(pk_match *m, int ngames, int concurrency)
{
	return match_prepare(m, ngames) < 0 ? -1 : match_play(m, concurrency);
}

int match_finished(const pk_match *m) { return atomic_load(&m->done); }

void match_free_games(pk_match *m)
{
	for (int i = 0; i < m->ngames && m->games; i++) {
		free(m->games[i].movetext);
		free(m->games[i].detail);
	}
	free(m->games);
	m->games = NULL;
}

static double elo_of(double x)
{
	return x <= 0 ? -INFINITY : x >= 1 ? INFINITY : -400.0 * log10(1.0 / x - 1.0);
}

/* The expected score of an Elo difference. */
static double score_of(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

void match_sprt_bounds(double *lower, double *upper)
{
	*lower = log(0.05 / 0.95);
	*upper = log(0.95 / 0.05);
}

/* A's points in finished game i (1, 0.5, 0), by its result or its judged result, or -1
 * when it is not finished (or has no judged result). */
static double points_by(const pk_match *m, int i, bool judged)
{
	if (i >= m->ngames || !atomic_load(&m->games[i].finished))
		return -1;
	int res = judged ? m->games[i].judged : m->games[i].result;
	if (res != RES_BLACK_WINS && res != RES_WHITE_WINS && res != RES_DRAW)
		return -1;
	bool a_first = match_a_first(m, i);
	if (res == RES_DRAW)
		return 0.5;
	return (a_first ? res == RES_BLACK_WINS : res == RES_WHITE_WINS) ? 1 : 0;
}

static double points(const pk_match *m, int i) { return points_by(m, i, false); }
static double points_judged(const pk_match *m, int i) { return points_by(m, i, true); }

static void score_with(const pk_match *m, double (*pts)(const pk_match *, int), pk_match_score *out);

void match_score(const pk_match *m, pk_match_score *out) { score_with(m, points, out); }
void match_score_judged(const pk_match *m, pk_match_score *out) { score_with(m, points_judged, out); }

static void score_with(const pk_match *m, double (*pts)(const pk_match *, int), pk_match_score *out)
{
	long w = 0, d = 0, l = 0;
	for (int i = 0; i < m->ngames; i++) {
		double x = pts(m, i);
		w += x == 1;
		d += x == 0.5;
		l += x == 0;
	}
	double n = (double)(w + d + l), s = n > 0 ? (w + 0.5 * d) / n : 0.5;
	double var = n > 0 ? (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n : 0;
	double se = n > 0 ? sqrt(var / n) : 0;
	/* From the pairs (games 2k and 2k+1: one opening, both colours) when there are
	 * enough: the openings' own bias cancels in a pair, so the interval is narrower and
	 * honest about it. */
	long np = 0;
	double sum = 0, sum2 = 0;
	for (int i = 0; i + 1 < m->ngames; i += 2) {
		double a = pts(m, i), b = pts(m, i + 1);
		if (a < 0 || b < 0)
			continue;
		double x = (a + b) / 2;
		np++;
		sum += x;
		sum2 += x * x;
	}
	double llr = 0, mean = s, pvar = var;
	if (np >= 2) {
		mean = sum / (double)np;
		pvar = sum2 / (double)np - mean * mean;
		if (pvar < 0)
			pvar = 0;
		se = sqrt(pvar / (double)np);
	}
	if (m->sprt_elo0 != m->sprt_elo1 && np >= MATCH_SPRT_MIN_PAIRS) {
		/* the normal approximation of the generalised SPRT on the pairs' five outcomes,
		 * each bin given a count of 1e-3 so that a one-sided start has a variance */
		long bins[5] = { 0, 0, 0, 0, 0 };
		for (int i = 0; i + 1 < m->ngames; i += 2) {
			double a = pts(m, i), b = pts(m, i + 1);
			if (a >= 0 && b >= 0)
				bins[(int)((a + b) * 2 + 0.5)]++;
		}
		double tot = 0, mu = 0, v = 0;
		for (int k = 0; k < 5; k++)
			tot += (double)bins[k] + 1e-3;
		for (int k = 0; k < 5; k++)
			mu += ((double)bins[k] + 1e-3) / tot * (k / 4.0);
		for (int k = 0; k < 5; k++)
			v += ((double)bins[k] + 1e-3) / tot * (k / 4.0 - mu) * (k / 4.0 - mu);
		double s0 = score_of(m->sprt_elo0), s1 = score_of(m->sprt_elo1);
		llr = (double)np * (s1 - s0) * (2 * mu - s0 - s1) / (2 * v);
	}
	*out = (pk_match_score){ w, d, l, s, elo_of(s), elo_of(s - 1.96 * se), elo_of(s + 1.96 * se), np, llr };
}
