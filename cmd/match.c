/* pdnkit match: the engine against itself with different settings, every opening with
 * both colours; games written as PDN; the score and the Elo difference with its 95%
 * interval. */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "engine_opts.h"
#include "book/book.h"
#include "rules/fen.h"
#include "pdn/pdn.h"
#include "pdn/replay.h"

#define MAX_GAME_PLIES 400

typedef struct {
	char *spec;                 /* the options as given */
	pk_limits lim;
	pk_features f;
	size_t hash;
	int threads;
	pk_weights w;
	struct pk_book *bk;         /* plays from it while the position is in it */
	long book_moves;
} player;

typedef struct {
	pk_pos start;
	char text[160];             /* the opening moves, or the FEN it starts from */
	int nply;
	uint64_t keys[8];
} opening;

typedef struct {
	int a_black;                /* which player has Black */
	int opening;
	int result;                 /* RES_* */
	int plies;
	char *movetext;
	const char *reason;
} game_rec;

typedef struct {
	player pl[2];
	opening *op;
	int nop;
	game_rec *games;
	int ngames;
	atomic_int next, done;
	atomic_long book_moves[2];
} match_ctx;

/* Parse "--depth 6 --no-lmr" into a player. */
static int parse_player(const char *what, char *spec, player *pl)
{
	engine_args ea;
	engine_args_init(&ea);
	int no_lmr = 0, strong_lmr = 0, no_killers = 0, no_history = 0, no_aspiration = 0;
	char *book = NULL, *lmr = NULL;
	int tt_buckets = 0;
	struct poptOption extra[] = {
		{ "no-lmr", 0, POPT_ARG_NONE, &no_lmr, 0, NULL, NULL },
		{ "strong-lmr", 0, POPT_ARG_NONE, &strong_lmr, 0, NULL, NULL },
		{ "lmr", 0, POPT_ARG_STRING, &lmr, 0, NULL, NULL },
		{ "tt-buckets", 0, POPT_ARG_NONE, &tt_buckets, 0, NULL, NULL },
		{ "no-killers", 0, POPT_ARG_NONE, &no_killers, 0, NULL, NULL },
		{ "no-history", 0, POPT_ARG_NONE, &no_history, 0, NULL, NULL },
		{ "no-aspiration", 0, POPT_ARG_NONE, &no_aspiration, 0, NULL, NULL },
		{ "book", 0, POPT_ARG_STRING, &book, 0, NULL, NULL },
		POPT_TABLEEND
	};
	int status = 0;
	if (engine_args_from_string(what, spec, extra, &ea) < 0)
		status = -1;
	else if (engine_args_resolve(&ea, &pl->lim) || engine_weights(&ea, &pl->w) < 0)
		status = -1;
	else if (book_option(book, false, &pl->bk) < 0)
		status = -1;
	free(book);
	if (engine_features(&ea, &pl->f) < 0)
		status = -1;
	/* the older switches, kept beside --features */
	if (no_lmr || strong_lmr)
		pl->f.lmr = no_lmr ? 0 : 2;
	long lv;
	if (lmr) {
		if (cli_int(lmr, 0, 4, "--lmr", &lv))
			status = -1;
		else
			pl->f.lmr = (int)lv;
	}
	free(lmr);
	if (no_killers)
		pl->f.killers = false;
	if (no_history)
		pl->f.history = false;
	if (no_aspiration)
		pl->f.aspiration = 0;
	if (tt_buckets)
		pl->f.tt_ways = 2;
	pl->hash = ea.hash ? (size_t)atol(ea.hash) : 16;
	pl->threads = engine_threads(&ea);
	engine_args_free(&ea);
	return status;
}

