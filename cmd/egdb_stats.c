/* pdnkit egdb stats: the databases' counts by level or slice (English draughts'), or by
 * material (another variant's), and probe timings. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/pool.h"
#include "cli.h"
#include "commands.h"
#include "egdb/build.h"
#include "pdn/pdn_write.h"
#include "egdb/check.h"
#include "egdb/egdb.h"
#include "egdb/vegdb.h"
#include "egdb_cmd.h"
#include "egdb_opts.h"
#include "store/games.h"
#include "engine_opts.h"
#include "rules/fen.h"
#include "rules/gen.h"
#include "egdb/vegdb.h"
#include "egdb_cmd.h"

static int vstats_class(void *ctx, const pk_vegdb_class_stats *s)
{
	bool json = *(bool *)ctx;
	if (json)
		printf("{\"class\":\"%s\",\"pieces\":%d,\"positions\":%llu,\"wins\":%llu,\"losses\":%llu,"
		       "\"draws\":%llu,\"longest\":%d}\n", s->name, s->pieces, (unsigned long long)s->positions,
		       (unsigned long long)s->wins, (unsigned long long)s->losses, (unsigned long long)s->draws, s->longest);
	else
		printf("%-10s %6d %14llu %14llu %14llu %14llu %8d\n", s->name, s->pieces, (unsigned long long)s->positions,
		       (unsigned long long)s->wins, (unsigned long long)s->losses, (unsigned long long)s->draws, s->longest);
	return 0;
}

static int vstats(const pk_variant *v, const char *dir, bool json)
{
	char err[600];
	pk_vegdb *db = vegdb_open(v, dir, err, sizeof err);
	if (!db) {
		cli_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (!json) {
		printf("%s databases in %s/%s: every position of up to %d pieces\n", v->name, dir, v->key,
		       vegdb_pieces(db));
		printf("%-10s %6s %14s %14s %14s %14s %8s\n", "class", "pieces", "positions", "wins", "losses", "draws",
		       "longest");
	}
	int rc = EXIT_OK;
	if (vegdb_each_class(db, vstats_class, &json) < 0) {
		cli_error("%s", vegdb_error(db));
		rc = EXIT_RUNTIME;
	} else if (!json)
		printf("%.1f MB in memory\n", (double)vegdb_bytes(db) / 1e6);
	vegdb_free(db);
	return rc;
}

/* Probe timings of n random positions of each piece count (see egdb_measure). */
static void measure(const char *dir, const pk_egdb_slice_info *v, int nv, int maxp, long n, bool json)
{
	for (int pieces = 2; pieces <= maxp; pieces++) {
		pk_probe_timing t;
		char err[700];
		int rc = egdb_measure(dir, v, nv, pieces, n, &t, err, sizeof err);
		if (rc < 0) {
			cli_error("%s", err);
			return;
		}
		if (rc > 0)
			continue;
		if (json)
			printf("{\"measure\":%d,\"probes\":%ld,\"uncached_us\":%.3f,\"uncached_blocks\":%" PRIu64
			       ",\"cached_us\":%.3f,\"cached_blocks\":%" PRIu64 "}\n",
			       pieces, n, t.uncached_us, t.uncached_blocks, t.cached_us, t.cached_blocks);
		else
			printf("probe, %d pieces: %8.3f us uncached (%" PRIu64 " blocks read for %ld probes), %6.3f us cached\n",
			       pieces, t.uncached_us, t.uncached_blocks, n, t.cached_us);
	}
}

typedef struct {
	const pk_egdb *db;
	int have, all;
} level_count;

static int count_level(const pk_material *a, void *ctx)
{
	level_count *lc = ctx;
	lc->all++;
	lc->have += egdb_has(lc->db, a);
	return 0;
}

