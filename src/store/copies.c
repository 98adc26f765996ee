/* Copies: the same game from two sources (two collections that both hold a match, a
 * file imported under two names). The same variant, start, moves and result, and
 * headers that can be those of one game; the first stored is the original, the others
 * point to it (game.copy_of). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"

/* Whether the key (words separated by single spaces) holds the word w[0..n). */
static bool has_word(const char *key, const char *w, size_t n)
{
	for (const char *p = key; *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && memcmp(p, w, n) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* Two spellings of one player: one unknown, the same key, or a word of three letters or
 * more in common (the surname: "tinsley m f", "m tinsley", "marion tinsley"). */
static bool names_compatible(const char *a, const char *b)
{
	if (!a || !*a || !b || !*b || strcmp(a, b) == 0)
		return true;
	for (const char *p = a; *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len >= 3 && has_word(b, p, len))
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

bool store_copy_compatible(const char *bkey1, const char *wkey1, int32_t date1, const char *res1,
			   const char *bkey2, const char *wkey2, int32_t date2, const char *res2)
{
	if (strcmp(res1 ? res1 : "", res2 ? res2 : ""))
		return false;
	if (date1 / 10000 && date2 / 10000 && date1 / 10000 != date2 / 10000)
		return false;
	return names_compatible(bkey1, bkey2) && names_compatible(wkey1, wkey2);
}

/* Whether two games of the same start and variant are one: the same moves, or one's
 * moves the beginning of the other's (a source that stopped early) when the shorter has
 * COPY_PREFIX plies or more and the events are the same; the same result and headers
 * that fit either way. */
#define COPY_PREFIX 20

/* An event's name without a trailing "game N" (its base, of length *len) and N (0 when
 * it has none): "Newcastle 1863, game 8" is game 8 of "Newcastle 1863". */
static int game_number(const char *e, size_t *len)
{
	size_t n = e ? strlen(e) : 0;
	*len = n;
	size_t k = n;
	while (k > 0 && e[k - 1] >= '0' && e[k - 1] <= '9')
		k--;
	if (k == n || k < 5 || strncasecmp(e + k - 5, "game ", 5))
		return 0;
	size_t b = k - 5;
	while (b > 0 && (e[b - 1] == ' ' || e[b - 1] == ',' || e[b - 1] == '-'))
		b--;
	*len = b;
	long v = strtol(e + k, NULL, 10);   /* saturates on a number too long */
	return v > 1000000000L ? 1000000000 : (int)v;
}

/* Two games that their source tells apart: the same event with different game numbers
 * or rounds (a match can repeat a game move for move). */
static bool told_apart(const char *e1, const char *r1, const char *e2, const char *r2)
{
	size_t l1, l2;
	int g1 = game_number(e1, &l1), g2 = game_number(e2, &l2);
	if (l1 != l2 || (l1 && strncasecmp(e1, e2, l1)))
		return false;
	if (g1 && g2 && g1 != g2)
		return true;
	return r1 && r2 && *r1 && *r2 && strcmp(r1, "?") && strcmp(r2, "?") && strcmp(r1, r2);
}

static bool is_copy(const uint8_t *m1, int n1, const char *b1, const char *w1, int32_t d1, const char *r1,
		    const char *e1, const char *o1, const uint8_t *m2, int n2, const char *b2, const char *w2,
		    int32_t d2, const char *r2, const char *e2, const char *o2)
{
	if (told_apart(e1, o1, e2, o2))
		return false;
	int n = n1 < n2 ? n1 : n2;
	if (n1 != n2) {
		if (n < COPY_PREFIX || strcasecmp(e1 ? e1 : "", e2 ? e2 : ""))
			return false;
	}
	if (n > 0 && memcmp(m1, m2, (size_t)n))
		return false;
	return store_copy_compatible(b1, w1, d1, r1, b2, w2, d2, r2);
}

const char *const st_find_copy_sql =
	"SELECT id, black_key, white_key, coalesce(date_key, 0), result, moves, event, round FROM game"
	" WHERE start IS ?1 AND moves >= ?2 AND moves < ?3 AND gametype = ?4 AND status < 3 AND copy_of IS NULL"
	" AND id < ?5";   /* no ORDER BY: the lowest id is kept below, without a sort a lookup */

int st_find_copy(pk_store *s, sqlite3_stmt *fc, const st_game_head *h, int64_t below, const int64_t *marked,
		 size_t nmarked, int64_t *copy_of)
{
	*copy_of = 0;
	/* The range of the games that share the first COPY_PREFIX plies (or, for a short
	 * game, exactly its moves: the blobs from its own to itself followed by a 0). */
	uint8_t hi[COPY_PREFIX + 1];
	int k = h->nmoves < COPY_PREFIX ? h->nmoves : COPY_PREFIX;
	memcpy(hi, h->moves, (size_t)k);
	int nhi;
	if (h->nmoves < COPY_PREFIX) {
		hi[k] = 0;
		nhi = k + 1;
	} else {
		nhi = k;
		while (nhi > 0 && hi[nhi - 1] == 0xFF)
			nhi--;
		if (nhi == 0)
			return 0;
		hi[nhi - 1]++;
	}
	if (h->start)
		sqlite3_bind_text(fc, 1, h->start, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(fc, 1);
	sqlite3_bind_blob(fc, 2, h->moves, k, SQLITE_TRANSIENT);
	sqlite3_bind_blob(fc, 3, hi, nhi, SQLITE_TRANSIENT);
	sqlite3_bind_int(fc, 4, h->gametype);
	sqlite3_bind_int64(fc, 5, below);
	int step;
	while ((step = sqlite3_step(fc)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(fc, 0);
		/* marked by this pass and not yet written: not an original */
		size_t lo = 0, up = nmarked;
		while (lo < up) {
			size_t mid = (lo + up) / 2;
			if (marked[mid] < id)
				lo = mid + 1;
			else
				up = mid;
		}
		if (lo < nmarked && marked[lo] == id)
			continue;
		if (is_copy(h->moves, h->nmoves, h->bkey, h->wkey, h->date, h->result, h->event, h->round,
			    sqlite3_column_blob(fc, 5), sqlite3_column_bytes(fc, 5), (const char *)sqlite3_column_text(fc, 1),
			    (const char *)sqlite3_column_text(fc, 2), sqlite3_column_int(fc, 3),
			    (const char *)sqlite3_column_text(fc, 4), (const char *)sqlite3_column_text(fc, 6),
			    (const char *)sqlite3_column_text(fc, 7))) {
			if (!*copy_of || id < *copy_of)
				*copy_of = id;   /* the earliest original */
		}
	}
	sqlite3_reset(fc);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return st_fail(s, "cannot look for copies");
	return 0;
}

/* In id order, each game not marked that is a copy of an earlier original is marked;
 * the marks are written at the end (the ids marked, in order, say which games are no
 * longer originals meanwhile). */
int st_mark_copies(pk_store *s, long *marked)
{
	*marked = 0;
	sqlite3_stmt *all, *fc, *up;
	if (st_prepare(s, &all,
		       "SELECT id, black_key, white_key, coalesce(date_key, 0), result, moves, event, start, gametype, round"
		       " FROM game WHERE status < 3 AND plies > 0 AND copy_of IS NULL ORDER BY id") < 0)
		return -1;
	if (st_prepare(s, &fc, st_find_copy_sql) < 0) {
		sqlite3_finalize(all);
		return -1;
	}
	int64_t *marks = NULL;        /* pairs: the copy, its original */
	int64_t *ids = NULL;          /* the copies, in order */
	size_t n = 0, cap = 0;
	int rc, fail = 0;
	while (!fail && (rc = sqlite3_step(all)) == SQLITE_ROW) {
		st_game_head h = {
			.bkey = (const char *)sqlite3_column_text(all, 1),
			.wkey = (const char *)sqlite3_column_text(all, 2),
			.date = sqlite3_column_int(all, 3),
			.result = (const char *)sqlite3_column_text(all, 4),
			.moves = sqlite3_column_blob(all, 5),
			.nmoves = sqlite3_column_bytes(all, 5),
			.event = (const char *)sqlite3_column_text(all, 6),
			.start = (const char *)sqlite3_column_text(all, 7),
			.gametype = sqlite3_column_int(all, 8),
			.round = (const char *)sqlite3_column_text(all, 9),
		};
		int64_t id = sqlite3_column_int64(all, 0), orig;
		if (h.nmoves <= 0)
			continue;
		if (st_find_copy(s, fc, &h, id, ids, n, &orig) < 0) {
			fail = 2;
			break;
		}
		if (!orig)
			continue;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 1024;
			int64_t *p = realloc(marks, 2 * c * sizeof *p), *q = p ? realloc(ids, c * sizeof *q) : NULL;
			if (p)
				marks = p;
			if (!p || !q) {
				fail = 1;
				break;
			}
			ids = q;
			cap = c;
		}
		marks[2 * n] = id;
		marks[2 * n + 1] = orig;
		ids[n++] = id;
	}
	sqlite3_finalize(all);
	sqlite3_finalize(fc);
	free(ids);
	if (fail || (rc != SQLITE_ROW && rc != SQLITE_DONE)) {
		free(marks);
		if (fail == 1)
			snprintf(s->err, sizeof s->err, "out of memory");
		return fail == 2 ? -1 : fail ? -1 : st_fail(s, "cannot read the games to find copies");
	}
	if (st_prepare(s, &up, "UPDATE game SET copy_of = ? WHERE id = ?") < 0) {
		free(marks);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_int64(up, 1, marks[2 * i + 1]);
		sqlite3_bind_int64(up, 2, marks[2 * i]);
		rc = sqlite3_step(up);
		sqlite3_reset(up);
		if (rc != SQLITE_DONE) {
			sqlite3_finalize(up);
			free(marks);
			return st_fail(s, "cannot mark a copy");
		}
	}
	sqlite3_finalize(up);
	*marked = (long)n;
	free(marks);
	return 0;
}

int store_mark_copies(pk_store *s, long *marked)
{
	if (st_exec(s, "BEGIN IMMEDIATE") < 0)
		return -1;
	if (st_mark_copies(s, marked) < 0) {
		char keep[sizeof s->err];
		memcpy(keep, s->err, sizeof keep);
		st_exec(s, "ROLLBACK");
		memcpy(s->err, keep, sizeof keep);
		return -1;
	}
	return st_exec(s, "COMMIT");
}

void store_set_copies(pk_store *s, int mode) { s->copies = mode; }
