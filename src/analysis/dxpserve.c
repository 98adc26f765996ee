/* pdnkit as a DXP follower. */
#define _GNU_SOURCE   /* POLLRDHUP */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/pool.h"
#include "analysis/dxpserve.h"
#include "book/book.h"
#include "proto/child.h"

#define GAME_MAX 1024

typedef struct {
	const pk_dxp_server *s;
	dxp_conn *c;
	pk_vengine *e;
	pk_gengine *g;              /* e's */
	bool in_game;
	int mine;                   /* the colour it plays */
	pk_vpos start, p;
	pk_vmove hist[GAME_MAX];
	uint64_t keys[GAME_MAX];
	int n;                      /* moves played since start */
	int rev;                    /* the kings' plain moves in a row ending at p */
	pk_vdraw dr;                /* the draw rules' counts at p */
	int minutes, moves;
	double used;
	int made;
	bool awaiting_end;          /* it ended the game: the initiator's GAMEEND confirms it */
	volatile sig_atomic_t halt; /* the search stops: the server stops or the peer left */
} session;

/* While a search runs: its connection is watched, the search stopped when it closes. */
typedef struct {
	session *ss;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
} watch;

static void *watch_run(void *arg)
{
	watch *w = arg;
	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		session *ss = w->ss;
		struct pollfd p = { .fd = ss->c->fd, .events = POLLRDHUP };
		if ((ss->s->stop && *ss->s->stop) ||
		    (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))) {
			ss->halt = 1;
			break;
		}
		pool_wait(&w->cv, &w->mu, 0.05);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static void say(session *ss, const char *fmt, const char *a)
{
	if (ss->s->log) {
		char line[400];
		snprintf(line, sizeof line, fmt, a);
		ss->s->log(ss->s->log_ctx, ss->c->peer, line);
	}
}

static int send_msg(session *ss, const char *msg)
{
	if (dxp_send(ss->c, msg) < 0) {
		say(ss, "%s", "the connection is gone");
		return -1;
	}
	return 0;
}

/* The seconds for the next move. */
static double move_time(const session *ss)
{
	if (ss->s->movetime > 0)
		return ss->s->movetime;   /* the server's own setting, not the peer's */
	if (ss->minutes <= 0)
		return 1;
	/* the game's moves still to play (and a reserve of five), when the GAMEREQ gave
	 * their number; else the same share as match's and the Hub's */
	double left = ss->minutes * 60.0 - ss->used;
	int to_go = ss->moves > 0 ? ss->moves - ss->made : 0;
	double t = clock_share(left, 0, to_go > 0 ? (to_go < 10 ? 10 : to_go) + 5 : 0);
	double most = ss->s->max_movetime > 0 ? ss->s->max_movetime : 60;
	return t > most ? most : t;
}

static void play(session *ss, const pk_vmove *m)
{
	ss->keys[ss->n] = vpos_key(&ss->p);
	ss->hist[ss->n++] = *m;
	bool king = ss->p.sq[m->from] == VP_WKING || ss->p.sq[m->from] == VP_BKING;
	ss->rev = king && m->ncap == 0 ? ss->rev + 1 : 0;
	pk_vpos q;
	vmake(&ss->p, m, &q);
	vdraw_after(&ss->dr, &ss->p, m, &q);
	ss->p = q;
}

