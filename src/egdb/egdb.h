/* Endgame databases: the value of every position with few pieces, from files built by
 * egdb/build.c (format: pdnkit-egdb(5)). A probe reads one block of one slice file and
 * keeps it in a cache; positions where the side to move must capture are not stored and
 * are resolved by probing the positions after each capture. */
#ifndef PK_EGDB_H
#define PK_EGDB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "egdb/slice.h"
#include "rules/pos.h"

#define EGDB_FORMAT_VERSION 1
#define EGDB_SUFFIX ".egdb"

enum { EGDB_LOSS = -1, EGDB_DRAW = 0, EGDB_WIN = 1 };
/* Probe status: found, not covered (a slice is missing or too many pieces), failed (a
 * file could not be read or is damaged; see egdb_error). */
enum { EGDB_FOUND = 0, EGDB_MISSING = 1, EGDB_FAILED = -1 };

/* Stored codes, one byte a position: 0 a draw; 1 + n a position decided in n plies, won
 * by the side to move when n is odd, lost when n is even. Files without distances store
 * 1 for a loss and 2 for a win. */
#define EGDB_CODE_DRAW 0
static inline int code_value(int code) { return code == 0 ? EGDB_DRAW : (code & 1) ? EGDB_LOSS : EGDB_WIN; }

typedef struct pk_egdb pk_egdb;

typedef struct {
	int value;        /* EGDB_WIN, EGDB_LOSS or EGDB_DRAW for the side to move */
	int plies;        /* plies to the end with best play; -1 when the slice has no distances */
} pk_egdb_result;

/* What a slice file says of itself (the header). */
typedef struct {
	pk_material mat;
	char name[32];
	char path[4096];
	bool distances;
	bool packed;             /* win, loss or draw in two bits (pdnkit-egdb(5)) */
	bool threats;            /* threat positions not stored (egdb_threat_omitted) */
	bool in_memory;
	bool part;               /* a part of the slice (pdnkit-egdb(5)), lead its rows */
	int lead[2];
	uint64_t size, positions, wins, losses, draws, captures;
	uint64_t threat_positions; /* positions not stored as threats */
	uint32_t longest_win, longest_loss;
	uint64_t build_ms;
	uint64_t bytes;          /* on disk */
	uint32_t nblocks, block_positions;
} pk_egdb_slice_info;

/* An empty database with a block cache of cache_bytes (at least a few blocks). NULL when
 * out of memory. */
pk_egdb *egdb_new(size_t cache_bytes);
void egdb_free(pk_egdb *db);
/* Replaces the block cache by one of cache_bytes (at least a few blocks), dropping the
 * blocks it held: only while no thread probes. -1 when out of memory (the old cache
 * kept). Its memory is taken as blocks are read, up to that size. */
int egdb_set_cache(pk_egdb *db, size_t cache_bytes);
/* The cache's size in bytes (whole blocks). */
size_t egdb_cache_bytes(const pk_egdb *db);
/* The bytes a cache needs to hold every block of the slices read from files (one byte a
 * position, decompressed): the size beyond which a larger cache gains nothing. */
uint64_t egdb_disk_bytes(const pk_egdb *db);
/* Adds one slice file, checking its header and block table; -1 with the reason (naming
 * the file) when it is not a database of this version or is damaged. A slice already
 * present is replaced. */
int egdb_add_file(pk_egdb *db, const char *path, char *err, size_t errsize);
/* Adds every *.egdb file of dir: the number added, or -1 with the reason (a directory
 * that cannot be read, a damaged file). */
int egdb_add_dir(pk_egdb *db, const char *dir, char *err, size_t errsize);
/* Adds a slice held in memory: codes[i] for every index of the slice (the database takes
 * ownership and frees it). Capture positions may hold anything. -1 when out of memory. */
int egdb_add_memory(pk_egdb *db, const pk_material *mat, uint8_t *codes, bool distances);
/* Reads every block of a slice on disk into memory: probes of it then take no lock and
 * touch no file (the builder's dependencies); a slice without distances takes two bits
 * a position there. -1 with the reason. */
