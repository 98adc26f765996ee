/* Search features (which of the search's techniques are on), parsed and formatted for
 * the command line and the settings of stored annotations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/search.h"

const pk_features features_all = {
	.lmr = 3, .killers = true, .history = true, .aspiration = 2, .tt_ways = 1, .lmp = 3, .probcut = 60, .time_use = 60, .history_malus = true, .history_decay = 2, .rfp = 20, .razor = 40, .lmr_adjust = 2, .egdb_wins = 1, .prune_pieces = 6, .book_score = 30, .time_panic = 300, .etc = 4, .iir = 3, .time_opening = 100, .time_middle = 100,
};

static const struct {
	const char *name;
	int lo, hi;
	size_t off;
	bool flag;
} feature_names[] = {
	{ "lmr", 0, 5, offsetof(pk_features, lmr), false },
	{ "killers", 0, 1, offsetof(pk_features, killers), true },
	{ "history", 0, 1, offsetof(pk_features, history), true },
	{ "aspiration", 0, 2, offsetof(pk_features, aspiration), false },
	{ "tt-ways", 1, 2, offsetof(pk_features, tt_ways), false },
	{ "tt-horizon", 0, 1, offsetof(pk_features, tt_horizon), true },
	{ "history-malus", 0, 1, offsetof(pk_features, history_malus), true },
	{ "lmp", 0, 4, offsetof(pk_features, lmp), false },
	{ "probcut", 0, 1000, offsetof(pk_features, probcut), false },
	{ "probcut-depth", 0, 90, offsetof(pk_features, probcut_depth), false },
	{ "probcut-slope", 0, 100, offsetof(pk_features, probcut_slope), false },
	{ "time-use", 0, 100, offsetof(pk_features, time_use), false },
	{ "threat", 0, 1, offsetof(pk_features, threat), false },
	{ "egdb-draws", 0, 1, offsetof(pk_features, egdb_draws), false },
	{ "egdb-wins", 0, 1, offsetof(pk_features, egdb_wins), false },
	{ "history-decay", 0, 31, offsetof(pk_features, history_decay), false },
	{ "rfp", 0, 1000, offsetof(pk_features, rfp), false },
	{ "razor", 0, 1000, offsetof(pk_features, razor), false },
	{ "lmr-adjust", 0, 2, offsetof(pk_features, lmr_adjust), false },
	{ "book-check", 0, 1000, offsetof(pk_features, book_check), false },
	{ "book-min", 0, 1000000, offsetof(pk_features, book_min), false },
	{ "book-score", 0, 100, offsetof(pk_features, book_score), false },
	{ "time-unstable", 0, 100, offsetof(pk_features, time_unstable), false },
	{ "countermove", 0, 1, offsetof(pk_features, countermove), false },
	{ "iir", 0, 64, offsetof(pk_features, iir), false },
	{ "singular", 0, 1000, offsetof(pk_features, singular), false },
	{ "time-panic", 0, 1000, offsetof(pk_features, time_panic), false },
	{ "prune-pieces", 0, 24, offsetof(pk_features, prune_pieces), false },
	{ "etc", 0, 64, offsetof(pk_features, etc), false },
	{ "progress", 0, 1000, offsetof(pk_features, progress), false },
	{ "sac", 0, 64, offsetof(pk_features, sac), false },
	{ "shots", 0, 1, offsetof(pk_features, shots), true },
	{ "time-opening", 10, 300, offsetof(pk_features, time_opening), false },
	{ "time-middle", 10, 300, offsetof(pk_features, time_middle), false },
	{ "offers", 0, 1, offsetof(pk_features, offers), false },
	{ "time-togo", 0, 30, offsetof(pk_features, time_togo), false },
	{ "capture-ply", 0, 8, offsetof(pk_features, capture_ply), false },
	{ "draw-seek", 0, 20, offsetof(pk_features, draw_seek), false },
	{ "few", 0, 4, offsetof(pk_features, few), false },
};
#define NFEATURES (sizeof feature_names / sizeof feature_names[0])

int features_parse(const char *spec, pk_features *f, char *err, size_t errsize)
{
	const char *p = spec;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);
		size_t nlen = eq ? (size_t)(eq - p) : len;
		size_t i = 0;
		while (i < NFEATURES && (strlen(feature_names[i].name) != nlen ||
					 strncmp(feature_names[i].name, p, nlen) != 0))
			i++;
		if (i == NFEATURES) {
			snprintf(err, errsize, "unknown search feature '%.*s'", (int)nlen, p);
			return -1;
		}
		char *end = NULL;
		long v = eq ? strtol(eq + 1, &end, 10) : 0;
		if (!eq || end == eq + 1 || end != p + len || v < feature_names[i].lo || v > feature_names[i].hi) {
			snprintf(err, errsize, "search feature '%s' needs a value from %d to %d",
				 feature_names[i].name, feature_names[i].lo, feature_names[i].hi);
			return -1;
		}
		char *field = (char *)f + feature_names[i].off;
		f->given |= 1ull << i;
		if (feature_names[i].flag)
			*(bool *)field = v != 0;
		else
			*(int *)field = (int)v;
		p += len + (p[len] == ',');
	}
	return 0;
}

bool features_same(const pk_features *a, const pk_features *b)
{
	pk_features x = *a, y = *b;
	x.given = y.given = 0;
	return memcmp(&x, &y, sizeof x) == 0;
}

/* The variants' own defaults, by GameType, as features_parse reads them: each won a
 * match against English draughts' defaults on that variant's board (man/NOTES.md). */
