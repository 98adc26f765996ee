/* pdnkit analyze: what other commands take of it. */
#ifndef PK_ANALYZE_CMD_H
#define PK_ANALYZE_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "engine/search.h"
#include "engine_opts.h"

/* "win in 7", "+12". */
void analyze_score_text(int s, int stm, char *buf, size_t n);
/* One book move of analyze's answer in a book position (i: its index, for JSON's commas). */
void analyze_book_move(bool json, int i, const char *mv, uint32_t games, uint32_t bw, uint32_t dr, uint32_t ww,
		       int score);

#endif
