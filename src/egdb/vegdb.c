/* Endgame databases of the other variants (egdb/vegdb.h): the classes and their index,
 * the files read (each table when a probe first needs it), probing, and the databases the
 * search shares. The builder is vegdb_build.c. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include "egdb/egdb.h"
#include "base/pool.h"
#include "egdb/vegdb_int.h"
#include "pdn/zio.h"
#include "rules/pos.h"

static uint64_t binom[VAR_MAX_SQ + 1][VEGDB_MAX_PIECES + 2];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void binom_init(void)
{
	for (int n = 0; n <= VAR_MAX_SQ; n++) {
		binom[n][0] = 1;
		for (int k = 1; k <= VEGDB_MAX_PIECES + 1; k++)
			binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
	}
}

static int group_of(int piece)
{
	switch (piece) {
	case VP_WMAN: return 0;
	case VP_WKING: return 1;
	case VP_BMAN: return 2;
	case VP_BKING: return 3;
	default: return -1;
	}
}

static const int piece_of[4] = { VP_WMAN, VP_WKING, VP_BMAN, VP_BKING };

bool vegdb_supported(const pk_variant *v) { return v && !v->king_moves && v->replayable; }

static void class_name(const int n[4], char *buf, size_t size)
{
	char s[2 * VEGDB_MAX_PIECES + 2];
	int k = 0;
	for (int g = 0; g < 4; g++) {
		for (int i = 0; i < n[g] && k < (int)sizeof s - 2; i++)
			s[k++] = g % 2 ? 'K' : 'M';
		if (g == 1)
			s[k++] = '-';
	}
	s[k] = 0;
	snprintf(buf, size, "%s", s);
}

static int cmp_class(const void *a, const void *b)
{
	const vclass *x = a, *y = b;
	if (x->pieces != y->pieces)
		return x->pieces - y->pieces;
	if (x->men != y->men)
		return x->men - y->men;
	return strcmp(x->name, y->name);
}

/* Every class of v up to `pieces` pieces, each side at least one, in build order: fewer
 * pieces first, then fewer men (a crowning lands in a class of one man fewer). */
pk_vegdb *vdb_new(const pk_variant *v, int pieces)
{
	pthread_once(&binom_once, binom_init);
	pk_vegdb *db = calloc(1, sizeof *db);
	if (!db)
		return NULL;
	db->v = v;
	db->nsq = variant_squares(v);
	pthread_mutex_init(&db->lock, NULL);
	memset(db->map, -1, sizeof db->map);
	for (int s = 1; s <= db->nsq; s++) {
		int r, c;
		variant_square_rc(v, s, &r, &c);
		db->crown[PK_WHITE][s] = r == 0;
		db->crown[PK_BLACK][s] = r == v->rows - 1;
	}
	int cap = 0;
	for (int a = 0; a <= pieces; a++)
		for (int b = 0; a + b <= pieces; b++)
			for (int c = 0; a + b + c <= pieces; c++)
				for (int d = 0; a + b + c + d <= pieces; d++)
					if (a + b >= 1 && c + d >= 1)
						cap++;
	db->cls = calloc((size_t)cap, sizeof *db->cls);
	if (!db->cls) {
		free(db);
		return NULL;
	}
	for (int a = 0; a <= pieces; a++)
		for (int b = 0; a + b <= pieces; b++)
			for (int c = 0; a + b + c <= pieces; c++)
				for (int d = 0; a + b + c + d <= pieces; d++) {
					if (a + b < 1 || c + d < 1)
						continue;
					vclass *k = &db->cls[db->nclass++];
					int n[4] = { a, b, c, d };
					memcpy(k->n, n, sizeof n);
					k->pieces = a + b + c + d;
					k->men = a + c;
					k->size = 2;
					for (int g = 0; g < 4; g++) {
						k->radix[g] = binom[db->nsq][n[g]];
						k->size *= k->radix[g];
					}
					class_name(n, k->name, sizeof k->name);
				}
	qsort(db->cls, (size_t)db->nclass, sizeof *db->cls, cmp_class);
	for (int i = 0; i < db->nclass; i++) {
		const int *n = db->cls[i].n;
		db->map[n[0]][n[1]][n[2]][n[3]] = i;
	}
	return db;
}

