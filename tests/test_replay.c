/* Replay and its findings: every error and warning kind, with the exact message and the
 * suggestions, on positions worked out by hand. */
#include <stdlib.h>
#include "check.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"

static pk_game g;
static pk_replay rp;

/* Replays the first game of text; returns its findings, one per line:
 * "error illegal-move ply 3: message". */
static const char *replay(const char *text)
{
	static char buf[8192];
	pk_reader *r = pdn_open_mem(text, strlen(text));
	replay_new_file(&rp);
	buf[0] = 0;
	if (pdn_read(r, &g) != 1 || replay_game(&g, &rp) < 0) {
		pdn_close(r);
		return "(nothing read)";
	}
	pdn_close(r);
	size_t n = 0;
	for (int i = 0; i < g.findings.n && n < sizeof buf - 400; i++) {
		const pk_finding *f = &g.findings.v[i];
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s %s ply %d: %s", i ? "\n" : "",
				      severity_name(f->severity), f->kind, f->ply, f->message);
	}
	return buf;
}

static void test_illegal_moves(void)
{
	CHECK_STR(replay("1. 13-9 *"),
		  "error illegal-move ply 1: 13-9 is not legal here (square 13 is empty); did you mean 9-13 (squares reversed)?");
	CHECK_STR(replay("1. 11-51 *"),
		  "error illegal-move ply 1: 11-51 is not legal here (square 51 does not exist); did you mean 11-15 (two digits swapped)?");
	CHECK_STR(replay("1. 9-24 *"),
		  "error illegal-move ply 1: 9-24 is not legal here (square 24 is occupied by a White man); did you mean 9-14 (one digit off)?");
	CHECK_INT(g.findings.v[0].nsuggest, 1);
	CHECK_STR(g.findings.v[0].suggest[0], "9-14");
	CHECK_STR(g.findings.v[0].move, "9-24");
	CHECK_INT(g.findings.v[0].line, 1);
	CHECK_INT(g.findings.v[0].col, 4);
	CHECK_INT(rp.nply, 0);
	CHECK(!rp.complete);
	CHECK_INT(rp.fix_el, 1);
	CHECK_STR(rp.fix_text, "9-14");

	/* A White move where Black is to move: perhaps a move is missing. */
	CHECK_STR(replay("1. 9-14 22-17 2. 23-19 *"),
		  "error illegal-move ply 3: 23-19 is not legal here (square 23 holds a White man and Black is to move), "
		  "though it is a legal move for White: is a move missing before it?");
	/* A man moving backwards. */
	CHECK_STR(replay("1. 9-14 23-18 2. 14-9 *"),
		  "error illegal-move ply 3: 14-9 is not legal here (a man cannot move backwards); did you mean 14x23 (the only legal move of that piece)?");
	/* The game is over: no legal move left. */
	CHECK_STR(replay("[FEN \"W:W29:B25,22\"]\n1... 29-26 *"),
		  "error illegal-move ply 1: 29-26 is not legal here: the side to move has no legal move, the game is over");
}

static void test_captures(void)
{
	CHECK_STR(replay("1. 11-15 22-18 2. 9-13 *"),
		  "error capture-required ply 3: 9-13 is not legal here: a capture is compulsory; did you mean 15x22 (a compulsory capture)?");
	CHECK_STR(replay("[FEN \"B:W14,23:B9\"]\n1. 9x18 *"),
		  "error incomplete-jump ply 1: 9x18 stops short: the jump must go on; did you mean 9x18x27 (the unique completion)?");
	/* A jump written as hops is joined. */
	CHECK_STR(replay("[FEN \"B:W14,23:B9\"]\n1. 9x18 18x27 *"),
		  "warning split-jump ply 1: jump written as separate hops starting with '9x18'");
	CHECK_INT(rp.nply, 1);
	CHECK_INT(rp.plies[0].el_last, 2);
	/* Two jumps from 2 to 18 capture different men: ambiguous, unless the following
	 * moves show which was played (7-3 needs the man on 7). */
	CHECK_STR(replay("[FEN \"B:W6,7,14,15:B2\"]\n1. 2x18 *"),
		  "error ambiguous-move ply 1: 2x18 is ambiguous: several jumps fit it, capturing different pieces; "
		  "did you mean 2x9x18 (one of the jumps that fit) or 2x11x18 (one of the jumps that fit)?");
	CHECK_STR(replay("[FEN \"B:W6,7,14,15:B2\"]\n1. 2x18 7-3 *"),
		  "warning ambiguous-move ply 1: 2x18 fits several jumps; 2x9x18 is the one the following moves confirm");
	CHECK_INT(rp.nply, 2);
	CHECK_INT(rp.plies[0].move.captured, (1u << 5) | (1u << 13));
	/* Full paths and short forms are both fine when unambiguous. */
	CHECK_STR(replay("[FEN \"B:W14,23:B9\"]\n1. 9x27 *"), "");
	CHECK_STR(replay("[FEN \"B:W14,23:B9\"]\n1. 9x18x27 *"), "");
}

