/* The batch annotator: chunks of games read in order, annotated on N threads (longest
 * first), then handed back, saved and tallied in order. */
#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/batch.h"
#include "engine/net.h"
#include "engine/pattern.h"
#include "engine/vpattern.h"
#include "rules/variant.h"
#include "base/hash.h"
#include "base/pool.h"
#include "pdn/movenum.h"
#include "pdn/pdn_write.h"

#define CHUNK 64                 /* games annotated in parallel before they are handed back */
#define MAX_THREADS 64

typedef struct {
	char *name;
	int games;
	pk_tally t;
} player;

struct pk_batch {
	pk_batch_opts o;
	pk_gengine *eng[MAX_THREADS];    /* English draughts' engine, and the other variants'
					  * made when a game of one comes */
	pk_client *cli[MAX_THREADS];     /* another engine's, started when needed */
	pk_bgame *jobs;              /* the chunk, in input order */
	int njobs;
	int *order;                  /* the chunk's jobs, longest first */
	atomic_int next;
	atomic_long positions;
	atomic_long finished;        /* games of the chunk its workers have finished */
	pthread_mutex_t progress_lock;   /* on_progress is called under it */
	atomic_bool oom;
	int workers;
	long games_done, games_total;
	pk_batch_counts n;
	pk_player_sum *players;
	int nplayers, capplayers;
	bool failed;
	char err[600];
};

static const volatile sig_atomic_t no_stop;

static bool stopped(const pk_batch *b) { return b->o.stop && *b->o.stop; }

/* A note's numbers into its text form; whether it has moves to write (and, *scored,
 * a search's). */
static bool note_numbers(const pk_note *n, pk_tnote *t)
{
	memset(t, 0, sizeof *t);
	t->ply = n->ply;
	t->side = n->side;
	t->cls = n->cls;
	if (n->cls == CLASS_NONE)
		return false;
	t->scored = n->cls != CLASS_FORCED && n->cls != CLASS_BOOK;
	if (t->scored) {
		t->score_best = n->score_best;
		t->score_played = n->score_played;
		t->loss = n->loss;
		t->depth = n->depth;
		t->egdb = n->egdb ? 2 + n->egdb_after : 0;
	}
	return true;
}

/* A move as the game's PDN writes it (English draughts: as pdn_move_string, the
 * landing squares where two captures share their ends). */
static void move_text(const pk_gpos *p, const pk_gmove *m, char *buf, size_t size)
{
	if (p->v) {
		vmove_pdn(&p->x, &m->x, buf, size);
		return;
	}
	char t[PK_MOVE_STRLEN];
	pdn_move_string(&p->e, &m->e, false, t);
	snprintf(buf, size, "%s", t);
}

/* A search's note as text (moves written as the game's PDN writes them). */
static void to_text(const pk_replay *rp, const pk_note *n, pk_tnote *t)
{
	if (!note_numbers(n, t))
		return;
	pk_gpos before;
	pk_gmove played;
	if (!replay_gply(rp, n->ply, &before, &played))
		return;
	move_text(&before, &n->played, t->move, sizeof t->move);
	if (!t->scored)
		return;
	move_text(&before, &n->best, t->best, sizeof t->best);
	pk_gpos p = before;
	size_t k = 0;
	for (int i = 0; i < n->npv; i++) {
		char mv[160];
		move_text(&p, &n->pv[i], mv, sizeof mv);
		if (k + strlen(mv) + 2 > sizeof t->pv)
			break;
		k += (size_t)snprintf(t->pv + k, sizeof t->pv - k, "%s%s", k ? " " : "", mv);
		pk_gpos c;
		gpos_make(&p, &n->pv[i], &c);
		p = c;
	}
}

int bgame_plies(const pk_bgame *b)
{
	return b->rp.variant_replayed ? b->rp.vr.plies : b->rp.nply;
}

bool bgame_annotatable(const pk_bgame *b)
{
	return b->rp.supported || (b->rp.variant_replayed && b->rp.vr.ord);
}

int bgame_first(const pk_bgame *b)
{
	return b->rp.variant_replayed ? b->rp.variant_first : PK_BLACK;
}

typedef struct {
	pk_batch *b;
	int wid;
} wctx;