/* Its move, or the end of the game when it has none; -1 when the connection is gone. */
static int think(session *ss)
{
	char msg[DXP_MAX + 1];
	if (ss->n >= GAME_MAX - 1) {
		dxp_gameend(2, 0, msg);
		ss->in_game = false;
		ss->awaiting_end = true;
		say(ss, "%s", "the game is too long: ended");
		return send_msg(ss, msg);
	}
	pk_limits lim;
	memset(&lim, 0, sizeof lim);
	lim.movetime = move_time(ss);
	lim.clock = ss->s->movetime <= 0 && ss->minutes > 0;
	if (lim.clock) {   /* time-panic's bound: half the clock left, as in match and play */
		double half = (ss->minutes * 60.0 - ss->used) * 0.5;
		lim.hardtime = half > lim.movetime ? half : lim.movetime;
	}
	pk_gresult r;
	pk_gpos root;
	gpos_variant(&root, &ss->p);
	bool from_book;
	double t0 = child_now();
	watch w = { .ss = ss, .done = false };
	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	pthread_t t;
	bool watching = pthread_create(&t, NULL, watch_run, &w) == 0;
	pk_history h = { ss->keys, ss->n, ss->rev, vdraw_ending_count(&ss->dr, &ss->p) };
	gengine_book_search(ss->g, ss->s->book, &root, &h, &lim, &ss->halt, NULL, NULL, &r, &from_book);
	pthread_mutex_lock(&w.mu);
	w.done = true;
	pthread_cond_signal(&w.cv);
	pthread_mutex_unlock(&w.mu);
	if (watching)
		pthread_join(t, NULL);
	pthread_cond_destroy(&w.cv);
	pthread_mutex_destroy(&w.mu);
	double dt = child_now() - t0;
	if (ss->halt && !(ss->s->stop && *ss->s->stop)) {
		say(ss, "%s", "the initiator left during the search: stopped");
		return -1;
	}
	if (!r.has_move) {
		dxp_gameend(1, 0, msg);   /* no move: it has lost */
		ss->in_game = false;
		ss->awaiting_end = true;
		say(ss, "%s", "no legal move: the game is lost");
		return send_msg(ss, msg);
	}
	ss->used += dt;
	ss->made++;
	dxp_move(&r.best.x, dt, msg);
	play(ss, &r.best.x);
	return send_msg(ss, msg);
}

static void replay_to(session *ss, int n)
{
	ss->p = ss->start;
	int k = ss->n;
	ss->n = 0;
	ss->rev = 0;
	vdraw_init(&ss->dr);
	for (int i = 0; i < n && i < k; i++)
		play(ss, &ss->hist[i]);
}

