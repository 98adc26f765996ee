/* DamExchange: the messages, the connection, pdnkit as the initiator. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "proto/child.h"
#include "proto/dxp.h"

/* ---- messages ---- */

static int digits(const char *s, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

static void name_of(const char *s, char out[33])
{
	memcpy(out, s, 32);
	out[32] = 0;
	for (int i = 31; i >= 0 && out[i] == ' '; i--)
		out[i] = 0;
}

int dxp_parse(const char *s, dxp_msg *m, char *err, size_t errsize)
{
	memset(m, 0, sizeof *m);
	size_t n = strlen(s);
	if (n < 1 || n > DXP_MAX) {
		snprintf(err, errsize, "a message of %zu characters (DXP's are 1 to 127)", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] > 127) {
			snprintf(err, errsize, "a character outside ASCII at %zu", i + 1);
			return -1;
		}
	m->type = s[0];
	switch (s[0]) {
	case 'R':
		if (n < 43 || (s[42] == 'B' && n < 94)) {
			snprintf(err, errsize, "GAMEREQ of %zu characters (43, or 94 with a position)", n);
			return -1;
		}
		memcpy(m->version, s + 1, 2);
		name_of(s + 3, m->name);
		if ((s[35] != 'W' && s[35] != 'Z') || digits(s + 36, 3, &m->minutes) || digits(s + 39, 3, &m->moves) ||
		    (s[42] != 'A' && s[42] != 'B')) {
			snprintf(err, errsize, "GAMEREQ with a bad field (colour, minutes, moves or start)");
			return -1;
		}
		m->follower = s[35] == 'W' ? PK_WHITE : PK_BLACK;
		if (s[42] == 'B') {
			if (s[43] != 'W' && s[43] != 'Z') {
				snprintf(err, errsize, "GAMEREQ: the colour to move is '%c', not W or Z", s[43]);
				return -1;
			}
			m->has_pos = true;
			m->stm = s[43] == 'W' ? PK_WHITE : PK_BLACK;
			for (int i = 0; i < 50; i++) {
				char c = s[44 + i];
				if (!strchr("ewzWZ", c)) {
					snprintf(err, errsize, "GAMEREQ: square %d is '%c' (e, w, z, W or Z)", i + 1, c);
					return -1;
				}
				m->sq[i + 1] = c;
			}
		}
		return 0;
	case 'A':
		if (n < 34 || s[33] < '0' || s[33] > '3') {
			snprintf(err, errsize, "GAMEACC without a name of 32 and a code 0-3");
			return -1;
		}
		name_of(s + 1, m->name);
		m->code = s[33] - '0';
		return 0;
	case 'M':
		if (n < 11 || digits(s + 1, 4, &m->seconds) || digits(s + 5, 2, &m->from) || digits(s + 7, 2, &m->to) ||
		    digits(s + 9, 2, &m->ncap) || m->ncap > 20 || n < 11 + 2 * (size_t)m->ncap) {
			snprintf(err, errsize, "MOVE with a bad field (time, from, to or pieces taken)");
			return -1;
		}
		for (int i = 0; i < m->ncap; i++)
			if (digits(s + 11 + 2 * i, 2, &m->cap[i])) {
				snprintf(err, errsize, "MOVE: piece taken %d is no square", i + 1);
				return -1;
			}
		return 0;
	case 'E':
		if (n < 3 || s[1] < '0' || s[1] > '3' || (s[2] != '0' && s[2] != '1')) {
			snprintf(err, errsize, "GAMEEND without a reason 0-3 and a stop code 0-1");
			return -1;
		}
		m->reason = s[1] - '0';
		m->stop = s[2] - '0';
		return 0;
	case 'B':
		if (n < 5 || digits(s + 1, 3, &m->number) || (s[4] != 'W' && s[4] != 'Z')) {
			snprintf(err, errsize, "BACKREQ without a move number and a colour");
			return -1;
		}
		m->color = s[4] == 'W' ? PK_WHITE : PK_BLACK;
		return 0;
	case 'K':
		if (n < 2 || s[1] < '0' || s[1] > '2') {
			snprintf(err, errsize, "BACKACC without a code 0-2");
			return -1;
		}
		m->code = s[1] - '0';
		return 0;
	case 'C':
		snprintf(m->text, sizeof m->text, "%s", s + 1);
		return 0;
	default:
		snprintf(err, errsize, "an unknown message type '%c'", s[0] >= 32 && s[0] < 127 ? s[0] : '?');
		return -1;
	}
}

static void name_field(const char *name, char out[33])
{
	while (*name == ' ')
		name++;
	int k = 0;
	for (; name[k] && k < 32; k++)
		out[k] = name[k] >= 32 && name[k] < 127 ? name[k] : '?';
	for (; k < 32; k++)
		out[k] = ' ';
	out[32] = 0;
}

static bool usual_start(const pk_vpos *p)
{
	pk_vpos s;
	vpos_start(p->v, &s);
	return p->stm == s.stm && !memcmp(p->sq, s.sq, sizeof s.sq);
}

void dxp_gamereq(const char *name, int follower, int minutes, int moves, const pk_vpos *start, char *out)
{
	char nm[33];
	name_field(name, nm);
	int len = snprintf(out, DXP_MAX + 1, "R01%s%c%03d%03d", nm, follower == PK_WHITE ? 'W' : 'Z',
			   minutes < 0 ? 0 : minutes > 999 ? 999 : minutes, moves < 0 ? 0 : moves > 999 ? 999 : moves);
	if (!start || usual_start(start)) {
		out[len++] = 'A';
		out[len] = 0;
		return;
	}
	out[len++] = 'B';
	out[len++] = start->stm == PK_WHITE ? 'W' : 'Z';
	static const char code[] = { 'e', 'w', 'W', 'z', 'Z' };
	for (int i = 1; i <= 50; i++)
		out[len++] = start->sq[i] <= VP_BKING ? code[start->sq[i]] : 'e';
	out[len] = 0;
}

void dxp_gameacc(const char *name, int code, char *out)
{
	char nm[33];
	name_field(name, nm);
	snprintf(out, DXP_MAX + 1, "A%s%d", nm, code);
}

void dxp_move(const pk_vmove *m, double seconds, char *out)
{
	int s = seconds < 0 ? 0 : seconds > 9999 ? 9999 : (int)(seconds + 0.5);
	int len = snprintf(out, DXP_MAX + 1, "M%04d%02d%02d%02d", s, m->from, m->to, m->ncap > 20 ? 20 : m->ncap);
	for (int i = 0; i < m->ncap && i < 20; i++)
		len += snprintf(out + len, (size_t)(DXP_MAX + 1 - len), "%02d", m->cap[i]);
}

void dxp_gameend(int reason, int stop, char *out)
{
	snprintf(out, DXP_MAX + 1, "E%d%d", reason, stop);
}

void dxp_start(const dxp_msg *m, pk_vpos *p)
{
	const pk_variant *v = variant_by_name("international");
	if (!m->has_pos) {
		vpos_start(v, p);
		return;
	}
	vpos_clear(v, p, m->stm);
	for (int i = 1; i <= 50; i++) {
		char c = m->sq[i];
		p->sq[i] = c == 'w' ? VP_WMAN : c == 'W' ? VP_WKING : c == 'z' ? VP_BMAN : c == 'Z' ? VP_BKING : VP_EMPTY;
	}
}

static bool same_caps(const pk_vmove *v, const dxp_msg *m)
{
	if (v->ncap != m->ncap)
		return false;
	for (int i = 0; i < m->ncap; i++) {
		bool found = false;
		for (int j = 0; j < v->ncap && !found; j++)
			found = v->cap[j] == m->cap[i];
		if (!found)
			return false;
	}
	return true;
}

bool dxp_find_move(const pk_vpos *p, const dxp_msg *m, pk_vmove *out)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return false;
	int n = vgen(p, ml), found = 0;
	for (int i = 0; i < n; i++) {
		const pk_vmove *v = &ml->m[i];
		if (v->from != m->from || v->to != m->to)
			continue;
		if (m->ncap ? same_caps(v, m) : true) {
			if (!found++)
				*out = *v;
		}
	}
	free(ml);
	return found == 1;
}

