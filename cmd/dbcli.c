/* Shared options of the store commands. */
#include <ctype.h>
#include <strings.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dbcli.h"
#include "analysis/opnames.h"
#include "rules/fen.h"

struct poptOption *filter_options(filter_args *fa)
{
	static struct poptOption t[25];
	struct poptOption opts[] = {
		{ "db", 0, POPT_ARG_STRING, &fa->db, 0, "database file (default: $PDNKIT_DB or pdnkit.db)", "PATH" },
		{ "variant", 0, POPT_ARG_STRING, &fa->variant, 0, "games of this variant (name or GameType: international, 25...); "
		  "--opening, --position and --after are then in its rules and notation", "NAME" },
		{ "player", 'p', POPT_ARG_STRING, &fa->player, 0, "games where NAME played either colour (substring, any case)", "NAME" },
		{ "black", 0, POPT_ARG_STRING, &fa->black, 0, "games where NAME had Black", "NAME" },
		{ "white", 0, POPT_ARG_STRING, &fa->white, 0, "games where NAME had White", "NAME" },
		{ "event", 'e', POPT_ARG_STRING, &fa->event, 0, "event contains TEXT", "TEXT" },
		{ "site", 0, POPT_ARG_STRING, &fa->site, 0, "site contains TEXT", "TEXT" },
		{ "date-from", 0, POPT_ARG_STRING, &fa->date_from, 0, "played on or after this date", "YYYY[-MM[-DD]]" },
		{ "date-to", 0, POPT_ARG_STRING, &fa->date_to, 0, "played on or before this date", "YYYY[-MM[-DD]]" },
		{ "result", 'r', POPT_ARG_STRING, &fa->result, 0, "1-0 (Black won), 0-1 (White won), 1/2-1/2 or *", "RESULT" },
		{ "opening", 0, POPT_ARG_STRING, &fa->opening, 0, "games from the initial position that start with these moves", "\"9-14 23-18 ...\"" },
		{ "position", 0, POPT_ARG_STRING, &fa->position, 0, "games that reach this position, in any move order", "FEN" },
		{ "after", 0, POPT_ARG_STRING, &fa->after, 0, "games that reach the position after these moves, in any order", "\"MOVES\"" },
		{ "opening-name", 0, POPT_ARG_STRING, &fa->opening_name, 0, "games that reach the named opening's position, in any order (English draughts: \"Old Fourteenth\", Glasgow, ...; pdnkit(1) lists them)", "NAME" },
		{ "invalid", 0, POPT_ARG_NONE, &fa->invalid, 0, "only games with errors (copies of other games included)", NULL },
		{ "with-copies", 0, POPT_ARG_NONE, &fa->copies, 0, "also the games stored as copies of another (the same game from another source: "
		  "left out unless asked, so that each game counts once)", NULL },
		{ "min-plies", 0, POPT_ARG_STRING, &fa->min_plies, 0, "at least N half-moves", "N" },
		{ "max-plies", 0, POPT_ARG_STRING, &fa->max_plies, 0, "at most N half-moves", "N" },
		{ "order", 0, POPT_ARG_STRING, &fa->order, 0, "sort by id, date, event, black, white, plies, result or ply", "FIELD" },
		{ "desc", 0, POPT_ARG_NONE, &fa->desc, 0, "sort in descending order", NULL },
		{ "limit", 'n', POPT_ARG_STRING, &fa->limit, 0, "at most N games", "N" },
		POPT_TABLEEND
	};
	memcpy(t, opts, sizeof opts);
	return t;
}

struct poptOption *db_option(filter_args *fa)
{
	static struct poptOption t[2];
	struct poptOption opts[] = {
		{ "db", 0, POPT_ARG_STRING, &fa->db, 0, "database file (default: $PDNKIT_DB or pdnkit.db)", "PATH" },
		POPT_TABLEEND
	};
	memcpy(t, opts, sizeof opts);
	return t;
}

const char *db_path(const filter_args *fa)
{
	if (fa->db && *fa->db)
		return fa->db;
	const char *env = getenv("PDNKIT_DB");
	return env && *env ? env : "pdnkit.db";
}

