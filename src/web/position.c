/* `pdnkit serve`: positions in the API: reading one from a request (FEN or moves, any
 * variant), writing boards, moves and geometry, the endgame databases' values, and the
 * calls /api/position and /api/egdb. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/json.h"
#include "egdb/vegdb.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "rules/fen.h"
#include "rules/gen.h"
#include "web/internal.h"

void web_board_string(const pk_pos *p, char s[33])
{
	for (int sq = 1; sq <= 32; sq++) {
		int c;
		bool k;
		s[sq - 1] = !pos_piece_at(p, sq, &c, &k) ? '.' : c == PK_BLACK ? (k ? 'B' : 'b') : (k ? 'W' : 'w');
	}
	s[32] = 0;
}

/* The position that "fen" or "moves" names (the initial position when neither);
 * *named says whether one was given. */
bool req_position(req *r, pk_pos *p, bool *named)
{
	const char *fen = req_arg(r, "fen", ARG_MAX);
	const char *moves = req_arg(r, "moves", MOVES_MAX);
	if (r->status)
		return false;
	if (named)
		*named = fen || moves;
	if (fen && moves)
		return req_fail(r, 400, "give 'fen' or 'moves', not both");
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), p, &fe) < 0)
			return req_fail(r, 400, "'fen': %s at column %zu", fe.msg, fe.offset + 1);
		const char *why = pos_impossible(p);
		if (why)
			return req_fail(r, 400, "'fen': %s", why);
		return true;
	}
	pos_start(p);
	if (!moves)
		return true;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *error;
	bool ok = replay_moves_text_as(moves, 21, &g, &rp, &error) >= 0;
	if (ok)
		*p = rp.nply ? rp.plies[rp.nply - 1].after : rp.start;
	else
		req_fail(r, 400, "'moves': %s", error);
	game_free(&g);
	replay_free(&rp);
	return ok;
}

bool req_gposition(req *r, pk_gpos *p, bool *named)
{
	const char *variant = req_arg(r, "variant", 64);
	if (r->status)
		return false;
	const pk_variant *v = NULL;
	if (variant) {
		v = variant_by_name(variant);
		if (!v || !v->replayable)
			return req_fail(r, 400, "'variant' must be a variant's name or GameType (english, international, 25...)");
		if (v->gametype == 21)
			v = NULL;
	}
	if (!v) {
		pk_pos e;
		if (!req_position(r, &e, named))
			return false;
		gpos_english(p, &e);
		return true;
	}
	const char *fen = req_arg(r, "fen", ARG_MAX);
	const char *moves = req_arg(r, "moves", MOVES_MAX);
	if (r->status)
		return false;
	if (named)
		*named = fen || moves;
	if (fen && moves)
		return req_fail(r, 400, "give 'fen' or 'moves', not both");
	pk_vpos x;
	if (fen) {
		char err[200];
		if (vfen_parse(v, fen, &x, err, sizeof err) < 0 || vpos_check(&x, err, sizeof err) < 0)
			return req_fail(r, 400, "'fen': %s", err);
		gpos_variant(p, &x);
		return true;
	}
	vpos_start(v, &x);
	if (moves) {
		pk_game g;
		pk_replay rp;
		game_init(&g);
		replay_init(&rp);
		const char *error = NULL;
		bool ok = replay_moves_text_as(moves, v->gametype, &g, &rp, &error) >= 0 && rp.variant_replayed &&
			  vreplay_pos_before(&rp.vr, rp.vr.plies + 1, &x, NULL) == 0;
		if (!ok)   /* the reason is the game's: said before it is freed */
			req_fail(r, 400, "'moves': %s", error ? error : "not moves of this variant");
		game_free(&g);
		replay_free(&rp);
		if (!ok)
			return false;
	}
	gpos_variant(p, &x);
	return true;
}

void web_gboard_string(const pk_gpos *p, char *s)
{
	if (!p->v) {
		web_board_string(&p->e, s);
		return;
	}
	int n = variant_squares(p->v);
	for (int sq = 1; sq <= n; sq++)
		s[sq - 1] = ".wWbB"[p->x.sq[sq] <= VP_BKING ? p->x.sq[sq] : 0];
	s[n] = 0;
}

void web_json_geometry(req *r, const pk_variant *v, const char *key)
{
	if (!v)
		return;
	pk_buf *b = r->out;
	int n = variant_squares(v);
	char name[8];
	buf_printf(b, ",\"variant\":\"%s\",\"first\":\"%s\",\"%s\":{\"rows\":%d,\"cols\":%d,\"sq\":[", v->key,
		   v->first == PK_BLACK ? "black" : "white", key, v->rows, v->cols);
	for (int sq = 1; sq <= n; sq++) {
		int row, col;
		variant_square_rc(v, sq, &row, &col);
		buf_printf(b, "%s[%d,%d]", sq > 1 ? "," : "", row, col);
	}
	buf_str(b, "],\"names\":[");
	for (int sq = 1; sq <= n; sq++) {
		vsquare_name(v, sq, name, sizeof name);
		buf_printf(b, "%s\"%s\"", sq > 1 ? "," : "", name);
	}
	buf_str(b, "]}");
}

void web_json_gmove(req *r, const pk_gpos *before, const pk_gmove *m)
{
	if (!before->v) {
		web_json_move(r, &before->e, &m->e);
		return;
	}
	char text[400], fen[VAR_FEN_STRLEN];
	vmove_text(before->v, &m->x, false, text, sizeof text);
	pk_vpos after;
	vmake(&before->x, &m->x, &after);
	vfen_format(&after, fen, sizeof fen);
	buf_str(r->out, "{\"move\":");
	buf_json(r->out, text);
	buf_printf(r->out, ",\"from\":%d,\"path\":[", m->x.from);
	if (m->x.nland == 0)
		buf_printf(r->out, "%d", m->x.to);
	for (int i = 0; i < m->x.nland; i++)
		buf_printf(r->out, "%s%d", i ? "," : "", m->x.land[i]);
	buf_str(r->out, "],\"fen\":");
	buf_json(r->out, fen);
	buf_str(r->out, "}");
}

