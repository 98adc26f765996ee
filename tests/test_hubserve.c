/* The Hub server of analysis/hubserve without the command line: a session on a thread
 * of this process over two pipes, with an init callback of the test's own (the engine
 * from a small table, no book). The handshake shows the caller's defaults and the values
 * set since; the callback receives what set-param set; a value is refused after init; a
 * search answers a legal move; a refused position makes go answer an error and done; a
 * failing init is reported with the callback's reason and go still ends with done;
 * quit and the end of input end the session. International draughts (set-param variant=normal)
 * and Frisian: positions of 50 squares, moves from every position of a game legal, a
 * capture written with the pieces taken, the variant fixed after init, the English
 * engine's init callback not called for them. (tests/test_hub.c drives pdnkit engine.) */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "analysis/hubserve.h"
#include "engine/eval.h"
#include "rules/gen.h"
#include "rules/move.h"
#include "rules/variant.h"
#include "proto/hub.h"

typedef struct {
	char hash[32];
	int inits;
	bool fail;
} init_seen;

static int test_init(void *ctx, const pk_hub_params *p, bool use_book, pk_engine **e, struct pk_book **bk,
		     char *err, size_t errsize)
{
	init_seen *s = ctx;
	s->inits++;
	snprintf(s->hash, sizeof s->hash, "%s", p->hash ? p->hash : "(unset)");
	*bk = NULL;
	(void)use_book;
	if (s->fail) {
		snprintf(err, errsize, "no engine here");
		return -1;
	}
	*e = engine_new(4, eval_tuned_weights());
	return *e ? 0 : -1;
}

typedef struct {
	pk_hub_server srv;
	int in_fd;
	FILE *out;
	int rc;
} session;

static void *serve(void *arg)
{
	session *s = arg;
	s->rc = hubserve_run(&s->srv, s->in_fd, s->out);
	fclose(s->out);
	close(s->in_fd);
	return NULL;
}

static FILE *to_srv, *from_srv;

static void send_line(const char *text)
{
	fprintf(to_srv, "%s\n", text);
	fflush(to_srv);
}

/* Reads lines until one starts with want (its text into line); false at the end. */
static bool expect(const char *want, char *line, size_t size)
{
	while (fgets(line, (int)size, from_srv)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, want, strlen(want)))
			return true;
	}
	return false;
}

/* Lines until "done", the first error line kept in err (empty when none). */
static bool until_done(char *done, size_t size, char *err, size_t errsize)
{
	err[0] = 0;
	while (fgets(done, (int)size, from_srv)) {
		done[strcspn(done, "\n")] = 0;
		if (!strncmp(done, "error", 5) && !err[0])
			snprintf(err, errsize, "%s", done);
		if (!strncmp(done, "done", 4))
			return true;
	}
	return false;
}

