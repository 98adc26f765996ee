/* Building the other variants' databases (egdb/vegdb.h): retrograde analysis over the
 * variant's own move generator, level by level, then a pass that checks every value
 * against its moves' values; the first pass and the check shared among threads. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/pool.h"
#include "egdb/egdb.h"
#include "egdb/vegdb_int.h"
#include "pdn/zio.h"
#include "rules/pos.h"
#include "rules/vbits.h"

/* ---- building --------------------------------------------------------------------- */

typedef struct {
	uint32_t *a;
	size_t n, cap;
} ilist;

static int push(ilist *l, uint32_t x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		uint32_t *a = realloc(l->a, cap * sizeof *a);
		if (!a)
			return -1;
		l->a = a;
		l->cap = cap;
	}
	l->a[l->n++] = x;
	return 0;
}

typedef struct {
	pk_vegdb *db;
	int c;
	uint8_t *cnt, *ext;
	ilist level[MAX_LEVEL + 2];
	pk_vmovelist ml;
	/* With the variant's bitboards (rules/vbits.h): captures found and plain moves
	 * counted in a few word operations instead of the generator's walk. */
	bool bits;
	uint64_t near[2];                           /* squares (bit s - 1) where a man of that
						     * side crowns with a plain move */
	bool step[2][VAR_MAX_SQ + 1][VAR_MAX_SQ + 1];  /* a man of that side moves plainly
							 * from the first square to the second */
	uint8_t nb[VAR_MAX_SQ + 1][4];              /* the diagonal neighbours (0: none) */
} builder;

/* The bitboards of a position placed as *pl. */
static void place_bits(const pk_vegdb *db, const vplace *pl, pk_vbits *b)
{
	static const int side[4] = { PK_WHITE, PK_WHITE, PK_BLACK, PK_BLACK };
	b->men[0] = b->men[1] = b->kings[0] = b->kings[1] = 0;
	for (int g = 0; g < 4; g++)
		for (int i = 0; i < pl->n[g]; i++) {
			uint64_t x = 1ull << vbits_bit(db->v, pl->sq[g][i]);
			if (g % 2 == 0)
				b->men[side[g]] |= x;
			else
				b->kings[side[g]] |= x;
		}
}

/* vdb_decode_place of idx in a pass that walks the indexes in order: the two sides to
 * move of one placement are neighbours, so the second reuses the first's decoding. */
typedef struct {
	uint64_t last;              /* idx / 2 of the placement in p and pl (UINT64_MAX: none) */
	bool ok;
	pk_vpos p;
	vplace pl;
} walker;

static bool walk_decode(const pk_vegdb *db, const vclass *k, uint64_t idx, walker *w)
{
	if (w->last != idx >> 1) {
		w->last = idx >> 1;
		w->ok = vdb_decode_place(db, k, idx, &w->p, &w->pl);
	} else
		w->p.stm = idx & 1 ? PK_BLACK : PK_WHITE;
	return w->ok;
}

/* The legal moves of p (placed as *pl) into ml, as vgen gives them; with bitboards the
 * captures are looked for from the pieces that have one only, and a position without
 * any lists its plain moves without looking. */
static int gen_moves(const builder *b, const pk_vpos *p, const pk_vbits *bb, pk_vmovelist *ml)
{
	if (!b->bits)
		return vgen(p, ml);
	if (vbits_has_capture(p->v, bb, p->stm))
		return vgen_from(p, vbits_capturers(p->v, bb, p->stm), ml);
	return vgen_quiet(p, ml);
}

/* What the bitboard path needs of the variant: where men crown with a plain move and
 * where they move plainly, from the generator's own moves of a lone man. */