int egdb_stats_cmd(int argc, const char **argv)
{
	char *dir = NULL, *measure_arg = NULL, *variant = NULL;
	int json = 0, slices = 0;
	struct poptOption opts[] = {
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, EGDB_VARIANT_HELP, "NAME" },

		EGDB_DIR_OPTIONS(dir),
		{ "slices", 's', POPT_ARG_NONE, &slices, 0, "a line for every slice too", NULL },
		{ "measure", 0, POPT_ARG_STRING, &measure_arg, 0, "time N random probes of each piece count, uncached and cached", "N" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON lines", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_egdb *db = NULL;
	pk_egdb_slice_info *v = NULL;
	if (rc)
		goto out;
	const pk_variant *var = NULL;
	if (variant && !(var = cli_variant(variant))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (var && var->gametype != 21) {
		char d[4096];
		egdb_dir(dir, d, sizeof d);
		rc = vstats(var, d, json);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (!(db = egdb_open_option(dir)))
		goto out;
	int n;
	v = egdb_slices(db, &n);
	if (!json)
		printf("%-14s %14s %14s %14s %14s %8s %12s %9s\n", slices ? "slice" : "pieces", "positions", "wins",
		       "losses", "draws", "longest", "bytes", "build s");
	for (int pieces = 2; pieces <= EGDB_MAX_PIECES; pieces++) {
		pk_egdb_slice_info t;
		memset(&t, 0, sizeof t);
		int count = 0;
		bool dist = true;
		for (int i = 0; i < n; i++) {
			const pk_egdb_slice_info *s = &v[i];
			if (material_pieces(&s->mat) != pieces)
				continue;
			count++;
			t.positions += s->positions;
			t.wins += s->wins;
			t.losses += s->losses;
			t.draws += s->draws;
			t.captures += s->captures;
			t.bytes += s->bytes;
			/* A pair's build time is in both of its files: count it once. */
			pk_material mir = material_mirror(&s->mat);
			char mname[32];
			material_name(&mir, mname, sizeof mname);
			if (strcmp(s->name, mname) <= 0)
				t.build_ms += s->build_ms;
			dist &= s->distances;
			/* without distances a file's longest win is its solver's count of levels,
			 * not plies (and 0 when joined from parts): not shown */
			unsigned longest = s->distances ? s->longest_win : 0;
			if (longest > t.longest_win)
				t.longest_win = longest;
			if (!slices)
				continue;
			if (json) {
				printf("{\"slice\":\"%s\",\"pieces\":%d,\"positions\":%" PRIu64 ",\"wins\":%" PRIu64
				       ",\"losses\":%" PRIu64 ",\"draws\":%" PRIu64 ",\"captures\":%" PRIu64
				       ",\"longest_win\":%u,\"distances\":%s,\"packed\":%s,\"threats_not_stored\":%" PRIu64 ",\"bytes\":%" PRIu64
				       ",\"build_seconds\":%.3f}\n",
				       s->name, pieces, s->positions, s->wins, s->losses, s->draws, s->captures,
				       longest, s->distances ? "true" : "false", s->packed ? "true" : "false", s->threats ? s->threat_positions : 0, s->bytes,
				       s->build_ms / 1000.0);
			} else
				printf("%-14s %14" PRIu64 " %14" PRIu64 " %14" PRIu64 " %14" PRIu64 " %8u %12" PRIu64 " %9.1f%s\n",
				       s->name, s->positions, s->wins, s->losses, s->draws, longest, s->bytes,
				       s->build_ms / 1000.0, s->distances ? "" : s->packed ? "  (no distances)" : "  (no distances, a byte a position: egdb repack)");
		}
		if (!count)
			continue;
		if (json)
			printf("{\"pieces\":%d,\"slices\":%d,\"positions\":%" PRIu64 ",\"wins\":%" PRIu64 ",\"losses\":%" PRIu64
			       ",\"draws\":%" PRIu64 ",\"captures\":%" PRIu64 ",\"longest_win\":%u,\"distances\":%s,\"bytes\":%" PRIu64
			       ",\"build_seconds\":%.3f}\n",
			       pieces, count, t.positions, t.wins, t.losses, t.draws, t.captures, t.longest_win,
			       dist ? "true" : "false", t.bytes, t.build_ms / 1000.0);
		else {
			char label[32];
			snprintf(label, sizeof label, "%d pieces%s", pieces, slices ? " (all)" : "");
			printf("%-14s %14" PRIu64 " %14" PRIu64 " %14" PRIu64 " %14" PRIu64 " %8u %12" PRIu64 " %9.1f%s\n", label,
			       t.positions, t.wins, t.losses, t.draws, t.longest_win, t.bytes, t.build_ms / 1000.0,
			       dist ? "" : "  (no distances)");
		}
	}
	if (!json) {
		printf("complete up to %d pieces; %d slice files", egdb_pieces(db), n);
		for (int p = egdb_pieces(db) + 1; p <= egdb_max_pieces(db); p++) {
			level_count lc = { db, 0, 0 };
			material_each(p, count_level, &lc);
			printf("; %d of the %d slices of %d pieces", lc.have, lc.all, p);
		}
		printf("\n");
		/* what a search's block cache holds at the most (--egdb-cache auto) */
		printf("decompressed %.1f MiB; the searching commands' cache (auto) %.1f MiB\n",
		       egdb_disk_bytes(db) / 1048576.0, egdb_auto_cache(db) / 1048576.0);
	}
	if (measure_arg) {
		long k;
		if (cli_int(measure_arg, 1, 100000000, "--measure", &k)) {
			rc = EXIT_USAGE;
			goto out;
		}
		char d[4096];
		egdb_dir(dir, d, sizeof d);
		measure(d, v, n, egdb_pieces(db), k, json);
	}
	rc = EXIT_OK;
out:
	free(measure_arg);
	free(variant);
	free(v);
	egdb_free(db);
	poptFreeContext(ctx);
	free(dir);
	return rc;
}
