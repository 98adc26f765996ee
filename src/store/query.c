/* Queries: the WHERE clause of a filter, games and counts, tags, a stored game read
 * back, and duplicates. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"
#include "base/hash.h"
#include "rules/fen.h"
#include "pdn/movenum.h"


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
	} b[32];
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

/* The key of a name (store_name_key), bound as text; the SQL maps it through the
 * aliases to its player's. */
static void w_key(where *w, const char *v)
{
	char *o = w->b[w->nb].own;
	store_name_key(v, o, sizeof w->b[0].own);
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
		/* a substring of the name as written, or the same name spelt otherwise (its
		 * key: "Tinsley ,M.F." is "Tinsley, M.F."), as stats groups players */
		w_add(w, "(g.black LIKE ? ESCAPE '\\' OR g.white LIKE ? ESCAPE '\\'"
			 " OR g.black_key = (SELECT coalesce(max(player), ?) FROM alias WHERE spelling = ?)"
			 " OR g.white_key = (SELECT coalesce(max(player), ?) FROM alias WHERE spelling = ?))");
		w_like(w, f->player);
		w_like(w, f->player);
		for (int i = 0; i < 4; i++)
			w_key(w, f->player);
	}
	if (f->own_moves && f->player) {
		w_add(w, "((a.side = 'black' AND g.black LIKE ? ESCAPE '\\') OR (a.side = 'white' AND g.white LIKE ? ESCAPE '\\'))");
		w_like(w, f->player);
		w_like(w, f->player);
	}
	if (f->own_moves && f->black && !f->white)
		w_add(w, "a.side = 'black'");
	if (f->own_moves && f->white && !f->black)
		w_add(w, "a.side = 'white'");
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
	} else if (!f->copies) {
		w_add(w, "g.copy_of IS NULL");
	}
	if (f->shard_n > 1) {
		w_add(w, "g.id % ? = ?");
		w_int(w, f->shard_n);
		w_int(w, f->shard_k - 1);
	}
	if (f->gametype > 0 || f->opening_set) {
		/* ordinals index the move lists of one variant's rules */
		w_add(w, "g.gametype = ?");
		w_int(w, f->gametype > 0 ? f->gametype : 21);
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
		{ "id", "g.id" }, { "date", "g.date_key" }, { "event", "g.event COLLATE PK_NATURAL" },
		{ "black", "g.black COLLATE PK_NATURAL" }, { "white", "g.white COLLATE PK_NATURAL" }, { "plies", "g.plies" },
		{ "result", "g.result" }, { "ply", "p.ply" },
	};
	for (size_t i = 0; o && i < sizeof cols / sizeof cols[0]; i++)
		if (strcmp(o, cols[i][0]) == 0)
			return cols[i][1];
	return NULL;
}

/* The hits go into the table HIT_MANY rows a statement. */
#define HIT_MANY 64

typedef struct {
	sqlite3_stmt *many, *one;
	int n;                  /* rows bound to `many` so far */
	bool failed;
	int64_t game[HIT_MANY];
	int ply[HIT_MANY];
} hit_writer;

static int add_hit(void *ctx, int64_t game, int ply)
{
	hit_writer *h = ctx;
	h->game[h->n] = game;
	h->ply[h->n++] = ply;
	if (h->n < HIT_MANY)
		return 0;
	for (int i = 0; i < HIT_MANY; i++) {
		sqlite3_bind_int64(h->many, 2 * i + 1, h->game[i]);
		sqlite3_bind_int(h->many, 2 * i + 2, h->ply[i]);
	}
	h->n = 0;
	int rc = sqlite3_step(h->many);
	sqlite3_reset(h->many);
	h->failed = rc != SQLITE_DONE;
	return h->failed;   /* stops the search */
}

/* The rows left, one a statement. */
static int flush_hits(hit_writer *h)
{
	for (int i = 0; i < h->n; i++) {
		sqlite3_bind_int64(h->one, 1, h->game[i]);
		sqlite3_bind_int(h->one, 2, h->ply[i]);
		int rc = sqlite3_step(h->one);
		sqlite3_reset(h->one);
		if (rc != SQLITE_DONE)
			return -1;
	}
	h->n = 0;
	return 0;
}