/* The games done so far: those handed back, and those of the chunk finished since. */
static void progress(pk_batch *b, long pos)
{
	if (!b->o.on_progress)
		return;
	pthread_mutex_lock(&b->progress_lock);
	b->o.on_progress(b->o.ctx, b->games_done + atomic_load(&b->finished), b->games_total, pos);
	pthread_mutex_unlock(&b->progress_lock);
}

static void on_move(void *ctx, const pk_note *n)
{
	wctx *w = ctx;
	(void)n;
	long pos = atomic_fetch_add(&w->b->positions, 1) + 1;
	if (w->wid == 0)
		progress(w->b, pos);
}

static void annotate_job(pk_batch *b, int wid, pk_bgame *j)
{
	wctx w = { b, wid };
	pk_annotate_opts o = b->o.ao;
	o.on_move = on_move;
	o.ctx = &w;
	int plies = bgame_plies(j);
	bool variant = j->rp.variant_replayed;
	pk_note *notes = calloc((size_t)plies + 1, sizeof *notes);
	j->notes = calloc((size_t)plies + 1, sizeof *j->notes);
	if (variant && !gengine_other(b->eng[wid])) {
		pk_vengine *ve = vengine_new(b->o.hash);
		if (ve) {
			vengine_set_features(ve, &b->o.f);
			gengine_set_other(b->eng[wid], ve);
		}
	}
	if (!notes || !j->notes || (variant && !gengine_other(b->eng[wid]))) {
		atomic_store(&b->oom, true);
		free(notes);
		return;
	}
	j->error[0] = 0;
	if (b->o.ext && !variant) {
		if (!client_alive(b->cli[wid])) {
			client_close(b->cli[wid]);
			b->cli[wid] = client_open(b->o.ext, &b->o.copts, j->error, sizeof j->error);
		}
		if (!b->cli[wid]) {
			free(notes);
			return;
		}
		o.client = b->cli[wid];
		o.client_time = b->o.ext_time;
		o.client_error = j->error;
		o.client_error_size = sizeof j->error;
	}
	int rc = annotate_game(b->eng[wid], &j->rp, &o, notes);
	if (rc < 0)
		atomic_store(&b->oom, true);
	if (rc == 0) {
		for (int i = 0; i < plies; i++)
			to_text(&j->rp, &notes[i], &j->notes[i]);
		/* results count from the first mover ("1-0": the first mover won); the notes
		 * name the sides by colour */
		int result = j->rp.result;
		if (bgame_first(j) == PK_WHITE && (result == RES_BLACK_WINS || result == RES_WHITE_WINS))
			result = result == RES_BLACK_WINS ? RES_WHITE_WINS : RES_BLACK_WINS;
		j->decisive = annotate_decisive(notes, plies, result, &b->o.ao.th);
		j->ok = true;
		atomic_fetch_add(&b->finished, 1);
		progress(b, atomic_load(&b->positions));
	}
	free(notes);
}

/* A game the batch annotates: English draughts, or another variant unless english_only. */
static bool wanted(const pk_batch *b, const pk_bgame *j)
{
	return bgame_annotatable(j) && (j->rp.supported || !b->o.english_only);
}

static void worker(int wid, void *ctx)
{
	pk_batch *b = ctx;
	for (;;) {
		int k = atomic_fetch_add(&b->next, 1);
		if (k >= b->njobs || stopped(b))
			break;
		pk_bgame *j = &b->jobs[b->order[k]];
		if (j->done_before || !wanted(b, j) || j->ok)
			continue;
		annotate_job(b, wid, j);
	}
}

/* Annotate the chunk's jobs, the longest first. Threads left over (fewer games than
 * threads) search inside each game. */
