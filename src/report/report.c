/* The HTML report: game sections are made as they come (in memory), then written after
 * the contents and the players' table, which need every game first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/opnames.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"
#include "report/report.h"

typedef struct {
	char *p;
	size_t n, cap;
	bool failed;
} buf;

static int buf_sink(void *ctx, const char *s, size_t len)
{
	buf *b = ctx;
	if (b->failed)
		return -1;
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + len + 1)
			cap *= 2;
		char *q = realloc(b->p, cap);
		if (!q) {
			b->failed = true;
			return -1;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = 0;
	return 0;
}

#define out sink_printf

#define ESC(s) diagram_escape((s), sink, ctx)

typedef struct {
	char label[300];             /* for the contents: "Black - White, Event, result" */
	int blunders, mistakes;
} entry;

struct pk_report {
	pk_report_opts o;
	buf games;                   /* the sections */
	entry *e;
	int n, cap;
};

pk_report *report_new(const pk_report_opts *o)
{
	pk_report *r = calloc(1, sizeof *r);
	if (r)
		r->o = *o;
	return r;
}

void report_free(pk_report *r)
{
	if (!r)
		return;
	free(r->games.p);
	free(r->e);
	free(r);
}

int report_games(const pk_report *r) { return r->n; }

static const char *tag_or(const pk_game *g, const char *name, const char *dflt)
{
	const char *v = game_tag(g, name);
	return v && *v && strcmp(v, "?") != 0 ? v : dflt;
}

static const char *mark(int cls)
{
	switch (cls) {
	case CLASS_BLUNDER: return "??";
	case CLASS_MISTAKE: return "?";
	case CLASS_INACCURACY: return "?!";
	case CLASS_ONLY: return "!";
	default: return "";
	}
}

/* The score after a note's move from the view of `first` (Black in English draughts, the
 * first mover in the other variants), in hundredths, clamped to +-500. */
static int first_score(const pk_tnote *t, int first)
{
	int s = t->side == first ? t->score_played : -t->score_played;
	if (score_is_win(s))
		return s > 0 ? 500 : -500;
	return s > 500 ? 500 : s < -500 ? -500 : s;
}

