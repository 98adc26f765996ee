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

static void move_tokens(dumper *d, const pk_pos *before, const pk_book_move *m, int ply, bool number, bool transposes)
{
	char buf[PK_MOVE_STRLEN + 48];
	if (movenum_token(movenum_at(1, before->stm ^ (ply & 1), ply), before->stm, number, buf, sizeof buf))
		token(d, buf);
	pdn_move_string(before, &m->move, false, buf);
	token(d, buf);
	snprintf(buf, sizeof buf, "{%u games, %u-%u-%u%s}", m->games, m->black_wins, m->draws, m->white_wins,
		 transposes ? ", transposes" : "");
	token(d, buf);
}

static void line(dumper *d, const pk_pos *p, int ply, bool number)
{
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(d->bk, p, mv, PK_MAX_MOVES);
	if (n == 0 || ply >= MAX_DEPTH || d->failed)
		return;
	pk_pos child[PK_MAX_MOVES];
	bool fresh[PK_MAX_MOVES];
	for (int i = 0; i < n; i++) {
		pos_make(p, &mv[i].move, &child[i]);
		fresh[i] = seen_add(d, child[i].key);
	}
	move_tokens(d, p, &mv[0], ply, number, !fresh[0]);
	for (int i = 1; i < n; i++) {
		token(d, "(");
		d->need_space = false;
		move_tokens(d, p, &mv[i], ply, true, !fresh[i]);
		if (fresh[i])
			line(d, &child[i], ply + 1, false);
		d->need_space = false;
		token(d, ")");
	}
	if (fresh[0])
		line(d, &child[0], ply + 1, n > 1);
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
	seen_add(&d, book_root(bk)->key);
	char head[1024];
	int n = snprintf(head, sizeof head, "[Event \"");
	put(&d, head, (size_t)n);
	for (const char *p = event; *p; p++) {   /* a tag value escapes quotes and backslashes */
		if (*p == '"' || *p == '\\')
			put(&d, "\\", 1);
		put(&d, p, 1);
	}
	n = snprintf(head, sizeof head, "\"]\n[Result \"*\"]\n");
	put(&d, head, (size_t)n);
	if (strcmp(in.root_fen, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12") != 0) {
		n = snprintf(head, sizeof head, "[SetUp \"1\"]\n[FEN \"%s\"]\n", in.root_fen);
		put(&d, head, (size_t)n);
	}
	put(&d, "\n", 1);
	line(&d, book_root(bk), 0, true);
	token(&d, "*");
	put(&d, "\n\n", 2);
	free(d.seen);
	return d.failed ? -1 : 0;
}
