/* The batch annotator: the games of files or of a store annotated on N threads, the
 * longest of each chunk first, handed back in their input order with their notes as
 * text. With a store, each game's annotation is saved under a run (one set of
 * settings, see batch_settings) and a rerun reads back or skips what was done. Per
 * player and overall tallies are kept. The caller prints; nothing here does. */
#ifndef PK_BATCH_H
#define PK_BATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "analysis/annotate.h"
#include "store/games.h"

/* A move's annotation as text: made from a search, or read back from a store. */
typedef struct {
	int ply, side, cls;
	char move[PK_MOVE_STRLEN], best[PK_MOVE_STRLEN];
	bool scored;
	int score_best, score_played, loss, depth;
	int egdb;                    /* 0, or 2 + the database's value after the move (EGDB_*) for the mover */
	char pv[NOTE_PV * 12];       /* the best line, space-separated */
} pk_tnote;

enum {
	BATCH_ANNOTATED,     /* searched now (and saved, with a store) */
	BATCH_REUSED,        /* read back from an earlier run with the same settings */
	BATCH_SKIPPED,       /* done before, not read back (nothing wanted it) */
	BATCH_UNSUPPORTED,   /* not replayed (or, with english_only, not English draughts) */
	BATCH_FAILED,        /* not finished: out of memory, or stopped */
};

typedef struct {
	pk_game g;
	pk_replay rp;                /* English draughts, or another variant's replay in rp.vr */
	int64_t id;                  /* the store's id, or the game's number in its file */
	const char *file;            /* NULL for the store */
	int status;                  /* BATCH_* */
	pk_tnote *notes;             /* bgame_plies() notes when ANNOTATED or REUSED */
	int decisive;                /* index into notes of the decisive mistake, or -1 */
	pk_tally side[2];            /* per side (PK_BLACK, PK_WHITE) */
	bool done_before, ok;
	char error[600];             /* why it failed, when another engine failed (else empty) */
} pk_bgame;

typedef struct {
	pk_annotate_opts ao;         /* limits, thresholds, book, egdb (stop is set by batch) */
	pk_weights w;
	pk_features f;
	int threads;                 /* 1..64 */
	size_t hash;                 /* MB per engine */
	pk_store *store;             /* save and resume here (NULL: files, nothing saved) */
	int64_t run;                 /* with store: the run of these settings */
	bool read_back;              /* with store: read back games done before (else skip them) */
	bool english_only;           /* games of other variants are left unannotated */
	int shard_k, shard_n;        /* files: only every n-th game from the k-th (the store filters itself) */
	const volatile sig_atomic_t *stop;
	/* Another engine instead of pdnkit's (English games only; NULL: pdnkit's): each
	 * worker starts its own, again after a failure. */
	const pk_engine_spec *ext;
	pk_client_opts copts;
	double ext_time;             /* seconds a search */
	/* Each game in input order, once it is done (on the calling thread). */
	void (*on_game)(void *ctx, const pk_bgame *b);
	/* A file or stored game that could not be read (the batch goes on). */
	void (*on_error)(void *ctx, const char *msg);
	/* After every position the first worker annotates, and after each game any worker
	 * finishes: the games done (finished, though not yet handed to on_game), their
	 * number when known (else 0) and the positions annotated. Calls come from the
	 * workers, one at a time (a lock); nothing else of the batch prints meanwhile. */
	void (*on_progress)(void *ctx, long games_done, long games_total, long positions);
	void *ctx;
} pk_batch_opts;

/* The plies of a game (English, or another variant's); whether the batch can annotate
 * it (replayed, under rules pdnkit knows); the side whose moves open a move number and
 * from whose view results and [%eval] are written (Black in English draughts, the
 * variant's first mover in the others). */
int bgame_plies(const pk_bgame *b);
bool bgame_annotatable(const pk_bgame *b);
int bgame_first(const pk_bgame *b);

typedef struct {
	long annotated, reused, skipped, unsupported, failed, unreadable;
	long positions;
	pk_tally all;
} pk_batch_counts;

typedef struct {
	char *name;
	int games;
	pk_tally t;
} pk_player_sum;

typedef struct pk_batch pk_batch;

/* NULL and err when out of memory or the tables cannot be allocated. */
pk_batch *batch_new(const pk_batch_opts *o, char *err, size_t errsize);
/* Annotate the games of src. 0; -1 with batch_error() when a store write failed or memory
 * ran out (what was finished is kept). Read errors go to on_error and are counted. */
int batch_run(pk_batch *b, const pk_source *src);
const char *batch_error(const pk_batch *b);
const pk_batch_counts *batch_counts(const pk_batch *b);
/* Per player, the highest average loss first. */
const pk_player_sum *batch_players(pk_batch *b, int *n);
void batch_free(pk_batch *b);

/* The settings a stored annotation is made with, as the text that names its run: a
 * rerun with the same text skips the games already done. */
void batch_settings(const pk_batch_opts *o, uint32_t book_id, char *buf, size_t size);

/* The PDN comment written after an annotated move: the NAG, [%eval] and [%depth], the
 * database's word, and with variations (0 none, 1 mistakes and blunders, 2 also
 * inaccuracies) the best line numbered like the main line. NULL when the move has
 * nothing to say. */
const char *batch_comment(const pk_bgame *b, int ply, int variations, char *buf, size_t size);
/* [%eval] text of a note: the score after the move from the view of first (the side
 * bgame_first() names), in men, or #n. */
int batch_eval_text(const pk_tnote *t, int first, char *buf, size_t size);

#endif
