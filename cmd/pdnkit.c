/* main(): dispatches "pdnkit <command> [options] [args]" through the table of commands. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "egdb_opts.h"

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "validate", cmd_validate, "replay every game of PDN files and report what is wrong" },
	{ "convert", cmd_convert, "rewrite PDN as canonical PDN 3.0 or JSON, optionally fixing moves" },
	{ "import", cmd_import, "store PDN files in the indexed SQLite database" },
	{ "query", cmd_query, "find stored games by player, event, date, result, opening or position" },
	{ "export", cmd_export, "write stored games as PDN" },
	{ "stats", cmd_stats, "summarise stored games: results, openings, players, an opening explorer" },
	{ "players", cmd_players, "the players of the store, their spellings, probable aliases; apply an alias file" },
	{ "analyze", cmd_analyze, "search a position: each iteration's score and best line, then the best move" },
	{ "bench", cmd_bench, "search fixed positions to fixed depths: node signature and speed" },
	{ "match", cmd_match, "engine against engine (pdnkit, CheckerBoard, Hub) over an opening deck; Elo, SPRT, faults" },
	{ "selfplay", cmd_selfplay, "games of the engine against itself for training: random openings, sharded, resumable" },
	{ "solve", cmd_solve, "judge problem positions whose result is known: how many right, which missed" },
	{ "annotate", cmd_annotate, "score every move of games with the engine; mark blunders, mistakes, only moves" },
	{ "blunders", cmd_blunders, "the worst moves of the annotated games in a database" },
	{ "turns", cmd_turns, "where each decided game turned, from the engines' scores its moves carry" },
	{ "book", cmd_book, "opening books: build from games, probe, dump, stats, expand by the engine" },
	{ "egdb", cmd_egdb, "endgame databases: build by retrograde analysis, probe, stats, verify" },
	{ "diagram", cmd_diagram, "a board diagram of a position or a game's ply, as SVG or as text" },
	{ "report", cmd_report, "annotated games as one HTML page: graphs, classed moves, diagrams of the mistakes" },
	{ "serve", cmd_serve, "the store in a browser: games, a board, the opening explorer, players, analysis; a JSON API" },
	{ "play", cmd_play, "play a game against the engine in the terminal: levels, clock, hints, take-backs, PDN" },
	{ "engine", cmd_engine, "the engine for other programs: the Hub protocol on standard input and output" },
	{ "engines", cmd_engines, "other engines pdnkit can drive: check one (name, parameters, a move), list the engines file" },
	{ "tune", cmd_tune, "fit the evaluation weights to game results (logistic regression)" },
	{ "train", cmd_train, "learn the pattern evaluation from game results (logistic regression, held-out loss)" },
	{ "perft", cmd_perft, "count the leaves of the legal move tree (proves the move generator)" },
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static void list_commands(FILE *f)
{
	fprintf(f, "usage: pdnkit <command> [options] [args]\n"
		   "       pdnkit help <command> | pdnkit <command> --help\n"
		   "       pdnkit --version\n\n"
		   "pdnkit reads, validates, stores, analyses and builds opening books from\n"
		   "draughts games in PDN: English draughts (checkers), and International,\n"
		   "Russian, Brazilian, Frisian, Canadian and the other variants PDN records\n"
		   "(--variant NAME, or the games' GameType tag).\n\ncommands:\n");
	for (int i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'man pdnkit' and 'man pdnkit-<command>' for the whole story.\n");
}

static const struct command *find_command(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "pdnkit: '%s' is not a pdnkit command. See 'pdnkit --help'.\n", name);
	for (int i = 0; i < NCOMMANDS; i++)
		if (cli_distance(name, commands[i].name) <= 2)
			fprintf(stderr, "pdnkit: did you mean '%s'?\n", commands[i].name);
	return EXIT_USAGE;
}

static int run(const struct command *c, int argc, const char **argv)
{
	/* argv[0] becomes "pdnkit <command>" so that popt's usage lines read naturally. */
	char name[64];
	snprintf(name, sizeof name, "pdnkit %s", c->name);
	const char **args = malloc(sizeof *args * (size_t)(argc + 1));
	if (!args) {
		fprintf(stderr, "pdnkit: out of memory\n");
		return EXIT_RUNTIME;
	}
	args[0] = name;
	for (int i = 1; i < argc; i++)
		args[i] = argv[i];
	args[argc] = NULL;
	cli_command = c->name;
	int rc = c->fn(argc, args);
	free(args);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc != EXIT_RUNTIME)          /* else the command has said what failed */
			cli_error("error writing standard output");
		return EXIT_RUNTIME;
	}
	return rc;
}

int main(int argc, char **argv)
{
	/* A file-size limit (ulimit -f) makes a write fail with EFBIG, reported like a full
	 * disk, instead of killing the program in the middle of a transaction. */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		list_commands(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("pdnkit %s\n", PK_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			list_commands(stdout);
			return EXIT_OK;
		}
		const struct command *c = find_command(argv[2]);
		if (!c)
			return unknown_command(argv[2]);
		const char *help_argv[] = { argv[2], "--help", NULL };
		return run(c, 2, help_argv);
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "pdnkit: unknown option '%s'. See 'pdnkit --help'.\n", argv[1]);
		return EXIT_USAGE;
	}
	const struct command *c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	egdb_variants_option(NULL);
	return run(c, argc - 1, (const char **)argv + 1);
}
