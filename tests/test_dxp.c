/* DamExchange without the command line: the messages both ways, moves named by their
 * squares, and pdnkit as the initiator against followers played by a thread of this test,
 * well-behaved and misbehaving (refusal, silence, a closed connection, an illegal move,
 * garbage, a resignation, a follower that never answers the request): each ends with its
 * status in bounded time, and no descriptor is left open. */
#include <errno.h>
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
#include "check.h"
#include "proto/child.h"
#include "proto/dxp.h"
#include "proto/spec.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static const pk_variant *intl(void) { return variant_by_name("international"); }

static void messages(void)
{
	char msg[DXP_MAX + 1], err[200];
	dxp_msg m;
	pk_vpos start, p;
	vpos_start(intl(), &start);

	/* GAMEREQ from the usual start: 'A', 43 characters */
	dxp_gamereq("pdnkit", PK_BLACK, 5, 75, &start, msg);
	CHECK_INT((int)strlen(msg), 43);
	CHECK_STR(msg, "R01pdnkit                          Z005075A");
	CHECK(dxp_parse(msg, &m, err, sizeof err) == 0);
	CHECK_STR(m.name, "pdnkit");
	CHECK_INT(m.follower, PK_BLACK);
	CHECK_INT(m.minutes, 5);
	CHECK_INT(m.moves, 75);
	CHECK(!m.has_pos);
	dxp_start(&m, &p);
	CHECK(p.stm == start.stm && !memcmp(p.sq, start.sq, sizeof p.sq));

	/* from another position: 'B', the colour to move and 50 squares, read back the same */
	pk_vmovelist *ml = malloc(sizeof *ml);
	vgen(&start, ml);
	vmake(&start, &ml->m[3], &p);
	dxp_gamereq("a name longer than thirty-two characters in all", PK_WHITE, 120, 0, &p, msg);
	CHECK_INT((int)strlen(msg), 94);
	CHECK(dxp_parse(msg, &m, err, sizeof err) == 0);
	CHECK_STR(m.name, "a name longer than thirty-two ch");
	CHECK(m.has_pos && m.stm == PK_BLACK && m.minutes == 120);
	pk_vpos back;
	dxp_start(&m, &back);
	CHECK(back.stm == p.stm && !memcmp(back.sq, p.sq, sizeof p.sq));

	/* GAMEACC, GAMEEND */
	dxp_gameacc("Tornado", 0, msg);
	CHECK_INT((int)strlen(msg), 34);
	CHECK(dxp_parse(msg, &m, err, sizeof err) == 0 && m.type == 'A' && m.code == 0 && !strcmp(m.name, "Tornado"));
	dxp_gameend(1, 0, msg);
	CHECK_STR(msg, "E10");
	CHECK(dxp_parse(msg, &m, err, sizeof err) == 0 && m.reason == 1 && m.stop == 0);

	/* MOVE: a quiet move, and a capture with its pieces in any order */
	dxp_move(&ml->m[3], 12.4, msg);
	char want[32];
	snprintf(want, sizeof want, "M0012%02d%02d00", ml->m[3].from, ml->m[3].to);
	CHECK_STR(msg, want);
	CHECK(dxp_parse(msg, &m, err, sizeof err) == 0);
	pk_vmove mv;
	CHECK(dxp_find_move(&start, &m, &mv) && vmove_same(&mv, &ml->m[3]));
	/* captures: a man on 28 with black men about it */
	CHECK(vfen_parse(intl(), "W:W28:B22,11,12,23,33", &p, err, sizeof err) == 0);
	int n = vgen(&p, ml);
	CHECK(n >= 1);
	/* every legal capture, written by dxp_move, is found again; the list reversed too */
	for (int i = 0; i < n; i++) {
		dxp_move(&ml->m[i], 0, msg);
		CHECK(dxp_parse(msg, &m, err, sizeof err) == 0);
		for (int a = 0, b = m.ncap - 1; a < b; a++, b--) {
			int t = m.cap[a];
			m.cap[a] = m.cap[b];
			m.cap[b] = t;
		}
		CHECK(dxp_find_move(&p, &m, &mv) && vmove_same(&mv, &ml->m[i]));
	}
	/* an illegal one */
	CHECK(dxp_parse("M0000464100", &m, err, sizeof err) == 0);
	CHECK(!dxp_find_move(&start, &m, &mv));
	free(ml);

	/* bad messages, each with a reason */
	const char *bad[] = { "", "X12", "R01short", "M00a1", "M0000313202", "E4", "E02", "AToo short", "K9", "B12Q",
			      "R01pdnkit                          Q005075A" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		CHECK_REPORT(dxp_parse(bad[i], &m, err, sizeof err) < 0 && err[0], "'%s' refused", bad[i]);
	}
	char big[200];
	memset(big, 'C', 150);
	big[150] = 0;
	CHECK(dxp_parse(big, &m, err, sizeof err) < 0);
	CHECK(dxp_parse("C\xc3\xa9t\xc3\xa9", &m, err, sizeof err) < 0);
}

