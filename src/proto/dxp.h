/* DamExchange (DXP), the protocol two International draughts programs play over
 * (mesander.nl/damexchange): messages of 1 to 127 ASCII characters, each sent over a TCP
 * stream followed by a '\0'; the first character names the message:
 *   R  GAMEREQ  version "01", the initiator's name (32), the follower's colour (W or Z),
 *               minutes for the game (3 digits), moves for the game (3), then 'A' (the
 *               usual start) or 'B', the colour to move and 50 squares of e, w, z, W, Z
 *   A  GAMEACC  the follower's name (32), '0' accepted, '1' another version, '2' not this
 *               game, '3' no game at all
 *   M  MOVE     seconds used (4), from (2), to (2), pieces taken (2), their squares (2 each)
 *   E  GAMEEND  reason ('0' none, '1' I lose, '2' draw, '3' I win), '0' another game may
 *               follow or '1' the end
 *   B  BACKREQ  move number (3), colour to move;  K  BACKACC  '0' yes, '1' no, '2' refused
 *   C  CHAT     free text
 * Here: the messages as text and back, the squares of a move against the legal moves of a
 * position, the TCP connection, and pdnkit as the initiator that drives a DXP engine
 * (proto/client.h's statuses, so that a match treats it as any other engine). */
#ifndef PK_DXP_H
#define PK_DXP_H

#include <stdbool.h>
#include <stddef.h>
#include "proto/client.h"
#include "rules/variant.h"

#define DXP_MAX 127                 /* characters of a message */
#define DXP_PORT 27531              /* the port DXP names */

typedef struct {
	char type;                      /* R A M E B K C */
	/* R */
	char version[3];
	char name[33];                  /* R and A: trailing blanks removed */
	int follower;                   /* PK_WHITE or PK_BLACK */
	int minutes, moves;
	bool has_pos;                   /* 'B': stm and sq below; 'A': the usual start */
	int stm;
	char sq[51];                    /* 1..50: e w z W Z */
	/* A, K */
	int code;
	/* M */
	int seconds, from, to, ncap;
	int cap[20];
	/* E */
	int reason, stop;
	/* B */
	int number;
	int color;
	/* C */
	char text[DXP_MAX + 1];
} dxp_msg;

/* Parses one message; 0, or -1 with what is wrong in err. */
int dxp_parse(const char *s, dxp_msg *m, char *err, size_t errsize);

/* The messages as DXP writes them (out: at least DXP_MAX + 1 bytes). start may be NULL or
 * the usual start: 'A'. */
void dxp_gamereq(const char *name, int follower, int minutes, int moves, const pk_vpos *start, char *out);
void dxp_gameacc(const char *name, int code, char *out);
void dxp_move(const pk_vmove *m, double seconds, char *out);
void dxp_gameend(int reason, int stop, char *out);

/* The position of a GAMEREQ ('B', or the usual start for 'A') for International draughts. */
void dxp_start(const dxp_msg *m, pk_vpos *p);
/* The legal move a MOVE names: the same from and to and, when it lists any, the same
 * pieces taken (in any order). False when none is, or when two are and it lists none. */
bool dxp_find_move(const pk_vpos *p, const dxp_msg *m, pk_vmove *out);

/* "HOST:PORT", "[IPV6]:PORT" or "PORT" split: the host (brackets removed; "" when none)
 * into host, and the port's text; false when the host does not fit. */
bool dxp_address(const char *text, char *host, size_t size, const char **port);

/* A TCP connection that carries messages. */
typedef struct {
	int fd;
	char buf[4096];
	size_t len;
	char peer[80];
} dxp_conn;

/* Connects to host:port within timeout seconds; 0, or -1 with the reason. */
int dxp_connect(dxp_conn *c, const char *host, int port, double timeout, char *err, size_t errsize);
/* A listening socket on host (NULL or "": every address) and port; the descriptor, or -1. */
int dxp_listen(const char *host, int port, char *err, size_t errsize);
/* The next connection on a listening socket: waits a quarter of a second at most (-1 with
 * errno EAGAIN then; -1 too when interrupted or failed), so that a caller looping on a
 * stop flag sees it. */
int dxp_accept(int lfd, dxp_conn *c);
/* Sends a message and its '\0'; 0, or -1 when the other side has gone. */
int dxp_send(dxp_conn *c, const char *msg);
/* The next message within timeout seconds (< 0: no limit): 1, 0 on timeout, -1 when the
 * connection closed, -2 when what came is no DXP message (binary, over 127 characters). */
int dxp_recv(dxp_conn *c, char *msg, size_t size, double timeout);
void dxp_close(dxp_conn *c);

/* pdnkit as the initiator: a DXP engine listening at spec's host:port, driven through a
 * game at a time as client.h drives a Hub engine. */
typedef struct dxp_client dxp_client;

dxp_client *dxp_client_open(const pk_engine_spec *s, const pk_client_opts *o, char *err, size_t errsize);
/* Its name, as its GAMEACC gives it (the spec's label before the first game). */
const char *dxp_client_name(const dxp_client *c);
/* The minutes and moves of the games to come (GAMEREQ's fields; default 1 and 0). */
void dxp_client_set_time(dxp_client *c, int minutes, int moves);
/* Ends the game being played, if any (GAMEEND, and its answer awaited briefly). */
void dxp_client_new_game(dxp_client *c);
/* The game is over: a GAMEEND with its result from the engine's view (1 it won, 0 a draw,
 * -1 it lost, DXP_RESULT_UNKNOWN), then its confirmation awaited (2 s at most: a silent
 * or closed engine is disconnected). Nothing when no game is under way. */
#define DXP_RESULT_UNKNOWN 99
void dxp_client_end_game(dxp_client *c, int result);
/* Its move after moves from start: a game is requested at the first call (the engine
 * plays the side to move then), the moves it has not seen are sent, and its answer is
 * awaited for left seconds and the margin. */
void dxp_client_go(dxp_client *c, const pk_vpos *start, const pk_vmove *moves, const double *times, int nmoves, double left,
		   pk_client_answer *a, pk_vmove *move);
bool dxp_client_alive(const dxp_client *c);
void dxp_client_close(dxp_client *c);

#endif
