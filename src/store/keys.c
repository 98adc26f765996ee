/* Keys the store sorts and matches by: dates, player names, and moves as ordinals. */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "store/internal.h"
#include "base/hash.h"


int32_t store_date_key(const char *d)
{
	if (!d)
		return 0;
	int part[3] = { -1, -1, -1 }, lens[3] = { 0, 0, 0 }, n = 0;
	const char *p = d;
	while (*p && n < 3) {
		while (*p == ' ')
			p++;
		if (isdigit((unsigned char)*p)) {
			int v = 0, len = 0;
			while (isdigit((unsigned char)*p) && len < 8) {
				v = v * 10 + (*p++ - '0');
				len++;
			}
			part[n] = v;
			lens[n++] = len;
		} else if (*p == '?') {
			while (*p == '?')
				p++;
			part[n] = 0;
			lens[n++] = 2;
		} else {
			break;
		}
		if (*p == '.' || *p == '-' || *p == '/')
			p++;
		else
			break;
	}
	int y = 0, m = 0, dd = 0;
	if (n >= 1 && lens[0] == 4) {            /* YYYY.MM.DD, YYYY-MM-DD, YYYY. */
		y = part[0];
		m = n > 1 ? part[1] : 0;
		dd = n > 2 ? part[2] : 0;
	} else if (n == 3 && lens[2] == 4) {     /* D.M.YYYY */
		y = part[2];
		m = part[1];
		dd = part[0];
	} else {
		return 0;
	}
	if (y < 1000 || y > 9999)
		return 0;
	if (m < 0 || m > 12)
		m = 0;
	if (dd < 0 || dd > 31)
		dd = 0;
	return y * 10000 + m * 100 + dd;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The ASCII letter of a Latin-1 letter (U+00C0..U+00FF, the second byte of its UTF-8
 * form after 0xC3), or 0. */
static char fold_latin1(unsigned char b)
{
	static const char map[] = "aaaaaaaceeeeiiiidnooooo/ouuuuyts"   /* 0x80 .. 0x9F */
				  "aaaaaaaceeeeiiiidnooooo/ouuuuyty";  /* 0xA0 .. 0xBF */
	if (b < 0x80 || b > 0xBF)
		return 0;
	char c = map[b - 0x80];
	return c == '/' ? 0 : c;
}

void store_name_key(const char *name, char *out, size_t size)
{
	char buf[256], *words[32];
	int nw = 0;
	size_t k = 0;
	/* Whether the name is written in lower case anywhere: then a word of two or three
	 * capitals is initials ("MF Tinsley", "AA Long"), else a name in capitals ("LEE"). */
	bool lower = false;
	for (const char *p = name; *p; p++)
		lower = lower || islower((unsigned char)*p);
	for (const char *p = name; *p && k < sizeof buf - 2; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == 0xC3 && fold_latin1((unsigned char)p[1])) {
			buf[k++] = fold_latin1((unsigned char)*++p);   /* accents: "Müller" is "muller" */
		} else if (isalnum(c) || c >= 0x80) {
			int run = 0;
			while (lower && isupper((unsigned char)p[run]))
				run++;
			if (lower && (run == 2 || run == 3) && !isalnum((unsigned char)p[run]) && (unsigned char)p[run] < 0x80 &&
			    (p == name || !isalnum((unsigned char)p[-1]))) {
				for (int i = 0; i < run && k < sizeof buf - 2; i++) {
					buf[k++] = (char)tolower((unsigned char)p[i]);
					buf[k++] = ' ';
				}
				p += run - 1;
				continue;
			}
			buf[k++] = (char)tolower(c);
		} else if (c == '\'') {
			continue;
		} else if (k > 0 && buf[k - 1] != ' ') {
			buf[k++] = ' ';
		}
	}
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = 0;
	for (char *t = strtok(buf, " "); t && nw < 32; t = strtok(NULL, " "))
		words[nw++] = t;
	qsort(words, (size_t)nw, sizeof words[0], cmp_str);
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < nw && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? " " : "", words[i]);
}

static int put_ordinal(int o, uint8_t *buf, int n, int cap)
{
	if (o < 255) {
		if (n + 1 > cap)
			return -1;
		buf[n++] = (uint8_t)o;
	} else {
		if (n + 3 > cap)
			return -1;
		buf[n++] = 255;
		buf[n++] = (uint8_t)(o & 0xFF);
		buf[n++] = (uint8_t)(o >> 8);
	}
	return n;
}

int store_encode_ordinals(const int *ord, int count, uint8_t *buf, int cap)
{
	int n = 0;
	for (int i = 0; i < count && n >= 0; i++) {
		assert(ord[i] >= 0 && ord[i] < 65536);
		n = put_ordinal(ord[i], buf, n, cap);
	}
	return n;
}

int store_encode_moves(const pk_replay *rp, uint8_t *buf, int cap)
{
	int n = 0;
	for (int i = 0; i < rp->nply && n >= 0; i++) {
		int o = rp->plies[i].ordinal;
		assert(o < rp->plies[i].nlegal && o < 65536);
		if (o < 0)
			break;   /* a set-up: the ordinals stop here (the move text keeps the rest) */
		n = put_ordinal(o, buf, n, cap);
	}
	return n;
}

int store_decode_moves(const uint8_t *buf, int len, int *ord, int cap)
{
	int n = 0;
	for (int i = 0; i < len && n < cap; i++) {
		if (buf[i] < 255)
			ord[n++] = buf[i];
		else if (i + 2 < len) {
			ord[n++] = buf[i + 1] | buf[i + 2] << 8;
			i += 2;
		} else
			break;
	}
	return n;
}

int store_date_bound(const char *s, bool end, int32_t *key)
{
	int part[3] = { 0, end ? 99 : 0, end ? 99 : 0 }, n = 0;
	const char *p = s;
	while (n < 3) {
		if (!isdigit((unsigned char)*p))
			return -1;
		int v = 0, len = 0;
		while (isdigit((unsigned char)*p) && len < 5) {
			v = v * 10 + (*p++ - '0');
			len++;
		}
		if ((n == 0 && len != 4) || (n > 0 && len > 2))
			return -1;
		part[n++] = v;
		if (!*p)
			break;
		if (*p != '-' && *p != '.' && *p != '/')
			return -1;
		p++;
	}
	if (*p || (n > 1 && (part[1] < 1 || part[1] > 12)) || (n > 2 && (part[2] < 1 || part[2] > 31)))
		return -1;
	*key = part[0] * 10000 + part[1] * 100 + part[2];
	return 0;
}
