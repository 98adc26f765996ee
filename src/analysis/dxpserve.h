/* pdnkit's engine as a DXP follower (pdnkit engine --dxp): over one connection, the games
 * an initiator asks for, in International draughts, played by the variant engine; the
 * messages and the connection are proto/dxp's. */
#ifndef PK_DXPSERVE_H
#define PK_DXPSERVE_H

#include <signal.h>
#include "engine/gengine.h"
#include "proto/dxp.h"

typedef struct {
	const char *name;           /* given in GAMEACC */
	size_t hash_mb;
	int threads;                /* search threads (0: 1) */
	const pk_vweights *w;       /* NULL: the variant's own */
	bool tables_chosen;         /* tables_dir given (else the default directory's) */
	const char *tables_dir;     /* the International databases' directory, NULL: none */
	const struct pk_book *book; /* International draughts' opening book, NULL: none */
	double movetime;            /* seconds a move; 0: shared out of the game's minutes */
	double max_movetime;        /* seconds a move at most, whatever a game asks (default 60) */
	double idle;                /* seconds the initiator may stay silent outside a game,
				     * and beyond its game's clock inside one (default 120) */
	/* what happens, a line each, with the peer's address (may be NULL) */
	void (*log)(void *ctx, const char *peer, const char *line);
	void *log_ctx;
	volatile sig_atomic_t *stop;
} pk_dxp_server;

/* Plays the games asked for over c until the initiator ends (GAMEEND with stop code 1),
 * the connection closes or stays silent too long, or *stop: 0, or -1 when out of
 * memory. A search stops when the connection closes under it. */
int dxpserve_conn(const pk_dxp_server *s, dxp_conn *c);

#endif
