/* A move: the square it starts from, every landing square, and the set of men and
 * kings it captures. Printed in PDN as "9-14", "26x10" (short) or "26x17x10" (path). */
#ifndef PK_MOVE_H
#define PK_MOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rules/bits.h"

#define PK_MAX_PATH 12     /* a move captures at most 12 pieces */

typedef struct pk_move {
	uint8_t from;               /* bit index 0..31 */
	uint8_t nland;              /* number of landing squares, >= 1 */
	uint8_t land[PK_MAX_PATH];  /* bit indices of landing squares; land[nland-1] is the destination */
	bb_t captured;              /* pieces removed, empty for a plain move */
} pk_move;

static inline int move_to(const pk_move *m) { return m->land[m->nland - 1]; }
static inline bool move_is_capture(const pk_move *m) { return m->captured != 0; }

/* Same effect on the board: same from, same destination, same pieces captured. */
bool move_same_effect(const pk_move *a, const pk_move *b);
bool move_equal(const pk_move *a, const pk_move *b);

/* Write the move into buf (NUL-terminated); returns the length. full_path selects
 * "26x17x10" over "26x10" for captures. A buffer of PK_MOVE_STRLEN always fits. */
#define PK_MOVE_STRLEN 48
int move_format(const pk_move *m, bool full_path, char *buf, size_t size);

#endif
