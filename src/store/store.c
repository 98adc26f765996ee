/* The SQLite store. Everything goes through prepared statements with bound values. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sqlite3.h>
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "base/hash.h"
#include "pdn/movenum.h"
#include "store/store.h"

/* Games per transaction. Each batch rewrites most leaves of the position index, so
 * larger batches import faster; an interrupted import loses at most one batch of work
 * (the next run adds those games). */
#define BATCH_GAMES 5000
#define PART_BITS 13
#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct {
	uint64_t key;
	int64_t game;
	int32_t ply;
} posrow;

struct pk_store {
	sqlite3 *db;
	char err[512];
	/* import state */
	bool importing, positions;
	int64_t source;
	int pending;
	sqlite3_stmt *ins_game, *ins_tag, *ins_finding, *ins_pos, *find_dup;
	posrow *pos;
	size_t npos, poscap;
	long unindexed;                   /* games of this batch stored without positions */
};

static int fail(pk_store *s, const char *what)
{
	snprintf(s->err, sizeof s->err, "%s: %s", what, sqlite3_errmsg(s->db));
	return -1;
}

const char *store_error(const pk_store *s) { return s->err; }

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

static int exec(pk_store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(s->err, sizeof s->err, "%s", msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

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
		return fail(s, "cannot read the schema version");
	if (v > STORE_SCHEMA_VERSION) {
		snprintf(s->err, sizeof s->err,
			 "database schema version %d is newer than this pdnkit understands (%d)", v, STORE_SCHEMA_VERSION);
		return -1;
	}
	if (v == STORE_SCHEMA_VERSION)
		return 0;
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
			snprintf(s->err, sizeof s->err,
				 "not a pdnkit database: an SQLite file of another program (%d table%s, e.g. '%s', and no pdnkit schema version)",
				 n, n == 1 ? "" : "s", first);
			return -1;
		}
	}
	if (exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	if (v == 0) {
		for (int i = 0; schema_v1[i]; i++)
			if (exec(s, schema_v1[i]) < 0) {
				exec(s, "ROLLBACK");
				return -1;
			}
		char sql[200];
		snprintf(sql, sizeof sql,
			 "INSERT INTO meta VALUES('move_order', '%d'), ('zobrist', 'splitmix64 0x9E3779B97F4A7C15^0x706E646B6974')",
			 GEN_ORDER_VERSION);
		if (exec(s, sql) < 0) {
			exec(s, "ROLLBACK");
			return -1;
		}
	}
	if (v < 2) {
		for (int i = 0; schema_v2[i]; i++)
			if (exec(s, schema_v2[i]) < 0) {
				exec(s, "ROLLBACK");
				return -1;
			}
	}
	/* Later versions migrate here, one step at a time. */
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	if (exec(s, sql) < 0 || exec(s, "COMMIT") < 0) {
		exec(s, "ROLLBACK");
		return -1;
	}
	return 0;
}

pk_store *store_open(const char *path, bool create, char *err, size_t errsize)
{
	pk_store *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	/* One connection used by one thread: no need for SQLite's mutexes. */
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errsize, "cannot open database '%s': %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	sqlite3_busy_timeout(s->db, 10000);
	/* WAL lets readers work during an import; NORMAL sync keeps every committed batch
	 * across a crash of the program (a power loss may lose the last ones, never the
	 * database's consistency). WAL is set after the schema is known to be ours: a file
	 * that is refused is left exactly as it was. */
	if (exec(s, "PRAGMA synchronous=NORMAL") < 0 || exec(s, "PRAGMA foreign_keys=ON") < 0 ||
	    exec(s, "PRAGMA cache_size=-65536") < 0 || migrate(s) < 0 || exec(s, "PRAGMA journal_mode=WAL") < 0) {
		snprintf(err, errsize, "database '%s': %s", path, s->err);
		store_close(s);
		return NULL;
	}
	return s;
}

static void finalize_import(pk_store *s)
{
	sqlite3_finalize(s->ins_game);
	sqlite3_finalize(s->ins_tag);
	sqlite3_finalize(s->ins_finding);
	sqlite3_finalize(s->ins_pos);
	sqlite3_finalize(s->find_dup);
	s->ins_game = s->ins_tag = s->ins_finding = s->ins_pos = s->find_dup = NULL;
}

void store_close(pk_store *s)
{
	if (!s)
		return;
	if (s->importing)
		exec(s, "ROLLBACK");
	finalize_import(s);
	free(s->pos);
	sqlite3_close(s->db);
	free(s);
}

/* ---- helpers ------------------------------------------------------------------ */

int32_t store_date_key(const char *d)
{
	if (!d)
		return 0;
	int part[3] = { -1, -1, -1 }, lens[3] = { 0, 0, 0 }, n = 0;
	const char *p = d;
	while (*p && n < 3) {
		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p)) {
			int v = 0, len = 0;
			while (isdigit((unsigned char)*p) && len < 8) {
				v = v * 10 + (*p++ - '0');
				len++;
			}
			part[n] = v;
			lens[n++] = len;
		} else if (*p == '?') {
			while (*p == '?')
				p++;
			part[n] = 0;
			lens[n++] = 2;
		} else {
			break;
		}
		if (*p == '.' || *p == '-' || *p == '/')
			p++;
		else
			break;
	}
	int y = 0, m = 0, dd = 0;
	if (n >= 1 && lens[0] == 4) {            /* YYYY.MM.DD, YYYY-MM-DD, YYYY. */
		y = part[0];
		m = n > 1 ? part[1] : 0;
		dd = n > 2 ? part[2] : 0;
	} else if (n == 3 && lens[2] == 4) {     /* D.M.YYYY */
		y = part[2];
		m = part[1];
		dd = part[0];
	} else {
		return 0;
	}
	if (y < 1000 || y > 9999)
		return 0;
	if (m < 0 || m > 12)
		m = 0;
	if (dd < 0 || dd > 31)
		dd = 0;
	return y * 10000 + m * 100 + dd;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void store_name_key(const char *name, char *out, size_t size)
{
	char buf[256], *words[32];
	int nw = 0;
	size_t k = 0;
	for (const char *p = name; *p && k < sizeof buf - 1; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) || c >= 0x80)
			buf[k++] = (char)tolower(c);
		else if (c == '\'')
			continue;
		else if (k > 0 && buf[k - 1] != ' ')
			buf[k++] = ' ';
	}
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
	for (char *t = strtok(buf, " "); t && nw < 32; t = strtok(NULL, " "))
		words[nw++] = t;
	qsort(words, (size_t)nw, sizeof words[0], cmp_str);
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < nw && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? " " : "", words[i]);
}

