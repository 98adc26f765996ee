/* Annotations by the engine: runs of settings, saving and reading back a game's
 * annotation, merging a shard's, and the blunders query. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"


int store_annotation_run(pk_store *s, const char *settings, const char *engine, int64_t *run)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "INSERT OR IGNORE INTO annotation_run(settings, engine, created)"
			    " VALUES(?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))") < 0)
		return -1;
	sqlite3_bind_text(st, 1, settings, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, engine, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, "cannot record the annotation settings");
	if (st_prepare(s, &st, "SELECT id FROM annotation_run WHERE settings = ?") < 0)
		return -1;
	sqlite3_bind_text(st, 1, settings, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : st_fail(s, "cannot read the annotation settings");
}

int store_best_run(pk_store *s, int64_t game, int64_t *run)
{
	sqlite3_stmt *st;
	*run = 0;
	if (st_prepare(s, &st, "SELECT " ST_BEST_RUN("?")) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*run = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : st_fail(s, "cannot read the annotations");
}

int store_is_annotated(pk_store *s, int64_t game, int64_t run, bool *done)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT 1 FROM annotated WHERE game = ? AND run = ?") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int64(st, 2, run);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return st_fail(s, "cannot read the annotations");
	*done = rc == SQLITE_ROW;
	return 0;
}

int store_load_annotation(pk_store *s, int64_t game, int64_t run, int (*cb)(void *ctx, const pk_annot_row *row),
			  void *ctx, int *decisive)
{
	sqlite3_stmt *st;
	*decisive = 0;
	if (st_prepare(s, &st, "SELECT ply, side, class, move, best, score_best, score_played, loss, depth, pv"
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
		return st_fail(s, "cannot read the annotations");
	if (st_prepare(s, &st, "SELECT decisive FROM annotated WHERE game = ? AND run = ?") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, game);
	sqlite3_bind_int64(st, 2, run);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*decisive = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : st_fail(s, "cannot read the annotations");
}

int store_save_annotation(pk_store *s, int64_t game, int64_t run, const pk_annot_row *rows, int n, int decisive)
{
	if (st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	sqlite3_stmt *del = NULL, *ins = NULL, *mark = NULL;
	int rc = -1;
	if (st_prepare(s, &del, "DELETE FROM annotation WHERE game = ? AND run = ?") < 0 ||
	    st_prepare(s, &ins, "INSERT INTO annotation VALUES(?,?,?,?,?,?,?,?,?,?,?,?)") < 0 ||
	    st_prepare(s, &mark, "INSERT OR REPLACE INTO annotated VALUES(?,?,?)") < 0)
		goto out;
	sqlite3_bind_int64(del, 1, game);
	sqlite3_bind_int64(del, 2, run);
	if (sqlite3_step(del) != SQLITE_DONE) {
		st_fail(s, "cannot replace an annotation");
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
			st_fail(s, "cannot store an annotation");
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
		st_fail(s, "cannot store an annotation");
		goto out;
	}
	rc = st_exec(s, "COMMIT");
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	sqlite3_finalize(mark);
	if (rc < 0) {
		char keep[sizeof s->err];
		memcpy(keep, s->err, sizeof keep);
		st_exec(s, "ROLLBACK");
		memcpy(s->err, keep, sizeof keep);
	}
	return rc;
}

int store_merge_annotations(pk_store *s, const char *other, long *games)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "ATTACH DATABASE ? AS other") < 0)
		return -1;
	sqlite3_bind_text(st, 1, other, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, "cannot open the other database");
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
		if (st_exec(s, steps[i]) < 0) {
			char keep[sizeof s->err];
			memcpy(keep, s->err, sizeof keep);
			st_exec(s, "ROLLBACK");
			st_exec(s, "DROP TABLE IF EXISTS temp.gmap");
			st_exec(s, "DROP TABLE IF EXISTS temp.rmap");
			st_exec(s, "DROP TABLE IF EXISTS temp.newg");
			st_exec(s, "DETACH DATABASE other");
			memcpy(s->err, keep, sizeof keep);
			return -1;
		}
	*games = 0;
	if (st_prepare(s, &st, "SELECT count(*) FROM temp.newg") == 0) {
		if (sqlite3_step(st) == SQLITE_ROW)
			*games = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	int r = st_exec(s, "COMMIT");
	st_exec(s, "DROP TABLE temp.gmap");
	st_exec(s, "DROP TABLE temp.rmap");
	st_exec(s, "DROP TABLE temp.newg");
	st_exec(s, "DETACH DATABASE other");
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
		 " AND a.run = " ST_BEST_RUN("a.game")
		 " ORDER BY a.loss DESC, g.id, a.ply LIMIT %ld",
		 min_loss, limit);
	blunder_ctx c = { cb, ctx };
	return store_select(s, sql, f, blunder_row, &c);
}

