/* Board diagrams: a position of any variant as SVG (men, kings, square numbers, arrows for moves, a
 * caption), clean enough to print, or as a Unicode board for a terminal. The one
 * drawing of a board that `diagram`, `report` and `stats --html` share. */
#ifndef PK_DIAGRAM_H
#define PK_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include "rules/move.h"
#include "rules/pos.h"
#include "rules/variant.h"
#include "base/port.h"

/* Where output goes: 0, or -1 to stop. */
typedef int (*pk_sink)(void *ctx, const char *buf, size_t len);

#define DIAGRAM_MAX_PATH (VAR_MAX_CAP + 1)

enum { ARROW_PLAYED, ARROW_BEST, ARROW_PLAIN };

typedef struct {
	int kind;                    /* ARROW_*: red, green, blue */
	int nsq;                     /* squares (1..n, as numbered) along the move: from, then every landing */
	int sq[DIAGRAM_MAX_PATH];
} pk_arrow;

typedef struct {
	bool flip;                   /* White's side at the top */
	bool numbers;                /* square numbers on the playing squares */
	int size;                    /* pixels a square (0: 44) */
	const char *caption;         /* under the board; NULL for none */
	const char *title;           /* the SVG's <title> (read by screen readers); may be NULL */
	pk_arrow arrows[4];
	int narrows;
} pk_diagram_opts;

/* An arrow along a move (its start and every landing square). */
void diagram_arrow(pk_arrow *a, const pk_move *m, int kind);
void diagram_varrow(pk_arrow *a, const pk_vmove *m, int kind);
/* Square (1..32) to the board's row and column from the top-left, as drawn. */
void diagram_square_xy(int sq, bool flip, int *row, int *col);
/* The SVG of p (a complete <svg> element, no XML declaration: it can be inlined in
 * HTML or written as a file). 0, or -1 when the sink failed. */
int diagram_svg(const pk_pos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx);
/* The board as Unicode text: eight lines of squares, the side to move and the caption. */
int diagram_text(const pk_pos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx);
/* The same of a position of any variant: its own board (8x8, 10x10, 12x12), numbering
 * and orientation; files and ranks in the margins where its notation names squares so. */
int diagram_vsvg(const pk_vpos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx);
int diagram_vtext(const pk_vpos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx);
/* printf into a sink (up to 2 KiB a call): 0, or -1 when the sink failed. */
int sink_printf(pk_sink sink, void *ctx, const char *fmt, ...) PK_PRINTF(3, 4);
/* Text with &, <, > and quotes escaped for XML and HTML. */
int diagram_escape(const char *s, pk_sink sink, void *ctx);

#endif
