/* The one walk over games that every command takes: PDN files (or standard input) or a
 * filter over the store in, (game, replay) pairs out, in order, with the file and game
 * they came from, read errors reported, and the bytes read for progress. One reader
 * and one replay serve the whole walk, so the variant hint of a file carries from game
 * to game as replay_new_file() intends. */
#ifndef PK_GAMES_H
#define PK_GAMES_H

#include <stdbool.h>
#include <stdint.h>
#include "pdn/pdn.h"
#include "pdn/replay.h"
#include "store/store.h"

typedef struct {
	const char *const *files;   /* PDN files, "-" for standard input; or */
	int nfiles;
	pk_store *store;            /* the games of the store that match filter */
	const pk_filter *filter;
	bool no_replay;             /* read only (rp is left empty) */
	bool read_ahead;            /* files: read and replay on a thread of their own, ahead
				     * of the caller (who must not use it from other threads) */
	const volatile sig_atomic_t *stop;   /* a signal's flag: reading stops (see pdn_set_stop) */
} pk_source;

typedef struct pk_games pk_games;

/* NULL only when out of memory, or when the store's query fails (err says why). */
pk_games *games_open(const pk_source *src, char *err, size_t errsize);
/* GAMES_GAME: the next game is in *g and *rp (valid until the next call).
 * GAMES_END: no more games.
 * GAMES_ERROR: a file could not be opened or read to its end, or a stored game could not
 * be loaded: games_error() says which and why; call again to go on with what follows.
 * GAMES_FATAL: out of memory; stop. */
enum { GAMES_END, GAMES_GAME, GAMES_ERROR, GAMES_FATAL };
int games_next(pk_games *it, pk_game **g, pk_replay **rp);
const char *games_error(const pk_games *it);
/* The file the last game or error came from ("-" for standard input), or the store's
 * name "(store)"; the stored game's id (0 for files). */
const char *games_file(const pk_games *it);
int64_t games_id(const pk_games *it);
/* The index in files of the file the last game or error came from (0 for the store):
 * a command that works file by file sees it change. */
int games_file_index(const pk_games *it);
/* Progress: bytes of the current file read so far and its size (0 when not known:
 * standard input, compressed input); for the store, games done and games matched. */
void games_progress(const pk_games *it, uint64_t *done, uint64_t *total);
/* Move the last game out of the walk into g and rp (which the caller then owns and
 * frees with game_free and replay_free); the walk goes on with fresh ones, keeping the
 * file's variant hint. */
void games_take(pk_games *it, pk_game *g, pk_replay *rp);
/* Files that could not be opened or read to their end so far. */
int games_unreadable(const pk_games *it);
void games_close(pk_games *it);

#endif