int egdb_load_memory(pk_egdb *db, const pk_material *mat, char *err, size_t errsize);
/* Whether a position of a slice that leaves out threats (pk_egdb_slice_info.threats) is
 * one of those left out: the side to move (canon: Black) has no capture, the other side
 * has one, and no move leads to a position where the same holds (so that its value is a
 * search of one ply whose children are stored or are captures). */
bool egdb_threat_omitted(const pk_pos *canon);
/* The same for a position whose side to move is known to have no capture (not tested again). */
bool egdb_quiet_threat_omitted(const pk_pos *canon);
/* The stored codes of a slice (a byte an index, as egdb_add_memory takes them; the
 * positions not stored hold what the file holds), read into memory (a byte a position
 * whatever the file's layout); owned by db until egdb_unload_memory. NULL with the
 * reason. */
const uint8_t *egdb_stored_codes(pk_egdb *db, const pk_material *mat, char *err, size_t errsize);
/* Frees the blocks of a slice read into memory by egdb_load_memory: its probes read the
 * file again. 0; 1 when the slice was not in memory; -1 when it is held only in memory
 * (egdb_add_memory), which is kept. Not while another thread probes. */
int egdb_unload_memory(pk_egdb *db, const pk_material *mat);
/* Reads a part present as a file into memory (egdb_load_memory's way), or with !load
 * lets its memory go (its probes read the file again). -1 with the reason. */
int egdb_part_memory(pk_egdb *db, const pk_material *mat, int lead0, int lead1, bool load, char *err, size_t errsize);
/* Whether the part of a slice with these leading rows is present, and with distances. */
bool egdb_part_distances(const pk_egdb *db, const pk_material *mat, int lead0, int lead1);
/* Whether the part of a slice with these leading rows is present. */
bool egdb_has_part(const pk_egdb *db, const pk_material *mat, int lead0, int lead1);
/* Whether the slice is present (whole: not only some of its parts). */
bool egdb_has(const pk_egdb *db, const pk_material *mat);
/* The largest n such that every slice of up to n pieces is present (0: none). */
int egdb_pieces(const pk_egdb *db);
/* The most pieces of any slice present (0: none). Beyond egdb_pieces a level is partial
 * (a build of it under way, or only some slices wanted): a position whose slice is
 * absent is EGDB_MISSING, the others are exact. */
int egdb_max_pieces(const pk_egdb *db);
/* The slice a position needs that is missing, as its file's name ("MM-K.egdb") into
 * buf: its own, or else the first of fewer pieces (which its captures may lead to);
 * false when none is. */
bool egdb_missing_for(const pk_egdb *db, const pk_pos *p, char *buf, size_t size);
/* Whether every slice of up to pieces has distances. */
bool egdb_has_distances(const pk_egdb *db, int pieces);
/* Whether the slice of this material is there and has distances. */
bool egdb_slice_distances(const pk_egdb *db, const pk_material *mat);

/* The value of p for its side to move. Thread-safe. */
int egdb_probe(pk_egdb *db, const pk_pos *p, pk_egdb_result *r);
/* The stored code of p (as above, captures resolved), or -1 missing, -2 failed. */
int egdb_code(pk_egdb *db, const pk_pos *p);
const char *egdb_error(const pk_egdb *db);

/* The slices present, in build order (pieces, then men, then name); n set to the count.
 * Returns a malloc'ed array. */
pk_egdb_slice_info *egdb_slices(const pk_egdb *db, int *n);

/* Re-checks the stored values of one slice against its successors: every position (sample
 * 0) or about sample of them chosen at random (seed). Calls bad() for each position whose
 * moves do not prove its value. Returns the number checked, -1 on a read failure. */
typedef void (*pk_egdb_bad_cb)(void *ctx, const pk_pos *p, int stored, int proved);
long egdb_verify_slice(pk_egdb *db, const pk_material *mat, uint64_t sample, uint64_t seed,
		       volatile sig_atomic_t *stop, pk_egdb_bad_cb bad, void *ctx);

/* Probes counted since egdb_new (hits in the cache and blocks read). */
void egdb_counters(const pk_egdb *db, uint64_t *probes, uint64_t *blocks_read);

#endif
