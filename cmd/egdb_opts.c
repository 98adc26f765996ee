/* Finding and opening the endgame databases. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "egdb_opts.h"
#include "egdb/vegdb.h"

#define EGDB_CACHE_BYTES ((size_t)EGDB_CACHE_MB << 20)

void egdb_dir(const char *arg, char *buf, size_t size)
{
	const char *env = getenv("PDNKIT_EGDB"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (arg && *arg)
		snprintf(buf, size, "%s", arg);
	else if (env && *env)
		snprintf(buf, size, "%s", env);
	else if (xdg && *xdg)
		snprintf(buf, size, "%s/pdnkit/egdb", xdg);
	else
		snprintf(buf, size, "%s/.local/share/pdnkit/egdb", home && *home ? home : ".");
}

pk_egdb *egdb_open_option(const char *arg)
{
	char dir[4096], err[700];
	egdb_dir(arg, dir, sizeof dir);
	pk_egdb *db = egdb_new(EGDB_CACHE_BYTES);
	if (!db) {
		cli_error("out of memory");
		return NULL;
	}
	int n = egdb_add_dir(db, dir, err, sizeof err);
	if (n < 0) {
		struct stat st;
		if (stat(dir, &st) != 0)   /* not there at all: say how to make them */
			cli_error("no endgame databases at %s (the directory does not exist): build them with "
				  "'pdnkit egdb build --egdb %s', or give --egdb DIR", dir, dir);
		else
			cli_error("%s", err);
		egdb_free(db);
		return NULL;
	}
	if (n == 0) {
		cli_error("no endgame databases in %s (pdnkit egdb build --pieces 4)", dir);
		egdb_free(db);
		return NULL;
	}
	return db;
}

int egdb_check_option(const char *arg, pk_egdb **out)
{
	*out = NULL;
	if (!strcmp(arg, "none"))
		return 0;
	struct stat st;
	if (strcmp(arg, "default") != 0 && stat(arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
		cli_error("--egdb takes the databases' directory, 'default' or 'none': '%s' is a file (for the default "
			  "databases write --egdb default)", arg);
		return EXIT_USAGE;
	}
	/* the other variants' databases of the same directory judge their games; with some
	 * of them there, English draughts' may be absent */
	egdb_variants_option(arg);
	char dir[4096];
	egdb_dir(strcmp(arg, "default") ? arg : NULL, dir, sizeof dir);
	bool variants = false;
	for (int i = 0; variant_at(i) && !variants; i++) {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s/K-K%s", dir, variant_at(i)->key, VEGDB_SUFFIX);
		variants = variant_at(i)->gametype != 21 && stat(path, &st) == 0;
	}
	if (variants) {
		char err[700];
		pk_egdb *db = egdb_new(EGDB_CACHE_BYTES);
		if (db && egdb_add_dir(db, dir, err, sizeof err) > 0)
			*out = db;
		else
			egdb_free(db);
		return 0;
	}
	if (!(*out = egdb_open_option(strcmp(arg, "default") ? arg : NULL)))
		return EXIT_RUNTIME;
	return 0;
}

pk_egdb *egdb_use_option(const char *arg, bool quiet, bool *failed)
{
	return egdb_use_option_cache(arg, quiet, failed, EGDB_CACHE_BYTES);
}

size_t egdb_auto_cache(const pk_egdb *db)
{
	uint64_t want = egdb_disk_bytes(db);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0 && want > (uint64_t)pages / 4 * (uint64_t)page)
		want = (uint64_t)pages / 4 * (uint64_t)page;
	if (want < EGDB_CACHE_BYTES)
		want = EGDB_CACHE_BYTES;
	return want > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)want;
}

int egdb_cache_option(const char *arg, size_t *bytes)
{
	*bytes = EGDB_CACHE_AUTO;
	if (!arg || !strcmp(arg, "auto"))
		return 0;
	char *end;
	errno = 0;
	long mb = isdigit((unsigned char)arg[0]) ? strtol(arg, &end, 10) : -1;
	if (mb < 0 || *end || errno || mb > 1L << 20) {
		cli_error("--egdb-cache must be 'auto' or a size in MiB from 1 to 1048576, not '%s'", arg);
		return -1;
	}
	if (mb > 0)
		*bytes = (size_t)mb << 20;
	return 0;
}

pk_egdb *egdb_use_option_cache(const char *arg, bool quiet, bool *failed, size_t cache_bytes)
{
	*failed = false;
	const char *env = getenv("PDNKIT_EGDB");
	if ((arg && !strcmp(arg, "none")) || (!arg && env && !strcmp(env, "none")))
		return NULL;
	/* 'default' names the default place, as for validate and import, and asks for it:
	 * databases missing there are an error, not a warning. */
	bool asked = arg != NULL;
	if (arg && !strcmp(arg, "default"))
		arg = NULL;
	char dir[4096], err[700];
	egdb_dir(arg, dir, sizeof dir);
	pk_egdb *db = egdb_new(cache_bytes == EGDB_CACHE_AUTO ? EGDB_CACHE_BYTES : cache_bytes);
	if (!db) {
		cli_error("out of memory");
		*failed = true;
		return NULL;
	}
	int n = egdb_add_dir(db, dir, err, sizeof err);
	/* (a cache that cannot be had at the automatic size keeps the first one) */
	if (n > 0 && cache_bytes == EGDB_CACHE_AUTO)
		egdb_set_cache(db, egdb_auto_cache(db));
	struct stat st;
	if (n < 0 && asked && stat(dir, &st) != 0) {
		cli_error("no endgame databases at %s (the directory does not exist): build them with "
			  "'pdnkit egdb build --egdb %s', or give --egdb none", dir, dir);
		*failed = true;
	} else if (n < 0 && asked) {
		cli_error("%s", err);
		*failed = true;
	} else if (n < 0 && strstr(err, "No such file")) {
		if (!quiet)
			cli_warning("no endgame databases found in %s; endings are judged by search alone (pdnkit egdb build)", dir);
	} else if (n < 0) {
		cli_error("%s", err);
		*failed = true;
	} else if (n == 0 || egdb_pieces(db) < 2) {
		if (!quiet)
			cli_warning("no endgame databases found in %s; endings are judged by search alone (pdnkit egdb build)", dir);
	} else
		return db;
	egdb_free(db);
	return NULL;
}

void egdb_variants_option(const char *arg)
{
	const char *env = getenv("PDNKIT_EGDB");
	if ((arg && !strcmp(arg, "none")) || (!arg && env && !strcmp(env, "none"))) {
		vegdb_set_dir(NULL);
		return;
	}
	char dir[4096];
	egdb_dir(arg && strcmp(arg, "default") ? arg : NULL, dir, sizeof dir);
	vegdb_set_dir(dir);
}