static void run_chunk(pk_batch *b)
{
	int todo = 0;
	for (int i = 0; i < b->njobs; i++)
		todo += !b->jobs[i].done_before && wanted(b, &b->jobs[i]);
	int nw = b->o.threads < todo ? b->o.threads : todo;
	if (nw < 1)
		nw = 1;
	int per = b->o.threads / nw;
	for (int i = 0; i < nw; i++)
		if (b->eng[i] && gengine_english(b->eng[i]) && engine_set_threads(gengine_english(b->eng[i]), per) < 0)
			atomic_store(&b->oom, true);
	for (int i = 0; i < b->njobs; i++)
		b->order[i] = i;
	for (int i = 1; i < b->njobs; i++) {       /* insertion sort: chunks are small */
		int v = b->order[i], k = i;
		while (k > 0 && bgame_plies(&b->jobs[b->order[k - 1]]) < bgame_plies(&b->jobs[v])) {
			b->order[k] = b->order[k - 1];
			k--;
		}
		b->order[k] = v;
	}
	atomic_store(&b->next, 0);
	atomic_store(&b->finished, 0);
	pool_run(nw, worker, b);
	atomic_store(&b->finished, 0);   /* (counted in games_done from here on) */
}

static pk_player_sum *player_get(pk_batch *b, const char *name)
{
	for (int i = 0; i < b->nplayers; i++)
		if (strcmp(b->players[i].name, name) == 0)
			return &b->players[i];
	if (b->nplayers == b->capplayers) {
		int cap = b->capplayers ? b->capplayers * 2 : 16;
		pk_player_sum *np = realloc(b->players, sizeof *np * (size_t)cap);
		if (!np)
			return NULL;
		b->players = np;
		b->capplayers = cap;
	}
	pk_player_sum *p = &b->players[b->nplayers];
	memset(p, 0, sizeof *p);
	if (!(p->name = strdup(name)))
		return NULL;
	b->nplayers++;
	return p;
}

static const char *tag_or(const pk_game *g, const char *name)
{
	const char *v = game_tag(g, name);
	return v && *v ? v : "?";
}

static void tally_text(pk_tally *t, const pk_tnote *n)
{
	pk_note x = { .cls = n->cls, .loss = n->loss };
	tally_add(t, &x);
}

static int tally(pk_batch *b, pk_bgame *j)
{
	for (int i = 0; i < bgame_plies(j); i++)
		if (j->notes[i].cls != CLASS_NONE) {
			tally_text(&j->side[j->notes[i].side], &j->notes[i]);
			tally_text(&b->n.all, &j->notes[i]);
		}
	const char *names[2] = { tag_or(&j->g, "Black"), tag_or(&j->g, "White") };
	for (int k = 0; k < 2; k++) {
		pk_player_sum *p = player_get(b, names[k]);
		if (!p)
			return -1;
		if (k == 0 || strcmp(names[0], names[1]) != 0)
			p->games++;
		p->t.moves += j->side[k].moves;
		p->t.total_loss += j->side[k].total_loss;
		for (int c = 0; c < CLASS_NONE; c++)
			p->t.count[c] += j->side[k].count[c];
	}
	return 0;
}

/* ---- the store ---------------------------------------------------------------------- */

static const char *side_name(int side) { return side == PK_BLACK ? "black" : "white"; }

static int load_row(void *ctx, const pk_annot_row *r)
{
	pk_bgame *j = ctx;
	if (r->ply < 1 || r->ply > bgame_plies(j))
		return 0;
	pk_tnote *t = &j->notes[r->ply - 1];
	t->ply = r->ply;
	t->side = r->side && !strcmp(r->side, "white") ? PK_WHITE : PK_BLACK;
	t->cls = CLASS_NONE;
	for (int k = 0; k < CLASS_NONE; k++)
		if (r->cls && !strcmp(r->cls, class_name[k]))
			t->cls = k;
	snprintf(t->move, sizeof t->move, "%s", r->move ? r->move : "");
	t->scored = r->scored;
	if (t->scored) {
		snprintf(t->best, sizeof t->best, "%s", r->best ? r->best : "");
		t->score_best = r->score_best;
		t->score_played = r->score_played;
		t->loss = r->loss;
		t->depth = r->depth;
		snprintf(t->pv, sizeof t->pv, "%s", r->pv ? r->pv : "");
	}
	return 0;
}

static int load_stored(pk_batch *b, pk_bgame *j)
{
	if (!(j->notes = calloc((size_t)bgame_plies(j) + 1, sizeof *j->notes)))
		return -1;
	for (int i = 0; i < bgame_plies(j); i++)
		j->notes[i] = (pk_tnote){ .ply = i + 1, .cls = CLASS_NONE };
	int decisive;
	if (store_load_annotation(b->o.store, j->id, b->o.run, load_row, j, &decisive) < 0)
		return -1;
	j->decisive = decisive - 1;
	j->ok = true;
	return 0;
}

