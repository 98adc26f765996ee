/* The table of commands: adding a command means one cmd/<name>.c with its
 * cmd_<name>(), one row in commands[] (cmd/pdnkit.c), one man page, one test file. */
#ifndef PK_COMMANDS_H
#define PK_COMMANDS_H

int cmd_perft(int argc, const char **argv);
int cmd_validate(int argc, const char **argv);
int cmd_convert(int argc, const char **argv);
int cmd_import(int argc, const char **argv);
int cmd_query(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_stats(int argc, const char **argv);
int cmd_players(int argc, const char **argv);
int cmd_analyze(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_match(int argc, const char **argv);
int cmd_selfplay(int argc, const char **argv);
int cmd_solve(int argc, const char **argv);
int cmd_tune(int argc, const char **argv);
int cmd_train(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_blunders(int argc, const char **argv);
int cmd_turns(int argc, const char **argv);
int cmd_book(int argc, const char **argv);
int cmd_egdb(int argc, const char **argv);
int cmd_diagram(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_play(int argc, const char **argv);
int cmd_engine(int argc, const char **argv);
int cmd_engines(int argc, const char **argv);
int cmd_serve(int argc, const char **argv);

#endif
