/* pdnkit export: stored games back to PDN (plain or zstd), exactly as imported. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "dbcli.h"
#include "analysis/opnames.h"
#include "pdn/pdn_write.h"
#include "pdn/zio.h"

typedef struct {
	pk_store *s;
	pk_out *out;
	pk_game g;
	pk_replay rp;
	long games, corrupt, named;
	int err;     /* 1 database, 2 output */
	bool opening_tags;   /* an Opening tag with the opening's name where the game has none */
} ectx;

static int export_row(void *vctx, const pk_row *r)
{
	ectx *c = vctx;
	if (store_load_game(c->s, r, &c->g, &c->rp) < 0) {
		/* a damaged row is named and left out; the others are written */
		char safe[600];
		cli_error("%s; skipped", cli_safe_text(store_error(c->s), safe, sizeof safe));
		c->corrupt++;
		return 0;
	}
	if (c->opening_tags && !game_tag(&c->g, "Opening")) {
		const pk_opname *on = opname_of_replay(&c->rp);
		if (on) {
			if (game_add_tag(&c->g, "Opening", 7, on->name, strlen(on->name), 0, 0) < 0) {
				cli_error("out of memory");
				c->err = 2;
				return 1;
			}
			c->named++;
		}
	}
	pk_write_opts o = { .full_jumps = false, .width = 80, .verbatim_tags = true };
	if (pdn_write_game(&c->g, &c->rp, &o, cli_sink_out, c->out) < 0) {
		c->err = 2;
		return 1;
	}
	c->games++;
	cli_progress("export", c->games, 0);
	return 0;
}

int cmd_export(int argc, const char **argv)
{
	filter_args fa = { 0 };
	char *out_path = NULL;
	int opening_tags = 0;
	struct poptOption opts[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, filter_options(&fa), 0, "Which games:", NULL },
		{ "output", 'o', POPT_ARG_STRING, &out_path, 0, "write here instead of standard output (.zst: compressed)", "OUT" },
		{ "opening-tags", 0, POPT_ARG_NONE, &opening_tags, 0, "add an Opening tag with the name of the classic opening each English game reached (\"Old Fourteenth\", Glasgow, ...) where it has none", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext(argv[0], argc, argv, opts, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION...]");
	int rc = cli_parse_options(ctx, opts);
	ectx c = { 0 };
	game_init(&c.g);
	replay_init(&c.rp);
	if (rc)
		goto out;
	int nargs;
	const char **args = cli_args(ctx, &nargs);
	rc = EXIT_USAGE;
	if (nargs) {
		cli_error("unexpected argument '%s' (filters are options, see --help)", args[0]);
		goto out;
	}
	pk_filter f;
	if (filter_resolve(&fa, &f))
		goto out;
	c.opening_tags = opening_tags;
	c.s = db_open(&fa, STORE_READ);
	if (!c.s) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	int err = 0;
	const char *path = out_path ? out_path : "-";
	c.out = zout_open(path, &err);
	if (!c.out) {
		cli_error("cannot create '%s': %s", path, strerror(err));
		rc = EXIT_RUNTIME;
		goto out;
	}
	double t0 = cli_now();
	int q = store_query(c.s, &f, export_row, &c);
	const char *msg = NULL;
	int closed = zout_close(c.out, &msg);
	cli_progress_done();
	if (q < 0 || c.err == 1) {
		cli_error("%s", store_error(c.s));
		rc = EXIT_RUNTIME;
	} else if (c.err == 2 || closed < 0) {
		cli_error("cannot write %s: %s", cli_out_name(path), msg ? msg : strerror(errno ? errno : EIO));
		rc = EXIT_RUNTIME;
	} else {
		fprintf(stderr, "pdnkit export: %ld game%s written", c.games, c.games == 1 ? "" : "s");
		if (c.opening_tags)
			fprintf(stderr, ", %ld given an Opening tag", c.named);
		if (c.corrupt)
			fprintf(stderr, ", %ld damaged in the store left out (named above)", c.corrupt);
		fprintf(stderr, "; %.2f s\n", cli_now() - t0);
		rc = c.corrupt ? EXIT_RUNTIME : EXIT_OK;
	}
out:
	store_close(c.s);
	game_free(&c.g);
	replay_free(&c.rp);
	poptFreeContext(ctx);
	filter_args_free(&fa);
	free(out_path);
	return rc;
}
