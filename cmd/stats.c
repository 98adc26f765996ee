/* pdnkit stats: what a collection holds, its results, openings and players, and an
 * opening explorer from a position; optionally an SVG chart. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "rules/fen.h"

#include "stats.h"

static int res_index(const char *r)
{
	if (!r)
		return 3;
	return !strcmp(r, "1-0") ? 0 : !strcmp(r, "0-1") ? 1 : !strcmp(r, "1/2-1/2") ? 2 : 3;
}

static long num(const char *s) { return s ? atol(s) : 0; }

static int on_totals(void *v, int n, const char *const *c)
{
	stats *st = v;
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
	stats *st = v;
	(void)n;
	st->res[res_index(c[0])] += num(c[1]);
	return 0;
}

static int hexval(char c) { return c >= 'A' ? c - 'A' + 10 : c - '0'; }

/* The moves of ordinals (hex of the stored blob) from the initial position, as text. */
static void ordinals_text(const char *hex, int plies, char *out, size_t size)
{
	pk_pos p;
	pos_start(&p);
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < plies && hex[2 * i] && hex[2 * i + 1]; i++) {
		int o = hexval(hex[2 * i]) * 16 + hexval(hex[2 * i + 1]);
		pk_movelist ml;
		gen_moves(&p, &ml);
		if (o >= ml.n)
			break;
		char mv[PK_MOVE_STRLEN];
		move_format(&ml.m[o], false, mv, sizeof mv);
		n += (size_t)snprintf(out + n, size > n ? size - n : 0, "%s%s", i ? " " : "", mv);
		pk_pos q;
		pos_make(&p, &ml.m[o], &q);
		p = q;
	}
}

static int on_opening(void *v, int n, const char *const *c)
{
	stats *st = v;
	(void)n;
	if (st->nopenings >= TOP || !c[0])
		return 0;
	bucket *b = &st->openings[st->nopenings++];
	ordinals_text(c[0], 3, b->text, sizeof b->text);
	b->games = num(c[1]);
	b->bw = num(c[2]);
	b->ww = num(c[3]);
	b->draws = num(c[4]);
	return 0;
}

static int on_player(void *v, int n, const char *const *c)
{
	stats *st = v;
	(void)n;
	if (st->nplayers >= TOP)
		return 0;
	snprintf(st->players_top[st->nplayers].name, sizeof st->players_top[0].name, "%s", c[0] ? c[0] : "?");
	st->players_top[st->nplayers].games = num(c[1]);
	st->players_top[st->nplayers].points = c[2] ? atof(c[2]) : 0;
	st->players_top[st->nplayers].decided = num(c[3]);
	st->nplayers++;
	return 0;
}

static int on_year(void *v, int n, const char *const *c)
{
	stats *st = v;
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
	stats *st = v;
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
	bucket *b = &st->explore[k];
	b->games++;
	int r = res_index(c[2]);
	b->bw += r == 0;
	b->ww += r == 1;
	b->draws += r == 2;
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const bucket *x = a, *y = b;
	return x->games != y->games ? (y->games > x->games ? 1 : -1) : strcmp(x->text, y->text);
}

static void pct(FILE *f, long part, long whole)
{
	fprintf(f, "%5.1f%%", whole ? 100.0 * (double)part / (double)whole : 0.0);
}

static void date_text(int32_t k, char *buf, size_t n)
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

