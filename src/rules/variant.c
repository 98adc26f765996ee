/* The variants' rules as data, and the general move generator: captures found by a
 * depth-first search over landing squares, filtered by the variant's priorities, with
 * sequences that capture the same pieces from the same start to the same end kept once. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rules/pos.h"
#include "rules/variant.h"

/* GameType, key, name, rows, cols, men rows, first, inverted, orthogonal, men capture
 * back, flying, short landing, crowned in capture, men spare kings, removed at once,
 * rule, alphanumeric notation (the FMJD GameType table), replayable; then for Frisian
 * only: captures along ranks and files, the limit on one king's quiet moves. */
static const pk_variant variants[] = {
	{ 20, "international", "International draughts", 10, 10, 4, PK_WHITE, false, false, true, true, false, false, false, false, VRULE_MAX, false, true, false, 0 },
	{ 21, "english", "English draughts", 8, 8, 3, PK_BLACK, false, false, false, false, false, false, false, false, VRULE_FREE, false, true, false, 0 },
	{ 22, "italian", "Italian draughts", 8, 8, 3, PK_WHITE, true, false, false, false, false, false, true, false, VRULE_ITALIAN, false, true, false, 0 },
	{ 23, "pool", "American pool checkers", 8, 8, 3, PK_BLACK, false, false, true, true, false, false, false, false, VRULE_FREE, false, true, false, 0 },
	{ 24, "spanish", "Spanish draughts", 8, 8, 3, PK_WHITE, true, false, false, true, false, false, false, false, VRULE_SPANISH, false, true, false, 0 },
	{ 25, "russian", "Russian draughts", 8, 8, 3, PK_WHITE, false, false, true, true, false, true, false, false, VRULE_FREE, true, true, false, 0 },
	{ 26, "brazilian", "Brazilian draughts", 8, 8, 3, PK_WHITE, false, false, true, true, false, false, false, false, VRULE_MAX, true, true, false, 0 },
	{ 27, "canadian", "Canadian draughts", 12, 12, 5, PK_WHITE, false, false, true, true, false, false, false, false, VRULE_MAX, false, true, false, 0 },
	{ 28, "portuguese", "Portuguese draughts", 8, 8, 3, PK_WHITE, true, false, false, true, false, false, false, false, VRULE_SPANISH, false, true, false, 0 },
	{ 29, "czech", "Czech draughts", 8, 8, 3, PK_WHITE, false, false, false, true, false, false, false, false, VRULE_CZECH, true, true, false, 0 },
	{ 30, "turkish", "Turkish draughts", 8, 8, 2, PK_WHITE, false, true, false, true, false, false, false, true, VRULE_MAX, true, true, false, 0 },
	{ 31, "thai", "Thai draughts", 8, 8, 2, PK_BLACK, false, false, false, true, true, false, false, false, VRULE_FREE, false, true, false, 0 },
	{ 40, "frisian", "Frisian draughts", 10, 10, 4, PK_WHITE, false, false, true, true, false, false, false, false, VRULE_FRISIAN, false, true, true, 3 },
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

/* Directions: the diagonals up-left, up-right, down-left, down-right, then up, down,
 * left, right. "Up" is towards row 0, the way White moves. */
static const int dr[8] = { -1, -1, 1, 1, -1, 1, 0, 0 };
static const int dc[8] = { -1, 1, -1, 1, 0, 0, -1, 1 };
static const int opposite[8] = { 3, 2, 1, 0, 5, 4, 7, 6 };

typedef struct {
	int n;
	uint8_t row[VAR_MAX_SQ + 1], col[VAR_MAX_SQ + 1];
	uint8_t nb[VAR_MAX_SQ + 1][8];      /* neighbour in each direction, 0 off the board */
	int16_t at[12][12];                 /* square of a cell, 0 for none */
} geometry;

static geometry geo[NVARIANTS];
static pthread_once_t geo_once = PTHREAD_ONCE_INIT;
/* set once geo_init has run: the hot paths test it before pthread_once's call */
static _Atomic int geo_ready;

/* Zobrist keys: [square][piece], the side to move, and one per variant; the king-move
 * counts by [side][square][count] (vpos_state_key, made after the others so that
 * vpos_key stays as it was). */
static uint64_t zob[VAR_MAX_SQ + 1][5], zob_white, zob_variant[NVARIANTS], zob_kmoves[2][VAR_MAX_SQ + 1][4];

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool playable(const pk_variant *v, int r, int c)
{
	if (v->orthogonal)
		return true;
	int parity = v->inverted ? v->rows % 2 : (v->rows - 1) % 2;   /* of the bottom-left cell */
	return (r + c) % 2 == parity;
}

static void geo_init(void)
{
	uint64_t seed = 0x5eedf00dULL;
	for (int i = 0; i <= VAR_MAX_SQ; i++)
		for (int k = 0; k < 5; k++)
			zob[i][k] = splitmix(&seed);
	zob_white = splitmix(&seed);
	for (int i = 0; i < NVARIANTS; i++) {
		uint64_t t = (uint64_t)variants[i].gametype * 0x100000001b3ULL;
		zob_variant[i] = splitmix(&t);
	}
	for (int side = 0; side < 2; side++)
		for (int i = 0; i <= VAR_MAX_SQ; i++)
			for (int k = 0; k < 4; k++)
				zob_kmoves[side][i][k] = splitmix(&seed);
	for (int i = 0; i < NVARIANTS; i++) {
		const pk_variant *v = &variants[i];
		geometry *g = &geo[i];
		memset(g, 0, sizeof *g);
		for (int r = 0; r < v->rows; r++)
			for (int c = 0; c < v->cols; c++)
				if (playable(v, r, c)) {
					int s = ++g->n;
					g->row[s] = (uint8_t)r;
					g->col[s] = (uint8_t)c;
					g->at[r][c] = (int16_t)s;
				}
		for (int s = 1; s <= g->n; s++)
			for (int d = 0; d < 8; d++) {
				/* on a board of dark squares, the next square along a rank or file
				 * is two cells on (Frisian captures so) */
				int step = !v->orthogonal && d >= 4 ? 2 : 1;
				int r = g->row[s] + step * dr[d], c = g->col[s] + step * dc[d];
				g->nb[s][d] = r >= 0 && r < v->rows && c >= 0 && c < v->cols ? (uint8_t)g->at[r][c] : 0;
			}
	}
}

static void geo_init_once(void)
{
	geo_init();
	geo_ready = 1;
}

static const geometry *geo_of(const pk_variant *v)
{
	if (!geo_ready)
		pthread_once(&geo_once, geo_init_once);
	return &geo[v - variants];
}

const pk_variant *variant_at(int i) { return i >= 0 && i < NVARIANTS ? &variants[i] : NULL; }

const pk_variant *variant_by_gametype(int gametype)
{
	for (int i = 0; i < NVARIANTS; i++)
		if (variants[i].gametype == gametype)
			return &variants[i];
	return NULL;
}

const pk_variant *variant_by_name(const char *name)
{
	char *end;
	long t = strtol(name, &end, 10);
	if (end != name && !*end)
		return variant_by_gametype((int)t);
	for (int i = 0; i < NVARIANTS; i++)
		if (!strcasecmp(variants[i].key, name) || !strcasecmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

int variant_squares(const pk_variant *v) { return geo_of(v)->n; }

void variant_square_rc(const pk_variant *v, int sq, int *row, int *col)
{
	const geometry *g = geo_of(v);
	*row = g->row[sq];
	*col = g->col[sq];
}

int variant_rc_square(const pk_variant *v, int row, int col)
{
	if (row < 0 || row >= v->rows || col < 0 || col >= v->cols)
		return 0;
	return geo_of(v)->at[row][col];
}

static int colour_of(int piece) { return piece == VP_WMAN || piece == VP_WKING ? PK_WHITE : PK_BLACK; }
static bool is_king(int piece) { return piece == VP_WKING || piece == VP_BKING; }

void vpos_clear(const pk_variant *v, pk_vpos *p, int stm)
{
	memset(p, 0, sizeof *p);
	p->v = v;
	p->stm = stm;
}

void vpos_start(const pk_variant *v, pk_vpos *p)
{
	const geometry *g = geo_of(v);
	vpos_clear(v, p, v->first);
	/* Turkish men stand on the second and third rows, the others from the edge */
	int skip = v->orthogonal ? 1 : 0;
	for (int s = 1; s <= g->n; s++) {
		int r = g->row[s];
		if (r >= skip && r < skip + v->men_rows)
			p->sq[s] = VP_BMAN;
		else if (r >= v->rows - skip - v->men_rows && r < v->rows - skip)
			p->sq[s] = VP_WMAN;
	}
}

int vpos_pieces(const pk_vpos *p)
{
	int n = 0, sq = variant_squares(p->v);
	for (int s = 1; s <= sq; s++)
		n += p->sq[s] != VP_EMPTY;
	return n;
}

int variant_start_pieces(const pk_variant *v)
{
	pk_vpos p;
	vpos_start(v, &p);
	return vpos_pieces(&p);
}

/* The row where a side's men crown. */
static int crown_row(const pk_variant *v, int side) { return side == PK_WHITE ? 0 : v->rows - 1; }

int vpos_check(const pk_vpos *p, char *err, size_t errsize)
{
	const pk_variant *v = p->v;
	const geometry *g = geo_of(v);
	pk_vpos start;
	vpos_start(v, &start);
	int have[2] = { 0, 0 }, most = 0;
	for (int s = 1; s <= g->n; s++)
		most += start.sq[s] == VP_WMAN;
	for (int s = 1; s <= g->n; s++) {
		int c = p->sq[s];
		if (c == VP_EMPTY)
			continue;
		int side = c == VP_WMAN || c == VP_WKING ? PK_WHITE : PK_BLACK;
		have[side == PK_WHITE ? 0 : 1]++;
		if ((c == VP_WMAN || c == VP_BMAN) && g->row[s] == crown_row(v, side)) {
			snprintf(err, errsize, "a %s man on square %d, its own crowning row (it would be a king)",
				 side == PK_WHITE ? "white" : "black", s);
			return -1;
		}
	}
	for (int k = 0; k < 2; k++)
		if (have[k] > most) {
			snprintf(err, errsize, "%d %s pieces: a side has %d at most", have[k], k == 0 ? "white" : "black", most);
			return -1;
		}
	return 0;
}

/* Directions a man of this side moves or captures in. */
static inline int man_dirs(const pk_variant *v, int side, bool capture, int *dirs)
{
	int n = 0;
	if (v->orthogonal) {
		dirs[n++] = side == PK_WHITE ? 4 : 5;
		dirs[n++] = 6;
		dirs[n++] = 7;
		return n;
	}
	if (capture && v->men_capture_back) {
		for (int d = 0; d < (v->capture_straight ? 8 : 4); d++)
			dirs[n++] = d;
		return n;
	}
	dirs[n++] = side == PK_WHITE ? 0 : 2;
	dirs[n++] = side == PK_WHITE ? 1 : 3;
	return n;
}

static inline int king_dirs(const pk_variant *v, bool capture, int *dirs)
{
	if (capture && v->capture_straight) {
		for (int d = 0; d < 8; d++)
			dirs[d] = d;
		return 8;
	}
	for (int d = 0; d < 4; d++)
		dirs[d] = v->orthogonal ? d + 4 : d;
	return 4;
}

/* ---- captures -------------------------------------------------------------------------- */

typedef struct {
	const pk_vpos *p;
	const geometry *g;
	int side, from;
	bool captured[VAR_MAX_SQ + 1];
	pk_vmove cur;
	pk_vmovelist *out;
	bool overflow;
} capctx;

static bool empty_for(const capctx *c, int s)
{
	/* the moving piece has left its square; with removal at once, captured pieces are gone */
	if (s == c->from)
		return true;
	if (c->p->sq[s] != VP_EMPTY)
		return c->p->v->remove_at_once && c->captured[s];
	return true;
}

static bool capturable(const capctx *c, int s, bool by_king)
{
	int piece = c->p->sq[s];
	if (piece == VP_EMPTY || s == c->from || c->captured[s] || colour_of(piece) == c->side)
		return false;
	if (!by_king && c->p->v->men_spare_kings && is_king(piece))
		return false;
	return true;
}

static void cap_set(const pk_vmove *m, uint64_t set[2]);

/* What the majority rules compare first: pieces, or (Frisian) value; 0 for free choice. */
static int weight(const pk_variant *v, const pk_vmove *m)
{
	switch (v->rule) {
	case VRULE_FREE:
	case VRULE_CZECH:
		return 0;
	case VRULE_FRISIAN:
		return 100 * (m->ncap - m->kings) + 199 * m->kings;
	default:
		return m->ncap;
	}
}

static int first_king(const pk_vpos *p, const pk_vmove *m);

/* A finished sequence into the list. When the list is full, room is made among the
 * sequences found so far: those the rule would drop anyway (fewer pieces, or less
 * value, than the best) go, and of sequences taking the same pieces from the same
 * square to the same square one stays (the one taking a king earliest, for Italian). */
static void record(capctx *c)
{
	pk_vmovelist *ml = c->out;
	if (ml->n >= VAR_MAX_MOVES) {
		const pk_variant *v = c->p->v;
		int best = weight(v, &c->cur);
		for (int i = 0; i < ml->n; i++)
			if (weight(v, &ml->m[i]) > best)
				best = weight(v, &ml->m[i]);
		int k = 0;
		for (int i = 0; i < ml->n; i++) {
			pk_vmove *m = &ml->m[i];
			if (weight(v, m) < best)
				continue;
			uint64_t a[2];
			cap_set(m, a);
			int dup = -1;
			for (int j = 0; j < k && dup < 0; j++) {
				uint64_t b[2];
				cap_set(&ml->m[j], b);
				if (ml->m[j].from == m->from && ml->m[j].to == m->to && a[0] == b[0] && a[1] == b[1])
					dup = j;
			}
			if (dup < 0)
				ml->m[k++] = *m;
			else if (first_king(c->p, m) < first_king(c->p, &ml->m[dup]))
				ml->m[dup] = *m;
		}
		ml->n = k;
		if (weight(v, &c->cur) < best)
			return;
		if (ml->n >= VAR_MAX_MOVES) {
			c->overflow = true;
			return;
		}
	}
	pk_vmove *m = &ml->m[ml->n++];
	*m = c->cur;
	m->from = (uint8_t)c->from;
	m->to = c->cur.land[c->cur.nland - 1];
}

/* The piece that a capture from `at` along direction d would take, or 0. */
static int victim_along(const capctx *c, int at, bool king, int last_dir, int d)
{
	const pk_variant *v = c->p->v;
	const geometry *g = c->g;
	if (king && v->remove_at_once && last_dir >= 0 && d == opposite[last_dir])
		return 0;                 /* a Turkish king may not turn back */
	int s = g->nb[at][d];
	if (king && v->flying)
		while (s && empty_for(c, s))
			s = g->nb[s][d];
	if (!s || !capturable(c, s, king) || !g->nb[s][d] || !empty_for(c, g->nb[s][d]))
		return 0;
	return s;
}

/* Whether a piece on `at` (arrived along last_dir) could capture again. */
static bool can_continue(const capctx *c, int at, bool king, int last_dir)
{
	int dirs[8], nd = king ? king_dirs(c->p->v, true, dirs) : man_dirs(c->p->v, c->side, true, dirs);
	for (int i = 0; i < nd; i++)
		if (victim_along(c, at, king, last_dir, dirs[i]))
			return true;
	return false;
}

static void capture_from(capctx *c, int at, bool king, int last_dir)
{
	const pk_variant *v = c->p->v;
	const geometry *g = c->g;
	int dirs[8], nd = king ? king_dirs(v, true, dirs) : man_dirs(v, c->side, true, dirs);
	bool more = false;
	for (int i = 0; i < nd && c->cur.ncap < VAR_MAX_CAP; i++) {
		int d = dirs[i];
		int s = victim_along(c, at, king, last_dir, d);
		if (!s)
			continue;
		/* A flying king lands on any free square beyond the piece it takes, unless
		 * from one of them it can capture again: then it must land on one of those
		 * and go on (a capture is completed; Russian rules 4.6, and the same for
		 * every flying king: where the majority rule holds, it drops the shorter
		 * sequence anyway). */
		bool only_continuing = false, goes_on[12] = { false };
		if (king && v->flying && !v->short_landing) {
			c->captured[s] = true;
			int k = 0;
			for (int land = g->nb[s][d]; land && empty_for(c, land) && k < 12; land = g->nb[land][d], k++)
				only_continuing |= goes_on[k] = can_continue(c, land, true, d);
			c->captured[s] = false;
		}
		int land = g->nb[s][d];
		for (int k = 0; land && empty_for(c, land); k++) {
			if (only_continuing && !(k < 12 && goes_on[k])) {
				land = g->nb[land][d];
				continue;
			}
			more = true;
			c->captured[s] = true;
			c->cur.cap[c->cur.ncap++] = (uint8_t)s;
			c->cur.kings += is_king(c->p->sq[s]);
			c->cur.land[c->cur.nland++] = (uint8_t)land;
			bool k2 = king;
			bool crowned_now = false;
			if (!king && g->row[land] == crown_row(v, c->side) && v->crown_in_capture) {
				k2 = true;
				crowned_now = !c->cur.crowns;
				c->cur.crowns = true;
			}
			capture_from(c, land, k2, d);
			if (crowned_now)
				c->cur.crowns = false;
			c->cur.nland--;
			c->cur.kings -= is_king(c->p->sq[s]);
			c->cur.ncap--;
			c->captured[s] = false;
			if (!(king && v->flying) || v->short_landing)
				break;
			land = g->nb[land][d];
		}
	}
	if (!more && c->cur.ncap > 0)
		record(c);
}

/* The captured pieces as a set, for telling sequences apart. */
static void cap_set(const pk_vmove *m, uint64_t set[2])
{
	set[0] = set[1] = 0;
	for (int i = 0; i < m->ncap; i++)
		set[m->cap[i] >> 6] |= 1ull << (m->cap[i] & 63);
}

/* The earliest position in the sequence at which a king is captured (Italian). */
static int first_king(const pk_vpos *p, const pk_vmove *m)
{
	for (int i = 0; i < m->ncap; i++)
		if (is_king(p->sq[m->cap[i]]))
			return i;
	return VAR_MAX_CAP;
}

static int filter(const pk_vpos *p, pk_vmovelist *ml)
{
	const pk_variant *v = p->v;
	int n = ml->n;
	if (n == 0)
		return 0;
	bool keep[VAR_MAX_MOVES];
	for (int i = 0; i < n; i++)
		keep[i] = true;
	int best = 0, bestk = 0, bestfk = VAR_MAX_CAP;
	bool any_king = false;
	switch (v->rule) {
	case VRULE_MAX:
	case VRULE_SPANISH:
	case VRULE_ITALIAN:
		for (int i = 0; i < n; i++)
			if (ml->m[i].ncap > best)
				best = ml->m[i].ncap;
		for (int i = 0; i < n; i++)
			keep[i] = ml->m[i].ncap == best;
		if (v->rule == VRULE_MAX)
			break;
		if (v->rule == VRULE_ITALIAN) {
			for (int i = 0; i < n; i++)
				any_king |= keep[i] && ml->m[i].by_king;
			for (int i = 0; i < n; i++)
				keep[i] = keep[i] && (ml->m[i].by_king || !any_king);
		}
		for (int i = 0; i < n; i++)
			if (keep[i] && ml->m[i].kings > bestk)
				bestk = ml->m[i].kings;
		for (int i = 0; i < n; i++)
			keep[i] = keep[i] && ml->m[i].kings == bestk;
		if (v->rule == VRULE_ITALIAN) {
			for (int i = 0; i < n; i++)
				if (keep[i] && first_king(p, &ml->m[i]) < bestfk)
					bestfk = first_king(p, &ml->m[i]);
			for (int i = 0; i < n; i++)
				keep[i] = keep[i] && (bestk == 0 || first_king(p, &ml->m[i]) == bestfk);
		}
		break;
	case VRULE_FRISIAN:
		for (int i = 0; i < n; i++)
			if (weight(v, &ml->m[i]) > best)
				best = weight(v, &ml->m[i]);
		for (int i = 0; i < n; i++) {
			keep[i] = weight(v, &ml->m[i]) == best;
			any_king |= keep[i] && ml->m[i].by_king;
		}
		for (int i = 0; i < n; i++)
			keep[i] = keep[i] && (ml->m[i].by_king || !any_king);
		break;
	case VRULE_CZECH:
		for (int i = 0; i < n; i++)
			any_king |= ml->m[i].by_king;
		for (int i = 0; i < n; i++)
			keep[i] = ml->m[i].by_king || !any_king;
		break;
	default:
		break;
	}
	/* the same pieces from the same square to the same square: one move */
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		uint64_t a[2];
		cap_set(&ml->m[i], a);
		bool dup = false;
		for (int j = 0; j < k && !dup; j++) {
			uint64_t b[2];
			cap_set(&ml->m[j], b);
			dup = ml->m[j].from == ml->m[i].from && ml->m[j].to == ml->m[i].to && a[0] == b[0] && a[1] == b[1];
		}
		if (!dup)
			ml->m[k++] = ml->m[i];
	}
	ml->n = k;
	return k;
}

bool vmove_same(const pk_vmove *a, const pk_vmove *b)
{
	if (a->from != b->from || a->to != b->to || a->ncap != b->ncap)
		return false;
	uint64_t x[2], y[2];
	cap_set(a, x);
	cap_set(b, y);
	return x[0] == y[0] && x[1] == y[1];
}

bool vhas_capture(const pk_vpos *p)
{
	const geometry *g = geo_of(p->v);
	capctx c = { .p = p, .g = g, .side = p->stm };
	for (int s = 1; s <= g->n; s++) {
		int piece = p->sq[s];
		if (piece == VP_EMPTY || colour_of(piece) != p->stm)
			continue;
		c.from = s;
		if (can_continue(&c, s, is_king(piece), -1))
			return true;
	}
	return false;
}

int vcount(const pk_vpos *p)
{
	if (vhas_capture(p)) {
		pk_vmovelist ml;
		return vgen(p, &ml);
	}
	const pk_variant *v = p->v;
	const geometry *g = geo_of(v);
	bool limited = false;
	if (v->king_moves && p->kn[p->stm] >= v->king_moves)
		for (int s = 1; s <= g->n && !limited; s++)
			limited = p->sq[s] == (p->stm == PK_WHITE ? VP_WMAN : VP_BMAN);
	int n = 0;
	for (int s = 1; s <= g->n; s++) {
		int piece = p->sq[s];
		if (piece == VP_EMPTY || colour_of(piece) != p->stm)
			continue;
		bool king = is_king(piece);
		if (king && limited && s == p->ksq[p->stm])
			continue;
		int dirs[8], nd = king ? king_dirs(v, false, dirs) : man_dirs(v, p->stm, false, dirs);
		for (int i = 0; i < nd; i++)
			for (int t = g->nb[s][dirs[i]]; t && p->sq[t] == VP_EMPTY; t = g->nb[t][dirs[i]]) {
				n++;
				if (!(king && v->flying))
					break;
			}
	}
	return n < VAR_MAX_MOVES ? n : VAR_MAX_MOVES;
}

/* The squares of a set (bit s - 1 for square s) in order, or every square of n when
 * `all` (the set is everything, or the board has more than 64): the first, then the one
 * after s (n + 1 past the last). */
static inline int first_square(uint64_t from, bool all, int n)
{
	return all ? 1 : from ? __builtin_ctzll(from) + 1 : n + 1;
}

static inline int next_square(uint64_t *from, int s, bool all, int n)
{
	if (all)
		return s + 1;
	*from &= *from - 1;
	return *from ? __builtin_ctzll(*from) + 1 : n + 1;
}

int vgen(const pk_vpos *p, pk_vmovelist *ml) { return vgen_from(p, ~0ull, ml); }

int vgen_from(const pk_vpos *p, uint64_t from, pk_vmovelist *ml)
{
	const pk_variant *v = p->v;
	const geometry *g = geo_of(v);
	ml->n = 0;
	capctx c = { .p = p, .g = g, .side = p->stm, .out = ml };
	bool all = from == ~0ull || g->n > 64;
	for (int s = first_square(from, all, g->n); s <= g->n; s = next_square(&from, s, all, g->n)) {
		int piece = p->sq[s];
		if (piece == VP_EMPTY || colour_of(piece) != p->stm)
			continue;
		c.from = s;
		memset(&c.cur, 0, sizeof c.cur);
		c.cur.by_king = is_king(piece);
		capture_from(&c, s, is_king(piece), -1);
	}
	if (ml->n)
		return filter(p, ml);
	return vgen_quiet(p, ml);
}

int vgen_quiet(const pk_vpos *p, pk_vmovelist *ml) { return vgen_quiet_from(p, ~0ull, ml); }

int vgen_quiet_from(const pk_vpos *p, uint64_t from, pk_vmovelist *ml)
{
	const pk_variant *v = p->v;
	const geometry *g = geo_of(v);
	int n = 0;   /* ml->n kept in a register, written once at the end */
	bool limited = false;
	if (v->king_moves && p->kn[p->stm] >= v->king_moves)
		for (int s = 1; s <= g->n && !limited; s++)
			limited = p->sq[s] == (p->stm == PK_WHITE ? VP_WMAN : VP_BMAN);
	bool all = from == ~0ull || g->n > 64;
	for (int s = first_square(from, all, g->n); s <= g->n; s = next_square(&from, s, all, g->n)) {
		int piece = p->sq[s];
		if (piece == VP_EMPTY || colour_of(piece) != p->stm)
			continue;
		bool king = is_king(piece);
		if (king && limited && s == p->ksq[p->stm])
			continue;             /* Frisian: this king has moved quietly often enough */
		int dirs[8], nd = king ? king_dirs(v, false, dirs) : man_dirs(v, p->stm, false, dirs);
		if (!king) {
			/* a man's step written whether or not the square is free, and kept when it
			 * is: no branch on the board's contents to mispredict */
			for (int i = 0; i < nd && n < VAR_MAX_MOVES; i++) {
				int t = g->nb[s][dirs[i]];
				vmove_quiet(&ml->m[n], s, t, false);
				n += (t != 0) & (p->sq[t] == VP_EMPTY);
			}
			continue;
		}
		for (int i = 0; i < nd; i++) {
			int t = g->nb[s][dirs[i]];
			while (t && p->sq[t] == VP_EMPTY && n < VAR_MAX_MOVES) {
				vmove_quiet(&ml->m[n++], s, t, true);
				if (!v->flying)
					break;
				t = g->nb[t][dirs[i]];
			}
		}
	}
	ml->n = n;
	return n;
}

/* Frisian: the mover's count goes on with a quiet move of the same king, starts again
 * with another king's, and stops with anything else; a count whose king is gone, or
 * whose side has no man left (the limit no longer applies), is dropped. */
static void count_king_moves(const pk_vpos *p, const pk_vmove *m, pk_vpos *out)
{
	int side = p->stm;
	if (m->by_king && m->ncap == 0) {
		out->kn[side] = p->kn[side] && p->ksq[side] == m->from ? (uint8_t)(p->kn[side] + 1) : 1;
		out->ksq[side] = m->to;
	} else {
		out->kn[side] = out->ksq[side] = 0;
	}
	const geometry *g = geo_of(p->v);
	for (int s = 0; s < 2; s++) {
		bool men = false;
		for (int q = 1; q <= g->n && !men; q++)
			men = out->sq[q] == (s == PK_WHITE ? VP_WMAN : VP_BMAN);
		if (!men || out->sq[out->ksq[s]] != (s == PK_WHITE ? VP_WKING : VP_BKING))
			out->kn[s] = out->ksq[s] = 0;
		if (out->kn[s] > p->v->king_moves)
			out->kn[s] = (uint8_t)p->v->king_moves;
	}
}

void vmake(const pk_vpos *p, const pk_vmove *m, pk_vpos *out)
{
	*out = *p;
	int piece = p->sq[m->from];
	out->sq[m->from] = VP_EMPTY;
	for (int i = 0; i < m->ncap; i++)
		out->sq[m->cap[i]] = VP_EMPTY;
	const geometry *g = geo_of(p->v);
	if (!is_king(piece) && (m->crowns || g->row[m->to] == crown_row(p->v, p->stm)))
		piece = p->stm == PK_WHITE ? VP_WKING : VP_BKING;
	out->sq[m->to] = (uint8_t)piece;
	out->stm = p->stm == PK_WHITE ? PK_BLACK : PK_WHITE;
	if (p->v->king_moves)
		count_king_moves(p, m, out);
}

uint64_t vpos_key(const pk_vpos *p)
{
	const geometry *g = geo_of(p->v);
	uint64_t k = zob_variant[p->v - variants] ^ (p->stm == PK_WHITE ? zob_white : 0);
	for (int s = 1; s <= g->n; s++)
		if (p->sq[s])
			k ^= zob[s][p->sq[s]];
	return k;
}

/* The key after m: the mover, the pieces taken and the side to move changed. */
static uint64_t key_moved(const pk_vpos *p, const pk_vmove *m, int after, uint64_t key)
{
	key ^= zob_white ^ zob[m->from][p->sq[m->from]] ^ zob[m->to][after];
	for (int i = 0; i < m->ncap; i++)
		key ^= zob[m->cap[i]][p->sq[m->cap[i]]];
	return key;
}

uint64_t vpos_key_after(const pk_vpos *p, const pk_vmove *m, const pk_vpos *after, uint64_t key)
{
	if (p->v->king_moves)
		return vpos_state_key(after);
	return key_moved(p, m, after->sq[m->to], key);
}

uint64_t vpos_key_of_move(const pk_vpos *p, const pk_vmove *m, uint64_t key)
{
	int piece = p->sq[m->from];   /* as vmake crowns it */
	if (!is_king(piece) && (m->crowns || geo_of(p->v)->row[m->to] == crown_row(p->v, p->stm)))
		piece = p->stm == PK_WHITE ? VP_WKING : VP_BKING;
	return key_moved(p, m, piece, key);
}

uint64_t vpos_state_key(const pk_vpos *p)
{
	uint64_t k = vpos_key(p);
	for (int s = 0; s < 2; s++)
		if (p->kn[s])
			k ^= zob_kmoves[s][p->ksq[s]][p->kn[s] & 3];
	return k;
}

uint64_t vperft(const pk_vpos *p, int depth)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	int n = vgen(p, ml);
	uint64_t total = 0;
	if (depth <= 1)
		total = depth == 1 ? (uint64_t)n : 1;
	else
		for (int i = 0; i < n; i++) {
			pk_vpos c;
			vmake(p, &ml->m[i], &c);
			total += vperft(&c, depth - 1);
		}
	free(ml);
	return total;
}
