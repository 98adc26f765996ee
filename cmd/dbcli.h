/* Options shared by the commands that use the store: where the database is, and the
 * game filters of query, export and stats. */
#ifndef PK_DBCLI_H
#define PK_DBCLI_H

#include <popt.h>
#include "rules/variant.h"
#include "store/store.h"

/* A position a filter names (--position or --after): of English draughts (v NULL, in
 * pos) or of another variant (in vpos); key is what the store indexes it by. */
typedef struct {
	const pk_variant *v;
	pk_pos pos;
	pk_vpos vpos;
	uint64_t key;
} filter_pos;

typedef struct {
	char *db;
	char *variant;
	char *player, *black, *white, *event, *site, *result;
	char *date_from, *date_to, *opening, *position, *after, *opening_name;
	char *order, *limit, *min_plies, *max_plies;
	int invalid, desc, copies;
	uint8_t opening_buf[1024];
	char result_buf[16];
	/* set by filter_resolve */
	const pk_variant *v;       /* --variant, NULL for English draughts or none */
	bool at_set;               /* --position or --after, in at */
	filter_pos at;
} filter_args;

/* The popt table of the filter options, bound to fa (include with POPT_ARG_INCLUDE_TABLE). */
struct poptOption *filter_options(filter_args *fa);
/* --db only, for commands without filters. */
struct poptOption *db_option(filter_args *fa);

/* Turn the options into a filter; prints a usage error and returns EXIT_USAGE when an
 * option is wrong. */
int filter_resolve(filter_args *fa, pk_filter *f);
/* Whether any option of the table was given (--db or a filter): the games then come
 * from the store. */
bool filter_args_given(const filter_args *fa);
void filter_args_free(filter_args *fa);

/* --db, else $PDNKIT_DB, else pdnkit.db. */
const char *db_path(const filter_args *fa);
/* Open the database, printing the reason on failure; create only for import. */
pk_store *db_open(const filter_args *fa, int mode);   /* mode: STORE_READ, STORE_WRITE or STORE_CREATE */

/* Moves from the initial position ("9-14 23-18 ..."), replayed under English draughts
 * (v NULL) or v: ordinals into buf and the final position. Prints a usage error naming
 * the option (its long name without the dashes: "moves") and returns -1 when they do
 * not replay. */
int parse_moves_arg(const char *option, const char *text, const pk_variant *v, uint8_t *buf, int cap, int *n,
		    filter_pos *final);

#endif
