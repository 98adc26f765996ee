/* Replay: each move token of a game matched to exactly one legal move, the positions
 * reached, and findings for everything wrong or doubtful (appended to the game's). */
#ifndef PK_REPLAY_H
#define PK_REPLAY_H

#include "rules/gen.h"
#include "pdn/pdn.h"
#include "pdn/vreplay.h"
#include "rules/gpos.h"

enum { RES_NONE, RES_BLACK_WINS, RES_WHITE_WINS, RES_DRAW, RES_UNKNOWN };

typedef struct {
	pk_move move;
	int ordinal;       /* index in gen_moves() of the position before; -1 for a set-up */
	int nlegal;        /* legal moves in that position */
	int el;            /* element index of the token (the first, for hops written apart) */
	int el_last;       /* last element the move consumed (> el for hops written apart) */
	char marks[4];     /* strength marks written with the move ("!", "?!") */
	int glued_el;      /* element whose text had prose glued to the move, or -1 */
	pk_pos after;      /* position after the move (or after the /FEN/ set-up) */
} pk_ply;

typedef struct {
	pk_pos start;
	bool custom_start;     /* from a FEN tag */
	int variant;           /* GameType's first number; 21 when absent */
	bool supported;        /* English draughts, replayed */
	/* Another variant whose rules pdnkit knows: replayed by pdn/vreplay, its ordinals
	 * and position keys in vr; variant is then its GameType. */
	bool variant_replayed;
	pk_vreplay vr;
	int variant_plies;
	int variant_first;     /* the side that opens each move number in that variant */
	bool complete;         /* every main-line move replayed */
	pk_ply *plies;
	int nply, cap;
	int result;            /* RES_* from the result token, else from the Result tag */
	int result_el;         /* element index of the result token, -1 when none */
	/* Why earlier games of this file were judged another variant ("" when none): games
	 * without a GameType that fail as English are then taken for that variant too. */
	char file_hint[200];
	/* Fixes that --fix may apply: element index and the move it should read. */
	int fix_el;
	char fix_text[PK_MOVE_STRLEN];
	char fix_why[40];
} pk_replay;

void replay_init(pk_replay *rp);
void replay_free(pk_replay *rp);
/* Call before the first game of each file: forgets the file's variant hint. */
void replay_new_file(pk_replay *rp);
/* Replay g's main line. Findings go to g->findings. Returns 0, or -1 when out of memory. */
int replay_game(pk_game *g, pk_replay *rp);

/* Replay moves written as text from the initial position ("9-14 23-18 ..."), as an
 * option's value gives them. Returns 0 with the replay in g and rp and *error NULL, or
 * -1 with *error pointing at the reason (the first error finding, or a fixed text). */
int replay_moves_text(const char *text, pk_game *g, pk_replay *rp, const char **error);
/* The same under another variant's rules (a PDN GameType; 21 is English draughts):
 * the moves are then in rp->vr. */
int replay_moves_text_as(const char *text, int gametype, pk_game *g, pk_replay *rp, const char **error);

/* "1-0", "0-1", "1/2-1/2", "*" for a RES_* value. */
const char *result_string(int result);
/* Normalise a result as written ("2-0", "BW", "1/2-1/2"...) to RES_*; RES_NONE if not one. */
int result_parse(const char *s);
/* The name of a PDN GameType ("Russian draughts" for 25), "unknown variant" when unknown. */
const char *variant_name(int gametype);
/* A move typed by a person in p ("11-15", "22x15", "22x15x24", "1115"): the distinct
 * legal moves it can mean, up to max into out (several when a jump has more than one way
 * on, which the caller asks about). 0 when it means none, with the reason and what was
 * probably meant ("did you mean ...?") in why. */
int replay_read_move(const pk_pos *p, const char *text, pk_move *out, int max, char *why, size_t size);
/* The plies of a replay of any variant (English draughts' plies, or another variant's
 * replayed in vr). */
int replay_gplies(const pk_replay *rp);
/* Ply p (1-based, up to replay_gplies) of a replay of any variant: the position before
 * it and the move played. False for an English /FEN/ set-up, or p out of range. */
bool replay_gply(const pk_replay *rp, int p, pk_gpos *before, pk_gmove *m);
/* The keys of the positions before ply p of any variant's replay (as replay_history:
 * keys[0..p-1], and the reversible plies in a row before p: for another variant its
 * kings' plain moves, the count of its draw rule). */
int replay_ghistory(const pk_replay *rp, int p, uint64_t *keys);
/* For another variant's replay, the plies played in the limited ending of the position
 * before ply p as its draw rule counts them (pk_history.ending; rules/vdraw.c); 0 for
 * English draughts, a position of no such ending, or out of memory. */
int replay_gending(const pk_replay *rp, int p);
/* The position before ply p (1-based): the start, or the position after ply p-1. */
const pk_pos *replay_pos_before(const pk_replay *rp, int p);
/* The keys of the positions before ply p's (the start, then the position after each
 * ply up to p-1) into keys[0..p-1]; returns how many of the plies before p were
 * reversible in a row (a set-up resets the count). */
int replay_history(const pk_replay *rp, int p, uint64_t *keys);
/* Move number and side of ply p, as PDN writes them ("move 31 (Black)"). */
int replay_move_number(const pk_replay *rp, int p);

#endif
