/* English draughts' classic opening names (analysis/opnames.h). Every name and its moves
 * are as published in:
 *  [A] "11-15 Openings", startcheckers.com (https://startcheckers.com/11-15-openings/),
 *      the names given by Anderson, Drummond and Sturges to the 11-15 openings;
 *  [B] R. L. Fortman, "The First Twenty Moves", parts 1-6 (1977-1980): the Edinburgh
 *      (9-13), the Double Corner (9-14), the Kelso (10-15) and the Bristol (11-16),
 *      each named after its first move;
 *  [C] F. Reinfeld, "How to Win at Checkers" (1957), its seven opening groups: 11-15
 *      Single Corner group, 9-14 Double Corner, 11-16 Bristol, 10-15 Kelso, 10-14 Denny,
 *      12-16 Dundee, 9-13 Edinburgh;
 *  [D] "The Boy's Own Book of Indoor Games and Recreations", chapter 14: the Single
 *      Corner, 11-15 answered by 22-18;
 *  [E] Encyclopaedia Britannica, 11th edition (1911), "Draughts": 11-15 answered by
 *      21-17 the Switcher (after Wyllie's success with it), by 24-19 the Second Double
 *      Corner (once "Wyllie's Invincible").
 * Fortman [B] also gives the Leeds, 11-16 21-17, as the name periodicals used under the
 * two-move restriction.
 * A name stands for the position after its moves, so a game that reaches that position
 * in another order has that opening too. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "analysis/opnames.h"
#include "rules/gen.h"

static pk_opname table[] = {
	{ "Edinburgh", "9-13", "B, C", 0, 0 },
	{ "Double Corner", "9-14", "B, C", 0, 0 },
	{ "Denny", "10-14", "C", 0, 0 },
	{ "Kelso", "10-15", "B, C", 0, 0 },
	{ "Bristol", "11-16", "B, C", 0, 0 },
	{ "Dundee", "12-16", "C", 0, 0 },
	{ "Single Corner", "11-15 22-18", "D", 0, 0 },
	{ "Cross", "11-15 23-18", "A", 0, 0 },
	{ "Slip Cross", "11-15 23-18 8-11 27-23 11-16", "A", 0, 0 },
	{ "Ayrshire Lassie", "11-15 24-20", "A", 0, 0 },
	{ "Switcher", "11-15 21-17", "E", 0, 0 },
	{ "Second Double Corner", "11-15 24-19", "E", 0, 0 },
	{ "Leeds", "11-16 21-17", "B", 0, 0 },
	{ "Dyke", "11-15 22-17 15-19", "A", 0, 0 },
	{ "Boston", "11-15 22-17 9-13 17-14", "A", 0, 0 },
	{ "Maid of the Mill", "11-15 22-17 8-11 17-13 15-18", "A", 0, 0 },
	{ "Douglas", "11-15 22-17 8-11 17-13 4-8 25-22", "A", 0, 0 },
	{ "Alma", "11-15 23-19 8-11 22-17 3-8", "A", 0, 0 },
	{ "Black Doctor", "11-15 23-19 8-11 22-17 9-13 17-14 10-17 19-10 7-14", "A", 0, 0 },
	{ "Centre", "11-15 23-19 8-11 22-17 15-18", "A", 0, 0 },
	{ "Defiance", "11-15 23-19 9-14 27-23", "A", 0, 0 },
	{ "Fife", "11-15 23-19 9-14 22-17 5-9", "A", 0, 0 },
	{ "Glasgow", "11-15 23-19 8-11 22-17 11-16", "A", 0, 0 },
	{ "Laird and Lady", "11-15 23-19 8-11 22-17 9-13", "A", 0, 0 },
	{ "Laird and Lady Refused", "11-15 23-19 8-11 22-17 9-13 25-22", "A", 0, 0 },
	{ "Nailor", "11-15 23-19 8-11 26-23", "A", 0, 0 },
	{ "Old Fourteenth", "11-15 23-19 8-11 22-17 4-8", "A", 0, 0 },
};
#define NTABLE ((int)(sizeof table / sizeof table[0]))

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int built;   /* entries whose moves replayed (all, unless the table is wrong) */

static void build(void)
{
	for (int i = 0; i < NTABLE; i++) {
		pk_pos p;
		pos_start(&p);
		char buf[200];
		snprintf(buf, sizeof buf, "%s", table[i].moves);
		int n = 0;
		bool ok = true;
		for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok && ok; tok = strtok_r(NULL, " ", &save)) {
			pk_move m[4];
			char why[200];
			ok = replay_read_move(&p, tok, m, 4, why, sizeof why) == 1;
			if (ok) {
				pk_pos q;
				pos_make(&p, &m[0], &q);
				p = q;
				n++;
			}
		}
		table[i].plies = ok ? n : -1;
		table[i].key = p.key;
		built += ok;
	}
}

int opnames_count(void)
{
	pthread_once(&once, build);
	return NTABLE;
}

const pk_opname *opnames_at(int i)
{
	pthread_once(&once, build);
	return i >= 0 && i < NTABLE ? &table[i] : NULL;
}

/* Letters and digits only, lower case: "Laird-and-Lady" and "laird and lady" alike. */
static void fold(const char *s, char *out, size_t size)
{
	size_t n = 0;
	for (; *s && n + 1 < size; s++)
		if (isalnum((unsigned char)*s))
			out[n++] = (char)tolower((unsigned char)*s);
	out[n] = 0;
}

const pk_opname *opname_find(const char *name)
{
	pthread_once(&once, build);
	char a[128], b[128];
	fold(name, a, sizeof a);
	for (int i = 0; i < NTABLE; i++) {
		fold(table[i].name, b, sizeof b);
		if (!strcmp(a, b) && table[i].plies >= 0)
			return &table[i];
	}
	return NULL;
}

const pk_opname *opname_of_keys(const uint64_t *keys, int n)
{
	pthread_once(&once, build);
	const pk_opname *best = NULL;
	for (int i = 1; i < n && i <= OPNAME_PLIES; i++)
		for (int k = 0; k < NTABLE; k++)
			if (table[k].plies > 0 && table[k].key == keys[i] && (!best || table[k].plies > best->plies))
				best = &table[k];
	return best;
}

const pk_opname *opname_of_replay(const pk_replay *rp)
{
	if (!rp->supported || rp->custom_start || rp->nply == 0)
		return NULL;
	uint64_t keys[OPNAME_PLIES + 1];
	int n = 0;
	keys[n++] = rp->start.key;
	for (int i = 0; i < rp->nply && n <= OPNAME_PLIES; i++)
		keys[n++] = rp->plies[i].after.key;
	return opname_of_keys(keys, n);
}
