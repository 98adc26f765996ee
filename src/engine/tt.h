/* The transposition table: what earlier searches learned about a position, by key.
 * Shared by the threads of a search without locks: each slot holds its data and the key
 * XORed with the data, so a slot torn by two simultaneous writers fails the key check
 * and reads as empty. */
#ifndef PK_TT_H
#define PK_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TT_NONE, TT_UPPER, TT_LOWER, TT_EXACT };

typedef struct {
	int16_t score;
	int8_t depth;
	uint8_t bound;
	uint8_t move;       /* ordinal of the best move + 1; 0 when none */
	uint8_t age;
} tt_data;

typedef struct {
	_Atomic uint64_t check;   /* key ^ data */
	_Atomic uint64_t data;
} tt_entry;

typedef struct {
	tt_entry *e;
	size_t mask;       /* entries - 1 (a power of two) */
	void *map;         /* the mapping e lies in (NULL: e was allocated) and its length */
	size_t map_len;
	uint8_t age;
	int ways;          /* slots a key may use: 1 (the default) or 2 (a bucket) */
} pk_tt;

int tt_init(pk_tt *t, size_t megabytes);   /* 0 or -1 */
void tt_free(pk_tt *t);
void tt_clear(pk_tt *t);
bool tt_probe(const pk_tt *t, uint64_t key, tt_data *out);  /* true when key is stored */
/* Asks for the key's slot to be brought into the cache ahead of its probe. */
static inline void tt_prefetch(const pk_tt *t, uint64_t key)
{
	__builtin_prefetch(&t->e[key & t->mask]);
}
void tt_store(pk_tt *t, uint64_t key, int depth, int score, int bound, int move);

#endif
