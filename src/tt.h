/* The transposition table: what earlier searches learned about a position, by key. */
#ifndef PK_TT_H
#define PK_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TT_NONE, TT_UPPER, TT_LOWER, TT_EXACT };

typedef struct {
	uint64_t key;
	int16_t score;
	int8_t depth;
	uint8_t bound;
	uint8_t move;       /* ordinal of the best move + 1; 0 when none */
	uint8_t age;
	uint16_t pad;
} tt_entry;

typedef struct {
	tt_entry *e;
	size_t mask;       /* entries - 1 (a power of two) */
	uint8_t age;
} pk_tt;

int tt_init(pk_tt *t, size_t megabytes);   /* 0 or -1 */
void tt_free(pk_tt *t);
void tt_clear(pk_tt *t);
tt_entry *tt_probe(pk_tt *t, uint64_t key);  /* the slot for key (check its key) */
void tt_store(pk_tt *t, uint64_t key, int depth, int score, int bound, int move);

#endif
