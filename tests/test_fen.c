/* FEN: the accepted spellings, the canonical output, and each rejection with its reason
 * and its offset. */
#include "check.h"
#include "rules/fen.h"

static const char *round_trip(const char *in)
{
	static char out[256];
	pk_pos p;
	pk_fen_error e;
	if (fen_parse(in, strlen(in), &p, &e) < 0) {
		snprintf(out, sizeof out, "error at %zu: %s", e.offset, e.msg);
		return out;
	}
	fen_format(&p, out, sizeof out);
	return out;
}

int main(void)
{
	CHECK_STR(round_trip("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
		  "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29");
	CHECK_STR(round_trip("w:w31-32, k5 :b1-3."), "W:W31,32,K5:B1,2,3");
	CHECK_STR(round_trip("B:W21-32:B1-12:H0:F1"),
		  "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
	CHECK_STR(round_trip("  B : B 09 , K1 : W K29-K30 .  "), "B:WK29,K30:B9,K1");
	CHECK_STR(round_trip("W:W21,:B1,,2"), "W:W21:B1,2");
	CHECK_STR(round_trip("B:W:B5"), "B:W:B5");

	pk_pos start, p;
	pk_fen_error e;
	pos_start(&start);
	const char *s = "B:W21-32:B1-12";
	CHECK(fen_parse(s, strlen(s), &p, &e) == 0 && pos_equal(&p, &start) && p.key == start.key);

	/* Rejections: reason and offset (0-based) of the offending text. */
	CHECK_STR(round_trip(""), "error at 0: empty FEN");
	CHECK_STR(round_trip("X:W21:B1"), "error at 0: side to move must be B or W, found 'X'");
	CHECK_STR(round_trip("B:W33:B1"), "error at 3: square 33 is out of range 1..32");
	CHECK_STR(round_trip("B:W0:B1"), "error at 3: square 0 is out of range 1..32");
	CHECK_STR(round_trip("B:W99999999999999:B1"), "error at 3: square 99999999999999 is out of range 1..32");
	CHECK_STR(round_trip("B:W21,22:B5,21"), "error at 12: square 21 is given twice");
	CHECK_STR(round_trip("B:W21,21:B5"), "error at 6: square 21 is given twice");
	CHECK_STR(round_trip("B:W1:B5"), "error at 3: White man on square 1, its own crowning row, must be a king");
	CHECK_STR(round_trip("B:W21:B30"), "error at 7: Black man on square 30, its own crowning row, must be a king");
	CHECK_STR(round_trip("B:W5-17:B30"), "error at 3: more than 12 White pieces");
	CHECK_STR(round_trip("B:W21:B30-33"), "error at 7: range 30-33 goes beyond square 32");
	CHECK_STR(round_trip("B:W21:BK40"), "error at 8: square 40 is out of range 1..32");
	CHECK_STR(round_trip("B:W21:B5-2"), "error at 7: range 5-2 is reversed");
	CHECK_STR(round_trip("B:W21:B5-"), "error at 9: range 5- has no end square");
	CHECK_STR(round_trip("B:W21:Bc3"), "error at 7: alphanumeric square 'c...' is not English draughts notation");
	CHECK_STR(round_trip("B:W21:W22"), "error at 6: White's pieces are given twice");
	CHECK_STR(round_trip("B:W21:Z1"), "error at 6: colour must be B or W, found 'Z'");
	CHECK_STR(round_trip("B:W21:B1 x"), "error at 9: unexpected 'x' in Black's pieces");
	CHECK_STR(round_trip("B:W21:B1. junk"), "error at 10: unexpected 'j' after the position");
	CHECK_STR(round_trip("B"), "error at 1: no pieces given: expected ':W...:B...'");
	CHECK_STR(round_trip("B:"), "error at 2: colour expected after ':' at end of FEN");
	CHECK_STR(round_trip("B:W21:B1:H"), "error at 10: number expected after 'H'");
	return check_done("test_fen");
}
