/* pdnkit validate: replay every game of PDN files and report what is wrong, where,
 * and what was probably meant. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "egdb_opts.h"
#include "analysis/verdict.h"
#include "commands.h"
#include "pdn/pdn.h"
#include "pdn/replay.h"
#include "store/games.h"

/* The warnings and notes of one kind: the first games' shown, the rest counted (unless
 * --all), then summed up by kind at the end. */
#define KINDS_MAX 64
#define SHOWN_GAMES 3
typedef struct {
	const char *kind;
	int severity;
	long findings, games, shown_games, last_game;
} kind_count;

typedef struct {
	long games, valid, with_errors, with_warnings, skipped, errors;
	kind_count kinds[KINDS_MAX];
	int nkinds;
	bool all;                      /* every finding shown (--all) */
	long judged, contradicted;     /* results checked by the endgame databases */
	long variants;                 /* games of other variants, replayed under their rules */
	int unreadable;
} totals;

static const char *game_label(const pk_game *g, char *buf, size_t size)
{
	const char *event = game_tag(g, "Event");
	char safe[256];
	if (event && *event && strcmp(event, "?") != 0)
		snprintf(buf, size, " (%s)", cli_safe_text(event, safe, sizeof safe));
	else
		buf[0] = 0;
	return buf;
}

/* The count of a finding's kind; false when it is not to be shown (a warning or note of
 * a kind already shown in SHOWN_GAMES games, without --all). */
static bool count_kind(totals *t, const pk_game *g, const pk_finding *f)
{
	if (f->severity == SEV_ERROR)
		return true;
	kind_count *k = NULL;
	for (int i = 0; i < t->nkinds && !k; i++)
		if (!strcmp(t->kinds[i].kind, f->kind))
			k = &t->kinds[i];
	if (!k && t->nkinds < KINDS_MAX) {
		k = &t->kinds[t->nkinds++];
		memset(k, 0, sizeof *k);
		k->kind = f->kind;
		k->severity = f->severity;
		k->last_game = -1;
	}
	if (!k)
		return true;
	long key = (long)g->index ^ (long)g->offset << 20;
	bool new_game = k->last_game != key;
	k->findings += 1 + f->repeats;
	if (new_game) {
		k->games++;
		k->last_game = key;
	}
	if (t->all) {
		k->shown_games += new_game;
		return true;
	}
	if (new_game && k->shown_games < SHOWN_GAMES) {
		k->shown_games++;
		return true;
	}
	return !new_game && k->shown_games > 0 && k->games <= SHOWN_GAMES;
}

static void print_human(const char *file, const pk_game *g, const pk_replay *rp, bool quiet, totals *t)
{
	char label[160];
	game_label(g, label, sizeof label);
	for (int i = 0; i < g->findings.n; i++) {
		const pk_finding *f = &g->findings.v[i];
		if (quiet && f->severity != SEV_ERROR)
			continue;
		if (!count_kind(t, g, f))
			continue;
		printf("%s:%u:%u: %s: game %d%s", file, f->line ? f->line : g->line, f->line ? f->col : 1,
		       severity_name(f->severity), g->index, label);
		if (f->ply > 0) {
			/* another variant's replay keeps no positions: the side from the first mover */
			int stm = rp->variant_replayed ? (rp->start.stm ^ ((f->ply - 1) & 1))
						       : replay_pos_before(rp, f->ply <= rp->nply + 1 ? f->ply : rp->nply + 1)->stm;
			printf(", move %d (%s)", replay_move_number(rp, f->ply), stm == PK_BLACK ? "Black" : "White");
		}
		printf(": %s", f->message);
		if (f->repeats)
			printf(" [and %d more like this in this game]", f->repeats);
		putchar('\n');
	}
}

static void json_tag(const pk_game *g, const char *key, const char *tag)
{
	const char *v = game_tag(g, tag);
	printf(",\"%s\":", key);
	if (v)
		json_string(stdout, v);
	else
		printf("null");
}