int st_position_join(pk_store *s, const pk_filter *f, char *join, size_t size)
{
	join[0] = 0;
	if (!f->position_set)
		return 0;
	/* one table for each query running (a callback may run another) */
	int k = s->hit_tables;
	char sql[160];
	snprintf(sql, sizeof sql, "CREATE TEMP TABLE IF NOT EXISTS pos_hit%d(game INTEGER PRIMARY KEY, ply INTEGER NOT NULL)", k);
	if (st_exec(s, sql) < 0)
		return -1;
	snprintf(sql, sizeof sql, "DELETE FROM temp.pos_hit%d", k);
	if (st_exec(s, sql) < 0)
		return -1;
	hit_writer h = { .n = 0 };
	char many[64 + HIT_MANY * 8];
	size_t len = (size_t)snprintf(many, sizeof many, "INSERT OR IGNORE INTO temp.pos_hit%d VALUES", k);
	for (int i = 0; i < HIT_MANY; i++)
		len += (size_t)snprintf(many + len, sizeof many - len, "%s(?,?)", i ? "," : "");
	snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO temp.pos_hit%d VALUES(?, ?)", k);
	if (st_prepare(s, &h.many, many) < 0 || st_prepare(s, &h.one, sql) < 0) {
		sqlite3_finalize(h.many);
		return -1;
	}
	int rc = st_position_games(s, f->position_key, add_hit, &h);
	if (rc == 0 && (h.failed || flush_hits(&h) < 0))
		rc = st_fail(s, "cannot note the games found");
	sqlite3_finalize(h.many);
	sqlite3_finalize(h.one);
	if (rc < 0)
		return -1;
	s->hit_tables++;
	/* Materialised (GROUP BY), the hits drive the join and each game is looked up by
	 * id: the planner has no statistics of the table and would scan every game
	 * probing it, or build a Bloom filter of every game for it. */
	snprintf(join, size, " JOIN (SELECT game, ply FROM temp.pos_hit%d GROUP BY game) p ON p.game = g.id", k);
	return 0;
}

void st_position_done(pk_store *s, const pk_filter *f)
{
	if (f->position_set && s->hit_tables > 0)
		s->hit_tables--;
}

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
	char sql[4096], join[128];
	if (st_position_join(s, f, join, sizeof join) < 0)
		return -1;
	snprintf(sql, sizeof sql,
		 "SELECT g.id, g.event, g.site, g.date, g.round, g.black, g.white, g.result, g.plies, g.status,"
		 " g.gametype, g.start, g.moves, g.movetext, %s, g.source_game FROM game g%s WHERE 1%s ORDER BY %s%s, g.id%s%s",
		 f->position_set ? "p.ply" : "-1", join, w.sql, order,
		 f->desc ? " DESC" : "", f->limit > 0 || f->offset > 0 ? " LIMIT " : "", "");
	if (f->limit > 0 || f->offset > 0) {
		size_t n = strlen(sql);
		snprintf(sql + n, sizeof sql - n, "%ld OFFSET %ld", f->limit > 0 ? f->limit : -1L, f->offset > 0 ? f->offset : 0L);
	}
	sqlite3_stmt *st;
	if (st_prepare(s, &st, sql) < 0) {
		st_position_done(s, f);
		return -1;
	}
	bind_where(st, &w, 1);
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
		st_fail(s, "query failed");
	sqlite3_finalize(st);
	st_position_done(s, f);
	return ok ? 0 : -1;
}

static int count_where(pk_store *s, const pk_filter *f, const char *extra, long *count);

int store_count(pk_store *s, const pk_filter *f, long *count) { return count_where(s, f, "", count); }

int store_count_annotated(pk_store *s, const pk_filter *f, long *count)
{
	return count_where(s, f, " AND EXISTS (SELECT 1 FROM annotated a WHERE a.game = g.id)", count);
}

