/* pdnkit egdb: build endgame databases, probe them, summarise them, verify them. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/pool.h"
#include "cli.h"
#include "commands.h"
#include "egdb/build.h"
#include "pdn/pdn_write.h"
#include "egdb/check.h"
#include "egdb/egdb.h"
#include "egdb/vegdb.h"
#include "egdb_cmd.h"
#include "egdb_opts.h"
#include "store/games.h"
#include "engine_opts.h"
#include "rules/fen.h"
#include "rules/gen.h"

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig)
{
	stop_flag = sig;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0777) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

static void human(double x, char *buf, size_t size)
{
	const char *u[] = { "", "k", "M", "G", "T" };
	int i = 0;
	while (x >= 1000 && i < 4) {
		x /= 1000;
		i++;
	}
	snprintf(buf, size, i ? "%.1f%s" : "%.0f%s", x, u[i]);
}

typedef struct {
	bool quiet, json;
} build_ui;

static void build_progress(void *ctx, const pk_build_event *ev)
{
	build_ui *ui = ctx;
	if (ui->quiet)
		return;
	char pair[80];
	snprintf(pair, sizeof pair, "%s%s%s", ev->name, ev->mirror ? " + " : "", ev->mirror ? ev->mirror : "");
	if (ev->kind == EGDB_EV_LOADED) {
		if (!ui->json && ev->part)
			fprintf(stderr, "egdb build: %s part %d,%d already built\n", pair, ev->lead[0] + 1, ev->lead[1] + 1);
		else if (!ui->json)
			fprintf(stderr, "egdb build: %-22s already built\n", pair);
		return;
	}
	if (ev->kind == EGDB_EV_PART) {
		char pos[16];
		human((double)ev->positions, pos, sizeof pos);
		if (ui->json)
			printf("{\"slice\":\"%s\",\"part\":[%d,%d],\"positions\":%" PRIu64 ",\"seconds\":%.3f}\n", ev->name,
			       ev->lead[0] + 1, ev->lead[1] + 1, ev->positions, ev->seconds);
		else
			fprintf(stderr, "egdb build: %s part %d,%d (%s positions) built, %.1f s into the pair%s\n", pair,
				ev->lead[0] + 1, ev->lead[1] + 1, pos, ev->seconds, cli_stderr_is_tty() ? "\033[K" : "");
		fflush(stdout);
		return;
	}
	if (ev->kind == EGDB_EV_DONE && ev->part)
		return;
	if (ev->kind == EGDB_EV_START) {
		if (cli_stderr_is_tty() && !ui->json)
			fprintf(stderr, "egdb build: [%d/%d] %s ...\r", ev->index, ev->count, pair);
		return;
	}
	double eta = ev->done && ev->total > ev->done ? ev->elapsed * (double)(ev->total - ev->done) / (double)ev->done : 0;
	if (ui->json) {
		printf("{\"slice\":\"%s\",\"mirror\":%s%s%s,\"positions\":%" PRIu64 ",\"wins\":%" PRIu64 ",\"losses\":%" PRIu64
		       ",\"draws\":%" PRIu64 ",\"longest_win\":%u,\"bytes\":%" PRIu64 ",\"seconds\":%.3f,\"scanned_levels\":%" PRIu64
		       ",\"done\":%" PRIu64 ",\"total\":%" PRIu64 "}\n",
		       ev->name, ev->mirror ? "\"" : "", ev->mirror ? ev->mirror : "null", ev->mirror ? "\"" : "",
		       ev->positions, ev->wins, ev->losses, ev->draws, ev->longest, ev->bytes, ev->seconds, ev->scans,
		       ev->done, ev->total);
		fflush(stdout);
		return;
	}
	char pos[16], by[16];
	human((double)ev->positions, pos, sizeof pos);
	human((double)ev->bytes, by, sizeof by);
	char scans[48] = "";
	if (ev->scans)
		snprintf(scans, sizeof scans, "  (%" PRIu64 " levels by scan)", ev->scans);
	/* the clearing code only on a terminal: a log file or a pipe gets plain lines */
	fprintf(stderr, "egdb build: [%d/%d] %-22s %7s positions %7.1f s %7sB  longest win %3u  %3.0f%% ETA %d:%02d%s%s\n",
		ev->index, ev->count, pair, pos, ev->seconds, by, ev->longest,
		ev->total ? 100.0 * (double)ev->done / (double)ev->total : 100.0, (int)eta / 60, (int)eta % 60, scans,
		cli_stderr_is_tty() ? "\033[K" : "");
}

/* ---- the other variants' databases (egdb/vegdb.h) ---- */

