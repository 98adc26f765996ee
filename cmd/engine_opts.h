/* Options shared by the commands that run the engine: limits, hash size, weights. */
#ifndef PK_ENGINE_OPTS_H
#define PK_ENGINE_OPTS_H

#include <stdbool.h>
#include <popt.h>
#include "engine/search.h"
#include "engine/vsearch.h"
#include "engine/gengine.h"

struct pk_egdb;
typedef struct {
	char *depth, *nodes, *movetime, *level, *hash, *weights, *threads, *features, *egdb, *egdb_cache, *patterns, *net;
	struct pk_egdb *db;         /* opened by engine_from_args, freed by engine_args_free */
	bool playing;               /* the engine plays games (play, match, selfplay, pdnkit
				     * engine): a root the databases hold drawn is played for a
				     * win (egdb-draws=1) unless --features says otherwise */
} engine_args;

void engine_args_init(engine_args *ea);
struct poptOption *engine_options(engine_args *ea);
/* Limits from the options; prints a usage error and returns EXIT_USAGE when wrong. With
 * no limit given, --level 3 (5 s a move). */
int engine_args_resolve(engine_args *ea, pk_limits *lim);
/* --threads (1 when not given). */
int engine_threads(const engine_args *ea);
/* The engine of the options, with the endgame databases of --egdb (or the default
 * directory) when there are any: said once on stderr when there are none. */
pk_engine *engine_from_args(engine_args *ea);
/* The engine of the options for positions of v (NULL or English draughts: as
 * engine_from_args; another variant: its engine with --weights or --patterns, --hash,
 * --features and --threads). NULL when it cannot be made (reported). */
pk_gengine *gengine_from_args(engine_args *ea, const pk_variant *v);
/* The endgame databases of --egdb, opened once (NULL: none, or --egdb none). -1 when a
 * file is damaged (reported). */
int engine_egdb(engine_args *ea, struct pk_egdb **db);
/* The weights named by --weights (a file of "name value" lines, or "untuned" for the
 * hand-set ones), else the built-in tuned weights. Prints the reason on failure. */
int engine_weights(const engine_args *ea, pk_weights *w);
/* The same for the variant engine playing v: the file must name v's GameType;
 * "untuned" gives the hand-set weights, none the built-in ones (vweights_for). */
int engine_vweights(const engine_args *ea, const pk_variant *v, pk_vweights *w);
/* The search features: the defaults changed by --features; 0 or -1 (reported). */
int engine_features(const engine_args *ea, pk_features *f);
void engine_args_free(engine_args *ea);

/* Engine options written as one string ("--depth 6 --no-lmr"), as match's --a and
 * book expand's --engine-options take them: the engine options into ea, and those of
 * the extra table (may be NULL). Prints "WHAT: ..." and returns -1 when wrong. */
int engine_args_from_string(const char *what, const char *spec, const struct poptOption *extra, engine_args *ea);

/* The position of --fen or --moves (not both); with neither, the initial position and
 * *given false. h and keys as for position_after_moves (h empty for a FEN). Prints a
 * usage error and returns -1 when wrong. */
int position_option(const char *fen, const char *moves, pk_pos *out, uint64_t **keys, pk_history *h, bool *given);

/* The book of a --book option: a file, "none", or (arg NULL) the shipped book when
 * shipped is set, else none. *bk is NULL for none. Prints the reason and returns -1 when
 * the file cannot be used. */
struct pk_book;
int book_option(const char *arg, bool shipped, struct pk_book **bk);
/* The same for a game of variant v (NULL or English: as book_option): a book of another
 * game is refused with the reason; the shipped book is v's (book_default_for; none ships
 * for most variants: then none, or for "default" the reason). */
int book_option_for(const char *arg, bool shipped, const pk_variant *v, struct pk_book **bk);
/* The same for a book of any game (annotate: it marks the moves of its own game's games). */
int book_option_any(const char *arg, bool shipped, struct pk_book **bk);

/* Average seconds a move of each level 0..10, as in Querg Draughts. */
extern const double level_seconds[11];

/* The position after moves from the start, with the keys of the positions before it
 * (for repetitions). *keys is malloc'ed. Prints a usage error naming the option. */
int position_after_moves(const char *option, const char *text, pk_pos *out, uint64_t **keys, pk_history *h);

/* --verify and --verify-rounds of annotate and report: the plies a mistake or blunder
 * is checked deeper (default VERIFY_DEFAULT; 0 with another engine, which is given no
 * depth, and any other value is then refused) and the rounds of that check (default
 * VERIFY_ROUNDS_DEFAULT). 0, or -1 after saying what is wrong (a usage error). */
int verify_option(const char *arg, const char *rounds_arg, bool other_engine, int *plies, int *rounds);

#endif

/* The engines file: --engines FILE, else $PDNKIT_ENGINES, else ~/.config/pdnkit/engines
 * when it exists; NULL when there is none. The result is static or arg itself. */
const char *engines_file_option(const char *arg);
