/* The pattern evaluation of the 10x10 variants (International, Frisian), learned as the
 * English one is (engine/pattern.h, engine/learn.h): the contents of sixteen overlapping
 * 4x4 regions two squares apart (eight playing squares each: empty, the mover's piece or
 * the opponent's, 3^8 = 6561 states), or of those and the nine regions between them
 * (rows and columns 1, 3, 5: 25 windows; pk_patterns' windows says which), index a
 * weight each, in the phases of pattern.h
 * placed from 40 pieces down to 2, from the side to move's view (the board turned half a
 * circle for Black, so that one table serves both sides). It adds to the variant's
 * hand-set evaluation (engine/vsearch.h). Weights in hundredths of a man in a
 * pk_patterns (the tables of its 16, 25 or 35 windows), learned by pdnkit train --variant, built in
 * from book/vpatterns-*.txt. */
#ifndef PK_VPATTERN_H
#define PK_VPATTERN_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/pattern.h"
#include "rules/variant.h"

#define VPAT_WINDOWS 25        /* the sixteen two squares apart, then nine between */
#define VPAT_WINDOWS_BASIC 16
/* And ten strips of eight playing squares that see across the board: five two columns
 * wide from row 2 to row 9 (columns a-b, c-d, ..., i-j), five two rows high from column
 * b to column i (rows 1-2, 3-4, ..., 9-10): 35 windows in all ("windows 35"). Their
 * tables follow the material's (VPAT_STRIP0 .. VPAT_STRIP0 + 9); window k's table is
 * vpattern_table(k). */
#define VPAT_WINDOWS_STRIPS 35
#define VPAT_STRIP0 (PAT_MATERIAL + 1)
_Static_assert(VPAT_STRIP0 + 10 <= PAT_TABLES, "the strips' tables");

static inline int vpattern_table(int k) { return k < VPAT_WINDOWS ? k : k + 1; }
/* Whether table k is one of the first `windows` windows' (16, 25 or 35). */
static inline bool vpattern_table_used(int windows, int k)
{
	return k < VPAT_WINDOWS ? k < windows : k >= VPAT_STRIP0 && k < VPAT_STRIP0 + windows - VPAT_WINDOWS;
}

/* Whether v's board has patterns (10x10, diagonal moves). */
bool vpattern_board(const pk_variant *v);
/* The index of each window's contents from the side to move's view (idx[vpattern_table(k)]
 * for window k), and where the piece
 * count falls among the phases (as pattern_indices); with men_only a king's square is
 * read as empty (the phase still counts it). */
void vpattern_indices(const pk_vpos *p, bool men_only, bool tempo, uint16_t idx[PAT_TABLES], int *phase, int *t);
/* Table k's window's partner: the window at the origin turned half a circle (15 - k of
 * the sixteen, 40 - k of the nine between; of the strips of a kind, the i-th's is the
 * (4 - i)-th), which the other side sees where the mover sees k. */
int vpattern_partner(int k);
/* A window's index as the other side sees the same squares: the squares in the other
 * order, the pieces' sides swapped. So with the other side to move, window
 * vpattern_partner(k)'s index is vpattern_turned of window k's. */
int vpattern_turned(int idx);
/* The men's rows to go (each man's rows from its crowning row, summed over both sides: 300
 * at the start of International draughts, 0 when no man is left), which places the phases
 * of patterns with tempo (pk_patterns.tempo) from 300 down to 0. */
int vpattern_rows_to_go(const pk_vpos *p);
/* Their weights' sum for the side to move, blended between the phases, in hundredths. */
int vpattern_eval(const pk_patterns *pt, const pk_vpos *p);
/* The same from each side's pieces on the 10x10 bitboards (rules/vbits.h: the bits of
 * a 10x10 board's 50 squares; its men alone when pt->men_only), stm the side to move,
 * pieces all the pieces on the board (the phase), material vpattern_material_index's
 * (read only when pt->material): the windows' indices summed over the pieces alone. */
int vpattern_eval_masks(const pk_patterns *pt, int stm, uint64_t white, uint64_t black, int pieces, int material);
/* The same with the phase given: its step (0 .. 22, pattern.h's; vpattern_step()). */
int vpattern_eval_masks_step(const pk_patterns *pt, int stm, uint64_t white, uint64_t black, int step, int material);
/* The phase's step (0 .. 22) of a position of that many pieces and men's rows to go, for
 * patterns with tempo (pk_patterns.tempo) or without. */
int vpattern_step(bool tempo, int pieces, int rows_to_go);
/* The material table's index (pt->material; PAT_MATERIAL's table): a case for each side,
 * its men (0 .. 19, more read as 19) and kings (0 .. 3, more read as 3), the mover's case
 * times 81 plus the other side's. vpattern_indices sets idx[PAT_MATERIAL] to it. */
int vpattern_material_index(int own_men, int own_kings, int opp_men, int opp_kings);
/* The text form: "pdnkit-vpatterns 1", "gametype N", "windows 25" or "windows 35" when it
 * uses 25 or 35 (else 16), "pieces men" when the windows see men only, "material" when it
 * has the material table (table 25 of the lines after; the strips are tables 26 to 35), "phase tempo" when its phases are placed by the
 * men's rows to go, then "PHASE WINDOW INDEX VALUE" lines for the weights that are not zero; '#'
 * comments. *gametype is the variant's.
 * 0, or -1 with the line and reason in err. */
int vpatterns_parse(const char *text, pk_patterns *pt, int *gametype, char *err, size_t errsize);
/* The text of pt for variant v (malloc'ed; NULL when out of memory), with a header
 * comment. */
char *vpatterns_format(const pk_patterns *pt, const pk_variant *v, const char *comment);
/* Sets pt's checksum (FNV-1a of its windows' weights) and count of weights not zero;
 * pt->windows 16 unless it is 25 or 35. */
void vpatterns_checksum(pk_patterns *pt);
/* The built-in weights of v (book/vpatterns-*.txt), or NULL when it has none. */
const pk_patterns *vpatterns_builtin(const pk_variant *v);

#endif
