/* The engine of the other variants (engine/vsearch): from every variant's start it
 * answers a legal move and the same one each run; on thousands of random small
 * positions, every win it announces is confirmed by a plain minimax over the legal moves
 * to the announced length, and every win in up to three plies that minimax finds, it
 * finds; a stop flag ends a search without a limit. The evaluation is the weighted sum
 * of the terms tuning fits (vfeatures), and the built-in weight files all parse. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "engine/vsearch.h"
#include "rules/vbits.h"
#include "engine/vpattern.h"
#include "pdn/vreplay.h"
#include "rules/pos.h"

/* The runaways and the wings' balance of p from White's view, counted afresh over rows
 * and columns: a man counts when no enemy man stands in the cone widening one column a
 * row towards its crowning row, it is at least rows / 2 - 1 rows from its own back row,
 * and the enemy has no king. */
static void runaways_balance(const pk_vpos *p, int *runaway, int *balance)
{
	const pk_variant *v = p->v;
	int n = variant_squares(v), kings[2] = { 0, 0 }, wing[2][2] = { { 0, 0 }, { 0, 0 } };
	int at[12][12];
	memset(at, 0, sizeof at);
	for (int q = 1; q <= n; q++) {
		int r, c;
		variant_square_rc(v, q, &r, &c);
		at[r][c] = p->sq[q];
		kings[0] += p->sq[q] == VP_WKING;
		kings[1] += p->sq[q] == VP_BKING;
		if (p->sq[q] == VP_WMAN || p->sq[q] == VP_BMAN)
			wing[p->sq[q] == VP_BMAN][c >= v->cols / 2]++;
	}
	*balance = abs(wing[1][0] - wing[1][1]) - abs(wing[0][0] - wing[0][1]);
	*runaway = 0;
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++) {
			int pc = at[r][c];
			if (pc != VP_WMAN && pc != VP_BMAN)
				continue;
			bool white = pc == VP_WMAN;
			int adv = white ? v->rows - 1 - r : r, dir = white ? -1 : 1;
			if (kings[white] || adv < v->rows / 2 - 1)
				continue;
			bool free_ = true;
			for (int d = 1; free_ && r + dir * d >= 0 && r + dir * d < v->rows; d++)
				for (int cc = c - d; cc <= c + d; cc++)
					if (cc >= 0 && cc < v->cols && at[r + dir * d][cc] == (white ? VP_BMAN : VP_WMAN))
						free_ = false;
			*runaway += free_ ? (white ? 1 : -1) : 0;
		}
}

/* Can the side to move force the opponent to have no legal move within `plies`? */
static bool wins_within(const pk_vpos *p, int plies)
{
	if (plies <= 0)
		return false;
	pk_vmovelist *ml = malloc(sizeof *ml);
	int n = vgen(p, ml);
	bool win = false;
	for (int i = 0; i < n && !win; i++) {
		pk_vpos q;
		vmake(p, &ml->m[i], &q);
		pk_vmovelist *rl = malloc(sizeof *rl);
		int r = vgen(&q, rl);
		bool all = true;
		for (int k = 0; k < r && all; k++) {
			pk_vpos o;
			vmake(&q, &rl->m[k], &o);
			all = wins_within(&o, plies - 2);
		}
		win = all;   /* r == 0: the opponent cannot move */
		free(rl);
	}
	free(ml);
	return win;
}

static bool legal(const pk_vpos *p, const pk_vmove *m)
{
	pk_vmovelist *ml = malloc(sizeof *ml);
	int n = vgen(p, ml);
	bool ok = false;
	for (int i = 0; i < n; i++)
		ok = ok || (ml->m[i].from == m->from && ml->m[i].to == m->to && ml->m[i].ncap == m->ncap &&
			    !memcmp(ml->m[i].cap, m->cap, m->ncap));
	free(ml);
	return ok;
}

static uint64_t rng = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random position of 2..4 pieces with men off their crowning rows. */
static void random_pos(const pk_variant *v, pk_vpos *p)
{
	int n = variant_squares(v);
	vpos_clear(v, p, rnd(2) ? PK_WHITE : PK_BLACK);
	int pieces = 2 + (int)rnd(3);
	for (int i = 0; i < pieces; i++) {
		int s = 1 + (int)rnd((unsigned)n), r, c;
		if (p->sq[s])
			continue;
		variant_square_rc(v, s, &r, &c);
		bool white = i % 2 == 0;
		bool king = rnd(3) == 0;
		if (!king && ((white && r == 0) || (!white && r == v->rows - 1)))
			king = true;
		p->sq[s] = white ? (king ? VP_WKING : VP_WMAN) : (king ? VP_BKING : VP_BMAN);
	}
}