void vegdb_free(pk_vegdb *db)
{
	if (!db)
		return;
	for (int i = 0; i < db->nclass; i++)
		free(db->cls[i].t);
	free(db->cls);
	pthread_mutex_destroy(&db->lock);
	free(db);
}

/* p's pieces by group (n) and each group's rank as a combination (rank): false when p
 * has more pieces than db holds. The board is read eight squares a word, empty words
 * skipped (a few pieces on 32 to 72 squares). */
static bool scan(const pk_vegdb *db, const pk_vpos *p, int n[4], uint64_t rank[4])
{
	int total = 0;
	n[0] = n[1] = n[2] = n[3] = 0;
	rank[0] = rank[1] = rank[2] = rank[3] = 0;
	for (int base = 1; base <= db->nsq; base += 8) {
		uint64_t w;
		memcpy(&w, &p->sq[base], sizeof w);   /* (sq has room past the last square) */
		while (w) {
			int b = __builtin_ctzll(w) >> 3, s = base + b;
			w &= ~(0xFFull << (8 * b));
			if (s > db->nsq)
				break;
			int g = group_of(p->sq[s]);
			if (g < 0)
				continue;
			if (++total > db->pieces || n[g] >= VEGDB_MAX_PIECES)
				return false;
			rank[g] += binom[s - 1][n[g] + 1];
			n[g]++;
		}
	}
	return true;
}

/* The index of a scanned position in its class (*cls), or -1 when db has no such class
 * (a side without pieces). */
static int64_t index_in(const pk_vegdb *db, const int n[4], const uint64_t rank[4], int stm, int *cls)
{
	int c = db->map[n[0]][n[1]][n[2]][n[3]];
	if (c < 0)
		return -1;
	const vclass *k = &db->cls[c];
	uint64_t idx = ((rank[0] * k->radix[1] + rank[1]) * k->radix[2] + rank[2]) * k->radix[3] + rank[3];
	*cls = c;
	return (int64_t)(idx * 2 + (stm == PK_WHITE ? 0 : 1));
}

/* The class of p and its index there; -1 when p's material is not one of db's (too many
 * pieces, or a side without any). */
int64_t vdb_index_of(const pk_vegdb *db, const pk_vpos *p, int *cls)
{
	int n[4];
	uint64_t rank[4];
	if (!scan(db, p, n, rank))
		return -1;
	return index_in(db, n, rank, p->stm, cls);
}

/* The position at idx of class k; false when there is none (two pieces on a square, a
 * man on its crowning row). */
bool vdb_decode(const pk_vegdb *db, const vclass *k, uint64_t idx, pk_vpos *p)
{
	return vdb_decode_place(db, k, idx, p, NULL);
}

bool vdb_decode_place(const pk_vegdb *db, const vclass *k, uint64_t idx, pk_vpos *p, vplace *pl)
{
	if (pl)
		memcpy(pl->n, k->n, sizeof pl->n);
	vpos_clear(db->v, p, idx & 1 ? PK_BLACK : PK_WHITE);
	idx >>= 1;
	uint64_t rank[4];
	for (int g = 3; g >= 0; g--) {
		rank[g] = idx % k->radix[g];
		idx /= k->radix[g];
	}
	for (int g = 0; g < 4; g++) {
		uint64_t r = rank[g];
		int hi = db->nsq - 1;
		for (int i = k->n[g] - 1; i >= 0; i--) {
			while (binom[hi][i + 1] > r)
				hi--;
			r -= binom[hi][i + 1];
			int s = hi + 1;
			if (p->sq[s])
				return false;
			if (g % 2 == 0 && db->crown[g == 0 ? PK_WHITE : PK_BLACK][s])
				return false;
			p->sq[s] = (uint8_t)piece_of[g];
			if (pl)
				pl->sq[g][i] = (uint8_t)s;
			hi--;
		}
	}
	return true;
}

