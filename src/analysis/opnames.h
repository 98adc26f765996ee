/* The names of English draughts' classic openings ("Old Fourteenth", "Glasgow", "Single
 * Corner"), each the position after its moves from the start, from published tables (the
 * sources are in opnames.c and pdnkit(1)), and the name of the opening a game reached: the
 * named position of most moves met among its first plies, in whatever move order it was
 * reached. */
#ifndef PK_OPNAMES_H
#define PK_OPNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pdn/replay.h"

typedef struct {
	const char *name;            /* "Old Fourteenth" */
	const char *moves;           /* "11-15 23-19 8-11 22-17 4-8" */
	const char *source;          /* where the name and its moves are published */
	int plies;                   /* moves in `moves` */
	uint64_t key;                /* the position after them (pos.h's key) */
} pk_opname;

/* The table (the first call builds it; thread-safe): its size, entry i. */
int opnames_count(void);
const pk_opname *opnames_at(int i);
/* The entry of a name, any case, spaces and hyphens alike ("old fourteenth",
 * "laird-and-lady"); NULL when none has it. */
const pk_opname *opname_find(const char *name);
/* The opening of an English game's replay: the named position of most moves among the
 * positions of its first OPNAME_PLIES plies (its start must be the initial position);
 * NULL when it reaches none (or is of another variant or set up). */
#define OPNAME_PLIES 16
const pk_opname *opname_of_replay(const pk_replay *rp);
/* The same from the keys of a game's positions (keys[0] the start, keys[i] after ply i). */
const pk_opname *opname_of_keys(const uint64_t *keys, int n);

#endif
