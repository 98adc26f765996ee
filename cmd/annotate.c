/* pdnkit annotate: every move of a game, a file or a database scored by the engine,
 * written as PDN comments, NAGs and variations, as JSON Lines, or into the database
 * (resumable), with a summary per game and per player. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "base/hash.h"
#include "pdn/movenum.h"
#include "commands.h"
#include "dbcli.h"
#include "engine_opts.h"
#include "analysis/annotate.h"
#include "book/book.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

#define CHUNK 64                 /* games annotated in parallel before their output */

/* A move's annotation as text: made from a search, or read back from the database. */
typedef struct {
	int ply, side, cls;
	char move[PK_MOVE_STRLEN], best[PK_MOVE_STRLEN];
	bool scored;
	int score_best, score_played, loss, depth;
	int egdb;                    /* 0, or 1 + the database's value after the move (EGDB_*) for the mover */
	char pv[NOTE_PV * 12];       /* the best line, space-separated */
} tnote;

typedef struct {
	pk_game g;
	pk_replay rp;
	int64_t id;                  /* database id, or the game's number in its file */
	const char *file;            /* NULL for the database */
	bool done_before;            /* annotated by an earlier run with these settings */
	bool ok;                     /* annotated (or read back) completely */
	tnote *notes;
	int decisive;                /* index into notes, or -1 */
} job;

typedef struct {
	/* settings */
	pk_annotate_opts ao;
	pk_thresholds th;
	int variations;              /* 0 none, 1 mistakes and blunders, 2 also inaccuracies */
	int threads;
	size_t hash;
	pk_weights w;
	pk_features f;
	/* work */
	job *jobs;
	int njobs;
	atomic_int next;
	atomic_long positions;
	pk_engine *eng[64];
	int engine_threads;
	/* progress */
	long games_done, games_total;
	double t0, last_shown;
	bool tty, shown;
	bool oom;
} actx;

