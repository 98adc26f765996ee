/* Building a slice pair by parts: its positions split by the row of each side's most
 * advanced man (its leading row). A man only moves forward, so a quiet move keeps its
 * side's leading row or moves it on, and never back: the part pair (a, b) (the first
 * slice's positions whose side to move leads from row a and the other side from row b,
 * with the mirror slice's positions of the same rows) reads only the part pairs of rows
 * further on, (a', b) and (a, b'), besides the slices of fewer pieces or men. Solved
 * furthest rows first, each part pair is a retrograde analysis of its own (retro.c,
 * its moves into other part pairs valued like captures), small enough for a machine
 * where the whole pair is not; its values go to DIR/parts, and when every part pair is
 * there the pair's slice files are joined from them. */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/pool.h"
#include "egdb/build_int.h"
#include "rules/gen.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int egdb_part_pairs(const pair_spec *s, egdb_part_pair *out)
{
	int n = 0;
	int lo0 = slice_lead_min(s->mat.m[0]), lo1 = slice_lead_min(s->mat.m[1]);
	int hi0 = s->mat.m[0] ? EGDB_ROWS - 1 : -1, hi1 = s->mat.m[1] ? EGDB_ROWS - 1 : -1;
	/* furthest first: the sum of the rows falling, so every part pair comes after those
	 * it reads */
	for (int sum = hi0 + hi1; sum >= lo0 + lo1; sum--)
		for (int a = hi0; a >= lo0; a--) {
			int b = sum - a;
			if (b < lo1 || b > hi1 || (s->self && a > b))
				continue;   /* a self pair's (a, b) is its (b, a) */
			out[n].lead[0] = a;
			out[n].lead[1] = b;
			pk_slice sl;
			slice_init_part(&sl, &s->mat, a, b);
			out[n].size = sl.size;
			if (!(s->self && a == b)) {
				slice_init_part(&sl, &s->mir, b, a);
				out[n].size += sl.size;
			}
			n++;
		}
	return n;
}

/* Whether part pair u reads the part of the pair's slice k (0 the first, 1 its mirror)
 * whose leading rows are l0 (its side to move's) and l1: a quiet move in u's first slice
 * moves its mover's row on, into the mirror's part (u's b, further than u's a), or one in
 * u's mirror moves the other side's row on, into the first's part (u's a, further than
 * u's b). A self pair's two slices are one. */
static bool part_needed(const pair_spec *s, const egdb_part_pair *u, int k, int l0, int l1)
{
	int a = u->lead[0], b = u->lead[1];
	bool from_first = l0 == b && l1 > a, from_mirror = l0 == a && l1 > b;
	return s->self ? from_first || from_mirror : k ? from_first : from_mirror;
}

/* Whether part pair u reads any part of part pair v. */
static bool part_reads(const pair_spec *s, const egdb_part_pair *u, const egdb_part_pair *v)
{
	for (int k = 0; k < 2; k++)
		if (part_needed(s, u, k, v->lead[k], v->lead[!k]))
			return true;
	return false;
}

/* The slices' parts of part pair v: 1 or 2 (a self pair's (a, a) is one part). */
static int part_count(const pair_spec *s, const egdb_part_pair *v)
{
	return s->self && v->lead[0] == v->lead[1] ? 1 : 2;
}

uint64_t egdb_part_reads_bytes(const pair_spec *s, const egdb_part_pair *u, const egdb_part_pair *all, int n)
{
	uint64_t bytes = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < part_count(s, &all[i]); k++)
			if (part_needed(s, u, k, all[i].lead[k], all[i].lead[!k])) {
				pk_slice sl;
				slice_init_part(&sl, k ? &s->mir : &s->mat, all[i].lead[k], all[i].lead[!k]);
				bytes += sl.size;
			}
	return bytes;
}

bool egdb_parts_started(const pk_build_opts *o, const pair_spec *s)
{
	egdb_part_pair u[EGDB_ROWS * EGDB_ROWS];
	int n = egdb_part_pairs(s, u);
	char path[4096];
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			egdb_part_path(o->dir, k ? &s->mir : &s->mat, u[i].lead[k], u[i].lead[!k], path, sizeof path);
			if (access(path, F_OK) == 0)
				return true;
		}
	return false;
}