int report_graph(const pk_bgame *b, pk_sink sink, void *ctx)
{
	const int W = 900, H = 190, L = 44, R = 12, T = 12, B = 26;
	int n = bgame_plies(b), first = bgame_first(b);
	const char *fn = first == PK_BLACK ? "Black" : "White", *on = first == PK_BLACK ? "White" : "Black";
	double pw = (double)(W - L - R) / (n > 1 ? n - 1 : 1);
	double mid = T + (H - T - B) / 2.0, half = (H - T - B) / 2.0;
	int rc = out(sink, ctx,
		     "<svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\""
		     " font-family=\"Helvetica, Arial, sans-serif\"><title>Evaluation after each move, from %s's side"
		     " (above the line: %s is better)</title>\n",
		     W, H, fn, fn);
	rc |= out(sink, ctx, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#e2ddd2\"/>\n", L, T,
		  W - L - R, H - T - B);
	/* what the axes mean, written on them: men from the first mover's side, moves along */
	rc |= out(sink, ctx,
		  "<text class=\"axis\" x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#6b665c\" text-anchor=\"middle\""
		  " transform=\"rotate(-90 %d %.1f)\">men, %s's view</text>\n",
		  11, mid, 11, mid, fn);
	rc |= out(sink, ctx,
		  "<text class=\"axis\" x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#8a8478\">%s better</text>"
		  "<text class=\"axis\" x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#8a8478\">%s better</text>\n",
		  L + 4, T + 11, fn, L + 4, H - B - 4, on);
	for (int v = -500; v <= 500; v += 250) {
		double y = mid - v / 500.0 * half;
		rc |= out(sink, ctx, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", L, W - R, y, y,
			  v == 0 ? "#9c968a" : "#eee9df");
		rc |= out(sink, ctx, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#6b665c\" text-anchor=\"end\">%+g</text>\n",
			  L - 6, y + 4, v / 100.0);
	}
	/* the area between the curve and zero, then the curve */
	rc |= out(sink, ctx, "<polyline fill=\"none\" stroke=\"#2e6fb7\" stroke-width=\"2\" points=\"");
	for (int i = 0; i < n; i++) {
		const pk_tnote *t = &b->notes[i];
		int s = t->scored ? first_score(t, first) : 0;
		if (!t->scored && i > 0)          /* book and forced moves keep the last score */
			for (int k = i - 1; k >= 0; k--)
				if (b->notes[k].scored) {
					s = first_score(&b->notes[k], first);
					break;
				}
		rc |= out(sink, ctx, "%s%.1f,%.1f", i ? " " : "", L + i * pw, mid - s / 500.0 * half);
	}
	rc |= out(sink, ctx, "\"/>\n");
	for (int i = 0; i < n; i++) {
		const pk_tnote *t = &b->notes[i];
		if (t->cls != CLASS_BLUNDER && t->cls != CLASS_MISTAKE && t->cls != CLASS_INACCURACY)
			continue;
		const char *col = t->cls == CLASS_BLUNDER ? "#c0392b" : t->cls == CLASS_MISTAKE ? "#e67e22" : "#c9a227";
		double x = L + i * pw, y = mid - first_score(t, first) / 500.0 * half;
		rc |= out(sink, ctx, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"#fff\"><title>%d%s %s%s (loss %d)</title></circle>\n",
			  class_name[t->cls], x, y, t->cls == CLASS_INACCURACY ? 4 : 6, col,
			  replay_move_number(&b->rp, t->ply), t->side == first ? "." : "...", t->move, mark(t->cls), t->loss);
	}
	if (b->decisive >= 0 && b->decisive < n) {
		double x = L + b->decisive * pw;
		rc |= out(sink, ctx, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>"
				     "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#c0392b\">decisive</text>\n",
			  x, x, T, H - B, x + 4, T + 12);
	}
	for (int m = 10; 2 * m <= n + 1; m += 10)   /* move numbers along the bottom */
		rc |= out(sink, ctx, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#6b665c\" text-anchor=\"middle\">%d</text>\n",
			  L + (2 * m - 2) * pw, H - 10, m);
	rc |= out(sink, ctx, "<text class=\"axis\" x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#6b665c\" text-anchor=\"end\">move</text>\n",
		  W - R, H - 10);
	rc |= out(sink, ctx, "</svg>\n");
	return rc ? -1 : 0;
}

/* The legal move written as text, in the position before it. */
static bool find_move(const pk_pos *p, const char *text, pk_move *m)
{
	pk_movelist ml;
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		char s[PK_MOVE_STRLEN];
		pdn_move_string(p, &ml.m[i], false, s);
		if (!strcmp(s, text)) {
			*m = ml.m[i];
			return true;
		}
	}
	return false;
}

/* The same in a position of another variant. */
static bool find_vmove(const pk_vpos *p, const char *text, pk_vmove *m)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	bool found = false;
	if (!ml)
		return false;
	vgen(p, ml);
	for (int i = 0; i < ml->n && !found; i++) {
		char s[160];
		vmove_text(p->v, &ml->m[i], false, s, sizeof s);
		if (!strcmp(s, text)) {
			*m = ml->m[i];
			found = true;
		}
	}
	free(ml);
	return found;
}

static int figure(const pk_bgame *b, const pk_tnote *t, pk_sink sink, void *ctx)
{
	pk_diagram_opts d = { .numbers = true, .size = b->rp.variant_replayed && b->rp.vr.start.v->rows > 8 ? 36 : 44 };
	const pk_pos *before = NULL;
	pk_vpos vbefore;
	int first = bgame_first(b);
	if (b->rp.variant_replayed) {
		pk_vmove played, best;
		if (vreplay_pos_before(&b->rp.vr, t->ply, &vbefore, &played) < 0)
			return 0;
		diagram_varrow(&d.arrows[d.narrows++], &played, ARROW_PLAYED);
		if (t->best[0] && strcmp(t->best, t->move) != 0 && find_vmove(&vbefore, t->best, &best))
			diagram_varrow(&d.arrows[d.narrows++], &best, ARROW_BEST);
	} else {
		before = replay_pos_before(&b->rp, t->ply);
		diagram_arrow(&d.arrows[d.narrows++], &b->rp.plies[t->ply - 1].move, ARROW_PLAYED);
		pk_move best;
		if (t->best[0] && strcmp(t->best, t->move) != 0 && find_move(before, t->best, &best))
			diagram_arrow(&d.arrows[d.narrows++], &best, ARROW_BEST);
	}
	char title[256];
	int num = replay_move_number(&b->rp, t->ply);
	snprintf(title, sizeof title, "Before %d%s %s: played %s (red), best %s (green)", num,
		 t->side == first ? "." : "...", t->move, t->move, t->best);
	d.title = title;
	int rc = out(sink, ctx, "<figure id=\"g%lld-p%d\">", (long long)b->id, t->ply);
	rc |= before ? diagram_svg(before, &d, sink, ctx) : diagram_vsvg(&vbefore, &d, sink, ctx);
	rc |= out(sink, ctx, "<figcaption><b>%d%s %s%s</b> (%s) best <b>%s</b>, loss %.2f", num,
		  t->side == first ? "." : "...", t->move, mark(t->cls), class_name[t->cls], t->best, t->loss / 100.0);
	if (t->pv[0]) {
		char line[NOTE_PV * 16];
		movenum_line_as(t->pv, num, t->side == first, ' ', line, sizeof line);
		rc |= out(sink, ctx, "<span class=\"line\">engine: ");
		rc |= ESC(line);
		rc |= out(sink, ctx, "</span>");
	}
	rc |= out(sink, ctx, "</figcaption></figure>\n");
	return rc;
}

