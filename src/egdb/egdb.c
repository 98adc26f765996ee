/* Reading endgame databases: slice files (header, block table, zstd blocks), a shared
 * block cache, and probing with captures resolved by a small search. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/port.h"
#include <unistd.h>
#include "base/hash.h"
#include "egdb/egdb.h"
#include "egdb/format.h"
#include "egdb/egdb_int.h"
#include "pdn/zio.h"
#include "rules/gen.h"

pk_egdb *egdb_new(size_t cache_bytes)
{
	pk_egdb *db = calloc(1, sizeof *db);
	if (!db)
		return NULL;
	if (egdb_set_cache(db, cache_bytes) < 0) {
		free(db);
		return NULL;
	}
	pthread_mutex_init(&db->lock, NULL);
	pthread_mutex_init(&db->err_lock, NULL);
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&db->stripes[i].m, NULL);
	pk_slice s;
	pk_material one = { { 1, 0 }, { 0, 1 } };
	slice_init(&s, &one);    /* the index tables, before any thread probes */
	return db;
}

void egdb_slice_free(eslice *s)
{
	if (!s)
		return;
	free(s->mem);
	if (s->fd >= 0)
		close(s->fd);
	free(s->blocks);
	free(s);
}

void egdb_free(pk_egdb *db)
{
	if (!db)
		return;
	for (int i = 0; i < db->n; i++)
		egdb_slice_free(db->list[i]);
	free(db->list);
	for (int i = 0; i < db->nholders; i++) {
		free(db->holders[i]->parts);
		free(db->holders[i]);
	}
	free(db->holders);
	for (size_t i = 0; i < db->nsets * WAYS; i++)
		free(db->slots[i].data);
	free(db->slots);
	pthread_mutex_destroy(&db->lock);
	pthread_mutex_destroy(&db->err_lock);
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_destroy(&db->stripes[i].m);
	free(db);
}

int egdb_set_cache(pk_egdb *db, size_t cache_bytes)
{
	size_t nsets = cache_bytes / EGDB_BLOCK_BYTES / WAYS;
	if (nsets < 2)
		nsets = 2;
	slot *slots = calloc(nsets * WAYS, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t i = 0; i < nsets * WAYS; i++)
		slots[i].slice = -1;
	for (size_t i = 0; i < db->nsets * WAYS; i++)
		free(db->slots[i].data);
	free(db->slots);
	db->slots = slots;
	db->nsets = nsets;
	for (int i = 0; i < STRIPES; i++)
		db->stripes[i].clock = 0;
	return 0;
}

size_t egdb_cache_bytes(const pk_egdb *db)
{
	return db->nsets * WAYS * (size_t)EGDB_BLOCK_BYTES;
}

uint64_t egdb_disk_bytes(const pk_egdb *db)
{
	uint64_t bytes = 0;
	pthread_mutex_lock(&((pk_egdb *)db)->lock);
	for (int i = 0; i < db->n; i++)
		if (!db->list[i]->mem)
			bytes += (uint64_t)db->list[i]->info.nblocks * EGDB_BLOCK_BYTES;
	pthread_mutex_unlock(&((pk_egdb *)db)->lock);
	return bytes;
}

static int put_slice(pk_egdb *db, eslice *s)
{
	int k = mat_key(&s->sl.mat);
	if (k < 0)
		return -1;
	if (db->by_key[k] && !db->by_key[k]->parts) {
		/* Replace in place: the id stays, the cached blocks of the old one go. */
		eslice *old = db->by_key[k];
		s->id = old->id;
		db->list[s->id] = s;
		db->by_key[k] = s;
		egdb_forget_blocks(db, s->id);
		egdb_slice_free(old);
		return 0;
	}
	if (egdb_list_add(db, s) < 0)
		return -1;
	db->by_key[k] = s;
	return 0;
}

void egdb_forget_blocks(pk_egdb *db, int id)
{
	for (size_t i = 0; i < db->nsets * WAYS; i++)
		if (db->slots[i].slice == id)
			db->slots[i].slice = -1;
}

int egdb_list_add(pk_egdb *db, eslice *s)
{
	if (db->n == db->cap) {
		int cap = db->cap ? db->cap * 2 : 64;
		eslice **l = realloc(db->list, sizeof *l * (size_t)cap);
		if (!l)
			return -1;
		db->list = l;
		db->cap = cap;
	}
	s->id = db->n;
	db->list[db->n++] = s;
	return 0;
}

