/* The store: date and name keys, move encoding, hostile tag values through import and
 * export, position search against a slow scan that replays every game, and imports
 * killed with SIGKILL at random points. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "pdn/pdn_write.h"
#include <sqlite3.h>
#include "store/store.h"

static char dir[] = "/tmp/pdnkit-test-XXXXXX";

static const char *tmp(const char *name)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void test_keys(void)
{
	CHECK_INT(store_date_key("1841-?" "?-?" "?"), 18410000);   /* split: "??-" is a trigraph */
	CHECK_INT(store_date_key("1950."), 19500000);
	CHECK_INT(store_date_key("1.1.1965"), 19650101);
	CHECK_INT(store_date_key("2007.11.24"), 20071124);
	CHECK_INT(store_date_key("1981-07"), 19810700);
	CHECK_INT(store_date_key("?"), 0);
	CHECK_INT(store_date_key(""), 0);
	CHECK_INT(store_date_key("sometime"), 0);
	char a[64], b[64];
	store_name_key("Tinsley, M.F.", a, sizeof a);
	store_name_key("M. F.  Tinsley", b, sizeof b);
	CHECK_STR(a, "f m tinsley");
	CHECK_STR(b, "f m tinsley");
	store_name_key("O'Neill, J", a, sizeof a);
	CHECK_STR(a, "j oneill");
	/* initials written together, a comma misplaced, accents, a name in capitals */
	store_name_key("MF Tinsley", a, sizeof a);
	CHECK_STR(a, "f m tinsley");
	store_name_key("Tinsley ,M.F.", a, sizeof a);
	CHECK_STR(a, "f m tinsley");
	store_name_key("AA Long", a, sizeof a);
	CHECK_STR(a, "a a long");
	store_name_key("M\xc3\xbcller, J\xc3\xa9r\xc3\xb4me", a, sizeof a);
	CHECK_STR(a, "jerome muller");
	store_name_key("LEE, JO", a, sizeof a);
	CHECK_STR(a, "jo lee");
	store_name_key("Smith, JOHN", a, sizeof a);
	CHECK_STR(a, "john smith");

	pk_replay rp;
	replay_init(&rp);
	rp.nply = 3;
	rp.plies = calloc(3, sizeof *rp.plies);
	rp.plies[0].ordinal = 3;
	rp.plies[1].ordinal = 300;
	rp.plies[2].ordinal = 255;
	for (int i = 0; i < 3; i++)
		rp.plies[i].nlegal = 400;   /* no draughts position has that many; the escape is tested all the same */
	uint8_t buf[16];
	int n = store_encode_moves(&rp, buf, sizeof buf);
	CHECK_INT(n, 7);
	int ord[8];
	CHECK_INT(store_decode_moves(buf, n, ord, 8), 3);
	CHECK(ord[0] == 3 && ord[1] == 300 && ord[2] == 255);
	replay_free(&rp);
}

/* Import a PDN text into a store through the API. */
static int import_text(pk_store *s, const char *text, size_t len, int *added)
{
	pk_reader *r = pdn_open_mem(text, len);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	*added = 0;
	int rc = store_begin_import(s, "test", true);
	while (rc == 0 && pdn_read(r, &g) == 1) {
		int outcome;
		rc = replay_game(&g, &rp) == 0 ? store_add_game(s, &g, &rp, &outcome) : -1;
		*added += rc == 0 && outcome != STORE_DUPLICATE && outcome != STORE_COPY_SKIPPED;
	}
	if (store_end_import(s) < 0)
		rc = -1;
	pdn_close(r);
	game_free(&g);
	replay_free(&rp);
	return rc;
}

typedef struct {
	pk_store *s;
	char *text;
	size_t n, cap;
	int games;
} export_ctx;

static int sink(void *ctx, const char *buf, size_t len)
{
	export_ctx *e = ctx;
	if (e->n + len + 1 > e->cap) {
		e->cap = (e->n + len + 1) * 2;
		e->text = realloc(e->text, e->cap);
	}
	memcpy(e->text + e->n, buf, len);
	e->n += len;
	e->text[e->n] = 0;
	return 0;
}

static int export_row(void *ctx, const pk_row *row)
{
	export_ctx *e = ctx;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	pk_write_opts o = { .width = 80, .verbatim_tags = true };
	if (store_load_game(e->s, row, &g, &rp) == 0 && pdn_write_game(&g, &rp, &o, sink, e) == 0)
		e->games++;
	game_free(&g);
	replay_free(&rp);
	return 0;
}

static char *export_all(pk_store *s, int *games)
{
	export_ctx e = { .s = s };
	pk_filter f;
	filter_init(&f);
	store_query(s, &f, export_row, &e);
	*games = e.games;
	return e.text;
}