/* Takes square s out of group g of pl (its squares kept ascending). */
static void place_remove(vplace *pl, int g, int s)
{
	int n = pl->n[g], i = 0;
	while (i < n && pl->sq[g][i] != s)
		i++;
	for (; i + 1 < n; i++)
		pl->sq[g][i] = pl->sq[g][i + 1];
	pl->n[g] = n - 1;
}

/* Puts square s into group g of pl; false when the group is full. */
static bool place_add(vplace *pl, int g, int s)
{
	int n = pl->n[g];
	if (n >= VEGDB_MAX_PIECES)
		return false;
	int i = n;
	while (i > 0 && pl->sq[g][i - 1] > s) {
		pl->sq[g][i] = pl->sq[g][i - 1];
		i--;
	}
	pl->sq[g][i] = (uint8_t)s;
	pl->n[g] = n + 1;
	return true;
}

int64_t vdb_place_index(const pk_vegdb *db, const vplace *pl, int stm, int *cls)
{
	uint64_t rank[4];
	for (int g = 0; g < 4; g++) {
		rank[g] = 0;
		for (int i = 0; i < pl->n[g]; i++)
			rank[g] += binom[pl->sq[g][i] - 1][i + 1];
	}
	return index_in(db, pl->n, rank, stm, cls);
}

void vdb_place_move(vplace *pl, int g, int from, int to)
{
	place_remove(pl, g, from);
	place_add(pl, g, to);
}

int vdb_child_byte(const pk_vegdb *db, const vplace *parent, const pk_vpos *p, const pk_vmove *m, const pk_vpos *child,
		   int *cls)
{
	vplace pl = *parent;
	*cls = -1;
	place_remove(&pl, group_of(p->sq[m->from]), m->from);
	for (int i = 0; i < m->ncap; i++)
		place_remove(&pl, group_of(p->sq[m->cap[i]]), m->cap[i]);
	if (!place_add(&pl, group_of(child->sq[m->to]), m->to))
		return -1;
	int stm = child->stm;
	if ((stm == PK_WHITE ? pl.n[0] + pl.n[1] : pl.n[2] + pl.n[3]) == 0)
		return 1;                      /* no pieces: lost, in 0 plies */
	int c = -1;
	int64_t idx = vdb_place_index(db, &pl, stm, &c);
	*cls = c;
	if (idx < 0 || !db->cls[c].t)
		return -1;
	return db->cls[c].t[idx];
}

/* The stored byte of p (a child of a position being built or checked): a side to move
 * without pieces has lost; -1 when its class is not held. */
int vdb_byte_of(const pk_vegdb *db, const pk_vpos *p, int *cls)
{
	int n[4], c = -1;
	uint64_t rank[4];
	*cls = -1;
	if (!scan(db, p, n, rank))
		return -1;
	if ((p->stm == PK_WHITE ? n[0] + n[1] : n[2] + n[3]) == 0)
		return 1;                      /* no pieces: lost, in 0 plies */
	int64_t i = index_in(db, n, rank, p->stm, &c);
	*cls = c;
	if (i < 0 || !db->cls[c].t)
		return -1;
	return db->cls[c].t[i];
}

/* ---- files ------------------------------------------------------------------------ */

uint64_t vdb_fnv(const uint8_t *a, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ a[i]) * 0x100000001b3ULL;
	return h;
}

void vdb_class_path(const pk_vegdb *db, const vclass *k, const char *dir, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s/%s%s", dir, db->v->key, k->name, VEGDB_SUFFIX);
}


/* Reads class k from dir (with header_only its header alone, and the file's length
 * checked against it): 1 read, 0 no file, -1 damaged (message in err). */