static void asked_part(const pk_build_opts *o, const pair_spec *s, int rows[2]);

/* The memory the join of a pair takes: two bits and a bit a position of its larger slice. */
static uint64_t join_memory(const pair_spec *s)
{
	pk_slice a, b;
	slice_init(&a, &s->mat);
	slice_init(&b, &s->mir);
	return (a.size > b.size ? a.size : b.size) / 8 * 3;
}

uint64_t egdb_parts_memory(const pk_build_opts *o, const pair_spec *s)
{
	egdb_part_pair u[EGDB_ROWS * EGDB_ROWS];
	int n = egdb_part_pairs(s, u), rows[2] = { 0, 0 };
	if (o && o->part_only)
		asked_part(o, s, rows);
	uint64_t most = o && o->part_only ? 0 : join_memory(s);
	char path[4096];
	for (int i = 0; i < n; i++) {
		if (o && o->part_only && (u[i].lead[0] != rows[0] || u[i].lead[1] != rows[1]))
			continue;
		if (o && !o->part_only) {
			/* a part pair whose files are there is not built again */
			int there = 0;
			for (int k = 0; k < part_count(s, &u[i]); k++) {
				egdb_part_path(o->dir, k ? &s->mir : &s->mat, u[i].lead[k], u[i].lead[!k], path, sizeof path);
				there += access(path, F_OK) == 0;
			}
			if (there == part_count(s, &u[i]))
				continue;
		}
		uint64_t m = 4 * u[i].size + egdb_part_reads_bytes(s, &u[i], u, n);
		if (m > most)
			most = m;
	}
	return most;
}

/* Whether both part files of part pair u are in DIR/parts and sound (then added to db). */
static bool have_part_pair(pk_egdb *db, const pk_build_opts *o, const pair_spec *s, const egdb_part_pair *u)
{
	char path[4096], why[600];
	for (int k = 0; k < part_count(s, u); k++) {
		const pk_material *m = k ? &s->mir : &s->mat;
		if (egdb_has_part(db, m, u->lead[k], u->lead[!k]))
			continue;
		egdb_part_path(o->dir, m, u->lead[k], u->lead[!k], path, sizeof path);
		if (access(path, F_OK) != 0 || egdb_add_file(db, path, why, sizeof why) < 0)
			return false;
		if (!egdb_has_part(db, m, u->lead[k], u->lead[!k]))
			return false;
	}
	/* parts without the distances asked for are built again (not joined into a file
	 * that would say it has them) */
	for (int k = 0; k < part_count(s, u); k++)
		if (egdb_pair_distances(o, s) && !egdb_part_distances(db, k ? &s->mir : &s->mat, u->lead[k], u->lead[!k]))
			return false;
	return true;
}

/* The part pair --part names (rows of the --slice named: the pair's mirror's turned
 * round, a self pair's taken in either order). */
static void asked_part(const pk_build_opts *o, const pair_spec *s, int rows[2])
{
	pk_material m;
	bool mirror = !s->self && material_parse(o->only, &m) == 0 && material_equal(&m, &s->mir);
	rows[0] = o->part[mirror];
	rows[1] = o->part[!mirror];
	if (s->self && rows[0] > rows[1]) {
		int t = rows[0];
		rows[0] = rows[1];
		rows[1] = t;
	}
}

bool egdb_part_done(pk_egdb *db, const pk_build_opts *o, const pair_spec *s)
{
	egdb_part_pair u;
	asked_part(o, s, u.lead);
	return have_part_pair(db, o, s, &u);
}