int store_encode_moves(const pk_replay *rp, uint8_t *buf, int cap)
{
	int n = 0;
	for (int i = 0; i < rp->nply; i++) {
		int o = rp->plies[i].ordinal;
		if (o < 0)
			break;   /* a set-up: the ordinals stop here (the move text keeps the rest) */
		if (o < 255) {
			if (n + 1 > cap)
				return -1;
			buf[n++] = (uint8_t)o;
		} else {
			if (n + 3 > cap)
				return -1;
			buf[n++] = 255;
			buf[n++] = (uint8_t)(o & 0xFF);
			buf[n++] = (uint8_t)(o >> 8);
		}
	}
	return n;
}

int store_decode_moves(const uint8_t *buf, int len, int *ord, int cap)
{
	int n = 0;
	for (int i = 0; i < len && n < cap; i++) {
		if (buf[i] < 255)
			ord[n++] = buf[i];
		else if (i + 2 < len) {
			ord[n++] = buf[i + 1] | buf[i + 2] << 8;
			i += 2;
		} else
			break;
	}
	return n;
}

#define fnv fnv64

static uint64_t fnv_str(uint64_t h, const char *s)
{
	h = fnv(h, s ? s : "", s ? strlen(s) : 0);
	return fnv(h, "\x1F", 1);
}

/* Whether the stored ordinals alone give back the move text: a complete, replayed game
 * with nothing but numbers, moves and its result. */
static bool plain_game(const pk_game *g, const pk_replay *rp)
{
	if (!rp->supported || !rp->complete || rp->result_el < 0)
		return false;
	for (int i = 0; i < g->nel; i++) {
		int k = g->els[i].kind;
		if (g->els[i].depth != 0 || (k != EL_NUMBER && k != EL_MOVE && k != EL_RESULT))
			return false;
	}
	for (int i = 0; i < rp->nply; i++)
		if (rp->plies[i].ordinal < 0 || rp->plies[i].marks[0] || rp->plies[i].glued_el >= 0)
			return false;
	return true;
}

/* The game's move text in canonical form (its result included), for games that are
 * not plain. Returns a malloc'ed string. */
typedef struct {
	char *p;
	size_t n, cap;
	bool body;
} textbuf;

static int text_sink(void *ctx, const char *buf, size_t len)
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

static char *movetext_of(const pk_game *g, const pk_replay *rp)
{
	/* Write the game without tags: a copy with no tags keeps the writer's output to
	 * the move text. */
	pk_game copy = *g;
	copy.ntags = 0;
	pk_write_opts o = { .full_jumps = false, .width = 80, .verbatim_tags = true };
	textbuf t = { 0 };
	if (pdn_write_game(&copy, rp, &o, text_sink, &t) < 0) {
		free(t.p);
		return NULL;
	}
	/* Strip the blank line the writer puts first (after the absent tags) and the last. */
	char *p = t.p;
	while (*p == '\n')
		p++;
	size_t n = strlen(p);
	while (n > 0 && p[n - 1] == '\n')
		n--;
	memmove(t.p, p, n);
	t.p[n] = 0;
	return t.p;
}

/* ---- import ---------------------------------------------------------------------- */

static int prepare(pk_store *s, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return fail(s, "cannot prepare a statement");
	return 0;
}