static void print_json(const char *file, const pk_game *g, const pk_replay *rp)
{
	printf("{\"file\":");
	json_string(stdout, file);
	printf(",\"game\":%d,\"line\":%u,\"offset\":%llu", g->index, g->line, (unsigned long long)g->offset);
	json_tag(g, "event", "Event");
	json_tag(g, "date", "Date");
	json_tag(g, "black", "Black");
	json_tag(g, "white", "White");
	printf(",\"result\":\"%s\",\"variant\":%d,\"replayed\":%s,\"plies\":%d,\"ok\":%s,\"findings\":[",
	       result_string(rp->result), rp->variant, rp->supported || rp->variant_replayed ? "true" : "false",
	       rp->variant_replayed ? rp->variant_plies : rp->nply,
	       (rp->supported || rp->variant_replayed) && g->findings.errors == 0 ? "true" : "false");
	for (int i = 0; i < g->findings.n; i++) {
		const pk_finding *f = &g->findings.v[i];
		printf("%s{\"severity\":\"%s\",\"kind\":\"%s\",\"line\":%u,\"col\":%u,\"ply\":%d,\"move\":",
		       i ? "," : "", severity_name(f->severity), f->kind, f->line, f->col, f->ply);
		if (f->move[0])
			json_string(stdout, f->move);
		else
			printf("null");
		printf(",\"message\":");
		json_string(stdout, f->message);
		printf(",\"repeats\":%d,\"suggest\":[", f->repeats);
		for (int k = 0; k < f->nsuggest; k++) {
			printf("%s", k ? "," : "");
			json_string(stdout, f->suggest[k]);
		}
		printf("],\"reasons\":[");
		for (int k = 0; k < f->nsuggest; k++) {
			printf("%s", k ? "," : "");
			json_string(stdout, f->why[k]);
		}
		printf("]}");
	}
	printf("]}\n");
}

/* Count and print one replayed game. Returns 0, or EXIT_RUNTIME when the endgame
 * databases failed. */
static int validate_game(const char *file, bool json, bool quiet, totals *t, pk_game *g, pk_replay *rp, pk_egdb *db,
			 bool vcheck)
{
	if (vcheck && rp->variant_replayed) {
		int v = verdict_variant_result(g, rp);
		t->judged += v == VERDICT_AGREES || v == VERDICT_CONTRADICTS;
		t->contradicted += v == VERDICT_CONTRADICTS;
	} else if (db) {
		int v = verdict_result(db, g, rp);
		t->judged += v == VERDICT_AGREES || v == VERDICT_CONTRADICTS;
		t->contradicted += v == VERDICT_CONTRADICTS;
		if (v == VERDICT_FAILED) {
			cli_error("%s", egdb_error(db));
			return EXIT_RUNTIME;
		}
	}
	t->games++;
	if (rp->variant_replayed)
		t->variants++;
	if (!rp->supported && !rp->variant_replayed)
		t->skipped++;
	else if (g->findings.errors)
		t->with_errors++;
	else
		t->valid++;
	if (g->findings.warnings)
		t->with_warnings++;
	t->errors += g->findings.errors;
	if (json)
		print_json(file, g, rp);
	else
		print_human(file, g, rp, quiet, t);
	return 0;
}

