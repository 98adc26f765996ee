/* The other variants' databases inside egdb/ (vegdb.c reads them, vegdb_build.c builds
 * them): a class, the databases, the file header, and what both files use. */
#ifndef PK_VEGDB_INT_H
#define PK_VEGDB_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "egdb/vegdb.h"

#define T_NONE 255          /* no position at this index */
#define MAX_LEVEL 254       /* distances 0..253 fit a byte as d + 1 */
#define MAGIC "PKVDB1\n"

/* A material: [0] white men, [1] white kings, [2] black men, [3] black kings. */
typedef struct {
	int n[4];
	int pieces, men;
	uint64_t radix[4];          /* C(squares, n[g]) */
	uint64_t size;              /* placements times two sides to move */
	uint8_t *t;
	char name[16];
	bool present;               /* its file is there with a right header (read when needed) */
	bool failed;                /* its file failed to read (vegdb_error says why) */
} vclass;

struct pk_vegdb {
	const pk_variant *v;
	int nsq;
	int pieces;                 /* every class of this many pieces or fewer is held */
	int threads;                /* of a build */
	int nclass;
	vclass *cls;
	int map[VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1][VEGDB_MAX_PIECES + 1];
	bool crown[2][VAR_MAX_SQ + 1];   /* a man of this side on this square would be crowned */
	char dir[4096];                  /* where the files are (opened databases) */
	pthread_mutex_t lock;            /* reading a class on its first probe */
	char err[700];                   /* the first class that failed to read */
};

/* A file's header (pdnkit-egdb(5)). */
typedef struct {
	char magic[8];
	uint32_t gametype;
	uint8_t n[4];
	uint64_t size, check, packed;
} vheader;

/* Every class of v up to `pieces` pieces, in build order (fewer pieces, then fewer men). */
pk_vegdb *vdb_new(const pk_variant *v, int pieces);
/* The class of p and its index there; -1 when db has no such class. */
int64_t vdb_index_of(const pk_vegdb *db, const pk_vpos *p, int *cls);
/* The position at idx of class k; false when there is none. */
bool vdb_decode(const pk_vegdb *db, const vclass *k, uint64_t idx, pk_vpos *p);
/* A position's pieces by group, each group's squares ascending (a decoded position's). */
typedef struct {
	int n[4];
	uint8_t sq[4][VEGDB_MAX_PIECES];
} vplace;
/* vdb_decode, and the placement of the position into *pl. */
bool vdb_decode_place(const pk_vegdb *db, const vclass *k, uint64_t idx, pk_vpos *p, vplace *pl);
/* The stored byte of child = vmake(p, m), p placed as *parent: the placement changed by
 * the move instead of the board read again. As vdb_byte_of. */
int vdb_child_byte(const pk_vegdb *db, const vplace *parent, const pk_vpos *p, const pk_vmove *m, const pk_vpos *child,
		   int *cls);
/* The index of the position placed as *pl with stm to move in its class (*cls); -1 when
 * db has no such class. */
int64_t vdb_place_index(const pk_vegdb *db, const vplace *pl, int stm, int *cls);
/* Moves a piece of group g of pl from one square to another (squares kept ascending). */
void vdb_place_move(vplace *pl, int g, int from, int to);
/* The stored byte of p (a side to move without pieces: lost in 0); -1 when not held. */
int vdb_byte_of(const pk_vegdb *db, const pk_vpos *p, int *cls);
uint64_t vdb_fnv(const uint8_t *a, uint64_t n);
void vdb_class_path(const pk_vegdb *db, const vclass *k, const char *dir, char *buf, size_t size);
/* Reads class k from dir (header_only: its header and length): 1, 0 no file, -1 damaged. */
int vdb_read_class(const pk_vegdb *db, vclass *k, const char *dir, bool header_only, char *err, size_t errsize);

#endif
