/* Verifying slices on a pool of threads, and timing probes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/hash.h"
#include "base/pool.h"
#include "egdb/check.h"
#include "egdb/slice.h"
#include "rules/gen.h"

typedef struct {
	pk_egdb *db;
	const pk_egdb_slice_info *v;
	int n, next;
	uint64_t sample;
	volatile sig_atomic_t *stop;
	pk_verify_bad_cb bad;
	void *ctx;
	pk_verify_result *res;
	pthread_mutex_t lock;
} verify_job;

typedef struct {
	verify_job *j;
	int slice;
} verify_ctx;

static void on_bad(void *ctx, const pk_pos *p, int stored, int proved)
{
	verify_ctx *c = ctx;
	verify_job *j = c->j;
	pthread_mutex_lock(&j->lock);
	j->res[c->slice].wrong++;
	if (j->bad)
		j->bad(j->ctx, c->slice, p, stored, proved);
	pthread_mutex_unlock(&j->lock);
}

static void verify_worker(int i, void *ctx)
{
	(void)i;
	verify_job *j = ctx;
	for (;;) {
		pthread_mutex_lock(&j->lock);
		int s = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (s >= j->n || (j->stop && *j->stop))
			return;
		verify_ctx c = { j, s };
		long k = egdb_verify_slice(j->db, &j->v[s].mat, j->sample, 0x5eed + (uint64_t)s, j->stop, on_bad, &c);
		pthread_mutex_lock(&j->lock);
		if (k < 0) {
			j->res[s].failed = true;
			snprintf(j->res[s].error, sizeof j->res[s].error, "%s", egdb_error(j->db));
		} else {
			j->res[s].checked = k;
		}
		pthread_mutex_unlock(&j->lock);
	}
}

int egdb_verify_all(pk_egdb *db, const pk_egdb_slice_info *v, int n, uint64_t sample, int threads,
		    volatile sig_atomic_t *stop, pk_verify_bad_cb bad, void *ctx, pk_verify_result *res)
{
	verify_job j = { .db = db, .v = v, .n = n, .sample = sample, .stop = stop, .bad = bad, .ctx = ctx, .res = res };
	memset(res, 0, sizeof *res * (size_t)n);
	if (pthread_mutex_init(&j.lock, NULL) != 0)
		return -1;
	pool_run(threads, verify_worker, &j);
	pthread_mutex_destroy(&j.lock);
	return 0;
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int egdb_measure(const char *dir, const pk_egdb_slice_info *v, int nv, int pieces, long n, pk_probe_timing *out,
		 char *err, size_t errsize)
{
	int idx[512], k = 0;
	for (int i = 0; i < nv && k < 512; i++)
		if (material_pieces(&v[i].mat) == pieces)
			idx[k++] = i;
	if (!k)
		return 1;
	pk_pos *pos = malloc(sizeof *pos * (size_t)n);
	if (!pos) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	uint64_t seed = 12345 + (uint64_t)pieces;
	for (long i = 0; i < n;) {
		const pk_egdb_slice_info *s = &v[idx[splitmix64(&seed) % (uint64_t)k]];
		pk_slice sl;
		slice_init(&sl, &s->mat);
		if (slice_position(&sl, splitmix64(&seed) % sl.size, &pos[i]))
			i++;
	}
	memset(out, 0, sizeof *out);
	out->pieces = pieces;
	out->probes = n;
	for (int pass = 0; pass < 2; pass++) {
		pk_egdb *db = egdb_new(pass ? (size_t)1 << 30 : 0);
		if (!db || egdb_add_dir(db, dir, err, errsize) < 0) {
			if (!db)
				snprintf(err, errsize, "out of memory");
			egdb_free(db);
			free(pos);
			return -1;
		}
		pk_egdb_result r;
		if (pass)
			for (long i = 0; i < n; i++)
				egdb_probe(db, &pos[i], &r);
		uint64_t p0, b0, p1, b1;
		egdb_counters(db, &p0, &b0);
		double t0 = seconds();
		for (long i = 0; i < n; i++)
			egdb_probe(db, &pos[i], &r);
		double us = (seconds() - t0) * 1e6 / (double)n;
		egdb_counters(db, &p1, &b1);
		if (pass) {
			out->cached_us = us;
			out->cached_blocks = b1 - b0;
		} else {
			out->uncached_us = us;
			out->uncached_blocks = b1 - b0;
		}
		egdb_free(db);
	}
	free(pos);
	return 0;
}

/* Random positions. */
uint64_t egdb_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* A random position of n pieces (both sides at least one; with even as many of each),
 * quiet (no capture for the
 * side to move) and with a move; false when the draw is none of that. */
bool egdb_random_quiet(uint64_t *seed, int n, bool even, pk_pos *p)
{
	pos_clear(p, (int)(egdb_rng(seed) & 1));
	for (int i = 0; i < n; i++) {
		int colour = i < 2 || even ? i % 2 : (int)(egdb_rng(seed) & 1);
		bool king = egdb_rng(seed) % 3 == 0;
		int sq;
		int c;
		bool k;
		do
			sq = 1 + (int)(egdb_rng(seed) % 32);
		while (pos_piece_at(p, sq, &c, &k));
		if (!king && ((colour == PK_BLACK && sq >= 29) || (colour == PK_WHITE && sq <= 4)))
			king = true;
		pos_put(p, sq, colour, king);
	}
	p->key = pos_compute_key(p);
	pk_movelist ml;
	return !pos_impossible(p) && !gen_has_capture(p) && gen_moves(p, &ml) > 0;
}