int main(void)
{
	pk_vengine *e = vengine_new(16);
	CHECK(e != NULL);
	int announced = 0, confirmed = 0, short_wins = 0, found = 0, positions = 0;
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable)
			continue;
		pk_vpos start;
		vpos_start(v, &start);
		pk_limits lim = { .depth = 4 };
		pk_vresult a, b;
		vengine_new_game(e);
		vengine_search(e, &start, NULL, &lim, NULL, NULL, NULL, &a);
		vengine_new_game(e);
		vengine_search(e, &start, NULL, &lim, NULL, NULL, NULL, &b);
		CHECK_REPORT(a.has_move && legal(&start, &a.best), "%s: the move from the start is legal", v->key);
		CHECK_REPORT(a.best.from == b.best.from && a.best.to == b.best.to && a.last.score == b.last.score,
			     "%s: the same answer twice", v->key);
		/* Random small positions. */
		for (int k = 0; k < 300; k++) {
			pk_vpos p;
			random_pos(v, &p);
			pk_vmovelist *ml = malloc(sizeof *ml);
			int n = vgen(&p, ml);
			free(ml);
			if (n == 0)
				continue;
			positions++;
			pk_limits l6 = { .depth = 5 };
			pk_vresult r;
			vengine_new_game(e);
			vengine_search(e, &p, NULL, &l6, NULL, NULL, NULL, &r);
			CHECK_REPORT(legal(&p, &r.best), "%s: a legal move", v->key);
			bool claims = score_is_win(r.last.score) && r.last.score > 0 && !r.forced;
			if (claims && score_plies(r.last.score) <= 7) {
				announced++;
				char fen[400];
				vfen_format(&p, fen, sizeof fen);
				bool ok = wins_within(&p, score_plies(r.last.score));
				confirmed += ok;
				CHECK_REPORT(ok, "%s %s: win in %d announced, not found by minimax", v->key, fen,
					     score_plies(r.last.score));
			}
			if (wins_within(&p, 3)) {
				short_wins++;
				bool ok = r.forced || (score_is_win(r.last.score) && r.last.score > 0);
				found += ok;
				char fen[400];
				vfen_format(&p, fen, sizeof fen);
				CHECK_REPORT(ok, "%s %s: a win in 3 plies not found (score %d)", v->key, fen, r.last.score);
			}
		}
	}
	printf("%d positions: %d wins announced (%d confirmed), %d short wins (%d found)\n", positions, announced,
	       confirmed, short_wins, found);
	CHECK(announced > 50);
	CHECK(short_wins > 50);

	/* A stop flag ends a search without a limit. */
	pk_vpos start;
	vpos_start(variant_by_name("international"), &start);
	volatile sig_atomic_t stop = 1;
	pk_limits none = { 0 };
	pk_vresult r;
	vengine_search(e, &start, NULL, &none, &stop, NULL, NULL, &r);
	CHECK(r.has_move && legal(&start, &r.best));
	/* No legal move: none is answered. */
	pk_vpos empty;
	vpos_clear(variant_by_name("russian"), &empty, PK_WHITE);
	empty.sq[1] = VP_BMAN;
	vengine_search(e, &empty, NULL, &none, NULL, NULL, NULL, &r);
	CHECK(!r.has_move);

	/* The count of kings' plain moves goes into the search with the game before the root:
	 * three white kings against a black man, every White move a king's plain move; with
	 * 49 such plies played (International: 25 moves each draw) every move draws, with
	 * none White wins. */
	{
		const pk_variant *iv = variant_by_name("international");
		pk_vpos k3;
		char err[200];
		CHECK(vfen_parse(iv, "W:WK46,K47,K48:B6", &k3, err, sizeof err) == 0);
		pk_limits l8 = { .depth = 8 };
		pk_vresult fresh, late;
		pk_history none_played = { NULL, 0, 0, 0 }, late_h = { NULL, 0, 49, 0 };
		vengine_new_game(e);
		vengine_search(e, &k3, &none_played, &l8, NULL, NULL, NULL, &fresh);
		vengine_new_game(e);
		vengine_search(e, &k3, &late_h, &l8, NULL, NULL, NULL, &late);
		CHECK_REPORT(fresh.last.score > 100, "three kings against a man: %d with no count", fresh.last.score);
		CHECK_REPORT(late.last.score == 0, "three kings against a man, 49 plies of kings played: %d, not a draw",
			     late.last.score);
	}

	/* International's endings that FMJD's rules draw (three pieces or fewer, a king among
	 * them, against a lone king: 16 and 5 moves each) are not scored as the material
	 * edge: two kings against one are a draw, three against a king holding the long
	 * diagonal close to one, three against a king off it a win to play for; four kings
	 * are under no such rule. */
	{
		const pk_variant *iv = variant_by_name("international");
		const char *fens[] = { "W:WK1,K2:BK28", "W:WK1,K2,K3:BK28", "W:WK1,K2,K3:BK27", "W:WK1,K2,K3,K4:BK28" };
		int sc[4];
		for (int i = 0; i < 4; i++) {
			pk_vpos q;
			char err[200];
			CHECK(vfen_parse(iv, fens[i], &q, err, sizeof err) == 0);
			pk_limits l10 = { .depth = 10 };
			pk_vresult r10;
			vengine_new_game(e);
			vengine_search(e, &q, NULL, &l10, NULL, NULL, NULL, &r10);
			sc[i] = r10.last.score;
		}
		CHECK_REPORT(abs(sc[0]) < 50, "two kings against one: %d, not near a draw", sc[0]);
		CHECK_REPORT(abs(sc[1]) < 150, "three kings against one on the long diagonal: %d", sc[1]);
		CHECK_REPORT(sc[2] > 300, "three kings against one off the long diagonal: %d", sc[2]);
		CHECK_REPORT(sc[3] > 300, "four kings against one: %d", sc[3]);
	}

	/* Root moves left out (vengine_exclude): with every move but one left out, that one
	 * is the answer, and the best of those answers scores as the search of all moves. */
	int excl = 0, excl_same = 0;
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable)
			continue;
		for (int k = 0; k < 40; k++) {
			pk_vpos p;
			random_pos(v, &p);
			pk_vmovelist *ml = malloc(sizeof *ml);
			int n = vgen(&p, ml);
			if (n < 2) {
				free(ml);
				continue;
			}
			pk_limits l3 = { .depth = 3 };
			pk_vresult all, one;
			vengine_new_game(e);
			vengine_search(e, &p, NULL, &l3, NULL, NULL, NULL, &all);
			int best = -SCORE_WIN - 1;
			bool answered = true;
			for (int m = 0; m < n; m++) {
				pk_vmove others[VAR_MAX_MOVES];
				int no = 0;
				for (int j = 0; j < n; j++)
					if (j != m)
						others[no++] = ml->m[j];
				vengine_new_game(e);
				vengine_exclude(e, others, no);
				vengine_search(e, &p, NULL, &l3, NULL, NULL, NULL, &one);
				answered = answered && one.has_move && vmove_same(&one.best, &ml->m[m]);
				if (one.last.score > best)
					best = one.last.score;
			}
			excl++;
			excl_same += best == all.last.score;
			CHECK_REPORT(answered, "%s: the move left in is the answer", v->key);
			/* every move left out: no move */
			vengine_exclude(e, ml->m, n);
			vengine_search(e, &p, NULL, &l3, NULL, NULL, NULL, &one);
			CHECK_REPORT(!one.has_move, "%s: every move left out", v->key);
			free(ml);
		}
	}
	printf("%d positions with moves left out: %d score as the whole search\n", excl, excl_same);
	CHECK(excl > 300);
	/* The same depth on both sides: nearly every time the same score (the table can
	 * carry a deeper score between moves, so not always; a search of one move a ply
	 * deeper than the others agreed on less than half of them). */
	CHECK_REPORT(excl_same * 100 >= excl * 98, "%d of %d", excl_same, excl);

	/* veval is 100 per man plus the weights times vfeatures' terms, within the
	 * rounding of the scaled terms, on random middle-game and ending positions, with the
	 * hand-set weights and with every weight set; the runaways and the balance are as
	 * counted afresh. */
	int same = 0, tried = 0, counted = 0, runaways = 0, bits_same = 0, bits_tried = 0, safe_same = 0, safe_tried = 0;
	for (int i = 0; variant_at(i); i++) {
		const pk_variant *v = variant_at(i);
		if (!v->replayable)
			continue;
		pk_vweights w;
		vweights_hand_set(v, &w);
		for (int k = 0; k < 400; k++) {
			if (k == 200)
				for (int t = 0; t < VW_NUM; t++)
					w.w[t] = t == VW_DRAWISH ? 0 : 3 + 7 * t;   /* a switch: below */
			pk_vpos p;
			vpos_start(v, &p);
			pk_vmovelist *ml = malloc(sizeof *ml);
			for (int ply = 0, n; ply < 6 + k % 90 && (n = vgen(&p, ml)) > 0; ply++) {
				pk_vpos q;
				vmake(&p, &ml->m[rnd((unsigned)n)], &q);
				p = q;
			}
			free(ml);
			int men;
			double f[VW_NUM], sum;
			vfeatures(&p, &men, f);
			sum = 100.0 * men;
			for (int t = 0; t < VW_NUM; t++)
				sum += w.w[t] * f[t];
			tried++;
			same += fabs(veval(&p, &w) - sum) < 4;
			/* counted from the bitboards (where the board has them): the same value,
			 * with and without the backed men and outposts (which the bitboards leave
			 * to the walk) */
			if (vbits_supported(v)) {
				pk_vbits bb;
				vbits_of(&p, &bb);
				pk_vweights w2 = w;
				w2.w[VW_BACKED] = w2.w[VW_OUTPOST] = 0;
				bits_tried++;
				bits_same += veval_bits(&p, &bb, &w, 3) == veval_mobility(&p, &w, 3) &&
					     veval_bits(&p, &bb, &w2, -2) == veval_mobility(&p, &w2, -2);
			}
			int run, bal, sign = p.stm == PK_WHITE ? 1 : -1;
			runaways_balance(&p, &run, &bal);
			counted += f[VW_RUNAWAY] == sign * run && f[VW_BALANCE] == sign * bal;
			runaways += run != 0;
			/* the men's safe moves: each plain move of a man made, then the other side
			 * asked for a capture, by the generator */
			if (vbits_supported(v)) {
				pk_vbits bb;
				vbits_of(&p, &bb);
				for (int side = 0; side < 2; side++) {
					pk_vpos s = p;
					s.stm = side;
					pk_vmovelist *ql = malloc(sizeof *ql);
					int nq = vgen_quiet(&s, ql), safe = 0;
					for (int m = 0; m < nq; m++) {
						if (s.sq[ql->m[m].from] != VP_WMAN && s.sq[ql->m[m].from] != VP_BMAN)
							continue;
						pk_vpos after;
						vmake(&s, &ql->m[m], &after);
						safe += !vhas_capture(&after);
					}
					free(ql);
					safe_tried++;
					safe_same += vbits_safe_men_moves(v, &bb, side) == safe;
				}
			}
		}
	}
	CHECK_REPORT(safe_same == safe_tried && safe_tried > 1000, "the men's safe moves as the generator finds them in %d of %d",
		     safe_same, safe_tried);
	CHECK_REPORT(same == tried, "veval = the weighted terms in %d of %d positions", same, tried);
	CHECK_REPORT(bits_same == bits_tried && bits_tried > 1000, "veval from the bitboards = veval in %d of %d positions",
		     bits_same, bits_tried);
	CHECK_REPORT(counted == tried, "runaways and balance as counted afresh in %d of %d", counted, tried);
	/* The evaluations a search keeps (the thread's cache) are those of its own weights: a
	 * search with other weights on the same engine, after a new game, searches what a
	 * fresh engine with them does, node for node. */
	{
		const pk_variant *v = variant_by_name("international");
		pk_vpos p;
		char err[120];
		CHECK(vfen_parse(v, "W:W27,28,31,32,33,34,35,36,37,38,39,40,42,43,45,47:B4,6,7,8,9,11,12,13,14,16,17,18,19,20,24",
				 &p, err, sizeof err) == 0);
		pk_vweights a, b;
		vweights_for(v, &a);
		b = a;
		b.pat = NULL;   /* the hand-set evaluation alone */
		b.w[VW_MOBILITY] = 20;
		pk_limits l7 = { .depth = 4 };
		pk_vresult ra, rb, fresh;   /* (a position of more than one move: a forced one is not searched) */
		pk_vengine *f1 = vengine_new(16), *f2 = vengine_new(16);
		vengine_set_weights(f1, &a);
		vengine_search(f1, &p, NULL, &l7, NULL, NULL, NULL, &ra);
		vengine_new_game(f1);
		vengine_set_weights(f1, &b);
		vengine_search(f1, &p, NULL, &l7, NULL, NULL, NULL, &rb);
		vengine_set_weights(f2, &b);
		vengine_search(f2, &p, NULL, &l7, NULL, NULL, NULL, &fresh);
		CHECK_REPORT(rb.last.nodes == fresh.last.nodes && rb.last.score == fresh.last.score &&
			     ra.last.score != rb.last.score,
			     "other weights on the same engine: %llu nodes, score %d; on a fresh one %llu, %d (the first weights' %d)",
			     (unsigned long long)rb.last.nodes, rb.last.score, (unsigned long long)fresh.last.nodes, fresh.last.score,
			     ra.last.score);
		vengine_free(f1);
		vengine_free(f2);
	}
	/* drawish: the side ahead's score cut against a king, to an eighth with three pieces or
	 * fewer, to a half with as many kings and men at most one apart; else, or against men
	 * alone, as it was; the same from the bitboards */
	{
		const pk_variant *v = variant_by_name("international");
		pk_vweights off, on;
		vweights_for(v, &off);
		off.w[VW_DRAWISH] = 0;
		on = off;
		on.w[VW_DRAWISH] = 1;
		struct {
			const char *fen;
			int divisor;   /* 0: not cut */
		} cases[] = {
			{ "W:W31,32,33:BK5,15", 0 },   /* the king's side ahead, against men alone */
			{ "W:WK31,32,33:BK5,15", 8 },
			{ "B:W31,32,33:BK5,15", 0 },   /* the king's side ahead: no king against it */
			{ "W:W31,32,33:B5,15", 0 },
			{ "W:WK31,K32,K33:BK5", 0 },   /* a lone king: the search's FMJD endings */
			{ "W:WK46,K47,31,32,33,34,35:BK3,K4,11,12,13,14", 2 },
			{ "W:WK46,K47,31,32,33,34,35,36:BK3,K4,11,12,13,14", 0 },
			{ "W:WK46,31,32,33,34,35:BK3,K4,11,12,13,14", 0 },
		};
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			pk_vpos p;
			char err[120];
			if (vfen_parse(v, cases[i].fen, &p, err, sizeof err) < 0) {
				CHECK_REPORT(0, "%s: %s", cases[i].fen, err);
				continue;
			}
			pk_vbits bb;
			vbits_of(&p, &bb);
			int a = veval(&p, &off), b = veval(&p, &on);
			int want = cases[i].divisor ? a / cases[i].divisor : a;
			CHECK_REPORT(a != 0 && b == want, "%s: %d with drawish, want %d (%d without)", cases[i].fen, b, want, a);
			CHECK(veval_bits(&p, &bb, &on, 5) == veval_mobility(&p, &on, 5));
		}
	}
	CHECK_REPORT(runaways > tried / 20, "positions with runaways: %d of %d", runaways, tried);
	/* The built-in fitted weights (book/weights-*.txt): each file parses, names a
	 * variant, and (over the hand-set weights) is what that variant's engine uses. */
	extern const char *const vweights_texts[];
	int files = 0;
	for (int i = 0; vweights_texts[i]; i++) {
		pk_vweights w = { 0 };
		int gt = 0;
		char err[160] = "";
		CHECK_REPORT(vweights_parse(vweights_texts[i], &w, &gt, err, sizeof err) == 0, "weight file %d: %s", i, err);
		const pk_variant *v = variant_by_gametype(gt);
		CHECK_REPORT(v && v->replayable, "weight file %d names GameType %d", i, gt);
		pk_vweights built;
		if (v) {
			/* a file names the weights it changes; the others stay hand-set */
			vweights_hand_set(v, &w);
			vweights_parse(vweights_texts[i], &w, &gt, err, sizeof err);
			vweights_for(v, &built);
			CHECK_REPORT(built.tuned && !memcmp(built.w, w.w, sizeof w.w), "%s uses its fitted weights", v->key);
		}
		files++;
	}
	printf("%d built-in variant weight files\n", files);
	/* Every built-in pattern file (book/vpatterns-*.txt) parses, names a 10x10 variant,
	 * and is what that variant's evaluation adds. */
	extern const char *const vpatterns_texts[];
	int pfiles = 0;
	for (int i = 0; vpatterns_texts[i]; i++) {
		static pk_patterns pt;
		int gt = 0;
		char err[160] = "";
		CHECK_REPORT(vpatterns_parse(vpatterns_texts[i], &pt, &gt, err, sizeof err) == 0, "pattern file %d: %s", i, err);
		const pk_variant *v = variant_by_gametype(gt);
		CHECK_REPORT(v && vpattern_board(v), "pattern file %d names GameType %d, a 10x10 board", i, gt);
		if (v) {
			pk_vweights built;
			vweights_for(v, &built);
			CHECK_REPORT(built.pat && built.pat->checksum == pt.checksum, "%s adds its built-in patterns", v->key);
		}
		pfiles++;
	}
	printf("%d built-in variant pattern files\n", pfiles);
	/* The windows' indices summed over the pieces (vpattern_eval_masks, the search's) are
	 * the board's read square by square (vpattern_eval, the trainer's): random weights,
	 * positions of random games of International draughts, both sides to move. */
	{
		static pk_patterns rp;
		memset(&rp, 0, sizeof rp);
		rp.windows = VPAT_WINDOWS;
		rp.material = true;   /* and the material's table */
		for (int ph = 0; ph < PAT_PHASES; ph++)
			for (int k = 0; k < PAT_TABLES; k++)
				for (int i = 0; i < PAT_INDEX; i++)
					rp.w[ph][k][i] = (int16_t)((int)rnd(2001) - 1000);
		vpatterns_checksum(&rp);
		const pk_variant *v = variant_by_name("international");
		pk_vmovelist *ml = malloc(sizeof *ml);
		int agree = 0, seen = 0, readback = 0, written = 0, lengthened = 0;
		int men_agree = 0, kings_same = 0, with_kings = 0, tempo_agree = 0, turned_agree = 0, turned_seen = 0;
		int strips_agree = 0;
		pk_vweights tw;
		vweights_for(v, &tw);
		tw.pat = &rp;
		for (int game = 0; game < 200 && ml; game++) {
			pk_vpos p;
			vpos_start(v, &p);
			for (int ply = 0; ply < 120; ply++) {
				for (int side = 0; side < 2; side++) {
					pk_vpos q = p;
					q.stm = side ? PK_BLACK : PK_WHITE;
					pk_vbits b;
					vbits_of(&q, &b);
					int all = __builtin_popcountll(b.men[0] | b.men[1] | b.kings[0] | b.kings[1]);
					rp.men_only = false;
					int me = q.stm, other = !q.stm;
					int mat = vpattern_material_index(__builtin_popcountll(b.men[me]), __builtin_popcountll(b.kings[me]),
									  __builtin_popcountll(b.men[other]), __builtin_popcountll(b.kings[other]));
					int a = vpattern_eval(&rp, &q),
					    m = vpattern_eval_masks(&rp, q.stm, b.men[PK_WHITE] | b.kings[PK_WHITE],
								    b.men[PK_BLACK] | b.kings[PK_BLACK], all, mat);
					agree += a == m;
					seen++;
					/* and with the ten strips (their lanes past the first vector's) */
					rp.windows = VPAT_WINDOWS_STRIPS;
					a = vpattern_eval(&rp, &q);
					m = vpattern_eval_masks(&rp, q.stm, b.men[PK_WHITE] | b.kings[PK_WHITE],
								b.men[PK_BLACK] | b.kings[PK_BLACK], all, mat);
					strips_agree += a == m;
					rp.windows = VPAT_WINDOWS;
					/* the windows of men alone: the kings' squares read as empty */
					rp.men_only = true;
					a = vpattern_eval(&rp, &q);
					m = vpattern_eval_masks(&rp, q.stm, b.men[PK_WHITE], b.men[PK_BLACK], all, mat);
					men_agree += a == m;
					/* phases by the men's rows to go: the search's evaluation from the
					 * bitboards is the board's */
					rp.tempo = true;
					tempo_agree += veval_bits(&q, &b, &tw, 3) == veval_bits(&q, NULL, &tw, 3);
					rp.tempo = false;
					/* the other side to move sees window k's squares as window
					 * vpattern_partner(k), its index vpattern_turned's (what train
					 * --tie colours ties) */
					if (side == 0) {
						pk_vpos o = q;
						o.stm = PK_BLACK;
						uint16_t ia[PAT_TABLES], ib[PAT_TABLES];
						int pa, ta, pb, tb;
						vpattern_indices(&q, false, false, ia, &pa, &ta);
						vpattern_indices(&o, false, false, ib, &pb, &tb);
						for (int w = 0; w < VPAT_WINDOWS_STRIPS; w++) {
							int k = vpattern_table(w), pk = vpattern_partner(k);
							turned_agree += pk >= 0 && pk < PAT_TABLES && pk != PAT_MATERIAL &&
									(pk < VPAT_WINDOWS) == (k < VPAT_WINDOWS) &&
									ib[pk] == vpattern_turned(ia[k]) && vpattern_partner(pk) == k &&
									vpattern_turned(vpattern_turned(ia[k])) == ia[k];
							turned_seen++;
						}
					}
					if (b.kings[0] | b.kings[1]) {
						/* the same position with each king a man of its side's:
						 * another evaluation only where the windows see kings */
						pk_vpos mq = q;
						for (int sq = 1; sq <= 50; sq++)
							if (mq.sq[sq] == VP_WKING || mq.sq[sq] == VP_BKING)
								mq.sq[sq] = mq.sq[sq] == VP_WKING ? VP_WMAN : VP_BMAN;
						rp.men_only = false;
						rp.material = false;   /* which counts kings apart */
						kings_same += vpattern_eval(&rp, &mq) == vpattern_eval(&rp, &q);
						rp.material = true;
						with_kings++;
					}
				}
				int n = vgen(&p, ml);
				if (n == 0)
					break;
				/* each move as a record writes it reads back as that move alone */
				for (int k = 0; k < n; k++) {
					char t[200];
					pk_vmove cand[4];
					vmove_pdn(&p, &ml->m[k], t, sizeof t);
					int c = vreplay_read_move(&p, t, cand, 4);
					readback += c == 1 && vmove_same(&cand[0], &ml->m[k]);
					written++;
					char shortform[200];
					vmove_text(v, &ml->m[k], false, shortform, sizeof shortform);
					lengthened += strcmp(shortform, t) != 0;
				}
				pk_vpos q;
				vmake(&p, &ml->m[rnd((unsigned)n)], &q);
				p = q;
			}
		}
		free(ml);
		CHECK_REPORT(written > 1000 && readback == written, "moves as records write them read back: %d of %d", readback, written);
		printf("%d moves of random International games, %d written with every landing square\n", written, lengthened);
		CHECK_REPORT(seen > 1000 && agree == seen, "the pattern evaluation from the pieces' squares: %d of %d the same", agree,
			     seen);
		CHECK_REPORT(strips_agree == seen, "35 windows (the strips too) from the pieces' squares: %d of %d the same",
			     strips_agree, seen);
		CHECK_REPORT(men_agree == seen, "the windows of men alone from the men's squares: %d of %d the same", men_agree, seen);
		CHECK_REPORT(tempo_agree == seen, "phases by tempo from the bitboards: %d of %d the same", tempo_agree, seen);
		CHECK_REPORT(turned_seen > 10000 && turned_agree == turned_seen,
			     "the other side to move: each window's partner reads the turned index: %d of %d", turned_agree,
			     turned_seen);
		CHECK_REPORT(with_kings > 100 && kings_same == with_kings,
			     "the windows read a king as a man of its side: %d of %d positions with kings the same", kings_same,
			     with_kings);
		/* "pieces men" is read and written, and names the weights apart */
		rp.men_only = true;
		vpatterns_checksum(&rp);
		uint32_t men_sum = rp.checksum;
		char *text = vpatterns_format(&rp, v, "test");
		static pk_patterns back;
		int gt;
		char err[160];
		CHECK_REPORT(text && strstr(text, "\npieces men\n") && vpatterns_parse(text, &back, &gt, err, sizeof err) == 0 &&
				     back.men_only && back.checksum == men_sum,
			     "a men-only pattern file reads back as one");
		free(text);
		rp.men_only = false;
		vpatterns_checksum(&rp);
		CHECK(rp.checksum != men_sum);
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\npieces kings\n", &back, &gt, err, sizeof err) < 0 &&
		      strstr(err, "line 3"));
		/* "material" is read and written, its table in the checksum; without the line its
		 * weights are refused */
		text = vpatterns_format(&rp, v, "test");
		CHECK_REPORT(text && strstr(text, "\nmaterial\n") && vpatterns_parse(text, &back, &gt, err, sizeof err) == 0 &&
				     back.material && back.checksum == rp.checksum,
			     "a pattern file with the material table reads back as one");
		free(text);
		uint32_t with_mat = rp.checksum;
		rp.w[1][PAT_MATERIAL][1558]++;
		vpatterns_checksum(&rp);
		CHECK(rp.checksum != with_mat);
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\n0 25 1558 40\n", &back, &gt, err, sizeof err) < 0 &&
		      strstr(err, "line 3"));
		/* "windows 35" is read and written, the strips' tables in the checksum; a strip's
		 * weight in a file of 25 windows is refused */
		uint32_t c25 = rp.checksum;
		rp.windows = VPAT_WINDOWS_STRIPS;
		vpatterns_checksum(&rp);
		text = vpatterns_format(&rp, v, "test");
		CHECK_REPORT(text && strstr(text, "\nwindows 35\n") && strstr(text, "\n1 35 ") &&
				     vpatterns_parse(text, &back, &gt, err, sizeof err) == 0 && back.windows == VPAT_WINDOWS_STRIPS &&
				     back.checksum == rp.checksum && rp.checksum != c25,
			     "a pattern file of 35 windows reads back as one");
		free(text);
		rp.windows = VPAT_WINDOWS;
		vpatterns_checksum(&rp);
		CHECK(rp.checksum == c25);
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\nwindows 25\n0 26 3 40\n", &back, &gt, err, sizeof err) < 0 &&
		      strstr(err, "line 4"));
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\nwindows 35\n0 26 3 40\n0 36 3 40\n", &back, &gt, err,
				      sizeof err) < 0 &&
		      strstr(err, "line 5"));
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\nwindows 30\n", &back, &gt, err, sizeof err) < 0 &&
		      strstr(err, "line 3"));
		/* "phase tempo" is read and written, and names the weights apart */
		rp.tempo = true;
		vpatterns_checksum(&rp);
		text = vpatterns_format(&rp, v, "test");
		CHECK_REPORT(text && strstr(text, "\nphase tempo\n") && vpatterns_parse(text, &back, &gt, err, sizeof err) == 0 &&
				     back.tempo && back.checksum == rp.checksum && rp.checksum != with_mat,
			     "a pattern file with phases by tempo reads back as one");
		free(text);
		rp.tempo = false;
		CHECK(vpatterns_parse("pdnkit-vpatterns 1\ngametype 20\nphase moves\n", &back, &gt, err, sizeof err) < 0 &&
		      strstr(err, "line 3"));
		/* the rows to go: 300 at the start, a man's rows from its crowning row */
		pk_vpos sp;
		vpos_start(v, &sp);
		CHECK_REPORT(vpattern_rows_to_go(&sp) == 300, "rows to go at the start: %d", vpattern_rows_to_go(&sp));
		CHECK(vpattern_step(true, 40, 300) == 0 && vpattern_step(true, 2, 0) == 22 && vpattern_step(false, 40, 0) == 0 &&
		      vpattern_step(false, 2, 300) == 22);
		/* the index: each side's men (to 19) and kings (to 3), the mover's first */
		CHECK(vpattern_material_index(20, 0, 20, 0) == 19 * 81 + 19);
		CHECK(vpattern_material_index(3, 1, 0, 2) == 23 * 81 + 40);
		CHECK(vpattern_material_index(0, 5, 12, 0) == 60 * 81 + 12);
		/* read from the board, from the mover's side: White 3 men and a king, Black two kings */
		static pk_patterns only;
		memset(&only, 0, sizeof only);
		only.windows = VPAT_WINDOWS;
		only.material = true;
		for (int ph = 0; ph < PAT_PHASES; ph++) {
			only.w[ph][PAT_MATERIAL][23 * 81 + 40] = 37;
			only.w[ph][PAT_MATERIAL][40 * 81 + 23] = -12;
		}
		vpatterns_checksum(&only);
		pk_vpos mp;
		memset(&mp, 0, sizeof mp);
		mp.v = v;
		mp.sq[31] = mp.sq[32] = mp.sq[33] = VP_WMAN;
		mp.sq[46] = VP_WKING;
		mp.sq[3] = mp.sq[5] = VP_BKING;
		mp.stm = PK_WHITE;
		CHECK_REPORT(vpattern_eval(&only, &mp) == 37, "the material table read for White to move: %d", vpattern_eval(&only, &mp));
		mp.stm = PK_BLACK;
		CHECK_REPORT(vpattern_eval(&only, &mp) == -12, "the material table read for Black to move: %d", vpattern_eval(&only, &mp));
	}
	vengine_free(e);
	printf("test_vsearch: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