int cmd_validate(int argc, const char **argv)
{
	int json = 0, quiet = 0, all = 0;
	char *max_arg = NULL, *egdb_arg = NULL;
	pk_egdb *db = NULL;
	struct poptOption opts[] = {
		{ "egdb", 0, POPT_ARG_STRING, &egdb_arg, 0, "check results of games that end with few pieces against the endgame databases in DIR ('default': $PDNKIT_EGDB, else ~/.local/share/pdnkit/egdb; 'none', the default: no check)", "DIR|default|none" },
		{ "egdb-dir", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &egdb_arg, 0, "the same as --egdb DIR (an older spelling)", "DIR" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "one JSON object per game (JSON Lines)", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "print errors only, no warnings or notes", NULL },
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "every warning and note (default: the first three games' of each kind, then a count by kind)", NULL },
		{ "max-errors", 0, POPT_ARG_STRING, &max_arg, 0, "stop after N errors", "N" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	long max_errors = 0;
	int nfiles = 0;
	const char **files = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (max_arg && cli_int(max_arg, 1, 1000000000, "--max-errors", &max_errors))
		goto out;
	files = cli_args(ctx, &nfiles);
	int erc;
	if (egdb_arg && (erc = egdb_check_option(egdb_arg, &db)) != 0) {
		rc = erc;
		goto out;
	}
	bool vcheck = egdb_arg && strcmp(egdb_arg, "none") != 0;   /* the variants' databases too */
	if (nfiles == 0) {
		cli_error("no FILE given (use '-' for standard input)");
		fprintf(stderr, "Try 'pdnkit validate --help' for more information.\n");
		goto out;
	}

	totals t = { 0 };
	t.all = all;
	double t0 = cli_now();
	bool unreadable = false;
	pk_source src = { .files = files, .nfiles = nfiles };
	pk_games *it = cli_games_open(&src);
	if (!it) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	pk_game *g;
	pk_replay *rp;
	while (cli_next_game(it, &g, &rp, &unreadable) == GAMES_GAME) {
		if (validate_game(games_file(it), json, quiet, &t, g, rp, db, vcheck)) {
			unreadable = true;
			break;
		}
		cli_games_progress("validate", it, t.games);
		if (max_errors > 0 && t.errors >= max_errors) {
			cli_warning("stopped after %ld errors", t.errors);
			break;
		}
	}
	games_close(it);
	double secs = cli_now() - t0;
	cli_progress_done();
	/* the kinds whose findings were not all shown: how many, in how many games */
	bool folded = false;
	for (int i = 0; i < t.nkinds && !json; i++)
		folded |= t.kinds[i].games > t.kinds[i].shown_games;
	if (folded) {
		printf("warnings and notes by kind (the first %d games' of each shown above; --all shows every one):\n",
		       SHOWN_GAMES);
		for (int i = 0; i < t.nkinds; i++)
			printf("  %-7s %-28s %6ld in %ld game%s\n", severity_name(t.kinds[i].severity), t.kinds[i].kind,
			       t.kinds[i].findings, t.kinds[i].games, t.kinds[i].games == 1 ? "" : "s");
	}
	fflush(stdout);   /* findings before the summary, also through a pipe */
	fprintf(stderr, "pdnkit validate: %ld game%s read: %ld valid, %ld with errors, %ld with warnings",
		t.games, t.games == 1 ? "" : "s", t.valid, t.with_errors, t.with_warnings);
	if (t.variants)
		fprintf(stderr, ", %ld of other variants replayed under their rules", t.variants);
	if (t.skipped)
		fprintf(stderr, ", %ld not replayed (variants pdnkit does not know)", t.skipped);
	fprintf(stderr, "; %.3f s, %.0f games/s\n", secs, secs > 0 ? (double)t.games / secs : 0.0);
	if (db || (vcheck && t.variants)) {
		char held[80] = "the variants' own";
		if (db && egdb_max_pieces(db) > egdb_pieces(db))
			snprintf(held, sizeof held, "up to %d pieces, some slices of up to %d", egdb_pieces(db), egdb_max_pieces(db));
		else if (db)
			snprintf(held, sizeof held, "up to %d pieces", egdb_pieces(db));
		fprintf(stderr, "pdnkit validate: %ld result%s checked against the endgame databases (%s): %ld contradicted\n",
			t.judged, t.judged == 1 ? "" : "s", held, t.contradicted);
	}
	rc = unreadable ? EXIT_RUNTIME : t.with_errors ? EXIT_FINDINGS : EXIT_OK;
out:
	egdb_free(db);
	free(egdb_arg);
	poptFreeContext(ctx);
	free(max_arg);
	return rc;
}
