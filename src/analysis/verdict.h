/* A game's recorded result judged by the endgame databases: when the game ends with few
 * enough pieces, the database's value of the final position must agree with the result. */
#ifndef PK_VERDICT_H
#define PK_VERDICT_H

#include "egdb/egdb.h"
#include "pdn/pdn.h"
#include "pdn/replay.h"

enum { VERDICT_NOT_COVERED, VERDICT_AGREES, VERDICT_CONTRADICTS, VERDICT_FAILED };

/* Judges rp's final position (a game replayed in full, with a result). On a
 * contradiction adds a warning "result-egdb" to g's findings, e.g. "result 1/2-1/2, but
 * Black wins here in 39 plies (endgame database)". Returns VERDICT_*. */
int verdict_result(pk_egdb *db, pk_game *g, const pk_replay *rp);

/* The same for a game of another variant replayed under its rules, judged by that
 * variant's databases (egdb/vegdb.h, vegdb_shared): NOT_COVERED when there are none or
 * the final position has too many pieces, or when the game may have been drawn by a rule
 * that counts moves (a limited ending, enough kings' plain moves): those counts are not
 * in the databases' values. */
int verdict_variant_result(pk_game *g, const pk_replay *rp);

/* The database's word on a final position for a result (RES_*), in words, as above:
 * "" when they agree. */
int verdict_text(const pk_egdb_result *r, int stm, int result, char *buf, size_t size);

#endif
