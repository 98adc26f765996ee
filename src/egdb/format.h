/* The slice file, byte for byte (pdnkit-egdb(5)): a 128-byte header, a table of blocks,
 * then the blocks, each a zstd frame of EGDB_BLOCK_BYTES bytes (the last block shorter):
 * one-byte codes, EGDB_BLOCK_POSITIONS of them, in a file with distances or in a file
 * without them of the first layout; in a packed file (EGDB_FLAG_PACKED, win, loss or
 * draw alone) two-bit codes, four a byte, the first in the low bits,
 * EGDB_PACKED_BLOCK_POSITIONS of them. All integers little-endian. */
#ifndef PK_EGDB_FORMAT_H
#define PK_EGDB_FORMAT_H

#include <stdint.h>
#include <stddef.h>
#include "egdb/slice.h"

#define EGDB_MAGIC "PKEGDB\r\n"
#define EGDB_HEADER_BYTES 128
#define EGDB_BLOCK_ENTRY_BYTES 16
#define EGDB_BLOCK_BYTES 65536
#define EGDB_BLOCK_POSITIONS 65536
#define EGDB_PACKED_BLOCK_POSITIONS (4 * EGDB_BLOCK_BYTES)
#define EGDB_FLAG_DISTANCES 1u
#define EGDB_FLAG_PACKED 2u
/* Packed files only: the positions where the side to move has no capture, the other side
 * has one, and no move leads to such a position again (egdb_threat_omitted) are not
 * stored either; a probe searches their moves, as it does a capture's. */
#define EGDB_FLAG_THREATS 4u
/* A part file (DIR/parts/NAME.R0.R1.part): one part of a slice (pk_slice.part; its
 * leading rows at header offsets 104 and 105, each the row plus one, 0 for a side
 * without men), a byte a position, written while a slice pair is built by parts and
 * deleted when they are joined into the slice's file. */
#define EGDB_FLAG_PART 8u

typedef struct {
	pk_material mat;
	uint32_t flags;
	uint64_t size;           /* index range */
	uint32_t block_positions, nblocks;
	uint64_t positions, wins, losses, draws, captures;
	uint64_t threats;        /* positions left out by EGDB_FLAG_THREATS */
	int lead[2];             /* EGDB_FLAG_PART: the part's leading rows (-1 none) */
	uint32_t longest_win, longest_loss;
	uint64_t build_ms;
} egdb_header;

typedef struct {
	uint64_t offset;
	uint32_t csize, checksum;
} egdb_block;

/* Reads and checks the header and the block table of an open file of file_size bytes;
 * *blocks is malloc'ed. -1 with the reason. */
int egdb_read_header(int fd, uint64_t file_size, egdb_header *h, egdb_block **blocks, char *why, size_t whysize);
/* The header and block table as bytes (EGDB_HEADER_BYTES + nblocks * 16), checksummed. */
void egdb_encode_header(const egdb_header *h, const egdb_block *blocks, uint8_t *out);

#endif
