/* Players as identities: the spellings of a name reduced to a key (store_name_key), and
 * the alias file, which names the spellings of one player under one canonical name.
 * The games keep their tags as imported; their black_key and white_key are the keys of
 * the players (an alias's key replaced by its player's). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"

/* The aliases built in (book/aliases.txt). */
extern const char store_aliases_text[];

typedef struct {
	char *spelling, *player;        /* keys */
	char *name;                     /* the player's canonical name */
	int line;
} alias_row;

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const alias_row *)a)->spelling, ((const alias_row *)b)->spelling);
}

static void free_rows(alias_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].spelling);
		free(v[i].player);
		free(v[i].name);
	}
	free(v);
}

/* Parse an alias file into rows (appended to *v); the canonical name maps to itself.
 * 0, or -1 with "LINE: reason" in err. */
static int parse_aliases(const char *text, const char *what, alias_row **v, size_t *n, size_t *cap, char *err,
			 size_t errsize)
{
	char canon[512] = "", ckey[256] = "";
	int line = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		line++;
		char buf[512];
		if (len >= sizeof buf) {
			snprintf(err, errsize, "%s, line %d: a line of more than %zu characters", what, line, sizeof buf - 1);
			return -1;
		}
		memcpy(buf, p, len);
		buf[len] = 0;
		p = e ? e + 1 : p + len;
		while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
			buf[--len] = 0;
		size_t lead = strspn(buf, " \t");
		if (lead == len || buf[lead] == '#')
			continue;
		const char *name = buf + lead;
		char key[256];
		store_name_key(name, key, sizeof key);
		if (!key[0]) {
			snprintf(err, errsize, "%s, line %d: '%s' has no letters or digits: not a name", what, line, name);
			return -1;
		}
		if (lead == 0) {
			snprintf(canon, sizeof canon, "%s", name);
			snprintf(ckey, sizeof ckey, "%s", key);
		} else if (!canon[0]) {
			snprintf(err, errsize, "%s, line %d: a spelling (indented) before any player's name (at the start of a line)",
				 what, line);
			return -1;
		}
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 256;
			alias_row *q = realloc(*v, c * sizeof *q);
			if (!q) {
				snprintf(err, errsize, "out of memory");
				return -1;
			}
			*v = q;
			*cap = c;
		}
		alias_row *r = &(*v)[(*n)++];
		r->spelling = strdup(key);
		r->player = strdup(ckey);
		r->name = strdup(canon);
		r->line = line;
		if (!r->spelling || !r->player || !r->name) {
			snprintf(err, errsize, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* The rows of the built-in file and then text's (NULL: none), one per spelling: a
 * spelling given twice for two players is an error unless text overrides the built-in. */
static int alias_rows(const char *text, alias_row **out, size_t *nout, char *err, size_t errsize)
{
	alias_row *v = NULL;
	size_t n = 0, cap = 0;
	if (parse_aliases(store_aliases_text, "book/aliases.txt", &v, &n, &cap, err, errsize) < 0) {
		free_rows(v, n);
		return -1;
	}
	size_t builtin = n;
	if (text && parse_aliases(text, "the alias file", &v, &n, &cap, err, errsize) < 0) {
		free_rows(v, n);
		return -1;
	}
	/* the user's rows override the built-in ones of the same spelling */
	for (size_t i = builtin; i < n; i++)
		for (size_t j = 0; j < builtin; j++)
			if (v[j].spelling[0] && !strcmp(v[i].spelling, v[j].spelling))
				v[j].spelling[0] = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].spelling[0])
			v[k++] = v[i];
		else {
			free(v[i].spelling);
			free(v[i].player);
			free(v[i].name);
		}
	}
	n = k;
	qsort(v, n, sizeof *v, cmp_alias);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i].spelling, v[i - 1].spelling) && strcmp(v[i].player, v[i - 1].player)) {
			snprintf(err, errsize, "the alias file: '%s' (line %d) and '%s' (line %d) both claim the spelling '%s'",
				 v[i - 1].name, v[i - 1].line, v[i].name, v[i].line, v[i].spelling);
			free_rows(v, n);
			return -1;
		}
	/* a player's key that is itself a spelling of another player: a chain */
	for (size_t i = 0; i < n; i++) {
		alias_row key = { .spelling = v[i].player };
		alias_row *hit = bsearch(&key, v, n, sizeof *v, cmp_alias);
		if (hit && strcmp(hit->player, v[i].player)) {
			snprintf(err, errsize, "the alias file: '%s' (line %d) is also a spelling of '%s' (line %d)", v[i].name,
				 v[i].line, hit->name, hit->line);
			free_rows(v, n);
			return -1;
		}
	}
	*out = v;
	*nout = n;
	return 0;
}

