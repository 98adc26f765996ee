/* The collection's summary: a handful of aggregate queries over the filter, and the
 * stored move blobs decoded for the openings and the explorer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/internal.h"
#include "store/summary.h"

static int res_index(const char *r)
{
	if (!r)
		return 3;
	return !strcmp(r, "1-0") ? 0 : !strcmp(r, "0-1") ? 1 : !strcmp(r, "1/2-1/2") ? 2 : 3;
}

static long num(const char *s) { return s ? atol(s) : 0; }

static int on_totals(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	st->games = num(c[0]);
	st->events = num(c[1]);
	st->date_min = (int32_t)num(c[2]);
	st->date_max = (int32_t)num(c[3]);
	return 0;
}

static int on_count(void *v, int n, const char *const *c)
{
	(void)n;
	*(long *)v = num(c[0]);
	return 0;
}

static int on_result(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	st->res[res_index(c[0])] += num(c[1]);
	return 0;
}

static int hexval(char c) { return c >= 'A' ? c - 'A' + 10 : c - '0'; }

/* A move of the summary's variant as text. */
static void move_name(const pk_summary *st, const pk_movelist *ml, const pk_vmovelist *vml, int o, char *out,
		      size_t size)
{
	if (st->v)
		vmove_text(st->v, &vml->m[o], false, out, size);
	else
		move_format(&ml->m[o], false, out, size);
}

/* The moves of ordinals (hex of the stored blob) from the initial position, as text. */
static void ordinals_text(const pk_summary *st, const char *hex, int plies, char *out, size_t size)
{
	pk_pos p;
	pk_vpos vp;
	pk_movelist ml;
	pk_vmovelist *vml = st->v ? malloc(sizeof *vml) : NULL;
	if (st->v && !vml)
		return;
	if (st->v)
		vpos_start(st->v, &vp);
	else
		pos_start(&p);
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < plies && hex[2 * i] && hex[2 * i + 1]; i++) {
		int o = hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]);
		if (o >= (st->v ? vgen(&vp, vml) : gen_moves(&p, &ml)))
			break;
		char mv[160];
		move_name(st, &ml, vml, o, mv, sizeof mv);
		n += (size_t)snprintf(out + n, size > n ? size - n : 0, "%s%s", i ? " " : "", mv);
		if (st->v) {
			pk_vpos q;
			vmake(&vp, &vml->m[o], &q);
			vp = q;
		} else {
			pk_pos q;
			pos_make(&p, &ml.m[o], &q);
			p = q;
		}
	}
	free(vml);
}

static int on_variant(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	if (st->nvariants < (int)(sizeof st->variants / sizeof st->variants[0])) {
		st->variants[st->nvariants].gametype = (int)num(c[0]);
		st->variants[st->nvariants].games = num(c[1]);
		st->nvariants++;
	}
	return 0;
}

static int on_opening(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	if (st->nopenings >= SUMMARY_TOP || !c[0])
		return 0;
	pk_bucket *b = &st->openings[st->nopenings++];
	ordinals_text(st, c[0], 3, b->text, sizeof b->text);
	b->games = num(c[1]);
	b->bw = num(c[2]);
	b->ww = num(c[3]);
	b->draws = num(c[4]);
	return 0;
}

static int on_player(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	if (st->nplayers >= SUMMARY_TOP)
		return 0;
	snprintf(st->players_top[st->nplayers].name, sizeof st->players_top[0].name, "%s", c[0] ? c[0] : "?");
	st->players_top[st->nplayers].games = num(c[1]);
	st->players_top[st->nplayers].points = c[2] ? atof(c[2]) : 0;
	st->players_top[st->nplayers].won = num(c[3]);
	st->players_top[st->nplayers].drawn = num(c[4]);
	st->players_top[st->nplayers].lost = num(c[5]);
	st->nplayers++;
	return 0;
}

static int on_year(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	long y = num(c[0]);
	if (y >= 1500 && y < 2100) {
		st->years[y - 1500] = (int)num(c[1]);
		if (!st->ymin || y < st->ymin)
			st->ymin = (int)y;
		if (y > st->ymax)
			st->ymax = (int)y;
	}
	return 0;
}

/* A game reaching the explorer's position: the move it played next. */
static int on_explore(void *v, int n, const char *const *c)
{
	pk_summary *st = v;
	(void)n;
	const char *hex = c[0] ? c[0] : "";
	int ply = (int)num(c[1]);
	size_t len = strlen(hex);
	/* Ordinals of 255 and more are escaped in the blob; such rare games are skipped. */
	for (int i = 0; i < ply && (size_t)(2 * i + 1) < len; i++)
		if (hex[2 * i] == 'F' && hex[2 * i + 1] == 'F')
			return 0;
	if ((size_t)(2 * ply + 2) > len) {
		st->explore_ended++;
		return 0;
	}
	int o = hexval(hex[2 * ply]) * 16 + hexval(hex[2 * ply + 1]);
	int k = 0;
	while (k < st->nexplore && st->ex_ord[k] != o)
		k++;
	if (k == st->nexplore) {
		if (st->nexplore >= PK_MAX_MOVES)
			return 0;
		st->ex_ord[st->nexplore] = o;
		memset(&st->explore[st->nexplore], 0, sizeof st->explore[0]);
		st->nexplore++;
	}
	pk_bucket *b = &st->explore[k];
	b->games++;
	int r = res_index(c[2]);
	b->bw += r == 0;
	b->ww += r == 1;
	b->draws += r == 2;
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const pk_bucket *x = a, *y = b;
	return x->games != y->games ? (y->games > x->games ? 1 : -1) : strcmp(x->text, y->text);
}