static int save(pk_batch *b, pk_bgame *j)
{
	pk_annot_row *rows = calloc((size_t)bgame_plies(j) + 1, sizeof *rows);
	if (!rows)
		return -1;
	int n = 0;
	for (int i = 0; i < bgame_plies(j); i++) {
		const pk_tnote *t = &j->notes[i];
		if (t->cls == CLASS_NONE)
			continue;
		rows[n++] = (pk_annot_row){ .ply = t->ply, .side = side_name(t->side), .cls = class_name[t->cls],
					   .move = t->move, .scored = t->scored, .best = t->best, .pv = t->pv,
					   .score_best = t->score_best, .score_played = t->score_played,
					   .loss = t->loss, .depth = t->depth };
	}
	assert(j->decisive < bgame_plies(j));
	int decisive = j->decisive >= 0 ? j->notes[j->decisive].ply : 0;
	int rc = store_save_annotation(b->o.store, j->id, b->o.run, rows, n, decisive);
	free(rows);
	return rc;
}

static void store_failed(pk_batch *b)
{
	if (!b->failed)
		snprintf(b->err, sizeof b->err, "%s", store_error(b->o.store));
	b->failed = true;
}

/* Hand the chunk back in order, store it, free it. */
static void flush_chunk(pk_batch *b)
{
	for (int i = 0; i < b->njobs; i++) {
		pk_bgame *j = &b->jobs[i];
		if (!wanted(b, j)) {
			j->status = BATCH_UNSUPPORTED;
		} else if (j->done_before && !b->o.read_back) {
			j->status = BATCH_SKIPPED;
		} else if (j->done_before) {
			if (load_stored(b, j) < 0)
				store_failed(b);
			j->status = j->ok ? BATCH_REUSED : BATCH_FAILED;
		} else if (j->ok) {
			j->status = BATCH_ANNOTATED;
			if (b->o.store && save(b, j) < 0)
				store_failed(b);
		} else {
			j->status = BATCH_FAILED;
		}
		if (j->ok && tally(b, j) < 0)
			atomic_store(&b->oom, true);
		switch (j->status) {
		case BATCH_ANNOTATED: b->n.annotated++; break;
		case BATCH_REUSED: b->n.reused++; break;
		case BATCH_SKIPPED: b->n.skipped++; break;
		case BATCH_UNSUPPORTED: b->n.unsupported++; break;
		default: b->n.failed += !stopped(b); break;
		}
		b->games_done++;
		if (b->o.on_game)
			b->o.on_game(b->o.ctx, j);
		game_free(&j->g);
		replay_free(&j->rp);
		free(j->notes);
		j->notes = NULL;
	}
	b->njobs = 0;
}

static int process_chunk(pk_batch *b)
{
	run_chunk(b);
	flush_chunk(b);
	if (atomic_load(&b->oom)) {
		snprintf(b->err, sizeof b->err, "out of memory");
		return -1;
	}
	return b->failed ? -1 : 0;
}

pk_batch *batch_new(const pk_batch_opts *o, char *err, size_t errsize)
{
	pk_batch *b = calloc(1, sizeof *b);
	if (!b) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	b->o = *o;
	pthread_mutex_init(&b->progress_lock, NULL);
	if (b->o.threads < 1)
		b->o.threads = 1;
	if (b->o.threads > MAX_THREADS)
		b->o.threads = MAX_THREADS;
	b->jobs = calloc(CHUNK, sizeof *b->jobs);
	b->order = calloc(CHUNK, sizeof *b->order);
	if (!b->jobs || !b->order) {
		snprintf(err, errsize, "out of memory");
		batch_free(b);
		return NULL;
	}
	for (int i = 0; i < b->o.threads; i++) {
		/* with another engine, none of pdnkit's for English draughts */
		pk_engine *e = b->o.ext ? NULL : engine_new(b->o.hash, &b->o.w);
		if ((!b->o.ext && !e) || !(b->eng[i] = gengine_new(e, NULL))) {
			snprintf(err, errsize, "cannot allocate a %zu MB transposition table", b->o.hash);
			batch_free(b);
			return NULL;
		}
		if (e) {
			engine_set_features(e, &b->o.f);
			engine_set_egdb(e, b->o.ao.egdb);
		}
	}
	b->o.ao.stop = (volatile sig_atomic_t *)(b->o.stop ? b->o.stop : &no_stop);
	return b;
}

