/* Engine options shared by analyze, bench, match and annotate. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "cli.h"
#include "egdb_opts.h"
#include "engine_opts.h"
#include "analysis/annotate.h"
#include "engine/net.h"
#include "engine/pattern.h"
#include "engine/vpattern.h"
#include "book/book.h"
#include "rules/fen.h"
#include "pdn/replay.h"

const double level_seconds[11] = { 0.5, 1, 2, 5, 10, 20, 40, 60, 90, 120, 240 };

void engine_args_init(engine_args *ea)
{
	memset(ea, 0, sizeof *ea);
}

struct poptOption *engine_options(engine_args *ea)
{
	static struct poptOption t[16];
	struct poptOption opts[] = {
		{ "depth", 'd', POPT_ARG_STRING, &ea->depth, 0, "search this many plies (captures and forced moves not counted)", "N" },
		{ "nodes", 0, POPT_ARG_STRING, &ea->nodes, 0, "stop after about N nodes", "N" },
		{ "movetime", 't', POPT_ARG_STRING, &ea->movetime, 0, "stop after S seconds", "S" },
		{ "level", 'l', POPT_ARG_STRING, &ea->level, 0, "0..10: 0.5, 1, 2, 5, 10, 20, 40 s, 1, 1.5, 2, 4 min a move", "L" },
		{ "hash", 0, POPT_ARG_STRING, &ea->hash, 0, "transposition table size in MB (default 64)", "MB" },
		{ "threads", 0, POPT_ARG_STRING, &ea->threads, 0, "search with N threads sharing the table (default 1)", "N" },
		{ "weights", 0, POPT_ARG_STRING, &ea->weights, 0, "evaluation weights from FILE (pdnkit tune -o), or 'untuned'", "FILE" },
		{ "patterns", 0, POPT_ARG_STRING, &ea->patterns, 0, "learned pattern weights from FILE (pdnkit train -o), or 'none' (default: the built-in ones)", "FILE" },
		{ "net", 0, POPT_ARG_STRING, &ea->net, 0, "a learned network from FILE (pdnkit train --net -o), or 'none' (default: the built-in one, when there is one)", "FILE" },
		{ "features", 0, POPT_ARG_STRING, &ea->features, 0, "search features changed from the defaults, e.g. \"lmr=0,killers=0\"", "LIST" },
		{ "egdb", 0, POPT_ARG_STRING, &ea->egdb, 0, "endgame databases from DIR (default, or 'default': $PDNKIT_EGDB, else ~/.local/share/pdnkit/egdb), or 'none'", "DIR|default|none" },
		{ "egdb-cache", 0, POPT_ARG_STRING, &ea->egdb_cache, 0, "the databases' cache of decompressed blocks, in MiB (default " EGDB_CACHE_DEFAULT_TEXT ")", "MB|auto" },
		POPT_TABLEEND
	};
	memcpy(t, opts, sizeof opts);
	return t;
}

int engine_args_resolve(engine_args *ea, pk_limits *lim)
{
	memset(lim, 0, sizeof *lim);
	size_t cache;
	if (egdb_cache_option(ea->egdb_cache, &cache))
		return -1;
	long v;
	if (ea->depth) {
		if (cli_int(ea->depth, 1, MAX_PLY - 8, "--depth", &v))
			return EXIT_USAGE;
		lim->depth = (int)v;
	}
	if (ea->nodes) {
		if (cli_int(ea->nodes, 1, 10000000000000L, "--nodes", &v))
			return EXIT_USAGE;
		lim->nodes = (uint64_t)v;
	}
	if (ea->movetime) {
		double t;
		if (cli_number(ea->movetime, 0, 86400, "--movetime (seconds)", &t))
			return EXIT_USAGE;
		if (t <= 0) {
			cli_error("--movetime must be above 0 seconds, not '%s'", ea->movetime);
			return EXIT_USAGE;
		}
		lim->movetime = t;
	}
	if (ea->level) {
		if (cli_int(ea->level, 0, 10, "--level", &v))
			return EXIT_USAGE;
		lim->movetime = level_seconds[v];
	}
	if (!lim->depth && !lim->nodes && !lim->movetime)
		lim->movetime = level_seconds[3];
	if (ea->hash) {
		if (cli_int(ea->hash, 1, 65536, "--hash", &v))
			return EXIT_USAGE;
	}
	if (ea->threads) {
		if (cli_int(ea->threads, 1, 64, "--threads", &v))
			return EXIT_USAGE;
	}
	pk_features f;
	if (engine_features(ea, &f) < 0)
		return EXIT_USAGE;
	return 0;
}

int engine_threads(const engine_args *ea)
{
	return ea->threads ? atoi(ea->threads) : 1;
}

/* A whole file as text (malloc'ed), up to 64 MB; NULL after saying why ("WHAT 'path': ..."). */
static char *read_whole(const char *path, const char *what)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		cli_error("cannot open %s '%s': %s", what, path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap);
	size_t got;
	while (text && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *t = cap < (64u << 20) ? realloc(text, cap *= 2) : NULL;
			if (!t) {
				free(text);
				text = NULL;
			} else
				text = t;
		}
	}
	bool bad = ferror(f);
	fclose(f);
	if (!text || bad) {
		cli_error("%s '%s': %s", what, path, bad ? "read error" : "out of memory, or larger than 64 MB");
		free(text);
		return NULL;
	}
	text[n] = 0;
	return text;
}

