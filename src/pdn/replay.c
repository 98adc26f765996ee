/* Replaying a game: matching written moves to legal moves, checking numbers, separators
 * and results, and explaining illegal moves with the moves most plausibly meant. */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rules/fen.h"
#include "pdn/movenum.h"
#include "pdn/replay_int.h"
#include "pdn/vreplay.h"
#include "rules/pos.h"

void replay_init(pk_replay *rp)
{
	memset(rp, 0, sizeof *rp);
}

void replay_new_file(pk_replay *rp)
{
	rp->file_hint[0] = 0;
}

void replay_free(pk_replay *rp)
{
	free(rp->plies);
	vreplay_free(&rp->vr);
	memset(rp, 0, sizeof *rp);
}

const char *result_string(int result)
{
	switch (result) {
	case RES_BLACK_WINS: return "1-0";
	case RES_WHITE_WINS: return "0-1";
	case RES_DRAW: return "1/2-1/2";
	default: return "*";
	}
}

int result_parse(const char *s)
{
	if (!s)
		return RES_NONE;
	while (isspace((unsigned char)*s))
		s++;
	if (!strcmp(s, "1-0") || !strcmp(s, "2-0") || !strcasecmp(s, "BW"))
		return RES_BLACK_WINS;
	if (!strcmp(s, "0-1") || !strcmp(s, "0-2") || !strcasecmp(s, "WW"))
		return RES_WHITE_WINS;
	if (!strcmp(s, "1/2-1/2") || !strcmp(s, "1-1") || !strcmp(s, "1/2") ||
	    !strcmp(s, "\xC2\xBD-\xC2\xBD"))
		return RES_DRAW;
	if (!strcmp(s, "*") || !strcmp(s, "0-0") || !strcmp(s, "?"))
		return RES_UNKNOWN;
	return RES_NONE;
}

const pk_pos *replay_pos_before(const pk_replay *rp, int p)
{
	return p <= 1 ? &rp->start : &rp->plies[p - 2].after;
}

int replay_history(const pk_replay *rp, int p, uint64_t *keys)
{
	int rev = 0;
	for (int i = 0; i < p; i++) {
		keys[i] = i ? rp->plies[i - 1].after.key : rp->start.key;
		const pk_ply *pl = &rp->plies[i];
		rev = pl->ordinal >= 0 && move_is_reversible(replay_pos_before(rp, i + 1), &pl->move) ? rev + 1 : 0;
	}
	return rev;
}

int replay_gplies(const pk_replay *rp) { return rp->variant_replayed ? rp->vr.plies : rp->nply; }

bool replay_gply(const pk_replay *rp, int p, pk_gpos *before, pk_gmove *m)
{
	if (p < 1 || p > replay_gplies(rp))
		return false;
	if (rp->variant_replayed) {
		pk_vpos x;
		if (vreplay_pos_before(&rp->vr, p, &x, &m->x) < 0)
			return false;
		gpos_variant(before, &x);
		return true;
	}
	const pk_ply *pl = &rp->plies[p - 1];
	if (pl->ordinal < 0)
		return false;
	gpos_english(before, replay_pos_before(rp, p));
	m->e = pl->move;
	return true;
}

int replay_ghistory(const pk_replay *rp, int p, uint64_t *keys)
{
	if (!rp->variant_replayed)
		return replay_history(rp, p, keys);
	for (int i = 0; i < p && rp->vr.key && i <= rp->vr.plies; i++)
		keys[i] = rp->vr.key[i];
	return rp->vr.rev && p >= 1 && p - 1 <= rp->vr.plies ? rp->vr.rev[p - 1] : 0;
}

int replay_gending(const pk_replay *rp, int p)
{
	const pk_vreplay *r = &rp->vr;
	if (!rp->variant_replayed || !r->ord || p < 1 || p > r->plies + 1)
		return 0;
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return 0;
	pk_vdraw d;
	vdraw_init(&d);
	pk_vpos x = r->start;
	for (int i = 0; i < p - 1; i++) {
		int n = vgen(&x, ml);
		if (r->ord[i] < 0 || r->ord[i] >= n)
			break;
		pk_vpos q;
		vmake(&x, &ml->m[r->ord[i]], &q);
		vdraw_after(&d, &x, &ml->m[r->ord[i]], &q);
		x = q;
	}
	free(ml);
	return vdraw_ending_count(&d, &x);
}

int replay_move_number(const pk_replay *rp, int p)
{
	if (rp->variant_replayed)      /* a move number opens with the variant's first side */
		return (p - 1 + (rp->start.stm != rp->variant_first)) / 2 + 1;
	return movenum_at(1, rp->start.stm, p - 1);
}


