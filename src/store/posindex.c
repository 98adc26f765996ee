/* The position index: for each part of the games (PART_BITS of game numbers), the keys of
 * the positions its games reach, sorted, in blocks of about BLOCK_BYTES, a row of
 * position_block each (pdnkit-db(5)). A block lists its keys in order, each with the
 * games of the part that reach it and the first ply they do: far fewer rows than one
 * per game and position, which is what an import pays for. A search reads one block per
 * part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/internal.h"

#define BLOCK_BYTES 3000
/* Keys are stored as SQLite's signed integers, so blocks are in signed order: keys are
 * compared and their differences taken as key ^ SIGN, unsigned. */
#define SIGN 0x8000000000000000ull

static size_t put_varint(uint8_t *b, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	return n;
}

/* 0, or -1 when the bytes end inside a number or it is longer than 64 bits. */
static int get_varint(const uint8_t *b, size_t len, size_t *at, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; *at < len && shift < 64; shift += 7) {
		uint8_t c = b[(*at)++];
		x |= (uint64_t)(c & 0x7F) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* A block read key by key: blk_key gives the next key and its number of games (1, or 0
 * at the end, -1 when damaged), blk_game each of those games in turn (0 or -1). */
typedef struct {
	const uint8_t *b;
	size_t len, at;
	uint64_t uk;            /* the key read last, as key ^ SIGN */
	bool started;
} blk;

static blk blk_open(uint64_t first, const uint8_t *b, size_t len)
{
	return (blk){ .b = b, .len = len, .uk = first ^ SIGN };
}

static int blk_key(blk *r, uint64_t *games)
{
	if (r->at >= r->len)
		return 0;
	uint64_t d;
	if (get_varint(r->b, r->len, &r->at, &d) < 0 || get_varint(r->b, r->len, &r->at, games) < 0 || *games == 0 ||
	    *games > r->len || (r->started ? d == 0 : d != 0))
		return -1;   /* the first key is the block's first; later ones grow */
	r->started = true;
	r->uk += d;
	return 1;
}

static int blk_game(blk *r, uint64_t *off, uint64_t *ply)
{
	return get_varint(r->b, r->len, &r->at, off) < 0 || get_varint(r->b, r->len, &r->at, ply) < 0 || *off >> PART_BITS ||
		       *ply > INT32_MAX ? -1 : 0;
}

/* Stable LSD radix sort of rows by key in the index's order, 16 bits a pass: rows of one
 * key keep the order they had (game, then ply). */
static int sort_rows(pk_store *s, posrow *rows, size_t n)
{
	if (n < 2)
		return 0;
	posrow *tmp = malloc(n * sizeof *tmp);
	size_t *count = malloc(65536 * sizeof *count);
	if (!tmp || !count) {
		free(tmp);
		free(count);
		snprintf(s->err, sizeof s->err, "out of memory");
		return -1;
	}
	posrow *a = rows, *b = tmp;
	for (int shift = 0; shift < 64; shift += 16) {
		memset(count, 0, 65536 * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[((a[i].key ^ SIGN) >> shift) & 0xFFFF]++;
		size_t sum = 0;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[((a[i].key ^ SIGN) >> shift) & 0xFFFF]++] = a[i];
		posrow *t = a;
		a = b;
		b = t;
	}
	/* Four passes: the sorted rows are back in rows. */
	free(tmp);
	free(count);
	return 0;
}

static int put_block(pk_store *s, sqlite3_stmt *ins, int64_t part, uint64_t first, const uint8_t *b, size_t n)
{
	sqlite3_bind_int64(ins, 1, part);
	sqlite3_bind_int64(ins, 2, (int64_t)first);
	sqlite3_bind_blob(ins, 3, b, (int)n, SQLITE_STATIC);
	int rc = sqlite3_step(ins);
	sqlite3_reset(ins);
	return rc == SQLITE_DONE ? 0 : st_fail(s, "cannot store positions");
}

/* The blocks of one part from rows sorted by key (then game, then ply); a game's first
 * ply of a key only. */
static int write_part(pk_store *s, int64_t part, const posrow *rows, size_t n)
{
	sqlite3_stmt *ins;
	if (st_prepare(s, &ins, "INSERT INTO position_block VALUES(?,?,?)") < 0)
		return -1;
	int64_t base = part << PART_BITS;
	/* a key's games may be many (the start position): the buffer grows */
	size_t cap = BLOCK_BYTES + 64, len = 0;
	uint8_t *buf = malloc(cap);
	int rc = buf ? 0 : -1;
	if (!buf)
		snprintf(s->err, sizeof s->err, "out of memory");
	uint64_t first = 0, prev = 0;
	for (size_t i = 0; i < n && rc == 0;) {
		size_t j = i;
		size_t games = 0;
		for (; j < n && rows[j].key == rows[i].key; j++)
			games += j == i || rows[j].game != rows[j - 1].game;
		if (len > 0 && len >= BLOCK_BYTES) {
			rc = put_block(s, ins, part, first, buf, len);
			len = 0;
		}
		size_t need = len + 20 + 20 * games;
		if (need > cap) {
			uint8_t *nb = realloc(buf, need);
			if (!nb) {
				snprintf(s->err, sizeof s->err, "out of memory");
				rc = -1;
				break;
			}
			buf = nb;
			cap = need;
		}
		uint64_t uk = rows[i].key ^ SIGN;
		if (len == 0)
			first = rows[i].key, prev = uk;
		len += put_varint(buf + len, uk - prev);
		len += put_varint(buf + len, games);
		for (size_t k = i; k < j; k++)
			if (k == i || rows[k].game != rows[k - 1].game) {
				len += put_varint(buf + len, (uint64_t)(rows[k].game - base));
				len += put_varint(buf + len, (uint64_t)rows[k].ply);
			}
		prev = uk;
		i = j;
	}
	if (rc == 0 && len > 0)
		rc = put_block(s, ins, part, first, buf, len);
	free(buf);
	sqlite3_finalize(ins);
	return rc;
}

/* Every (key, game, first ply) of a block appended to *rows; -1 on a damaged block. */
static int decode_block(pk_store *s, int64_t part, uint64_t first, const uint8_t *b, size_t len, posrow **rows,
			size_t *n, size_t *cap)
{
	blk r = blk_open(first, b, len);
	int64_t base = part << PART_BITS;
	uint64_t games, off, ply;
	int k;
	while ((k = blk_key(&r, &games)) > 0) {
		for (uint64_t g = 0; g < games; g++) {
			if (blk_game(&r, &off, &ply) < 0)
				goto bad;
			if (*n == *cap) {
				size_t nc = *cap ? *cap * 2 : 65536;
				posrow *nr = realloc(*rows, nc * sizeof *nr);
				if (!nr) {
					snprintf(s->err, sizeof s->err, "out of memory");
					return -1;
				}
				*rows = nr;
				*cap = nc;
			}
			(*rows)[(*n)++] = (posrow){ r.uk ^ SIGN, base + (int64_t)off, (int32_t)ply };
		}
	}
	if (k == 0)
		return 0;
bad:
	snprintf(s->err, sizeof s->err, "a damaged block of the position index (part %lld)", (long long)part);
	return -1;
}

static int index_part(pk_store *s, int64_t part, posrow *rows, size_t n)
{
	/* A part that has blocks already (games added to a store whose last part was not
	 * full) is read back, merged and written again: at most one part's work. */
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT first, data FROM position_block WHERE part = ? ORDER BY first") < 0)
		return -1;
	sqlite3_bind_int64(st, 1, part);
	posrow *all = NULL;
	size_t nall = 0, cap = 0;
	int rc, bad = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !bad)
		bad = decode_block(s, part, (uint64_t)sqlite3_column_int64(st, 0), sqlite3_column_blob(st, 1),
				   (size_t)sqlite3_column_bytes(st, 1), &all, &nall, &cap) < 0;
	sqlite3_finalize(st);
	if (bad || (rc != SQLITE_DONE && rc != SQLITE_ROW)) {
		free(all);
		return bad ? -1 : st_fail(s, "cannot read the position index");
	}
	if (nall == 0) {
		free(all);
		return sort_rows(s, rows, n) < 0 ? -1 : write_part(s, part, rows, n);
	}
	/* the stored rows first: within a key their games come before the new ones */
	if (nall + n > cap) {
		posrow *r = realloc(all, (nall + n) * sizeof *r);
		if (!r) {
			free(all);
			snprintf(s->err, sizeof s->err, "out of memory");
			return -1;
		}
		all = r;
	}
	memcpy(all + nall, rows, n * sizeof *rows);
	char sql[96];
	snprintf(sql, sizeof sql, "DELETE FROM position_block WHERE part = %lld", (long long)part);
	int r = sort_rows(s, all, nall + n) < 0 || st_exec(s, sql) < 0 ? -1 : write_part(s, part, all, nall + n);
	free(all);
	return r;
}