static void print_human(const stats *st, bool explorer)
{
	char a[16], b[16];
	date_text(st->date_min, a, sizeof a);
	date_text(st->date_max, b, sizeof b);
	printf("games     %ld\nplayers   %ld\nevents    %ld\ndates     %s .. %s\n", st->games, st->players,
	       st->events, a, b);
	static const char *const names[] = { "1-0 (Black won)", "0-1 (White won)", "1/2-1/2", "* (unknown)" };
	printf("\nresults\n");
	for (int i = 0; i < 4; i++) {
		printf("  %-16s %7ld  ", names[i], st->res[i]);
		pct(stdout, st->res[i], st->games);
		putchar('\n');
	}
	if (st->nopenings) {
		printf("\nopenings (first three moves)        games   1-0    0-1    draw   Black's score\n");
		for (int i = 0; i < st->nopenings; i++) {
			const bucket *o = &st->openings[i];
			printf("  %-32s %6ld  ", o->text, o->games);
			pct(stdout, o->bw, o->games);
			putchar(' ');
			pct(stdout, o->ww, o->games);
			putchar(' ');
			pct(stdout, o->draws, o->games);
			printf("  ");
			pct(stdout, 2 * o->bw + o->draws, 2 * o->games);
			putchar('\n');
		}
	}
	if (st->nplayers) {
		printf("\nplayers with most games             games   score (of decided games)\n");
		for (int i = 0; i < st->nplayers; i++) {
			printf("  %-32.32s %6ld  ", st->players_top[i].name, st->players_top[i].games);
			if (st->players_top[i].decided)
				pct(stdout, (long)(st->players_top[i].points * 2), st->players_top[i].decided * 2);
			else
				printf("     -");
			putchar('\n');
		}
	}
	if (explorer) {
		char fen[PK_FEN_STRLEN];
		fen_format(&st->from, fen, sizeof fen);
		printf("\nmoves played from %s\n", fen);
		printf("  %-12s %6s   1-0    0-1    draw\n", "move", "games");
		for (int i = 0; i < st->nexplore; i++) {
			const bucket *e = &st->explore[i];
			printf("  %-12s %6ld  ", e->text, e->games);
			pct(stdout, e->bw, e->games);
			putchar(' ');
			pct(stdout, e->ww, e->games);
			putchar(' ');
			pct(stdout, e->draws, e->games);
			putchar('\n');
		}
		if (st->explore_ended)
			printf("  (%ld game%s ended in this position)\n", st->explore_ended, st->explore_ended == 1 ? "" : "s");
	}
}

static void print_json(const stats *st, bool explorer)
{
	printf("{\"games\":%ld,\"players\":%ld,\"events\":%ld,\"date_min\":%d,\"date_max\":%d,"
	       "\"results\":{\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld,\"*\":%ld},\"openings\":[",
	       st->games, st->players, st->events, st->date_min, st->date_max, st->res[0], st->res[1], st->res[2],
	       st->res[3]);
	for (int i = 0; i < st->nopenings; i++) {
		const bucket *o = &st->openings[i];
		printf("%s{\"moves\":", i ? "," : "");
		json_string(stdout, o->text);
		printf(",\"games\":%ld,\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld}", o->games, o->bw, o->ww, o->draws);
	}
	printf("],\"players\":[");
	for (int i = 0; i < st->nplayers; i++) {
		printf("%s{\"name\":", i ? "," : "");
		json_string(stdout, st->players_top[i].name);
		printf(",\"games\":%ld,\"decided\":%ld,\"points\":%.1f}", st->players_top[i].games,
		       st->players_top[i].decided, st->players_top[i].points);
	}
	printf("],\"years\":{");
	bool first = true;
	for (int y = st->ymin; y && y <= st->ymax; y++)
		if (st->years[y - 1500]) {
			printf("%s\"%d\":%d", first ? "" : ",", y, st->years[y - 1500]);
			first = false;
		}
	printf("}");
	if (explorer) {
		printf(",\"explorer\":{\"moves\":[");
		for (int i = 0; i < st->nexplore; i++) {
			const bucket *e = &st->explore[i];
			printf("%s{\"move\":\"%s\",\"games\":%ld,\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld}", i ? "," : "",
			       e->text, e->games, e->bw, e->ww, e->draws);
		}
		printf("],\"ended\":%ld}", st->explore_ended);
	}
	printf("}\n");
}


