/* What the files of the replay share (pdn/replay.c, match.c, explain.c, variant.c):
 * matching written squares to legal moves, explaining illegal ones, and telling other
 * variants' games apart. Not for use outside pdn/. */
#ifndef PK_REPLAY_INT_H
#define PK_REPLAY_INT_H

#include "pdn/replay.h"
#include "pdn/written.h"

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