int st_index_rows(pk_store *s, posrow *rows, size_t n)
{
	/* rows come in game order, so each part's are one run */
	for (size_t i = 0; i < n;) {
		int64_t part = rows[i].game >> PART_BITS;
		size_t j = i;
		while (j < n && rows[j].game >> PART_BITS == part)
			j++;
		if (index_part(s, part, rows + i, j - i) < 0)
			return -1;
		i = j;
	}
	return 0;
}

int st_position_games(pk_store *s, uint64_t key, int (*cb)(void *ctx, int64_t game, int ply), void *ctx)
{
	/* The parts that have blocks, one seek each to the next (never a count up to the
	 * largest number a damaged or hostile file could hold), then the block. */
	sqlite3_stmt *nx, *st;
	if (st_prepare(s, &nx, "SELECT min(part) FROM position_block WHERE part >= ?") < 0)
		return -1;
	if (st_prepare(s, &st, "SELECT first, data FROM position_block WHERE part = ?1 AND first <= ?2 ORDER BY first DESC LIMIT 1") < 0) {
		sqlite3_finalize(nx);
		return -1;
	}
	uint64_t want = key ^ SIGN;
	int rc = 0;
	for (int64_t part = INT64_MIN; rc == 0; part++) {
		sqlite3_bind_int64(nx, 1, part);
		int r = sqlite3_step(nx);
		bool more = r == SQLITE_ROW && sqlite3_column_type(nx, 0) != SQLITE_NULL;
		if (more)
			part = sqlite3_column_int64(nx, 0);
		sqlite3_reset(nx);
		if (r != SQLITE_ROW) {
			rc = st_fail(s, "cannot read the position index");
			break;
		}
		if (!more)
			break;
		if (part < 0 || part > INT64_MAX >> PART_BITS) {
			snprintf(s->err, sizeof s->err, "a damaged block of the position index (part %lld)", (long long)part);
			rc = -1;
			break;
		}
		sqlite3_bind_int64(st, 1, part);
		sqlite3_bind_int64(st, 2, (int64_t)key);
		r = sqlite3_step(st);
		if (r == SQLITE_ROW) {
			blk br = blk_open((uint64_t)sqlite3_column_int64(st, 0), sqlite3_column_blob(st, 1),
					  (size_t)sqlite3_column_bytes(st, 1));
			int64_t base = part << PART_BITS;
			uint64_t games, off, ply;
			int k = 0;
			while (rc == 0 && (k = blk_key(&br, &games)) > 0 && br.uk <= want) {
				for (uint64_t g = 0; g < games && rc == 0; g++) {
					if (blk_game(&br, &off, &ply) < 0)
						rc = -1;
					else if (br.uk == want && cb(ctx, base + (int64_t)off, (int)ply))
						rc = 1;
				}
				if (br.uk == want)
					break;
			}
			if (rc == 0 && k < 0)
				rc = -1;
			if (rc < 0)
				snprintf(s->err, sizeof s->err, "a damaged block of the position index (part %lld)", (long long)part);
		} else if (r != SQLITE_DONE) {
			rc = st_fail(s, "cannot read the position index");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(nx);
	sqlite3_finalize(st);
	return rc < 0 ? -1 : 0;
}

/* The old index (one row per game and position, up to schema version 3) made blocks. */
int st_migrate_positions(pk_store *s)
{
	/* A table with rowids and an index of (part, first): a search compares the small
	 * keys of the index only, never a block's bytes (a table WITHOUT ROWID keyed by
	 * them reads every block it compares, its overflow pages too). */
	if (st_exec(s, "CREATE TABLE position_block(part INTEGER NOT NULL, first INTEGER NOT NULL, data BLOB NOT NULL)") < 0 ||
	    st_exec(s, "CREATE UNIQUE INDEX position_block_key ON position_block(part, first)") < 0)
		return -1;
	sqlite3_stmt *st;
	/* ORDER BY the old primary key's order: SQLite's signed keys are the blocks' order */
	if (st_prepare(s, &st, "SELECT part, key, game, min(ply) FROM position GROUP BY part, key, game ORDER BY part, key, game") < 0)
		return -1;
	posrow *rows = NULL;
	size_t n = 0, cap = 0;
	int64_t part = -1;
	int rc, bad = 0;
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t p = sqlite3_column_int64(st, 0);
		int64_t game = sqlite3_column_int64(st, 2), ply = sqlite3_column_int64(st, 3);
		/* a row that cannot be one of the index's is refused before anything is kept
		 * (the whole migration is rolled back): migrated, it would break every later
		 * import and position search */
		if (p < 0 || game < (p << PART_BITS) || game - (p << PART_BITS) >= ((int64_t)1 << PART_BITS) || ply < 0 ||
		    ply > INT32_MAX || sqlite3_column_type(st, 1) != SQLITE_INTEGER) {
			snprintf(s->err, sizeof s->err,
				 "the old position index has a row that cannot be migrated (part %lld, game %lld, ply %lld): "
				 "the store is left as it was; such rows are deleted with sqlite3 FILE \"DELETE FROM position "
				 "WHERE part < 0 OR game < part * %d OR game >= (part + 1) * %d OR ply < 0\" (those positions "
				 "are then not found by --position)",
				 (long long)p, (long long)game, (long long)ply, 1 << PART_BITS, 1 << PART_BITS);
			bad = 1;
			break;
		}
		if (p != part && n > 0) {
			bad = write_part(s, part, rows, n) < 0;
			n = 0;
		}
		part = p;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			posrow *r = realloc(rows, nc * sizeof *r);
			if (!r) {
				snprintf(s->err, sizeof s->err, "out of memory");
				bad = 1;
				break;
			}
			rows = r;
			cap = nc;
		}
		rows[n++] = (posrow){ (uint64_t)sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_int(st, 3) };
	}
	sqlite3_finalize(st);
	if (!bad && rc != SQLITE_DONE)
		bad = st_fail(s, "cannot read the old position index") < 0;
	if (!bad && n > 0)
		bad = write_part(s, part, rows, n) < 0;
	free(rows);
	return bad ? -1 : st_exec(s, "DROP TABLE position");
}

