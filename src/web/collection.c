/* The calls of `pdnkit serve` that read the store: the games that match (a page at a
 * time), one game with its annotation, the explorer, the statistics and the players. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analysis/opnames.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "rules/fen.h"
#include "store/summary.h"
#include "web/internal.h"

/* --- filters --- */

typedef struct {
	pk_filter f;
	char result[16];
	uint8_t opening[1024];
	pk_gpos at;                  /* of the filter's variant */
	bool at_set;
} filter_buf;

static bool arg_filter(req *r, filter_buf *fb)
{
	pk_filter *f = &fb->f;
	filter_init(f);
	fb->at_set = false;
	f->player = req_arg(r, "player", ARG_MAX);
	f->black = req_arg(r, "black", ARG_MAX);
	f->white = req_arg(r, "white", ARG_MAX);
	f->event = req_arg(r, "event", ARG_MAX);
	f->site = req_arg(r, "site", ARG_MAX);
	const char *res = req_arg(r, "result", 16), *from = req_arg(r, "from", 16), *to = req_arg(r, "to", 16);
	const char *opening = req_arg(r, "opening", MOVES_MAX);
	const char *variant = req_arg(r, "variant", 64);
	if (r->status)
		return false;
	f->gametype = 21;
	if (variant) {
		const pk_variant *v = variant_by_name(variant);
		if (!v)
			return req_fail(r, 400, "'variant' must be a variant's name or GameType (english, international, 25...)");
		f->gametype = v->gametype;
	}
	if (f->gametype != 21 && opening)
		return req_fail(r, 400, "'opening' is of English draughts here ('moves' finds another variant's position in any order)");
	if (res) {
		int v = result_parse(res);
		if (!strcasecmp(res, "black"))
			v = RES_BLACK_WINS;
		else if (!strcasecmp(res, "white"))
			v = RES_WHITE_WINS;
		else if (!strcasecmp(res, "draw"))
			v = RES_DRAW;
		if (v == RES_NONE)
			return req_fail(r, 400, "'result' must be 1-0, 0-1, 1/2-1/2, *, black, white or draw");
		snprintf(fb->result, sizeof fb->result, "%s", result_string(v));
		f->result = fb->result;
	}
	if (from && store_date_bound(from, false, &f->date_from) < 0)
		return req_fail(r, 400, "'from' must be YYYY, YYYY-MM or YYYY-MM-DD");
	if (to && store_date_bound(to, true, &f->date_to) < 0)
		return req_fail(r, 400, "'to' must be YYYY, YYYY-MM or YYYY-MM-DD");
	long v;
	if (!req_long(r, "min_plies", 0, 100000, -1, &v))
		return false;
	f->min_plies = (int)v;
	if (!req_long(r, "max_plies", 0, 100000, -1, &v))
		return false;
	f->max_plies = (int)v;
	if (opening) {
		pk_game g;
		pk_replay rp;
		game_init(&g);
		replay_init(&rp);
		const char *error;
		int n = -1;
		if (replay_moves_text_as(opening, 21, &g, &rp, &error) < 0)
			req_fail(r, 400, "'opening': %s", error);
		else if ((n = store_encode_moves(&rp, fb->opening, sizeof fb->opening)) < 0)
			req_fail(r, 400, "'opening': too many moves");
		game_free(&g);
		replay_free(&rp);
		if (n < 0)
			return false;
		f->opening_set = true;
		f->opening = fb->opening;
		f->opening_len = n;
	}
	bool named;
	if (!req_gposition(r, &fb->at, &named))
		return false;
	if (named) {
		fb->at_set = true;
		f->position_set = true;
		f->position_key = fb->at.v ? vpos_key(&fb->at.x) : fb->at.e.key;
	}
	return true;
}