static const struct {
	int gametype;
	const char *spec;
} variant_features[] = {
	{ 20, "lmr=4" },   /* International draughts */
};

void features_for_variant(pk_features *f, int gametype)
{
	for (size_t k = 0; k < sizeof variant_features / sizeof variant_features[0]; k++) {
		if (variant_features[k].gametype != gametype)
			continue;
		pk_features d = *f;
		char err[160];
		d.given = 0;
		if (features_parse(variant_features[k].spec, &d, err, sizeof err) < 0)
			return;
		for (size_t i = 0; i < NFEATURES; i++)
			if ((d.given >> i & 1) && !(f->given >> i & 1)) {
				size_t off = feature_names[i].off;
				memcpy((char *)f + off, (const char *)&d + off, feature_names[i].flag ? sizeof(bool) : sizeof(int));
			}
	}
}

static int feature_value(const pk_features *f, size_t i)
{
	const char *field = (const char *)f + feature_names[i].off;
	return feature_names[i].flag ? *(const bool *)field : *(const int *)field;
}

void features_format(const pk_features *f, char *buf, size_t size)
{
	features_format_changed(f, NULL, buf, size);
}

void features_format_changed(const pk_features *f, const pk_features *base, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < NFEATURES && used < size; i++) {
		int v = feature_value(f, i);
		if (base && v == feature_value(base, i))
			continue;
		int k = snprintf(buf + used, size - used, "%s%s=%d", used ? "," : "", feature_names[i].name, v);
		if (k < 0)
			break;
		used += (size_t)k;
	}
}

int clock_phase_share(const pk_features *f, int pieces, int start_pieces)
{
	int share = pieces * 10 >= start_pieces * 9 ? f->time_opening
		    : pieces * 2 >= start_pieces ? f->time_middle : 100;
	if (f->time_togo > 0 && start_pieces > 4) {
		/* clock_share divides by 25 moves to go; here they fall from 30 with the full
		 * board to time-togo at a quarter of it, so that the time goes to the middle
		 * game and the endings rather than the first moves */
		int lo = start_pieces / 4, span = start_pieces - lo;
		int p = pieces < lo ? lo : pieces > start_pieces ? start_pieces : pieces;
		int togo = f->time_togo + ((30 - f->time_togo) * (p - lo) + span / 2) / span;
		share = share * 25 / (togo > 0 ? togo : 1);
	}
	return share;
}

double clock_share(double left, double inc, int moves)
{
	/* The last CLOCK_RESERVE seconds are never shared out: each move costs a little more
	 * than its share (starting the search, the protocol), and a game of many moves
	 * without an increment would otherwise spend the clock to nothing. Below the
	 * reserve a move is most of the increment, or without one a search of a
	 * thousandth of a second, which the reserve pays for over a hundred moves. */
	double usable = left - CLOCK_RESERVE;
	if (usable < 0)
		usable = 0;
	double t = usable / (moves > 0 ? moves : 25) + inc * 0.8;
	if (t > left * 0.4)
		t = left * 0.4;
	return t < 0.001 ? 0.001 : t;
}