/* Solves part pair u and writes its part files (a byte a position). */
static int build_part_pair(pk_egdb *db, const pk_build_opts *o, int threads, uint64_t queue_cap, const pair_spec *s,
			   const egdb_part_pair *u, char *err, size_t errsize)
{
	double t0 = now();
	retro_pair pr;
	memset(&pr, 0, sizeof pr);
	pr.db = db;
	pr.stop = o->stop;
	pr.nt = s->self && u->lead[0] == u->lead[1] ? 1 : 2;
	pr.queue_cap = queue_cap;
	slice_init_part(&pr.t[0].sl, &s->mat, u->lead[0], u->lead[1]);
	if (pr.nt == 2)
		slice_init_part(&pr.t[1].sl, &s->mir, u->lead[1], u->lead[0]);
	int rc = retro_solve(&pr, threads, err, errsize);
	bool dist = egdb_pair_distances(o, s);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/%s", o->dir, EGDB_PARTS_DIR);
	if (rc == 0 && mkdir(dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errsize, "%.400s: %s", dir, strerror(errno));
		rc = -1;
	}
	for (int k = 0; k < pr.nt && rc == 0; k++) {
		retro_table *t = &pr.t[k];
		egdb_header h;
		memset(&h, 0, sizeof h);
		h.mat = t->sl.mat;
		h.flags = (dist ? EGDB_FLAG_DISTANCES : 0) | EGDB_FLAG_PART;
		h.lead[0] = t->sl.lead[0];
		h.lead[1] = t->sl.lead[1];
		h.size = t->sl.size;
		h.build_ms = (uint64_t)((now() - t0) * 1000);
		uint8_t *codes;
		uint64_t bytes = 0;
		if (egdb_table_codes(t, &h, &codes, err, errsize) < 0) {
			rc = -1;
			break;
		}
		rc = egdb_write_slice(o->dir, &t->sl, t, codes, &h, true, true, threads, o->level, &bytes, err, errsize);
		free(codes);
		char path[4096];
		egdb_part_path(o->dir, &t->sl.mat, t->sl.lead[0], t->sl.lead[1], path, sizeof path);
		if (rc == 0 && egdb_add_file(db, path, err, errsize) < 0)
			rc = -1;
	}
	retro_free(&pr);
	return rc;
}

/* ---- joining the parts into the slice's file ------------------------------------------ */

#define JOIN_CHUNK 65536u

typedef struct {
	pk_egdb *db;
	pk_slice sl;
	bool dist, packed, omit_threats;
	uint8_t *stored;
	uint64_t *skip;          /* bit x: index x not stored (a hole, a capture, a threat left out) */
	uint64_t chunks;
	atomic_uint_fast64_t next;
	atomic_int failed;
	pthread_mutex_t lock;
	egdb_header h;           /* the counts, summed */
} join_job;

static void join_worker(int w, void *ctx)
{
	(void)w;
	join_job *j = ctx;
	egdb_header c;
	memset(&c, 0, sizeof c);
	pk_slice_walk walk;
	slice_walk_init(&walk, &j->sl);
	for (;;) {
		uint64_t ch = atomic_fetch_add(&j->next, 1);
		if (ch >= j->chunks || atomic_load(&j->failed))
			break;
		uint64_t lo = ch * JOIN_CHUNK, hi = lo + JOIN_CHUNK < j->sl.size ? lo + JOIN_CHUNK : j->sl.size;
		for (uint64_t x = lo; x < hi; x++) {
			pk_pos p;
			if (!slice_walk_position(&walk, x, &p)) {
				j->skip[x >> 6] |= 1ull << (x & 63);
				continue;
			}
			c.positions++;
			bool capture = gen_has_capture(&p), skip = capture;
			if (capture)
				c.captures++;
			else if (j->omit_threats && egdb_quiet_threat_omitted(&p)) {
				c.threats++;
				skip = true;
			}
			int code = egdb_code(j->db, &p);
			if (code < 0) {
				atomic_store(&j->failed, 1);
				return;
			}
			if (code == EGDB_CODE_DRAW)
				c.draws++;
			else if (!(code & 1)) {
				c.wins++;
				if (j->dist && (uint32_t)code - 1 > c.longest_win)
					c.longest_win = (uint32_t)code - 1;
			} else {
				c.losses++;
				if (j->dist && (uint32_t)code - 1 > c.longest_loss)
					c.longest_loss = (uint32_t)code - 1;
			}
			if (skip) {
				j->skip[x >> 6] |= 1ull << (x & 63);
				continue;
			}
			uint8_t v = (uint8_t)code;
			if (!j->dist && v)
				v = (v & 1) ? 1 : 2;
			if (j->packed)
				j->stored[x >> 2] |= (uint8_t)(v << (2 * (x & 3)));
			else
				j->stored[x] = v;
		}
	}
	pthread_mutex_lock(&j->lock);
	j->h.positions += c.positions;
	j->h.captures += c.captures;
	j->h.threats += c.threats;
	j->h.wins += c.wins;
	j->h.losses += c.losses;
	j->h.draws += c.draws;
	if (c.longest_win > j->h.longest_win)
		j->h.longest_win = c.longest_win;
	if (c.longest_loss > j->h.longest_loss)
		j->h.longest_loss = c.longest_loss;
	pthread_mutex_unlock(&j->lock);
}