/* Every legal sequence of three plies from the start: the three-move ballots. */
static int ballots(opening **out)
{
	int cap = 512, n = 0;
	opening *v = malloc(sizeof *v * (size_t)cap);
	pk_pos s;
	pos_start(&s);
	pk_movelist m1, m2, m3;
	gen_moves(&s, &m1);
	for (int a = 0; a < m1.n; a++) {
		pk_pos p1;
		pos_make(&s, &m1.m[a], &p1);
		gen_moves(&p1, &m2);
		for (int b = 0; b < m2.n; b++) {
			pk_pos p2;
			pos_make(&p1, &m2.m[b], &p2);
			gen_moves(&p2, &m3);
			for (int c = 0; c < m3.n && n < cap; c++) {
				opening *o = &v[n++];
				pos_make(&p2, &m3.m[c], &o->start);
				char x[PK_MOVE_STRLEN], y[PK_MOVE_STRLEN], z[PK_MOVE_STRLEN];
				move_format(&m1.m[a], false, x, sizeof x);
				move_format(&m2.m[b], false, y, sizeof y);
				move_format(&m3.m[c], false, z, sizeof z);
				snprintf(o->text, sizeof o->text, "1. %s %s 2. %s", x, y, z);
				o->nply = 3;
				o->keys[0] = s.key;
				o->keys[1] = p1.key;
				o->keys[2] = p2.key;
			}
		}
	}
	*out = v;
	return n;
}

/* Openings from a PDN file: each game's FEN (or the start) plus its moves. */
static int openings_from_file(const char *path, opening **out)
{
	int err = 0;
	pk_reader *r = pdn_open(path, &err);
	if (!r) {
		cli_error("cannot open '%s': %s", path, strerror(err));
		return -1;
	}
	int cap = 256, n = 0;
	opening *v = malloc(sizeof *v * (size_t)cap);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	while (pdn_read(r, &g) == 1) {
		if (replay_game(&g, &rp) < 0 || !rp.supported || g.findings.errors)
			continue;
		if (n == cap) {
			cap *= 2;
			v = realloc(v, sizeof *v * (size_t)cap);
		}
		opening *o = &v[n];
		o->nply = rp.nply > 8 ? 8 : rp.nply;
		o->start = o->nply ? rp.plies[o->nply - 1].after : rp.start;
		for (int i = 0; i < o->nply; i++)
			o->keys[i] = i ? rp.plies[i - 1].after.key : rp.start.key;
		fen_format(&rp.start, o->text, sizeof o->text);
		pk_movelist ml;
		if (gen_moves(&o->start, &ml) > 0)
			n++;
	}
	game_free(&g);
	replay_free(&rp);
	pdn_close(r);
	*out = v;
	return n;
}

/* Play one game; returns a RES_* value. */
static void play(match_ctx *m, int gi, pk_engine *eng[2])
{
	game_rec *g = &m->games[gi];
	const opening *o = &m->op[g->opening];
	int black = g->a_black ? 0 : 1;   /* index of the player with Black */
	uint64_t keys[MAX_GAME_PLIES + 16];
	int nkeys = 0;
	for (int i = 0; i < o->nply; i++)
		keys[nkeys++] = o->keys[i];
	pk_pos p = o->start;
	int rev = 0;
	size_t cap = 4096, len = 0;
	char *text = malloc(cap);
	text[0] = 0;
	engine_new_game(eng[0]);
	engine_new_game(eng[1]);
	g->result = RES_DRAW;
	g->reason = "move limit";
	int ply;
	/* Time saved on instant (forced) moves is carried forward, as Querg Draughts did. */
	double saved[2] = { 0, 0 };
	for (ply = 0; ply < MAX_GAME_PLIES; ply++) {
		int who = p.stm == PK_BLACK ? black : !black;
		pk_history h = { keys, nkeys, rev };
		pk_result r;
		pk_limits lim = m->pl[who].lim;
		if (lim.movetime > 0)
			lim.movetime += saved[who];
		memset(&r, 0, sizeof r);
		if (m->pl[who].bk && book_choose(m->pl[who].bk, &p, &r.best)) {
			r.has_move = true;       /* a book move: instant */
			r.forced = true;
			atomic_fetch_add(&m->book_moves[who], 1);
		} else {
			engine_search(eng[who], &p, &h, &lim, NULL, NULL, NULL, &r);
		}
		if (m->pl[who].lim.movetime > 0)
			saved[who] = r.forced ? lim.movetime : 0;
		if (!r.has_move) {
			g->result = p.stm == PK_BLACK ? RES_WHITE_WINS : RES_BLACK_WINS;
			g->reason = "no legal move";
			break;
		}
		char mv[PK_MOVE_STRLEN], num[16] = "";
		move_format(&r.best, false, mv, sizeof mv);
		if (movenum_token(movenum_at(1, o->start.stm, ply), p.stm, false, num, sizeof num - 1))
			strcat(num, " ");
		if (len + 64 > cap)
			text = realloc(text, cap *= 2);
		len += (size_t)snprintf(text + len, cap - len, "%s%s%s", len ? " " : "", num, mv);
		bool reversible = move_is_reversible(&p, &r.best);
		keys[nkeys++] = p.key;
		pk_pos q;
		pos_make(&p, &r.best, &q);
		p = q;
		rev = reversible ? rev + 1 : 0;
		if (rev >= DRAW_PLIES) {
			g->reason = "50 moves without a capture or a man moved";
			ply++;
			break;
		}
		int reps = 0;
		for (int j = nkeys - 2; j >= 0 && nkeys - j <= rev + 1; j -= 2)
			reps += keys[j] == p.key;
		if (reps >= 2) {
			g->reason = "threefold repetition";
			ply++;
			break;
		}
	}
	g->plies = ply;
	g->movetext = text;
}