int batch_run(pk_batch *b, const pk_source *src)
{
	pk_games *it = games_open(src, b->err, sizeof b->err);
	if (!it)
		return -1;
	if (src->store) {
		uint64_t done, total;
		games_progress(it, &done, &total);
		b->games_total = (long)total;
	}
	long ordinal = 0;
	int rc = 0;
	while (!rc && !stopped(b)) {
		pk_game *g;
		pk_replay *rp;
		int got = games_next(it, &g, &rp);
		if (got == GAMES_END)
			break;
		if (got == GAMES_FATAL) {
			snprintf(b->err, sizeof b->err, "%s", games_error(it));
			rc = -1;
			break;
		}
		if (got == GAMES_ERROR) {
			b->n.unreadable++;
			if (b->o.on_error)
				b->o.on_error(b->o.ctx, games_error(it));
			continue;
		}
		ordinal++;
		if (!src->store && b->o.shard_n > 1 && ordinal % b->o.shard_n != b->o.shard_k - 1)
			continue;
		assert(b->njobs < CHUNK);
		pk_bgame *j = &b->jobs[b->njobs++];
		memset(j, 0, sizeof *j);
		games_take(it, &j->g, &j->rp);
		j->decisive = -1;
		j->id = src->store ? games_id(it) : j->g.index;
		j->file = src->store ? NULL : games_file(it);
		if (b->o.store && wanted(b, j)) {
			bool done = false;
			if (store_is_annotated(b->o.store, j->id, b->o.run, &done) < 0) {
				store_failed(b);
				rc = -1;
				break;
			}
			j->done_before = done;
		}
		if (b->njobs == CHUNK)
			rc = process_chunk(b);
	}
	if (!rc && b->njobs)
		rc = process_chunk(b);
	for (int i = 0; i < b->njobs; i++) {       /* left over after an error */
		game_free(&b->jobs[i].g);
		replay_free(&b->jobs[i].rp);
		free(b->jobs[i].notes);
	}
	b->njobs = 0;
	games_close(it);
	b->n.positions = atomic_load(&b->positions);
	return rc;
}

const char *batch_error(const pk_batch *b) { return b->err; }

const pk_batch_counts *batch_counts(const pk_batch *b) { return &b->n; }

static int by_loss(const void *a, const void *b)
{
	const pk_player_sum *x = a, *y = b;
	double d = tally_average(&y->t) - tally_average(&x->t);
	return d > 0 ? -1 : d < 0 ? 1 : strcmp(x->name, y->name);
}

const pk_player_sum *batch_players(pk_batch *b, int *n)
{
	if (b->nplayers > 1)
		qsort(b->players, (size_t)b->nplayers, sizeof *b->players, by_loss);
	*n = b->nplayers;
	return b->players;
}

void batch_free(pk_batch *b)
{
	if (!b)
		return;
	for (int i = 0; i < MAX_THREADS; i++) {
		gengine_free(b->eng[i]);
		client_close(b->cli[i]);
	}
	for (int i = 0; i < b->nplayers; i++)
		free(b->players[i].name);
	free(b->players);
	free(b->jobs);
	free(b->order);
	pthread_mutex_destroy(&b->progress_lock);
	free(b);
}

