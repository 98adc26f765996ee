/* Opening books: decoding and probing. The format is pdnkit-book(5). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/port.h"
#include "book/book_int.h"
#include "rules/fen.h"

/* ---- decoding --------------------------------------------------------------------- */

typedef struct {
	uint8_t ordinal;
	int16_t score;
	uint32_t games, bw, dr, ww;
} smove;

struct pk_book {
	bpos root;
	uint32_t id;
	table t;                 /* first: index into m */
	smove *m;
	size_t nm, mcap;
	pk_book_info info;
};

typedef struct {
	pk_book *bk;
	rc_dec tree, stats;
	model m;
	int plies;
	bool scores;
	long max_positions, max_moves;
	const char *err;
	bm_pool pool;
} decoder;

static int decode_node(decoder *d, const bpos *p, int ply, int parent_k, uint32_t parent_games)
{
	pk_book *bk = d->bk;
	if (ply > MAX_DEPTH) {
		d->err = "the tree is deeper than any book";
		return -1;
	}
	if (d->tree.overrun > 8 || d->stats.overrun > 8) {
		d->err = "truncated data";
		return -1;
	}
	bk->info.positions++;
	if (bk->info.positions > d->max_positions) {
		d->err = "more positions than the header says";
		return -1;
	}
	if (ply > bk->info.max_ply)
		bk->info.max_ply = ply;
	bmoves *ml = bm_at(&d->pool, ply);
	int n = ml ? bp_gen(p, ml) : -1;
	if (n < 0) {
		d->err = "out of memory";
		return -1;
	}
	node *nd = bk_table_find(&bk->t, p->key);   /* inserted by the caller */
	if (n == 0)
		return 0;
	int sc = shape_ctx(ply, d->plies, parent_k);
	int nk = 0;
	while (nk < n && rc_dec_bit(&d->tree, &d->m.shape[sc][nk < 7 ? nk : 7]))
		nk++;
	if (nk == 0)
		return 0;
	if (nk > BOOK_MAX_KEPT) {
		d->err = "more book moves in a position than a book holds";
		return -1;
	}
	if (bk->info.moves + nk > d->max_moves) {
		d->err = "more moves than the header says";
		return -1;
	}
	if (bk->nm + (size_t)nk > bk->mcap) {
		size_t cap = bk->mcap * 2 > bk->nm + (size_t)nk ? bk->mcap * 2 : bk->nm + (size_t)nk + 1024;
		smove *nm = realloc(bk->m, sizeof *nm * cap);
		if (!nm) {
			d->err = "out of memory";
			return -1;
		}
		bk->m = nm;
		bk->mcap = cap;
	}
	bp_rank(p, ml);
	size_t first = bk->nm;
	int prev = -1;
	for (int j = 0; j < nk; j++) {
		int range = n - prev - 1 - (nk - j - 1);
		int gap = 0;
		if (range > 1)
			gap = (int)rc_dec_tree(&d->tree, d->m.gap[range < 16 ? range : 16][j == 0], bits_for(range));
		if (gap >= range) {
			d->err = "a move outside the legal moves";
			return -1;
		}
		prev += gap + 1;
		int ord = ml->by_rank[prev];
		if (ord >= BOOK_MAX_KEPT) {
			d->err = "a book move beyond the 256th legal move";
			return -1;
		}
		bk->m[bk->nm++] = (smove){ .ordinal = (uint8_t)ord, .score = INT16_MIN };
	}
	bk->info.uniform_bits += log2_choose(n, nk);
	bk->info.ordinal_bits += nk * log2(n);
	bk->info.inner++;
	bk->info.moves += nk;
	if (n == 1)
		bk->info.forced += nk;
	/* statistics, in the same order */
	model *m = &d->m;
	for (int j = 0; j < nk; j++) {
		smove *x = &bk->m[first + (size_t)j];
		x->games = rc_dec_gamma(&d->stats, m->games[games_ctx(parent_games)]);
		uint32_t unknown = rc_dec_gamma(&d->stats, m->unknown);
		if (unknown > x->games) {
			d->err = "inconsistent statistics";
			return -1;
		}
		uint32_t known = x->games - unknown;
		if (known == 1) {
			uint32_t sym = rc_dec_tree(&d->stats, m->one[games_ctx(parent_games)], 2);
			x->bw = sym == 0;
			x->dr = sym == 1;
			x->ww = sym >= 2;
		} else if (known > 1) {
			x->bw = rc_dec_gamma(&d->stats, m->bw);
			x->dr = rc_dec_gamma(&d->stats, m->dr);
			if ((uint64_t)x->bw + x->dr > known) {
				d->err = "inconsistent statistics";
				return -1;
			}
			x->ww = known - x->bw - x->dr;
		}
		if (d->scores) {
			uint32_t s = rc_dec_gamma(&d->stats, m->score);
			x->score = s == 0 ? INT16_MIN : (int16_t)unzigzag(s - 1);
		}
	}
	nd->first = (int)first;
	nd->n = nk;
	for (int j = 0; j < nk; j++) {
		const smove *x = &bk->m[first + (size_t)j];
		bpos c;
		bp_make(p, ml, x->ordinal, &c);
		bool created;
		node *cn = bk_table_get(&bk->t, c.key, &created);
		if (!cn) {
			d->err = "out of memory";
			return -1;
		}
		if (!created) {
			bk->info.links++;
			continue;
		}
		if (decode_node(d, &c, ply + 1, nk, x->games) < 0)
			return -1;
	}
	return 0;
}

