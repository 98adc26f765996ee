/* Diagrams and report pages: the SVG of known positions is well-formed XML and holds
 * exactly the FEN's pieces at the right coordinates; arrows follow the move's path.
 * With "--check-xml FILE" it only checks that FILE is well-formed XML (the shell tests
 * use it on the HTML report). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "report/diagram.h"
#include "rules/fen.h"
#include "rules/gen.h"

/* ---- a small XML well-formedness checker --------------------------------------------- */

static const char *xml_err;
static int xml_line;

static bool name_char(int c) { return isalnum(c) || c == '-' || c == '_' || c == ':' || c == '.'; }

/* Text between tags: every '&' starts an entity; no '<' (the caller stops there). */
static bool text_ok(const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '\n')
			xml_line++;
		if (*p == '&') {
			const char *q = p + 1;
			if (*q == '#') {
				q++;
				if (*q == 'x')
					q++;
				if (!isxdigit((unsigned char)*q))
					return xml_err = "bad character reference", false;
				while (isxdigit((unsigned char)*q))
					q++;
			} else {
				if (!isalpha((unsigned char)*q))
					return xml_err = "a bare '&'", false;
				while (isalnum((unsigned char)*q))
					q++;
			}
			if (*q != ';')
				return xml_err = "an entity without ';'", false;
			p = q;
		}
	}
	return true;
}

static bool xml_well_formed(const char *s)
{
	char stack[256][64];
	int depth = 0, roots = 0;
	const char *p = s;
	xml_line = 1;
	xml_err = NULL;
	while (*p) {
		const char *lt = strchr(p, '<');
		const char *end = lt ? lt : p + strlen(p);
		if (!text_ok(p, end))
			return false;
		if (!lt)
			break;
		if (depth == 0 && roots > 0) {
			for (const char *q = p; q < lt; q++)
				if (!isspace((unsigned char)*q))
					return xml_err = "text after the root element", false;
		}
		p = lt + 1;
		if (!strncmp(p, "!--", 3)) {
			const char *e = strstr(p, "-->");
			if (!e)
				return xml_err = "an unclosed comment", false;
			p = e + 3;
			continue;
		}
		if (*p == '!' || *p == '?') {   /* <!DOCTYPE ...>, <?xml ...?> */
			const char *e = strchr(p, '>');
			if (!e)
				return xml_err = "an unclosed declaration", false;
			p = e + 1;
			continue;
		}
		bool closing = *p == '/';
		if (closing)
			p++;
		char name[64];
		int n = 0;
		while (name_char((unsigned char)*p) && n < 63)
			name[n++] = *p++;
		name[n] = 0;
		if (!n)
			return xml_err = "a tag without a name", false;
		if (closing) {
			while (isspace((unsigned char)*p))
				p++;
			if (*p != '>')
				return xml_err = "junk in a closing tag", false;
			p++;
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				return xml_err = "a closing tag that does not match", false;
			depth--;
			continue;
		}
		/* attributes: name="value" or name='value', each once */
		char seen[32][64];
		int nseen = 0;
		for (;;) {
			while (isspace((unsigned char)*p)) {
				if (*p == '\n')
					xml_line++;
				p++;
			}
			if (*p == '>' || (*p == '/' && p[1] == '>'))
				break;
			char an[64];
			int k = 0;
			while (name_char((unsigned char)*p) && k < 63)
				an[k++] = *p++;
			an[k] = 0;
			if (!k || *p != '=' || (p[1] != '"' && p[1] != '\''))
				return xml_err = "an attribute without a quoted value", false;
			for (int i = 0; i < nseen; i++)
				if (!strcmp(seen[i], an))
					return xml_err = "an attribute given twice", false;
			if (nseen < 32)
				strcpy(seen[nseen++], an);
			char q = p[1];
			const char *v = p + 2, *ve = strchr(v, q);
			if (!ve)
				return xml_err = "an unclosed attribute value", false;
			for (const char *c = v; c < ve; c++)
				if (*c == '<')
					return xml_err = "'<' in an attribute value", false;
			if (!text_ok(v, ve))
				return false;
			p = ve + 1;
		}
		bool empty = *p == '/';
		p += empty ? 2 : 1;
		if (depth == 0)
			roots++;
		if (!empty) {
			if (depth == 256)
				return xml_err = "nested too deep", false;
			strcpy(stack[depth++], name);
			if (!strcmp(name, "script") || !strcmp(name, "style")) {
				/* their text is parsed as text too: no '<' or bare '&' */
				const char *e = strstr(p, "</"), *lt2 = strchr(p, '<');
				if (!e || lt2 != e)
					return xml_err = "'<' in a script or style", false;
				if (!text_ok(p, e))
					return false;
				p = e;
			}
		}
	}
	if (depth)
		return xml_err = "unclosed elements at the end", false;
	if (roots != 1)
		return xml_err = "not exactly one root element", false;
	return true;
}

/* ---- diagrams ------------------------------------------------------------------------- */

typedef struct {
	char *p;
	size_t n, cap;
} buf;

