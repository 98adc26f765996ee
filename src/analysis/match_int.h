/* What the referee's two files share (analysis/match.c, analysis/vmatch.c). */
#ifndef PK_MATCH_INT_H
#define PK_MATCH_INT_H

#include "analysis/match.h"

/* Appends s to a growing buffer; false when out of memory. */
bool match_append(char **text, size_t *len, size_t *cap, const char *s);
/* One game of m->variant between the two variant engines. */
void match_vplay(pk_match *m, pk_match_game *g, pk_vengine *eng[2]);

#endif
