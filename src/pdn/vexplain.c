/* Explaining an illegal move of another variant (pdn/vreplay.c): why it cannot be
 * played under the variant's rules, and what was probably meant, as pdn/explain.c does
 * for English draughts. Candidates are read back with the replay's own reading
 * (vreplay_read_move), so a suggestion is always a legal move written in the game's
 * notation. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdn/replay_int.h"
#include "pdn/vreplay.h"
#include "rules/pos.h"

static const char *piece_name(int piece)
{
	switch (piece) {
	case VP_WMAN: return "a White man";
	case VP_WKING: return "a White king";
	case VP_BMAN: return "a Black man";
	case VP_BKING: return "a Black king";
	default: return "nothing";
	}
}

static int colour_of(int piece) { return piece == VP_WMAN || piece == VP_WKING ? PK_WHITE : PK_BLACK; }

/* The square as the variant writes it ("23", or "c3" on the alphanumeric boards). */
static void square_text(const pk_variant *v, int sq, char *buf, size_t size)
{
	if (v->alphanumeric) {
		int r, c;
		variant_square_rc(v, sq, &r, &c);
		snprintf(buf, size, "%c%d", 'a' + c, v->rows - r);
	} else
		snprintf(buf, size, "%d", sq);
}

void rp_vexplain(const pk_vpos *p, const pk_vmovelist *ml, const char *text, const int *sq, int n, char *buf,
		 size_t size)
{
	const pk_variant *v = p->v;
	buf[0] = 0;
	if (ml->n == 0) {
		snprintf(buf, size, "the game is over: %s has no legal move", p->stm == PK_WHITE ? "White" : "Black");
		return;
	}
	static const char *const results[] = { "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "0-0" };
	for (size_t i = 0; i < sizeof results / sizeof *results; i++)
		if (strcmp(text, results[i]) == 0) {
			snprintf(buf, size, "a result where a move should be");
			return;
		}
	if (n < 2) {
		/* a number past the board's squares; a file and rank off the board or on a
		 * square that is not played on */
		for (const char *t = text; *t; t++) {
			if (t != text && isalnum((unsigned char)t[-1]) && t[-1] != 'x' && t[-1] != 'X')
				continue;   /* inside a square ('x' separates them) */
			if (!v->alphanumeric && isdigit((unsigned char)*t)) {
				long x = strtol(t, NULL, 10);
				if (x < 1 || x > variant_squares(v)) {
					snprintf(buf, size, "square %ld does not exist: %s has %d", x, v->name,
						 variant_squares(v));
					return;
				}
			}
			if (v->alphanumeric && isalpha((unsigned char)*t) && isdigit((unsigned char)t[1])) {
				int c = tolower((unsigned char)*t) - 'a';
				long rank = strtol(t + 1, NULL, 10);
				if (c < 0 || c >= v->cols || rank < 1 || rank > v->rows) {
					snprintf(buf, size, "%c%ld is off the %dx%d board", *t, rank, v->rows, v->cols);
					return;
				}
				if (!variant_rc_square(v, v->rows - (int)rank, c)) {
					snprintf(buf, size, "%c%ld is not a playing square", *t, rank);
					return;
				}
			}
		}
		return;
	}
	char a[8], b[8];
	square_text(v, sq[0], a, sizeof a);
	square_text(v, sq[n - 1], b, sizeof b);
	int from = p->sq[sq[0]], to = p->sq[sq[n - 1]];
	if (!from) {
		snprintf(buf, size, "square %s is empty", a);
		return;
	}
	if (colour_of(from) != p->stm) {
		snprintf(buf, size, "square %s holds %s", a, piece_name(from));
		return;
	}
	if (sq[0] != sq[n - 1] && to) {
		snprintf(buf, size, "square %s is occupied by %s", b, piece_name(to));
		return;
	}
	bool capture = strpbrk(text, "xX:") != NULL;
	bool must_capture = ml->n > 0 && ml->m[0].ncap > 0;
	if (must_capture && !capture) {
		snprintf(buf, size, "a capture is compulsory");
		return;
	}
	if (must_capture) {
		/* a capture from that square that the rules' priority (the most pieces, or
		 * kings, as the variant has it) leaves out */
		int most = 0;
		for (int i = 0; i < ml->n; i++)
			most = ml->m[i].ncap > most ? ml->m[i].ncap : most;
		bool from_here = false;
		for (int i = 0; i < ml->n; i++)
			from_here |= ml->m[i].from == sq[0];
		if (v->rule != VRULE_FREE && most > 1) {
			snprintf(buf, size, "a capture here must take %d pieces, the most there are", most);
			return;
		}
		if (!from_here) {
			snprintf(buf, size, "a capture is compulsory and the piece on %s has none", a);
			return;
		}
	}
	if (!capture && n == 2 && !v->orthogonal && (from == VP_WMAN || from == VP_BMAN)) {
		int r0, c0, r1, c1;
		variant_square_rc(v, sq[0], &r0, &c0);
		variant_square_rc(v, sq[1], &r1, &c1);
		if (from == VP_WMAN ? r1 > r0 : r1 < r0) {
			snprintf(buf, size, "a man cannot move backwards");
			return;
		}
		if (abs(r1 - r0) != 1 || abs(c1 - c0) != 1) {
			snprintf(buf, size, "a man moves one square diagonally");
			return;
		}
	}
}

/* Whether text reads as a legal move of p: its usual form into out. */
static bool legal_text(const pk_vpos *p, const char *text, char *out, size_t size)
{
	pk_vmove cand[4];
	if (vreplay_read_move(p, text, cand, 4) < 1)
		return false;
	vmove_text(p->v, &cand[0], false, out, size);
	return true;
}

void rp_vsuggest(const pk_vpos *p, const pk_vmovelist *ml, const char *text, const int *sq, int n, pk_finding *f)
{
	if (!f)
		return;
	const pk_variant *v = p->v;
	char cand[160], t[64];
	/* the move written without its marks */
	char core[64];
	size_t len = strcspn(text, "!?*");
	if (len >= sizeof core)
		return;
	memcpy(core, text, len);
	core[len] = 0;
	/* 1. squares reversed */
	if (n == 2 && strlen(core) < 32) {
		char a[8], b[8];
		square_text(v, sq[1], a, sizeof a);
		square_text(v, sq[0], b, sizeof b);
		snprintf(t, sizeof t, "%s%c%s", a, strpbrk(core, "xX:") ? *strpbrk(core, "xX:") : '-', b);
		if (legal_text(p, t, cand, sizeof cand))
			finding_suggest(f, cand, "squares reversed");
	}
	/* 2. two neighbouring digits swapped; 3. one digit off; 4. one letter off (the
	 * alphanumeric boards) */
	for (size_t i = 0; i + 1 < len; i++) {
		if (!isdigit((unsigned char)core[i]) || !isdigit((unsigned char)core[i + 1]) || core[i] == core[i + 1])
			continue;
		memcpy(t, core, len + 1);
		t[i] = core[i + 1];
		t[i + 1] = core[i];
		if (legal_text(p, t, cand, sizeof cand))
			finding_suggest(f, cand, "two digits swapped");
	}
	for (size_t i = 0; i < len; i++) {
		bool digit = isdigit((unsigned char)core[i]), letter = v->alphanumeric && isalpha((unsigned char)core[i]) &&
								     core[i] != 'x' && core[i] != 'X';
		if (!digit && !letter)
			continue;
		char lo = digit ? '0' : 'a', hi = digit ? '9' : (char)('a' + v->cols - 1);
		for (char d = lo; d <= hi; d++) {
			if (d == core[i])
				continue;
			if (digit && d == '0' && (i == 0 || !isdigit((unsigned char)core[i - 1])))
				continue;   /* no leading zero invented */
			memcpy(t, core, len + 1);
			t[i] = d;
			if (legal_text(p, t, cand, sizeof cand))
				finding_suggest(f, cand, digit ? "one digit off" : "one letter off");
		}
	}
	/* 5. two squares written together ("c3d4") */
	for (size_t i = 1; i < len && n < 2; i++) {
		if (!isdigit((unsigned char)core[i - 1]) || !isalnum((unsigned char)core[i]) || len + 2 > sizeof t)
			continue;
		memcpy(t, core, i);
		t[i] = '-';
		memcpy(t + i + 1, core + i, len - i + 1);
		if (legal_text(p, t, cand, sizeof cand))
			finding_suggest(f, cand, "the squares written together");
	}
	/* 6. the only legal move of that piece; 7. the only legal move to that square;
	 * 8. the only legal move at all */
	if (n >= 2) {
		int fi = -1, ti = -1, nf = 0, nt = 0;
		for (int i = 0; i < ml->n; i++) {
			if (ml->m[i].from == sq[0]) {
				nf++;
				fi = i;
			}
			if (ml->m[i].to == sq[n - 1]) {
				nt++;
				ti = i;
			}
		}
		if (nf == 1) {
			vmove_text(v, &ml->m[fi], false, cand, sizeof cand);
			finding_suggest(f, cand, "the only legal move of that piece");
		}
		if (nt == 1) {
			vmove_text(v, &ml->m[ti], false, cand, sizeof cand);
			finding_suggest(f, cand, "the only legal move to that square");
		}
	}
	if (ml->n == 1) {
		vmove_text(v, &ml->m[0], false, cand, sizeof cand);
		finding_suggest(f, cand, "the only legal move");
	}
}