int vdb_read_class(const pk_vegdb *db, vclass *k, const char *dir, bool header_only, char *err, size_t errsize)
{
	char path[4096];
	vdb_class_path(db, k, dir, path, sizeof path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	vheader h;
	int rc = -1;
	uint8_t *z = NULL;
	if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, MAGIC, 8) || h.gametype != (uint32_t)db->v->gametype ||
	    h.size != k->size || h.n[0] != k->n[0] || h.n[1] != k->n[1] || h.n[2] != k->n[2] || h.n[3] != k->n[3] ||
	    h.packed > zio_block_bound(k->size)) {
		snprintf(err, errsize, "%s: not a %s database of this class (rebuild it: pdnkit egdb build --variant %s)",
			 path, db->v->name, db->v->key);
		goto out;
	}
	if (header_only) {
		long here = ftell(f);
		if (fseek(f, 0, SEEK_END) || ftell(f) != here + (long)h.packed) {
			snprintf(err, errsize, "%s: truncated (rebuild it: pdnkit egdb build --variant %s)", path, db->v->key);
			goto out;
		}
		k->present = true;
		rc = 1;
		goto out;
	}
	z = malloc(h.packed ? h.packed : 1);
	k->t = malloc(k->size);
	if (!z || !k->t) {
		snprintf(err, errsize, "%s: out of memory", path);
		goto out;
	}
	if (fread(z, 1, h.packed, f) != h.packed) {
		snprintf(err, errsize, "%s: truncated (rebuild it: pdnkit egdb build --variant %s)", path, db->v->key);
		goto out;
	}
	long n = zio_block_decompress(k->t, k->size, z, h.packed);
	if (n < 0 || (uint64_t)n != k->size || vdb_fnv(k->t, k->size) != h.check) {
		snprintf(err, errsize, "%s: damaged (its checksum differs; rebuild it: pdnkit egdb build --variant %s)", path,
			 db->v->key);
		goto out;
	}
	k->present = true;
	rc = 1;
out:
	fclose(f);
	free(z);
	if (rc < 0) {
		free(k->t);
		k->t = NULL;
	}
	return rc;
}

/* ---- reading ---------------------------------------------------------------------- */

pk_vegdb *vegdb_open(const pk_variant *v, const char *dir, char *err, size_t errsize)
{
	if (!vegdb_supported(v)) {
		snprintf(err, errsize, "%s: no databases for this variant", v ? v->name : "?");
		return NULL;
	}
	pk_vegdb *db = vdb_new(v, VEGDB_MAX_PIECES);
	if (!db) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	/* level by level: a level is held when every class of it is read */
	for (int level = 2; level <= VEGDB_MAX_PIECES; level++) {
		bool all = true;
		for (int c = 0; c < db->nclass; c++) {
			vclass *k = &db->cls[c];
			if (k->pieces != level)
				continue;
			int got = vdb_read_class(db, k, dir, true, err, errsize);
			if (got < 0) {
				vegdb_free(db);
				return NULL;
			}
			all = all && got == 1;
		}
		if (!all) {
			for (int c = 0; c < db->nclass; c++)
				if (db->cls[c].pieces == level)
					db->cls[c].present = false;
			break;
		}
		db->pieces = level;
	}
	snprintf(db->dir, sizeof db->dir, "%s", dir);
	if (db->pieces < 2) {
		snprintf(err, errsize, "%s/%s: no %s databases (build them: pdnkit egdb build --variant %s)", dir, v->key,
			 v->name, v->key);
		vegdb_free(db);
		return NULL;
	}
	return db;
}

int vegdb_pieces(const pk_vegdb *db) { return db ? db->pieces : 0; }
const pk_variant *vegdb_variant(const pk_vegdb *db) { return db->v; }

size_t vegdb_bytes(const pk_vegdb *db)
{
	size_t n = 0;
	for (int c = 0; c < db->nclass; c++)
		if (db->cls[c].t)
			n += db->cls[c].size;
	return n;
}

/* The table of class c, read on its first need (a search's threads may ask at once);
 * NULL when it cannot be read (db->err says why). */
static const uint8_t *table(const pk_vegdb *cdb, int c)
{
	pk_vegdb *db = (pk_vegdb *)cdb;   /* (reading a class changes nothing a probe sees) */
	vclass *k = &db->cls[c];
	const uint8_t *t = __atomic_load_n(&k->t, __ATOMIC_ACQUIRE);
	if (t || !k->present || k->failed)
		return t;
	pthread_mutex_lock(&db->lock);
	if (!k->t && !k->failed) {
		vclass tmp = *k;
		char err[700];
		if (vdb_read_class(db, &tmp, db->dir, false, err, sizeof err) == 1)
			__atomic_store_n(&k->t, tmp.t, __ATOMIC_RELEASE);
		else {
			k->failed = true;
			if (!db->err[0])
				snprintf(db->err, sizeof db->err, "%s", err);
		}
	}
	t = k->t;
	pthread_mutex_unlock(&db->lock);
	return t;
}