/* ---- the connection ---- */

bool dxp_address(const char *text, char *host, size_t size, const char **port)
{
	const char *colon = strrchr(text, ':');
	*port = colon ? colon + 1 : text;
	size_t n = colon ? (size_t)(colon - text) : 0;
	if (n >= size)
		return false;
	memcpy(host, text, n);
	host[n] = 0;
	if (n > 2 && host[0] == '[' && host[n - 1] == ']') {
		memmove(host, host + 1, n - 2);
		host[n - 2] = 0;
	}
	return true;
}

/* One attempt to connect within timeout seconds: 0, -1 with the reason (errno kept). */
static int connect_once(dxp_conn *c, const struct addrinfo *res, const char *host, int port, double timeout, char *err,
			size_t errsize)
{
	for (const struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0)
			continue;
		int r = connect(fd, a->ai_addr, a->ai_addrlen);
		if (r < 0 && errno == EINPROGRESS) {
			struct pollfd pf = { fd, POLLOUT, 0 };
			int ms = timeout > 0 ? (int)(timeout * 1000) : -1;
			if (poll(&pf, 1, ms) == 1) {
				int e = 0;
				socklen_t el = sizeof e;
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el);
				errno = e;
				r = e ? -1 : 0;
			} else
				errno = ETIMEDOUT;
		}
		if (r == 0) {
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			c->fd = fd;
			snprintf(c->peer, sizeof c->peer, "%.60s:%d", host, port);
			return 0;
		}
		int e = errno;
		snprintf(err, errsize, "%s:%d: %s", host, port, strerror(e));
		close(fd);
		errno = e;
	}
	return -1;
}

