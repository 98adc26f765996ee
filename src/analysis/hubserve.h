/* pdnkit's engine served over the Hub protocol (pdnkit engine): the session of one GUI
 * or match runner, reading commands from a file descriptor and answering on a stream,
 * a search on the calling thread while another reads ping, stop, ponder-hit and quit.
 * What the engine is made of (its table, threads, databases, weights, book) is the
 * caller's: the parameters a client sets before init are handed to a callback. The
 * protocol's text (command lines, positions, moves) is proto/hub's. */
#ifndef PK_HUBSERVE_H
#define PK_HUBSERVE_H

#include <stdbool.h>
#include <stdio.h>
#include "engine/search.h"

struct pk_book;

/* The parameters a client may set before init (set-param), as text; NULL when unset. */
typedef struct {
	char *hash, *threads, *egdb, *egdb_cache;
} pk_hub_params;

typedef struct {
	/* At init (or the first go): the engine from the parameters, and the book when
	 * use_book (NULL: none); 0, or -1 with the reason in err (the client is told init
	 * failed, and the reason is err). */
	int (*init)(void *ctx, const pk_hub_params *params, bool use_book, pk_engine **e,
		    struct pk_book **bk, char *err, size_t errsize);
	void *ctx;
	const char *version;       /* answered to "hub" */
	const pk_hub_params *defaults;   /* shown as the parameters' values until set */
	const char *egdb_cache_default;  /* the cache's default in MiB, as text */
	bool use_book;             /* the book at the start (set-param book changes it) */
	bool pdn_notation;         /* moves as PDN writes them, not as Hub does */
	double default_movetime;   /* the level before any "level" command */
} pk_hub_server;

/* Serves one session: commands read from in_fd, answers written to out (flushed after
 * every line), until quit or the end of input. 0, or -1 when out of memory at the start.
 * The engine and book made by init are freed before it returns. */
int hubserve_run(const pk_hub_server *srv, int in_fd, FILE *out);

#endif