static void json_row_head(req *r, const pk_row *row)
{
	pk_buf *b = r->out;
	buf_printf(b, "{\"id\":%lld,\"event\":", (long long)row->id);
	buf_json(b, row->event);
	buf_str(b, ",\"site\":");
	buf_json(b, row->site);
	buf_str(b, ",\"date\":");
	buf_json(b, row->date);
	buf_str(b, ",\"round\":");
	buf_json(b, row->round);
	buf_str(b, ",\"black\":");
	buf_json(b, row->black);
	buf_str(b, ",\"white\":");
	buf_json(b, row->white);
	buf_str(b, ",\"result\":");
	buf_json(b, row->result);
	buf_printf(b, ",\"plies\":%d,\"gametype\":%d,\"status\":\"%s\"", row->plies, row->gametype,
		   row->status == STATUS_VALID      ? "valid"
		   : row->status == STATUS_WARNINGS ? "warnings"
		   : row->status == STATUS_ERRORS   ? "errors"
						    : "not replayed");
	if (row->ply >= 0)
		buf_printf(b, ",\"ply\":%d", row->ply);
}

typedef struct {
	req *r;
	int n;
} rows_ctx;

static int game_row(void *ctx, const pk_row *row)
{
	rows_ctx *c = ctx;
	buf_str(c->r->out, c->n++ ? ",\n" : "\n");
	json_row_head(c->r, row);
	buf_str(c->r->out, "}");
	return c->r->out->failed;
}

static int variant_row(void *ctx, int ncol, const char *const *cols)
{
	rows_ctx *c = ctx;
	if (ncol < 2 || !cols[0] || !cols[1])
		return 0;
	int gt = atoi(cols[0]);
	const pk_variant *v = variant_by_gametype(gt);
	buf_printf(c->r->out, "%s{\"gametype\":%d,\"key\":", c->n++ ? "," : "", gt);
	buf_json(c->r->out, v ? v->key : "");
	buf_str(c->r->out, ",\"name\":");
	buf_json(c->r->out, variant_name(gt));
	buf_printf(c->r->out, ",\"games\":%s}", cols[1]);
	return c->r->out->failed;
}

