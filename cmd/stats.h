/* The SVG chart of pdnkit stats. */
#ifndef PK_STATS_H
#define PK_STATS_H

#include <stddef.h>
#include "store/summary.h"

/* Draw the result distribution and the games per year as an SVG file. */
int svg_write(const char *path, const pk_summary *st, char *err, size_t errsize);

#endif
