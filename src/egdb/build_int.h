/* The builder's parts shared by its files (build.c, parts.c, write.c). */
#ifndef PK_EGDB_BUILD_INT_H
#define PK_EGDB_BUILD_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "egdb/build.h"
#include "egdb/format.h"
#include "egdb/retro.h"

#define EGDB_PARTS_DIR "parts"
#define EGDB_PART_SUFFIX ".part"

/* A slice pair to build: a material and its mirror (the other side to move). */
typedef struct {
	pk_material mat, mir;
	bool self;
	char name[32], mname[32];
	int pieces, men, weaker;        /* weaker: the pieces of the side with fewer */
	uint64_t size;
	bool parts;                     /* built by parts (egdb_build_parts) */
} pair_spec;

/* Every pair of up to n pieces, in build order (malloc'ed; NULL when out of memory). */
pair_spec *egdb_all_pairs(int n, int *count);
/* Whether a move in a position of slice a can lead to a position of slice b (other than
 * a's mirror, built with it). */
bool egdb_leads_to(const pk_material *a, const pk_material *b);
/* Whether pair a reads pair b: a move from one of a's slices leads into one of b's. */
bool egdb_pair_reads(const pair_spec *a, const pair_spec *b);
/* The memory a pair's build takes at most, the slices it reads aside (by parts when
 * s->parts). */
uint64_t egdb_pair_memory(const pair_spec *s);
/* The path of a part file: DIR/parts/NAME.A.B.part, A and B its leading rows plus one
 * (0 for a side without men). */
void egdb_part_path(const char *dir, const pk_material *mat, int lead0, int lead1, char *buf, size_t size);
/* A slice file's counts (its header h, its bytes) added to a pair's event. */
void egdb_event_add(pk_build_event *ev, const egdb_header *h, uint64_t bytes);
/* The codes of a solved table (a byte an index) into *out (malloc'ed), and its counts
 * (positions, captures, wins, losses, draws, longest) added to h. -1 with the reason. */
int egdb_table_codes(const retro_table *t, egdb_header *h, uint8_t **out, char *err, size_t errsize);
/* Writes the codes of slice sl (or of a part: its part file) through a temporary name,
 * renamed when complete; with a table t, the positions it says are not stored (holes,
 * captures, and in a packed file the threats unless store_threats) take the code before
 * them; without one the codes are written as they are. A file without distances is
 * packed unless bytes_layout. */
int egdb_write_slice(const char *dir, const pk_slice *sl, const retro_table *t, const uint8_t *codes,
		     const egdb_header *h0, bool bytes_layout, bool store_threats, int threads, int level, uint64_t *bytes,
		     char *err, size_t errsize);
/* Writes a file of stored codes already laid out (nbytes bytes: packed when h says so),
 * its blocks compressed on threads; h's block count and size are set from h->size. */
int egdb_write_stored(const char *path, egdb_header *h, const uint8_t *stored, uint64_t nbytes, int threads, int level,
		      uint64_t *bytes, char *err, size_t errsize);
/* Whether the pair keeps distances in its files. */
bool egdb_pair_distances(const pk_build_opts *o, const pair_spec *s);
/* A part pair: the parts of a pair's two slices with the same leading rows, lead[0]
 * of the first slice's side to move and lead[1] of the other side (-1 a side without
 * men); size the positions of both. */
typedef struct {
	int lead[2];
	uint64_t size;
} egdb_part_pair;
/* The part pairs of a pair in the order they are built (each after those it reads);
 * at most EGDB_ROWS * EGDB_ROWS. Returns the count. */
int egdb_part_pairs(const pair_spec *s, egdb_part_pair *out);
/* The bytes of the parts part pair u reads, of the pair's n part pairs all. */
uint64_t egdb_part_reads_bytes(const pair_spec *s, const egdb_part_pair *u, const egdb_part_pair *all, int n);
/* Whether a part file of the pair is in DIR/parts (a build by parts under way). */
bool egdb_parts_started(const pk_build_opts *o, const pair_spec *s);
/* Whether the part pair of a job (o->only, o->part) is in DIR/parts (then added to db). */
bool egdb_part_done(pk_egdb *db, const pk_build_opts *o, const pair_spec *s);
/* The memory a build of the pair by parts takes at most: the largest part pair still to
 * build (with the parts it reads) or the join; with o->part_only that part pair's
 * alone; without o (NULL) every part pair and the join (a plan's). */
uint64_t egdb_parts_memory(const pk_build_opts *o, const pair_spec *s);
/* Builds a pair by parts (parts.c): each part pair missing from DIR/parts solved in the
 * order they read each other (the leading rows furthest on first), written there, then
 * the pair's slices joined from them and the parts removed. With o->part set, that
 * part pair alone. The event's counts are the joined slices'. */
int egdb_build_parts(pk_egdb *db, const pk_build_opts *o, int threads, uint64_t queue_cap, const pair_spec *s,
		     pk_build_event *ev, char *err, size_t errsize);

#endif
