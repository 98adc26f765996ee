/* Where a decided game turned, read from the engines' scores its moves carry: the
 * [%eval S] notes that `match` records write after each move (each engine's own score
 * after its move) and `annotate` writes (one engine's), S from the first mover's view in
 * men, "#n" / "#-n" a win or a loss in n plies. Nothing is searched. */
#ifndef PK_TURNS_H
#define PK_TURNS_H

#include <stdbool.h>
#include "pdn/pdn.h"
#include "pdn/replay.h"

/* A win found by search, as a score in hundredths: beyond every evaluation. */
#define TURNS_WIN 100000

/* The [%eval] of a comment's text into *score (hundredths from the first mover's view;
 * a win in n plies TURNS_WIN - n, a loss its negative): true when there is one that
 * reads as a number or a win. */
bool turns_parse_eval(const char *comment, int *score);

typedef struct {
	int result;        /* RES_* of the replay */
	int winner;        /* PK_BLACK or PK_WHITE when decided, else -1 */
	int notes;         /* main-line moves with a score */
	/* The deciding move: the loser's last move (scored or not) before the first ply
	 * from which every later score of one side's notes gives the winner at least the
	 * threshold: the move after which the winner's advantage stayed for good (when the
	 * loser's own score is the first to stay, its position was lost before it moved,
	 * so its move before is the one). 1-based ply; 0 when neither side's scores stayed
	 * there (a game lost on time in a level position) or the loser had no move before. */
	int turn;
	int loser_score;   /* the loser's note at that move, from the loser's view (when has_loser_score) */
	bool has_loser_score;
	int winner_score;  /* the first note after it, from the winner's view (when has_winner_score) */
	bool has_winner_score;
	int winner_ply;    /* the first ply from which the winner's own notes stay at the threshold or above, 0 none */
	int loser_ply;     /* the same for the loser's notes */
} pk_turn;

/* The [%depth N] of a comment's text: N, or -1 when there is none. */
int turns_parse_depth(const char *comment);

/* The turn of a replayed game of any variant whose rules are known (complete or not:
 * its main-line moves that replayed) with notes; threshold in hundredths; a score whose
 * [%depth] is below min_depth (a forced move some engines answer with a search of 2
 * plies) is passed over, one without a depth kept. -1 for a game of a variant not
 * replayed (not read), -2 when out of memory, else 0 with t filled (t->winner -1: not
 * decided, nothing more). */
int turns_find(const pk_game *g, const pk_replay *rp, int threshold, int min_depth, pk_turn *t);

#endif
