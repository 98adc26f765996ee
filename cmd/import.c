/* pdnkit import: PDN files into the game store, with the position index. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

int cmd_import(int argc, const char **argv)
{
	filter_args fa = { 0 };
	int no_positions = 0, json = 0;
	char *egdb_arg = NULL, *copies_arg = NULL;
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
		if (file < 0) {
			t.files++;
			if (store_begin_import(s, games_file(it), !no_positions) < 0) {
				cli_error("%s", store_error(s));
				failed = true;
				break;
			}
			file = fi;
		}
		if (edb) {
			int v = verdict_result(edb, g, rp);
			t.judged += v == VERDICT_AGREES || v == VERDICT_CONTRADICTS;
			t.contradicted += v == VERDICT_CONTRADICTS;
			if (v == VERDICT_FAILED) {
				cli_error("%s", egdb_error(edb));
				failed = true;
				break;
			}
		}
		int outcome;
		if (store_add_game(s, g, rp, &outcome) < 0) {
			cli_error("%s", store_error(s));
			failed = true;
			break;
		}
		t.games++;
		t.copies += outcome == STORE_COPY_MARKED || outcome == STORE_COPY_SKIPPED || outcome == STORE_COPY_KEPT;
		if (outcome == STORE_DUPLICATE)
			t.duplicates++;
		else if (outcome != STORE_COPY_SKIPPED) {
			t.stored++;
			bool replayed = rp->supported || rp->variant_replayed;
			t.invalid += replayed && g->findings.errors > 0;
			t.skipped += !replayed;
			t.variants += rp->variant_replayed;
		}
		cli_games_progress("import", it, t.games);
	}
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
	if (edb)
		fprintf(stderr, "pdnkit import: %ld results checked against the endgame databases: %ld contradicted (stored as findings 'result-egdb')\n",
			t.judged, t.contradicted);
	if (cli_interrupted)
		fprintf(stderr, "pdnkit import: interrupted; what was read is stored, run the same import again for the rest\n");
	rc = cli_interrupted ? 128 + cli_interrupted : failed || unreadable ? EXIT_RUNTIME : EXIT_OK;

out:
	store_close(s);
	egdb_free(edb);
	free(egdb_arg);
	free(copies_arg);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	return rc;
}