static int count_where(pk_store *s, const pk_filter *f, const char *extra, long *count)
{
	where w;
	uint8_t succ[1024];
	if (f->opening_len > (int)sizeof succ)
		return -1;
	build_where(f, &w, succ);
	char sql[4096], join[128];
	if (st_position_join(s, f, join, sizeof join) < 0)
		return -1;
	snprintf(sql, sizeof sql, "SELECT count(*) FROM game g%s WHERE 1%s%s", join, w.sql, extra);
	sqlite3_stmt *st;
	if (st_prepare(s, &st, sql) < 0) {
		st_position_done(s, f);
		return -1;
	}
	bind_where(st, &w, 1);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*count = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st_position_done(s, f);
	return rc == SQLITE_ROW ? 0 : st_fail(s, "count failed");
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
	char sql[8192], clause[4096], join[128];
	if (st_position_join(s, f, join, sizeof join) < 0)
		return -1;
	snprintf(clause, sizeof clause, "%s WHERE 1%s", join, w.sql);
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
	if (st_prepare(s, &st, sql) < 0) {
		st_position_done(s, f);
		return -1;
	}
	/* Each %W takes its own copy of the values. */
	for (int u = 0; u < uses; u++)
		bind_where(st, &w, 1 + u * w.nb);
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
		st_fail(s, "query failed");
	sqlite3_finalize(st);
	st_position_done(s, f);
	return ok ? 0 : -1;
}

int store_tags(pk_store *s, int64_t id, int (*cb)(void *ctx, const char *name, const char *value), void *ctx)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT name, value FROM tag WHERE game = ? ORDER BY seq") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1)))
			break;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : st_fail(s, "cannot read tags");
}

static int tag_to_text(void *ctx, const char *name, const char *value)
{
	textbuf *t = ctx;
	st_text_sink(t, "[", 1);
	st_text_sink(t, name, strlen(name));
	st_text_sink(t, " \"", 2);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			st_text_sink(t, "\\", 1);
		st_text_sink(t, p, 1);
	}
	return st_text_sink(t, "\"]\n", 3);
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
	st_text_sink(&t, "\n", 1);
	if (row->movetext) {
		st_text_sink(&t, row->movetext, strlen(row->movetext));
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
			st_text_sink(&t, buf, strlen(buf));
			st_text_sink(&t, " ", 1);
			pk_pos next;
			pos_make(&pos, &ml.m[ord[i]], &next);
			pos = next;
		}
		free(ord);
		st_text_sink(&t, row->result, strlen(row->result));
	}
	st_text_sink(&t, "\n", 1);
	pk_reader *r = pdn_open_mem(t.p, t.n);
	int rc = r && pdn_read(r, g) == 1 && replay_game(g, rp) == 0 ? 0 : -1;
	pdn_close(r);
	free(t.p);
	if (rc < 0)
		snprintf(s->err, sizeof s->err, "game %lld cannot be read back", (long long)row->id);
	return rc;
}

/* Games of the same length and start whose moves differ in exactly one ply, compared
 * as written (from and to squares): a typo in one source. Each game's moves are
 * replayed once; a game is hashed by each half of its moves with its length, so that
 * two games one move apart share a hash (the half without the difference) and only the
 * games that share one are compared. English draughts only (other variants' games are
 * left out). */
typedef struct {
	uint64_t h;
	uint32_t game;                    /* index into the games read */
} half;

static int cmp_half(const void *a, const void *b)
{
	const half *x = a, *y = b;
	return x->h < y->h ? -1 : x->h > y->h ? 1 : x->game < y->game ? -1 : x->game > y->game;
}

/* Whether the headers of games a and b are those of one game (store_copy_compatible). */
static bool headers_fit(sqlite3_stmt *hd[2], int64_t a, int64_t b)
{
	sqlite3_bind_int64(hd[0], 1, a);
	sqlite3_bind_int64(hd[1], 1, b);
	bool fit = sqlite3_step(hd[0]) == SQLITE_ROW && sqlite3_step(hd[1]) == SQLITE_ROW &&
		   store_copy_compatible((const char *)sqlite3_column_text(hd[0], 0), (const char *)sqlite3_column_text(hd[0], 1),
					 sqlite3_column_int(hd[0], 2), (const char *)sqlite3_column_text(hd[0], 3),
					 (const char *)sqlite3_column_text(hd[1], 0), (const char *)sqlite3_column_text(hd[1], 1),
					 sqlite3_column_int(hd[1], 2), (const char *)sqlite3_column_text(hd[1], 3));
	sqlite3_reset(hd[0]);
	sqlite3_reset(hd[1]);
	return fit;
}

