/* A CheckerBoard-API engine library (getmove, enginecommand) served as a Hub engine on
 * two descriptors: what pdnkit engine --cb LIB runs in a child process, so that a
 * library that crashes takes only that process down. English draughts; the library's
 * board is checked against the legal moves (a board no legal move gives is answered as
 * "done illegal=FEN"). */
#ifndef PK_CBHOST_H
#define PK_CBHOST_H

#include <stddef.h>

/* Serves until quit or the end of input: 0, or -1 with the reason in err when the
 * library cannot be loaded (no getmove, not a library). */
int cbhost_run(const char *lib, int in, int out, char *err, size_t errsize);

#endif
