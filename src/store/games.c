/* The one walk over games: files or the store in, replayed games out. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "store/games.h"

/* Read ahead: a thread reads and replays games into a ring of slots while the caller
 * works on the one it was given. */
#define AHEAD 32

typedef struct {
	int kind;                /* what games_next returns for it */
	pk_game g;
	pk_replay rp;
	int fi;                  /* games_file_index */
	int unreadable;          /* games_unreadable */
	uint64_t done, total;    /* games_progress */
	char err[600];
} slot;

typedef struct {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t item, space;
	slot ring[AHEAD];
	int head, count;         /* the oldest slot (the caller's, once given), slots filled */
	bool given;              /* ring[head] is the caller's */
	bool stop;               /* the caller is done: the thread ends */
	bool want_item, want_space;   /* the caller, the thread waits: only then a signal */
} ahead;

struct pk_games {
	pk_source src;
	ahead *a;                /* reading ahead (files only), or NULL */
	pk_game g;
	pk_replay rp;
	/* files */
	int fi;                  /* the file being read, or the next to open */
	pk_reader *r;
	uint64_t size;
	/* store */
	int64_t *ids;
	size_t nids, cap, next;
	int64_t id;
	int loaded;              /* the stored game: 1 loaded, -1 failed, 0 not found */
	int unreadable;
	char err[600];
};

static int collect_id(void *ctx, const pk_row *row)
{
	pk_games *it = ctx;
	if (it->nids == it->cap) {
		size_t cap = it->cap ? 2 * it->cap : 256;
		int64_t *v = realloc(it->ids, cap * sizeof *v);
		if (!v) {
			it->loaded = -1;
			return 1;
		}
		it->ids = v;
		it->cap = cap;
	}
	it->ids[it->nids++] = row->id;
	return 0;
}

pk_games *games_open(const pk_source *src, char *err, size_t errsize)
{
	pk_games *it = calloc(1, sizeof *it);
	if (!it) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	it->src = *src;
	game_init(&it->g);
	replay_init(&it->rp);
	if (src->store) {
		pk_filter all;
		filter_init(&all);
		if (store_query(src->store, src->filter ? src->filter : &all, collect_id, it) < 0 || it->loaded < 0) {
			snprintf(err, errsize, "%s", it->loaded < 0 ? "out of memory" : store_error(src->store));
			games_close(it);
			return NULL;
		}
	}
	return it;
}

static int stored_row(void *ctx, const pk_row *row)
{
	pk_games *it = ctx;
	it->loaded = store_load_game(it->src.store, row, &it->g, &it->rp) < 0 ? -1 : 1;
	return 1;
}

static int next_stored(pk_games *it, pk_game **g, pk_replay **rp)
{
	while (it->next < it->nids) {
		pk_filter f;
		filter_init(&f);
		f.id = it->id = it->ids[it->next++];
		it->loaded = 0;
		if (store_query(it->src.store, &f, stored_row, it) < 0 || it->loaded < 0) {
			snprintf(it->err, sizeof it->err, "stored game %lld: %s", (long long)it->id,
				 store_error(it->src.store));
			return GAMES_ERROR;
		}
		if (it->loaded == 0)
			continue;        /* deleted since the walk began */
		*g = &it->g;
		*rp = &it->rp;
		return GAMES_GAME;
	}
	return GAMES_END;
}

static int next_file(pk_games *it, pk_game **g, pk_replay **rp)
{
	for (;;) {
		if (!it->r) {
			if (it->fi >= it->src.nfiles)
				return GAMES_END;
			const char *file = it->src.files[it->fi];
			int e = 0;
			if (!(it->r = pdn_open(file, &e))) {
				it->fi++;
				it->unreadable++;
				snprintf(it->err, sizeof it->err, "cannot open '%s': %s", file, strerror(e));
				return GAMES_ERROR;
			}
			struct stat sb;
			size_t n = strlen(file);
			it->size = strcmp(file, "-") != 0 && stat(file, &sb) == 0 && S_ISREG(sb.st_mode) &&
					   !(n > 4 && !strcmp(file + n - 4, ".zst")) ? (uint64_t)sb.st_size : 0;
			pdn_set_stop(it->r, it->src.stop);
			replay_new_file(&it->rp);
		}
		int got = pdn_read(it->r, &it->g);
		if (got == 1) {
			if (it->src.no_replay) {
				it->rp.nply = 0;
			} else if (replay_game(&it->g, &it->rp) < 0) {
				snprintf(it->err, sizeof it->err, "out of memory replaying game %d of '%s'", it->g.index,
					 it->src.files[it->fi]);
				return GAMES_FATAL;
			}
			*g = &it->g;
			*rp = &it->rp;
			return GAMES_GAME;
		}
		if (got < 0)
			snprintf(it->err, sizeof it->err, "error reading '%s': %s", it->src.files[it->fi],
				 pdn_error(it->r));
		pdn_close(it->r);
		it->r = NULL;
		it->fi++;
		if (got < 0) {
			it->unreadable++;
			return GAMES_ERROR;
		}
	}
}

static int file_index(const pk_games *it) { return it->r ? it->fi : it->fi - 1; }

