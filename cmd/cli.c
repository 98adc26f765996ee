/* Helpers shared by the command files. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/json.h"
#include "engine/search.h"
#include "cli.h"
#include "base/utf8.h"
#include "rules/variant.h"
#include "pdn/zio.h"
#include "store/games.h"

const char *cli_command = NULL;

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "pdnkit%s%s: %s", cli_command ? " " : "", cli_command ? cli_command : "", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void cli_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

/* Levenshtein distance, for "did you mean" on a mistyped command, subcommand or option. */
int cli_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 32 || lb > 32)
		return 99;
	int d[33][33];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return d[la][lb];
}

/* The long option of the table (and its included tables) nearest to name: at most two
 * edits away, or name a prefix of it; NULL when none is. Hidden options count. */
static const char *nearest_option(const struct poptOption *t, const char *name, int *best)
{
	const char *found = NULL;
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const char *f = nearest_option(t->arg, name, best);
			if (f)
				found = f;
			continue;
		}
		if (!t->longName)
			continue;
		int d = cli_distance(name, t->longName);
		if (strlen(name) >= 3 && !strncmp(t->longName, name, strlen(name)))
			d = d < 1 ? d : 1;
		if (d < *best) {
			*best = d;
			found = t->longName;
		}
	}
	return found;
}

void cli_did_you_mean(const char *given, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (cli_distance(given, names[i]) <= 2)
			fprintf(stderr, "pdnkit %s: did you mean '%s'?\n", cli_command, names[i]);
}

/* The first string option of the table given an empty value ("--db ''", "--fen="), or
 * NULL: an empty value is a mistake (an unset shell variable, a stray '=') in every
 * option pdnkit has. */
static const struct poptOption *empty_value(const struct poptOption *t)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *e = empty_value(t->arg);
			if (e)
				return e;
		} else if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && t->arg) {
			const char *v = *(char **)t->arg;
			if (v && !*v)
				return t;
		}
	}
	return NULL;
}

/* String options, to free a value that a repeated option replaces (popt forgets it). */
#define MARK_BASE 0x50440000
typedef struct {
	struct poptOption *o;
	char *seen;                  /* the value last seen (what the caller will free) */
	char *init;                  /* the default: never freed here */
	bool marked;                 /* val was 0 and is set for the parse */
} str_opt;

static int collect(struct poptOption *t, str_opt *v, int n, int cap)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			n = collect(t->arg, v, n, cap);
		else if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && t->arg && n < cap) {
			char *cur = *(char **)t->arg;
			v[n] = (str_opt){ t, cur, cur, t->val == 0 };
			if (t->val == 0)
				t->val = MARK_BASE + n;   /* poptGetNextOpt returns after each one */
			n++;
		}
	}
	return n;
}

int cli_popt_parse(poptContext ctx, const struct poptOption *opts)
{
	str_opt v[128];
	int n = collect((struct poptOption *)opts, v, 0, 128);
	int rc;
	while ((rc = poptGetNextOpt(ctx)) > 0 || rc >= MARK_BASE)
		for (int i = 0; i < n; i++) {
			char *cur = *(char **)v[i].o->arg;
			if (cur != v[i].seen) {
				if (v[i].seen != v[i].init)
					free(v[i].seen);        /* the option was given again */
				/* two spellings of one option (--egdb, --dir) share the variable */
				for (int j = 0; j < n; j++)
					if (v[j].o->arg == v[i].o->arg)
						v[j].seen = cur;
			}
		}
	for (int i = 0; i < n; i++)
		if (v[i].marked)
			v[i].o->val = 0;
	return rc;
}

int cli_parse_options(poptContext ctx, const struct poptOption *opts)
{
	int rc = cli_popt_parse(ctx, opts);
	if (rc < -1) {
		const char *bad = poptBadOption(ctx, POPT_BADOPTION_NOALIAS);
		cli_error("%s: %s", bad, poptStrerror(rc));
		if (rc == POPT_ERROR_BADOPT && bad && bad[0] == '-' && bad[1] == '-') {
			char name[64];
			snprintf(name, sizeof name, "%s", bad + 2);
			name[strcspn(name, "=")] = 0;
			int best = 3;
			const char *near = nearest_option(opts, name, &best);
			if (near)
				fprintf(stderr, "pdnkit %s: did you mean --%s?\n", cli_command, near);
		}
		fprintf(stderr, "Try 'pdnkit %s --help' for more information.\n", cli_command);
		return EXIT_USAGE;
	}
	const struct poptOption *e = empty_value(opts);
	if (e) {
		if (e->longName)
			cli_error("--%s: the value is empty", e->longName);
		else
			cli_error("-%c: the value is empty", e->shortName);
		return EXIT_USAGE;
	}
	return 0;
}

const char **cli_args(poptContext ctx, int *count)
{
	const char **args = poptGetArgs(ctx);
	int n = 0;
	static const char *none[] = { NULL };
	if (!args)
		args = none;
	while (args[n])
		n++;
	*count = n;
	return args;
}

