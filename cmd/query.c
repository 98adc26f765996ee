/* pdnkit query: find stored games; as a table, PDN, JSON Lines or a count. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "pdn/pdn_write.h"

typedef struct {
	pk_store *s;
	FILE *out;
	int width;          /* terminal width, 0 when not a terminal */
	bool position;
	long rows;
	pk_game g;
	pk_replay rp;
	int err;
} qctx;

static int table_row(void *vctx, const pk_row *r)
{
	qctx *c = vctx;
	if (c->rows++ == 0) {
		fprintf(c->out, "%-7s %-10s %-22s %-22s %-7s %5s  %s%s\n", "id", "date", "black", "white", "result",
			"plies", c->position ? "ply  " : "", "event");
	}
	fprintf(c->out, "%-7lld ", (long long)r->id);
	cli_cell(c->out, r->date, 10, false);
	fputc(' ', c->out);
	cli_cell(c->out, r->black, 22, false);
	fputc(' ', c->out);
	cli_cell(c->out, r->white, 22, false);
	fprintf(c->out, " %-7s %5d  ", r->result, r->plies);
	if (c->position)
		fprintf(c->out, "%-4d ", r->ply);
	int used = 7 + 1 + 10 + 1 + 22 + 1 + 22 + 1 + 7 + 1 + 5 + 2 + (c->position ? 5 : 0);
	int rest = c->width > 0 ? c->width - used : 0;
	cli_cell(c->out, r->event, rest > 4 ? rest : (c->width > 0 ? 4 : 0), true);
	fputc('\n', c->out);
	return 0;
}

static void json_field(FILE *f, const char *key, const char *v)
{
	fprintf(f, ",\"%s\":", key);
	if (v)
		json_string(f, v);
	else
		fputs("null", f);
}

static int json_row(void *vctx, const pk_row *r)
{
	qctx *c = vctx;
	c->rows++;
	fprintf(c->out, "{\"id\":%lld", (long long)r->id);
	json_field(c->out, "event", r->event);
	json_field(c->out, "site", r->site);
	json_field(c->out, "date", r->date);
	json_field(c->out, "round", r->round);
	json_field(c->out, "black", r->black);
	json_field(c->out, "white", r->white);
	json_field(c->out, "result", r->result);
	static const char *const status[] = { "valid", "warnings", "errors", "not-replayed" };
	fprintf(c->out, ",\"plies\":%d,\"status\":\"%s\",\"gametype\":%d", r->plies, status[r->status & 3], r->gametype);
	if (c->position)
		fprintf(c->out, ",\"ply\":%d", r->ply);
	fputs("}\n", c->out);
	return 0;
}

static int pdn_row(void *vctx, const pk_row *r)
{
	qctx *c = vctx;
	c->rows++;
	if (store_load_game(c->s, r, &c->g, &c->rp) < 0) {
		cli_error("%s", store_error(c->s));
		c->err = 1;
		return 1;
	}
	pk_write_opts o = { .full_jumps = false, .width = 80, .verbatim_tags = true };
	return pdn_write_game(&c->g, &c->rp, &o, cli_sink_file, c->out) < 0;
}

/* One game of a group of duplicates, as a line of the table. */
static int dup_game_row(void *vctx, const pk_row *r)
{
	qctx *c = vctx;
	fprintf(c->out, "  %-7lld ", (long long)r->id);
	cli_cell(c->out, r->date, 10, false);
	fputc(' ', c->out);
	cli_cell(c->out, r->black, 22, false);
	fputc(' ', c->out);
	cli_cell(c->out, r->white, 22, false);
	fprintf(c->out, " %-7s %5d  ", r->result ? r->result : "*", r->plies);
	cli_cell(c->out, r->event, 40, true);
	fputc('\n', c->out);
	return 0;
}

