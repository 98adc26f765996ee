/* libpdnkit-cb.so: the pdnkit engine behind the engine interface that CheckerBoard and
 * compatible checkers GUIs load (getmove, enginecommand, islegal). Built by `make cb`
 * from the same core as the pdnkit program. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proto/cbboard.h"
#include "analysis/play.h"
#include "book/book.h"
#include "engine/search.h"
#include "rules/gen.h"

#define HISTORY_MAX 1024

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pk_engine *engine;
static size_t hash_mb = 64;
static pk_book *book;
static int use_book = 1;
static bool book_tried;
static pk_pos history[HISTORY_MAX];   /* the positions the GUI has shown us, oldest first */
static int nhistory;

/* Whether b could follow a in a game without a capture or a man moved. */
static bool reversible_step(const pk_pos *a, const pk_pos *b)
{
	for (int s = 0; s < 2; s++)
		if ((a->side[s] & ~a->kings) != (b->side[s] & ~b->kings) ||
		    __builtin_popcountll((unsigned long long)a->side[s]) != __builtin_popcountll((unsigned long long)b->side[s]))
			return false;
	return true;
}

static void remember(const pk_pos *p)
{
	if (nhistory > 0 && pos_equal(&history[nhistory - 1], p))
		return;
	if (nhistory == HISTORY_MAX) {
		memmove(history, history + 1, sizeof history[0] * (HISTORY_MAX - 1));
		nhistory--;
	}
	history[nhistory++] = *p;
}

static bool ensure_engine(void)
{
	if (!engine) {
		engine = engine_new(hash_mb, NULL);
		if (!engine)
			return false;
	}
	if (!book_tried) {
		char err[200];
		book = book_default(err, sizeof err);
		book_tried = true;
	}
	return true;
}

typedef struct {
	int *playnow;
} watch_ctx;

static void watch_playnow(void *ctx, const atomic_bool *done)
{
	watch_ctx *w = ctx;
	struct timespec ts = { 0, 10000000 };
	while (!atomic_load(done)) {
		if (w->playnow && *(volatile int *)w->playnow)
			return;
		nanosleep(&ts, NULL);
	}
}

typedef struct {
	char *str;
	const pk_pos *root;
} status_ctx;

static void on_iteration(void *vctx, const pk_iteration *it)
{
	status_ctx *s = vctx;
	char mv[PK_MOVE_STRLEN] = "";
	if (it->npv > 0)
		pdn_move_string(s->root, &it->pv[0], false, mv);
	if (score_is_win(it->score))
		snprintf(s->str, 1024, "pdnkit: depth %d  %s in %d (score %+d)  best %s  %.1f s  %llu nodes", it->depth,
			 it->score > 0 ? "win" : "loss", score_plies(it->score), it->score, mv, it->seconds,
			 (unsigned long long)it->nodes);
	else
		snprintf(s->str, 1024, "pdnkit: depth %d  score %+d  best %s  %.1f s  %llu nodes", it->depth, it->score,
			 mv, it->seconds, (unsigned long long)it->nodes);
}

CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow, int info, int moreinfo,
	    struct CBmove *move)
{
	(void)moreinfo;
	pthread_mutex_lock(&lock);
	int ret = CB_UNKNOWN;
	pk_pos root;
	const char *bad = cb_board_to_pos(board, color, &root);
	if (bad) {
		snprintf(str, 1024, "pdnkit: not a position: %s", bad);
		pthread_mutex_unlock(&lock);
		return CB_UNKNOWN;
	}
	if (info & CB_RESET_MOVES)
		nhistory = 0;
	if (!ensure_engine()) {
		snprintf(str, 1024, "pdnkit: out of memory");
		pthread_mutex_unlock(&lock);
		return CB_UNKNOWN;
	}
	pk_movelist ml;
	if (gen_moves(&root, &ml) == 0) {
		snprintf(str, 1024, "pdnkit: no legal move");
		pthread_mutex_unlock(&lock);
		return CB_LOSS;
	}
	/* The game before this position, as far as it was reversible, for repetitions. */
	uint64_t keys[HISTORY_MAX];
	int nk = 0, rev = 0;
	for (int i = 0; i < nhistory; i++)
		keys[nk++] = history[i].key;
	const pk_pos *last = &root;
	for (int i = nhistory - 1; i >= 0 && reversible_step(&history[i], last); i--) {
		rev++;
		last = &history[i];
	}
	pk_history h = { keys, nk, rev, 0 };
	pk_move best;
	pk_limits lim = { 0 };
	/* maxtime as a limit whether CB_EXACT_TIME is set or not: the search begins no
	 * iteration it is unlikely to finish, so it keeps within an average too. */
	lim.movetime = maxtime > 0 ? maxtime : 1;
	if (info & CB_EXACT_TIME)
		lim.hardtime = lim.movetime;   /* no time-panic past an exact time */
	pk_result res;
	volatile sig_atomic_t stop = 0;
	watch_ctx w = { playnow };
	status_ctx s = { str, &root };
	snprintf(str, 1024, "pdnkit: thinking");
	bool from_book = false;
	play_think_book(engine, use_book ? book : NULL, &root, &h, &lim, &stop, on_iteration, &s, watch_playnow, &w, &res,
			&from_book);
	if (from_book) {
		char mv[PK_MOVE_STRLEN];
		best = res.best;
		pdn_move_string(&root, &best, false, mv);
		if (res.forced)
			snprintf(str, 1024, "pdnkit: %s from the book", mv);
		else
			snprintf(str, 1024, "pdnkit: %s from the book (searched: score %+d at depth %d)", mv, res.last.score,
				 res.last.depth);
	} else {
		best = res.has_move ? res.best : ml.m[0];
		if (res.has_move && (res.last.npv == 0 || !move_equal(&res.last.pv[0], &best))) {
			/* chosen in an iteration that did not finish: the status names the move played */
			char mv[PK_MOVE_STRLEN];
			pdn_move_string(&root, &best, false, mv);
			snprintf(str, 1024, "pdnkit: depth %d+  best %s (found at depth %d, unfinished; score %+d at depth %d)  %llu nodes",
				 res.last.depth, mv, res.last.depth + 1, res.last.score, res.last.depth,
				 (unsigned long long)res.last.nodes);
		}
		if (res.in_egdb)
			ret = res.egdb.value == EGDB_WIN ? CB_WIN : res.egdb.value == EGDB_LOSS ? CB_LOSS : CB_DRAW;
		else if (score_is_win(res.last.score))
			ret = res.last.score > 0 ? CB_WIN : CB_LOSS;
	}
	cb_describe(&root, &best, move);
	pk_pos after;
	pos_make(&root, &best, &after);
	remember(&root);
	remember(&after);
	cb_pos_to_board(&after, board);
	pthread_mutex_unlock(&lock);
	return ret;
}

CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct CBmove *move)
{
	pk_pos p;
	if (cb_board_to_pos(board, color, &p))
		return 0;
	pk_movelist ml;
	gen_moves(&p, &ml);
	int found = -1;
	for (int i = 0; i < ml.n; i++)
		if (ml.m[i].from + 1 == from && move_to(&ml.m[i]) + 1 == to) {
			if (found >= 0 && !move_same_effect(&ml.m[found], &ml.m[i]))
				return 0;   /* ambiguous: the GUI asks for the path */
			found = found < 0 ? i : found;
		}
	if (found < 0)
		return 0;
	if (move)
		cb_describe(&p, &ml.m[found], move);
	return 1;
}

CB_EXPORT int CB_CALL enginecommand(char command[256], char reply[1024])
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "%s", command);
	reply[0] = 0;
	int ok = 1;
	pthread_mutex_lock(&lock);
	unsigned long v;
	if (!strcmp(cmd, "name"))
		snprintf(reply, 1024, "pdnkit %s", PK_VERSION);
	else if (!strcmp(cmd, "about"))
		snprintf(reply, 1024, "pdnkit %s: iterative deepening alpha-beta with quiescence on captures, a "
				      "transposition table and an opening book, for English draughts", PK_VERSION);
	else if (!strcmp(cmd, "help"))
		snprintf(reply, 1024, "see man pdnkit-engine");
	else if (!strcmp(cmd, "get gametype"))
		snprintf(reply, 1024, "21");
	else if (!strcmp(cmd, "get protocolversion"))
		snprintf(reply, 1024, "2");
	else if (!strcmp(cmd, "get hashsize"))
		snprintf(reply, 1024, "%zu", hash_mb);
	else if (sscanf(cmd, "set hashsize %lu", &v) == 1 && v >= 1 && v <= 65536) {
		if (v != hash_mb) {
			hash_mb = v;
			if (engine) {
				engine_free(engine);
				engine = NULL;
			}
		}
		snprintf(reply, 1024, "%zu", hash_mb);
	} else if (!strcmp(cmd, "get book"))
		snprintf(reply, 1024, "%d", use_book);
	else if (sscanf(cmd, "set book %lu", &v) == 1) {
		use_book = v != 0;
		snprintf(reply, 1024, "%d", use_book);
	} else if (!strcmp(cmd, "get egdb_enable") || !strcmp(cmd, "get dbpath"))
		snprintf(reply, 1024, "0");
	else {
		snprintf(reply, 1024, "?");
		ok = 0;
	}
	pthread_mutex_unlock(&lock);
	return ok;
}

/* The library unloaded (dlclose, or the program's end): its engine and book freed. */
__attribute__((destructor)) static void cb_unload(void)
{
	if (engine)
		engine_free(engine);
	book_free(book);
	engine = NULL;
	book = NULL;
	book_tried = false;
}