static void test_warnings(void)
{
	CHECK_STR(replay("1. 10x14 23-18 2. 14-23 27x18 *"),
		  "warning x-on-plain-move ply 1: plain move 10x14 written with 'x'\n"
		  "warning dash-on-jump ply 3: jump 14-23 written with '-'");
	CHECK_STR(replay("1. 10x14 23x18 2. 14x23 27x18 *"),
		  "warning x-on-plain-move ply 1: plain move 10x14 written with 'x'");
	CHECK_INT(g.findings.v[0].repeats, 1);
	CHECK_STR(replay("1. 9-14 23-18 3. 14x23 27x18 *"),
		  "warning move-number ply 3: move number 3 where 2 was expected");
	CHECK_STR(replay("1. 9-14 23-18 14x23 27x18 *"),
		  "warning move-number ply 3: move number 2 missing before 14x23");
	/* From a position with White to move, numbers stand before Black's moves. */
	CHECK_STR(replay("[FEN \"W:W21-32:B1-8,10-13\"]\n1... 22-18 2. 12-16 25-22 3. 16-20 *"), "");
	CHECK_STR(replay("[FEN \"W:W21-32:B1-8,10-13\"]\n1... 22-18 12-16 2. 25-22 16-20 *"),
		  "warning move-number ply 2: move number 2 missing before 12-16");
	CHECK_INT(g.findings.v[0].repeats, 1);
	CHECK_STR(replay("9-14 23-18 *"),
		  "warning move-number ply 1: move number 1 missing before 9-14");
	CHECK_STR(replay("[Result \"1-0\"]\n1. 9-14 0-1"),
		  "warning result-mismatch ply 0: result 0-1 disagrees with the Result tag \"1-0\"");
	CHECK_STR(replay("[FEN \"B:W18:B14\"]\n1. 14x23 0-1"),
		  "warning result-contradicts ply 1: White has no legal move at the end, so Black won (1-0), yet the result is 0-1");
	CHECK_STR(replay("[Foo \"x\"]\n[Bar \"y\"]\n1. 9-14 *"),
		  "warning unknown-tag ply 0: unknown tag 'Foo'");
	CHECK_INT(g.findings.v[0].repeats, 1);
	CHECK_STR(replay("1. 9-14white *"), "warning glued-text ply 1: text 'white' glued to the move");
	CHECK_STR(replay("1. 9-14 23-18BW"),
		  "warning glued-text ply 2: result 'BW' glued to the move 23-18");
	CHECK_INT(rp.result, RES_BLACK_WINS);
	CHECK_STR(replay("1. 1115 *"), "warning no-separator ply 1: move '1115' written without a separator");
	CHECK_STR(replay("1. 0914 2218 *"), "warning no-separator ply 1: move '0914' written without a separator");
	CHECK_INT(g.findings.v[0].repeats, 1);
	CHECK_INT(rp.nply, 2);
	CHECK_STR(replay("1. 9-14! 23-18?! 2. 14x23 $2 27x18 *"), "");
	CHECK_STR(rp.plies[0].marks, "!");
	CHECK_STR(rp.plies[1].marks, "?!");
	/* a move written apart ("23- 18") is one move */
	CHECK_STR(replay("1. 9-14 23- 18 *"), "");
	CHECK_INT(rp.nply, 2);
	CHECK_INT(rp.plies[1].el, 2);
	CHECK_INT(rp.plies[1].el_last, 3);
	CHECK_STR(replay("[FEN \"W:W18,K15,1:BK30,K26,2.\"]\n1... 15-11 *"),
		  "warning fen-repaired ply 0: FEN \"W:W18,K15,1:BK30,K26,2.\": White man on square 1, its own crowning row, read as a king");
	CHECK_STR(replay("[FEN \"B:W33:B1\"]\n1. 1-5 *"),
		  "note variant-unsupported ply 0: not English draughts: the FEN names square 33, so the board is larger than 8x8 "
		  "(and no GameType tag says which variant); not replayed");
}