/* The file of --weights as text (malloc'ed), whole: a NUL byte in it is refused, not
 * taken for its end. NULL after saying why. */
static char *read_weights(const char *path, size_t *len)
{
	char *text = read_whole(path, "weights");
	if (!text)
		return NULL;
	/* read_whole ends the text with a NUL: one before it was in the file */
	FILE *f = fopen(path, "rb");
	long size = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	if (f)
		fclose(f);
	*len = strlen(text);
	if (size >= 0 && (size_t)size != *len) {
		cli_error("weights '%s': a NUL byte at offset %zu: not a text file of weights", path, *len);
		free(text);
		return NULL;
	}
	return text;
}

/* The network of --net: the built-in one (*net left as it is), none, or a file's (read
 * once a path, kept for the program's life) of that many inputs. -1 after saying why. */
static int engine_net_of(const engine_args *ea, int inputs, const char *whose, const pk_net **out)
{
	static struct {
		char *path;
		pk_net *net;
	} cache[4];
	if (!ea->net)
		return 0;
	if (!strcmp(ea->net, "none")) {
		*out = NULL;
		return 0;
	}
	pk_net *net = NULL;
	for (int i = 0; i < 4 && !net; i++)
		if (cache[i].path && !strcmp(cache[i].path, ea->net))
			net = cache[i].net;
	if (!net) {
		net = malloc(sizeof *net);
		char *text = net ? read_whole(ea->net, "network") : NULL;
		if (!text) {
			free(net);
			return -1;
		}
		char err[200];
		int rc = net_parse(text, net, err, sizeof err);
		free(text);
		if (rc != 0) {
			cli_error("network '%s': %s", ea->net, rc > 0 ? "no weights in it" : err);
			free(net);
			return -1;
		}
		for (int i = 0; i < 4; i++)
			if (!cache[i].path) {
				cache[i].path = strdup(ea->net);
				cache[i].net = net;
				break;
			}
	}
	if (net_inputs_of(net) != inputs) {
		cli_error("network '%s' has %d inputs, %s network has %d", ea->net, net_inputs_of(net), whose, inputs);
		return -1;
	}
	*out = net;
	return 0;
}

static int engine_net(const engine_args *ea, pk_weights *w)
{
	return engine_net_of(ea, NET_IN, "English draughts'", &w->net);
}

/* The patterns of --patterns: the built-in ones, none, or a file's (read once a path,
 * kept for the program's life). -1 after saying why. */