pk_store *db_open(const filter_args *fa, int mode)
{
	char err[600];
	const char *path = db_path(fa);
	if (mode != STORE_CREATE && access(path, F_OK) != 0) {
		cli_error("no database at '%s' (run 'pdnkit import' first, or give --db)", path);
		return NULL;
	}
	pk_store *s = store_open(path, mode, err, sizeof err);
	if (!s)
		cli_error("%s", err);
	return s;
}

/* YYYY, YYYY-MM or YYYY-MM-DD (also with '.' or '/'); unknown parts as 00 for a start
 * and 99 for an end, so that "--date-to 1960" takes in every game of 1960. */
int parse_moves_arg(const char *option, const char *text, const pk_variant *v, uint8_t *buf, int cap, int *n,
		    filter_pos *final)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *error;
	int rc = replay_moves_text_as(text, v ? v->gametype : 21, &g, &rp, &error);
	memset(final, 0, sizeof *final);
	final->v = v;
	if (rc < 0)
		cli_error("--%s: %s", option, error);
	else if ((*n = v ? store_encode_ordinals(rp.vr.ord, rp.vr.plies, buf, cap) : store_encode_moves(&rp, buf, cap)) < 0) {
		cli_error("--%s: too many moves", option);
		rc = -1;
	} else if (v) {
		final->key = rp.vr.key[rp.vr.plies];
		final->vpos = rp.vr.start;
		for (int i = 0; i < rp.vr.plies; i++) {
			pk_vmovelist *ml = malloc(sizeof *ml);
			if (!ml)
				break;
			vgen(&final->vpos, ml);
			pk_vpos next;
			vmake(&final->vpos, &ml->m[rp.vr.ord[i]], &next);
			final->vpos = next;
			free(ml);
		}
	} else {
		final->pos = rp.nply ? rp.plies[rp.nply - 1].after : rp.start;
		final->key = final->pos.key;
	}
	game_free(&g);
	replay_free(&rp);
	return rc;
}