int egdb_add_memory(pk_egdb *db, const pk_material *mat, uint8_t *codes, bool distances)
{
	eslice *s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	s->fd = -1;
	slice_init(&s->sl, mat);
	s->mem = codes;
	s->info.mat = *mat;
	material_name(mat, s->info.name, sizeof s->info.name);
	s->info.distances = distances;
	s->info.in_memory = true;
	s->info.size = s->sl.size;
	pthread_mutex_lock(&db->lock);
	int rc = put_slice(db, s);
	pthread_mutex_unlock(&db->lock);
	if (rc < 0) {
		s->mem = NULL;
		egdb_slice_free(s);
		return -1;
	}
	return 0;
}

int egdb_add_file(pk_egdb *db, const char *path, char *err, size_t errsize)
{
	eslice *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errsize, "%s: out of memory", path);
		return -1;
	}
	/* not blocking on a FIFO, which is then refused as no regular file */
	s->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | PK_O_BINARY);
	if (s->fd < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(s);
		return -1;
	}
	struct stat st;
	if (fstat(s->fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "%s: not a regular file", path);
		egdb_slice_free(s);
		return -1;
	}
	egdb_header h;
	char why[200];
	if (fstat(s->fd, &st) < 0 ||
	    egdb_read_header(s->fd, (uint64_t)st.st_size, &h, &s->blocks, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s: %s", path, why);
		egdb_slice_free(s);
		return -1;
	}
	if (h.flags & EGDB_FLAG_PART)
		slice_init_part(&s->sl, &h.mat, h.lead[0], h.lead[1]);
	else
		slice_init(&s->sl, &h.mat);
	pk_egdb_slice_info *in = &s->info;
	in->part = h.flags & EGDB_FLAG_PART;
	in->lead[0] = h.lead[0];
	in->lead[1] = h.lead[1];
	in->mat = h.mat;
	material_name(&h.mat, in->name, sizeof in->name);
	snprintf(in->path, sizeof in->path, "%s", path);
	in->distances = h.flags & EGDB_FLAG_DISTANCES;
	in->size = h.size;
	in->positions = h.positions;
	in->wins = h.wins;
	in->losses = h.losses;
	in->draws = h.draws;
	in->captures = h.captures;
	in->longest_win = h.longest_win;
	in->longest_loss = h.longest_loss;
	in->build_ms = h.build_ms;
	in->bytes = (uint64_t)st.st_size;
	in->nblocks = h.nblocks;
	in->block_positions = h.block_positions;
	in->packed = s->packed = h.flags & EGDB_FLAG_PACKED;
	in->threats = s->threats = h.flags & EGDB_FLAG_THREATS;
	in->threat_positions = h.threats;
	s->bpos = h.block_positions;
	if (h.size != s->sl.size) {
		snprintf(err, errsize, "%s: header says %llu positions, the index of %s has %llu", path,
			 (unsigned long long)h.size, in->name, (unsigned long long)s->sl.size);
		egdb_slice_free(s);
		return -1;
	}
	if (in->part) {
		pthread_mutex_lock(&db->lock);
		int rc = egdb_put_part(db, s);
		pthread_mutex_unlock(&db->lock);
		if (rc < 0) {
			snprintf(err, errsize, "%s: out of memory", path);
			egdb_slice_free(s);
			return -1;
		}
		return 0;
	}
	if (put_slice(db, s) < 0) {
		snprintf(err, errsize, "%s: out of memory", path);
		egdb_slice_free(s);
		return -1;
	}
	return 0;
}

static int name_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int egdb_add_dir(pk_egdb *db, const char *dir, char *err, size_t errsize)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	int n = 0, cap = 0, rc = 0;
	struct dirent *e;
	size_t sl = strlen(EGDB_SUFFIX);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= sl || strcmp(e->d_name + len - sl, EGDB_SUFFIX))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **t = realloc(names, sizeof *t * (size_t)cap);
			if (!t) {
				rc = -1;
				break;
			}
			names = t;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (rc < 0)
		snprintf(err, errsize, "%s: out of memory", dir);
	if (n > 1)
		qsort(names, (size_t)n, sizeof *names, name_order);
	int added = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (egdb_add_file(db, path, err, errsize) < 0)
			rc = -1;
		else
			added++;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc < 0 ? -1 : added;
}

bool egdb_has(const pk_egdb *db, const pk_material *mat)
{
	int k = mat_key(mat);
	return k >= 0 && db->by_key[k] && !db->by_key[k]->parts;
}

static int missing(const pk_material *a, void *ctx)
{
	return !egdb_has(ctx, a);
}

static int no_distances(const pk_material *a, void *ctx)
{
	const pk_egdb *db = ctx;
	return !db->by_key[mat_key(a)]->info.distances;
}

