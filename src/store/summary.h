/* A collection's summary (pdnkit stats): counts, results, the most played openings and
 * players, games per year, and an opening explorer from a position: the moves the
 * matching games played next, with their results. Read from the store in one call. */
#ifndef PK_SUMMARY_H
#define PK_SUMMARY_H

#include <stdint.h>
#include "rules/gen.h"
#include "rules/variant.h"
#include "store/store.h"

#define SUMMARY_TOP 10

typedef struct {
	char text[64];
	long games, bw, ww, draws;
	int ord;            /* explorer: the move's ordinal */
} pk_bucket;

typedef struct {
	long games, players, events;
	int32_t date_min, date_max;
	long res[4];        /* 1-0, 0-1, 1/2-1/2, * */
	pk_bucket openings[SUMMARY_TOP];
	int nopenings;
	struct {
		char name[80];
		long games;
		long won, drawn, lost;  /* of the games with a result; the others ('*') in none */
		double points;          /* won + drawn / 2 */
	} players_top[SUMMARY_TOP];
	int nplayers;
	bool explored;      /* the filter had a position: the explorer below is filled */
	pk_bucket explore[PK_MAX_MOVES];   /* the most played first */
	int ex_ord[PK_MAX_MOVES];   /* the ordinal of each explorer entry (as explore[i].ord) */
	int nexplore;
	long explore_ended;  /* games that ended in the position */
	int years[600];      /* games per year from 1500 */
	int ymin, ymax;
	pk_pos from;         /* the explorer's position (English draughts) */
	const pk_variant *v; /* the variant of the openings and the explorer, NULL for English */
	pk_vpos vfrom;       /* the explorer's position of that variant */
	struct {
		int gametype;
		long games;
	} variants[32];      /* games per variant (PDN GameType), the most first */
	int nvariants;
} pk_summary;

/* The summary of the games matching f. Openings and the explorer are those of one
 * variant: f->gametype's, else English draughts. With f->position_set, from (English) or
 * vfrom (f->gametype's variant) is that position, for naming the explorer's moves. 0, or
 * -1 with store_error(). */
int store_summary(pk_store *s, const pk_filter *f, const pk_pos *from, const pk_vpos *vfrom, pk_summary *out);
/* The label of result i (0 "1-0", 1 "0-1", 2 draws, 3 unknown): "1-0 (Black won)" in
 * English draughts, "1-0 (White won)" where White moves first, "1-0 (first won)" for
 * games of several variants. */
const char *summary_result_label(const pk_summary *st, int i);
/* A date key (YYYYMMDD, 0 unknown, zero month or day unknown) as "1950-06-01", "1950-06",
 * "1950" or "?". */
void summary_date_text(int32_t key, char *buf, size_t size);

#endif
