/* The protocol layer without the command line: engine specs and the engines file, the
 * Hub text, and the client against a well-behaved engine and misbehaving ones
 * (tests/fake_engine.c), and against libpdnkit-cb.so through pdnkit engine --cb: each
 * fault is an answer with its status, in bounded time; no process and no descriptor is
 * left behind. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "proto/child.h"
#include "proto/client.h"
#include "proto/hub.h"
#include "proto/spec.h"
#include "analysis/match.h"

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

static char fake[4096], pdnkit[4096], cbso[4096];

/* A client of the fake engine in mode, misbehaving at its move n. */
static pk_client *fake_client(const char *mode, int n, double startup, char *err, size_t errsize)
{
	char text[8192];
	snprintf(text, sizeof text, "hub:%s %s %d", fake, mode, n);
	pk_engine_spec s;
	if (spec_parse(text, NULL, &s, err, errsize) < 0)
		return NULL;
	pk_client_opts o = { .startup = startup, .margin = 0.3, .helper = pdnkit };
	return client_open(&s, &o, err, errsize);
}

/* Plays moves from the start with c until it fails or n moves were made; the last status. */
static pk_client_status play(pk_client *c, int n, pk_client_answer *a)
{
	pk_pos start;
	pos_start(&start);
	pk_move moves[64];
	pk_pos p = start;
	for (int i = 0; i < n && i < 64; i++) {
		client_go(c, &start, moves, i, 0.05, a);
		if (a->status != CLIENT_OK)
			return a->status;
		moves[i] = a->move;
		pk_pos q;
		pos_make(&p, &a->move, &q);
		p = q;
	}
	return CLIENT_OK;
}

static void specs(void)
{
	pk_engine_spec s;
	char err[600];
	CHECK(spec_parse("pdnkit", NULL, &s, err, sizeof err) == 0 && s.kind == SPEC_PDNKIT && !*s.target);
	CHECK(spec_parse("pdnkit:--depth 8", NULL, &s, err, sizeof err) == 0 && !strcmp(s.target, "--depth 8"));
	CHECK(spec_parse("cb:/x/libguinn-cb.so,hashsize=128, book = 0", NULL, &s, err, sizeof err) == 0);
	CHECK_STR(s.target, "/x/libguinn-cb.so");
	CHECK_STR(s.label, "guinn-cb");
	CHECK_INT(s.nparams, 2);
	CHECK_STR(s.key[1], "book");
	CHECK_STR(s.value[1], "0");
	CHECK(spec_parse("cb:", NULL, &s, err, sizeof err) < 0 && strstr(err, "path"));
	CHECK(spec_parse("cb:a.so,oops", NULL, &s, err, sizeof err) < 0 && strstr(err, "key=value"));
	CHECK(spec_parse("hub:scan 'hub mode'", NULL, &s, err, sizeof err) == 0 && s.kind == SPEC_HUB);
	CHECK(spec_parse("hub:scan 'unbalanced", NULL, &s, err, sizeof err) < 0);
	CHECK(spec_parse("dxp:localhost:27531", NULL, &s, err, sizeof err) == 0 && s.kind == SPEC_DXP);
	CHECK(spec_parse("dxp:localhost:99999", NULL, &s, err, sizeof err) < 0);
	CHECK(spec_parse("uci:stockfish", NULL, &s, err, sizeof err) < 0 && strstr(err, "no engine"));
	CHECK(spec_parse("guinn", NULL, &s, err, sizeof err) < 0 && strstr(err, "engines file"));
	char words[256], *argv[8];
	CHECK_INT(spec_split("a \"b c\" 'd'", words, sizeof words, argv, 8), 3);
	CHECK_STR(argv[1], "b c");
	CHECK_INT(spec_split("1 2 3 4 5 6 7 8", words, sizeof words, argv, 8), -1);

	/* the engines file */
	char path[] = "/tmp/pdnkit-test-engines-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "# engines\n[guinn]\nhashsize = 128\nspec = cb:/opt/libguinn-cb.so,book=0\n\n[scan]\nspec = hub:scan hub\n"
		   "[bad]\nhash = 1\n[self]\nspec = pdnkit:--depth 8\n");
	fclose(f);
	CHECK(spec_parse("guinn", path, &s, err, sizeof err) == 0 && s.kind == SPEC_CB);
	CHECK_STR(s.label, "guinn");
	CHECK_STR(s.target, "/opt/libguinn-cb.so");
	CHECK_INT(s.nparams, 2);
	CHECK_STR(s.key[0], "book");
	CHECK_STR(s.key[1], "hashsize");
	CHECK(spec_parse("scan", path, &s, err, sizeof err) == 0 && s.kind == SPEC_HUB && !strcmp(s.target, "scan hub"));
	CHECK(spec_parse("bad", path, &s, err, sizeof err) < 0 && strstr(err, "no spec"));
	CHECK(spec_parse("self", path, &s, err, sizeof err) == 0 && s.kind == SPEC_PDNKIT);
	CHECK(spec_parse("nobody", path, &s, err, sizeof err) < 0 && strstr(err, "no engine 'nobody'"));
	char name[64];
	CHECK_STR(spec_file_name(path, 1, name, sizeof name), "scan");
	CHECK(spec_file_name(path, 4, name, sizeof name) == NULL);
	f = fopen(path, "w");
	fprintf(f, "spec = hub:x\n");
	fclose(f);
	CHECK(spec_parse("x", path, &s, err, sizeof err) < 0 && strstr(err, ":1:"));
	unlink(path);
}

