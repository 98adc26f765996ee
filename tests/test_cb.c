/* libpdnkit-cb.so loaded as CheckerBoard loads an engine: its commands answer, islegal
 * agrees with the rules, and a whole game against the built-in engine has every move
 * legal and described right in its CBmove; playnow stops a long search. */
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include "check.h"
#include "proto/cb_api.h"
#include "analysis/play.h"
#include "engine/search.h"
#include "rules/gen.h"

typedef int (*getmove_fn)(int[8][8], int, double, char[1024], int *, int, int, struct CBmove *);
typedef int (*command_fn)(char[256], char[1024]);
typedef int (*islegal_fn)(int[8][8], int, int, int, struct CBmove *);

/* Square n (1..32) on CheckerBoard's board[x][y], as its documentation numbers them. */
static void xy(int n, int *x, int *y)
{
	*y = (n - 1) / 4;
	*x = 2 * (3 - (n - 1) % 4) + *y % 2;
}

static void to_board(const pk_pos *p, int b[8][8])
{
	memset(b, 0, sizeof(int) * 64);
	for (int sq = 1; sq <= 32; sq++) {
		int c, x, y;
		bool k;
		xy(sq, &x, &y);
		if (pos_piece_at(p, sq, &c, &k))
			b[x][y] = (c == PK_WHITE ? CB_WHITE : CB_BLACK) | (k ? CB_KING : CB_MAN);
	}
}

