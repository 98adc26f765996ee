/* pdnkit engine through the Hub protocol, as a GUI drives it: the handshake, a whole
 * game against the built-in engine (match's player: the same search, depth 4) with
 * every move the engine sends legal, ping answered during a search, stop ending an
 * infinite analysis, ponder and ponder-hit, errors for a bad position and a bad move,
 * and the end of input ending the engine. */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "analysis/play.h"
#include "engine/search.h"
#include "rules/gen.h"

static FILE *to_eng, *from_eng;
static pid_t pid;

static void send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void send(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(to_eng, fmt, ap);
	va_end(ap);
	fputc('\n', to_eng);
	fflush(to_eng);
}

/* Reads lines until one starts with want (its text into line); false at the end. */
static bool expect(const char *want, char *line, size_t size)
{
	while (fgets(line, (int)size, from_eng)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, want, strlen(want)))
			return true;
	}
	return false;
}

/* The value of arg=... in a line (quoted or not) into out. */
static bool arg_of(const char *line, const char *arg, char *out, size_t size)
{
	char key[64];
	snprintf(key, sizeof key, " %s=", arg);
	const char *p = strstr(line, key);
	if (!p)
		return false;
	p += strlen(key);
	size_t n;
	if (*p == '"') {
		p++;
		n = strcspn(p, "\"");
	} else
		n = strcspn(p, " ");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

/* Hub's form of a position and of a move. */
static void pos_text(const pk_pos *p, char out[34])
{
	out[0] = p->stm == PK_WHITE ? 'W' : 'B';
	for (int sq = 1; sq <= 32; sq++) {
		int c;
		bool k;
		out[sq] = pos_piece_at(p, sq, &c, &k) ? (c == PK_WHITE ? (k ? 'W' : 'w') : (k ? 'B' : 'b')) : 'e';
	}
	out[33] = 0;
}

static void move_text(const pk_move *m, char *buf, size_t size)
{
	if (!move_is_capture(m)) {
		snprintf(buf, size, "%d-%d", m->from + 1, move_to(m) + 1);
		return;
	}
	size_t n = (size_t)snprintf(buf, size, "%dx%d", m->from + 1, move_to(m) + 1);
	for (bb_t c = m->captured; c; c &= c - 1)
		n += (size_t)snprintf(buf + n, size - n, "x%d", __builtin_ctzll((unsigned long long)c) + 1);
}

/* The legal move of p that Hub's text names, or -1. */
static int find_move(const pk_pos *p, const char *text, pk_move *out)
{
	pk_movelist ml;
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		char t[64];
		move_text(&ml.m[i], t, sizeof t);
		/* The taken pieces may come in any order: compare as sets. */
		pk_move m;
		(void)m;
		if (!strcmp(t, text)) {
			*out = ml.m[i];
			return i;
		}
	}
	/* any order of the taken squares */
	int sq[16], n = 0;
	const char *s = text;
	while (n < 16 && *s) {
		char *end;
		sq[n++] = (int)strtol(s, &end, 10);
		s = *end ? end + 1 : end;
	}
	for (int i = 0; i < ml.n && n >= 2; i++) {
		bb_t taken = 0;
		for (int k = 2; k < n; k++)
			taken |= bb_sq(sq[k] - 1);
		if (ml.m[i].from + 1 == sq[0] && move_to(&ml.m[i]) + 1 == sq[1] && ml.m[i].captured == taken) {
			*out = ml.m[i];
			return i;
		}
	}
	return -1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	const char *pdnkit = getenv("PDNKIT");
	if (!pdnkit)
		pdnkit = "./pdnkit";
	signal(SIGPIPE, SIG_IGN);
	alarm(600);   /* a hung session fails the test instead of the whole run */
	int in[2], out[2];
	if (pipe(in) < 0 || pipe(out) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(pdnkit, pdnkit, "engine", "--egdb", "none", "--hash", "16", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_eng = fdopen(in[1], "w");
	from_eng = fdopen(out[0], "r");
	char line[8192], val[4096];

	send("hub");
	CHECK(expect("id ", line, sizeof line));
	CHECK(arg_of(line, "name", val, sizeof val) && !strcmp(val, "pdnkit"));
	CHECK(expect("wait", line, sizeof line));
	send("set-param name=book value=false");
	send("init");
	CHECK(expect("ready", line, sizeof line));
	send("ping");
	CHECK(expect("pong", line, sizeof line));

	/* A game: the Hub engine has White, the built-in engine Black; the GUI sends the
	 * start and every move so far. */
	pk_engine *e = engine_new(16, NULL);
	pk_pos start;
	pos_start(&start);
	pk_play g = { .draw_moves = PLAY_DRAW_MOVES };
	play_init_english(&g, &start, false);
	char startpos[34];
	pos_text(&start, startpos);
	send("new-game");
	int plies = 0, illegal = 0, infos = 0, dones = 0;
	while (play_status(&g) == PLAY_ON && plies < 300) {
		pk_move played;
		if (g.pos.e.stm == PK_WHITE) {
			char moves[8192] = "";
			size_t len = 0;
			pk_pos p = start;
			for (int i = 0; i < g.nply; i++) {
				char t[64];
				move_text(&g.moves[i].e, t, sizeof t);
				len += (size_t)snprintf(moves + len, sizeof moves - len, "%s%s", i ? " " : "", t);
				pk_pos q;
				pos_make(&p, &g.moves[i].e, &q);
				p = q;
			}
			send("pos pos=%s moves=\"%s\"", startpos, moves);
			send("level depth=4");
			send("go think");
			bool done = false;
			while (fgets(line, sizeof line, from_eng)) {
				line[strcspn(line, "\n")] = 0;
				if (!strncmp(line, "info ", 5))
					infos++;
				if (!strncmp(line, "done", 4)) {
					done = true;
					break;
				}
			}
			if (!done)
				break;
			dones++;
			if (!arg_of(line, "move", val, sizeof val) || find_move(&g.pos.e, val, &played) < 0) {
				printf("not legal: '%s' in %s\n", line, startpos);
				illegal++;
				break;
			}
		} else {
			pk_limits lim = { .depth = 4 };
			pk_history h = play_history(&g);
			pk_result r;
			engine_search(e, &g.pos.e, &h, &lim, NULL, NULL, NULL, &r);
			played = r.best;
		}
		play_move_english(&g, &played);
		plies++;
	}
	CHECK_INT(illegal, 0);
	CHECK(plies >= 20);
	CHECK_INT(dones, plies / 2);
	CHECK(infos >= dones / 2);
	printf("game of %d plies: %s\n", plies, play_status_text(&g, play_status(&g)));

	/* An infinite analysis answers ping and ends on stop with a done. */
	send("pos start");
	send("level infinite");
	send("go analyze");
	CHECK(expect("info ", line, sizeof line));
	send("ping");
	CHECK(expect("pong", line, sizeof line));
	double t0 = now();
	send("stop");
	CHECK(expect("done move=", line, sizeof line));
	CHECK(now() - t0 < 5);
	CHECK(arg_of(line, "move", val, sizeof val) && find_move(&start, val, &(pk_move){ 0 }) >= 0);

	/* Ponder, then ponder-hit: a move for the searched position under the level. */
	send("pos start moves=\"11-15 23-19\"");
	send("level move-time=0.2");
	send("go ponder");
	CHECK(expect("info ", line, sizeof line));
	send("ponder-hit");
	CHECK(expect("done move=", line, sizeof line));
	pk_pos p = start;
	pk_move mv;
	const char *seq[] = { "11-15", "23-19" };
	for (int i = 0; i < 2; i++) {
		pk_pos q;
		find_move(&p, seq[i], &mv);
		pos_make(&p, &mv, &q);
		p = q;
	}
	CHECK(arg_of(line, "move", val, sizeof val) && find_move(&p, val, &mv) >= 0);

	/* A forced move is answered at once, pondering or not: after 11-15 22-18, Black's
	 * one jump, with the piece it takes. */
	send("pos start moves=\"11-15 22-18\"");
	send("go ponder");
	CHECK(expect("done move=", line, sizeof line));
	CHECK(arg_of(line, "move", val, sizeof val) && !strcmp(val, "15x22x18"));

	/* Bad input: an error line, and the engine goes on. */
	send("pos pos=Bxyz");
	CHECK(expect("error ", line, sizeof line));
	send("pos start moves=\"11-15 12-16\"");
	CHECK(expect("error ", line, sizeof line));
	CHECK(strstr(line, "12-16") != NULL);
	send("ping");
	CHECK(expect("pong", line, sizeof line));

	/* The end of input ends the engine. */
	fclose(to_eng);
	int status = 0;
	t0 = now();
	pid_t w;
	while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now() - t0 < 10) {
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	CHECK(w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (w != pid)
		kill(pid, SIGKILL);
	fclose(from_eng);
	play_free(&g);
	engine_free(e);
	printf("test_hub: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
