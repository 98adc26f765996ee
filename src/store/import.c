/* Import: games, tags, findings and the position index, in batches of transactions. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"
#include "base/hash.h"
#include "pdn/pdn_write.h"
#include "rules/fen.h"

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
static char *movetext_of(const pk_game *g, const pk_replay *rp)
{
	/* Write the game without tags: a copy with no tags keeps the writer's output to
	 * the move text. */
	pk_game copy = *g;
	copy.ntags = 0;
	pk_write_opts o = { .full_jumps = false, .width = 80, .verbatim_tags = true };
	textbuf t = { 0 };
	if (pdn_write_game(&copy, rp, &o, st_text_sink, &t) < 0) {
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

/* The statement that inserts k tags (1 .. TAG_MANY), prepared when first needed. */
static sqlite3_stmt *tag_statement(pk_store *s, int k)
{
	if (!s->ins_tags[k - 1]) {
		char sql[64 + TAG_MANY * 10];
		size_t n = (size_t)snprintf(sql, sizeof sql, "INSERT INTO tag VALUES");
		for (int i = 0; i < k; i++)
			n += (size_t)snprintf(sql + n, sizeof sql - n, "%s(?,?,?,?)", i ? "," : "");
		if (st_prepare(s, &s->ins_tags[k - 1], sql) < 0)
			return NULL;
	}
	return s->ins_tags[k - 1];
}

int store_begin_import(pk_store *s, const char *source_path, bool positions)
{
	s->positions = positions;
	s->pending = 0;
	s->npos = 0;
	s->unindexed = 0;
	if (st_prepare(s, &s->ins_game,
		    "INSERT INTO game(source, source_game, source_offset, event, site, date, round, black, white,"
		    " result, black_key, white_key, date_key, gametype, start, plies, moves, movetext, status,"
		    " fingerprint, copy_of) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)") < 0 ||
	    st_prepare(s, &s->ins_finding, "INSERT INTO finding VALUES(?,?,?,?,?,?,?,?,?)") < 0 ||
	    st_prepare(s, &s->find_dup, "SELECT id FROM game WHERE fingerprint = ?") < 0 ||
	    st_prepare(s, &s->find_copy, st_find_copy_sql) < 0)
		return -1;
	if (st_load_aliases(s) < 0 || st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	s->importing = true;
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "INSERT INTO source(path, imported) VALUES(?, datetime('now'))") < 0)
		return -1;
	sqlite3_bind_text(st, 1, source_path, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return st_fail(s, "cannot record the source file");
	s->source = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/* The batch's positions into the index (store/posindex.c). */
static int flush_positions(pk_store *s)
{
	if (s->npos > 0 && st_index_rows(s, s->pos, s->npos) < 0)
		return -1;
	s->npos = 0;
	if (s->unindexed) {
		/* Games without positions are counted in the same transaction, so that a
		 * position search can say what it cannot see. */
		char sql[160];
		snprintf(sql, sizeof sql, "INSERT INTO meta VALUES('unindexed', %ld) ON CONFLICT(key) DO UPDATE "
			 "SET value = CAST(value AS INTEGER) + %ld", s->unindexed, s->unindexed);
		if (st_exec(s, sql) < 0)
			return -1;
		s->unindexed = 0;
	}
	return 0;
}

static int commit_batch(pk_store *s)
{
	if (flush_positions(s) < 0 || st_exec(s, "COMMIT") < 0)
		return -1;
	s->committed += s->pending;
	s->pending = 0;
	return st_exec(s, "BEGIN IMMEDIATE");
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
	/* A game of another variant keeps its ordinals into vgen()'s lists and its
	 * positions' vpos_key; its fingerprint is made as for a game not replayed (from its
	 * move text), so that imports before and after variants were stored agree. */
	const pk_vreplay *vr = rp->variant_replayed ? &rp->vr : NULL;
	int plies = vr ? vr->plies : rp->nply;
	uint8_t *moves = malloc((size_t)plies * 3 + 1);
	if (!moves)
		return snprintf(s->err, sizeof s->err, "out of memory"), -1;
	int nmoves = vr ? store_encode_ordinals(vr->ord, plies, moves, plies * 3 + 1) :
			  store_encode_moves(rp, moves, plies * 3 + 1);
	char start[PK_FEN_STRLEN], vstart[VAR_FEN_STRLEN];
	bool custom = rp->custom_start;
	if (custom)
		fen_format(&rp->start, start, sizeof start);
	if (vr && vr->custom_start)
		vfen_format_as(&vr->start, true, vstart, sizeof vstart);   /* the column keeps numbers */
	char *movetext = plain_game(g, rp) ? NULL : movetext_of(g, rp);

	const char *event = game_tag(g, "Event"), *site = game_tag(g, "Site"), *date = game_tag(g, "Date");
	const char *round = game_tag(g, "Round"), *black = game_tag(g, "Black"), *white = game_tag(g, "White");
	uint64_t fp = FNV64_INIT;
	fp = fnv_str(fp, custom ? start : NULL);
	/* another variant's set-up (its FEN as read when it does not read): two games of
	 * the same moves from different set-ups are different games */
	if (vr && (vr->custom_start || vr->bad_start))
		fp = fnv_str(fp, vr->bad_start ? game_tag(g, "FEN") : vstart);
	fp = fnv(fp, moves, vr ? 0 : (size_t)nmoves);
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
		st_fail(s, "cannot look for duplicates");
		goto out;
	}

	char bkey[256], wkey[256];
	st_player_key(s, black ? black : "", bkey, sizeof bkey);
	st_player_key(s, white ? white : "", wkey, sizeof wkey);
	int32_t dkey = store_date_key(date);
	int status = !rp->supported && !vr ? STATUS_NOT_REPLAYED : g->findings.errors ? STATUS_ERRORS :
		     g->findings.warnings ? STATUS_WARNINGS : STATUS_VALID;
	/* The same game from another source: found by the index on (start, moves), in
	 * a time that does not grow with the store. */
	const char *stored_start = custom ? start : vr && vr->custom_start ? vstart : NULL;
	int64_t copy_of = 0;
	if (status != STATUS_NOT_REPLAYED && plies > 0) {
		st_game_head h = { .start = stored_start, .gametype = rp->variant, .moves = moves, .nmoves = nmoves,
				   .bkey = black ? bkey : NULL, .wkey = white ? wkey : NULL, .result = result_string(rp->result),
				   .event = event, .round = round, .date = dkey };
		if (st_find_copy(s, s->find_copy, &h, INT64_MAX, NULL, 0, &copy_of) < 0)
			goto out;
		if (copy_of && s->copies == COPIES_SKIP) {
			*outcome = STORE_COPY_SKIPPED;
			rc = 0;
			goto out;
		}
	}
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
	bind_text_or_null(st, 15, stored_start);
	sqlite3_bind_int(st, 16, plies);
	sqlite3_bind_blob(st, 17, moves, nmoves, SQLITE_TRANSIENT);
	bind_text_or_null(st, 18, movetext);
	sqlite3_bind_int(st, 19, status);
	sqlite3_bind_int64(st, 20, (int64_t)fp);
	if (copy_of && s->copies == COPIES_MARK)
		sqlite3_bind_int64(st, 21, copy_of);
	else
		sqlite3_bind_null(st, 21);
	step = sqlite3_step(st);
	sqlite3_reset(st);
	if (step != SQLITE_DONE) {
		st_fail(s, "cannot store a game");
		goto out;
	}
	int64_t id = sqlite3_last_insert_rowid(s->db);

	/* Tags in canonical order: the seven-tag roster, then the rest as read; up to
	 * TAG_MANY rows a statement. */
	{
		int small[64], *order = g->ntags <= 64 ? small : malloc((size_t)g->ntags * sizeof *order);
		if (!order) {
			snprintf(s->err, sizeof s->err, "out of memory");
			goto out;
		}
		int n = 0;
		for (int pass = 0; pass < 8; pass++)
			for (int i = 0; i < g->ntags; i++) {
				const char *name = game_str(g, g->tags[i].name);
				int rank = 7;
				for (int k = 0; k < 7 && rank == 7; k++)
					if (in_roster_order(name, k))
						rank = k;
				if (rank == pass)
					order[n++] = i;
			}
		int fail = 0;
		for (int done = 0; done < n && !fail;) {
			int k = n - done < TAG_MANY ? n - done : TAG_MANY;
			sqlite3_stmt *q = tag_statement(s, k);
			if (!q) {
				fail = 1;
				break;
			}
			for (int j = 0; j < k; j++) {
				int i = order[done + j];
				sqlite3_bind_int64(q, 4 * j + 1, id);
				sqlite3_bind_int(q, 4 * j + 2, done + j);
				sqlite3_bind_text(q, 4 * j + 3, game_str(g, g->tags[i].name), -1, SQLITE_STATIC);
				sqlite3_bind_text(q, 4 * j + 4, game_str(g, g->tags[i].value), -1, SQLITE_STATIC);
			}
			step = sqlite3_step(q);
			sqlite3_reset(q);
			if (step != SQLITE_DONE) {
				st_fail(s, "cannot store a tag");
				fail = 1;
			}
			done += k;
		}
		if (order != small)
			free(order);
		if (fail)
			goto out;
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
			st_fail(s, "cannot store a finding");
			goto out;
		}
	}
	if (!s->positions && (rp->supported || vr))
		s->unindexed++;
	if (s->positions && vr && vr->key) {   /* no keys when its FEN does not read */
		for (int i = 0; i <= plies; i++)
			if (add_position(s, vr->key[i], id, i) < 0)
				goto out;
	} else if (s->positions && rp->supported) {
		if (add_position(s, rp->start.key, id, 0) < 0)
			goto out;
		for (int i = 0; i < rp->nply; i++)
			if (add_position(s, rp->plies[i].after.key, id, i + 1) < 0)
				goto out;
	}
	*outcome = !copy_of ? STORE_ADDED : s->copies == COPIES_MARK ? STORE_COPY_MARKED : STORE_COPY_KEPT;
	rc = 0;
	/* A batch ends where a part of the position index ends: a part of a new store is
	 * then written by one batch, its rows in one sorted run. */
	if (++s->pending >= BATCH_GAMES || ((id + 1) & ((1 << PART_BITS) - 1)) == 0)
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
			rc = st_exec(s, "COMMIT");
		if (rc == 0) {
			s->committed += s->pending;
		} else if (!sqlite3_get_autocommit(s->db)) {
			/* SQLite may have rolled back already (a full disk); the first error stays
			 * the one reported. */
			char keep[sizeof s->err];
			memcpy(keep, s->err, sizeof keep);
			st_exec(s, "ROLLBACK");
			memcpy(s->err, keep, sizeof keep);
		}
		s->pending = 0;
		s->importing = false;
	}
	st_finalize_import(s);
	if (rc == 0)
		st_exec(s, "PRAGMA optimize");
	return rc;
}

long store_games_committed(const pk_store *s) { return s->committed; }

void store_abort_import(pk_store *s)
{
	if (s->importing && !sqlite3_get_autocommit(s->db)) {
		char keep[sizeof s->err];
		memcpy(keep, s->err, sizeof keep);
		st_exec(s, "ROLLBACK");
		memcpy(s->err, keep, sizeof keep);
	}
	s->pending = 0;
	s->npos = 0;
	s->importing = false;
	st_finalize_import(s);
}
