/* pdnkit book build and expand: books from games, and books the engine grows. */
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
#include "analysis/match.h"
#include "proto/client.h"
#include "book/book.h"
#include "store/games.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

#include "book_cmd.h"
#include "match_cli.h"


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

int book_build(int argc, const char **argv)
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
	int rc = cli_parse_options(ctx, opts);
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
	if (cli_check_output(out) < 0) {   /* before the games are read or searched */
		rc = EXIT_RUNTIME;
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
	if (min_score && cli_number(min_score, 0, 1, "--min-score", &ms))
		goto out;

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
	rc = EXIT_USAGE;
	/* The book's game: --variant's; from the store or with --fen and no --variant,
	 * English draughts; from files, the first game's that replays. */
	const pk_variant *bv = fa.v;
	bool decided = fa.variant || use_db || fen;
	pk_pos root;
	pk_vpos vroot;
	pk_history hist;
	bool given;
	if (bv ? cli_variant_position(fa.variant, fen, &bv, &vroot) < 0
	       : position_option(fen, NULL, &root, NULL, &hist, &given) < 0)
		goto out;
	rc = EXIT_RUNTIME;
	if (decided && !(b = bv ? bookb_vnew(&vroot, (int)np) : bookb_new(&root, (int)np))) {
		cli_error("out of memory");
		goto out;
	}
	double t0 = cli_now();
	if (!use_db && (fa.black || fa.white || fa.event || fa.site || fa.result || fa.date_to || fa.opening ||
			fa.position || fa.after || fa.invalid || fa.min_plies || fa.max_plies || fa.order || fa.limit)) {
		cli_error("with FILEs only --players, --date-from and --variant select games (import them for the other filters)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (use_db && !(st = db_open(&fa, STORE_READ)))
		goto out;
	cli_catch_signals(true);
	pk_source src = { .files = files, .nfiles = nfiles, .store = st, .filter = &f, .stop = &cli_interrupted };
	if (!(it = cli_games_open(&src)))
		goto out;
	long n = 0, other = 0;
	bool unreadable = false;
	pk_game *g;
	pk_replay *rp;
	while (cli_next_game(it, &g, &rp, &unreadable) == GAMES_GAME) {
		n++;
		/* Files are not filtered by the store: the two filters that make sense for them. */
		if (!use_db && f.player && !contains_nocase(game_tag(g, "Black"), f.player) &&
		    !contains_nocase(game_tag(g, "White"), f.player))
			continue;
		if (!use_db && f.date_from && store_date_key(game_tag(g, "Date")) < f.date_from)
			continue;
		if (!b && (rp->supported || rp->variant_replayed)) {
			bv = rp->variant_replayed ? variant_by_gametype(rp->variant) : NULL;
			if (bv)
				vpos_start(bv, &vroot);
			if (!(b = bv ? bookb_vnew(&vroot, (int)np) : bookb_new(&root, (int)np))) {
				cli_error("out of memory");
				goto out;
			}
		}
		int added = 0;
		if (b && !bv && rp->supported)
			added = bookb_add_game(b, rp, rp->result) < 0 ? -1 : 1;
		else if (b && bv && rp->variant_replayed && rp->variant == bv->gametype)
			added = bookb_add_vgame(b, &rp->vr, rp->result) < 0 ? -1 : 1;
		if (added < 0) {
			cli_error("out of memory");
			goto out;
		}
		if (!added)
			other++;
		uint64_t done, total;
		games_progress(it, &done, &total);
		cli_progress("book build", n, use_db ? 0 : done);
	}
	cli_progress_done();
	if (cli_interrupted) {
		/* a book of part of a collection would pass for the whole: none is written */
		cli_error("interrupted after reading %ld games; no book was written", n);
		rc = 128 + cli_interrupted;
		goto out;
	}
	if (unreadable)
		goto out;
	if (!b && !(b = bookb_new(&root, (int)np))) {     /* no game replayed: an empty book */
		cli_error("out of memory");
		goto out;
	}
	size_t len;
	pk_book_info info;
	int erc = bookb_encode(b, &bf, &buf, &len, &info);
	if (erc < 0) {
		cli_error("%s", erc == -2 ? "the tree is deeper than 1024 plies" : "out of memory");
		goto out;
	}
	if (book_write_file(out, buf, len) < 0)
		goto out;
	book_print_info(&info, json, cli_now() - t0, bookb_games(b));
	if (other)
		cli_warning("%ld game%s left out: of another variant than %s, or not replayable", other,
			    other == 1 ? "" : "s", bv ? bv->name : "English draughts");
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

/* ---- expand ----------------------------------------------------------------------- */

static void on_step(void *ctx, const pk_expand_step *st)
{
	(void)ctx;
	char f[400], m[400];
	gpos_fen(st->pos, f, sizeof f);
	fprintf(stderr, "%5ld  ply %2d  priority %4ld  %s:", st->searched, st->ply, st->priority, f);
	for (int j = 0; j < st->n; j++) {
		gmove_format(st->pos, &st->moves[j], false, m, sizeof m);
		fprintf(stderr, " %s (%+d)", m, st->scores[j]);
	}
	fputc('\n', stderr);
}

/* book expand with another engine: its move and score after the time; a move left out
 * is not something a protocol can ask, so then every other move is searched, the
 * engine's score of the position after it turned round. */
typedef struct {
	pk_client *cl;
	pk_engine_spec spec;
	pk_client_opts co;
	double movetime;
	long searches, unscored;
} ext_searcher;

static int ext_go(ext_searcher *x, const pk_pos *pos, pk_client_answer *a)
{
	char why[800], safe[900];
	if (!x->cl || !client_alive(x->cl)) {
		client_close(x->cl);
		if (!(x->cl = client_open(&x->spec, &x->co, why, sizeof why))) {
			cli_error("--engine: %s", cli_safe_text(why, safe, sizeof safe));
			return -1;
		}
	}
	client_new_game(x->cl);
	client_go(x->cl, pos, NULL, 0, x->movetime, a);
	x->searches++;
	if (a->status != CLIENT_OK) {
		cli_error("--engine %s: %s", client_name(x->cl), cli_safe_text(a->detail, safe, sizeof safe));
		return -1;
	}
	if (!a->has_score) {
		/* a move from its own book, say: no judgement of it */
		if (!x->unscored++)
			cli_warning("--engine %s: a move without a score (from its opening book?), counted as 0; "
				    "turn its book off for scores", client_name(x->cl));
		a->has_score = true;
		a->score = 0;
	}
	return 0;
}

static int hundredths(double men) { return (int)(men * 100 + (men < 0 ? -0.5 : 0.5)); }

/* The engine's score of pos for its side to move, in hundredths: a forced move is made
 * first (engines answer one without a search, so without a score), no move is lost. */
static int ext_score(ext_searcher *x, const pk_pos *pos, int *score)
{
	pk_pos p = *pos;
	int sign = 1;
	for (int plies = 0;; plies++) {
		pk_movelist ml;
		int n = gen_moves(&p, &ml);
		if (n == 0) {
			*score = sign * -(SCORE_WIN - 1 - plies);
			return 0;
		}
		if (n > 1 || plies >= 60)
			break;
		pk_pos q;
		pos_make(&p, &ml.m[0], &q);
		p = q;
		sign = -sign;
	}
	pk_client_answer a;
	if (ext_go(x, &p, &a) < 0)
		return -1;
	*score = sign * hundredths(a.score);
	return 0;
}

static int ext_search_english(ext_searcher *x, const pk_pos *pos, const pk_move *exclude, int nexclude, pk_result *r)
{
	memset(r, 0, sizeof *r);
	pk_movelist ml;
	int n = gen_moves(pos, &ml);
	if (n == 0)
		return 0;
	if (nexclude == 0) {
		if (n == 1) {
			r->has_move = r->forced = true;
			r->best = ml.m[0];
			return 0;
		}
		pk_client_answer a;
		if (ext_go(x, pos, &a) < 0)
			return -1;
		r->has_move = true;
		r->best = a.move;
		r->last.score = hundredths(a.score);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		bool out = false;
		for (int j = 0; j < nexclude; j++)
			out |= move_equal(&ml.m[i], &exclude[j]);
		if (out)
			continue;
		pk_pos c;
		pos_make(pos, &ml.m[i], &c);
		int s;
		if (ext_score(x, &c, &s) < 0)
			return -1;
		s = -s;
		if (!r->has_move || s > r->last.score) {
			r->has_move = true;
			r->best = ml.m[i];
			r->last.score = s;
		}
	}
	return 0;
}

/* The adapter for expand_book: another engine plays English draughts (book expand
 * refuses --engine with --variant). */
static int ext_search(void *ctx, const pk_gpos *pos, const pk_gmove *exclude, int nexclude, pk_gresult *r)
{
	memset(r, 0, sizeof *r);
	if (pos->v)
		return -1;
	pk_move ex[EXPAND_MAX_WIDTH];
	for (int i = 0; i < nexclude && i < EXPAND_MAX_WIDTH; i++)
		ex[i] = exclude[i].e;
	pk_result er;
	if (ext_search_english(ctx, &pos->e, ex, nexclude, &er) < 0)
		return -1;
	r->has_move = er.has_move;
	r->forced = er.forced;
	r->best.e = er.best;
	r->last.score = er.last.score;
	return 0;
}

/* An opening's moves as path moves of b from root, its position into *start: 1, 0 when
 * it does not start at root (or its move is not legal there), -1 when out of memory. */
static int opening_path(pk_bookb *b, const pk_gpos *root, const pk_opening *o, const pk_variant *v, pk_gpos *start)
{
	pk_gpos p;
	if (v)
		gpos_variant(&p, &o->vroot);
	else
		gpos_english(&p, &o->root);
	if (gpos_key(&p) != gpos_key(root))
		return 0;
	pk_gmove *ml = malloc(sizeof *ml * VAR_MAX_MOVES);
	if (!ml)
		return -1;
	int rc = 1;
	for (int k = 0; k < o->nply && rc == 1; k++) {
		pk_gmove m;
		if (v)
			m.x = o->vpre[k];
		else
			m.e = o->pre[k];
		int n = gpos_gen(&p, ml, VAR_MAX_MOVES), ord = 0;
		while (ord < n && !gmove_same(&p, &ml[ord], &m))
			ord++;
		if (n < 0)
			rc = -1;
		else if (ord == n)
			rc = 0;
		else if (bookb_add_gmove(b, &p, ord, BOOK_NO_SCORE) < 0)
			rc = -1;
		else {
			pk_gpos q;
			gpos_make(&p, &m, &q);
			p = q;
		}
	}
	free(ml);
	*start = p;
	return rc;
}

int book_expand(int argc, const char **argv)
{
	char *eopts = NULL, *positions = NULL, *margin = NULL, *width = NULL, *dropout = NULL, *out = NULL, *fen = NULL,
	     *engine_spec = NULL, *engines_file = NULL, *ballots = NULL, *variant = NULL, *openings = NULL;
	int json = 0, quiet = 0;
	ext_searcher ext = { 0 };
	pk_opening *deck = NULL;
	pk_gpos *starts = NULL;
	int ndeck = 0;
	struct poptOption opts[] = {
		{ "engine-options", 0, POPT_ARG_STRING, &eopts, 0, "the engine's limits and weights (default \"--depth 10\"; with --engine \"--movetime 1\")", "\"OPTIONS\"" },
		{ "engine", 'E', POPT_ARG_STRING, &engine_spec, 0, "search with another engine: cb:LIB.so, hub:COMMAND or a name of --engines (its move and score after --movetime)", "SPEC" },
		{ "engines", 0, POPT_ARG_STRING, &engines_file, 0, "the engines file (pdnkit-engines(5))", "FILE" },
		{ "positions", 'n', POPT_ARG_STRING, &positions, 0, "positions to search (default 200)", "N" },
		{ "margin", 0, POPT_ARG_STRING, &margin, 0, "also keep moves within CP of the best (default 15)", "CP" },
		{ "width", 0, POPT_ARG_STRING, &width, 0, "at most K book moves a position (default 3)", "K" },
		{ "dropout", 0, POPT_ARG_STRING, &dropout, 0, "cost of a ply against a lost hundredth of a man (default 10)", "CP" },
		{ "fen", 0, POPT_ARG_STRING, &fen, 0, "grow from this position (default: the start)", "FEN" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "a book of another variant (name or PDN GameType: international, russian, ...), grown by its engine from its start (or --fen in its notation)", "NAME" },
		{ "ballots", 0, POPT_ARG_STRING, &ballots, 0, "grow from the positions of a deck of openings instead: acf3 (the ACF three-move deck) or all2 (every two-ply opening); their moves are kept as path moves, never played from the book", "DECK" },
		{ "openings", 0, POPT_ARG_STRING, &openings, 0, "grow from the positions at the end of the games of a PDN file instead (each from the book's start, or from --fen; at most 8 plies; a game without moves: the start itself); their moves are kept as path moves", "FILE" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0, "the book file to write", "FILE.book" },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no line per position searched", NULL },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "print the summary as one JSON object", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] -o FILE.book");
	int rc = cli_parse_options(ctx, opts);
	engine_args ea;
	engine_args_init(&ea);
	pk_gengine *e = NULL;
	pk_bookb *b = NULL;
	uint8_t *buf = NULL;
	const pk_variant *v = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (cli_no_args(ctx, NULL) < 0)
		goto out;
	if (!out) {
		cli_error("no output: give -o FILE.book");
		goto out;
	}
	if (cli_check_output(out) < 0) {   /* before the games are read or searched */
		rc = EXIT_RUNTIME;
		goto out;
	}
	long npos = 200, mg = 15, wd = 3, dw = 10;
	if ((positions && cli_int(positions, 1, 1000000, "--positions", &npos)) ||
	    (margin && cli_int(margin, 0, 10000, "--margin", &mg)) || (width && cli_int(width, 1, 32, "--width", &wd)) ||
	    (dropout && cli_int(dropout, 0, 10000, "--dropout", &dw)))
		goto out;
	bool other = engine_spec && strcmp(engine_spec, "pdnkit") != 0;
	if (engine_args_from_string("--engine-options", eopts ? eopts : other ? "--movetime 1" : "--depth 10", NULL, &ea) < 0)
		goto out;
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level)
		ea.depth = strdup("10");
	pk_limits lim;
	if (engine_args_resolve(&ea, &lim))
		goto out;
	if (other) {
		char why[800];
		if (spec_parse(engine_spec, engines_file_option(engines_file), &ext.spec, why, sizeof why) < 0) {
			cli_error("--engine %s", why);
			goto out;
		}
		if (ext.spec.kind == SPEC_PDNKIT || ext.spec.kind == SPEC_DXP || ea.depth || ea.nodes || lim.movetime <= 0) {
			cli_error("--engine %s: %s", engine_spec, ext.spec.kind == SPEC_DXP ? "a DXP engine plays International draughts (engines check and match --variant international drive one); this command takes cb: and hub: engines" :
				  ext.spec.kind == SPEC_PDNKIT ? "give the built-in engine's options with --engine-options" :
				  "another engine is given seconds (--engine-options \"--movetime S\"), not a depth or nodes");
			goto out;
		}
		ext.movetime = lim.movetime;
	}
	if (ballots && strcmp(ballots, "acf3") && strcmp(ballots, "all2")) {
		cli_error("--ballots: '%s' is neither acf3 nor all2", ballots);
		goto out;
	}
	if (ballots && (fen || openings)) {
		cli_error("--ballots grows from the deck's positions after the start: no %s with it", fen ? "--fen" : "--openings");
		goto out;
	}
	if (variant && (other || ballots)) {
		cli_error("--variant: %s", other ? "another engine grows English draughts' books only" : "the ballots are English draughts'");
		goto out;
	}
	pk_gpos root;
	if (variant) {
		pk_vpos vp;
		if (cli_variant_position(variant, fen, &v, &vp) < 0)
			goto out;
		if (v->gametype == 21)
			v = NULL;   /* English draughts by name: the English book */
		if (v)
			gpos_variant(&root, &vp);
	}
	if (!v) {
		pk_pos ep;
		pk_history hist;
		bool given;
		if (position_option(fen, NULL, &ep, NULL, &hist, &given) < 0)
			goto out;
		gpos_english(&root, &ep);
	}
	rc = EXIT_RUNTIME;
	if (!other && !(e = gengine_from_args(&ea, v)))
		goto out;
	if (!(b = v ? bookb_vnew(&root.x, 1000) : bookb_new(&root.e, 1000))) {
		cli_error("out of memory");
		goto out;
	}
	if (ballots || openings) {
		/* the openings' moves as path moves, their positions the starts */
		ndeck = openings ? match_openings_file(openings, v, 0, &deck) : match_deck(strcmp(ballots, "all2") ? 3 : 2, &deck);
		if (ndeck < 0 || (ndeck > 0 && !(starts = malloc((size_t)ndeck * sizeof *starts)))) {
			if (!openings || ndeck > 0)
				cli_error("out of memory");
			goto out;
		}
		int nstarts = 0;
		long elsewhere = 0;
		for (int i = 0; i < ndeck; i++) {
			int r = opening_path(b, &root, &deck[i], v, &starts[nstarts]);
			if (r < 0) {
				cli_error("out of memory");
				goto out;
			}
			if (r == 0)
				elsewhere++;
			else
				nstarts++;
		}
		if (elsewhere)
			cli_warning("--%s %s: %ld game%s left out: not from the book's start%s, or longer than 8 plies",
				    openings ? "openings" : "ballots", openings ? openings : ballots, elsewhere,
				    elsewhere == 1 ? "" : "s", fen ? " (--fen)" : "");
		if (nstarts == 0) {
			cli_error("--%s %s: no opening of %s from the book's start", openings ? "openings" : "ballots", openings ? openings : ballots,
				  v ? v->name : "English draughts");
			rc = EXIT_USAGE;
			goto out;
		}
		ndeck = nstarts;
	}
	double t0 = cli_now();
	pk_expand_opts xo = { .lim = lim, .positions = npos, .margin = (int)mg, .width = (int)wd, .dropout = (int)dw,
			      .on_step = quiet || json ? NULL : on_step, .stop = &cli_interrupted,
			      .search = other ? ext_search : NULL, .sctx = &ext, .starts = starts, .nstarts = ndeck };
	cli_catch_signals(true);
	long searched = expand_book(e, b, &root, &xo);
	if (searched == -1) {
		cli_error("out of memory");
		goto out;
	}
	if (searched == -2)
		goto out;      /* the engine failed: said */
	size_t len;
	pk_book_filter none = { .side = -1 };
	pk_book_info info;
	if (bookb_encode(b, &none, &buf, &len, &info) < 0) {
		cli_error("out of memory");
		goto out;
	}
	if (book_write_file(out, buf, len) < 0)
		goto out;
	book_print_info(&info, json, cli_now() - t0, -1);
	if (cli_interrupted)
		fprintf(stderr, "pdnkit book expand: interrupted after %ld of %ld positions searched; the book of those is written to %s\n",
			searched, npos, out);
	rc = cli_interrupted ? 128 + cli_interrupted : EXIT_OK;
out:
	free(buf);
	bookb_free(b);
	gengine_free(e);
	client_close(ext.cl);
	engine_args_free(&ea);
	poptFreeContext(ctx);
	free(eopts);
	free(engine_spec);
	free(engines_file);
	free(positions);
	free(margin);
	free(width);
	free(dropout);
	free(out);
	free(fen);
	free(ballots);
	free(openings);
	free(variant);
	free(deck);
	free(starts);
	return rc < 0 ? EXIT_OK : rc;
}
