/* Where the endgame databases are and opening them, for every command that uses them. */
#ifndef PK_EGDB_OPTS_H
#define PK_EGDB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include "egdb/egdb.h"

/* The cache of decompressed blocks of the commands that only look up positions (match
 * and selfplay adjudication), in MiB; its memory is taken as blocks are read, up to this. */
#define EGDB_CACHE_MB 64
/* The commands that search (--egdb-cache) size it by default as egdb_auto_cache says:
 * --egdb-cache auto, or 0 (the Hub parameter's value for it). */
#define EGDB_CACHE_AUTO ((size_t)-1)
#define EGDB_CACHE_DEFAULT_TEXT "auto: the databases' decompressed size, at most a quarter of the memory"
#define EGDB_DEFAULT_DIR_TEXT "$XDG_DATA_HOME/pdnkit/egdb (~/.local/share/pdnkit/egdb)"
/* The popt entries of the egdb subcommands' database directory, into the char *var:
 * --egdb DIR, and --dir, its older spelling (hidden). */
#define EGDB_DIR_OPTIONS(var)                                                                                  \
	{ "egdb", 0, POPT_ARG_STRING, &(var), 0,                                                               \
	  "the database directory (default $PDNKIT_EGDB, else " EGDB_DEFAULT_DIR_TEXT ")", "DIR" },           \
	{ "dir", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &(var), 0, "the same as --egdb (an older spelling)", "DIR" }

/* The directory: arg (--dir or --egdb), else $PDNKIT_EGDB, else the default. */
void egdb_dir(const char *arg, char *buf, size_t size);

/* Opens the databases of egdb_dir(arg) for the commands that need them (egdb, --egdb of
 * validate and import): a directory that cannot be read or holds none is an error,
 * printed, NULL. egdb_use_option is for the commands that use them when they are
 * there: arg "none" means none; a damaged file is an error (printed, *failed set); no
 * databases is said on stderr (unless quiet) and NULL returned. */
pk_egdb *egdb_open_option(const char *arg);
/* --egdb of the commands that check results against the databases (validate, import):
 * "none" no check (*out NULL), "default" the default directory, else a directory. 0, or
 * the exit status after saying what is wrong (a file given for the directory, as
 * "validate --egdb games.pdn" would, is a usage error). The other variants' databases of
 * the directory are named for their games (egdb_variants_option); where some are there,
 * English draughts' may be absent (*out NULL, not an error). */
int egdb_check_option(const char *arg, pk_egdb **out);
pk_egdb *egdb_use_option(const char *arg, bool quiet, bool *failed);
/* The same with a cache of cache_bytes of decompressed blocks (the default is EGDB_CACHE_MB),
 * or EGDB_CACHE_AUTO. */
pk_egdb *egdb_use_option_cache(const char *arg, bool quiet, bool *failed, size_t cache_bytes);
/* The automatic cache size: enough for every block of the databases found (2.6 GB for
 * the 6-piece level), at most a quarter of the physical memory, at least EGDB_CACHE_MB. */
size_t egdb_auto_cache(const pk_egdb *db);
/* --egdb-cache's text: a size in MiB (1 .. 1048576), or "auto" or 0 for EGDB_CACHE_AUTO;
 * NULL is the default (auto). 0 with *bytes set, or -1 after saying what is wrong. */
int egdb_cache_option(const char *arg, size_t *bytes);

/* Where the search of the other variants finds their databases (egdb/vegdb.h, read when
 * a search of that variant first needs them): arg as --egdb ("none": nowhere), else
 * $PDNKIT_EGDB, else the default directory; each variant in its own subdirectory. */
void egdb_variants_option(const char *arg);

#endif
