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
	char (*names)[40];          /* parallel: each job's slice (and " A,B" for a part) and wave, written by wave */
	int *waves, maxwave;
	double seconds;
	uint64_t positions, memory;
} plan_ui;

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

static int plan_job(void *ctx, const pk_plan_job *j)
{
	plan_ui *u = ctx;
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
		printf("%s=$(sbatch --parsable --job-name=egdb-%s --output=\"$LOGS/%%x-%%j.out\" --cpus-per-task=%d --mem=%" PRIu64 "M --time=%.0f",
		       var, jname, u->threads, (j->memory >> 20) + 512, minutes);
		if (j->ndeps) {
			printf(" --dependency=afterok");
			for (int k = 0; k < j->ndeps; k++) {
				plan_var(j->deps[k], dv, sizeof dv);
				printf(":$%s", dv);
			}
		}
		printf(" --wrap=\"$PDNKIT egdb build --slice %s %s\")\n", what, opts);
		printf("echo \"%s: job $%s\"\n", j->id, var);
		break;
	}
	case 3: {
		/* GNU parallel: kept, written a wave at a time at the end */
		char (*nn)[40] = realloc(u->names, sizeof *nn * (size_t)u->jobs);
		int *ww = nn ? realloc(u->waves, sizeof *ww * (size_t)u->jobs) : NULL;
		if (nn)
			u->names = nn;
		if (!ww)
			return -1;
		u->waves = ww;
		if (j->part)
			snprintf(u->names[u->jobs - 1], sizeof u->names[0], "%s %d,%d", j->name, j->rows[0], j->rows[1]);
		else
			snprintf(u->names[u->jobs - 1], sizeof u->names[0], "%s", j->name);
		u->waves[u->jobs - 1] = j->wave;
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
			       "# (--sshlogin ... for more machines sharing %s) go in $PARALLEL.\n", dir);
	}
	if (egdb_plan(pieces, nd, ndm, job_memory, parts, plan_job, &u) < 0) {
		cli_error("out of memory");
		free(u.names);
		free(u.waves);
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
					k += u.waves[i] == w && (strchr(u.names[i], ' ') != NULL) == part;
				if (!k)
					continue;
				/* a part's line is "PAIR A,B" */
				printf("parallel --halt now,fail=1 --jobs \"${JOBS:-%d}\" %s\"$PDNKIT\" egdb build --slice %s %s <<'EOF'\n",
				       threads > 1 ? 1 : 2, part ? "--colsep ' ' " : "", part ? "{1} --part {2}" : "{}", opts);
				for (long i = 0; i < u.jobs; i++)
					if (u.waves[i] == w && (strchr(u.names[i], ' ') != NULL) == part)
						printf("%s\n", u.names[i]);
				printf("EOF\n");
			}
		}
		printf("echo \"every slice of up to %d pieces built in %s\" >&2\n", pieces, dir);
	}
	free(u.names);
	free(u.waves);
	fprintf(stderr, "egdb build --plan: %ld jobs (%ld of them parts), %" PRIu64 " positions, the largest job %.0f MiB, about %.2f hours on one thread (%.2g positions a second)\n",
		u.jobs, u.parts, u.positions, (double)u.memory / (1 << 20), u.seconds / 3600, EGDB_PLAN_RATE);
	return EXIT_OK;
}
