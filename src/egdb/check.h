/* Checking and measuring a set of endgame databases: every slice re-verified against
 * its successors on N threads, and probe timings of random positions. */
#ifndef PK_EGDB_CHECK_H
#define PK_EGDB_CHECK_H

#include "egdb/egdb.h"

typedef struct {
	long checked, wrong;
	bool failed;                 /* unreadable: egdb_error() said why when it happened */
	char error[300];
} pk_verify_result;

/* Called for a position whose moves do not prove its stored value, with the slice's
 * index; calls are serialised (one at a time). */
typedef void (*pk_verify_bad_cb)(void *ctx, int slice, const pk_pos *p, int stored, int proved);

/* Verify the slices v[0..n-1] (sample 0: every position) on threads threads, a slice per
 * job. res gets n results. 0; -1 when out of memory. */
int egdb_verify_all(pk_egdb *db, const pk_egdb_slice_info *v, int n, uint64_t sample, int threads,
		    volatile sig_atomic_t *stop, pk_verify_bad_cb bad, void *ctx, pk_verify_result *res);

typedef struct {
	int pieces;
	long probes;
	double uncached_us, cached_us;   /* per probe */
	uint64_t uncached_blocks, cached_blocks;
} pk_probe_timing;

/* Probe timings of n random positions of the given piece count from the slices v, first
 * through a cache too small to hold them (each probe reads and decompresses a block),
 * then through one that holds them all. 0; 1 when no slice has that many pieces; -1
 * when out of memory or dir cannot be read (err says why). */
int egdb_measure(const char *dir, const pk_egdb_slice_info *v, int nv, int pieces, long n, pk_probe_timing *out,
		 char *err, size_t errsize);

/* A 64-bit random number from the state s (splitmix64). */
uint64_t egdb_rng(uint64_t *s);
/* A random position of n pieces (both sides at least one; with even, as many of each;
 * men and kings at random), quiet (no capture for the side to move) and with a move;
 * false when the draw is none of that (draw again). */
bool egdb_random_quiet(uint64_t *seed, int n, bool even, pk_pos *p);

#endif