static void *worker(void *arg)
{
	match_ctx *m = arg;
	pk_engine *eng[2];
	for (int i = 0; i < 2; i++) {
		eng[i] = engine_new(m->pl[i].hash, &m->pl[i].w);
		engine_set_features(eng[i], &m->pl[i].f);
		engine_set_threads(eng[i], m->pl[i].threads);
	}
	for (;;) {
		int gi = atomic_fetch_add(&m->next, 1);
		if (gi >= m->ngames)
			break;
		play(m, gi, eng);
		int done = atomic_fetch_add(&m->done, 1) + 1;
		cli_progress("match", done, 0);
	}
	engine_free(eng[0]);
	engine_free(eng[1]);
	return NULL;
}

int cmd_match(int argc, const char **argv)
{
	char *a = NULL, *b = NULL, *openings = NULL, *games_arg = NULL, *conc = NULL, *out = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "a", 0, POPT_ARG_STRING, &a, 0, "engine A's options, e.g. \"--depth 8\"", "OPTIONS" },
		{ "b", 0, POPT_ARG_STRING, &b, 0, "engine B's options, e.g. \"--depth 8 --no-lmr\"", "OPTIONS" },
		{ "openings", 0, POPT_ARG_STRING, &openings, 0, "openings from a PDN file (default: every three-move ballot)", "FILE" },
		{ "games", 'g', POPT_ARG_STRING, &games_arg, 0, "play at most N games (default: every opening, both colours)", "N" },
		{ "concurrency", 'c', POPT_ARG_STRING, &conc, 0, "games played at once (default: one per core)", "N" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "write the games as PDN here", "FILE" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the result as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx);
	match_ctx m = { 0 };
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	m.pl[0].spec = a ? a : "--depth 6";
	m.pl[1].spec = b ? b : "--depth 6";
	if (parse_player("--a", m.pl[0].spec, &m.pl[0]) < 0 || parse_player("--b", m.pl[1].spec, &m.pl[1]) < 0)
		goto out;
	long ngames = 0, nconc = sysconf(_SC_NPROCESSORS_ONLN);
	if (games_arg && cli_int(games_arg, 1, 10000000, "--games", &ngames))
		goto out;
	if (conc && cli_int(conc, 1, 256, "--concurrency", &nconc))
		goto out;
	m.nop = openings ? openings_from_file(openings, &m.op) : ballots(&m.op);
	if (m.nop <= 0) {
		if (m.nop == 0)
			cli_error("no usable opening in '%s'", openings);
		rc = m.nop < 0 ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	}
	m.ngames = ngames ? (int)ngames : 2 * m.nop;
	m.games = calloc((size_t)m.ngames, sizeof *m.games);
	for (int i = 0; i < m.ngames; i++) {
		m.games[i].opening = (i / 2) % m.nop;
		m.games[i].a_black = i % 2 == 0;
	}
	atomic_init(&m.next, 0);
	atomic_init(&m.done, 0);
	double t0 = cli_now();
	pthread_t tid[256];
	int started = 0;
	for (int i = 1; i < nconc; i++)
		if (pthread_create(&tid[started], NULL, worker, &m) == 0)
			started++;
	worker(&m);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	cli_progress_done();
	double secs = cli_now() - t0;

	long w = 0, d = 0, l = 0;   /* from A's view */
	for (int i = 0; i < m.ngames; i++) {
		int res = m.games[i].result;
		int a_won = m.games[i].a_black ? res == RES_BLACK_WINS : res == RES_WHITE_WINS;
		int a_lost = m.games[i].a_black ? res == RES_WHITE_WINS : res == RES_BLACK_WINS;
		w += a_won;
		l += a_lost;
		d += !a_won && !a_lost;
	}
	double n = (double)(w + d + l), s = (w + 0.5 * d) / n;
	double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
	double se = sqrt(var / n);
	double lo = s - 1.96 * se, hi = s + 1.96 * se;
