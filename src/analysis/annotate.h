/* Annotation: every move of a replayed game scored by the engine. For each move, the
 * position before it is searched (best move, score, line), and the move played is scored
 * at the same depth by searching that position with every other move left out; the
 * difference is the move's loss. Scores are from the side to move's view. */
#ifndef PK_ANNOTATE_H
#define PK_ANNOTATE_H

#include "pdn/replay.h"
#include "engine/gengine.h"
#include "proto/client.h"

enum { CLASS_GOOD, CLASS_INACCURACY, CLASS_MISTAKE, CLASS_BLUNDER, CLASS_ONLY, CLASS_FORCED, CLASS_BOOK,
       CLASS_NONE /* a /FEN/ set-up: nothing to score */ };
extern const char *const class_name[CLASS_NONE + 1];
/* The NAG a class is written with (0 for none): $4 ??, $2 ?, $6 ?!, $1 ! */
int class_nag(int cls);

typedef struct {
	int blunder, mistake, inaccuracy;   /* losses in hundredths of a man */
} pk_thresholds;

extern const pk_thresholds thresholds_default;   /* 100, 50, 25 */
/* The depth every command that annotates searches when none is given (annotate,
 * report, serve): the same everywhere, so that their runs are one run of the store. */
#define ANNOTATE_DEFAULT_DEPTH 10

/* The plies of pk_annotate_opts.verify and its rounds by default. */
#define VERIFY_DEFAULT 6
#define VERIFY_ROUNDS_DEFAULT 2

/* A won or lost score counts as this much in a loss: a win thrown away is the largest. */
#define LOSS_CAP 2000

#define NOTE_PV 24

typedef struct {
	int ply;                  /* 1-based ply of the game */
	int side;                 /* PK_BLACK or PK_WHITE: who played it */
	int cls;                  /* CLASS_* */
	pk_gmove played, best;    /* of the game's variant (rules/gpos.h) */
	int score_best, score_played, loss;
	int depth;                /* of the search before the move; 0 when not searched */
	uint64_t nodes;
	pk_gmove pv[NOTE_PV];     /* the best line from the position before the move */
	int npv;
	/* Classified by the endgame databases: the value (EGDB_WIN, _DRAW, _LOSS, for the
	 * side that moved) before the move and after it. */
	bool egdb;
	int egdb_before, egdb_after;
} pk_note;

/* Says whether a position (of any variant) and move are book moves (for CLASS_BOOK); may
 * be NULL. */
typedef bool (*pk_book_fn)(void *ctx, const pk_gpos *p, const pk_gmove *m);

typedef struct {
	pk_limits lim;
	pk_thresholds th;
	pk_book_fn in_book;
	void *book_ctx;
	volatile sig_atomic_t *stop;
	/* Endgame databases of English draughts (may be NULL): a move between positions they hold is classified
	 * by them, whatever the search says: a win given up for a draw or a loss, or a draw
	 * for a loss, is a blunder; a move that keeps the value is not one. */
	pk_egdb *egdb;
	/* A move the search classes a mistake or a blunder is searched again this many plies
	 * deeper than the depth reached (best move and move played; a time or node limit
	 * bounds that search at 16 times its own), and classed by that search: a shallow
	 * search's false alarms are dropped. 0: not checked. Not with another engine.
	 * A move still flagged is checked again, verify plies deeper each round, up to
	 * verify_rounds rounds (0 counts as 1; the time or node bound 4 times more a round). */
	int verify, verify_rounds;
	/* Another engine instead of pdnkit's (English games): each position before a move is
	 * searched for client_time seconds (its move and score), and a move other than its
	 * choice is scored by a search of the position after it. There is no only-move
	 * test (no protocol leaves moves out). When it fails, annotate_game returns 2 with
	 * the reason in client_error. */
	pk_client *client;
	double client_time;
	char *client_error;
	size_t client_error_size;
	/* after each move (may be NULL), e.g. for progress */
	void (*on_move)(void *ctx, const pk_note *n);
	void *ctx;
} pk_annotate_opts;

/* Annotate every ply of rp, a game of any variant (English draughts, or another replayed
 * and kept: pdn/vreplay.h), into notes (replay_gplies(rp) entries), with e's engine of
 * that variant's family. The engine starts a new game first, so a game's annotation
 * depends only on the game and the options (with one search thread and a depth or node
 * limit). Another engine (o->client) and the databases are English draughts'. 0; 1 when
 * stopped (the notes after the stop are CLASS_NONE); 2 when another engine failed
 * (o->client); -1 when out of memory or when e has no engine of the game's family. */
int annotate_game(pk_gengine *e, const pk_replay *rp, const pk_annotate_opts *o, pk_note *notes);

/* A note's class once the position before the move is searched (score_best set): the
 * move played is the engine's best (only when the second best, searched with the best
 * left out, scores a blunder less), or it scored score_played with every other move
 * left out (its loss classified). */
void annotate_note_best(pk_note *n, const pk_thresholds *th, bool has_second, int second);
void annotate_note_played(pk_note *n, const pk_thresholds *th, int score_played, uint64_t nodes);

/* Whether a note is checked by a deeper search in round 1, 2, ... (o->verify,
 * o->verify_rounds), and that search's limits: depth0 (the first search's depth) and
 * round times o->verify plies. */
bool annotate_verify_limits(const pk_annotate_opts *o, const pk_note *n, int round, int depth0, pk_limits *deep);
/* Classify a loss; only when the played move is the best and every other loses. */
int annotate_classify(const pk_thresholds *th, int loss);
/* A score clamped for losses: wins and losses found by search count as +-LOSS_CAP. */
int score_capped(int s);

/* The decisive mistake of a finished game (result RES_BLACK_WINS or RES_WHITE_WINS): the
 * loser's move after which every later position scored at least th->blunder for the
 * winner; its index in notes, or -1 (draws, or no such point). */
int annotate_decisive(const pk_note *notes, int n, int result, const pk_thresholds *th);

/* Per game or per player: counts and average loss over scored moves. */
typedef struct {
	int moves;                /* scored moves (not forced, book or set-up) */
	long total_loss;
	int count[CLASS_NONE];
} pk_tally;

void tally_add(pk_tally *t, const pk_note *n);
static inline double tally_average(const pk_tally *t) { return t->moves ? (double)t->total_loss / t->moves : 0; }

#endif