static void test_hostile_tags(void)
{
	char err[300];
	pk_store *s = store_open(tmp("hostile.db"), STORE_CREATE, err, sizeof err);
	CHECK(s != NULL);
	if (!s)
		return;
	size_t big = 1u << 20;
	char *text = malloc(big + 4096);
	static const char head[] =
		"[Event \"quote \\\" and backslash \\\\ here\"]\n"
		"[Site \"'); DROP TABLE game; --\"]\n"
		"[Black \"Robert'); DELETE FROM tag; --\"]\n"
		"[White \"caf\xE9 cr\xE8me\"]\n"
		"[Round \"a\0b\"]\n"
		"[Annotator \"";
	static const char tail[] = "\"]\n1. 9-14 23-18 2. 14x23 27x18 *\n";
	size_t n = sizeof head - 1;
	memcpy(text, head, n);
	memset(text + n, 'x', big);
	n += big;
	memcpy(text + n, tail, sizeof tail - 1);
	n += sizeof tail - 1;
	int added = 0;
	CHECK_INT(import_text(s, text, n, &added), 0);
	CHECK_INT(added, 1);
	long count = -1;
	pk_filter f;
	filter_init(&f);
	CHECK(store_count(s, &f, &count) == 0 && count == 1);
	f.black = "Robert'); DELETE";
	CHECK(store_count(s, &f, &count) == 0 && count == 1);
	f.black = "%";   /* a LIKE wildcard typed by the user matches itself only */
	CHECK(store_count(s, &f, &count) == 0 && count == 0);
	int games;
	char *out = export_all(s, &games);
	CHECK_INT(games, 1);
	CHECK(out && strstr(out, "[Event \"quote \\\" and backslash \\\\ here\"]"));
	CHECK(out && strstr(out, "[Site \"'); DROP TABLE game; --\"]"));
	CHECK(out && strstr(out, "[White \"caf\xC3\xA9 cr\xC3\xA8me\"]"));
	CHECK(out && strstr(out, "[Round \"a\xEF\xBF\xBD" "b\"]"));
	CHECK(out && strstr(out, "1. 9-14 23-18 2. 14x23 27x18 *"));
	/* The exported text imports as the same game: nothing new. */
	CHECK_INT(import_text(s, out, strlen(out), &added), 0);
	CHECK_INT(added, 0);
	char msg[200];
	CHECK_INT(store_check(s, msg, sizeof msg), 0);
	CHECK_STR(msg, "ok");
	free(out);
	free(text);
	store_close(s);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	*len = fread(p, 1, (size_t)n, f);
	p[*len] = 0;
	fclose(f);
	return p;
}

typedef struct {
	int game, ply;
} hit;

static int on_hit(void *ctx, const pk_row *row)
{
	hit *h = ctx;
	int k = 0;
	while (h[k].game)
		k++;
	if (k < 4000)
		h[k] = (hit){ row->source_game, row->ply };
	return 0;
}

/* The games reaching the position with this key, by store_query, into got (zeroed
 * first): store_query's result. */
static int query_hits(pk_store *s, uint64_t key, hit *got, size_t n)
{
	memset(got, 0, n * sizeof *got);
	pk_filter f;
	filter_init(&f);
	f.position_set = true;
	f.position_key = key;
	return store_query(s, &f, on_hit, got);
}

static int on_long(void *ctx, int n, const char *const *c)
{
	if (n > 0 && c[0])
		*(long *)ctx = atol(c[0]);
	return 0;
}