static pk_book *fail_load(pk_book *bk, char *err, size_t size, const char *fmt, const char *what)
{
	snprintf(err, size, fmt, what);
	book_free(bk);
	return NULL;
}

pk_book *book_load(const uint8_t *data, size_t len, char *err, size_t errsize)
{
	if (len < BOOK_HEADER_BYTES || memcmp(data, book_magic, 8) != 0)
		return fail_load(NULL, err, errsize, "%s", len < 8 ? "too short to be a book" : "not a pdnkit book (bad book_magic number)");
	if (get32(data + 56) != checksum(data, 56))
		return fail_load(NULL, err, errsize, "%s", "the header is damaged (header checksum mismatch)");
	unsigned version = get16(data + 8), order = get16(data + 10), rankv = get16(data + 12);
	if (version != BOOK_FORMAT_VERSION && version != BOOK_VFORMAT_VERSION) {
		char m[80];
		snprintf(m, sizeof m, "format version %u, this pdnkit reads versions %d and %d", version,
			 BOOK_FORMAT_VERSION, BOOK_VFORMAT_VERSION);
		return fail_load(NULL, err, errsize, "%s", m);
	}
	const pk_variant *v = NULL;
	if (version == BOOK_VFORMAT_VERSION) {
		unsigned gt = get16(data + 48);
		v = variant_by_gametype((int)gt);
		if (!v || !v->replayable || gt == 21) {
			char m[80];
			snprintf(m, sizeof m, "a book of GameType %u, which this pdnkit does not play", gt);
			return fail_load(NULL, err, errsize, "%s", m);
		}
	}
	if (v ? order != VGEN_ORDER_VERSION || rankv != BOOK_VRANK_VERSION || get32(data + 40) != book_vrank_check(v)
	      : order != GEN_ORDER_VERSION || rankv != BOOK_RANK_VERSION || get32(data + 40) != book_rank_check())
		return fail_load(NULL, err, errsize, "%s",
				 "made with another move order or ranking than this pdnkit's: rebuild it");
	unsigned flags = get16(data + 14), plies = get16(data + 16), flen = get16(data + 18);
	uint32_t positions = get32(data + 20), moves = get32(data + 24), links = get32(data + 28);
	uint32_t tree_len = get32(data + 32), stats_len = get32(data + 36);
	uint64_t want = (uint64_t)BOOK_HEADER_BYTES + flen + tree_len + stats_len;
	if (want > len) {
		char m[120];
		snprintf(m, sizeof m, "truncated: %zu bytes, the header announces %llu", len, (unsigned long long)want);
		return fail_load(NULL, err, errsize, "%s", m);
	}
	if (want < len)
		return fail_load(NULL, err, errsize, "%s", "trailing bytes after the book");
	if (get32(data + 60) != checksum(data + BOOK_HEADER_BYTES, len - BOOK_HEADER_BYTES))
		return fail_load(NULL, err, errsize, "%s", "the data is damaged (checksum mismatch)");
	/* Every move but a link adds a position; a move's statistics take some bits. The
	 * counts are checked again after decoding; here they bound the work and memory. */
	if (flags > 1 || flen >= (v ? VAR_FEN_STRLEN : PK_FEN_STRLEN) || links > moves || positions != moves - links + 1 ||
	    moves > 256 * ((uint64_t)stats_len + 64))
		return fail_load(NULL, err, errsize, "%s", "impossible header values");
	pk_book *bk = calloc(1, sizeof *bk);
	if (!bk)
		return fail_load(NULL, err, errsize, "%s", "out of memory");
	const char *fen = (const char *)data + BOOK_HEADER_BYTES;
	if (v) {
		char text[VAR_FEN_STRLEN], why[160];
		pk_vpos root;
		snprintf(text, sizeof text, "%.*s", (int)flen, fen);
		if (memchr(fen, 0, flen) || vfen_parse(v, text, &root, why, sizeof why) < 0)
			return fail_load(bk, err, errsize, "its root position does not read: %s", memchr(fen, 0, flen) ? "a NUL byte" : why);
		bp_from_vpos(&bk->root, &root);
	} else {
		pk_fen_error fe;
		pk_pos root;
		if (fen_parse(fen, flen, &root, &fe) < 0)
			return fail_load(bk, err, errsize, "its root position does not read: %s", fe.msg);
		bp_from_pos(&bk->root, &root);
	}
	if (bk_table_init(&bk->t, positions < (1u << 16) ? positions + 16 : 1u << 16) < 0)
		return fail_load(bk, err, errsize, "%s", "out of memory");
	decoder d;
	memset(&d, 0, sizeof d);
	d.bk = bk;
	d.plies = (int)plies;
	d.scores = flags & 1;
	d.max_positions = positions;
	d.max_moves = moves;
	bk_model_init(&d.m);
	const uint8_t *tree = data + BOOK_HEADER_BYTES + flen;
	rc_dec_init(&d.tree, tree, tree_len);
	rc_dec_init(&d.stats, tree + tree_len, stats_len);
	bk_table_get(&bk->t, bk->root.key, NULL);
	int drc = decode_node(&d, &bk->root, 0, 0, get32(data + 44));
	bm_pool_free(&d.pool);
	if (drc < 0)
		return fail_load(bk, err, errsize, "damaged: %s", d.err);
	if ((uint32_t)bk->info.positions != positions || (uint32_t)bk->info.moves != moves ||
	    (uint32_t)bk->info.links != links || d.tree.overrun > 4 || d.stats.overrun > 4)
		return fail_load(bk, err, errsize, "%s", "damaged: the tree does not match its counts");
	bk->id = get32(data + 60);
	bk->info.plies = (int)plies;
	bk->info.scores = d.scores;
	bk->info.bytes = len;
	bk->info.header_bytes = BOOK_HEADER_BYTES + flen;
	bk->info.tree_bytes = tree_len;
	bk->info.stats_bytes = stats_len;
	snprintf(bk->info.root_fen, sizeof bk->info.root_fen, "%.*s", (int)flen, fen);
	bk->info.gametype = v ? v->gametype : 21;
	return bk;
}

