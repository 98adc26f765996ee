/* Building endgame databases: the pairs in the order they depend on each other, each
 * solved (retro.c), written as slice files and kept in memory for the pairs that lead
 * to it; pairs built side by side when they fit in memory. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/file.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/hash.h"
#include "base/pool.h"
#include "egdb/build_int.h"
#include "egdb/format.h"
#include "egdb/retro.h"
#include "pdn/zio.h"

/* The fewest entries a pair's queue is given (512 KiB). */
#define QUEUE_MIN ((uint64_t)1 << 16)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A pair depends on the pairs of fewer pieces (captures) and on those of the same split
 * with one man fewer (crownings), so within a level any split may come first. The most
 * even splits do (4 against 3 before 5 against 2): they are the endings games and
 * problems reach, and a level built in part is of use sooner. */
static int spec_order(const void *a, const void *b)
{
	const pair_spec *x = a, *y = b;
	if (x->pieces != y->pieces)
		return x->pieces - y->pieces;
	if (x->weaker != y->weaker)
		return y->weaker - x->weaker;
	if (x->men != y->men)
		return x->men - y->men;
	return strcmp(x->name, y->name);
}

typedef struct {
	pair_spec *v;
	int n, cap;
} pair_list;

/* One material: its pair, once (from the slice whose name comes first). */
static int add_pair(const pk_material *a, void *ctx)
{
	pair_list *l = ctx;
	pair_spec s;
	memset(&s, 0, sizeof s);
	s.mat = *a;
	s.mir = material_mirror(a);
	material_name(&s.mat, s.name, sizeof s.name);
	material_name(&s.mir, s.mname, sizeof s.mname);
	int cmp = strcmp(s.name, s.mname);
	if (cmp > 0)
		return 0;
	s.self = cmp == 0;
	s.pieces = material_pieces(a);
	s.men = material_men(a);
	int mover = a->m[0] + a->k[0], other = a->m[1] + a->k[1];
	s.weaker = mover < other ? mover : other;
	pk_slice sl;
	slice_init(&sl, &s.mat);
	s.size = sl.size;
	if (!s.self) {
		slice_init(&sl, &s.mir);
		s.size += sl.size;
	}
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		pair_spec *t = realloc(l->v, sizeof *t * (size_t)cap);
		if (!t)
			return -1;
		l->v = t;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

/* Every pair of up to n pieces, in build order. */
pair_spec *egdb_all_pairs(int n, int *count)
{
	pair_list l = { NULL, 0, 0 };
	for (int pieces = 2; pieces <= n; pieces++)
		if (material_each(pieces, add_pair, &l) < 0) {
			free(l.v);
			return NULL;
		}
	qsort(l.v, (size_t)l.n, sizeof *l.v, spec_order);
	*count = l.n;
	return l.v;
}

bool egdb_pair_distances(const pk_build_opts *o, const pair_spec *s)
{
	return s->pieces <= o->dist_pieces || s->men <= o->dist_men;
}

/* Whether the pair's files are present and sound (they are then added to db), and have
 * the distances asked for: a pair without them is built again (its values stay the
 * same, so the pairs built on it stay sound). */
static bool have_pair(pk_egdb *db, const pk_build_opts *o, const pair_spec *s)
{
	char path[4096], why[600];
	for (int k = 0; k < (s->self ? 1 : 2); k++) {
		egdb_slice_path(o->dir, k ? &s->mir : &s->mat, path, sizeof path);
		if (access(path, F_OK) != 0)
			return false;
		if (egdb_add_file(db, path, why, sizeof why) < 0)
			return false;
		if (egdb_pair_distances(o, s) && !egdb_slice_distances(db, k ? &s->mir : &s->mat))
			return false;
	}
	return true;
}

static int build_pair(pk_egdb *db, const pk_build_opts *o, int threads, uint64_t queue_cap, const pair_spec *s,
		      pk_build_event *ev, char *err, size_t errsize)
{
	if (s->parts)
		return egdb_build_parts(db, o, threads, queue_cap, s, ev, err, errsize);
	double t0 = now();
	retro_pair pr;
	memset(&pr, 0, sizeof pr);
	pr.db = db;
	pr.stop = o->stop;
	pr.nt = s->self ? 1 : 2;
	pr.queue_cap = queue_cap;
	slice_init(&pr.t[0].sl, &s->mat);
	if (!s->self)
		slice_init(&pr.t[1].sl, &s->mir);
	int rc = retro_solve(&pr, threads, err, errsize);
	if (rc != 0) {
		retro_free(&pr);
		return rc;
	}
	ev->scans = pr.scans;
	bool dist = egdb_pair_distances(o, s);
	uint64_t build_ms = (uint64_t)((now() - t0) * 1000);
	ev->positions = ev->wins = ev->losses = ev->draws = 0;
	ev->longest = 0;
	ev->bytes = 0;
	for (int k = 0; k < pr.nt && rc == 0; k++) {
		retro_table *t = &pr.t[k];
		egdb_header h;
		memset(&h, 0, sizeof h);
		h.mat = t->sl.mat;
		h.flags = dist ? EGDB_FLAG_DISTANCES : 0;
		h.size = t->sl.size;
		h.build_ms = build_ms;
		uint8_t *codes;
		if (egdb_table_codes(t, &h, &codes, err, errsize) < 0) {
			rc = -1;
			break;
		}
		uint64_t bytes = 0;
		if (rc == 0)
			rc = egdb_write_slice(o->dir, &t->sl, t, codes, &h, o->bytes_layout, o->store_threats, threads, o->level,
					      &bytes, err, errsize);
		if (rc == 0 && egdb_add_memory(db, &t->sl.mat, codes, true) < 0) {
			snprintf(err, errsize, "out of memory");
			rc = -1;
		} else if (rc != 0)
			free(codes);
		egdb_event_add(ev, &h, bytes);
	}
	retro_free(&pr);
	ev->seconds = now() - t0;
	return rc;
}

typedef struct {
	pk_egdb *db;
	const pk_build_opts *o;
	const pair_spec *v;
	const int *todo;
	int ntodo, inner;
	uint64_t queue_cap;     /* entries of a pair's queue */
	atomic_int next;
	pthread_mutex_t lock;
	pk_build_event *ev;
	double t0;
	int rc;
	char *err;
	size_t errsize;
} group_job;

static void group_worker(int w, void *ctx)
{
	(void)w;
	group_job *g = ctx;
	for (;;) {
		int j = atomic_fetch_add(&g->next, 1);
		if (j >= g->ntodo)
			return;
		const pair_spec *s = &g->v[g->todo[j]];
		pthread_mutex_lock(&g->lock);
		if (g->rc) {
			pthread_mutex_unlock(&g->lock);
			return;
		}
		pk_build_event e = *g->ev;
		e.index = ++g->ev->index;
		e.kind = EGDB_EV_START;
		e.name = s->name;
		e.mirror = s->self ? NULL : s->mname;
		e.elapsed = now() - g->t0;
		if (g->o->progress)
			g->o->progress(g->o->ctx, &e);
		pthread_mutex_unlock(&g->lock);
		char err[600] = "";
		int rc = g->o->stop && *g->o->stop ? 1 : build_pair(g->db, g->o, g->inner, g->queue_cap, s, &e, err, sizeof err);
		pthread_mutex_lock(&g->lock);
		if (rc && !g->rc) {
			g->rc = rc;
			snprintf(g->err, g->errsize, "%s", err);
		} else if (!rc) {
			g->ev->done += s->size;
			e.done = g->ev->done;
			e.kind = EGDB_EV_DONE;
			e.part = g->o->part_only;   /* a part alone: its PART event said it */
			e.elapsed = now() - g->t0;
			if (g->o->progress)
				g->o->progress(g->o->ctx, &e);
		}
		pthread_mutex_unlock(&g->lock);
	}
}

/* Whether a move in a position of slice a can lead to a position of slice b (other than
 * a's mirror, built with it): the mover takes some of the other side's men and kings
 * and may crown a man; the other side is then to move. */
bool egdb_leads_to(const pk_material *a, const pk_material *b)
{
	int crowned = a->m[0] - b->m[1];
	if (b->m[0] > a->m[1] || b->k[0] > a->k[1] || crowned < 0 || crowned > 1 || b->k[1] != a->k[0] + crowned)
		return false;
	return !(b->m[0] == a->m[1] && b->k[0] == a->k[1] && !crowned);
}

/* Before a group is built: the slices its pairs lead to are read into memory (probing
 * them is then a plain read), every other one is let go, so that memory holds what the
 * group needs and no more (the 7-piece databases would not fit whole). The bytes held
 * are added to *bytes. */
static int load_needed(pk_egdb *db, const pk_build_opts *o, const pair_spec *v, int before, const int *todo,
		       int ntodo, uint64_t *bytes, char *err, size_t errsize)
{
	for (int g = 0; g < before; g++)
		for (int k = 0; k < (v[g].self ? 1 : 2); k++) {
			const pk_material *m = k ? &v[g].mir : &v[g].mat;
			if (!egdb_has(db, m))
				continue;   /* (--slice: checked before, only its dependencies are there) */
			bool need = false;
			for (int t = 0; t < ntodo && !need; t++) {
				const pair_spec *s = &v[todo[t]];
				need = egdb_leads_to(&s->mat, m) || (!s->self && egdb_leads_to(&s->mir, m));
			}
			if (need) {
				if (egdb_load_memory(db, m, err, errsize) < 0)
					return -1;
				pk_slice sl;
				slice_init(&sl, m);
				*bytes += egdb_slice_distances(db, m) ? sl.size : (sl.size + 3) / 4;   /* two bits without */
			} else if (egdb_unload_memory(db, m) < 0) {
				/* built by this run and held only in memory: its file takes its place */
				char path[4096];
				egdb_slice_path(o->dir, m, path, sizeof path);
				if (egdb_add_file(db, path, err, errsize) < 0)
					return -1;
			}
		}
	return 0;
}

/* The memory a pair's build takes at most: two bytes of value and one of count a
 * position, then a byte a position of one slice while it is written. */
uint64_t egdb_pair_memory(const pair_spec *s)
{
	return s->parts ? egdb_parts_memory(NULL, s) : 4 * s->size;
}

/* Whether a pair is built by parts: one with men, when asked, when its tables would not
 * fit beside the slices held (budget left), or when its parts are being built. */
static bool pair_by_parts(const pk_build_opts *o, const pair_spec *s, uint64_t left)
{
	if (s->men == 0 || o->parts == EGDB_PARTS_NEVER)
		return false;
	return o->parts == EGDB_PARTS_ALWAYS || o->part_only || 4 * s->size > left || egdb_parts_started(o, s);
}

/* Whether pair a reads pair b: a move from one of a's slices leads into one of b's. */
bool egdb_pair_reads(const pair_spec *a, const pair_spec *b)
{
	const pk_material *am[2] = { &a->mat, &a->mir }, *bm[2] = { &b->mat, &b->mir };
	if (a == b)
		return false;
	for (int i = 0; i < (a->self ? 1 : 2); i++)
		for (int k = 0; k < (b->self ? 1 : 2); k++)
			if (egdb_leads_to(am[i], bm[k]))
				return true;
	return false;
}

/* The memory the build may take: --memory, else 80% of the machine's. */
static uint64_t memory_budget(const pk_build_opts *o)
{
	if (o->memory)
		return o->memory;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 5 * 4 : (uint64_t)8 << 30;
}

static int build_locked(const pk_build_opts *o, char *err, size_t errsize);

/* One build at a time in a directory: a lock on DIR/.lock, held while building (two
 * builds would race on the same slices and temporary files). */
int egdb_build(const pk_build_opts *o, char *err, size_t errsize)
{
	/* A whole build holds DIR/.lock alone; a build of one pair (a job of a plan) holds it
	 * shared with the other pairs' jobs, and DIR/.lock-PAIR alone: jobs of different
	 * pairs run side by side, two of one pair or a job beside a whole build never. A job
	 * of a part holds DIR/.lock-PAIR shared with the pair's other parts' jobs, and
	 * DIR/.lock-PAIR.A.B alone. */
	char path[4096], pair[4096] = "", part[4200] = "";
	snprintf(path, sizeof path, "%s/.lock", o->dir);
	if (o->only) {
		pk_material m, mm;
		char a[32], b[32];
		if (material_parse(o->only, &m) == 0) {
			mm = material_mirror(&m);
			material_name(&m, a, sizeof a);
			material_name(&mm, b, sizeof b);
			bool first = strcmp(a, b) <= 0;
			snprintf(pair, sizeof pair, "%s/.lock-%s", o->dir, first ? a : b);
			if (o->part_only) {   /* the rows from the pair's first slice's side (a self pair's in order) */
				int r0 = o->part[!first] + 1, r1 = o->part[first] + 1;
				if (!strcmp(a, b) && r0 > r1) {
					r0 = r1;
					r1 = o->part[0] + 1;
				}
				snprintf(part, sizeof part, "%s.%d.%d", pair, r0, r1);
			}
		}
	}
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666), pfd = -1, qfd = -1;
	if (fd < 0) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, (pair[0] ? LOCK_SH : LOCK_EX) | LOCK_NB) < 0) {
		snprintf(err, errsize, "another egdb build is writing into %s (it holds %s): wait for it to end, or build into another directory",
			 o->dir, path);
		close(fd);
		return -1;
	}
	if (pair[0]) {
		pfd = open(pair, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (pfd < 0 || flock(pfd, (part[0] ? LOCK_SH : LOCK_EX) | LOCK_NB) < 0) {
			snprintf(err, errsize, "another egdb build is building %s in %s (it holds %s)", o->only, o->dir, pair);
			if (pfd >= 0)
				close(pfd);
			close(fd);
			return -1;
		}
	}
	if (part[0]) {
		qfd = open(part, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (qfd < 0 || flock(qfd, LOCK_EX | LOCK_NB) < 0) {
			snprintf(err, errsize, "another egdb build is building that part of %s in %s (it holds %s)", o->only, o->dir,
				 part);
			if (qfd >= 0)
				close(qfd);
			close(pfd);
			close(fd);
			return -1;
		}
	}
	int rc = build_locked(o, err, errsize);
	if (qfd >= 0)
		close(qfd);
	if (pfd >= 0)
		close(pfd);
	close(fd);
	return rc;
}

static int build_locked(const pk_build_opts *o, char *err, size_t errsize)
{
	double t0 = now();
	if (o->pieces < 2 || o->pieces > EGDB_MAX_PIECES) {
		snprintf(err, errsize, "pieces must be 2..%d", EGDB_MAX_PIECES);
		return -1;
	}
	int n;
	pk_material only;
	if (o->only && material_parse(o->only, &only) < 0) {
		snprintf(err, errsize, "'%s' is not a slice name (like MMK-K: the side to move's men and kings, a dash, the other's)", o->only);
		return -1;
	}
	int maxp = o->only ? material_pieces(&only) : o->pieces;
	pair_spec *v = egdb_all_pairs(maxp, &n);
	pk_egdb *db = egdb_new(o->cache_bytes ? o->cache_bytes : 64u << 20);
	if (!v || !db) {
		free(v);
		egdb_free(db);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	int target = -1;
	if (o->only) {
		for (int i = 0; i < n; i++)
			if (material_equal(&v[i].mat, &only) || material_equal(&v[i].mir, &only))
				target = i;
	}
	/* What is there already, and what is left to build. */
	bool *have = calloc((size_t)n, sizeof *have);
	if (!have) {
		free(v);
		egdb_free(db);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	pk_build_event ev;
	memset(&ev, 0, sizeof ev);
	for (int i = 0; i < n; i++) {
		have[i] = have_pair(db, o, &v[i]);
		if (!have[i] && (target < 0 || i == target)) {
			ev.total += v[i].size;
			ev.count++;
		}
	}
	if (target >= 0 && (have[target] || (o->part_only && v[target].men && egdb_part_done(db, o, &v[target])))) {
		/* a job of a plan run again: its pair is there and sound, nothing to do */
		ev.kind = EGDB_EV_LOADED;
		ev.name = v[target].name;
		ev.mirror = v[target].self ? NULL : v[target].mname;
		if (!have[target]) {
			ev.part = true;
			ev.lead[0] = o->part[0];
			ev.lead[1] = o->part[1];
			ev.name = o->only;
			ev.mirror = NULL;
		}
		ev.elapsed = now() - t0;
		if (o->progress)
			o->progress(o->ctx, &ev);
		free(have);
		free(v);
		egdb_free(db);
		return 0;
	}
	int rc = 0;
	int *todo = malloc(sizeof *todo * (size_t)(n ? n : 1));
	if (!todo) {
		snprintf(err, errsize, "out of memory");
		rc = -1;
	}
	for (int i = 0; i < n && rc == 0;) {
		/* One group: the pairs of one split and count of men, independent of each other. */
		int end = i;
		while (end < n && v[end].pieces == v[i].pieces && v[end].weaker == v[i].weaker && v[end].men == v[i].men)
			end++;
		int ntodo = 0;
		for (int g = i; g < end && rc == 0; g++) {
			const pair_spec *s = &v[g];
			if (target >= 0) {
				/* the pairs the target reads: those its captures and crownings lead to */
				if (g != target && !egdb_pair_reads(&v[target], s))
					continue;
				if (g != target && !have[g]) {
					snprintf(err, errsize, "%s needs %s, which is not built yet%s (build the slices of fewer pieces or men first)",
						 v[target].name, s->name, egdb_pair_distances(o, s) ? " with distances" : "");
					rc = -1;
					break;
				}
			}
			if (have[g] && g != target) {
				ev.kind = EGDB_EV_LOADED;
				ev.name = s->name;
				ev.mirror = s->self ? NULL : s->mname;
				ev.elapsed = now() - t0;
				if (rc == 0 && o->progress)
					o->progress(o->ctx, &ev);
			} else
				todo[ntodo++] = g;
		}
		if (rc == 0 && ntodo) {
			if (o->stop && *o->stop) {
				rc = 1;
				break;
			}
			uint64_t held = 0;
			if (load_needed(db, o, v, i, todo, ntodo, &held, err, errsize) < 0) {
				rc = -1;
				break;
			}
			group_job gj = { .db = db, .o = o, .v = v, .todo = todo, .ntodo = ntodo, .ev = &ev, .t0 = t0,
					 .err = err, .errsize = errsize };
			/* The largest pair must fit with the slices held; its queue (8 bytes an entry)
			 * takes what is left, and a level past it is found by a scan instead. Pairs
			 * side by side only when the two largest fit with what is held; else one at
			 * a time, each on every thread. */
			uint64_t a = 0, b = 0;
			const pair_spec *big = NULL;
			uint64_t budget = memory_budget(o);
			bool parts = false;
			for (int t = 0; t < ntodo; t++) {
				pair_spec *s = &v[todo[t]];
				s->parts = pair_by_parts(o, s, budget > held ? budget - held : 0);
				parts |= s->parts;
			}
			for (int t = 0; t < ntodo; t++) {
				const pair_spec *s = &v[todo[t]];
				uint64_t m = s->parts ? egdb_parts_memory(o, s) : egdb_pair_memory(s);
				if (m > a) {
					b = a;
					a = m;
					big = &v[todo[t]];
				} else if (m > b) {
					b = m;
				}
			}
			if (held + a > budget) {
				snprintf(err, errsize,
					 "%s needs about %" PRIu64 " MiB (%" PRIu64 " for its tables, %" PRIu64 " for the slices it reads), more than the %" PRIu64 " MiB the build may take (--memory)",
					 big->name, (held + a) >> 20, a >> 20, held >> 20, budget >> 20);
				rc = -1;
				break;
			}
			int workers = ntodo < o->threads ? ntodo : o->threads;
			if (workers > 1 && (held + a + b > budget || parts))
				workers = 1;
			uint64_t used = held + a + (workers > 1 ? b : 0);
			gj.queue_cap = (budget - used) / (uint64_t)workers / 8;
			if (gj.queue_cap < QUEUE_MIN)
				gj.queue_cap = QUEUE_MIN;
			gj.inner = o->threads / workers;
			atomic_store(&gj.next, 0);
			pthread_mutex_init(&gj.lock, NULL);
			pool_run(workers, group_worker, &gj);
			pthread_mutex_destroy(&gj.lock);
			rc = gj.rc;
		}
		i = end;
	}
	free(todo);
	free(have);
	free(v);
	egdb_free(db);
	return rc;
}

/* ---- repacking ----------------------------------------------------------------------- */

int egdb_repack(const char *dir, int threads, int level, void (*progress)(void *ctx, const char *name, uint64_t before,
									uint64_t after),
		void *ctx, uint64_t *count, char *err, size_t errsize)
{
	*count = 0;
	pk_egdb *db = egdb_new(1);
	if (!db) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	int rc = egdb_add_dir(db, dir, err, errsize) < 0 ? -1 : 0;
	char tmpdir[4200];
	snprintf(tmpdir, sizeof tmpdir, "%s/.repack", dir);
	if (rc == 0 && mkdir(tmpdir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errsize, "%.400s: %s", tmpdir, strerror(errno));
		rc = -1;
	}
	int n = 0;
	pk_egdb_slice_info *v = rc == 0 ? egdb_slices(db, &n) : NULL;
	if (rc == 0 && !v && n) {
		snprintf(err, errsize, "out of memory");
		rc = -1;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		if (v[i].distances || v[i].packed)
			continue;
		const uint8_t *codes = egdb_stored_codes(db, &v[i].mat, err, errsize);
		if (!codes) {
			rc = -1;
			break;
		}
		egdb_header h;
		memset(&h, 0, sizeof h);
		h.mat = v[i].mat;
		h.size = v[i].size;
		h.positions = v[i].positions;
		h.wins = v[i].wins;
		h.losses = v[i].losses;
		h.draws = v[i].draws;
		h.captures = v[i].captures;
		h.longest_win = v[i].longest_win;
		h.longest_loss = v[i].longest_loss;
		h.build_ms = v[i].build_ms;
		pk_slice sl;
		slice_init(&sl, &v[i].mat);
		uint64_t bytes = 0;
		for (uint64_t k = 0; k < sl.size && rc == 0; k++)
			if (codes[k] > 2) {
				snprintf(err, errsize, "%s: code %u at index %" PRIu64 " in a slice without distances: damaged, rebuild it",
					 v[i].path, codes[k], k);
				rc = -1;
			}
		if (rc == 0)
			rc = egdb_write_slice(tmpdir, &sl, NULL, codes, &h, false, true, threads, level, &bytes, err, errsize);
		/* read back, every code against the old file's, before it takes the old one's place */
		char path[4300];
		egdb_slice_path(tmpdir, &v[i].mat, path, sizeof path);
		if (rc == 0) {
			pk_egdb *check = egdb_new(1);
			const uint8_t *again = NULL;
			if (!check || egdb_add_file(check, path, err, errsize) < 0 ||
			    !(again = egdb_stored_codes(check, &v[i].mat, err, errsize)))
				rc = -1;
			else if (memcmp(again, codes, sl.size) != 0) {
				snprintf(err, errsize, "%s: the packed file does not read back the same (kept as it was)", v[i].path);
				rc = -1;
			}
			egdb_free(check);
		}
		if (rc == 0 && rename(path, v[i].path) != 0) {
			snprintf(err, errsize, "%.400s: %s", v[i].path, strerror(errno));
			rc = -1;
		}
		if (rc != 0)
			unlink(path);
		egdb_unload_memory(db, &v[i].mat);
		if (rc == 0) {
			++*count;
			if (progress)
				progress(ctx, v[i].name, v[i].bytes, bytes);
		}
	}
	free(v);
	egdb_free(db);
	rmdir(tmpdir);
	return rc;
}
