/* A small Windows host for pdnkit-cb.dll (make cb-win), run under wine by
 * tests/test_cb_win.sh: it loads the library as CheckerBoard loads an engine
 * (LoadLibrary, GetProcAddress of getmove, enginecommand and islegal), asks its name and
 * game type, checks a legal and an illegal move of the start, lets it play the first
 * move of a game and checks that one Black man moved forward, then plays on from a
 * capture that the rules force. Prints one line a check ("ok ..." or "FAIL ...") and
 * exits 0 when all passed. */
#include <stdio.h>
#include <string.h>
#include <windows.h>
#include "proto/cb_api.h"

typedef int(WINAPI *getmove_fn)(int board[8][8], int color, double maxtime, char str[1024], int *playnow, int info,
				 int moreinfo, struct CBmove *move);
typedef int(WINAPI *command_fn)(char command[256], char reply[1024]);
typedef int(WINAPI *islegal_fn)(int board[8][8], int color, int from, int to, struct CBmove *move);

static int failed;

static void check(int ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok" : "FAIL", what, detail && detail[0] ? ": " : "", detail ? detail : "");
	failed += !ok;
}

/* Square n (1..32) of English draughts on CheckerBoard's board[x][y] (cb_api.h). */
static void put(int board[8][8], int n, int piece)
{
	int y = (n - 1) / 4, x = 2 * (3 - (n - 1) % 4) + y % 2;
	board[x][y] = piece;
}

static int at(int board[8][8], int n)
{
	int y = (n - 1) / 4, x = 2 * (3 - (n - 1) % 4) + y % 2;
	return board[x][y];
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "pdnkit-cb.dll";
	HMODULE dll = LoadLibraryA(path);
	if (!dll) {
		printf("FAIL LoadLibrary %s: error %lu\n", path, (unsigned long)GetLastError());
		return 1;
	}
	getmove_fn get_move = (getmove_fn)(void (*)(void))GetProcAddress(dll, "getmove");
	command_fn command = (command_fn)(void (*)(void))GetProcAddress(dll, "enginecommand");
	islegal_fn is_legal = (islegal_fn)(void (*)(void))GetProcAddress(dll, "islegal");
	check(get_move && command && is_legal, "the three functions exported", NULL);
	if (!get_move || !command || !is_legal)
		return 1;

	char cmd[256], reply[1024];
	snprintf(cmd, sizeof cmd, "name");
	check(command(cmd, reply) == 1 && strncmp(reply, "pdnkit", 6) == 0, "enginecommand name", reply);
	snprintf(cmd, sizeof cmd, "get gametype");
	check(command(cmd, reply) == 1 && strcmp(reply, "21") == 0, "enginecommand get gametype", reply);
	snprintf(cmd, sizeof cmd, "set hashsize 16");
	check(command(cmd, reply) == 1 && strcmp(reply, "16") == 0, "enginecommand set hashsize 16", reply);
	snprintf(cmd, sizeof cmd, "no such command");
	check(command(cmd, reply) == 0, "an unknown command refused", reply);

	int board[8][8];
	memset(board, 0, sizeof board);
	for (int n = 1; n <= 12; n++)
		put(board, n, CB_BLACK | CB_MAN);
	for (int n = 21; n <= 32; n++)
		put(board, n, CB_WHITE | CB_MAN);
	struct CBmove mv;
	check(is_legal(board, CB_BLACK, 11, 15, &mv) == 1 && mv.jumps == 0, "islegal 11-15 at the start", NULL);
	check(is_legal(board, CB_BLACK, 11, 18, &mv) == 0, "islegal 11-18 refused", NULL);
	check(is_legal(board, CB_WHITE, 11, 15, &mv) == 0, "islegal 11-15 refused for White", NULL);

	char str[1024] = "";
	int playnow = 0;
	int r = get_move(board, CB_BLACK, 0.3, str, &playnow, CB_RESET_MOVES, 0, &mv);
	int black = 0, moved_from = 0, moved_to = 0;
	for (int n = 1; n <= 32; n++)
		if (at(board, n) == (CB_BLACK | CB_MAN)) {
			black++;
			moved_to = n > 12 ? n : moved_to;
		} else if (n <= 12)
			moved_from = n;
	char detail[1200];
	snprintf(detail, sizeof detail, "%d-%d, returned %d, \"%s\"", moved_from, moved_to, r, str);
	check(black == 12 && moved_from >= 9 && moved_to >= 13 && moved_to <= 16 && r == CB_UNKNOWN,
	      "getmove plays a first move", detail);

	/* a capture forced: Black's man on 18 must take White's on 22 (18x25) */
	memset(board, 0, sizeof board);
	put(board, 18, CB_BLACK | CB_MAN);
	put(board, 22, CB_WHITE | CB_MAN);
	put(board, 1, CB_WHITE | CB_KING);
	put(board, 32, CB_BLACK | CB_KING);
	r = get_move(board, CB_BLACK, 0.2, str, &playnow, CB_RESET_MOVES, 0, &mv);
	snprintf(detail, sizeof detail, "jumps %d, 25 holds %d, 22 holds %d, \"%s\"", mv.jumps, at(board, 25),
		 at(board, 22), str);
	check(mv.jumps == 1 && at(board, 22) == CB_FREE && at(board, 25) == (CB_BLACK | CB_MAN),
	      "getmove takes the capture the rules force", detail);

	/* out of the book: a search (Black men on 5, 6 and 9, White's on 21, 25 and 26) */
	memset(board, 0, sizeof board);
	put(board, 5, CB_BLACK | CB_MAN);
	put(board, 6, CB_BLACK | CB_MAN);
	put(board, 9, CB_BLACK | CB_MAN);
	put(board, 21, CB_WHITE | CB_MAN);
	put(board, 25, CB_WHITE | CB_MAN);
	put(board, 26, CB_WHITE | CB_MAN);
	r = get_move(board, CB_BLACK, 0.3, str, &playnow, CB_RESET_MOVES, 0, &mv);
	int left = (at(board, 5) != 0) + (at(board, 6) != 0) + (at(board, 9) != 0);
	snprintf(detail, sizeof detail, "returned %d, \"%s\"", r, str);
	check(left == 2 && mv.jumps == 0 && strstr(str, "depth") != NULL, "getmove searches a position out of the book",
	      detail);

	FreeLibrary(dll);
	printf("%s\n", failed ? "cbwin_host: failed" : "cbwin_host: all passed");
	return failed ? 1 : 0;
}