/* The board of a game for the stepper: its size and where each square is drawn,
 * {"rows":R,"cols":C,"sq":[[row,col],...]} (squares in their order, rows from the top). */
static int board_json(const pk_bgame *b, pk_sink sink, void *ctx)
{
	const pk_variant *v = b->rp.variant_replayed ? b->rp.vr.start.v : NULL;
	int n = v ? variant_squares(v) : 32, rows = v ? v->rows : 8, cols = v ? v->cols : 8;
	int rc = out(sink, ctx, "{\"rows\":%d,\"cols\":%d,\"sq\":[", rows, cols);
	for (int sq = 1; sq <= n; sq++) {
		int r, c;
		if (v)
			variant_square_rc(v, sq, &r, &c);
		else
			diagram_square_xy(sq, false, &r, &c);
		rc |= out(sink, ctx, "%s[%d,%d]", sq > 1 ? "," : "", r, c);
	}
	return rc | out(sink, ctx, "]}");
}

/* The positions of a game for the stepper: one string a ply, a character a square
 * ('b' 'B' black man and king, 'w' 'W' white, '.' empty). */
static int positions_json(const pk_bgame *b, pk_sink sink, void *ctx)
{
	int rc = out(sink, ctx, "[");
	if (b->rp.variant_replayed) {
		const pk_vreplay *vr = &b->rp.vr;
		int n = variant_squares(vr->start.v);
		for (int i = 0; i <= vr->plies; i++) {
			pk_vpos p;
			char s[VAR_MAX_SQ + 1];
			if (vreplay_pos_before(vr, i + 1, &p, NULL) < 0)
				break;
			for (int sq = 1; sq <= n; sq++)
				s[sq - 1] = ".wWbB"[p.sq[sq] <= VP_BKING ? p.sq[sq] : 0];
			s[n] = 0;
			rc |= out(sink, ctx, "%s\"%s\"", i ? "," : "", s);
		}
		return rc | out(sink, ctx, "]");
	}
	for (int i = 0; i <= b->rp.nply; i++) {
		const pk_pos *p = i == 0 ? &b->rp.start : &b->rp.plies[i - 1].after;
		char s[33];
		for (int sq = 1; sq <= 32; sq++) {
			int c;
			bool k;
			s[sq - 1] = !pos_piece_at(p, sq, &c, &k) ? '.' : c == PK_BLACK ? (k ? 'B' : 'b') : (k ? 'W' : 'w');
		}
		s[32] = 0;
		rc |= out(sink, ctx, "%s\"%s\"", i ? "," : "", s);
	}
	return rc | out(sink, ctx, "]");
}

