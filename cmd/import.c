/* pdnkit import: PDN files into the game store, with the position index. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "egdb_opts.h"
#include "analysis/verdict.h"
#include "commands.h"
#include "dbcli.h"
#include "store/games.h"

/* A signal that stops the import (SIGINT or SIGTERM, cli_interrupted): the reader
 * stops within a buffer of input, what was read is committed, and the exit status is
 * 128 + signal. */

typedef struct {
	long files, games, stored, duplicates, copies, invalid, skipped, variants;
	long judged, contradicted;
} import_totals;

#define PENDING_MAX 1000

typedef struct {
	pk_game g;
	pk_replay rp;
} pending;

static char pend_name[4200];

static void free_pending(pending *p, int *n)
{
	for (int i = 0; i < *n; i++) {
		game_free(&p[i].g);
		replay_free(&p[i].rp);
	}
	*n = 0;
}

/* Whether a piece of text read is a game: it has a well-formed tag pair of PDN's at the
 * start of a line (one of the names of the seven-tag roster and the usual others:
 * "[--fen FEN]" or "`[FEN ...]`" in a manual is none), or moves that replay without an
 * error (or, in a variant that cannot be replayed, begin as moves do). */
static bool is_game(const pk_game *g, const pk_replay *rp)
{
	static const char *const names[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType",
					     "FEN", "SetUp", "Opening", "Annotator", "PlyCount", "TimeControl", "Time",
					     "Termination", "Mode", "WhiteType", "BlackType", "Variant", "Remarks",
					     "Source", "Publication", "Ballot", "EventDate", "Board", "WhiteElo", "BlackElo" };
	for (int i = 0; i < g->ntags; i++) {
		bool known = false, malformed = false;
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			known |= !strcasecmp(game_str(g, g->tags[i].name), names[k]);
		for (int f = 0; f < g->findings.n; f++)
			malformed |= !strcmp(g->findings.v[f].kind, "bad-tag") && g->findings.v[f].line == g->tags[i].line;
		/* a tag pair begins its line (or follows the tags that begin it): "`[FEN ...]`"
		 * quoted in a sentence is none */
		bool starts = g->tags[i].col == 1;
		for (int j = 0; j < i; j++)
			starts |= g->tags[j].line == g->tags[i].line && g->tags[j].col == 1;
		if (known && !malformed && starts)
			return true;
	}
	if (g->findings.errors > 0)
		return false;
	if (rp->supported || rp->variant_replayed)
		return (rp->supported ? rp->nply : rp->variant_plies) > 0;
	/* a variant pdnkit cannot replay: move text that begins as PDN's does, a move
	 * number and a move of square numbers or names ("1. a3b4") */
	int k = 0;
	while (k < g->nel && g->els[k].kind == EL_COMMENT)
		k++;
	if (k + 1 >= g->nel || g->els[k].kind != EL_NUMBER || g->els[k + 1].kind != EL_MOVE)
		return false;
	const char *m = game_str(g, g->els[k + 1].off);
	size_t n = strlen(m), digits = 0;
	for (size_t i = 0; i < n; i++)
		if (m[i] >= '0' && m[i] <= '9')
			digits++;
		else if (!strchr("-x:abcdefghijkl!?", m[i]))
			return false;
	return digits >= 2 && n <= 24;
}

static int store_one(pk_store *s, pk_egdb *edb, bool vcheck, pk_game *g, pk_replay *rp, import_totals *t)
{
	if (vcheck && rp->variant_replayed) {
		int v = verdict_variant_result(g, rp);
		t->judged += v == VERDICT_AGREES || v == VERDICT_CONTRADICTS;
		t->contradicted += v == VERDICT_CONTRADICTS;
	} else if (edb) {
		int v = verdict_result(edb, g, rp);
		t->judged += v == VERDICT_AGREES || v == VERDICT_CONTRADICTS;
		t->contradicted += v == VERDICT_CONTRADICTS;
		if (v == VERDICT_FAILED) {
			cli_error("%s", egdb_error(edb));
			return -1;
		}
	}
	int outcome;
	if (store_add_game(s, g, rp, &outcome) < 0) {
		cli_error("%s", store_error(s));
		return -1;
	}
	t->games++;
	t->copies += outcome == STORE_COPY_MARKED || outcome == STORE_COPY_SKIPPED || outcome == STORE_COPY_KEPT;
	if (outcome == STORE_DUPLICATE)
		t->duplicates++;
	else if (outcome != STORE_COPY_SKIPPED) {
		t->stored++;
		bool replayed = rp->supported || rp->variant_replayed;
		t->invalid += replayed && g->findings.errors > 0;
		t->skipped += !replayed;
		t->variants += rp->variant_replayed;
	}
	return 0;
}

/* The offset of a NUL byte in the first 64 bytes of a file (-1: none, or not read
 * here; a zstd file is judged after it is decompressed, by its games). */