static void hub_text(void)
{
	char line[] = "done move=22x15x18 ponder=\"11-15\" flag";
	hub_line l;
	CHECK_STR(hub_parse(line, &l), "done");
	CHECK_STR(hub_arg(&l, "move"), "22x15x18");
	CHECK_STR(hub_arg(&l, "ponder"), "11-15");
	CHECK_STR(hub_arg(&l, "flag"), "");
	pk_pos p, q;
	pos_start(&p);
	char t[34];
	hub_pos_text(&p, t);
	CHECK_STR(t, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
	CHECK(hub_pos(t, &q) == 0 && pos_equal(&p, &q));
	CHECK(hub_pos("Bxx", &q) < 0);
	pk_move m;
	CHECK(hub_read_move(&p, "11-15", false, &m));
	CHECK(!hub_read_move(&p, "11-17", false, &m));
	CHECK(!hub_read_move(&p, "99-15", false, &m));
}

static void faults(void)
{
	char err[800];
	pk_client_answer a;
	int fds0 = open_fds();
	pk_client *c = fake_client("ok", 0, 5, err, sizeof err);
	CHECK_REPORT(c != NULL, "the well-behaved engine starts: %s", err);
	if (c) {
		CHECK_STR(client_name(c), "fake-ok 1");
		CHECK(client_param(c, 0) && strstr(client_param(c, 0), "variant"));
		CHECK_INT(play(c, 30, &a), CLIENT_OK);
		client_close(c);
	}
	static const struct {
		const char *mode;
		pk_client_status want;
		const char *says;
	} cases[] = {
		{ "crash", CLIENT_CRASHED, "signal 6" },
		{ "hang", CLIENT_TIMEOUT, "no move within" },
		{ "illegal", CLIENT_ILLEGAL, "1-2" },
		{ "garbage", CLIENT_GARBAGE, "garbage" },
		{ "nomove", CLIENT_NO_MOVE, "nothing to say" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double t0 = child_now();
		c = fake_client(cases[i].mode, 3, 5, err, sizeof err);
		CHECK_REPORT(c != NULL, "%s starts: %s", cases[i].mode, err);
		if (!c)
			continue;
		pk_client_status st = play(c, 10, &a);
		CHECK_REPORT(st == cases[i].want, "%s: status %s, want %s (%s)", cases[i].mode, client_status_name(st),
			     client_status_name(cases[i].want), a.detail);
		CHECK_REPORT(strstr(a.detail, cases[i].says) != NULL, "%s: the message [%s] lacks [%s]", cases[i].mode, a.detail,
			     cases[i].says);
		CHECK_REPORT(child_now() - t0 < 3, "%s: ended in %.1f s", cases[i].mode, child_now() - t0);
		if (cases[i].want != CLIENT_ILLEGAL && cases[i].want != CLIENT_NO_MOVE)
			CHECK(!client_alive(c));
		client_close(c);
	}
	/* never starts, starts too slowly, wrong variant: no client, a reason */
	err[0] = 0;
	CHECK_REPORT(fake_client("exit", 0, 5, err, sizeof err) == NULL && strstr(err, "status 3"), "an engine that exits at once: [%s]", err);
	double t0 = child_now();
	CHECK(fake_client("slow", 0, 0.3, err, sizeof err) == NULL && strstr(err, "did not answer"));
	CHECK(child_now() - t0 < 2);
	CHECK(fake_client("variant", 0, 5, err, sizeof err) == NULL && strstr(err, "not English draughts"));
	pk_engine_spec s;
	spec_parse("hub:/nonexistent/engine", NULL, &s, err, sizeof err);
	CHECK(client_open(&s, NULL, err, sizeof err) == NULL && strstr(err, "cannot start"));
	/* nothing left behind */
	CHECK_INT(open_fds(), fds0);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}

/* libpdnkit-cb.so as a CheckerBoard library, in pdnkit engine --cb. */
static void cb_library(void)
{
	if (access(cbso, R_OK) != 0 || access(pdnkit, X_OK) != 0) {
		CHECK_REPORT(0, "%s or %s missing", cbso, pdnkit);
		return;
	}
	char text[8192], err[800];
	snprintf(text, sizeof text, "cb:%s", cbso);
	pk_engine_spec s;
	CHECK(spec_parse(text, NULL, &s, err, sizeof err) == 0);
	pk_client_opts o = { .helper = pdnkit };
	pk_client *c = client_open(&s, &o, err, sizeof err);
	CHECK_REPORT(c != NULL, "libpdnkit-cb.so starts: %s", err);
	if (!c)
		return;
	CHECK(strstr(client_name(c), "pdnkit") != NULL);
	pk_client_answer a;
	CHECK_INT(play(c, 12, &a), CLIENT_OK);
	client_close(c);
	/* a library that is no engine */
	snprintf(text, sizeof text, "cb:/nonexistent/lib.so");
	spec_parse(text, NULL, &s, err, sizeof err);
	CHECK(client_open(&s, &o, err, sizeof err) == NULL);
}

/* The ACF deck: 156 legal openings, all different, in the deck's order. */
static void deck(void)
{
	pk_opening *op = NULL;
	int n = match_deck(3, &op);
	CHECK_INT(n, 156);
	int same = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			same += pos_equal(&op[i].start, &op[j].start);
	CHECK_INT(same, 0);
	if (n > 0) {
		CHECK_STR(op[0].text, "ACF 1: 9-13 21-17 5-9 (Edinburgh)");
		CHECK_STR(op[155].text, "ACF 156: 12-16 24-20 10-15 (Dundee)");
		CHECK_STR(op[99].text, "ACF 100: 11-15 21-17 9-13 (Switcher)");
		CHECK_STR(op[102].text, "ACF 103: 11-15 22-17 8-11");   /* no name of its own */
		CHECK_INT(op[155].nply, 3);
	}
	free(op);
	CHECK_INT(match_deck(2, &op), 49);
	free(op);
}

int main(void)
{
	const char *bindir = getenv("BINDIR");
	const char *prog = getenv("PDNKIT");
	snprintf(fake, sizeof fake, "%s/fake_engine", bindir ? bindir : "build/tests");
	snprintf(pdnkit, sizeof pdnkit, "%s", prog ? prog : "./pdnkit");
	snprintf(cbso, sizeof cbso, "%s/../libpdnkit-cb.so", bindir ? bindir : "build/tests");
	specs();
	deck();
	hub_text();
	faults();
	cb_library();
	return check_done("test_proto");
}