int report_add(pk_report *r, const pk_bgame *b)
{
	if (!b->ok || !b->notes)
		return 0;
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 64;
		entry *ne = realloc(r->e, sizeof *ne * (size_t)cap);
		if (!ne)
			return -1;
		r->e = ne;
		r->cap = cap;
	}
	entry *e = &r->e[r->n++];
	const char *black = tag_or(&b->g, "Black", "?"), *white = tag_or(&b->g, "White", "?");
	const char *event = tag_or(&b->g, "Event", ""), *date = tag_or(&b->g, "Date", "");
	/* the side that moves first named first: Black in English draughts, White in most others */
	int first = bgame_first(b);
	const char *name1 = first == PK_BLACK ? black : white, *name2 = first == PK_BLACK ? white : black;
	snprintf(e->label, sizeof e->label, "%s \u2013 %s%s%s, %s", name1, name2, *event ? ", " : "", event,
		 result_string(b->rp.result));
	e->blunders = b->side[0].count[CLASS_BLUNDER] + b->side[1].count[CLASS_BLUNDER];
	e->mistakes = b->side[0].count[CLASS_MISTAKE] + b->side[1].count[CLASS_MISTAKE];
	pk_sink sink = buf_sink;
	buf *ctx = &r->games;
	int k = r->n;
	int rc = out(sink, ctx, "<section class=\"game\" id=\"game%d\">\n<h2>", k);
	rc |= out(sink, ctx, "<bdi>");   /* names isolated: one written right to left stays in its place */
	rc |= ESC(name1);
	rc |= out(sink, ctx, "</bdi> \u2013 <bdi>");
	rc |= ESC(name2);
	rc |= out(sink, ctx, "</bdi>");
	rc |= out(sink, ctx, " <small>%s</small></h2>\n<p class=\"meta\">", result_string(b->rp.result));
	rc |= ESC(*event ? event : "no event");
	if (*date) {
		rc |= out(sink, ctx, ", ");
		rc |= ESC(date);
	}
	/* the opening by its name: the game's own Opening tag, else the classic opening it reached */
	const char *opening = tag_or(&b->g, "Opening", "");
	const pk_opname *on = *opening ? NULL : opname_of_replay(&b->rp);
	if (*opening || on) {
		rc |= out(sink, ctx, " \u00b7 <span class=\"opening\">");
		rc |= ESC(*opening ? opening : on->name);
		rc |= out(sink, ctx, "</span>");
	}
	if (b->file) {
		rc |= out(sink, ctx, " \u00b7 game %lld of ", (long long)b->id);
		rc |= ESC(b->file);
	} else {
		rc |= out(sink, ctx, " \u00b7 stored game #%lld", (long long)b->id);
	}
	rc |= out(sink, ctx, "</p>\n<table><tr><th>side</th><th>moves</th><th>average loss</th><th>blunders</th>"
			     "<th>mistakes</th><th>inaccuracies</th><th>only moves</th></tr>\n");
	for (int k2 = 0; k2 < 2; k2++) {
		int s = k2 == 0 ? first : !first;
		const pk_tally *t = &b->side[s];
		rc |= out(sink, ctx, "<tr><td>%s (", s == PK_BLACK ? "Black" : "White");
		rc |= ESC(s == PK_BLACK ? black : white);
		rc |= out(sink, ctx, ")</td><td>%d</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			  t->moves, tally_average(t), t->count[CLASS_BLUNDER], t->count[CLASS_MISTAKE],
			  t->count[CLASS_INACCURACY], t->count[CLASS_ONLY]);
	}
	rc |= out(sink, ctx, "</table>\n");
	rc |= report_graph(b, sink, ctx);
	/* the moves */
	rc |= out(sink, ctx, "<p class=\"moves\">");
	int plies = bgame_plies(b);
	for (int i = 0; i < plies; i++) {
		const pk_tnote *t = &b->notes[i];
		int num = replay_move_number(&b->rp, i + 1);
		if (t->side == first || i == 0)
			rc |= out(sink, ctx, "<span class=\"n\">%d%s</span> ", num, t->side == first ? "." : "...");
		const char *cls = t->cls < CLASS_NONE ? class_name[t->cls] : "setup";
		bool fig = t->cls == CLASS_BLUNDER || t->cls == CLASS_MISTAKE ||
			   (r->o.inaccuracies && t->cls == CLASS_INACCURACY);
		char text[PK_MOVE_STRLEN];
		if (t->move[0])
			snprintf(text, sizeof text, "%s", t->move);
		else if (b->rp.variant_replayed)
			snprintf(text, sizeof text, "?");
		else
			pdn_move_string(replay_pos_before(&b->rp, i + 1), &b->rp.plies[i].move, false, text);
		if (fig)
			rc |= out(sink, ctx, "<a class=\"m %s\" data-ply=\"%d\" href=\"#g%lld-p%d\">%s%s</a> ", cls, i + 1,
				  (long long)b->id, i + 1, text, mark(t->cls));
		else
			rc |= out(sink, ctx, "<span class=\"m %s\" data-ply=\"%d\">%s%s</span> ", cls, i + 1, text, mark(t->cls));
	}
	rc |= out(sink, ctx, "<span class=\"result\">%s</span></p>\n", result_string(b->rp.result));
	if (r->o.script) {
		rc |= out(sink, ctx, "<div class=\"stepper\" data-board='");
		rc |= board_json(b, sink, ctx);
		rc |= out(sink, ctx, "' data-positions='");
		rc |= positions_json(b, sink, ctx);
		rc |= out(sink, ctx, "'></div>\n");
	}
	/* a diagram before each mistake */
	rc |= out(sink, ctx, "<div class=\"figures\">\n");
	for (int i = 0; i < plies; i++) {
		const pk_tnote *t = &b->notes[i];
		if (t->cls == CLASS_BLUNDER || t->cls == CLASS_MISTAKE || (r->o.inaccuracies && t->cls == CLASS_INACCURACY))
			rc |= figure(b, t, sink, ctx);
	}
	rc |= out(sink, ctx, "</div>\n</section>\n");
	return rc || r->games.failed ? -1 : 0;
}