static int engine_patterns(const engine_args *ea, pk_weights *w)
{
	static struct {
		char *path;
		pk_patterns *pt;
	} cache[4];
	if (!ea->patterns)
		return 0;
	if (!strcmp(ea->patterns, "none")) {
		w->pat = NULL;
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (cache[i].path && !strcmp(cache[i].path, ea->patterns)) {
			w->pat = cache[i].pt;
			return 0;
		}
	pk_patterns *pt = malloc(sizeof *pt);
	char *text = pt ? read_whole(ea->patterns, "patterns") : NULL;
	if (!text) {
		free(pt);
		return -1;
	}
	char err[200];
	int rc = patterns_parse(text, pt, err, sizeof err);
	free(text);
	if (rc < 0) {
		cli_error("patterns '%s': %s", ea->patterns, err);
		free(pt);
		return -1;
	}
	for (int i = 0; i < 4; i++)
		if (!cache[i].path) {
			cache[i].path = strdup(ea->patterns);
			cache[i].pt = pt;
			break;
		}
	w->pat = pt;
	return 0;
}

int engine_weights(const engine_args *ea, pk_weights *w)
{
	*w = *eval_tuned_weights();
	if (engine_patterns(ea, w) < 0 || engine_net(ea, w) < 0)
		return -1;
	if (!ea->weights)
		return 0;
	if (!strcmp(ea->weights, "untuned")) {
		const struct pk_patterns *keep = w->pat;
		const struct pk_net *keep_net = w->net;
		*w = eval_default_weights;
		w->pat = ea->patterns ? keep : NULL;
		w->net = ea->net ? keep_net : NULL;
		return 0;
	}
	size_t len;
	char *text = read_weights(ea->weights, &len);
	if (!text)
		return -1;
	char err[160];
	int rc = weights_parse(text, w, err, sizeof err);
	if (rc < 0)
		cli_error("weights '%s': %s", ea->weights, err);
	free(text);
	return rc < 0 ? -1 : 0;
}

/* --patterns of a 10x10 variant: "none", or a file of pdnkit train --variant. */
static int engine_vpatterns(const engine_args *ea, const pk_variant *v, pk_vweights *w)
{
	if (!ea->patterns)
		return 0;
	if (!strcmp(ea->patterns, "none")) {
		w->pat = NULL;
		return 0;
	}
	if (!vpattern_board(v)) {
		cli_error("--patterns: %s has no learned patterns (the 10x10 variants and English draughts do)", v->name);
		return -1;
	}
	size_t len;
	char *text = read_weights(ea->patterns, &len);
	if (!text)
		return -1;
	/* kept for the program's life: the engines hold a pointer to them */
	static pk_patterns *loaded[4];
	static int nloaded;
	pk_patterns *pt = nloaded < 4 ? malloc(sizeof *pt) : NULL;
	char err[160];
	int gt = 0;
	int rc = pt ? vpatterns_parse(text, pt, &gt, err, sizeof err) : -1;
	free(text);
	if (!pt) {
		cli_error("--patterns: out of memory");
		return -1;
	}
	if (rc < 0 || gt != v->gametype) {
		if (rc < 0)
			cli_error("patterns '%s': %s", ea->patterns, err);
		else
			cli_error("patterns '%s' are not for %s (GameType %d): their gametype line says %d", ea->patterns, v->name,
				  v->gametype, gt);
		free(pt);
		return -1;
	}
	loaded[nloaded] = pt;
	w->pat = loaded[nloaded++];
	return 0;
}

/* --net of a 10x10 variant: "none", or a file of pdnkit train --variant --net. */
static int engine_vnet(const engine_args *ea, const pk_variant *v, pk_vweights *w)
{
	if (ea->net && strcmp(ea->net, "none") && !vpattern_board(v)) {
		cli_error("--net: %s has no network (the 10x10 variants and English draughts do)", v->name);
		return -1;
	}
	return engine_net_of(ea, NET_VIN, "a 10x10 board's", &w->net);
}

int engine_vweights(const engine_args *ea, const pk_variant *v, pk_vweights *w)
{
	vweights_for(v, w);
	if (engine_vnet(ea, v, w) < 0)
		return -1;
	if (!ea->weights)
		return engine_vpatterns(ea, v, w);
	if (!strcmp(ea->weights, "untuned")) {
		const struct pk_net *keep = w->net;
		vweights_hand_set(v, w);
		w->net = keep;
		return engine_vpatterns(ea, v, w);
	}
	char err[160];
	int gametype;
	size_t len;
	char *text = read_weights(ea->weights, &len);
	if (!text)
		return -1;
	int rc = vweights_parse(text, w, &gametype, err, sizeof err);
	free(text);
	if (rc < 0) {
		cli_error("weights '%s': %s", ea->weights, err);
		return -1;
	}
	if (gametype == 0) {
		cli_error("weights '%s' have no 'gametype %d' line to say they are %s's", ea->weights, v->gametype, v->name);
		return -1;
	}
	if (gametype != v->gametype) {
		cli_error("weights '%s' are not for %s (GameType %d): their gametype line says %d", ea->weights, v->name,
			  v->gametype, gametype);
		return -1;
	}
	w->tuned = false;
	return engine_vpatterns(ea, v, w);
}

int engine_features(const engine_args *ea, pk_features *f)
{
	*f = features_all;
	if (ea->playing)
		f->egdb_draws = 1;
	char err[160];
	if (ea->features && features_parse(ea->features, f, err, sizeof err) < 0) {
		cli_error("--features: %s", err);
		return -1;
	}
	return 0;
}

int engine_egdb(engine_args *ea, pk_egdb **db)
{
	static bool said;
	if (!ea->db) {
		bool failed;
		size_t cache;
		if (egdb_cache_option(ea->egdb_cache, &cache))
			return -1;
		ea->db = egdb_use_option_cache(ea->egdb, said, &failed, cache);
		said = true;
		if (failed)
			return -1;
	}
	*db = ea->db;
	return 0;
}

pk_engine *engine_from_args(engine_args *ea)
{
	size_t mb = ea->hash ? (size_t)atol(ea->hash) : 64;
	pk_weights w;
	if (engine_weights(ea, &w) < 0)
		return NULL;
	pk_engine *e = engine_new(mb, &w);
	if (!e || engine_set_threads(e, engine_threads(ea)) < 0) {
		cli_error("cannot allocate a %zu MB transposition table", mb);
		engine_free(e);
		return NULL;
	}
	pk_features f;
	if (engine_features(ea, &f) < 0) {
		engine_free(e);
		return NULL;
	}
	engine_set_features(e, &f);
	pk_egdb *db;
	if (engine_egdb(ea, &db) < 0) {
		engine_free(e);
		return NULL;
	}
	engine_set_egdb(e, db);
	return e;
}

pk_gengine *gengine_from_args(engine_args *ea, const pk_variant *v)
{
	if (!v || v->gametype == 21) {
		pk_engine *e = engine_from_args(ea);
		if (!e)
			return NULL;
		pk_gengine *g = gengine_new(e, NULL);
		if (!g)
			cli_error("out of memory");
		return g;
	}
	pk_vweights w;
	pk_features f;
	if (engine_vweights(ea, v, &w) < 0 || engine_features(ea, &f) < 0)
		return NULL;
	size_t mb = ea->hash ? (size_t)atol(ea->hash) : 64;
	pk_vengine *ve = vengine_new(mb);
	if (!ve || vengine_set_threads(ve, engine_threads(ea)) < 0) {
		cli_error("cannot allocate a %zu MB transposition table", mb);
		vengine_free(ve);
		return NULL;
	}
	if (ea->egdb) {
		/* the variant's own databases, in DIR/VARIANT */
		char dir[4096];
		egdb_dir(strcmp(ea->egdb, "default") ? ea->egdb : NULL, dir, sizeof dir);
		vengine_set_tables_dir(ve, strcmp(ea->egdb, "none") ? dir : NULL);
	}
	vengine_set_weights(ve, &w);
	vengine_set_features(ve, &f);
	pk_gengine *g = gengine_new(NULL, ve);
	if (!g)
		cli_error("out of memory");
	return g;
}

void engine_args_free(engine_args *ea)
{
	free(ea->depth);
	free(ea->nodes);
	free(ea->movetime);
	free(ea->patterns);
	free(ea->net);
	free(ea->level);
	free(ea->hash);
	free(ea->weights);
	free(ea->threads);
	free(ea->features);
	free(ea->egdb);
	free(ea->egdb_cache);
	egdb_free(ea->db);
	memset(ea, 0, sizeof *ea);
}

int position_after_moves(const char *option, const char *text, pk_pos *out, uint64_t **keys, pk_history *h)
{
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	const char *error;
	int rc = replay_moves_text(text, &g, &rp, &error);
	if (rc < 0)
		cli_error("--%s: %s", option, error);
	else if (!(*keys = malloc(sizeof **keys * (size_t)(rp.nply + 1))))
		rc = -1;
	if (rc == 0) {
		/* Keys of the positions before the current one; count the reversible tail. */
		h->reversible = replay_history(&rp, rp.nply, *keys);
		h->keys = *keys;
		h->nkeys = rp.nply;
		h->ending = 0;
		*out = rp.nply ? rp.plies[rp.nply - 1].after : rp.start;
	}
	game_free(&g);
	replay_free(&rp);
	return rc;
}

static int open_book(const char *arg, bool shipped, const pk_variant *v, bool any, pk_book **bk);

int book_option(const char *arg, bool shipped, pk_book **bk)
{
	return open_book(arg, shipped, NULL, false, bk);
}

int book_option_for(const char *arg, bool shipped, const pk_variant *v, pk_book **bk)
{
	return open_book(arg, shipped, v, false, bk);
}

int book_option_any(const char *arg, bool shipped, pk_book **bk)
{
	return open_book(arg, shipped, NULL, true, bk);
}

static int open_book(const char *arg, bool shipped, const pk_variant *v, bool any, pk_book **bk)
{
	*bk = NULL;
	if (v && v->gametype == 21)
		v = NULL;
	if (!arg) {
		if (shipped) {
			char err[400];
			*bk = book_default_for(v, err, sizeof err);
		}
		return 0;
	}
	if (!strcmp(arg, "none"))
		return 0;
	char err[400];
	if (!strcmp(arg, "default")) {
		if (!(*bk = book_default_for(v, err, sizeof err))) {
			cli_error("--book default: %s", err);
			return -1;
		}
		return 0;
	}
	if (!(*bk = book_open(arg, err, sizeof err))) {
		cli_error("--book: %s", err);
		return -1;
	}
	const pk_variant *bv = book_variant(*bk);
	if (!any && bv != v) {
		cli_error("--book: '%s' is a book of %s, not of %s", arg, bv ? bv->name : "English draughts",
			  v ? v->name : "English draughts");
		book_free(*bk);
		*bk = NULL;
		return -1;
	}
	return 0;
}

int position_option(const char *fen, const char *moves, pk_pos *out, uint64_t **keys, pk_history *h, bool *given)
{
	memset(h, 0, sizeof *h);
	*given = fen || moves;
	if (fen && moves) {
		cli_error("--fen and --moves cannot be combined");
		return -1;
	}
	if (fen) {
		pk_fen_error fe;
		if (fen_parse(fen, strlen(fen), out, &fe) < 0) {
			cli_error("bad FEN at column %zu: %s", fe.offset + 1, fe.msg);
			return -1;
		}
		return 0;
	}
	if (moves)
		return position_after_moves("moves", moves, out, keys, h);
	pos_start(out);
	return 0;
}

int engine_args_from_string(const char *what, const char *spec, const struct poptOption *extra, engine_args *ea)
{
	int argc = 0;
	const char **argv = NULL;
	size_t n = strlen(spec) + 8;
	char *buf = malloc(n);
	if (!buf)
		return -1;
	snprintf(buf, n, "x %s", spec);
	int prc = poptParseArgvString(buf, &argc, &argv);
	free(buf);
	if (prc != 0) {
		cli_error("%s: cannot read the options '%s'", what, spec);
		return -1;
	}
	struct poptOption none[] = { POPT_TABLEEND };
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, engine_options(ea), 0, NULL, NULL },
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, (void *)(extra ? extra : none), 0, NULL, NULL },
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(what, argc, argv, opts, 0);
	int rc = cli_popt_parse(ctx, opts);
	int status = 0;
	if (rc < -1) {
		cli_error("%s: %s: %s", what, poptBadOption(ctx, 0), poptStrerror(rc));
		status = -1;
	} else if (poptPeekArg(ctx)) {
		cli_error("%s: unexpected '%s'", what, poptPeekArg(ctx));
		status = -1;
	} else if (cli_parse_options(ctx, opts) != 0) {
		status = -1;           /* an empty value (the options are all read: only the check runs) */
	}
	poptFreeContext(ctx);
	free(argv);
	return status;
}

const char *engines_file_option(const char *arg)
{
	static char path[4096];
	if (arg)
		return arg;
	const char *env = getenv("PDNKIT_ENGINES");
	if (env && *env)
		return env;
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	snprintf(path, sizeof path, "%s/.config/pdnkit/engines", home);
	return access(path, R_OK) == 0 ? path : NULL;
}

int verify_option(const char *arg, const char *rounds_arg, bool other_engine, int *plies, int *rounds)
{
	long v = other_engine ? 0 : VERIFY_DEFAULT, r = VERIFY_ROUNDS_DEFAULT;
	if (arg && cli_int(arg, 0, 20, "--verify", &v))
		return -1;
	if (rounds_arg && cli_int(rounds_arg, 1, 4, "--verify-rounds", &r))
		return -1;
	if (other_engine && (v || rounds_arg)) {
		cli_error("--verify%s: another engine's moves are not checked deeper (it has no depth limit here); give --verify 0 or leave it out",
			  rounds_arg ? "-rounds" : "");
		return -1;
	}
	*plies = (int)v;
	*rounds = (int)r;
	return 0;
}