int store_begin_import(pk_store *s, const char *source_path, bool positions)
{
	s->positions = positions;
	s->pending = 0;
	s->npos = 0;
	s->unindexed = 0;
	if (prepare(s, &s->ins_game,
		    "INSERT INTO game(source, source_game, source_offset, event, site, date, round, black, white,"
		    " result, black_key, white_key, date_key, gametype, start, plies, moves, movetext, status,"
		    " fingerprint) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)") < 0 ||
	    prepare(s, &s->ins_tag, "INSERT INTO tag VALUES(?,?,?,?)") < 0 ||
	    prepare(s, &s->ins_finding, "INSERT INTO finding VALUES(?,?,?,?,?,?,?,?,?)") < 0 ||
	    prepare(s, &s->ins_pos, "INSERT OR IGNORE INTO position VALUES(?,?,?,?)") < 0 ||
	    prepare(s, &s->find_dup, "SELECT id FROM game WHERE fingerprint = ?") < 0)
		return -1;
	if (exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	s->importing = true;
	sqlite3_stmt *st;
	if (prepare(s, &st, "INSERT INTO source(path, imported) VALUES(?, datetime('now'))") < 0)
		return -1;
	sqlite3_bind_text(st, 1, source_path, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "cannot record the source file");
	s->source = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/* LSD radix sort by key, 16 bits a pass; stable, so rows of one key stay in game and
 * ply order as they were added. */
static int sort_positions(pk_store *s)
{
	posrow *tmp = malloc(s->npos * sizeof *tmp);
	size_t *count = malloc(65536 * sizeof *count);
	if (!tmp || !count) {
		free(tmp);
		free(count);
		snprintf(s->err, sizeof s->err, "out of memory");
		return -1;
	}
	posrow *a = s->pos, *b = tmp;
	for (int shift = 0; shift < 64; shift += 16) {
		memset(count, 0, 65536 * sizeof *count);
		for (size_t i = 0; i < s->npos; i++)
			count[(a[i].key >> shift) & 0xFFFF]++;
		size_t sum = 0;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < s->npos; i++)
			b[count[(a[i].key >> shift) & 0xFFFF]++] = a[i];
		posrow *t = a;
		a = b;
		b = t;
	}
	/* Four passes: the sorted rows are back in s->pos. */
	free(tmp);
	free(count);
	return 0;
}

/* Positions go in sorted by key: B-tree inserts in order touch each page once. */
static int flush_positions(pk_store *s)
{
	if (s->npos > 1 && sort_positions(s) < 0)
		return -1;
	for (size_t i = 0; i < s->npos; i++) {
		sqlite3_bind_int64(s->ins_pos, 1, s->pos[i].game >> PART_BITS);
		sqlite3_bind_int64(s->ins_pos, 2, (int64_t)s->pos[i].key);
		sqlite3_bind_int64(s->ins_pos, 3, s->pos[i].game);
		sqlite3_bind_int(s->ins_pos, 4, s->pos[i].ply);
		if (sqlite3_step(s->ins_pos) != SQLITE_DONE) {
			sqlite3_reset(s->ins_pos);
			return fail(s, "cannot store positions");
		}
		sqlite3_reset(s->ins_pos);
	}
	s->npos = 0;
	if (s->unindexed) {
		/* Games without positions are counted in the same transaction, so that a
		 * position search can say what it cannot see. */
		char sql[160];
		snprintf(sql, sizeof sql, "INSERT INTO meta VALUES('unindexed', %ld) ON CONFLICT(key) DO UPDATE "
			 "SET value = CAST(value AS INTEGER) + %ld", s->unindexed, s->unindexed);
		if (exec(s, sql) < 0)
			return -1;
		s->unindexed = 0;
	}
	return 0;
}

static int commit_batch(pk_store *s)
{
	if (flush_positions(s) < 0 || exec(s, "COMMIT") < 0)
		return -1;
	s->pending = 0;
	return exec(s, "BEGIN IMMEDIATE");
}

static int add_position(pk_store *s, uint64_t key, int64_t game, int ply)
{
	if (s->npos == s->poscap) {
		size_t cap = s->poscap ? s->poscap * 2 : 65536;
		posrow *p = realloc(s->pos, cap * sizeof *p);
		if (!p) {
			snprintf(s->err, sizeof s->err, "out of memory");
			return -1;
		}
		s->pos = p;
		s->poscap = cap;
	}
	s->pos[s->npos++] = (posrow){ key, game, ply };
	return 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static bool in_roster_order(const char *name, int k)
{
	static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result" };
	return strcasecmp(name, roster[k]) == 0;
}

int store_add_game(pk_store *s, const pk_game *g, const pk_replay *rp, int *outcome)
{
	uint8_t *moves = malloc((size_t)rp->nply * 3 + 1);
	if (!moves)
		return snprintf(s->err, sizeof s->err, "out of memory"), -1;
	int nmoves = store_encode_moves(rp, moves, rp->nply * 3 + 1);
	char start[PK_FEN_STRLEN];
	bool custom = rp->custom_start;
	if (custom)
		fen_format(&rp->start, start, sizeof start);
	char *movetext = plain_game(g, rp) ? NULL : movetext_of(g, rp);

	const char *event = game_tag(g, "Event"), *site = game_tag(g, "Site"), *date = game_tag(g, "Date");
	const char *round = game_tag(g, "Round"), *black = game_tag(g, "Black"), *white = game_tag(g, "White");
	uint64_t fp = FNV64_INIT;
	fp = fnv_str(fp, custom ? start : NULL);
	fp = fnv(fp, moves, (size_t)nmoves);
	fp = fnv(fp, "\x1F", 1);
	fp = fnv_str(fp, rp->supported ? NULL : movetext);
	fp = fnv_str(fp, black);
	fp = fnv_str(fp, white);
	fp = fnv_str(fp, date);
	fp = fnv_str(fp, event);
	fp = fnv(fp, &rp->variant, sizeof rp->variant);

	int rc = -1;
	sqlite3_bind_int64(s->find_dup, 1, (int64_t)fp);
	int step = sqlite3_step(s->find_dup);
	sqlite3_reset(s->find_dup);
	if (step == SQLITE_ROW) {
		*outcome = STORE_DUPLICATE;
		rc = 0;
		goto out;
	}
	if (step != SQLITE_DONE) {
		fail(s, "cannot look for duplicates");
		goto out;
	}

	char bkey[256], wkey[256];
	store_name_key(black ? black : "", bkey, sizeof bkey);
	store_name_key(white ? white : "", wkey, sizeof wkey);
	int32_t dkey = store_date_key(date);
	int status = !rp->supported ? STATUS_NOT_REPLAYED : g->findings.errors ? STATUS_ERRORS :
		     g->findings.warnings ? STATUS_WARNINGS : STATUS_VALID;
	sqlite3_stmt *st = s->ins_game;
	sqlite3_bind_int64(st, 1, s->source);
	sqlite3_bind_int(st, 2, g->index);
	sqlite3_bind_int64(st, 3, (int64_t)g->offset);
	bind_text_or_null(st, 4, event);
	bind_text_or_null(st, 5, site);
	bind_text_or_null(st, 6, date);
	bind_text_or_null(st, 7, round);
	bind_text_or_null(st, 8, black);
	bind_text_or_null(st, 9, white);
	sqlite3_bind_text(st, 10, result_string(rp->result), -1, SQLITE_STATIC);
	bind_text_or_null(st, 11, black ? bkey : NULL);
	bind_text_or_null(st, 12, white ? wkey : NULL);
	if (dkey)
		sqlite3_bind_int(st, 13, dkey);
	else
		sqlite3_bind_null(st, 13);
	sqlite3_bind_int(st, 14, rp->variant);
	bind_text_or_null(st, 15, custom ? start : NULL);
	sqlite3_bind_int(st, 16, rp->nply);
	sqlite3_bind_blob(st, 17, moves, nmoves, SQLITE_TRANSIENT);
	bind_text_or_null(st, 18, movetext);
	sqlite3_bind_int(st, 19, status);
	sqlite3_bind_int64(st, 20, (int64_t)fp);
	step = sqlite3_step(st);
	sqlite3_reset(st);
	if (step != SQLITE_DONE) {
		fail(s, "cannot store a game");
		goto out;
	}
	int64_t id = sqlite3_last_insert_rowid(s->db);

	/* Tags in canonical order: the seven-tag roster, then the rest as read. */
	int seq = 0;
	for (int pass = 0; pass < 8; pass++)
		for (int i = 0; i < g->ntags; i++) {
			const char *name = game_str(g, g->tags[i].name);
			bool roster = false;
			for (int k = 0; k < 7; k++)
				roster = roster || in_roster_order(name, k);
			if (pass < 7 ? !in_roster_order(name, pass) : roster)
				continue;
			sqlite3_bind_int64(s->ins_tag, 1, id);
			sqlite3_bind_int(s->ins_tag, 2, seq++);
			sqlite3_bind_text(s->ins_tag, 3, name, -1, SQLITE_STATIC);
			sqlite3_bind_text(s->ins_tag, 4, game_str(g, g->tags[i].value), -1, SQLITE_STATIC);
			step = sqlite3_step(s->ins_tag);
			sqlite3_reset(s->ins_tag);
			if (step != SQLITE_DONE) {
				fail(s, "cannot store a tag");
				goto out;
			}
		}
	for (int i = 0; i < g->findings.n; i++) {
		const pk_finding *f = &g->findings.v[i];
		sqlite3_stmt *q = s->ins_finding;
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int(q, 2, i);
		sqlite3_bind_text(q, 3, severity_name(f->severity), -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, f->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 5, (int)f->line);
		sqlite3_bind_int(q, 6, (int)f->col);
		sqlite3_bind_int(q, 7, f->ply);
		bind_text_or_null(q, 8, f->move[0] ? f->move : NULL);
		sqlite3_bind_text(q, 9, f->message, -1, SQLITE_STATIC);
		step = sqlite3_step(q);
		sqlite3_reset(q);
		if (step != SQLITE_DONE) {
			fail(s, "cannot store a finding");
			goto out;
		}
	}
	if (!s->positions && rp->supported)
		s->unindexed++;
	if (s->positions && rp->supported) {
		if (add_position(s, rp->start.key, id, 0) < 0)
			goto out;
		for (int i = 0; i < rp->nply; i++)
			if (add_position(s, rp->plies[i].after.key, id, i + 1) < 0)
				goto out;
	}
	*outcome = STORE_ADDED;
	rc = 0;
	if (++s->pending >= BATCH_GAMES)
		rc = commit_batch(s);
out:
	free(moves);
	free(movetext);
	return rc;
}

int store_end_import(pk_store *s)
{
	int rc = 0;
	if (s->importing) {
		rc = flush_positions(s);
		if (rc == 0)
			rc = exec(s, "COMMIT");
		if (rc < 0)
			exec(s, "ROLLBACK");
		s->importing = false;
	}
	finalize_import(s);
	if (rc == 0)
		exec(s, "PRAGMA optimize");
	return rc;
}

/* ---- queries ----------------------------------------------------------------------- */

void filter_init(pk_filter *f)
{
	memset(f, 0, sizeof *f);
	f->min_plies = f->max_plies = -1;
}

/* A WHERE clause and its values, built together so that values are always bound. */
typedef struct {
	char sql[2048];
	size_t n;
	int nb;
	struct {
		int type;   /* 0 text, 1 int, 2 blob */
		const char *text;
		int64_t i;
		const void *blob;
		int blen;
		char own[300];
	} b[24];
} where;

static void w_add(where *w, const char *clause)
{
	w->n += (size_t)snprintf(w->sql + w->n, sizeof w->sql - w->n, " AND %s", clause);
}

/* "%name%" for LIKE, with the user's % and _ escaped. */
static void w_like(where *w, const char *v)
{
	char *o = w->b[w->nb].own;
	size_t k = 0;
	o[k++] = '%';
	for (const char *p = v; *p && k < sizeof w->b[0].own - 3; p++) {
		if (*p == '%' || *p == '_' || *p == '\\')
			o[k++] = '\\';
		o[k++] = *p;
	}
	o[k++] = '%';
	o[k] = 0;
	w->b[w->nb].type = 0;
	w->b[w->nb].text = o;
	w->nb++;
}

static void w_int(where *w, int64_t v)
{
	w->b[w->nb].type = 1;
	w->b[w->nb].i = v;
	w->nb++;
}

static void w_text(where *w, const char *v)
{
	w->b[w->nb].type = 0;
	w->b[w->nb].text = v;
	w->nb++;
}

static void w_blob(where *w, const void *p, int n)
{
	w->b[w->nb].type = 2;
	w->b[w->nb].blob = p;
	w->b[w->nb].blen = n;
	w->nb++;
}

static void build_where(const pk_filter *f, where *w, uint8_t *succ)
{
	w->n = 0;
	w->nb = 0;
	w->sql[0] = 0;
	if (f->player) {
		w_add(w, "(g.black LIKE ? ESCAPE '\\' OR g.white LIKE ? ESCAPE '\\')");
		w_like(w, f->player);
		w_like(w, f->player);
	}
	if (f->black) {
		w_add(w, "g.black LIKE ? ESCAPE '\\'");
		w_like(w, f->black);
	}
	if (f->white) {
		w_add(w, "g.white LIKE ? ESCAPE '\\'");
		w_like(w, f->white);
	}
	if (f->event) {
		w_add(w, "g.event LIKE ? ESCAPE '\\'");
		w_like(w, f->event);
	}
	if (f->site) {
		w_add(w, "g.site LIKE ? ESCAPE '\\'");
		w_like(w, f->site);
	}
	if (f->result) {
		w_add(w, "g.result = ?");
		w_text(w, f->result);
	}
	if (f->date_from) {
		w_add(w, "g.date_key >= ?");
		w_int(w, f->date_from);
	}
	if (f->date_to) {
		w_add(w, "g.date_key <= ?");
		w_int(w, f->date_to);
	}
	if (f->invalid)
		w_add(w, "g.status = 2");
	if (f->min_plies >= 0) {
		w_add(w, "g.plies >= ?");
		w_int(w, f->min_plies);
	}
	if (f->max_plies >= 0) {
		w_add(w, "g.plies <= ?");
		w_int(w, f->max_plies);
	}
	if (f->id > 0) {
		w_add(w, "g.id = ?");
		w_int(w, f->id);
	}
	if (f->shard_n > 1) {
		w_add(w, "g.id % ? = ?");
		w_int(w, f->shard_n);
		w_int(w, f->shard_k - 1);
	}
	if (f->opening_set) {
		/* Blobs compare byte by byte: the games starting with these ordinals are
		 * those >= the prefix and < its successor. */
		w_add(w, "g.start IS NULL");
		if (f->opening_len > 0) {
			int n = f->opening_len;
			memcpy(succ, f->opening, (size_t)n);
			while (n > 0 && succ[n - 1] == 0xFF)
				n--;
			w_add(w, "g.moves >= ?");
			w_blob(w, f->opening, f->opening_len);
			if (n > 0) {
				succ[n - 1]++;
				w_add(w, "g.moves < ?");
				w_blob(w, succ, n);
			}
		}
	}
}

static void bind_where(sqlite3_stmt *st, const where *w, int first)
{
	for (int i = 0; i < w->nb; i++) {
		if (w->b[i].type == 0)
			sqlite3_bind_text(st, first + i, w->b[i].text, -1, SQLITE_TRANSIENT);
		else if (w->b[i].type == 1)
			sqlite3_bind_int64(st, first + i, w->b[i].i);
		else
			sqlite3_bind_blob(st, first + i, w->b[i].blob, w->b[i].blen, SQLITE_TRANSIENT);
	}
}

static const char *order_column(const char *o)
{
	static const char *const cols[][2] = {
		{ "id", "g.id" }, { "date", "g.date_key" }, { "event", "g.event" }, { "black", "g.black" },
		{ "white", "g.white" }, { "plies", "g.plies" }, { "result", "g.result" }, { "ply", "p.ply" },
	};
	for (size_t i = 0; o && i < sizeof cols / sizeof cols[0]; i++)
		if (strcmp(o, cols[i][0]) == 0)
			return cols[i][1];
	return NULL;
}

/* One seek per part: the parts are 0 .. (largest game id >> PART_BITS). */
static const char *position_join =
	" JOIN (SELECT game, MIN(ply) AS ply FROM position WHERE part IN ("
	"  WITH RECURSIVE parts(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM parts"
	"   WHERE n < (SELECT coalesce(max(id), 0) >> " STR(PART_BITS) " FROM game)) SELECT n FROM parts)"
	" AND key = ? GROUP BY game) p ON p.game = g.id";

int store_query(pk_store *s, const pk_filter *f, int (*cb)(void *ctx, const pk_row *row), void *ctx)
{
	where w;
	uint8_t succ[1024];
	if (f->opening_len > (int)sizeof succ)
		return snprintf(s->err, sizeof s->err, "opening too long"), -1;
	build_where(f, &w, succ);
	const char *order = order_column(f->order ? f->order : "id");
	if (!order || (!f->position_set && strcmp(order, "p.ply") == 0)) {
		snprintf(s->err, sizeof s->err, "cannot order by '%s'", f->order);
		return -1;
	}
	char sql[4096];
	snprintf(sql, sizeof sql,
		 "SELECT g.id, g.event, g.site, g.date, g.round, g.black, g.white, g.result, g.plies, g.status,"
		 " g.gametype, g.start, g.moves, g.movetext, %s, g.source_game FROM game g%s WHERE 1%s ORDER BY %s%s, g.id%s%s",
		 f->position_set ? "p.ply" : "-1", f->position_set ? position_join : "", w.sql, order,
		 f->desc ? " DESC" : "", f->limit > 0 ? " LIMIT " : "", "");
	if (f->limit > 0) {
		size_t n = strlen(sql);
		snprintf(sql + n, sizeof sql - n, "%ld", f->limit);
	}
	sqlite3_stmt *st;
	if (prepare(s, &st, sql) < 0)
		return -1;
	int first = 1;
	if (f->position_set)
		sqlite3_bind_int64(st, first++, (int64_t)f->position_key);
	bind_where(st, &w, first);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pk_row r = {
			.id = sqlite3_column_int64(st, 0),
			.event = (const char *)sqlite3_column_text(st, 1),
			.site = (const char *)sqlite3_column_text(st, 2),
			.date = (const char *)sqlite3_column_text(st, 3),
			.round = (const char *)sqlite3_column_text(st, 4),
			.black = (const char *)sqlite3_column_text(st, 5),
			.white = (const char *)sqlite3_column_text(st, 6),
			.result = (const char *)sqlite3_column_text(st, 7),
			.plies = sqlite3_column_int(st, 8),
			.status = sqlite3_column_int(st, 9),
			.gametype = sqlite3_column_int(st, 10),
			.start = (const char *)sqlite3_column_text(st, 11),
			.moves = sqlite3_column_blob(st, 12),
			.nmoves = sqlite3_column_bytes(st, 12),
			.movetext = (const char *)sqlite3_column_text(st, 13),
			.ply = sqlite3_column_int(st, 14),
			.source_game = sqlite3_column_int(st, 15),
		};
		if (cb(ctx, &r))
			break;
	}
	int ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
	if (!ok)
		fail(s, "query failed");
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

int store_count(pk_store *s, const pk_filter *f, long *count)
{
	where w;
	uint8_t succ[1024];
	if (f->opening_len > (int)sizeof succ)
		return -1;
	build_where(f, &w, succ);
	char sql[4096];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM game g%s WHERE 1%s",
		 f->position_set ? position_join : "", w.sql);
	sqlite3_stmt *st;
	if (prepare(s, &st, sql) < 0)
		return -1;
	int first = 1;
	if (f->position_set)
		sqlite3_bind_int64(st, first++, (int64_t)f->position_key);
	bind_where(st, &w, first);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*count = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(s, "count failed");
}

int store_select(pk_store *s, const char *sqlt, const pk_filter *f,
		 int (*cb)(void *ctx, int ncol, const char *const *cols), void *ctx)
{
	where w;
	uint8_t succ[1024];
	if (f->opening_len > (int)sizeof succ)
		return -1;
	build_where(f, &w, succ);
	/* %W: the filter's clause (with the position join when one is asked for). */
	char sql[8192], clause[4096];
	snprintf(clause, sizeof clause, "%s WHERE 1%s", f->position_set ? position_join : "", w.sql);
	size_t n = 0;
	int uses = 0;
	for (const char *p = sqlt; *p && n < sizeof sql - sizeof clause; p++) {
		if (p[0] == '%' && p[1] == 'W') {
			n += (size_t)snprintf(sql + n, sizeof sql - n, "%s", clause);
			p++;
			uses++;
		} else {
			sql[n++] = *p;
		}
	}
	sql[n] = 0;
	sqlite3_stmt *st;
	if (prepare(s, &st, sql) < 0)
		return -1;
	/* Each %W takes its own copy of the values. */
	int per = w.nb + (f->position_set ? 1 : 0);
	for (int u = 0; u < uses; u++) {
		int first = 1 + u * per;
		if (f->position_set)
			sqlite3_bind_int64(st, first++, (int64_t)f->position_key);
		bind_where(st, &w, first);
	}
	int rc, ncol = sqlite3_column_count(st);
	const char *cols[32];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncol && i < 32; i++)
			cols[i] = (const char *)sqlite3_column_text(st, i);
		if (cb(ctx, ncol, cols))
			break;
	}
	int ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
	if (!ok)
		fail(s, "query failed");
	sqlite3_finalize(st);
	return ok ? 0 : -1;
}

