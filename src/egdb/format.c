/* The header and block table of a slice file: encoding, decoding, checking. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "base/hash.h"
#include "egdb/egdb.h"
#include "base/port.h"
#include "egdb/format.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void egdb_encode_header(const egdb_header *h, const egdb_block *blocks, uint8_t *out)
{
	memset(out, 0, EGDB_HEADER_BYTES);
	memcpy(out, EGDB_MAGIC, 8);
	put32(out + 8, EGDB_FORMAT_VERSION);
	put32(out + 12, EGDB_INDEX_VERSION);
	out[16] = (uint8_t)h->mat.m[0];
	out[17] = (uint8_t)h->mat.k[0];
	out[18] = (uint8_t)h->mat.m[1];
	out[19] = (uint8_t)h->mat.k[1];
	put32(out + 20, h->flags);
	put64(out + 24, h->size);
	put32(out + 32, h->block_positions);
	put32(out + 36, h->nblocks);
	put64(out + 40, h->positions);
	put64(out + 48, h->wins);
	put64(out + 56, h->losses);
	put64(out + 64, h->draws);
	put32(out + 72, h->longest_win);
	put32(out + 76, h->longest_loss);
	put64(out + 80, h->build_ms);
	put64(out + 88, h->captures);
	put64(out + 96, h->threats);
	if (h->flags & EGDB_FLAG_PART) {
		out[104] = (uint8_t)(h->lead[0] + 1);
		out[105] = (uint8_t)(h->lead[1] + 1);
	}
	uint8_t *t = out + EGDB_HEADER_BYTES;
	for (uint32_t i = 0; i < h->nblocks; i++, t += EGDB_BLOCK_ENTRY_BYTES) {
		put64(t, blocks[i].offset);
		put32(t + 8, blocks[i].csize);
		put32(t + 12, blocks[i].checksum);
	}
	uint32_t sum = fnv32(FNV32_INIT, out, 124);
	sum = fnv32(sum, out + EGDB_HEADER_BYTES, (size_t)h->nblocks * EGDB_BLOCK_ENTRY_BYTES);
	put32(out + 124, sum);
}

int egdb_read_header(int fd, uint64_t file_size, egdb_header *h, egdb_block **blocks, char *why, size_t whysize)
{
	uint8_t b[EGDB_HEADER_BYTES];
	*blocks = NULL;
	ssize_t got = pread(fd, b, sizeof b, 0);
	if (got < 0) {
		snprintf(why, whysize, "%s", strerror(errno));
		return -1;
	}
	if (got < 8 || memcmp(b, EGDB_MAGIC, 8)) {
		snprintf(why, whysize, "not a pdnkit endgame database (no PKEGDB signature)");
		return -1;
	}
	if (got < (ssize_t)sizeof b) {
		snprintf(why, whysize, "truncated: the header is cut short at %zd bytes", got);
		return -1;
	}
	uint32_t ver = get32(b + 8), iver = get32(b + 12);
	if (ver != EGDB_FORMAT_VERSION || iver != EGDB_INDEX_VERSION) {
		snprintf(why, whysize, "format %u, index %u: this pdnkit reads format %d, index %d (rebuild it)", ver, iver,
			 EGDB_FORMAT_VERSION, EGDB_INDEX_VERSION);
		return -1;
	}
	memset(h, 0, sizeof *h);
	h->mat.m[0] = b[16];
	h->mat.k[0] = b[17];
	h->mat.m[1] = b[18];
	h->mat.k[1] = b[19];
	h->flags = get32(b + 20);
	h->size = get64(b + 24);
	h->block_positions = get32(b + 32);
	h->nblocks = get32(b + 36);
	h->positions = get64(b + 40);
	h->wins = get64(b + 48);
	h->losses = get64(b + 56);
	h->draws = get64(b + 64);
	h->longest_win = get32(b + 72);
	h->longest_loss = get32(b + 76);
	h->build_ms = get64(b + 80);
	h->captures = get64(b + 88);
	h->threats = get64(b + 96);
	h->lead[0] = b[104] - 1;
	h->lead[1] = b[105] - 1;
	if (!material_valid(&h->mat) || material_pieces(&h->mat) > EGDB_MAX_PIECES) {
		snprintf(why, whysize, "damaged header: material %d/%d against %d/%d", h->mat.m[0], h->mat.k[0], h->mat.m[1],
			 h->mat.k[1]);
		return -1;
	}
	bool packed = h->flags & EGDB_FLAG_PACKED;
	bool part = h->flags & EGDB_FLAG_PART;
	if ((h->flags & ~(EGDB_FLAG_DISTANCES | EGDB_FLAG_PACKED | EGDB_FLAG_THREATS | EGDB_FLAG_PART)) ||
	    (packed && (h->flags & EGDB_FLAG_DISTANCES)) || ((h->flags & EGDB_FLAG_THREATS) && !packed) ||
	    (part && packed)) {
		snprintf(why, whysize, "damaged header, or of a newer pdnkit: flags %#x", h->flags);
		return -1;
	}
	if (part ? h->lead[0] >= EGDB_ROWS || h->lead[1] >= EGDB_ROWS || (h->lead[0] < 0) != (h->mat.m[0] == 0) ||
			   (h->lead[1] < 0) != (h->mat.m[1] == 0)
		 : b[104] || b[105]) {
		snprintf(why, whysize, "damaged header: leading rows %d and %d", b[104] - 1, b[105] - 1);
		return -1;
	}
	if (!part)
		h->lead[0] = h->lead[1] = -1;
	uint32_t bpos = packed ? EGDB_PACKED_BLOCK_POSITIONS : EGDB_BLOCK_POSITIONS;
	if (h->block_positions != bpos || h->nblocks != (h->size + bpos - 1) / bpos) {
		snprintf(why, whysize, "damaged header: %u blocks of %u positions for %llu positions", h->nblocks,
			 h->block_positions, (unsigned long long)h->size);
		return -1;
	}
	size_t tsize = (size_t)h->nblocks * EGDB_BLOCK_ENTRY_BYTES;
	if (EGDB_HEADER_BYTES + tsize > file_size) {
		snprintf(why, whysize, "truncated: %llu bytes, the block table alone needs %zu",
			 (unsigned long long)file_size, EGDB_HEADER_BYTES + tsize);
		return -1;
	}
	uint8_t *t = malloc(tsize ? tsize : 1);
	egdb_block *bl = malloc(sizeof *bl * (h->nblocks ? h->nblocks : 1));
	if (!t || !bl) {
		free(t);
		free(bl);
		snprintf(why, whysize, "out of memory");
		return -1;
	}
	if (pread(fd, t, tsize, EGDB_HEADER_BYTES) != (ssize_t)tsize) {
		snprintf(why, whysize, "cannot read the block table");
		free(t);
		free(bl);
		return -1;
	}
	uint32_t sum = fnv32(FNV32_INIT, b, 124);
	sum = fnv32(sum, t, tsize);
	if (sum != get32(b + 124)) {
		snprintf(why, whysize, "damaged: the header's checksum does not match");
		free(t);
		free(bl);
		return -1;
	}
	for (uint32_t i = 0; i < h->nblocks; i++) {
		const uint8_t *e = t + (size_t)i * EGDB_BLOCK_ENTRY_BYTES;
		bl[i].offset = get64(e);
		bl[i].csize = get32(e + 8);
		bl[i].checksum = get32(e + 12);
		if (bl[i].offset < EGDB_HEADER_BYTES + tsize || bl[i].csize > file_size ||
		    bl[i].offset > file_size - bl[i].csize) {
			snprintf(why, whysize, "truncated: block %u lies beyond the end of the file (%llu bytes)", i,
				 (unsigned long long)file_size);
			free(t);
			free(bl);
			return -1;
		}
	}
	free(t);
	*blocks = bl;
	return 0;
}
