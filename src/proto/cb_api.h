/* The engine interface of CheckerBoard and the checkers GUIs that load engines the same
 * way: what libpdnkit-cb.so exports, as the host sees it. Squares are board[x][y] with
 * x the column (0..7) and y the row (0..7) from Black's home side; square n of English
 * draughts (1..32) is at y = (n-1)/4, x = 2*(3 - (n-1)%4) + y%2. */
#ifndef PK_CB_API_H
#define PK_CB_API_H

/* The Windows library (make cb-win) exports the three functions with the calling
 * convention CheckerBoard declares them with (WINAPI; the only one on x86-64). */
#ifdef _WIN32
#include <windows.h>
#define CB_EXPORT __declspec(dllexport)
#define CB_CALL WINAPI
#else
#define CB_EXPORT
#define CB_CALL
#endif

#define CB_FREE 0
#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8

/* What getmove returns: the engine's view of the game after its move. */
#define CB_DRAW 0
#define CB_WIN 1
#define CB_LOSS 2
#define CB_UNKNOWN 3

/* Bits of getmove's info. */
#define CB_RESET_MOVES 1   /* a new game, or the position was set up: forget the history */
#define CB_EXACT_TIME 2    /* maxtime is a limit, not an average */

struct cb_coor {
	int x, y;
};

struct CBmove {
	int jumps;                   /* pieces taken */
	int newpiece;                /* what stands on `to` after the move */
	int oldpiece;                /* what stood on `from` */
	struct cb_coor from, to;
	struct cb_coor path[12];     /* landing squares, from path[1]; path[0] unused */
	struct cb_coor del[12];      /* squares of the pieces taken */
	int delpiece[12];            /* what stood there */
};

/* Searches board with color to move (CB_BLACK or CB_WHITE) for about maxtime seconds
 * (or until *playnow becomes non-zero), plays its move on board, describes it in *move,
 * writes a status line into str and returns CB_WIN, CB_LOSS, CB_DRAW or CB_UNKNOWN. */
CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow, int info, int moreinfo,
	    struct CBmove *move);
/* Commands from the GUI ("name", "about", "help", "get gametype", "get protocolversion",
 * "get hashsize", "set hashsize N", "get book", "set book N"): the answer in reply, and 1
 * when the command was understood. */
CB_EXPORT int CB_CALL enginecommand(char command[256], char reply[1024]);
/* Whether the move from square `from` to square `to` (1..32) is legal for color; the move
 * in *move when it is. */
CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move);

#endif
