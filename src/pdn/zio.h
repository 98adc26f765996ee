/* Byte streams in and out: plain files, stdin/stdout ("-") and zstd frames. The only
 * part of the core that knows about libzstd. Input is detected by the zstd magic
 * number, not by the file name; output is compressed when the name ends in ".zst". */
#ifndef PK_ZIO_H
#define PK_ZIO_H

#include <stddef.h>
#include <stdint.h>

typedef struct pk_in pk_in;
typedef struct pk_out pk_out;

/* Open path ("-" for stdin). On failure returns NULL and sets *err to an errno value,
 * or to -1 for a corrupt compressed stream. */
pk_in *zin_open(const char *path, int *err);
/* Read up to size bytes; returns the count, 0 at the end, -1 on error (see zin_error). */
long zin_read(pk_in *in, void *buf, size_t size);
const char *zin_error(const pk_in *in);
int zin_is_compressed(const pk_in *in);
void zin_close(pk_in *in);

/* Open path for writing ("-" for stdout), compressed when the name ends in ".zst". A
 * regular file is written as path.tmpPID and renamed to path by a successful
 * zout_close; a failed one removes it, leaving what was at path untouched. */
pk_out *zout_open(const char *path, int *err);
/* The same, never compressed (for files with a format of their own). */
pk_out *zout_open_plain(const char *path, int *err);
int zout_write(pk_out *out, const void *buf, size_t size);  /* 0 or -1 */
/* Flush, finish the zstd frame, close, and put the file in place. 0 or -1 (with the
 * error in *msg; the file is then not written). */
int zout_close(pk_out *out, const char **msg);

/* The size of buf compressed by zstd at this level (0 on failure), for comparisons. */
size_t zio_compressed_size(const void *buf, size_t len, int level);

/* One block as a zstd frame, for files that decompress a block at a time (endgame
 * databases): the bound of its compressed size; compress (the size, 0 on failure);
 * decompress (the size, -1 when the frame is corrupt or does not fit). */
size_t zio_block_bound(size_t len);
size_t zio_block_compress(void *dst, size_t cap, const void *src, size_t len, int level);
long zio_block_decompress(void *dst, size_t cap, const void *src, size_t len);

#endif
