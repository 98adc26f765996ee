/* A solver of English draughts endings written apart from the database builder, to check
 * built levels (7 pieces and fewer) on sampled positions.
 *
 * For each random position drawn of a slice it gathers every position reachable from it
 * by moves that neither capture nor crown (the same material: men only go forward, so
 * this is a part of the slice around the sample), with the moves of the test generator
 * of naive.c; a capture's or a crowning's result is a position of another slice, whose
 * value is probed from the databases (fewer pieces, or another slice of the level, each
 * checked in its own turn). The graph is then solved by counting, forward from its ends:
 * a position with a move to a lost one is won, one whose moves all lead to won ones is
 * lost, the rest are drawn. Every position solved is compared with the databases' value.
 * Nothing here is shared with src/egdb but the reader under test and FEN for messages.
 *
 * usage: egdb_apart DIR [--pieces N] [--slice NAME] [--samples K] [--seed S] [--cap N]
 *                       [--plant K] [--json]
 * Exit status: 0 all agree, 1 a disagreement, 2 usage or an unreadable directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "naive_key.h"
#include "egdb/egdb.h"
#include "rules/fen.h"

typedef nk_key key;

enum { UNKNOWN = 2 };              /* besides EGDB_WIN, EGDB_LOSS, EGDB_DRAW */

typedef struct {
	key *k;
	int n, cap;
	int *table;
	uint32_t mask;
	int *succ_at, *succ;           /* CSR: node i's distinct successors in the graph */
	long nsucc, succ_cap;
	int *pred_at, *pred;
	long pred_cap;
	signed char *val;
	unsigned char *left;           /* successors not yet known won for the other side */
	unsigned char *draw_exit;      /* a move out of the graph to a drawn position */
} graph;

typedef struct {
	long samples, solved, over_cap, missing, compared, wrong;
	long wins, losses, draws;      /* of the positions compared, by the solver */
} tally;

static int planted;                /* --plant K: every K-th comparison is made wrong on purpose */
static long plant_count;

