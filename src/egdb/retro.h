/* The retrograde solver of one slice pair (retro.c): the tables of a pair and the
 * values they end with. */
#ifndef PK_EGDB_RETRO_H
#define PK_EGDB_RETRO_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include "egdb/egdb.h"
#include "egdb/slice.h"

/* A table entry (val): a distance in plies (odd: won, even: lost), or one of these;
 * cnt: the moves left that stay in the pair, or one of the C_ values. */
#define V_UNKNOWN 0xFFFFu
#define V_HOLE    0xFFFEu
#define V_DRAW    0xFFFDu
#define V_MAX     0xFFF0u
#define C_NEVER   0xFFu       /* has a drawn move out of the pair: never lost */
#define C_CAPTURE 0xFEu       /* must capture: not stored in the file */

typedef struct {
	pk_slice sl;
	uint16_t *val;
	uint8_t *cnt;
} retro_table;

typedef struct {
	pk_egdb *db;
	retro_table t[2];
	int nt;                 /* 1 when the slice is its own mirror */
	struct retro_levels *lq; /* the levels still to settle, one set a thread (retro.c) */
	int nlq;
	/* The queue's entries may take at most this many (0: no limit); a level that would
	 * pass it is found by a scan of the tables instead (the same positions). */
	uint64_t queue_cap;
	atomic_uint_fast64_t queued;    /* entries allocated in the queue now */
	unsigned char *over;    /* V_MAX flags: level found by a scan */
	uint64_t scans;         /* levels found by a scan (after retro_solve) */
	atomic_uint_fast64_t next;
	atomic_int failed;
	volatile sig_atomic_t *stop;
} retro_pair;

/* Solves the pair (pr->db, pr->t[k].sl, pr->nt, pr->stop and pr->queue_cap set, the
 * rest zero):
 * 0 solved (every entry a distance, V_DRAW or V_HOLE), 1 stopped by *stop, -1 failed
 * with the reason. retro_free releases the tables either way. */
int retro_solve(retro_pair *pr, int threads, char *err, size_t errsize);
void retro_free(retro_pair *pr);

#endif