static void dup_games(qctx *c, const int64_t *ids, int n)
{
	for (int i = 0; i < n; i++) {
		pk_filter one;
		filter_init(&one);
		one.id = ids[i];
		one.copies = true;
		if (store_query(c->s, &one, dup_game_row, c) < 0)
			c->err = 1;
	}
}

static int dup_row(void *vctx, const char *kind, const int64_t *ids, int n, int plies)
{
	qctx *c = vctx;
	bool one = !strcmp(kind, "one-move");   /* ids[2]: the ply where they differ */
	if (c->width < 0) {   /* JSON */
		c->rows++;
		fprintf(c->out, "{\"kind\":\"%s\",\"plies\":%d,\"games\":[", kind, plies);
		for (int i = 0; i < (one ? 2 : n); i++)
			fprintf(c->out, "%s%lld", i ? "," : "", (long long)ids[i]);
		if (one)
			fprintf(c->out, "],\"ply\":%lld}\n", (long long)ids[2]);
		else
			fputs("]}\n", c->out);
		return 0;
	}
	if (c->rows++)
		fputc('\n', c->out);
	/* a group: what the games share, then each game as query's table shows it */
	if (one)
		fprintf(c->out, "one move apart (%d plies; they differ at ply %lld):\n", plies, (long long)ids[2]);
	else if (!strcmp(kind, "same-moves"))
		fprintf(c->out, "the same moves (%d plies), %d games:\n", plies, n);
	else
		fprintf(c->out, "the first (%d plies) is the beginning of the second:\n", plies);
	dup_games(c, ids, one ? 2 : n);
	return 0;
}

/* Players whose name is near a name searched for that found nothing: the "did you mean"
 * of a misspelt player. */
typedef struct {
	const char *want;            /* lower-cased */
	char names[5][120];
	long games[5];
	int dist[5], n;
} near_ctx;

static int near_player(void *vctx, const pk_store_player *p)
{
	near_ctx *c = vctx;
	char low[120];
	size_t k = 0;
	for (; p->name[k] && k + 1 < sizeof low; k++)
		low[k] = (char)(p->name[k] >= 'A' && p->name[k] <= 'Z' ? p->name[k] - 'A' + 'a' : p->name[k]);
	low[k] = 0;
	int d = strstr(low, c->want) || strstr(p->key, c->want) ? 0 : cli_distance(c->want, p->key);
	/* or near one word of the key ("tinslee" and "m tinsley") */
	for (const char *w = p->key; d > 0 && *w;) {
		while (*w == ' ')
			w++;
		size_t n = strcspn(w, " ");
		char word[80];
		if (n && n < sizeof word) {
			memcpy(word, w, n);
			word[n] = 0;
			int dw = cli_distance(c->want, word);
			if (dw < d)
				d = dw;
		}
		w += n;
	}
	if (d > 2)
		return 0;
	/* the nearest, then the most games, kept */
	int at = c->n < 5 ? c->n++ : 4;
	if (at == 4 && c->n == 5 && (d > c->dist[4] || (d == c->dist[4] && p->games <= c->games[4])))
		return 0;
	snprintf(c->names[at], sizeof c->names[at], "%s", p->name);
	c->games[at] = p->games;
	c->dist[at] = d;
	for (int i = at; i > 0 && (c->dist[i] < c->dist[i - 1] || (c->dist[i] == c->dist[i - 1] && c->games[i] > c->games[i - 1])); i--) {
		char t[120];
		memcpy(t, c->names[i], sizeof t);
		memcpy(c->names[i], c->names[i - 1], sizeof t);
		memcpy(c->names[i - 1], t, sizeof t);
		long g = c->games[i];
		c->games[i] = c->games[i - 1];
		c->games[i - 1] = g;
		int dd = c->dist[i];
		c->dist[i] = c->dist[i - 1];
		c->dist[i - 1] = dd;
	}
	return 0;
}

