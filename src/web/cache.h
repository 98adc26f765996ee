/* The answers of `pdnkit serve` kept while the store is unchanged: a call of the store
 * (games, game, explorer, stats, players) answers the same as long as the store is the
 * same. The store's version is read from its files (the database and its write-ahead
 * log: any commit, by the server or by another program, changes their size or time),
 * so nothing is served stale. Requests for an answer being made wait for it, so fifty
 * clients asking for the statistics at once make them once. Thread-safe. */
#ifndef PK_WEB_CACHE_H
#define PK_WEB_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "web/http.h"

#define CACHE_SLOTS 128                /* answers kept (the least recently used go) */
#define CACHE_MAX (8u << 20)           /* bytes of one answer kept at most */

typedef struct web_cache web_cache;
typedef struct web_cache_slot web_cache_slot;

web_cache *cache_new(void);             /* NULL when out of memory */
void cache_free(web_cache *c);          /* NULL is fine */

/* The version of the store at path, from the files' sizes, times and inodes. */
uint64_t cache_file_version(const char *path);
/* The call and its arguments as one string (malloc'ed; NULL: out of memory). */
char *cache_key(const char *api, const http_request *rq);

/* The answer kept for key at version: a malloc'ed copy in *body (*len bytes) and NULL
 * returned. Otherwise *body is NULL and the slot this request is to make the answer in
 * is returned (NULL: none free, or another request took longer than wait seconds to
 * make it; make it without keeping it); the request must then call cache_put. key is
 * taken (freed or kept). */
web_cache_slot *cache_get(web_cache *c, char *key, uint64_t version, double wait, char **body, size_t *len);
/* The answer made in slot e: kept when body is not NULL (and not too large), else the
 * slot freed; the requests waiting for it go on. */
void cache_put(web_cache *c, web_cache_slot *e, const char *body, size_t len);
/* Answers served kept, and made. */
void cache_counts(web_cache *c, long *hits, long *misses);

#endif
