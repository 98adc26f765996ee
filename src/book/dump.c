/* A book written as one PDN game: at each position the most played move continues the
 * line and the others are variations, written right after it as PDN expects. A position
 * met again (a transposition) is not expanded twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book/book_int.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"

typedef struct {
	const pk_book *bk;
	int (*sink)(void *ctx, const char *buf, size_t len);
	void *ctx;
	int col;
	bool need_space, failed;
	uint64_t *seen;
	size_t mask;
	bm_pool pool;
} dumper;

static void put(dumper *d, const char *t, size_t n)
{
	if (!d->failed && d->sink(d->ctx, t, n) < 0)
		d->failed = true;
}

/* A token, wrapped at 80 columns. */
static void token(dumper *d, const char *t)
{
	size_t n = strlen(t);
	if (d->need_space) {
		if (d->col + 1 + (int)n > 80) {
			put(d, "\n", 1);
			d->col = 0;
		} else {
			put(d, " ", 1);
			d->col++;
		}
	}
	put(d, t, n);
	d->col += (int)n;
	d->need_space = true;
}

static bool seen_add(dumper *d, uint64_t key)
{
	uint64_t k = key ? key : 1;
	for (size_t i = (size_t)(k >> 17) & d->mask;; i = (i + 1) & d->mask) {
		if (d->seen[i] == k)
			return false;
		if (d->seen[i] == 0) {
			d->seen[i] = k;
			return true;
		}
	}
}

static void move_tokens(dumper *d, const bpos *before, const bmoves *ml, const bmv *m, int ply, bool number,
			bool transposes)
{
	char buf[VAR_FEN_STRLEN];
	if (bp_movenum(before, ply, number, buf, sizeof buf))
		token(d, buf);
	bp_move_text(before, ml, m->ordinal, buf, sizeof buf);
	token(d, buf);
	snprintf(buf, sizeof buf, "{%u games, %u-%u-%u%s}", m->games, m->bw, m->dr, m->ww,
		 transposes ? ", transposes" : "");
	token(d, buf);
}

static void line(dumper *d, const bpos *p, int ply, bool number)
{
	bmv mv[BOOK_MAX_KEPT];
	bmoves *ml = bm_at(&d->pool, ply);
	if (!ml || bp_gen(p, ml) < 0) {
		d->failed = true;
		return;
	}
	int n = bk_probe(d->bk, p->v, p->key, ml->n, mv);
	if (n == 0 || ply >= MAX_DEPTH || d->failed)
		return;
	bpos *child = malloc(sizeof *child * (size_t)n);
	bool *fresh = malloc(sizeof *fresh * (size_t)n);
	if (!child || !fresh) {
		d->failed = true;
		free(child);
		free(fresh);
		return;
	}
	for (int i = 0; i < n; i++) {
		bp_make(p, ml, mv[i].ordinal, &child[i]);
		fresh[i] = seen_add(d, child[i].key);
	}
	move_tokens(d, p, ml, &mv[0], ply, number, !fresh[0]);
	for (int i = 1; i < n; i++) {
		token(d, "(");
		d->need_space = false;
		move_tokens(d, p, ml, &mv[i], ply, true, !fresh[i]);
		if (fresh[i])
			line(d, &child[i], ply + 1, false);
		d->need_space = false;
		token(d, ")");
	}
	if (fresh[0])
		line(d, &child[0], ply + 1, n > 1);
	free(child);
	free(fresh);
}

int book_write_pdn(const pk_book *bk, const char *event, int (*sink)(void *ctx, const char *buf, size_t len), void *ctx)
{
	pk_book_info in;
	book_info(bk, &in);
	dumper d = { .bk = bk, .sink = sink, .ctx = ctx };
	size_t cap = 1024;
	while (cap < (size_t)in.positions * 2 + 2)
		cap *= 2;
	if (!(d.seen = calloc(cap, sizeof *d.seen)))
		return -1;
	d.mask = cap - 1;
	const bpos *root = bk_root(bk);
	seen_add(&d, root->key);
	char head[VAR_FEN_STRLEN + 64];
	int n = snprintf(head, sizeof head, "[Event \"");
	put(&d, head, (size_t)n);
	for (const char *p = event; *p; p++) {   /* a tag value escapes quotes and backslashes */
		if (*p == '"' || *p == '\\')
			put(&d, "\\", 1);
		put(&d, p, 1);
	}
	n = snprintf(head, sizeof head, "\"]\n[Result \"*\"]\n");
	put(&d, head, (size_t)n);
	char start[VAR_FEN_STRLEN];
	if (root->v) {
		n = snprintf(head, sizeof head, "[GameType \"%d\"]\n", root->v->gametype);
		put(&d, head, (size_t)n);
		pk_vpos sp;
		vpos_start(root->v, &sp);
		vfen_format(&sp, start, sizeof start);
	} else {
		snprintf(start, sizeof start, "%s", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
	}
	if (strcmp(in.root_fen, start) != 0) {
		n = snprintf(head, sizeof head, "[SetUp \"1\"]\n[FEN \"%s\"]\n", in.root_fen);
		put(&d, head, (size_t)n);
	}
	put(&d, "\n", 1);
	line(&d, root, 0, true);
	token(&d, "*");
	put(&d, "\n\n", 2);
	free(d.seen);
	bm_pool_free(&d.pool);
	return d.failed ? -1 : 0;
}