static const char *side_name(int stm) { return stm == PK_BLACK ? "Black" : "White"; }

static bool push_ply(pk_replay *rp, const pk_move *m, int ordinal, int nlegal, int el, const pk_pos *after)
{
	if (rp->nply == rp->cap) {
		int cap = rp->cap ? rp->cap * 2 : 128;
		pk_ply *v = realloc(rp->plies, sizeof *v * (size_t)cap);
		if (!v)
			return false;
		rp->plies = v;
		rp->cap = cap;
	}
	assert(ordinal < nlegal && rp->nply < rp->cap);
	pk_ply *x = &rp->plies[rp->nply++];
	if (m)
		x->move = *m;
	else
		memset(&x->move, 0, sizeof x->move);
	x->ordinal = ordinal;
	x->nlegal = nlegal;
	x->el = el;
	x->el_last = el;
	x->marks[0] = 0;
	x->glued_el = -1;
	x->after = *after;
	return true;
}

static const char *const known_tags[] = {
	"Event", "Site", "Date", "Round", "Black", "White", "Result", "FEN", "SetUp", "GameType",
	"Annotator", "PlyCount", "TimeControl", "Time", "Termination", "Mode", "BlackElo", "WhiteElo",
	"BlackTitle", "WhiteTitle", "BlackType", "WhiteType", "BlackNA", "WhiteNA", "BlackTeam",
	"WhiteTeam", "EventDate", "EventType", "Opening", "Variation", "Source", "Ballot", "Section",
	"Stage", "Board", "Remark", "Annotation", "Publication", "Category", "Round2", "Level",
	"Country", "Number", "Notation", "Description", "Comment", "Author", "Problem", "Theme",
	"Solution", "Stipulation", "Composer", "BlackSeconds", "WhiteSeconds", "TerminationDetail",
	/* clocks as International draughts programs record them */
	"WhiteClock", "BlackClock", "WhiteTime", "BlackTime", NULL
};

static void check_tags(pk_game *g)
{
	for (int i = 0; i < g->ntags; i++) {
		const char *name = game_str(g, g->tags[i].name);
		bool known = false;
		for (int k = 0; known_tags[k] && !known; k++)
			known = tolower((unsigned char)name[0]) == tolower((unsigned char)known_tags[k][0]) &&
				strcasecmp(name, known_tags[k]) == 0;
		if (!known)
			findings_add_once(&g->findings, SEV_WARNING, "unknown-tag", g->tags[i].line,
					  g->tags[i].col, 0, "unknown tag '%s'", name);
	}
}

pk_finding *rp_error_at(rp_ctx *c, const char *kind, const char *fmt, const char *detail)
{
	pk_finding *f = findings_add(&c->g->findings, SEV_ERROR, kind, c->el->line, c->el->col, c->ply,
				     fmt, c->text, detail ? detail : "");
	if (f)
		snprintf(f->move, sizeof f->move, "%s", c->text);
	return f;
}

/* How many of the main-line moves from element `from` on replay from pos, matching by
 * squares only and stopping at the first that does not fit exactly one effect. */
static int silent_run(const pk_game *g, int from, const pk_pos *pos)
{
	pk_pos p = *pos;
	pk_movelist ml;
	int run = 0;
	for (int i = from; i < g->nel; i++) {
		const pk_el *e = &g->els[i];
		if (e->depth != 0)
			continue;
		if (e->kind == EL_RESULT || e->kind == EL_SETUP)
			break;
		if (e->kind != EL_MOVE)
			continue;
		pk_written w;
		char why[120];
		if (written_parse(game_str(g, e->off), &w, why, sizeof why) < 0)
			break;
		gen_moves(&p, &ml);
		int idx[PK_MAX_MOVES];
		int n = rp_find_matches(&ml, w.sq, w.n, idx, PK_MAX_MOVES);
		if (n == 0)
			break;
		for (int k = 1; k < n; k++)
			if (!move_same_effect(&ml.m[idx[0]], &ml.m[idx[k]]))
				return run;   /* ambiguous again: count what is certain */
		pk_pos q;
		pos_make(&p, &ml.m[idx[0]], &q);
		p = q;
		run++;
	}
	return run + 1000000;   /* reached the end: as good as it gets */
}

/* Replays one move token (and, for a jump written as hops, the tokens after it).
 * Returns the number of elements consumed beyond this one, or -1 on an error. */
