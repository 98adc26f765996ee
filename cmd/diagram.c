/* pdnkit diagram: a board diagram of a position (a FEN, moves from the start, or a
 * ply of a game in a file) of any variant as SVG or as Unicode text. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "pdn/pdn_write.h"
#include "pdn/replay.h"
#include "pdn/zio.h"
#include "report/diagram.h"
#include "rules/fen.h"
#include "store/games.h"

/* An arrow from text: a legal move of p as written ("11-15", "22x13"), drawn along its
 * whole path, else squares joined by '-' or 'x' ("9-14-23"), drawn as given. */
static int parse_arrow(const char *text, const pk_pos *p, pk_arrow *a)
{
	pk_movelist ml;
	gen_moves(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		char s[PK_MOVE_STRLEN], f[PK_MOVE_STRLEN];
		pdn_move_string(p, &ml.m[i], false, s);
		move_format(&ml.m[i], true, f, sizeof f);
		if (!strcmp(s, text) || !strcmp(f, text)) {
			diagram_arrow(a, &ml.m[i], ARROW_PLAIN);
			return 0;
		}
	}
	a->kind = ARROW_PLAIN;
	a->nsq = 0;
	const char *q = text;
	while (*q && a->nsq < PK_MAX_PATH + 1) {
		char *end;
		long v = strtol(q, &end, 10);
		if (end == q || v < 1 || v > 32)
			return -1;
		a->sq[a->nsq++] = (int)v;
		if (!*end)
			break;
		if (*end != '-' && *end != 'x')
			return -1;
		q = end + 1;
	}
	return a->nsq >= 2 ? 0 : -1;
}

/* The same for a position of another variant: its moves as its notation writes them
 * ("32-28", "c3-d4"), or squares by number joined by - or x. */
static int parse_varrow(const char *text, const pk_vpos *p, pk_arrow *a)
{
	static pk_vmovelist ml;
	vgen(p, &ml);
	for (int i = 0; i < ml.n; i++) {
		char s[160], f[160];
		vmove_text(p->v, &ml.m[i], false, s, sizeof s);
		vmove_text(p->v, &ml.m[i], true, f, sizeof f);
		if (!strcmp(s, text) || !strcmp(f, text)) {
			diagram_varrow(a, &ml.m[i], ARROW_PLAIN);
			return 0;
		}
	}
	a->kind = ARROW_PLAIN;
	a->nsq = 0;
	const char *q = text;
	while (*q && a->nsq < DIAGRAM_MAX_PATH) {
		char *end;
		long v = strtol(q, &end, 10);
		if (end == q || v < 1 || v > variant_squares(p->v))
			return -1;
		a->sq[a->nsq++] = (int)v;
		if (!*end)
			break;
		if (*end != '-' && *end != 'x')
			return -1;
		q = end + 1;
	}
	return a->nsq >= 2 ? 0 : -1;
}

/* Writes the diagram of a variant position (after ply `at` of a game when before/last
 * are given, its first mover `first`). An exit code. */
