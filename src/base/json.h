/* JSON text: strings escaped so that the output is valid JSON whatever the input holds,
 * and a growable text buffer to build documents in (the web API's answers). */
#ifndef PK_JSON_H
#define PK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include "base/port.h"

/* s as a JSON string literal (quotes included) through put: '"' and '\' escaped,
 * controls as \u00XX, U+2028 and U+2029 escaped, and any byte that is not valid UTF-8
 * as \ufffd. */
void json_escape(const char *s, void (*put)(void *ctx, const char *p, size_t n), void *ctx);

/* A text buffer: always NUL-terminated; once an allocation fails, failed is set and
 * further appends do nothing (one check at the end is enough). */
typedef struct {
	char *p;
	size_t n, cap;
	bool failed;
} pk_buf;

void buf_init(pk_buf *b);
void buf_free(pk_buf *b);
void buf_add(pk_buf *b, const char *s, size_t n);
void buf_str(pk_buf *b, const char *s);
void buf_printf(pk_buf *b, const char *fmt, ...) PK_PRINTF(2, 3);
/* s as a JSON string literal; NULL as null. */
void buf_json(pk_buf *b, const char *s);
/* "key": with the separating comma when the object already has a member (first is the
 * caller's flag, set to false here). */
void buf_key(pk_buf *b, bool *first, const char *key);

#endif