static int replay_move(rp_ctx *c, int ei, const pk_written *w)
{
	pk_game *g = c->g;
	int idx[PK_MAX_MOVES], n;
	char why[160], buf[PK_MOVE_STRLEN];
	int extra = 0;

	/* Most moves are plain moves written from-to: checked on the bitboards. */
	if (w->n == 2 && !w->nosep && !gen_has_capture(&c->pos)) {
		int nlegal, ord = gen_plain_ordinal(&c->pos, w->sq[0] - 1, w->sq[1] - 1, &nlegal);
		if (ord >= 0) {
			pk_move m = { .from = (uint8_t)(w->sq[0] - 1), .nland = 1,
				      .land = { (uint8_t)(w->sq[1] - 1) }, .captured = 0 };
			if (w->sep == 'x' && !w->mixed)
				findings_add_once(&g->findings, SEV_WARNING, "x-on-plain-move", c->el->line, c->el->col,
						  c->ply, "plain move %s written with 'x'", c->text);
			pk_pos next;
			pos_make(&c->pos, &m, &next);
			if (!push_ply(c->rp, &m, ord, nlegal, c->first_el, &next))
				return -2;
			c->pos = next;
			return 0;
		}
	}
	gen_moves(&c->pos, &c->ml);
	if (c->ml.n == 0) {
		rp_error_at(c, "illegal-move", "%s is not legal here: the side to move has no legal move, the game is over%s", "");
		return -1;
	}
	pk_written merged = *w;

	if (w->nosep) {
		/* "1115": every way to split it into two squares. */
		int found = -1, count = 0, pair[8][2];
		int np = written_splits(w, 32, pair, 8);
		for (int k = 0; k < np; k++) {
			int id[1];
			if (rp_find_matches(&c->ml, pair[k], 2, id, 1)) {
				found = id[0];
				count++;
			}
		}
		if (count != 1) {
			rp_error_at(c, "unparsable-move", count ? "'%s' without a separator fits several moves%s" :
					   "'%s' is not a move%s", "");
			return -1;
		}
		findings_add_once(&g->findings, SEV_WARNING, "no-separator", c->el->line, c->el->col, c->ply,
				  "move '%s' written without a separator", c->text);
		idx[0] = found;
		n = 1;
		goto matched;
	}

	n = rp_find_matches(&c->ml, w->sq, w->n, idx, PK_MAX_MOVES);
	if (n == 0) {
		/* A jump written in hops, "11x18 18x25": join the following tokens that continue it. */
		int ext[PK_MAX_MOVES];
		if (rp_find_extensions(&c->ml, merged.sq, merged.n, ext, PK_MAX_MOVES, false) > 0) {
			int j = ei + 1;
			while (j < g->nel && n == 0) {
				const pk_el *e = &g->els[j];
				if (e->depth != 0 || e->kind == EL_RESULT || e->kind == EL_VAR_START)
					break;
				if (e->kind != EL_MOVE) {
					j++;
					continue;
				}
				pk_written w2;
				if (written_parse(game_str(g, e->off), &w2, why, sizeof why) < 0 ||
				    w2.sq[0] != merged.sq[merged.n - 1] || merged.n + w2.n - 1 > WM_MAX_SQUARES)
					break;
				for (int k = 1; k < w2.n; k++)
					merged.sq[merged.n++] = w2.sq[k];
				if (rp_find_extensions(&c->ml, merged.sq, merged.n, ext, PK_MAX_MOVES, true) == 0)
					break;
				n = rp_find_matches(&c->ml, merged.sq, merged.n, idx, PK_MAX_MOVES);
				j++;
				if (n)
					extra = j - ei - 1;
			}
			if (n)
				findings_add_once(&g->findings, SEV_WARNING, "split-jump", c->el->line, c->el->col, c->ply,
						  "jump written as separate hops starting with '%s'", c->text);
		}
	}
	if (n == 0) {
		const pk_pos *pos = &c->pos;
		int ext[PK_MAX_MOVES];
		int ne = rp_find_extensions(&c->ml, w->sq, w->n, ext, PK_MAX_MOVES, false);
		if (ne > 0) {
			pk_finding *f = rp_error_at(c, "incomplete-jump", "%s stops short: the jump must go on%s", "");
			for (int i = 0; i < ne; i++) {
				rp_fmt_move(&c->ml.m[ext[i]], true, buf);
				finding_suggest(f, buf, ne == 1 ? "the unique completion" : "a completion");
			}
			rp_append_suggestions(f);
			return -1;
		}
		bool must_capture = c->ml.n > 0 && move_is_capture(&c->ml.m[0]);
		if (must_capture && w->n == 2) {
			/* Would it be legal if capturing were optional? */
			pk_pos q = *pos;
			pk_movelist plain;
			q.side[!q.stm] = 0;   /* no enemy pieces: only plain moves remain */
			gen_moves(&q, &plain);
			int id[1];
			if (rp_find_matches(&plain, w->sq, 2, id, 1) &&
			    !(pos->side[!pos->stm] & bb_sq(w->sq[1] - 1))) {
				pk_finding *f = rp_error_at(c, "capture-required", "%s is not legal here: a capture is compulsory%s", "");
				for (int i = 0; i < c->ml.n; i++) {
					rp_fmt_move(&c->ml.m[i], false, buf);
					finding_suggest(f, buf, "a compulsory capture");
				}
				rp_append_suggestions(f);
				return -1;
			}
		}
		rp_explain(pos, w, why, sizeof why);
		char detail[200];
		snprintf(detail, sizeof detail, "%s%s%s", why[0] ? " (" : "", why, why[0] ? ")" : "");
		pk_finding *f = rp_error_at(c, "illegal-move", "%s is not legal here%s", detail);
		/* A move of the other side: a move may be missing before this one. */
		pk_pos other = *pos;
		other.stm = !other.stm;
		pk_movelist oml;
		gen_moves(&other, &oml);
		int id[1];
		if (f && rp_find_matches(&oml, w->sq, w->n, id, 1)) {
			size_t len = strlen(f->message);
			snprintf(f->message + len, sizeof f->message - len,
				 ", though it is a legal move for %s: is a move missing before it?", side_name(other.stm));
		}
		rp_suggest_for_illegal(&c->ml, pos, w, f);
		rp_append_suggestions(f);
		return -1;
	}
	/* Several matches: fine when they all do the same; otherwise the moves that follow
	 * may show which one was played. */
	for (int i = 1; i < n; i++)
		if (!move_same_effect(&c->ml.m[idx[0]], &c->ml.m[idx[i]])) {
			int best = -1, best_run = -1, ties = 0;
			for (int k = 0; k < n; k++) {
				pk_pos after;
				pos_make(&c->pos, &c->ml.m[idx[k]], &after);
				int run = silent_run(g, ei + 1 + extra, &after);
				if (run > best_run) {
					best_run = run;
					best = k;
					ties = 0;
				} else if (run == best_run && !move_same_effect(&c->ml.m[idx[best]], &c->ml.m[idx[k]])) {
					ties++;
				}
			}
			if (ties == 0 && best_run > 0) {
				rp_fmt_move(&c->ml.m[idx[best]], true, buf);
				findings_add(&g->findings, SEV_WARNING, "ambiguous-move", c->el->line, c->el->col, c->ply,
					     "%s fits several jumps; %s is the one the following moves confirm", c->text, buf);
				idx[0] = idx[best];
				break;
			}
			pk_finding *f = rp_error_at(c, "ambiguous-move", "%s is ambiguous: several jumps fit it, capturing different pieces%s", "");
			for (int k = 0; k < n; k++) {
				rp_fmt_move(&c->ml.m[idx[k]], true, buf);
				finding_suggest(f, buf, "one of the jumps that fit");
			}
			rp_append_suggestions(f);
			return -1;
		}
	goto matched;

matched:;
	const pk_move *m = &c->ml.m[idx[0]];
	if (w->sep && !w->mixed && (w->sep == 'x') != move_is_capture(m))
		findings_add_once(&g->findings, SEV_WARNING, move_is_capture(m) ? "dash-on-jump" : "x-on-plain-move",
				  c->el->line, c->el->col, c->ply,
				  move_is_capture(m) ? "jump %s written with '-'" : "plain move %s written with 'x'",
				  c->text);
	pk_pos next;
	pos_make(&c->pos, m, &next);
	if (!push_ply(c->rp, m, idx[0], c->ml.n, c->first_el, &next))
		return -2;
	c->pos = next;
	return extra;
}

