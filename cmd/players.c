/* pdnkit players: the players of the store with their games, years and spellings; the
 * probable aliases among them; an alias file applied to the store. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"

typedef struct {
	char *key, *name, *spellings;
	long games, won, drawn, lost, moves;
	double loss;
	int first, last;
	char surname[64];
	char initials[16];              /* of the given names, in order */
	int group;                      /* index of the player it is a probable alias of, or -1 */
} player;

typedef struct {
	player *v;
	size_t n, cap;
} players;

static int keep_player(void *ctx, const pk_store_player *p)
{
	players *ps = ctx;
	if (ps->n == ps->cap) {
		size_t c = ps->cap ? ps->cap * 2 : 1024;
		player *q = realloc(ps->v, c * sizeof *q);
		if (!q)
			return 1;
		ps->v = q;
		ps->cap = c;
	}
	player *x = &ps->v[ps->n++];
	memset(x, 0, sizeof *x);
	x->key = strdup(p->key);
	x->name = strdup(p->name);
	x->spellings = strdup(p->spellings);
	x->games = p->games;
	x->won = p->won;
	x->drawn = p->drawn;
	x->lost = p->lost;
	x->moves = p->moves;
	x->loss = p->average_loss;
	x->first = p->first_year;
	x->last = p->last_year;
	x->group = -1;
	return !x->key || !x->name || !x->spellings;
}

/* The surname (the words before a comma, else the last word) and the initials of the
 * other words, in lower case. */