/* Joins the parts of one slice (all in db) into its file, as a build of the whole pair
 * writes it: the same blocks (the header's longest wins and losses are 0 in a file
 * without distances, whose solver's levels are not distances). */
static int join_slice(pk_egdb *db, const pk_build_opts *o, int threads, const pk_material *mat, bool dist,
		      egdb_header *out, uint64_t *bytes, char *err, size_t errsize)
{
	join_job j;
	memset(&j, 0, sizeof j);
	j.db = db;
	slice_init(&j.sl, mat);
	j.dist = dist;
	j.packed = !dist && !o->bytes_layout;
	j.omit_threats = j.packed && !o->store_threats;
	uint64_t nbytes = j.packed ? (j.sl.size + 3) / 4 : j.sl.size;
	j.stored = calloc(nbytes ? nbytes : 1, 1);
	j.skip = calloc((j.sl.size + 63) / 64 + 1, sizeof *j.skip);
	if (!j.stored || !j.skip) {
		free(j.stored);
		free(j.skip);
		snprintf(err, errsize, "out of memory joining the parts");
		return -1;
	}
	j.chunks = (j.sl.size + JOIN_CHUNK - 1) / JOIN_CHUNK;
	atomic_store(&j.next, 0);
	atomic_store(&j.failed, 0);
	pthread_mutex_init(&j.lock, NULL);
	pool_run(threads, join_worker, &j);
	pthread_mutex_destroy(&j.lock);
	int rc = 0;
	if (atomic_load(&j.failed)) {
		char name[32];
		material_name(mat, name, sizeof name);
		snprintf(err, errsize, "%s: a part or a slice it reads is missing or unreadable (%s)", name, egdb_error(db));
		rc = -1;
	}
	/* the positions not stored take the code before them, as a whole build writes them */
	uint8_t last = 0;
	for (uint64_t x = 0; x < j.sl.size && rc == 0; x++) {
		bool skip = j.skip[x >> 6] >> (x & 63) & 1;
		if (j.packed) {
			if (skip)
				j.stored[x >> 2] |= (uint8_t)(last << (2 * (x & 3)));
			else
				last = j.stored[x >> 2] >> (2 * (x & 3)) & 3;
		} else if (skip)
			j.stored[x] = last;
		else
			last = j.stored[x];
	}
	free(j.skip);
	if (rc == 0) {
		egdb_header h = j.h;
		h.mat = *mat;
		h.size = j.sl.size;
		h.flags = (dist ? EGDB_FLAG_DISTANCES : 0) | (j.packed ? EGDB_FLAG_PACKED : 0) |
			  (j.omit_threats ? EGDB_FLAG_THREATS : 0);
		if (!j.omit_threats)
			h.threats = 0;
		char path[4096];
		egdb_slice_path(o->dir, mat, path, sizeof path);
		rc = egdb_write_stored(path, &h, j.stored, nbytes, threads, o->level, bytes, err, errsize);
		*out = h;
	}
	free(j.stored);
	return rc;
}

/* Removes the part files of the pair (after the join). */
static void remove_parts(const pk_build_opts *o, const pair_spec *s, const egdb_part_pair *u, int n)
{
	char path[4096];
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			egdb_part_path(o->dir, k ? &s->mir : &s->mat, u[i].lead[k], u[i].lead[!k], path, sizeof path);
			unlink(path);
		}
	snprintf(path, sizeof path, "%s/%s", o->dir, EGDB_PARTS_DIR);
	rmdir(path);   /* when empty */
}

