/* The findings list. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdn/diag.h"

void findings_reset(pk_findings *f)
{
	f->n = f->errors = f->warnings = f->notes = 0;
}

void findings_free(pk_findings *f)
{
	free(f->v);
	memset(f, 0, sizeof *f);
}

static pk_finding *vadd(pk_findings *f, int severity, const char *kind, uint32_t line,
			uint32_t col, int ply, const char *fmt, va_list ap)
{
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		pk_finding *v = realloc(f->v, sizeof *v * (size_t)cap);
		if (!v)
			return NULL;
		f->v = v;
		f->cap = cap;
	}
	pk_finding *x = &f->v[f->n++];
	memset(x, 0, sizeof *x);
	x->severity = (uint8_t)severity;
	x->kind = kind;
	x->line = line;
	x->col = col;
	x->ply = ply;
	x->nsuggest = 0;
	x->repeats = 0;
	vsnprintf(x->message, sizeof x->message, fmt, ap);
	if (severity == SEV_ERROR)
		f->errors++;
	else if (severity == SEV_WARNING)
		f->warnings++;
	else
		f->notes++;
	return x;
}

pk_finding *findings_add(pk_findings *f, int severity, const char *kind, uint32_t line,
			 uint32_t col, int ply, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pk_finding *x = vadd(f, severity, kind, line, col, ply, fmt, ap);
	va_end(ap);
	return x;
}

pk_finding *findings_add_once(pk_findings *f, int severity, const char *kind, uint32_t line,
			      uint32_t col, int ply, const char *fmt, ...)
{
	for (int i = 0; i < f->n; i++)
		if (f->v[i].kind == kind || strcmp(f->v[i].kind, kind) == 0) {
			f->v[i].repeats++;
			return NULL;
		}
	va_list ap;
	va_start(ap, fmt);
	pk_finding *x = vadd(f, severity, kind, line, col, ply, fmt, ap);
	va_end(ap);
	return x;
}

void finding_suggest(pk_finding *x, const char *move, const char *why)
{
	if (!x || x->nsuggest >= PK_MAX_SUGGEST)
		return;
	for (int i = 0; i < x->nsuggest; i++)
		if (strcmp(x->suggest[i], move) == 0)
			return;
	snprintf(x->suggest[x->nsuggest], sizeof x->suggest[0], "%s", move);
	snprintf(x->why[x->nsuggest], sizeof x->why[0], "%s", why);
	x->nsuggest++;
}

const char *severity_name(int severity)
{
	return severity == SEV_ERROR ? "error" : severity == SEV_WARNING ? "warning" : "note";
}
