/* pdnkit diagram: a board diagram of a position (a FEN, moves from the start, or a
 * ply of a game in a file) as SVG or as Unicode text. */
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

int cmd_diagram(int argc, const char **argv)
{
	char *fen = NULL, *moves = NULL, *game_arg = NULL, *ply_arg = NULL, *arrow = NULL, *caption = NULL,
	     *format = NULL, *output = NULL, *size_arg = NULL;
	int flip = 0, numbers = 0, no_last = 0;
	struct poptOption opts[] = {
		{ "fen", 'f', POPT_ARG_STRING, &fen, 0, "the position", "FEN" },
		{ "moves", 'm', POPT_ARG_STRING, &moves, 0, "or the position after these moves from the start", "\"11-15 23-19 ...\"" },
		{ "game", 'g', POPT_ARG_STRING, &game_arg, 0, "or with FILE: the N-th game of the file (default 1)", "N" },
		{ "ply", 0, POPT_ARG_STRING, &ply_arg, 0, "with FILE: the position after P plies (default: the last)", "P" },
		{ "arrow", 'a', POPT_ARG_STRING, &arrow, 0, "draw this move (or squares joined by - or x) as an arrow", "MOVE" },
		{ "no-last", 0, POPT_ARG_NONE, &no_last, 0, "no arrow for the last move played (with --moves or FILE)", NULL },
		{ "flip", 0, POPT_ARG_NONE, &flip, 0, "White's side at the top", NULL },
		{ "numbers", 0, POPT_ARG_NONE, &numbers, 0, "square numbers on the playing squares", NULL },
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
		} else if ((rc = cli_load_game(files[0], want, &g, &rp)) != 0) {
			goto done;
		}
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
	return rc < 0 ? EXIT_OK : rc;
}