/* A follower played by a thread: mode says how it misbehaves. */
typedef struct {
	int lfd;
	const char *mode;
	int games;                  /* GAMEREQs it answered */
} fake;

static void *follower(void *arg)
{
	fake *f = arg;
	dxp_conn c;
	int tries = 0;   /* dxp_accept waits a quarter of a second at a time: 20 s in all */
	while (dxp_accept(f->lfd, &c) < 0)
		if ((errno != EAGAIN && errno != EINTR) || ++tries > 80)
			return NULL;
	char msg[DXP_MAX + 16], out[DXP_MAX + 1], err[200];
	pk_vpos p;
	int mine = PK_WHITE;
	pk_vmovelist *ml = malloc(sizeof *ml);
	for (;;) {
		int k = dxp_recv(&c, msg, sizeof msg, 5);
		if (k <= 0)
			break;
		dxp_msg m;
		if (dxp_parse(msg, &m, err, sizeof err) < 0)
			break;
		bool my_turn = false;
		if (m.type == 'R') {
			if (!strcmp(f->mode, "silent"))
				continue;
			f->games++;
			dxp_gameacc("fake follower", !strcmp(f->mode, "refuse") ? 2 : 0, out);
			dxp_send(&c, out);
			dxp_start(&m, &p);
			mine = m.follower;
			my_turn = p.stm == mine;
		} else if (m.type == 'M') {
			pk_vmove mv;
			if (!dxp_find_move(&p, &m, &mv))
				break;
			pk_vpos q;
			vmake(&p, &mv, &q);
			p = q;
			my_turn = true;
		} else if (m.type == 'E') {
			dxp_gameend(0, m.stop, out);
			dxp_send(&c, out);
			if (m.stop)
				break;
		}
		if (!my_turn)
			continue;
		if (!strcmp(f->mode, "hang"))
			continue;
		if (!strcmp(f->mode, "close"))
			break;
		if (!strcmp(f->mode, "illegal")) {
			dxp_send(&c, "M0000464100");
			continue;
		}
		if (!strcmp(f->mode, "garbage")) {
			send(c.fd, "\x01\xfe\xff binary\0", 11, MSG_NOSIGNAL);
			continue;
		}
		if (!strcmp(f->mode, "resign")) {
			dxp_send(&c, "C I give up");
			dxp_gameend(1, 0, out);
			dxp_send(&c, out);
			continue;
		}
		vgen(&p, ml);
		dxp_move(&ml->m[0], 0, out);
		pk_vpos q;
		vmake(&p, &ml->m[0], &q);
		p = q;
		dxp_send(&c, out);
	}
	free(ml);
	dxp_close(&c);
	return NULL;
}

static int start_fake(fake *f, const char *mode, pthread_t *t)
{
	char err[200];
	memset(f, 0, sizeof *f);
	f->mode = mode;
	f->lfd = dxp_listen("127.0.0.1", 0, err, sizeof err);
	if (f->lfd < 0)
		return -1;
	struct sockaddr_in sa;
	socklen_t sl = sizeof sa;
	getsockname(f->lfd, (struct sockaddr *)&sa, &sl);
	pthread_create(t, NULL, follower, f);
	return ntohs(sa.sin_port);
}

