/* The reader's own structures (egdb.c, egdb_mem.c): a slice's entry, the block cache. */
#ifndef PK_EGDB_INT_H
#define PK_EGDB_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include "egdb/egdb.h"
#include "egdb/format.h"

#define KEYS (9 * 9 * 9 * 9)

typedef struct eslice_s {
	pk_slice sl;
	pk_egdb_slice_info info;
	int id;
	uint8_t *mem;            /* in memory: one code an index, or with mem_packed two bits */
	bool mem_packed;         /* (a slice without distances read for the builder) */
	int fd;                  /* on disk */
	egdb_block *blocks;
	uint32_t bpos;           /* positions a block: EGDB_BLOCK_POSITIONS, or
				  * EGDB_PACKED_BLOCK_POSITIONS when packed */
	bool packed;             /* two-bit codes, four a byte */
	bool threats;            /* threat positions not stored (egdb_threat_omitted) */
	/* A slice present only as parts: this entry holds them (PARTS_AT), and has no codes of
	 * its own. */
	struct eslice_s **parts;
} eslice;

#define PART_SLOTS ((EGDB_ROWS + 1) * (EGDB_ROWS + 1))
static inline int part_at(int lead0, int lead1) { return (lead0 + 1) * (EGDB_ROWS + 1) + lead1 + 1; }

typedef struct {
	int slice;               /* -1: empty */
	uint32_t block;
	uint64_t used;
	uint8_t *data;
} slot;

/* The cache is sets of WAYS slots; each set is guarded by one of STRIPES locks, so
 * threads probing different blocks do not wait for each other, and a block is read and
 * decompressed with no lock held. */
#define STRIPES 64
#define WAYS 4

typedef struct {
	pthread_mutex_t m;
	uint64_t clock;          /* the order of use of the slots of its sets */
} stripe;

struct pk_egdb {
	eslice *by_key[KEYS];
	eslice **list;
	int n, cap;
	pthread_mutex_t lock;        /* the list of slices */
	stripe stripes[STRIPES];
	slot *slots;                 /* nsets * WAYS */
	size_t nsets;
	atomic_ullong probes, reads;
	eslice **holders;            /* the entries holding parts (by_key's while no whole slice replaced them) */
	int nholders;
	pthread_mutex_t err_lock;
	char err[4608];
};

static inline int mat_key(const pk_material *a)
{
	if (a->m[0] > 8 || a->k[0] > 8 || a->m[1] > 8 || a->k[1] > 8)
		return -1;
	return ((a->m[0] * 9 + a->k[0]) * 9 + a->m[1]) * 9 + a->k[1];
}

/* Frees an entry (its codes, file and block table). */
void egdb_slice_free(eslice *s);
/* Reads and decompresses block b of a slice on disk into out; -1 with db's error set. */
int egdb_read_block(pk_egdb *db, const eslice *s, uint32_t b, uint8_t *out);
/* Lets go of the cached blocks of the entry of this id (replaced). */
void egdb_forget_blocks(pk_egdb *db, int id);
/* Adds an entry to the list, giving it its id. -1 when out of memory. */
int egdb_list_add(pk_egdb *db, eslice *s);
/* Adds a part (s->sl a part) to the entry holding its slice's parts, made at the first;
 * a part of a slice present whole is not wanted (freed, 0). Under db->lock. */
int egdb_put_part(pk_egdb *db, eslice *s);

#endif
