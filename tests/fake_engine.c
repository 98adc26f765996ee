/* A Hub engine for the tests, well-behaved or not: it plays the first legal move, and
 * at its move N (the second argument) does what its mode (the first) says:
 *   ok        never misbehaves        crash     dies of SIGABRT (after a word on stderr)
 *   hang      stops answering         illegal   plays a move that is not legal
 *   garbage   writes binary junk      nomove    answers done without a move
 *   slow      greets only after 60 s  variant   plays international draughts only
 *   exit      leaves at once, before the greeting */
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "proto/hub.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	int n = argc > 2 ? atoi(argv[2]) : 1, moves = 0;
	if (!strcmp(mode, "exit"))
		return 3;
	char line[65536];
	pk_pos pos;
	pos_start(&pos);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		hub_line l;
		char *cmd = hub_parse(line, &l);
		if (!cmd)
			continue;
		if (!strcmp(cmd, "hub")) {
			if (!strcmp(mode, "slow"))
				sleep(60);
			printf("id name=fake-%s version=1\n", mode);
			printf("param name=variant value=%s type=enum values=\"%s\"\n", strcmp(mode, "variant") ? "english" : "international",
			       strcmp(mode, "variant") ? "english" : "international frisian");
			printf("wait\n");
		} else if (!strcmp(cmd, "init"))
			printf("ready\n");
		else if (!strcmp(cmd, "pos")) {
			const char *p = hub_arg(&l, "pos"), *mv = hub_arg(&l, "moves");
			if (!p || hub_pos(p, &pos) < 0) {
				printf("error message=\"bad pos\"\n");
				continue;
			}
			if (mv) {
				char buf[65536];
				snprintf(buf, sizeof buf, "%s", mv);
				for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
					pk_move m;
					if (!hub_read_move(&pos, t, false, &m)) {
						printf("error message=\"bad move %s\"\n", t);
						break;
					}
					pk_pos q;
					pos_make(&pos, &m, &q);
					pos = q;
				}
			}
		} else if (!strcmp(cmd, "go")) {
			if (++moves >= n) {
				if (!strcmp(mode, "crash")) {
					fprintf(stderr, "fake: about to crash\n");
					struct rlimit none = { 0, 0 };
					setrlimit(RLIMIT_CORE, &none);   /* no core file left behind */
					abort();   /* a signal no sanitizer takes over */
				} else if (!strcmp(mode, "hang")) {
					for (;;)
						pause();
				} else if (!strcmp(mode, "illegal")) {
					printf("done move=1-2\n");
					continue;
				} else if (!strcmp(mode, "garbage")) {
					printf("\001\002\377\376 junk\n");
					continue;
				} else if (!strcmp(mode, "nomove")) {
					printf("error message=\"nothing to say\"\ndone\n");
					continue;
				}
			}
			pk_movelist ml;
			if (gen_moves(&pos, &ml) == 0) {
				printf("done\n");
				continue;
			}
			char mv[64];
			hub_move_text(&pos, &ml.m[0], false, mv, sizeof mv);
			printf("info depth=1 score=0.00\ndone move=%s\n", mv);
		} else if (!strcmp(cmd, "quit"))
			break;
	}
	return 0;
}
