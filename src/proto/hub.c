/* The Hub protocol's text. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "proto/hub.h"

/* Splits "cmd a=1 b="x y" flag" in place; returns the command, or NULL for a blank line. */
char *hub_parse(char *s, hub_line *l)
{
	l->n = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	char *cmd = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = 0;
	while (l->n < HUB_MAX_ARGS) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		l->name[l->n] = s;
		while (*s && *s != '=' && !isspace((unsigned char)*s))
			s++;
		char *value = NULL;
		if (*s == '=') {
			*s++ = 0;
			if (*s == '"') {
				value = ++s;
				while (*s && *s != '"')
					s++;
			} else {
				value = s;
				while (*s && !isspace((unsigned char)*s))
					s++;
			}
		}
		if (*s)
			*s++ = 0;
		l->value[l->n++] = value ? value : (char *)"";
	}
	return cmd;
}

const char *hub_arg(const hub_line *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], name))
			return l->value[i];
	return NULL;
}

/* ---- positions and moves in Hub's form ---- */

/* "W" or "B", then 32 of w, b, W, B, e. */
int hub_pos(const char *s, pk_pos *p)
{
	if (strlen(s) != 33 || (s[0] != 'W' && s[0] != 'B'))
		return -1;
	pos_clear(p, s[0] == 'W' ? PK_WHITE : PK_BLACK);
	int men[2] = { 0, 0 };
	for (int sq = 1; sq <= 32; sq++) {
		char ch = s[sq];
		if (ch == 'e')
			continue;
		if (!strchr("wbWB", ch))
			return -1;
		int col = tolower((unsigned char)ch) == 'w' ? PK_WHITE : PK_BLACK;
		if (++men[col] > 12)
			return -1;
		pos_put(p, sq, col, isupper((unsigned char)ch));
	}
	return 0;
}


void hub_pos_text(const pk_pos *p, char out[34])
{
	out[0] = p->stm == PK_WHITE ? 'W' : 'B';
	for (int sq = 1; sq <= 32; sq++) {
		int col;
		bool king;
		char ch = 'e';
		if (pos_piece_at(p, sq, &col, &king))
			ch = col == PK_WHITE ? (king ? 'W' : 'w') : (king ? 'B' : 'b');
		out[sq] = ch;
	}
	out[33] = 0;
}

/* A move in Hub's form: "from-to", or "fromxto" followed by "xN" for each piece taken. */
void hub_move_text(const pk_pos *p, const pk_move *m, bool pdn, char *buf, size_t size)
{
	if (pdn) {
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(p, m, false, mv);
		snprintf(buf, size, "%s", mv);
		return;
	}
	if (!move_is_capture(m)) {
		snprintf(buf, size, "%d-%d", m->from + 1, move_to(m) + 1);
		return;
	}
	size_t n = (size_t)snprintf(buf, size, "%dx%d", m->from + 1, move_to(m) + 1);
	for (bb_t c = m->captured; c && n < size; c &= c - 1)
		n += (size_t)snprintf(buf + n, size - n, "x%d", __builtin_ctzll((unsigned long long)c) + 1);
}

/* The legal move a Hub (or PDN) move names, or false. */
bool hub_read_move(const pk_pos *p, const char *text, bool pdn, pk_move *out)
{
	if (pdn) {
		pk_move m[2];
		char why[200];
		if (replay_read_move(p, text, m, 2, why, sizeof why) != 1)
			return false;
		*out = m[0];
		return true;
	}
	int sq[16], n = 0;
	const char *s = text;
	while (n < 16) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < 1 || v > 32)
			return false;
		sq[n++] = (int)v;
		if (!*end)
			break;
		if (*end != '-' && *end != 'x')
			return false;
		s = end + 1;
	}
	if (n < 2)
		return false;
	bb_t taken = 0;
	for (int i = 2; i < n; i++)
		taken |= bb_sq(sq[i] - 1);
	pk_movelist ml;
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		const pk_move *m = &ml.m[i];
		if (m->from + 1 == sq[0] && move_to(m) + 1 == sq[1] && (n == 2 ? true : m->captured == taken)) {
			if (n == 2 && move_is_capture(m)) {
				/* "fromxto" alone: fine when only one capture has those ends. */
				for (int k = i + 1; k < ml.n; k++)
					if (ml.m[k].from == m->from && move_to(&ml.m[k]) == move_to(m) &&
					    ml.m[k].captured != m->captured)
						return false;
			}
			*out = *m;
			return true;
		}
	}
	return false;
}