static void vbuild_progress(void *ctx, const pk_vegdb_progress *pr)
{
	const build_ui *u = ctx;
	bool finished = pr->skipped || pr->seconds > 0;
	if (u->json) {
		if (finished)
			printf("{\"class\":\"%s\",\"positions\":%llu,\"seconds\":%.2f,\"kept\":%s}\n", pr->name,
			       (unsigned long long)pr->positions, pr->seconds, pr->skipped ? "true" : "false");
		return;
	}
	if (u->quiet)
		return;
	if (!finished)
		fprintf(stderr, "  [%d/%d] %-10s %12llu positions  building...%s\r", pr->done + 1, pr->total, pr->name,
			(unsigned long long)pr->positions, cli_stderr_is_tty() ? "\033[K" : "\n");
	else if (pr->skipped)
		fprintf(stderr, "  [%d/%d] %-10s %12llu positions  kept (already built and read back)\n", pr->done,
			pr->total, pr->name, (unsigned long long)pr->positions);
	else
		fprintf(stderr, "  [%d/%d] %-10s %12llu positions  built in %.1f s\n", pr->done, pr->total, pr->name,
			(unsigned long long)pr->positions, pr->seconds);
}

static int vbuild(const pk_variant *v, const char *dir, int pieces, int threads, bool quiet, bool json)
{
	build_ui ui = { quiet, json };
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	double t0 = cli_now();
	char err[600];
	if (vegdb_build(v, pieces, threads, dir, &stop_flag, vbuild_progress, &ui, err, sizeof err) < 0) {
		if (stop_flag) {
			cli_error("stopped by a signal; the finished classes are kept in %s/%s, run the same command to go on",
				  dir, v->key);
			return 128 + (int)stop_flag;
		}
		cli_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (!quiet && !json)
		fprintf(stderr, "egdb build: %s, every position of up to %d pieces, complete in %s/%s (%.1f s)\n", v->name,
			pieces, dir, v->key, cli_now() - t0);
	return EXIT_OK;
}

static int egdb_build_cmd(int argc, const char **argv)
{
	char *dir = NULL, *pieces = NULL, *threads = NULL, *slice = NULL, *dist = NULL, *dist_men = NULL, *level = NULL;
	char *memory = NULL, *plan = NULL, *variant = NULL, *parts = NULL, *part = NULL;
	int quiet = 0, json = 0, bytes_layout = 0, store_threats = 0;
	struct poptOption opts[] = {
		{ "pieces", 'n', POPT_ARG_STRING, &pieces, 0, "every slice of up to N pieces (2..8, default 4; another variant: 2..6)", "N" },
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, EGDB_VARIANT_HELP, "NAME" },

		{ "plan", 0, POPT_ARG_STRING, &plan, 0, "build nothing: write the slice pairs as jobs, each after the jobs it reads, with its memory and time (text or json), or a script that builds them under Slurm (slurm: sbatch jobs with dependencies) or GNU parallel (parallel: a wave at a time); each job is egdb build --slice (--part), which skips what is built already; a pair whose job would take more than --memory (default 16384 MiB here) is planned as its parts and their join", "FORMAT" },
		EGDB_DIR_OPTIONS(dir),
		{ "threads", 0, POPT_ARG_STRING, &threads, 0, "threads (default 2)", "N" },
		{ "slice", 0, POPT_ARG_STRING, &slice, 0, "build only this slice and its mirror (e.g. MMK-KK); the slices it needs must be in DIR", "NAME" },
		{ "distances", 0, POPT_ARG_STRING, &dist, 0, "keep distances in slices of up to N pieces (default 5; beyond: win, loss, draw only)", "N" },
		{ "distances-men", 0, POPT_ARG_STRING, &dist_men, 0, "and in the larger slices of at most M men (0: kings only; built again where they lack them)", "M" },
		{ "level", 0, POPT_ARG_STRING, &level, 0, "zstd level of the blocks (1..19, default 15)", "L" },
		{ "bytes-layout", 0, POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, &bytes_layout, 0, "slices without distances a byte a position, the older layout (for tests of repack)", NULL },
		{ "store-threats", 0, POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, &store_threats, 0, "packed slices store their threat positions too (for comparisons)", NULL },
		{ "memory", 0, POPT_ARG_STRING, &memory, 0, "MiB the build may take (default: 80% of the machine's); two slice pairs are built side by side only when both fit, and a pair that does not fit is built by parts", "MB" },
		{ "parts", 0, POPT_ARG_STRING, &parts, 0, "which slice pairs are built by parts, their positions split by the row of each side's most advanced man: auto (those that do not fit --memory; default), always (every pair with men), never", "WHEN" },
		{ "part", 0, POPT_ARG_STRING, &part, 0, "with --slice: build only its part of leading rows A,B (1..7 from each side's back row, 0 for a side without men; a job of a plan)", "A,B" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "a JSON line for each slice pair built", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &quiet, 0, "no progress", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	long n = 4, nt = 2, nd = 5, ndm = -1, lv = 15, mem = 0;
	int nargs;
	cli_args(ctx, &nargs);
	if (nargs) {
		cli_error("no arguments expected (slices are chosen with --pieces or --slice)");
		goto out;
	}
	if ((pieces && cli_int(pieces, 2, EGDB_MAX_PIECES, "--pieces", &n)) ||
	    (threads && cli_int(threads, 1, POOL_MAX_THREADS, "--threads", &nt)) ||
	    (dist && cli_int(dist, 0, EGDB_MAX_PIECES, "--distances", &nd)) ||
	    (dist_men && cli_int(dist_men, 0, EGDB_MAX_PIECES, "--distances-men", &ndm)) ||
	    (level && cli_int(level, 1, 19, "--level", &lv)) ||
	    (memory && cli_int(memory, 1, 1L << 30, "--memory", &mem)))
		goto out;
	int when = EGDB_PARTS_AUTO, rows[2] = { -1, -1 };
	if (parts) {
		if (!strcmp(parts, "auto"))
			when = EGDB_PARTS_AUTO;
		else if (!strcmp(parts, "always"))
			when = EGDB_PARTS_ALWAYS;
		else if (!strcmp(parts, "never"))
			when = EGDB_PARTS_NEVER;
		else {
			cli_error("--parts: '%s' is not auto, always or never", parts);
			goto out;
		}
	}
	if (part) {
		char *end;
		long a = strtol(part, &end, 10), b = *end == ',' ? strtol(end + 1, &end, 10) : -1;
		if (!slice || *end || a < 0 || a > EGDB_ROWS || b < 0 || b > EGDB_ROWS || part[0] == '\0') {
			cli_error(slice ? "--part: '%s' is not A,B (rows 1..7, 0 for a side without men)"
					: "--part needs --slice (the part of which slice pair)", part);
			goto out;
		}
		rows[0] = (int)a - 1;
		rows[1] = (int)b - 1;
		pk_material m;
		if (material_parse(slice, &m) == 0 && ((rows[0] < 0) != (m.m[0] == 0) || (rows[1] < 0) != (m.m[1] == 0) ||
						      (m.m[0] && rows[0] < slice_lead_min(m.m[0])) ||
						      (m.m[1] && rows[1] < slice_lead_min(m.m[1])))) {
			cli_error("--part %s: %s has no such part (a side's row is 0 when it has no men, else 1..7 and far enough for all its men)",
				  part, slice);
			goto out;
		}
		if (when == EGDB_PARTS_NEVER) {
			cli_error("--part with --parts never");
			goto out;
		}
	}
	char d[4096];
	egdb_dir(dir, d, sizeof d);
	const pk_variant *var = NULL;
	if (variant && !(var = cli_variant(variant)))
		goto out;
	if (var && var->gametype != 21) {
		if (plan || slice || dist || dist_men || level || memory || parts || part) {
			cli_error("another variant's databases are built whole: not with --plan, --slice, --distances, --distances-men, --level, --memory, --parts or --part");
			goto out;
		}
		if (n > VEGDB_MAX_PIECES) {
			cli_error("--pieces: at most %d for another variant", VEGDB_MAX_PIECES);
			goto out;
		}
		if (make_dirs(d) < 0) {
			cli_error("cannot create %s: %s", d, strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
		rc = vbuild(var, d, (int)n, (int)nt, quiet, json);
		goto out;
	}
	if (plan) {
		if (slice) {
			cli_error("--plan writes every pair of the level: not with --slice");
			goto out;
		}
		if (part) {
			cli_error("--plan writes every job of the level: not with --part");
			goto out;
		}
		rc = egdb_plan_print(plan, d, (int)n, (int)nt, (int)nd, (int)ndm, mem ? (uint64_t)mem << 20 : (uint64_t)16384 << 20,
				     when);
		goto out;
	}
	if (make_dirs(d) < 0) {
		cli_error("cannot create %s: %s", d, strerror(errno));
		rc = EXIT_RUNTIME;
		goto out;
	}
	build_ui ui = { quiet, json };
	pk_build_opts o = {
		.pieces = (int)n, .threads = (int)nt, .dist_pieces = (int)nd, .dist_men = (int)ndm, .level = (int)lv, .bytes_layout = bytes_layout, .store_threats = store_threats, .dir = d, .only = slice,
		.memory = (uint64_t)mem << 20, .parts = when, .part_only = part != NULL, .part = { rows[0], rows[1] },
		.stop = &stop_flag, .progress = build_progress, .ctx = &ui,
	};
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	double t0 = cli_now();
	char err[600];
	int r = egdb_build(&o, err, sizeof err);
	if (r < 0) {
		cli_error("%s", err);
		rc = EXIT_RUNTIME;
	} else if (r == 1) {
		cli_error("stopped by a signal; the finished slices are kept in %s, run the same command to go on", d);
		rc = 128 + (int)stop_flag;
	} else {
		if (!quiet && !json && part)
			fprintf(stderr, "egdb build: %s part %s in %s (%.1f s); once every part is there, egdb build --slice %s joins them\n",
				slice, part, d, cli_now() - t0, slice);
		else if (!quiet && !json)
			fprintf(stderr, "egdb build: %s complete in %s (%.1f s)\n",
				slice ? slice : "every slice", d, cli_now() - t0);
		rc = EXIT_OK;
	}
out:
	poptFreeContext(ctx);
	free(plan);
	free(variant);
	free(dir);
	free(pieces);
	free(threads);
	free(slice);
	free(dist);
	free(dist_men);
	free(level);
	free(memory);
	free(parts);
	free(part);
	return rc;
}

static void value_text(const pk_egdb_result *r, int stm, char *buf, size_t size)
{
	const char *side = stm == PK_BLACK ? "Black" : "White", *other = stm == PK_BLACK ? "White" : "Black";
	if (r->value == EGDB_DRAW)
		snprintf(buf, size, "draw");
	else if (r->plies >= 0)
		snprintf(buf, size, "%s wins in %d plies", r->value == EGDB_WIN ? side : other, r->plies);
	else
		snprintf(buf, size, "%s wins", r->value == EGDB_WIN ? side : other);
}

/* Each legal move of p with the databases' value after it, for the mover: wins the
 * quickest first, then draws, then losses the longest first, then moves whose position
 * the databases lack. */
typedef struct {
	char text[PK_MOVE_STRLEN];
	int value;                   /* EGDB_WIN, EGDB_DRAW, EGDB_LOSS for the mover; -9: unknown */
	int plies;                   /* to the end, the move counted; -1: not kept */
} move_value;

static int move_rank(const move_value *m)
{
	/* lower is better */
	if (m->value == EGDB_WIN)
		return m->plies >= 0 ? m->plies : 5000;
	if (m->value == EGDB_DRAW)
		return 10000;
	if (m->value == EGDB_LOSS)
		return 30000 - (m->plies >= 0 ? m->plies : 0);
	return 40000;
}

static int cmp_moves(const void *a, const void *b)
{
	int x = move_rank(a), y = move_rank(b);
	return x != y ? (x < y ? -1 : 1) : strcmp(((const move_value *)a)->text, ((const move_value *)b)->text);
}

static int move_values(pk_egdb *db, const pk_pos *p, move_value *out)
{
	pk_movelist ml;
	int n = gen_moves(p, &ml);
	for (int i = 0; i < n; i++) {
		move_value *mv = &out[i];
		pdn_move_string(p, &ml.m[i], false, mv->text);
		pk_pos c;
		pos_make(p, &ml.m[i], &c);
		pk_movelist cl;
		pk_egdb_result r;
		mv->value = -9;
		mv->plies = -1;
		if (!c.side[c.stm] || gen_moves(&c, &cl) == 0) {
			mv->value = EGDB_WIN;         /* the other side cannot move: won at once */
			mv->plies = 1;
		} else if (egdb_probe(db, &c, &r) == EGDB_FOUND) {
			mv->value = -r.value;          /* the other side's value, turned round */
			mv->plies = r.plies >= 0 ? r.plies + 1 : -1;
		}
	}
	qsort(out, (size_t)n, sizeof *out, cmp_moves);
	return n;
}

static const char *value_word(int v) { return v == EGDB_WIN ? "win" : v == EGDB_LOSS ? "loss" : v == EGDB_DRAW ? "draw" : "unknown"; }

/* One FEN: 0 answered, 1 a finding on that line. With moves, each legal move's value too. */
/* One probe's answer: the position (canon; fen as given when why says what is wrong),
 * its value for the side to move stm, and with moves each legal move's. */
static void print_probe(const char *fen, const char *canon, const char *why, int pieces, const pk_egdb_result *r,
			int stm, const move_value *mvs, int nm, bool json, bool moves)
{
	if (json) {
		printf("{\"fen\":");
		json_string(stdout, why ? fen : canon);
		if (why) {
			printf(",\"error\":");
			json_string(stdout, why);
		} else {
			printf(",\"pieces\":%d,\"value\":\"%s\"", pieces,
			       r->value == EGDB_WIN ? "win" : r->value == EGDB_LOSS ? "loss" : "draw");
			if (r->plies >= 0)
				printf(",\"plies\":%d", r->plies);
			if (moves) {
				printf(",\"moves\":[");
				for (int i = 0; i < nm; i++) {
					printf("%s{\"move\":\"%s\",\"value\":\"%s\"", i ? "," : "", mvs[i].text,
					       value_word(mvs[i].value));
					if (mvs[i].plies >= 0)
						printf(",\"plies\":%d", mvs[i].plies);
					printf("}");
				}
				printf("]");
			}
		}
		printf("}\n");
	} else if (why) {
		printf("%s: error: %s\n", fen, why);
	} else {
		char v[80];
		value_text(r, stm, v, sizeof v);
		printf("%s: %s\n", canon, v);
		/* each move, as a tablebase page lists them, its winner named */
		const char *mover = stm == PK_BLACK ? "Black" : "White", *other = stm == PK_BLACK ? "White" : "Black";
		for (int i = 0; i < nm; i++) {
			int mv = mvs[i].value;
			bool decided = mv == EGDB_WIN || mv == EGDB_LOSS;
			if (decided)
				printf("  %-12s %s wins", mvs[i].text, mv == EGDB_WIN ? mover : other);
			else
				printf("  %-12s %s", mvs[i].text, value_word(mv));
			if (decided && mvs[i].plies >= 0)
				printf(" in %d plies", mvs[i].plies);
			putchar('\n');
		}
	}
}

static int probe_one(pk_egdb *db, const char *fen, bool json, bool moves)
{
	pk_pos p;
	pk_fen_error fe;
	const char *why = NULL;
	char buf[700];
	pk_egdb_result r;
	int pieces = 0, st = EGDB_FAILED;
	if (fen_parse(fen, strlen(fen), &p, &fe) < 0) {
		snprintf(buf, sizeof buf, "not a FEN: %s (at byte %zu)", fe.msg, fe.offset + 1);
		why = buf;
	} else {
		pieces = bb_count(p.side[0] | p.side[1]);
		if (!p.side[!p.stm] && p.side[p.stm]) {
			why = "the side not to move has no pieces: the game is already over";
		} else if ((st = egdb_probe(db, &p, &r)) == EGDB_MISSING) {
			char slice[80];
			if (egdb_missing_for(db, &p, slice, sizeof slice))
				snprintf(buf, sizeof buf, "%d pieces: the databases hold up to %d; %s, which it needs, is missing (pdnkit egdb build)",
					 pieces, egdb_pieces(db), slice);
			else
				snprintf(buf, sizeof buf, "a slice it needs is missing");
			why = buf;
		} else if (st == EGDB_FAILED) {
			snprintf(buf, sizeof buf, "%s", egdb_error(db));
			why = buf;
		}
	}
	char canon[PK_FEN_STRLEN];
	if (!why)
		fen_format(&p, canon, sizeof canon);
	move_value mvs[PK_MAX_MOVES];
	int nm = !why && moves ? move_values(db, &p, mvs) : 0;
	print_probe(fen, canon, why, pieces, &r, p.stm, mvs, nm, json, moves);
	return why ? 1 : 0;
}

static int vmove_values(const pk_vegdb *db, const pk_vpos *p, move_value *out)
{
	static pk_vmovelist ml;
	int n = vgen(p, &ml);
	for (int i = 0; i < n; i++) {
		move_value *mv = &out[i];
		vmove_text(p->v, &ml.m[i], false, mv->text, sizeof mv->text);
		pk_vpos c;
		vmake(p, &ml.m[i], &c);
		pk_vmovelist cl;
		int value, plies;
		mv->value = -9;
		mv->plies = -1;
		if (vgen(&c, &cl) == 0) {
			mv->value = EGDB_WIN;
			mv->plies = 1;
		} else if (vegdb_probe(db, &c, &value, &plies)) {
			mv->value = -value;
			mv->plies = plies >= 0 ? plies + 1 : -1;
		}
	}
	qsort(out, (size_t)n, sizeof *out, cmp_moves);
	return n;
}

static int vprobe_one(const pk_vegdb *db, const char *fen, bool json, bool moves)
{
	const pk_variant *v = vegdb_variant(db);
	pk_vpos p;
	char buf[700], canon[400] = "";
	const char *why = NULL;
	pk_egdb_result r = { EGDB_DRAW, -1 };
	int pieces = 0;
	if (vfen_parse(v, fen, &p, buf, sizeof buf) < 0)
		why = buf;
	else {
		for (int s = 1; s <= variant_squares(v); s++)
			pieces += p.sq[s] != VP_EMPTY;
		pk_vmovelist ml;
		pk_vpos other = p;
		other.stm = !p.stm;
		if (vgen(&other, &ml) == 0 && vgen(&p, &ml) > 0)
			why = "the side not to move has no pieces or no move: the game is already over";
		else if (!vegdb_probe(db, &p, &r.value, &r.plies)) {
			if (pieces <= vegdb_pieces(db) && vegdb_error(db))
				snprintf(buf, sizeof buf, "%s", vegdb_error(db));
			else
				snprintf(buf, sizeof buf, "%d pieces: the %s databases hold up to %d (pdnkit egdb build --variant %s)",
					 pieces, v->name, vegdb_pieces(db), v->key);
			why = buf;
		}
	}
	if (!why)
		vfen_format(&p, canon, sizeof canon);
	static move_value mvs[VAR_MAX_MOVES];
	int nm = !why && moves ? vmove_values(db, &p, mvs) : 0;
	print_probe(fen, canon, why, pieces, &r, p.stm, mvs, nm, json, moves);
	return why ? 1 : 0;
}

static int egdb_probe_cmd(int argc, const char **argv)
{
	char *dir = NULL, *variant = NULL;
	int json = 0, moves = 0;
	struct poptOption opts[] = {
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, EGDB_VARIANT_HELP, "NAME" },

		{ "egdb", 0, POPT_ARG_STRING, &dir, 0, "the database directory (default $PDNKIT_EGDB, else " EGDB_DEFAULT_DIR_TEXT ")", "DIR" },
		{ "moves", 'm', POPT_ARG_NONE, &moves, 0, "also each legal move with its value for the side to move (win, draw or loss, in how many plies): wins the quickest first, losses the longest last", NULL },
		{ "dir", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &dir, 0, "the same as --egdb (an older spelling)", "DIR" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "a JSON object a line: fen, pieces, value (for the side to move), plies", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...] [FEN...]   (no FEN: one a line on standard input)");
	int rc = cli_parse_options(ctx, opts);
	pk_egdb *db = NULL;
	pk_vegdb *vdb = NULL;
	if (rc)
		goto out;
	const pk_variant *var = NULL;
	if (variant && !(var = cli_variant(variant))) {
		rc = EXIT_USAGE;
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (var && var->gametype != 21) {
		char d[4096], err[600];
		egdb_dir(dir, d, sizeof d);
		if (!(vdb = vegdb_open(var, d, err, sizeof err))) {
			cli_error("%s", err);
			goto out;
		}
	} else if (!(db = egdb_open_option(dir)))
		goto out;
	int n;
	const char **args = cli_args(ctx, &n);
	int bad = 0;
	if (n)
		for (int i = 0; i < n; i++)
			bad |= vdb ? vprobe_one(vdb, args[i], json, moves) : probe_one(db, args[i], json, moves);
	else {
		/* Lines of at most 4 KiB (a FEN takes under 200 bytes): a longer one, or one
		 * with a NUL byte, is refused with its number and reading goes on. */
		char line[4096];
		long lineno = 0;
		for (;;) {
			size_t len = 0;
			bool too_long = false, nul = false;
			int c;
			while ((c = getchar()) != EOF && c != '\n') {
				if (c == 0)
					nul = true;
				if (len < sizeof line - 1)
					line[len++] = (char)c;
				else
					too_long = true;
			}
			if (c == EOF && len == 0 && !too_long)
				break;
			lineno++;
			line[len] = 0;
			if (too_long || nul) {
				cli_error("standard input, line %ld: %s, not a position", lineno,
					  too_long ? "longer than 4 KiB" : "a NUL byte");
				bad = 1;
				continue;
			}
			while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
				line[--len] = 0;
			if (len == 0 || line[0] == '#')
				continue;
			bad |= vdb ? vprobe_one(vdb, line, json, moves) : probe_one(db, line, json, moves);
		}
	}
	rc = bad ? EXIT_FINDINGS : EXIT_OK;
out:
	egdb_free(db);
	vegdb_free(vdb);
	poptFreeContext(ctx);
	free(variant);
	free(dir);
	return rc;
}

typedef struct {
	const pk_egdb_slice_info *v;
	long *shown;
} verify_print;

/* The first ten wrong positions of each slice. */
static void verify_bad(void *ctx, int slice, const pk_pos *p, int stored, int proved)
{
	verify_print *vp = ctx;
	if (vp->shown[slice]++ < 10) {
		char f[PK_FEN_STRLEN];
		fen_format(p, f, sizeof f);
		printf("%s: %s stored %d, its moves give %d\n", vp->v[slice].name, f, stored, proved);
	}
}

typedef struct {
	bool json;
	long classes;
	uint64_t checked, wrong;
} vverify_print;

static int vverify_class(void *ctx, const pk_vegdb_verified *r)
{
	vverify_print *vp = ctx;
	vp->classes++;
	vp->checked += r->checked;
	vp->wrong += r->wrong;
	if (vp->json)
		printf("{\"class\":\"%s\",\"checked\":%llu,\"wrong\":%llu}\n", r->name, (unsigned long long)r->checked,
		       (unsigned long long)r->wrong);
	else if (r->wrong)
		printf("%s: %llu of %llu positions wrong; the first: %s\n", r->name, (unsigned long long)r->wrong,
		       (unsigned long long)r->checked, r->first);
	fflush(stdout);
	return 0;
}

/* egdb verify --variant: another variant's classes against their moves' values. */
static int vverify(const pk_variant *var, const char *dir, long sample, long threads, bool json)
{
	char d[4096], err[700];
	egdb_dir(dir, d, sizeof d);
	vverify_print vp = { .json = json };
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	double t0 = cli_now();
	if (vegdb_verify(var, d, (uint64_t)sample, (int)threads, &stop_flag, vverify_class, &vp, err, sizeof err) < 0) {
		cli_error("%s", err);
		return EXIT_RUNTIME;
	}
	if (stop_flag) {
		fprintf(stderr, "pdnkit egdb verify: interrupted after %ld classes (%llu positions checked, %llu wrong)\n",
			vp.classes, (unsigned long long)vp.checked, (unsigned long long)vp.wrong);
		return 128 + (int)stop_flag;
	}
	if (!json)
		printf("verified %ld classes of %s: %llu positions checked, %llu wrong (%.1f s)\n", vp.classes, var->name,
		       (unsigned long long)vp.checked, (unsigned long long)vp.wrong, cli_now() - t0);
	return vp.wrong ? EXIT_FINDINGS : EXIT_OK;
}

static int egdb_verify_cmd(int argc, const char **argv)
{
	char *dir = NULL, *sample = NULL, *threads = NULL, *slice = NULL, *variant = NULL;
	int json = 0;
	struct poptOption opts[] = {
		{ "variant", 0, POPT_ARG_STRING, &variant, 0, EGDB_VARIANT_HELP " (every class read into memory)", "NAME" },
		EGDB_DIR_OPTIONS(dir),
		{ "sample", 0, POPT_ARG_STRING, &sample, 0, "check about K positions of each slice, chosen at random (default: all)", "K" },
		{ "slice", 0, POPT_ARG_STRING, &slice, 0, "only this slice", "NAME" },
		{ "threads", 0, POPT_ARG_STRING, &threads, 0, "threads (default 2)", "N" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "a JSON line a slice", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	pk_egdb *db = NULL;
	pk_egdb_slice_info *v = NULL;
	pk_verify_result *res = NULL;
	long *shown = NULL;
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	long k = 0, nt = 2;
	if ((sample && cli_int(sample, 1, 1000000000000L, "--sample", &k)) ||
	    (threads && cli_int(threads, 1, POOL_MAX_THREADS, "--threads", &nt)))
		goto out;
	const pk_variant *var = NULL;
	if (variant && !(var = cli_variant(variant)))
		goto out;
	if (var && var->gametype != 21) {
		if (slice) {
			cli_error("--slice is for English draughts' slices");
			goto out;
		}
		rc = vverify(var, dir, k, nt, json);
		goto out;
	}
	pk_material only;
	if (slice && material_parse(slice, &only) < 0) {
		cli_error("--slice: '%s' is not a slice name (like MMK-K)", slice);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (!(db = egdb_open_option(dir)))
		goto out;
	int n;
	v = egdb_slices(db, &n);
	if (v && slice) {
		int m = 0;
		for (int i = 0; i < n; i++)
			if (material_equal(&v[i].mat, &only))
				v[m++] = v[i];
		if (!m) {
			cli_error("no slice %s in the databases", slice);
			goto out;
		}
		n = m;
	}
	res = calloc((size_t)n + 1, sizeof *res);
	shown = calloc((size_t)n + 1, sizeof *shown);
	verify_print vp = { v, shown };
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	double t0 = cli_now();
	if (!v || !res || !shown ||
	    egdb_verify_all(db, v, n, (uint64_t)k, (int)nt, &stop_flag, verify_bad, &vp, res) < 0) {
		cli_error("out of memory");
		goto out;
	}
	long total = 0, wrong = 0;
	int failed = 0;
	for (int i = 0; i < n; i++) {
		total += res[i].checked;
		wrong += res[i].wrong;
		failed += res[i].failed;
		if (res[i].failed)
			cli_error("%s: %s", v[i].name, res[i].error);
		if (json)
			printf("{\"slice\":\"%s\",\"checked\":%ld,\"wrong\":%ld,\"failed\":%s}\n", v[i].name, res[i].checked,
			       res[i].wrong, res[i].failed ? "true" : "false");
	}
	if (stop_flag)
		fprintf(stderr, "pdnkit egdb verify: interrupted after %ld positions checked (%ld wrong); the rest of the %d slices was not verified\n",
			total, wrong, n);
	else if (!json)
		printf("verified %d slices: %ld positions checked, %ld wrong%s (%.1f s)\n", n, total, wrong,
		       failed ? ", some slices unreadable" : "", cli_now() - t0);
	if (stop_flag)
		rc = 128 + (int)stop_flag;
	else
		rc = failed ? EXIT_RUNTIME : wrong ? EXIT_FINDINGS : EXIT_OK;
out:
	free(v);
	free(res);
	free(shown);
	egdb_free(db);
	poptFreeContext(ctx);
	free(dir);
	free(sample);
	free(threads);
	free(slice);
	free(variant);
	return rc;
}

static void repack_progress(void *ctx, const char *name, uint64_t before, uint64_t after)
{
	const int *json = ctx;
	if (*json)
		printf("{\"slice\":\"%s\",\"bytes_before\":%" PRIu64 ",\"bytes_after\":%" PRIu64 "}\n", name, before, after);
	else
		printf("%-12s %12" PRIu64 " -> %12" PRIu64 " bytes (%.1f%%)\n", name, before, after,
		       before ? 100.0 * (double)after / (double)before : 0.0);
	fflush(stdout);
}

static int egdb_repack_cmd(int argc, const char **argv)
{
	char *dir = NULL, *threads = NULL, *level = NULL;
	int json = 0;
	struct poptOption opts[] = {
		EGDB_DIR_OPTIONS(dir),
		{ "threads", 0, POPT_ARG_STRING, &threads, 0, "threads (default 2)", "N" },
		{ "level", 0, POPT_ARG_STRING, &level, 0, "zstd level of the blocks (1..19, default 15)", "L" },
		{ "json", 'j', POPT_ARG_NONE, &json, 0, "a JSON line a slice rewritten", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	int rc = cli_parse_options(ctx, opts);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	long nt = 2, lv = 15;
	if ((threads && cli_int(threads, 1, POOL_MAX_THREADS, "--threads", &nt)) ||
	    (level && cli_int(level, 1, 19, "--level", &lv)))
		goto out;
	char d[4096], err[1024];
	egdb_dir(dir, d, sizeof d);
	uint64_t count = 0;
	double t0 = cli_now();
	rc = EXIT_RUNTIME;
	if (egdb_repack(d, (int)nt, (int)lv, repack_progress, &json, &count, err, sizeof err) < 0) {
		cli_error("%s", err);
		if (count)
			fprintf(stderr, "pdnkit egdb repack: %" PRIu64 " slice files were rewritten before it; the others are as they were\n", count);
		goto out;
	}
	if (!json)
		fprintf(stderr, "%" PRIu64 " slice file%s of %s rewritten two bits a position (%.1f s)%s\n", count,
			count == 1 ? "" : "s", d, cli_now() - t0,
			count ? "" : ": every slice without distances already was, or has distances");
	rc = EXIT_OK;
out:
	poptFreeContext(ctx);
	free(dir);
	free(threads);
	free(level);
	return rc;
}

static const struct {
	const char *name;
	int (*fn)(int, const char **);
	const char *summary;
} subs[] = {
	{ "build", egdb_build_cmd, "build every slice up to N pieces (resumable), or one slice" },
	{ "probe", egdb_probe_cmd, "the value of positions: win, loss or draw and in how many plies" },
	{ "stats", egdb_stats_cmd, "positions, wins, losses, draws, longest win, bytes, build time" },
	{ "verify", egdb_verify_cmd, "re-check stored values against the values of their successors" },
	{ "repack", egdb_repack_cmd, "rewrite older files without distances two bits a position" },
	{ "agree", egdb_agree_cmd, "how often the engine's evaluation agrees with the databases" },
};

int cmd_egdb(int argc, const char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: pdnkit egdb <build|probe|stats|verify|repack|agree> [options]\n\n");
		for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
			fprintf(f, "  %-8s %s\n", subs[i].name, subs[i].summary);
		fprintf(f, "\nThe directory: --dir, else $PDNKIT_EGDB, else %s.\n"
			   "'pdnkit egdb <subcommand> --help' for its options; man pdnkit-egdb, pdnkit-egdb(5).\n",
			EGDB_DEFAULT_DIR_TEXT);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (!strcmp(argv[1], subs[i].name)) {
			static char name[32];
			static char full[48];
			snprintf(name, sizeof name, "egdb %s", subs[i].name);
			snprintf(full, sizeof full, "pdnkit %s", name);
			cli_command = name;
			argv[1] = full;        /* popt's usage lines read "pdnkit egdb <sub>" */
			return subs[i].fn(argc - 1, argv + 1);
		}
	cli_error("'%s' is not an egdb subcommand (build, probe, stats, verify, repack, agree)", argv[1]);
	{
		const char *names[8];
		int n = 0;
		for (size_t i = 0; i < sizeof subs / sizeof subs[0] && n < 8; i++)
			names[n++] = subs[i].name;
		cli_did_you_mean(argv[1], names, n);
	}
	return EXIT_USAGE;
}
