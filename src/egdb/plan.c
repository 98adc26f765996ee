/* The plan of a build (egdb build --plan): the level's pairs as jobs with their
 * dependencies, memory and time, a pair too large for a job as the jobs of its parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "egdb/build_int.h"

/* The bytes of the slices a pair's job holds in memory: those its moves lead to, a byte
 * a position with distances, else two bits. */
static uint64_t pair_held(const pk_build_opts *o, const pair_spec *v, int i)
{
	uint64_t bytes = 0;
	for (int k = 0; k < i; k++)
		for (int t = 0; t < (v[k].self ? 1 : 2); t++) {
			const pk_material *m = t ? &v[k].mir : &v[k].mat;
			if (egdb_leads_to(&v[i].mat, m) || (!v[i].self && egdb_leads_to(&v[i].mir, m))) {
				pk_slice sl;
				slice_init(&sl, m);
				bytes += egdb_pair_distances(o, &v[k]) ? sl.size : (sl.size + 3) / 4;
			}
		}
	return bytes;
}

int egdb_plan(int pieces, int dist_pieces, int dist_men, uint64_t job_memory, int parts,
	      int (*fn)(void *ctx, const pk_plan_job *job), void *ctx)
{
	pk_build_opts o = { .dist_pieces = dist_pieces, .dist_men = dist_men };
	if (pieces < 2 || pieces > EGDB_MAX_PIECES)
		return -1;
	int n;
	pair_spec *v = egdb_all_pairs(pieces, &n);
	int *wave = calloc((size_t)(n ? n : 1), sizeof *wave);
	int cap = n + EGDB_ROWS * EGDB_ROWS + 1;
	char (*deps)[40] = malloc(sizeof *deps * (size_t)cap);
	int rc = v && wave && deps ? 0 : -1;
	for (int i = 0; i < n && rc == 0; i++) {
		pk_plan_job j;
		memset(&j, 0, sizeof j);
		snprintf(j.name, sizeof j.name, "%s", v[i].name);
		snprintf(j.id, sizeof j.id, "%s", v[i].name);
		if (!v[i].self)
			snprintf(j.mirror, sizeof j.mirror, "%s", v[i].mname);
		j.pieces = v[i].pieces;
		j.men = v[i].men;
		j.deps = deps;
		int ndeps = 0, first = 0;
		for (int k = 0; k < i; k++)
			if (egdb_pair_reads(&v[i], &v[k])) {
				snprintf(deps[ndeps++], sizeof deps[0], "%s", v[k].name);
				if (wave[k] + 1 > first)
					first = wave[k] + 1;
			}
		uint64_t held = pair_held(&o, v, i);
		v[i].parts = false;
		uint64_t whole = egdb_pair_memory(&v[i]) + held;
		v[i].parts = v[i].men > 0 && parts != EGDB_PARTS_NEVER && (parts == EGDB_PARTS_ALWAYS || whole > job_memory);
		if (!v[i].parts) {
			j.positions = v[i].size;
			j.memory = whole;
			j.seconds = (double)v[i].size / EGDB_PLAN_RATE;
			j.ndeps = ndeps;
			j.wave = wave[i] = first;
			rc = fn(ctx, &j);
			continue;
		}
		/* each part pair after the pair's dependencies and the part pairs it reads */
		egdb_part_pair u[EGDB_ROWS * EGDB_ROWS];
		int uw[EGDB_ROWS * EGDB_ROWS], nu = egdb_part_pairs(&v[i], u), last = first;
		for (int a = 0; a < nu && rc == 0; a++) {
			pk_plan_job pj = j;
			pj.part = true;
			pj.rows[0] = u[a].lead[0] + 1;
			pj.rows[1] = u[a].lead[1] + 1;
			snprintf(pj.id, sizeof pj.id, "%s:%d,%d", v[i].name, pj.rows[0], pj.rows[1]);
			pj.positions = u[a].size;
			pj.memory = 4 * u[a].size + egdb_part_reads_bytes(&v[i], &u[a], u, nu) + held;
			pj.seconds = (double)u[a].size / EGDB_PLAN_RATE;
			pj.ndeps = ndeps;
			uw[a] = first;
			for (int b = 0; b < a; b++)
				if (egdb_part_reads_bytes(&v[i], &u[a], &u[b], 1) > 0) {
					snprintf(deps[pj.ndeps++], sizeof deps[0], "%s:%d,%d", v[i].name, u[b].lead[0] + 1,
						 u[b].lead[1] + 1);
					if (uw[b] + 1 > uw[a])
						uw[a] = uw[b] + 1;
				}
			pj.wave = uw[a];
			if (uw[a] > last)
				last = uw[a];
			rc = fn(ctx, &pj);
		}
		/* then the join, after every part pair */
		j.join = true;
		j.positions = v[i].size;
		pk_slice s0, s1;
		slice_init(&s0, &v[i].mat);
		slice_init(&s1, &v[i].mir);
		j.memory = (s0.size > s1.size ? s0.size : s1.size) / 8 * 3 + held;   /* two bits and one a position */
		j.seconds = (double)v[i].size / EGDB_JOIN_RATE;
		j.ndeps = 0;
		for (int a = 0; a < nu; a++)
			snprintf(deps[j.ndeps++], sizeof deps[0], "%s:%d,%d", v[i].name, u[a].lead[0] + 1, u[a].lead[1] + 1);
		j.wave = wave[i] = last + 1;
		if (rc == 0)
			rc = fn(ctx, &j);
	}
	free(v);
	free(wave);
	free(deps);
	return rc < 0 ? -1 : rc;
}