static void recount(pk_findings *f)
{
	f->errors = f->warnings = f->notes = 0;
	for (int i = 0; i < f->n; i++) {
		f->errors += f->v[i].severity == SEV_ERROR;
		f->warnings += f->v[i].severity == SEV_WARNING;
		f->notes += f->v[i].severity == SEV_NOTE;
	}
}

static int replay_main(pk_game *g, pk_replay *rp, const pk_variant *v, const char *gt);

/* A game of another variant: replayed under its rules by the same driver. */
static int replay_other(pk_game *g, pk_replay *rp, const pk_variant *v, const char *why)
{
	if (why)
		findings_add(&g->findings, SEV_NOTE, "variant-detected", g->line, 1, 0,
			     "no GameType tag: replayed as %s (%s, and its rules fit the moves best)", v->name, why);
	rp->variant = v->gametype;
	rp->variant_replayed = true;
	rp->variant_first = v->first;
	return replay_main(g, rp, v, game_tag(g, "GameType"));
}

int replay_game(pk_game *g, pk_replay *rp)
{
	/* Replaying again (after a fix) starts from the reader's findings. */
	if (g->findings.n > g->nreader) {
		g->findings.n = g->nreader;
		recount(&g->findings);
	}
	rp->nply = 0;
	rp->supported = true;
	rp->variant_replayed = false;
	rp->variant_plies = 0;
	rp->complete = false;
	rp->custom_start = false;
	rp->result = RES_NONE;
	rp->result_el = -1;
	rp->fix_el = -1;
	pos_start(&rp->start);
	vreplay_free(&rp->vr);
	memset(&rp->vr, 0, sizeof rp->vr);

	const char *gt = game_tag(g, "GameType");
	rp->variant = 21;
	if (gt) {
		while (isspace((unsigned char)*gt))
			gt++;
		rp->variant = isdigit((unsigned char)*gt) ? atoi(gt) : -1;
		if (rp->variant > 0)
			rp_check_gametype_form(g, rp->variant);
	}
	if (rp->variant != 21) {
		rp->supported = false;
		const pk_variant *v = rp->variant > 0 ? variant_by_gametype(rp->variant) : NULL;
		if (v && v->replayable)
			return replay_other(g, rp, v, NULL);
		if (rp->variant < 0)
			findings_add(&g->findings, SEV_NOTE, "variant-unsupported", 0, 0, 0,
				     "GameType \"%s\" is not understood; game not replayed", game_tag(g, "GameType"));
		else
			findings_add(&g->findings, SEV_NOTE, "variant-unsupported", 0, 0, 0,
				     "variant %d (%s) not supported yet; game not replayed", rp->variant,
				     variant_name(rp->variant));
		return 0;
	}
	if (!gt) {
		char whybuf[WHY_SIZE];
		const char *why = rp_other_variant(g, false, whybuf);
		if (why) {
			if (!rp->file_hint[0])
				snprintf(rp->file_hint, sizeof rp->file_hint, "%s", why);
			rp->supported = false;
			/* the variant under whose rules the moves stay legal longest */
			const pk_variant *best = NULL;
			int best_plies = -1;
			bool best_fits = false, alnum = strstr(why, "alphanumeric") != NULL;
			for (int i = 0; variant_at(i); i++) {
				const pk_variant *v = variant_at(i);
				if (v->gametype == 21 || !v->replayable)
					continue;
				int plies = vreplay_trial(g, v);
				if (plies < 0)
					continue;    /* its FEN does not fit the board */
				/* the notation the variant is written in breaks ties (Russian and
				 * pool checkers replay alike until a man crowns in a capture) */
				bool fits = v->alphanumeric == alnum;
				if (plies > best_plies || (plies == best_plies && fits && !best_fits)) {
					best_fits = fits;
					best = v;
					best_plies = plies;
				}
			}
			if (best)
				return replay_other(g, rp, best, why);
			findings_add(&g->findings, SEV_NOTE, "variant-unsupported", g->line, 1, 0,
				     "not English draughts: %s (and no GameType tag says which variant); not replayed", why);
			return 0;
		}
	}
	return replay_main(g, rp, NULL, gt);
}

