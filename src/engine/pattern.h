/* The pattern evaluation: the contents of overlapping 4x4 regions of the board (eight
 * playing squares each: empty, the mover's piece or the opponent's, 3^8 = 6561 states)
 * index a learned weight each: the nine regions two squares apart (windows 0-8), or all
 * 25 positions of a 4x4 region on the board (windows 9-24 the 16 others; a file says how
 * many it uses), in phases placed evenly from 24 pieces down to 2
 * and blended linearly by the number of pieces between the two nearest,
 * from the side to move's view (the board turned for White, so one table serves both
 * sides). It adds to the hand-set evaluation (engine/eval.h): what it learns is what
 * that one misses. Weights in hundredths of a man, learned by pdnkit train
 * (engine/learn.h) from game results; book/patterns.txt is built in. */
#ifndef PK_PATTERN_H
#define PK_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rules/pos.h"

#define PAT_WINDOWS 25                 /* at most */
#define PAT_WINDOWS_BASIC 9             /* the regions two squares apart */
#define PAT_MATERIAL PAT_WINDOWS        /* the table of the material: after the windows */
/* The tables: the windows, the material's, then the ten strips of the 10x10 variants'
 * windows (engine/vpattern.h: VPAT_STRIP0 ..), which English draughts never reads. */
#define PAT_TABLES (PAT_WINDOWS + 1 + 10)
#define PAT_CELLS 8
#define PAT_INDEX 6561                  /* 3^8 */
#define PAT_KINDEX 390625               /* 5^8: the endgame table's windows tell men from kings */
#ifndef PAT_PHASES
#define PAT_PHASES 2                    /* at 24 and 2 pieces (2, 3, 12 or 23) */
#endif
#define PAT_SEG (22 / (PAT_PHASES - 1)) /* pieces from one phase to the next */
#define PAT_FORMAT 5                    /* format 1: two phases, at 24 and 2 pieces; 2: nine windows;
					 * 3: 25 windows, the material table; 4: the endgame table;
					 * 5: the endgame table with kings told from men */
#define PAT_END_MIN 3                   /* the endgame table's reach: at most 3 .. 16 pieces */
#define PAT_END_MAX 16

typedef struct pk_patterns {
	int16_t w[PAT_PHASES][PAT_TABLES][PAT_INDEX];
	/* The endgame table: nine more windows (the regions two squares apart), phases as
	 * above, added in positions of at most end_pieces pieces (0: no table), each square
	 * in one of five states (empty, the mover's man, the opponent's man, the mover's
	 * king, the opponent's king: pattern_king_indices). Learned by pdnkit train
	 * --endgame as what the rest of the evaluation misses there. Read only when
	 * end_pieces is set (patterns_parse leaves it as it was otherwise). */
	int16_t e[PAT_PHASES][PAT_WINDOWS_BASIC][PAT_KINDEX];
	int end_pieces;
	uint32_t checksum;              /* FNV-1a of the weights: names them in settings */
	long nonzero;
	int windows;                    /* the windows used: PAT_WINDOWS_BASIC or PAT_WINDOWS (a
					 * 10x10 variant's: 16, 25 or 35, engine/vpattern.h) */
	int material;                   /* 1: the material table w[.][PAT_MATERIAL] is used */
	bool men_only;                  /* 10x10 windows: men only, a king's square read as
					 * empty (engine/vpattern.h) */
	bool tempo;                     /* 10x10: the phases placed by the men's rows to go,
					 * not by the pieces (engine/vpattern.h) */
	/* The 10x10 search's copy of w with the two phases of an index side by side (the
	 * first in the low half), so that a window's two weights are one read: built by
	 * vpatterns_checksum (wi_ready), cleared by patterns_checksum. */
	uint32_t wi[PAT_TABLES][PAT_INDEX];
	bool wi_ready;
} pk_patterns;

/* The index of the contents of each of the first `windows` windows, from the side to
 * move's view, and when `material`, of the material (idx[PAT_MATERIAL]: each side's
 * pieces, up to 12, and kings among them, up to 8, the mover's first: 81 x 81 = 6561
 * cases; left as it was otherwise), and where the
 * piece count falls among the phases: between phase *phase and the next, *t pieces of
 * PAT_SEG past the first (the next phase's share is t / PAT_SEG). */
void pattern_indices(const pk_pos *p, int windows, bool material, uint16_t idx[PAT_TABLES], int *phase, int *t);
/* The index of each of the nine windows two squares apart with kings told from men,
 * from the side to move's view: the base-5 number whose digits are the squares' states
 * (0 empty, 1 the mover's man, 2 the opponent's man, 3 the mover's king, 4 the
 * opponent's king), the window's first square the lowest digit. */
void pattern_king_indices(const pk_pos *p, uint32_t kidx[PAT_WINDOWS_BASIC]);
/* Their sum in hundredths for the side to move. */
int pattern_eval(const pk_patterns *pt, const pk_pos *p);

/* The text form: "pdnkit-patterns 3", "phases N" (N must be PAT_PHASES), "windows W"
 * (9 or 25) and, when the material table is used, "material" (its weights are window
 * 25's), then "PHASE WINDOW INDEX VALUE" lines for the weights that are not zero; '#'
 * comments. Format 2 files have no "windows" line: nine windows, no material table.
 * Format 1 files (two phases, at 24 and 2 pieces) are read too, their phases between
 * placed on the line that joins those two. Format 5 adds the endgame table: "endgame N"
 * (its reach in pieces) and "e PHASE WINDOW INDEX VALUE" lines (windows 0-8, INDEX of
 * pattern_king_indices). Format 4's table did not tell kings from men (INDEX below
 * 6561, as the other windows'): each of its weights is read into every state of its
 * squares that has a man or a king where it has a piece.
 * 0, or -1 with the line and reason in err. */
int patterns_parse(const char *text, pk_patterns *pt, char *err, size_t errsize);
/* The text of pt (malloc'ed; NULL when out of memory), with a header comment: format 2
 * when it uses nine windows and no material table (the same file as before there were
 * more), 5 when it has an endgame table, else 3. */
char *patterns_format(const pk_patterns *pt, const char *comment);
void patterns_checksum(pk_patterns *pt);

/* The built-in weights (book/patterns.txt); NULL when it holds none. */
const pk_patterns *patterns_builtin(void);

#endif
