/* Building endgame databases by retrograde analysis, slice pair by slice pair (a slice
 * and its mirror, the same material with the other side to move), in the order the
 * slices depend on each other: fewer pieces first, then fewer men (a man crowned makes
 * a slice with one man fewer). Finished slices are files; an interrupted build keeps
 * them and goes on from there. */
#ifndef PK_EGDB_BUILD_H
#define PK_EGDB_BUILD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "egdb/egdb.h"

enum { EGDB_EV_LOADED, EGDB_EV_START, EGDB_EV_DONE, EGDB_EV_PART };

typedef struct {
	int kind;                    /* EGDB_EV_* */
	const char *name;            /* "MMK-MK" (and its mirror, built with it) */
	const char *mirror;          /* NULL when the slice is its own mirror */
	int index, count;            /* this pair's number, 1-based, of the pairs to build */
	uint64_t positions;          /* of the pair, holes excluded (DONE) */
	uint64_t wins, losses, draws;
	uint32_t longest;            /* longest win in plies (DONE) */
	uint64_t bytes;              /* written (DONE) */
	double seconds;              /* the pair's (DONE) */
	uint64_t scans;              /* levels found by a scan, the queue past --memory (DONE) */
	uint64_t done, total;        /* index positions built so far and to build in all */
	double elapsed;              /* since the build began */
	bool part;                   /* PART, or LOADED of a --part job: of a part pair */
	int lead[2];                 /* then its leading rows (-1 none); PART: its positions
				      * and the pair's seconds so far in positions, seconds */
} pk_build_event;

typedef struct {
	int pieces;                  /* build every slice up to this many pieces (2..8) */
	int threads;                 /* 1.. */
	int dist_pieces;             /* slices up to this many pieces keep distances */
	int dist_men;                /* and slices of at most this many men, whatever their pieces (-1: none);
				      * a closed set, as a move never adds a man */
	int level;                   /* zstd level of the blocks */
	bool bytes_layout;           /* slices without distances a byte a position, as pdnkit
				      * wrote them before the packed layout (tests of egdb_repack) */
	bool store_threats;          /* packed slices store their threat positions too (for
				      * comparisons; pdnkit-egdb(5)) */
	const char *dir;
	const char *only;            /* NULL, or the name of one slice: build its pair only */
	int parts;                   /* EGDB_PARTS_*: which pairs are built by parts */
	bool part_only;              /* with only: build its part pair of leading rows part[]
				      * (rows 0..6, -1 a side without men) and nothing else */
	int part[2];
	size_t cache_bytes;
	uint64_t memory;             /* bytes the build may take (0: 80% of the machine's): two
				      * pairs are built side by side only when both fit */
	volatile sig_atomic_t *stop;
	void (*progress)(void *ctx, const pk_build_event *ev);
	void *ctx;
} pk_build_opts;

/* A pair is built by parts (its positions split by the row of each side's most advanced
 * man, parts.c) when it would not fit the memory the build may take (AUTO), always when
 * it has men (ALWAYS), or never. */
enum { EGDB_PARTS_AUTO = 0, EGDB_PARTS_ALWAYS = 1, EGDB_PARTS_NEVER = -1 };

/* 0 done, 1 stopped by *stop (finished slices kept), -1 failed with the reason. */
int egdb_build(const pk_build_opts *o, char *err, size_t errsize);

/* The plan of a build: every slice pair of up to `pieces` pieces in build order, each a
 * job after the jobs of the pairs it reads (a capture or a crowning leads into them),
 * with the memory it takes at most (its tables and the slices it reads held in memory)
 * and an estimate of its time on one thread; a pair whose job would take more than
 * job_memory (or, with parts EGDB_PARTS_ALWAYS, any pair with men) as the jobs of its
 * part pairs, each after those it reads, then a job that joins them. For a scheduler
 * (egdb build --plan). */
typedef struct {
	char name[32], mirror[32];   /* the pair (mirror "" when the slice is its own) */
	char id[40];                 /* the job: the pair's name, or "NAME:A,B" for a part */
	bool part;                   /* a part pair's job: rows part[] (+1, 0 for none) */
	bool join;                   /* the job that joins the pair's parts */
	int rows[2];
	int pieces, men;
	uint64_t positions;          /* of the pair or part pair, holes included */
	uint64_t memory;             /* bytes */
	double seconds;              /* on one thread, from this machine's rate */
	int ndeps;
	char (*deps)[40];            /* the ids of the jobs it follows */
	int wave;                    /* 0: follows none; else 1 + the highest wave it follows */
} pk_plan_job;
/* Calls fn for each job in build order (distances kept as pk_build_opts' dist_pieces
 * and dist_men say); 0, -1 when out of memory or pieces is out of range. */
int egdb_plan(int pieces, int dist_pieces, int dist_men, uint64_t job_memory, int parts,
	      int (*fn)(void *ctx, const pk_plan_job *job), void *ctx);
/* The positions a second the builder settles on one thread, on which the plan's times
 * are estimated. */
#define EGDB_PLAN_RATE 1.0e6   /* every slice of up to 7 pieces, 39.7e9 positions, in 5.5 hours on 2 threads */
/* The positions a second a join of parts goes through on one thread (K-MKKKKKK's 1.03e9
 * in 128 s on 2 threads). */
#define EGDB_JOIN_RATE 4.0e6

/* Rewrites the slice files of dir without distances in the first layout (a byte a
 * position) in the packed one (two bits a position, pdnkit-egdb(5)): each read whole,
 * written under dir/.repack, read back and compared code by code, then renamed over the
 * old file. progress (may be NULL) after each, with its bytes before and after; *count
 * the files rewritten. 0, or -1 with the reason (the files done so far stay done, the
 * others as they were). */
int egdb_repack(const char *dir, int threads, int level,
		void (*progress)(void *ctx, const char *name, uint64_t before, uint64_t after), void *ctx,
		uint64_t *count, char *err, size_t errsize);

/* The file name of a slice in dir. */
void egdb_slice_path(const char *dir, const pk_material *mat, char *buf, size_t size);

#endif
