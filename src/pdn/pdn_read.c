/* The PDN reader: bytes to games. It streams through a fixed buffer, normalises line
 * ends, keeps every token's line and column, bounds everything it keeps, and never
 * gives up on a file: a problem becomes a finding and reading goes on. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/utf8.h"
#include "pdn/pdn.h"
#include "pdn/zio.h"

#define BUFSZ (1u << 16)
#define IS_DIGIT(c) ((unsigned)((c) - '0') < 10u)

struct pk_reader {
	pk_in *in;                 /* NULL when reading from memory */
	unsigned char *buf;
	size_t pos, len;
	bool owns_buf;
	uint64_t offset;           /* input offset of buf[pos] */
	uint32_t line, col;
	bool eof, started;
	char err[160];
	int games;
	char *scratch;             /* token, comment or tag value being collected */
	size_t slen, scap;
	char *conv;                /* ISO-8859-1 text converted to UTF-8 */
	size_t ccap;
	bool skipped_after_result; /* prose after the last result, reported with the next game */
	const volatile sig_atomic_t *stop;
	bool interrupted;
	uint32_t skipped_line, skipped_col;
};

static bool fill(pk_reader *r, size_t need)
{
	if (r->len - r->pos >= need)
		return true;
	if (!r->in || r->eof)
		return false;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
	while (r->len < need && !r->eof) {
		long n = r->stop && *r->stop ? -1 : zin_read(r->in, r->buf + r->len, BUFSZ - r->len);
		if (r->stop && *r->stop) {
			/* a signal: also a read that it interrupted (EINTR) ends here */
			snprintf(r->err, sizeof r->err, "interrupted");
			r->interrupted = r->eof = true;
		} else if (n < 0) {
			snprintf(r->err, sizeof r->err, "%s", zin_error(r->in));
			r->eof = true;
		} else if (n == 0) {
			r->eof = true;
		} else {
			r->len += (size_t)n;
		}
	}
	return r->len - r->pos >= need;
}

static inline int peek_at(pk_reader *r, size_t k)
{
	if (r->len - r->pos <= k && !fill(r, k + 1))
		return EOF;
	int c = r->buf[r->pos + k];
	return c == '\r' ? '\n' : c;
}

static inline int peek(pk_reader *r) { return peek_at(r, 0); }

static inline int get(pk_reader *r)
{
	if (r->pos >= r->len && !fill(r, 1))
		return EOF;
	int c = r->buf[r->pos++];
	r->offset++;
	if (c == '\r') {
		if (peek(r) == '\n') {
			r->pos++;
			r->offset++;
		}
		c = '\n';
	}
	if (c == '\n') {
		r->line++;
		r->col = 1;
	} else if ((c & 0xC0) != 0x80) {   /* columns count characters, not UTF-8 continuation bytes */
		r->col++;
	}
	return c;
}

void pdn_set_stop(pk_reader *r, const volatile sig_atomic_t *stop) { r->stop = stop; }
bool pdn_interrupted(const pk_reader *r) { return r->interrupted; }

/* Whether what the game holds so far could be PDN: a tag, a comment, a move number, a
 * result, or a move that starts with a square number. */
static bool looks_like_pdn(const pk_game *g)
{
	if (g->ntags > 0)
		return true;
	for (int i = 0; i < g->nel; i++) {
		const pk_el *e = &g->els[i];
		if (e->kind == EL_NUMBER || e->kind == EL_RESULT || e->kind == EL_SETUP || e->kind == EL_COMMENT ||
		    (e->kind == EL_MOVE && IS_DIGIT((unsigned char)g->arena[e->off])))
			return true;
	}
	return false;
}

/* Skips to the next line that starts with a tag ('['), or the end. */
static void skip_to_tag(pk_reader *r)
{
	for (int ch; (ch = get(r)) != EOF;)
		if (ch == '\n' && peek(r) == '[')
			break;
}

static pk_reader *reader_new(void)
{
	pk_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->line = 1;
	r->col = 1;
	r->scap = 256;
	r->scratch = malloc(r->scap);
	if (!r->scratch) {
		free(r);
		return NULL;
	}
	return r;
}

