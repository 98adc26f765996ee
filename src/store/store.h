/* The game store: one SQLite file holding games, their tags, findings and a position
 * index (every position of every game by Zobrist key). The only part of the core that
 * knows SQLite; its schema is documented in pdnkit-db(5). */
#ifndef PK_STORE_H
#define PK_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include "pdn/pdn.h"
#include "pdn/replay.h"

#define STORE_SCHEMA_VERSION 4

typedef struct pk_store pk_store;

/* How a command uses the store: it reads only (opened read-only: a file the user may
 * read but not write serves, nothing is changed, not even the journal mode), writes
 * to an existing one, or may create it. */
enum { STORE_READ, STORE_WRITE, STORE_CREATE };
/* Open the database at path (mode: one of the above) and, to write, migrate its schema
 * forward. Returns NULL with a message in err. */
pk_store *store_open(const char *path, int mode, char *err, size_t errsize);
void store_close(pk_store *s);
/* Statements run from now on are interrupted after this many seconds (0: never); an
 * interrupted call fails with "interrupted: took longer than N s" in store_error. */
void store_set_timeout(pk_store *s, double seconds);
const char *store_error(const pk_store *s);

/* Import. Games are written in batches, each one transaction: an interrupted import
 * keeps the batches it completed. */
int store_begin_import(pk_store *s, const char *source_path, bool positions);
/* A copy is the same game from another source: the same variant, start, moves and
 * result as a stored game, and compatible headers (each player's name shares a word of
 * three letters or more with the other's, or one is unknown; the same year, or one
 * unknown). What the import does with one (set before store_begin_import; default
 * COPIES_MARK): store it marked as a copy of the first (game.copy_of), which the
 * filters then leave out unless pk_filter.copies; not store it; store it unmarked. */
enum { COPIES_MARK, COPIES_SKIP, COPIES_KEEP };
void store_set_copies(pk_store *s, int mode);
/* ADDED: a new game; DUPLICATE: this very record is stored already (the same tags and
 * moves: not stored again); COPY_MARKED: stored, marked as a copy; COPY_SKIPPED: a copy,
 * not stored; COPY_KEPT: a copy, stored unmarked (COPIES_KEEP). */
enum { STORE_ADDED, STORE_DUPLICATE, STORE_COPY_MARKED, STORE_COPY_SKIPPED, STORE_COPY_KEPT };
/* Add a replayed game; *outcome says what became of it. 0 or -1. */
int store_add_game(pk_store *s, const pk_game *g, const pk_replay *rp, int *outcome);
/* Commit what is pending (call at the end, or to stop early). 0 or -1. */
int store_end_import(pk_store *s);
/* Games added and committed through this handle so far: what an import stored for good
 * (a failed batch is rolled back and not counted). */
long store_games_committed(const pk_store *s);
/* After a failed store_add_game: roll back what the batch added, keeping the error. */
void store_abort_import(pk_store *s);

/* Which games: every field is optional (NULL, 0, false). */
typedef struct {
	const char *player, *black, *white, *event, *site, *result;
	int32_t date_from, date_to;       /* YYYYMMDD; unknown month or day as 00 */
	int gametype;                     /* only games of this variant (PDN GameType; 0: any) */
	bool opening_set;                 /* games from the initial position that begin with: */
	const uint8_t *opening;           /* these ordinals (of English draughts unless gametype) */
	int opening_len;
	bool position_set;                /* games reaching the position with this key */
	uint64_t position_key;
	bool invalid;                     /* only games with errors */
	int64_t id;                       /* only this game (0: any) */
	int shard_k, shard_n;             /* only games with id % n == k - 1 (n <= 1: all) */
	int min_plies, max_plies;         /* -1 for none */
	const char *order;                /* id, date, event, black, white, plies, result */
	bool desc;
	bool copies;                      /* also the games marked as copies of another (unless
					   * id is given: a game asked for by its id is found) */
	bool own_moves;                   /* annotated moves (store_blunders): with player, black or
					   * white, only the moves that side played */
	long limit;                       /* 0 = all */
	long offset;                      /* store_query: skip this many first (paging) */
} pk_filter;

void filter_init(pk_filter *f);