int store_summary(pk_store *s, const pk_filter *f, const pk_pos *from, const pk_vpos *vfrom, pk_summary *st)
{
	memset(st, 0, sizeof *st);
	int gametype = f->gametype > 0 ? f->gametype : 21;
	st->v = gametype != 21 ? variant_by_gametype(gametype) : NULL;
	/* A player's points: "1-0" is a win for the side that moves first, Black in English
	 * draughts and White in the variants listed here. */
	char white_first[200];
	st_white_first(white_first, sizeof white_first);
	char players[2000];
	snprintf(players, sizeof players,
		 "SELECT coalesce((SELECT p.name FROM player p WHERE p.key = k), max(name)), count(*), sum(points), sum(points = 1), sum(points = 0.5), sum(points = 0) FROM ("
		 " SELECT g.black name, g.black_key k, CASE g.result WHEN '1/2-1/2' THEN 0.5"
		 " WHEN '1-0' THEN g.gametype NOT IN (%s) WHEN '0-1' THEN g.gametype IN (%s) END points"
		 " FROM game g %%W AND g.black_key IS NOT NULL AND g.black_key != ''"
		 " UNION ALL SELECT g.white, g.white_key, CASE g.result WHEN '1/2-1/2' THEN 0.5"
		 " WHEN '0-1' THEN g.gametype NOT IN (%s) WHEN '1-0' THEN g.gametype IN (%s) END"
		 " FROM game g %%W AND g.white_key IS NOT NULL AND g.white_key != '')"
		 " GROUP BY k ORDER BY 2 DESC, 1 LIMIT 10", white_first, white_first, white_first, white_first);
	char openings[400];
	snprintf(openings, sizeof openings,
		 "SELECT hex(substr(g.moves, 1, 3)) o, count(*), sum(g.result = '1-0'), sum(g.result = '0-1'),"
		 " sum(g.result = '1/2-1/2') FROM game g %%W AND g.start IS NULL AND g.plies >= 3 AND g.gametype = %d"
		 " AND instr(hex(substr(g.moves, 1, 3)), 'FF') = 0 GROUP BY o ORDER BY 2 DESC, o LIMIT 10", gametype);
	if (store_select(s, "SELECT count(*), count(DISTINCT g.event), min(g.date_key), max(g.date_key) FROM game g %W",
			 f, on_totals, st) < 0 ||
	    store_select(s, "SELECT count(*) FROM (SELECT g.black_key FROM game g %W AND g.black_key IS NOT NULL"
			    " UNION SELECT g.white_key FROM game g %W AND g.white_key IS NOT NULL)", f, on_count,
			 &st->players) < 0 ||
	    store_select(s, "SELECT g.result, count(*) FROM game g %W GROUP BY g.result", f, on_result, st) < 0 ||
	    store_select(s, "SELECT g.gametype, count(*) FROM game g %W GROUP BY g.gametype ORDER BY 2 DESC, 1", f,
			 on_variant, st) < 0 ||
	    (!(st->v && !st->v->replayable) && store_select(s, openings, f, on_opening, st) < 0) ||
	    store_select(s, players, f, on_player, st) < 0 ||
	    store_select(s, "SELECT g.date_key / 10000 y, count(*) FROM game g %W AND g.date_key IS NOT NULL GROUP BY y",
			 f, on_year, st) < 0)
		return -1;
	if (f->position_set && (st->v ? vfrom != NULL : from != NULL)) {
		st->explored = true;
		if (st->v)
			st->vfrom = *vfrom;
		else
			st->from = *from;
		if (store_select(s, "SELECT hex(g.moves), p.ply, g.result FROM game g %W AND g.start IS NULL", f,
				 on_explore, st) < 0)
			return -1;
		pk_movelist ml;
		pk_vmovelist *vml = st->v ? malloc(sizeof *vml) : NULL;
		if (st->v && !vml)
			return -1;
		int nlegal = st->v ? vgen(&st->vfrom, vml) : gen_moves(&st->from, &ml);
		for (int i = 0; i < st->nexplore; i++) {
			pk_bucket *e = &st->explore[i];
			if (st->ex_ord[i] < nlegal)
				move_name(st, &ml, vml, st->ex_ord[i], e->text, sizeof e->text);
			else
				snprintf(e->text, sizeof e->text, "#%d", st->ex_ord[i]);
			e->ord = st->ex_ord[i];
		}
		free(vml);
		qsort(st->explore, (size_t)st->nexplore, sizeof st->explore[0], cmp_bucket);
		for (int i = 0; i < st->nexplore; i++)
			st->ex_ord[i] = st->explore[i].ord;
	}
	return 0;
}

const char *summary_result_label(const pk_summary *st, int i)
{
	int first = PK_BLACK;
	if (st->nvariants > 1) {
		first = -1;
	} else if (st->nvariants == 1) {
		const pk_variant *v = variant_by_gametype(st->variants[0].gametype);
		first = v ? v->first : -1;
	}
	static const char *const names[3][4] = {
		{ "1-0 (Black won)", "0-1 (White won)", "1/2-1/2", "* (unknown)" },
		{ "1-0 (White won)", "0-1 (Black won)", "1/2-1/2", "* (unknown)" },
		{ "1-0 (first won)", "0-1 (second won)", "1/2-1/2", "* (unknown)" },
	};
	return names[first == PK_BLACK ? 0 : first == PK_WHITE ? 1 : 2][i & 3];
}

void summary_date_text(int32_t k, char *buf, size_t n)
{
	if (!k)
		snprintf(buf, n, "?");
	else if (k % 10000 == 0)
		snprintf(buf, n, "%d", k / 10000);
	else if (k % 100 == 0)
		snprintf(buf, n, "%d-%02d", k / 10000, k / 100 % 100);
	else
		snprintf(buf, n, "%d-%02d-%02d", k / 10000, k / 100 % 100, k % 100);
}