/* GET /api/games: the games that match, a page at a time, and how many match. */
void collection_games(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	long limit, offset;
	if (!arg_filter(r, &fb) || !req_long(r, "limit", 1, 500, 50, &limit) ||
	    !req_long(r, "offset", 0, 1000000000, 0, &offset))
		return;
	const char *order = req_arg(r, "order", 16);
	if (r->status)
		return;
	static const char *const orders[] = { "id", "date", "event", "black", "white", "plies", "result", "ply" };
	bool known = !order;
	for (size_t i = 0; order && i < sizeof orders / sizeof orders[0]; i++)
		known |= strcmp(order, orders[i]) == 0;
	if (!known)
		return (void)req_fail(r, 400, "'order' must be id, date, event, black, white, plies, result or ply");
	if (order && !strcmp(order, "ply") && !fb.at_set)
		return (void)req_fail(r, 400, "'order=ply' needs a position (fen or moves)");
	fb.f.order = order;
	fb.f.desc = req_bool(r, "desc");
	long count;
	if (store_count(s, &fb.f, &count) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	fb.f.limit = limit;
	fb.f.offset = offset;
	buf_printf(r->out, "{\"count\":%ld,\"offset\":%ld,\"limit\":%ld,\"games\":[", count, offset, limit);
	rows_ctx c = { r, 0 };
	if (store_query(s, &fb.f, game_row, &c) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	/* the games of each variant under the other filters, for choosing among them */
	buf_str(r->out, "],\"variants\":[");
	pk_filter all = fb.f;
	all.gametype = 0;
	all.limit = all.offset = 0;
	all.order = NULL;
	rows_ctx vc = { r, 0 };
	if (!all.opening_set && !all.position_set &&
	    store_select(s, "SELECT g.gametype, count(*) FROM game g %W GROUP BY g.gametype ORDER BY 2 DESC, 1", &all,
			 variant_row, &vc) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	buf_str(r->out, "]}");
}

/* --- one game --- */

typedef struct {
	req *r;
	int n;
} annot_ctx;

static int annot_row(void *ctx, const pk_annot_row *a)
{
	annot_ctx *c = ctx;
	pk_buf *b = c->r->out;
	buf_printf(b, "%s{\"ply\":%d,\"side\":", c->n++ ? "," : "", a->ply);
	buf_json(b, a->side);
	buf_str(b, ",\"class\":");
	buf_json(b, a->cls);
	buf_str(b, ",\"move\":");
	buf_json(b, a->move);
	if (a->scored) {
		buf_str(b, ",\"best\":");
		buf_json(b, a->best);
		buf_str(b, ",\"pv\":");
		buf_json(b, a->pv);
		buf_printf(b, ",\"score_best\":%d,\"score_played\":%d,\"loss\":%d,\"depth\":%d", a->score_best, a->score_played,
			   a->loss, a->depth);
	}
	buf_str(b, "}");
	return b->failed;
}

typedef struct {
	pk_buf *b;
} tags_ctx;

static int tag_row(void *ctx, const char *name, const char *value)
{
	tags_ctx *c = ctx;
	buf_str(c->b, c->b->p[c->b->n - 1] == '[' ? "[" : ",[");
	buf_json(c->b, name);
	buf_str(c->b, ",");
	buf_json(c->b, value);
	buf_str(c->b, "]");
	return c->b->failed;
}

typedef struct {
	pk_store *s;
	bool found;
	pk_game g;
	pk_replay rp;
	int64_t id;
	req *r;
	int loaded;
} load_ctx;

static int load_row(void *ctx, const pk_row *row)
{
	load_ctx *c = ctx;
	c->found = true;
	json_row_head(c->r, row);
	c->loaded = store_load_game(c->s, row, &c->g, &c->rp);
	return 1;
}

static int sink_buf(void *ctx, const char *p, size_t n)
{
	pk_buf *b = ctx;
	buf_add(b, p, n);
	return b->failed ? -1 : 0;
}

/* The comments of the main line after ply p's move (p = 0: before the first move), each
 * a string of the array. */
static void json_comments(req *r, const pk_game *g, const pk_replay *rp, int p)
{
	int from, to;
	if (rp->variant_replayed) {   /* another variant: its kept elements of each ply */
		const pk_vreplay *vr = &rp->vr;
		from = p == 0 ? 0 : vr->el ? vr->el[2 * (p - 1) + 1] + 1 : g->nel;
		to = p < vr->plies && vr->el ? vr->el[2 * p] : g->nel;
	} else {
		from = p == 0 ? 0 : rp->plies[p - 1].el_last + 1;
		to = p < rp->nply ? rp->plies[p].el : g->nel;
	}
	buf_str(r->out, "[");
	int n = 0;
	for (int e = from; e < to && e < g->nel; e++) {
		const pk_el *el = &g->els[e];
		if (el->kind != EL_COMMENT || el->depth != 0)
			continue;
		if (n++)
			buf_str(r->out, ",");
		buf_json(r->out, game_str(g, el->off));
	}
	buf_str(r->out, "]");
}

/* The board of a variant, its positions, its moves (squares as the variant numbers
 * them) and the side that opens each move number, for the game page. */
static void json_variant_game(req *r, const pk_game *g, const pk_replay *rp)
{
	pk_buf *b = r->out;
	const pk_vreplay *vr = &rp->vr;
	const pk_variant *v = vr->start.v;
	char fen[VAR_FEN_STRLEN];
	vfen_format(&vr->start, fen, sizeof fen);
	web_json_geometry(r, v, "board");
	buf_str(b, ",\"start\":");
	buf_json(b, fen);
	buf_str(b, ",\"positions\":[");
	for (int i = 0; i <= vr->plies; i++) {
		pk_gpos p;
		char s[VAR_MAX_SQ + 1];
		if (vreplay_pos_before(vr, i + 1, &p.x, NULL) < 0)
			break;
		p.v = v;
		web_gboard_string(&p, s);
		buf_printf(b, "%s\"%s\"", i ? "," : "", s);
	}
	buf_str(b, "],\"comment\":");
	json_comments(r, g, rp, 0);
	buf_str(b, ",\"moves\":[");
	for (int i = 0; i < vr->plies; i++) {
		pk_vpos before;
		pk_vmove m;
		char text[160];
		if (vreplay_pos_before(vr, i + 1, &before, &m) < 0)
			break;
		vmove_text(v, &m, false, text, sizeof text);
		buf_printf(b, "%s{\"ply\":%d,\"number\":%d,\"side\":\"%s\",\"move\":", i ? "," : "", i + 1,
			   replay_move_number(rp, i + 1), before.stm == PK_BLACK ? "black" : "white");
		buf_json(b, text);
		buf_printf(b, ",\"from\":%d,\"path\":[", m.from);
		for (int k = 0; k < m.nland; k++)
			buf_printf(b, "%s%d", k ? "," : "", m.land[k]);
		buf_str(b, "],\"comments\":");
		json_comments(r, g, rp, i + 1);
		int lo = vr->el ? vr->el[2 * i + 1] + 1 : g->nel, hi = i + 1 < vr->plies && vr->el ? vr->el[2 * (i + 1)] : g->nel;
		if (web_has_variations(g, lo, hi, 1)) {
			pk_gpos gb;
			gpos_variant(&gb, &before);
			buf_str(b, ",\"vars\":");
			web_json_variations(r, g, lo, hi, 1, &gb, replay_move_number(rp, i + 1));
		}
		buf_str(b, "}");
	}
	buf_str(b, "]");
}

/* GET /api/game?id=N: tags, positions, moves with comments, the best annotation, PDN;
 * for a game of another variant also its board and the side that moves first. */
void collection_game(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	long id;
	if (!req_long(r, "id", 1, 2000000000L, 0, &id))
		return;
	if (!id)
		return (void)req_fail(r, 400, "'id' is needed: the game's number");
	pk_filter f;
	filter_init(&f);
	f.id = id;
	load_ctx c = { .s = s, .r = r, .id = id };
	game_init(&c.g);
	replay_init(&c.rp);
	if (store_query(s, &f, load_row, &c) < 0) {
		req_fail(r, 500, "%s", store_error(s));
		goto out;
	}
	if (!c.found) {
		req_fail(r, 404, "no game %ld in the store", id);
		goto out;
	}
	if (c.loaded < 0) {
		req_fail(r, 500, "game %ld cannot be read back: %s", id, store_error(s));
		goto out;
	}
	pk_buf *b = r->out;
	buf_str(b, ",\"tags\":[");
	tags_ctx tc = { b };
	if (store_tags(s, id, tag_row, &tc) < 0) {
		req_fail(r, 500, "%s", store_error(s));
		goto out;
	}
	buf_str(b, "]");
	/* the opening by name: its Opening tag, else the classic opening it reached */
	const char *opening = game_tag(&c.g, "Opening");
	const pk_opname *on = opening && *opening ? NULL : opname_of_replay(&c.rp);
	buf_str(b, ",\"opening\":");
	if (opening && *opening)
		buf_json(b, opening);
	else if (on)
		buf_json(b, on->name);
	else
		buf_str(b, "null");
	bool english = c.rp.variant == 0 || c.rp.variant == 21;
	if (english) {
		char fen[PK_FEN_STRLEN], board[33];
		fen_format(&c.rp.start, fen, sizeof fen);
		buf_str(b, ",\"start\":");
		buf_json(b, fen);
		buf_str(b, ",\"positions\":[");
		for (int i = 0; i <= c.rp.nply; i++) {
			const pk_pos *p = i == 0 ? &c.rp.start : &c.rp.plies[i - 1].after;
			web_board_string(p, board);
			buf_printf(b, "%s\"%s\"", i ? "," : "", board);
		}
		buf_str(b, "],\"comment\":");
		json_comments(r, &c.g, &c.rp, 0);
		buf_str(b, ",\"moves\":[");
		for (int i = 0; i < c.rp.nply; i++) {
			const pk_pos *before = replay_pos_before(&c.rp, i + 1);
			const pk_move *m = &c.rp.plies[i].move;
			char text[PK_MOVE_STRLEN];
			pdn_move_string(before, m, false, text);
			buf_printf(b, "%s{\"ply\":%d,\"number\":%d,\"side\":\"%s\",\"move\":", i ? "," : "", i + 1,
				   replay_move_number(&c.rp, i + 1), before->stm == PK_BLACK ? "black" : "white");
			buf_json(b, text);
			buf_printf(b, ",\"from\":%d,\"path\":[", m->from + 1);
			for (int k = 0; k < m->nland; k++)
				buf_printf(b, "%s%d", k ? "," : "", m->land[k] + 1);
			buf_str(b, "],\"comments\":");
			json_comments(r, &c.g, &c.rp, i + 1);
			int lo = c.rp.plies[i].el_last + 1, hi = i + 1 < c.rp.nply ? c.rp.plies[i + 1].el : c.g.nel;
			if (web_has_variations(&c.g, lo, hi, 1)) {
				pk_gpos gb;
				gpos_english(&gb, before);
				buf_str(b, ",\"vars\":");
				web_json_variations(r, &c.g, lo, hi, 1, &gb, replay_move_number(&c.rp, i + 1));
			}
			buf_str(b, "}");
		}
		buf_str(b, "]");
	} else if (c.rp.variant_replayed && c.rp.vr.ord && !c.rp.vr.bad_start) {
		json_variant_game(r, &c.g, &c.rp);
	} else {
		buf_str(b, ",\"start\":null,\"positions\":null,\"moves\":null");
	}
	int64_t run;
	if (store_best_run(s, id, &run) < 0) {
		req_fail(r, 500, "%s", store_error(s));
		goto out;
	}
	buf_str(b, ",\"annotation\":");
	if (run) {
		buf_printf(b, "{\"run\":%lld,\"moves\":[", (long long)run);
		annot_ctx ac = { r, 0 };
		int decisive;
		if (store_load_annotation(s, id, run, annot_row, &ac, &decisive) < 0) {
			req_fail(r, 500, "%s", store_error(s));
			goto out;
		}
		buf_printf(b, "],\"decisive\":%d}", decisive);
	} else {
		buf_str(b, "null");
	}
	pk_buf pdn;
	buf_init(&pdn);
	pk_write_opts wo = { .width = 80 };
	pdn_write_game(&c.g, &c.rp, &wo, sink_buf, &pdn);
	buf_str(b, ",\"pdn\":");
	buf_json(b, pdn.failed ? "" : pdn.p ? pdn.p : "");
	buf_free(&pdn);
	buf_str(b, "}");
out:
	game_free(&c.g);
	replay_free(&c.rp);
}

/* --- export --- */

#define EXPORT_MAX 5000

typedef struct {
	pk_store *s;
	pk_buf pdn;
	long n;
	int failed;
} export_ctx;

static int export_row(void *ctx, const pk_row *row)
{
	export_ctx *c = ctx;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	if (store_load_game(c->s, row, &g, &rp) < 0)
		c->failed = 1;
	else {
		pk_write_opts wo = { .width = 80 };
		if (c->n++)
			buf_str(&c->pdn, "\n");
		pdn_write_game(&g, &rp, &wo, sink_buf, &c->pdn);
	}
	game_free(&g);
	replay_free(&rp);
	return c->failed || c->pdn.failed;
}

/* GET /api/export: the games under the filters as one PDN text (at most EXPORT_MAX, the
 * first by number), for a Download button: {"games":N,"count":M,"pdn":"..."}. */
void collection_export(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	if (!arg_filter(r, &fb))
		return;
	long count;
	if (store_count(s, &fb.f, &count) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	fb.f.limit = EXPORT_MAX;
	fb.f.offset = 0;
	export_ctx c = { .s = s };
	buf_init(&c.pdn);
	if (store_query(s, &fb.f, export_row, &c) < 0 && !c.failed && !c.pdn.failed) {
		buf_free(&c.pdn);
		return (void)req_fail(r, 500, "%s", store_error(s));
	}
	if (c.failed || c.pdn.failed) {
		buf_free(&c.pdn);
		return (void)req_fail(r, 500, "a game could not be read back: %s", store_error(s));
	}
	buf_printf(r->out, "{\"games\":%ld,\"count\":%ld,\"limit\":%d,\"pdn\":", c.n, count, EXPORT_MAX);
	buf_json(r->out, c.pdn.p ? c.pdn.p : "");
	buf_str(r->out, "}");
	buf_free(&c.pdn);
}

/* --- the collection --- */

static void json_bucket(req *r, const pk_bucket *k)
{
	buf_str(r->out, "{\"text\":");
	buf_json(r->out, k->text);
	buf_printf(r->out, ",\"games\":%ld,\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld}", k->games, k->bw, k->ww,
		   k->draws);
}

static pk_summary *summary_of(req *r, pk_store *s, filter_buf *fb)
{
	pk_summary *st = malloc(sizeof *st);
	if (!st) {
		req_fail(r, 503, "out of memory");
		return NULL;
	}
	if (store_summary(s, &fb->f, fb->at_set && !fb->at.v ? &fb->at.e : NULL, fb->at_set && fb->at.v ? &fb->at.x : NULL,
			  st) < 0) {
		req_fail(r, 500, "%s", store_error(s));
		free(st);
		return NULL;
	}
	return st;
}

/* GET /api/explorer: the games that reach the position (any move order) under the
 * filters, and the moves they played next with their results; every legal move is
 * listed, the played ones first. */
void collection_explorer(pk_web *w, req *r, pk_store *s)
{
	filter_buf fb;
	if (!arg_filter(r, &fb))
		return;
	if (!fb.at_set) {
		gpos_start(&fb.at, variant_by_gametype(fb.f.gametype));
		fb.at_set = true;
		fb.f.position_set = true;
		fb.f.position_key = fb.at.v ? vpos_key(&fb.at.x) : fb.at.e.key;
	}
	long count;
	if (store_count(s, &fb.f, &count) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	pk_summary *st = summary_of(r, s, &fb);
	if (!st)
		return;
	char fen[VAR_FEN_STRLEN], board[VAR_MAX_SQ + 1];
	gpos_fen(&fb.at, fen, sizeof fen);
	web_gboard_string(&fb.at, board);
	pk_buf *b = r->out;
	buf_str(b, "{\"fen\":");
	buf_json(b, fen);
	buf_printf(b, ",\"board\":\"%s\",\"turn\":\"%s\",\"games\":%ld,\"ended\":%ld", board,
		   gpos_stm(&fb.at) == PK_BLACK ? "black" : "white", count, st->explore_ended);
	web_json_geometry(r, fb.at.v, "geometry");
	/* the classic opening the moves reached (English draughts, given as moves) */
	const char *moves = fb.at.v ? NULL : req_arg(r, "moves", MOVES_MAX);
	if (moves && *moves) {
		pk_game g;
		pk_replay rp;
		const char *why;
		game_init(&g);
		replay_init(&rp);
		const pk_opname *on = replay_moves_text(moves, &g, &rp, &why) == 0 ? opname_of_replay(&rp) : NULL;
		if (on) {
			buf_str(b, ",\"opening\":");
			buf_json(b, on->name);
		}
		game_free(&g);
		replay_free(&rp);
	}
	buf_printf(b, ",\"results\":{\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld,\"unknown\":%ld},\"moves\":[",
		   st->res[0], st->res[1], st->res[2], st->res[3]);
	pk_gmove *ml = malloc(sizeof *ml * VAR_MAX_MOVES);
	bool *listed = calloc(VAR_MAX_MOVES, sizeof *listed);
	int nm = ml && listed ? gpos_gen(&fb.at, ml, VAR_MAX_MOVES) : 0;
	int n = 0;
	for (int i = 0; i < st->nexplore; i++) {
		int o = st->ex_ord[i];
		if (o < 0 || o >= nm)
			continue;
		listed[o] = true;
		buf_str(b, n++ ? "," : "");
		web_json_gmove(r, &fb.at, &ml[o]);
		b->n--;   /* reopen the object */
		buf_printf(b, ",\"games\":%ld,\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld", st->explore[i].games,
			   st->explore[i].bw, st->explore[i].ww, st->explore[i].draws);
		web_json_move_egdb(w, r, &fb.at, &ml[o]);
		buf_str(b, "}");
	}
	for (int o = 0; o < nm; o++) {
		if (listed[o])
			continue;
		buf_str(b, n++ ? "," : "");
		web_json_gmove(r, &fb.at, &ml[o]);
		b->n--;
		buf_str(b, ",\"games\":0,\"black_wins\":0,\"white_wins\":0,\"draws\":0");
		web_json_move_egdb(w, r, &fb.at, &ml[o]);
		buf_str(b, "}");
	}
	free(ml);
	free(listed);
	buf_str(b, "],\"egdb\":");
	web_json_gegdb(w, r, &fb.at);
	buf_str(b, "}");
	free(st);
}

/* GET /api/stats: counts, results, openings, players and years of the matching games. */
void collection_stats(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	if (!arg_filter(r, &fb))
		return;
	pk_summary *st = summary_of(r, s, &fb);
	if (!st)
		return;
	pk_buf *b = r->out;
	char d1[16], d2[16];
	summary_date_text(st->date_min, d1, sizeof d1);
	summary_date_text(st->date_max, d2, sizeof d2);
	buf_printf(b, "{\"games\":%ld,\"player_count\":%ld,\"events\":%ld,\"first_date\":", st->games, st->players, st->events);
	buf_json(b, st->date_min ? d1 : NULL);
	buf_str(b, ",\"last_date\":");
	buf_json(b, st->date_max ? d2 : NULL);
	buf_printf(b, ",\"results\":{\"black_wins\":%ld,\"white_wins\":%ld,\"draws\":%ld,\"unknown\":%ld},\"openings\":[",
		   st->res[0], st->res[1], st->res[2], st->res[3]);
	for (int i = 0; i < st->nopenings; i++) {
		buf_str(b, i ? "," : "");
		json_bucket(r, &st->openings[i]);
	}
	buf_str(b, "],\"players\":[");
	for (int i = 0; i < st->nplayers; i++) {
		buf_str(b, i ? ",{\"name\":" : "{\"name\":");
		buf_json(b, st->players_top[i].name);
		buf_printf(b, ",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld}", st->players_top[i].games,
			   st->players_top[i].won, st->players_top[i].drawn, st->players_top[i].lost);
	}
	buf_str(b, "],\"years\":[");
	int n = 0;
	for (int y = st->ymin; y && y <= st->ymax; y++)
		if (y >= 1500 && y - 1500 < 600 && st->years[y - 1500])
			buf_printf(b, "%s[%d,%d]", n++ ? "," : "", y, st->years[y - 1500]);
	buf_str(b, "]}");
	free(st);
}

typedef struct {
	req *r;
	int n;
} players_ctx;

static int player_row(void *ctx, const pk_store_player *p)
{
	players_ctx *c = ctx;
	pk_buf *b = c->r->out;
	buf_str(b, c->n++ ? ",\n{\"name\":" : "\n{\"name\":");
	buf_json(b, p->name);
	buf_str(b, ",\"key\":");
	buf_json(b, p->key);
	buf_printf(b, ",\"games\":%ld,\"won\":%ld,\"drawn\":%ld,\"lost\":%ld,\"annotated_moves\":%ld,\"average_loss\":", p->games,
		   p->won, p->drawn, p->lost, p->moves);
	if (p->moves)
		buf_printf(b, "%.1f", p->average_loss);
	else
		buf_str(b, "null");
	buf_printf(b, ",\"first_year\":%d,\"last_year\":%d,\"spellings\":[", p->first_year, p->last_year);
	const char *q = p->spellings;
	int k = 0;
	while (*q) {
		const char *e = strchr(q, '\x1F');
		size_t len = e ? (size_t)(e - q) : strlen(q);
		char one[256];
		snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), q);
		buf_str(b, k++ ? "," : "");
		buf_json(b, one);
		q += len + (e ? 1 : 0);
	}
	buf_str(b, "]}");
	return b->failed;
}

/* GET /api/players: the players of the matching games, the most games first. */
void collection_players(pk_web *w, req *r, pk_store *s)
{
	(void)w;
	filter_buf fb;
	long limit;
	if (!arg_filter(r, &fb) || !req_long(r, "limit", 1, 5000, 100, &limit))
		return;
	buf_str(r->out, "{\"players\":[");
	players_ctx c = { r, 0 };
	if (store_players(s, &fb.f, limit, player_row, &c) < 0)
		return (void)req_fail(r, 500, "%s", store_error(s));
	buf_str(r->out, "]}");
}
