/* The game record: arena, tags, elements. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pdn/pdn.h"

void game_init(pk_game *g)
{
	memset(g, 0, sizeof *g);
}

void game_reset(pk_game *g)
{
	g->alen = 0;
	g->ntags = 0;
	g->nel = 0;
	g->oom = false;
	findings_reset(&g->findings);
}

void game_free(pk_game *g)
{
	free(g->arena);
	free(g->tags);
	free(g->els);
	findings_free(&g->findings);
	memset(g, 0, sizeof *g);
}

const char *game_tag(const pk_game *g, const char *name)
{
	for (int i = 0; i < g->ntags; i++)
		if (strcasecmp(g->arena + g->tags[i].name, name) == 0)
			return g->arena + g->tags[i].value;
	return NULL;
}

uint32_t game_store(pk_game *g, const char *s, size_t len)
{
	if (g->alen + len + 1 > g->acap) {
		if (g->alen + len + 1 > PDN_MAX_GAME) {
			g->oom = true;
			return UINT32_MAX;
		}
		size_t cap = g->acap ? g->acap : 4096;
		while (cap < g->alen + len + 1)
			cap *= 2;
		char *a = realloc(g->arena, cap);
		if (!a) {
			g->oom = true;
			return UINT32_MAX;
		}
		g->arena = a;
		g->acap = cap;
	}
	uint32_t off = (uint32_t)g->alen;
	memcpy(g->arena + off, s, len);
	g->arena[off + len] = 0;
	g->alen += len + 1;
	return off;
}

int game_add_tag(pk_game *g, const char *name, size_t nlen, const char *value, size_t vlen,
		 uint32_t line, uint32_t col)
{
	if (g->ntags == g->tagcap) {
		int cap = g->tagcap ? g->tagcap * 2 : 16;
		pk_tag *t = realloc(g->tags, sizeof *t * (size_t)cap);
		if (!t) {
			g->oom = true;
			return -1;
		}
		g->tags = t;
		g->tagcap = cap;
	}
	uint32_t n = game_store(g, name, nlen), v = game_store(g, value, vlen);
	if (n == UINT32_MAX || v == UINT32_MAX)
		return -1;
	g->tags[g->ntags++] = (pk_tag){ n, v, line, col };
	return 0;
}

pk_el *game_add_el(pk_game *g, int kind, int depth, uint32_t line, uint32_t col,
		   const char *text, size_t len)
{
	if (g->nel == g->elcap) {
		int cap = g->elcap ? g->elcap * 2 : 256;
		if ((size_t)cap * sizeof(pk_el) > PDN_MAX_GAME) {
			g->oom = true;
			return NULL;
		}
		pk_el *e = realloc(g->els, sizeof *e * (size_t)cap);
		if (!e) {
			g->oom = true;
			return NULL;
		}
		g->els = e;
		g->elcap = cap;
	}
	uint32_t off = game_store(g, text ? text : "", text ? len : 0);
	if (off == UINT32_MAX)
		return NULL;
	pk_el *e = &g->els[g->nel++];
	*e = (pk_el){ .kind = (uint8_t)kind, .depth = (uint8_t)(depth > 255 ? 255 : depth),
		      .line = line, .col = col, .off = off, .len = (uint32_t)(text ? len : 0) };
	return e;
}