static void builder_tables(builder *b)
{
	const pk_vegdb *db = b->db;
	b->bits = vbits_supported(db->v) && db->nsq <= 64;
	if (!b->bits)
		return;
	for (int sq = 1; sq <= db->nsq; sq++) {
		int r, c;
		variant_square_rc(db->v, sq, &r, &c);
		for (int d = 0; d < 4; d++)
			b->nb[sq][d] = (uint8_t)variant_rc_square(db->v, r + (d < 2 ? -1 : 1), c + (d % 2 ? 1 : -1));
	}
	for (int x = 0; x < 2; x++)
		for (int o = 1; o <= db->nsq; o++) {
			if (db->crown[x][o])
				continue;
			pk_vpos e;
			vpos_clear(db->v, &e, x);
			e.sq[o] = x == PK_WHITE ? VP_WMAN : VP_BMAN;
			int n = vgen_quiet(&e, &b->ml);
			for (int i = 0; i < n; i++) {
				int t = b->ml.m[i].to;
				b->step[x][o][t] = true;
				if (db->crown[x][t])
					b->near[x] |= 1ull << (o - 1);
			}
		}
}

/* The byte a position's children give it: a win in 1 + the shortest loss among them,
 * else a loss in 1 + the longest win when all are wins, else a draw. -1 for a child not
 * held. */
static int forward_value(const builder *bd, const pk_vpos *p, const vplace *pl, pk_vmovelist *ml)
{
	const pk_vegdb *db = bd->db;
	pk_vbits bb;
	if (bd->bits)
		place_bits(db, pl, &bb);
	int n = gen_moves(bd, p, &bb, ml);
	if (n == 0)
		return 1;
	int minloss = MAX_LEVEL, maxwin = -1;
	bool draw = false;
	for (int i = 0; i < n; i++) {
		pk_vpos q;
		vmake(p, &ml->m[i], &q);
		int c, b = vdb_child_byte(db, pl, p, &ml->m[i], &q, &c);
		if (b < 0 || b == T_NONE)
			return -1;
		if (b == 0)
			draw = true;
		else if ((b - 1) % 2 == 0)
			minloss = b - 1 < minloss ? b - 1 : minloss;
		else
			maxwin = b - 1 > maxwin ? b - 1 : maxwin;
	}
	if (minloss < MAX_LEVEL)
		return minloss + 2;
	if (draw)
		return 0;
	return maxwin + 2;
}

/* Whether q (side to move X) may play the quiet move o -> s: no capture for X there, and
 * the move among its piece's quiet moves. */
static bool quiet_move_legal(builder *b, const pk_vpos *q, int o, int s)
{
	if (vhas_capture(q))
		return false;
	int n = vgen_quiet_from(q, b->db->nsq <= 64 ? 1ull << (o - 1) : ~0ull, &b->ml);
	for (int i = 0; i < n; i++)
		if (b->ml.m[i].from == o && b->ml.m[i].to == s)
			return true;
	return false;
}

/* each_predecessor with bitboards, from p's placement: no position built, the index
 * from the placement changed by the move taken back. */
