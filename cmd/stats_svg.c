/* The SVG chart of pdnkit stats: how the games ended, and how many there are per year. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "stats.h"

#define W 900
#define H 560

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *fill, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">", x, y, anchor, size, fill);
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
	fputs("</text>\n", f);
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

int svg_write(const char *path, const pk_summary *st, char *err, size_t errsize)
{
	cli_text txt;
	FILE *f = cli_text_begin(&txt);
	if (!f) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	char buf[160];
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
		   " font-family=\"Helvetica, Arial, sans-serif\">\n", W, H, W, H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fbfaf7\"/>\n", W, H);
	snprintf(buf, sizeof buf, "%ld games, %ld players, %ld events", st->games, st->players, st->events);
	text(f, 40, 44, "start", 24, "#222", "How the games ended");
	text(f, 40, 68, "start", 14, "#666", buf);

	/* Results: one stacked bar, 100% wide, with each share labelled under it. */
	static const char *const names[] = { "Black won (1-0)", "White won (0-1)", "Draw", "Unknown (*)" };
	static const char *const colours[] = { "#2f2f2f", "#c9b79c", "#5b8db8", "#bbbbbb" };
	double x = 40, width = W - 80, y = 90;
	for (int i = 0; i < 4; i++) {
		double w = st->games ? width * (double)st->res[i] / (double)st->games : 0;
		if (w <= 0)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"40\" fill=\"%s\"/>\n", x, y, w, colours[i]);
		if (w > 60) {
			snprintf(buf, sizeof buf, "%.1f%%", 100.0 * (double)st->res[i] / (double)st->games);
			text(f, x + w / 2, y + 26, "middle", 15, i == 0 ? "#fff" : "#111", buf);
		}
		x += w;
	}
	x = 40;
	for (int i = 0; i < 4; i++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, y + 56, colours[i]);
		snprintf(buf, sizeof buf, "%s: %ld", names[i], st->res[i]);
		text(f, x + 20, y + 68, "start", 13, "#333", buf);
		x += 205;
	}

	/* Games per year: bars on a year axis, gaps left as gaps. */
	double top = 230, bottom = H - 60, left = 80, right = W - 40;
	text(f, 40, top - 26, "start", 20, "#222", "Games per year");
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
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2dfd8\"/>\n", left, yy, right, yy);
			snprintf(buf, sizeof buf, "%ld", v);
			text(f, left - 8, yy + 4, "end", 12, "#666", buf);
		}
		int span = y1 - y0 + 1;
		double bw = (right - left) / span;
		for (int yy = y0; yy <= y1; yy++) {
			int n = st->years[yy - 1500];
			double h = (bottom - top) * (double)n / (double)axis;
			double bx = left + (yy - y0) * bw;
			if (n)
				fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#5b8db8\">"
					   "<title>%d: %d games</title></rect>\n", bx + bw * 0.1, bottom - h, bw * 0.8 > 1 ? bw * 0.8 : 1, h, yy, n);
		}
		int label_step = span <= 12 ? 1 : span <= 60 ? 5 : span <= 120 ? 10 : 25;
		for (int yy = y0; yy <= y1; yy++)
			if (yy % label_step == 0 || span <= 12) {
				snprintf(buf, sizeof buf, "%d", yy);
				text(f, left + (yy - y0 + 0.5) * bw, bottom + 18, "middle", 12, "#666", buf);
			}
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n", left, bottom, right, bottom);
	} else {
		text(f, 40, top + 20, "start", 14, "#666", "no dated games");
	}
	text(f, W - 40, H - 16, "end", 11, "#999", "pdnkit stats");
	fputs("</svg>\n", f);
	if (cli_text_commit(&txt, path) < 0) {
		err[0] = 0;            /* said already */
		return -1;
	}
	return 0;
}