int report_head(const char *title, pk_sink sink, void *ctx)
{
	int rc = out(sink, ctx, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
				"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
				"<meta name=\"generator\" content=\"pdnkit\"/>\n<title>");
	rc |= ESC(title);
	rc |= out(sink, ctx, "</title>\n<style>\n");
	rc |= sink(ctx, report_css, strlen(report_css));
	rc |= out(sink, ctx, "</style>\n</head>\n<body>\n<main>\n");
	return rc ? -1 : 0;
}

int report_foot(pk_sink sink, void *ctx)
{
	return out(sink, ctx, "<footer>Made by pdnkit.</footer>\n</main>\n");
}

/* The stepper: a board and buttons for each game that has its positions. It only adds
 * to the page; without scripts the page reads the same. */
/* Written without '<' or '&' so that the page stays well-formed XML. */
static const char stepper_js[] =
	"<script>\n"
	"(function () {\n"
	"  var NS = 'http://www.w3.org/2000/svg';\n"
	"  function el(name, attrs) { var e = document.createElementNS(NS, name);\n"
	"    for (var a in attrs) e.setAttribute(a, attrs[a]); return e; }\n"
	"  function draw(svg, bd, s) {\n"
	"    svg.querySelectorAll('.pc').forEach(function (e) { svg.removeChild(e); });\n"
	"    for (var i = 0; s.length > i; i++) { var c = s.charAt(i); if (c === '.') continue;\n"
	"      var p = bd.sq[i], g = el('g', { 'class': 'pc' });\n"
	"      var dark = c === 'b' || c === 'B';\n"
	"      g.appendChild(el('circle', { cx: p[1] * 30 + 15, cy: p[0] * 30 + 15, r: 11,\n"
	"        fill: dark ? '#222' : '#f4efe3', stroke: dark ? '#000' : '#8c836f' }));\n"
	"      if (c === 'B' || c === 'W') g.appendChild(el('circle', { cx: p[1] * 30 + 15, cy: p[0] * 30 + 15, r: 5,\n"
	"        fill: '#d4a72c' }));\n"
	"      svg.appendChild(g); } }\n"
	"  document.querySelectorAll('.stepper').forEach(function (box) {\n"
	"    var pos = JSON.parse(box.getAttribute('data-positions')), ply = 0;\n"
	"    var bd = JSON.parse(box.getAttribute('data-board')), dark = {};\n"
	"    bd.sq.forEach(function (p) { dark[p[0] * 100 + p[1]] = true; });\n"
	"    var svg = el('svg', { viewBox: '0 0 ' + bd.cols * 30 + ' ' + bd.rows * 30, 'class': 'board', role: 'img' });\n"
	"    for (var r = 0; bd.rows > r; r++) for (var c = 0; bd.cols > c; c++)\n"
	"      svg.appendChild(el('rect', { x: c * 30, y: r * 30, width: 30, height: 30,\n"
	"        fill: dark[r * 100 + c] ? '#7a9a6b' : '#f3ead7' }));\n"
	"    var label = document.createElement('span');\n"
	"    function show() { draw(svg, bd, pos[ply]); label.textContent = ' ply ' + ply + ' of ' + (pos.length - 1);\n"
	"      var sec = box.closest('section');\n"
	"      sec.querySelectorAll('.moves .m').forEach(function (m) {\n"
	"        m.style.outline = +m.getAttribute('data-ply') === ply ? '2px solid #2e6fb7' : ''; }); }\n"
	"    [['\\u00ab', function () { ply = 0; }], ['\\u2039', function () { if (ply > 0) ply--; }],\n"
	"     ['\\u203a', function () { if (pos.length - 1 > ply) ply++; }], ['\\u00bb', function () { ply = pos.length - 1; }]]\n"
	"      .forEach(function (b) { var x = document.createElement('button'); x.type = 'button';\n"
	"        x.textContent = b[0]; x.addEventListener('click', function () { b[1](); show(); }); box.appendChild(x); });\n"
	"    box.insertBefore(svg, box.firstChild); box.appendChild(label);\n"
	"    box.closest('section').querySelectorAll('.moves .m').forEach(function (m) {\n"
	"      m.addEventListener('click', function (ev) { ply = +m.getAttribute('data-ply'); show();\n"
	"        if (m.tagName !== 'A') ev.preventDefault(); }); });\n"
	"    show(); });\n"
	"})();\n"
	"</script>\n";

