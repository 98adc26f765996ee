/* pdnkit engines: the engines pdnkit can drive. "check SPEC" starts one, prints its
 * name, variants and parameters and has it play one move from the start; "list" names
 * those of the engines file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "engine_opts.h"
#include "pdn/pdn_write.h"
#include "proto/client.h"
#include "proto/dxp.h"
#include "proto/hub.h"
#include "rules/variant.h"

/* The end of check's JSON object: the move's time, the limit, what went wrong. */
static void json_answer_end(const pk_client_answer *a, double t)
{
	printf(",\"seconds\":%.3f,\"limit\":%g", a->seconds, t);
	if (a->status != CLIENT_OK) {
		printf(",\"detail\":");
		json_string(stdout, a->detail);
	}
	printf("}\n");
}

/* A DXP engine: connected, asked for a game from the start with White (it moves first),
 * its move, the game ended. */
static int check_dxp(const pk_engine_spec *spec, double t, int json)
{
	char err[700], safe[900];
	pk_client_opts co = { 0 };
	double t0 = cli_now();
	dxp_client *c = dxp_client_open(spec, &co, err, sizeof err);
	if (!c) {
		cli_error("%s", cli_safe_text(err, safe, sizeof safe));
		return EXIT_RUNTIME;
	}
	double started = cli_now() - t0;
	const pk_variant *v = variant_by_name("international");
	pk_vpos start;
	vpos_start(v, &start);
	/* no move count: an engine that ends a game at the count (Scan) would end a match's
	 * game early; the match asks for none either */
	dxp_client_set_time(c, (int)(t * 75 / 60 + 0.999), 0);
	pk_client_answer a;
	pk_vmove m;
	/* The game's clock is whole minutes for 75 moves, about t a move: a first move is
	 * waited for ten times that and 5 s more (not the whole clock), so that a silent
	 * engine is said in seconds. */
	double clock = (int)(t * 75 / 60 + 0.999) * 60.0, wait = 10 * t + 5;
	dxp_client_go(c, &start, NULL, NULL, 0, wait < clock ? wait : clock, &a, &m);
	char mv[64] = "";
	if (a.status == CLIENT_OK)
		vmove_text(v, &m, false, mv, sizeof mv);
	dxp_client_new_game(c);
	if (json) {
		printf("{\"spec\":");
		json_string(stdout, spec->text);
		printf(",\"name\":");
		json_string(stdout, dxp_client_name(c));
		printf(",\"kind\":\"dxp\",\"variants\":[\"international\"],\"start_seconds\":%.3f,\"status\":\"%s\",\"move\":",
		       started, client_status_name(a.status));
		json_string(stdout, mv);
		json_answer_end(&a, t);
	} else {
		printf("engine: %s\n", cli_safe_text(dxp_client_name(c), safe, sizeof safe));
		printf("spec: %s (a DXP engine: International draughts, connected in %.2f s)\n", spec->text, started);
		if (a.status == CLIENT_OK)
			printf("from the start it played %s in %.2f s (a game of %d min asked for)\n", mv, a.seconds,
			       (int)(t * 75 / 60 + 0.999));
		else
			printf("from the start it failed (%s): %s\n", client_status_name(a.status),
			       cli_safe_text(a.detail, safe, sizeof safe));
	}
	dxp_client_close(c);
	return a.status == CLIENT_OK ? EXIT_OK : EXIT_RUNTIME;
}

