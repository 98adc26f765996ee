/* What the files of pdnkit book share: writing a book file, its summary, opening the
 * book a subcommand names, scores as text; and the subcommands. */
#ifndef PK_BOOK_CMD_H
#define PK_BOOK_CMD_H

#include <stddef.h>
#include <stdint.h>
#include "cli.h"
#include "book/book.h"

int book_write_file(const char *path, const uint8_t *buf, size_t len);
void book_print_info(const pk_book_info *in, bool json, double seconds, long games);
/* The one FILE.book argument of a subcommand, opened (NULL: said why). */
pk_book *book_open_arg(poptContext ctx, const char **path);
void book_score_text(int s, char *buf, size_t size);

int book_build(int argc, const char **argv);
int book_expand(int argc, const char **argv);
int book_probe_cmd(int argc, const char **argv);
int book_dump(int argc, const char **argv);
int book_stats(int argc, const char **argv);

#endif
