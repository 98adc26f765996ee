/* The PDN reader, construct by construct: tags and their quirks, move numbers, results,
 * comments, variations, set-ups, encodings, line ends, resynchronisation after damage,
 * and hostile input (binary junk, NUL bytes, huge comments, deep nesting, truncation). */
#include <stdlib.h>
#include "check.h"
#include "pdn/pdn.h"
#include "pdn/written.h"

/* All games of text; returns how many and leaves the last one in g. */
static int read_all(const char *text, size_t len, pk_game *g)
{
	pk_reader *r = pdn_open_mem(text, len);
	pk_game tmp;
	game_init(&tmp);
	int n = 0;
	while (pdn_read(r, &tmp) == 1) {
		pk_game swap = *g;
		*g = tmp;
		tmp = swap;
		n++;
	}
	game_free(&tmp);
	pdn_close(r);
	return n;
}

/* The game number k (1-based) of text, read into g. */
static int nth(const char *text, int k, pk_game *g)
{
	pk_reader *r = pdn_open_mem(text, strlen(text));
	int n = 0, rc;
	while ((rc = pdn_read(r, g)) == 1 && ++n < k)
		;
	pdn_close(r);
	return rc == 1 ? 0 : -1;
}

/* Elements of g as "kind:text" separated by spaces. */
static const char *els(const pk_game *g)
{
	static char buf[4096];
	static const char *names[] = { "M", "N", "C", "$", "(", ")", "S", "R" };
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < g->nel && n < sizeof buf - 200; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s%s%.*s", i ? " " : "", names[g->els[i].kind],
				      g->els[i].len || g->els[i].kind == EL_COMMENT ? ":" : "",
				      (int)g->els[i].len > 100 ? 100 : (int)g->els[i].len, game_str(g, g->els[i].off));
	return buf;
}

static const char *kinds(const pk_game *g)
{
	static char buf[1024];
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < g->findings.n && n < sizeof buf - 64; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s@%u:%u", i ? " " : "", g->findings.v[i].kind,
				      g->findings.v[i].line, g->findings.v[i].col);
	return buf;
}

static void test_tags(void)
{
	pk_game g;
	game_init(&g);
	CHECK(nth("[Event \"A \\\"quoted\\\" name\"]\n[ Site   \"x]y\"  ]  \n1. 9-14 *", 1, &g) == 0);
	CHECK_INT(g.ntags, 2);
	CHECK_STR(game_tag(&g, "Event"), "A \"quoted\" name");
	CHECK_STR(game_tag(&g, "site"), "x]y");
	CHECK_STR(kinds(&g), "");

	/* Unescaped quotes inside, curly quotes, no quotes, no closing quote. */
	CHECK(nth("[Event \"The \"Big\" Match\"]\n[Site \xE2\x80\x9CParis\xE2\x80\x9D]\n[Round 3]\n"
		  "[Black \"Tinsley\n1. 9-14 *", 1, &g) == 0);
	CHECK_STR(game_tag(&g, "Event"), "The \"Big\" Match");
	CHECK_STR(game_tag(&g, "Site"), "Paris");
	CHECK_STR(game_tag(&g, "Round"), "3");
	CHECK_STR(game_tag(&g, "Black"), "Tinsley");
	CHECK_STR(kinds(&g), "bad-tag@3:1 bad-tag@4:1");
	CHECK_STR(els(&g), "N:1. M:9-14 R:*");

	/* A tag value longer than the limit is cut, with a warning. */
	size_t big = PDN_MAX_TAG_VALUE + 100;
	char *t = malloc(big + 64);
	int n = sprintf(t, "[Event \"");
	memset(t + n, 'a', big);
	sprintf(t + n + big, "\"]\n*");
	CHECK(nth(t, 1, &g) == 0);
	CHECK_INT(strlen(game_tag(&g, "Event")), PDN_MAX_TAG_VALUE);
	CHECK_STR(kinds(&g), "too-long@1:1");
	free(t);

	/* '[' with no name: the line is skipped, the game goes on. */
	CHECK(nth("[\n[Event \"x\"]\n1. 9-14 *", 1, &g) == 0);
	CHECK_STR(game_tag(&g, "Event"), "x");
	CHECK_STR(kinds(&g), "bad-tag@1:1");
	game_free(&g);
}