int egdb_pieces(const pk_egdb *db)
{
	int n = 1;
	while (n < EGDB_MAX_PIECES && !material_each(n + 1, missing, (void *)db))
		n++;
	return n == 1 ? 0 : n;
}

int egdb_max_pieces(const pk_egdb *db)
{
	int n = 0;
	for (int i = 0; i < db->n; i++) {
		if (db->list[i]->sl.part)
			continue;
		int k = material_pieces(&db->list[i]->sl.mat);
		if (k > n)
			n = k;
	}
	return n;
}

typedef struct {
	const pk_egdb *db;
	char *buf;
	size_t size;
} missing_ctx;

static int note_missing(const pk_material *a, void *ctx)
{
	missing_ctx *m = ctx;
	if (egdb_has(m->db, a))
		return 0;
	char name[64];
	material_name(a, name, sizeof name);
	snprintf(m->buf, m->size, "%s%s", name, EGDB_SUFFIX);
	return 1;
}

bool egdb_missing_for(const pk_egdb *db, const pk_pos *p, char *buf, size_t size)
{
	pk_pos canon;
	pk_material mat;
	egdb_canonical(p, &canon);
	egdb_material(&canon, &mat);
	missing_ctx m = { db, buf, size };
	if (material_valid(&mat) && note_missing(&mat, &m))
		return true;
	for (int n = 2; n < material_pieces(&mat) && n <= EGDB_MAX_PIECES; n++)
		if (material_each(n, note_missing, &m))
			return true;
	return false;
}

bool egdb_has_distances(const pk_egdb *db, int pieces)
{
	if (egdb_pieces(db) < pieces)
		return false;
	for (int n = 2; n <= pieces; n++)
		if (material_each(n, no_distances, (void *)db))
			return false;
	return true;
}

bool egdb_slice_distances(const pk_egdb *db, const pk_material *mat)
{
	return egdb_has(db, mat) && db->by_key[mat_key(mat)]->info.distances;
}

const char *egdb_error(const pk_egdb *db)
{
	return db->err;
}

void egdb_counters(const pk_egdb *db, uint64_t *probes, uint64_t *blocks_read)
{
	*probes = atomic_load_explicit(&((pk_egdb *)db)->probes, memory_order_relaxed);
	*blocks_read = atomic_load_explicit(&((pk_egdb *)db)->reads, memory_order_relaxed);
}

static void set_error(pk_egdb *db, const char *fmt, ...) PK_PRINTF(2, 3);

static void set_error(pk_egdb *db, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pthread_mutex_lock(&db->err_lock);
	vsnprintf(db->err, sizeof db->err, fmt, ap);
	pthread_mutex_unlock(&db->err_lock);
	va_end(ap);
}

/* The bytes of block b of a slice once decompressed. */
static size_t block_bytes(const eslice *s, uint32_t b)
{
	uint64_t n = s->sl.size - (uint64_t)b * s->bpos;
	if (n > s->bpos)
		n = s->bpos;
	return s->packed ? (size_t)(n + 3) / 4 : (size_t)n;
}

/* Block b of a slice read from its file and decompressed into out (EGDB_BLOCK_BYTES
 * bytes); no lock is held. -1 on a failure (db->err says why). */
int egdb_read_block(pk_egdb *db, const eslice *s, uint32_t b, uint8_t *out)
{
	const egdb_block *bl = &s->blocks[b];
	uint8_t *cbuf = malloc(bl->csize ? bl->csize : 1);
	if (!cbuf) {
		set_error(db, "%s: out of memory", s->info.path);
		return -1;
	}
	int rc = -1;
	ssize_t got = pread(s->fd, cbuf, bl->csize, (off_t)bl->offset);
	uint64_t want = block_bytes(s, b);
	if (got != (ssize_t)bl->csize)
		set_error(db, "%s: block %u: %s", s->info.path, b,
			  got < 0 ? strerror(errno) : "the file is shorter than its block table says");
	else if (fnv32(FNV32_INIT, cbuf, bl->csize) != bl->checksum)
		set_error(db, "%s: block %u is damaged (checksum mismatch); rebuild the slice", s->info.path, b);
	else if (zio_block_decompress(out, EGDB_BLOCK_BYTES, cbuf, bl->csize) != (long)want)
		set_error(db, "%s: block %u does not decompress to its %llu bytes", s->info.path, b,
			  (unsigned long long)want);
	else
		rc = 0;
	free(cbuf);
	if (rc == 0)
		atomic_fetch_add_explicit(&db->reads, 1, memory_order_relaxed);
	return rc;
}

