/* Iterative deepening of English draughts: engine/deepen.inc.c on the 32-square
 * bitboards (search.c defines the node it calls). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "base/pool.h"
#include "engine/search_en.h"
#include "engine/deepen.inc.c"