int dxpserve_conn(const pk_dxp_server *s, dxp_conn *c)
{
	session *ss = calloc(1, sizeof *ss);
	if (!ss || !(ss->e = vengine_new(s->hash_mb ? s->hash_mb : 64)) || !(ss->g = gengine_new(NULL, ss->e))) {
		free(ss);   /* gengine_new freed e */
		return -1;
	}
	ss->s = s;
	ss->c = c;
	const pk_variant *v = variant_by_name("international");
	if (s->w)
		vengine_set_weights(ss->e, s->w);
	if ((s->tables_chosen && vengine_set_tables_dir(ss->e, s->tables_dir) < 0) ||
	    (s->threads > 1 && vengine_set_threads(ss->e, s->threads) < 0)) {
		gengine_free(ss->g);
		free(ss);
		return -1;
	}
	say(ss, "%s", "connected");
	char msg[DXP_MAX + 16], err[200], out[DXP_MAX + 1];
	double idle = s->idle > 0 ? s->idle : 120, last = child_now();
	while (!(s->stop && *s->stop)) {
		int k = dxp_recv(c, msg, sizeof msg, 0.5);
		if (k == 0) {
			/* silence: outside a game the idle time; in one, the game's clock as well */
			double allowed = idle + (ss->in_game ? ss->minutes * 60.0 : 0);
			if (child_now() - last > allowed) {
				char why[120];
				snprintf(why, sizeof why, "silent for %.0f s: disconnected", child_now() - last);
				say(ss, "%s", why);
				break;
			}
			continue;
		}
		last = child_now();
		if (k == -1) {
			say(ss, "%s", "the initiator closed the connection");
			break;
		}
		dxp_msg m;
		if (k == -2 || dxp_parse(msg, &m, err, sizeof err) < 0) {
			say(ss, "no DXP message: %s; disconnecting", k == -2 ? "binary or over 127 characters" : err);
			break;
		}
		if (m.type == 'R') {
			if (strcmp(m.version, "01")) {
				dxp_gameacc(s->name, 1, out);
				say(ss, "a game of protocol version %s refused", m.version);
				if (send_msg(ss, out) < 0)
					break;
				continue;
			}
			pk_vpos p;
			dxp_start(&m, &p);
			char why[160];
			if (vpos_check(&p, why, sizeof why) < 0) {
				dxp_gameacc(s->name, 3, out);
				char line[240];
				snprintf(line, sizeof line, "a game from an impossible position refused: %s", why);
				say(ss, "%s", line);
				if (send_msg(ss, out) < 0)
					break;
				continue;
			}
			pk_vmovelist *ml = malloc(sizeof *ml);
			int legal = ml ? vgen(&p, ml) : 0;
			free(ml);
			if (!legal) {
				dxp_gameacc(s->name, 2, out);
				say(ss, "%s", "a game from a position without a legal move refused");
				if (send_msg(ss, out) < 0)
					break;
				continue;
			}
			dxp_gameacc(s->name, 0, out);
			if (send_msg(ss, out) < 0)
				break;
			ss->in_game = true;
			ss->mine = m.follower;
			ss->start = ss->p = p;
			ss->n = ss->made = ss->rev = 0;
			vdraw_init(&ss->dr);
			ss->used = 0;
			ss->minutes = m.minutes;
			ss->moves = m.moves;
			ss->awaiting_end = false;
			vengine_new_game(ss->e);
			say(ss, "a game begins, pdnkit with %s", m.follower == PK_WHITE ? "White" : "Black");
			if (ss->p.stm == ss->mine && think(ss) < 0)
				break;
		} else if (m.type == 'M') {
			if (!ss->in_game || ss->p.stm == ss->mine) {
				say(ss, "%s", "a MOVE out of turn ignored");
				continue;
			}
			pk_vmove mv;
			if (!dxp_find_move(&ss->p, &m, &mv)) {
				char text[DXP_MAX + 80];
				snprintf(text, sizeof text, "C%.60s is not a legal move here", msg);
				say(ss, "%s: the game is ended", text + 1);
				send_msg(ss, text);
				dxp_gameend(0, 0, out);
				ss->in_game = false;
				ss->awaiting_end = true;
				if (send_msg(ss, out) < 0)
					break;
				continue;
			}
			play(ss, &mv);
			if (think(ss) < 0)
				break;
		} else if (m.type == 'E') {
			/* a GAMEEND is confirmed by one; a confirmation is not confirmed again (the
			 * initiator would take it for the end of its next game) */
			bool was = ss->in_game, confirms = !was && ss->awaiting_end;
			ss->in_game = false;
			ss->awaiting_end = false;
			if (!confirms) {
				dxp_gameend(0, m.stop, out);
				if (send_msg(ss, out) < 0)
					break;
			}
			if (was)
				say(ss, "%s", "the game is over");
			if (m.stop) {
				say(ss, "%s", "the initiator wants no more games");
				break;
			}
		} else if (m.type == 'B') {
			/* back to the position before move number (the first mover's move counted
			 * first) with that colour to move */
			int first = v->first;
			int ply = (m.number - 1) * 2 + (m.color == first ? 0 : 1);
			int off = ss->start.stm == first ? 0 : 1;
			int n = ply - off;
			bool ok = ss->in_game && n >= 0 && n <= ss->n;
			if (ok)
				replay_to(ss, n);
			if (send_msg(ss, ok ? "K0" : "K2") < 0)
				break;
			if (ok && ss->p.stm == ss->mine && think(ss) < 0)
				break;
		} else if (m.type == 'C') {
			say(ss, "chat: %s", m.text);
		}
	}
	gengine_free(ss->g);
	free(ss);
	return 0;
}
