/* The classic opening names (analysis/opnames): every entry of the table replays from
 * the start and names a position of its own; names are found in any case and spacing;
 * a game is given the named position of most moves it reaches, in any move order (a
 * transposition of the Old Fourteenth is the Old Fourteenth); a game that reaches none,
 * or starts from a set-up, has none. */
#include <string.h>
#include "check.h"
#include "analysis/opnames.h"
#include "pdn/pdn.h"

static const pk_opname *of_moves(const char *moves)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *error = NULL;
	const pk_opname *o = NULL;
	if (replay_moves_text(moves, &g, &rp, &error) == 0)
		o = opname_of_replay(&rp);
	else
		CHECK_REPORT(0, "%s: %s", moves, error ? error : "?");
	game_free(&g);
	replay_free(&rp);
	return o;
}

int main(void)
{
	int n = opnames_count();
	CHECK(n >= 20);
	for (int i = 0; i < n; i++) {
		const pk_opname *o = opnames_at(i);
		CHECK_REPORT(o->plies > 0, "%s: its moves (%s) do not replay", o->name, o->moves);
		CHECK_REPORT(o->source && *o->source, "%s: no source", o->name);
		for (int k = 0; k < i; k++)
			CHECK_REPORT(opnames_at(k)->key != o->key, "%s and %s name one position", opnames_at(k)->name, o->name);
		CHECK_REPORT(opname_find(o->name) == o, "%s: not found by its name", o->name);
		/* a game of exactly its moves has that name */
		const pk_opname *g = of_moves(o->moves);
		CHECK_REPORT(g == o, "%s: a game of its moves is named %s", o->name, g ? g->name : "nothing");
	}
	CHECK(opname_find("old fourteenth") && !strcmp(opname_find("old fourteenth")->name, "Old Fourteenth"));
	CHECK(opname_find("LAIRD-AND-LADY") && !strcmp(opname_find("LAIRD-AND-LADY")->name, "Laird and Lady"));
	CHECK(opname_find("Old Fourtenth") == NULL);
	/* the longest named position reached: the Laird and Lady refused, not the Laird and Lady */
	const pk_opname *o = of_moves("11-15 23-19 8-11 22-17 9-13 25-22 4-8");
	CHECK_REPORT(o && !strcmp(o->name, "Laird and Lady Refused"), "%s", o ? o->name : "none");
	/* the Old Fourteenth in another order: 11-15 22-17 8-11 23-19 4-8 */
	o = of_moves("11-15 22-17 8-11 23-19 4-8 25-22");
	CHECK_REPORT(o && !strcmp(o->name, "Old Fourteenth"), "a transposition: %s", o ? o->name : "none");
	/* a first move alone: its group's name; 11-15 alone has none */
	o = of_moves("9-13 22-18");
	CHECK(o && !strcmp(o->name, "Edinburgh"));
	CHECK(of_moves("11-15") == NULL);
	o = of_moves("11-15 21-17 9-13");   /* the Switcher, [E] */
	CHECK(o && !strcmp(o->name, "Switcher"));
	return check_done("test_opnames");
}
