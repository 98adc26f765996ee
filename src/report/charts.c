/* Charts of a collection's summary as SVG (the results and the games per year), and
 * the HTML page of stats --html. */
#include <stdio.h>
#include <string.h>
#include "report/charts.h"
#include "report/report.h"

#define W 900
#define H 560

#define out sink_printf

static int text(pk_sink sink, void *ctx, double x, double y, const char *anchor, int size, const char *fill, const char *s)
{
	int rc = out(sink, ctx, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">", x, y,
		     anchor, size, fill);
	rc |= diagram_escape(s, sink, ctx);
	return rc | out(sink, ctx, "</text>\n");
}

/* A round step for an axis that should show about `ticks` labels up to max. */
static long nice_step(long max, int ticks)
{
	long raw = max / ticks + 1, step = 1;
	while (step * 10 <= raw)
		step *= 10;
	if (step * 2 >= raw)
		return step * 2;
	if (step * 5 >= raw)
		return step * 5;
	return step * 10;
}

int charts_svg(const pk_summary *st, pk_sink sink, void *ctx)
{
	int rc = 0;
	char buf[160];
	rc |= out(sink, ctx, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
		   " font-family=\"Helvetica, Arial, sans-serif\">\n", W, H, W, H);
	rc |= out(sink, ctx, "<rect width=\"%d\" height=\"%d\" fill=\"#fbfaf7\"/>\n", W, H);
	snprintf(buf, sizeof buf, "%ld games, %ld players, %ld events", st->games, st->players, st->events);
	rc |= text(sink, ctx, 40, 44, "start", 24, "#222", "How the games ended");
	rc |= text(sink, ctx, 40, 68, "start", 14, "#666", buf);

	/* Results: one stacked bar, 100% wide, with each share labelled under it. */
	static const char *const names[] = { "Black won (1-0)", "White won (0-1)", "Draw", "Unknown (*)" };
	static const char *const colours[] = { "#2f2f2f", "#c9b79c", "#5b8db8", "#bbbbbb" };
	double x = 40, width = W - 80, y = 90;
	for (int i = 0; i < 4; i++) {
		double w = st->games ? width * (double)st->res[i] / (double)st->games : 0;
		if (w <= 0)
			continue;
		rc |= out(sink, ctx, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"40\" fill=\"%s\"/>\n", x, y, w, colours[i]);
		if (w > 60) {
			snprintf(buf, sizeof buf, "%.1f%%", 100.0 * (double)st->res[i] / (double)st->games);
			rc |= text(sink, ctx, x + w / 2, y + 26, "middle", 15, i == 0 ? "#fff" : "#111", buf);
		}
		x += w;
	}
	x = 40;
	for (int i = 0; i < 4; i++) {
		rc |= out(sink, ctx, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, y + 56, colours[i]);
		snprintf(buf, sizeof buf, "%s: %ld", names[i], st->res[i]);
		rc |= text(sink, ctx, x + 20, y + 68, "start", 13, "#333", buf);
		x += 205;
	}

	/* Games per year: bars on a year axis, gaps left as gaps. */
	double top = 230, bottom = H - 60, left = 80, right = W - 40;
	rc |= text(sink, ctx, 40, top - 26, "start", 20, "#222", "Games per year");
	if (st->ymin && st->ymax >= st->ymin) {
		int y0 = st->ymin, y1 = st->ymax;
		long max = 1;
		for (int yy = y0; yy <= y1; yy++)
			if (st->years[yy - 1500] > max)
				max = st->years[yy - 1500];
		long step = nice_step(max, 5);
		long axis = (max / step + 1) * step;
		for (long v = 0; v <= axis; v += step) {
			double yy = bottom - (bottom - top) * (double)v / (double)axis;
			rc |= out(sink, ctx, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2dfd8\"/>\n", left, yy, right, yy);
			snprintf(buf, sizeof buf, "%ld", v);
			rc |= text(sink, ctx, left - 8, yy + 4, "end", 12, "#666", buf);
		}
		int span = y1 - y0 + 1;
		double bw = (right - left) / span;
		for (int yy = y0; yy <= y1; yy++) {
			int n = st->years[yy - 1500];
			double h = (bottom - top) * (double)n / (double)axis;
			double bx = left + (yy - y0) * bw;
			if (n)
				rc |= out(sink, ctx, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#5b8db8\">"
					   "<title>%d: %d games</title></rect>\n", bx + bw * 0.1, bottom - h, bw * 0.8 > 1 ? bw * 0.8 : 1, h, yy, n);
		}
		int label_step = span <= 12 ? 1 : span <= 60 ? 5 : span <= 120 ? 10 : 25;
		for (int yy = y0; yy <= y1; yy++)
			if (yy % label_step == 0 || span <= 12) {
				snprintf(buf, sizeof buf, "%d", yy);
				rc |= text(sink, ctx, left + (yy - y0 + 0.5) * bw, bottom + 18, "middle", 12, "#666", buf);
			}
		rc |= out(sink, ctx, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", left, bottom, right, bottom);
	} else {
		rc |= text(sink, ctx, 40, top + 20, "start", 14, "#666", "no dated games");
	}
	rc |= text(sink, ctx, W - 40, H - 16, "end", 11, "#999", "pdnkit stats");
	rc |= out(sink, ctx, "</svg>\n");
	return rc ? -1 : 0;
}

static double pct(long part, long whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

/* A bar of a bucket's results: Black's wins, draws, White's wins. */
static int result_bar(const pk_bucket *b, pk_sink sink, void *ctx)
{
	double w1 = 1.6 * pct(b->bw, b->games), w2 = 1.6 * pct(b->draws, b->games), w3 = 1.6 * pct(b->ww, b->games);
	return out(sink, ctx,
		   "<svg width=\"160\" height=\"12\" role=\"img\"><title>1-0 %.0f%%, draws %.0f%%, 0-1 %.0f%%</title>"
		   "<rect width=\"%.1f\" height=\"12\" fill=\"#2f2f2f\"/><rect x=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"#5b8db8\"/>"
		   "<rect x=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"#c9b79c\"/></svg>",
		   pct(b->bw, b->games), pct(b->draws, b->games), pct(b->ww, b->games), w1, w1, w2, w1 + w2, w3);
}

int charts_html(const pk_summary *st, const char *title, pk_sink sink, void *ctx)
{
	char a[16], b[16];
	summary_date_text(st->date_min, a, sizeof a);
	summary_date_text(st->date_max, b, sizeof b);
	int rc = report_head(title, sink, ctx);
	rc |= out(sink, ctx, "<h1>");
	rc |= diagram_escape(title, sink, ctx);
	rc |= out(sink, ctx, "</h1>\n<p class=\"sub\">%ld games, %ld players, %ld events, %s to %s</p>\n", st->games,
		  st->players, st->events, a, b);
	rc |= out(sink, ctx, "<div class=\"charts\">\n");
	rc |= charts_svg(st, sink, ctx);
	rc |= out(sink, ctx, "</div>\n");
	rc |= out(sink, ctx, "<h3>Results</h3>\n<table><tr><th>result</th><th>games</th><th>share</th></tr>\n");
	for (int i = 0; i < 4; i++)
		rc |= out(sink, ctx, "<tr><td>%s</td><td>%ld</td><td>%.1f%%</td></tr>\n", summary_result_label(st, i), st->res[i],
			  pct(st->res[i], st->games));
	rc |= out(sink, ctx, "</table>\n");
	if (st->nopenings) {
		rc |= out(sink, ctx, "<h3>Openings (the first three moves)</h3>\n<table><tr><th>moves</th><th>games</th>"
				     "<th>1-0</th><th>0-1</th><th>draws</th><th>%s score</th><th>results</th></tr>\n",
			  st->v && st->v->first == PK_WHITE ? "White's" : "Black's");
		for (int i = 0; i < st->nopenings; i++) {
			const pk_bucket *o = &st->openings[i];
			rc |= out(sink, ctx, "<tr><td>");
			rc |= diagram_escape(o->text, sink, ctx);
			rc |= out(sink, ctx, "</td><td>%ld</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>",
				  o->games, pct(o->bw, o->games), pct(o->ww, o->games), pct(o->draws, o->games),
				  pct(2 * o->bw + o->draws, 2 * o->games));
			rc |= result_bar(o, sink, ctx);
			rc |= out(sink, ctx, "</td></tr>\n");
		}
		rc |= out(sink, ctx, "</table>\n");
	}
	if (st->nplayers) {
		rc |= out(sink, ctx, "<h3>Players with the most games</h3>\n<table><tr><th>player</th><th>games</th>"
				     "<th>won</th><th>drawn</th><th>lost</th><th>score</th></tr>\n");
		for (int i = 0; i < st->nplayers; i++) {
			rc |= out(sink, ctx, "<tr><td>");
			rc |= diagram_escape(st->players_top[i].name, sink, ctx);
			long scored = st->players_top[i].won + st->players_top[i].drawn + st->players_top[i].lost;
			rc |= out(sink, ctx, "</td><td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td>", st->players_top[i].games,
				  st->players_top[i].won, st->players_top[i].drawn, st->players_top[i].lost);
			if (scored)
				rc |= out(sink, ctx, "<td>%.1f%%</td></tr>\n", pct((long)(st->players_top[i].points * 2), scored * 2));
			else
				rc |= out(sink, ctx, "<td>-</td></tr>\n");
		}
		rc |= out(sink, ctx, "</table>\n");
	}
	if (st->explored) {
		pk_diagram_opts d = { .size = 34, .caption = "the explorer's position" };
		rc |= out(sink, ctx, "<h3>Moves played from this position</h3>\n<div class=\"charts\">");
		if (st->v) {
			/* diagrams are drawn for English draughts only: the position as FEN */
			char fen[VAR_FEN_STRLEN];
			vfen_format(&st->vfrom, fen, sizeof fen);
			rc |= out(sink, ctx, "<p>%s: ", st->v->name);
			rc |= diagram_escape(fen, sink, ctx);
			rc |= out(sink, ctx, "</p>");
		} else {
			rc |= diagram_svg(&st->from, &d, sink, ctx);
		}
		rc |= out(sink, ctx, "</div>\n<table><tr><th>move</th><th>games</th><th>1-0</th><th>0-1</th><th>draws</th>"
				     "<th>results</th></tr>\n");
		for (int i = 0; i < st->nexplore; i++) {
			const pk_bucket *e = &st->explore[i];
			rc |= out(sink, ctx, "<tr><td>");
			rc |= diagram_escape(e->text, sink, ctx);
			rc |= out(sink, ctx, "</td><td>%ld</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>", e->games,
				  pct(e->bw, e->games), pct(e->ww, e->games), pct(e->draws, e->games));
			rc |= result_bar(e, sink, ctx);
			rc |= out(sink, ctx, "</td></tr>\n");
		}
		rc |= out(sink, ctx, "</table>\n");
		if (st->explore_ended)
			rc |= out(sink, ctx, "<p class=\"meta\">%ld game%s ended in this position.</p>\n", st->explore_ended,
				  st->explore_ended == 1 ? "" : "s");
	}
	rc |= report_foot(sink, ctx);
	rc |= out(sink, ctx, "</body>\n</html>\n");
	return rc ? -1 : 0;
}