pk_reader *pdn_open(const char *path, int *err)
{
	pk_reader *r = reader_new();
	if (!r) {
		*err = ENOMEM;
		return NULL;
	}
	r->in = zin_open(path, err);
	r->buf = malloc(BUFSZ);
	r->owns_buf = true;
	if (!r->in || !r->buf) {
		if (r->in)
			*err = ENOMEM;
		pdn_close(r);
		return NULL;
	}
	return r;
}

pk_reader *pdn_open_mem(const char *buf, size_t len)
{
	pk_reader *r = reader_new();
	if (!r)
		return NULL;
	r->buf = (unsigned char *)buf;
	r->len = len;
	r->eof = true;
	return r;
}

const char *pdn_error(const pk_reader *r) { return r->err[0] ? r->err : NULL; }
uint64_t pdn_bytes_read(const pk_reader *r) { return r->offset; }

void pdn_close(pk_reader *r)
{
	if (!r)
		return;
	zin_close(r->in);
	if (r->owns_buf)
		free(r->buf);
	free(r->scratch);
	free(r->conv);
	free(r);
}

/* Scratch buffer: collects up to `limit` bytes, silently dropping the rest (the caller
 * reports the truncation). */
static void scratch_grow(pk_reader *r, int c);

static inline void scratch_put(pk_reader *r, int c, size_t limit)
{
	if (r->slen >= limit)
		return;
	if (r->slen + 1 >= r->scap) {
		scratch_grow(r, c);
		return;
	}
	r->scratch[r->slen++] = (char)c;
}

static void scratch_grow(pk_reader *r, int c)
{
	size_t cap = r->scap * 2;
	char *s = realloc(r->scratch, cap);
	if (!s)
		return;   /* the byte is dropped; limits keep this path rare */
	r->scratch = s;
	r->scap = cap;
	r->scratch[r->slen++] = (char)c;
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k) {
		if (s[i] < 0x80) {   /* ASCII, nearly all of it: at once */
			k = 1;
			continue;
		}
		if (!(k = utf8_char(s + i, n - i, NULL)))
			return false;
	}
	return true;
}

/* UTF-8 validity of s, NUL bytes allowed (they are replaced separately). */
static bool valid_utf8_but_nul(const unsigned char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i <= n; i++)
		if (i == n || s[i] == 0) {
			if (!valid_utf8(s + start, i - start))
				return false;
			start = i + 1;
		}
	return true;
}

/* The text as UTF-8: itself when valid, else a converted copy in the reader's buffer:
 * ISO-8859-1 read as such, NUL bytes (which would cut the text short wherever it goes)
 * replaced by U+FFFD. One warning per kind and game. */
static const char *to_utf8(pk_reader *r, pk_game *g, const char *s, size_t n, size_t *out,
			   uint32_t line, uint32_t col)
{
	*out = n;
	bool has_nul = memchr(s, 0, n) != NULL;
	if (!has_nul && valid_utf8((const unsigned char *)s, n))
		return s;
	bool invalid = !valid_utf8_but_nul((const unsigned char *)s, n);
	/* Text with valid multi-byte characters is UTF-8 with a few bad sequences (a
	 * surrogate, a code point above U+10FFFF, a cut character): those become U+FFFD.
	 * Text without any is ISO-8859-1. */
	bool some_utf8 = false;
	for (size_t i = 0, k; invalid && i < n && !some_utf8; i += k ? k : 1) {
		k = utf8_char((const unsigned char *)s + i, n - i, NULL);
		some_utf8 = k > 1;
	}
	bool latin1 = invalid && !some_utf8, repaired = invalid && some_utf8;
	if (r->ccap < n * 3 + 1) {
		char *c = realloc(r->conv, n * 3 + 1);
		if (!c) {
			g->oom = true;
			*out = 0;
			return "";
		}
		r->conv = c;
		r->ccap = n * 3 + 1;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t len;
		if (repaired && c >= 0x80) {
			if ((len = utf8_char((const unsigned char *)s + i, n - i, NULL)) == 0) {
				memcpy(r->conv + k, "\xEF\xBF\xBD", 3);
				k += 3;
			} else {
				memcpy(r->conv + k, s + i, len);
				k += len;
				i += len - 1;
			}
		} else if (c == 0) {
			memcpy(r->conv + k, "\xEF\xBF\xBD", 3);
			k += 3;
		} else if (c < 0x80 || !latin1) {
			r->conv[k++] = (char)c;
		} else {
			r->conv[k++] = (char)(0xC0 | (c >> 6));
			r->conv[k++] = (char)(0x80 | (c & 0x3F));
		}
	}
	if (latin1)
		findings_add_once(&g->findings, SEV_WARNING, "encoding", line, col, 0,
				  "text is not UTF-8; read as ISO-8859-1 and converted");
	if (repaired)
		findings_add_once(&g->findings, SEV_WARNING, "encoding", line, col, 0,
				  "invalid UTF-8 (a surrogate, a code point above U+10FFFF or a cut character) replaced by U+FFFD");
	if (has_nul)
		findings_add_once(&g->findings, SEV_WARNING, "nul-byte", line, col, 0,
				  "NUL bytes in text replaced by U+FFFD");
	*out = k;
	return r->conv;
}

