/* Charts of a collection's summary (pdnkit stats): an SVG of how the games ended and
 * how many there are per year, and the whole summary as an HTML page in the style of
 * the report. */
#ifndef PK_CHARTS_H
#define PK_CHARTS_H

#include "report/diagram.h"
#include "store/summary.h"

int charts_svg(const pk_summary *st, pk_sink sink, void *ctx);
/* The page: key figures, the chart, openings, players and (with a position) the
 * explorer. 0, or -1 when the sink failed. */
int charts_html(const pk_summary *st, const char *title, pk_sink sink, void *ctx);

#endif
