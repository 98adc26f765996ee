/* What the files of the replay share (pdn/replay.c, match.c, explain.c, variant.c):
 * matching written squares to legal moves, explaining illegal ones, and telling other
 * variants' games apart. Not for use outside pdn/. */
#ifndef PK_REPLAY_INT_H
#define PK_REPLAY_INT_H

#include "pdn/replay.h"
#include "pdn/written.h"

/* A game being replayed: one driver (replay.c) reads the elements, numbers, marks and
 * results of every variant; the move of a token is matched on the game's board, English
 * draughts' bitboards (replay.c) or another variant's squares (vreplay.c). */
typedef struct {
	pk_game *g;
	pk_replay *rp;
	const pk_variant *v;  /* NULL: English draughts */
	pk_pos pos;
	pk_movelist ml;
	pk_vpos vpos;
	pk_vmovelist *vml;
	int ply;              /* ply being replayed, 1-based */
	int first_el;         /* the move's first element (its text may go on to the next) */
	const pk_el *el;
	const char *text;     /* as written (joined when written apart: "1- 7") */
} rp_ctx;

/* The error finding of the move being replayed: fmt has a %s for the move and one for
 * detail. */
pk_finding *rp_error_at(rp_ctx *c, const char *kind, const char *fmt, const char *detail);
/* Another variant's move w (the token at element ei, the move's last element): matched
 * to one legal move of c->vpos, played, kept in c->rp->vr. Returns the elements used
 * beyond ei, -1 when it is not legal (an error finding says why), -2 out of memory. */
int rp_vmove(rp_ctx *c, int ei, const pk_written *w);
/* Element i's move text: the element's own, or joined in buf with the next element's
 * when the move is written apart ("1- 7"); *last is the move's last element. */
const char *rp_move_text(const pk_game *g, int i, char *buf, size_t size, int *last);
/* Whether element i only holds a move's place ("...", as in "77. ..."). */
bool rp_place_holder(const pk_game *g, int i);
/* The main-line move at element *i or after it: its text (joined with the next element
 * when written apart, "1- 7") into text, read into w on v's board (NULL: English
 * draughts). 1 with *i on the move's last element, 0 at the end of the main line, -1
 * when the token does not read (why says so). Place holders ("...") are skipped. */
int rp_next_move(const pk_game *g, const pk_variant *v, int *i, char *text, size_t size, pk_written *w,
		 char *why, int whylen);

/* A move as PDN writes it (short, or full with every square). */
void rp_fmt_move(const pk_move *m, bool full, char *buf);
/* Candidates of ml matching the written squares exactly: up to max indices into idx;
 * returns how many. */
int rp_find_matches(const pk_movelist *ml, const int *sq, int n, int *idx, int max);
/* Captures of ml whose squares start with the written ones (or_equal: or are them). */
int rp_find_extensions(const pk_movelist *ml, const int *sq, int n, int *idx, int max, bool or_equal);

/* Why a written move is impossible in p, in a few words ("" when no reason is found). */
void rp_explain(const pk_pos *p, const pk_written *w, char *buf, size_t size);
/* The moves most plausibly meant by an illegal one, into f's suggestions. */
void rp_suggest_for_illegal(const pk_movelist *ml, const pk_pos *pos, const pk_written *w, pk_finding *f);
/* " did you mean 27-32 (squares reversed) or 23-27 (one digit off)?" after f's message. */
void rp_append_suggestions(pk_finding *f);

/* The same for another variant's move (pdn/vexplain.c): text as written, its squares
 * sq[0..n-1] (n < 2: it does not read as squares of the board), ml p's legal moves. */
void rp_vexplain(const pk_vpos *p, const pk_vmovelist *ml, const char *text, const int *sq, int n, char *buf,
		 size_t size);
void rp_vsuggest(const pk_vpos *p, const pk_vmovelist *ml, const char *text, const int *sq, int n, pk_finding *f);

#define WHY_SIZE 200
/* Signs that a game without a GameType tag is not English draughts (see variant.c):
 * a description in why, or NULL when the game looks English. */
const char *rp_other_variant(const pk_game *g, bool full, char why[WHY_SIZE]);

/* GameType's full form ("20,W,10,10,N2,0": the type, the colour that moves first, the
 * board's width and height, the notation with its corner, the invert flag) checked
 * against the variant of the type: a warning when it cannot be read or says another
 * board or first mover. The notation is not enforced: both forms are read anyway. */
void rp_check_gametype_form(pk_game *g, int gametype);

#endif