static int check(int argc, const char **argv)
{
	char *file = NULL, *time_arg = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "engines", 0, POPT_ARG_STRING, &file, 0, "the engines file (default $PDNKIT_ENGINES, else ~/.config/pdnkit/engines)", "FILE" },
		{ "time", 't', POPT_ARG_STRING, &time_arg, 0, "seconds for its move from the start (default 0.1)", "SECONDS" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] SPEC");
	int rc = cli_parse_options(ctx, opts);
	pk_client *c = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int n;
	const char **args = cli_args(ctx, &n);
	if (n != 1) {
		cli_error("one engine is expected: pdnkit[:OPTIONS], cb:LIB.so[,key=value...], hub:COMMAND or a name of the engines file");
		goto out;
	}
	double t = 0.1;
	if (time_arg && cli_number(time_arg, 0.001, 3600, "--time", &t))
		goto out;
	pk_engine_spec spec;
	char err[800];
	if (spec_parse(args[0], engines_file_option(file), &spec, err, sizeof err) < 0) {
		cli_error("%s", err);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (spec.kind == SPEC_PDNKIT) {
		/* the built-in engine: what it is, and one move from the start (no book, so
		 * that the move is searched) */
		engine_args ea;
		engine_args_init(&ea);
		char tt[32];
		snprintf(tt, sizeof tt, "%g", t);
		int st = engine_args_from_string("pdnkit", *spec.target ? spec.target : "", NULL, &ea);
		pk_limits lim;
		if (st == 0 && !ea.movetime && !ea.depth && !ea.nodes && !ea.level)
			ea.movetime = strdup(tt);
		pk_engine *e = NULL;
		if (st < 0 || engine_args_resolve(&ea, &lim) || !(e = engine_from_args(&ea))) {
			engine_args_free(&ea);
			rc = EXIT_USAGE;
			goto out;
		}
		pk_pos start;
		pos_start(&start);
		pk_history h = { NULL, 0, 0, 0 };
		pk_result r;
		double t0 = cli_now();
		engine_search(e, &start, &h, &lim, NULL, NULL, NULL, &r);
		double took = cli_now() - t0;
		char mv[PK_MOVE_STRLEN] = "";
		pdn_move_string(&start, &r.best, false, mv);
		engine_free(e);
		engine_args_free(&ea);
		if (json) {
			printf("{\"spec\":");
			json_string(stdout, spec.text);
			printf(",\"name\":\"pdnkit %s\",\"kind\":\"pdnkit\",\"variants\":[", PK_VERSION);
			for (int i = 0; variant_at(i); i++)
				printf("%s\"%s\"", i ? "," : "", variant_at(i)->key);
			printf("],\"status\":\"ok\",\"move\":\"%s\",\"seconds\":%.3f,\"limit\":%g}\n", mv, took, lim.movetime);
		} else {
			printf("engine: pdnkit %s (built in%s%s)\nvariants:", PK_VERSION, *spec.target ? ", " : "", spec.target);
			for (int i = 0; variant_at(i); i++)
				printf("%s%s", i ? ", " : " ", variant_at(i)->key);
			printf("\noptions: those of pdnkit analyze (pdnkit analyze --help)\n");
			printf("from the start it played %s in %.2f s\n", mv, took);
		}
		rc = EXIT_OK;
		goto out;
	}
	if (spec.kind == SPEC_DXP) {
		rc = check_dxp(&spec, t, json);
		goto out;
	}
	pk_client_opts co = { 0 };
	double t0 = cli_now();
	if (!(c = client_open(&spec, &co, err, sizeof err))) {
		char safe[900];
		cli_error("%s", cli_safe_text(err, safe, sizeof safe));
		goto out;
	}
	double started = cli_now() - t0;
	pk_pos start;
	pos_start(&start);
	client_new_game(c);
	pk_client_answer a;
	client_go(c, &start, NULL, 0, t, &a);
	char mv[PK_MOVE_STRLEN] = "";
	if (a.status == CLIENT_OK)
		pdn_move_string(&start, &a.move, false, mv);
	if (json) {
		printf("{\"spec\":");
		json_string(stdout, spec.text);
		printf(",\"name\":");
		json_string(stdout, client_name(c));
		printf(",\"kind\":\"%s\",\"start_seconds\":%.3f,\"params\":[", spec.kind == SPEC_CB ? "cb" : "hub", started);
		for (int i = 0; client_param(c, i); i++) {
			printf(i ? "," : "");
			json_string(stdout, client_param(c, i));
		}
		printf("],\"status\":\"%s\",\"move\":", client_status_name(a.status));
		json_string(stdout, a.status == CLIENT_OK ? mv : "");
		json_answer_end(&a, t);
	} else {
		char safe[900];
		printf("engine: %s\n", cli_safe_text(client_name(c), safe, sizeof safe));
		printf("spec: %s (%s, started in %.2f s)\n", spec.text,
		       spec.kind == SPEC_CB ? "a CheckerBoard library in a process of its own" : "a Hub engine", started);
		for (int i = 0; client_param(c, i); i++)
			printf("  %s\n", cli_safe_text(client_param(c, i), safe, sizeof safe));
		if (a.status == CLIENT_OK)
			printf("from the start it played %s in %.2f s (asked for %g s)\n", mv, a.seconds, t);
		else
			printf("from the start it failed (%s): %s\n", client_status_name(a.status),
			       cli_safe_text(a.detail, safe, sizeof safe));
	}
	rc = a.status == CLIENT_OK ? EXIT_OK : EXIT_RUNTIME;
out:
	client_close(c);
	poptFreeContext(ctx);
	free(file);
	free(time_arg);
	return rc;
}