/* The aliases of the store, for the import: sorted by spelling. */
int st_load_aliases(pk_store *s)
{
	st_free_aliases(s);
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT spelling, player FROM alias ORDER BY spelling") < 0)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (s->naliases == cap) {
			size_t c = cap ? cap * 2 : 256;
			char **q = realloc(s->aliases, 2 * c * sizeof *q);
			if (!q) {
				sqlite3_finalize(st);
				snprintf(s->err, sizeof s->err, "out of memory");
				return -1;
			}
			s->aliases = q;
			cap = c;
		}
		s->aliases[2 * s->naliases] = strdup((const char *)sqlite3_column_text(st, 0));
		s->aliases[2 * s->naliases + 1] = strdup((const char *)sqlite3_column_text(st, 1));
		s->naliases++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, "cannot read the aliases");
	return 0;
}

void st_free_aliases(pk_store *s)
{
	for (size_t i = 0; i < 2 * s->naliases; i++)
		free(s->aliases[i]);
	free(s->aliases);
	s->aliases = NULL;
	s->naliases = 0;
}

void st_player_key(const pk_store *s, const char *name, char *out, size_t size)
{
	store_name_key(name, out, size);
	size_t lo = 0, hi = s->naliases;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->aliases[2 * mid], out);
		if (c == 0) {
			snprintf(out, size, "%s", s->aliases[2 * mid + 1]);
			return;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
}

/* Every game's keys made again from its names (after the aliases changed, or the way
 * names are reduced did); *changed counts the games whose keys changed. */