static long binary_at(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	unsigned char b[64];
	size_t n = fread(b, 1, sizeof b, f);
	fclose(f);
	if (n >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (b[i] == 0)
			return (long)i;
	return -1;
}

int cmd_import(int argc, const char **argv)
{
	filter_args fa = { 0 };
	int no_positions = 0, json = 0, binary = 0;
	char *egdb_arg = NULL, *copies_arg = NULL;
	const char **kept = NULL;
	pk_egdb *edb = NULL;
	struct poptOption opts[] = {
		{ "egdb", 0, POPT_ARG_STRING, &egdb_arg, 0, "check the results of games that end with few pieces against the endgame databases in DIR ('default': $PDNKIT_EGDB, else ~/.local/share/pdnkit/egdb; 'none', the default: no check); a contradiction is stored as a finding", "DIR|default|none" },
		{ "egdb-dir", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &egdb_arg, 0, "the same as --egdb DIR (an older spelling)", "DIR" },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, db_option(&fa), 0, NULL, NULL },
		{ "duplicates", 0, POPT_ARG_STRING, &copies_arg, 0, "a game stored already from another source (the same moves and result, "
		  "players and year that fit): mark it as a copy, left out of queries, exports and counts unless asked (default), "
		  "skip it, or keep it as a game of its own", "mark|skip|keep" },
		{ "no-positions", 0, POPT_ARG_NONE, &no_positions, 0, "do not index positions (faster, smaller; no --position search)", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the summary as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	int nfiles = 0;
	const char **files = NULL;
	pk_store *s = NULL;
	if (rc)
		goto out;
	files = cli_args(ctx, &nfiles);
	if (nfiles == 0) {
		cli_error("no FILE given (use '-' for standard input)");
		fprintf(stderr, "Try 'pdnkit import --help' for more information.\n");
		rc = EXIT_USAGE;
		goto out;
	}
	int copies = COPIES_MARK;
	if (copies_arg) {
		if (!strcmp(copies_arg, "mark"))
			copies = COPIES_MARK;
		else if (!strcmp(copies_arg, "skip"))
			copies = COPIES_SKIP;
		else if (!strcmp(copies_arg, "keep"))
			copies = COPIES_KEEP;
		else {
			cli_error("--duplicates must be mark, skip or keep, not '%s'", copies_arg);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	int erc;
	if (egdb_arg && (erc = egdb_check_option(egdb_arg, &edb)) != 0) {
		rc = erc;
		goto out;
	}
	bool vcheck = egdb_arg && strcmp(egdb_arg, "none") != 0;   /* the variants' databases too */
	/* Binary data (a program, an image, a database) has a NUL byte in its first bytes,
	 * which PDN never has: such a file is refused whole before anything is read. */
	kept = calloc((size_t)nfiles + 1, sizeof *kept);
	int nkept = 0;
	if (!kept) {
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	for (int i = 0; i < nfiles; i++) {
		long at = strcmp(files[i], "-") ? binary_at(files[i]) : -1;
		if (at >= 0) {
			char safe[600];
			cli_error("%s: not PDN: binary data (a NUL byte at offset %ld; PDN is text); nothing imported from it",
				  cli_safe_text(files[i], safe, sizeof safe), at);
			binary++;
		} else
			kept[nkept++] = files[i];
	}
	files = kept;
	nfiles = nkept;
	/* Nothing to read: said before a database is made, so that a mistyped file name
	 * leaves no empty store behind */
	int readable = 0;
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(files[i], "-") || access(files[i], R_OK) == 0)
			readable++;
	for (int i = 0; i < nfiles && readable == 0; i++)
		if (access(files[i], R_OK) != 0)
			cli_error("cannot open '%s': %s", files[i], strerror(errno));
	if (readable == 0) {
		if (!binary || nfiles)
			cli_error("no file to import%s", access(db_path(&fa), F_OK) != 0 ? "; no database was created" : "");
		rc = EXIT_RUNTIME;
		goto out;
	}
	s = db_open(&fa, STORE_CREATE);
	if (!s) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	store_set_copies(s, copies);
	cli_catch_signals(false);

	import_totals t = { 0 };
	double t0 = cli_now();
	bool failed = false, unreadable = false;
	pk_source src = { .files = files, .nfiles = nfiles, .stop = &cli_interrupted, .read_ahead = true };
	char err[600];
	pk_games *it = games_open(&src, err, sizeof err);
	if (!it) {
		cli_error("%s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	int file = -1;               /* the file whose import is open: games are committed file by file */
	/* A file is taken as PDN once one of its games has a tag pair or move text that
	 * replays without an error; what comes before is held (at most PENDING_MAX pieces),
	 * and a file that has no such game is refused whole, nothing stored. */
	pending *pend = calloc(PENDING_MAX, sizeof *pend);
	int npend = 0, pend_file = -1, confirmed_file = -1, refused_file = -1;
	if (!pend) {
		cli_error("out of memory");
		rc = EXIT_RUNTIME;
		games_close(it);
		goto out;
	}
	while (!failed && !cli_interrupted) {
		pk_game *g;
		pk_replay *rp;
		int got = games_next(it, &g, &rp);
		int fi = games_file_index(it);
		if (file >= 0 && (got != GAMES_GAME || fi != file)) {
			/* Whatever was read is committed, also after Ctrl-C. */
			if (store_end_import(s) < 0) {
				cli_error("%s", store_error(s));
				failed = true;
			}
			file = -1;
		}
		if (pend_file >= 0 && (got != GAMES_GAME || fi != pend_file) && !cli_interrupted) {
			cli_progress_done();
			cli_error("%s: not PDN: none of its %d piece%s of text has a tag pair or moves that replay; nothing imported from it",
				  pend_name, npend, npend == 1 ? "" : "s");
			unreadable = true;
			free_pending(pend, &npend);
			pend_file = -1;
		}
		if (got == GAMES_END || failed)
			break;
		if (got == GAMES_ERROR || got == GAMES_FATAL) {
			if (cli_interrupted)
				break;
			cli_progress_done();
			cli_error("%s", games_error(it));
			unreadable = true;
			failed = got == GAMES_FATAL;
			continue;
		}
		if (fi == refused_file)
			continue;
		if (fi != confirmed_file) {
			if (!is_game(g, rp)) {
				if (npend == PENDING_MAX) {
					cli_progress_done();
					cli_error("%s: not PDN: none of its first %d pieces of text has a tag pair or moves that replay; nothing imported from it",
						  pend_name, PENDING_MAX);
					unreadable = true;
					free_pending(pend, &npend);
					pend_file = -1;
					refused_file = fi;
					continue;
				}
				if (pend_file < 0)
					snprintf(pend_name, sizeof pend_name, "%s", games_file(it));
				pend_file = fi;
				games_take(it, &pend[npend].g, &pend[npend].rp);
				npend++;
				continue;
			}
			confirmed_file = fi;
			pend_file = -1;
		}
		if (file < 0) {
			t.files++;
			if (store_begin_import(s, games_file(it), !no_positions) < 0) {
				cli_error("%s", store_error(s));
				failed = true;
				break;
			}
			file = fi;
		}
		for (int i = 0; i < npend && !failed; i++)
			failed = store_one(s, edb, vcheck, &pend[i].g, &pend[i].rp, &t) < 0;
		free_pending(pend, &npend);
		if (failed || store_one(s, edb, vcheck, g, rp, &t) < 0) {
			failed = true;
			break;
		}
		cli_games_progress("import", it, t.games);
	}
	free_pending(pend, &npend);
	free(pend);
	if (file >= 0 && failed)
		store_abort_import(s);
	else if (file >= 0 && store_end_import(s) < 0) {
		cli_error("%s", store_error(s));
		failed = true;
	}
	games_close(it);
	/* A failed batch was rolled back: what counts is what was committed. */
	long lost = t.stored - store_games_committed(s);
	if (lost > 0) {
		cli_error("the last %ld games read were not stored (their transaction was rolled back); "
			  "run the same import again to add them", lost);
		t.stored -= lost;
	}
	double secs = cli_now() - t0;
	cli_progress_done();
	if (json) {
		printf("{\"db\":");
		json_string(stdout, db_path(&fa));
		printf(",\"files\":%ld,\"games\":%ld,\"stored\":%ld,\"duplicates\":%ld,\"copies\":%ld,\"copies_were\":\"%s\","
		       "\"invalid\":%ld,\"not_replayed\":%ld,\"other_variants\":%ld,\"interrupted\":%s,\"seconds\":%.3f}\n",
		       t.files, t.games, t.stored, t.duplicates, t.copies,
		       copies == COPIES_MARK ? "marked" : copies == COPIES_SKIP ? "skipped" : "kept", t.invalid, t.skipped, t.variants,
		       cli_interrupted ? "true" : "false", secs);
	}
	fprintf(stderr, "pdnkit import: %ld games read, %ld stored, %ld duplicates skipped, %ld invalid (stored, flagged)",
		t.games, t.stored, t.duplicates, t.invalid);
	if (t.copies)
		fprintf(stderr, ", %ld cop%s of stored games from another source (%s)", t.copies, t.copies == 1 ? "y" : "ies",
			copies == COPIES_MARK ? "stored, marked as copies" : copies == COPIES_SKIP ? "skipped" : "stored as games of their own");
	if (t.variants)
		fprintf(stderr, ", %ld of other variants (replayed under their rules)", t.variants);
	if (t.skipped)
		fprintf(stderr, ", %ld of variants pdnkit cannot replay (stored, not replayed)", t.skipped);
	fprintf(stderr, "; %.2f s, %.0f games/s, into %s\n", secs, secs > 0 ? (double)t.games / secs : 0.0, db_path(&fa));
	if (edb || (vcheck && t.variants))
		fprintf(stderr, "pdnkit import: %ld results checked against the endgame databases: %ld contradicted (stored as findings 'result-egdb')\n",
			t.judged, t.contradicted);
	if (cli_interrupted)
		fprintf(stderr, "pdnkit import: interrupted; what was read is stored, run the same import again for the rest\n");
	rc = cli_interrupted ? 128 + cli_interrupted : failed || unreadable || binary ? EXIT_RUNTIME : EXIT_OK;

out:
	store_close(s);
	egdb_free(edb);
	free(kept);
	free(egdb_arg);
	free(copies_arg);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	return rc;
}
