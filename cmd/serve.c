/* pdnkit serve: the store in a browser (games, a game's board, the opening explorer,
 * players, stats, engine analysis) and its JSON API, until SIGINT or SIGTERM. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "egdb_opts.h"
#include "web/web.h"

extern char **environ;

static void log_request(void *ctx, const char *peer, const char *method, const char *path, int status, size_t bytes,
			double ms)
{
	(void)ctx;
	char safe[200];
	fprintf(stderr, "%s %s %s %d %zu %.1f ms\n", peer, method, cli_safe_text(path, safe, sizeof safe), status, bytes, ms);
}

static bool loopback(const char *a) { return !strncmp(a, "127.", 4) || !strcmp(a, "::1"); }

int cmd_serve(int argc, const char **argv)
{
	filter_args fa = { 0 };
	engine_args ea;
	engine_args_init(&ea);
	char *port_arg = NULL, *bind = NULL, *searches_arg = NULL, *max_time_arg = NULL, *conns_arg = NULL,
	     *timeout_arg = NULL, *port_file = NULL, *query_time_arg = NULL, *per_ip_arg = NULL, *header_time_arg = NULL;
	const char **hosts = NULL;
	int open_browser = 0, allow_write = 0, quiet = 0;
	struct poptOption opts[] = {
		{ "port", 'P', POPT_ARG_STRING, &port_arg, 0, "port to listen on (default 8008; 0: any free port)", "N" },
		{ "bind", 0, POPT_ARG_STRING, &bind, 0, "address to listen on (default 127.0.0.1: this machine only)", "ADDR" },
		{ "open", 0, POPT_ARG_NONE, &open_browser, 0, "open the pages in the desktop's browser (xdg-open)", NULL },
		{ "allow-write", 0, POPT_ARG_NONE, &allow_write, 0, "open the store for writing (default: read-only)", NULL },
		{ "searches", 0, POPT_ARG_STRING, &searches_arg, 0, "engine analyses at a time (default 1; 0: none)", "N" },
		{ "max-time", 0, POPT_ARG_STRING, &max_time_arg, 0, "seconds an analysis may take at most (default 10)", "S" },
		{ "max-connections", 0, POPT_ARG_STRING, &conns_arg, 0, "connections at a time; more are refused (default 256)", "N" },
		{ "timeout", 0, POPT_ARG_STRING, &timeout_arg, 0, "seconds an idle connection is kept (default 30)", "S" },
		{ "per-address", 0, POPT_ARG_STRING, &per_ip_arg, 0, "connections of one client address at a time (default 64)", "N" },
		{ "header-time", 0, POPT_ARG_STRING, &header_time_arg, 0, "seconds a request may take to arrive; then it is cut off (default 10)", "S" },
		{ "allow-host", 0, POPT_ARG_ARGV, &hosts, 0, "a host name the pages may be reached by (besides numeric addresses and localhost); may be repeated", "NAME" },
		{ "query-time", 0, POPT_ARG_STRING, &query_time_arg, 0, "seconds a request's queries may take; then 503 (default 10)", "S" },
		{ "port-file", 0, POPT_ARG_STRING, &port_file, 0, "write the port listened on to FILE once serving", "FILE" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no line on standard error for each request", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, db_option(&fa), 0, "The store:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "The engine of the analyses:", NULL },
		POPT_AUTOHELP POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("pdnkit serve", argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	pk_engine *engines[16] = { 0 };
	long port = 8008, searches = 1, conns = 256, timeout = 30, per_ip = 64, header_time = 10;
	int nhosts = 0;
	double max_time = 10, query_time = 10;
	pk_web *w = NULL;
	if (rc != EXIT_OK)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, "pdnkit serve takes no file: --db names the store"))
		goto out;
	if ((port_arg && cli_int(port_arg, 0, 65535, "--port", &port)) ||
	    (searches_arg && cli_int(searches_arg, 0, 16, "--searches", &searches)) ||
	    (conns_arg && cli_int(conns_arg, 1, 10000, "--max-connections", &conns)) ||
	    (timeout_arg && cli_int(timeout_arg, 1, 3600, "--timeout", &timeout)) ||
	    (per_ip_arg && cli_int(per_ip_arg, 1, 10000, "--per-address", &per_ip)) ||
	    (header_time_arg && cli_int(header_time_arg, 1, 3600, "--header-time", &header_time)) ||
	    (max_time_arg && cli_number(max_time_arg, 0.01, 3600, "--max-time", &max_time)) ||
	    (query_time_arg && cli_number(query_time_arg, 0.000001, 3600, "--query-time", &query_time)))
		goto out;
	for (; hosts && hosts[nhosts]; nhosts++) {
		const char *h = hosts[nhosts];
		size_t n = strlen(h);
		bool ok = n > 0 && n < 254;
		for (size_t i = 0; ok && i < n; i++)
			ok = (h[i] >= 'a' && h[i] <= 'z') || (h[i] >= 'A' && h[i] <= 'Z') || (h[i] >= '0' && h[i] <= '9') ||
			     h[i] == '.' || h[i] == '-' || h[i] == '_';
		if (!ok) {
			char safe[300];
			cli_error("--allow-host '%s': a host name is letters, digits, '.', '-' and '_' (no port, no scheme)",
				  cli_safe_text(h, safe, sizeof safe));
			goto out;
		}
	}
	/* annotation on request: the annotate command's default depth unless a depth, nodes,
	 * a time or a level is given */
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level) {
		char d[16];
		snprintf(d, sizeof d, "%d", ANNOTATE_DEFAULT_DEPTH);
		ea.depth = strdup(d);
	}
	pk_limits lim;
	if (engine_args_resolve(&ea, &lim))
		goto out;
	rc = EXIT_RUNTIME;
	pk_egdb *db = NULL;
	if (searches > 0 || !ea.egdb || strcmp(ea.egdb, "none") != 0) {
		if (engine_egdb(&ea, &db) < 0)
			goto out;
	}
	if (ea.egdb)
		egdb_variants_option(ea.egdb);   /* the other variants' own, in DIR/VARIANT */
	for (long i = 0; i < searches; i++)
		if (!(engines[i] = engine_from_args(&ea)))
			goto out;
	/* annotation on request (--allow-write): the annotate command's defaults, with the
	 * engine options given here (a depth, nodes or time: else depth 10) */
	pk_batch_opts bo = { 0 };
	if (allow_write && searches > 0) {
		bo.ao.lim = lim;
		bo.ao.th = thresholds_default;
		bo.ao.verify = VERIFY_DEFAULT;
		bo.ao.verify_rounds = VERIFY_ROUNDS_DEFAULT;
		bo.ao.egdb = db;
		bo.threads = 1;
		bo.hash = ea.hash ? (size_t)atol(ea.hash) : 32;
		if (engine_weights(&ea, &bo.w) < 0 || engine_features(&ea, &bo.f) < 0)
			goto out;
	}
	const char *path = db_path(&fa);
	if (access(path, F_OK) != 0) {
		cli_error("%s: no such store (pdnkit import FILE.pdn makes one; --db names another)", path);
		goto out;
	}
	char err[512];
	pk_web_opts wo = {
		.db_path = path,
		.allow_write = allow_write,
		.bind = bind,
		.port = (int)port,
		.max_connections = (int)conns,
		.timeout = (int)timeout,
		.per_ip = (int)per_ip,
		.header_time = (int)header_time,
		.hosts = hosts,
		.nhosts = nhosts,
		.engines = engines,
		.nengines = (int)searches,
		.max_time = max_time,
		.query_time = query_time,
		.egdb = db,
		.annotate = allow_write && searches > 0 ? &bo : NULL,
		.on_request = quiet ? NULL : log_request,
	};
	w = web_start(&wo, err, sizeof err);
	if (!w) {
		cli_error("%s", err);
		goto out;
	}
	const char *host = bind ? bind : "127.0.0.1";
	char url[300];
	snprintf(url, sizeof url, strchr(host, ':') ? "http://[%s]:%d/" : "http://%s:%d/", host, web_port(w));
	if (!loopback(host))
		cli_warning("listening on %s: anyone who can reach this machine can read the store%s", host,
			    allow_write ? " and change it" : "");
	fprintf(stderr, "serving %s at %s (%s; Ctrl-C to stop)\n", path, url, allow_write ? "read-write" : "read-only");
	if (port_file) {
		char text[16];
		int n = snprintf(text, sizeof text, "%d\n", web_port(w));
		if (cli_write_file(port_file, text, (size_t)n) < 0)
			goto out;
	}
	if (open_browser) {
		pid_t pid;
		char *args[] = { "xdg-open", url, NULL };
		if (posix_spawnp(&pid, "xdg-open", NULL, NULL, args, environ) != 0)
			cli_warning("cannot run xdg-open: open %s yourself", url);
		else
			waitpid(pid, NULL, 0);
	}
	cli_catch_signals(true);
	while (!cli_interrupted) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "stopping\n");
	rc = EXIT_OK;
out:
	web_stop(w);
	for (int i = 0; i < 16; i++)
		engine_free(engines[i]);
	engine_args_free(&ea);
	filter_args_free(&fa);
	free(port_arg);
	free(bind);
	free(searches_arg);
	free(max_time_arg);
	free(conns_arg);
	free(timeout_arg);
	free(query_time_arg);
	free(port_file);
	free(per_ip_arg);
	free(header_time_arg);
	for (int i = 0; hosts && hosts[i]; i++)
		free((char *)hosts[i]);
	free(hosts);
	poptFreeContext(ctx);
	return rc;
}
