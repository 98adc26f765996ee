/* The HTML report of annotated games: one self-contained page (inline SVG and CSS, an
 * optional inline script, nothing fetched) with a table of contents, a summary per
 * player, and for each game its header, an evaluation graph with the mistakes marked,
 * the moves with their classes, and a diagram before each mistake and blunder with the
 * played and the best move as arrows and the engine's line. */
#ifndef PK_REPORT_H
#define PK_REPORT_H

#include "analysis/batch.h"
#include "report/diagram.h"

extern const char report_css[];   /* book/report.css, built in */

typedef struct {
	const char *title;           /* the page's title */
	const char *subtitle;        /* under it (settings, source); may be NULL */
	bool script;                 /* a board to step through each game (inline JavaScript) */
	bool inaccuracies;           /* diagrams for inaccuracies too */
} pk_report_opts;

typedef struct pk_report pk_report;

pk_report *report_new(const pk_report_opts *o);
/* Add an annotated game (status BATCH_ANNOTATED or BATCH_REUSED). 0, or -1 when out of
 * memory. */
int report_add(pk_report *r, const pk_bgame *b);
int report_games(const pk_report *r);
/* Write the page: head, contents, the players' table, the games. 0, or -1 when the sink
 * failed. */
int report_write(pk_report *r, const pk_player_sum *players, int nplayers, pk_sink sink, void *ctx);
void report_free(pk_report *r);

/* The evaluation graph of a game (an <svg> element): the score after each move from
 * Black's side, clamped to +-5 men, with the blunders, mistakes and inaccuracies
 * marked. */
int report_graph(const pk_bgame *b, pk_sink sink, void *ctx);

/* The page's head and foot, for other pages in the same style (stats --html). */
int report_head(const char *title, pk_sink sink, void *ctx);
int report_foot(pk_sink sink, void *ctx);

#endif