/* One stored game, valid during the callback. */
typedef struct {
	int64_t id;
	const char *event, *site, *date, *round, *black, *white, *result;
	int plies, status, gametype;
	int ply;                          /* where it reached the position, or -1 */
	const char *start;                /* FEN, NULL for the initial position */
	const uint8_t *moves;
	int nmoves;
	const char *movetext;             /* stored move text, NULL when rebuilt from moves */
	int source_game;                  /* its number in the file it was imported from */
} pk_row;

enum { STATUS_VALID, STATUS_WARNINGS, STATUS_ERRORS, STATUS_NOT_REPLAYED };

/* Calls cb for each matching game; cb returns nonzero to stop. 0 or -1. */
int store_query(pk_store *s, const pk_filter *f, int (*cb)(void *ctx, const pk_row *row), void *ctx);
int store_count(pk_store *s, const pk_filter *f, long *count);
/* The tags of a game in stored order. */
int store_tags(pk_store *s, int64_t id, int (*cb)(void *ctx, const char *name, const char *value), void *ctx);

/* Rebuild a stored game as a game record and its replay (for export and analysis). */
int store_load_game(pk_store *s, const pk_row *row, pk_game *g, pk_replay *rp);

/* Mark the copies among the stored games (as at import, the first game of each set is
 * the original); *marked counts the games newly marked. 0 or -1. */
int store_mark_copies(pk_store *s, long *marked);
/* Whether the headers of two games of the same moves are those of one game: see
 * COPIES_MARK. Names as store_name_key gives them (NULL or "" unknown), dates as
 * store_date_key, results as stored. */
bool store_copy_compatible(const char *bkey1, const char *wkey1, int32_t date1, const char *res1,
			   const char *bkey2, const char *wkey2, int32_t date2, const char *res2);

/* Players. A name's key (store_name_key) stands for its player, unless an alias file
 * names it as a spelling of another player: then that player's key does. The aliases
 * are those of book/aliases.txt (built in) and of the last file applied; a store made
 * or migrated gets the built-in ones. Apply text (NULL: the built-in ones alone) to the
 * store: the alias tables replaced and every game's keys made again (*rekeyed counts
 * the games changed, *spellings the spellings known). 0, or -1 (a bad file: "where:LINE:
 * reason" in store_error). The alias file: a player's canonical name at the start of a
 * line, then its spellings, one an indented line each; '#' comments. */
int store_set_aliases(pk_store *s, const char *text, long *rekeyed, long *spellings);
/* One more spelling of a player: the games of the spelling (and of its own spellings, if
 * it was a player with some) become the player's, the player's canonical name as given
 * when it had none. Lasts until the next store_set_aliases. 0, or -1 (the spelling is
 * already the player's, a name without letters, a store error). */
int store_add_alias(pk_store *s, const char *spelling, const char *player, long *rekeyed);
/* Only parse (no store): 0, or -1 with the reason in err. */
int store_check_aliases(const char *text, char *err, size_t errsize, long *spellings);

typedef struct {
	const char *key, *name;           /* name: the canonical one, else the latest in sort order */
	long games;
	int first_year, last_year;        /* 0 when unknown */
	const char *spellings;            /* the names as written, the most used first, joined
					   * by '\x1F' (a character no name holds) */
	long won, drawn, lost;            /* of the games with a result ('*' in none) */
	long moves;                       /* moves of theirs annotated (each game's best run) */
	double average_loss;              /* the average loss of those moves (hundredths) */
} pk_store_player;
/* The players of the matching games, the most games first (limit 0: all). */
int store_players(pk_store *s, const pk_filter *f, long limit, int (*cb)(void *ctx, const pk_store_player *p), void *ctx);

/* Duplicates among the stored games (copies included): same start and moves under
 * different headers (kind "same-moves", ids in `ids`), games whose moves begin another,
 * longer game (kind "prefix": ids[0] is the shorter, ids[1] the longer), and games of
 * English draughts of the same start and length whose moves (as written: from and to)
 * differ at one ply (kind "one-move": ids[0] and ids[1], ids[2] the ply, from 1).
 * min_plies bounds the shorter game of a prefix pair and the games compared move by
 * move. */
