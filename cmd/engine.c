/* pdnkit engine: the engine for other programs, speaking the Hub protocol (version 2,
 * as draughts GUIs use it) on standard input and output, for English draughts: the
 * position as a side letter and one letter a square (32 of them), moves as Hub writes
 * them ("11-15", "22x15x18": from, to, then the pieces taken) or, with the notation
 * parameter, as PDN does. With --dxp, a DXP follower for International draughts on a
 * TCP port instead (analysis/dxpserve.c), a process a connection. */
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/text.h"
#include "cli.h"
#include "commands.h"
#include "egdb_opts.h"
#include "engine_opts.h"
#include "analysis/dxpserve.h"
#include "analysis/hubserve.h"
#include "egdb/vegdb.h"
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

static volatile sig_atomic_t dxp_stop;

static void dxp_log(void *ctx, const char *peer, const char *line)
{
	(void)ctx;
	char safe[600];
	fprintf(stderr, "pdnkit engine: %s: %s\n", peer, cli_safe_text(line, safe, sizeof safe));
	fflush(stderr);
}
static void on_stop(int sig)
{
	(void)sig;
	dxp_stop = 1;
}

/* A connection's process ended: accept is interrupted, the process reaped and counted. */
static void on_child(int sig) { (void)sig; }

static int reap(int *alive)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		(*alive)--;
	return *alive;
}

/* pdnkit as a DXP follower on [HOST:]PORT: one connection after another, until a
 * signal. */
static int serve_dxp(const char *addr, const engine_args *ea, bool use_book, const char *movetime, const char *conns_arg,
		     const char *max_move_arg, const char *idle_arg)
{
	char host[256];
	const char *ps;
	if (!dxp_address(addr, host, sizeof host, &ps)) {
		cli_error("--dxp: the host of '%s' is too long", addr);
		return EXIT_USAGE;
	}
	if (!*host)
		snprintf(host, sizeof host, "127.0.0.1");   /* this machine only, unless a host is named */
	long port, conns = 4;
	double mt = 0, hash = 64, max_move = 60, idle = 120;
	if (cli_int(ps, 0, 65535, "--dxp's port", &port) || (movetime && cli_number(movetime, 0.001, 3600, "--movetime", &mt)) ||
	    (ea->hash && cli_number(ea->hash, 1, 65536, "--hash", &hash)) ||
	    (conns_arg && cli_int(conns_arg, 1, 256, "--max-connections", &conns)) ||
	    (max_move_arg && cli_number(max_move_arg, 0.01, 3600, "--max-movetime", &max_move)) ||
	    (idle_arg && cli_number(idle_arg, 1, 86400, "--idle", &idle)))
		return EXIT_USAGE;
	char err[400];
	int lfd = dxp_listen(host, (int)port, err, sizeof err);
	if (lfd < 0) {
		cli_error("--dxp %s: cannot listen: %s", addr, err);
		return EXIT_RUNTIME;
	}
	struct sockaddr_storage sa;
	socklen_t sl = sizeof sa;
	int bound = (int)port;
	if (getsockname(lfd, (struct sockaddr *)&sa, &sl) == 0)
		bound = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port :
			      ((struct sockaddr_in *)&sa)->sin_port);
	struct sigaction act;
	memset(&act, 0, sizeof act);
	act.sa_handler = on_stop;   /* no SA_RESTART: accept returns */
	sigaction(SIGINT, &act, NULL);
	sigaction(SIGTERM, &act, NULL);
	signal(SIGPIPE, SIG_IGN);
	char name[64];
	snprintf(name, sizeof name, "pdnkit %s", PK_VERSION);
	long threads = 1;
	if (ea->threads && cli_int(ea->threads, 1, 64, "--threads", &threads)) {
		close(lfd);
		return EXIT_USAGE;
	}
	/* the International databases, in DIR/international, as match's pdnkit takes them */
	char tables[4096] = "";
	if (ea->egdb && strcmp(ea->egdb, "none") != 0)
		egdb_dir(strcmp(ea->egdb, "default") ? ea->egdb : NULL, tables, sizeof tables);
	pk_book *book = NULL;
	if (use_book && book_option_for(NULL, true, variant_by_name("international"), &book) < 0) {
		close(lfd);
		return EXIT_USAGE;
	}
	pk_dxp_server srv = { .name = name, .hash_mb = (size_t)hash, .threads = (int)threads, .movetime = mt, .max_movetime = max_move,
			      .idle = idle, .log = dxp_log, .stop = &dxp_stop, .tables_chosen = ea->egdb != NULL,
			      .tables_dir = *tables ? tables : NULL, .book = book };
	fprintf(stderr, "pdnkit engine: opening book: %s\n", book ? "the built-in one" : use_book ? "none built in" : "none (--no-book)");
	if (ea->egdb) {
		const pk_vegdb *db = *tables ? vegdb_shared_in(tables, variant_by_name("international")) : NULL;
		fprintf(stderr, "pdnkit engine: endgame databases: %s\n", !*tables ? "none (--egdb none)" :
			db ? tables : "none found there (the search alone)");
	}
	/* the address last: a caller that waits for it finds the lines above written */
	if (strncmp(host, "127.", 4) != 0 && strcmp(host, "::1") != 0 && strcmp(host, "localhost") != 0)
		cli_warning("listening on %s: anyone who can reach this machine can start games (at most %ld at a time)", host,
			    conns);
	bool v6 = strchr(host, ':') != NULL;
	fprintf(stderr, "pdnkit engine: DXP (International draughts) on %s%s%s:%d\n", v6 ? "[" : "", host, v6 ? "]" : "",
		bound);
	fflush(stderr);
	struct sigaction ch;
	memset(&ch, 0, sizeof ch);
	ch.sa_handler = on_child;   /* no SA_RESTART: accept returns, the process is reaped */
	sigaction(SIGCHLD, &ch, NULL);
	int alive = 0;
	while (!dxp_stop) {
		dxp_conn c;
		reap(&alive);
		if (dxp_accept(lfd, &c) < 0)
			continue;
		if (reap(&alive) >= conns) {
			char line[120];
			snprintf(line, sizeof line, "refused: %d connections already (--max-connections %ld)", alive, conns);
			dxp_log(NULL, c.peer, line);
			dxp_close(&c);
			continue;
		}
		/* each connection in a process of its own, ended with this one */
		pid_t pid = fork();
		if (pid == 0) {
			close(lfd);
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			signal(SIGCHLD, SIG_DFL);
			if (getppid() == 1)
				_exit(EXIT_OK);   /* the listener is gone already */
			int r = dxpserve_conn(&srv, &c);
			dxp_close(&c);
			if (r < 0)
				cli_error("out of memory");
			fflush(stderr);
			_exit(r < 0 ? EXIT_RUNTIME : EXIT_OK);
		}
		if (pid < 0)
			cli_error("--dxp: cannot start a process for %s: %s", c.peer, strerror(errno));
		else
			alive++;
		dxp_close(&c);
	}
	close(lfd);
	book_free(book);
	return EXIT_OK;
}