static void test_move_text(void)
{
	pk_game g;
	game_init(&g);
	CHECK(nth("1.9-14 23-18 2... 14x23 {a comment} 27x18 $3 (3. 5-9 (4. 1-5)) 3 . 1 - 5 1-0", 1, &g) == 0);
	CHECK_STR(els(&g), "N:1. M:9-14 M:23-18 N:2... M:14x23 C:a comment M:27x18 $:$3 ( N:3. M:5-9 ( N:4. M:1-5 ) ) M:3 M:. M:1-5 R:1-0");
	CHECK_INT(g.els[0].value, 1);
	CHECK_INT(g.els[3].flags & ELF_DOTS3, ELF_DOTS3);
	CHECK_INT(g.els[9].depth, 1);
	CHECK_INT(g.els[12].depth, 2);

	/* Results, and "1-18" is a move, not the result "1-1". */
	CHECK(nth("1. 1-18 1-1", 1, &g) == 0);
	CHECK_STR(els(&g), "N:1. M:1-18 R:1-1");
	CHECK(nth("46. 18-22 BW", 1, &g) == 0);
	CHECK_STR(els(&g), "N:46. M:18-22 R:BW");

	/* Line comments: '%' at a line start, ';' to the end of the line. */
	CHECK(nth("% a whole line\n1. 9-14 ; the rest\n23-18 *", 1, &g) == 0);
	CHECK_STR(els(&g), "N:1. M:9-14 C: the rest M:23-18 R:*");
	CHECK_INT(g.els[2].flags & ELF_LINE, ELF_LINE);

	/* Set-up in the middle of the move text. */
	CHECK(nth("1. 9-14 /FEN \"W:W21:B1\"/ 21-17 *", 1, &g) == 0);
	CHECK_STR(els(&g), "N:1. M:9-14 S:W:W21:B1 M:21-17 R:*");

	/* Line and column of tokens, with CRLF, CR and LF mixed. */
	CHECK(nth("[Event \"x\"]\r\n1. 9-14\r23-18\n  2. 14x23 *", 1, &g) == 0);
	CHECK_INT(g.els[1].line, 2);
	CHECK_INT(g.els[1].col, 4);
	CHECK_INT(g.els[2].line, 3);
	CHECK_INT(g.els[2].col, 1);
	CHECK_INT(g.els[4].line, 4);
	CHECK_INT(g.els[4].col, 6);
	game_free(&g);
}

static void test_games_and_resync(void)
{
	pk_game g;
	game_init(&g);
	const char *two = "[Event \"a\"]\n1. 9-14 *\n[Event \"b\"]\n1. 10-14 *\n";
	CHECK_INT(read_all(two, strlen(two), &g), 2);
	CHECK(nth(two, 2, &g) == 0);
	CHECK_STR(game_tag(&g, "Event"), "b");
	CHECK_INT(g.index, 2);
	CHECK_INT(g.line, 3);
	CHECK_INT(g.offset, 22);

	/* A tag after move text begins the next game even without a result. */
	const char *noresult = "[Event \"a\"]\n1. 9-14\n[Event \"b\"]\n1. 10-14 *";
	CHECK_INT(read_all(noresult, strlen(noresult), &g), 2);

	/* Prose after a result is skipped and reported with the next game. */
	const char *prose = "1. 9-14 1-0 White resigned.\n[Event \"b\"]\n1. 10-14 *";
	CHECK_INT(read_all(prose, strlen(prose), &g), 2);
	CHECK(nth(prose, 2, &g) == 0);
	CHECK_STR(kinds(&g), "text-after-result@1:13");

	/* An unterminated comment is an error; a stray '}' or ')' a warning. */
	CHECK(nth("1. 9-14 { never closed", 1, &g) == 0);
	CHECK_STR(kinds(&g), "unterminated-comment@1:9");
	CHECK(nth("1. 9-14 } ) *", 1, &g) == 0);
	CHECK_STR(kinds(&g), "stray-character@1:9 stray-character@1:11");
	CHECK(nth("1. 9-14 (2. 5-9 *", 1, &g) == 0);
	CHECK_STR(kinds(&g), "unclosed-variation@1:9");
	CHECK_STR(els(&g), "N:1. M:9-14 ( N:2. M:5-9 R:* )");
	game_free(&g);
}

static void test_encodings(void)
{
	pk_game g;
	game_init(&g);
	/* UTF-8 BOM is skipped; columns count characters. */
	CHECK(nth("\xEF\xBB\xBF[Event \"Ch\xC3\xA2teau\"] *", 1, &g) == 0);
	CHECK_STR(game_tag(&g, "Event"), "Ch\xC3\xA2teau");
	CHECK_INT(g.tags[0].col, 1);
	CHECK_INT(g.els[0].col, 19);
	/* ISO-8859-1 is converted, with one warning. */
	CHECK(nth("[Event \"Ch\xE2teau\"]\n[Site \"K\xF6ln\"]\n{caf\xE9} *", 1, &g) == 0);
	CHECK_STR(game_tag(&g, "Event"), "Ch\xC3\xA2teau");
	CHECK_STR(game_tag(&g, "Site"), "K\xC3\xB6ln");
	CHECK_STR(els(&g), "C:caf\xC3\xA9 R:*");
	CHECK_STR(kinds(&g), "encoding@1:1");
	/* NUL bytes in a tag value become U+FFFD, also mixed with ISO-8859-1. */
	static const char nul[] = "[Event \"\xE9t\xE9\0b\"]\n[Site \"a\0\"]\n*";
	CHECK_INT(read_all(nul, sizeof nul - 1, &g), 1);
	CHECK_STR(game_tag(&g, "Event"), "\xC3\xA9t\xC3\xA9\xEF\xBF\xBD" "b");
	CHECK_STR(game_tag(&g, "Site"), "a\xEF\xBF\xBD");
	CHECK_STR(kinds(&g), "encoding@1:1 nul-byte@1:1");
	game_free(&g);
}

