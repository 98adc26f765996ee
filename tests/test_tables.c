/* The constant tables in src/tables.c: the geometry against row/column arithmetic, and
 * the Zobrist keys against the splitmix64 sequence they were drawn from (the keys are
 * stored in databases, so they must never change). */
#include "check.h"
#include "rules/bits.h"
#include "rules/tables.h"

static int rc_to_bit(int r, int c)
{
	if (r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0)
		return -1;
	return r * 4 + c / 2;
}

static uint64_t sm_state = 0x9E3779B97F4A7C15ull ^ 0x706E646B6974ull;
static uint64_t splitmix64(void)
{
	uint64_t z = (sm_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int main(void)
{
	static const int dr[4] = { -1, -1, 1, 1 }, dc[4] = { -1, 1, -1, 1 };
	int bad = 0, bad_steps = 0;
	for (int b = 0; b < 32; b++) {
		int r = b / 4, c = (r % 2 == 0) ? 2 * (b % 4) + 1 : 2 * (b % 4);
		for (int d = 0; d < 4; d++) {
			int n1 = rc_to_bit(r + dr[d], c + dc[d]), n2 = rc_to_bit(r + 2 * dr[d], c + 2 * dc[d]);
			bad += tab_step[d][b] != n1;
			bad += tab_jump_over[d][b] != (n2 >= 0 ? n1 : -1);
			bad += tab_jump_to[d][b] != (n1 >= 0 ? n2 : -1);
			bb_t x = bb_sq(b);
			bb_t s = d == DIR_UL ? bb_up_left(x) : d == DIR_UR ? bb_up_right(x) :
				 d == DIR_DL ? bb_down_left(x) : bb_down_right(x);
			bad_steps += s != (n1 >= 0 ? bb_sq(n1) : 0);
		}
	}
	CHECK_INT(bad, 0);
	CHECK_INT(bad_steps, 0);

	int bad_keys = 0;
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 2; k++)
			for (int b = 0; b < 32; b++)
				bad_keys += zob_piece[c][k][b] != splitmix64();
	CHECK_INT(bad_keys, 0);
	CHECK(zob_white_to_move == splitmix64());
	return check_done("test_tables");
}