static int one_move_apart(pk_store *s, int min_plies,
			  int (*cb)(void *ctx, const char *kind, const int64_t *ids, int n, int plies), void *ctx)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT id, start, moves, plies FROM game WHERE status < 3 AND gametype = 21 AND plies >= ?"
			       " ORDER BY id") < 0)
		return -1;
	sqlite3_bind_int(st, 1, min_plies < 2 ? 2 : min_plies);
	int64_t *ids = NULL;
	uint64_t *starts = NULL;          /* the hash of the start (0: the initial position) */
	size_t *off = NULL, n = 0, cap = 0;
	uint16_t *sq = NULL;              /* every game's moves as from * 64 + to, one after another */
	size_t nsq = 0, sqcap = 0;
	int rc, fail = 0;
	int ord[1024];
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *start = (const char *)sqlite3_column_text(st, 1);
		pk_pos pos;
		if (start) {
			pk_fen_error fe;
			if (fen_parse(start, strlen(start), &pos, &fe) < 0)
				continue;
		} else {
			pos_start(&pos);
		}
		int k = store_decode_moves(sqlite3_column_blob(st, 2), sqlite3_column_bytes(st, 2), ord, 1024);
		if (k < 2)
			continue;
		if (n + 1 >= cap) {
			size_t c = cap ? cap * 2 : 4096;
			int64_t *a = realloc(ids, c * sizeof *a);
			uint64_t *b = a ? realloc(starts, c * sizeof *b) : NULL;
			size_t *o = b ? realloc(off, (c + 1) * sizeof *o) : NULL;
			if (a)
				ids = a;
			if (b)
				starts = b;
			if (!o) {
				fail = 1;
				break;
			}
			off = o;
			cap = c;
		}
		if (nsq + (size_t)k > sqcap) {
			size_t c = sqcap ? sqcap * 2 : 1 << 16;
			while (c < nsq + (size_t)k)
				c *= 2;
			uint16_t *p = realloc(sq, c * sizeof *p);
			if (!p) {
				fail = 1;
				break;
			}
			sq = p;
			sqcap = c;
		}
		size_t at = nsq;
		bool ok = true;
		for (int i = 0; i < k && ok; i++) {
			pk_movelist ml;
			gen_moves(&pos, &ml);
			if (ord[i] < 0 || ord[i] >= ml.n) {
				ok = false;
				break;
			}
			const pk_move *m = &ml.m[ord[i]];
			sq[at + (size_t)i] = (uint16_t)(m->from * 64 + m->land[m->nland - 1]);
			pk_pos next;
			pos_make(&pos, m, &next);
			pos = next;
		}
		if (!ok)
			continue;
		ids[n] = sqlite3_column_int64(st, 0);
		starts[n] = start ? fnv64(FNV64_INIT, start, strlen(start)) : 0;
		off[n] = at;
		nsq += (size_t)k;
		off[++n] = nsq;
	}
	sqlite3_finalize(st);
	if (!fail && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		free(ids), free(starts), free(off), free(sq);
		return st_fail(s, "cannot read the games to compare");
	}
	half *hv = !fail && n ? malloc(2 * n * sizeof *hv) : NULL;
	if (fail || (n && !hv)) {
		free(ids), free(starts), free(off), free(sq), free(hv);
		snprintf(s->err, sizeof s->err, "out of memory");
		return -1;
	}
	for (size_t g = 0; g < n; g++) {
		size_t len = off[g + 1] - off[g], mid = len / 2;
		uint64_t h0 = fnv64(starts[g] ^ (uint64_t)len * 0x9E3779B97F4A7C15ull, "a", 1);
		uint64_t h1 = fnv64(starts[g] ^ (uint64_t)len * 0x9E3779B97F4A7C15ull, "b", 1);
		hv[2 * g] = (half){ fnv64(h0, sq + off[g], mid * sizeof *sq), (uint32_t)g };
		hv[2 * g + 1] = (half){ fnv64(h1, sq + off[g] + mid, (len - mid) * sizeof *sq), (uint32_t)g };
	}
	if (n)
		qsort(hv, 2 * n, sizeof *hv, cmp_half);
	sqlite3_stmt *hd[2] = { NULL, NULL };
	for (int i = 0; i < 2; i++)
		if (st_prepare(s, &hd[i], "SELECT black_key, white_key, coalesce(date_key, 0), result FROM game WHERE id = ?") < 0) {
			sqlite3_finalize(hd[0]);
			free(ids), free(starts), free(off), free(sq), free(hv);
			return -1;
		}
	int stop = 0;
	for (size_t i = 0; i < 2 * n && !stop;) {
		size_t j = i;
		while (j < 2 * n && hv[j].h == hv[i].h)
			j++;
		/* the games sharing this half, pair by pair (a set of more than 4096 is a
		 * common short line, not copies of one game: left out) */
		for (size_t a = i; a < j && j - i <= 4096 && !stop; a++)
			for (size_t b = a + 1; b < j && !stop; b++) {
				uint32_t x = hv[a].game, y = hv[b].game;
				size_t len = off[x + 1] - off[x];
				if (off[y + 1] - off[y] != len || starts[x] != starts[y])
					continue;
				int diff = 0, at = -1;
				for (size_t p = 0; p < len && diff < 2; p++)
					if (sq[off[x] + p] != sq[off[y] + p]) {
						diff++;
						at = (int)p;
					}
				if (diff != 1)
					continue;
				/* found once: the two share only the half without the difference;
				 * listed when their headers can be those of one game (two players
				 * who followed the same published line are not a typo) */
				if (!headers_fit(hd, ids[x], ids[y]))
					continue;
				int64_t pair[3] = { ids[x], ids[y], at + 1 };
				stop = cb(ctx, "one-move", pair, 3, (int)len);
			}
		i = j;
	}
	sqlite3_finalize(hd[0]);
	sqlite3_finalize(hd[1]);
	free(ids), free(starts), free(off), free(sq), free(hv);
	return 0;
}

