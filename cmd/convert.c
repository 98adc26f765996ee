/* pdnkit convert: rewrite PDN files as canonical PDN 3.0 (or JSON), optionally repairing
 * moves that have exactly one plausible correction. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "rules/fen.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"
#include "store/games.h"

#define MAX_FIXES_PER_GAME 20

typedef struct {
	pk_out *out;
	const char *path;
} sink_ctx;

static int sink(void *ctx, const char *buf, size_t len)
{
	sink_ctx *s = ctx;
	return zout_write(s->out, buf, len);
}

/* Text into a growable buffer, for the JSON form. */
typedef struct {
	char *p;
	size_t n, cap;
} strbuf;

static void sb_put(strbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n + 1)
			cap *= 2;
		char *q = realloc(b->p, cap);
		if (!q)
			return;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void sb_str(strbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_put_ctx(void *ctx, const char *p, size_t n) { sb_put(ctx, p, n); }
static void sb_json(strbuf *b, const char *s) { json_escape(s, sb_put_ctx, b); }

/* The rest of a game of another variant: its start, moves with every landing square
 * (in its notation) and their ordinals into vgen()'s list. */
static int write_variant_json(const pk_replay *rp, sink_ctx *s, strbuf *b)
{
	const pk_vreplay *vr = &rp->vr;
	const pk_variant *v = vr->start.v;
	char buf[VAR_FEN_STRLEN + 64];
	vfen_format(&vr->start, buf, sizeof buf);
	sb_str(b, "},\"start\":");
	if (vr->bad_start)
		sb_str(b, "null");   /* its FEN tag does not read */
	else
		sb_json(b, buf);
	snprintf(buf, sizeof buf, ",\"gametype\":%d,\"replayed\":true,\"complete\":%s,\"result\":\"%s\",\"moves\":[",
		 v->gametype, rp->complete ? "true" : "false", result_string(rp->result));
	sb_str(b, buf);
	pk_vmovelist *ml = malloc(sizeof *ml);
	if (!ml)
		return -1;
	pk_vpos p = vr->start;
	for (int i = 0; i < vr->plies; i++) {
		if (vr->ord[i] >= vgen(&p, ml))
			break;
		char mv[200];
		vmove_text(v, &ml->m[vr->ord[i]], true, mv, sizeof mv);
		sb_str(b, i ? "," : "");
		sb_json(b, mv);
		pk_vpos next;
		vmake(&p, &ml->m[vr->ord[i]], &next);
		p = next;
	}
	free(ml);
	sb_str(b, "],\"ordinals\":[");
	for (int i = 0; i < vr->plies; i++) {
		snprintf(buf, sizeof buf, "%s%d", i ? "," : "", vr->ord[i]);
		sb_str(b, buf);
	}
	sb_str(b, "]}\n");
	return zout_write(s->out, b->p, b->n);
}

static int write_json(const char *file, const pk_game *g, const pk_replay *rp, sink_ctx *s, strbuf *b)
{
	char buf[PK_FEN_STRLEN + 32];
	b->n = 0;
	sb_str(b, "{\"file\":");
	sb_json(b, file);
	snprintf(buf, sizeof buf, ",\"game\":%d,\"tags\":{", g->index);
	sb_str(b, buf);
	for (int i = 0; i < g->ntags; i++) {
		if (i)
			sb_str(b, ",");
		sb_json(b, game_str(g, g->tags[i].name));
		sb_str(b, ":");
		sb_json(b, game_str(g, g->tags[i].value));
	}
	if (rp->variant_replayed)
		return write_variant_json(rp, s, b);
	fen_format(&rp->start, buf, sizeof buf);
	sb_str(b, "},\"start\":");
	sb_json(b, buf);
	snprintf(buf, sizeof buf, ",\"replayed\":%s,\"complete\":%s,\"result\":\"%s\",\"moves\":[",
		 rp->supported ? "true" : "false", rp->complete ? "true" : "false", result_string(rp->result));
	sb_str(b, buf);
	for (int i = 0; i < rp->nply; i++) {
		const pk_ply *pl = &rp->plies[i];
		char mv[PK_MOVE_STRLEN];
		if (pl->ordinal < 0)
			fen_format(&pl->after, mv, sizeof mv);
		else
			move_format(&pl->move, true, mv, sizeof mv);
		sb_str(b, i ? "," : "");
		sb_json(b, mv);
	}
	sb_str(b, "],\"ordinals\":[");
	for (int i = 0; i < rp->nply; i++) {
		snprintf(buf, sizeof buf, "%s%d", i ? "," : "", rp->plies[i].ordinal);
		sb_str(b, buf);
	}
	sb_str(b, "]}\n");
	return zout_write(s->out, b->p, b->n);
}

static void report_errors(const char *file, const pk_game *g)
{
	for (int i = 0; i < g->findings.n; i++) {
		const pk_finding *f = &g->findings.v[i];
		if (f->severity == SEV_ERROR)
			fprintf(stderr, "%s:%u:%u: error: game %d: %s\n", file, f->line ? f->line : g->line,
				f->line ? f->col : 1, g->index, f->message);
	}
}

int cmd_convert(int argc, const char **argv)
{
	char *out_path = NULL, *format = NULL;
	int json_flag = 0;
	int fix = 0, full = 0, plain = 0;
	struct poptOption opts[] = {
		{ "output", 'o', POPT_ARG_STRING, &out_path, 0, "write here instead of standard output (.zst: compressed)", "OUT" },
		{ "fix", 0, POPT_ARG_NONE, &fix, 0, "repair a move that has exactly one suggestion, noting it in a comment", NULL },
		{ "full-jumps", 0, POPT_ARG_NONE, &full, 0, "write every capture with its whole path", NULL },
		{ "format", 0, POPT_ARG_STRING, &format, 0, "pdn (default) or json", "FORMAT" },
		{ "json", 'j', POPT_ARG_NONE, &json_flag, 0, "the same as --format json", NULL },
		{ "plain", 0, POPT_ARG_NONE, &plain, 0, "the main line only, for simple readers: a number before each first-mover move and none else, no comments, NAGs or variations", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] FILE...");
	int rc = cli_parse_options(ctx, opts);
	int nfiles = 0;
	const char **files = NULL;
	bool json = false;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (json_flag || (format && strcmp(format, "json") == 0))
		json = true;
	else if (format && strcmp(format, "pdn") != 0) {
		cli_error("--format must be pdn or json, not '%s'", format);
		goto out;
	}
	files = cli_args(ctx, &nfiles);
	if (nfiles == 0) {
		cli_error("no FILE given (use '-' for standard input)");
		fprintf(stderr, "Try 'pdnkit convert --help' for more information.\n");
		goto out;
	}

	int err = 0;
	sink_ctx s = { NULL, out_path ? out_path : "-" };
	s.out = zout_open(s.path, &err);
	if (!s.out) {
		cli_error("cannot create '%s': %s", s.path, strerror(err));
		rc = EXIT_RUNTIME;
		goto out;
	}
	strbuf jb = { 0 };
	pk_write_opts wo = { .full_jumps = full, .width = 80, .plain = plain };
	long games = 0, fixed = 0, with_errors = 0;
	bool unreadable = false, write_failed = false;
	double t0 = cli_now();
	pk_source src = { .files = files, .nfiles = nfiles };
	pk_games *it = cli_games_open(&src);
	write_failed = !it;
	pk_game *g;
	pk_replay *rp;
	while (it && !write_failed && cli_next_game(it, &g, &rp, &unreadable) == GAMES_GAME) {
		const char *file = games_file(it);
		for (int k = 0; fix && rp->fix_el >= 0 && k < MAX_FIXES_PER_GAME; k++) {
			char note[256], was[64], safe[200], safe2[200];
			const pk_el *el = &g->els[rp->fix_el];
			snprintf(was, sizeof was, "%s", game_str(g, el->off));
			uint32_t line = el->line, col = el->col;
			snprintf(note, sizeof note, "pdnkit: '%s' corrected to '%s' (%s)", was, rp->fix_text, rp->fix_why);
			/* said where and what: the move as written, what it became and why */
			const char *event = game_tag(g, "Event");
			fprintf(stderr, "%s:%u:%u: fixed: game %d%s%s%s: '%s' -> '%s' (%s)\n", file, line, col, g->index,
				event ? " (" : "", event ? cli_safe_text(event, safe2, sizeof safe2) : "", event ? ")" : "",
				cli_safe_text(was, safe, sizeof safe), rp->fix_text, rp->fix_why);
			if (game_fix_move(g, rp->fix_el, rp->fix_text, note) < 0 || replay_game(g, rp) < 0)
				break;
			fixed++;
		}
		games++;
		if (g->findings.errors) {
			with_errors++;
			report_errors(file, g);
		}
		cli_games_progress("convert", it, games);
		int w = json ? write_json(file, g, rp, &s, &jb) : pdn_write_game(g, rp, &wo, sink, &s);
		if (w < 0)
			write_failed = true;
	}
	games_close(it);
	const char *msg = NULL;
	if (zout_close(s.out, &msg) < 0 || write_failed) {
		cli_error("cannot write %s: %s", cli_out_name(s.path), msg ? msg : strerror(errno ? errno : EIO));
		rc = EXIT_RUNTIME;
	} else {
		double secs = cli_now() - t0;
	fflush(stdout);   /* findings before the summary, also through a pipe */
		fprintf(stderr, "pdnkit convert: %ld game%s written", games, games == 1 ? "" : "s");
		if (fix)
			fprintf(stderr, ", %ld move%s fixed", fixed, fixed == 1 ? "" : "s");
		fprintf(stderr, ", %ld with errors kept as written from the error on; %.3f s\n", with_errors, secs);
		rc = unreadable ? EXIT_RUNTIME : with_errors ? EXIT_FINDINGS : EXIT_OK;
	}
	free(jb.p);
out:
	poptFreeContext(ctx);
	free(out_path);
	free(format);
	return rc;
}
