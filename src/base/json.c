/* JSON strings and the text buffer (see json.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/json.h"
#include "base/utf8.h"

void json_escape(const char *s, void (*put)(void *ctx, const char *p, size_t n), void *ctx)
{
	put(ctx, "\"", 1);
	size_t n = strlen(s);
	for (size_t i = 0, k; i < n; i += k) {
		const unsigned char *p = (const unsigned char *)s + i;
		uint32_t cp;
		char e[8];
		k = utf8_char(p, n - i, &cp);
		if (k == 0) {
			put(ctx, "\\ufffd", 6);   /* a byte that is no UTF-8: never passed on */
			k = 1;
		} else if (cp == '"' || cp == '\\') {
			e[0] = '\\';
			e[1] = (char)cp;
			put(ctx, e, 2);
		} else if (cp == '\n') {
			put(ctx, "\\n", 2);
		} else if (cp == '\t') {
			put(ctx, "\\t", 2);
		} else if (utf8_is_control(cp) || cp == 0x2028 || cp == 0x2029) {
			snprintf(e, sizeof e, "\\u%04x", (unsigned)cp);
			put(ctx, e, 6);
		} else {
			put(ctx, (const char *)p, k);
		}
	}
	put(ctx, "\"", 1);
}

void buf_init(pk_buf *b) { memset(b, 0, sizeof *b); }

void buf_free(pk_buf *b)
{
	free(b->p);
	buf_init(b);
}

static bool grow(pk_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->n + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->n + more + 1) {
		if (cap > (SIZE_MAX >> 2)) {
			b->failed = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(b->p, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void buf_add(pk_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void buf_str(pk_buf *b, const char *s) { buf_add(b, s, strlen(s)); }

void buf_printf(pk_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char small[256];
	int k = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k < sizeof small) {
		buf_add(b, small, (size_t)k);
		return;
	}
	if (!grow(b, (size_t)k))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

static void put_buf(void *ctx, const char *p, size_t n) { buf_add(ctx, p, n); }

void buf_json(pk_buf *b, const char *s)
{
	if (!s)
		buf_str(b, "null");
	else
		json_escape(s, put_buf, b);
}

void buf_key(pk_buf *b, bool *first, const char *key)
{
	if (!*first)
		buf_add(b, ",", 1);
	*first = false;
	buf_json(b, key);
	buf_add(b, ":", 1);
}
