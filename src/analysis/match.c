/* The match referee. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/match_int.h"
#include "base/pool.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"
#include "rules/fen.h"

int match_ballots(pk_opening **out)
{
	int cap = 512, n = 0;
	pk_opening *v = malloc(sizeof *v * (size_t)cap);
	if (!v)
		return -1;
	pk_pos s;
	pos_start(&s);
	pk_movelist m1, m2, m3;
	gen_moves(&s, &m1);
	for (int a = 0; a < m1.n; a++) {
		pk_pos p1;
		pos_make(&s, &m1.m[a], &p1);
		gen_moves(&p1, &m2);
		for (int b = 0; b < m2.n; b++) {
			pk_pos p2;
			pos_make(&p1, &m2.m[b], &p2);
			gen_moves(&p2, &m3);
			for (int c = 0; c < m3.n && n < cap; c++) {
				pk_opening *o = &v[n++];
				pos_make(&p2, &m3.m[c], &o->start);
				char x[PK_MOVE_STRLEN], y[PK_MOVE_STRLEN], z[PK_MOVE_STRLEN];
				move_format(&m1.m[a], false, x, sizeof x);
				move_format(&m2.m[b], false, y, sizeof y);
				move_format(&m3.m[c], false, z, sizeof z);
				snprintf(o->text, sizeof o->text, "1. %s %s 2. %s", x, y, z);
				o->nply = 3;
				o->keys[0] = s.key;
				o->keys[1] = p1.key;
				o->keys[2] = p2.key;
			}
		}
	}
	*out = v;
	return n;
}

bool match_opening_of(const pk_replay *rp, pk_opening *o)
{
	o->nply = rp->nply > 8 ? 8 : rp->nply;
	o->start = o->nply ? rp->plies[o->nply - 1].after : rp->start;
	for (int i = 0; i < o->nply; i++)
		o->keys[i] = i ? rp->plies[i - 1].after.key : rp->start.key;
	fen_format(&rp->start, o->text, sizeof o->text);
	pk_movelist ml;
	return gen_moves(&o->start, &ml) > 0;
}

const char *match_drawn(const uint64_t *keys, int nkeys, uint64_t key, int rev)
{
	if (rev >= DRAW_PLIES)
		return "50 moves without a capture or a man moved";
	int reps = 0;
	for (int j = nkeys - 2; j >= 0 && nkeys - j <= rev + 1; j -= 2)
		reps += keys[j] == key;
	return reps >= 2 ? "threefold repetition" : NULL;
}

bool match_append_move(char **text, size_t *len, size_t *cap, int number, int stm, const char *move)
{
	/* "N. " before Black's moves; the writer puts "1... " before a White start */
	char tok[128];
	int k = *len ? snprintf(tok, sizeof tok, " ") : 0;
	int nl = movenum_token(number, stm, false, tok + k, sizeof tok - (size_t)k);
	if (nl) {
		k += nl;
		tok[k++] = ' ';
	}
	snprintf(tok + k, sizeof tok - (size_t)k, "%s", move);
	return match_append(text, len, cap, tok);
}

