/* The mailbox instance of the search's templates (engine/node.inc.c, deepen.inc.c,
 * worker.inc.h): every variant of rules/variant.h on its own board, with the features
 * the English search won its matches with. The engine of vsearch.h is built on it. Not
 * for use outside engine/. */
#ifndef PK_SEARCH_MB_H
#define PK_SEARCH_MB_H

#include "engine/net.h"
#include "engine/search_int.h"
#include "engine/vsearch.h"
#include "rules/vbits.h"

/* A position and its key (vpos_state_key: the hash the table and repetitions use),
 * kept up to date move by move, and on the boards rules/vbits.h answers for, its
 * bitboards (for the captures and counts the search asks of every node). */
typedef struct mb_pos {
	pk_vpos p;
	uint64_t key;
	bool has_bits;
	bool has_gen;   /* the bitboards also generate the moves (vbits_gen_supported) */
	bool cap;       /* whether the side to move must capture (kept with the bitboards) */
	pk_vbits b;
	/* the network the evaluation adds (engine/net.h; NULL: none, or not on this board) and
	 * its first layer's sums from White's view and from Black's, made by mb_pos_use_net
	 * and brought up to date by every move made from the position */
	const pk_net *net;
	pk_net_acc acc[2];
} mb_pos;

/* The search's position of p, without a network. */
void mb_pos_of(const pk_vpos *p, mb_pos *out);
/* x and the positions made from it evaluated with n added (NULL: without one); a network
 * is used on the 10x10 boards of 50 squares only. */
void mb_pos_use_net(mb_pos *x, const pk_net *n);
/* c: p after m, as the search makes it (its key, bitboards and network sums brought up to
 * date from p's); for checking the search's positions against those made afresh. */
void mb_pos_after(const mb_pos *p, const pk_vmove *m, mb_pos *c);

typedef struct mb_engine mb_engine;
typedef void (*mb_iteration_cb)(void *ctx, const pk_viteration *it);

#define N_MOVE pk_vmove
#define N_SQ (VAR_MAX_SQ + 1)
#define N_WORKER mb_worker
#define N_ENGINE_STRUCT struct mb_engine
#define N_WEIGHTS pk_vweights
#define N_ITERATION pk_viteration
#define N_EGDB 0
#define N_EVAL_CACHE (1 << 15)   /* each thread's cache of evaluations (node.inc.c) */
/* the variant of the search, its count of kings-only plies that draws, its endgame
 * databases (egdb/vegdb.h; NULL: none) with the most pieces they hold, and the root's
 * limited ending (vdraw_ending_class; 0: none) with the plies played in it before;
 * whether the variant has limited endings, and for each thread and ply of the line
 * searched the ending's class, its count and the pieces (mb_table_probe keeps them) */
typedef struct { short cls, count, pieces; } mb_ending_at;
#define N_ENGINE_EXTRA const pk_variant *v; int draw_plies; const struct pk_vegdb *tables; int table_pieces; \
	int ending_class, ending; bool endings; int root_pieces; mb_ending_at at[MAX_THREADS][MAX_PLY + 1];
#include "engine/worker.inc.h"

mb_engine *mb_engine_new(size_t hash_mb);
void mb_engine_free(mb_engine *e);
void mb_engine_new_game(mb_engine *e);
int mb_engine_set_threads(mb_engine *e, int n);
void mb_engine_set_features(mb_engine *e, const pk_features *f);
/* Weights for the searches to come (the variant's own are set by vengine_search). */
void mb_engine_set_weights(mb_engine *e, const pk_vweights *w);
double mb_engine_panic_time(const pk_features *f, const pk_limits *lim);
int mb_se_search(mb_worker *w, const mb_pos *p, int depth, int alpha, int beta, int ply);
bool mb_se_excluded(const mb_engine *e, const pk_vmove *m);
void mb_se_lmr_init(void);
int mb_engine_search(mb_engine *e, const mb_pos *root, const pk_history *h, const pk_limits *lim,
		     volatile sig_atomic_t *stop, mb_iteration_cb cb, void *ctx, pk_vresult *out);

#endif
