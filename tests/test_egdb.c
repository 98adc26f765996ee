/* Endgame databases: every position of up to 3 pieces, built by egdb/build.c and retro.c, agrees
 * in value and distance with a reference solver written here (forward fixed-point
 * iteration over all positions, moves from the test-only generator of naive.c, nothing
 * shared with the builder but FEN); the index function is a bijection on its slices;
 * known positions; damaged files are refused. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "naive_key.h"
#include "egdb/build.h"
#include "egdb/egdb.h"
#include "egdb/format.h"
#include "rules/fen.h"
#include "rules/gen.h"

/* ---- the reference solver ------------------------------------------------------- */

typedef nk_key rkey;

typedef struct {
	rkey k;
	int *succ;                     /* indices; -1: a position whose mover has no pieces */
	int nsucc;
	int dist;                      /* -1 unknown (draw at the end) */
} rnode;

static rnode *nodes;
static int nnodes, capnodes;
static int *table;
static const int TBITS = 21;

static uint32_t khash(const rkey *k)
{
	uint64_t h = k->black * 0x9E3779B97F4A7C15ull ^ k->white * 0xC2B2AE3D27D4EB4Full ^
		     k->kings * 0x165667B19E3779F9ull ^ (uint64_t)k->stm;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ull;
	return (uint32_t)(h >> (64 - TBITS));
}

static bool keq(const rkey *a, const rkey *b)
{
	return a->black == b->black && a->white == b->white && a->kings == b->kings && a->stm == b->stm;
}

static int find(const rkey *k, bool add)
{
	uint32_t h = khash(k), mask = (1u << TBITS) - 1;
	for (;; h = (h + 1) & mask) {
		if (table[h] < 0)
			break;
		if (keq(&nodes[table[h]].k, k))
			return table[h];
	}
	if (!add)
		return -2;
	if (nnodes == capnodes) {
		capnodes = capnodes ? capnodes * 2 : 1 << 16;
		nodes = realloc(nodes, sizeof *nodes * (size_t)capnodes);
	}
	memset(&nodes[nnodes], 0, sizeof nodes[nnodes]);
	nodes[nnodes].k = *k;
	nodes[nnodes].dist = -1;
	table[h] = nnodes;
	return nnodes++;
}

/* Every placement of n pieces, both colours present, men off their crowning rows. */
static void enumerate(int n, int first, int placed, int *sq, int *kind)
{
	if (placed == n) {
		bool b = false, w = false;
		rkey k = { 0, 0, 0, 0 };
		for (int i = 0; i < n; i++) {
			uint32_t bit = 1u << (sq[i] - 1);
			if (kind[i] == NV_BM || kind[i] == NV_BK) {
				b = true;
				k.black |= bit;
			} else {
				w = true;
				k.white |= bit;
			}
			if (kind[i] == NV_BK || kind[i] == NV_WK)
				k.kings |= bit;
		}
		if (!b || !w)
			return;
		for (int stm = 0; stm < 2; stm++) {
			k.stm = stm;
			find(&k, true);
		}
		return;
	}
	for (int s = first; s <= 32; s++)
		for (int kd = NV_BM; kd <= NV_WK; kd++) {
			if ((kd == NV_BM && s >= 29) || (kd == NV_WM && s <= 4))
				continue;
			sq[placed] = s;
			kind[placed] = kd;
			enumerate(n, s + 1, placed + 1, sq, kind);
		}
}

