/* pdnkit book: the subcommands, and what they share; probe. */
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

#include "book_cmd.h"

int book_write_file(const char *path, const uint8_t *buf, size_t len)
{
	return cli_write_file(path, buf, len);
}

void book_print_info(const pk_book_info *in, bool json, double seconds, long games)
{
	double tree_bpm = in->moves ? 8.0 * (double)in->tree_bytes / (double)in->moves : 0;
	double stats_bpm = in->moves ? 8.0 * (double)in->stats_bytes / (double)in->moves : 0;
	double uniform = in->moves ? in->uniform_bits / (double)in->moves : 0;
	double ordinal = in->moves ? in->ordinal_bits / (double)in->moves : 0;
	if (json) {
		printf("{\"positions\":%ld,\"moves\":%ld,\"links\":%ld,\"forced\":%ld,\"plies\":%d,\"depth\":%d,\"bytes\":%zu,"
		       "\"tree_bytes\":%zu,\"stats_bytes\":%zu,\"header_bytes\":%zu,\"bits_per_move\":%.3f,"
		       "\"stats_bits_per_move\":%.3f,\"uniform_bits_per_move\":%.3f,\"ordinal_bits_per_move\":%.3f,"
		       "\"positions_with_moves\":%ld,\"gametype\":%d,\"root\":",
		       in->positions, in->moves, in->links, in->forced, in->plies, in->max_ply, in->bytes, in->tree_bytes,
		       in->stats_bytes, in->header_bytes, tree_bpm, stats_bpm, uniform, ordinal, in->inner, in->gametype);
		json_string(stdout, in->root_fen);
		if (games >= 0)
			printf(",\"games\":%ld", games);
		if (seconds >= 0)
			printf(",\"seconds\":%.3f", seconds);
		printf("}\n");
		return;
	}
	const pk_variant *v = variant_by_gametype(in->gametype);
	printf("game          %s (GameType %d)\n", v ? v->name : "?", in->gametype);
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

pk_book *book_open_arg(poptContext ctx, const char **path)
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

void book_score_text(int s, char *buf, size_t size)
{
	if (s == BOOK_NO_SCORE)
		snprintf(buf, size, "-");
	else if (s >= 29000 || s <= -29000)
		snprintf(buf, size, "%s in %d", s > 0 ? "win" : "loss", s > 0 ? 30000 - s : 30000 + s);
	else
		snprintf(buf, size, "%+.2f", s / 100.0);
}

/* ---- probe ------------------------------------------------------------------------ */

/* A book move as probe prints it. */
typedef struct {
	char move[VAR_FEN_STRLEN];
	uint32_t games, bw, dr, ww;
	int score;
} probe_row;

/* The position and book moves of --fen / --moves (or the root) in a variant book. */
static int probe_variant(const pk_book *bk, const char *fen, const char *moves, char *f, size_t fsize, int *stm,
			 probe_row **rows, int *n)
{
	const pk_variant *v = book_variant(bk);
	pk_vpos p = *book_vroot(bk);
	if (fen && moves) {
		cli_error("give --fen or --moves, not both");
		return -1;
	}
	if (fen) {
		char err[200];
		if (vfen_parse(v, fen, &p, err, sizeof err) < 0) {
			cli_error("bad FEN for %s: %s", v->name, err);
			return -1;
		}
	} else if (moves) {
		uint8_t buf[1024];
		int k;
		filter_pos at;
		if (parse_moves_arg("moves", moves, v, buf, (int)sizeof buf, &k, &at) < 0)
			return -1;
		p = at.vpos;
	}
	vfen_format(&p, f, fsize);
	*stm = p.stm;
	pk_book_vmove *mv = malloc(sizeof *mv * 256);
	*rows = calloc(256, sizeof **rows);
	if (!mv || !*rows) {
		free(mv);
		cli_error("out of memory");
		return -1;
	}
	*n = book_vprobe(bk, &p, mv, 256);
	for (int i = 0; i < *n; i++) {
		probe_row *r = &(*rows)[i];
		vmove_text(v, &mv[i].move, false, r->move, sizeof r->move);
		r->games = mv[i].games;
		r->bw = mv[i].black_wins;
		r->dr = mv[i].draws;
		r->ww = mv[i].white_wins;
		r->score = mv[i].score;
	}
	free(mv);
	return 0;
}

static int probe_english(const pk_book *bk, const char *fen, const char *moves, char *f, size_t fsize, int *stm,
			 probe_row **rows, int *n)
{
	pk_pos p;
	pk_history h;
	bool given;
	uint64_t *keys = NULL;
	if (position_option(fen, moves, &p, &keys, &h, &given) < 0)
		return -1;
	free(keys);
	if (!given)
		p = *book_root(bk);
	fen_format(&p, f, fsize);
	*stm = p.stm;
	pk_book_move mv[PK_MAX_MOVES];
	if (!(*rows = calloc(PK_MAX_MOVES, sizeof **rows))) {
		cli_error("out of memory");
		return -1;
	}
	*n = book_probe(bk, &p, mv, PK_MAX_MOVES);
	for (int i = 0; i < *n; i++) {
		probe_row *r = &(*rows)[i];
		pdn_move_string(&p, &mv[i].move, false, r->move);
		r->games = mv[i].games;
		r->bw = mv[i].black_wins;
		r->dr = mv[i].draws;
		r->ww = mv[i].white_wins;
		r->score = mv[i].score;
	}
	return 0;
}

int book_probe_cmd(int argc, const char **argv)
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
	int rc = cli_parse_options(ctx, opts);
	pk_book *bk = NULL;
	probe_row *rows = NULL;
	if (rc)
		goto out;
	int nargs;
	cli_args(ctx, &nargs);
	const char *path;
	if (!(bk = book_open_arg(ctx, &path))) {
		rc = nargs == 1 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	/* the position is read in the book's game */
	rc = EXIT_USAGE;
	char f[VAR_FEN_STRLEN];
	int n, stm;
	if ((book_variant(bk) ? probe_variant : probe_english)(bk, fen, moves, f, sizeof f, &stm, &rows, &n) < 0)
		goto out;
	if (json) {
		printf("{\"fen\":");
		json_string(stdout, f);
		printf(",\"moves\":[");
		for (int i = 0; i < n; i++) {
			printf("%s{\"move\":", i ? "," : "");
			json_string(stdout, rows[i].move);
			printf(",\"games\":%u,\"black_wins\":%u,\"draws\":%u,\"white_wins\":%u", rows[i].games, rows[i].bw,
			       rows[i].dr, rows[i].ww);
			if (rows[i].score != BOOK_NO_SCORE)
				printf(",\"score\":%d", rows[i].score);
			printf("}");
		}
		printf("]}\n");
	} else if (n == 0) {
		printf("%s: not in the book\n", f);
	} else {
		/* the results by the side that moves first ("1-0" is its win: Black in English
		 * draughts, White in most others), the score of the side to move, named */
		int first = book_variant(bk) ? book_variant(bk)->first : PK_BLACK;
		const char *fname = first == PK_BLACK ? "black" : "white", *sname = first == PK_BLACK ? "white" : "black";
		char head[16];
		snprintf(head, sizeof head, "%s%%", stm == PK_BLACK ? "Black" : "White");
		printf("%s\n%-10s %8s %8s %8s %8s %8s %10s\n", f, "move", "games", fname, "draws", sname, head, "engine");
		for (int i = 0; i < n; i++) {
			const probe_row *r = &rows[i];
			char s[32];
			book_score_text(r->score, s, sizeof s);
			uint32_t known = r->bw + r->dr + r->ww;
			double mover = stm == first ? r->bw : r->ww;
			if (known)
				printf("%-10s %8u %8u %8u %8u %7.1f%% %10s\n", r->move, r->games, r->bw, r->dr, r->ww,
				       100.0 * (mover + 0.5 * r->dr) / known, s);
			else
				printf("%-10s %8u %8u %8u %8u %8s %10s\n", r->move, r->games, r->bw, r->dr, r->ww, "-", s);
		}
	}
	rc = EXIT_OK;
out:
	book_free(bk);
	free(rows);
	poptFreeContext(ctx);
	free(fen);
	free(moves);
	return rc < 0 ? EXIT_OK : rc;
}

/* ---- the command ------------------------------------------------------------------- */

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
			static char full[48];
			snprintf(name, sizeof name, "book %s", subs[i].name);
			snprintf(full, sizeof full, "pdnkit %s", name);
			cli_command = name;
			argv[1] = full;        /* popt's usage lines read "pdnkit book <sub>" */
			return subs[i].fn(argc - 1, argv + 1);
		}
	cli_error("'%s' is not a book subcommand (build, probe, dump, stats, expand)", argv[1]);
	{
		const char *names[8];
		int n = 0;
		for (size_t i = 0; i < sizeof subs / sizeof subs[0] && n < 8; i++)
			names[n++] = subs[i].name;
		cli_did_you_mean(argv[1], names, n);
	}
	return EXIT_USAGE;
}

