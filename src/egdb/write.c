/* Writing slice files: codes to the stored layout (packed, the positions not stored
 * filled), compressed a block at a time on every thread, written under a temporary name
 * and renamed when whole. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/hash.h"
#include "base/pool.h"
#include "egdb/build_int.h"
#include "egdb/format.h"
#include "pdn/zio.h"

void egdb_slice_path(const char *dir, const pk_material *mat, char *buf, size_t size)
{
	char name[32];
	material_name(mat, name, sizeof name);
	snprintf(buf, size, "%s/%s%s", dir, name, EGDB_SUFFIX);
}

void egdb_part_path(const char *dir, const pk_material *mat, int lead0, int lead1, char *buf, size_t size)
{
	char name[32];
	material_name(mat, name, sizeof name);
	snprintf(buf, size, "%s/%s/%s.%d.%d%s", dir, EGDB_PARTS_DIR, name, lead0 + 1, lead1 + 1, EGDB_PART_SUFFIX);
}

void egdb_event_add(pk_build_event *ev, const egdb_header *h, uint64_t bytes)
{
	ev->positions += h->positions;
	ev->wins += h->wins;
	ev->losses += h->losses;
	ev->draws += h->draws;
	if (h->longest_win > ev->longest)
		ev->longest = h->longest_win;
	ev->bytes += bytes;
}

int egdb_table_codes(const retro_table *t, egdb_header *h, uint8_t **out, char *err, size_t errsize)
{
	uint8_t *codes = malloc(t->sl.size ? t->sl.size : 1);
	*out = NULL;
	if (!codes) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	for (uint64_t i = 0; i < t->sl.size; i++) {
		uint16_t v = t->val[i];
		if (v == V_HOLE) {
			codes[i] = 0;
			continue;
		}
		h->positions++;
		if (t->cnt[i] == C_CAPTURE)
			h->captures++;
		if (v == V_DRAW) {
			codes[i] = 0;
			h->draws++;
			continue;
		}
		if (v > 254) {
			char name[32];
			material_name(&t->sl.mat, name, sizeof name);
			snprintf(err, errsize, "%s: a distance of %u plies does not fit the format", name, v);
			free(codes);
			return -1;
		}
		codes[i] = (uint8_t)(v + 1);
		if (v & 1) {
			h->wins++;
			if (v > h->longest_win)
				h->longest_win = v;
		} else {
			h->losses++;
			if (v > h->longest_loss)
				h->longest_loss = v;
		}
	}
	*out = codes;
	return 0;
}

typedef struct {
	const uint8_t *codes;
	uint64_t size;
	int level;
	uint8_t **out;
	size_t *osize;
	atomic_uint next;
	uint32_t nblocks;
	atomic_int failed;
} compress_job;

static void compress_worker(int i, void *ctx)
{
	(void)i;
	compress_job *j = ctx;
	for (;;) {
		uint32_t b = atomic_fetch_add(&j->next, 1);
		if (b >= j->nblocks || atomic_load(&j->failed))
			return;
		uint64_t start = (uint64_t)b * EGDB_BLOCK_BYTES;
		size_t n = j->size - start < EGDB_BLOCK_BYTES ? (size_t)(j->size - start) : EGDB_BLOCK_BYTES;
		size_t cap = zio_block_bound(n);
		j->out[b] = malloc(cap);
		if (!j->out[b] || !(j->osize[b] = zio_block_compress(j->out[b], cap, j->codes + start, n, j->level))) {
			atomic_store(&j->failed, 1);
			return;
		}
	}
}

/* The threat positions of a table that its packed file leaves out (egdb_threat_omitted),
 * as bits, found a block of 65,536 indices at a time by each thread (each its own words). */
#define THREAT_CHUNK 65536u
typedef struct {
	const pk_slice *sl;
	const retro_table *t;
	uint64_t *bits;
	uint64_t chunks;
	atomic_uint_fast64_t next, count;
} threat_job;

static void threat_worker(int i, void *ctx)
{
	(void)i;
	threat_job *j = ctx;
	pk_slice_walk w;
	slice_walk_init(&w, j->sl);
	uint64_t found = 0;
	for (;;) {
		uint64_t c = atomic_fetch_add(&j->next, 1);
		if (c >= j->chunks)
			break;
		uint64_t lo = c * THREAT_CHUNK, hi = lo + THREAT_CHUNK < j->sl->size ? lo + THREAT_CHUNK : j->sl->size;
		for (uint64_t x = lo; x < hi; x++) {
			pk_pos p;
			if (j->t->val[x] == V_HOLE || j->t->cnt[x] == C_CAPTURE || !slice_walk_position(&w, x, &p))
				continue;
			if (egdb_threat_omitted(&p)) {
				j->bits[x >> 6] |= 1ull << (x & 63);
				found++;
			}
		}
	}
	atomic_fetch_add(&j->count, found);
}