/* Holds in memory the parts part pair u reads (none when u is NULL) and lets the
 * pair's others go. */
static int parts_needed(pk_egdb *db, const pair_spec *s, const egdb_part_pair *u, const egdb_part_pair *all, int n,
			char *err, size_t errsize)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < part_count(s, &all[i]); k++) {
			int l0 = all[i].lead[k], l1 = all[i].lead[!k];
			const pk_material *m = k ? &s->mir : &s->mat;
			if (!egdb_has_part(db, m, l0, l1))
				continue;
			if (egdb_part_memory(db, m, l0, l1, u && part_needed(s, u, k, l0, l1), err, errsize) < 0)
				return -1;
		}
	return 0;
}

int egdb_build_parts(pk_egdb *db, const pk_build_opts *o, int threads, uint64_t queue_cap, const pair_spec *s,
		     pk_build_event *ev, char *err, size_t errsize)
{
	double t0 = now();
	egdb_part_pair u[EGDB_ROWS * EGDB_ROWS];
	int n = egdb_part_pairs(s, u), rc = 0, rows[2] = { 0, 0 };
	uint64_t built = 0;
	if (o->part_only)
		asked_part(o, s, rows);
	for (int i = 0; i < n && rc == 0; i++) {
		if (o->part_only && (u[i].lead[0] != rows[0] || u[i].lead[1] != rows[1]))
			continue;
		if (have_part_pair(db, o, s, &u[i]))
			continue;
		if (o->stop && *o->stop)
			return 1;
		/* the part pairs it reads must be there (a job of a plan run out of order) */
		for (int k = 0; k < n && rc == 0; k++)
			if (part_reads(s, &u[i], &u[k]) && !have_part_pair(db, o, s, &u[k])) {
				snprintf(err, errsize, "%s part %d,%d needs part %d,%d, which is not built yet", s->name,
					 u[i].lead[0] + 1, u[i].lead[1] + 1, u[k].lead[0] + 1, u[k].lead[1] + 1);
				rc = -1;
			}
		if (rc == 0)
			rc = parts_needed(db, s, &u[i], u, n, err, errsize);
		if (rc == 0)
			rc = build_part_pair(db, o, threads, queue_cap, s, &u[i], err, errsize);
		built += u[i].size;
		if (o->progress && rc == 0) {
			pk_build_event e = *ev;
			e.kind = EGDB_EV_PART;
			e.part = true;
			e.name = s->name;
			e.mirror = s->self ? NULL : s->mname;
			e.lead[0] = u[i].lead[0];
			e.lead[1] = u[i].lead[1];
			e.positions = u[i].size;
			e.seconds = now() - t0;
			o->progress(o->ctx, &e);
		}
	}
	if (rc != 0 || o->part_only) {
		ev->seconds = now() - t0;
		ev->positions = built;
		return rc;
	}
	/* every part pair there: the slices joined from them, the parts let go */
	if (parts_needed(db, s, NULL, u, n, err, errsize) < 0)
		return -1;
	bool dist = egdb_pair_distances(o, s);
	ev->positions = ev->wins = ev->losses = ev->draws = 0;
	ev->longest = 0;
	ev->bytes = 0;
	for (int k = 0; k < (s->self ? 1 : 2) && rc == 0; k++) {
		egdb_header h;
		memset(&h, 0, sizeof h);
		uint64_t bytes = 0;
		const pk_material *m = k ? &s->mir : &s->mat;
		rc = join_slice(db, o, threads, m, dist, &h, &bytes, err, errsize);
		char path[4096];
		egdb_slice_path(o->dir, m, path, sizeof path);
		if (rc == 0 && egdb_add_file(db, path, err, errsize) < 0)
			rc = -1;
		egdb_event_add(ev, &h, bytes);
	}
	if (rc == 0)
		remove_parts(o, s, u, n);
	ev->seconds = now() - t0;
	return rc;
}