static void test_variants(void)
{
	/* Other variants are replayed under their rules (pdn/vreplay.c), not as English. */
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 *"), "");
	CHECK(!rp.supported && rp.variant_replayed && rp.variant_plies == 1 && rp.complete);
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 28-23 *"),
		  "error illegal-move ply 2: 28-23: not legal here under the rules of International draughts (Black to move; "
		  "square 28 holds a White man; legal: 16-21, 17-21, 17-22, 18-22, 18-23, 19-23, 19-24, 20-24, 20-25); did "
		  "you mean 18-23 (one digit off)? It is a legal move for White: is a move missing before it?");
	CHECK(rp.variant_replayed && rp.variant_plies == 1 && !rp.complete);
	/* why a variant's move is illegal, and what was probably meant (pdn/vexplain.c) */
	static const struct {
		const char *game, *has;
	} why[] = {
		{ "[GameType \"20\"]\n1. 28-32 *", "(White to move; square 28 is empty; legal: " },
		{ "[GameType \"20\"]\n1. 28-32 *", "did you mean 32-28 (squares reversed)?" },
		{ "[GameType \"20\"]\n1. 32-29 *", "a man moves one square diagonally" },
		{ "[GameType \"20\"]\n1. 32-29 *", "33-29 (one digit off)" },
		{ "[GameType \"20\"]\n1. 32-82 *", "not a move under the rules of International draughts (White to move; "
						     "square 82 does not exist: International draughts has 50" },
		{ "[GameType \"20\"]\n1. 32-82 *", "did you mean 32-28 (two digits swapped)?" },
		{ "[GameType \"20\"]\n1. 32-28 19-23 2. 28x91 *", "square 91 does not exist: International draughts has 50; "
									"legal: 28x19); did you mean 28x19 (two digits swapped)?" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 28-33 *", "square 33 is occupied by a White man" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 28-33 *", "did you mean 28x17 (the only legal move of that piece)?" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 33-29 *", "a capture is compulsory" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 28-22 *", "square 22 is occupied by a Black man" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 28x17 12x21 3. 33-29 11-17 4. 29-24 19x30 5. 35x24 20x29 "
		  "6. 34x23 *", "a capture here must take 2 pieces, the most there are" },
		{ "[GameType \"20\"]\n1. 32-28 17-22 2. 28x17 12x21 3. 33-29 11-17 4. 29-24 19x30 5. 35x24 20x29 "
		  "6. 34x23 *", "did you mean 34x12 (the only legal move of that piece)?" },
		{ "[GameType \"25\"]\n1. c3-d5 *", "d5 is not a playing square" },
		{ "[GameType \"25\"]\n1. c3-d5 *", "did you mean c3-d4 (one digit off)?" },
		{ "[GameType \"25\"]\n1. i3-d4 *", "i3 is off the 8x8 board" },
		{ "[GameType \"25\"]\n1. i3-d4 *", "c3-d4 (one letter off)" },
		{ "[GameType \"25\"]\n1. c3d4 *", "did you mean c3-d4 (the squares written together)?" },
		{ "[GameType \"25\"]\n1. c3-b2 *", "square b2 is occupied by a White man" },
		{ "[GameType \"25\"]\n1. c3-d4 f6-g5 2. d4-c3 *", "a man cannot move backwards" },
	};
	for (size_t i = 0; i < sizeof why / sizeof *why; i++) {
		const char *got = replay(why[i].game);
		CHECK_REPORT(strstr(got, why[i].has) != NULL, "%s: wanted '%s' in: %s", why[i].game, why[i].has, got);
	}
	/* One driver for every variant: numbers, separators, glued text, results and the
	 * final position are checked as in English draughts. */
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 3. 28x19 14x23 *"),
		  "warning move-number ply 3: move number 3 where 2 was expected");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 28x19 *"),
		  "warning move-number ply 3: move number 2 missing before 28x19");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32x28 19-23 2. 28-19 *"),
		  "warning x-on-plain-move ply 1: plain move 32x28 written with 'x'\n"
		  "warning dash-on-jump ply 3: capture 28-19 written with '-'");
	CHECK_STR(g.findings.v[1].move, "28-19");
	CHECK_STR(replay("[GameType \"20\"]\n1. 3228 1923 *"),
		  "warning no-separator ply 1: move '3228' written without a separator");
	CHECK(rp.variant_plies == 2 && rp.complete);
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19!? 14x23 2-0"),
		  "");
	CHECK_INT(rp.result, RES_BLACK_WINS);
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23+ *"),
		  "warning glued-text ply 4: text '+' glued to the move");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23"),
		  "warning no-result ply 0: the move text does not end with a result");
	CHECK_STR(replay("[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0"), "");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 0-2"), "");
	/* "..." holds a place; a move written apart ("28- 19") is one move */
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 ... 19-23 2. 28x 19 *"), "");
	CHECK_INT(rp.variant_plies, 3);
	/* a lone king against a lone man that cannot move: the winner is the first mover */
	CHECK_STR(replay("[GameType \"20\"]\n[FEN \"W:W47,42:B37\"]\n1. 42x31 2-0"), "");
	CHECK_STR(replay("[GameType \"20\"]\n[FEN \"W:W47,42:B37\"]\n1. 42x31 1/2-1/2"),
		  "warning result-contradicts ply 1: Black has no legal move at the end, so White won (1-0), yet the "
		  "result is 1/2-1/2");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *"), "");
	CHECK_STR(replay("[GameType \"20\"]\n[Corner \"a1\"]\n1. 32-28 *"),
		  "warning unknown-tag ply 0: unknown tag 'Corner'");
	CHECK_STR(replay("[GameType \"20\"]\n1. 32-28 /FEN \"W:W28:B19\"/ 19-23 *"),
		  "error bad-fen ply 2: a set-up position inside the moves (\"W:W28:B19\") is read in English draughts "
		  "only; the replay of this International draughts game stops here");
	CHECK_STR(replay("[GameType \"40\"]\n1. 32-28 19-23 2. 28x19 14x23 *"), "");
	CHECK(!rp.supported && rp.variant_replayed && rp.variant_plies == 4 && rp.complete);
	CHECK_STR(replay("[GameType \"41\"]\n1. 32-28 *"),
		  "note variant-unsupported ply 0: variant 41 (Spantsiretti) not supported yet; game not replayed");
	CHECK(!rp.supported && !rp.variant_replayed);
	CHECK_STR(replay("[GameType \"21,B,8,8,N1,0\"]\n1. 9-14 *"), "");
	CHECK(rp.supported);
	CHECK_STR(replay("1. c3-d4 f6-g5 *"),
		  "note variant-detected ply 0: no GameType tag: replayed as Russian draughts (alphanumeric moves such as "
		  "'c3-d4' are not English draughts notation, and its rules fit the moves best)");
	CHECK(rp.variant == 25 && rp.variant_plies == 2);
	CHECK_STR(replay("1. 32-28 19-23 *"),
		  "note variant-detected ply 0: no GameType tag: replayed as International draughts (the first move 32-28 is "
		  "an opening move of International draughts (10x10), and its rules fit the moves best)");
	CHECK(rp.variant == 20 && rp.variant_plies == 2);
	/* A single square above 32 late in an English game is a typo, not a variant. */
	CHECK_STR(replay("1. 9-14 23-18 2. 14x23 27x18 3. 5-9 26-23 4. 12-16 30-46 *"),
		  "error illegal-move ply 8: 30-46 is not legal here (square 46 does not exist); did you mean 30-26 (one digit off)?");
}

static void test_positions(void)
{
	/* The 1981 game 37 replays to the end; 32x5 is a triple jump written short. */
	FILE *f = fopen("corpora/tinsley-long-1981-game37.pdn", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	CHECK_STR(replay(text), "");
	CHECK_INT(rp.nply, 91);
	CHECK(rp.complete);
	CHECK_INT(rp.result, RES_BLACK_WINS);
	char mv[PK_MOVE_STRLEN];
	move_format(&rp.plies[19].move, true, mv, sizeof mv);
	CHECK_STR(mv, "32x23x14x5");
	for (int i = 0; i < rp.nply; i++)
		CHECK(rp.plies[i].after.key == pos_compute_key(&rp.plies[i].after));
}

int main(void)
{
	game_init(&g);
	replay_init(&rp);
	test_illegal_moves();
	test_captures();
	test_warnings();
	test_variants();
	test_positions();
	game_free(&g);
	replay_free(&rp);
	return check_done("test_replay");
}
