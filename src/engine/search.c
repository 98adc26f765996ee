/* The search of English draughts: the node of engine/node.inc.c on the 32-square
 * bitboards. Scores are from the side to move's view; a side without a legal move has
 * lost. Every leaf is quiet: a position with a capture, or with a single legal move, is
 * searched further without spending depth (captures are compulsory, so there is no
 * "standing pat" on them). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "base/pool.h"
#include "engine/search_int.h"

#include "engine/search_en.h"
#include "engine/node.inc.c"