int dxp_connect(dxp_conn *c, const char *host, int port, double timeout, char *err, size_t errsize)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	struct addrinfo hints = { 0 }, *res = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	int rc = getaddrinfo(host, ps, &hints, &res);
	if (rc) {
		snprintf(err, errsize, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	snprintf(err, errsize, "%s:%d: no address", host, port);
	/* a follower that serves a connection a process (Scan 2.0) listens again only
	 * after a moment: a refused connection is tried again until the timeout */
	double end = child_now() + (timeout > 0 ? timeout : 10);
	int r;
	for (;;) {
		r = connect_once(c, res, host, port, end - child_now(), err, errsize);
		if (r == 0 || errno != ECONNREFUSED || child_now() + 0.05 >= end)
			break;
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	freeaddrinfo(res);
	return r;
}

int dxp_listen(const char *host, int port, char *err, size_t errsize)
{
	char ps[16];
	snprintf(ps, sizeof ps, "%d", port);
	struct addrinfo hints = { 0 }, *res = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	int rc = getaddrinfo(host && *host ? host : NULL, ps, &hints, &res);
	if (rc) {
		snprintf(err, errsize, "%s: %s", host && *host ? host : "*", gai_strerror(rc));
		return -1;
	}
	snprintf(err, errsize, "port %d: no address to listen on", port);
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 4) == 0) {
			freeaddrinfo(res);
			return fd;
		}
		snprintf(err, errsize, "%s:%d: %s", host && *host ? host : "*", port, strerror(errno));
		close(fd);
	}
	freeaddrinfo(res);
	return -1;
}

int dxp_accept(int lfd, dxp_conn *c)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	/* a quarter of a second at most, so that a stop asked by a signal that came just
	 * before the wait is seen by the caller's loop (accept itself would wait for ever) */
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	int r = poll(&pfd, 1, 250);
	if (r <= 0) {
		if (r == 0)
			errno = EAGAIN;   /* nobody came */
		return -1;
	}
	struct sockaddr_storage sa;
	socklen_t sl = sizeof sa;
	c->fd = accept4(lfd, (struct sockaddr *)&sa, &sl, SOCK_CLOEXEC);
	if (c->fd < 0)
		return -1;
	char h[64] = "?", p[16] = "?";
	getnameinfo((struct sockaddr *)&sa, sl, h, sizeof h, p, sizeof p, NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(c->peer, sizeof c->peer, "%s:%s", h, p);
	return 0;
}