static int list(int argc, const char **argv)
{
	char *file = NULL;
	struct poptOption opts[] = {
		{ "engines", 0, POPT_ARG_STRING, &file, 0, "the engines file (default $PDNKIT_ENGINES, else ~/.config/pdnkit/engines)", "FILE" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, NULL) < 0)
		goto out;
	const char *path = engines_file_option(file);
	if (!path) {
		printf("no engines file (--engines FILE, $PDNKIT_ENGINES or ~/.config/pdnkit/engines); "
		       "engines can still be named directly: pdnkit, cb:LIB.so, hub:COMMAND\n");
		rc = EXIT_OK;
		goto out;
	}
	char why[600], safe_why[700];
	if (spec_file_check(path, why, sizeof why) < 0) {
		/* a file named (--engines, $PDNKIT_ENGINES) that cannot be read is an error */
		cli_error("%s", cli_safe_text(why, safe_why, sizeof safe_why));
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_OK;
	char name[128];
	for (int i = 0; spec_file_name(path, i, name, sizeof name); i++) {
		pk_engine_spec s;
		char err[800], safe[900];
		if (spec_parse(name, path, &s, err, sizeof err) < 0) {
			cli_error("%s", cli_safe_text(err, safe, sizeof safe));
			rc = EXIT_USAGE;
			continue;
		}
		printf("%-16s %s", name, s.kind == SPEC_CB ? "cb:" : s.kind == SPEC_HUB ? "hub:" : s.kind == SPEC_DXP ? "dxp:" : "pdnkit");
		printf("%s%s", s.kind == SPEC_PDNKIT && *s.target ? ":" : "", cli_safe_text(s.target, safe, sizeof safe));
		for (int k = 0; k < s.nparams; k++)
			printf("%s%s=%s", k ? "," : " (", s.key[k], cli_safe_text(s.value[k], safe, sizeof safe));
		printf("%s\n", s.nparams ? ")" : "");
	}
out:
	poptFreeContext(ctx);
	free(file);
	return rc;
}

int cmd_engines(int argc, const char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, const char **);
		const char *summary;
	} subs[] = {
		{ "check", check, "start an engine, print its name and parameters, have it play one move" },
		{ "list", list, "the engines of the engines file" },
	};
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: pdnkit engines <check|list> [options]\n\n");
		for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
			fprintf(f, "  %-8s %s\n", subs[i].name, subs[i].summary);
		fprintf(f, "\nSPEC: pdnkit[:OPTIONS], cb:LIB.so[,key=value...], hub:COMMAND [ARGS], or a name of the engines file.\n"
			   "'pdnkit engines <subcommand> --help' for its options; man pdnkit-engines.\n");
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (!strcmp(argv[1], subs[i].name)) {
			static char name[32], full[48];
			snprintf(name, sizeof name, "engines %s", subs[i].name);
			snprintf(full, sizeof full, "pdnkit %s", name);
			cli_command = name;
			argv[1] = full;
			return subs[i].fn(argc - 1, argv + 1);
		}
	cli_error("'%s' is not an engines subcommand (check, list)", argv[1]);
	const char *names[] = { "check", "list" };
	cli_did_you_mean(argv[1], names, 2);
	return EXIT_USAGE;
}
