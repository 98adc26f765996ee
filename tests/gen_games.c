/* Writes N random legal games as PDN, for the store's scale benchmark (make bench).
 * usage: gen_games N [SEED] > games.pdn. Each game plays uniformly random legal moves
 * for 20 to 120 plies, or until the side to move has none. */
#include <stdio.h>
#include <stdlib.h>
#include "rules/gen.h"

static uint64_t state;

static uint64_t next(void)
{
	uint64_t z = (state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	static const char *const names[] = { "Able", "Baker", "Clark", "Dunn", "Ellis", "Ford", "Grant", "Hale" };
	for (long g = 1; g <= n; g++) {
		printf("[Event \"Random %ld\"]\n[Date \"%ld.%02ld.%02ld\"]\n[Black \"%s\"]\n[White \"%s\"]\n",
		       g, 1900 + (long)(next() % 120), 1 + (long)(next() % 12), 1 + (long)(next() % 28),
		       names[next() % 8], names[next() % 8]);
		pk_pos p;
		pos_start(&p);
		int plies = 20 + (int)(next() % 101), col = 0;
		const char *result = "*";
		for (int i = 0; i < plies; i++) {
			pk_movelist ml;
			if (gen_moves(&p, &ml) == 0) {
				result = p.stm == PK_BLACK ? "0-1" : "1-0";
				break;
			}
			const pk_move *m = &ml.m[next() % (uint64_t)ml.n];
			char buf[PK_MOVE_STRLEN + 16];
			int k = 0;
			if (p.stm == PK_BLACK)
				k = snprintf(buf, sizeof buf, "%d. ", i / 2 + 1);
			move_format(m, true, buf + k, sizeof buf - (size_t)k);
			col += printf("%s%s", col ? " " : "", buf);
			if (col > 70) {
				putchar('\n');
				col = 0;
			}
			pk_pos q;
			pos_make(&p, m, &q);
			p = q;
		}
		printf("%s%s\n\n", col ? " " : "", result);
		if (g == 1)
			fflush(stdout);
	}
	return 0;
}
