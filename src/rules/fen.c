/* FEN reading and writing. The reader is liberal about layout (spaces, case, ranges,
 * trailing dot, extra H/F fields) and strict about what the position means. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "rules/fen.h"
#include "base/port.h"

typedef struct {
	const char *s;
	size_t len, i;
	pk_fen_error *err;
	char *repairs;     /* NULL when strict */
	size_t rsize;
} scanner;

static void repaired(scanner *sc, const char *fmt, ...) PK_PRINTF(2, 3);
static void repaired(scanner *sc, const char *fmt, ...)
{
	size_t n = strlen(sc->repairs);
	if (n && n + 2 < sc->rsize) {
		memcpy(sc->repairs + n, "; ", 3);
		n += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sc->repairs + n, sc->rsize - n, fmt, ap);
	va_end(ap);
}

static int fail(scanner *sc, size_t at, const char *fmt, ...)
{
	va_list ap;
	sc->err->offset = at;
	va_start(ap, fmt);
	vsnprintf(sc->err->msg, sizeof sc->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_space(scanner *sc)
{
	while (sc->i < sc->len && isspace((unsigned char)sc->s[sc->i]))
		sc->i++;
}

static int peek(scanner *sc)
{
	return sc->i < sc->len ? (unsigned char)sc->s[sc->i] : -1;
}

/* A decimal number; values above 9999 are clamped (never overflow) and reported by
 * their text as written. */
static int number(scanner *sc, long *v)
{
	size_t start = sc->i;
	*v = 0;
	while (sc->i < sc->len && isdigit((unsigned char)sc->s[sc->i])) {
		if (*v < 10000)
			*v = *v * 10 + (sc->s[sc->i] - '0');
		sc->i++;
	}
	return sc->i > start ? 0 : -1;
}

static const char *colour_name(int c) { return c == PK_BLACK ? "Black" : "White"; }

static int place(scanner *sc, pk_pos *p, size_t at, long sq, int colour, bool king, int *count)
{
	int c2;
	bool k2;
	if (sq < 1 || sq > 32) {
		if (sq >= 10000) {
			size_t n = 0;
			while (at + n < sc->len && n < 24 && isdigit((unsigned char)sc->s[at + n]))
				n++;
			return fail(sc, at, "square %.*s is out of range 1..32", (int)n, sc->s + at);
		}
		return fail(sc, at, "square %ld is out of range 1..32", sq);
	}
	if (pos_piece_at(p, (int)sq, &c2, &k2))
		return fail(sc, at, "square %ld is given twice", sq);
	if (!king && (bb_sq((int)sq - 1) & (colour == PK_BLACK ? BB_BLACK_KINGROW : BB_WHITE_KINGROW))) {
		if (!sc->repairs)
			return fail(sc, at, "%s man on square %ld, its own crowning row, must be a king",
				    colour_name(colour), sq);
		repaired(sc, "%s man on square %ld, its own crowning row, read as a king", colour_name(colour), sq);
		king = true;
	}
	if (++count[colour] > 12)
		return fail(sc, at, "more than 12 %s pieces", colour_name(colour));
	pos_put(p, (int)sq, colour, king);
	return 0;
}

static int colour_of(int ch)
{
	ch = toupper(ch);
	return ch == 'B' ? PK_BLACK : ch == 'W' ? PK_WHITE : -1;
}

static int piece_list(scanner *sc, pk_pos *p, int colour, int *count)
{
	for (;;) {
		skip_space(sc);
		int ch = peek(sc);
		if (ch == ',') {            /* tolerate empty items such as "W1,,2" or "W1," */
			sc->i++;
			continue;
		}
		if (ch < 0 || ch == ':' || ch == '.')
			return 0;
		size_t at = sc->i;
		bool king = false;
		if (toupper(ch) == 'K') {
			king = true;
			sc->i++;
			skip_space(sc);
			at = sc->i;
		}
		long a, b;
		if (number(sc, &a) < 0) {
			ch = peek(sc);
			if (isalpha(ch))
				return fail(sc, sc->i, "alphanumeric square '%c...' is not English draughts notation", ch);
			if (ch < 0)
				return fail(sc, sc->i, "square number expected at end of FEN");
			return fail(sc, sc->i, "square number expected, found '%c'", ch);
		}
		b = a;
		skip_space(sc);
		if (peek(sc) == '-') {
			sc->i++;
			skip_space(sc);
			if (toupper(peek(sc)) == 'K')
				sc->i++;
			if (number(sc, &b) < 0)
				return fail(sc, sc->i, "range %ld- has no end square", a);
			if (b < a)
				return fail(sc, at, "range %ld-%ld is reversed", a, b);
			if (b > 32)
				return fail(sc, at, "range %ld-%ld goes beyond square 32", a, b);
		}
		for (long sq = a; sq <= b; sq++)
			if (place(sc, p, at, sq, colour, king, count) < 0)
				return -1;
		skip_space(sc);
		ch = peek(sc);
		if (ch == ',')
			sc->i++;
		else if (ch >= 0 && ch != ':' && ch != '.')
			return fail(sc, sc->i, "unexpected '%c' in %s's pieces", ch, colour_name(colour));
	}
}

static int parse(scanner *scp, pk_pos *p);

int fen_parse(const char *s, size_t len, pk_pos *p, pk_fen_error *err)
{
	scanner sc = { s, len, 0, err, NULL, 0 };
	return parse(&sc, p);
}

int fen_parse_lenient(const char *s, size_t len, pk_pos *p, pk_fen_error *err,
		      char *repairs, size_t rsize)
{
	repairs[0] = 0;
	scanner sc = { s, len, 0, err, repairs, rsize };
	return parse(&sc, p);
}

static int parse(scanner *scp, pk_pos *p)
{
	scanner sc = *scp;
	int count[2] = { 0, 0 };
	bool seen[2] = { false, false }, empty_field = false;

	skip_space(&sc);
	int turn = colour_of(peek(&sc));
	if (turn < 0 && peek(&sc) == '?' && sc.repairs) {
		repaired(&sc, "side to move '?' read as Black");
		turn = PK_BLACK;
	}
	if (turn < 0) {
		if (peek(&sc) < 0)
			return fail(&sc, sc.i, "empty FEN");
		return fail(&sc, sc.i, "side to move must be B or W, found '%c'", peek(&sc));
	}
	pos_clear(p, turn);
	sc.i++;
	skip_space(&sc);
	while (peek(&sc) == ':') {
		sc.i++;
		skip_space(&sc);
		int ch = peek(&sc);
		int colour = colour_of(ch);
		if (colour >= 0) {
			if (seen[colour])
				return fail(&sc, sc.i, "%s's pieces are given twice", colour_name(colour));
			seen[colour] = true;
			sc.i++;
			if (piece_list(&sc, p, colour, count) < 0)
				return -1;
		} else if (toupper(ch) == 'H' || toupper(ch) == 'F') {
			long ignored;
			sc.i++;
			if (number(&sc, &ignored) < 0)
				return fail(&sc, sc.i, "number expected after '%c'", ch);
			skip_space(&sc);
		} else if (sc.repairs && (ch == ':' || ch == '.' || ch < 0)) {
			if (!empty_field)
				repaired(&sc, "empty colour field read as no pieces");
			empty_field = true;
		} else if (ch < 0) {
			return fail(&sc, sc.i, "colour expected after ':' at end of FEN");
		} else {
			return fail(&sc, sc.i, "colour must be B or W, found '%c'", ch);
		}
	}
	if (peek(&sc) == '.')
		sc.i++;
	skip_space(&sc);
	if (sc.i < sc.len)
		return fail(&sc, sc.i, "unexpected '%c' after the position", sc.s[sc.i]);
	if (!seen[0] && !seen[1] && !empty_field)
		return fail(&sc, sc.i, "no pieces given: expected ':W...:B...'");
	return 0;
}

static int list_pieces(const pk_pos *p, int colour, char *buf, size_t size, int n)
{
	bool first = true;
	for (int king = 0; king < 2; king++) {
		bb_t x = p->side[colour] & (king ? p->kings : ~p->kings);
		for (; x; x = bb_clear_first(x)) {
			if (n < 0 || (size_t)n >= size)
				return n;
			n += snprintf(buf + n, size - (size_t)n, "%s%s%d", first ? "" : ",",
				      king ? "K" : "", bb_first(x) + 1);
			first = false;
		}
	}
	return n;
}

int fen_format(const pk_pos *p, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%c:W", p->stm == PK_BLACK ? 'B' : 'W');
	n = list_pieces(p, PK_WHITE, buf, size, n);
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, ":B");
	return list_pieces(p, PK_BLACK, buf, size, n);
}