/* The slot of the set that holds block b of slice id, NULL if none; the set's lock held. */
static slot *set_find(slot *set, int id, uint32_t b)
{
	for (int i = 0; i < WAYS; i++)
		if (set[i].slice == id && set[i].block == b)
			return &set[i];
	return NULL;
}

/* The code of index idx of a slice on disk, through the cache; -2 on a read failure. */
static int disk_code(pk_egdb *db, eslice *s, uint64_t idx)
{
	uint32_t b = (uint32_t)(idx / s->bpos);
	size_t off = (size_t)(idx % s->bpos);
	unsigned shift = 0;
	if (s->packed) {     /* two bits a position, the first in the low bits */
		shift = 2 * (unsigned)(off & 3);
		off >>= 2;
	}
	size_t h = ((size_t)s->id * 2654435761u + b * 40503u) % db->nsets;
	stripe *st = &db->stripes[h % STRIPES];
	slot *set = &db->slots[WAYS * h];
	pthread_mutex_lock(&st->m);
	slot *c = set_find(set, s->id, b);
	if (c) {
		c->used = ++st->clock;
		int code = c->data[off] >> shift & (s->packed ? 3 : 0xFF);
		pthread_mutex_unlock(&st->m);
		return code;
	}
	pthread_mutex_unlock(&st->m);
	/* Miss: read it with no lock held, then put it in place of the set's least recently
	 * used slot (unless another thread has put it there meanwhile). */
	uint8_t *fresh = malloc(EGDB_BLOCK_BYTES);
	if (!fresh) {
		set_error(db, "%s: out of memory", s->info.path);
		return -2;
	}
	if (egdb_read_block(db, s, b, fresh) < 0) {
		free(fresh);
		return -2;
	}
	int code = fresh[off] >> shift & (s->packed ? 3 : 0xFF);
	pthread_mutex_lock(&st->m);
	if ((c = set_find(set, s->id, b))) {
		c->used = ++st->clock;
		pthread_mutex_unlock(&st->m);
		free(fresh);
		return code;
	}
	c = &set[0];
	for (int i = 1; i < WAYS; i++)
		if (set[i].used < c->used)
			c = &set[i];
	uint8_t *old = c->data;
	c->data = fresh;
	c->slice = s->id;
	c->block = b;
	c->used = ++st->clock;
	pthread_mutex_unlock(&st->m);
	free(old);
	return code;
}

static int stored_code(pk_egdb *db, eslice *s, uint64_t idx)
{
	if (s->mem)
		return s->mem_packed ? s->mem[idx >> 2] >> (2 * (idx & 3)) & 3 : s->mem[idx];
	atomic_fetch_add_explicit(&db->probes, 1, memory_order_relaxed);
	return disk_code(db, s, idx);
}

/* The code of the best move out of the successors' codes. */
typedef struct {
	int best_win;     /* smallest n of a successor lost in n plies, -1 none */
	int worst_loss;   /* largest n of a successor won in n plies */
	bool draw;
} combine;

static void combine_add(combine *cb, int code)
{
	if (code == EGDB_CODE_DRAW)
		cb->draw = true;
	else if (code & 1) {
		if (cb->best_win < 0 || code - 1 < cb->best_win)
			cb->best_win = code - 1;
	} else if (code - 1 > cb->worst_loss)
		cb->worst_loss = code - 1;
}

static int combine_code(const combine *cb)
{
	int n;
	if (cb->best_win >= 0)
		n = cb->best_win + 1;
	else if (cb->draw)
		return EGDB_CODE_DRAW;
	else
		n = cb->worst_loss + 1;
	return n + 1 > 255 ? 255 : n + 1;
}

/* Whether the side not to move of p has a capture. */
static bool other_captures(const pk_pos *p)
{
	pk_pos q = *p;
	q.stm = !p->stm;
	return gen_has_capture(&q);
}

bool egdb_quiet_threat_omitted(const pk_pos *canon)
{
	if (!other_captures(canon))
		return false;
	pk_movelist ml;
	gen_moves(canon, &ml);
	for (int i = 0; i < ml.n; i++) {
		pk_pos q;
		pos_make(canon, &ml.m[i], &q);
		if (!gen_has_capture(&q) && other_captures(&q))
			return false;   /* a child that is a threat: this one is stored */
	}
	return true;
}

bool egdb_threat_omitted(const pk_pos *canon)
{
	return !gen_has_capture(canon) && egdb_quiet_threat_omitted(canon);
}

