/* What pdnkit match and pdnkit selfplay share: engines named by their options, the
 * progress line, and the games written as PDN. */
#ifndef PK_MATCH_CLI_H
#define PK_MATCH_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "analysis/match.h"

#define MAX_ENGINES 16

/* Parse an engine spec (pdnkit options such as "--depth 6 --no-lmr", or another
 * engine's spec with as_engine) into a player; -1 after saying why (WHAT: ...). */
int match_parse_player(const char *what, const char *spec, const pk_variant *v, bool as_engine, pk_player *pl);

/* --adjudicate for a variant's games (arg NULL when not given): its own databases in
 * that directory ("default" or NULL: the default one; "none", or PDNKIT_EGDB=none: none),
 * into *out (NULL when there are none). A directory given that does not exist is an
 * error (-1 after saying so); one without the variant's databases a warning. */
int match_vadjudicate_option(const char *arg, const pk_variant *v, const pk_vegdb **out);

/* The progress line on a terminal: started at match_progress_t0; cleared before
 * anything else is printed. */
extern double match_progress_t0;
extern bool match_progress_shown;
extern int match_progress_resumed;     /* games counted from a record (--resume), not timed */
void match_show_progress(void *ctx, int done, int gi);
void match_clear_progress(void);

/* The finished games as PDN into out (replaced, or appended to with append): the
 * engines' names, the opening, how it ended, the time control and time used. Game i is
 * round ids[i] (ids NULL: i + 1). -1 after saying why. */
int match_write_games(const pk_match *mp, const char *out, const char *event_name, const long *ids, bool append);
/* Finished game i (round id) as PDN onto f. */
void match_write_game(FILE *f, const pk_match *m, int i, const char *event_name, long id);
/* The games of an earlier run of the same match recorded in path (as match_write_game
 * wrote them) marked finished in m (after match_prepare), with their results and faults:
 * how many, 0 when path does not exist, -1 after saying why when a game of the file is
 * not of this match (other engines, deck, time control or variant). */
int match_resume(pk_match *m, const char *path, const char *event_name);

/* Openings from a PDN file: each game's FEN (or the start) plus its first 8 moves (with
 * at_pieces > 0: its first position of at most that many pieces and no capture to make,
 * match_opening_of's), games with errors or of another variant than var (NULL: English)
 * or without such a position left out, into a malloc'ed array: how many, or -1 after
 * saying why. */
int match_openings_file(const char *path, const pk_variant *var, int at_pieces, pk_opening **out);

#endif
