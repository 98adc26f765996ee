/* FNV-1a hashes, the one definition the core and the tests share: file checksums (book
 * format), game fingerprints (store), settings identifiers (annotation runs). Stable by
 * definition: changing them changes stored data. */
#ifndef PK_HASH_H
#define PK_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV32_INIT 2166136261u
#define FNV64_INIT 0xCBF29CE484222325ull

static inline uint32_t fnv32(uint32_t h, const void *data, size_t n)
{
	const uint8_t *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static inline uint64_t fnv64(uint64_t h, const void *data, size_t n)
{
	const uint8_t *p = data;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* SplitMix64: a stream of well-mixed 64-bit numbers from a counter (sampling, tests). */
static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

#endif
