/* pdnkit driving another engine: a Hub engine started as a child process, or a
 * CheckerBoard library loaded by a child process of its own (pdnkit engine --cb LIB,
 * which speaks Hub for it), so that an engine that crashes, hangs or writes garbage
 * cannot take pdnkit down. English draughts. Every fault is an answer with a status and
 * a message that says exactly what the engine did. */
#ifndef PK_CLIENT_H
#define PK_CLIENT_H

#include <stdbool.h>
#include "proto/spec.h"
#include "rules/gen.h"

typedef enum {
	CLIENT_OK,
	CLIENT_CRASHED,             /* ended, or closed its output */
	CLIENT_TIMEOUT,             /* no move within the limit and the margin */
	CLIENT_ILLEGAL,             /* a move that is not legal here */
	CLIENT_GARBAGE,             /* a line that is no Hub (binary, overlong, too many) */
	CLIENT_NO_MOVE,             /* done without a move (its error, if any, in detail) */
} pk_client_status;

typedef struct {
	double startup;             /* seconds to answer hub and init (default 10) */
	double margin;              /* seconds a move may take past its limit (default 1) */
	const char *helper;         /* the pdnkit program that hosts a CB library (default
				     * /proc/self/exe) */
} pk_client_opts;

typedef struct {
	pk_client_status status;
	pk_move move;
	char text[64];              /* the move as the engine wrote it */
	double seconds;             /* from go to its answer */
	int depth;                  /* from its last info line (0: none) */
	bool has_score;
	double score;               /* in men, for the side to move */
	char detail[700];           /* what went wrong, for messages */
} pk_client_answer;

typedef struct pk_client pk_client;

/* Starts the engine of s and greets it (hub, its parameters, init). NULL with the reason
 * in err when it cannot be started, answers nothing in time, or refuses a parameter. */
pk_client *client_open(const pk_engine_spec *s, const pk_client_opts *o, char *err, size_t errsize);
/* Its name and version as it gives them ("GuiNN 2.06"). */
const char *client_name(const pk_client *c);
/* Its parameters as it lists them ("param name=hash value=64 type=int ..."), i from 0;
 * NULL after the last. */
const char *client_param(const pk_client *c, int i);
/* A new game begins. */
void client_new_game(pk_client *c);
/* Its move in the position after moves from start (its history, for repetitions), with
 * movetime seconds. A status other than CLIENT_OK and CLIENT_ILLEGAL leaves the engine
 * stopped (client_alive false). */
void client_go(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double movetime,
	       pk_client_answer *a);
/* The same with a clock: left seconds on it, inc added after each move ("level time=
 * inc="); the engine loses on time past left and the margin. */
void client_go_clock(pk_client *c, const pk_pos *start, const pk_move *moves, int nmoves, double left, double inc,
		     pk_client_answer *a);
bool client_alive(const pk_client *c);
/* Quits it (quit, then SIGKILL after a grace) and frees everything. NULL is fine. */
void client_close(pk_client *c);

/* Status names: "ok", "crashed", "time", "illegal", "garbage", "no move". */
const char *client_status_name(pk_client_status s);

#endif