static void test_hostile(void)
{
	pk_game g;
	game_init(&g);
	/* A file of only '[' and other fragments. */
	CHECK_INT(read_all("[", 1, &g), 1);
	CHECK_STR(kinds(&g), "bad-tag@1:1");
	CHECK_INT(read_all("[Event \"trunc", 13, &g), 1);
	CHECK_STR(kinds(&g), "bad-tag@1:1");
	CHECK_INT(read_all("", 0, &g), 0);
	CHECK_INT(read_all("   \n\n ", 6, &g), 0);

	/* NUL bytes and binary junk: findings, no crash, and the next game survives. */
	char junk[600];
	for (int i = 0; i < 512; i++)
		junk[i] = (char)((i * 7919 + 13) & 0xFF);
	memcpy(junk + 512, "\n[Event \"after\"]\n1. 9-14 *\n", 27);
	int n = read_all(junk, 539, &g);
	CHECK(n >= 2);
	CHECK_STR(game_tag(&g, "Event"), "after");
	CHECK_STR(els(&g), "N:1. M:9-14 R:*");

	/* A 100 MB comment is cut to the limit with a warning; memory stays bounded. */
	size_t big = 100u << 20;
	char *c = malloc(big + 64);
	c[0] = '{';
	memset(c + 1, 'x', big);
	memcpy(c + 1 + big, "} 1. 9-14 *", 12);
	CHECK_INT(read_all(c, big + 12, &g), 1);
	CHECK_STR(kinds(&g), "too-long@1:1");
	CHECK_INT(g.els[0].len, PDN_MAX_COMMENT);
	CHECK_STR(els(&g) + strlen(els(&g)) - 15, "N:1. M:9-14 R:*");
	free(c);

	/* 100,000 nested parentheses: depth bounded, no recursion, brackets balanced. */
	size_t deep = 100000;
	char *d = malloc(2 * deep + 32);
	size_t k = (size_t)sprintf(d, "1. 9-14 ");
	memset(d + k, '(', deep);
	memset(d + k + deep, ')', deep);
	strcpy(d + k + 2 * deep, " 23-18 *");
	CHECK_INT(read_all(d, strlen(d), &g), 1);
	CHECK_STR(kinds(&g), "too-deep@1:73");
	int opens = 0, closes = 0;
	for (int i = 0; i < g.nel; i++) {
		opens += g.els[i].kind == EL_VAR_START;
		closes += g.els[i].kind == EL_VAR_END;
	}
	CHECK_INT(opens, PDN_MAX_DEPTH);
	CHECK_INT(closes, PDN_MAX_DEPTH);
	CHECK_STR(els(&g) + strlen(els(&g)) - 13, ") M:23-18 R:*");
	free(d);

	/* A token longer than the limit. */
	char tok[1024];
	memset(tok, '9', 1000);
	strcpy(tok + 1000, " *");
	CHECK_INT(read_all(tok, strlen(tok), &g), 1);
	CHECK_STR(kinds(&g), "too-long@1:1");
	game_free(&g);
}

/* Digits without a separator: each way to read them as two squares of the board. */
static void test_splits(void)
{
	pk_written w;
	char why[120];
	int pair[8][2];
	CHECK_INT(written_parse("1115", &w, why, sizeof why), 0);
	CHECK(w.nosep);
	CHECK_INT(written_splits(&w, 32, pair, 8), 1);   /* 1-115 and 111-5 are off the board */
	CHECK_INT(pair[0][0], 11);
	CHECK_INT(pair[0][1], 15);
	CHECK_INT(written_parse("123", &w, why, sizeof why), 0);
	CHECK_INT(written_splits(&w, 32, pair, 8), 2);   /* 1-23 and 12-3: the board decides */
	CHECK_INT(pair[1][0], 12);
	CHECK_INT(pair[1][1], 3);
	CHECK_INT(written_splits(&w, 32, pair, 1), 1);   /* no more than asked for */
	CHECK_INT(written_parse("1105", &w, why, sizeof why), 0);
	CHECK_INT(written_splits(&w, 50, pair, 8), 0);   /* 11-05: no square has a leading zero */
	CHECK_INT(written_parse("3228", &w, why, sizeof why), 0);
	CHECK_INT(written_splits(&w, 50, pair, 8), 1);
	CHECK_INT(pair[0][0] * 100 + pair[0][1], 3228);
	CHECK_INT(written_parse("32-28", &w, why, sizeof why), 0);
	CHECK_INT(written_splits(&w, 50, pair, 8), 0);   /* a separator: nothing to split */
}

int main(void)
{
	test_splits();
	test_tags();
	test_move_text();
	test_games_and_resync();
	test_encodings();
	test_hostile();
	return check_done("test_pdn");
}
