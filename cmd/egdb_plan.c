/* pdnkit egdb build --plan: a level's pairs as jobs for a scheduler (Slurm, GNU
 * parallel) or as text and JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "egdb/build.h"
#include "egdb_cmd.h"

/* egdb build --plan: the pairs of a level as jobs for a scheduler. */
typedef struct {
	int format;                 /* 0 text, 1 json, 2 slurm, 3 parallel */
	const char *dir;
	int pieces, threads, nd, ndm;
	long jobs, parts;
	char (*names)[80];          /* parallel: each job's line (its slice, " A,B" for a part, and
				     * the MiB it may take), its wave and whether it is a part;
				     * written by wave */
	int *waves, maxwave;
	bool *is_part;
	double seconds;
	uint64_t positions, memory;
	/* each job's id and the time it ends on NODES nodes of --threads threads (a job a
	 * node, taken in plan order as soon as what it reads is done and a node is free),
	 * and on as many nodes as it takes (the critical path) */
	char (*ids)[40];
	double *end, *end_free, nodes[100];
	double span, wall;
} plan_ui;

#define PLAN_NODES 100

/* The options every job of a plan repeats, so that a job builds what the plan's build
 * would. */
static void plan_job_options(const plan_ui *u, char *buf, size_t size)
{
	int k = snprintf(buf, size, "--egdb '%s' --threads %d --distances %d", u->dir, u->threads, u->nd);
	if (u->ndm >= 0 && k > 0 && (size_t)k < size)
		k += snprintf(buf + k, size - (size_t)k, " --distances-men %d", u->ndm);
	if (k > 0 && (size_t)k < size)
		snprintf(buf + k, size - (size_t)k, " --quiet");
}

/* A job's id as a shell variable: "MMK-K" -> "j_MMK_K", "MMK-K:3,0" -> "j_MMK_K_3_0". */
static void plan_var(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "j_%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '-' || *p == ':' || *p == ',')
			*p = '_';
}

/* The schedule: when the job's inputs are done, on the first node free. */
static int plan_schedule(plan_ui *u, const pk_plan_job *j)
{
	long n = u->jobs;
	char (*ids)[40] = realloc(u->ids, sizeof *ids * (size_t)(n + 1));
	if (ids)
		u->ids = ids;
	double *e = ids ? realloc(u->end, sizeof *e * (size_t)(n + 1)) : NULL;
	if (e)
		u->end = e;
	double *f = e ? realloc(u->end_free, sizeof *f * (size_t)(n + 1)) : NULL;
	if (!f)
		return -1;
	u->end_free = f;
	double ready = 0, ready_free = 0, t = j->seconds / (u->threads > 0 ? u->threads : 1);
	for (int k = 0; k < j->ndeps; k++)
		for (long i = n - 1; i >= 0; i--)
			if (!strcmp(u->ids[i], j->deps[k])) {
				if (u->end[i] > ready)
					ready = u->end[i];
				if (u->end_free[i] > ready_free)
					ready_free = u->end_free[i];
				break;
			}
	/* the node free latest before the job can start, else the one free first */
	int best = -1, first = 0;
	for (int i = 0; i < PLAN_NODES; i++) {
		if (u->nodes[i] <= ready && (best < 0 || u->nodes[i] > u->nodes[best]))
			best = i;
		if (u->nodes[i] < u->nodes[first])
			first = i;
	}
	if (best < 0)
		best = first;
	double start = u->nodes[best] > ready ? u->nodes[best] : ready;
	u->nodes[best] = u->end[n] = start + t;
	u->end_free[n] = ready_free + t;
	snprintf(u->ids[n], sizeof u->ids[0], "%s", j->id);
	if (u->end[n] > u->wall)
		u->wall = u->end[n];
	if (u->end_free[n] > u->span)
		u->span = u->end_free[n];
	return 0;
}