/* The value of p, English or another variant's, in its databases: 1 found. */
static int gegdb_probe(pk_web *w, const pk_gpos *p, pk_egdb_result *out)
{
	if (!p->v)
		return w->o.egdb && egdb_probe(w->o.egdb, &p->e, out) == EGDB_FOUND;
	return vegdb_probe(vegdb_shared(p->v), &p->x, &out->value, &out->plies);
}

static void json_egdb_result(req *r, const pk_egdb_result *er)
{
	buf_printf(r->out, "{\"value\":\"%s\",\"plies\":", er->value == EGDB_WIN ? "win" : er->value == EGDB_LOSS ? "loss" : "draw");
	if (er->plies >= 0)
		buf_printf(r->out, "%d}", er->plies);
	else
		buf_str(r->out, "null}");
}

void web_json_egdb(pk_web *w, req *r, const pk_pos *p)
{
	pk_gpos g;
	gpos_english(&g, p);
	web_json_gegdb(w, r, &g);
}

void web_json_gegdb(pk_web *w, req *r, const pk_gpos *p)
{
	pk_egdb_result er;
	if (gegdb_probe(w, p, &er))
		json_egdb_result(r, &er);
	else
		buf_str(r->out, "null");
}

void web_json_move_egdb(pk_web *w, req *r, const pk_gpos *p, const pk_gmove *m)
{
	pk_gpos c;
	gpos_make(p, m, &c);
	pk_gmove *ml = malloc(sizeof *ml * VAR_MAX_MOVES);
	pk_egdb_result er;
	bool found = false;
	if (ml && gpos_gen(&c, ml, VAR_MAX_MOVES) == 0) {
		er.value = EGDB_WIN;             /* the other side cannot move: won at once */
		er.plies = 1;
		found = true;
	} else if (ml && gegdb_probe(w, &c, &er)) {
		er.value = -er.value;            /* the mover's, from the other side's */
		er.plies = er.plies >= 0 ? er.plies + 1 : -1;
		found = true;
	}
	free(ml);
	if (found) {
		buf_str(r->out, ",\"egdb\":");
		json_egdb_result(r, &er);
	}
}

void web_json_move(req *r, const pk_pos *before, const pk_move *m)
{
	char text[PK_MOVE_STRLEN], fen[PK_FEN_STRLEN];
	pdn_move_string(before, m, false, text);
	pk_pos after;
	pos_make(before, m, &after);
	fen_format(&after, fen, sizeof fen);
	buf_str(r->out, "{\"move\":");
	buf_json(r->out, text);
	buf_printf(r->out, ",\"from\":%d,\"path\":[", m->from + 1);
	for (int i = 0; i < m->nland; i++)
		buf_printf(r->out, "%s%d", i ? "," : "", m->land[i] + 1);
	buf_str(r->out, "],\"fen\":");
	buf_json(r->out, fen);
	buf_str(r->out, "}");
}

/* GET /api/position?fen=|moves=: the position, its legal moves and where each leads,
 * and its value in the endgame databases. */
void api_position(pk_web *w, req *r)
{
	pk_gpos p;
	if (!req_gposition(r, &p, NULL))
		return;
	char fen[VAR_FEN_STRLEN], board[VAR_MAX_SQ + 1];
	gpos_fen(&p, fen, sizeof fen);
	web_gboard_string(&p, board);
	buf_str(r->out, "{\"fen\":");
	buf_json(r->out, fen);
	buf_printf(r->out, ",\"board\":\"%s\",\"turn\":\"%s\",\"key\":\"%016llx\"", board,
		   gpos_stm(&p) == PK_BLACK ? "black" : "white",
		   (unsigned long long)(p.v ? vpos_key(&p.x) : p.e.key));
	web_json_geometry(r, p.v, "geometry");
	buf_str(r->out, ",\"moves\":[");
	pk_gmove *ml = malloc(sizeof *ml * VAR_MAX_MOVES);
	int n = ml ? gpos_gen(&p, ml, VAR_MAX_MOVES) : 0;
	for (int i = 0; i < n; i++) {
		if (i)
			buf_str(r->out, ",");
		web_json_gmove(r, &p, &ml[i]);
		r->out->n--;   /* reopen the object: each move's value in the databases */
		web_json_move_egdb(w, r, &p, &ml[i]);
		buf_str(r->out, "}");
	}
	free(ml);
	buf_str(r->out, "],\"egdb\":");
	web_json_gegdb(w, r, &p);
	buf_str(r->out, "}");
}


/* GET /api/egdb?fen=: the value of a position in the endgame databases. */
void api_egdb(pk_web *w, req *r)
{
	pk_pos p;
	if (!req_position(r, &p, NULL))
		return;
	char fen[PK_FEN_STRLEN];
	fen_format(&p, fen, sizeof fen);
	buf_str(r->out, "{\"fen\":");
	buf_json(r->out, fen);
	buf_printf(r->out, ",\"pieces\":%d,\"loaded\":%d,\"egdb\":", __builtin_popcount(p.side[0] | p.side[1]),
		   w->o.egdb ? egdb_pieces(w->o.egdb) : 0);
	web_json_egdb(w, r, &p);
	buf_str(r->out, "}");
}
