/* Where the endgame databases are and opening them, for every command that uses them. */
#ifndef PK_EGDB_OPTS_H
#define PK_EGDB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include "egdb/egdb.h"

/* The cache of decompressed blocks of the commands that search (--egdb-cache), in MiB;
 * its memory is taken as blocks are read, up to this. */
#define EGDB_CACHE_MB 64
#define EGDB_CACHE_MB_TEXT "64"
#define EGDB_DEFAULT_DIR_TEXT "$XDG_DATA_HOME/pdnkit/egdb (~/.local/share/pdnkit/egdb)"

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
 * "validate --egdb games.pdn" would, is a usage error). */
int egdb_check_option(const char *arg, pk_egdb **out);
pk_egdb *egdb_use_option(const char *arg, bool quiet, bool *failed);
/* The same with a cache of cache_bytes of decompressed blocks (the default is EGDB_CACHE_MB). */
pk_egdb *egdb_use_option_cache(const char *arg, bool quiet, bool *failed, size_t cache_bytes);

#endif