static int plan_job(void *ctx, const pk_plan_job *j)
{
	plan_ui *u = ctx;
	if (plan_schedule(u, j) < 0)
		return -1;
	char opts[4400];
	plan_job_options(u, opts, sizeof opts);
	u->jobs++;
	u->parts += j->part;
	u->seconds += j->seconds;
	if (!j->part)
		u->positions += j->positions;
	if (j->memory > u->memory)
		u->memory = j->memory;
	switch (u->format) {
	case 0:
		printf("%4d  %-16s %-12s %2d %16" PRIu64 " %10.1f %12.1f  ", j->wave, j->join ? j->name : j->id,
		       j->join ? "(join)" : j->mirror[0] ? j->mirror : "-", j->pieces, j->positions,
		       (double)j->memory / (1 << 20), j->seconds);
		for (int k = 0; k < j->ndeps; k++)
			printf("%s%s", k ? "," : "", j->deps[k]);
		printf("%s\n", j->ndeps ? "" : "-");
		break;
	case 1:
		printf("{\"pair\":\"%s\",\"mirror\":", j->name);
		if (j->mirror[0])
			printf("\"%s\"", j->mirror);
		else
			printf("null");
		printf(",\"job\":\"%s\",\"part\":", j->id);
		if (j->part)
			printf("[%d,%d]", j->rows[0], j->rows[1]);
		else
			printf("null");
		printf(",\"join\":%s,\"pieces\":%d,\"positions\":%" PRIu64 ",\"memory\":%" PRIu64 ",\"seconds\":%.1f,\"wave\":%d,\"reads\":[",
		       j->join ? "true" : "false", j->pieces, j->positions, j->memory, j->seconds, j->wave);
		for (int k = 0; k < j->ndeps; k++)
			printf("%s\"%s\"", k ? "," : "", j->deps[k]);
		printf("]}\n");
		break;
	case 2: {
		/* one Slurm job a pair, after the jobs of the pairs it reads */
		char var[56], dv[56], what[64];
		plan_var(j->id, var, sizeof var);
		if (j->part)
			snprintf(what, sizeof what, "%s --part %d,%d", j->name, j->rows[0], j->rows[1]);
		else
			snprintf(what, sizeof what, "%s", j->name);
		double minutes = j->seconds / (u->threads > 0 ? u->threads : 1) / 60 * 3 + 10;
		char jname[48];
		snprintf(jname, sizeof jname, "%s", j->id);
		for (char *p = jname; *p; p++)
			if (*p == ':' || *p == ',')
				*p = '.';
		/* the job may take its memory and 512 MiB more (its queue by distance, which a
		 * scan of its tables replaces past that); Slurm gives it 256 MiB beyond */
		uint64_t mib = (j->memory >> 20) + 512;
		printf("%s=$(sbatch --parsable --job-name=egdb-%s --output=\"$LOGS/%%x-%%j.out\" --cpus-per-task=%d --mem=%" PRIu64 "M --time=%.0f",
		       var, jname, u->threads, mib + 256, minutes);
		if (j->ndeps) {
			printf(" --dependency=afterok");
			for (int k = 0; k < j->ndeps; k++) {
				plan_var(j->deps[k], dv, sizeof dv);
				printf(":$%s", dv);
			}
		}
		printf(" --wrap=\"$PDNKIT egdb build --slice %s --memory %" PRIu64 " %s\")\n", what, mib, opts);
		printf("echo \"%s: job $%s\"\n", j->id, var);
		break;
	}
	case 3: {
		/* GNU parallel: kept, written a wave at a time at the end */
		char (*nn)[80] = realloc(u->names, sizeof *nn * (size_t)u->jobs);
		if (nn)
			u->names = nn;
		int *ww = nn ? realloc(u->waves, sizeof *ww * (size_t)u->jobs) : NULL;
		if (ww)
			u->waves = ww;
		bool *pp = ww ? realloc(u->is_part, sizeof *pp * (size_t)u->jobs) : NULL;
		if (!pp)
			return -1;
		u->is_part = pp;
		/* its memory and 512 MiB more, as a Slurm job is given */
		uint64_t mib = (j->memory >> 20) + 512;
		if (j->part)
			snprintf(u->names[u->jobs - 1], sizeof u->names[0], "%s %d,%d %" PRIu64, j->name, j->rows[0], j->rows[1], mib);
		else
			snprintf(u->names[u->jobs - 1], sizeof u->names[0], "%s %" PRIu64, j->name, mib);
		u->waves[u->jobs - 1] = j->wave;
		u->is_part[u->jobs - 1] = j->part;
		if (j->wave > u->maxwave)
			u->maxwave = j->wave;
		break;
	}
	}
	return 0;
}

