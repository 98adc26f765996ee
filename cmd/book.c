/* pdnkit book: build opening books from games, probe them, dump them, measure them,
 * and grow one by the engine itself. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "analysis/expand.h"
#include "book/book.h"
#include "store/games.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	bool ok = fwrite(buf, 1, len, f) == len;
	if (fclose(f) != 0 || !ok) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void print_info(const pk_book_info *in, bool json, double seconds, long games)
{
	double tree_bpm = in->moves ? 8.0 * (double)in->tree_bytes / (double)in->moves : 0;
	double stats_bpm = in->moves ? 8.0 * (double)in->stats_bytes / (double)in->moves : 0;
	double uniform = in->moves ? in->uniform_bits / (double)in->moves : 0;
	double ordinal = in->moves ? in->ordinal_bits / (double)in->moves : 0;
	if (json) {
		printf("{\"positions\":%ld,\"moves\":%ld,\"links\":%ld,\"forced\":%ld,\"plies\":%d,\"depth\":%d,\"bytes\":%zu,"
		       "\"tree_bytes\":%zu,\"stats_bytes\":%zu,\"header_bytes\":%zu,\"bits_per_move\":%.3f,"
		       "\"stats_bits_per_move\":%.3f,\"uniform_bits_per_move\":%.3f,\"ordinal_bits_per_move\":%.3f,"
		       "\"positions_with_moves\":%ld,\"root\":",
		       in->positions, in->moves, in->links, in->forced, in->plies, in->max_ply, in->bytes, in->tree_bytes,
		       in->stats_bytes, in->header_bytes, tree_bpm, stats_bpm, uniform, ordinal, in->inner);
		json_string(stdout, in->root_fen);
		if (games >= 0)
			printf(",\"games\":%ld", games);
		if (seconds >= 0)
			printf(",\"seconds\":%.3f", seconds);
		printf("}\n");
		return;
	}
	printf("root          %s\n", in->root_fen);
	if (games >= 0)
		printf("games         %ld reached the root\n", games);
	printf("positions     %ld, %ld with book moves (depth %d; built to %d plies)\n", in->positions, in->inner,
	       in->max_ply, in->plies);
	printf("moves         %ld (%ld into a position stored elsewhere: transpositions; %ld forced)\n", in->moves,
	       in->links, in->forced);
	printf("bytes         %zu: header %zu, tree %zu, statistics %zu\n", in->bytes, in->header_bytes, in->tree_bytes,
	       in->stats_bytes);
	printf("tree          %.3f bits a move (shape, moves and transpositions)\n", tree_bpm);
	printf("  for scale   %.3f bits a move to choose each position's book moves uniformly among its legal\n"
	       "              moves; %.3f for each move's ordinal alone (log2 of the legal moves)\n", uniform, ordinal);
	printf("statistics    %.3f bits a move (games, Black wins, draws, White wins%s)\n", stats_bpm,
	       in->scores ? ", engine scores" : "");
	if (seconds >= 0)
		printf("time          %.2f s\n", seconds);
}

/* ---- build ------------------------------------------------------------------------ */

static bool contains_nocase(const char *hay, const char *needle)
{
	if (!hay)
		return false;
	size_t n = strlen(needle);
	for (const char *p = hay; *p; p++)
		if (strncasecmp(p, needle, n) == 0)
			return true;
	return n == 0;
}

