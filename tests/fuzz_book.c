/* libFuzzer target: arbitrary bytes as an opening book. The checksums are made right
 * first, so that the fuzzer reaches the decoder; a book that loads is then walked and
 * probed. Built and run by `make fuzz-book`; its corpus lives in tests/fuzz-book-corpus/. */
#include <stdlib.h>
#include <string.h>
#include "base/hash.h"
#include "book/book.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t fnv(const uint8_t *p, size_t n) { return fnv32(FNV32_INIT, p, n); }

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int count(void *ctx, const pk_pos *before, const pk_book_move *m, int ply, bool transposes)
{
	(void)before;
	(void)m;
	(void)ply;
	(void)transposes;
	return ++*(long *)ctx > 100000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (size >= BOOK_HEADER_BYTES) {
		put32(copy + 60, fnv(copy + BOOK_HEADER_BYTES, size - BOOK_HEADER_BYTES));
		put32(copy + 56, fnv(copy, 56));
	}
	char err[200];
	pk_book *bk = book_load(copy, size, err, sizeof err);
	if (bk) {
		long n = 0;
		book_walk(bk, count, &n);
		pk_book_move mv[PK_MAX_MOVES];
		book_probe(bk, book_root(bk), mv, PK_MAX_MOVES);
		book_free(bk);
	}
	free(copy);
	return 0;
}