int cli_int(const char *s, long lo, long hi, const char *what, long *out)
{
	char *end;
	errno = 0;
	/* strtol alone would take " 7", "+7" and skip nothing else: digits only, a minus allowed */
	bool digits = s && (isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1])));
	long v = digits ? strtol(s, &end, 10) : 0;
	if (!digits || *end || errno || v < lo || v > hi) {
		cli_error("%s must be an integer from %ld to %ld, not '%s'", what, lo, hi, s ? s : "");
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

int cli_number(const char *s, double lo, double hi, const char *what, double *out)
{
	/* Decimal only: strtod would also take hex ("0x10"), "inf", "nan" and exponents. */
	bool ok = s && *s;
	int dots = 0;
	for (const char *p = s; ok && *p; p++) {
		if (*p == '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			ok = false;
	}
	double v = ok && dots <= 1 && strcmp(s, ".") != 0 ? strtod(s, NULL) : -1;
	if (!ok || dots > 1 || !strcmp(s, ".") || v < lo || v > hi) {
		cli_error("%s must be a number from %g to %g, not '%s'", what, lo, hi, s ? s : "");
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void put_file(void *ctx, const char *p, size_t n) { fwrite(p, 1, n, ctx); }

void json_string(FILE *f, const char *s) { json_escape(s, put_file, f); }

volatile sig_atomic_t cli_interrupted;

static void on_stop_signal(int sig) { cli_interrupted = sig; }

void cli_catch_signals(bool hangup)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (hangup)
		sigaction(SIGHUP, &sa, NULL);
}

bool cli_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}

static double progress_start, progress_last, progress_file_start;
static bool progress_shown;
static unsigned long long progress_total;

void cli_progress_total(unsigned long long bytes)
{
	progress_total = bytes;
	progress_file_start = cli_now();
}

int cli_sink_out(void *ctx, const char *buf, size_t len) { return zout_write(ctx, buf, len); }

int cli_sink_file(void *ctx, const char *buf, size_t len) { return fwrite(buf, 1, len, ctx) == len ? 0 : -1; }

const char *cli_out_name(const char *path)
{
	static _Thread_local char buf[1100];
	if (!strcmp(path, "-"))
		return "standard output";
	snprintf(buf, sizeof buf, "'%s'", path);
	return buf;
}

int cli_check_output(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return 0;
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cli_error("cannot write '%s': %s", path, strerror(EISDIR));
			return -1;
		}
		if (access(path, W_OK) != 0) {
			cli_error("cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = 0;
	else
		snprintf(dir, sizeof dir, ".");
	if (access(dir, W_OK) != 0) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cli_write_file(const char *path, const void *buf, size_t len)
{
	int err = 0;
	const char *msg = NULL;
	pk_out *o = zout_open_plain(path, &err);
	if (!o) {
		cli_error("cannot write %s: %s", cli_out_name(path), strerror(err));
		return -1;
	}
	int rc = zout_write(o, buf, len);
	if (zout_close(o, &msg) < 0 || rc < 0) {
		cli_error("cannot write %s: %s", cli_out_name(path), msg ? msg : "write error");
		return -1;
	}
	return 0;
}

FILE *cli_text_begin(cli_text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	if (!t->f)
		cli_error("out of memory");
	return t->f;
}

int cli_text_commit(cli_text *t, const char *path)
{
	bool ok = fclose(t->f) == 0;
	t->f = NULL;
	int rc = -1;
	if (!ok)
		cli_error("out of memory");
	else
		rc = cli_write_file(path, t->buf, t->len);
	free(t->buf);
	t->buf = NULL;
	return rc;
}

int cli_no_args(poptContext ctx, const char *hint)
{
	int n;
	const char **args = cli_args(ctx, &n);
	if (n == 0)
		return 0;
	if (hint)
		cli_error("unexpected argument '%s' (%s)", args[0], hint);
	else
		cli_error("unexpected argument '%s'", args[0]);
	return -1;
}

pk_games *cli_games_open(const pk_source *src)
{
	char err[600];
	pk_games *it = games_open(src, err, sizeof err);
	if (!it)
		cli_error("%s", err);
	return it;
}

int cli_next_game(pk_games *it, pk_game **g, pk_replay **rp, bool *unreadable)
{
	for (;;) {
		int got = games_next(it, g, rp);
		if (got == GAMES_GAME || got == GAMES_END)
			return got;
		cli_progress_done();
		cli_error("%s", games_error(it));
		*unreadable = true;
		if (got == GAMES_FATAL)
			return got;
	}
}

void cli_games_progress(const char *what, pk_games *it, long games)
{
	static const pk_games *last_it;
	static int last_file = -1;
	int fi = games_file_index(it);
	uint64_t done, total;
	games_progress(it, &done, &total);
	if (it != last_it || fi != last_file) {
		last_it = it;
		last_file = fi;
		cli_progress_total(total);
	}
	cli_progress(what, games, done);
}

void cli_progress(const char *what, long games, unsigned long long bytes)
{
	static int tty = -1;
	if (tty < 0)
		tty = cli_stderr_is_tty();
	if (!tty)
		return;
	double t = cli_now();
	if (progress_start == 0)
		progress_start = progress_last = t;
	if (t - progress_last < 0.25)
		return;
	progress_last = t;
	double secs = t - progress_start;
	fprintf(stderr, "\r%s: %ld games, %.1f MB, %.0f games/s", what, games, (double)bytes / 1e6,
		secs > 0 ? (double)games / secs : 0.0);
	double file_secs = t - progress_file_start;
	if (progress_total > bytes && bytes > 0 && file_secs > 0.5) {
		double eta = file_secs * (double)(progress_total - bytes) / (double)bytes;
		fprintf(stderr, ", ETA %d:%02d", (int)eta / 60, (int)eta % 60);
	}
	fputs("\033[K", stderr);
	progress_shown = true;
}

void cli_progress_done(void)
{
	if (progress_shown)
		fprintf(stderr, "\r\033[K");
	progress_shown = false;
	progress_start = 0;
}

/* The game numbered `want` of file, replayed, into g and rp. */
int cli_load_game(const char *file, long want, pk_game *g, pk_replay *rp)
{
	const char *files[1] = { file };
	pk_source src = { .files = files, .nfiles = 1 };
	pk_games *it = cli_games_open(&src);
	if (!it)
		return EXIT_RUNTIME;
	bool unreadable = false;
	pk_game *gg;
	pk_replay *rr;
	int rc = EXIT_USAGE;
	long n = 0;
	while (cli_next_game(it, &gg, &rr, &unreadable) == GAMES_GAME)
		if (++n == want) {
			games_take(it, g, rp);
			rc = 0;
			break;
		}
	if (rc && !unreadable)
		cli_error("'%s' has %ld game%s: no game %ld", file, n, n == 1 ? "" : "s", want);
	games_close(it);
	return rc ? (unreadable ? EXIT_RUNTIME : EXIT_USAGE) : 0;
}

const pk_variant *cli_variant(const char *name)
{
	const pk_variant *v = variant_by_name(name);
	if (!v) {
		cli_error("--variant: '%s' is not a variant pdnkit knows (a name such as international, or a PDN GameType)", name);
		return NULL;
	}
	if (!v->replayable) {
		cli_error("--variant: %s is not implemented yet", v->name);
		return NULL;
	}
	return v;
}

int cli_variant_position(const char *name, const char *fen, const pk_variant **v, pk_vpos *p)
{
	if (!(*v = cli_variant(name)))
		return -1;
	if (!fen) {
		vpos_start(*v, p);
		return 0;
	}
	char err[200];
	if (vfen_parse(*v, fen, p, err, sizeof err) < 0) {
		cli_error("bad FEN for %s: %s", (*v)->name, err);
		return -1;
	}
	return 0;
}

/* Copy at most w characters of s (UTF-8 aware), marking a cut with '~'. */
const char *cli_safe_text(const char *s, char *buf, size_t size)
{
	size_t n = strlen(s), k = 0;
	for (size_t i = 0, len; i < n && k + 4 < size; i += len ? len : 1) {
		uint32_t cp;
		len = utf8_char((const unsigned char *)s + i, n - i, &cp);
		if (len == 0 || utf8_is_control(cp) || utf8_is_bidi(cp)) {
			memcpy(buf + k, "\xEF\xBF\xBD", 3);
			k += 3;
		} else {
			if (k + len + 1 > size)
				break;
			memcpy(buf + k, s + i, len);
			k += len;
		}
	}
	if (size)
		buf[k] = 0;
	return buf;
}

void cli_cell(FILE *f, const char *s, int w, bool last)
{
	if (!s || !*s)
		s = "-";
	int chars = 0;
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	while (*p) {
		uint32_t cp;
		size_t len = utf8_char(p, n - (size_t)(p - (const unsigned char *)s), &cp);
		if (w > 0 && chars == w - 1 && p[len ? len : 1]) {
			fputc('~', f);
			chars++;
			break;
		}
		/* what would move the cursor, clear the screen or turn the text round is
		 * shown as U+FFFD, never sent to the terminal */
		if (len == 0 || utf8_is_control(cp) || utf8_is_bidi(cp))
			fputs("\xEF\xBF\xBD", f);
		else
			fwrite(p, 1, len, f);
		p += len ? len : 1;
		chars++;
	}
	if (!last)
		for (; chars < w; chars++)
			fputc(' ', f);
}

void cli_score_text(int score, int side, char *buf, size_t size)
{
	const char *name = side == PK_BLACK ? "Black" : "White", *other = side == PK_BLACK ? "White" : "Black";
	if (score_is_win(score))
		snprintf(buf, size, "%s wins in %d", score > 0 ? name : other, score_plies(score));
	else
		snprintf(buf, size, "%+.2f for %s", score / 100.0, name);
}