int report_write(pk_report *r, const pk_player_sum *players, int nplayers, pk_sink sink, void *ctx)
{
	int rc = report_head(r->o.title, sink, ctx);
	rc |= out(sink, ctx, "<h1>");
	rc |= ESC(r->o.title);
	rc |= out(sink, ctx, "</h1>\n");
	if (r->o.subtitle) {
		rc |= out(sink, ctx, "<p class=\"sub\">");
		rc |= ESC(r->o.subtitle);
		rc |= out(sink, ctx, "</p>\n");
	}
	rc |= out(sink, ctx, "<p class=\"legend\"><span>?? blunder</span><span>? mistake</span><span>?! inaccuracy</span>"
			     "<span>! only move</span><span class=\"played\">\u2192 played</span><span class=\"best\">\u2192 best</span></p>\n");
	if (nplayers > 0) {
		rc |= out(sink, ctx, "<h3>Players</h3>\n<table><tr><th>player</th><th>games</th><th>moves</th><th>average loss</th>"
				     "<th>blunders</th><th>mistakes</th><th>inaccuracies</th></tr>\n");
		for (int i = 0; i < nplayers; i++) {
			const pk_player_sum *p = &players[i];
			rc |= out(sink, ctx, "<tr><td>");
			rc |= ESC(p->name);
			rc |= out(sink, ctx, "</td><td>%d</td><td>%d</td><td>%.1f</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", p->games,
				  p->t.moves, tally_average(&p->t), p->t.count[CLASS_BLUNDER], p->t.count[CLASS_MISTAKE],
				  p->t.count[CLASS_INACCURACY]);
		}
		rc |= out(sink, ctx, "</table>\n");
	}
	if (r->n > 1) {
		rc |= out(sink, ctx, "<h3>Games</h3>\n<nav class=\"toc\"><ol>\n");
		for (int i = 0; i < r->n; i++) {
			rc |= out(sink, ctx, "<li><a href=\"#game%d\">", i + 1);
			rc |= ESC(r->e[i].label);
			rc |= out(sink, ctx, "</a>");
			if (r->e[i].blunders || r->e[i].mistakes)
				rc |= out(sink, ctx, " <small>(%d??, %d?)</small>", r->e[i].blunders, r->e[i].mistakes);
			rc |= out(sink, ctx, "</li>\n");
		}
		rc |= out(sink, ctx, "</ol></nav>\n");
	}
	if (r->games.n)
		rc |= sink(ctx, r->games.p, r->games.n);
	else
		rc |= out(sink, ctx, "<p>No annotated game.</p>\n");
	rc |= report_foot(sink, ctx);
	if (r->o.script)
		rc |= sink(ctx, stepper_js, sizeof stepper_js - 1);
	rc |= out(sink, ctx, "</body>\n</html>\n");
	return rc ? -1 : 0;
}