bool match_append(char **text, size_t *len, size_t *cap, const char *s)
{
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

static void play(pk_match *m, pk_match_game *g, pk_engine *eng[2])
{
	const pk_opening *o = &m->op[g->opening];
	int black = g->a_black ? 0 : 1;   /* index of the player with Black */
	uint64_t keys[MATCH_MAX_PLIES + 16];
	int nkeys = 0;
	for (int i = 0; i < o->nply; i++)
		keys[nkeys++] = o->keys[i];
	pk_pos p = o->start;
	int rev = 0;
	size_t cap = 0, len = 0;
	char *text = NULL;
	bool ok = match_append(&text, &len, &cap, "");
	engine_new_game(eng[0]);
	engine_new_game(eng[1]);
	g->result = RES_DRAW;
	g->reason = "move limit";
	int ply;
	/* Time saved on instant (forced) moves is carried forward, as Querg Draughts did. */
	double saved[2] = { 0, 0 };
	for (ply = 0; ply < MATCH_MAX_PLIES && ok; ply++) {
		int who = p.stm == PK_BLACK ? black : !black;
		pk_history h = { keys, nkeys, rev };
		pk_result r;
		pk_limits lim = m->pl[who].lim;
		if (lim.movetime > 0)
			lim.movetime += saved[who];
		memset(&r, 0, sizeof r);
		if (m->pl[who].bk && book_choose(m->pl[who].bk, &p, &r.best)) {
			r.has_move = true;       /* a book move: instant */
			r.forced = true;
			atomic_fetch_add(&m->book_count[who], 1);
		} else {
			engine_search(eng[who], &p, &h, &lim, (volatile sig_atomic_t *)m->stop, NULL, NULL, &r);
			if (m->stop && *m->stop)
				break;   /* abandoned: not finished, not counted */
		}
		if (m->pl[who].lim.movetime > 0)
			saved[who] = r.forced ? lim.movetime : 0;
		if (!r.has_move) {
			g->result = p.stm == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS;
			g->reason = "no legal move";
			break;
		}
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(&p, &r.best, false, mv);   /* the whole path where the short form is ambiguous */
		ok = match_append_move(&text, &len, &cap, movenum_at(1, o->start.stm, ply), p.stm, mv);
		bool reversible = move_is_reversible(&p, &r.best);
		keys[nkeys++] = p.key;
		pk_pos q;
		pos_make(&p, &r.best, &q);
		p = q;
		rev = reversible ? rev + 1 : 0;
		if ((g->reason = match_drawn(keys, nkeys, p.key, rev)) != NULL) {
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
	g->plies = ply;
	g->movetext = text;
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

/* The variant engines' games. */
static void vworker(pk_match *m)
{
	pk_vengine *eng[2] = { NULL, NULL };
	for (int i = 0; i < 2; i++) {
		if (!(eng[i] = vengine_new(m->pl[i].hash))) {
			m->failed = 1;
			goto out;
		}
		vengine_set_weights(eng[i], &m->pl[i].vw);
	}
	for (;;) {
		if (m->stop && *m->stop)
			break;
		int gi = atomic_fetch_add(&m->next, 1);
		if (gi >= m->ngames)
			break;
		match_vplay(m, &m->games[gi], eng);
		if (!atomic_load(&m->games[gi].finished))
			continue;
		int done = atomic_fetch_add(&m->done, 1) + 1;
		report_progress(m, done, gi);
	}
out:
	vengine_free(eng[0]);
	vengine_free(eng[1]);
}

static void worker(int id, void *arg)
{
	(void)id;
	pk_match *m = arg;
	if (m->variant) {
		vworker(m);
		return;
	}
	pk_engine *eng[2] = { NULL, NULL };
	for (int i = 0; i < 2; i++) {
		if (!(eng[i] = engine_new(m->pl[i].hash, &m->pl[i].w))) {
			m->failed = 1;
			goto out;
		}
		engine_set_features(eng[i], &m->pl[i].f);
		engine_set_egdb(eng[i], m->pl[i].egdb);
		engine_set_threads(eng[i], m->pl[i].threads);
	}
	for (;;) {
		if (m->stop && *m->stop)
			break;
		int gi = atomic_fetch_add(&m->next, 1);
		if (gi >= m->ngames)
			break;
		play(m, &m->games[gi], eng);
		if (!atomic_load(&m->games[gi].finished))
			continue;
		int done = atomic_fetch_add(&m->done, 1) + 1;
		report_progress(m, done, gi);
	}
out:
	engine_free(eng[0]);
	engine_free(eng[1]);
}

int match_run(pk_match *m, int ngames, int concurrency)
{
	m->ngames = ngames;
	if (!(m->games = calloc((size_t)ngames, sizeof *m->games)))
		return -1;
	for (int i = 0; i < ngames; i++) {
		m->games[i].opening = (i / 2) % m->nop;
		m->games[i].a_black = i % 2 == 0;
	}
	atomic_init(&m->next, 0);
	atomic_init(&m->done, 0);
	atomic_init(&m->book_count[0], 0);
	atomic_init(&m->book_count[1], 0);
	m->failed = 0;
	pool_run(concurrency, worker, m);
	m->book_moves[0] = atomic_load(&m->book_count[0]);
	m->book_moves[1] = atomic_load(&m->book_count[1]);
	return m->failed || (atomic_load(&m->done) < ngames && !(m->stop && *m->stop)) ? -1 : 0;
}

int match_finished(const pk_match *m) { return atomic_load(&m->done); }

void match_free_games(pk_match *m)
{
	for (int i = 0; i < m->ngames && m->games; i++)
		free(m->games[i].movetext);
	free(m->games);
	m->games = NULL;
}

static double elo_of(double x)
{
	return x <= 0 ? -INFINITY : x >= 1 ? INFINITY : -400.0 * log10(1.0 / x - 1.0);
}

void match_score(const pk_match *m, pk_match_score *out)
{
	long w = 0, d = 0, l = 0;
	/* a result as PDN writes it: "1-0" (RES_BLACK_WINS) is the first mover's win */
	bool white_first = m->variant && m->variant->first == PK_WHITE;
	for (int i = 0; i < m->ngames; i++) {
		if (!atomic_load(&m->games[i].finished))
			continue;
		int res = m->games[i].result;
		bool a_first = white_first ? !m->games[i].a_black : m->games[i].a_black;
		int a_won = a_first ? res == RES_BLACK_WINS : res == RES_WHITE_WINS;
		int a_lost = a_first ? res == RES_WHITE_WINS : res == RES_BLACK_WINS;
		w += a_won;
		l += a_lost;
		d += !a_won && !a_lost;
	}
	double n = (double)(w + d + l), s = n > 0 ? (w + 0.5 * d) / n : 0.5;
	double var = n > 0 ? (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n : 0;
	double se = n > 0 ? sqrt(var / n) : 0;
	*out = (pk_match_score){ w, d, l, s, elo_of(s), elo_of(s - 1.96 * se), elo_of(s + 1.96 * se) };
}