/* The start of g's replay: its FEN tag's position or the initial one, into c (English
 * draughts) or rp->vr (another variant). False when the FEN does not read: an error
 * says so and nothing is replayed. */
static bool replay_start(pk_game *g, pk_replay *rp, rp_ctx *c, int *oom)
{
	const char *fen = game_tag(g, "FEN");
	uint32_t line = g->line, col = 1;
	for (int i = 0; fen && i < g->ntags; i++)
		if (!strcasecmp(game_str(g, g->tags[i].name), "FEN")) {
			line = g->tags[i].line;
			col = g->tags[i].col;
			break;
		}
	const pk_variant *v = c->v;
	if (v) {
		pk_vpos p, initial;
		char err[200];
		vpos_start(v, &initial);
		bool bad = fen && vfen_parse(v, fen, &p, err, sizeof err) < 0;
		if (bad) {
			findings_add(&g->findings, SEV_ERROR, "bad-fen", line, col, 0, "FEN \"%s\" for %s: %s", fen, v->name,
				     err);
			vpos_clear(v, &p, v->first);
		} else if (!fen) {
			p = initial;
		}
		if (vreplay_begin(&rp->vr, &p) < 0) {
			*oom = 1;
			return false;
		}
		rp->vr.bad_start = bad;
		/* a FEN of the initial position (as every game of some collections has) is no
		 * set-up: such games share openings with those without one */
		rp->vr.custom_start = fen && !bad && (initial.stm != p.stm || memcmp(initial.sq, p.sq, sizeof p.sq) != 0);
		rp->start.stm = p.stm;   /* sides and move numbers count from the first mover */
		c->vpos = p;
		if (bad)
			rp->vr.complete = false;
		return !bad;
	}
	if (!fen)
		return true;
	pk_fen_error fe;
	pk_pos p;
	char repairs[200];
	if (fen_parse_lenient(fen, strlen(fen), &p, &fe, repairs, sizeof repairs) < 0) {
		findings_add(&g->findings, SEV_ERROR, "bad-fen", line, col, 0, "FEN \"%s\": %s (at character %zu)", fen,
			     fe.msg, fe.offset + 1);
		return false;
	}
	if (repairs[0])
		findings_add(&g->findings, SEV_WARNING, "fen-repaired", line, col, 0, "FEN \"%s\": %s", fen, repairs);
	rp->start = p;
	rp->custom_start = true;
	c->pos = p;
	return true;
}

