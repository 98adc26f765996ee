/* Slices and parts held in memory: the builder's, and those read whole from files. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "egdb/egdb_int.h"

int egdb_put_part(pk_egdb *db, eslice *s)
{
	int k = mat_key(&s->sl.mat);
	if (k < 0)
		return -1;
	eslice *h = db->by_key[k];
	if (h && !h->parts) {
		egdb_slice_free(s);
		return 0;
	}
	if (!h) {
		eslice **l = realloc(db->holders, sizeof *l * (size_t)(db->nholders + 1));
		if (!l)
			return -1;
		db->holders = l;
		if (!(h = calloc(1, sizeof *h)) || !(h->parts = calloc(PART_SLOTS, sizeof *h->parts))) {
			free(h);
			return -1;
		}
		h->fd = -1;
		h->id = -1;
		slice_init(&h->sl, &s->sl.mat);
		h->info = s->info;
		h->info.part = false;
		h->info.size = h->sl.size;
		db->holders[db->nholders++] = h;
		db->by_key[k] = h;
	}
	eslice **at = &h->parts[part_at(s->sl.lead[0], s->sl.lead[1])];
	if (*at) {
		eslice *old = *at;
		s->id = old->id;
		db->list[s->id] = s;
		egdb_forget_blocks(db, s->id);
		egdb_slice_free(old);
	} else if (egdb_list_add(db, s) < 0)
		return -1;
	*at = s;
	return 0;
}

bool egdb_has_part(const pk_egdb *db, const pk_material *mat, int lead0, int lead1)
{
	int k = mat_key(mat);
	eslice *h = k < 0 ? NULL : db->by_key[k];
	return h && h->parts && h->parts[part_at(mat->m[0] ? lead0 : -1, mat->m[1] ? lead1 : -1)];
}

bool egdb_part_distances(const pk_egdb *db, const pk_material *mat, int lead0, int lead1)
{
	int k = mat_key(mat);
	eslice *h = k < 0 ? NULL : db->by_key[k];
	eslice *s = h && h->parts ? h->parts[part_at(mat->m[0] ? lead0 : -1, mat->m[1] ? lead1 : -1)] : NULL;
	return s && s->info.distances;
}

int egdb_unload_memory(pk_egdb *db, const pk_material *mat)
{
	int k = mat_key(mat);
	eslice *s = k < 0 ? NULL : db->by_key[k];
	if (!s || !s->mem)
		return 1;
	if (s->fd < 0)
		return -1;
	pthread_mutex_lock(&db->lock);
	free(s->mem);
	s->mem = NULL;
	pthread_mutex_unlock(&db->lock);
	return 0;
}

/* Reads every block of one slice or part on disk into memory: a byte a position, or
 * when packed_ok and it has no distances two bits (its codes are 0, 1 and 2). */
static int load_eslice(pk_egdb *db, eslice *s, bool packed_ok, char *err, size_t errsize)
{
	bool packed = packed_ok && !s->info.distances;
	if (s->mem && s->mem_packed == packed)
		return 0;
	uint64_t bytes = packed ? (s->sl.size + 3) / 4 : s->sl.size;
	uint8_t *mem = calloc(bytes ? bytes : 1, 1);
	if (!mem) {
		snprintf(err, errsize, "%s: out of memory (%llu bytes)", s->info.path, (unsigned long long)bytes);
		return -1;
	}
	uint8_t *buf = malloc(EGDB_BLOCK_BYTES);
	if (!buf) {
		snprintf(err, errsize, "%s: out of memory", s->info.path);
		free(mem);
		return -1;
	}
	for (uint64_t i = 0; i < s->sl.size; i += s->bpos) {
		if (egdb_read_block(db, s, (uint32_t)(i / s->bpos), buf) < 0) {
			pthread_mutex_lock(&db->err_lock);
			snprintf(err, errsize, "%s", db->err);
			pthread_mutex_unlock(&db->err_lock);
			free(buf);
			free(mem);
			return -1;
		}
		uint64_t n = s->sl.size - i < s->bpos ? s->sl.size - i : s->bpos;
		if (packed && s->packed && (i & 3) == 0)   /* the file's own layout */
			memcpy(mem + i / 4, buf, (size_t)(n + 3) / 4);
		else if (packed)
			for (uint64_t j = 0; j < n; j++)
				mem[(i + j) >> 2] |= (uint8_t)((buf[j] & 3) << (2 * ((i + j) & 3)));
		else if (s->packed)   /* one byte a position, as the builder's own slices */
			for (uint64_t j = 0; j < n; j++)
				mem[i + j] = buf[j >> 2] >> (2 * (j & 3)) & 3;
		else
			memcpy(mem + i, buf, n);
	}
	free(buf);
	pthread_mutex_lock(&db->lock);
	free(s->mem);
	s->mem = mem;
	s->mem_packed = packed;
	pthread_mutex_unlock(&db->lock);
	return 0;
}

int egdb_load_memory(pk_egdb *db, const pk_material *mat, char *err, size_t errsize)
{
	int k = mat_key(mat);
	eslice *s = k < 0 ? NULL : db->by_key[k];
	if (!s || s->parts) {
		snprintf(err, errsize, "no such slice");
		return -1;
	}
	return load_eslice(db, s, true, err, errsize);
}

int egdb_part_memory(pk_egdb *db, const pk_material *mat, int lead0, int lead1, bool load, char *err, size_t errsize)
{
	int k = mat_key(mat);
	eslice *h = k < 0 ? NULL : db->by_key[k];
	eslice *s = h && h->parts ? h->parts[part_at(mat->m[0] ? lead0 : -1, mat->m[1] ? lead1 : -1)] : NULL;
	if (!s) {
		snprintf(err, errsize, "no such part");
		return -1;
	}
	if (load)
		return load_eslice(db, s, true, err, errsize);
	if (s->mem && s->fd >= 0) {
		pthread_mutex_lock(&db->lock);
		free(s->mem);
		s->mem = NULL;
		pthread_mutex_unlock(&db->lock);
	}
	return 0;
}

const uint8_t *egdb_stored_codes(pk_egdb *db, const pk_material *mat, char *err, size_t errsize)
{
	int k = mat_key(mat);
	eslice *s = k < 0 ? NULL : db->by_key[k];
	if (!s || s->parts) {
		snprintf(err, errsize, "no such slice");
		return NULL;
	}
	return load_eslice(db, s, false, err, errsize) < 0 ? NULL : s->mem;
}