int st_rekey(pk_store *s, long *changed)
{
	*changed = 0;
	if (st_load_aliases(s) < 0)
		return -1;
	sqlite3_stmt *all, *up;
	if (st_prepare(s, &all, "SELECT id, black, white, black_key, white_key FROM game") < 0)
		return -1;
	if (st_prepare(s, &up, "UPDATE game SET black_key = ?, white_key = ? WHERE id = ?") < 0) {
		sqlite3_finalize(all);
		return -1;
	}
	/* the updates change no index the scan (by rowid) uses */
	int rc;
	while ((rc = sqlite3_step(all)) == SQLITE_ROW) {
		const char *b = (const char *)sqlite3_column_text(all, 1), *w = (const char *)sqlite3_column_text(all, 2);
		const char *ob = (const char *)sqlite3_column_text(all, 3), *ow = (const char *)sqlite3_column_text(all, 4);
		char bk[256], wk[256];
		if (b)
			st_player_key(s, b, bk, sizeof bk);
		if (w)
			st_player_key(s, w, wk, sizeof wk);
		if ((b ? !ob || strcmp(bk, ob) : ob != NULL) || (w ? !ow || strcmp(wk, ow) : ow != NULL)) {
			if (b)
				sqlite3_bind_text(up, 1, bk, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(up, 1);
			if (w)
				sqlite3_bind_text(up, 2, wk, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(up, 2);
			sqlite3_bind_int64(up, 3, sqlite3_column_int64(all, 0));
			int u = sqlite3_step(up);
			sqlite3_reset(up);
			if (u != SQLITE_DONE) {
				sqlite3_finalize(all);
				sqlite3_finalize(up);
				return st_fail(s, "cannot write a player's key");
			}
			(*changed)++;
		}
	}
	sqlite3_finalize(all);
	sqlite3_finalize(up);
	if (rc != SQLITE_DONE)
		return st_fail(s, "cannot read the games' players");
	return 0;
}

/* The alias tables from the built-in file and text, inside the caller's transaction. */
int st_set_aliases(pk_store *s, const char *text, long *rekeyed, long *spellings)
{
	alias_row *v;
	size_t n;
	if (alias_rows(text, &v, &n, s->err, sizeof s->err) < 0)
		return -1;
	sqlite3_stmt *ia = NULL, *ip = NULL;
	int rc = -1;
	if (st_exec(s, "DELETE FROM alias") < 0 || st_exec(s, "DELETE FROM player") < 0 ||
	    st_prepare(s, &ia, "INSERT OR IGNORE INTO alias VALUES(?, ?)") < 0 ||
	    st_prepare(s, &ip, "INSERT OR IGNORE INTO player VALUES(?, ?)") < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_text(ia, 1, v[i].spelling, -1, SQLITE_STATIC);
		sqlite3_bind_text(ia, 2, v[i].player, -1, SQLITE_STATIC);
		sqlite3_bind_text(ip, 1, v[i].player, -1, SQLITE_STATIC);
		sqlite3_bind_text(ip, 2, v[i].name, -1, SQLITE_STATIC);
		int a = sqlite3_step(ia), p = sqlite3_step(ip);
		sqlite3_reset(ia);
		sqlite3_reset(ip);
		if (a != SQLITE_DONE || p != SQLITE_DONE) {
			st_fail(s, "cannot store the aliases");
			goto out;
		}
	}
	*spellings = (long)n;
	rc = st_rekey(s, rekeyed);
out:
	sqlite3_finalize(ia);
	sqlite3_finalize(ip);
	free_rows(v, n);
	return rc;
}

int store_set_aliases(pk_store *s, const char *text, long *rekeyed, long *spellings)
{
	if (st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	if (st_set_aliases(s, text, rekeyed, spellings) < 0) {
		char keep[sizeof s->err];
		memcpy(keep, s->err, sizeof keep);
		st_exec(s, "ROLLBACK");
		memcpy(s->err, keep, sizeof keep);
		return -1;
	}
	return st_exec(s, "COMMIT");
}

int store_add_alias(pk_store *s, const char *spelling, const char *player, long *rekeyed)
{
	*rekeyed = 0;
	char sk[256], pk[256];
	store_name_key(spelling, sk, sizeof sk);
	if (!sk[0]) {
		snprintf(s->err, sizeof s->err, "the spelling '%.200s' holds no name", spelling);
		return -1;
	}
	if (st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	if (st_load_aliases(s) < 0)
		goto fail;
	st_player_key(s, player, pk, sizeof pk);
	if (!pk[0]) {
		snprintf(s->err, sizeof s->err, "the player '%.200s' holds no name", player);
		goto fail;
	}
	char was[256];
	st_player_key(s, spelling, was, sizeof was);
	if (!strcmp(was, pk)) {
		snprintf(s->err, sizeof s->err, "'%.200s' is already a spelling of '%.200s'", spelling, player);
		goto fail;
	}
	sqlite3_stmt *st[4] = { NULL, NULL, NULL, NULL };
	static const char *const sql[4] = {
		/* the spellings of the player the spelling was, and the spelling itself */
		"UPDATE alias SET player = ?2 WHERE player = ?1",
		"INSERT OR REPLACE INTO alias VALUES(?1, ?2)",
		"DELETE FROM player WHERE key = ?1",
		"INSERT OR IGNORE INTO player VALUES(?2, ?3)",
	};
	bool ok = true;
	for (int i = 0; i < 4 && ok; i++) {
		ok = st_prepare(s, &st[i], sql[i]) == 0;
		if (!ok)
			break;
		sqlite3_bind_text(st[i], 1, sk, -1, SQLITE_STATIC);
		sqlite3_bind_text(st[i], 2, pk, -1, SQLITE_STATIC);
		if (i == 3)
			sqlite3_bind_text(st[i], 3, player, -1, SQLITE_STATIC);
		ok = sqlite3_step(st[i]) == SQLITE_DONE;
		if (!ok)
			st_fail(s, "cannot store the alias");
	}
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(st[i]);
	if (!ok || st_rekey(s, rekeyed) < 0)
		goto fail;
	return st_exec(s, "COMMIT");
fail:;
	char keep[sizeof s->err];
	memcpy(keep, s->err, sizeof keep);
	st_exec(s, "ROLLBACK");
	memcpy(s->err, keep, sizeof keep);
	return -1;
}

int store_check_aliases(const char *text, char *err, size_t errsize, long *spellings)
{
	alias_row *v;
	size_t n;
	if (alias_rows(text, &v, &n, err, errsize) < 0)
		return -1;
	*spellings = (long)n;
	free_rows(v, n);
	return 0;
}

typedef struct {
	int (*cb)(void *, const pk_store_player *);
	void *ctx;
} players_ctx;

static int player_row(void *vctx, int ncol, const char *const *cols)
{
	players_ctx *c = vctx;
	if (ncol < 11)
		return 1;
	pk_store_player p = {
		.key = cols[0] ? cols[0] : "",
		.name = cols[1] ? cols[1] : "",
		.games = cols[2] ? atol(cols[2]) : 0,
		.first_year = cols[3] ? atoi(cols[3]) : 0,
		.last_year = cols[4] ? atoi(cols[4]) : 0,
		.spellings = cols[5] ? cols[5] : "",
		.won = cols[6] ? atol(cols[6]) : 0,
		.drawn = cols[7] ? atol(cols[7]) : 0,
		.lost = cols[8] ? atol(cols[8]) : 0,
		.moves = cols[9] ? atol(cols[9]) : 0,
	};
	if (p.moves > 0 && cols[10])
		p.average_loss = atof(cols[10]) / (double)p.moves;
	return c->cb(c->ctx, &p);
}

int store_players(pk_store *s, const pk_filter *f, long limit, int (*cb)(void *ctx, const pk_store_player *p), void *ctx)
{
	char white_first[200];
	st_white_first(white_first, sizeof white_first);
	/* each row a game of the player: points 1, 0.5, 0 (NULL unknown); the losses of
	 * their moves in the game's best annotation run */
	static const char *const loss =
		"(SELECT sum(a.loss) FROM annotation a WHERE a.game = g.id AND a.side = '%s' AND a.loss IS NOT NULL"
		" AND a.run = " ST_BEST_RUN("g.id") ") ls,"
		" (SELECT count(a.loss) FROM annotation a WHERE a.game = g.id AND a.side = '%s' AND a.loss IS NOT NULL"
		" AND a.run = " ST_BEST_RUN("g.id") ") mv";
	char lb[1200], lw[1200];
	snprintf(lb, sizeof lb, loss, "black", "black");
	snprintf(lw, sizeof lw, loss, "white", "white");
	char sql[8000];
	snprintf(sql, sizeof sql,
		 "SELECT k, coalesce((SELECT p.name FROM player p WHERE p.key = k), max(name)), sum(n),"
		 " min(fy) / 10000, max(ly) / 10000, group_concat(name, char(31)), sum(w), sum(dr), sum(l), sum(mv), sum(ls) FROM ("
		 " SELECT k, name, count(*) n, min(nullif(d, 0)) fy, max(d) ly, sum(pt = 1) w, sum(pt = 0.5) dr, sum(pt = 0) l,"
		 "  sum(mv) mv, sum(ls) ls FROM ("
		 "  SELECT g.black name, g.black_key k, g.date_key d, CASE g.result WHEN '1/2-1/2' THEN 0.5"
		 "   WHEN '1-0' THEN g.gametype NOT IN (%s) WHEN '0-1' THEN g.gametype IN (%s) END pt, %s"
		 "   FROM game g %%W AND g.black_key IS NOT NULL AND g.black_key != ''"
		 "  UNION ALL SELECT g.white, g.white_key, g.date_key, CASE g.result WHEN '1/2-1/2' THEN 0.5"
		 "   WHEN '0-1' THEN g.gametype NOT IN (%s) WHEN '1-0' THEN g.gametype IN (%s) END, %s"
		 "   FROM game g %%W AND g.white_key IS NOT NULL AND g.white_key != '')"
		 " GROUP BY k, name ORDER BY k, n DESC)"
		 " GROUP BY k ORDER BY 3 DESC, 2 LIMIT %ld",
		 white_first, white_first, lb, white_first, white_first, lw, limit > 0 ? limit : -1L);
	players_ctx pc = { cb, ctx };
	return store_select(s, sql, f, player_row, &pc);
}