static void from_board(int b[8][8], int stm, pk_pos *p)
{
	pos_clear(p, stm);
	for (int sq = 1; sq <= 32; sq++) {
		int x, y;
		xy(sq, &x, &y);
		if (b[x][y])
			pos_put(p, sq, b[x][y] & CB_WHITE ? PK_WHITE : PK_BLACK, (b[x][y] & CB_KING) != 0);
	}
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	char path[4096];
	const char *bindir = getenv("BINDIR");
	const char *so = getenv("CB_SO");
	if (so)
		snprintf(path, sizeof path, "%s", so);
	else
		snprintf(path, sizeof path, "%s/../libpdnkit-cb.so", bindir ? bindir : "build/tests");
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	CHECK_REPORT(lib != NULL, "dlopen %s: %s", path, dlerror());
	if (!lib) {
		printf("test_cb: %d passed, %d failed\n", check_passed, check_failed);
		return 1;
	}
	getmove_fn getmove_p = (getmove_fn)dlsym(lib, "getmove");
	command_fn command_p = (command_fn)dlsym(lib, "enginecommand");
	islegal_fn islegal_p = (islegal_fn)dlsym(lib, "islegal");
	CHECK(getmove_p && command_p && islegal_p);
	if (!getmove_p || !command_p || !islegal_p) {
		printf("test_cb: %d passed, %d failed\n", check_passed, check_failed);
		return 1;
	}

	/* Commands. */
	char cmd[256], reply[1024];
	snprintf(cmd, sizeof cmd, "name");
	CHECK_INT(command_p(cmd, reply), 1);
	CHECK(strncmp(reply, "pdnkit", 6) == 0);
	snprintf(cmd, sizeof cmd, "get gametype");
	CHECK_INT(command_p(cmd, reply), 1);
	CHECK_STR(reply, "21");
	snprintf(cmd, sizeof cmd, "set hashsize 16");
	CHECK_INT(command_p(cmd, reply), 1);
	snprintf(cmd, sizeof cmd, "get hashsize");
	command_p(cmd, reply);
	CHECK_STR(reply, "16");
	snprintf(cmd, sizeof cmd, "set book 0");
	CHECK_INT(command_p(cmd, reply), 1);
	snprintf(cmd, sizeof cmd, "make coffee");
	CHECK_INT(command_p(cmd, reply), 0);

	/* islegal from the start: Black's 11-15 and 9-14 are, 12-13 and 22-18 are not. */
	pk_pos start;
	pos_start(&start);
	int b[8][8];
	to_board(&start, b);
	struct CBmove m;
	CHECK_INT(islegal_p(b, CB_BLACK, 11, 15, &m), 1);
	int x, y;
	xy(11, &x, &y);
	CHECK(m.from.x == x && m.from.y == y);
	xy(15, &x, &y);
	CHECK(m.to.x == x && m.to.y == y);
	CHECK_INT(m.oldpiece, CB_BLACK | CB_MAN);
	CHECK_INT(islegal_p(b, CB_BLACK, 9, 14, &m), 1);
	CHECK_INT(islegal_p(b, CB_BLACK, 12, 13, &m), 0);
	CHECK_INT(islegal_p(b, CB_BLACK, 22, 18, &m), 0);
	CHECK_INT(islegal_p(b, CB_WHITE, 22, 18, &m), 1);

	/* A game: the library has Black, the built-in engine White (depth 4). */
	pk_engine *e = engine_new(16, NULL);
	pk_play g = { .draw_moves = PLAY_DRAW_MOVES };
	play_init_english(&g, &start, false);
	int plies = 0, illegal = 0, described = 0, first_reset = CB_RESET_MOVES;
	while (play_status(&g) == PLAY_ON && plies < 300) {
		pk_move played;
		if (g.pos.e.stm == PK_BLACK) {
			to_board(&g.pos.e, b);
			char str[1024] = "";
			int playnow = 0;
			getmove_p(b, CB_BLACK, 0.02, str, &playnow, first_reset, 0, &m);
			first_reset = 0;
			pk_pos after;
			from_board(b, PK_WHITE, &after);
			/* Exactly the position one legal move leads to, and that move described. */
			pk_movelist ml;
			gen_moves(&g.pos.e, &ml);
			int found = -1;
			for (int i = 0; i < ml.n; i++) {
				pk_pos q;
				pos_make(&g.pos.e, &ml.m[i], &q);
				if (q.side[0] == after.side[0] && q.side[1] == after.side[1] && q.kings == after.kings)
					found = i;
			}
			if (found < 0) {
				illegal++;
				break;
			}
			played = ml.m[found];
			int fx, fy, tx, ty;
			xy(played.from + 1, &fx, &fy);
			xy(move_to(&played) + 1, &tx, &ty);
			if (m.from.x == fx && m.from.y == fy && m.to.x == tx && m.to.y == ty &&
			    m.jumps == __builtin_popcountll((unsigned long long)played.captured))
				described++;
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
	int black_moves = (plies + 1) / 2;
	CHECK_INT(illegal, 0);
	CHECK(plies >= 20);
	CHECK_INT(described, black_moves);
	printf("game of %d plies, %s\n", plies, play_status_text(&g, play_status(&g)));

	/* playnow: a search of 100 s ends at once when the GUI says so. */
	to_board(&start, b);
	char str[1024];
	int playnow = 1;
	double t0 = now();
	getmove_p(b, CB_BLACK, 100, str, &playnow, CB_RESET_MOVES, 0, &m);
	CHECK(now() - t0 < 5);
	pk_pos after;
	from_board(b, PK_WHITE, &after);
	CHECK(gen_count(&after) > 0);

	/* Not positions: a colour other than CB_WHITE or CB_BLACK, a code that is no
	 * piece, a man on its crowning row, an empty board. The board is left as it was,
	 * the status says why, and islegal says no. */
	int bad_colour[] = { 0, 3, -1, 7 };
	for (size_t i = 0; i < sizeof bad_colour / sizeof bad_colour[0]; i++) {
		to_board(&start, b);
		int before[8][8];
		memcpy(before, b, sizeof before);
		playnow = 0;
		CHECK_INT(getmove_p(b, bad_colour[i], 0.02, str, &playnow, CB_RESET_MOVES, 0, &m), CB_UNKNOWN);
		CHECK(memcmp(before, b, sizeof before) == 0);
		CHECK_REPORT(strstr(str, "neither CB_WHITE") != NULL, "colour %d: status [%s]", bad_colour[i], str);
		CHECK_INT(islegal_p(b, bad_colour[i], 11, 15, &m), 0);
	}
	to_board(&start, b);
	xy(16, &x, &y);
	b[x][y] = 99;
	CHECK_INT(getmove_p(b, CB_BLACK, 0.02, str, &playnow, CB_RESET_MOVES, 0, &m), CB_UNKNOWN);
	CHECK_REPORT(strstr(str, "no piece") != NULL, "a bad code: status [%s]", str);
	pk_pos odd;
	pos_clear(&odd, PK_BLACK);
	pos_put(&odd, 30, PK_BLACK, false);
	pos_put(&odd, 10, PK_WHITE, false);
	to_board(&odd, b);
	CHECK_INT(getmove_p(b, CB_BLACK, 0.02, str, &playnow, CB_RESET_MOVES, 0, &m), CB_UNKNOWN);
	CHECK_REPORT(strstr(str, "crowning row") != NULL, "a man on its crowning row: status [%s]", str);
	pos_clear(&odd, PK_BLACK);
	to_board(&odd, b);
	CHECK_INT(getmove_p(b, CB_BLACK, 0.02, str, &playnow, CB_RESET_MOVES, 0, &m), CB_UNKNOWN);
	CHECK_REPORT(strstr(str, "no pieces") != NULL, "an empty board: status [%s]", str);

	play_free(&g);
	engine_free(e);
	dlclose(lib);
	printf("test_cb: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
