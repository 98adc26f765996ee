/* The one walk over games: files or the store in, replayed games out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "store/games.h"

struct pk_games {
	pk_source src;
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

int games_next(pk_games *it, pk_game **g, pk_replay **rp)
{
	if (it->src.store)
		return next_stored(it, g, rp);
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

const char *games_error(const pk_games *it) { return it->err; }

void games_take(pk_games *it, pk_game *g, pk_replay *rp)
{
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
	return it->r ? it->fi : it->fi - 1;
}

const char *games_file(const pk_games *it)
{
	if (it->src.store)
		return "(store)";
	int i = it->r ? it->fi : it->fi - 1;
	return i >= 0 && i < it->src.nfiles ? it->src.files[i] : "";
}

int64_t games_id(const pk_games *it) { return it->src.store ? it->id : 0; }

void games_progress(const pk_games *it, uint64_t *done, uint64_t *total)
{
	if (it->src.store) {
		*done = it->next;
		*total = it->nids;
	} else {
		*done = it->r ? pdn_bytes_read(it->r) : 0;
		*total = it->size;
	}
}

int games_unreadable(const pk_games *it) { return it->unreadable; }

void games_close(pk_games *it)
{
	if (!it)
		return;
	if (it->r)
		pdn_close(it->r);
	game_free(&it->g);
	replay_free(&it->rp);
	free(it->ids);
	free(it);
}