static int book_build(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *out = NULL, *plies = NULL, *min_games = NULL, *min_score = NULL, *side = NULL, *players = NULL, *fen = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games, from --db:", NULL },
		{ "plies", 0, POPT_ARG_STRING, &plies, 0, "the first N plies of each game (default 40)", "N" },
		{ "min-games", 0, POPT_ARG_STRING, &min_games, 0, "only moves played in at least K games", "K" },
		{ "min-score", 0, POPT_ARG_STRING, &min_score, 0, "only moves that scored at least S (0..1) for the side that played them", "S" },
		{ "side", 0, POPT_ARG_STRING, &side, 0, "apply --min-score to this side's moves only (black or white)", "SIDE" },
		{ "players", 0, POPT_ARG_STRING, &players, 0, "only games where NAME played (either colour)", "NAME" },
		{ "fen", 0, POPT_ARG_STRING, &fen, 0, "root the book at this position (default: the start)", "FEN" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "the book file to write", "FILE.book" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the summary as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] -o FILE.book (FILE... | --db PATH [filters])");
	int rc = cli_parse_options(ctx);
	pk_bookb *b = NULL;
	pk_store *st = NULL;
	pk_games *it = NULL;
	uint8_t *buf = NULL;
	if (rc)
		goto out;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	rc = EXIT_USAGE;
	if (!out) {
		cli_error("no output: give -o FILE.book");
		goto out;
	}
	bool use_db = fa.db || nfiles == 0;
	if (fa.db && nfiles) {
		cli_error("give FILEs or --db, not both");
		goto out;
	}
	long np = 40, mg = 0;
	double ms = 0;
	if ((plies && cli_int(plies, 1, 1000, "--plies", &np)) || (min_games && cli_int(min_games, 1, 100000000, "--min-games", &mg)))
		goto out;
	if (min_score) {
		char *end;
		ms = strtod(min_score, &end);
		if (*end || ms < 0 || ms > 1) {
			cli_error("--min-score must be a number from 0 to 1, not '%s'", min_score);
			goto out;
		}
	}
	pk_book_filter bf = { .min_games = (int)mg, .min_score = ms, .side = -1 };
	if (side) {
		if (!strcasecmp(side, "black"))
			bf.side = PK_BLACK;
		else if (!strcasecmp(side, "white"))
			bf.side = PK_WHITE;
		else {
			cli_error("--side must be black or white, not '%s'", side);
			goto out;
		}
	}
	pk_pos root;
	pos_start(&root);
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), &root, &fe) < 0) {
			cli_error("bad --fen at column %zu: %s", fe.offset + 1, fe.msg);
			goto out;
		}
	}
	if (players) {
		if (fa.player) {
			cli_error("--players and --player mean the same: give one");
			goto out;
		}
		fa.player = strdup(players);
	}
	pk_filter f;
	if ((rc = filter_resolve(&fa, &f)) != 0)
		goto out;
	rc = EXIT_RUNTIME;
	if (!(b = bookb_new(&root, (int)np))) {
		cli_error("out of memory");
		goto out;
	}
	double t0 = cli_now();
	if (!use_db && (fa.black || fa.white || fa.event || fa.site || fa.result || fa.date_to || fa.opening ||
			fa.position || fa.after || fa.invalid || fa.min_plies || fa.max_plies || fa.order || fa.limit)) {
		cli_error("with FILEs only --players and --date-from select games (import them for the other filters)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (use_db && !(st = db_open(&fa, false)))
		goto out;
	pk_source src = { .files = files, .nfiles = nfiles, .store = st, .filter = &f };
	char err[600];
	if (!(it = games_open(&src, err, sizeof err))) {
		cli_error("%s", err);
		goto out;
	}
	long n = 0;
	int unreadable = 0;
	for (;;) {
		pk_game *g;
		pk_replay *rp;
		int got = games_next(it, &g, &rp);
		if (got == GAMES_END)
			break;
		if (got == GAMES_ERROR) {
			cli_progress_done();
			cli_error("%s", games_error(it));
			unreadable++;
			continue;
		}
		if (got == GAMES_FATAL) {
			cli_error("%s", games_error(it));
			goto out;
		}
		n++;
		/* Files are not filtered by the store: the two filters that make sense for them. */
		if (!use_db && f.player && !contains_nocase(game_tag(g, "Black"), f.player) &&
		    !contains_nocase(game_tag(g, "White"), f.player))
			continue;
		if (!use_db && f.date_from && store_date_key(game_tag(g, "Date")) < f.date_from)
			continue;
		if (rp->supported && bookb_add_game(b, rp, rp->result) < 0) {
			cli_error("out of memory");
			goto out;
		}
		uint64_t done, total;
		games_progress(it, &done, &total);
		cli_progress("book build", n, use_db ? 0 : done);
	}
	cli_progress_done();
	if (unreadable)
		goto out;
	size_t len;
	pk_book_info info;
	int erc = bookb_encode(b, &bf, &buf, &len, &info);
	if (erc < 0) {
		cli_error("%s", erc == -2 ? "the tree is deeper than 1024 plies" : "out of memory");
		goto out;
	}
	if (write_file(out, buf, len) < 0)
		goto out;
	print_info(&info, json, cli_now() - t0, bookb_games(b));
	if (bookb_games(b) == 0)
		cli_warning("no game reached the root position: the book is empty");
	rc = EXIT_OK;
out:
	free(buf);
	games_close(it);
	bookb_free(b);
	store_close(st);
	filter_args_free(&fa);
	poptFreeContext(ctx);
	free(out);
	free(plies);
	free(min_games);
	free(min_score);
	free(side);
	free(players);
	free(fen);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- probe ------------------------------------------------------------------------ */

static pk_book *open_book_arg(poptContext ctx, const char **path)
{
	int n;
	const char **args = cli_args(ctx, &n);
	if (n != 1) {
		cli_error(n ? "one book file, please (got %d arguments)" : "no book file given", n);
		return NULL;
	}
	*path = args[0];
	char err[400];
	pk_book *bk = book_open(args[0], err, sizeof err);
	if (!bk)
		cli_error("%s", err);
	return bk;
}

static void score_text(int s, char *buf, size_t size)
{
	if (s == BOOK_NO_SCORE)
		snprintf(buf, size, "-");
	else if (s >= 29000 || s <= -29000)
		snprintf(buf, size, "%s in %d", s > 0 ? "win" : "loss", s > 0 ? 30000 - s : 30000 + s);
	else
		snprintf(buf, size, "%+.2f", s / 100.0);
}

static int book_probe_cmd(int argc, const char **argv)
{
	char *fen = NULL, *moves = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "the position (default: the book's root)", "FEN" },
		{ "moves", 'm', POPT_ARG_STRING, &moves, 0, "or the position after these moves from the start", "\"11-15 23-19 ...\"" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.book");
	int rc = cli_parse_options(ctx);
	pk_book *bk = NULL;
	uint64_t *keys = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	pk_pos p;
	pk_history h;
	bool given;
	if (position_option(fen, moves, &p, &keys, &h, &given) < 0)
		goto out;
	int nargs;
	cli_args(ctx, &nargs);
	const char *path;
	if (!(bk = open_book_arg(ctx, &path))) {
		rc = nargs == 1 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	if (!given)
		p = *book_root(bk);
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(bk, &p, mv, PK_MAX_MOVES);
	char f[PK_FEN_STRLEN];
	fen_format(&p, f, sizeof f);
	if (json) {
		printf("{\"fen\":");
		json_string(stdout, f);
		printf(",\"moves\":[");
		for (int i = 0; i < n; i++) {
			char m[PK_MOVE_STRLEN];
			pdn_move_string(&p, &mv[i].move, false, m);
			printf("%s{\"move\":", i ? "," : "");
			json_string(stdout, m);
			printf(",\"games\":%u,\"black_wins\":%u,\"draws\":%u,\"white_wins\":%u", mv[i].games, mv[i].black_wins,
			       mv[i].draws, mv[i].white_wins);
			if (mv[i].score != BOOK_NO_SCORE)
				printf(",\"score\":%d", mv[i].score);
			printf("}");
		}
		printf("]}\n");
	} else if (n == 0) {
		printf("%s: not in the book\n", f);
	} else {
		printf("%s\n%-10s %8s %8s %8s %8s %8s %10s\n", f, "move", "games", "black", "draws", "white", "score%", "engine");
		for (int i = 0; i < n; i++) {
			char m[PK_MOVE_STRLEN], s[32];
			pdn_move_string(&p, &mv[i].move, false, m);
			score_text(mv[i].score, s, sizeof s);
			uint32_t known = mv[i].black_wins + mv[i].draws + mv[i].white_wins;
			double mover = p.stm == PK_BLACK ? mv[i].black_wins : mv[i].white_wins;
			if (known)
				printf("%-10s %8u %8u %8u %8u %7.1f%% %10s\n", m, mv[i].games, mv[i].black_wins, mv[i].draws,
				       mv[i].white_wins, 100.0 * (mover + 0.5 * mv[i].draws) / known, s);
			else
				printf("%-10s %8u %8u %8u %8u %8s %10s\n", m, mv[i].games, mv[i].black_wins, mv[i].draws,
				       mv[i].white_wins, "-", s);
		}
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	free(keys);
	poptFreeContext(ctx);
	free(fen);
	free(moves);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- dump ------------------------------------------------------------------------- */

static int dump_text_enter(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	(void)ctx;
	char mv[PK_MOVE_STRLEN], s[32];
	pdn_move_string(before, &m->move, false, mv);
	score_text(m->score, s, sizeof s);
	char num[24];
	movenum_token(movenum_at(1, before->stm ^ (ply & 1), ply), before->stm, true, num, sizeof num);
	printf("%*s%s %s  %u games (%u-%u-%u)%s%s%s\n", 2 * ply, "", num, mv,
	       m->games, m->black_wins, m->draws, m->white_wins, m->score != BOOK_NO_SCORE ? "  " : "",
	       m->score != BOOK_NO_SCORE ? s : "", transposes ? "  (transposes: continued above)" : "");
	return ferror(stdout) ? -1 : 0;
}

static int stdout_sink(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	return fwrite(buf, 1, len, stdout) == len ? 0 : -1;
}

static int book_dump(int argc, const char **argv)
{
	char *format = NULL;
	struct poptOption opts[] = {
		{ "format", 'f', POPT_ARG_STRING, &format, 0, "text (indented, the default) or pdn (one game with variations)", "FMT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.book");
	int rc = cli_parse_options(ctx);
	pk_book *bk = NULL;
	if (rc)
		goto out;
	bool pdn = false;
	if (format && !strcmp(format, "pdn"))
		pdn = true;
	else if (format && strcmp(format, "text")) {
		cli_error("--format must be text or pdn, not '%s'", format);
		rc = EXIT_USAGE;
		goto out;
	}
	const char *path;
	if (!(bk = open_book_arg(ctx, &path))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (pdn) {
		char event[600];
		snprintf(event, sizeof event, "opening book %s", path);
		rc = book_write_pdn(bk, event, stdout_sink, NULL);
	} else {
		rc = book_walk(bk, dump_text_enter, NULL);
	}
	if (fflush(stdout) != 0 || rc < 0) {
		cli_error("cannot write the dump");
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	poptFreeContext(ctx);
	free(format);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- stats ------------------------------------------------------------------------ */

/* For --measure: every position with book moves, and the text dump in memory. */
typedef struct {
	pk_pos *pos;
	size_t n, cap;
	char *text;
	size_t len, tcap;
	bool oom;
} measure_ctx;

static void text_add(measure_ctx *m, const char *s, size_t n)
{
	if (m->len + n + 1 > m->tcap) {
		size_t cap = m->tcap ? m->tcap * 2 : 1 << 20;
		while (cap < m->len + n + 1)
			cap *= 2;
		char *nt = realloc(m->text, cap);
		if (!nt) {
			m->oom = true;
			return;
		}
		m->text = nt;
		m->tcap = cap;
	}
	memcpy(m->text + m->len, s, n);
	m->len += n;
}

static int measure_enter(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	measure_ctx *mc = ctx;
	if (mc->n == 0 || mc->pos[mc->n - 1].key != before->key) {   /* duplicates are removed later */
		if (mc->n == mc->cap) {
			size_t cap = mc->cap ? mc->cap * 2 : 4096;
			pk_pos *np = realloc(mc->pos, sizeof *np * cap);
			if (!np)
				return -1;
			mc->pos = np;
			mc->cap = cap;
		}
		mc->pos[mc->n++] = *before;
	}
	/* the content as text: the indented dump's lines */
	char mv[PK_MOVE_STRLEN], line[160];
	pdn_move_string(before, &m->move, false, mv);
	int n = snprintf(line, sizeof line, "%*s%s %u %u %u %u%s\n", ply, "", mv, m->games, m->black_wins, m->draws,
			 m->white_wins, transposes ? " t" : "");
	text_add(mc, line, (size_t)n);
	return mc->oom ? -1 : 0;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const pk_pos *)a)->key, y = ((const pk_pos *)b)->key;
	return x < y ? -1 : x > y;
}

static int book_stats(int argc, const char **argv)
{
	int json = 0, measure = 0;
	struct poptOption opts[] = {
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "one JSON object", NULL },
		{ "measure", 0, POPT_ARG_NONE, &measure, 0, "time a probe of every position, and compare with the content as zstd-compressed text", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE.book");
	int rc = cli_parse_options(ctx);
	pk_book *bk = NULL;
	if (rc)
		goto out;
	const char *path;
	double t0 = cli_now();
	if (!(bk = open_book_arg(ctx, &path))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	double load = cli_now() - t0;
	pk_book_info in;
	book_info(bk, &in);
	if (!measure || !json)
		print_info(&in, json, -1, -1);
	if (!json)
		printf("load          %.3f s (checked and decoded)\n", load);
	if (measure) {
		measure_ctx mc = { 0 };
		if (book_walk(bk, measure_enter, &mc) < 0 || mc.oom) {
			cli_error("out of memory");
			free(mc.pos);
			free(mc.text);
			rc = EXIT_RUNTIME;
			goto out;
		}
		/* probes: every position with moves once, several rounds */
		qsort(mc.pos, mc.n, sizeof *mc.pos, by_key);
		size_t u = 0;
		for (size_t i = 0; i < mc.n; i++)
			if (u == 0 || mc.pos[u - 1].key != mc.pos[i].key)
				mc.pos[u++] = mc.pos[i];
		mc.n = u;
		pk_book_move mv[PK_MAX_MOVES];
		long found = 0;
		int rounds = mc.n < 100000 ? 5 : 1;
		double t1 = cli_now();
		for (int r = 0; r < rounds; r++)
			for (size_t i = 0; i < mc.n; i++)
				found += book_probe(bk, &mc.pos[i], mv, PK_MAX_MOVES) > 0;
		double us = mc.n ? (cli_now() - t1) * 1e6 / ((double)mc.n * rounds) : 0;
		size_t z = zio_compressed_size(mc.text, mc.len, 19);
		double zbpm = in.moves ? 8.0 * (double)z / (double)in.moves : 0;
		double fbpm = in.moves ? 8.0 * (double)(in.tree_bytes + in.stats_bytes) / (double)in.moves : 0;
		if (json)
			printf("{\"positions\":%ld,\"moves\":%ld,\"bytes\":%zu,\"bits_per_move\":%.3f,\"stats_bits_per_move\":%.3f,"
			       "\"probe_us\":%.3f,\"probes\":%zu,\"load_seconds\":%.3f,\"text_bytes\":%zu,\"text_zstd_bytes\":%zu,"
			       "\"text_zstd_bits_per_move\":%.3f,\"book_bits_per_move\":%.3f}\n",
			       in.positions, in.moves, in.bytes, in.moves ? 8.0 * (double)in.tree_bytes / (double)in.moves : 0,
			       in.moves ? 8.0 * (double)in.stats_bytes / (double)in.moves : 0, us, mc.n, load, mc.len, z, zbpm,
			       fbpm);
		else {
			printf("probe         %.3f us a position (%zu positions with moves, %d round%s; %ld found)\n", us, mc.n,
			       rounds, rounds > 1 ? "s" : "", found);
			printf("as text       %zu bytes (the indented dump: move, games, results); zstd -19: %zu bytes =\n"
			       "              %.2f bits a move for tree and statistics together, against %.2f in this file\n",
			       mc.len, z, zbpm, fbpm);
		}
		free(mc.pos);
		free(mc.text);
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	poptFreeContext(ctx);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- the command ------------------------------------------------------------------- */

static int book_expand(int argc, const char **argv);

static const struct {
	const char *name;
	int (*fn)(int, const char **);
	const char *summary;
} subs[] = {
	{ "build", book_build, "build a book from PDN files or the store" },
	{ "probe", book_probe_cmd, "the book moves of a position, with games, results and scores" },
	{ "dump", book_dump, "the whole tree, as indented text or one PDN game with variations" },
	{ "stats", book_stats, "positions, moves, bytes and bits per move" },
	{ "expand", book_expand, "grow a book by the engine (drop-out expansion)" },
};

int cmd_book(int argc, const char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: pdnkit book <build|probe|dump|stats|expand> [options]\n\n");
		for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
			fprintf(f, "  %-8s %s\n", subs[i].name, subs[i].summary);
		fprintf(f, "\n'pdnkit book <subcommand> --help' for its options; man pdnkit-book.\n");
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (!strcmp(argv[1], subs[i].name)) {
			static char name[32];
			snprintf(name, sizeof name, "book %s", subs[i].name);
			cli_command = name;
			return subs[i].fn(argc - 1, argv + 1);
		}
	cli_error("'%s' is not a book subcommand (build, probe, dump, stats, expand)", argv[1]);
	return EXIT_USAGE;
}

/* ---- expand ----------------------------------------------------------------------- */

static void on_step(void *ctx, const pk_expand_step *st)
{
	(void)ctx;
	char f[PK_FEN_STRLEN], m[PK_MOVE_STRLEN];
	fen_format(st->pos, f, sizeof f);
	fprintf(stderr, "%5ld  ply %2d  priority %4ld  %s:", st->searched, st->ply, st->priority, f);
	for (int j = 0; j < st->n; j++) {
		pdn_move_string(st->pos, &st->moves[j], false, m);
		fprintf(stderr, " %s (%+d)", m, st->scores[j]);
	}
	fputc('\n', stderr);
}

static int book_expand(int argc, const char **argv)
{
	char *eopts = NULL, *positions = NULL, *margin = NULL, *width = NULL, *dropout = NULL, *out = NULL, *fen = NULL;
	int json = 0, quiet = 0;
	struct poptOption opts[] = {
		{ "engine-options", 'e', POPT_ARG_STRING, &eopts, 0, "the engine's limits and weights (default \"--depth 10\")", "\"OPTIONS\"" },
		{ "positions", 'n', POPT_ARG_STRING, &positions, 0, "positions to search (default 200)", "N" },
		{ "margin", 0, POPT_ARG_STRING, &margin, 0, "also keep moves within CP of the best (default 15)", "CP" },
		{ "width", 0, POPT_ARG_STRING, &width, 0, "at most K book moves a position (default 3)", "K" },
		{ "dropout", 0, POPT_ARG_STRING, &dropout, 0, "cost of a ply against a lost hundredth of a man (default 10)", "CP" },
		{ "fen", 0, POPT_ARG_STRING, &fen, 0, "grow from this position (default: the start)", "FEN" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "the book file to write", "FILE.book" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no line per position searched", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the summary as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] -o FILE.book");
	int rc = cli_parse_options(ctx);
	engine_args ea;
	engine_args_init(&ea);
	pk_engine *e = NULL;
	pk_bookb *b = NULL;
	uint8_t *buf = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	int nargs;
	const char **args = cli_args(ctx, &nargs);
	if (nargs) {
		cli_error("unexpected argument '%s'", args[0]);
		goto out;
	}
	if (!out) {
		cli_error("no output: give -o FILE.book");
		goto out;
	}
	long npos = 200, mg = 15, wd = 3, dw = 10;
	if ((positions && cli_int(positions, 1, 1000000, "--positions", &npos)) ||
	    (margin && cli_int(margin, 0, 10000, "--margin", &mg)) || (width && cli_int(width, 1, 32, "--width", &wd)) ||
	    (dropout && cli_int(dropout, 0, 10000, "--dropout", &dw)))
		goto out;
	if (engine_args_from_string("--engine-options", eopts ? eopts : "--depth 10", NULL, &ea) < 0)
		goto out;
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level)
		ea.depth = strdup("10");
	pk_limits lim;
	if (engine_args_resolve(&ea, &lim))
		goto out;
	pk_pos root;
	pos_start(&root);
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), &root, &fe) < 0) {
			cli_error("bad --fen at column %zu: %s", fe.offset + 1, fe.msg);
			goto out;
		}
	}
	rc = EXIT_RUNTIME;
	if (!(e = engine_from_args(&ea)) || !(b = bookb_new(&root, 1000))) {
		cli_error("out of memory");
		goto out;
	}
	double t0 = cli_now();
	pk_expand_opts xo = { .lim = lim, .positions = npos, .margin = (int)mg, .width = (int)wd, .dropout = (int)dw,
			      .on_step = quiet || json ? NULL : on_step };
	if (expand_book(e, b, &root, &xo) < 0) {
		cli_error("out of memory");
		goto out;
	}
	size_t len;
	pk_book_filter none = { .side = -1 };
	pk_book_info info;
	if (bookb_encode(b, &none, &buf, &len, &info) < 0) {
		cli_error("out of memory");
		goto out;
	}
	if (write_file(out, buf, len) < 0)
		goto out;
	print_info(&info, json, cli_now() - t0, -1);
	rc = EXIT_OK;
out:
	free(buf);
	bookb_free(b);
	engine_free(e);
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(eopts);
	free(positions);
	free(margin);
	free(width);
	free(dropout);
	free(out);
	free(fen);
	return rc < 0 ? EXIT_OK : rc;
}
