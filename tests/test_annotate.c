/* Annotation core: a move that drops men is a blunder, the best move has no loss, a
 * forced move is not searched, the same game gives the same notes twice, and the
 * decisive mistake and the classification follow their definitions. */
#include <stdlib.h>
#include "check.h"
#include "analysis/annotate.h"

static int replay_text(const char *pdn, pk_game *g, pk_replay *rp)
{
	pk_reader *r = pdn_open_mem(pdn, strlen(pdn));
	int got = pdn_read(r, g);
	pdn_close(r);
	if (got != 1)
		return -1;
	return replay_game(g, rp);
}

static void test_shot(void)
{
	/* 14-18 lets 22 jump 18 and 11 (landing on 8); 22x8 is then White's only move. */
	const char *pdn = "[FEN \"B:W22,31:B1,11,14\"]\n1. 14-18 22x8 *\n";
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	CHECK(replay_text(pdn, &g, &rp) == 0);
	CHECK_INT(rp.nply, 2);
	pk_gengine *e = gengine_new(engine_new(8, NULL), NULL);
	pk_annotate_opts o = { .lim = { .depth = 6 }, .th = thresholds_default };
	pk_note a[2], b[2];
	CHECK_INT(annotate_game(e, &rp, &o, a), 0);
	CHECK_INT(a[0].cls, CLASS_BLUNDER);
	CHECK(a[0].loss >= 200);
	CHECK(!move_same_effect(&a[0].best.e, &a[0].played.e));
	CHECK_INT(a[0].side, PK_BLACK);
	/* the forced capture: no search at all */
	CHECK_INT(a[1].cls, CLASS_FORCED);
	CHECK(a[1].nodes == 0 && a[1].depth == 0);
	/* the same again */
	CHECK_INT(annotate_game(e, &rp, &o, b), 0);
	CHECK(a[0].score_best == b[0].score_best && a[0].score_played == b[0].score_played && a[0].nodes == b[0].nodes);
	gengine_free(e);
	game_free(&g);
	replay_free(&rp);
}

static void test_good_and_stop(void)
{
	const char *pdn = "[FEN \"B:W22,30,31:B1,2,15\"]\n1. 15-19 *\n";
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	CHECK(replay_text(pdn, &g, &rp) == 0);
	pk_gengine *e = gengine_new(engine_new(8, NULL), NULL);
	pk_annotate_opts o = { .lim = { .depth = 6 }, .th = thresholds_default };
	pk_note n[1];
	CHECK_INT(annotate_game(e, &rp, &o, n), 0);
	CHECK((n[0].cls == CLASS_GOOD || n[0].cls == CLASS_INACCURACY) && n[0].depth == 6);   /* it keeps the man */
	/* stopped before it starts: nothing annotated */
	volatile sig_atomic_t stop = 1;
	o.stop = &stop;
	CHECK_INT(annotate_game(e, &rp, &o, n), 1);
	CHECK_INT(n[0].cls, CLASS_NONE);
	gengine_free(e);
	game_free(&g);
	replay_free(&rp);
}

/* A game of another variant through the same annotate_game: its engine, its moves, its
 * first mover; and an engine without that variant's family refuses it. */
static void test_variant(void)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *err;
	CHECK_INT(replay_moves_text_as("32-28 17-22 28x17 12x21", 20, &g, &rp, &err), 0);
	CHECK_INT(replay_gplies(&rp), 4);
	pk_gengine *e = gengine_new(NULL, vengine_new(8));
	pk_annotate_opts o = { .lim = { .depth = 4 }, .th = thresholds_default };
	pk_note n[4];
	CHECK_INT(annotate_game(e, &rp, &o, n), 0);
	CHECK_INT(n[0].side, PK_WHITE);
	CHECK_INT(n[1].side, PK_BLACK);
	CHECK(n[0].depth == 4 && n[0].cls != CLASS_NONE);
	CHECK_INT(n[2].cls, CLASS_FORCED);   /* 28x17: the only capture */
	CHECK(n[0].played.x.from == 32 && n[0].played.x.to == 28);
	gengine_free(e);
	pk_gengine *en = gengine_new(engine_new(8, NULL), NULL);
	CHECK_INT(annotate_game(en, &rp, &o, n), -1);
	gengine_free(en);
	game_free(&g);
	replay_free(&rp);
}

static void test_definitions(void)
{
	pk_thresholds th = { 100, 50, 25 };
	CHECK_INT(annotate_classify(&th, 0), CLASS_GOOD);
	CHECK_INT(annotate_classify(&th, 24), CLASS_GOOD);
	CHECK_INT(annotate_classify(&th, 25), CLASS_INACCURACY);
	CHECK_INT(annotate_classify(&th, 50), CLASS_MISTAKE);
	CHECK_INT(annotate_classify(&th, 100), CLASS_BLUNDER);
	CHECK_INT(score_capped(SCORE_WIN - 7), LOSS_CAP);
	CHECK_INT(score_capped(-SCORE_WIN + 3), -LOSS_CAP);
	CHECK_INT(class_nag(CLASS_BLUNDER), 4);
	CHECK_INT(class_nag(CLASS_ONLY), 1);
	/* Black wins. Scores before each move, side to move's view: level, level, then
	 * after White's ply 4 Black stays 2 men up to the end. */
	pk_note n[7];
	int side[7] = { PK_BLACK, PK_WHITE, PK_BLACK, PK_WHITE, PK_BLACK, PK_WHITE, PK_BLACK };
	int before[7] = { 0, 0, 10, 20, 200, -220, 250 };
	for (int i = 0; i < 7; i++)
		n[i] = (pk_note){ .ply = i + 1, .side = side[i], .cls = CLASS_GOOD, .score_best = before[i] };
	CHECK_INT(annotate_decisive(n, 7, RES_BLACK_WINS, &th), 3);
	/* a forced loser's move is not the decisive one: the one before it is */
	n[3].cls = CLASS_FORCED;
	CHECK_INT(annotate_decisive(n, 7, RES_BLACK_WINS, &th), 1);
	CHECK_INT(annotate_decisive(n, 7, RES_DRAW, &th), -1);
	/* a game that swings back has no decisive mistake until the last swing */
	n[3].cls = CLASS_GOOD;
	n[5].score_best = 0;
	CHECK_INT(annotate_decisive(n, 7, RES_BLACK_WINS, &th), 5);
}

int main(void)
{
	test_shot();
	test_good_and_stop();
	test_definitions();
	test_variant();
	return check_done("test_annotate");
}