int cmd_engine(int argc, const char **argv)
{
	engine_args ea;
	engine_args_init(&ea);
	ea.playing = true;
	int pdn = 0, no_book = 0;
	char *cb = NULL, *dxp = NULL, *movetime = NULL, *conns = NULL, *max_move = NULL, *idle = NULL;
	struct poptOption opts[] = {
		{ "dxp", 0, POPT_ARG_STRING, &dxp, 0, "play International draughts as a DXP follower, listening on [HOST:]PORT (27531 is DXP's; 0: any free port, said on standard error)", "[HOST:]PORT" },
		{ "movetime", 0, POPT_ARG_STRING, &movetime, 0, "with --dxp: seconds a move (default: the game's minutes shared out)", "SECONDS" },
		{ "max-connections", 0, POPT_ARG_STRING, &conns, 0, "with --dxp: connections (games) at a time; more are refused (default 4)", "N" },
		{ "max-movetime", 0, POPT_ARG_STRING, &max_move, 0, "with --dxp: seconds a move at most, whatever a game's clock asks (default 60)", "SECONDS" },
		{ "idle", 0, POPT_ARG_STRING, &idle, 0, "with --dxp: seconds an initiator may stay silent, beyond its game's clock (default 120)", "SECONDS" },
		{ "cb", 0, POPT_ARG_STRING, &cb, 0, "serve this CheckerBoard engine library instead of pdnkit's engine", "LIB.so" },
		{ "hash", 0, POPT_ARG_STRING, &ea.hash, 0, "transposition table size in MB (default 64; also set-param name=hash)", "MB" },
		{ "threads", 0, POPT_ARG_STRING, &ea.threads, 0, "search threads (default 1)", "N" },
		{ "egdb", 0, POPT_ARG_STRING, &ea.egdb, 0, "endgame databases from DIR, or 'none'", "DIR" },
		{ "egdb-cache", 0, POPT_ARG_STRING, &ea.egdb_cache, 0, "the databases' cache of decompressed blocks in MiB (default " EGDB_CACHE_DEFAULT_TEXT "; also set-param name=egdb-cache, 0 for auto)", "MB|auto" },
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
	if (dxp) {
		if (cb || ea.weights || pdn) {
			cli_error("--dxp plays International draughts: only --hash, --threads, --egdb, --no-book, --movetime, "
				  "--max-connections, --max-movetime and --idle go with it");
			goto out;
		}
		rc = serve_dxp(dxp, &ea, !no_book, movetime, conns, max_move, idle);
		goto out;
	}
	if (movetime || conns || max_move || idle) {
		cli_error("--%s goes with --dxp (over Hub, the client sets the time)",
			  movetime ? "movetime" : conns ? "max-connections" : max_move ? "max-movetime" : "idle");
		goto out;
	}
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
		.egdb_cache_default = "0", .use_book = !no_book, .pdn_notation = pdn,
		.default_movetime = level_seconds[3],
	};
	signal(SIGINT, SIG_IGN);   /* a GUI's Ctrl-C is for the GUI */
	rc = hubserve_run(&srv, STDIN_FILENO, stdout) < 0 ? EXIT_RUNTIME : EXIT_OK;
out:
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(cb);
	free(dxp);
	free(conns);
	free(max_move);
	free(idle);
	free(movetime);
	return rc;
}