static volatile sig_atomic_t stop_flag;
static void on_sigint(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static bool in_book(void *ctx, const pk_pos *p, const pk_move *m)
{
	return book_has_move(ctx, p, m);
}

static const char *side_name(int side) { return side == PK_BLACK ? "black" : "white"; }

/* Turn a search's notes into text notes (moves written as PDN writes them). */
static void to_text(const pk_replay *rp, const pk_note *n, tnote *t)
{
	memset(t, 0, sizeof *t);
	t->ply = n->ply;
	t->side = n->side;
	t->cls = n->cls;
	if (n->cls == CLASS_NONE)
		return;
	const pk_pos *before = replay_pos_before(rp, n->ply);
	pdn_move_string(before, &n->played, false, t->move);
	if (n->cls == CLASS_FORCED || n->cls == CLASS_BOOK)
		return;
	t->scored = true;
	pdn_move_string(before, &n->best, false, t->best);
	t->score_best = n->score_best;
	t->score_played = n->score_played;
	t->loss = n->loss;
	t->depth = n->depth;
	t->egdb = n->egdb ? 2 + n->egdb_after : 0;
	pk_pos p = *before;
	size_t k = 0;
	for (int i = 0; i < n->npv; i++) {
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(&p, &n->pv[i], false, mv);
		if (k + strlen(mv) + 2 > sizeof t->pv)
			break;
		k += (size_t)snprintf(t->pv + k, sizeof t->pv - k, "%s%s", k ? " " : "", mv);
		pk_pos c;
		pos_make(&p, &n->pv[i], &c);
		p = c;
	}
}

static void show_progress(actx *c, bool force)
{
	if (!c->tty)
		return;
	double t = cli_now();
	if (!force && t - c->last_shown < 0.5)
		return;
	c->last_shown = t;
	long pos = atomic_load(&c->positions);
	double secs = t - c->t0;
	double rate = secs > 0 ? (double)pos / secs : 0;
	fprintf(stderr, "\rannotate: %ld", c->games_done);
	if (c->games_total > 0)
		fprintf(stderr, "/%ld", c->games_total);
	fprintf(stderr, " games, %ld positions, %.1f positions/s", pos, rate);
	if (c->games_total > 0 && c->games_done > 0 && secs > 1) {
		double eta = secs * (double)(c->games_total - c->games_done) / (double)c->games_done;
		fprintf(stderr, ", ETA %d:%02d:%02d", (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	}
	fputs("\033[K", stderr);
	c->shown = true;
}

typedef struct {
	actx *c;
	int id;
} wctx;

static void on_move(void *ctx, const pk_note *n)
{
	wctx *w = ctx;
	(void)n;
	atomic_fetch_add(&w->c->positions, 1);
	if (w->id == 0)
		show_progress(w->c, false);
}

static void annotate_job(actx *c, int wid, job *j)
{
	wctx w = { c, wid };
	pk_annotate_opts o = c->ao;
	o.on_move = on_move;
	o.ctx = &w;
	pk_note *notes = calloc((size_t)j->rp.nply + 1, sizeof *notes);
	j->notes = calloc((size_t)j->rp.nply + 1, sizeof *j->notes);
	if (!notes || !j->notes) {
		c->oom = true;
		free(notes);
		return;
	}
	int rc = annotate_game(c->eng[wid], &j->rp, &o, notes);
	if (rc < 0)
		c->oom = true;
	if (rc == 0) {
		for (int i = 0; i < j->rp.nply; i++)
			to_text(&j->rp, &notes[i], &j->notes[i]);
		j->decisive = annotate_decisive(notes, j->rp.nply, j->rp.result, &c->th);
		j->ok = true;
	}
	free(notes);
}

static void *worker_main(void *arg)
{
	wctx *w = arg;
	actx *c = w->c;
	for (;;) {
		int k = atomic_fetch_add(&c->next, 1);
		if (k >= c->njobs || stop_flag)
			break;
		job *j = &c->jobs[k];
		if (j->done_before || !j->rp.supported || j->ok)
			continue;
		annotate_job(c, w->id, j);
	}
	return NULL;
}

/* Annotate the chunk's jobs, the longest first, on c->threads workers. */
static void run_chunk(actx *c)
{
	int todo = 0;
	for (int i = 0; i < c->njobs; i++)
		todo += !c->jobs[i].done_before && c->jobs[i].rp.supported;
	int nw = c->threads < todo ? c->threads : todo;
	if (nw < 1)
		nw = 1;
	/* Threads left over (fewer games than threads) search inside each game. */
	int per = c->threads / nw;
	for (int i = 0; i < nw; i++)
		engine_set_threads(c->eng[i], per);
	/* Order of work: longest games first, so the last to finish are short. */
	int *order = malloc(sizeof *order * (size_t)c->njobs);
	job *sorted = malloc(sizeof *sorted * (size_t)c->njobs);
	if (!order || !sorted) {
		c->oom = true;
		free(order);
		free(sorted);
		return;
	}
	for (int i = 0; i < c->njobs; i++)
		order[i] = i;
	for (int i = 1; i < c->njobs; i++) {       /* insertion sort: chunks are small */
		int v = order[i], k = i;
		while (k > 0 && c->jobs[order[k - 1]].rp.nply < c->jobs[v].rp.nply) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = v;
	}
	for (int i = 0; i < c->njobs; i++)
		sorted[i] = c->jobs[order[i]];
	job *orig = c->jobs;
	c->jobs = sorted;
	atomic_store(&c->next, 0);
	pthread_t tid[64];
	wctx wc[64];
	int started = 1;
	for (int i = 1; i < nw; i++) {
		wc[i] = (wctx){ c, i };
		if (pthread_create(&tid[i], NULL, worker_main, &wc[i]) != 0)
			break;
		started++;
	}
	wc[0] = (wctx){ c, 0 };
	worker_main(&wc[0]);
	for (int i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < c->njobs; i++)
		orig[order[i]] = sorted[i];
	c->jobs = orig;
	free(order);
	free(sorted);
}

/* ---- output ---------------------------------------------------------------------- */

/* The database's value after a move, for the side that made it. */
static const char *egdb_word(int e)
{
	return e == 3 ? " database: a win" : e == 2 ? " database: a draw" : " database: a loss";
}

static int eval_text(const tnote *t, char *buf, size_t size)
{
	/* the position after the move, from Black's view, in men */
	int s = t->side == PK_BLACK ? t->score_played : -t->score_played;
	if (score_is_win(s)) {
		int plies = score_plies(s) - 1;
		return snprintf(buf, size, "#%s%d", s > 0 ? "" : "-", plies);
	}
	return snprintf(buf, size, "%.2f", s / 100.0);
}

typedef struct {
	const job *j;
	const actx *c;
	char buf[4096];
} wr_ctx;

static const char *after_move(void *ctx, int ply)
{
	wr_ctx *w = ctx;
	const job *j = w->j;
	if (!j->notes || ply < 1 || ply > j->rp.nply)
		return NULL;
	const tnote *t = &j->notes[ply - 1];
	if (!t->scored) {
		if (t->cls == CLASS_BOOK)
			return "{book}";
		return NULL;
	}
	size_t k = 0;
	int nag = class_nag(t->cls);
	if (nag)
		k += (size_t)snprintf(w->buf + k, sizeof w->buf - k, "$%d\n", nag);
	char ev[32];
	eval_text(t, ev, sizeof ev);
	k += (size_t)snprintf(w->buf + k, sizeof w->buf - k, "{[%%eval %s] [%%depth %d]%s}", ev, t->depth,
			      t->egdb ? egdb_word(t->egdb) : "");
	bool var = (w->c->variations >= 1 && (t->cls == CLASS_MISTAKE || t->cls == CLASS_BLUNDER)) ||
		   (w->c->variations >= 2 && t->cls == CLASS_INACCURACY);
	if (var && t->pv[0]) {
		/* The best line, numbered like the main line. */
		int number = replay_move_number(&j->rp, ply);
		int side = t->side;
		k += (size_t)snprintf(w->buf + k, sizeof w->buf - k, "\n(");
		w->buf[k++] = '\n';
		k += movenum_line(t->pv, number, side, '\n', w->buf + k, sizeof w->buf - k - 8);
		k += (size_t)snprintf(w->buf + k, sizeof w->buf - k, "\n)");
	}
	return w->buf;
}

static int sink(void *ctx, const char *buf, size_t len)
{
	return zout_write(ctx, buf, len);
}

static void json_note(FILE *f, const tnote *t)
{
	fprintf(f, "{\"ply\":%d,\"move\":", t->ply);
	json_string(f, t->move);
	fprintf(f, ",\"side\":\"%s\",\"best\":", side_name(t->side));
	if (t->scored) {
		json_string(f, t->best);
		fprintf(f, ",\"score_best\":%d,\"score_played\":%d,\"loss\":%d", t->score_best, t->score_played, t->loss);
	} else {
		fputs("null,\"score_best\":null,\"score_played\":null,\"loss\":null", f);
	}
	fprintf(f, ",\"class\":\"%s\",\"depth\":%d", class_name[t->cls], t->depth);
	if (t->egdb)
		fprintf(f, ",\"egdb\":\"%s\"", t->egdb == 3 ? "win" : t->egdb == 2 ? "draw" : "loss");
	fputc('}', f);
}

static void tally_text(pk_tally *t, const tnote *n)
{
	pk_note x = { .cls = n->cls, .loss = n->loss };
	tally_add(t, &x);
}

static void json_tally(FILE *f, const pk_tally *t)
{
	fprintf(f, "{\"moves\":%d,\"average_loss\":%.1f,\"blunders\":%d,\"mistakes\":%d,\"inaccuracies\":%d,\"only\":%d,\"forced\":%d,\"book\":%d}",
		t->moves, tally_average(t), t->count[CLASS_BLUNDER], t->count[CLASS_MISTAKE], t->count[CLASS_INACCURACY],
		t->count[CLASS_ONLY], t->count[CLASS_FORCED], t->count[CLASS_BOOK]);
}

/* Per-player totals. */
typedef struct {
	char *name;
	int games;
	pk_tally t;
} player_sum;

typedef struct {
	player_sum *p;
	int n, cap;
} players;

static player_sum *player_get(players *ps, const char *name)
{
	for (int i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return &ps->p[i];
	if (ps->n == ps->cap) {
		int cap = ps->cap ? ps->cap * 2 : 16;
		player_sum *np = realloc(ps->p, sizeof *np * (size_t)cap);
		if (!np)
			return NULL;
		ps->p = np;
		ps->cap = cap;
	}
	player_sum *p = &ps->p[ps->n];
	memset(p, 0, sizeof *p);
	if (!(p->name = strdup(name)))
		return NULL;
	ps->n++;
	return p;
}

static const char *tag_or(const pk_game *g, const char *name)
{
	const char *v = game_tag(g, name);
	return v && *v ? v : "?";
}

/* ---- reading back what an earlier run stored ---------------------------------------- */

typedef struct {
	job *j;
	int n;
} load_ctx;

static int load_row(void *ctx, int ncol, const char *const *col)
{
	load_ctx *l = ctx;
	if (ncol < 10 || !col[0])
		return 0;
	int ply = atoi(col[0]);
	if (ply < 1 || ply > l->j->rp.nply)
		return 0;
	tnote *t = &l->j->notes[ply - 1];
	t->ply = ply;
	t->side = col[1] && !strcmp(col[1], "white") ? PK_WHITE : PK_BLACK;
	t->cls = CLASS_NONE;
	for (int k = 0; k < CLASS_NONE; k++)
		if (col[2] && !strcmp(col[2], class_name[k]))
			t->cls = k;
	snprintf(t->move, sizeof t->move, "%s", col[3] ? col[3] : "");
	t->scored = col[4] != NULL;
	if (t->scored) {
		snprintf(t->best, sizeof t->best, "%s", col[4]);
		t->score_best = col[5] ? atoi(col[5]) : 0;
		t->score_played = col[6] ? atoi(col[6]) : 0;
		t->loss = col[7] ? atoi(col[7]) : 0;
		t->depth = col[8] ? atoi(col[8]) : 0;
		snprintf(t->pv, sizeof t->pv, "%s", col[9] ? col[9] : "");
	}
	l->n++;
	return 0;
}

static int decisive_row(void *ctx, int ncol, const char *const *col)
{
	job *j = ctx;
	if (ncol >= 1 && col[0])
		j->decisive = atoi(col[0]) - 1;
	return 0;
}

static int load_stored(pk_store *s, int64_t run, job *j)
{
	j->notes = calloc((size_t)j->rp.nply + 1, sizeof *j->notes);
	if (!j->notes)
		return -1;
	for (int i = 0; i < j->rp.nply; i++)
		j->notes[i] = (tnote){ .ply = i + 1, .cls = CLASS_NONE };
	pk_filter f;
	filter_init(&f);
	f.id = j->id;
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT a.ply, a.side, a.class, a.move, a.best, a.score_best, a.score_played, a.loss, a.depth, a.pv"
		 " FROM annotation a JOIN game g ON g.id = a.game %%W AND a.run = %lld ORDER BY a.ply", (long long)run);
	load_ctx l = { j, 0 };
	if (store_select(s, sql, &f, load_row, &l) < 0)
		return -1;
	j->decisive = -1;
	snprintf(sql, sizeof sql, "SELECT a.decisive FROM annotated a JOIN game g ON g.id = a.game %%W AND a.run = %lld",
		 (long long)run);
	if (store_select(s, sql, &f, decisive_row, j) < 0)
		return -1;
	j->ok = true;
	return 0;
}

/* ---- the command ------------------------------------------------------------------ */

typedef struct {
	actx c;
	pk_store *s;
	int64_t run;
	pk_out *pdn;
	FILE *sum;                   /* the summary: stdout, or stderr when the PDN goes there */
	bool json, quiet;
	players ps;
	long annotated, skipped, reused, unsupported, failed;
	pk_tally all;
	int err;
} state;

static void summarise(state *st, job *j)
{
	pk_tally side[2] = { { 0 }, { 0 } };
	for (int i = 0; i < j->rp.nply; i++)
		if (j->notes[i].cls != CLASS_NONE) {
			tally_text(&side[j->notes[i].side], &j->notes[i]);
			tally_text(&st->all, &j->notes[i]);
		}
	const char *names[2] = { tag_or(&j->g, "Black"), tag_or(&j->g, "White") };
	for (int k = 0; k < 2; k++) {
		player_sum *p = player_get(&st->ps, names[k]);
		if (!p) {
			st->c.oom = true;
			return;
		}
		if (k == 0 || strcmp(names[0], names[1]) != 0)
			p->games++;
		p->t.moves += side[k].moves;
		p->t.total_loss += side[k].total_loss;
		for (int c = 0; c < CLASS_NONE; c++)
			p->t.count[c] += side[k].count[c];
	}
	const tnote *d = j->decisive >= 0 && j->decisive < j->rp.nply ? &j->notes[j->decisive] : NULL;
	if (st->json) {
		printf("{\"game\":%lld,", (long long)j->id);
		if (j->file) {
			printf("\"file\":");
			json_string(stdout, j->file);
			putchar(',');
		}
		printf("\"event\":");
		json_string(stdout, tag_or(&j->g, "Event"));
		printf(",\"black\":");
		json_string(stdout, names[0]);
		printf(",\"white\":");
		json_string(stdout, names[1]);
		printf(",\"result\":\"%s\",\"moves\":[", result_string(j->rp.result));
		bool first = true;
		for (int i = 0; i < j->rp.nply; i++) {
			if (j->notes[i].cls == CLASS_NONE)
				continue;
			if (!first)
				putchar(',');
			json_note(stdout, &j->notes[i]);
			first = false;
		}
		printf("],\"summary\":{\"black\":");
		json_tally(stdout, &side[0]);
		printf(",\"white\":");
		json_tally(stdout, &side[1]);
		printf(",\"decisive\":");
		if (d) {
			printf("{\"ply\":%d,\"move_number\":%d,\"side\":\"%s\",\"move\":", d->ply,
			       replay_move_number(&j->rp, d->ply), side_name(d->side));
			json_string(stdout, d->move);
			printf(",\"loss\":%d}", d->loss);
		} else {
			printf("null");
		}
		printf("}}\n");
	} else if (!st->quiet) {
		fprintf(st->sum, "%s%lld: %s - %s, %s, %s\n", j->file ? "game " : "game #", (long long)j->id, names[0], names[1],
			tag_or(&j->g, "Event"), result_string(j->rp.result));
		for (int k = 0; k < 2; k++)
			fprintf(st->sum, "  %-5s %3d moves, average loss %5.1f, %d blunders, %d mistakes, %d inaccuracies, %d only moves\n",
				side_name(k), side[k].moves, tally_average(&side[k]), side[k].count[CLASS_BLUNDER],
				side[k].count[CLASS_MISTAKE], side[k].count[CLASS_INACCURACY], side[k].count[CLASS_ONLY]);
		for (int i = 0; i < j->rp.nply; i++) {
			const tnote *t = &j->notes[i];
			if (t->cls != CLASS_BLUNDER && t->cls != CLASS_MISTAKE)
				continue;
			int num = replay_move_number(&j->rp, t->ply);
			fprintf(st->sum, "  %d%s %s%s  best %s  loss %d%s\n", num, t->side == PK_BLACK ? "." : "...", t->move,
				t->cls == CLASS_BLUNDER ? "??" : "?", t->best, t->loss, d == t ? "  (decisive)" : "");
		}
		if (d && d->cls != CLASS_BLUNDER && d->cls != CLASS_MISTAKE)
			fprintf(st->sum, "  decisive: %d%s %s\n", replay_move_number(&j->rp, d->ply),
				d->side == PK_BLACK ? "." : "...", d->move);
	}
}

static int save(state *st, job *j)
{
	pk_annot_row *rows = calloc((size_t)j->rp.nply + 1, sizeof *rows);
	if (!rows)
		return -1;
	int n = 0;
	for (int i = 0; i < j->rp.nply; i++) {
		const tnote *t = &j->notes[i];
		if (t->cls == CLASS_NONE)
			continue;
		rows[n++] = (pk_annot_row){ .ply = t->ply, .side = side_name(t->side), .cls = class_name[t->cls],
					   .move = t->move, .scored = t->scored, .best = t->best, .pv = t->pv,
					   .score_best = t->score_best, .score_played = t->score_played,
					   .loss = t->loss, .depth = t->depth };
	}
	int decisive = j->decisive >= 0 ? j->notes[j->decisive].ply : 0;
	int rc = store_save_annotation(st->s, j->id, st->run, rows, n, decisive);
	free(rows);
	return rc;
}

/* Output the chunk in order, store it, free it. */
static void flush_chunk(state *st)
{
	actx *c = &st->c;
	for (int i = 0; i < c->njobs; i++) {
		job *j = &c->jobs[i];
		if (!j->rp.supported) {
			st->unsupported++;
		} else if (j->done_before && st->s && !st->pdn && !st->json && st->quiet) {
			st->skipped++;
		} else if (j->done_before && st->s && !j->ok) {
			if (load_stored(st->s, st->run, j) < 0) {
				cli_error("%s", store_error(st->s));
				st->err = EXIT_RUNTIME;
			} else {
				st->reused++;
			}
		}
		if (j->ok) {
			if (!j->done_before) {
				st->annotated++;
				if (st->s && save(st, j) < 0 && !st->err) {
					cli_error("%s", store_error(st->s));
					st->err = EXIT_RUNTIME;
				}
			}
			if (c->shown)
				fprintf(stderr, "\r\033[K");
			c->shown = false;
			summarise(st, j);
			if (st->pdn) {
				wr_ctx w = { .j = j, .c = c };
				pk_write_opts o = { .width = 80, .verbatim_tags = true, .after_move = after_move, .ctx = &w };
				if (pdn_write_game(&j->g, &j->rp, &o, sink, st->pdn) < 0 && !st->err) {
					cli_error("cannot write the annotated PDN");
					st->err = EXIT_RUNTIME;
				}
			}
		} else if (j->rp.supported && !j->done_before && !stop_flag) {
			st->failed++;
		}
		c->games_done++;
		game_free(&j->g);
		replay_free(&j->rp);
		free(j->notes);
	}
	c->njobs = 0;
	show_progress(c, true);
}

static int process_chunk(state *st)
{
	run_chunk(&st->c);
	flush_chunk(st);
	if (st->c.oom) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	return st->err;
}

static job *new_job(state *st)
{
	job *j = &st->c.jobs[st->c.njobs++];
	memset(j, 0, sizeof *j);
	game_init(&j->g);
	replay_init(&j->rp);
	j->decisive = -1;
	return j;
}

typedef struct {
	state *st;
	long n;
	int64_t *ids;
	int cap;
} id_list;

static int collect_id(void *ctx, const pk_row *r)
{
	id_list *l = ctx;
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 1024;
		int64_t *ni = realloc(l->ids, sizeof *ni * (size_t)cap);
		if (!ni)
			return 1;
		l->ids = ni;
		l->cap = cap;
	}
	l->ids[l->n++] = r->id;
	return 0;
}

typedef struct {
	state *st;
	job *j;
	int rc;
} one_ctx;

static int load_one(void *ctx, const pk_row *r)
{
	one_ctx *o = ctx;
	o->rc = store_load_game(o->st->s, r, &o->j->g, &o->j->rp);
	return 1;
}

static int run_db(state *st, pk_filter *f)
{
	id_list l = { st, 0, NULL, 0 };
	if (store_query(st->s, f, collect_id, &l) < 0) {
		cli_error("%s", store_error(st->s));
		free(l.ids);
		return EXIT_RUNTIME;
	}
	st->c.games_total = l.n;
	int rc = 0;
	for (long i = 0; i < l.n && !rc && !stop_flag; i++) {
		job *j = new_job(st);
		j->id = l.ids[i];
		bool done;
		if (store_is_annotated(st->s, j->id, st->run, &done) < 0) {
			cli_error("%s", store_error(st->s));
			rc = EXIT_RUNTIME;
			break;
		}
		j->done_before = done;
		pk_filter one;
		filter_init(&one);
		one.id = j->id;
		one_ctx oc = { st, j, -1 };
		if (store_query(st->s, &one, load_one, &oc) < 0 || oc.rc < 0) {
			cli_error("game %lld: %s", (long long)j->id, store_error(st->s));
			rc = EXIT_RUNTIME;
			break;
		}
		if (st->c.njobs == CHUNK)
			rc = process_chunk(st);
	}
	if (!rc && st->c.njobs)
		rc = process_chunk(st);
	free(l.ids);
	return rc;
}

static int run_files(state *st, const char **files, int nfiles, int shard_k, int shard_n)
{
	long ordinal = 0;
	int rc = 0;
	for (int fi = 0; fi < nfiles && !rc && !stop_flag; fi++) {
		int err = 0;
		pk_reader *r = pdn_open(files[fi], &err);
		if (!r) {
			cli_error("cannot open '%s': %s", files[fi], strerror(err));
			rc = EXIT_RUNTIME;
			break;
		}
		pdn_set_stop(r, &stop_flag);
		pk_replay hint;
		replay_init(&hint);
		for (;;) {
			job *j = new_job(st);
			int got = pdn_read(r, &j->g);
			if (got <= 0) {
				st->c.njobs--;
				game_free(&j->g);
				replay_free(&j->rp);
				if (got < 0) {
					cli_error("%s: %s", files[fi], pdn_error(r));
					rc = EXIT_RUNTIME;
				}
				break;
			}
			ordinal++;
			if (shard_n > 1 && ordinal % shard_n != shard_k - 1) {
				st->c.njobs--;
				game_free(&j->g);
				replay_free(&j->rp);
				continue;
			}
			j->id = j->g.index;
			j->file = files[fi];
			memcpy(j->rp.file_hint, hint.file_hint, sizeof hint.file_hint);
			if (replay_game(&j->g, &j->rp) < 0) {
				cli_error("out of memory");
				rc = EXIT_RUNTIME;
				break;
			}
			memcpy(hint.file_hint, j->rp.file_hint, sizeof hint.file_hint);
			if (j->rp.supported && !j->rp.complete)
				cli_warning("%s: game %d stops at an error after %d plies (see pdnkit validate); "
					    "the moves before it are annotated", files[fi], j->g.index, j->rp.nply);
			if (st->c.njobs == CHUNK && (rc = process_chunk(st)) != 0)
				break;
			if (stop_flag)
				break;
		}
		replay_free(&hint);
		pdn_close(r);
	}
	if (!rc && st->c.njobs)
		rc = process_chunk(st);
	return rc;
}

static int by_loss(const void *a, const void *b)
{
	const player_sum *x = a, *y = b;
	double d = tally_average(&y->t) - tally_average(&x->t);
	return d > 0 ? -1 : d < 0 ? 1 : strcmp(x->name, y->name);
}

int cmd_annotate(int argc, const char **argv)
{
	filter_args fa = { 0 };
	engine_args ea;
	engine_args_init(&ea);
	pk_book *bk = NULL;
	char *book_arg = NULL;
	char *out_path = NULL, *blunder = NULL, *mistake = NULL, *inaccuracy = NULL, *variations = NULL, *shard = NULL,
	     *merge = NULL;
	int json = 0, quiet = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games, with --db:", NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(&ea), 0, "Search limits (default: --depth 10):", NULL },
		{ "blunder", 0, POPT_ARG_STRING, &blunder, 0, "a loss of at least CP is a blunder ?? (default 100)", "CP" },
		{ "mistake", 0, POPT_ARG_STRING, &mistake, 0, "a mistake ? (default 50)", "CP" },
		{ "inaccuracy", 0, POPT_ARG_STRING, &inaccuracy, 0, "an inaccuracy ?! (default 25)", "CP" },
		{ "variations", 0, POPT_ARG_STRING, &variations, 0,
		  "best lines as variations: none, mistakes (and blunders; the default) or all (inaccuracies too)", "WHICH" },
		{ "book", 0, POPT_ARG_STRING, &book_arg, 0,
		  "mark the moves of this opening book as book moves, unsearched ('none': no book; default: the shipped one)", "FILE" },
		{ "shard", 0, POPT_ARG_STRING, &shard, 0, "annotate only the K-th of N disjoint parts of the games", "K/N" },
		{ "merge", 0, POPT_ARG_STRING, &merge, 0, "add the annotations of another database (a shard's) to --db, then stop", "DB" },
		{ "output", 'o', POPT_ARG_STRING, &out_path, 0, "write the annotated games as PDN here ('-': standard output; .zst: compressed)", "OUT" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "JSON Lines: one object per game", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no per-game summary", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [FILE... | --db PATH [filters]]");
	int rc = cli_parse_options(ctx);
	state st;
	memset(&st, 0, sizeof st);
	actx *c = &st.c;
	job *jobs = NULL;
	if (rc)
		goto out;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	bool use_db = fa.db || fa.player || fa.black || fa.white || fa.event || fa.site || fa.result || fa.date_from ||
		      fa.date_to || fa.opening || fa.position || fa.after || fa.invalid || fa.min_plies || fa.max_plies ||
		      fa.limit || merge;
	if (use_db && nfiles) {
		cli_error("give FILEs or --db with filters, not both");
		rc = EXIT_USAGE;
		goto out;
	}
	if (!use_db && !nfiles) {
		cli_error("nothing to annotate: give PDN FILEs, or --db PATH (with query filters)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (!ea.depth && !ea.nodes && !ea.movetime && !ea.level)
		ea.depth = strdup("10");
	if (engine_args_resolve(&ea, &c->ao.lim) || engine_weights(&ea, &c->w) < 0 || engine_features(&ea, &c->f) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	c->th = thresholds_default;
	long v;
	if ((blunder && (cli_int(blunder, 1, LOSS_CAP * 2, "--blunder", &v) || !((c->th.blunder = (int)v)))) ||
	    (mistake && (cli_int(mistake, 1, LOSS_CAP * 2, "--mistake", &v) || !((c->th.mistake = (int)v)))) ||
	    (inaccuracy && (cli_int(inaccuracy, 1, LOSS_CAP * 2, "--inaccuracy", &v) || !((c->th.inaccuracy = (int)v))))) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (!(c->th.blunder >= c->th.mistake && c->th.mistake >= c->th.inaccuracy)) {
		cli_error("thresholds must satisfy --blunder >= --mistake >= --inaccuracy (have %d, %d, %d)", c->th.blunder,
			  c->th.mistake, c->th.inaccuracy);
		rc = EXIT_USAGE;
		goto out;
	}
	c->ao.th = c->th;
	if (engine_egdb(&ea, &c->ao.egdb) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	c->variations = 1;
	if (variations) {
		if (!strcmp(variations, "none"))
			c->variations = 0;
		else if (!strcmp(variations, "mistakes"))
			c->variations = 1;
		else if (!strcmp(variations, "all"))
			c->variations = 2;
		else {
			cli_error("--variations must be none, mistakes or all, not '%s'", variations);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	int shard_k = 1, shard_n = 1;
	if (shard) {
		char extra;
		if (sscanf(shard, "%d/%d%c", &shard_k, &shard_n, &extra) != 2 || shard_n < 1 || shard_k < 1 ||
		    shard_k > shard_n) {
			cli_error("--shard must be K/N with 1 <= K <= N, not '%s'", shard);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (book_option(book_arg, true, &bk) < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (bk) {
		c->ao.in_book = in_book;
		c->ao.book_ctx = bk;
	}
	c->threads = engine_threads(&ea);
	c->hash = ea.hash ? (size_t)atol(ea.hash) : 32;
	pk_filter f;
	filter_init(&f);
	if (use_db && (rc = filter_resolve(&fa, &f)) != 0)
		goto out;
	f.shard_k = shard_k;
	f.shard_n = shard_n;

	if (use_db) {
		if (!(st.s = db_open(&fa, false))) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (merge) {
			long added = 0;
			if (store_merge_annotations(st.s, merge, &added) < 0) {
				cli_error("cannot merge '%s': %s", merge, store_error(st.s));
				rc = EXIT_RUNTIME;
				goto out;
			}
			printf("merged the annotations of %ld games from %s\n", added, merge);
			rc = EXIT_OK;
			goto out;
		}
		/* The settings a stored annotation was made with: a rerun with the same ones
		 * skips the games already done. */
		char settings[512];
		uint64_t wh = fnv64(FNV64_INIT, &c->w, sizeof c->w);
		snprintf(settings, sizeof settings,
			 "depth=%d nodes=%llu movetime=%g weights=%016llx thresholds=%d/%d/%d move-order=%d book=%08x",
			 c->ao.lim.depth, (unsigned long long)c->ao.lim.nodes, c->ao.lim.movetime, (unsigned long long)wh,
			 c->th.blunder, c->th.mistake, c->th.inaccuracy, GEN_ORDER_VERSION, bk ? book_id(bk) : 0u);
		if (memcmp(&c->f, &features_all, sizeof c->f) != 0) {
			size_t used = strlen(settings);
			snprintf(settings + used, sizeof settings - used, " features=");
			used = strlen(settings);
			features_format(&c->f, settings + used, sizeof settings - used);
		}
		if (c->ao.egdb) {
			size_t used = strlen(settings);
			snprintf(settings + used, sizeof settings - used, " egdb=%d%s", egdb_pieces(c->ao.egdb),
				 egdb_has_distances(c->ao.egdb, egdb_pieces(c->ao.egdb)) ? "d" : "");
		}
		if (store_annotation_run(st.s, settings, "pdnkit " PK_VERSION, &st.run) < 0) {
			cli_error("%s", store_error(st.s));
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	if (out_path) {
		int err = 0;
		if (!(st.pdn = zout_open(out_path, &err))) {
			cli_error("cannot write '%s': %s", out_path, strerror(err));
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	st.sum = out_path && !strcmp(out_path, "-") ? stderr : stdout;
	st.json = json;
	st.quiet = quiet;
	if (json && out_path && !strcmp(out_path, "-")) {
		cli_error("--json and -o - both want standard output");
		rc = EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < c->threads; i++) {
		if (!(c->eng[i] = engine_new(c->hash, &c->w))) {
			cli_error("cannot allocate a %zu MB transposition table", c->hash);
			rc = EXIT_RUNTIME;
			goto out;
		}
		engine_set_features(c->eng[i], &c->f);
		engine_set_egdb(c->eng[i], c->ao.egdb);
		if (engine_set_threads(c->eng[i], c->threads) < 0) {
			cli_error("out of memory");
			rc = EXIT_RUNTIME;
			goto out;
		}
	}
	jobs = calloc(CHUNK, sizeof *jobs);
	if (!jobs) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	c->jobs = jobs;
	c->ao.stop = &stop_flag;
	c->tty = cli_stderr_is_tty();
	c->t0 = cli_now();
	stop_flag = 0;
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	rc = use_db ? run_db(&st, &f) : run_files(&st, files, nfiles, shard_k, shard_n);
	sigaction(SIGINT, &old, NULL);
	if (c->shown)
		fprintf(stderr, "\r\033[K");
	double secs = cli_now() - c->t0;
	long pos = atomic_load(&c->positions);

	/* Per player, the highest average loss first. */
	if (!rc && st.ps.n > 0 && (json || !quiet)) {
		qsort(st.ps.p, (size_t)st.ps.n, sizeof *st.ps.p, by_loss);
		if (json) {
			printf("{\"players\":[");
			for (int i = 0; i < st.ps.n; i++) {
				printf("%s{\"name\":", i ? "," : "");
				json_string(stdout, st.ps.p[i].name);
				printf(",\"games\":%d,\"summary\":", st.ps.p[i].games);
				json_tally(stdout, &st.ps.p[i].t);
				putchar('}');
			}
			printf("]}\n");
		} else {
			fprintf(st.sum, "\n%-28s %5s %6s %8s %8s %8s %8s\n", "player", "games", "moves", "avg loss", "blunders",
				"mistakes", "inaccur.");
			for (int i = 0; i < st.ps.n; i++) {
				const player_sum *p = &st.ps.p[i];
				fprintf(st.sum, "%-28.28s %5d %6d %8.1f %8d %8d %8d\n", p->name, p->games, p->t.moves,
					tally_average(&p->t), p->t.count[CLASS_BLUNDER], p->t.count[CLASS_MISTAKE],
					p->t.count[CLASS_INACCURACY]);
			}
		}
	}
	fflush(stdout);
	fprintf(stderr, "annotate: %ld games annotated", st.annotated);
	if (st.reused)
		fprintf(stderr, ", %ld read back (done before with these settings)", st.reused);
	if (st.skipped)
		fprintf(stderr, ", %ld skipped (done before with these settings)", st.skipped);
	if (st.unsupported)
		fprintf(stderr, ", %ld not English draughts (not annotated)", st.unsupported);
	fprintf(stderr, "; %ld positions in %.1f s (%.1f positions/s)\n", pos, secs, secs > 0 ? (double)pos / secs : 0);
	if (stop_flag) {
		fprintf(stderr, "annotate: interrupted; %s\n",
			use_db ? "the games finished are stored: run the same command again to go on"
			       : "the games finished were written");
		if (!rc)
			rc = 130;
	}
	const char *zmsg = NULL;
	if (st.pdn && zout_close(st.pdn, &zmsg) < 0 && !rc) {
		cli_error("cannot finish '%s': %s", out_path, zmsg ? zmsg : "write error");
		rc = EXIT_RUNTIME;
	}
	st.pdn = NULL;
out:
	if (st.pdn)
		zout_close(st.pdn, NULL);
	for (int i = 0; i < 64; i++)
		engine_free(c->eng[i]);
	for (int i = 0; i < st.ps.n; i++)
		free(st.ps.p[i].name);
	free(st.ps.p);
	free(jobs);
	store_close(st.s);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	engine_args_free(&ea);
	free(out_path);
	free(blunder);
	free(mistake);
	free(inaccuracy);
	free(variations);
	free(shard);
	free(merge);
	free(book_arg);
	book_free(bk);
	return rc < 0 ? EXIT_OK : rc;
}