static void suggest_players(pk_store *s, const char *name)
{
	near_ctx c = { 0 };
	char want[120];
	size_t k = 0;
	for (; name[k] && k + 1 < sizeof want; k++)
		want[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
	want[k] = 0;
	c.want = want;
	pk_filter all;
	filter_init(&all);
	if (store_players(s, &all, 0, near_player, &c) < 0 || c.n == 0) {
		char safe[200];
		fprintf(stderr, "query: no player's name is near '%s' (pdnkit players lists them)\n",
			cli_safe_text(name, safe, sizeof safe));
		return;
	}
	char safe[200];
	fprintf(stderr, "query: no game of '%s'; did you mean", cli_safe_text(name, safe, sizeof safe));
	for (int i = 0; i < c.n; i++)
		fprintf(stderr, "%s %s (%ld game%s)", i ? "," : "", cli_safe_text(c.names[i], safe, sizeof safe), c.games[i],
			c.games[i] == 1 ? "" : "s");
	fprintf(stderr, "?\n");
}

int cmd_query(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *format = NULL;
	int json_flag = 0;
	int duplicates = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games:", NULL },
		{ "format", 0, POPT_ARG_STRING, &format, 0, "table (default), pdn, json or count", "FORMAT" },
		{ "json", 'j', POPT_ARG_NONE, &json_flag, 0, "the same as --format json", NULL },
		{ "duplicates", 0, POPT_ARG_NONE, &duplicates, 0,
		  "list games with the same moves under different headers, and games that begin longer ones", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	pk_store *s = NULL;
	qctx c = { 0 };
	game_init(&c.g);
	replay_init(&c.rp);
	if (rc)
		goto out;
	int nargs;
	cli_args(ctx, &nargs);
	rc = EXIT_USAGE;
	if (nargs) {
		cli_error("unexpected argument '%s' (filters are options, see --help)", cli_args(ctx, &nargs)[0]);
		goto out;
	}
	const char *fmt = json_flag ? "json" : format ? format : "table";
	if (strcmp(fmt, "table") && strcmp(fmt, "pdn") && strcmp(fmt, "json") && strcmp(fmt, "count")) {
		cli_error("--format must be table, pdn, json or count, not '%s'", fmt);
		goto out;
	}
	pk_filter f;
	if (filter_resolve(&fa, &f))
		goto out;
	s = db_open(&fa, STORE_READ);
	if (!s) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	c.s = s;
	c.out = stdout;
	long unindexed = 0;
	if (f.position_set && store_unindexed_games(s, &unindexed) == 0 && unindexed > 0)
		cli_warning("%ld stored game%s %s no position index (imported with --no-positions) and cannot be found by "
			    "position", unindexed, unindexed == 1 ? "" : "s", unindexed == 1 ? "has" : "have");
	c.position = f.position_set;
	if (isatty(STDOUT_FILENO)) {
		struct winsize ws;
		c.width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 40 ? ws.ws_col : 100;
	}
	int q;
	if (duplicates) {
		if (!strcmp(fmt, "json"))
			c.width = -1;
		q = store_duplicates(s, f.min_plies >= 0 ? f.min_plies : 10, dup_row, &c);
	} else if (!strcmp(fmt, "count")) {
		long n;
		q = store_count(s, &f, &n);
		if (q == 0)
			printf("%ld\n", f.limit > 0 && n > f.limit ? f.limit : n);
	} else {
		q = store_query(s, &f, !strcmp(fmt, "json") ? json_row : !strcmp(fmt, "pdn") ? pdn_row : table_row, &c);
	}
	if (q < 0) {
		cli_error("%s", store_error(s));
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* a name that found no game: the players whose names are near it */
	const char *who = f.player ? f.player : f.black ? f.black : f.white;
	if (!duplicates && strcmp(fmt, "count") && c.rows == 0 && who)
		suggest_players(s, who);
	rc = c.err ? EXIT_RUNTIME : EXIT_OK;
out:
	store_close(s);
	game_free(&c.g);
	replay_free(&c.rp);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(format);
	return rc;
}