static void *ahead_thread(void *arg)
{
	pk_games *it = arg;
	ahead *a = it->a;
	for (int tail = 0;; tail = (tail + 1) % AHEAD) {
		pthread_mutex_lock(&a->mu);
		while (a->count == AHEAD && !a->stop) {
			a->want_space = true;   /* until half the ring is free */
			pthread_cond_wait(&a->space, &a->mu);
		}
		a->want_space = false;
		bool stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (stop)
			break;
		/* the slot at tail is free: only this thread touches it until it is counted */
		slot *sl = &a->ring[tail];
		pk_game *g;
		pk_replay *rp;
		sl->kind = next_file(it, &g, &rp);
		sl->fi = file_index(it);
		sl->unreadable = it->unreadable;
		sl->done = it->r ? pdn_bytes_read(it->r) : 0;
		sl->total = it->size;
		if (sl->kind == GAMES_GAME) {
			/* the game into the slot, the slot's old buffers to the reader */
			pk_game tg = sl->g;
			pk_replay tr = sl->rp;
			sl->g = it->g;
			sl->rp = it->rp;
			it->g = tg;
			it->rp = tr;
			memcpy(it->rp.file_hint, sl->rp.file_hint, sizeof sl->rp.file_hint);
			sl->err[0] = 0;
		} else {
			snprintf(sl->err, sizeof sl->err, "%s", it->err);
		}
		pthread_mutex_lock(&a->mu);
		a->count++;
		if (a->want_item)
			pthread_cond_signal(&a->item);
		pthread_mutex_unlock(&a->mu);
		if (sl->kind == GAMES_END || sl->kind == GAMES_FATAL)
			break;
	}
	return NULL;
}

static int next_ahead(pk_games *it, pk_game **g, pk_replay **rp)
{
	ahead *a = it->a;
	pthread_mutex_lock(&a->mu);
	if (a->given) {
		slot *cur = &a->ring[a->head];
		if (cur->kind == GAMES_END || cur->kind == GAMES_FATAL) {
			/* the walk is over: the same answer again */
			pthread_mutex_unlock(&a->mu);
			*g = &cur->g;
			*rp = &cur->rp;
			return cur->kind;
		}
		a->head = (a->head + 1) % AHEAD;
		a->count--;
		a->given = false;
		if (a->want_space && a->count <= AHEAD / 2)   /* woken to fill half the ring */
			pthread_cond_signal(&a->space);
	}
	while (a->count == 0) {
		a->want_item = true;
		pthread_cond_wait(&a->item, &a->mu);
	}
	a->want_item = false;
	a->given = true;
	slot *cur = &a->ring[a->head];
	pthread_mutex_unlock(&a->mu);
	*g = &cur->g;
	*rp = &cur->rp;
	return cur->kind;
}

/* The slot given to the caller last (reading ahead). */
static const slot *given(const pk_games *it)
{
	return it->a && it->a->given ? &it->a->ring[it->a->head] : NULL;
}

int games_next(pk_games *it, pk_game **g, pk_replay **rp)
{
	if (it->src.store)
		return next_stored(it, g, rp);
	if (it->src.read_ahead && !it->a) {
		ahead *a = calloc(1, sizeof *a);
		if (a) {
			for (int i = 0; i < AHEAD; i++) {
				game_init(&a->ring[i].g);
				replay_init(&a->ring[i].rp);
			}
			pthread_mutex_init(&a->mu, NULL);
			pthread_cond_init(&a->item, NULL);
			pthread_cond_init(&a->space, NULL);
			it->a = a;
			if (pthread_create(&a->th, NULL, ahead_thread, it) != 0) {
				/* no thread: read here */
				it->a = NULL;
				pthread_mutex_destroy(&a->mu);
				pthread_cond_destroy(&a->item);
				pthread_cond_destroy(&a->space);
				free(a);
			}
		}
		it->src.read_ahead = false;   /* tried once */
	}
	if (it->a)
		return next_ahead(it, g, rp);
	return next_file(it, g, rp);
}

const char *games_error(const pk_games *it)
{
	const slot *sl = given(it);
	return sl ? sl->err : it->err;
}

void games_take(pk_games *it, pk_game *g, pk_replay *rp)
{
	if (it->a && it->a->given) {
		slot *sl = &it->a->ring[it->a->head];
		*g = sl->g;
		*rp = sl->rp;
		game_init(&sl->g);
		replay_init(&sl->rp);
		return;
	}
	*g = it->g;
	*rp = it->rp;
	game_init(&it->g);
	replay_init(&it->rp);
	memcpy(it->rp.file_hint, rp->file_hint, sizeof rp->file_hint);
}

int games_file_index(const pk_games *it)
{
	if (it->src.store)
		return 0;
	const slot *sl = given(it);
	return sl ? sl->fi : file_index(it);
}

const char *games_file(const pk_games *it)
{
	if (it->src.store)
		return "(store)";
	int i = games_file_index(it);
	return i >= 0 && i < it->src.nfiles ? it->src.files[i] : "";
}

int64_t games_id(const pk_games *it) { return it->src.store ? it->id : 0; }

void games_progress(const pk_games *it, uint64_t *done, uint64_t *total)
{
	if (it->src.store) {
		*done = it->next;
		*total = it->nids;
	} else if (given(it)) {
		*done = given(it)->done;
		*total = given(it)->total;
	} else {
		*done = it->r ? pdn_bytes_read(it->r) : 0;
		*total = it->size;
	}
}

int games_unreadable(const pk_games *it)
{
	const slot *sl = given(it);
	return sl ? sl->unreadable : it->unreadable;
}

void games_close(pk_games *it)
{
	if (!it)
		return;
	if (it->a) {
		ahead *a = it->a;
		pthread_mutex_lock(&a->mu);
		a->stop = true;
		pthread_cond_broadcast(&a->space);
		pthread_mutex_unlock(&a->mu);
		pthread_join(a->th, NULL);
		for (int i = 0; i < AHEAD; i++) {
			game_free(&a->ring[i].g);
			replay_free(&a->ring[i].rp);
		}
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->item);
		pthread_cond_destroy(&a->space);
		free(a);
	}
	if (it->r)
		pdn_close(it->r);
	game_free(&it->g);
	replay_free(&it->rp);
	free(it->ids);
	free(it);
}