static int each_predecessor_bits(builder *b, const pk_vpos *p, const vplace *pl, const pk_vbits *pb,
				 int (*fn)(builder *b, uint32_t qi, void *ctx), void *ctx)
{
	const pk_vegdb *db = b->db;
	const pk_variant *v = db->v;
	int x = !p->stm;
	for (int g = x == PK_WHITE ? 0 : 2, ge = g + 2; g < ge; g++) {
		bool king = g % 2 == 1;
		for (int j = 0; j < pl->n[g]; j++) {
			int s = pl->sq[g][j];
			int orig[VAR_MAX_MOVES], no = 0;
			for (int d = 0; d < 4; d++)
				for (int o = b->nb[s][d]; o && !p->sq[o]; o = b->nb[o][d]) {
					if (king ? true : b->step[x][o][s] && !db->crown[x][o])
						orig[no++] = o;
					if (!king || !v->flying)
						break;
				}
			uint64_t from = 1ull << vbits_bit(v, s);
			for (int i = 0; i < no; i++) {
				int o = orig[i];
				pk_vbits qb = *pb;
				uint64_t to = 1ull << vbits_bit(v, o);
				if (king)
					qb.kings[x] = (qb.kings[x] & ~from) | to;
				else
					qb.men[x] = (qb.men[x] & ~from) | to;
				if (vbits_has_capture(v, &qb, x))
					continue;
				vplace ql = *pl;
				vdb_place_move(&ql, g, s, o);
				int c;
				int64_t qi = vdb_place_index(db, &ql, x, &c);
				if (qi < 0 || c != b->c)
					continue;
				int rc = fn(b, (uint32_t)qi, ctx);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

/* Calls fn for every position q of the class from which a quiet move of the side that
 * just moved leads to p (its predecessors): a piece of that side taken back from its
 * square s to an empty square o. */
static int each_predecessor(builder *b, const pk_vpos *p, int (*fn)(builder *b, uint32_t qi, void *ctx), void *ctx)
{
	const pk_vegdb *db = b->db;
	const pk_variant *v = db->v;
	int x = !p->stm;
	for (int s = 1; s <= db->nsq; s++) {
		int piece = p->sq[s];
		if (!piece || (piece == VP_WMAN || piece == VP_WKING) != (x == PK_WHITE))
			continue;
		bool king = piece == VP_WKING || piece == VP_BKING;
		int orig[VAR_MAX_MOVES], no = 0;
		if (king) {
			/* a king's quiet moves are symmetric: where it can go from s is where it can
			 * have come from */
			pk_vpos k = *p;
			k.stm = x;
			pk_vmovelist *ml = &b->ml;
			int n = vgen_quiet_from(&k, db->nsq <= 64 ? 1ull << (s - 1) : ~0ull, ml);
			for (int i = 0; i < n; i++)
				if (ml->m[i].from == s)
					orig[no++] = ml->m[i].to;
		} else {
			int r, c;
			variant_square_rc(v, s, &r, &c);
			for (int dr = -1; dr <= 1; dr++)
				for (int dc = -1; dc <= 1; dc++) {
					int o = (dr || dc) ? variant_rc_square(v, r + dr, c + dc) : 0;
					if (o && !p->sq[o])
						orig[no++] = o;
				}
		}
		for (int i = 0; i < no; i++) {
			int o = orig[i];
			pk_vpos q = *p;
			q.sq[o] = q.sq[s];
			q.sq[s] = VP_EMPTY;
			q.stm = x;
			if (!king && db->crown[x][o])
				continue;
			if (!quiet_move_legal(b, &q, o, s))
				continue;
			int c;
			int64_t qi = vdb_index_of(db, &q, &c);
			if (qi < 0 || c != b->c)
				continue;
			int rc = fn(b, (uint32_t)qi, ctx);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int on_predecessor(builder *b, uint32_t qi, void *ctx)
{
	int k = *(int *)ctx;
	uint8_t *t = b->db->cls[b->c].t;
	if (t[qi])
		return 0;
	if (k % 2 == 0)
		return push(&b->level[k + 1], qi);           /* a move to a loss: a win */
	if (b->cnt[qi] == 255 || --b->cnt[qi] > 0)
		return 0;
	int at = b->ext[qi] > k + 1 ? b->ext[qi] : k + 1;  /* every move to a win: a loss */
	return push(&b->level[at], qi);
}

/* A pass over a class's positions, split among threads: each takes a range of indexes
 * and, in the first pass, lists its positions by the level where they are decided (its
 * own lists, merged after). */
typedef struct {
	builder *b;
	vclass *k;
	int c, nt;
	ilist *lists[VEGDB_MAX_THREADS];
	pthread_mutex_t lock;
	int failed;                 /* (read by the threads through __atomic_load_n) */
	char err[600];
	/* the check of `egdb verify`: wrong values counted (the first kept in err), every
	 * step-th position from a random first one (step 1: all) */
	bool verify;
	uint64_t step, seed, checked, wrong;
} pass_ctx;

static bool pass_failed(pass_ctx *pc) { return __atomic_load_n(&pc->failed, __ATOMIC_RELAXED) != 0; }

static void pass_fail(pass_ctx *pc, const char *msg)
{
	pthread_mutex_lock(&pc->lock);
	if (!pc->failed)
		snprintf(pc->err, sizeof pc->err, "%s", msg);
	__atomic_store_n(&pc->failed, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pc->lock);
}

static void init_range(int t, void *ctx)
{
	pass_ctx *pc = ctx;
	builder *b = pc->b;
	const pk_vegdb *db = b->db;
	vclass *k = pc->k;
	ilist *level = pc->lists[t] = calloc(MAX_LEVEL + 2, sizeof *level);
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!level || !ml) {
		free(ml);
		pass_fail(pc, "out of memory");
		return;
	}
	uint64_t lo = k->size * (uint64_t)t / (uint64_t)pc->nt, hi = k->size * (uint64_t)(t + 1) / (uint64_t)pc->nt;
	walker w = { .last = UINT64_MAX };
	for (uint64_t i = lo; i < hi && !pass_failed(pc); i++) {
		if (!walk_decode(db, k, i, &w)) {
			k->t[i] = T_NONE;
			continue;
		}
		const pk_vpos p = w.p;
		const vplace pl = w.pl;
		pk_vbits bb;
		int n;
		if (b->bits) {
			place_bits(db, &pl, &bb);
			if (!vbits_has_capture(db->v, &bb, p.stm)) {
				/* plain moves only: they stay in the class unless a man crowns */
				uint64_t men = 0;
				for (int j = 0; j < pl.n[p.stm == PK_WHITE ? 0 : 2]; j++)
					men |= 1ull << (pl.sq[p.stm == PK_WHITE ? 0 : 2][j] - 1);
				if (!(men & b->near[p.stm])) {
					n = vbits_quiet_count(db->v, &bb, p.stm);
					b->cnt[i] = (uint8_t)(n > 254 ? 254 : n);
					b->ext[i] = 0;
					if (n == 0 && push(&level[0], (uint32_t)i)) {
						pass_fail(pc, "out of memory");
						break;
					}
					continue;
				}
			}
		}
		n = gen_moves(b, &p, &bb, ml);
		int same = 0, minloss = MAX_LEVEL, maxwin = -1;
		bool never_loss = false;
		for (int m = 0; m < n; m++) {
			/* a plain move that crowns nothing stays in the class: counted, not looked up */
			const pk_vmove *mv = &ml->m[m];
			int piece = p.sq[mv->from];
			if (mv->ncap == 0 && !((piece == VP_WMAN || piece == VP_BMAN) && db->crown[p.stm][mv->to])) {
				same++;
				continue;
			}
			pk_vpos q;
			vmake(&p, mv, &q);
			int qc, v = vdb_child_byte(db, &pl, &p, mv, &q, &qc);
			if (qc == pc->c) {
				same++;
				continue;
			}
			if (v < 0 || v == T_NONE) {
				char msg[100];
				snprintf(msg, sizeof msg, "class %s: a move leads to a class not built", k->name);
				pass_fail(pc, msg);
				break;
			}
			if (v == 0)
				never_loss = true;
			else if ((v - 1) % 2 == 0) {
				never_loss = true;
				minloss = v - 1 < minloss ? v - 1 : minloss;
			} else
				maxwin = v - 1 > maxwin ? v - 1 : maxwin;
		}
		b->cnt[i] = never_loss ? 255 : (uint8_t)(same > 254 ? 254 : same);
		b->ext[i] = (uint8_t)(maxwin + 1);
		if ((n == 0 && push(&level[0], (uint32_t)i)) ||
		    (minloss < MAX_LEVEL && push(&level[minloss + 1], (uint32_t)i)) ||
		    (n > 0 && !never_loss && same == 0 && push(&level[maxwin + 1], (uint32_t)i))) {
			pass_fail(pc, "out of memory");
			break;
		}
	}
	free(ml);
}

/* The threads' lists into one a level; -1 on a failure of the pass or of memory. */
static int pass_merge(pass_ctx *pc, ilist *into)
{
	int rc = pc->failed ? -1 : 0;
	for (int t = 0; t < pc->nt; t++) {
		ilist *l = pc->lists[t];
		for (int lv = 0; l && lv <= MAX_LEVEL + 1; lv++) {
			for (size_t j = 0; j < l[lv].n && rc == 0; j++)
				rc = push(&into[lv], l[lv].a[j]);
			free(l[lv].a);
		}
		free(l);
		pc->lists[t] = NULL;
	}
	return rc;
}

static void check_range(int t, void *ctx)
{
	pass_ctx *pc = ctx;
	const pk_vegdb *db = pc->b->db;
	vclass *k = pc->k;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml) {
		pass_fail(pc, "out of memory");
		return;
	}
	uint64_t lo = k->size * (uint64_t)t / (uint64_t)pc->nt, hi = k->size * (uint64_t)(t + 1) / (uint64_t)pc->nt;
	uint64_t step = pc->step > 1 ? pc->step : 1, first = step > 1 ? (pc->seed * 0x9E3779B97F4A7C15ull >> 11) % step : 0;
	uint64_t checked = 0, wrong = 0;
	walker w = { .last = UINT64_MAX };
	for (uint64_t i = lo + first; i < hi && !pass_failed(pc); i += step) {
		if (k->t[i] == T_NONE)
			continue;
		walk_decode(db, k, i, &w);
		int want = forward_value(pc->b, &w.p, &w.pl, ml);
		checked++;
		if (want != k->t[i]) {
			char fen[256] = "", msg[500];
			vfen_format(&w.p, fen, sizeof fen);
			snprintf(msg, sizeof msg, "class %s: %s is stored %d but its moves give %d%s", k->name, fen, k->t[i], want,
				 pc->verify ? "" : " (a fault of the builder)");
			if (!pc->verify) {
				pass_fail(pc, msg);
				continue;
			}
			pthread_mutex_lock(&pc->lock);
			if (!pc->err[0])
				snprintf(pc->err, sizeof pc->err, "%s", msg);
			pthread_mutex_unlock(&pc->lock);
			wrong++;
		}
	}
	__atomic_add_fetch(&pc->checked, checked, __ATOMIC_RELAXED);
	__atomic_add_fetch(&pc->wrong, wrong, __ATOMIC_RELAXED);
	free(ml);
}

static int build_class(pk_vegdb *db, int c, volatile sig_atomic_t *stop, char *err, size_t errsize)
{
	vclass *k = &db->cls[c];
	if (k->size > UINT32_MAX) {
		snprintf(err, errsize, "class %s: %llu positions, more than this format indexes", k->name,
			 (unsigned long long)k->size);
		return -1;
	}
	builder *b = calloc(1, sizeof *b);
	k->t = calloc(k->size, 1);
	if (b) {
		b->cnt = malloc(k->size);
		b->ext = malloc(k->size);
	}
	int rc = -1;
	if (!b || !k->t || !b->cnt || !b->ext) {
		snprintf(err, errsize, "class %s: out of memory (%llu positions)", k->name, (unsigned long long)k->size);
		goto out;
	}
	b->db = db;
	b->c = c;
	builder_tables(b);
	/* every position's moves (those into other classes are final already), the range
	 * shared among the threads */
	pass_ctx pc = { .b = b, .k = k, .c = c, .nt = db->threads };
	pthread_mutex_init(&pc.lock, NULL);
	pool_run(pc.nt, init_range, &pc);
	if (pass_merge(&pc, b->level) < 0) {
		snprintf(err, errsize, "%s", pc.err[0] ? pc.err : "out of memory");
		pthread_mutex_destroy(&pc.lock);
		goto out;
	}
	/* level by level: set the positions of that distance, then their predecessors */
	for (int lv = 0; lv <= MAX_LEVEL; lv++) {
		if (stop && *stop) {
			snprintf(err, errsize, "interrupted");
			goto out;
		}
		ilist *l = &b->level[lv];
		for (size_t j = 0; j < l->n; j++) {
			uint32_t i = l->a[j];
			if (k->t[i])
				continue;
			if (lv == MAX_LEVEL) {
				snprintf(err, errsize, "class %s: a distance of more than %d plies", k->name, MAX_LEVEL - 1);
				goto out;
			}
			k->t[i] = (uint8_t)(lv + 1);
			pk_vpos p;
			vplace pl;
			pk_vbits pb;
			vdb_decode_place(db, k, i, &p, &pl);
			int r;
			if (b->bits) {
				place_bits(db, &pl, &pb);
				r = each_predecessor_bits(b, &p, &pl, &pb, on_predecessor, &lv);
			} else
				r = each_predecessor(b, &p, on_predecessor, &lv);
			if (r)
				goto nomem;
		}
		free(l->a);
		l->a = NULL;
		l->n = l->cap = 0;
	}
	for (size_t j = 0; j < b->level[MAX_LEVEL + 1].n; j++)
		if (!k->t[b->level[MAX_LEVEL + 1].a[j]]) {
			snprintf(err, errsize, "class %s: a distance of more than %d plies", k->name, MAX_LEVEL - 1);
			goto out;
		}
	/* the check: every value is the best of its moves' values */
	pool_run(pc.nt, check_range, &pc);
	pthread_mutex_destroy(&pc.lock);
	if (pc.failed) {
		snprintf(err, errsize, "%s", pc.err);
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errsize, "class %s: out of memory", k->name);
out:
	if (b) {
		for (int lv = 0; lv <= MAX_LEVEL + 1; lv++)
			free(b->level[lv].a);
		free(b->cnt);
		free(b->ext);
		free(b);
	}
	if (rc) {
		free(k->t);
		k->t = NULL;
	}
	return rc;
}

static int write_class(const pk_vegdb *db, const vclass *k, const char *dir, char *err, size_t errsize)
{
	char path[4096], tmp[4200];
	vdb_class_path(db, k, dir, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	size_t bound = zio_block_bound(k->size);
	uint8_t *z = malloc(bound);
	if (!z) {
		snprintf(err, errsize, "%s: out of memory", path);
		return -1;
	}
	size_t zn = zio_block_compress(z, bound, k->t, k->size, 9);
	if (zn == 0) {
		free(z);
		snprintf(err, errsize, "%s: compression failed", path);
		return -1;
	}
	vheader h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, MAGIC, 8);
	h.gametype = (uint32_t)db->v->gametype;
	for (int g = 0; g < 4; g++)
		h.n[g] = (uint8_t)k->n[g];
	h.size = k->size;
	h.check = vdb_fnv(k->t, k->size);
	h.packed = zn;
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(&h, sizeof h, 1, f) == 1 && fwrite(z, 1, zn, f) == zn;
	if (f && fclose(f))
		ok = false;
	free(z);
	if (!ok || rename(tmp, path)) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int make_dir(const char *path)
{
	return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int vegdb_build(const pk_variant *v, int pieces, int threads, const char *dir, volatile sig_atomic_t *stop,
		void (*progress)(void *ctx, const pk_vegdb_progress *p), void *ctx, char *err, size_t errsize)
{
	if (!vegdb_supported(v)) {
		snprintf(err, errsize, "%s: no databases for this variant (%s)", v ? v->name : "?",
			 v && v->king_moves ? "its king-move counts are part of a position" : "its rules are not implemented");
		return -1;
	}
	if (pieces < 2 || pieces > VEGDB_MAX_PIECES) {
		snprintf(err, errsize, "pieces: from 2 to %d", VEGDB_MAX_PIECES);
		return -1;
	}
	char sub[4096];
	snprintf(sub, sizeof sub, "%s/%s", dir, v->key);
	if (make_dir(dir) || make_dir(sub)) {
		snprintf(err, errsize, "%s: %s", sub, strerror(errno));
		return -1;
	}
	pk_vegdb *db = vdb_new(v, pieces);
	if (!db) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	db->pieces = pieces;
	db->threads = threads < 1 ? 1 : threads > VEGDB_MAX_THREADS ? VEGDB_MAX_THREADS : threads;
	int rc = 0;
	for (int c = 0; c < db->nclass && rc == 0; c++) {
		vclass *k = &db->cls[c];
		pk_vegdb_progress pr = { .name = k->name, .done = c, .total = db->nclass, .positions = k->size };
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		int got = vdb_read_class(db, k, dir, false, err, errsize);
		if (got < 0)
			rc = -1;
		else if (got == 0) {
			if (progress)
				progress(ctx, &pr);
			rc = build_class(db, c, stop, err, errsize);
			if (rc == 0)
				rc = write_class(db, k, dir, err, errsize);
		} else
			pr.skipped = true;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		pr.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		pr.done = c + 1;
		if (rc == 0 && progress)
			progress(ctx, &pr);
	}
	vegdb_free(db);
	return rc;
}

int vegdb_verify(const pk_variant *v, const char *dir, uint64_t sample, int threads, volatile sig_atomic_t *stop,
		 int (*fn)(void *ctx, const pk_vegdb_verified *r), void *ctx, char *err, size_t errsize)
{
	pk_vegdb *open = vegdb_open(v, dir, err, errsize);
	if (!open)
		return -1;
	int pieces = vegdb_pieces(open);
	vegdb_free(open);
	if (pieces < 2) {
		snprintf(err, errsize, "%s/%s: no complete level of databases to verify", dir, v->key);
		return -1;
	}
	pk_vegdb *db = vdb_new(v, pieces);
	builder *b = db ? calloc(1, sizeof *b) : NULL;
	if (!b) {
		vegdb_free(db);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	db->pieces = pieces;
	/* every class in memory: a position's moves lead into any class of as many pieces
	 * or fewer */
	int rc = 0;
	for (int c = 0; c < db->nclass && rc == 0; c++) {
		int got = vdb_read_class(db, &db->cls[c], dir, false, err, errsize);
		if (got <= 0) {
			if (got == 0)
				snprintf(err, errsize, "%s/%s: class %s missing", dir, v->key, db->cls[c].name);
			rc = -1;
		}
	}
	b->db = db;
	for (int c = 0; c < db->nclass && rc == 0 && !(stop && *stop); c++) {
		vclass *k = &db->cls[c];
		b->c = c;
		builder_tables(b);
		pass_ctx pc = { .b = b, .k = k, .c = c, .verify = true, .seed = (uint64_t)c + 1 };
		pc.nt = threads < 1 ? 1 : threads > VEGDB_MAX_THREADS ? VEGDB_MAX_THREADS : threads;
		pc.step = sample && k->size > sample ? k->size / sample : 1;
		pthread_mutex_init(&pc.lock, NULL);
		pool_run(pc.nt, check_range, &pc);
		pthread_mutex_destroy(&pc.lock);
		pk_vegdb_verified r;
		memset(&r, 0, sizeof r);
		snprintf(r.name, sizeof r.name, "%s", k->name);
		r.checked = pc.checked;
		r.wrong = pc.wrong;
		snprintf(r.first, sizeof r.first, "%s", pc.err);
		if (pc.failed) {
			snprintf(err, errsize, "%s", pc.err);
			rc = -1;
		} else if (fn && fn(ctx, &r))
			break;
	}
	free(b);
	vegdb_free(db);
	return rc;
}