int store_duplicates(pk_store *s, int min_plies,
		     int (*cb)(void *ctx, const char *kind, const int64_t *ids, int n, int plies), void *ctx);

/* Run a read-only SQL statement with the filter's WHERE clause appended where the
 * text contains "%W" (the games table is aliased g). cb gets
 * each row's columns as text. Used inside store/ only (summary.c, blunders); commands
 * call the typed functions. */
int store_select(pk_store *s, const char *sql, const pk_filter *f,
		 int (*cb)(void *ctx, int ncol, const char *const *cols), void *ctx);

/* An annotated move of a stored game (pdnkit blunders). Texts are NULL when absent. */
typedef struct {
	int64_t game;
	const char *event, *black, *white, *date;
	int ply;
	const char *side, *move, *best, *cls, *pv;
	int score_best, score_played, loss;
	int depth;                        /* -1 when not recorded */
} pk_blunder;

/* The annotated moves of the matching games (each game's best annotation run) that
 * lost at least min_loss, the worst first (then by game and ply), at most limit. cb
 * returns nonzero to stop. */
/* The best annotation run of a game (see ST_BEST_RUN): *run 0 when it has none. */
int store_best_run(pk_store *s, int64_t game, int64_t *run);

/* How many of the matching games have an annotation run. */
int store_count_annotated(pk_store *s, const pk_filter *f, long *count);

int store_blunders(pk_store *s, const pk_filter *f, int min_loss, long limit,
		   int (*cb)(void *ctx, const pk_blunder *b), void *ctx);

/* Whether games are stored without their positions indexed (imported with
 * --no-positions): a position search cannot find those. */
int store_unindexed_games(pk_store *s, long *count);

/* Engine annotations (pdnkit annotate). A run is one set of settings; its id is found
 * or created. */
int store_annotation_run(pk_store *s, const char *settings, const char *engine, int64_t *run);
int store_is_annotated(pk_store *s, int64_t game, int64_t run, bool *done);

typedef struct {
	int ply;
	const char *side, *cls, *move;
	bool scored;                      /* the fields below are set */
	const char *best, *pv;
	int score_best, score_played, loss, depth;
} pk_annot_row;

/* Replace a game's annotation by this run, and mark the game done, in one transaction;
 * decisive is the ply of the decisive mistake or 0. */
int store_save_annotation(pk_store *s, int64_t game, int64_t run, const pk_annot_row *rows, int n, int decisive);
/* Read back a game's annotation by this run, ply by ply (texts NULL when absent, valid
 * during the call; cb returns nonzero to stop), and the ply of its decisive mistake (0:
 * none). */
int store_load_annotation(pk_store *s, int64_t game, int64_t run, int (*cb)(void *ctx, const pk_annot_row *row),
			  void *ctx, int *decisive);
/* Add the annotations of another database (games matched by their moves and start,
 * runs by settings) that this one lacks; *games counts the games added. */
int store_merge_annotations(pk_store *s, const char *other, long *games);

/* PRAGMA integrity_check and foreign_key_check, then the position index (every block
 * decodes, keys and games in order): 0 and "ok", or -1 and the first problem in msg. */
int store_check(pk_store *s, char *msg, size_t size);

/* Encoding of move ordinals: one byte each; 255 escapes an ordinal of 255 or more,
 * written in the two bytes after it (little-endian). Returns bytes written. */
int store_encode_moves(const pk_replay *rp, uint8_t *buf, int cap);
int store_encode_ordinals(const int *ord, int n, uint8_t *buf, int cap);
int store_decode_moves(const uint8_t *buf, int len, int *ordinals, int cap);

/* A date bound given by a user, "YYYY", "YYYY-MM" or "YYYY-MM-DD" ('.' or '/' also
 * between), to a key YYYYMMDD: the missing parts 00, or 99 for the end of a range. 0,
 * or -1 when it is none of these. */
int store_date_bound(const char *s, bool end, int32_t *key);
/* Date as written to a sortable key YYYYMMDD (unknown parts 00), 0 if no year. */
int32_t store_date_key(const char *date);
/* Player name reduced for grouping: lower case, punctuation dropped, words sorted. */
void store_name_key(const char *name, char *out, size_t size);

#endif
