/* Board diagrams as SVG and as Unicode text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/utf8.h"
#include "report/diagram.h"
#include "rules/variant.h"

#define MARGIN 22                /* room for the file letters and rank numbers */

int sink_printf(pk_sink sink, void *ctx, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	return sink(ctx, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

#define out sink_printf

/* Text for HTML and SVG: the markup characters as entities; bytes that are no UTF-8
 * and controls that XML does not allow as U+FFFD; bidirectional embeddings, overrides
 * and isolates the text opens are closed at its end, so that a name never turns the
 * text after it round. */
int diagram_escape(const char *s, pk_sink sink, void *ctx)
{
	size_t n = strlen(s);
	int embeds = 0, isolates = 0, rc = 0;
	const char *start = s;
	for (size_t i = 0, len; i < n; i += len) {
		uint32_t cp;
		const char *p = s + i;
		len = utf8_char((const unsigned char *)p, n - i, &cp);
		const char *rep = NULL;
		if (len == 0) {
			rep = "\xEF\xBF\xBD";
			len = 1;
		} else if (utf8_is_control(cp) && cp != '\t' && cp != '\n' && cp != '\r') {
			rep = "\xEF\xBF\xBD";
		} else {
			rep = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;" : cp == '"' ? "&quot;"
			      : cp == '\'' ? "&#39;" : NULL;
			if (cp == 0x202A || cp == 0x202B || cp == 0x202D || cp == 0x202E)
				embeds++;
			else if (cp == 0x202C && embeds > 0)
				embeds--;
			else if (cp >= 0x2066 && cp <= 0x2068)
				isolates++;
			else if (cp == 0x2069 && isolates > 0)
				isolates--;
		}
		if (!rep)
			continue;
		if ((p > start && sink(ctx, start, (size_t)(p - start)) < 0) || sink(ctx, rep, strlen(rep)) < 0)
			return -1;
		start = p + len;
	}
	if (s + n > start)
		rc = sink(ctx, start, (size_t)(s + n - start));
	for (; rc == 0 && embeds > 0; embeds--)
		rc = sink(ctx, "\xE2\x80\xAC", 3);   /* U+202C: pop the embedding */
	for (; rc == 0 && isolates > 0; isolates--)
		rc = sink(ctx, "\xE2\x81\xA9", 3);   /* U+2069: pop the isolate */
	return rc;
}

void diagram_square_xy(int sq, bool flip, int *row, int *col)
{
	/* Square 1 is in the top row, second column (Black's side at the top); rows
	 * alternate between the odd and the even columns. */
	int r = (sq - 1) / 4, k = (sq - 1) % 4;
	int c = r % 2 == 0 ? 2 * k + 1 : 2 * k;
	if (flip) {
		r = 7 - r;
		c = 7 - c;
	}
	*row = r;
	*col = c;
}

void diagram_arrow(pk_arrow *a, const pk_move *m, int kind)
{
	a->kind = kind;
	a->nsq = 0;
	a->sq[a->nsq++] = m->from + 1;
	for (int i = 0; i < m->nland && a->nsq < DIAGRAM_MAX_PATH; i++)
		a->sq[a->nsq++] = m->land[i] + 1;
}

void diagram_varrow(pk_arrow *a, const pk_vmove *m, int kind)
{
	a->kind = kind;
	a->nsq = 0;
	a->sq[a->nsq++] = m->from;
	for (int i = 0; i < m->nland && a->nsq < DIAGRAM_MAX_PATH; i++)
		a->sq[a->nsq++] = m->land[i];
}

/* A board of any variant as it is drawn: its squares' places (row 0 at the top, Black's
 * side, as every variant's numbering has it), what stands on each, and their names. */
typedef struct {
	int rows, cols, n, stm;
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	uint8_t piece[VAR_MAX_SQ + 1];            /* VP_* */
	char name[VAR_MAX_SQ + 1][12];            /* "17", or "c3" where the notation has files */
	bool alphanumeric;
	int dark;                                 /* (row + col) % 2 of the playing squares; -1: all */
} board;

static void board_english(const pk_pos *p, board *b)
{
	memset(b, 0, sizeof *b);
	b->rows = b->cols = 8;
	b->n = 32;
	b->stm = p->stm;
	for (int sq = 1; sq <= 32; sq++) {
		int r, c, colour;
		bool king;
		diagram_square_xy(sq, false, &r, &c);
		b->row[sq] = (uint8_t)r;
		b->col[sq] = (uint8_t)c;
		snprintf(b->name[sq], sizeof b->name[sq], "%d", sq);
		if (pos_piece_at(p, sq, &colour, &king))
			b->piece[sq] = (uint8_t)(colour == PK_WHITE ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN));
	}
	b->dark = 1;
}

static void board_variant(const pk_vpos *p, board *b)
{
	const pk_variant *v = p->v;
	memset(b, 0, sizeof *b);
	b->rows = v->rows;
	b->cols = v->cols;
	b->n = variant_squares(v);
	b->stm = p->stm;
	b->alphanumeric = v->alphanumeric;
	for (int sq = 1; sq <= b->n; sq++) {
		int r, c;
		variant_square_rc(v, sq, &r, &c);
		b->row[sq] = (uint8_t)r;
		b->col[sq] = (uint8_t)c;
		b->piece[sq] = p->sq[sq];
		vsquare_name(v, sq, b->name[sq], sizeof b->name[sq]);
	}
	b->dark = b->n == v->rows * v->cols ? -1 : (b->row[1] + b->col[1]) % 2;
}

static void place(const board *b, int sq, bool flip, int *r, int *c)
{
	*r = flip ? b->rows - 1 - b->row[sq] : b->row[sq];
	*c = flip ? b->cols - 1 - b->col[sq] : b->col[sq];
}

static bool square_ok(const board *b, int sq) { return sq >= 1 && sq <= b->n; }

static const char *const arrow_colour[] = { "#c0392b", "#1e8449", "#2e6fb7" };

static int draw_svg(const board *b, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	int s = o->size > 0 ? o->size : 44;
	int bw = b->cols * s, bh = b->rows * s, w = bw + 2 * MARGIN, h = bh + 2 * MARGIN + (o->caption ? 28 : 0);
	int rc = out(sink, ctx,
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
		     " font-family=\"Helvetica, Arial, sans-serif\" role=\"img\">\n",
		     w, h, w, h);
	if (o->title) {
		rc |= out(sink, ctx, "<title>");
		rc |= diagram_escape(o->title, sink, ctx);
		rc |= out(sink, ctx, "</title>\n");
	}
	/* arrowheads, one per colour */
	rc |= out(sink, ctx, "<defs>");
	for (int k = 0; k < 3; k++)
		rc |= out(sink, ctx,
			  "<marker id=\"ah%d\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\""
			  " orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>",
			  k, arrow_colour[k]);
	rc |= out(sink, ctx,
		  "<radialGradient id=\"gd\" cx=\"40%%\" cy=\"35%%\" r=\"65%%\"><stop offset=\"0\" stop-color=\"#6b6b6b\"/>"
		  "<stop offset=\"1\" stop-color=\"#141414\"/></radialGradient>"
		  "<radialGradient id=\"gl\" cx=\"40%%\" cy=\"35%%\" r=\"65%%\"><stop offset=\"0\" stop-color=\"#ffffff\"/>"
		  "<stop offset=\"1\" stop-color=\"#d9d2c3\"/></radialGradient></defs>\n");
	rc |= out(sink, ctx, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f3ead7\" stroke=\"#4a3b28\" stroke-width=\"2\"/>\n",
		  MARGIN - 1, MARGIN - 1, bw + 2, bh + 2);
	for (int r = 0; r < b->rows; r++)
		for (int c = 0; c < b->cols; c++)
			if (b->dark < 0 || (r + c) % 2 == (b->dark + (o->flip ? (b->rows + b->cols) % 2 : 0)) % 2)
				rc |= out(sink, ctx, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
					  MARGIN + c * s, MARGIN + r * s, s, s,
					  b->dark < 0 && (r + c) % 2 ? "#8aa97b" : "#7a9a6b");
	if (b->alphanumeric) {
		/* files and ranks in the margins, as the variant's notation names squares */
		for (int sq = 1; sq <= b->n; sq++) {
			int r, c;
			place(b, sq, o->flip, &r, &c);
			const char *nm = b->name[sq];
			size_t nl = strspn(nm, "abcdefghijklmnopqrstuvwxyz");
			if (r == b->rows - 1 || (b->dark >= 0 && r == b->rows - 2))
				rc |= out(sink, ctx, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#6d5c45\" text-anchor=\"middle\">%.*s</text>\n",
					  MARGIN + c * s + s / 2, MARGIN + bh + 15, (int)nl, nm);
			if (c == 0 || (b->dark >= 0 && c == 1))
				rc |= out(sink, ctx, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#6d5c45\" text-anchor=\"middle\">%s</text>\n",
					  MARGIN / 2, MARGIN + r * s + s / 2 + 4, nm + nl);
		}
	} else {
		/* squares by number, not by file and rank: the edge says which side is where
		 * (Black's side at the top unless flipped) */
		rc |= out(sink, ctx, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#6d5c45\" text-anchor=\"middle\">%s</text>\n",
			  MARGIN + bw / 2, MARGIN - 7, o->flip ? "White" : "Black");
		rc |= out(sink, ctx, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#6d5c45\" text-anchor=\"middle\">%s</text>\n",
			  MARGIN + bw / 2, MARGIN + bh + 15, o->flip ? "Black" : "White");
	}
	for (int sq = 1; sq <= b->n; sq++) {
		int r, c, piece = b->piece[sq];
		if (!piece)
			continue;
		place(b, sq, o->flip, &r, &c);
		double cx = MARGIN + c * s + s / 2.0, cy = MARGIN + r * s + s / 2.0;
		bool dark = piece == VP_BMAN || piece == VP_BKING, king = piece == VP_WKING || piece == VP_BKING;
		double rad = s * 0.38;
		rc |= out(sink, ctx,
			  "<g class=\"%s%s\" data-square=\"%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"url(#%s)\""
			  " stroke=\"%s\" stroke-width=\"1.5\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\""
			  " stroke=\"%s\" stroke-width=\"1\"/>",
			  dark ? "black" : "white", king ? " king" : " man", b->name[sq], cx, cy, rad, dark ? "gd" : "gl",
			  dark ? "#000" : "#8c836f", cx, cy, rad * 0.68, dark ? "#8a8a8a" : "#b5ab95");
		if (king)   /* a crown: three points on a band */
			rc |= out(sink, ctx,
				  "<path d=\"M%.1f,%.1f l%.1f,-%.1f l%.1f,%.1f l%.1f,-%.1f l%.1f,%.1f l%.1f,-%.1f l%.1f,%.1f z\""
				  " fill=\"%s\"/>",
				  cx - rad * 0.5, cy + rad * 0.3, rad * 0.12, rad * 0.65, rad * 0.22, rad * 0.35, rad * 0.16,
				  rad * 0.5, rad * 0.16, rad * 0.5, rad * 0.22, rad * 0.35, rad * 0.12, rad * 0.65,
				  dark ? "#e8c547" : "#b8860b");
		rc |= out(sink, ctx, "</g>\n");
	}
	/* square names: in the middle of an empty square; on a piece, in the square's
	 * corner above it, with a halo of the square's colour, so that none is hidden */
	for (int sq = 1; o->numbers && sq <= b->n; sq++) {
		int r, c;
		place(b, sq, o->flip, &r, &c);
		if (b->piece[sq])
			rc |= out(sink, ctx,
				  "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#f4f7f1\" stroke=\"#5f7d52\" stroke-width=\"2\""
				  " paint-order=\"stroke\">%s</text>\n",
				  MARGIN + c * s + 2, MARGIN + r * s + s / 4, s / 4 > 9 ? s / 4 : 9, b->name[sq]);
		else
			rc |= out(sink, ctx,
				  "<text x=\"%d\" y=\"%d\" font-size=\"%d\" fill=\"#e9efe4\" text-anchor=\"middle\">%s</text>\n",
				  MARGIN + c * s + s / 2, MARGIN + r * s + s / 2 + s / 8, s / 3 > 10 ? s / 3 : 10, b->name[sq]);
	}
	for (int i = 0; i < o->narrows && i < 4; i++) {
		const pk_arrow *a = &o->arrows[i];
		bool ok = a->nsq >= 2;
		for (int j = 0; j < a->nsq && ok; j++)
			ok = square_ok(b, a->sq[j]);
		if (!ok)
			continue;
		int k = a->kind >= 0 && a->kind < 3 ? a->kind : ARROW_PLAIN;
		rc |= out(sink, ctx, "<polyline class=\"arrow %s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-opacity=\"0.85\""
				     " stroke-linecap=\"round\" stroke-linejoin=\"round\" marker-end=\"url(#ah%d)\" points=\"",
			  k == ARROW_PLAYED ? "played" : k == ARROW_BEST ? "best" : "plain", arrow_colour[k], s * 0.12, k);
		for (int j = 0; j < a->nsq; j++) {
			int r, c;
			place(b, a->sq[j], o->flip, &r, &c);
			double x = MARGIN + c * s + s / 2.0, y = MARGIN + r * s + s / 2.0;
			if (j == a->nsq - 1) {   /* stop short of the centre so the head sits on the square */
				int pr, pc;
				place(b, a->sq[j - 1], o->flip, &pr, &pc);
				double px = MARGIN + pc * s + s / 2.0, py = MARGIN + pr * s + s / 2.0;
				x -= (x - px) * 0.18;
				y -= (y - py) * 0.18;
			}
			rc |= out(sink, ctx, "%s%.1f,%.1f", j ? " " : "", x, y);
		}
		rc |= out(sink, ctx, "\"/>\n");
	}
	if (o->caption) {
		rc |= out(sink, ctx, "<text x=\"%d\" y=\"%d\" font-size=\"14\" fill=\"#222\" text-anchor=\"middle\">", w / 2,
			  MARGIN + bh + 36);
		rc |= diagram_escape(o->caption, sink, ctx);
		rc |= out(sink, ctx, "</text>\n");
	}
	rc |= out(sink, ctx, "</svg>\n");
	return rc ? -1 : 0;
}

static int draw_text(const board *b, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	/* ⛀ white man, ⛁ white king, ⛂ black man, ⛃ black king; playing squares as ·, or
	 * their names with --numbers. */
	char g[12][12][16];
	for (int r = 0; r < b->rows; r++)
		for (int c = 0; c < b->cols; c++)
			snprintf(g[r][c], sizeof g[r][c], "%s", "  ");
	for (int sq = 1; sq <= b->n; sq++) {
		int r, c, piece = b->piece[sq];
		place(b, sq, o->flip, &r, &c);
		if (piece)
			snprintf(g[r][c], sizeof g[r][c], "%s ",
				 piece == VP_BKING ? "\u26c3" : piece == VP_BMAN ? "\u26c2" : piece == VP_WKING ? "\u26c1" : "\u26c0");
		else if (o->numbers)
			snprintf(g[r][c], sizeof g[r][c], "%2s", b->name[sq]);
		else
			snprintf(g[r][c], sizeof g[r][c], "%s", "\u00b7 ");
	}
	/* the sides at top and bottom */
	int rc = out(sink, ctx, "   %s\n", o->flip ? "White" : "Black");
	for (int r = 0; r < b->rows; r++) {
		for (int c = 0; c < b->cols; c++)
			rc |= out(sink, ctx, " %s", g[r][c]);
		rc |= out(sink, ctx, "\n");
	}
	rc |= out(sink, ctx, "   %s", o->flip ? "Black" : "White");
	if (o->caption)
		rc |= out(sink, ctx, "\n%s\n", o->caption);
	else
		rc |= out(sink, ctx, "\n%s to move\n", b->stm == PK_BLACK ? "Black" : "White");
	return rc ? -1 : 0;
}

int diagram_svg(const pk_pos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	board b;
	board_english(p, &b);
	return draw_svg(&b, o, sink, ctx);
}

int diagram_text(const pk_pos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	board b;
	board_english(p, &b);
	return draw_text(&b, o, sink, ctx);
}

int diagram_vsvg(const pk_vpos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	board b;
	board_variant(p, &b);
	return draw_svg(&b, o, sink, ctx);
}

int diagram_vtext(const pk_vpos *p, const pk_diagram_opts *o, pk_sink sink, void *ctx)
{
	board b;
	board_variant(p, &b);
	return draw_text(&b, o, sink, ctx);
}