static int sink(void *ctx, const char *s, size_t len)
{
	buf *b = ctx;
	if (b->n + len + 1 > b->cap) {
		b->cap = (b->n + len + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			return -1;
	}
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = 0;
	return 0;
}

/* Every piece drawn: its square, colour, king or man, and its centre. */
static void check_pieces(const char *svg, const pk_pos *p, bool flip, int size)
{
	int found[33] = { 0 };
	int count = 0;
	for (const char *q = strstr(svg, "<g class=\""); q; q = strstr(q + 1, "<g class=\"")) {
		char cls[32];
		int sq;
		double cx, cy;
		if (sscanf(q, "<g class=\"%31[a-z ]\" data-square=\"%d\"><circle cx=\"%lf\" cy=\"%lf\"", cls, &sq, &cx, &cy) != 4) {
			CHECK_REPORT(0, "a piece group that does not parse: %.80s", q);
			continue;
		}
		count++;
		CHECK(sq >= 1 && sq <= 32);
		if (sq < 1 || sq > 32)
			continue;
		found[sq]++;
		int colour;
		bool king;
		int has = pos_piece_at(p, sq, &colour, &king);
		CHECK_REPORT(has, "square %d drawn but empty in the position", sq);
		if (!has)
			continue;
		char want[32];
		snprintf(want, sizeof want, "%s %s", colour == PK_BLACK ? "black" : "white", king ? "king" : "man");
		CHECK_REPORT(!strcmp(cls, want), "square %d drawn as '%s', is '%s'", sq, cls, want);
		int r, c;
		diagram_square_xy(sq, flip, &r, &c);
		double ex = 22 + c * size + size / 2.0, ey = 22 + r * size + size / 2.0;
		CHECK_REPORT(cx == ex && cy == ey, "square %d centred at %.1f,%.1f, want %.1f,%.1f", sq, cx, cy, ex, ey);
	}
	int pieces = 0;
	for (int sq = 1; sq <= 32; sq++) {
		int colour;
		bool king;
		if (pos_piece_at(p, sq, &colour, &king)) {
			pieces++;
			CHECK_REPORT(found[sq] == 1, "square %d drawn %d times", sq, found[sq]);
		}
	}
	CHECK_INT(count, pieces);
}

static void test_fen(const char *fen, bool flip)
{
	pk_pos p;
	pk_fen_error fe;
	CHECK(fen_parse(fen, strlen(fen), &p, &fe) == 0);
	pk_diagram_opts o = { .flip = flip, .numbers = true, .size = 40, .caption = "a <caption> & \"quotes\"",
			      .title = fen };
	buf b = { 0 };
	CHECK(diagram_svg(&p, &o, sink, &b) == 0);
	CHECK_REPORT(xml_well_formed(b.p), "the SVG of %s is not well-formed: %s (line %d)", fen, xml_err, xml_line);
	check_pieces(b.p, &p, flip, 40);
	CHECK(strstr(b.p, "a &lt;caption&gt; &amp; &quot;quotes&quot;") != NULL);
	free(b.p);
}

static void test_arrow(void)
{
	/* A double jump: the arrow goes through the landing square between. */
	pk_pos p;
	pk_fen_error fe;
	const char *fen = "B:W18,27:B14";
	CHECK(fen_parse(fen, strlen(fen), &p, &fe) == 0);
	pk_movelist ml;
	gen_moves(&p, &ml);
	CHECK_INT(ml.n, 1);
	pk_diagram_opts o = { .size = 40 };
	diagram_arrow(&o.arrows[o.narrows++], &ml.m[0], ARROW_BEST);
	CHECK_INT(o.arrows[0].nsq, 3);
	CHECK(o.arrows[0].sq[0] == 14 && o.arrows[0].sq[1] == 23 && o.arrows[0].sq[2] == 32);
	buf b = { 0 };
	CHECK(diagram_svg(&p, &o, sink, &b) == 0);
	CHECK(xml_well_formed(b.p));
	const char *pl = strstr(b.p, "<polyline class=\"arrow best\"");
	CHECK(pl != NULL);
	if (pl) {
		const char *pts = strstr(pl, "points=\"");
		int n = 0;
		for (const char *q = pts ? pts + 8 : ""; *q && *q != '"'; q++)
			n += *q == ',';
		CHECK_INT(n, 3);   /* three points: 14, 23, 32 */
	}
	b.n = 0;
	CHECK(diagram_text(&p, &o, sink, &b) == 0);
	CHECK(strstr(b.p, "Black to move") != NULL);
	free(b.p);
}

static void test_checker_fails(void)
{
	/* the checker itself: malformed inputs are refused */
	CHECK(xml_well_formed("<a><b/></a>"));
	CHECK(!xml_well_formed("<a><b></a>"));
	CHECK(!xml_well_formed("<a x=1></a>"));
	CHECK(!xml_well_formed("<a>1 & 2</a>"));
	CHECK(!xml_well_formed("<a x=\"1\" x=\"2\"/>"));
	CHECK(!xml_well_formed("<a/><b/>"));
	CHECK(xml_well_formed("<!DOCTYPE html>\n<html><script>if (2 > 1) {}</script></html>"));
	CHECK(!xml_well_formed("<html><script>if (1 < 2) {}</script></html>"));
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--check-xml")) {
		FILE *f = fopen(argv[2], "rb");
		if (!f) {
			perror(argv[2]);
			return 2;
		}
		buf b = { 0 };
		char chunk[65536];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			sink(&b, chunk, n);
		fclose(f);
		bool ok = b.p && xml_well_formed(b.p);
		printf("%s: %s%s", argv[2], ok ? "well-formed" : "not well-formed: ", ok ? "\n" : xml_err);
		if (!ok)
			printf(" (line %d)\n", xml_line);
		free(b.p);
		return ok ? 0 : 1;
	}
	test_checker_fails();
	test_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", false);
	test_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", true);
	test_fen("W:WK10,18,19:B14,K23", false);
	test_fen("W:WK1,K32:BK4,K29", true);
	test_fen("B:W:B", false);
	test_arrow();
	printf("test_report: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
