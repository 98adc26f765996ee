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

pk_out *zout_open(const char *path, int *err);
int zout_write(pk_out *out, const void *buf, size_t size);  /* 0 or -1 */
/* Flush, finish the zstd frame, close. 0 or -1 (with the error in *msg). */
int zout_close(pk_out *out, const char **msg);

/* The size of buf compressed by zstd at this level (0 on failure), for comparisons. */
size_t zio_compressed_size(const void *buf, size_t len, int level);

#endif