/* One replay for every variant: g's main line under v's rules (NULL: English
 * draughts), its move numbers, marks, glued text and result checked alike. */
static int replay_main(pk_game *g, pk_replay *rp, const pk_variant *v, const char *gt)
{
	int reader_findings = g->findings.n;
	const char *fen = game_tag(g, "FEN");
	check_tags(g);

	/* The main line's result token, wherever the replay stops. */
	for (int ei = 0; ei < g->nel; ei++)
		if (g->els[ei].depth == 0 && g->els[ei].kind == EL_RESULT) {
			rp->result = result_parse(game_str(g, g->els[ei].off));
			rp->result_el = ei;
		}

	rp_ctx c = { .g = g, .rp = rp, .v = v, .pos = rp->start };
	int oom = 0;
	if (!replay_start(g, rp, &c, &oom)) {
		if (v && rp->result == RES_NONE)
			rp->result = result_parse(game_tag(g, "Result"));
		return oom ? -1 : 0;
	}
	if (v && !(c.vml = malloc(sizeof *c.vml)))
		return -1;
	bool numbered = false, failed = false, from_white = false;
	int last_number = -1, last_number_el = -1;
	int first_player = v ? rp->variant_first : PK_BLACK;
	char joined[64];
	for (int ei = 0; ei < g->nel && !failed; ei++) {
		const pk_el *e = &g->els[ei];
		if (e->depth != 0)
			continue;
		if (e->kind == EL_NUMBER) {
			last_number = e->value;
			last_number_el = ei;
			continue;
		}
		if (e->kind == EL_RESULT)
			continue;
		if (e->kind == EL_SETUP && v) {
			findings_add(&g->findings, SEV_ERROR, "bad-fen", e->line, e->col, rp->vr.plies + 1,
				     "a set-up position inside the moves (\"%s\") is read in English draughts only; the "
				     "replay of this %s game stops here", game_str(g, e->off), v->name);
			failed = true;
			break;
		}
		if (e->kind == EL_SETUP) {
			pk_fen_error fe;
			pk_pos p;
			const char *f = game_str(g, e->off);
			char repairs[200];
			if (fen_parse_lenient(f, strlen(f), &p, &fe, repairs, sizeof repairs) < 0) {
				findings_add(&g->findings, SEV_ERROR, "bad-fen", e->line, e->col, c.ply + 1,
					     "set-up FEN \"%s\": %s (at character %zu)", f, fe.msg, fe.offset + 1);
				failed = true;
				break;
			}
			if (repairs[0])
				findings_add(&g->findings, SEV_WARNING, "fen-repaired", e->line, e->col, c.ply + 1,
					     "set-up FEN \"%s\": %s", f, repairs);
			c.pos = p;
			if (!push_ply(rp, NULL, -1, 0, ei, &p)) {
				free(c.vml);
				return -1;
			}
			continue;
		}
		if (e->kind != EL_MOVE || rp_place_holder(g, ei))
			continue;

		c.ply = (v ? rp->vr.plies : rp->nply) + 1;
		c.el = e;
		c.first_el = ei;
		/* read first (a move written apart, "23- 18", reads once joined); its
		 * errors are reported after the numbers' */
		int last_el = ei;
		c.text = game_str(g, e->off);
		pk_written w;
		char why[160];
		int parsed = written_parse_on(v, c.text, &w, why, sizeof why);
		if (parsed < 0 && (c.text = rp_move_text(g, ei, joined, sizeof joined, &last_el)) == joined)
			parsed = written_parse_on(v, c.text, &w, why, sizeof why);
		int mover = v ? c.vpos.stm : c.pos.stm;
		int number = replay_move_number(rp, c.ply);
		/* Some writers number English games from White's side, as chess does: "1...
		 * 11-15 2. 23-19 8-11". Black's first move with "1..." from the initial side
		 * says so; the numbers are then read that way, with a note. */
		if (c.ply == 1 && last_number_el >= 0 && (g->els[last_number_el].flags & ELF_DOTS3) &&
		    mover == first_player && last_number == 1 && !v) {
			from_white = true;
			findings_add(&g->findings, SEV_NOTE, "numbered-from-white", g->els[last_number_el].line,
				     g->els[last_number_el].col, c.ply,
				     "moves numbered from White's side (1... before Black's first move): read so");
		}
		if (from_white)
			number = c.ply / 2 + 1;
		/* Move numbers: one before each first-player move; checked where given. */
		if (last_number_el >= 0) {
			numbered = true;
			if (last_number != number)
				findings_add_once(&g->findings, SEV_WARNING, "move-number", g->els[last_number_el].line,
						  g->els[last_number_el].col, c.ply,
						  "move number %d where %d was expected", last_number, number);
		} else if (from_white) {
			if (mover != first_player)
				findings_add_once(&g->findings, SEV_WARNING, "move-number", e->line, e->col, c.ply,
						  "move number %d missing before %s", number, c.text);
		} else if (mover == first_player && c.ply > 1 && numbered) {
			findings_add_once(&g->findings, SEV_WARNING, "move-number", e->line, e->col, c.ply,
					  "move number %d missing before %s", number, c.text);
		} else if (c.ply == 1 && mover == first_player) {
			findings_add_once(&g->findings, SEV_WARNING, "move-number", e->line, e->col, c.ply,
					  "move number %d missing before %s", number, c.text);
		}
		last_number_el = -1;

		int r;
		if (parsed < 0) {
			if (v) {
				r = rp_vmove(&c, last_el, NULL);
			} else {
				pk_finding *f = findings_add(&g->findings, SEV_ERROR, "unparsable-move", e->line, e->col,
							     c.ply, "cannot read the move: %s", why);
				if (f)
					snprintf(f->move, sizeof f->move, "%s", c.text);
				r = -1;
			}
		} else {
			r = v ? rp_vmove(&c, last_el, &w) : replay_move(&c, last_el, &w);
		}
		if (r == -2) {
			free(c.vml);
			return -1;
		}
		if (r < 0) {
			pk_finding *f = &g->findings.v[g->findings.n - 1];
			if (f->nsuggest == 1) {
				rp->fix_el = ei;
				snprintf(rp->fix_text, sizeof rp->fix_text, "%s", f->suggest[0]);
				snprintf(rp->fix_why, sizeof rp->fix_why, "%s", f->why[0]);
			}
			failed = true;
			break;
		}
		if (!v) {
			pk_ply *last = &rp->plies[rp->nply - 1];
			last->el_last = last_el + r;
			memcpy(last->marks, w.marks, sizeof last->marks);
			if (w.glued)
				last->glued_el = ei;
		}
		if (w.glued) {
			int res = result_parse(w.glued);
			if (res != RES_NONE && rp->result_el < 0) {
				rp->result = res;
				findings_add(&g->findings, SEV_WARNING, "glued-text", e->line, e->col, c.ply,
					     "result '%s' glued to the move %.*s", w.glued, (int)(w.glued - c.text), c.text);
			} else {
				findings_add_once(&g->findings, SEV_WARNING, "glued-text", e->line, e->col, c.ply,
						  "text '%s' glued to the move", w.glued);
			}
		}
		ei = last_el + r;
	}
	rp->complete = !failed;
	if (v) {
		rp->vr.complete = !failed;
		rp->variant_plies = rp->vr.plies;
	}

	/* A game without a GameType that fails as English may show its variant further on
	 * (a square above 32). Or it may have no moves to tell, in a file whose other games
	 * are another variant: then it is taken for that variant. */
	char latebuf[WHY_SIZE];
	const char *late = !v && !gt && failed ? rp_other_variant(g, true, latebuf) : NULL;
	if (late) {
		if (!rp->file_hint[0])
			snprintf(rp->file_hint, sizeof rp->file_hint, "%s", late);
		g->findings.n = reader_findings;
		recount(&g->findings);
		rp->supported = false;
		rp->nply = 0;
		findings_add(&g->findings, SEV_NOTE, "variant-unsupported", g->line, 1, 0,
			     "not English draughts: %s (and no GameType tag says which variant); not replayed", late);
		return 0;
	}
	if (!v && !gt && rp->file_hint[0] && (failed || rp->nply == 0)) {
		g->findings.n = reader_findings;
		recount(&g->findings);
		rp->supported = false;
		rp->nply = 0;
		findings_add(&g->findings, SEV_NOTE, "variant-unsupported", g->line, 1, 0,
			     "not English draughts: %s, no GameType tag, and earlier games of this file are "
			     "another variant (%s); not replayed",
			     failed ? "the moves are not legal in English draughts" : "no moves",
			     rp->file_hint);
		return 0;
	}

	/* Findings tied to a replayed move name it as written. */
	for (int i = reader_findings; i < g->findings.n; i++) {
		pk_finding *f = &g->findings.v[i];
		if (f->move[0] || f->ply < 1)
			continue;
		int el = -1;
		if (v && f->ply <= rp->vr.plies)
			el = rp->vr.el[2 * (f->ply - 1)];
		else if (!v && f->ply <= rp->nply && rp->plies[f->ply - 1].ordinal >= 0)
			el = rp->plies[f->ply - 1].el;
		if (el >= 0)
			snprintf(f->move, sizeof f->move, "%s", game_str(g, g->els[el].off));
	}

	/* Results: token against tag, and against the final position. */
	int tag_result = result_parse(game_tag(g, "Result"));
	const char *tag_text = game_tag(g, "Result");
	if (rp->result == RES_NONE) {
		if (g->nel > 0 || !fen)
			findings_add(&g->findings, SEV_WARNING, "no-result", 0, 0, 0,
				     "the move text does not end with a result");
		rp->result = tag_result != RES_NONE ? tag_result : RES_UNKNOWN;
	} else if (tag_text && tag_result != RES_NONE && tag_result != rp->result) {
		/* The result token, or a result glued to the last move (no token of its own). */
		const pk_el *e = rp->result_el >= 0 ? &g->els[rp->result_el] : NULL;
		findings_add(&g->findings, SEV_WARNING, "result-mismatch", e ? e->line : 0, e ? e->col : 0, 0,
			     "result %s disagrees with the Result tag \"%s\"",
			     e ? game_str(g, e->off) : result_string(rp->result), tag_text);
	} else if (tag_text && tag_result == RES_NONE && *tag_text) {
		findings_add(&g->findings, SEV_WARNING, "result-mismatch", 0, 0, 0,
			     "Result tag \"%s\" is not a result", tag_text);
	}
	int plies = v ? rp->vr.plies : rp->nply;
	if (rp->complete && plies > 0) {
		int stm = v ? c.vpos.stm : c.pos.stm;
		bool stuck = v ? vgen(&c.vpos, c.vml) == 0 : gen_moves(&c.pos, &c.ml) == 0;
		/* "1-0" is the first mover's win, in every variant */
		int winner = stm == first_player ? RES_WHITE_WINS : RES_BLACK_WINS;
		if (stuck && rp->result != winner && rp->result != RES_UNKNOWN) {
			uint32_t line = rp->result_el >= 0 ? g->els[rp->result_el].line : 0;
			uint32_t col = rp->result_el >= 0 ? g->els[rp->result_el].col : 0;
			findings_add(&g->findings, SEV_WARNING, "result-contradicts", line, col, plies,
				     "%s has no legal move at the end, so %s won (%s), yet the result is %s",
				     side_name(stm), side_name(!stm), result_string(winner), result_string(rp->result));
		}
	}
	free(c.vml);
	return 0;
}