int egdb_plan_print(const char *format, const char *dir, int pieces, int threads, int nd, int ndm, uint64_t job_memory,
		    int parts)
{
	static const char *const formats[] = { "text", "json", "slurm", "parallel" };
	int f = -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(format, formats[i]))
			f = i;
	if (f < 0) {
		cli_error("--plan: '%s': give text, json, slurm or parallel", format);
		cli_did_you_mean(format, formats, 4);
		return EXIT_USAGE;
	}
	plan_ui u = { .format = f, .dir = dir, .pieces = pieces, .threads = threads, .nd = nd, .ndm = ndm };
	if (f == 0)
		printf("# the slice pairs of up to %d pieces into %s, in build order: each after the jobs it reads;\n"
		       "# a pair past %" PRIu64 " MiB as its parts (PAIR:A,B, A and B the rows of each side's most\n"
		       "# advanced man) and then their join\n"
		       "# wave  job              mirror   pieces        positions memory_MiB  est_seconds  reads\n",
		       pieces, dir, job_memory >> 20);
	if (f >= 2) {
		printf("#!/bin/sh\n# pdnkit egdb build --plan %s: the slice pairs of up to %d pieces into %s, each a job\n"
		       "# after the pairs it reads; a job whose pair is built already does nothing, so the\n"
		       "# script may be run again after an interruption. PDNKIT: the program (default pdnkit).\n"
		       "set -e\nPDNKIT=\"${PDNKIT:-pdnkit}\"\n",
		       formats[f], pieces, dir);
		if (f == 2)
			printf("# LOGS: where the jobs write what they say (default: here).\nLOGS=\"${LOGS:-.}\"\nmkdir -p \"$LOGS\"\n");
		if (f == 3)
			printf("# JOBS: pairs built at once (default as below); the options of GNU parallel\n"
			       "# (--sshlogin ... for more machines sharing %s) go in $PARALLEL.\n"
			       "# A line is a job: its pair (and a part's rows) and the MiB it may take (--memory);\n"
			       "# the jobs a machine runs at once must fit in its memory together.\n"
			       "# JOBLOG: when set, each wave's GNU parallel job log goes to $JOBLOG.W (W the\n"
			       "# wave; $JOBLOG.Wp its part pairs): the seconds each job took, its exit status.\n", dir);
	}
	if (egdb_plan(pieces, nd, ndm, job_memory, parts, plan_job, &u) < 0) {
		cli_error("out of memory");
		free(u.names);
		free(u.waves);
		free(u.is_part);
		free(u.ids);
		free(u.end);
		free(u.end_free);
		return EXIT_RUNTIME;
	}
	if (f == 3) {
		/* the pairs of a wave side by side (none reads another), a wave after the one before */
		char opts[4400];
		plan_job_options(&u, opts, sizeof opts);
		for (int w = 0; w <= u.maxwave; w++) {
			printf("echo \"wave %d of %d\" >&2\n", w + 1, u.maxwave + 1);
			for (int part = 0; part < 2; part++) {
				long k = 0;
				for (long i = 0; i < u.jobs; i++)
					k += u.waves[i] == w && u.is_part[i] == part;
				if (!k)
					continue;
				/* a line is "PAIR MIB", a part's "PAIR A,B MIB" */
				printf("parallel --halt now,fail=1 ${JOBLOG:+--joblog \"$JOBLOG.%d%s\"} --jobs \"${JOBS:-%d}\" --colsep ' ' \"$PDNKIT\" egdb build --slice %s %s <<'EOF'\n",
				       w + 1, part ? "p" : "", threads > 1 ? 1 : 2, part ? "{1} --part {2} --memory {3}" : "{1} --memory {2}", opts);
				for (long i = 0; i < u.jobs; i++)
					if (u.waves[i] == w && u.is_part[i] == part)
						printf("%s\n", u.names[i]);
				printf("EOF\n");
			}
		}
		printf("echo \"every slice of up to %d pieces built in %s\" >&2\n", pieces, dir);
	}
	free(u.names);
	free(u.waves);
	free(u.is_part);
	free(u.ids);
	free(u.end);
	free(u.end_free);
	fprintf(stderr, "egdb build --plan: %ld jobs (%ld of them parts), %" PRIu64 " positions, the largest job %.0f MiB, about %.2f hours on one thread (%.2g positions a second); %d thread%s a job: %.1f hours on %d nodes, %.1f on as many as it takes\n",
		u.jobs, u.parts, u.positions, (double)u.memory / (1 << 20), u.seconds / 3600, EGDB_PLAN_RATE, threads, threads == 1 ? "" : "s",
		u.wall / 3600, PLAN_NODES, u.span / 3600);
	return EXIT_OK;
}
