/* UTF-8 as RFC 3629 has it: no overlong forms, no surrogates (U+D800..U+DFFF), nothing
 * above U+10FFFF. One definition for the reader that checks input and the writers that
 * must never pass on an invalid byte (JSON, HTML, SVG, terminals). */
#ifndef PK_UTF8_H
#define PK_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the valid character at s (1..4; n bytes are there), or 0 when the
 * bytes there are no valid UTF-8. The code point into *cp when cp is not NULL. */
static inline size_t utf8_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	if (n == 0)
		return 0;
	unsigned c = s[0];
	size_t k;
	uint32_t v, lo = 0x80, hi = 0xBF;
	if (c < 0x80) {
		if (cp)
			*cp = c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		k = 1;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		k = 2;
		v = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0;          /* no overlong form */
		else if (c == 0xED)
			hi = 0x9F;          /* no surrogate */
	} else if (c >= 0xF0 && c <= 0xF4) {
		k = 3;
		v = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;          /* no overlong form */
		else if (c == 0xF4)
			hi = 0x8F;          /* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (n < k + 1 || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t j = 1; j <= k; j++) {
		if (j > 1 && (s[j] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (s[j] & 0x3F);
	}
	if (cp)
		*cp = v;
	return k + 1;
}

/* Whether a code point is a control: C0 (below U+0020), DEL and C1 (U+0080..U+009F).
 * Such characters move a terminal's cursor or clear its screen, and are not allowed in
 * XML; bidirectional overrides (U+202A..U+202E, U+2066..U+2069) reorder what follows. */
static inline int utf8_is_control(uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }
static inline int utf8_is_bidi(uint32_t cp) { return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069); }

#endif