int dxp_send(dxp_conn *c, const char *msg)
{
	if (c->fd < 0)
		return -1;
	size_t n = strlen(msg) + 1, off = 0;   /* with its '\0' */
	while (off < n) {
		ssize_t w = send(c->fd, msg + off, n - off, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

int dxp_recv(dxp_conn *c, char *msg, size_t size, double timeout)
{
	double end = child_now() + (timeout < 0 ? 1e9 : timeout);
	for (;;) {
		char *z = memchr(c->buf, 0, c->len);
		if (z) {
			size_t n = (size_t)(z - c->buf);
			int bad = n > DXP_MAX || n == 0;
			for (size_t i = 0; i < n && !bad; i++)
				bad = (unsigned char)c->buf[i] > 127 || c->buf[i] == '\n' || c->buf[i] == '\r';
			snprintf(msg, size, "%.*s", (int)(n < size ? n : size - 1), c->buf);
			memmove(c->buf, z + 1, c->len - n - 1);
			c->len -= n + 1;
			return bad ? -2 : 1;
		}
		if (c->len > DXP_MAX + 1) {
			snprintf(msg, size, "%.*s", (int)(c->len < size ? c->len : size - 1), c->buf);
			return -2;   /* no end in sight: not DXP */
		}
		if (c->fd < 0)
			return -1;
		double left = end - child_now();
		if (left <= 0)
			return 0;
		struct pollfd pf = { c->fd, POLLIN, 0 };
		int ms = left > 1e6 ? -1 : (int)(left * 1000) + 1;
		int r = poll(&pf, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue;
		if (r < 0)
			return -1;
		ssize_t k = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c->len += (size_t)k;
	}
}

void dxp_close(dxp_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}

/* ---- pdnkit as the initiator ---- */

#define DXP_MAX_GAME 1024

struct dxp_client {
	pk_engine_spec spec;
	pk_client_opts o;
	dxp_conn conn;
	bool alive;
	char name[64];
	int minutes, moves;
	bool in_game;
	pk_vpos start;              /* of the game requested */
	int sent;                   /* moves of the game the engine knows */
	pk_vmove *hist;             /* those moves */
};

const char *dxp_client_name(const dxp_client *c) { return c->name; }

bool dxp_client_alive(const dxp_client *c) { return c && c->alive; }

void dxp_client_set_time(dxp_client *c, int minutes, int moves)
{
	c->minutes = minutes;
	c->moves = moves;
}

dxp_client *dxp_client_open(const pk_engine_spec *s, const pk_client_opts *o, char *err, size_t errsize)
{
	if (s->kind != SPEC_DXP) {
		snprintf(err, errsize, "%s is no DXP engine", s->text);
		return NULL;
	}
	dxp_client *c = calloc(1, sizeof *c);
	if (!c || !(c->hist = malloc(sizeof *c->hist * DXP_MAX_GAME))) {
		free(c);
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	c->spec = *s;
	c->o.startup = o && o->startup > 0 ? o->startup : 10;
	c->o.margin = o && o->margin > 0 ? o->margin : 1;
	c->minutes = 1;
	snprintf(c->name, sizeof c->name, "%s", s->label);
	char host[1024], why[300];
	const char *port;
	if (!dxp_address(s->target, host, sizeof host, &port) || !*host) {
		snprintf(err, errsize, "%s: no HOST:PORT", s->text);
		free(c->hist);
		free(c);
		return NULL;
	}
	if (dxp_connect(&c->conn, host, atoi(port), c->o.startup, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s: cannot connect: %s", s->label, why);
		free(c->hist);
		free(c);
		return NULL;
	}
	c->alive = true;
	return c;
}

static void client_down(dxp_client *c)
{
	dxp_close(&c->conn);
	c->alive = false;
	c->in_game = false;
}

void dxp_client_end_game(dxp_client *c, int result)
{
	if (!c || !c->alive || !c->in_game)
		return;
	char msg[DXP_MAX + 1];
	/* the reason is the sender's: 1 it loses, 2 a draw, 3 it wins, 0 not known; the
	 * initiator sends it for the engine's opponent */
	dxp_gameend(result == DXP_RESULT_UNKNOWN ? 0 : result > 0 ? 1 : result < 0 ? 3 : 2, 0, msg);
	c->in_game = false;
	if (dxp_send(&c->conn, msg) < 0) {
		client_down(c);
		return;
	}
	/* its answer: a GAMEEND (a move it was making first is let through) */
	double end = child_now() + 2;
	for (;;) {
		double left = end - child_now();
		int k = left > 0 ? dxp_recv(&c->conn, msg, sizeof msg, left) : 0;
		if (k <= 0) {
			client_down(c);   /* silent or gone: a new connection for the next game */
			return;
		}
		if (msg[0] == 'E')
			return;
	}
}

static const char *end_reason(int r)
{
	return r == 1 ? "it gives up" : r == 2 ? "a draw" : r == 3 ? "it wins" : "no reason given";
}

/* The next message but chats before deadline, parsed: 1; 0 on timeout; -1 when the
 * connection closed; -2 when what came is no DXP message (why says so). */
static int next_msg(dxp_client *c, double deadline, char *msg, size_t size, dxp_msg *m, char *why, size_t whysize)
{
	for (;;) {
		double rest = deadline - child_now();
		int k = rest > 0 ? dxp_recv(&c->conn, msg, size, rest) : 0;
		if (k == -2)
			snprintf(why, whysize, "no DXP message: binary, or over 127 characters");
		if (k <= 0)
			return k;
		if (dxp_parse(msg, m, why, whysize) < 0)
			return -2;
		if (m->type != 'C')
			return 1;
	}
}

void dxp_client_new_game(dxp_client *c) { dxp_client_end_game(c, DXP_RESULT_UNKNOWN); }

void dxp_client_go(dxp_client *c, const pk_vpos *start, const pk_vmove *moves, const double *times, int nmoves,
		   double left, pk_client_answer *a, pk_vmove *move)
{
	memset(a, 0, sizeof *a);
	double t0 = child_now();
	char msg[DXP_MAX + 16], why[200];
	if (!c->alive) {
		a->status = CLIENT_CRASHED;
		snprintf(a->detail, sizeof a->detail, "%s is not connected", c->spec.label);
		return;
	}
	if (nmoves >= DXP_MAX_GAME - 1) {
		a->status = CLIENT_NO_MOVE;
		snprintf(a->detail, sizeof a->detail, "a game of more than %d moves", DXP_MAX_GAME - 2);
		return;
	}
	/* the game it knows must be this one's beginning */
	if (c->in_game && (nmoves < c->sent || memcmp(start->sq, c->start.sq, sizeof c->start.sq) != 0 ||
			   start->stm != c->start.stm))
		dxp_client_new_game(c);
	for (int i = 0; c->in_game && i < c->sent; i++)
		if (!vmove_same(&moves[i], &c->hist[i]))
			dxp_client_new_game(c);
	if (!c->alive) {
		a->status = CLIENT_CRASHED;
		snprintf(a->detail, sizeof a->detail, "%s did not answer the end of the last game; disconnected",
			 c->spec.label);
		return;
	}
	pk_vpos p = *start;
	for (int i = 0; i < nmoves; i++) {
		pk_vpos q;
		vmake(&p, &moves[i], &q);
		p = q;
	}
	if (!c->in_game) {
		/* a game from here, the engine with the side to move */
		dxp_gamereq("pdnkit", p.stm, c->minutes, c->moves, &p, msg);
		if (dxp_send(&c->conn, msg) < 0)
			goto gone;
		dxp_msg m;
		int k = next_msg(c, t0 + c->o.startup, msg, sizeof msg, &m, why, sizeof why);
		if (k == 0) {
			a->status = CLIENT_TIMEOUT;
			snprintf(a->detail, sizeof a->detail, "%s did not accept or refuse a game within %.1f s",
				 c->spec.label, c->o.startup);
			client_down(c);
			return;
		}
		if (k == -2)
			goto garbage;
		if (k < 0)
			goto bad;
		if (m.type != 'A') {
			snprintf(why, sizeof why, "a '%c' message where GAMEACC belongs", m.type);
			goto garbage;
		}
		if (*m.name)
			snprintf(c->name, sizeof c->name, "%s", m.name);
		if (m.code != 0) {
			a->status = CLIENT_NO_MOVE;
			snprintf(a->detail, sizeof a->detail, "%s refused the game (GAMEACC code %d: %s)", c->spec.label,
				 m.code, m.code == 1 ? "another protocol version" : m.code == 2 ? "not this game" :
				 "no game at all");
			return;
		}
		c->in_game = true;
		c->start = *start;
		if (nmoves > 0)
			memcpy(c->hist, moves, sizeof *moves * (size_t)nmoves);
		c->sent = nmoves;
	}
	/* the opponent's moves since */
	pk_vpos q = *start;
	for (int i = 0; i < nmoves; i++) {
		if (i >= c->sent) {
			dxp_move(&moves[i], times ? times[i] : 0, msg);
			if (dxp_send(&c->conn, msg) < 0)
				goto gone;
			c->hist[i] = moves[i];
		}
		pk_vpos r;
		vmake(&q, &moves[i], &r);
		q = r;
	}
	c->sent = nmoves;
	t0 = child_now();
	double deadline = t0 + left + c->o.margin;
	for (;;) {
		dxp_msg m;
		int k = next_msg(c, deadline, msg, sizeof msg, &m, why, sizeof why);
		a->seconds = child_now() - t0;
		if (k == 0) {
			a->status = CLIENT_TIMEOUT;
			snprintf(a->detail, sizeof a->detail, "%s gave no move within %.2f s (%.2f s on its clock and a margin "
				 "of %.2f s); disconnected", c->spec.label, left + c->o.margin, left, c->o.margin);
			client_down(c);
			return;
		}
		if (k == -2)
			goto garbage;
		if (k < 0)
			goto bad;
		if (m.type == 'B') {
			dxp_send(&c->conn, "K1");   /* no taking back in a match */
			continue;
		}
		if (m.type == 'E') {
			char ack[8];
			dxp_gameend(0, 0, ack);
			dxp_send(&c->conn, ack);
			c->in_game = false;
			if (m.stop)
				client_down(c);
			a->status = CLIENT_NO_MOVE;
			snprintf(a->detail, sizeof a->detail, "%s ended the game instead of moving (GAMEEND: %s)%s",
				 c->spec.label, end_reason(m.reason), m.stop ? " and wants no more games" : "");
			return;
		}
		if (m.type != 'M') {
			snprintf(why, sizeof why, "a '%c' message where MOVE belongs", m.type);
			goto garbage;
		}
		snprintf(a->text, sizeof a->text, "%.60s", msg);
		if (!dxp_find_move(&p, &m, move)) {
			a->status = CLIENT_ILLEGAL;
			snprintf(a->detail, sizeof a->detail, "%s played %s (%02d to %02d, %d taken), which is not a legal move here",
				 c->spec.label, msg, m.from, m.to, m.ncap);
			return;
		}
		c->hist[c->sent++] = *move;
		a->status = CLIENT_OK;
		return;
	}
gone:
	a->status = CLIENT_CRASHED;
	snprintf(a->detail, sizeof a->detail, "%s closed the connection", c->spec.label);
	client_down(c);
	return;
bad:
	a->status = CLIENT_CRASHED;
	snprintf(a->detail, sizeof a->detail, "%s closed the connection while %s", c->spec.label,
		 c->in_game ? "thinking" : "starting a game");
	client_down(c);
	return;
garbage: {
		char shown[80];
		int k = 0;
		for (const unsigned char *s = (const unsigned char *)msg; *s && k < 60; s++)
			shown[k++] = *s >= 32 && *s < 127 ? (char)*s : '?';
		shown[k] = 0;
		a->status = CLIENT_GARBAGE;
		snprintf(a->detail, sizeof a->detail, "%s wrote garbage: \"%s\" (%s); disconnected", c->spec.label, shown, why);
		client_down(c);
	}
}

void dxp_client_close(dxp_client *c)
{
	if (!c)
		return;
	if (c->alive && c->in_game) {
		char msg[8];
		dxp_gameend(0, 1, msg);
		dxp_send(&c->conn, msg);
	}
	dxp_close(&c->conn);
	free(c->hist);
	free(c);
}
