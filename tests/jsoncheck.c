/* A strict JSON reader for the tests: standard input is one JSON document, or JSON
 * Lines with -l; a syntax error, a document that is not alone on its line (with -l),
 * or an object with the same key twice is reported with its byte offset, exit 1.
 * usage: jsoncheck [-l] <FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *txt;
static size_t len, at;
static char why[300];

static int fail(const char *what)
{
	if (!why[0])
		snprintf(why, sizeof why, "%s at byte %zu", what, at);
	return -1;
}

static void ws(void)
{
	while (at < len && (txt[at] == ' ' || txt[at] == '\t' || txt[at] == '\n' || txt[at] == '\r'))
		at++;
}

/* A string; its raw text (escapes kept) in *s, *n. */
static int string(const char **s, size_t *n)
{
	if (at >= len || txt[at] != '"')
		return fail("a string expected");
	size_t b = ++at;
	while (at < len && txt[at] != '"') {
		unsigned char c = (unsigned char)txt[at];
		if (c < 0x20)
			return fail("a control character in a string");
		if (c == '\\') {
			at++;
			if (at >= len)
				break;
			if (txt[at] == 'u') {
				for (int k = 1; k <= 4; k++)
					if (at + k >= len || !strchr("0123456789abcdefABCDEF", txt[at + k]))
						return fail("a bad \\u escape");
				at += 4;
			} else if (!strchr("\"\\/bfnrt", txt[at])) {
				return fail("a bad escape");
			}
		}
		at++;
	}
	if (at >= len)
		return fail("an unterminated string");
	*s = txt + b;
	*n = at - b;
	at++;
	return 0;
}

static int value(int depth);

static int object(int depth)
{
	at++;
	size_t cap = 16, nk = 0;
	const char **ks = malloc(cap * sizeof *ks);
	size_t *kn = malloc(cap * sizeof *kn);
	int rc = 0;
	if (!ks || !kn) {
		rc = fail("out of memory");
		goto out;
	}
	ws();
	if (at < len && txt[at] == '}') {
		at++;
		goto out;
	}
	for (;;) {
		ws();
		const char *k;
		size_t n;
		if (string(&k, &n) < 0) {
			rc = -1;
			goto out;
		}
		for (size_t i = 0; i < nk; i++)
			if (kn[i] == n && memcmp(ks[i], k, n) == 0) {
				char m[200];
				snprintf(m, sizeof m, "the key \"%.*s\" twice in one object", (int)(n > 100 ? 100 : n), k);
				rc = fail(m);
				goto out;
			}
		if (nk == cap) {
			cap *= 2;
			const char **k2 = realloc(ks, cap * sizeof *ks);
			if (k2)
				ks = k2;
			size_t *n2 = realloc(kn, cap * sizeof *kn);
			if (n2)
				kn = n2;
			if (!k2 || !n2) {
				rc = fail("out of memory");
				goto out;
			}
		}
		ks[nk] = k;
		kn[nk++] = n;
		ws();
		if (at >= len || txt[at] != ':') {
			rc = fail("':' expected");
			goto out;
		}
		at++;
		if (value(depth + 1) < 0) {
			rc = -1;
			goto out;
		}
		ws();
		if (at < len && txt[at] == ',') {
			at++;
			continue;
		}
		if (at < len && txt[at] == '}') {
			at++;
			break;
		}
		rc = fail("',' or '}' expected");
		goto out;
	}
out:
	free(ks);
	free(kn);
	return rc;
}

static int array(int depth)
{
	at++;
	ws();
	if (at < len && txt[at] == ']') {
		at++;
		return 0;
	}
	for (;;) {
		if (value(depth + 1) < 0)
			return -1;
		ws();
		if (at < len && txt[at] == ',') {
			at++;
			continue;
		}
		if (at < len && txt[at] == ']') {
			at++;
			return 0;
		}
		return fail("',' or ']' expected");
	}
}

static int number(void)
{
	size_t b = at;
	if (txt[at] == '-')
		at++;
	if (at < len && txt[at] == '0')
		at++;
	else if (at < len && txt[at] >= '1' && txt[at] <= '9')
		while (at < len && txt[at] >= '0' && txt[at] <= '9')
			at++;
	else
		return fail("a number expected");
	if (at < len && txt[at] == '.') {
		at++;
		if (at >= len || txt[at] < '0' || txt[at] > '9')
			return fail("a digit expected after '.'");
		while (at < len && txt[at] >= '0' && txt[at] <= '9')
			at++;
	}
	if (at < len && (txt[at] == 'e' || txt[at] == 'E')) {
		at++;
		if (at < len && (txt[at] == '+' || txt[at] == '-'))
			at++;
		if (at >= len || txt[at] < '0' || txt[at] > '9')
			return fail("a digit expected in the exponent");
		while (at < len && txt[at] >= '0' && txt[at] <= '9')
			at++;
	}
	return at > b ? 0 : fail("a number expected");
}

static int value(int depth)
{
	if (depth > 200)
		return fail("nested too deeply");
	ws();
	if (at >= len)
		return fail("a value expected");
	const char *s;
	size_t n;
	switch (txt[at]) {
	case '{': return object(depth);
	case '[': return array(depth);
	case '"': return string(&s, &n);
	case 't': if (len - at >= 4 && !memcmp(txt + at, "true", 4)) { at += 4; return 0; } break;
	case 'f': if (len - at >= 5 && !memcmp(txt + at, "false", 5)) { at += 5; return 0; } break;
	case 'n': if (len - at >= 4 && !memcmp(txt + at, "null", 4)) { at += 4; return 0; } break;
	default: return number();
	}
	return fail("a value expected");
}

int main(int argc, char **argv)
{
	int lines = argc > 1 && strcmp(argv[1], "-l") == 0;
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	size_t n = 0, k;
	while (buf && (k = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += k;
		if (n == cap) {
			char *b2 = realloc(buf, cap *= 2);
			if (!b2) {
				free(buf);
				buf = NULL;
			}
			buf = b2;
		}
	}
	if (!buf) {
		fprintf(stderr, "jsoncheck: out of memory\n");
		return 2;
	}
	txt = buf;
	len = n;
	int docs = 0;
	ws();
	while (at < len) {
		size_t line_end = at;
		if (lines) {
			while (line_end < len && txt[line_end] != '\n')
				line_end++;
		}
		if (value(0) < 0)
			break;
		docs++;
		if (lines) {
			while (at < len && (txt[at] == ' ' || txt[at] == '\t' || txt[at] == '\r'))
				at++;
			if (at < len && (at != line_end || txt[at] != '\n')) {
				fail("more after the document on its line");
				break;
			}
		} else {
			ws();
			if (at < len) {
				fail("more after the document");
				break;
			}
		}
		ws();
	}
	if (!why[0] && !docs)
		fail("no JSON document");
	free(buf);
	if (why[0]) {
		fprintf(stderr, "jsoncheck: %s\n", why);
		return 1;
	}
	return 0;
}