static void reference_solve(int maxpieces)
{
	table = malloc(sizeof *table << TBITS);
	memset(table, 0xFF, sizeof *table << TBITS);
	int sq[8], kind[8];
	for (int n = 2; n <= maxpieces; n++)
		enumerate(n, 1, 0, sq, kind);
	nv_move mv[64];
	for (int i = 0; i < nnodes; i++) {
		nv_pos p;
		nk_to_nv(&nodes[i].k, &p);
		int m = nv_moves(&p, mv, 64);
		nodes[i].succ = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
		nodes[i].nsucc = m;
		for (int j = 0; j < m; j++) {
			nv_pos q;
			nv_make(&p, &mv[j], &q);
			rkey k = nk_of(&q);
			uint32_t mover = k.stm ? k.black : k.white;
			nodes[i].succ[j] = mover ? find(&k, false) : -1;
		}
	}
	/* Iteration d settles the positions decided in exactly d plies. */
	for (int d = 0;; d++) {
		int settled = 0;
		int *now = malloc(sizeof(int) * (size_t)(nnodes > 0 ? nnodes : 1));
		int nnow = 0;
		for (int i = 0; i < nnodes; i++) {
			rnode *x = &nodes[i];
			if (x->dist >= 0)
				continue;
			bool win = false, all_won = true;
			for (int j = 0; j < x->nsucc; j++) {
				int s = x->succ[j];
				int sd = s < 0 ? 0 : nodes[s].dist;
				if (sd >= 0 && sd < d && sd % 2 == 0 && sd == d - 1)
					win = true;
				if (!(sd >= 0 && sd < d && sd % 2 == 1))
					all_won = false;
			}
			if ((d % 2 == 1 && win) || (d % 2 == 0 && all_won))
				now[nnow++] = i;
		}
		for (int i = 0; i < nnow; i++)
			nodes[now[i]].dist = d;
		settled = nnow;
		free(now);
		if (!settled && d > 1)
			break;
	}
}

/* ---- the checks ----------------------------------------------------------------- */

static int probe_fen(pk_egdb *db, const char *fen, pk_egdb_result *r)
{
	pk_pos p;
	pk_fen_error e;
	if (fen_parse(fen, strlen(fen), &p, &e) < 0)
		return -9;
	return egdb_probe(db, &p, r);
}

static void index_bijection(void)
{
	/* Every index of a few slices decodes to a position that encodes back to it. */
	const char *names[] = { "K-K", "MM-MK", "MK-KK", "M-MMM", "KKK-K" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		pk_material m;
		CHECK_INT(material_parse(names[i], &m), 0);
		pk_slice s;
		slice_init(&s, &m);
		uint64_t bad = 0, holes = 0, walk_bad = 0;
		/* The walk (used by the builder over ranges) agrees with slice_position at
		 * every index, also when it starts in the middle of the range. */
		pk_slice_walk walk, late;
		slice_walk_init(&walk, &s);
		slice_walk_init(&late, &s);
		for (uint64_t idx = 0; idx < s.size; idx++) {
			pk_pos p, w;
			bool ok = slice_position(&s, idx, &p);
			bool wok = slice_walk_position(&walk, idx, &w);
			if (wok != ok || (ok && (w.side[0] != p.side[0] || w.side[1] != p.side[1] || w.kings != p.kings || w.stm != p.stm)))
				walk_bad++;
			if (idx >= s.size / 3 && idx % 7 == 0) {
				wok = slice_walk_position(&late, idx, &w);
				if (wok != ok || (ok && (w.side[0] != p.side[0] || w.side[1] != p.side[1] || w.kings != p.kings || w.stm != p.stm)))
					walk_bad++;
			}
			if (!ok) {
				holes++;
				continue;
			}
			pk_material back;
			egdb_material(&p, &back);
			if (slice_index(&s, &p) != idx || !material_equal(&back, &m) ||
			    (p.side[0] & ~p.kings & BB_BLACK_KINGROW) || (p.side[1] & ~p.kings & BB_WHITE_KINGROW))
				bad++;
		}
		CHECK_REPORT(bad == 0, "%s: %llu indices do not round-trip", names[i], (unsigned long long)bad);
		CHECK_REPORT(walk_bad == 0, "%s: %llu positions of the walk differ", names[i], (unsigned long long)walk_bad);
		CHECK_REPORT(holes * 3 < s.size, "%s: %llu holes of %llu", names[i], (unsigned long long)holes,
			     (unsigned long long)s.size);
		char name[32];
		material_name(&m, name, sizeof name);
		CHECK_STR(name, names[i]);
	}
	pk_material m;
	CHECK(material_parse("kk-", &m) < 0);
	CHECK(material_parse("KM-K", &m) < 0);
	CHECK(material_parse("MMMMMMMMMMMMM-K", &m) < 0);
}

