/* pdnkit engine: the engine for other programs, speaking the Hub protocol (version 2,
 * as draughts GUIs use it) on standard input and output, for English draughts: the
 * position as a side letter and one letter a square (32 of them), moves as Hub writes
 * them ("11-15", "22x15x18": from, to, then the pieces taken) or, with the notation
 * parameter, as PDN does. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/text.h"
#include "cli.h"
#include "commands.h"
#include "egdb_opts.h"
#include "engine_opts.h"
#include "analysis/hubserve.h"
#include "book/book.h"
#include "proto/cbhost.h"

/* The engine from the parameters the client set (or the command line's): engine_args
 * as every command has them, and the shipped book. */
static int engine_init(void *ctx, const pk_hub_params *p, bool use_book, pk_engine **e, pk_book **bk,
		       char *err, size_t errsize)
{
	engine_args *ea = ctx;
	pk_limits lim;
	if (text_replace(&ea->hash, p->hash) || text_replace(&ea->threads, p->threads) ||
	    text_replace(&ea->egdb, p->egdb) || text_replace(&ea->egdb_cache, p->egdb_cache)) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	if (engine_args_resolve(ea, &lim) != 0) {
		snprintf(err, errsize, "the parameters were refused (hash, threads or egdb; the reason is on standard error)");
		return -1;
	}
	if (!(*e = engine_from_args(ea))) {
		snprintf(err, errsize, "the engine could not be set up (the reason is on standard error)");
		return -1;
	}
	*bk = NULL;
	if (use_book && book_option(NULL, true, bk) < 0)
		*bk = NULL;
	return 0;
}

int cmd_engine(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	ea.playing = true;
	int pdn = 0, no_book = 0;
	char *cb = NULL;
	struct poptOption opts[] = {
		{ "cb", 0, POPT_ARG_STRING, &cb, 0, "serve this CheckerBoard engine library instead of pdnkit's engine", "LIB.so" },
		{ "hash", 0, POPT_ARG_STRING, &ea.hash, 0, "transposition table size in MB (default 64; also set-param name=hash)", "MB" },
		{ "threads", 0, POPT_ARG_STRING, &ea.threads, 0, "search threads (default 1)", "N" },
		{ "egdb", 0, POPT_ARG_STRING, &ea.egdb, 0, "endgame databases from DIR, or 'none'", "DIR" },
		{ "egdb-cache", 0, POPT_ARG_STRING, &ea.egdb_cache, 0, "the databases' cache of decompressed blocks in MiB (default " EGDB_CACHE_MB_TEXT "; also set-param name=egdb-cache)", "MB" },
		{ "weights", 0, POPT_ARG_STRING, &ea.weights, 0, "evaluation weights from FILE", "FILE" },
		{ "no-book", 0, POPT_ARG_NONE, &no_book, 0, "no opening book (also set-param name=book value=false)", NULL },
		{ "pdn-moves", 0, POPT_ARG_NONE, &pdn, 0, "moves as PDN writes them (22x15x8: the landing squares), not as Hub does", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]  (then Hub commands on standard input)");
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, NULL) < 0)
		goto out;
	if (cb) {
		/* another engine's library behind Hub: how pdnkit drives one in a process of its own */
		char err[600];
		signal(SIGINT, SIG_IGN);
		if (cbhost_run(cb, STDIN_FILENO, STDOUT_FILENO, err, sizeof err) < 0) {
			cli_error("%s", err);
			rc = EXIT_RUNTIME;
		} else
			rc = EXIT_OK;
		goto out;
	}
	/* The options are checked now, not first at the GUI's init. */
	pk_limits unused;
	pk_weights w;
	if (engine_args_resolve(&ea, &unused))
		goto out;
	if (engine_weights(&ea, &w) < 0)
		goto out;
	pk_hub_params defaults = { ea.hash, ea.threads, ea.egdb, ea.egdb_cache };
	pk_hub_server srv = {
		.init = engine_init, .ctx = &ea, .version = PK_VERSION, .defaults = &defaults,
		.egdb_cache_default = EGDB_CACHE_MB_TEXT, .use_book = !no_book, .pdn_notation = pdn,
		.default_movetime = level_seconds[3],
	};
	signal(SIGINT, SIG_IGN);   /* a GUI's Ctrl-C is for the GUI */
	rc = hubserve_run(&srv, STDIN_FILENO, stdout) < 0 ? EXIT_RUNTIME : EXIT_OK;
out:
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(cb);
	return rc;
}