int store_duplicates(pk_store *s, int min_plies,
		     int (*cb)(void *ctx, const char *kind, const int64_t *ids, int n, int plies), void *ctx)
{
	sqlite3_stmt *st;
	/* Same start and moves under different headers. */
	if (st_prepare(s, &st,
		    "SELECT group_concat(id), plies FROM (SELECT id, gametype, start, moves, plies FROM game"
		    " WHERE status < 3 AND plies > 0 ORDER BY id) GROUP BY gametype, coalesce(start, ''), moves"
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
		return st_fail(s, "duplicate search failed");

	/* Games whose moves begin a longer game's (same start). */
	sqlite3_stmt *all, *longer;
	if (st_prepare(s, &all, "SELECT id, start, moves, plies, gametype FROM game WHERE status < 3 AND plies >= ?"
			       " ORDER BY id") < 0)
		return -1;
	if (st_prepare(s, &longer,
		    "SELECT id, plies FROM game WHERE start IS ? AND moves > ? AND moves < ? AND plies > ?"
		    " AND status < 3 AND gametype = ? ORDER BY id") < 0) {
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
		/* start IS ?: the index on (start, moves) finds the longer games by a range */
		if (sqlite3_column_type(all, 1) == SQLITE_NULL)
			sqlite3_bind_null(longer, 1);
		else
			sqlite3_bind_text(longer, 1, (const char *)sqlite3_column_text(all, 1), -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(longer, 2, m, n, SQLITE_TRANSIENT);
		sqlite3_bind_blob(longer, 3, succ, k, SQLITE_TRANSIENT);
		sqlite3_bind_int(longer, 4, plies);
		sqlite3_bind_int(longer, 5, sqlite3_column_int(all, 4));
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
	if (stop)
		return 0;
	return one_move_apart(s, min_plies, cb, ctx);
}

