/* The figures of pdnkit stats, shared by its text, JSON and SVG output. */
#ifndef PK_STATS_H
#define PK_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "rules/gen.h"

#define TOP 10

typedef struct {
	char text[64];
	long games, bw, ww, draws;
} bucket;

typedef struct {
	long games, players, events;
	int32_t date_min, date_max;
	long res[4];        /* 1-0, 0-1, 1/2-1/2, * */
	bucket openings[TOP];
	int nopenings;
	struct {
		char name[80];
		long games, decided;   /* decided: with a result */
		double points;
	} players_top[TOP];
	int nplayers;
	bucket explore[PK_MAX_MOVES];
	int ex_ord[PK_MAX_MOVES];   /* the ordinal of each explorer entry */
	int nexplore;
	long explore_ended;  /* games that ended in the position */
	int years[600];      /* games per year from 1500 */
	int ymin, ymax;
	pk_pos from;         /* the explorer's position */
} stats;

/* Draw the result distribution and the games per year as an SVG file. */
int svg_write(const char *path, const stats *st, char *err, size_t errsize);

#endif