int cmd_stats(int argc, const char **argv)
{
	filter_args fa = { 0 };
	int json = 0;
	char *svg = NULL;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games:", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print one JSON object", NULL },
		{ "svg", 0, POPT_ARG_STRING, &svg, 0, "draw results and games per year into an SVG file", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx);
	pk_store *s = NULL;
	stats *st = calloc(1, sizeof *st);
	if (rc || !st)
		goto out;
	rc = EXIT_USAGE;
	pk_filter f;
	if (filter_resolve(&fa, &f))
		goto out;
	s = db_open(&fa, false);
	if (!s) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (store_select(s, "SELECT count(*), count(DISTINCT g.event), min(g.date_key), max(g.date_key) FROM game g %W",
			 &f, on_totals, st) < 0 ||
	    store_select(s, "SELECT count(*) FROM (SELECT g.black_key FROM game g %W AND g.black_key IS NOT NULL"
			    " UNION SELECT g.white_key FROM game g %W AND g.white_key IS NOT NULL)", &f, on_count,
			 &st->players) < 0 ||
	    store_select(s, "SELECT g.result, count(*) FROM game g %W GROUP BY g.result", &f, on_result, st) < 0 ||
	    store_select(s, "SELECT hex(substr(g.moves, 1, 3)) o, count(*), sum(g.result = '1-0'), sum(g.result = '0-1'),"
			    " sum(g.result = '1/2-1/2') FROM game g %W AND g.start IS NULL AND g.plies >= 3"
			    " AND instr(hex(substr(g.moves, 1, 3)), 'FF') = 0 GROUP BY o ORDER BY 2 DESC, o LIMIT 10",
			 &f, on_opening, st) < 0 ||
	    store_select(s, "SELECT max(name), count(*), sum(points), count(points) FROM ("
			    " SELECT g.black name, g.black_key k, CASE g.result WHEN '1-0' THEN 1.0 WHEN '1/2-1/2' THEN 0.5"
			    " WHEN '0-1' THEN 0.0 END points FROM game g %W AND g.black_key IS NOT NULL AND g.black_key != ''"
			    " UNION ALL SELECT g.white, g.white_key, CASE g.result WHEN '0-1' THEN 1.0 WHEN '1/2-1/2' THEN 0.5"
			    " WHEN '1-0' THEN 0.0 END FROM game g %W AND g.white_key IS NOT NULL AND g.white_key != '')"
			    " GROUP BY k ORDER BY 2 DESC, 1 LIMIT 10", &f, on_player, st) < 0 ||
	    store_select(s, "SELECT g.date_key / 10000 y, count(*) FROM game g %W AND g.date_key IS NOT NULL GROUP BY y",
			 &f, on_year, st) < 0) {
		cli_error("%s", store_error(s));
		goto out;
	}
	if (f.position_set) {
		/* The explorer's position, for turning ordinals into moves. */
		pk_fen_error fe;
		uint8_t tmp[1024];
		int n;
		if (fa.position)
			fen_parse(fa.position, strlen(fa.position), &st->from, &fe);
		else
			parse_moves_arg("after", fa.after, tmp, sizeof tmp, &n, &st->from);
		if (store_select(s, "SELECT hex(g.moves), p.ply, g.result FROM game g %W AND g.start IS NULL", &f,
				 on_explore, st) < 0) {
			cli_error("%s", store_error(s));
			goto out;
		}
		pk_movelist ml;
		gen_moves(&st->from, &ml);
		for (int i = 0; i < st->nexplore; i++) {
			bucket *e = &st->explore[i];
			if (st->ex_ord[i] < ml.n)
				move_format(&ml.m[st->ex_ord[i]], false, e->text, sizeof e->text);
			else
				snprintf(e->text, sizeof e->text, "#%d", st->ex_ord[i]);
		}
		qsort(st->explore, (size_t)st->nexplore, sizeof st->explore[0], cmp_bucket);
	}
	if (json)
		print_json(st, f.position_set);
	else
		print_human(st, f.position_set);
	if (svg) {
		char err[256];
		if (svg_write(svg, st, err, sizeof err) < 0) {
			cli_error("%s", err);
			goto out;
		}
	}
	rc = EXIT_OK;
out:
	store_close(s);
	free(st);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(svg);
	return rc;
}