static void skip_line(pk_reader *r)
{
	int c;
	while ((c = get(r)) != EOF && c != '\n')
		;
}


static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\v' || c == 0xA0; }

/* Characters that end a move-text token ('\r' among the spaces). */
static const unsigned char token_end[256] = {
	[0] = 1, [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1, ['\v'] = 1, [0xA0] = 1,
	['{'] = 1, ['}'] = 1, ['('] = 1, [')'] = 1, ['['] = 1, [']'] = 1, [';'] = 1, ['$'] = 1,
};

static inline bool ends_token(int c)
{
	return c == EOF || token_end[c];
}

/* The rest of a token straight from the buffer when it lies there whole: most tokens
 * do, and copying them at once spares a call per byte. Returns false to fall back. */
static bool token_fast(pk_reader *r)
{
	const unsigned char *p = r->buf + r->pos, *end = r->buf + r->len;
	const unsigned char *q = p;
	while (q < end && !token_end[*q])
		q++;
	size_t n = (size_t)(q - p);
	if (q == end || r->slen + n >= PDN_MAX_TOKEN || r->slen + n + 1 >= r->scap)
		return false;
	memcpy(r->scratch + r->slen, p, n);
	r->slen += n;
	r->pos += n;
	r->offset += n;
	for (size_t i = 0; i < n; i++)
		r->col += (p[i] & 0xC0) != 0x80;
	return true;
}

static bool is_curly_open(pk_reader *r)   /* U+201C */
{
	return peek(r) == 0xE2 && peek_at(r, 1) == 0x80 && peek_at(r, 2) == 0x9C;
}
static bool is_curly_close(pk_reader *r)  /* U+201D */
{
	return peek(r) == 0xE2 && peek_at(r, 1) == 0x80 && peek_at(r, 2) == 0x9D;
}

/* [Name "value"]. Called with '[' next. */
static void read_tag(pk_reader *r, pk_game *g)
{
	uint32_t line = r->line, col = r->col;
	get(r);
	while (peek(r) == ' ' || peek(r) == '\t')
		get(r);
	char name[64];
	size_t nlen = 0;
	while (isalnum(peek(r)) || peek(r) == '_' || peek(r) == '-') {
		int c = get(r);
		if (nlen < sizeof name - 1)
			name[nlen++] = (char)c;
	}
	name[nlen] = 0;
	if (nlen == 0) {
		findings_add(&g->findings, SEV_WARNING, "bad-tag", line, col, 0,
			     "'[' not followed by a tag name; line skipped");
		skip_line(r);
		return;
	}
	while (peek(r) == ' ' || peek(r) == '\t')
		get(r);
	r->slen = 0;
	bool curly = false, truncated = false, unterminated = false;
	if (peek(r) == '"' || is_curly_open(r)) {
		curly = peek(r) != '"';
		for (int i = curly ? 3 : 1; i > 0; i--)
			get(r);
		for (;;) {
			/* Plain runs of the value straight from the buffer. */
			const unsigned char *p = r->buf + r->pos, *end = r->buf + r->len, *q = p;
			while (q < end && *q != '"' && *q != '\\' && *q != '\n' && *q != '\r' && *q != 0xE2 &&
			       r->slen + (size_t)(q - p) + 1 < r->scap && r->slen + (size_t)(q - p) < PDN_MAX_TAG_VALUE)
				q++;
			if (q > p) {
				size_t n = (size_t)(q - p);
				memcpy(r->scratch + r->slen, p, n);
				r->slen += n;
				r->pos += n;
				r->offset += n;
				for (size_t k = 0; k < n; k++)
					r->col += (p[k] & 0xC0) != 0x80;
			}
			int c = peek(r);
			if (c == EOF || c == '\n') {
				unterminated = true;
				break;
			}
			if (c == '\\' && (peek_at(r, 1) == '"' || peek_at(r, 1) == '\\')) {
				get(r);
				scratch_put(r, get(r), PDN_MAX_TAG_VALUE);
				continue;
			}
			if ((!curly && c == '"') || (curly && is_curly_close(r))) {
				/* A quote closes the value only when ']' (or the line end) follows;
				 * otherwise it is a quote inside the value, as in "The "Big" Match". */
				size_t k = curly ? 3 : 1;
				while (peek_at(r, k) == ' ' || peek_at(r, k) == '\t')
					k++;
				int after = peek_at(r, k);
				if (after == ']' || after == '\n' || after == EOF) {
					for (int i = curly ? 3 : 1; i > 0; i--)
						get(r);
					break;
				}
			}
			if (r->slen >= PDN_MAX_TAG_VALUE)
				truncated = true;
			scratch_put(r, get(r), PDN_MAX_TAG_VALUE);
		}
	} else {
		/* No quotes: the value runs to ']'. */
		while (peek(r) != ']' && peek(r) != '\n' && peek(r) != EOF) {
			if (r->slen >= PDN_MAX_TAG_VALUE)
				truncated = true;
			scratch_put(r, get(r), PDN_MAX_TAG_VALUE);
		}
		while (r->slen && (r->scratch[r->slen - 1] == ' ' || r->scratch[r->slen - 1] == '\t'))
			r->slen--;
		findings_add(&g->findings, SEV_WARNING, "bad-tag", line, col, 0,
			     "value of tag %s is not in quotes", name);
	}
	while (peek(r) == ' ' || peek(r) == '\t')
		get(r);
	if (peek(r) == ']')
		get(r);
	else if (!unterminated)
		findings_add(&g->findings, SEV_WARNING, "bad-tag", line, col, 0, "tag %s has no closing ']'", name);
	if (unterminated)
		findings_add(&g->findings, SEV_WARNING, "bad-tag", line, col, 0,
			     "value of tag %s has no closing quote", name);
	if (truncated)
		findings_add(&g->findings, SEV_WARNING, "too-long", line, col, 0,
			     "value of tag %s cut to %u bytes", name, PDN_MAX_TAG_VALUE);
	size_t vlen;
	const char *v = to_utf8(r, g, r->scratch, r->slen, &vlen, line, col);
	game_add_tag(g, name, nlen, v, vlen, line, col);
}

/* Whether the reader stands at a tag pair: '[', a name, spaces, a quote. */
static bool at_tag_pair(pk_reader *r)
{
	if (peek(r) != '[' || !isalpha(peek_at(r, 1)))
		return false;
	size_t k = 2;
	while (k < 64 && (isalnum(peek_at(r, k)) || peek_at(r, k) == '_'))
		k++;
	if (peek_at(r, k) != ' ' && peek_at(r, k) != '\t')
		return false;
	while (k < 80 && (peek_at(r, k) == ' ' || peek_at(r, k) == '\t'))
		k++;
	return peek_at(r, k) == '"';
}

static void read_comment(pk_reader *r, pk_game *g, int depth)
{
	uint32_t line = r->line, col = r->col;
	get(r);
	r->slen = 0;
	bool closed = false, recovered = false;
	bool line_blank = false;   /* the line just ended held nothing but spaces */
	bool blank_so_far = false; /* this line holds nothing but spaces so far */
	uint64_t total = 0;
	for (int c; (c = get(r)) != EOF;) {
		if (c == '}') {
			closed = true;
			break;
		}
		if (c == '\n') {
			line_blank = blank_so_far;
			blank_so_far = true;
			/* a tag pair at the start of a line after a blank line: the next game's
			 * tags, not this comment's text (as PGN readers recover) */
			if (line_blank && at_tag_pair(r)) {
				recovered = true;
				break;
			}
		} else if (c != ' ' && c != '\t') {
			blank_so_far = false;
		}
		total++;
		scratch_put(r, c, PDN_MAX_COMMENT);
	}
	if (recovered)
		findings_add(&g->findings, SEV_WARNING, "unterminated-comment", line, col, 0,
			     "comment opened here is not closed before the tag pairs of line %u: it ends there",
			     (unsigned)r->line);
	else if (!closed)
		findings_add(&g->findings, SEV_ERROR, "unterminated-comment", line, col, 0,
			     "comment opened here is never closed");
	if (total > PDN_MAX_COMMENT)
		findings_add(&g->findings, SEV_WARNING, "too-long", line, col, 0,
			     "comment of %llu bytes cut to %u", (unsigned long long)total, PDN_MAX_COMMENT);
	if (depth > PDN_MAX_DEPTH)
		return;
	size_t n;
	const char *text = to_utf8(r, g, r->scratch, r->slen, &n, line, col);
	game_add_el(g, EL_COMMENT, depth, line, col, text, n);
}

static bool is_result(const char *s, size_t n)
{
	switch (n) {
	case 1: return s[0] == '*';
	case 2: return (s[0] == 'B' || s[0] == 'W') && s[1] == 'W';
	case 3: return (s[1] == '-' && ((s[0] == '1' && (s[2] == '0' || s[2] == '1')) ||
					(s[0] == '0' && (s[2] == '1' || s[2] == '2' || s[2] == '0')) ||
					(s[0] == '2' && s[2] == '0'))) ||
		       memcmp(s, "1/2", 3) == 0;
	case 5: return memcmp(s, "\xC2\xBD-\xC2\xBD", 5) == 0;
	case 7: return memcmp(s, "1/2-1/2", 7) == 0;
	default: return false;
	}
}

/* Whether the main line goes on after a result token: the next token (blanks and line
 * ends skipped, nothing consumed) is a move ("22-18") or a move number that continues
 * the game's numbering (not "1.", which starts a game without tags). A tag, a comment,
 * another result or the end of the input end the game as usual. */
static bool moves_go_on(pk_reader *r, const pk_game *g)
{
	size_t k = 0;
	while (k < 4096 && is_space(peek_at(r, k)))
		k++;
	char t[16];
	size_t n = 0;
	for (int c; n < sizeof t - 1 && (c = peek_at(r, k + n)) != EOF && !ends_token(c);)
		t[n++] = (char)c;
	t[n] = 0;
	if (n == 0 || !IS_DIGIT((unsigned char)t[0]) || is_result(t, n))
		return false;
	size_t d = 0;
	long number = 0;
	while (d < n && IS_DIGIT((unsigned char)t[d]) && number < 100000)
		number = number * 10 + (t[d++] - '0');
	if (d < n && t[d] == '.') {
		int last = 0;
		for (int i = g->nel - 1; i >= 0 && !last; i--)
			if (g->els[i].kind == EL_NUMBER && g->els[i].depth == 0)
				last = g->els[i].value;
		return number > 1 && last > 0 && number >= last;
	}
	return d < n && (t[d] == '-' || t[d] == 'x' || t[d] == 'X') && d + 1 < n && IS_DIGIT((unsigned char)t[d + 1]);
}

/* A token of move text; returns true when it was the main line's result. */
static bool read_token(pk_reader *r, pk_game *g, int depth)
{
	uint32_t line = r->line, col = r->col;
	r->slen = 0;
	bool too_long = false;
	if (peek(r) == '/') {
		/* /FEN "..."/ : a position set up in the middle of the move text */
		get(r);
		while (peek(r) != '/' && peek(r) != '\n' && peek(r) != EOF) {
			if (r->slen >= PDN_MAX_TOKEN)
				too_long = true;
			scratch_put(r, get(r), PDN_MAX_TOKEN);
		}
		bool closed = peek(r) == '/';
		if (closed)
			get(r);
		r->scratch[r->slen] = 0;
		char *q1 = strchr(r->scratch, '"'), *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
		if (!closed || !q1 || !q2 || strncmp(r->scratch, "FEN", 3) != 0 || too_long) {
			findings_add(&g->findings, SEV_ERROR, "bad-setup", line, col, 0,
				     "position set-up must read /FEN \"...\"/");
			return false;
		}
		if (depth <= PDN_MAX_DEPTH)
			game_add_el(g, EL_SETUP, depth, line, col, q1 + 1, (size_t)(q2 - q1 - 1));
		return false;
	}
	if (!token_fast(r))
		while (!ends_token(peek(r))) {
			if (r->slen >= PDN_MAX_TOKEN)
				too_long = true;
			scratch_put(r, get(r), PDN_MAX_TOKEN);
		}
	/* "1 - 5": a bare square number, a separator and a number, with spaces between. */
	bool all_digits = r->slen > 0;
	for (size_t i = 0; i < r->slen; i++)
		all_digits = all_digits && IS_DIGIT((unsigned char)r->scratch[i]);
	if (all_digits) {
		size_t k = 0;
		while (peek_at(r, k) == ' ' || peek_at(r, k) == '\t')
			k++;
		int sep = peek_at(r, k);
		if (sep == '-' || sep == 'x' || sep == 'X') {
			size_t k2 = k + 1;
			while (peek_at(r, k2) == ' ' || peek_at(r, k2) == '\t')
				k2++;
			if (IS_DIGIT(peek_at(r, k2))) {
				while (k2-- > 0)
					if (!is_space(peek(r)))
						scratch_put(r, get(r), PDN_MAX_TOKEN);
					else
						get(r);
				while (!ends_token(peek(r)))
					scratch_put(r, get(r), PDN_MAX_TOKEN);
			}
		}
	}
	if (too_long) {
		findings_add(&g->findings, SEV_ERROR, "too-long", line, col, 0,
			     "token of more than %u bytes in the move text", PDN_MAX_TOKEN);
		r->slen = 0;
		game_add_el(g, EL_MOVE, depth, line, col, "?", 1);
		return false;
	}
	r->scratch[r->slen] = 0;
	char *s = r->scratch;
	if (r->slen == 0) {
		/* A lone '}' or ']' in move text. */
		int c = get(r);
		findings_add(&g->findings, SEV_WARNING, "stray-character", line, col, 0,
			     "unexpected '%c' in the move text, ignored", c);
		return false;
	}
	if ((s[0] == '.' && r->slen >= 2 && r->slen == strspn(s, ".")) ||
	    (r->slen == 3 && !memcmp(s, "\xE2\x80\xA6", 3))) {
		/* "1. ... 11-15": dots apart from their number (or an ellipsis character)
		 * say what "1..." says */
		if (g->nel > 0 && g->els[g->nel - 1].kind == EL_NUMBER && g->els[g->nel - 1].depth == depth)
			g->els[g->nel - 1].flags |= ELF_DOTS3;
		return false;
	}
	if (is_result(s, r->slen)) {
		if (depth > PDN_MAX_DEPTH)
			return false;
		if (depth == 0 && moves_go_on(r, g)) {
			/* A mistyped move that reads as a result ("1-1", "0-0"): the game goes on,
			 * and the replay says what the move was probably meant to be. */
			findings_add(&g->findings, SEV_WARNING, "result-in-moves", line, col, 0,
				     "'%s' reads as a result, but the game's moves go on after it: taken as a move", s);
			game_add_el(g, EL_MOVE, depth, line, col, s, r->slen);
			return false;
		}
		game_add_el(g, EL_RESULT, depth, line, col, s, r->slen);
		return depth == 0;
	}
	/* Move number: digits then one or more dots, perhaps glued to the move ("1.9-14"). */
	size_t i = 0;
	while (IS_DIGIT((unsigned char)s[i]))
		i++;
	if (i > 0 && s[i] == '.') {
		size_t dots = 0;
		while (s[i + dots] == '.')
			dots++;
		if (depth <= PDN_MAX_DEPTH) {
			pk_el *e = game_add_el(g, EL_NUMBER, depth, line, col, s, i + dots);
			if (e) {
				int32_t v = 0;
				for (size_t k = 0; k < i && k < 6; k++)
					v = v * 10 + (s[k] - '0');
				e->value = i > 6 ? 999999 : v;
				e->flags = dots >= 2 ? ELF_DOTS3 : 0;
			}
		}
		s += i + dots;
		col += (uint32_t)(i + dots);
		if (!*s)
			return false;
	}
	size_t n = r->slen - (size_t)(s - r->scratch);
	if (s != r->scratch && is_result(s, n)) {
		if (depth == 0 && moves_go_on(r, g)) {
			findings_add(&g->findings, SEV_WARNING, "result-in-moves", line, col, 0,
				     "'%s' reads as a result, but the game's moves go on after it: taken as a move", s);
			game_add_el(g, EL_MOVE, depth, line, col, s, n);
			return false;
		}
		game_add_el(g, EL_RESULT, depth, line, col, s, n);
		return depth == 0;
	}
	if (depth <= PDN_MAX_DEPTH)
		game_add_el(g, EL_MOVE, depth, line, col, s, n);
	return false;
}

int pdn_read(pk_reader *r, pk_game *g)
{
	game_reset(g);
	if (!r->started) {
		r->started = true;
		if (peek(r) == 0xEF && peek_at(r, 1) == 0xBB && peek_at(r, 2) == 0xBF) {
			get(r);
			get(r);
			get(r);
			r->col = 1;
		}
		/* A web page or an XML file saved under a .pdn name is refused as a whole
		 * rather than read as junk games: its first character is '<' then a letter,
		 * '!' or '?'. */
		size_t k = 0;
		while (k < 4096 && is_space(peek_at(r, k)))
			k++;
		int c1 = peek_at(r, k + 1);
		if (peek_at(r, k) == '<' && (c1 == '!' || c1 == '?' || isalpha(c1))) {
			char head[24];
			size_t n = 0;
			while (n < sizeof head - 1 && peek_at(r, k + n) != EOF && peek_at(r, k + n) != '\n' &&
			       isprint(peek_at(r, k + n)))
				head[n] = (char)peek_at(r, k + n), n++;
			head[n] = 0;
			snprintf(r->err, sizeof r->err, "not PDN: it begins like an HTML or XML document ('%s')", head);
			r->eof = true;
			r->pos = r->len;
			return -1;
		}
	}
	int depth = 0;
	bool begun = false, ended = false, deep_warned = false, plausible = false;
	uint32_t var_line = 0, var_col = 0;

	while (!ended) {
		int c = peek(r);
		if (c == EOF)
			break;
		if (c == ' ' || c == '\t') {
			/* runs of blanks straight from the buffer */
			size_t n = 0;
			while (r->pos + n < r->len && (r->buf[r->pos + n] == ' ' || r->buf[r->pos + n] == '\t'))
				n++;
			r->pos += n;
			r->offset += n;
			r->col += (uint32_t)n;
			continue;
		}
		if (is_space(c)) {
			get(r);
			continue;
		}
		if (!begun) {
			begun = true;
			g->index = r->games + 1;
			g->offset = r->offset;
			g->line = r->line;
			if (r->skipped_after_result) {
				findings_add(&g->findings, SEV_WARNING, "text-after-result", r->skipped_line,
					     r->skipped_col, 0, "text after the previous game's result ignored");
				r->skipped_after_result = false;
			}
		}
		if (c == '%' && r->col == 1) {
			skip_line(r);
			continue;
		}
		switch (c) {
		case '[':
			if (g->nel > 0) {      /* a tag after move text starts the next game */
				ended = true;
				continue;
			}
			read_tag(r, g);
			break;
		case ';': {
			uint32_t line = r->line, col = r->col;
			get(r);
			r->slen = 0;
			while (peek(r) != '\n' && peek(r) != EOF)
				scratch_put(r, get(r), PDN_MAX_TOKEN);
			pk_el *e = depth <= PDN_MAX_DEPTH ? game_add_el(g, EL_COMMENT, depth, line, col, r->scratch, r->slen) : NULL;
			if (e)
				e->flags = ELF_LINE;
			break;
		}
		case '{':
			read_comment(r, g, depth);
			break;
		case '(':
			if (depth == 0) {
				var_line = r->line;
				var_col = r->col;
			}
			if (depth < PDN_MAX_DEPTH)
				game_add_el(g, EL_VAR_START, depth + 1, r->line, r->col, NULL, 0);
			else if (!deep_warned) {
				deep_warned = true;
				findings_add(&g->findings, SEV_WARNING, "too-deep", r->line, r->col, 0,
					     "variations nested deeper than %d levels dropped", PDN_MAX_DEPTH);
			}
			if (depth < 1000000000)
				depth++;
			get(r);
			break;
		case ')':
			if (depth == 0)
				findings_add(&g->findings, SEV_WARNING, "stray-character", r->line, r->col, 0,
					     "')' without a variation to close, ignored");
			else {
				if (depth <= PDN_MAX_DEPTH)
					game_add_el(g, EL_VAR_END, depth, r->line, r->col, NULL, 0);
				depth--;
			}
			get(r);
			break;
		case '$': {
			uint32_t line = r->line, col = r->col;
			get(r);
			long v = 0;
			int nd = 0;
			while (IS_DIGIT(peek(r))) {
				int d = get(r);
				if (v < 100000)
					v = v * 10 + (d - '0');
				nd++;
			}
			if (nd == 0)
				findings_add(&g->findings, SEV_WARNING, "stray-character", line, col, 0,
					     "'$' without a number, ignored");
			else if (depth <= PDN_MAX_DEPTH) {
				char t[16];
				int n = snprintf(t, sizeof t, "$%ld", v);
				pk_el *e = game_add_el(g, EL_NAG, depth, line, col, t, (size_t)n);
				if (e)
					e->value = (int32_t)v;
			}
			break;
		}
		default:
			if (c == 0) {
				uint32_t line = r->line, col = r->col;
				size_t n = 0;
				while (peek(r) == 0 && n < PDN_MAX_JUNK) {
					get(r);
					n++;
				}
				findings_add_once(&g->findings, SEV_ERROR, "binary", line, col, 0,
						  "NUL bytes in the input (%zu here): binary data, not PDN", n);
				break;
			}
			ended = read_token(r, g, depth);
			break;
		}
		if (g->oom) {
			findings_add(&g->findings, SEV_ERROR, "too-large", g->line, 1, 0,
				     "game larger than %u MiB; the rest of it is skipped", PDN_MAX_GAME >> 20);
			skip_to_tag(r);
			g->oom = false;
			ended = true;
		}
		/* A megabyte with nothing of PDN in it (binary data, another kind of file, an
		 * endless stream such as /dev/zero): said once, then skipped up to a tag. */
		if (!plausible && r->offset - g->offset >= PDN_MAX_JUNK) {
			plausible = looks_like_pdn(g);
			if (!plausible) {
				findings_add(&g->findings, SEV_ERROR, "not-pdn", g->line, 1, 0,
					     "no tag, comment, move number or move in the first %u MiB from here: not PDN; "
					     "skipped up to the next line that starts with '['", PDN_MAX_JUNK >> 20);
				skip_to_tag(r);
				ended = true;
			}
		}
	}
	if (!begun || r->interrupted)
		return pdn_error(r) ? -1 : 0;
	if (depth > 0) {
		findings_add(&g->findings, SEV_WARNING, "unclosed-variation", var_line, var_col, 0,
			     "variation opened here is never closed");
		for (int d = depth > PDN_MAX_DEPTH ? PDN_MAX_DEPTH : depth; d > 0; d--)
			game_add_el(g, EL_VAR_END, d, r->line, r->col, NULL, 0);
	}
	if (ended) {
		/* After a result, text that does not begin a game (prose, "White resigned") is
		 * skipped up to the next tag or move number, and reported with the next game. */
		for (;;) {
			int c = peek(r);
			while (is_space(c)) {
				get(r);
				c = peek(r);
			}
			if (c == EOF || c == '[' || c == '{' || IS_DIGIT(c) || (c == '%' && r->col == 1))
				break;
			if (!r->skipped_after_result) {
				r->skipped_after_result = true;
				r->skipped_line = r->line;
				r->skipped_col = r->col;
			}
			while (!is_space(peek(r)) && peek(r) != EOF && peek(r) != '[')
				get(r);
		}
	}
	r->games++;
	g->nreader = g->findings.n;
	return 1;
}
