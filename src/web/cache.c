/* The answers of `pdnkit serve` kept while the store is unchanged (web/cache.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/json.h"
#include "web/cache.h"

struct web_cache_slot {
	char *key;                /* the call and its arguments; NULL: a free slot */
	char *body;
	size_t len;
	uint64_t version;         /* the store's, when it was made */
	uint64_t used;
	bool making;              /* a request is making it: the others wait */
};

struct web_cache {
	pthread_mutex_t cmu;
	pthread_cond_t cache_done;    /* an answer being made was made (or given up) */
	web_cache_slot cache[CACHE_SLOTS];
	uint64_t tick;
	long hits, misses;
};

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

uint64_t cache_file_version(const char *db_path)
{
	uint64_t v = 1469598103934665603ull;
	static const char *const ext[] = { "", "-wal" };
	for (int i = 0; i < 2; i++) {
		char path[4200];
		struct stat st;
		snprintf(path, sizeof path, "%s%s", db_path, ext[i]);
		if (stat(path, &st) < 0) {
			v = mix(v, 0);
			continue;
		}
		v = mix(v, (uint64_t)st.st_size);
		v = mix(v, (uint64_t)st.st_mtim.tv_sec);
		v = mix(v, (uint64_t)st.st_mtim.tv_nsec);
		v = mix(v, (uint64_t)st.st_ino);
	}
	return v;
}

/* The call and its arguments, as one string (NULL: out of memory). */
char *cache_key(const char *api, const http_request *rq)
{
	pk_buf k;
	buf_init(&k);
	buf_str(&k, api);
	for (int i = 0; i < rq->nargs; i++) {
		buf_str(&k, "\n");
		buf_str(&k, rq->name[i]);
		buf_str(&k, "=");
		buf_str(&k, rq->value[i]);
	}
	if (k.failed) {
		buf_free(&k);
		return NULL;
	}
	return k.p;
}

static web_cache_slot *cache_find(web_cache *w, const char *key)
{
	for (int i = 0; i < CACHE_SLOTS; i++)
		if (w->cache[i].key && !strcmp(w->cache[i].key, key))
			return &w->cache[i];
	return NULL;
}

static void cache_drop(web_cache_slot *e)
{
	free(e->key);
	free(e->body);
	memset(e, 0, sizeof *e);
}

web_cache_slot *cache_get(web_cache *w, char *key, uint64_t version, double wait, char **body, size_t *len)
{
	*body = NULL;
	/* how long to wait for an answer being made (the store's own limit ends a slow
	 * query before that) */
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	double whole = wait > 0 ? wait : 1;
	until.tv_sec += (time_t)whole;
	until.tv_nsec += (long)((whole - (double)(time_t)whole) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->cmu);
	web_cache_slot *e;
	for (;;) {
		e = cache_find(w, key);
		if (!e)
			break;
		if (!e->making) {
			if (e->version != version) {
				cache_drop(e);
				e = NULL;
				break;
			}
			e->used = ++w->tick;
			if ((*body = malloc(e->len + 1))) {
				memcpy(*body, e->body, e->len + 1);
				*len = e->len;
				w->hits++;
			}
			pthread_mutex_unlock(&w->cmu);
			free(key);
			return NULL;
		}
		/* being made: wait for it */
		if (pthread_cond_timedwait(&w->cache_done, &w->cmu, &until) != 0) {
			pthread_mutex_unlock(&w->cmu);
			free(key);
			return NULL;
		}
	}
	w->misses++;
	web_cache_slot *slot = NULL;
	for (int i = 0; i < CACHE_SLOTS; i++) {
		web_cache_slot *c = &w->cache[i];
		if (c->making)
			continue;
		if (!c->key) {
			slot = c;
			break;
		}
		if (!slot || c->used < slot->used)
			slot = c;
	}
	if (slot) {
		cache_drop(slot);
		slot->key = key;
		slot->version = version;
		slot->making = true;
		slot->used = ++w->tick;
	} else {
		free(key);
	}
	pthread_mutex_unlock(&w->cmu);
	return slot;
}

void cache_put(web_cache *w, web_cache_slot *e, const char *body, size_t len)
{
	pthread_mutex_lock(&w->cmu);
	e->making = false;
	if (body && len <= CACHE_MAX && (e->body = malloc(len + 1))) {
		memcpy(e->body, body, len);
		e->body[len] = 0;
		e->len = len;
	} else {
		cache_drop(e);
	}
	pthread_cond_broadcast(&w->cache_done);
	pthread_mutex_unlock(&w->cmu);
}

void cache_free(web_cache *w)
{
	if (!w)
		return;
	for (int i = 0; i < CACHE_SLOTS; i++)
		cache_drop(&w->cache[i]);
	pthread_cond_destroy(&w->cache_done);
	pthread_mutex_destroy(&w->cmu);
	free(w);
}

web_cache *cache_new(void)
{
	web_cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	pthread_mutex_init(&c->cmu, NULL);
	pthread_cond_init(&c->cache_done, NULL);
	return c;
}

void cache_counts(web_cache *c, long *hits, long *misses)
{
	pthread_mutex_lock(&c->cmu);
	*hits = c->hits;
	*misses = c->misses;
	pthread_mutex_unlock(&c->cmu);
}
