/* A game's variations for the game page (GET /api/game): each line of a variation read
 * move by move against the rules from the position it branches from (any variant), with
 * each move's board, so that the page can show and step through it; variations inside a
 * variation likewise, as deep as the game nests them. */
#include <stdio.h>
#include <string.h>
#include "pdn/replay.h"
#include "pdn/vreplay.h"
#include "web/internal.h"

/* The moves of the text in p (marks such as ! and ? left aside): how many distinct legal
 * moves it names, the first into *m. */
static int read_gmove(const pk_gpos *p, const char *text, pk_gmove *m)
{
	char t[64];
	size_t n = strcspn(text, "!?");
	if (n >= sizeof t)
		return 0;
	memcpy(t, text, n);
	t[n] = 0;
	if (!p->v) {
		pk_move out[2];
		char why[200];
		int k = replay_read_move(&p->e, t, out, 2, why, sizeof why);
		if (k >= 1)
			m->e = out[0];
		return k;
	}
	pk_vmove out[2];
	int k = vreplay_read_move(&p->x, t, out, 2);
	if (k >= 1)
		m->x = out[0];
	return k < 0 ? 0 : k;
}

bool web_has_variations(const pk_game *g, int from, int to, int depth)
{
	for (int e = from; e < to && e < g->nel; e++)
		if (g->els[e].kind == EL_VAR_START && g->els[e].depth == depth)
			return true;
	return false;
}

void web_json_variations(req *r, const pk_game *g, int from, int to, int depth, const pk_gpos *before, int number)
{
	pk_buf *b = r->out;
	if (to > g->nel)
		to = g->nel;
	buf_str(b, "[");
	int lines = 0;
	for (int e = from; e < to; e++) {
		if (g->els[e].kind != EL_VAR_START || g->els[e].depth != depth)
			continue;
		int end = e + 1;
		while (end < to && !(g->els[end].kind == EL_VAR_END && g->els[end].depth == depth))
			end++;
		buf_str(b, lines++ ? ",[" : "[");
		pk_gpos p = *before;
		int num = number, moves = 0;
		for (int k = e + 1; k < end; k++) {
			const pk_el *el = &g->els[k];
			if (el->kind != EL_MOVE || el->depth != depth)
				continue;
			pk_gmove m;
			if (read_gmove(&p, game_str(g, el->off), &m) < 1) {
				/* a move the rules refuse ends the line there (what comes after cannot
				 * be placed): given as written, marked */
				buf_str(b, moves++ ? ",{\"move\":" : "{\"move\":");
				buf_json(b, game_str(g, el->off));
				buf_printf(b, ",\"number\":%d,\"side\":\"%s\",\"illegal\":true}", num,
					   gpos_stm(&p) == PK_BLACK ? "black" : "white");
				break;
			}
			/* the elements up to this line's next move: the variations that replace
			 * this one */
			int next = k + 1;
			while (next < end && !(g->els[next].kind == EL_MOVE && g->els[next].depth == depth))
				next++;
			char text[160], board[VAR_MAX_SQ + 1];
			gmove_format(&p, &m, false, text, sizeof text);
			/* the marks it was written with (!, ?, !?, ...) */
			const char *w = game_str(g, el->off), *marks = w + strcspn(w, "!?");
			if (*marks && strlen(text) + strlen(marks) < sizeof text)
				strcat(text, marks);
			pk_gpos q;
			gpos_make(&p, &m, &q);
			web_gboard_string(&q, board);
			int stm = gpos_stm(&p);
			buf_printf(b, "%s{\"move\":", moves++ ? "," : "");
			buf_json(b, text);
			buf_printf(b, ",\"number\":%d,\"side\":\"%s\",\"board\":\"%s\",\"last\":[", num,
				   stm == PK_BLACK ? "black" : "white", board);
			/* the squares the move went over, numbered as the page numbers them */
			if (p.v) {
				buf_printf(b, "%d", m.x.from);
				for (int j = 0; j < m.x.nland; j++)
					buf_printf(b, ",%d", m.x.land[j]);
			} else {
				buf_printf(b, "%d", m.e.from + 1);
				for (int j = 0; j < m.e.nland; j++)
					buf_printf(b, ",%d", m.e.land[j] + 1);
			}
			buf_str(b, "]");
			int nc = 0;
			for (int j = k + 1; j < next; j++)
				if (g->els[j].kind == EL_COMMENT && g->els[j].depth == depth) {
					buf_str(b, nc++ ? "," : ",\"comments\":[");
					buf_json(b, game_str(g, g->els[j].off));
				}
			if (nc)
				buf_str(b, "]");
			if (web_has_variations(g, k + 1, next, depth + 1)) {
				buf_str(b, ",\"vars\":");
				web_json_variations(r, g, k + 1, next, depth + 1, &p, num);
			}
			buf_str(b, "}");
			if (gpos_stm(&q) == gpos_first(&q))
				num++;
			p = q;
		}
		buf_str(b, "]");
		e = end;
	}
	buf_str(b, "]");
}