static void damaged(const char *dir)
{
	char src[4200], dst[4200], err[800];
	snprintf(src, sizeof src, "%s/KK-K.egdb", dir);
	FILE *f = fopen(src, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static unsigned char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	snprintf(dst, sizeof dst, "%s/bad", dir);
	mkdir(dst, 0777);
	snprintf(dst, sizeof dst, "%s/bad/KK-K.egdb", dir);
	pk_egdb *db = egdb_new(1 << 20);

	/* Cut short: refused when added. */
	f = fopen(dst, "wb");
	fwrite(buf, 1, n - 10, f);
	fclose(f);
	CHECK(egdb_add_file(db, dst, err, sizeof err) < 0);
	CHECK(strstr(err, "truncated") != NULL);

	/* A byte of a block changed: added (the header is sound), refused when probed. */
	buf[n - 5] ^= 0x40;
	f = fopen(dst, "wb");
	fwrite(buf, 1, n, f);
	fclose(f);
	CHECK_INT(egdb_add_file(db, dst, err, sizeof err), 0);
	pk_egdb_result r;
	pk_pos p;
	int failed = 0;
	pk_material m = { { 0, 0 }, { 2, 1 } };
	pk_slice s;
	slice_init(&s, &m);
	for (uint64_t i = 0; i < s.size; i += 97)
		if (slice_position(&s, i, &p) && !gen_has_capture(&p) && egdb_probe(db, &p, &r) == EGDB_FAILED)
			failed++;
	CHECK(failed > 0);
	CHECK(strstr(egdb_error(db), "damaged") != NULL);
	buf[n - 5] ^= 0x40;

	/* The header changed: its checksum says so. */
	buf[50] ^= 1;
	f = fopen(dst, "wb");
	fwrite(buf, 1, n, f);
	fclose(f);
	CHECK(egdb_add_file(db, dst, err, sizeof err) < 0);
	CHECK(strstr(err, "checksum") != NULL);
	buf[50] ^= 1;

	/* Another version, and not a database at all. */
	buf[8] = 99;
	f = fopen(dst, "wb");
	fwrite(buf, 1, n, f);
	fclose(f);
	CHECK(egdb_add_file(db, dst, err, sizeof err) < 0);
	CHECK(strstr(err, "format 99") != NULL);
	f = fopen(dst, "wb");
	fputs("[Event \"x\"]\n", f);
	fclose(f);
	CHECK(egdb_add_file(db, dst, err, sizeof err) < 0);
	CHECK(strstr(err, "not a pdnkit endgame database") != NULL);
	unlink(dst);
	egdb_free(db);
}

/* Probes from two threads through a cache of a few blocks (every probe of the other
 * thread may evict the block this one reads) give the values of probes through a cache
 * that holds everything, on one thread. */
typedef struct {
	pk_egdb *db;
	const pk_pos *pos;
	const signed char *want;
	const short *plies;
	long n, wrong, failed;
	int dir;
} probe_job;

static void *probe_thread(void *arg)
{
	probe_job *j = arg;
	for (long i = 0; i < j->n; i++) {
		long k = j->dir > 0 ? i : j->n - 1 - i;
		pk_egdb_result r;
		int st = egdb_probe(j->db, &j->pos[k], &r);
		if (st != EGDB_FOUND)
			j->failed++;
		else if (r.value != j->want[k] || r.plies != j->plies[k])
			j->wrong++;
	}
	return NULL;
}

typedef struct {
	pk_egdb *ref;
	pk_pos *pos;
	signed char *want;
	short *plies;
	long n, cap;
} sample;

/* About 2,500 positions of a slice, spread over all its blocks. */
static int sample_slice(const pk_material *m, void *ctx)
{
	sample *sm = ctx;
	pk_slice s;
	slice_init(&s, m);
	uint64_t step = s.size / 2500 + 1;
	for (uint64_t i = 0; i < s.size && sm->n < sm->cap; i += step) {
		pk_pos p;
		pk_egdb_result r;
		if (!slice_position(&s, i, &p) || egdb_probe(sm->ref, &p, &r) != EGDB_FOUND)
			continue;
		sm->pos[sm->n] = p;
		sm->plies[sm->n] = (short)r.plies;
		sm->want[sm->n++] = (signed char)r.value;
	}
	return 0;
}

static void concurrent_cache(pk_egdb *ref, const char *dir)
{
	long cap = 100000, n;
	pk_pos *pos = malloc(sizeof *pos * (size_t)cap);
	signed char *want = malloc((size_t)cap);
	short *plies = malloc(sizeof *plies * (size_t)cap);
	sample sm = { ref, pos, want, plies, 0, cap };
	material_each(4, sample_slice, &sm);
	n = sm.n;
	CHECK(n > 50000);
	char err[600];
	pk_egdb *small = egdb_new(0);   /* the fewest blocks a cache holds */
	CHECK(egdb_add_dir(small, dir, err, sizeof err) > 0);
	probe_job j[2] = { { small, pos, want, plies, n, 0, 0, 1 }, { small, pos, want, plies, n, 0, 0, -1 } };
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, probe_thread, &j[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK_INT(j[0].failed + j[1].failed, 0);
	CHECK_INT(j[0].wrong + j[1].wrong, 0);
	uint64_t probes, reads;
	egdb_counters(small, &probes, &reads);
	printf("# %llu probes, %llu blocks read\n", (unsigned long long)probes, (unsigned long long)reads);
	CHECK(reads > 100);   /* the cache was too small to hold them: blocks were read again */

	/* The size that holds every block: between the positions of the slices and a block
	 * more a slice. A cache four times that, put in place of the small one, reads each
	 * block once: a second pass reads none. */
	int ns;
	pk_egdb_slice_info *info = egdb_slices(small, &ns);
	uint64_t positions = 0;
	for (int i = 0; i < ns; i++)
		positions += info[i].size;
	free(info);
	uint64_t need = egdb_disk_bytes(small);
	CHECK(need >= positions && need < positions + (uint64_t)ns * EGDB_BLOCK_POSITIONS);
	CHECK_INT(egdb_cache_bytes(small), 2 * 4 * EGDB_BLOCK_POSITIONS);   /* the fewest: two sets */
	CHECK_INT(egdb_set_cache(small, (size_t)(4 * need)), 0);
	CHECK(egdb_cache_bytes(small) > 3 * need);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t before;
		egdb_counters(small, &probes, &before);
		probe_job one = { small, pos, want, plies, n, 0, 0, 1 };
		probe_thread(&one);
		CHECK_INT(one.failed, 0);
		CHECK_INT(one.wrong, 0);
		egdb_counters(small, &probes, &reads);
		if (pass == 0)
			CHECK(reads - before > 10);
		else
			CHECK_INT(reads - before, 0);
	}
	egdb_free(small);
	free(pos);
	free(want);
	free(plies);
}

/* Slices without distances are packed, two bits a position, their threat positions left
 * out (pdnkit-egdb(5)): a level built so, read through a cache of a few blocks, gives
 * every position the value of the level with distances, and its stored values are proved
 * by their successors. */
static void packed_agrees(pk_egdb *ref)
{
	char dir[] = "/tmp/pdnkit-egdbp-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	pk_build_opts o = { .pieces = 4, .threads = 2, .dist_pieces = 2, .dist_men = -1, .level = 3, .dir = dir };
	char err[600] = "";
	CHECK_REPORT(egdb_build(&o, err, sizeof err) == 0, "build: %s", err);
	pk_egdb *db = egdb_new(1);   /* the fewest blocks: every slice read again and again */
	CHECK_INT(egdb_add_dir(db, dir, err, sizeof err), 41);
	int n;
	pk_egdb_slice_info *v = egdb_slices(db, &n);
	long packed = 0, compared = 0, differ = 0, checked = 0, threats = 0;
	for (int i = 0; i < n; i++) {
		packed += v[i].packed;
		threats += v[i].threats ? (long)v[i].threat_positions : 0;
		CHECK(v[i].threats == v[i].packed);
		CHECK(v[i].packed == (material_pieces(&v[i].mat) > 2));
		CHECK(v[i].packed == !v[i].distances);
		if (v[i].packed)
			CHECK_INT(v[i].block_positions, EGDB_PACKED_BLOCK_POSITIONS);
		pk_slice sl;
		slice_init(&sl, &v[i].mat);
		/* every third index, either side's view */
		for (uint64_t x = (uint64_t)i % 3; x < sl.size; x += 3) {
			pk_pos p;
			if (!slice_position(&sl, x, &p))
				continue;
			p.key = pos_compute_key(&p);
			pk_egdb_result a, b;
			if (egdb_probe(db, &p, &a) != EGDB_FOUND || egdb_probe(ref, &p, &b) != EGDB_FOUND || a.value != b.value) {
				if (differ++ < 3) {
					char f[PK_FEN_STRLEN];
					fen_format(&p, f, sizeof f);
					printf("# packed %s: %d, with distances %d\n", f, a.value, b.value);
				}
			}
			compared++;
		}
		long k = egdb_verify_slice(db, &v[i].mat, 20000, 7, NULL, NULL, NULL);
		CHECK(k > 0);
		checked += k;
	}
	CHECK_INT(packed, 41 - 4);   /* all but the four 2-piece slices */
	CHECK(threats > 100000);     /* threat positions left out, their values found by the probe */
	CHECK(compared > 2000000);
	CHECK_INT(differ, 0);
	CHECK(checked > 100000);
	uint64_t probes, reads;
	egdb_counters(db, &probes, &reads);
	CHECK(reads > 100);   /* the small cache was read through */
	free(v);
	egdb_free(db);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_INT(system(cmd), 0);
}

/* The parts of a slice (by the rows of each side's most advanced man) divide it: every
 * position of the slice is in the part its leading rows name, at an index of that part
 * that decodes back to it, no two positions share one, and the parts' sizes add up to
 * the slice's. */
static void parts_divide(void)
{
	const char *names[] = { "MM-MK", "M-MMM", "MK-KK", "KK-MM", "MMM-MM", "MMMMM-K" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		pk_material m;
		CHECK_INT(material_parse(names[i], &m), 0);
		pk_slice whole, part[EGDB_ROWS + 1][EGDB_ROWS + 1];
		slice_init(&whole, &m);
		uint8_t *seen[EGDB_ROWS + 1][EGDB_ROWS + 1];
		uint64_t sum = 0;
		for (int a = -1; a < EGDB_ROWS; a++)
			for (int b = -1; b < EGDB_ROWS; b++) {
				seen[a + 1][b + 1] = NULL;
				if ((a < 0) != (m.m[0] == 0) || (b < 0) != (m.m[1] == 0))
					continue;
				slice_init_part(&part[a + 1][b + 1], &m, a, b);
				sum += part[a + 1][b + 1].size;
				seen[a + 1][b + 1] = calloc(part[a + 1][b + 1].size + 1, 1);
				/* a row too near the back for all the side's men holds nothing */
				CHECK((part[a + 1][b + 1].size == 0) == (a < slice_lead_min(m.m[0]) || b < slice_lead_min(m.m[1])));
			}
		CHECK_REPORT(sum == whole.size, "%s: parts of %llu positions, the slice %llu", names[i],
			     (unsigned long long)sum, (unsigned long long)whole.size);
		uint64_t bad = 0, twice = 0, count = 0;
		for (uint64_t idx = 0; idx < whole.size; idx++) {
			pk_pos p, q;
			if (!slice_position(&whole, idx, &p))
				continue;
			int lead[2];
			slice_leads(&p, lead);
			pk_slice *sl = &part[lead[0] + 1][lead[1] + 1];
			uint64_t j = slice_index(sl, &p);
			if (j >= sl->size || !slice_position(sl, j, &q) || q.side[0] != p.side[0] || q.side[1] != p.side[1] ||
			    q.kings != p.kings) {
				bad++;
				continue;
			}
			twice += seen[lead[0] + 1][lead[1] + 1][j]++ > 0;
			count++;
		}
		/* and the walk over a part agrees with slice_position there */
		uint64_t walk_bad = 0;
		for (int a = 0; a <= EGDB_ROWS; a++)
			for (int b = 0; b <= EGDB_ROWS; b++) {
				if (!seen[a][b])
					continue;
				pk_slice_walk w;
				slice_walk_init(&w, &part[a][b]);
				for (uint64_t j = 0; j < part[a][b].size; j++) {
					pk_pos p, q;
					bool ok = slice_position(&part[a][b], j, &p), wok = slice_walk_position(&w, j, &q);
					walk_bad += ok != wok || (ok && (p.side[0] != q.side[0] || p.side[1] != q.side[1] || p.kings != q.kings));
				}
				free(seen[a][b]);
			}
		CHECK_REPORT(bad == 0 && twice == 0 && walk_bad == 0 && count > 0, "%s: %llu positions not found in their part, %llu twice, %llu of the walk differ",
			     names[i], (unsigned long long)bad, (unsigned long long)twice, (unsigned long long)walk_bad);
	}
}

int main(void)
{
	index_bijection();
	parts_divide();

	char dir[] = "/tmp/pdnkit-egdb-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	pk_build_opts o = { .pieces = 4, .threads = 2, .dist_pieces = 8, .dist_men = -1, .level = 3, .dir = dir };
	char err[600] = "";
	int rc = egdb_build(&o, err, sizeof err);
	CHECK_REPORT(rc == 0, "build: %s", err);
	pk_egdb *db = egdb_new(8 << 20);
	CHECK_INT(egdb_add_dir(db, dir, err, sizeof err), 41);
	CHECK_INT(egdb_pieces(db), 4);
	CHECK(egdb_has_distances(db, 4));

	/* Every position of up to 3 pieces, either side to move. */
	reference_solve(3);
	long mismatches = 0, wins = 0;
	for (int i = 0; i < nnodes; i++) {
		pk_pos p = nk_to_pos(&nodes[i].k);
		pk_egdb_result r;
		int st = egdb_probe(db, &p, &r);
		int d = nodes[i].dist;
		int want = d < 0 ? EGDB_DRAW : d % 2 ? EGDB_WIN : EGDB_LOSS;
		wins += want == EGDB_WIN;
		if (st != EGDB_FOUND || r.value != want || (d >= 0 && r.plies != d)) {
			if (mismatches++ < 5) {
				char f[PK_FEN_STRLEN];
				fen_format(&p, f, sizeof f);
				printf("# %s: reference %d plies (-1 draw), database value %d in %d (status %d)\n", f, d,
				       st == EGDB_FOUND ? r.value : 9, st == EGDB_FOUND ? r.plies : 0, st);
			}
		}
	}
	CHECK_INT(nnodes, 2 * (3488 + 196032));
	CHECK_INT(mismatches, 0);
	CHECK(wins > 100000);

	/* Known positions. Two kings against one in the double corner: won whoever moves. */
	pk_egdb_result r;
	CHECK_INT(probe_fen(db, "B:WK1:BK10,K15", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_WIN);
	CHECK_INT(probe_fen(db, "W:WK1:BK10,K15", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_LOSS);
	/* One king against one: a draw unless a capture decides it at once. */
	CHECK_INT(probe_fen(db, "B:WK1:BK18", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_DRAW);
	CHECK_INT(r.plies, -1);
	/* First Position (Payne 1756): White, a king and a man against a king and a man,
	 * wins with the move; without it, it is a draw. */
	CHECK_INT(probe_fen(db, "W:W20,K15:B12,K28", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_WIN);
	CHECK(r.plies > 20 && r.plies % 2 == 1);
	/* A side with no move loses at once; one that must capture into a loss loses. */
	CHECK_INT(probe_fen(db, "B:W8,11:B4", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_LOSS);
	CHECK_INT(probe_fen(db, "W:WK1:B6", &r), EGDB_FOUND);
	CHECK_INT(r.value, EGDB_WIN);
	CHECK_INT(r.plies, 1);
	/* Five pieces are beyond this database. */
	CHECK_INT(probe_fen(db, "B:W20,21,22:B1,2", &r), EGDB_MISSING);

	/* Every stored value of up to 4 pieces proved by its successors. */
	int n;
	pk_egdb_slice_info *v = egdb_slices(db, &n);
	long wrong = 0, checked = 0;
	for (int i = 0; i < n; i++) {
		long k = egdb_verify_slice(db, &v[i].mat, 0, 1, NULL, NULL, NULL);
		CHECK(k > 0);
		checked += k;
	}
	(void)wrong;
	CHECK(checked > 5000000);
	free(v);

	packed_agrees(db);
	concurrent_cache(db, dir);
	damaged(dir);
	egdb_free(db);
	for (int i = 0; i < nnodes; i++)
		free(nodes[i].succ);
	free(nodes);
	free(table);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_INT(system(cmd), 0);
	return check_done("test_egdb");
}
