/* Options shared by the commands that run the engine: limits, hash size, weights. */
#ifndef PK_ENGINE_OPTS_H
#define PK_ENGINE_OPTS_H

#include <popt.h>
#include "../src/search.h"

typedef struct {
	char *depth, *nodes, *movetime, *level, *hash, *weights, *threads;
} engine_args;

void engine_args_init(engine_args *ea);
struct poptOption *engine_options(engine_args *ea);
/* Limits from the options; prints a usage error and returns EXIT_USAGE when wrong. With
 * no limit given, --level 3 (5 s a move). */
int engine_args_resolve(engine_args *ea, pk_limits *lim);
/* --threads (1 when not given). */
int engine_threads(const engine_args *ea);
pk_engine *engine_from_args(const engine_args *ea);
/* The weights named by --weights (a file of "name value" lines, or "untuned" for the
 * hand-set ones), else the built-in tuned weights. Prints the reason on failure. */
int engine_weights(const engine_args *ea, pk_weights *w);
void engine_args_free(engine_args *ea);

/* The book of a --book option: a file, "none", or (arg NULL) the shipped book when
 * shipped is set, else none. *bk is NULL for none. Prints the reason and returns -1 when
 * the file cannot be used. */
struct pk_book;
int book_option(const char *arg, bool shipped, struct pk_book **bk);

/* Average seconds a move of each level 0..10, as in Querg Draughts. */
extern const double level_seconds[11];

/* The position after moves from the start, with the keys of the positions before it
 * (for repetitions). *keys is malloc'ed. Prints a usage error naming the option. */
int position_after_moves(const char *option, const char *text, pk_pos *out, uint64_t **keys, pk_history *h);

#endif