static int vdiagram(const pk_vpos *p, const pk_vpos *before, const pk_vmove *last, int at, int start_stm, int first, bool flip,
		    bool numbers, bool no_last, int size, const char *arrow, const char *caption, bool text,
		    const char *output)
{
	pk_diagram_opts d = { .flip = flip, .numbers = numbers, .size = size };
	char cap[200], title[VAR_FEN_STRLEN];
	const char *side = p->stm == PK_BLACK ? "Black" : "White";
	if (last && !no_last) {
		diagram_varrow(&d.arrows[d.narrows++], last, ARROW_PLAIN);
		char mv[160];
		vmove_text(p->v, last, false, mv, sizeof mv);
		/* the move number: the first mover's plies open each; a game that starts with
		 * the other side to move opens with "1..." */
		int number = start_stm == first ? (at - 1) / 2 + 1 : at / 2 + 1;
		snprintf(cap, sizeof cap, "after %d%s %s; %s to move", number, before->stm == first ? "." : "...", mv, side);
	} else {
		snprintf(cap, sizeof cap, "%s to move", side);
	}
	if (arrow) {
		if (d.narrows)
			d.arrows[0].kind = ARROW_PLAYED;
		if (parse_varrow(arrow, p, &d.arrows[d.narrows]) < 0) {
			cli_error("--arrow: '%s' is neither a legal move here nor squares joined by - or x", arrow);
			return EXIT_USAGE;
		}
		d.narrows++;
	}
	d.caption = caption ? caption : cap;
	vfen_format(p, title, sizeof title);
	d.title = title;
	int err = 0;
	const char *path = output ? output : "-";
	pk_out *o = zout_open_plain(path, &err);
	if (!o) {
		cli_error("cannot write %s: %s", cli_out_name(path), strerror(err));
		return EXIT_RUNTIME;
	}
	int w = text ? diagram_vtext(p, &d, cli_sink_out, o) : diagram_vsvg(p, &d, cli_sink_out, o);
	const char *msg = NULL;
	int c = zout_close(o, &msg);
	if (w < 0 || c < 0) {
		cli_error("cannot write %s: %s", cli_out_name(path), msg ? msg : "write error");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_diagram(int argc, const char **argv)
{
	char *fen = NULL, *moves = NULL, *game_arg = NULL, *ply_arg = NULL, *arrow = NULL, *caption = NULL,
	     *format = NULL, *output = NULL, *size_arg = NULL, *variant = NULL;
	int flip = 0, numbers = 0, no_numbers = 0, no_last = 0;
	struct poptOption opts[] = {
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "the position", "FEN" },
		{ "moves", 'm', POPT_ARG_STRING, &moves, 0, "or the position after these moves from the start", "\"11-15 23-19 ...\"" },
		{ "game", 'g', POPT_ARG_STRING, &game_arg, 0, "or with FILE: the N-th game of the file (default 1)", "N" },
		{ "ply", 0, POPT_ARG_STRING, &ply_arg, 0, "with FILE: the position after P plies (default: the last)", "P" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, "a position of another variant (name or PDN GameType; a FILE's game says its own)", "NAME" },
		{ "arrow", 'a', POPT_ARG_STRING, &arrow, 0, "draw this move (or squares joined by - or x) as an arrow", "MOVE" },
		{ "no-last", 0, POPT_ARG_NONE, &no_last, 0, "no arrow for the last move played (with --moves or FILE)", NULL },
		{ "flip", 0, POPT_ARG_NONE, &flip, 0, "White's side at the top", NULL },
		{ "numbers", 0, POPT_ARG_NONE, &numbers, 0, "with --format text: square numbers on the empty playing squares (an SVG board has them unless --no-numbers)", NULL },
		{ "no-numbers", 0, POPT_ARG_NONE, &no_numbers, 0, "no square numbers on an SVG board", NULL },
		{ "caption", 'c', POPT_ARG_STRING, &caption, 0, "a caption under the board (default: the side to move, or the move)", "TEXT" },
		{ "size", 0, POPT_ARG_STRING, &size_arg, 0, "pixels a square (default 44)", "PX" },
		{ "format", 0, POPT_ARG_STRING, &format, 0, "svg (the default) or text (a Unicode board)", "FMT" },
		{ "output", 'o', POPT_ARG_STRING, &output, 0, "write here (default: standard output)", "OUT" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [--fen FEN | --moves MOVES | FILE [--game N] [--ply P]]");
	int rc = cli_parse_options(ctx, opts);
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	pk_out *o = NULL;
	if (rc)
		goto done;
	rc = EXIT_USAGE;
	int nfiles;
	const char **files = cli_args(ctx, &nfiles);
	bool text = false;
	if (format && !strcmp(format, "text"))
		text = true;
	else if (format && strcmp(format, "svg") != 0) {
		cli_error("--format must be svg or text, not '%s'", format);
		goto done;
	}
	if (numbers && no_numbers) {
		cli_error("--numbers and --no-numbers cannot be combined");
		goto done;
	}
	/* an SVG board is numbered as CheckerBoard's is (small, in a corner); a text board
	 * only when asked, its numbers taking the empty squares' dots */
	numbers = text ? numbers : !no_numbers;
	if ((fen != NULL) + (moves != NULL) + (nfiles > 0) > 1 || nfiles > 1) {
		cli_error("give one of --fen, --moves or a FILE");
		goto done;
	}
	if ((game_arg || ply_arg) && nfiles == 0) {
		cli_error("--game and --ply need a FILE");
		goto done;
	}
	long want = 1, ply = -1, size = 44;
	if ((game_arg && cli_int(game_arg, 1, 100000000, "--game", &want)) ||
	    (ply_arg && cli_int(ply_arg, 0, 100000, "--ply", &ply)) ||
	    (size_arg && cli_int(size_arg, 16, 200, "--size", &size)))
		goto done;
	/* another variant: by --variant, or a FILE's game of one */
	const pk_variant *var = NULL;
	if (variant && !(var = cli_variant(variant)))
		goto done;
	if (var && var->gametype == 21)
		var = NULL;   /* English draughts: the bitboard position */
	if (var && !var->replayable) {
		cli_error("%s: pdnkit does not know its rules yet", var->name);
		goto done;
	}
	pk_vpos vp;
	pk_vmove vlast;
	pk_vpos vbefore;
	bool vhas_last = false;
	int vat = 0;
	if (var && fen) {
		if (cli_variant_position(variant, fen, &var, &vp) < 0)
			goto done;
	} else if (var && !moves && !nfiles) {
		vpos_start(var, &vp);
	} else if (var && moves) {
		const char *error;
		if (replay_moves_text_as(moves, var->gametype, &g, &rp, &error) < 0) {
			cli_error("--moves: %s", error);
			goto done;
		}
	} else if (nfiles) {
		if ((rc = cli_load_game(files[0], want, &g, &rp)) != 0)
			goto done;
		rc = EXIT_USAGE;
		if (rp.variant_replayed)
			var = variant_by_gametype(rp.variant);
		else if (var) {
			cli_error("game %ld is %s, not %s", want, variant_name(rp.variant), var->name);
			goto done;
		}
	}
	if (var && (moves || nfiles)) {
		if (rp.vr.bad_start) {
			cli_error("game %ld: its FEN tag does not read (see pdnkit validate)", want);
			goto done;
		}
		if (ply > rp.vr.plies) {
			cli_error("--ply %ld: the game has %d plies%s", ply, rp.vr.plies,
				  rp.vr.complete ? "" : " replayed (it stops at an error: see pdnkit validate)");
			goto done;
		}
		vat = ply < 0 ? rp.vr.plies : (int)ply;
		vreplay_pos_before(&rp.vr, vat + 1, &vp, NULL);
		if (vat > 0 && vreplay_pos_before(&rp.vr, vat, &vbefore, &vlast) == 0)
			vhas_last = true;
	}
	if (var) {
		rc = vdiagram(&vp, vhas_last ? &vbefore : NULL, vhas_last ? &vlast : NULL, vat, rp.vr.start.stm, rp.vr.first, flip, numbers,
			      no_last, (int)size, arrow, caption, text, output);
		goto done;
	}
	pk_pos p;
	const pk_ply *last = NULL;
	const pk_pos *before_last = NULL;
	pos_start(&p);
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), &p, &fe) < 0) {
			cli_error("bad FEN at column %zu: %s", fe.offset + 1, fe.msg);
			goto done;
		}
	} else if (moves || nfiles) {
		if (moves) {
			const char *error;
			if (replay_moves_text(moves, &g, &rp, &error) < 0) {
				cli_error("--moves: %s", error);
				goto done;
			}
		}
		/* (a file's game was read above, where its variant is told) */
		rc = EXIT_USAGE;
		if (!rp.supported) {
			cli_error("game %ld is %s, which pdnkit does not replay yet", want, variant_name(rp.variant));
			goto done;
		}
		if (ply > rp.nply) {
			cli_error("--ply %ld: the game has %d plies%s", ply, rp.nply,
				  rp.complete ? "" : " replayed (it stops at an error: see pdnkit validate)");
			goto done;
		}
		int at = ply < 0 ? rp.nply : (int)ply;
		p = at ? rp.plies[at - 1].after : rp.start;
		if (at > 0 && rp.plies[at - 1].ordinal >= 0) {
			last = &rp.plies[at - 1];
			before_last = replay_pos_before(&rp, at);
		}
	}
	pk_diagram_opts d = { .flip = flip, .numbers = numbers, .size = (int)size };
	char cap[160], title[160];
	if (last && !no_last) {
		diagram_arrow(&d.arrows[d.narrows++], &last->move, ARROW_PLAIN);
		char mv[PK_MOVE_STRLEN];
		pdn_move_string(before_last, &last->move, false, mv);
		int at = (int)(last - rp.plies) + 1;
		snprintf(cap, sizeof cap, "after %d%s %s; %s to move", replay_move_number(&rp, at),
			 before_last->stm == PK_BLACK ? "." : "...", mv, p.stm == PK_BLACK ? "Black" : "White");
	} else {
		snprintf(cap, sizeof cap, "%s to move", p.stm == PK_BLACK ? "Black" : "White");
	}
	if (arrow) {
		if (d.narrows)
			d.arrows[0].kind = ARROW_PLAYED;
		if (parse_arrow(arrow, &p, &d.arrows[d.narrows]) < 0) {
			cli_error("--arrow: '%s' is neither a legal move here nor squares joined by - or x", arrow);
			goto done;
		}
		d.narrows++;
	}
	d.caption = caption ? caption : cap;
	fen_format(&p, title, sizeof title);
	d.title = title;
	rc = EXIT_RUNTIME;
	int err = 0;
	const char *path = output ? output : "-";
	if (!(o = zout_open_plain(path, &err))) {
		cli_error("cannot write %s: %s", cli_out_name(path), strerror(err));
		goto done;
	}
	int w = text ? diagram_text(&p, &d, cli_sink_out, o) : diagram_svg(&p, &d, cli_sink_out, o);
	const char *msg = NULL;
	int c = zout_close(o, &msg);
	o = NULL;
	if (w < 0 || c < 0) {
		cli_error("cannot write %s: %s", cli_out_name(path), msg ? msg : "write error");
		goto done;
	}
	rc = EXIT_OK;
done:
	if (o)
		zout_close(o, NULL);
	game_free(&g);
	replay_free(&rp);
	poptFreeContext(ctx);
	free(fen);
	free(moves);
	free(game_arg);
	free(ply_arg);
	free(arrow);
	free(caption);
	free(format);
	free(output);
	free(size_arg);
	free(variant);
	return rc < 0 ? EXIT_OK : rc;
}
