/* Writing games as canonical PDN 3.0: standard tag order, regenerated move numbers,
 * normalised results, comments, NAGs and variations kept. Reading the output and
 * writing it again gives the same bytes. */
#ifndef PK_PDN_WRITE_H
#define PK_PDN_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include "pdn/pdn.h"
#include "pdn/replay.h"

/* Where the text goes: returns 0, or -1 to stop. */
typedef int (*pk_sink)(void *ctx, const char *buf, size_t len);

typedef struct {
	bool full_jumps;   /* every capture with its whole path; else only where needed */
	int width;         /* wrap move text at this column (80) */
	bool verbatim_tags;/* tags exactly as read, in their order (no "?" roster, Result as written) */
	bool plain;        /* the main line only: a number before each first-mover move and
			    * none else ("N..." never), no comments, NAGs or variations */
	/* Text to write after main-line ply p (1-based), e.g. an engine's comment, NAG and
	 * variation: tokens separated by newlines, "(" and ")" around a variation. May be
	 * NULL; returns NULL or "" for nothing. Written before the move's own comments. */
	const char *(*after_move)(void *ctx, int ply);
	void *ctx;
} pk_write_opts;

/* A move as PDN writes it in position before: the short form of a capture unless
 * another capture has the same ends (or full is set). buf: PK_MOVE_STRLEN. */
int pdn_move_string(const pk_pos *before, const pk_move *m, bool full, char *buf);

/* Write one game (replayed by replay_game) followed by a blank line. 0 or -1. */
int pdn_write_game(const pk_game *g, const pk_replay *rp, const pk_write_opts *o,
		   pk_sink sink, void *ctx);

/* Replace the text of move element el by text and put a comment with note after it.
 * Used by convert --fix. 0, or -1 when out of memory. */
int game_fix_move(pk_game *g, int el, const char *text, const char *note);

#endif