static pk_client_status one(const char *mode, double left, pk_client_answer *a, double *took, int moves)
{
	fake f;
	pthread_t t;
	int port = start_fake(&f, mode, &t);
	if (port < 0)
		return -1;
	char text[64], err[400];
	snprintf(text, sizeof text, "dxp:127.0.0.1:%d", port);
	pk_engine_spec s;
	spec_parse(text, NULL, &s, err, sizeof err);
	pk_client_opts o = { .startup = 0.5, .margin = 0.3 };
	dxp_client *c = dxp_client_open(&s, &o, err, sizeof err);
	pk_client_status st = -1;
	double t0 = child_now();
	if (c) {
		pk_vpos start, p;
		vpos_start(intl(), &start);
		p = start;
		pk_vmove played[64];
		pk_vmovelist *ml = malloc(sizeof *ml);
		int n = 0;
		for (int i = 0; i < moves; i++) {
			/* our move, then its */
			vgen(&p, ml);
			played[n++] = ml->m[ml->n - 1];
			pk_vpos q;
			vmake(&p, &ml->m[ml->n - 1], &q);
			p = q;
			dxp_client_go(c, &start, played, NULL, n, left, a, &played[n]);
			st = a->status;
			if (st != CLIENT_OK)
				break;
			vmake(&p, &played[n], &q);
			p = q;
			n++;
		}
		free(ml);
		dxp_client_close(c);
	}
	*took = child_now() - t0;
	pthread_join(t, NULL);
	close(f.lfd);
	return st;
}

static void initiator(void)
{
	int fds0 = open_fds();
	pk_client_answer a;
	double took;
	CHECK_INT(one("ok", 2, &a, &took, 10), CLIENT_OK);
	CHECK(took < 2);
	struct {
		const char *mode;
		pk_client_status want;
		const char *says;
	} cases[] = {
		{ "refuse", CLIENT_NO_MOVE, "refused the game" },
		{ "silent", CLIENT_TIMEOUT, "did not accept" },
		{ "hang", CLIENT_TIMEOUT, "gave no move within" },
		{ "close", CLIENT_CRASHED, "closed the connection" },
		{ "illegal", CLIENT_ILLEGAL, "not a legal move" },
		{ "garbage", CLIENT_GARBAGE, "garbage" },
		{ "resign", CLIENT_NO_MOVE, "it gives up" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pk_client_status st = one(cases[i].mode, 0.2, &a, &took, 3);
		CHECK_REPORT(st == cases[i].want && strstr(a.detail, cases[i].says) != NULL, "%s: status %d, \"%s\"",
			     cases[i].mode, st, a.detail);
		CHECK_REPORT(took < 3, "%s ended in %.2f s", cases[i].mode, took);
	}
	/* nobody listening */
	pk_engine_spec s;
	char err[400];
	spec_parse("dxp:127.0.0.1:1", NULL, &s, err, sizeof err);
	CHECK(dxp_client_open(&s, NULL, err, sizeof err) == NULL && strstr(err, "cannot connect"));
	CHECK_INT(open_fds(), fds0);
}

static void addresses(void)
{
	char host[64];
	const char *port;
	CHECK(dxp_address("localhost:27531", host, sizeof host, &port) && !strcmp(host, "localhost") &&
	      !strcmp(port, "27531"));
	CHECK(dxp_address("[::1]:0", host, sizeof host, &port) && !strcmp(host, "::1") && !strcmp(port, "0"));
	CHECK(dxp_address("27531", host, sizeof host, &port) && !strcmp(host, "") && !strcmp(port, "27531"));
	CHECK(!dxp_address("a-host-name-much-longer-than-the-buffer-it-is-given-here-by-far:1", host, 16, &port));
}

int main(void)
{
	addresses();
	messages();
	initiator();
	return check_done("test_dxp");
}
