/* What the files of store/ share and nobody else sees: the store's state, and the
 * error, statement and text helpers. */
#ifndef PK_STORE_INTERNAL_H
#define PK_STORE_INTERNAL_H

#include <sqlite3.h>
#include "store/store.h"


/* Games per transaction: a part of the position index (PART_BITS) is written by one
 * batch in a new store, so that its rows go in as one sorted run; an interrupted import
 * loses at most one batch of work (the next run adds those games). */
#define BATCH_GAMES (1 << PART_BITS)
#define PART_BITS 13
#define TAG_MANY 16                     /* tags an INSERT at most */
#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct {
	uint64_t key;
	int64_t game;
	int32_t ply;
} posrow;

struct pk_store {
	sqlite3 *db;
	char err[512];
	/* import state */
	bool importing, positions;
	int64_t source;
	int pending;                      /* games added since the last commit */
	long committed;                   /* games added and committed by this handle */
	sqlite3_stmt *ins_game, *ins_finding, *find_dup, *find_copy;
	sqlite3_stmt *ins_tags[TAG_MANY];   /* INSERT of 1 .. TAG_MANY tags */
	int copies;                       /* COPIES_MARK, COPIES_SKIP or COPIES_KEEP */
	char **aliases;                   /* spelling key, player key, ... sorted by spelling */
	size_t naliases;
	posrow *pos;
	size_t npos, poscap;
	long unindexed;                   /* games of this batch stored without positions */
	double deadline;                  /* store_set_timeout: a monotonic time, or 0 */
	int hit_tables;                   /* st_position_join's tables in use */
};


/* The position index (store/posindex.c). st_index_rows adds rows in game order (a game's
 * plies in order) inside the caller's transaction; the part a row falls in is
 * read back and merged when it has blocks already. */
int st_index_rows(pk_store *s, posrow *rows, size_t n);
/* cb(ctx, game, first ply) for each game reaching the position with this key, in game
 * order; a nonzero return stops. 0 or -1. */
int st_position_games(pk_store *s, uint64_t key, int (*cb)(void *ctx, int64_t game, int ply), void *ctx);
/* Every block decodes, its keys in order across the part, its games in order within
 * the part: 0, or -1 with what is wrong in msg. */
int st_check_positions(pk_store *s, char *msg, size_t size);
/* Schema version 4: the index of rows (part, key, game, ply) made blocks, in the caller's
 * transaction. */
int st_migrate_positions(pk_store *s);
/* Games reaching f's position put in a temporary table, and the JOIN that reads it as p
 * (p.ply the first ply) into join; st_position_done drops it. Nothing when f has no
 * position. 0 or -1. */
int st_position_join(pk_store *s, const pk_filter *f, char *join, size_t size);
void st_position_done(pk_store *s, const pk_filter *f);

/* s->err = "what: sqlite's message"; returns -1. */
int st_fail(pk_store *s, const char *what);
/* Run SQL without results; -1 with s->err. */
int st_exec(pk_store *s, const char *sql);
/* The GameTypes whose first mover is White, as an SQL list ("0,20,..."): "1-0" is a
 * win for White there, for Black in English draughts. */
void st_white_first(char *buf, size_t size);
int st_prepare(pk_store *s, sqlite3_stmt **st, const char *sql);
/* What finding a game's copies looks at (moves as stored, names as keys, NULL unknown). */
typedef struct {
	const char *start;
	int gametype;
	const uint8_t *moves;
	int nmoves;
	const char *bkey, *wkey, *result, *event, *round;
	int32_t date;
} st_game_head;
/* The statement st_find_copy runs (prepared by the caller, kept for many games). */
extern const char *const st_find_copy_sql;
/* The first original stored with an id below `below` of which h is a copy (see
 * store.h), not one of the ids in marked[0..nmarked) (sorted); *copy_of 0 when none. 0
 * or -1. */
int st_find_copy(pk_store *s, sqlite3_stmt *fc, const st_game_head *h, int64_t below, const int64_t *marked,
		 size_t nmarked, int64_t *copy_of);
/* The store's aliases read for st_player_key (st_load_aliases; freed by st_free_aliases
 * and store_close). */
int st_load_aliases(pk_store *s);
void st_free_aliases(pk_store *s);
/* A name's player key: its store_name_key, or the key of the player it is an alias of. */
void st_player_key(const pk_store *s, const char *name, char *out, size_t size);
/* Every game's player keys made again; the alias tables set (built-in and text's) and
 * the keys made again; both inside the caller's transaction. */
int st_rekey(pk_store *s, long *changed);
int st_set_aliases(pk_store *s, const char *text, long *rekeyed, long *spellings);
/* store_mark_copies inside the caller's transaction. */
int st_mark_copies(pk_store *s, long *marked);
/* Drop the import's prepared statements. */
void st_finalize_import(pk_store *s);

/* A growing text. */
typedef struct {
	char *p;
	size_t n, cap;
	bool body;
} textbuf;

int st_text_sink(void *ctx, const char *buf, size_t len);

/* The best annotation run of game G (an SQL expression): of the runs that annotated
 * it, the one that searched its moves deepest on average, the latest of equals. A
 * shallower run made later never hides a deeper one. */
#define ST_BEST_RUN(G) \
	"(SELECT x.run FROM annotated x WHERE x.game = " G \
	" ORDER BY (SELECT avg(y.depth) FROM annotation y WHERE y.game = x.game AND y.run = x.run) DESC, x.run DESC LIMIT 1)"

#endif