int store_tags(pk_store *s, int64_t id, int (*cb)(void *ctx, const char *name, const char *value), void *ctx)
{
	sqlite3_stmt *st;
	if (prepare(s, &st, "SELECT name, value FROM tag WHERE game = ? ORDER BY seq") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1)))
			break;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail(s, "cannot read tags");
}

static int tag_to_text(void *ctx, const char *name, const char *value)
{
	textbuf *t = ctx;
	text_sink(t, "[", 1);
	text_sink(t, name, strlen(name));
	text_sink(t, " \"", 2);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			text_sink(t, "\\", 1);
		text_sink(t, p, 1);
	}
	return text_sink(t, "\"]\n", 3);
}

int store_load_game(pk_store *s, const pk_row *row, pk_game *g, pk_replay *rp)
{
	/* The stored game as PDN, read back through the reader and the replay: what comes
	 * out is exactly what an import of the exported text would see. */
	textbuf t = { 0 };
	if (store_tags(s, row->id, tag_to_text, &t) < 0) {
		free(t.p);
		return -1;
	}
	text_sink(&t, "\n", 1);
	if (row->movetext) {
		text_sink(&t, row->movetext, strlen(row->movetext));
	} else {
		pk_pos pos;
		if (row->start) {
			pk_fen_error fe;
			if (fen_parse(row->start, strlen(row->start), &pos, &fe) < 0) {
				snprintf(s->err, sizeof s->err, "game %lld: stored start position is corrupt", (long long)row->id);
				free(t.p);
				return -1;
			}
		} else {
			pos_start(&pos);
		}
		bool start_white = pos.stm == PK_WHITE;
		int *ord = malloc(sizeof *ord * (size_t)(row->nmoves + 1));
		int n = ord ? store_decode_moves(row->moves, row->nmoves, ord, row->nmoves + 1) : 0;
		for (int i = 0; i < n; i++) {
			pk_movelist ml;
			gen_moves(&pos, &ml);
			if (ord[i] >= ml.n) {
				snprintf(s->err, sizeof s->err, "game %lld: stored move %d is corrupt", (long long)row->id, i + 1);
				free(ord);
				free(t.p);
				return -1;
			}
			char buf[PK_MOVE_STRLEN + 16];
			int k = 0;
			k = movenum_token(movenum_at(1, start_white ? PK_WHITE : PK_BLACK, i), pos.stm, i == 0, buf, sizeof buf);
			if (k)
				buf[k++] = ' ';
			move_format(&ml.m[ord[i]], true, buf + k, sizeof buf - (size_t)k);
			text_sink(&t, buf, strlen(buf));
			text_sink(&t, " ", 1);
			pk_pos next;
			pos_make(&pos, &ml.m[ord[i]], &next);
			pos = next;
		}
		free(ord);
		text_sink(&t, row->result, strlen(row->result));
	}
	text_sink(&t, "\n", 1);
	pk_reader *r = pdn_open_mem(t.p, t.n);
	int rc = r && pdn_read(r, g) == 1 && replay_game(g, rp) == 0 ? 0 : -1;
	pdn_close(r);
	free(t.p);
	if (rc < 0)
		snprintf(s->err, sizeof s->err, "game %lld cannot be read back", (long long)row->id);
	return rc;
}