const char *vegdb_error(const pk_vegdb *db)
{
	pthread_mutex_lock((pthread_mutex_t *)&db->lock);
	const char *e = db->err[0] ? db->err : NULL;
	pthread_mutex_unlock((pthread_mutex_t *)&db->lock);
	return e;
}

int vegdb_probe(const pk_vegdb *db, const pk_vpos *p, int *value, int *plies)
{
	if (!db || p->v != db->v)
		return 0;
	int c;
	int64_t i = vdb_index_of(db, p, &c);
	if (i < 0)
		return 0;
	const uint8_t *t = table(db, c);
	if (!t)
		return 0;
	int b = t[i];
	if (b == T_NONE)
		return 0;
	if (b == 0) {
		*value = EGDB_DRAW;
		*plies = -1;
	} else {
		*plies = b - 1;
		*value = (b - 1) % 2 ? EGDB_WIN : EGDB_LOSS;
	}
	return 1;
}

int vegdb_each_class(const pk_vegdb *db, int (*fn)(void *ctx, const pk_vegdb_class_stats *s), void *ctx)
{
	for (int c = 0; c < db->nclass; c++) {
		const vclass *k = &db->cls[c];
		if (!k->present || k->pieces > db->pieces)
			continue;
		const uint8_t *t = table(db, c);
		if (!t)
			return -1;
		pk_vegdb_class_stats s;
		memset(&s, 0, sizeof s);
		snprintf(s.name, sizeof s.name, "%s", k->name);
		s.pieces = k->pieces;
		for (uint64_t i = 0; i < k->size; i++) {
			int b = t[i];
			if (b == T_NONE)
				continue;
			s.positions++;
			if (b == 0)
				s.draws++;
			else if ((b - 1) % 2) {
				s.wins++;
				s.longest = b - 1 > s.longest ? b - 1 : s.longest;
			} else
				s.losses++;
		}
		int rc = fn(ctx, &s);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the search's databases ------------------------------------------------------- */

/* Opened once a directory and a variant, kept for the process. */
typedef struct shared_db {
	char *dir;
	int gametype;
	pk_vegdb *db;               /* NULL: none there */
	struct shared_db *next;
} shared_db;

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static char *shared_dir;
static shared_db *shared_list;

void vegdb_set_dir(const char *dir)
{
	pthread_mutex_lock(&shared_lock);
	free(shared_dir);
	shared_dir = dir ? strdup(dir) : NULL;
	pthread_mutex_unlock(&shared_lock);
}

const pk_vegdb *vegdb_shared_in(const char *dir, const pk_variant *v)
{
	if (!dir || !vegdb_supported(v))
		return NULL;
	pthread_mutex_lock(&shared_lock);
	shared_db *d = shared_list;
	while (d && (d->gametype != v->gametype || strcmp(d->dir, dir)))
		d = d->next;
	if (!d && (d = calloc(1, sizeof *d)) && (d->dir = strdup(dir))) {
		char err[512];
		d->gametype = v->gametype;
		d->db = vegdb_open(v, dir, err, sizeof err);   /* (none: searched without) */
		d->next = shared_list;
		shared_list = d;
	} else if (d && !d->dir) {
		free(d);
		d = NULL;
	}
	pk_vegdb *db = d ? d->db : NULL;
	pthread_mutex_unlock(&shared_lock);
	return db;
}

const pk_vegdb *vegdb_shared(const pk_variant *v)
{
	pthread_mutex_lock(&shared_lock);
	char *dir = shared_dir ? strdup(shared_dir) : NULL;
	pthread_mutex_unlock(&shared_lock);
	const pk_vegdb *db = vegdb_shared_in(dir, v);
	free(dir);
	return db;
}
