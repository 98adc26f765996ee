/* Endgame databases of the other variants (rules/variant.h): every position of a few
 * pieces with its exact value and distance, for any variant whose position is its board
 * alone (not Frisian, whose king-move counts are part of a position).
 *
 * A class is a material: white men, white kings, black men, black kings. Its table holds
 * a byte for every placement (each group's squares ranked as a combination over the
 * board's squares, the groups in that order, then the side to move): 0 a draw, 255 no
 * position (two pieces on a square, a man on the row where it would have been crowned),
 * else the distance d + 1: the plies to the end with best play (the winner's fastest, the
 * loser's slowest), a loss for the side to move when d is even, a win when odd.
 * The values are the game's under its move rules alone: the draw rules that count moves
 * (kings-only moves, FMJD's 16- and 5-move endings) are not in them; the search applies
 * those.
 *
 * Built by forward passes (vegdb_build): the positions without a move are losses in 0;
 * pass k finds the wins in k (a move to a loss in k - 1) and the losses in k (every move to
 * a win in at most k - 1), the classes with fewer pieces or fewer men first, so that a
 * capture or a crowning lands in a finished table. Files: DIR/VARIANT/NAME.vdb, NAME as
 * "MK-KK" (white's men and kings, black's), zstd-compressed with a checksum. */
#ifndef PK_VEGDB_H
#define PK_VEGDB_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include "rules/variant.h"

#define VEGDB_MAX_PIECES 6
#define VEGDB_SUFFIX ".vdb"
#define VEGDB_MAX_THREADS 64

typedef struct pk_vegdb pk_vegdb;

/* Whether v's positions can be held (not Frisian). */
bool vegdb_supported(const pk_variant *v);

typedef struct {
	const char *name;           /* the class being built: "MK-KK" */
	int done, total;            /* classes */
	int pass;                   /* its current pass */
	uint64_t positions, resolved;
	bool skipped;               /* already on disk (verified), not rebuilt */
	double seconds;
} pk_vegdb_progress;

/* Builds every class of v up to `pieces` pieces (each side at least one) into dir/KEY/,
 * each class written when done; a class whose file is there and reads back is kept.
 * threads share each class's first pass and its check (the levels between are one
 * thread's).
 * 0, or -1 with a message in err. stop: a flag that ends the build between passes. */
int vegdb_build(const pk_variant *v, int pieces, int threads, const char *dir, volatile sig_atomic_t *stop,
		void (*progress)(void *ctx, const pk_vegdb_progress *p), void *ctx, char *err, size_t errsize);

/* What `egdb verify --variant` found in a class. */
typedef struct {
	char name[16];
	uint64_t checked, wrong;
	char first[600];            /* the first wrong position, said ("" when none) */
} pk_vegdb_verified;
/* Re-checks the stored values of v's classes in dir (its complete levels) against their
 * moves' values, as the build's last pass does: every position, or about `sample` of
 * each class (every k-th from a random first). Every class is read into memory first.
 * fn (may be NULL) hears each class (non-zero: stop). 0, or -1 with a message in err. */
int vegdb_verify(const pk_variant *v, const char *dir, uint64_t sample, int threads, volatile sig_atomic_t *stop,
		 int (*fn)(void *ctx, const pk_vegdb_verified *r), void *ctx, char *err, size_t errsize);

/* Opens the classes of v in dir/KEY/: their headers are checked now, each table is read
 * whole into memory (and its checksum checked) when a probe first needs it. NULL with a
 * message in err when there are none or a header is wrong. */
pk_vegdb *vegdb_open(const pk_variant *v, const char *dir, char *err, size_t errsize);
void vegdb_free(pk_vegdb *db);
/* The most pieces of which every class is held (0: none complete). */
int vegdb_pieces(const pk_vegdb *db);
/* Bytes of the tables read so far. */
size_t vegdb_bytes(const pk_vegdb *db);
const pk_variant *vegdb_variant(const pk_vegdb *db);

/* The first class that could not be read when a probe needed it (its file named), or
 * NULL: its positions are then answered as not held. */
const char *vegdb_error(const pk_vegdb *db);
/* The value of p for its side to move: 1 held (*value EGDB_WIN, EGDB_DRAW or EGDB_LOSS,
 * *plies the distance, -1 for a draw), 0 not held. */
int vegdb_probe(const pk_vegdb *db, const pk_vpos *p, int *value, int *plies);

/* Facts about a class, for `egdb stats`: the counts of its positions. */
typedef struct {
	char name[16];
	int pieces;
	uint64_t positions, wins, losses, draws;
	int longest;                /* the longest win, in plies */
} pk_vegdb_class_stats;
/* Calls fn for every class held, in build order (each read); stops at fn's non-zero
 * answer, -1 when a class cannot be read (vegdb_error). */
int vegdb_each_class(const pk_vegdb *db, int (*fn)(void *ctx, const pk_vegdb_class_stats *s), void *ctx);

/* The process's databases of v in dir for the search: opened once a directory and a
 * variant, kept to the end (NULL: none there, or dir NULL). Thread-safe. */
const pk_vegdb *vegdb_shared_in(const char *dir, const pk_variant *v);
/* The same in the directory that vegdb_set_dir named last (the process's default; NULL:
 * none). */
void vegdb_set_dir(const char *dir);
const pk_vegdb *vegdb_shared(const pk_variant *v);

#endif