int egdb_write_slice(const char *dir, const pk_slice *sl, const retro_table *t, const uint8_t *codes,
		     const egdb_header *h0, bool bytes_layout, bool store_threats, int threads, int level, uint64_t *bytes,
		     char *err, size_t errsize)
{
	egdb_header h = *h0;
	/* Positions not stored take the code before them: runs compress to nothing. Without
	 * distances, a code is two bits (0 draw, 1 loss, 2 win), four packed in a byte. */
	bool packed = !(h.flags & EGDB_FLAG_DISTANCES) && !bytes_layout;
	if (packed)
		h.flags |= EGDB_FLAG_PACKED;
	/* and, packed, the threats whose value a probe finds from their moves */
	uint64_t *threat = NULL;
	if (packed && t && !store_threats) {
		threat_job tj = { .sl = sl, .t = t, .chunks = (sl->size + THREAT_CHUNK - 1) / THREAT_CHUNK };
		threat = calloc((sl->size + 63) / 64 + 1, sizeof *threat);
		if (!threat) {
			snprintf(err, errsize, "out of memory");
			return -1;
		}
		tj.bits = threat;
		atomic_store(&tj.next, 0);
		atomic_store(&tj.count, 0);
		pool_run(threads, threat_worker, &tj);
		h.flags |= EGDB_FLAG_THREATS;
		h.threats = atomic_load(&tj.count);
	}
	uint64_t nbytes = packed ? (sl->size + 3) / 4 : sl->size;
	uint8_t *stored = calloc(nbytes ? nbytes : 1, 1);
	if (!stored) {
		snprintf(err, errsize, "out of memory");
		free(threat);
		return -1;
	}
	uint8_t last = 0;
	for (uint64_t i = 0; i < sl->size; i++) {
		uint8_t c = last;
		if (!t || (t->val[i] != V_HOLE && t->cnt[i] != C_CAPTURE && !(threat && threat[i >> 6] >> (i & 63) & 1))) {
			c = codes[i];
			if (!(h.flags & EGDB_FLAG_DISTANCES) && c)
				c = (c & 1) ? 1 : 2;
			last = c;
		}
		if (packed)
			stored[i >> 2] |= (uint8_t)(c << (2 * (i & 3)));
		else
			stored[i] = c;
	}
	free(threat);
	char path[4096];
	if (sl->part)
		egdb_part_path(dir, &sl->mat, sl->lead[0], sl->lead[1], path, sizeof path);
	else
		egdb_slice_path(dir, &sl->mat, path, sizeof path);
	int rc = egdb_write_stored(path, &h, stored, nbytes, threads, level, bytes, err, errsize);
	free(stored);
	return rc;
}

int egdb_write_stored(const char *path, egdb_header *hp, const uint8_t *stored, uint64_t nbytes, int threads, int level,
		      uint64_t *bytes, char *err, size_t errsize)
{
	egdb_header h = *hp;
	bool packed = h.flags & EGDB_FLAG_PACKED;
	uint64_t size = h.size;
	compress_job j = { .codes = stored, .size = nbytes, .level = level };
	uint32_t bpos = packed ? EGDB_PACKED_BLOCK_POSITIONS : EGDB_BLOCK_POSITIONS;
	j.nblocks = h.nblocks = (uint32_t)((size + bpos - 1) / bpos);
	h.block_positions = bpos;
	j.out = calloc(j.nblocks ? j.nblocks : 1, sizeof *j.out);
	j.osize = calloc(j.nblocks ? j.nblocks : 1, sizeof *j.osize);
	egdb_block *bl = calloc(j.nblocks ? j.nblocks : 1, sizeof *bl);
	size_t hsize = EGDB_HEADER_BYTES + (size_t)j.nblocks * EGDB_BLOCK_ENTRY_BYTES;
	uint8_t *head = malloc(hsize);
	int rc = -1;
	FILE *f = NULL;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (!j.out || !j.osize || !bl || !head) {
		snprintf(err, errsize, "out of memory");
		goto out;
	}
	atomic_store(&j.next, 0);
	atomic_store(&j.failed, 0);
	pool_run(threads, compress_worker, &j);
	if (atomic_load(&j.failed)) {
		snprintf(err, errsize, "compression failed (out of memory?)");
		goto out;
	}
	uint64_t off = hsize;
	for (uint32_t b = 0; b < j.nblocks; b++) {
		bl[b].offset = off;
		bl[b].csize = (uint32_t)j.osize[b];
		bl[b].checksum = fnv32(FNV32_INIT, j.out[b], j.osize[b]);
		off += j.osize[b];
	}
	egdb_encode_header(&h, bl, head);
	if (!(f = fopen(tmp, "wb"))) {
		snprintf(err, errsize, "%.400s: %s", tmp, strerror(errno));
		goto out;
	}
	bool ok = fwrite(head, 1, hsize, f) == hsize;
	for (uint32_t b = 0; ok && b < j.nblocks; b++)
		ok = fwrite(j.out[b], 1, j.osize[b], f) == j.osize[b];
	ok = fflush(f) == 0 && ok && fsync(fileno(f)) == 0;
	if (fclose(f) != 0)
		ok = false;
	f = NULL;
	if (!ok || rename(tmp, path) != 0) {
		snprintf(err, errsize, "%.400s: %s", ok ? path : tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	*bytes = off;
	rc = 0;
out:
	if (j.out)
		for (uint32_t b = 0; b < j.nblocks; b++)
			free(j.out[b]);
	free(j.out);
	free(j.osize);
	free(bl);
	free(head);
	return rc;
}

