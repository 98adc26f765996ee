/* pdnkit's engine as a DXP follower (pdnkit engine --dxp): over one connection, the games
 * an initiator asks for, in International draughts, played by the variant engine; the
 * messages and the connection are proto/dxp's. */
#ifndef PK_DXPSERVE_H
#define PK_DXPSERVE_H

#include <signal.h>
#include "engine/vsearch.h"
#include "proto/dxp.h"

typedef struct {
	const char *name;           /* given in GAMEACC */
	size_t hash_mb;
	const pk_vweights *w;       /* NULL: the variant's own */
	double movetime;            /* seconds a move; 0: shared out of the game's minutes */
	/* what happens, a line each, with the peer's address (may be NULL) */
	void (*log)(void *ctx, const char *peer, const char *line);
	void *log_ctx;
	volatile sig_atomic_t *stop;
} pk_dxp_server;

/* Plays the games asked for over c until the initiator ends (GAMEEND with stop code 1),
 * the connection closes, or *stop: 0, or -1 when out of memory. */
int dxpserve_conn(const pk_dxp_server *s, dxp_conn *c);

#endif