static int code_of(pk_egdb *db, const pk_pos *p, int depth)
{
	pk_pos c;
	egdb_canonical(p, &c);
	if (!c.side[0])
		return 1;                 /* no pieces: lost */
	if (!c.side[1] || depth > 24)
		return -1;
	pk_material mat;
	egdb_material(&c, &mat);
	int k = mat_key(&mat);
	eslice *s = k < 0 ? NULL : db->by_key[k];
	if (!s)
		return -1;
	/* a capture, or a threat the slice does not store: the best of its moves */
	if (gen_has_capture(&c) || (s->threats && egdb_quiet_threat_omitted(&c))) {
		pk_movelist ml;
		gen_moves(&c, &ml);
		combine cb = { -1, -1, false };
		for (int i = 0; i < ml.n; i++) {
			pk_pos q;
			pos_make(&c, &ml.m[i], &q);
			int sub = code_of(db, &q, depth + 1);
			if (sub < 0)
				return sub;
			combine_add(&cb, sub);
		}
		return combine_code(&cb);
	}
	if (s->parts) {
		int lead[2];
		slice_leads(&c, lead);
		if (!(s = s->parts[part_at(lead[0], lead[1])]))
			return -1;
	}
	return stored_code(db, s, slice_index(&s->sl, &c));
}

int egdb_code(pk_egdb *db, const pk_pos *p)
{
	return code_of(db, p, 0);
}

int egdb_probe(pk_egdb *db, const pk_pos *p, pk_egdb_result *r)
{
	pk_pos c;
	egdb_canonical(p, &c);
	int code = code_of(db, &c, 0);
	if (code == -1)
		return EGDB_MISSING;
	if (code < 0)
		return EGDB_FAILED;
	r->value = code_value(code);
	bool dist = true;
	if (c.side[0] && c.side[1]) {
		pk_material mat;
		egdb_material(&c, &mat);
		dist = db->by_key[mat_key(&mat)]->info.distances;   /* a holder's: its first part's */
	}
	r->plies = r->value == EGDB_DRAW || !dist ? -1 : code - 1;
	return EGDB_FOUND;
}

static int info_order(const void *a, const void *b)
{
	const pk_egdb_slice_info *x = a, *y = b;
	int px = material_pieces(&x->mat), py = material_pieces(&y->mat);
	if (px != py)
		return px - py;
	int mx = material_men(&x->mat), my = material_men(&y->mat);
	if (mx != my)
		return mx - my;
	return strcmp(x->name, y->name);
}

pk_egdb_slice_info *egdb_slices(const pk_egdb *db, int *n)
{
	pk_egdb_slice_info *out = malloc(sizeof *out * (size_t)(db->n ? db->n : 1));
	if (!out) {
		*n = 0;
		return NULL;
	}
	int m = 0;
	for (int i = 0; i < db->n; i++)
		if (!db->list[i]->sl.part)
			out[m++] = db->list[i]->info;
	qsort(out, (size_t)m, sizeof *out, info_order);
	*n = m;
	return out;
}

long egdb_verify_slice(pk_egdb *db, const pk_material *mat, uint64_t sample, uint64_t seed,
		       volatile sig_atomic_t *stop, pk_egdb_bad_cb bad, void *ctx)
{
	int k = mat_key(mat);
	eslice *s = k < 0 ? NULL : db->by_key[k];
	if (!s || s->parts) {
		set_error(db, "no slice for that material");
		return -1;
	}
	bool dist = s->info.distances;
	long checked = 0;
	uint64_t n = sample ? sample : s->sl.size;
	for (uint64_t j = 0; j < n; j++) {
		if (stop && *stop)
			break;
		uint64_t idx = sample ? splitmix64(&seed) % s->sl.size : j;
		pk_pos p;
		if (!slice_position(&s->sl, idx, &p) || gen_has_capture(&p) || (s->threats && egdb_quiet_threat_omitted(&p)))
			continue;
		int stored = stored_code(db, s, idx);
		if (stored < 0)
			return -1;
		pk_movelist ml;
		gen_moves(&p, &ml);
		combine cb = { -1, -1, false };
		int proved = 1;
		for (int i = 0; i < ml.n; i++) {
			pk_pos q;
			pos_make(&p, &ml.m[i], &q);
			int sub = code_of(db, &q, 1);
			if (sub == -1) {
				set_error(db, "a successor's slice is missing (build the smaller slices)");
				return -1;
			}
			if (sub < 0)
				return -1;
			combine_add(&cb, sub);
		}
		if (ml.n)
			proved = combine_code(&cb);
		bool ok = dist ? proved == stored : code_value(proved) == code_value(stored);
		if (!ok && bad) {
			p.key = pos_compute_key(&p);
			bad(ctx, &p, stored, proved);
		}
		checked++;
	}
	return checked;
}
