/* A move as written in PDN, before it is matched against the legal moves: its squares,
 * separators, strength marks and any text glued to it. */
#ifndef PK_WRITTEN_H
#define PK_WRITTEN_H

#include <stdbool.h>
#include "rules/variant.h"

#define WM_MAX_SQUARES 16

typedef struct {
	int sq[WM_MAX_SQUARES];   /* square numbers as written (not yet range-checked) */
	int n;
	char sep;                 /* '-' or 'x' as written ('X' and ':' read as 'x'); 0 if none */
	bool mixed;               /* both '-' and 'x' used */
	bool nosep;               /* digits with no separator, e.g. "1115" */
	char digits[8];           /* those digits */
	char marks[4];            /* "!", "?!", ... */
	const char *glued;        /* text after the move that is not a strength mark, or NULL */
} pk_written;

/* Returns 0, or -1 with a reason in why ("alphanumeric square", "no square number"...). */
int written_parse(const char *s, pk_written *w, char *why, int whylen);
/* The same on another variant's board (rules/variant.h): squares as numbers or, on any
 * board, as file letter and rank ("c3"), each read as the square's number; NULL is
 * English draughts (written_parse). */
int written_parse_on(const pk_variant *v, const char *s, pk_written *w, char *why, int whylen);
/* Digits written without a separator (w->nosep, "1115", "3228"): each way to read them
 * as two squares of 1..nsquares (no square with a leading zero), at most max of them into
 * out; returns how many. Each board then matches the pairs against its own moves. */
int written_splits(const pk_written *w, int nsquares, int out[][2], int max);

#endif
