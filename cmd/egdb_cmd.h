/* The parts of `pdnkit egdb` kept in files of their own (cmd/egdb.c dispatches). */
#ifndef PK_EGDB_CMD_H
#define PK_EGDB_CMD_H

/* --variant of build, probe and stats. */
#define EGDB_VARIANT_HELP "another variant's databases (international, russian, ...; not frisian), kept in DIR/VARIANT"

/* egdb build --plan FORMAT (text, json, slurm, parallel): the pairs of a level up to
 * pieces as jobs with their dependencies, printed on stdout; an exit status. */
int egdb_plan_print(const char *format, const char *dir, int pieces, int threads, int nd, int ndm, uint64_t job_memory,
		    int parts);

/* egdb stats: counts by level, slice or material; probe timings. */
int egdb_stats_cmd(int argc, const char **argv);

/* egdb agree: how often the engine's judgement agrees with the databases. */
int egdb_agree_cmd(int argc, const char **argv);

#endif
