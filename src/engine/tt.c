/* Transposition table: one slot per key, replaced by deeper or newer results. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#ifndef _WIN32
#include <sys/mman.h>
#endif
#include "engine/tt.h"

#define HUGE_PAGE (2u << 20)

int tt_init(pk_tt *t, size_t megabytes)
{
	size_t n = 1;
	size_t want = megabytes * 1024 * 1024 / sizeof(tt_entry);
	while (n * 2 <= want)
		n *= 2;
	size_t bytes = n * sizeof *t->e;
	t->map = NULL;
	t->map_len = 0;
	void *mem = NULL;
#ifndef _WIN32
	/* A table of 2 MB or more is mapped: its pages come zeroed, and only when first
	 * touched (a short search does not pay for the whole table). A search probes the
	 * table at random: on 4 KB pages nearly every probe also misses the TLB; aligned to
	 * 2 MB and marked, the kernel can back it with huge pages. */
	if (bytes >= HUGE_PAGE) {
		size_t len = bytes + HUGE_PAGE;
		void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map != MAP_FAILED) {
			uintptr_t a = ((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
			mem = (void *)a;
#ifdef MADV_HUGEPAGE
			madvise(mem, bytes, MADV_HUGEPAGE);
#endif
			t->map = map;
			t->map_len = len;
		}
	}
#endif
	if (!t->map) {
		mem = malloc(bytes);   /* (no posix_memalign: the Windows engine library) */
		if (!mem)
			return -1;
		memset(mem, 0, bytes);
	}
	t->e = mem;
	t->mask = n - 1;
	t->age = 0;
	t->ways = 1;
	return 0;
}

void tt_free(pk_tt *t)
{
#ifndef _WIN32
	if (t->map)
		munmap(t->map, t->map_len);
	else
#endif
		free(t->e);
	t->e = NULL;
	t->map = NULL;
}

void tt_clear(pk_tt *t)
{
	memset(t->e, 0, (t->mask + 1) * sizeof *t->e);
	t->age = 0;
}

static uint64_t pack(const tt_data *d)
{
	return (uint64_t)(uint16_t)d->score | (uint64_t)(uint8_t)d->depth << 16 | (uint64_t)d->bound << 24 |
	       (uint64_t)d->move << 32 | (uint64_t)d->age << 40 | 1ull << 48;   /* bit 48: in use */
}

static void unpack(uint64_t v, tt_data *d)
{
	d->score = (int16_t)(uint16_t)v;
	d->depth = (int8_t)(uint8_t)(v >> 16);
	d->bound = (uint8_t)(v >> 24);
	d->move = (uint8_t)(v >> 32);
	d->age = (uint8_t)(v >> 40);
}

static bool read_slot(const tt_entry *e, uint64_t *key, uint64_t *data)
{
	*data = atomic_load_explicit(&e->data, memory_order_relaxed);
	*key = atomic_load_explicit(&e->check, memory_order_relaxed) ^ *data;
	return *data >> 48 & 1;
}

/* Two slots a key (ways 2): its bucket of two entries; or one (ways 1). */
bool tt_probe(const pk_tt *t, uint64_t key, tt_data *out)
{
	uint64_t k, v;
	size_t i = t->ways == 2 ? key & t->mask & ~(size_t)1 : key & t->mask;
	for (int j = 0; j < t->ways; j++)
		if (read_slot(&t->e[i + (size_t)j], &k, &v) && k == key) {
			unpack(v, out);
			return true;
		}
	return false;
}

void tt_store(pk_tt *t, uint64_t key, int depth, int score, int bound, int move)
{
	size_t i = t->ways == 2 ? key & t->mask & ~(size_t)1 : key & t->mask;
	tt_entry *e = NULL;
	uint64_t k, v;
	tt_data old = { 0 };
	bool used = false;
	/* The slot holding this key; else an empty one; else the shallower or older one. */
	int worst = -1, worst_rank = 1 << 30;
	for (int j = 0; j < t->ways && !e; j++) {
		tt_entry *c = &t->e[i + (size_t)j];
		uint64_t ck, cv;
		if (!read_slot(c, &ck, &cv)) {
			worst = j;
			worst_rank = -1000;
			continue;
		}
		if (ck == key) {
			e = c;
			used = true;
			k = ck;
			v = cv;
			break;
		}
		tt_data d;
		unpack(cv, &d);
		int rank = d.depth + (d.age == t->age ? 256 : 0);
		if (rank < worst_rank) {
			worst_rank = rank;
			worst = j;
		}
	}
	if (!e) {
		e = &t->e[i + (size_t)worst];
		used = read_slot(e, &k, &v);
	}
	if (used)
		unpack(v, &old);
	/* One slot a key: keep a deeper result of the current search for another position. */
	if (t->ways == 1 && used && k != key && old.age == t->age && old.depth > depth)
		return;
	if (used && k == key && move < 0)
		move = old.move - 1;
	tt_data d = {
		.score = (int16_t)score,
		.depth = (int8_t)(depth > 127 ? 127 : depth < -128 ? -128 : depth),
		.bound = (uint8_t)bound,
		.move = (uint8_t)(move >= 0 && move < 255 ? move + 1 : 0),
		.age = t->age,
	};
	uint64_t nv = pack(&d);
	atomic_store_explicit(&e->check, key ^ nv, memory_order_relaxed);
	atomic_store_explicit(&e->data, nv, memory_order_relaxed);
}
