/* What every command file shares: exit codes, messages in the "pdnkit CMD: ..." form,
 * popt handling with usage errors that name the offending option, and JSON output. */
#ifndef PK_CLI_H
#define PK_CLI_H

#include <popt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "rules/variant.h"

enum {
	EXIT_OK = 0,        /* all good */
	EXIT_FINDINGS = 1,  /* the input has problems */
	EXIT_USAGE = 2,     /* bad command line */
	EXIT_RUNTIME = 3,   /* I/O, database, memory */
};

/* Set by main(): the command being run, for message prefixes. */
extern const char *cli_command;

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse every option of ctx. Returns -1 after --help/--usage (exit 0 wanted),
 * EXIT_USAGE after printing a message naming a bad option, else 0. */
int cli_parse_options(poptContext ctx, const struct poptOption *opts);
/* poptGetNextOpt to the end (its last status); a string option given twice keeps the
 * last value and the first is freed. For option strings parsed outside the command
 * line; cli_parse_options uses it. */
int cli_popt_parse(poptContext ctx, const struct poptOption *opts);

/* Remaining positional arguments, NULL-terminated (owned by ctx). */
const char **cli_args(poptContext ctx, int *count);
/* For commands that take no arguments: -1 after saying which one was unexpected (with
 * hint in parentheses when not NULL). */
int cli_no_args(poptContext ctx, const char *hint);

/* Output files are written whole or not at all (pdn/zio: beside themselves, then
 * renamed). cli_write_file writes a buffer; cli_text_begin gives a stream to print a text
 * into, and cli_text_commit writes it to path. -1 after saying what failed. */
int cli_write_file(const char *path, const void *buf, size_t len);
/* Whether path can be written, said before a long computation rather than after it: an
 * existing file we may write, or a new one in a directory we may write ("-" and NULL
 * pass). -1 after saying why. */
int cli_check_output(const char *path);
/* Sinks for the core's writers (pdn_write, report, diagram, book dump): ctx is a pk_out
 * (pdn/zio), or a FILE. */
int cli_sink_out(void *ctx, const char *buf, size_t len);
int cli_sink_file(void *ctx, const char *buf, size_t len);
/* An output path as messages name it: "'out.pdn'", or "standard output" for "-". */
const char *cli_out_name(const char *path);
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
} cli_text;
FILE *cli_text_begin(cli_text *t);
int cli_text_commit(cli_text *t, const char *path);

/* Parse a whole decimal integer in [lo, hi] for option `what`; prints a usage error. */
int cli_int(const char *s, long lo, long hi, const char *what, long *out);
/* A decimal number (digits and at most one point) from lo to hi, or EXIT_USAGE after
 * saying what is wrong. */
int cli_number(const char *s, double lo, double hi, const char *what, double *out);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* JSON string literal, escaped, quotes included. */
void json_string(FILE *f, const char *s);
/* Levenshtein distance (99 for words over 32 bytes); the names within two edits of
 * given, said as "did you mean" lines on stderr. */
int cli_distance(const char *a, const char *b);
void cli_did_you_mean(const char *given, const char *const *names, int n);
/* s for a terminal: invalid bytes, controls (ESC, C1) and bidirectional overrides as
 * U+FFFD; into buf (cut to fit), which is returned. */
const char *cli_safe_text(const char *s, char *buf, size_t size);
/* json_escape (s as a JSON string through a callback) is in base/json.h. */
#include "base/json.h"
/* A table cell: s (or "-") in w characters, UTF-8 aware, a cut marked with '~'; padded
 * unless last. */
void cli_cell(FILE *f, const char *s, int w, bool last);

/* Whether stderr is a terminal (progress is shown only there). */
bool cli_stderr_is_tty(void);
/* A long command's stop: SIGINT, SIGTERM (and with hangup SIGHUP) set cli_interrupted
 * to the signal's number, which the command passes on as its stop flag; it then keeps
 * or writes what is finished, says "interrupted after ...", and exits 128 + it. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_signals(bool hangup);

/* Progress on stderr, at most a few times a second, only on a terminal:
 * "validate: 12345 games, 6.1 MB, 98000 games/s". cli_progress_done() clears it. */
void cli_progress(const char *what, long games, unsigned long long bytes);
/* The size of the file being read, for an ETA (0: unknown, e.g. stdin or zstd). */
void cli_progress_total(unsigned long long bytes);
void cli_progress_done(void);
/* cli_progress for a walk over games: the file's size is taken as the total whenever
 * the walk starts a new file. */
struct pk_games;
void cli_games_progress(const char *what, struct pk_games *it, long games);
/* games_open, saying why it failed. */
#include "store/games.h"
pk_games *cli_games_open(const pk_source *src);
/* games_next, saying what could not be read (the walk goes on: *unreadable is set):
 * GAMES_GAME, GAMES_END, or GAMES_FATAL (said, stop). */
int cli_next_game(pk_games *it, pk_game **g, pk_replay **rp, bool *unreadable);
/* The game numbered want (from 1) of file, replayed, into g and rp (initialised by the
 * caller). 0, or EXIT_USAGE / EXIT_RUNTIME after saying what is wrong. */
int cli_load_game(const char *file, long want, pk_game *g, pk_replay *rp);
/* The variant named by --variant (a name or a GameType), implemented; NULL after
 * saying what is wrong. */
const pk_variant *cli_variant(const char *name);
/* That variant and its start, or the position of fen in it: 0, or -1 after saying what
 * is wrong (unknown, not implemented, a bad FEN). */
int cli_variant_position(const char *name, const char *fen, const pk_variant **v, pk_vpos *p);

/* A search's score of a position whose side to move is side, as pdnkit(1) says scores:
 * "+0.35 for White" (men, that side's view), "Black wins in 7" (a win found, in plies). */
void cli_score_text(int score, int side, char *buf, size_t size);

#endif
