/* Findings about a game: what is wrong or doubtful, where, and what was probably meant.
 * The core fills these; the commands print them. */
#ifndef PK_DIAG_H
#define PK_DIAG_H

#include <stdint.h>
#include "rules/move.h"
#include "base/port.h"

enum { SEV_ERROR, SEV_WARNING, SEV_NOTE };

#define PK_MAX_SUGGEST 4

typedef struct {
	uint8_t severity;
	const char *kind;          /* static identifier, e.g. "illegal-move" */
	uint32_t line, col;        /* 1-based; 0 when not tied to a place */
	int ply;                   /* half-move from 1; 0 when not tied to a move */
	char move[40];             /* the move as written, possibly shortened */
	char message[512];
	int nsuggest;
	char suggest[PK_MAX_SUGGEST][PK_MOVE_STRLEN];
	char why[PK_MAX_SUGGEST][40];
	int repeats;               /* further findings of this kind folded into this one */
} pk_finding;

typedef struct {
	pk_finding *v;
	int n, cap;
	int errors, warnings, notes;
} pk_findings;

void findings_reset(pk_findings *f);
void findings_free(pk_findings *f);
/* Append a finding; returns it (for suggestions), or NULL when memory ran out. */
pk_finding *findings_add(pk_findings *f, int severity, const char *kind, uint32_t line,
			 uint32_t col, int ply, const char *fmt, ...)
	PK_PRINTF(7, 8);
/* As findings_add, but a warning of a kind already reported for this game is folded
 * into the first one (its repeats count grows) instead of repeated. */
pk_finding *findings_add_once(pk_findings *f, int severity, const char *kind, uint32_t line,
			      uint32_t col, int ply, const char *fmt, ...)
	PK_PRINTF(7, 8);
void finding_suggest(pk_finding *x, const char *move, const char *why);
const char *severity_name(int severity);

#endif
