/* Baseline for `make bench`: perft with the simple array generator of naive.c, so that
 * the bitboard generator's speed is reported as a ratio measured in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "naive.h"

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 9;
	int kind[33] = { 0 };
	for (int sq = 1; sq <= 12; sq++)
		kind[sq] = NV_BM;
	for (int sq = 21; sq <= 32; sq++)
		kind[sq] = NV_WM;
	nv_pos p;
	nv_from_squares(&p, kind, true);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	uint64_t n = nv_perft(&p, depth, false);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
	printf("{\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f,\"nodes_per_second\":%.0f}\n", depth,
	       (unsigned long long)n, s, (double)n / s);
	return 0;
}
