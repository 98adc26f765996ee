/* A game of another variant (rules/variant.c) as pdn/replay.c replays it: each
 * main-line move, written with numeric squares ("32-28", "28x17x8") or alphanumeric ones
 * ("c3-d4", "d4:b6"), matched to exactly one legal move under that variant's rules;
 * kept as its index in vgen()'s list (the store's move ordinals) with each position's
 * key (its position index). */
#ifndef PK_VREPLAY_H
#define PK_VREPLAY_H

#include "pdn/pdn.h"
#include "rules/variant.h"

typedef struct {
	int plies;                   /* moves replayed */
	bool complete;               /* every main-line move replayed */
	int first;                   /* who moved first: PK_WHITE or PK_BLACK */
	pk_vpos start;               /* the start (the FEN tag's, or the variant's) */
	bool custom_start;
	bool bad_start;              /* the FEN tag does not read: start is an empty board of
				      * the variant, nothing replayed, ord/key/el NULL */
	/* with keep: ord[i] the index of ply i+1 in vgen()'s list of the position before it,
	 * key[0] the start's vpos_key and key[i] the key after ply i (plies + 1 of them),
	 * el[2i] and el[2i+1] the game's first and last element of ply i+1's move text */
	int *ord;
	uint64_t *key;
	int *el;
	pk_vpos *pos;                /* with keep: pos[i] the position after ply i (pos[0] the
				      * start), plies + 1 of them */
	int *rev;                    /* with keep: rev[i] the kings' plain moves in a row (no
				      * capture, no man moved) ending at the position after ply i
				      * (rev[0] 0): the draw rules' and repetitions' count */
	int cap;
} pk_vreplay;

/* How many of g's main-line moves replay under v from its start (the FEN tag's), taking
 * the first legal move each names; -1 when the FEN does not fit v's board or the first
 * move is not legal there. For telling
 * which variant a game without a GameType is. */
int vreplay_trial(const pk_game *g, const pk_variant *v);
/* Start keeping a replay from start (frees what r held). 0, or -1 when out of memory.
 * The moves are then added by the replay (pdn/replay.c). */
int vreplay_begin(pk_vreplay *r, const pk_vpos *start);
void vreplay_free(pk_vreplay *r);
/* The position before ply (1-based; plies + 1: the last) of a kept replay, and the move
 * played there into m (may be NULL). 0, or -1 when ply is out of range. */
int vreplay_pos_before(const pk_vreplay *r, int ply, pk_vpos *p, pk_vmove *m);
/* The legal moves of p that a move written as text ("32-28", "28x17x8", "c3-d4") may
 * be, into cand (room for max): how many (0: none fits), -1 when text is no move. */
int vreplay_read_move(const pk_vpos *p, const char *text, pk_vmove *cand, int max);

#endif