void batch_settings(const pk_batch_opts *o, uint32_t book_id, char *buf, size_t size)
{
	uint64_t wh = fnv64(FNV64_INIT, o->w.w, sizeof o->w.w);
	const pk_annotate_opts *a = &o->ao;
	int k = snprintf(buf, size,
			 "depth=%d nodes=%llu movetime=%g weights=%016llx thresholds=%d/%d/%d move-order=%d book=%08x",
			 a->lim.depth, (unsigned long long)a->lim.nodes, a->lim.movetime, (unsigned long long)wh,
			 a->th.blunder, a->th.mistake, a->th.inaccuracy, GEN_ORDER_VERSION, book_id);
	size_t used = k > 0 && (size_t)k < size ? (size_t)k : size - 1;
	if (!features_same(&o->f, &features_all)) {
		used += (size_t)snprintf(buf + used, size - used, " features=");
		if (used < size)
			features_format_changed(&o->f, &features_all, buf + used, size - used);
		used = strlen(buf);
	}
	if (a->verify && used < size)
		used += (size_t)snprintf(buf + used, size - used, a->verify_rounds > 1 ? " verify=%dx%d" : " verify=%d", a->verify,
					 a->verify_rounds);
	if (o->w.pat && used < size)
		used += (size_t)snprintf(buf + used, size - used, " patterns=%08x", (unsigned)o->w.pat->checksum);
	if (o->w.draw_scale > 0 && o->w.draw_scale < 100 && used < size)
		used += (size_t)snprintf(buf + used, size - used, " draw-scale=%d", o->w.draw_scale);
	if (o->w.net && used < size)
		used += (size_t)snprintf(buf + used, size - used, " net=%08x", (unsigned)o->w.net->checksum);
	/* the other variants' built-in networks (their games are searched with them): a run
	 * made before one shipped, or with another, is another run */
	for (int i = 0; variant_at(i) && used < size; i++) {
		const pk_variant *v = variant_at(i);
		const pk_net *vn = vpattern_board(v) ? net_builtin_variant(v->key) : NULL;
		if (vn)
			used += (size_t)snprintf(buf + used, size - used, " net-%s=%08x", v->key, (unsigned)vn->checksum);
	}
	if (a->egdb && used < size)
		used += (size_t)snprintf(buf + used, size - used, " egdb=%d%s", egdb_pieces(a->egdb),
					 egdb_has_distances(a->egdb, egdb_pieces(a->egdb)) ? "d" : "");
	/* another engine: its spec and time instead of pdnkit's limits (the weights and
	 * features above are pdnkit's defaults then, the same for every run) */
	if (o->ext && used < size) {
		used += (size_t)snprintf(buf + used, size - used, " engine=%s time=%g", o->ext->text, o->ext_time);
		for (int i = 0; i < o->ext->nparams && used < size; i++)
			used += (size_t)snprintf(buf + used, size - used, " %s=%s", o->ext->key[i], o->ext->value[i]);
	}
}

int batch_eval_text(const pk_tnote *t, int first, char *buf, size_t size)
{
	/* the position after the move, from the first mover's view, in men */
	int s = t->side == first ? t->score_played : -t->score_played;
	if (score_is_win(s)) {
		int plies = score_plies(s) - 1;
		return snprintf(buf, size, "#%s%d", s > 0 ? "" : "-", plies);
	}
	return snprintf(buf, size, "%.2f", s / 100.0);
}

/* The database's value after a move, for the side that made it. */
static const char *egdb_word(int e)
{
	return e == 3 ? " database: a win" : e == 2 ? " database: a draw" : " database: a loss";
}

const char *batch_comment(const pk_bgame *j, int ply, int variations, char *buf, size_t size)
{
	if (!j->notes || ply < 1 || ply > bgame_plies(j) || size < 64)
		return NULL;
	const pk_tnote *t = &j->notes[ply - 1];
	if (!t->scored)
		return t->cls == CLASS_BOOK ? "{book}" : NULL;
	size_t k = 0;
	int nag = class_nag(t->cls);
	if (nag)
		k += (size_t)snprintf(buf + k, size - k, "$%d\n", nag);
	char ev[32];
	batch_eval_text(t, bgame_first(j), ev, sizeof ev);
	k += (size_t)snprintf(buf + k, size - k, "{[%%eval %s] [%%depth %d]%s}", ev, t->depth,
			      t->egdb ? egdb_word(t->egdb) : "");
	bool var = (variations >= 1 && (t->cls == CLASS_MISTAKE || t->cls == CLASS_BLUNDER)) ||
		   (variations >= 2 && t->cls == CLASS_INACCURACY);
	if (var && t->pv[0] && k + 16 < size) {
		/* The best line, numbered like the main line. */
		int number = replay_move_number(&j->rp, ply);
		k += (size_t)snprintf(buf + k, size - k, "\n(\n");
		k += movenum_line_as(t->pv, number, t->side == bgame_first(j), '\n', buf + k, size - k - 8);
		snprintf(buf + k, size - k, "\n)");
	}
	return buf;
}