/* Position search against the slow way: replay every game of the file and look. */
static void test_position_search(const char *corpora)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tinsley.pdn", corpora);
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		printf("SKIP position search: %s not found\n", path);
		return;
	}
	char err[300];
	pk_store *s = store_open(tmp("tinsley.db"), STORE_CREATE, err, sizeof err);
	/* every record a game of its own (tinsley.pdn holds a few games twice), as the
	 * slow way below sees them */
	if (s)
		store_set_copies(s, COPIES_KEEP);
	int added;
	CHECK(s && import_text(s, text, len, &added) == 0);
	CHECK_INT(added, 724);

	/* Probe positions: the start, and positions after plies 6, 12 and 40 of some games. */
	uint64_t probes[64];
	int np = 0;
	pk_pos start;
	pos_start(&start);
	probes[np++] = start.key;
	pk_reader *r = pdn_open_mem(text, len);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	int index = 0;
	while (pdn_read(r, &g) == 1 && np < 64) {
		index++;
		replay_game(&g, &rp);
		if (index % 37 != 1)
			continue;
		int plies[] = { 6, 12, 40 };
		for (int k = 0; k < 3 && np < 64; k++)
			if (rp.nply >= plies[k])
				probes[np++] = rp.plies[plies[k] - 1].after.key;
	}
	pdn_close(r);

	int mismatches = 0, total_hits = 0;
	static hit got[4001], want[4001];
	for (int p = 0; p < np; p++) {
		memset(want, 0, sizeof want);
		query_hits(s, probes[p], got, 4001);
		/* The slow scan. */
		r = pdn_open_mem(text, len);
		int nw = 0;
		index = 0;
		while (pdn_read(r, &g) == 1) {
			index++;
			replay_game(&g, &rp);
			for (int ply = 0; ply <= rp.nply; ply++) {
				const pk_pos *q = ply == 0 ? &rp.start : &rp.plies[ply - 1].after;
				if (q->key == probes[p] && nw < 4000) {
					want[nw++] = (hit){ index, ply };
					break;
				}
			}
		}
		pdn_close(r);
		int ng = 0;
		while (got[ng].game)
			ng++;
		bool same = ng == nw;
		for (int i = 0; same && i < ng; i++)
			same = got[i].game == want[i].game && got[i].ply == want[i].ply;
		mismatches += !same;
		total_hits += nw;
	}
	CHECK_INT(mismatches, 0);
	CHECK(np >= 40);
	CHECK(total_hits > 724);   /* the start position alone is in every game */

	/* A store of schema version 3 (one row of `position` per game and ply) is migrated
	 * when opened: the same games found. The old table is made here as version 3 wrote
	 * it, from the games replayed again. */
	static hit before[64][4001];
	for (int p = 0; p < np; p++)
		query_hits(s, probes[p], before[p], 4001);
	store_close(s);
	s = NULL;
	sqlite3 *db;
	CHECK(sqlite3_open(tmp("tinsley.db"), &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "BEGIN; DROP TABLE position_block; CREATE TABLE position(part INTEGER NOT NULL, key INTEGER NOT NULL,"
			   " game INTEGER NOT NULL, ply INTEGER NOT NULL, PRIMARY KEY(part, key, game, ply)) WITHOUT ROWID",
			   NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_stmt *ins, *id;
	CHECK(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO position VALUES(?1 >> 13, ?2, ?1, ?3)", -1, &ins, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT id FROM game WHERE source_game = ?", -1, &id, NULL) == SQLITE_OK);
	r = pdn_open_mem(text, len);
	index = 0;
	long rows = 0;
	while (pdn_read(r, &g) == 1) {
		index++;
		replay_game(&g, &rp);
		sqlite3_bind_int(id, 1, index);
		int64_t gid = sqlite3_step(id) == SQLITE_ROW ? sqlite3_column_int64(id, 0) : 0;
		sqlite3_reset(id);
		for (int ply = 0; gid && ply <= rp.nply; ply++) {
			const pk_pos *q = ply == 0 ? &rp.start : &rp.plies[ply - 1].after;
			sqlite3_bind_int64(ins, 1, gid);
			sqlite3_bind_int64(ins, 2, (int64_t)q->key);
			sqlite3_bind_int(ins, 3, ply);
			rows += sqlite3_step(ins) == SQLITE_DONE;
			sqlite3_reset(ins);
		}
	}
	pdn_close(r);
	sqlite3_finalize(ins);
	sqlite3_finalize(id);
	CHECK(rows > 724 * 20);
	CHECK(sqlite3_exec(db, "PRAGMA user_version = 3; COMMIT", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	s = store_open(tmp("tinsley.db"), STORE_WRITE, err, sizeof err);
	CHECK(s != NULL);
	mismatches = 0;
	for (int p = 0; s && p < np; p++) {
		query_hits(s, probes[p], got, 4001);
		mismatches += memcmp(before[p], got, sizeof before[p]) != 0;
	}
	CHECK_INT(mismatches, 0);
	long n = -1;
	pk_filter all;
	filter_init(&all);
	CHECK(s && store_select(s, "SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'position')"
				   " + 10 * (SELECT count(*) FROM sqlite_master WHERE name = 'position_block') FROM game g %W LIMIT 1",
				&all, on_long, &n) == 0);
	CHECK_INT(n, 10);   /* the old table gone, the blocks there */
	char msg[300];
	CHECK_INT(store_check(s, msg, sizeof msg), 0);
	/* a damaged block: said by the check and by a search, never a crash */
	store_close(s);
	CHECK(sqlite3_open(tmp("tinsley.db"), &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "UPDATE position_block SET data = x'0080' WHERE rowid = (SELECT min(rowid) FROM position_block)",
			   NULL, NULL, NULL) == SQLITE_OK);
	/* and a part numbered beyond any game: refused at once, not counted up to */
	CHECK(sqlite3_exec(db, "INSERT INTO position_block VALUES(9223372036854775807, 5, x'0001')", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_stmt *fk;
	int64_t damaged = 0;
	if (sqlite3_prepare_v2(db, "SELECT first FROM position_block WHERE rowid = (SELECT min(rowid) FROM position_block)", -1,
			       &fk, NULL) == SQLITE_OK && sqlite3_step(fk) == SQLITE_ROW)
		damaged = sqlite3_column_int64(fk, 0);
	sqlite3_finalize(fk);
	sqlite3_close(db);
	s = store_open(tmp("tinsley.db"), STORE_WRITE, err, sizeof err);
	CHECK(s != NULL);
	CHECK(s && store_check(s, msg, sizeof msg) < 0);
	CHECK(strstr(msg, "position index: a block that does not decode (part 0") != NULL);
	CHECK(s && query_hits(s, (uint64_t)damaged, got, 4001) < 0);   /* the search reads that block */
	CHECK(s && strstr(store_error(s), "damaged block") != NULL);
	/* the smallest key reads no block of the real parts, then meets the false one */
	CHECK(s && query_hits(s, 0x8000000000000000ull, got, 4001) < 0);
	CHECK(s && strstr(store_error(s), "(part 9223372036854775807)") != NULL);
	game_free(&g);
	replay_free(&rp);
	store_close(s);
	free(text);
}

static int on_digest(void *ctx, int n, const char *const *c)
{
	char *d = ctx;
	snprintf(d, 200, "%s %s %s %s", n > 0 && c[0] ? c[0] : "", n > 1 && c[1] ? c[1] : "",
		 n > 2 && c[2] ? c[2] : "", n > 3 && c[3] ? c[3] : "");
	return 0;
}

static void digest(const char *db, char *out)
{
	char err[300];
	pk_store *s = store_open(db, STORE_WRITE, err, sizeof err);
	out[0] = 0;
	if (!s)
		return;
	pk_filter f;
	filter_init(&f);
	f.copies = true;   /* every stored record, copies of another game included */
	store_select(s, "SELECT count(*), sum(g.fingerprint % 1000003), (SELECT count(*) || '/' || sum(length(data)) FROM position_block),"
			" (SELECT count(*) FROM tag) FROM game g %W", &f, on_digest, out);
	store_close(s);
}

static int run_import(const char *pdnkit, const char *db, const char *file, int kill_after_ms)
{
	pid_t pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		execl(pdnkit, pdnkit, "import", "--db", db, file, (char *)NULL);
		_exit(127);
	}
	if (kill_after_ms > 0) {
		struct timespec ts = { kill_after_ms / 1000, (kill_after_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
	}
	int status;
	waitpid(pid, &status, 0);
	return status;
}

/* Kill imports at random points: the database stays consistent, and finishing the
 * import gives what an uninterrupted one gives. */
static void test_sigkill(const char *pdnkit, const char *corpora)
{
	char file[512];
	snprintf(file, sizeof file, "%s/OCA_2.0.pdn", corpora);
	if (access(file, R_OK) != 0 || !pdnkit) {
		printf("SKIP interrupted imports: %s or $PDNKIT missing\n", file);
		return;
	}
	char reference[200], result[200];
	CHECK_INT(run_import(pdnkit, tmp("reference.db"), file, 0), 0);
	digest(tmp("reference.db"), reference);
	CHECK(strncmp(reference, "22621 ", 6) == 0);

	srand(20261122);
	int bad = 0;
	for (int k = 0; k < 5; k++) {
		int ms = 150 + rand() % 1200;
		run_import(pdnkit, tmp("killed.db"), file, ms);
		char err[300], msg[200];
		pk_store *s = store_open(tmp("killed.db"), STORE_WRITE, err, sizeof err);
		if (!s || store_check(s, msg, sizeof msg) < 0) {
			printf("FAIL after SIGKILL at %d ms: %s\n", ms, s ? msg : err);
			bad++;
		}
		store_close(s);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(run_import(pdnkit, tmp("killed.db"), file, 0), 0);
	digest(tmp("killed.db"), result);
	CHECK_STR(result, reference);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	const char *corpora = getenv("CORPORA") ? getenv("CORPORA") : "../shared/corpora";
	test_keys();
	test_hostile_tags();
	test_position_search(corpora);
	test_sigkill(getenv("PDNKIT"), corpora);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("warning: could not remove %s\n", dir);
	return check_done("test_store");
}