#define ELO(x) ((x) <= 0 ? -INFINITY : (x) >= 1 ? INFINITY : -400.0 * log10(1.0 / (x) - 1.0))
	if (json)
		printf("{\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,\"elo\":%.1f,"
		       "\"elo_low\":%.1f,\"elo_high\":%.1f,\"seconds\":%.1f}\n", (long)n, w, d, l, s, ELO(s), ELO(lo),
		       ELO(hi), secs);
	else
		printf("A: %s\nB: %s\n%ld games: A won %ld, drew %ld, lost %ld; score %.1f%%; Elo difference %+.0f "
		       "(95%%: %+.0f .. %+.0f); %.0f s\n", m.pl[0].spec, m.pl[1].spec, (long)n, w, d, l, 100 * s, ELO(s),
		       ELO(lo), ELO(hi), secs);
	if (!json && (m.pl[0].bk || m.pl[1].bk))
		printf("book moves played: A %ld, B %ld\n", (long)atomic_load(&m.book_moves[0]),
		       (long)atomic_load(&m.book_moves[1]));
	if (out) {
		FILE *f = fopen(out, "w");
		if (!f) {
			cli_error("cannot create '%s': %s", out, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
		for (int i = 0; i < m.ngames; i++) {
			game_rec *g = &m.games[i];
			const opening *o = &m.op[g->opening];
			fprintf(f, "[Event \"pdnkit match, game %d\"]\n[Black \"%s\"]\n[White \"%s\"]\n[Result \"%s\"]\n"
				   "[Opening \"%s\"]\n[Termination \"%s\"]\n",
				i + 1, g->a_black ? m.pl[0].spec : m.pl[1].spec, g->a_black ? m.pl[1].spec : m.pl[0].spec,
				result_string(g->result), o->text, g->reason);
			char fen[PK_FEN_STRLEN];
			fen_format(&o->start, fen, sizeof fen);
			fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s%s %s\n\n", fen, o->start.stm == PK_WHITE ? "1... " : "",
				g->movetext ? g->movetext : "", result_string(g->result));
		}
		fclose(f);
	}
	rc = EXIT_OK;
out:
	for (int i = 0; i < m.ngames && m.games; i++)
		free(m.games[i].movetext);
	free(m.games);
	free(m.op);
	book_free(m.pl[0].bk);
	book_free(m.pl[1].bk);
	poptFreeContext(ctx);
	free(a);
	free(b);
	free(openings);
	free(games_arg);
	free(conc);
	free(out);
	return rc;
}