/* A book file: a regular file only (a device or a FIFO would be read without end), its
 * header read and checked first, then no more than the size it announces (one byte more
 * tells trailing bytes) and no more than the file holds. */
pk_book *book_open(const char *path, char *err, size_t errsize)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | PK_O_BINARY);
	if (fd < 0) {
		snprintf(err, errsize, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsize, "'%s' is not a regular file (a book is a file of pdnkit book build)", path);
		close(fd);
		return NULL;
	}
	uint8_t head[BOOK_HEADER_BYTES];
	ssize_t hn = read(fd, head, sizeof head);
	char why[200];
	if (hn < 0) {
		snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	uint64_t want = (uint64_t)st.st_size;
	if (hn == (ssize_t)sizeof head && !memcmp(head, book_magic, 8) && get32(head + 56) == checksum(head, 56)) {
		uint64_t announced = (uint64_t)BOOK_HEADER_BYTES + get16(head + 18) + get32(head + 32) + get32(head + 36);
		if (announced + 1 < want)
			want = announced + 1;
	} else {
		/* not a book: the header says why, without reading the rest */
		pk_book *bk = book_load(head, (size_t)hn, why, sizeof why);
		close(fd);
		if (!bk)
			snprintf(err, errsize, "%s: %s", path, why);
		return bk;
	}
	if (want > SIZE_MAX / 2) {
		snprintf(err, errsize, "%s: too large to be a book", path);
		close(fd);
		return NULL;
	}
	uint8_t *buf = malloc(want ? (size_t)want : 1);
	if (!buf) {
		close(fd);
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	memcpy(buf, head, sizeof head);
	size_t len = sizeof head;
	while (len < want) {
		ssize_t got = read(fd, buf + len, (size_t)want - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	pk_book *bk = book_load(buf, len, why, sizeof why);
	free(buf);
	if (!bk)
		snprintf(err, errsize, "%s: %s", path, why);
	return bk;
}

void book_free(pk_book *bk)
{
	if (!bk)
		return;
	bk_table_free(&bk->t);
	free(bk->m);
	free(bk);
}

void book_info(const pk_book *bk, pk_book_info *info) { *info = bk->info; }
const pk_pos *book_root(const pk_book *bk) { return &bk->root.e; }
const pk_vpos *book_vroot(const pk_book *bk) { return &bk->root.x; }
const pk_variant *book_variant(const pk_book *bk) { return bk->root.v; }

static int by_popularity(const void *a, const void *b)
{
	const bmv *x = a, *y = b;
	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->ordinal - y->ordinal;
}

/* The book moves of p, most played first; n its legal moves. */
const bpos *bk_root(const pk_book *bk) { return &bk->root; }

int bk_probe(const pk_book *bk, const pk_variant *v, uint64_t key, int n, bmv *out)
{
	const node *nd = bk->root.v == v ? bk_table_find(&bk->t, key) : NULL;
	if (!nd || nd->n <= 0)
		return 0;
	int k = 0;
	for (int j = 0; j < nd->n && k < BOOK_MAX_KEPT; j++) {
		const smove *x = &bk->m[(size_t)nd->first + (size_t)j];
		if (x->ordinal >= n)
			continue;    /* a key collision with another position */
		out[k++] = (bmv){ x->ordinal, x->games, x->bw, x->dr, x->ww, x->score == INT16_MIN ? BOOK_NO_SCORE : x->score };
	}
	qsort(out, (size_t)k, sizeof *out, by_popularity);
	return k;
}

int book_probe(const pk_book *bk, const pk_pos *p, pk_book_move *out, int cap)
{
	if (bk->root.v)
		return 0;
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	bmv all[BOOK_MAX_KEPT];
	int k = bk_probe(bk, NULL, p->key, n, all), kept = 0;
	for (int i = 0; i < k; i++) {
		/* a path move (no games, no score, not forced) leads to book positions but is
		 * not one to play: see book_expand's ballots */
		if (!all[i].games && all[i].score == BOOK_NO_SCORE && n > 1)
			continue;
		if (kept < cap)
			out[kept] = (pk_book_move){ ml.m[all[i].ordinal], all[i].ordinal, all[i].games, all[i].bw, all[i].dr,
						    all[i].ww, all[i].score };
		kept++;
	}
	return kept;
}

int book_vprobe(const pk_book *bk, const pk_vpos *p, pk_book_vmove *out, int cap)
{
	if (bk->root.v != p->v)
		return 0;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	int n = vgen(p, ml);
	bmv all[BOOK_MAX_KEPT];
	int k = bk_probe(bk, p->v, vpos_state_key(p), n, all), kept = 0;
	for (int i = 0; i < k; i++) {
		if (!all[i].games && all[i].score == BOOK_NO_SCORE && n > 1)
			continue;   /* a path move, as in book_probe */
		if (kept < cap)
			out[kept] = (pk_book_vmove){ ml->m[all[i].ordinal], all[i].ordinal, all[i].games, all[i].bw,
						     all[i].dr, all[i].ww, all[i].score };
		kept++;
	}
	free(ml);
	return kept;
}

/* Walking: for each book move, in order, the position before it and the move's
 * ordinal and statistics. */
typedef int (*walk_fn)(void *ctx, const bpos *before, const bmoves *ml, const bmv *m, int ply, bool transposes);

typedef struct {
	const pk_book *bk;
	table seen;
	walk_fn enter;
	void *ctx;
	int stop;
	bm_pool pool;
} walker;

static void walk(walker *w, const bpos *p, int ply)
{
	bmv mv[BOOK_MAX_KEPT];
	bmoves *ml = bm_at(&w->pool, ply);
	if (!ml || bp_gen(p, ml) < 0) {
		w->stop = -1;
		return;
	}
	int n = bk_probe(w->bk, p->v, p->key, ml->n, mv);
	for (int j = 0; j < n && !w->stop; j++) {
		bpos c;
		bp_make(p, ml, mv[j].ordinal, &c);
		bool created;
		if (!bk_table_get(&w->seen, c.key, &created)) {
			w->stop = -1;
			return;
		}
		if ((w->stop = w->enter(w->ctx, p, ml, &mv[j], ply, !created)) != 0)
			return;
		if (created && ply < MAX_DEPTH)
			walk(w, &c, ply + 1);
	}
}

static int walk_book(const pk_book *bk, walk_fn enter, void *ctx)
{
	walker w = { .bk = bk, .enter = enter, .ctx = ctx };
	if (bk_table_init(&w.seen, bk->t.count + 16) < 0)
		return -1;
	bk_table_get(&w.seen, bk->root.key, NULL);
	walk(&w, &bk->root, 0);
	bk_table_free(&w.seen);
	bm_pool_free(&w.pool);
	return w.stop < 0 ? -1 : 0;
}

typedef struct {
	book_walk_fn e;
	book_vwalk_fn x;
	void *ctx;
} walk_adapter;

static int enter_english(void *ctx, const bpos *before, const bmoves *ml, const bmv *m, int ply, bool transposes)
{
	const walk_adapter *a = ctx;
	pk_book_move bm = { ml->e.m[m->ordinal], m->ordinal, m->games, m->bw, m->dr, m->ww, m->score };
	return a->e(a->ctx, &before->e, &bm, ply, transposes);
}

static int enter_variant(void *ctx, const bpos *before, const bmoves *ml, const bmv *m, int ply, bool transposes)
{
	const walk_adapter *a = ctx;
	pk_book_vmove bm = { ml->x->m[m->ordinal], m->ordinal, m->games, m->bw, m->dr, m->ww, m->score };
	return a->x(a->ctx, &before->x, &bm, ply, transposes);
}

int book_walk(const pk_book *bk, book_walk_fn enter, void *ctx)
{
	walk_adapter a = { enter, NULL, ctx };
	return bk->root.v ? 0 : walk_book(bk, enter_english, &a);
}

int book_vwalk(const pk_book *bk, book_vwalk_fn enter, void *ctx)
{
	walk_adapter a = { NULL, enter, ctx };
	return bk->root.v ? walk_book(bk, enter_variant, &a) : 0;
}

bool book_has_move(const pk_book *bk, const pk_pos *p, const pk_move *m)
{
	pk_book_move mv[PK_MAX_MOVES];
	int n = book_probe(bk, p, mv, PK_MAX_MOVES);
	for (int i = 0; i < n; i++)
		if (move_same_effect(&mv[i].move, m))
			return true;
	return false;
}

bool book_has_vmove(const pk_book *bk, const pk_vpos *p, const pk_vmove *m)
{
	pk_book_vmove *mv = malloc(sizeof *mv * BOOK_MAX_KEPT);
	if (!mv)
		return false;
	int n = book_vprobe(bk, p, mv, BOOK_MAX_KEPT);
	bool found = false;
	for (int i = 0; i < n && !found; i++)
		found = vmove_same(&mv[i].move, m);
	free(mv);
	return found;
}

bool book_has_gmove(const pk_book *bk, const pk_gpos *p, const pk_gmove *m)
{
	if (book_variant(bk) != (p->v ? p->v : NULL))
		return false;
	return p->v ? book_has_vmove(bk, &p->x, &m->x) : book_has_move(bk, &p->e, &m->e);
}

uint32_t book_id(const pk_book *bk) { return bk->id; }

extern const unsigned char *const pk_vbooks_data[];
extern const size_t pk_vbooks_size[];

pk_book *book_default_for(const pk_variant *v, char *err, size_t errsize)
{
	if (!v || v->gametype == 21)
		return book_default(err, errsize);
	for (int i = 0; pk_vbooks_data[i]; i++) {
		char why[300];
		pk_book *bk = book_load(pk_vbooks_data[i], pk_vbooks_size[i], why, sizeof why);
		if (!bk) {
			snprintf(err, errsize, "a built-in book is refused: %s", why);
			return NULL;
		}
		if (book_variant(bk) == v)
			return bk;
		book_free(bk);
	}
	snprintf(err, errsize, "no book of %s is built in (pdnkit book expand --variant %s)", v->name, v->key);
	return NULL;
}

extern const unsigned char pk_book_default_data[];
extern const size_t pk_book_default_size;

pk_book *book_default(char *err, size_t errsize)
{
	if (pk_book_default_size == 0) {
		snprintf(err, errsize, "this pdnkit was built without a book (make book)");
		return NULL;
	}
	char why[300];
	pk_book *bk = book_load(pk_book_default_data, pk_book_default_size, why, sizeof why);
	if (!bk)
		snprintf(err, errsize, "the built-in book is refused: %s", why);
	return bk;
}