static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t hash_key(const key *k)
{
	uint64_t h = k->black * 0x9E3779B97F4A7C15ull ^ k->white * 0xC2B2AE3D27D4EB4Full ^
		     k->kings * 0x165667B19E3779F9ull ^ k->stm;
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

static int popcount(uint32_t x) { return __builtin_popcount(x); }

static void fen_of(const key *k, char *buf, size_t size)
{
	pk_pos p = nk_to_pos(k);
	fen_format(&p, buf, size);
}

/* The databases' value of a position for its side to move: EGDB_* or UNKNOWN when they
 * do not hold it. A side without pieces has lost. */
static int probe(pk_egdb *db, const key *k)
{
	if (!(k->stm ? k->black : k->white))
		return EGDB_LOSS;
	pk_pos p = nk_to_pos(k);
	pk_egdb_result r;
	return egdb_probe(db, &p, &r) == EGDB_FOUND ? r.value : UNKNOWN;
}

static bool key_eq(const key *a, const key *b)
{
	return a->black == b->black && a->white == b->white && a->kings == b->kings && a->stm == b->stm;
}

/* The node of k, added when new; -1 when the graph is full. */
static int node(graph *g, const key *k)
{
	uint32_t h = hash_key(k) & g->mask;
	for (; g->table[h] >= 0; h = (h + 1) & g->mask)
		if (key_eq(&g->k[g->table[h]], k))
			return g->table[h];
	if (g->n == g->cap)
		return -1;
	g->k[g->n] = *k;
	g->table[h] = g->n;
	return g->n++;
}

static bool push_succ(graph *g, int v)
{
	if (g->nsucc == g->succ_cap) {
		long nc = g->succ_cap * 2;
		int *s = realloc(g->succ, sizeof *s * (size_t)nc);
		if (!s)
			return false;
		g->succ = s;
		g->succ_cap = nc;
	}
	g->succ[g->nsucc++] = v;
	return true;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Gathers the graph from the sample and solves it. 0 solved; 1 over the cap; 2 a move
 * leads out to a position the databases do not hold; -1 out of memory. */
static int solve(graph *g, pk_egdb *db, const key *sample)
{
	memset(g->table, 0xFF, sizeof *g->table * ((size_t)g->mask + 1));
	g->n = 0;
	g->nsucc = 0;
	node(g, sample);
	nv_move mv[64];
	int npieces = popcount(sample->black | sample->white), nkings = popcount(sample->kings);
	for (int i = 0; i < g->n; i++) {
		nv_pos p;
		key here = g->k[i];
		nk_to_nv(&here, &p);
		int m = nv_moves(&p, mv, 64);
		g->succ_at[i] = (int)g->nsucc;
		g->val[i] = UNKNOWN;
		g->draw_exit[i] = 0;
		bool won = false;
		for (int j = 0; j < m; j++) {
			nv_pos q;
			nv_make(&p, &mv[j], &q);
			key k = nk_of(&q);
			if (popcount(k.black | k.white) != npieces || popcount(k.kings) != nkings) {
				/* a capture or a crowning: out of the graph */
				int v = probe(db, &k);
				if (v == UNKNOWN)
					return 2;
				if (v == EGDB_LOSS)
					won = true;
				else if (v == EGDB_DRAW)
					g->draw_exit[i] = 1;
				continue;
			}
			int t = node(g, &k);
			if (t < 0)
				return 1;
			if (!push_succ(g, t))
				return -1;
		}
		/* distinct successors (two paths to one position count once) */
		int *s = g->succ + g->succ_at[i];
		long ns = g->nsucc - g->succ_at[i], w = 0;
		qsort(s, (size_t)ns, sizeof *s, cmp_int);
		for (long j = 0; j < ns; j++)
			if (j == 0 || s[j] != s[j - 1])
				s[w++] = s[j];
		g->nsucc = g->succ_at[i] + w;
		g->left[i] = (unsigned char)w;
		if (won)
			g->val[i] = EGDB_WIN;
	}
	g->succ_at[g->n] = (int)g->nsucc;
	/* predecessors, as CSR */
	if (g->nsucc > g->pred_cap) {
		int *pr = realloc(g->pred, sizeof *pr * (size_t)g->nsucc);
		if (!pr)
			return -1;
		g->pred = pr;
		g->pred_cap = g->nsucc;
	}
	memset(g->pred_at, 0, sizeof *g->pred_at * (size_t)(g->n + 1));
	for (long e = 0; e < g->nsucc; e++)
		g->pred_at[g->succ[e] + 1]++;
	for (int i = 0; i < g->n; i++)
		g->pred_at[i + 1] += g->pred_at[i];
	int *fill = malloc(sizeof *fill * (size_t)(g->n + 1));
	int *queue = malloc(sizeof *queue * (size_t)(g->n + 1));
	if (!fill || !queue) {
		free(fill);
		free(queue);
		return -1;
	}
	memcpy(fill, g->pred_at, sizeof *fill * (size_t)g->n);
	for (int u = 0; u < g->n; u++)
		for (int e = g->succ_at[u]; e < g->succ_at[u + 1]; e++)
			g->pred[fill[g->succ[e]]++] = u;
	/* the ends: won by a move out, or no move in the graph left */
	int qh = 0, qt = 0;
	for (int u = 0; u < g->n; u++) {
		if (g->val[u] == UNKNOWN && g->left[u] == 0)
			g->val[u] = g->draw_exit[u] ? EGDB_DRAW : EGDB_LOSS;
		if (g->val[u] != UNKNOWN && g->val[u] != EGDB_DRAW)
			queue[qt++] = u;
	}
	while (qh < qt) {
		int v = queue[qh++];
		for (int e = g->pred_at[v]; e < g->pred_at[v + 1]; e++) {
			int u = g->pred[e];
			if (g->val[u] != UNKNOWN)
				continue;
			if (g->val[v] == EGDB_LOSS) {
				g->val[u] = EGDB_WIN;
				queue[qt++] = u;
			} else if (--g->left[u] == 0) {
				g->val[u] = g->draw_exit[u] ? EGDB_DRAW : EGDB_LOSS;
				if (g->val[u] == EGDB_LOSS)
					queue[qt++] = u;
			}
		}
	}
	for (int u = 0; u < g->n; u++)
		if (g->val[u] == UNKNOWN)
			g->val[u] = EGDB_DRAW;   /* neither side can force an end: a draw */
	free(fill);
	free(queue);
	return 0;
}

/* A random position of the material, either side to move; men off their crowning row. */
static key random_position(uint64_t *seed, const pk_material *mat)
{
	key k = { 0, 0, 0, (uint32_t)(rng(seed) & 1) };
	uint32_t *mover = k.stm ? &k.black : &k.white, *other = k.stm ? &k.white : &k.black;
	const int counts[4] = { mat->m[0], mat->k[0], mat->m[1], mat->k[1] };
	for (int kind = 0; kind < 4; kind++)
		for (int i = 0; i < counts[kind]; i++) {
			bool man = kind == 0 || kind == 2;
			bool black = (kind < 2) == (k.stm == 1);
			for (;;) {
				int sq = 1 + (int)(rng(seed) % 32);
				uint32_t b = 1u << (sq - 1);
				if ((k.black | k.white) & b)
					continue;
				if (man && (black ? sq >= 29 : sq <= 4))
					continue;
				*(kind < 2 ? mover : other) |= b;
				if (!man)
					k.kings |= b;
				break;
			}
		}
	return k;
}

static const char *value_name(int v)
{
	return v == EGDB_WIN ? "win" : v == EGDB_LOSS ? "loss" : v == EGDB_DRAW ? "draw" : "not held";
}

static void check_slice(pk_egdb *db, graph *g, const pk_egdb_slice_info *s, long samples, uint64_t *seed, tally *t,
			bool json)
{
	tally st = { 0 };
	for (long i = 0; i < samples; i++) {
		key k = random_position(seed, &s->mat);
		st.samples++;
		int rc = solve(g, db, &k);
		if (rc == 1) {
			st.over_cap++;
			continue;
		}
		if (rc == 2) {
			st.missing++;
			continue;
		}
		if (rc < 0) {
			fprintf(stderr, "egdb_apart: out of memory\n");
			exit(2);
		}
		st.solved++;
		for (int u = 0; u < g->n; u++) {
			int want = g->val[u], got = probe(db, &g->k[u]);
			if (planted && ++plant_count % planted == 0)
				got = got == EGDB_WIN ? EGDB_LOSS : EGDB_WIN;
			st.compared++;
			st.wins += want == EGDB_WIN;
			st.losses += want == EGDB_LOSS;
			st.draws += want == EGDB_DRAW;
			if (got != want && st.wrong++ < 3) {
				char f[PK_FEN_STRLEN];
				fen_of(&g->k[u], f, sizeof f);
				printf("%s%s: %s: solved %s, the databases say %s\n", json ? "# " : "", s->name, f,
				       value_name(want), value_name(got));
			}
		}
	}
	if (json)
		printf("{\"slice\":\"%s\",\"samples\":%ld,\"solved\":%ld,\"over_cap\":%ld,\"missing\":%ld,"
		       "\"compared\":%ld,\"wins\":%ld,\"losses\":%ld,\"draws\":%ld,\"wrong\":%ld}\n",
		       s->name, st.samples, st.solved, st.over_cap, st.missing, st.compared, st.wins, st.losses, st.draws,
		       st.wrong);
	else
		printf("%-12s %3ld samples, %3ld solved (%ld over the cap, %ld leading out of the databases), "
		       "%9ld positions compared (%ld won, %ld lost, %ld drawn): %ld wrong\n",
		       s->name, st.samples, st.solved, st.over_cap, st.missing, st.compared, st.wins, st.losses, st.draws,
		       st.wrong);
	fflush(stdout);
	t->samples += st.samples;
	t->solved += st.solved;
	t->over_cap += st.over_cap;
	t->missing += st.missing;
	t->compared += st.compared;
	t->wins += st.wins;
	t->losses += st.losses;
	t->draws += st.draws;
	t->wrong += st.wrong;
}

static void graph_free(graph *g)
{
	free(g->k);
	free(g->table);
	free(g->succ_at);
	free(g->pred_at);
	free(g->succ);
	free(g->pred);
	free(g->val);
	free(g->left);
	free(g->draw_exit);
}

static int usage(void)
{
	fprintf(stderr, "usage: egdb_apart DIR [--pieces N] [--slice NAME] [--samples K] [--seed S] [--cap N] "
			"[--plant K] [--json]\n"
			"  the slices of N pieces (default: the most any slice of DIR has), K random positions\n"
			"  each (default 10), each solved with the positions it reaches without a capture or a\n"
			"  crowning, at most N of them (default 2000000; a sample that reaches more is left out);\n"
			"  --plant K makes every K-th comparison wrong on purpose (a check of the checker)\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *only = NULL;
	long pieces = 0, samples = 10, cap = 2000000;
	uint64_t seed = 1;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;
		if (!strcmp(a, "--pieces") && more)
			pieces = atol(argv[++i]);
		else if (!strcmp(a, "--slice") && more)
			only = argv[++i];
		else if (!strcmp(a, "--samples") && more)
			samples = atol(argv[++i]);
		else if (!strcmp(a, "--seed") && more)
			seed = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(a, "--cap") && more)
			cap = atol(argv[++i]);
		else if (!strcmp(a, "--plant") && more)
			planted = atoi(argv[++i]);
		else if (!strcmp(a, "--json"))
			json = true;
		else if (a[0] != '-' && !dir)
			dir = a;
		else
			return usage();
	}
	if (!dir || samples < 1 || cap < 16 || cap > 200000000 || pieces < 0 || pieces > EGDB_MAX_PIECES || planted < 0)
		return usage();
	pk_egdb *db = egdb_new((size_t)1 << 30);
	char err[600];
	if (!db || egdb_add_dir(db, dir, err, sizeof err) < 0) {
		fprintf(stderr, "egdb_apart: %s\n", db ? err : "out of memory");
		egdb_free(db);
		return 2;
	}
	int n;
	pk_egdb_slice_info *v = egdb_slices(db, &n);
	if (!pieces)
		pieces = egdb_max_pieces(db);
	graph g = { 0 };
	uint32_t tb = 1;
	while (tb < 2 * (uint32_t)cap)
		tb <<= 1;
	g.cap = (int)cap;
	g.mask = tb - 1;
	g.succ_cap = 8 * cap;
	g.k = malloc(sizeof *g.k * (size_t)cap);
	g.table = malloc(sizeof *g.table * (size_t)tb);
	g.succ_at = malloc(sizeof *g.succ_at * (size_t)(cap + 1));
	g.pred_at = malloc(sizeof *g.pred_at * (size_t)(cap + 1));
	g.succ = malloc(sizeof *g.succ * (size_t)g.succ_cap);
	g.val = malloc((size_t)cap);
	g.left = malloc((size_t)cap);
	g.draw_exit = malloc((size_t)cap);
	if (!v || !g.k || !g.table || !g.succ_at || !g.pred_at || !g.succ || !g.val || !g.left || !g.draw_exit) {
		fprintf(stderr, "egdb_apart: out of memory\n");
		graph_free(&g);
		return 2;
	}
	tally t = { 0 };
	int slices = 0;
	for (int i = 0; i < n; i++) {
		if (v[i].part || material_pieces(&v[i].mat) != pieces || (only && strcmp(only, v[i].name)))
			continue;
		check_slice(db, &g, &v[i], samples, &seed, &t, json);
		slices++;
	}
	graph_free(&g);
	free(v);
	if (!slices) {
		fprintf(stderr, "egdb_apart: no slice of %ld pieces%s%s in %s\n", pieces, only ? " named " : "",
			only ? only : "", dir);
		egdb_free(db);
		return 2;
	}
	if (json)
		printf("{\"slices\":%d,\"samples\":%ld,\"solved\":%ld,\"over_cap\":%ld,\"missing\":%ld,\"compared\":%ld,"
		       "\"wins\":%ld,\"losses\":%ld,\"draws\":%ld,\"wrong\":%ld}\n",
		       slices, t.samples, t.solved, t.over_cap, t.missing, t.compared, t.wins, t.losses, t.draws, t.wrong);
	else
		printf("%d slices of %ld pieces: %ld samples, %ld solved, %ld positions compared "
		       "(%ld won, %ld lost, %ld drawn): %ld wrong\n",
		       slices, pieces, t.samples, t.solved, t.compared, t.wins, t.losses, t.draws, t.wrong);
	egdb_free(db);
	return t.wrong ? 1 : 0;
}
