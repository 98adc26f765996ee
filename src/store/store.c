/* The SQLite store: opening, the schema and its migrations, checks, and the helpers
 * the other files of store/ share. Everything goes through prepared statements with
 * bound values. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "store/internal.h"

int st_fail(pk_store *s, const char *what)
{
	if (sqlite3_errcode(s->db) == SQLITE_INTERRUPT && s->deadline > 0)
		snprintf(s->err, sizeof s->err, "%s: interrupted: it took longer than the time allowed", what);
	else
		snprintf(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(s->db));
	return -1;
}

/* Roll back after a failure, keeping the failure's message (a rollback with nothing to
 * roll back would replace it). */
static void rollback(pk_store *s)
{
	if (sqlite3_get_autocommit(s->db))
		return;
	char keep[sizeof s->err];
	memcpy(keep, s->err, sizeof keep);
	st_exec(s, "ROLLBACK");
	memcpy(s->err, keep, sizeof keep);
}

int st_exec(pk_store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(s->err, sizeof s->err, "%s", msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int st_prepare(pk_store *s, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return st_fail(s, "cannot prepare a statement");
	return 0;
}

int st_text_sink(void *ctx, const char *buf, size_t len)
{
	textbuf *t = ctx;
	if (t->n + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		while (cap < t->n + len + 1)
			cap *= 2;
		char *q = realloc(t->p, cap);
		if (!q)
			return -1;
		t->p = q;
		t->cap = cap;
	}
	memcpy(t->p + t->n, buf, len);
	t->n += len;
	t->p[t->n] = 0;
	return 0;
}


const char *store_error(const pk_store *s) { return s->err; }

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int past_deadline(void *ctx)
{
	const pk_store *s = ctx;
	return s->deadline > 0 && mono_now() > s->deadline;
}

void store_set_timeout(pk_store *s, double seconds)
{
	s->deadline = seconds > 0 ? mono_now() + seconds : 0;
	/* looked at every 10,000 virtual machine steps: well under a millisecond */
	sqlite3_progress_handler(s->db, seconds > 0 ? 10000 : 0, seconds > 0 ? past_deadline : NULL, s);
}

void st_white_first(char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "0");
	for (int i = 0; variant_at(i) && n < size; i++)
		if (variant_at(i)->first == PK_WHITE)
			n += (size_t)snprintf(buf + n, size - n, ",%d", variant_at(i)->gametype);
}

static const char *const schema_v1[] = {
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
	"CREATE TABLE source(id INTEGER PRIMARY KEY, path TEXT NOT NULL, imported TEXT NOT NULL)",
	"CREATE TABLE game("
	" id INTEGER PRIMARY KEY,"
	" source INTEGER REFERENCES source(id),"
	" source_game INTEGER, source_offset INTEGER,"
	" event TEXT, site TEXT, date TEXT, round TEXT, black TEXT, white TEXT,"
	" result TEXT NOT NULL,"
	" black_key TEXT, white_key TEXT, date_key INTEGER,"
	" gametype INTEGER NOT NULL,"
	" start TEXT,"
	" plies INTEGER NOT NULL,"
	" moves BLOB NOT NULL,"
	" movetext TEXT,"
	" status INTEGER NOT NULL,"
	" fingerprint INTEGER NOT NULL)",
	"CREATE TABLE tag(game INTEGER NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY(game, seq)) WITHOUT ROWID",
	"CREATE TABLE finding(game INTEGER NOT NULL, seq INTEGER NOT NULL, severity TEXT NOT NULL,"
	" kind TEXT NOT NULL, line INTEGER, col INTEGER, ply INTEGER, move TEXT, message TEXT NOT NULL,"
	" PRIMARY KEY(game, seq)) WITHOUT ROWID",
	/* part = game >> PART_BITS: a batch of new games only rewrites its own small part
	 * of the index, whatever the size of the whole; a search seeks once per part. */
	"CREATE TABLE position(part INTEGER NOT NULL, key INTEGER NOT NULL, game INTEGER NOT NULL,"
	" ply INTEGER NOT NULL, PRIMARY KEY(part, key, game, ply)) WITHOUT ROWID",
	"CREATE UNIQUE INDEX game_fingerprint ON game(fingerprint)",
	"CREATE INDEX game_black ON game(black_key)",
	"CREATE INDEX game_white ON game(white_key)",
	"CREATE INDEX game_event ON game(event COLLATE NOCASE)",
	"CREATE INDEX game_date ON game(date_key)",
	"CREATE INDEX game_result ON game(result)",
	"CREATE INDEX game_opening ON game(start, moves)",
	NULL
};

/* Version 2: engine annotations. A run is one set of settings (limits, weights,
 * thresholds, engine version); a game is annotated by a run when `annotated` says so,
 * written in the same transaction as its moves. */
static const char *const schema_v2[] = {
	"CREATE TABLE annotation_run(id INTEGER PRIMARY KEY, settings TEXT NOT NULL UNIQUE,"
	" engine TEXT NOT NULL, created TEXT NOT NULL)",
	"CREATE TABLE annotated(game INTEGER NOT NULL, run INTEGER NOT NULL, decisive INTEGER,"
	" PRIMARY KEY(game, run)) WITHOUT ROWID",
	"CREATE TABLE annotation(game INTEGER NOT NULL, run INTEGER NOT NULL, ply INTEGER NOT NULL,"
	" side TEXT NOT NULL, class TEXT NOT NULL, move TEXT NOT NULL, best TEXT, score_best INTEGER,"
	" score_played INTEGER, loss INTEGER, depth INTEGER, pv TEXT,"
	" PRIMARY KEY(game, run, ply)) WITHOUT ROWID",
	"CREATE INDEX annotation_loss ON annotation(loss)",
	NULL
};

/* Version 3: copies, the same game from another source (store_mark_copies marks those
 * already stored when a store is migrated). */
static const char *const schema_v3[] = {
	"ALTER TABLE game ADD COLUMN copy_of INTEGER",
	"CREATE INDEX game_copy ON game(copy_of) WHERE copy_of IS NOT NULL",
	/* players: the canonical name of a player's key, and the keys of the spellings
	 * that stand for another player's */
	"CREATE TABLE player(key TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID",
	"CREATE TABLE alias(spelling TEXT PRIMARY KEY, player TEXT NOT NULL) WITHOUT ROWID",
	NULL
};


static int user_version(pk_store *s)
{
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int migrate(pk_store *s)
{
	int v = user_version(s);
	if (v < 0)
		return st_fail(s, "cannot read the schema version");
	if (v > STORE_SCHEMA_VERSION) {
		snprintf(s->err, sizeof s->err,
			 "database schema version %d is newer than this pdnkit understands (%d)", v, STORE_SCHEMA_VERSION);
		return -1;
	}
	if (v == STORE_SCHEMA_VERSION)
		return 0;
	/* Under the write lock from here: another program may have migrated the store since
	 * its version was read, so it is read again. */
	if (st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	v = user_version(s);
	if (v < 0 || v > STORE_SCHEMA_VERSION) {
		rollback(s);
		if (v < 0)
			return st_fail(s, "cannot read the schema version");
		snprintf(s->err, sizeof s->err,
			 "database schema version %d is newer than this pdnkit understands (%d)", v, STORE_SCHEMA_VERSION);
		return -1;
	}
	if (v == STORE_SCHEMA_VERSION)
		return st_exec(s, "COMMIT");
	if (v == 0) {
		/* No pdnkit schema: only an empty file becomes a store, never another
		 * program's database. */
		sqlite3_stmt *st;
		char first[64] = "";
		int n = 0;
		if (sqlite3_prepare_v2(s->db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &st, NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW)
				if (n++ == 0)
					snprintf(first, sizeof first, "%s", (const char *)sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
		}
		if (n) {
			rollback(s);
			snprintf(s->err, sizeof s->err,
				 "not a pdnkit database: an SQLite file of another program (%d table%s, e.g. '%s', and no pdnkit schema version)",
				 n, n == 1 ? "" : "s", first);
			return -1;
		}
	}
	if (v == 0) {
		for (int i = 0; schema_v1[i]; i++)
			if (st_exec(s, schema_v1[i]) < 0) {
				rollback(s);
				return -1;
			}
		char sql[200];
		snprintf(sql, sizeof sql,
			 "INSERT INTO meta VALUES('move_order', '%d'), ('zobrist', 'splitmix64 0x9E3779B97F4A7C15^0x706E646B6974')",
			 GEN_ORDER_VERSION);
		if (st_exec(s, sql) < 0) {
			rollback(s);
			return -1;
		}
	}
	if (v < 2) {
		for (int i = 0; schema_v2[i]; i++)
			if (st_exec(s, schema_v2[i]) < 0) {
				rollback(s);
				return -1;
			}
	}
	if (v < 3) {
		for (int i = 0; schema_v3[i]; i++)
			if (st_exec(s, schema_v3[i]) < 0) {
				rollback(s);
				return -1;
			}
		/* the built-in aliases, and the keys made again (names are reduced better
		 * since version 3: "MF Tinsley" is "Tinsley, M.F."), then the copies */
		long marked, rekeyed, spellings;
		if (st_set_aliases(s, NULL, &rekeyed, &spellings) < 0 || (v > 0 && st_mark_copies(s, &marked) < 0)) {
			rollback(s);
			return -1;
		}
	}
	if (v < 4 && st_migrate_positions(s) < 0) {
		rollback(s);
		return -1;
	}
	/* Later versions migrate here, one step at a time. */
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	if (st_exec(s, sql) < 0 || st_exec(s, "COMMIT") < 0) {
		rollback(s);
		return -1;
	}
	return 0;
}

/* The PK_NATURAL collation: letters without regard to case, and runs of digits by their
 * number, so that "game 2" comes before "game 10" (the ORDER BY of events and names). */
static int natural_cmp(void *ctx, int na, const void *va, int nb, const void *vb)
{
	(void)ctx;
	const unsigned char *a = va, *b = vb;
	int i = 0, j = 0;
	while (i < na && j < nb) {
		if (isdigit(a[i]) && isdigit(b[j])) {
			while (i < na && a[i] == '0')
				i++;
			while (j < nb && b[j] == '0')
				j++;
			int si = i, sj = j;
			while (i < na && isdigit(a[i]))
				i++;
			while (j < nb && isdigit(b[j]))
				j++;
			if (i - si != j - sj)
				return (i - si) - (j - sj);
			int c = memcmp(a + si, b + sj, (size_t)(i - si));
			if (c)
				return c;
			continue;
		}
		int ca = tolower(a[i]), cb = tolower(b[j]);
		if (ca != cb)
			return ca - cb;
		i++;
		j++;
	}
	return (na - i) - (nb - j);
}

static void add_collations(sqlite3 *db)
{
	sqlite3_create_collation_v2(db, "PK_NATURAL", SQLITE_UTF8, NULL, natural_cmp, NULL);
}

pk_store *store_open(const char *path, int mode, char *err, size_t errsize)
{
	bool create = mode == STORE_CREATE;
	pk_store *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	/* A device or a directory is no database: say so rather than let SQLite fail
	 * half way through reading it. */
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		snprintf(err, errsize, "'%s' is not a database file (it is %s)", path,
			 S_ISDIR(sb.st_mode) ? "a directory" : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
							     : "not a regular file");
		free(s);
		return NULL;
	}
	if (mode != STORE_READ && access(path, F_OK) == 0 && access(path, W_OK) != 0) {
		snprintf(err, errsize, "database '%s' is read-only for you, and this command writes to it", path);
		free(s);
		return NULL;
	}
	/* One connection used by one thread: no need for SQLite's mutexes. */
	int flags = (mode == STORE_READ ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX |
		    (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errsize, "cannot open database '%s': %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	sqlite3_busy_timeout(s->db, 10000);
	add_collations(s->db);
	/* WAL lets readers work during an import; NORMAL sync keeps every committed batch
	 * across a crash of the program (a power loss may lose the last ones, never the
	 * database's consistency). WAL is set after the schema is known to be ours: a file
	 * that is refused is left exactly as it was. */
	if (mode == STORE_READ) {
		/* nothing written: the schema must be this pdnkit's already */
		int v = user_version(s);
		if (v < 0 && sqlite3_errcode(s->db) == SQLITE_READONLY) {
			/* A database in WAL mode in a directory the user may not write: SQLite
			 * cannot make its shared-memory file there. Opened as immutable, it is
			 * read as the file stands (a writer elsewhere is not seen). */
			sqlite3_close(s->db);
			s->db = NULL;
			char uri[8300];
			size_t k = (size_t)snprintf(uri, sizeof uri, "file:");
			for (const char *c = path; *c && k + 4 < sizeof uri - 16; c++)
				k += (size_t)(*c == '%' || *c == '?' || *c == '#' ? snprintf(uri + k, sizeof uri - k, "%%%02X", (unsigned char)*c)
										   : snprintf(uri + k, sizeof uri - k, "%c", *c));
			snprintf(uri + k, sizeof uri - k, "?immutable=1");
			if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL) == SQLITE_OK) {
				add_collations(s->db);
				v = user_version(s);
			}
		}
		if (v > 0 && v < STORE_SCHEMA_VERSION && access(path, W_OK) == 0) {
			/* A store of an earlier version that may be written: migrated once (in one
			 * transaction), then read. */
			store_close(s);
			return store_open(path, STORE_WRITE, err, errsize);
		}
		if (v != STORE_SCHEMA_VERSION || st_exec(s, "PRAGMA cache_size=-65536") < 0) {
			if (v == 0)
				snprintf(err, errsize, "'%s' is not a pdnkit database (no pdnkit schema; run 'pdnkit import' into a new file)", path);
			else if (v > STORE_SCHEMA_VERSION)
				snprintf(err, errsize, "database '%s': schema version %d is newer than this pdnkit understands (%d)", path, v, STORE_SCHEMA_VERSION);
			else if (v > 0)
				snprintf(err, errsize, "database '%s' has schema version %d: it is upgraded to %d by a command run by someone who may write it", path, v, STORE_SCHEMA_VERSION);
			else
				snprintf(err, errsize, "database '%s': %s", path, sqlite3_errmsg(s->db));
			store_close(s);
			return NULL;
		}
		return s;
	}
	if (st_exec(s, "PRAGMA synchronous=NORMAL") < 0 || st_exec(s, "PRAGMA foreign_keys=ON") < 0 ||
	    st_exec(s, "PRAGMA cache_size=-65536") < 0 || migrate(s) < 0 || st_exec(s, "PRAGMA journal_mode=WAL") < 0) {
		snprintf(err, errsize, "database '%s': %s", path, s->err);
		store_close(s);
		return NULL;
	}
	return s;
}

void st_finalize_import(pk_store *s)
{
	sqlite3_finalize(s->ins_game);
	for (int k = 0; k < TAG_MANY; k++) {
		sqlite3_finalize(s->ins_tags[k]);
		s->ins_tags[k] = NULL;
	}
	sqlite3_finalize(s->ins_finding);
	sqlite3_finalize(s->find_dup);
	sqlite3_finalize(s->find_copy);
	s->ins_game = s->ins_finding = s->find_dup = s->find_copy = NULL;
}

void store_close(pk_store *s)
{
	if (!s)
		return;
	if (s->importing)
		rollback(s);
	st_finalize_import(s);
	st_free_aliases(s);
	free(s->pos);
	sqlite3_close(s->db);
	free(s);
}

int store_check(pk_store *s, char *msg, size_t size)
{
	static const char *const checks[] = { "PRAGMA integrity_check", "PRAGMA foreign_key_check" };
	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		if (st_prepare(s, &st, checks[i]) < 0) {
			snprintf(msg, size, "%s", s->err);
			return -1;
		}
		int rc = sqlite3_step(st);
		const char *r = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
		bool ok = i == 0 ? rc == SQLITE_ROW && r && !strcmp(r, "ok") : rc == SQLITE_DONE;
		if (!ok)
			snprintf(msg, size, "%s: %s", checks[i], r ? r : sqlite3_errmsg(s->db));
		sqlite3_finalize(st);
		if (!ok)
			return -1;
	}
	if (st_check_positions(s, msg, size) < 0)
		return -1;
	snprintf(msg, size, "ok");
	return 0;
}

int store_unindexed_games(pk_store *s, long *count)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'unindexed'), 0)") < 0)
		return -1;
	int rc = sqlite3_step(st);
	*count = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : st_fail(s, "cannot read the meta table");
}

