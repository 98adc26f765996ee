/* `pdnkit serve`: the collection in a browser. A JSON API under /api/ over the store
 * (games, a game, positions, the opening explorer, players, stats, endgame database
 * probes, engine analysis) and the pages that use it, built into the program. The store
 * is opened read-only unless writing is allowed; every input is bounded and checked, and
 * SQL only ever sees values bound to parameters (the store's filters). */
#ifndef PK_WEB_H
#define PK_WEB_H

#include <signal.h>
#include <stdbool.h>
#include "egdb/egdb.h"
#include "analysis/batch.h"
#include "engine/search.h"

typedef struct {
	const char *db_path;         /* the store */
	bool allow_write;            /* open it for writing (the actions that change it) */
	const char *bind;            /* numeric address (NULL: 127.0.0.1) */
	int port;                    /* 0: a free port */
	int max_connections;         /* at a time; more are refused (default 256) */
	int timeout;                 /* seconds a connection may stay idle (default 30) */
	int per_ip;                  /* connections of one client address at a time (default 64) */
	int header_time;             /* seconds a request may take to arrive (default 10) */
	/* Host names the pages may be reached by besides a numeric address and localhost
	 * (a request naming another host is refused: DNS rebinding) */
	const char *const *hosts;
	int nhosts;
	double query_time;           /* seconds a request's queries may take (default 10) */
	int max_stores;              /* store handles open at a time; requests wait for one
				      * (default 8: each caches up to 64 MB of the file) */
	pk_engine **engines;         /* the analysis slots: one search at a time each (may be 0) */
	int nengines;
	double max_time;             /* seconds an analysis may take at most */
	pk_egdb *egdb;               /* for probes (NULL: none) */
	/* With allow_write: how a game is annotated on request (POST /api/annotate; its
	 * store, run, callbacks and stop are set per request). NULL: no annotation. */
	const pk_batch_opts *annotate;
	/* Told of each request when it is answered (may be NULL); called from the
	 * connections' threads, one call at a time. */
	void (*on_request)(void *ctx, const char *peer, const char *method, const char *path, int status, size_t bytes,
			   double ms);
	void *ctx;
} pk_web_opts;

typedef struct pk_web pk_web;

/* Check the store, then listen. NULL with the reason in err. */
pk_web *web_start(const pk_web_opts *o, char *err, size_t errsize);
int web_port(const pk_web *w);
/* Stop: analyses under way are stopped, requests under way finished, then all freed. */
void web_stop(pk_web *w);

#endif
