/* pdnkit stats: what a collection holds, its results, openings and players, and an
 * opening explorer from a position; optionally an SVG chart. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "rules/fen.h"

#include "report/charts.h"
#include "store/summary.h"

static void pct(FILE *f, long part, long whole)
{
	fprintf(f, "%5.1f%%", whole ? 100.0 * (double)part / (double)whole : 0.0);
}

static void print_human(const pk_summary *st, bool explorer)
{
	char a[16], b[16];
	summary_date_text(st->date_min, a, sizeof a);
	summary_date_text(st->date_max, b, sizeof b);
	printf("games     %ld\nplayers   %ld\nevents    %ld\ndates     %s .. %s\n", st->games, st->players,
	       st->events, a, b);
	if (st->nvariants > 1 || (st->nvariants == 1 && st->variants[0].gametype != 21)) {
		printf("\nvariants\n");
		for (int i = 0; i < st->nvariants; i++) {
			printf("  %-3d %-24s %7ld  ", st->variants[i].gametype, variant_name(st->variants[i].gametype),
			       st->variants[i].games);
			pct(stdout, st->variants[i].games, st->games);
			putchar('\n');
		}
	}
	printf("\nresults\n");
	for (int i = 0; i < 4; i++) {
		printf("  %-16s %7ld  ", summary_result_label(st, i), st->res[i]);
		pct(stdout, st->res[i], st->games);
		putchar('\n');
	}
	if (st->nopenings) {
		char title[120];
		snprintf(title, sizeof title, "openings%s%s (first three moves)", st->v ? " of " : "",
			 st->v ? st->v->name : "");
		printf("\n%-36s games   1-0    0-1    draw   %s score\n", title,
		       st->v && st->v->first == PK_WHITE ? "White's" : "Black's");
		for (int i = 0; i < st->nopenings; i++) {
			const pk_bucket *o = &st->openings[i];
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
		printf("\nplayers with most games             games   score  (+won =drawn -lost; score of the games with a result)\n");
		for (int i = 0; i < st->nplayers; i++) {
			printf("  ");
			cli_cell(stdout, st->players_top[i].name, 32, false);
			printf(" %6ld  ", st->players_top[i].games);
			long scored = st->players_top[i].won + st->players_top[i].drawn + st->players_top[i].lost;
			if (scored)
				pct(stdout, (long)(st->players_top[i].points * 2), scored * 2);
			else
				printf("     -");
			printf("  +%ld =%ld -%ld", st->players_top[i].won, st->players_top[i].drawn, st->players_top[i].lost);
			putchar('\n');
		}
	}
	if (explorer) {
		char fen[VAR_FEN_STRLEN];
		if (st->v)
			vfen_format(&st->vfrom, fen, sizeof fen);
		else
			fen_format(&st->from, fen, sizeof fen);
		printf("\nmoves played from %s\n", fen);
		printf("  %-12s %6s   1-0    0-1    draw\n", "move", "games");
		for (int i = 0; i < st->nexplore; i++) {
			const pk_bucket *e = &st->explore[i];
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

static void print_json(const pk_summary *st, bool explorer)
{
	printf("{\"games\":%ld,\"player_count\":%ld,\"events\":%ld,\"date_min\":%d,\"date_max\":%d,"
	       "\"results\":{\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld,\"*\":%ld},\"openings\":[",
	       st->games, st->players, st->events, st->date_min, st->date_max, st->res[0], st->res[1], st->res[2],
	       st->res[3]);
	for (int i = 0; i < st->nopenings; i++) {
		const pk_bucket *o = &st->openings[i];
		printf("%s{\"moves\":", i ? "," : "");
		json_string(stdout, o->text);
		printf(",\"games\":%ld,\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld}", o->games, o->bw, o->ww, o->draws);
	}
	printf("],\"variants\":[");
	for (int i = 0; i < st->nvariants; i++)
		printf("%s{\"gametype\":%d,\"name\":\"%s\",\"games\":%ld}", i ? "," : "", st->variants[i].gametype,
		       variant_name(st->variants[i].gametype), st->variants[i].games);
	printf("],\"players\":[");
	for (int i = 0; i < st->nplayers; i++) {
		printf("%s{\"name\":", i ? "," : "");
		json_string(stdout, st->players_top[i].name);
		printf(",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld,\"points\":%.1f}", st->players_top[i].games,
		       st->players_top[i].won, st->players_top[i].drawn, st->players_top[i].lost, st->players_top[i].points);
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
			const pk_bucket *e = &st->explore[i];
			printf("%s{\"move\":\"%s\",\"games\":%ld,\"1-0\":%ld,\"0-1\":%ld,\"1/2-1/2\":%ld}", i ? "," : "",
			       e->text, e->games, e->bw, e->ww, e->draws);
		}
		printf("],\"ended\":%ld}", st->explore_ended);
	}
	printf("}\n");
}


/* The SVG chart (title NULL) or the HTML page, written whole or not at all. */
static int write_page(const char *path, const pk_summary *st, const char *db)
{
	cli_text t;
	FILE *f = cli_text_begin(&t);
	if (!f)
		return -1;
	char title[600];
	snprintf(title, sizeof title, "Statistics of %s", db ? db : "");
	if ((db ? charts_html(st, title, cli_sink_file, f) : charts_svg(st, cli_sink_file, f)) < 0) {
		fclose(f);
		free(t.buf);
		cli_error("out of memory");
		return -1;
	}
	return cli_text_commit(&t, path);
}

int cmd_stats(int argc, const char **argv)
{
	filter_args fa = { 0 };
	int json = 0;
	char *svg = NULL, *html = NULL;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games:", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print one JSON object", NULL },
		{ "svg", 0, POPT_ARG_STRING, &svg, 0, "draw results and games per year into an SVG file", "FILE" },
		{ "html", 0, POPT_ARG_STRING, &html, 0, "the whole summary as an HTML page (charts, openings, players)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	pk_store *s = NULL;
	pk_summary *st = calloc(1, sizeof *st);
	if (rc || !st)
		goto out;
	rc = EXIT_USAGE;
	pk_filter f;
	if (filter_resolve(&fa, &f))
		goto out;
	s = db_open(&fa, STORE_READ);
	if (!s) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (store_summary(s, &f, fa.at_set && !fa.at.v ? &fa.at.pos : NULL, fa.at_set && fa.at.v ? &fa.at.vpos : NULL,
			  st) < 0) {
		cli_error("%s", store_error(s));
		goto out;
	}
	if (json)
		print_json(st, st->explored);
	else
		print_human(st, st->explored);
	if (svg && write_page(svg, st, NULL) < 0)
		goto out;
	if (html && write_page(html, st, fa.db ? fa.db : db_path(&fa)) < 0)
		goto out;
	rc = EXIT_OK;
out:
	store_close(s);
	free(st);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(svg);
	free(html);
	return rc;
}