int st_check_positions(pk_store *s, char *msg, size_t size)
{
	sqlite3_stmt *st;
	if (st_prepare(s, &st, "SELECT part, first, data FROM position_block ORDER BY part, first") < 0) {
		snprintf(msg, size, "%s", s->err);
		return -1;
	}
	int64_t part = -1;
	uint64_t last = 0;   /* the part's last key so far, as key ^ SIGN */
	bool any = false;
	long blocks = 0;
	const char *why = NULL;
	int rc;
	while (!why && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t p = sqlite3_column_int64(st, 0);
		blk r = blk_open((uint64_t)sqlite3_column_int64(st, 1), sqlite3_column_blob(st, 2),
				 (size_t)sqlite3_column_bytes(st, 2));
		blocks++;
		if (p != part) {
			part = p;
			any = false;
		}
		if (p < 0)
			why = "a negative part";
		else if (r.len == 0)
			why = "an empty block";
		uint64_t games, off = 0, ply;
		int k;
		while (!why && (k = blk_key(&r, &games)) != 0) {
			if (k < 0 || (any && r.uk <= last)) {
				why = k < 0 ? "a block that does not decode" : "keys out of order";
				break;
			}
			any = true;
			last = r.uk;
			for (uint64_t g = 0, prev = 0; !why && g < games; g++, prev = off)
				if (blk_game(&r, &off, &ply) < 0 || (g > 0 && off <= prev))
					why = "a block that does not decode, or a game twice under a key";
		}
	}
	sqlite3_finalize(st);
	if (why) {
		snprintf(msg, size, "position index: %s (part %lld, block %ld)", why, (long long)part, blocks);
		return -1;
	}
	if (rc != SQLITE_DONE) {
		snprintf(msg, size, "position index: %s", sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}
