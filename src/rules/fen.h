/* FEN in the PDN form, e.g. "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29". */
#ifndef PK_FEN_H
#define PK_FEN_H

#include <stddef.h>
#include "rules/pos.h"

typedef struct {
	size_t offset;     /* byte offset in the input where the problem is */
	char msg[160];     /* what is wrong, lowercase, no trailing period */
} pk_fen_error;

/* Parse len bytes of s. Accepts ranges (K1-4), lower case, spaces, a trailing '.',
 * and trailing ":H0:F1" fields. Returns 0 and fills p, or -1 and fills err; an
 * impossible position (square outside 1..32, a square given twice, more than 12
 * pieces a side, a man on its own crowning row) is an error. */
int fen_parse(const char *s, size_t len, pk_pos *p, pk_fen_error *err);

/* As fen_parse, but repairs what has one plausible meaning instead of refusing it: a man
 * on its own crowning row becomes a king, '?' as side to move becomes Black, an empty
 * colour field means no pieces. Each repair is described in repairs (";"-separated,
 * empty when none). Used when reading games, where the rest of a record is worth keeping. */
int fen_parse_lenient(const char *s, size_t len, pk_pos *p, pk_fen_error *err,
		      char *repairs, size_t rsize);

/* Write the canonical form: turn, White's pieces, Black's pieces, each men ascending
 * then kings ascending. A buffer of PK_FEN_STRLEN always fits. Returns the length. */
#define PK_FEN_STRLEN 128
int fen_format(const pk_pos *p, char *buf, size_t size);

#endif