int filter_resolve(filter_args *fa, pk_filter *f)
{
	filter_init(f);
	f->player = fa->player;
	f->black = fa->black;
	f->white = fa->white;
	f->event = fa->event;
	f->site = fa->site;
	f->invalid = fa->invalid;
	f->copies = fa->copies || fa->invalid;
	f->desc = fa->desc;
	f->order = fa->order;
	fa->v = NULL;
	if (fa->variant) {
		const pk_variant *var = variant_by_name(fa->variant);
		if (!var || !var->replayable) {
			cli_error("--variant: '%s' is not a variant pdnkit knows (see pdnkit perft --variant list)", fa->variant);
			return EXIT_USAGE;
		}
		f->gametype = var->gametype;
		fa->v = var->gametype == 21 ? NULL : var;
	}
	if (fa->result) {
		/* "1-0" is the first mover's win: Black's in English draughts, White's in
		 * most other variants */
		bool white_first = fa->v && fa->v->first == PK_WHITE;
		int res = result_parse(fa->result);
		if (!strcasecmp(fa->result, "black"))
			res = white_first ? RES_WHITE_WINS : RES_BLACK_WINS;
		else if (!strcasecmp(fa->result, "white"))
			res = white_first ? RES_BLACK_WINS : RES_WHITE_WINS;
		else if (!strcasecmp(fa->result, "draw"))
			res = RES_DRAW;
		if (res == RES_NONE) {
			cli_error("--result must be 1-0, 0-1, 1/2-1/2, *, black, white or draw, not '%s'", fa->result);
			return EXIT_USAGE;
		}
		snprintf(fa->result_buf, sizeof fa->result_buf, "%s", result_string(res));
		f->result = fa->result_buf;
	}
	if (fa->date_from && store_date_bound(fa->date_from, false, &f->date_from) < 0) {
		cli_error("--date-from must be YYYY, YYYY-MM or YYYY-MM-DD, not '%s'", fa->date_from);
		return EXIT_USAGE;
	}
	if (fa->date_to && store_date_bound(fa->date_to, true, &f->date_to) < 0) {
		cli_error("--date-to must be YYYY, YYYY-MM or YYYY-MM-DD, not '%s'", fa->date_to);
		return EXIT_USAGE;
	}
	long v;
	if (fa->limit) {
		if (cli_int(fa->limit, 1, 2000000000, "--limit", &v))
			return EXIT_USAGE;
		f->limit = v;
	}
	if (fa->min_plies) {
		if (cli_int(fa->min_plies, 0, 100000, "--min-plies", &v))
			return EXIT_USAGE;
		f->min_plies = (int)v;
	}
	if (fa->max_plies) {
		if (cli_int(fa->max_plies, 0, 100000, "--max-plies", &v))
			return EXIT_USAGE;
		f->max_plies = (int)v;
	}
	char padded[64];
	snprintf(padded, sizeof padded, " %s ", fa->order ? fa->order : "");
	if (fa->order && (strlen(fa->order) > 10 || !strstr(" id date event black white plies result ply ", padded))) {
		cli_error("--order must be id, date, event, black, white, plies, result or ply, not '%s'", fa->order);
		return EXIT_USAGE;
	}
	filter_pos final;
	if (fa->opening) {
		int n;
		if (parse_moves_arg("opening", fa->opening, fa->v, fa->opening_buf, sizeof fa->opening_buf, &n, &final) < 0)
			return EXIT_USAGE;
		f->opening_set = true;
		f->opening = fa->opening_buf;
		f->opening_len = n;
	}
	if (fa->opening_name) {
		const pk_opname *o = opname_find(fa->opening_name);
		if (fa->v) {
			cli_error("--opening-name: the named openings are English draughts'");
			return EXIT_USAGE;
		}
		if (fa->position || fa->after) {
			cli_error("--opening-name names a position: not with --position or --after");
			return EXIT_USAGE;
		}
		if (!o) {
			const char *names[64];
			int n = opnames_count();
			for (int i = 0; i < n && i < 64; i++)
				names[i] = opnames_at(i)->name;
			cli_error("--opening-name: no opening is named '%s' (pdnkit(1) lists the names)", fa->opening_name);
			cli_did_you_mean(fa->opening_name, names, n < 64 ? n : 64);
			return EXIT_USAGE;
		}
		if (!(fa->after = strdup(o->moves))) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
	}
	if (fa->position && fa->after) {
		cli_error("--position and --after cannot be combined");
		return EXIT_USAGE;
	}
	fa->at_set = false;
	if (fa->position) {
		memset(&fa->at, 0, sizeof fa->at);
		fa->at.v = fa->v;
		if (fa->v) {
			char err[200];
			if (vfen_parse(fa->v, fa->position, &fa->at.vpos, err, sizeof err) < 0) {
				cli_error("--position: not a position of %s: %s", fa->v->name, err);
				return EXIT_USAGE;
			}
			fa->at.key = vpos_key(&fa->at.vpos);
		} else {
			pk_fen_error fe;
			if (fen_parse(fa->position, strlen(fa->position), &fa->at.pos, &fe) < 0) {
				cli_error("--position: bad FEN at column %zu: %s%s", fe.offset + 1, fe.msg,
					  fa->variant ? "" : " (for another variant, give --variant)");
				return EXIT_USAGE;
			}
			fa->at.key = fa->at.pos.key;
		}
		fa->at_set = true;
	}
	if (fa->after) {
		uint8_t tmp[1024];
		int n;
		if (parse_moves_arg("after", fa->after, fa->v, tmp, sizeof tmp, &n, &fa->at) < 0)
			return EXIT_USAGE;
		fa->at_set = true;
	}
	if (fa->at_set) {
		f->position_set = true;
		f->position_key = fa->at.key;
	}
	if (fa->order && !strcmp(fa->order, "ply") && !f->position_set) {
		cli_error("--order ply needs --position or --after");
		return EXIT_USAGE;
	}
	return 0;
}

void filter_args_free(filter_args *fa)
{
	char **all[] = { &fa->db, &fa->variant, &fa->player, &fa->black, &fa->white, &fa->event, &fa->site, &fa->result,
			 &fa->date_from, &fa->date_to, &fa->opening, &fa->position, &fa->after, &fa->opening_name, &fa->order,
			 &fa->limit, &fa->min_plies, &fa->max_plies };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		free(*all[i]);
		*all[i] = NULL;
	}
}

bool filter_args_given(const filter_args *fa)
{
	return fa->db || fa->variant || fa->player || fa->black || fa->white || fa->event || fa->site || fa->result || fa->date_from ||
	       fa->date_to || fa->opening || fa->position || fa->after || fa->opening_name || fa->invalid || fa->copies || fa->min_plies || fa->max_plies ||
	       fa->limit || fa->order;
}