int replay_moves_text(const char *text, pk_game *g, pk_replay *rp, const char **error)
{
	return replay_moves_text_as(text, 21, g, rp, error);
}

int replay_moves_text_as(const char *text, int gametype, pk_game *g, pk_replay *rp, const char **error)
{
	size_t len = strlen(text);
	char *pdn = malloc(len + 40);
	*error = "out of memory";
	if (!pdn)
		return -1;
	int tags = gametype != 21;
	if (tags)
		snprintf(pdn, len + 40, "[GameType \"%d\"]\n%s *", gametype, text);
	else
		snprintf(pdn, len + 40, "%s *", text);
	pk_reader *r = pdn_open_mem(pdn, strlen(pdn));
	int rc = -1;
	*error = "cannot read the moves";
	if (r && pdn_read(r, g) == 1 && replay_game(g, rp) == 0) {
		if (g->ntags != tags || (tags && !rp->variant_replayed)) {
			*error = tags ? "expected moves such as \"32-28 19-23\" (and a variant pdnkit replays)" :
					"expected moves such as \"9-14 23-18\"";
		} else {
			rc = 0;
			*error = NULL;
			for (int i = 0; i < g->findings.n && rc == 0; i++)
				if (g->findings.v[i].severity == SEV_ERROR) {
					*error = g->findings.v[i].message;
					rc = -1;
				}
		}
	}
	pdn_close(r);
	free(pdn);
	return rc;
}