/* ---- the other variants ---- */

bool hub_variant(const char *name, const pk_variant **v)
{
	if (!strcmp(name, "english")) {
		*v = NULL;
		return true;
	}
	const char *key = !strcmp(name, "normal") || !strcmp(name, "international") ? "international"
			  : !strcmp(name, "frisian")                                   ? "frisian"
											: NULL;
	if (!key)
		return false;
	*v = variant_by_name(key);
	return *v != NULL;
}

int hub_vpos(const pk_variant *v, const char *s, pk_vpos *p)
{
	int n = variant_squares(v);
	if ((int)strlen(s) != n + 1 || (s[0] != 'W' && s[0] != 'B'))
		return -1;
	vpos_clear(v, p, s[0] == 'W' ? PK_WHITE : PK_BLACK);
	for (int sq = 1; sq <= n; sq++) {
		switch (s[sq]) {
		case 'e': break;
		case 'w': p->sq[sq] = VP_WMAN; break;
		case 'b': p->sq[sq] = VP_BMAN; break;
		case 'W': p->sq[sq] = VP_WKING; break;
		case 'B': p->sq[sq] = VP_BKING; break;
		default: return -1;
		}
	}
	char err[160];
	return vpos_check(p, err, sizeof err) < 0 ? -1 : 0;
}

void hub_vpos_text(const pk_vpos *p, char *out, size_t size)
{
	int n = variant_squares(p->v);
	size_t k = 0;
	if (size < 2)
		return;
	out[k++] = p->stm == PK_WHITE ? 'W' : 'B';
	for (int sq = 1; sq <= n && k + 1 < size; sq++) {
		int pc = p->sq[sq];
		out[k++] = pc == VP_WMAN ? 'w' : pc == VP_BMAN ? 'b' : pc == VP_WKING ? 'W' : pc == VP_BKING ? 'B' : 'e';
	}
	out[k] = 0;
}

static int cmp_u8(const void *a, const void *b) { return *(const uint8_t *)a - *(const uint8_t *)b; }

void hub_vmove_text(const pk_vpos *p, const pk_vmove *m, bool pdn, char *buf, size_t size)
{
	if (pdn) {
		vmove_text(p->v, m, false, buf, size);
		return;
	}
	if (!m->ncap) {
		snprintf(buf, size, "%d-%d", m->from, m->to);
		return;
	}
	uint8_t caps[VAR_MAX_CAP];
	memcpy(caps, m->cap, m->ncap);
	qsort(caps, m->ncap, 1, cmp_u8);
	size_t n = (size_t)snprintf(buf, size, "%dx%d", m->from, m->to);
	for (int i = 0; i < m->ncap && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "x%d", caps[i]);
}

bool hub_read_vmove(const pk_vpos *p, const char *text, bool pdn, pk_vmove *out)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return false;
	int n = vgen(p, ml), found = -1, matches = 0;
	for (int i = 0; i < n; i++) {
		char full[400], shrt[400];
		if (pdn) {
			vmove_text(p->v, &ml->m[i], true, full, sizeof full);
			vmove_text(p->v, &ml->m[i], false, shrt, sizeof shrt);
		} else {
			hub_vmove_text(p, &ml->m[i], false, full, sizeof full);
			snprintf(shrt, sizeof shrt, "%d%c%d", ml->m[i].from, ml->m[i].ncap ? 'x' : '-', ml->m[i].to);
		}
		if (!strcmp(text, full)) {
			found = i;
			matches = 1;
			break;
		}
		if (!strcmp(text, shrt)) {
			found = i;
			matches++;
		}
	}
	bool ok = matches == 1;
	if (ok)
		*out = ml->m[found];
	free(ml);
	return ok;
}