int store_duplicates(pk_store *s, int min_plies,
		     int (*cb)(void *ctx, const char *kind, const int64_t *ids, int n, int plies), void *ctx)
{
	sqlite3_stmt *st;
	/* Same start and moves under different headers. */
	if (prepare(s, &st,
		    "SELECT group_concat(id), plies FROM (SELECT id, start, moves, plies FROM game"
		    " WHERE status < 3 AND plies > 0 ORDER BY id) GROUP BY coalesce(start, ''), moves"
		    " HAVING count(*) > 1 ORDER BY min(id)") < 0)
		return -1;
	int rc;
	int64_t ids[64];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *list = (const char *)sqlite3_column_text(st, 0);
		int n = 0;
		for (const char *p = list; p && *p && n < 64;) {
			ids[n++] = strtoll(p, (char **)&p, 10);
			if (*p == ',')
				p++;
		}
		if (cb(ctx, "same-moves", ids, n, sqlite3_column_int(st, 1)))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "duplicate search failed");

	/* Games whose moves begin a longer game's (same start). */
	sqlite3_stmt *all, *longer;
	if (prepare(s, &all, "SELECT id, coalesce(start, ''), moves, plies FROM game WHERE status < 3 AND plies >= ? ORDER BY id") < 0)
		return -1;
	if (prepare(s, &longer,
		    "SELECT id, plies FROM game WHERE coalesce(start, '') = ? AND moves > ? AND moves < ? AND plies > ?"
		    " AND status < 3 ORDER BY id") < 0) {
		sqlite3_finalize(all);
		return -1;
	}
	sqlite3_bind_int(all, 1, min_plies);
	bool stop = false;
	while (!stop && (rc = sqlite3_step(all)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(all, 0);
		const uint8_t *m = sqlite3_column_blob(all, 2);
		int n = sqlite3_column_bytes(all, 2), plies = sqlite3_column_int(all, 3);
		uint8_t succ[2048];
		if (n <= 0 || n > (int)sizeof succ)
			continue;
		int k = n;
		memcpy(succ, m, (size_t)n);
		while (k > 0 && succ[k - 1] == 0xFF)
			k--;
		if (k == 0)
			continue;
		succ[k - 1]++;
		sqlite3_bind_text(longer, 1, (const char *)sqlite3_column_text(all, 1), -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(longer, 2, m, n, SQLITE_TRANSIENT);
		sqlite3_bind_blob(longer, 3, succ, k, SQLITE_TRANSIENT);
		sqlite3_bind_int(longer, 4, plies);
		while (sqlite3_step(longer) == SQLITE_ROW) {
			int64_t pair[2] = { id, sqlite3_column_int64(longer, 0) };
			if (cb(ctx, "prefix", pair, 2, plies)) {
				stop = true;
				break;
			}
		}
		sqlite3_reset(longer);
	}
	sqlite3_finalize(all);
	sqlite3_finalize(longer);
	return 0;
}

int store_check(pk_store *s, char *msg, size_t size)
{
	static const char *const checks[] = { "PRAGMA integrity_check", "PRAGMA foreign_key_check" };
	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		if (prepare(s, &st, checks[i]) < 0) {
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
	snprintf(msg, size, "ok");
	return 0;
}

int store_unindexed_games(pk_store *s, long *count)
{
	sqlite3_stmt *st;
	if (prepare(s, &st, "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'unindexed'), 0)") < 0)
		return -1;
	int rc = sqlite3_step(st);
	*count = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(s, "cannot read the meta table");
}

/* ---- annotations ------------------------------------------------------------------- */

int store_annotation_run(pk_store *s, const char *settings, const char *engine, int64_t *run)
{
	sqlite3_stmt *st;
	if (prepare(s, &st, "INSERT OR IGNORE INTO annotation_run(settings, engine, created)"
			    " VALUES(?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))") < 0)
		return -1;
	sqlite3_bind_text(st, 1, settings, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, engine, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "cannot record the annotation settings");
	if (prepare(s, &st, "SELECT id FROM annotation_run WHERE settings = ?") < 0)
		return -1;
	sqlite3_bind_text(st, 1, settings, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(s, "cannot read the annotation settings");
}

int store_is_annotated(pk_store *s, int64_t game, int64_t run, bool *done)
{
	sqlite3_stmt *st;
	if (prepare(s, &st, "SELECT 1 FROM annotated WHERE game = ? AND run = ?") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int64(st, 2, run);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "cannot read the annotations");
	*done = rc == SQLITE_ROW;
	return 0;
}

int store_load_annotation(pk_store *s, int64_t game, int64_t run, int (*cb)(void *ctx, const pk_annot_row *row),
			  void *ctx, int *decisive)
{
	sqlite3_stmt *st;
	*decisive = 0;
	if (prepare(s, &st, "SELECT ply, side, class, move, best, score_best, score_played, loss, depth, pv"
			    " FROM annotation WHERE game = ? AND run = ? ORDER BY ply") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int64(st, 2, run);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pk_annot_row r = {
			.ply = sqlite3_column_int(st, 0),
			.side = (const char *)sqlite3_column_text(st, 1),
			.cls = (const char *)sqlite3_column_text(st, 2),
			.move = (const char *)sqlite3_column_text(st, 3),
			.scored = sqlite3_column_type(st, 4) != SQLITE_NULL,
			.best = (const char *)sqlite3_column_text(st, 4),
			.score_best = sqlite3_column_int(st, 5),
			.score_played = sqlite3_column_int(st, 6),
			.loss = sqlite3_column_int(st, 7),
			.depth = sqlite3_column_int(st, 8),
			.pv = (const char *)sqlite3_column_text(st, 9),
		};
		if (cb(ctx, &r))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "cannot read the annotations");
	if (prepare(s, &st, "SELECT decisive FROM annotated WHERE game = ? AND run = ?") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int64(st, 2, run);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*decisive = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail(s, "cannot read the annotations");
}

int store_save_annotation(pk_store *s, int64_t game, int64_t run, const pk_annot_row *rows, int n, int decisive)
{
	if (exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	sqlite3_stmt *del = NULL, *ins = NULL, *mark = NULL;
	int rc = -1;
	if (prepare(s, &del, "DELETE FROM annotation WHERE game = ? AND run = ?") < 0 ||
	    prepare(s, &ins, "INSERT INTO annotation VALUES(?,?,?,?,?,?,?,?,?,?,?,?)") < 0 ||
	    prepare(s, &mark, "INSERT OR REPLACE INTO annotated VALUES(?,?,?)") < 0)
		goto out;
	sqlite3_bind_int64(del, 1, game);
	sqlite3_bind_int64(del, 2, run);
	if (sqlite3_step(del) != SQLITE_DONE) {
		fail(s, "cannot replace an annotation");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const pk_annot_row *r = &rows[i];
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, game);
		sqlite3_bind_int64(ins, 2, run);
		sqlite3_bind_int(ins, 3, r->ply);
		sqlite3_bind_text(ins, 4, r->side, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 5, r->cls, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, r->move, -1, SQLITE_TRANSIENT);
		if (r->scored) {
			sqlite3_bind_text(ins, 7, r->best, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(ins, 8, r->score_best);
			sqlite3_bind_int(ins, 9, r->score_played);
			sqlite3_bind_int(ins, 10, r->loss);
			sqlite3_bind_int(ins, 11, r->depth);
			sqlite3_bind_text(ins, 12, r->pv, -1, SQLITE_TRANSIENT);
		} else {
			for (int k = 7; k <= 12; k++)
				sqlite3_bind_null(ins, k);
		}
		if (sqlite3_step(ins) != SQLITE_DONE) {
			fail(s, "cannot store an annotation");
			goto out;
		}
	}
	sqlite3_bind_int64(mark, 1, game);
	sqlite3_bind_int64(mark, 2, run);
	if (decisive > 0)
		sqlite3_bind_int(mark, 3, decisive);
	else
		sqlite3_bind_null(mark, 3);
	if (sqlite3_step(mark) != SQLITE_DONE) {
		fail(s, "cannot store an annotation");
		goto out;
	}
	rc = exec(s, "COMMIT");
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	sqlite3_finalize(mark);
	if (rc < 0) {
		char keep[sizeof s->err];
		memcpy(keep, s->err, sizeof keep);
		exec(s, "ROLLBACK");
		memcpy(s->err, keep, sizeof keep);
	}
	return rc;
}

int store_merge_annotations(pk_store *s, const char *other, long *games)
{
	sqlite3_stmt *st;
	if (prepare(s, &st, "ATTACH DATABASE ? AS other") < 0)
		return -1;
	sqlite3_bind_text(st, 1, other, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "cannot open the other database");
	/* Games are matched by fingerprint (their start and moves), runs by settings. */
	static const char *const steps[] = {
		"BEGIN IMMEDIATE",
		"CREATE TEMP TABLE gmap AS SELECT o.id AS oid, g.id AS gid FROM other.game o"
		" JOIN main.game g ON g.fingerprint = o.fingerprint",
		"INSERT OR IGNORE INTO main.annotation_run(settings, engine, created)"
		" SELECT settings, engine, created FROM other.annotation_run",
		"CREATE TEMP TABLE rmap AS SELECT o.id AS oid, r.id AS rid FROM other.annotation_run o"
		" JOIN main.annotation_run r ON r.settings = o.settings",
		"CREATE TEMP TABLE newg AS SELECT gm.gid, rm.rid, a.decisive, a.game AS ogame, a.run AS orun"
		" FROM other.annotated a JOIN temp.gmap gm ON gm.oid = a.game JOIN temp.rmap rm ON rm.oid = a.run"
		" WHERE NOT EXISTS (SELECT 1 FROM main.annotated m WHERE m.game = gm.gid AND m.run = rm.rid)",
		"INSERT INTO main.annotation SELECT n.gid, n.rid, a.ply, a.side, a.class, a.move, a.best,"
		" a.score_best, a.score_played, a.loss, a.depth, a.pv FROM temp.newg n"
		" JOIN other.annotation a ON a.game = n.ogame AND a.run = n.orun",
		"INSERT INTO main.annotated SELECT gid, rid, decisive FROM temp.newg",
		NULL
	};
	for (int i = 0; steps[i]; i++)
		if (exec(s, steps[i]) < 0) {
			char keep[sizeof s->err];
			memcpy(keep, s->err, sizeof keep);
			exec(s, "ROLLBACK");
			exec(s, "DROP TABLE IF EXISTS temp.gmap");
			exec(s, "DROP TABLE IF EXISTS temp.rmap");
			exec(s, "DROP TABLE IF EXISTS temp.newg");
			exec(s, "DETACH DATABASE other");
			memcpy(s->err, keep, sizeof keep);
			return -1;
		}
	*games = 0;
	if (prepare(s, &st, "SELECT count(*) FROM temp.newg") == 0) {
		if (sqlite3_step(st) == SQLITE_ROW)
			*games = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	int r = exec(s, "COMMIT");
	exec(s, "DROP TABLE temp.gmap");
	exec(s, "DROP TABLE temp.rmap");
	exec(s, "DROP TABLE temp.newg");
	exec(s, "DETACH DATABASE other");
	return r;
}

typedef struct {
	int (*cb)(void *ctx, const pk_blunder *b);
	void *ctx;
} blunder_ctx;

static int blunder_row(void *ctx, int ncol, const char *const *col)
{
	blunder_ctx *c = ctx;
	if (ncol < 15)
		return 0;
	pk_blunder b = {
		.game = col[0] ? atoll(col[0]) : 0, .event = col[1], .black = col[2], .white = col[3], .date = col[4],
		.ply = col[5] ? atoi(col[5]) : 0, .side = col[6], .move = col[7], .best = col[8],
		.score_best = col[9] ? atoi(col[9]) : 0, .score_played = col[10] ? atoi(col[10]) : 0,
		.loss = col[11] ? atoi(col[11]) : 0, .cls = col[12], .pv = col[13], .depth = col[14] ? atoi(col[14]) : -1,
	};
	return c->cb(c->ctx, &b);
}

int store_blunders(pk_store *s, const pk_filter *f, int min_loss, long limit,
		   int (*cb)(void *ctx, const pk_blunder *b), void *ctx)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT g.id, g.event, g.black, g.white, g.date, a.ply, a.side, a.move, a.best, a.score_best,"
		 " a.score_played, a.loss, a.class, a.pv, a.depth"
		 " FROM annotation a JOIN game g ON g.id = a.game %%W AND a.loss >= %d"
		 " AND a.run = (SELECT max(x.run) FROM annotated x WHERE x.game = a.game)"
		 " ORDER BY a.loss DESC, g.id, a.ply LIMIT %ld",
		 min_loss, limit);
	blunder_ctx c = { cb, ctx };
	return store_select(s, sql, f, blunder_row, &c);
}