static void start(session *s, pthread_t *t, init_seen *seen, const pk_hub_params *defaults)
{
	int in[2], out[2];
	if (pipe(in) < 0 || pipe(out) < 0)
		exit(1);
	memset(s, 0, sizeof *s);
	s->srv = (pk_hub_server){ .init = test_init, .ctx = seen, .version = "test-1", .defaults = defaults,
				  .egdb_cache_default = "7", .use_book = false, .default_movetime = 0.05 };
	s->in_fd = in[0];
	s->out = fdopen(out[1], "w");
	to_srv = fdopen(in[1], "w");
	from_srv = fdopen(out[0], "r");
	if (!s->out || !to_srv || !from_srv || pthread_create(t, NULL, serve, s) != 0)
		exit(1);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	alarm(300);   /* a hung session fails the test instead of the whole run */
	char line[4096], err[4096];
	init_seen seen = { .inits = 0 };
	pk_hub_params defaults = { .hash = "8" };
	session s;
	pthread_t t;
	start(&s, &t, &seen, &defaults);

	send_line("hub");
	CHECK(expect("id ", line, sizeof line) && strstr(line, "name=pdnkit") && strstr(line, "version=test-1"));
	CHECK(expect("param name=hash", line, sizeof line) && strstr(line, "value=8 "));
	CHECK(expect("param name=egdb-cache", line, sizeof line) && strstr(line, "value=7 "));
	CHECK(expect("wait", line, sizeof line));

	send_line("set-param name=hash value=abc");
	CHECK(expect("error", line, sizeof line) && strstr(line, "hash=abc"));
	send_line("set-param name=hash value=16");
	send_line("hub");
	CHECK(expect("param name=hash", line, sizeof line) && strstr(line, "value=16 "));
	CHECK(expect("wait", line, sizeof line));

	send_line("init");
	CHECK(expect("ready", line, sizeof line));
	CHECK_INT(seen.inits, 1);
	CHECK_STR(seen.hash, "16");
	send_line("set-param name=hash value=32");
	CHECK(expect("error", line, sizeof line) && strstr(line, "before init"));

	/* A search from the start answers one of its legal moves, after info lines. */
	send_line("pos start");
	send_line("level depth=3");
	send_line("go think");
	CHECK(until_done(line, sizeof line, err, sizeof err));
	CHECK_STR(err, "");
	const char *mv = strstr(line, "move=");
	CHECK(mv != NULL);
	if (mv) {
		char text[32];
		snprintf(text, sizeof text, "%s", mv + 5);
		text[strcspn(text, " ")] = 0;
		pk_pos p;
		pos_start(&p);
		pk_movelist ml;
		int n = gen_moves(&p, &ml), found = 0;
		for (int i = 0; i < n; i++) {
			char mt[PK_MOVE_STRLEN];
			move_format(&ml.m[i], false, mt, sizeof mt);
			found += !strcmp(mt, text);
		}
		CHECK_REPORT(found == 1, "done names %s, not a legal move from the start", text);
	}
	CHECK_INT(seen.inits, 1);

	/* A refused position: an error, and go answers an error and done. */
	send_line("pos pos=Wxyz");
	CHECK(expect("error", line, sizeof line) && strstr(line, "no position is set"));
	send_line("go think");
	CHECK(until_done(line, sizeof line, err, sizeof err));
	CHECK(strstr(err, "no position") != NULL);
	send_line("ping");
	CHECK(expect("pong", line, sizeof line));
	send_line("quit");
	pthread_join(t, NULL);
	CHECK_INT(s.rc, 0);
	fclose(to_srv);
	fclose(from_srv);

	/* International draughts: Hub's variant "normal" */
	{
		init_seen vs = { .inits = 0 };
		start(&s, &t, &vs, NULL);
		send_line("set-param name=variant value=checkers");
		CHECK(expect("error", line, sizeof line) && strstr(line, "variant=checkers"));
		send_line("set-param name=variant value=normal");
		send_line("hub");
		CHECK(expect("param name=variant", line, sizeof line) && strstr(line, "value=normal "));
		CHECK(expect("wait", line, sizeof line));
		send_line("init");
		CHECK(expect("ready", line, sizeof line));
		CHECK_INT(vs.inits, 0);
		send_line("set-param name=variant value=english");
		CHECK(expect("error", line, sizeof line) && strstr(line, "before init"));
		/* a game played by the engine against itself, each move read back as legal */
		const pk_variant *iv = variant_by_name("international");
		pk_vpos p;
		vpos_start(iv, &p);
		char moves[8192] = "";
		size_t used = 0;
		int legal_moves = 0, captures = 0, plies;
		send_line("level depth=3");
		for (plies = 0; plies < 40; plies++) {
			char cmd[8400];
			snprintf(cmd, sizeof cmd, "pos start moves=\"%s\"", moves);
			send_line(cmd);
			send_line("go think");
			if (!until_done(line, sizeof line, err, sizeof err) || err[0])
				break;
			const char *m = strstr(line, "move=");
			if (!m)
				break;
			char text[400];
			snprintf(text, sizeof text, "%s", m + 5);
			text[strcspn(text, " ")] = 0;
			pk_vmove vm;
			if (!hub_read_vmove(&p, text, false, &vm))
				break;
			legal_moves++;
			captures += vm.ncap > 0 && strchr(text, 'x') != NULL;
			pk_vpos q;
			vmake(&p, &vm, &q);
			p = q;
			used += (size_t)snprintf(moves + used, sizeof moves - used, "%s%s", used ? " " : "", text);
			if (vcount(&p) == 0)
				break;
		}
		CHECK_REPORT(legal_moves == plies || legal_moves == plies + 1, "International over Hub: %d legal moves in %d plies (%s)",
			     legal_moves, plies, err);
		CHECK_REPORT(legal_moves >= 20 && captures >= 1, "%d moves, %d captures", legal_moves, captures);
		/* the position by pos=: a white king against a black man, its capture */
		char ps[52];
		memset(ps, 'e', sizeof ps);
		ps[0] = 'W';
		ps[51] = 0;
		ps[46] = 'W';
		ps[28] = 'b';
		char cmd[100];
		snprintf(cmd, sizeof cmd, "pos pos=%s", ps);
		send_line(cmd);
		send_line("go think");
		CHECK(until_done(line, sizeof line, err, sizeof err));
		CHECK_REPORT(strstr(line, "move=46x") && strstr(line, "x28"), "the king's capture: %s", line);
		send_line("pos pos=Weee");
		CHECK(expect("error", line, sizeof line) && strstr(line, "50 squares"));
		send_line("quit");
		pthread_join(t, NULL);
		CHECK_INT(s.rc, 0);
		fclose(to_srv);
		fclose(from_srv);
	}
	/* Frisian: the same board, its own rules */
	{
		init_seen fs = { .inits = 0 };
		start(&s, &t, &fs, NULL);
		send_line("set-param name=variant value=frisian");
		send_line("pos start moves=\"32-28 19-23 28x19\"");
		send_line("level depth=2");
		send_line("go think");
		CHECK(until_done(line, sizeof line, err, sizeof err));
		CHECK_REPORT(!err[0] && strstr(line, "move=") && strstr(line, "x19"), "Frisian over Hub: %s %s", line, err);
		send_line("fen");
		CHECK(expect("info fen=", line, sizeof line) && strstr(line, "pos=B"));
		send_line("quit");
		pthread_join(t, NULL);
		fclose(to_srv);
		fclose(from_srv);
	}

	/* An init that fails: its reason reported, and go still ends with done; the end of
	 * input ends the session. */
	init_seen bad = { .fail = true };
	start(&s, &t, &bad, NULL);
	send_line("init");
	CHECK(expect("error", line, sizeof line) && strstr(line, "init: no engine here"));
	send_line("hub");
	CHECK(expect("param name=hash", line, sizeof line) && strstr(line, "value=64 "));
	send_line("go think");
	CHECK(until_done(line, sizeof line, err, sizeof err));
	CHECK(strstr(err, "init: no engine here") != NULL);
	fclose(to_srv);
	pthread_join(t, NULL);
	CHECK_INT(s.rc, 0);
	CHECK(bad.inits >= 2);
	fclose(from_srv);
	return check_done("test_hubserve");
}
