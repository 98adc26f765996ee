/* libFuzzer target: arbitrary bytes through the reader, the replay, the writer and the
 * scores read from comments (analysis/turns).
 * Built and run by `make fuzz`; the crash-free corpus lives in tests/fuzz-corpus/. */
#include <stddef.h>
#include <stdint.h>
#include "analysis/turns.h"
#include "pdn/pdn_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int discard(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return 0;
}

/* Annotation-like text after every other move, as pdnkit annotate writes it. */
static const char *after(void *ctx, int ply)
{
	(void)ctx;
	return ply % 2 ? "$4\n{[%eval -1.25] [%depth 9]}\n(\n3.\n9-14\n22-18\n)" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pk_reader *r = pdn_open_mem((const char *)data, size);
	if (!r)
		return 0;
	pk_game g;
	pk_replay rp;
	game_init(&g);
	replay_init(&rp);
	pk_write_opts wo = { .full_jumps = size & 1, .width = 80 };
	while (pdn_read(r, &g) == 1) {
		if (replay_game(&g, &rp) < 0)
			break;
		if (rp.fix_el >= 0 && game_fix_move(&g, rp.fix_el, rp.fix_text, "fix") == 0)
			replay_game(&g, &rp);
		pdn_write_game(&g, &rp, &wo, discard, NULL);
		pk_turn t;
		turns_find(&g, &rp, 1 + (int)(size % 200), (int)(size % 7), &t);
		pk_write_opts ao = wo;
		ao.after_move = after;
		ao.verbatim_tags = true;
		pdn_write_game(&g, &rp, &ao, discard, NULL);
	}
	game_free(&g);
	replay_free(&rp);
	pdn_close(r);
	return 0;
}