static void split_name(player *x)
{
	const char *n = x->name, *comma = strchr(n, ',');
	char given[256];
	size_t k = 0;
	if (comma) {
		for (const char *p = n; p < comma && k < sizeof x->surname - 1; p++)
			if (isalnum((unsigned char)*p))
				x->surname[k++] = (char)tolower((unsigned char)*p);
		snprintf(given, sizeof given, "%s", comma + 1);
	} else {
		const char *last = n + strlen(n);
		while (last > n && !isalnum((unsigned char)last[-1]))
			last--;
		const char *w = last;
		while (w > n && (isalnum((unsigned char)w[-1]) || w[-1] == '\''))
			w--;
		for (const char *p = w; p < last && k < sizeof x->surname - 1; p++)
			if (isalnum((unsigned char)*p))
				x->surname[k++] = (char)tolower((unsigned char)*p);
		snprintf(given, sizeof given, "%.*s", (int)(w - n), n);
	}
	x->surname[k] = 0;
	/* initials: the first letter of each word, and each capital of a word of two or
	 * three capitals ("MF") */
	size_t m = 0;
	for (const char *p = given; *p && m < sizeof x->initials - 1;) {
		while (*p && !isalpha((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *w = p;
		while (isalpha((unsigned char)*p))
			p++;
		size_t len = (size_t)(p - w);
		bool caps = len >= 2 && len <= 3;
		for (size_t i = 0; caps && i < len; i++)
			caps = isupper((unsigned char)w[i]);
		if (caps)
			for (size_t i = 0; i < len && m < sizeof x->initials - 1; i++)
				x->initials[m++] = (char)tolower((unsigned char)w[i]);
		else
			x->initials[m++] = (char)tolower((unsigned char)*w);
	}
	x->initials[m] = 0;
}

/* Probably one player: the same surname (three letters or more), initials one the
 * beginning of the other's (both given), and years that overlap or come within five
 * years of each other (both known). */
static bool probable(const player *a, const player *b)
{
	if (strlen(a->surname) < 3 || strcmp(a->surname, b->surname) || !a->initials[0] || !b->initials[0])
		return false;
	size_t la = strlen(a->initials), lb = strlen(b->initials);
	if (strncmp(a->initials, b->initials, la < lb ? la : lb))
		return false;
	if (!a->first || !b->first)
		return false;
	return a->first <= b->last + 5 && b->first <= a->last + 5;
}

static void years(char *buf, size_t size, const player *x)
{
	if (!x->first)
		snprintf(buf, size, "years unknown");
	else if (x->first == x->last)
		snprintf(buf, size, "%d", x->first);
	else
		snprintf(buf, size, "%d-%d", x->first, x->last);
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, cap = 4096;
	char *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			char *q = realloc(b, cap * 2);
			if (!q) {
				free(b);
				b = NULL;
				break;
			}
			b = q;
			cap *= 2;
		}
	}
	if (b) {
		b[n] = 0;
		if (strlen(b) != n) {   /* a NUL inside: not a text file */
			free(b);
			b = NULL;
			errno = EINVAL;
		}
	}
	fclose(f);
	return b;
}

/* --alias SPELLING=PLAYER: an exit status. */
static int add_alias(filter_args *fa, char *alias, bool json)
{
	char *eq = strchr(alias, '=');
	if (!eq || eq == alias || !eq[1]) {
		cli_error("--alias wants SPELLING=PLAYER, e.g. --alias 'M. Tinsley=Tinsley, Marion'");
		return EXIT_USAGE;
	}
	*eq = 0;
	pk_store *s = db_open(fa, STORE_WRITE);
	if (!s)
		return EXIT_RUNTIME;
	long rekeyed;
	int rc = EXIT_OK;
	if (store_add_alias(s, alias, eq + 1, &rekeyed) < 0) {
		cli_error("%s", store_error(s));
		rc = EXIT_RUNTIME;
	} else if (json) {
		printf("{\"spelling\":");
		json_string(stdout, alias);
		printf(",\"player\":");
		json_string(stdout, eq + 1);
		printf(",\"games_changed\":%ld}\n", rekeyed);
	} else {
		printf("'%s' is now a spelling of '%s': the players of %ld games changed\n", alias, eq + 1, rekeyed);
	}
	store_close(s);
	return rc;
}

int cmd_players(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *apply = NULL, *check = NULL, *alias = NULL;
	int suggest = 0, json = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games:", NULL },
		{ "suggest", 0, POPT_ARG_NONE, &suggest, 0, "list the probable aliases (same surname, initials that fit, years within five of each other) as an alias file to review", NULL },
		{ "apply", 0, POPT_ARG_STRING, &apply, 0, "apply this alias file (with the built-in aliases) to the store: every game's player keys made again", "FILE" },
		{ "alias", 0, POPT_ARG_STRING, &alias, 0, "make SPELLING one more spelling of PLAYER (its games become the player's) until the next --apply", "SPELLING=PLAYER" },
		{ "check", 0, POPT_ARG_STRING, &check, 0, "only read this alias file and say what is wrong with it", "FILE" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "one JSON object per player", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	pk_store *s = NULL;
	players ps = { 0 };
	char *text = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int nargs;
	cli_args(ctx, &nargs);
	if (nargs) {
		cli_error("unexpected argument '%s' (see --help)", cli_args(ctx, &nargs)[0]);
		goto out;
	}
	if ((apply != NULL) + (check != NULL) + (suggest != 0) + (alias != NULL) > 1) {
		cli_error("--apply, --alias, --check and --suggest go one at a time");
		goto out;
	}
	if (alias) {
		rc = add_alias(&fa, alias, json);
		goto out;
	}
	const char *file = apply ? apply : check;
	if (file) {
		if (!(text = slurp_file(file))) {
			cli_error("cannot read '%s': %s", file, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
		char err[700];
		long spellings;
		if (store_check_aliases(text, err, sizeof err, &spellings) < 0) {
			cli_error("%s: %s", file, err);
			rc = EXIT_FINDINGS;
			goto out;
		}
		if (check) {
			printf("%s: %ld spellings (with the built-in aliases), no problem found\n", file, spellings);
			rc = EXIT_OK;
			goto out;
		}
		s = db_open(&fa, STORE_WRITE);
		if (!s) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		long rekeyed;
		if (store_set_aliases(s, text, &rekeyed, &spellings) < 0) {
			cli_error("%s", store_error(s));
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (json)
			printf("{\"spellings\":%ld,\"games_changed\":%ld}\n", spellings, rekeyed);
		else
			printf("%s applied: %ld spellings known, the players of %ld games changed\n", file, spellings, rekeyed);
		rc = EXIT_OK;
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
	if (store_players(s, &f, suggest ? 0 : f.limit, keep_player, &ps) < 0) {
		cli_error("%s", store_error(s));
		rc = EXIT_RUNTIME;
		goto out;
	}
	char y[32];
	if (!suggest) {
		if (!json)
			printf("%-32s %7s  %-16s %5s  %-11s %s\n", "player", "games", "won-drawn-lost", "loss", "years", "spellings");
		for (size_t i = 0; i < ps.n; i++) {
			player *x = &ps.v[i];
			if (json) {
				printf("{\"player\":");
				json_string(stdout, x->name);
				printf(",\"key\":");
				json_string(stdout, x->key);
				printf(",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld,\"annotated_moves\":%ld,\"average_loss\":",
				       x->games, x->won, x->drawn, x->lost, x->moves);
				if (x->moves)
					printf("%.1f", x->loss);
				else
					printf("null");
				printf(",\"first_year\":%d,\"last_year\":%d,\"spellings\":[", x->first, x->last);
				printf("\"");
				for (const char *p = x->spellings; *p; p++) {
					if (*p == 0x1F)
						printf("\",\"");
					else if (*p == '"' || *p == '\\')
						printf("\\%c", *p);
					else if ((unsigned char)*p < 0x20)
						printf("\\u%04x", *p);
					else
						putchar(*p);
				}
				printf("\"]}\n");
			} else {
				years(y, sizeof y, x);
				cli_cell(stdout, x->name, 32, false);
				char wdl[48], loss[16] = "-";
				snprintf(wdl, sizeof wdl, "%ld-%ld-%ld", x->won, x->drawn, x->lost);
				if (x->moves)
					snprintf(loss, sizeof loss, "%.1f", x->loss);
				printf(" %7ld  %-16s %5s  %-11s ", x->games, wdl, loss, y);
				for (const char *p = x->spellings; *p; p++)
					if (*p == 0x1F)
						fputs("; ", stdout);
					else
						putchar(*p);
				putchar('\n');
			}
		}
		rc = EXIT_OK;
		goto out;
	}
	/* Probable aliases: each player (the most games first) is put under the first
	 * earlier player it probably is. */
	for (size_t i = 0; i < ps.n; i++)
		split_name(&ps.v[i]);
	long found = 0;
	for (size_t i = 0; i < ps.n; i++)
		for (size_t j = 0; j < i; j++)
			if (ps.v[j].group < 0 && probable(&ps.v[j], &ps.v[i])) {
				ps.v[i].group = (int)j;
				found++;
				break;
			}
	if (!json)
		printf("# %ld probable alias%s among %zu players (same surname, initials that fit, years within five of each other).\n"
		       "# Review, keep what is right, then: pdnkit players --apply FILE\n",
		       found, found == 1 ? "" : "es", ps.n);
	for (size_t j = 0; j < ps.n; j++) {
		bool any = false;
		for (size_t i = j + 1; i < ps.n && !any; i++)
			any = ps.v[i].group == (int)j;
		if (!any)
			continue;
		player *x = &ps.v[j];
		years(y, sizeof y, x);
		if (json) {
			printf("{\"player\":");
			json_string(stdout, x->name);
			printf(",\"games\":%ld,\"aliases\":[", x->games);
		} else {
			printf("\n%s\n\t# %ld games, %s\n", x->name, x->games, y);
		}
		int k = 0;
		for (size_t i = j + 1; i < ps.n; i++) {
			if (ps.v[i].group != (int)j)
				continue;
			years(y, sizeof y, &ps.v[i]);
			if (json) {
				printf("%s{\"name\":", k++ ? "," : "");
				json_string(stdout, ps.v[i].name);
				printf(",\"games\":%ld}", ps.v[i].games);
			} else {
				printf("\t%s\n\t# %ld games, %s\n", ps.v[i].name, ps.v[i].games, y);
			}
		}
		if (json)
			printf("]}\n");
	}
	rc = EXIT_OK;
out:
	for (size_t i = 0; i < ps.n; i++) {
		free(ps.v[i].key);
		free(ps.v[i].name);
		free(ps.v[i].spellings);
	}
	free(ps.v);
	free(text);
	store_close(s);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(apply);
	free(check);
	free(alias);
	return rc;
}
