/* pdn/zio.h without libzstd, for the Windows engine library (make cb-win): Debian builds
 * no libzstd for mingw-w64, so this library reads plain files only and says so for a
 * compressed one; the endgame databases (zstd blocks) are then unreadable, and the
 * library plays without them. Only what the library links is here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pdn/zio.h"

struct pk_in {
	FILE *f;
	int owned;
	char err[128];
};

pk_in *zin_open(const char *path, int *err)
{
	pk_in *in = calloc(1, sizeof *in);
	if (!in) {
		*err = ENOMEM;
		return NULL;
	}
	in->owned = strcmp(path, "-") != 0;
	in->f = in->owned ? fopen(path, "rb") : stdin;
	if (!in->f) {
		*err = errno;
		free(in);
		return NULL;
	}
	unsigned char head[4];
	size_t n = fread(head, 1, 4, in->f);
	if (n == 4 && head[0] == 0x28 && head[1] == 0xB5 && head[2] == 0x2F && head[3] == 0xFD) {
		zin_close(in);
		*err = -1;   /* a compressed stream: not readable by this build */
		return NULL;
	}
	if (!in->owned || fseek(in->f, 0, SEEK_SET) != 0) {
		zin_close(in);
		*err = ESPIPE;
		return NULL;
	}
	return in;
}

long zin_read(pk_in *in, void *buf, size_t size)
{
	size_t n = fread(buf, 1, size, in->f);
	if (ferror(in->f)) {
		snprintf(in->err, sizeof in->err, "%s", strerror(errno ? errno : EIO));
		return -1;
	}
	return (long)n;
}

const char *zin_error(const pk_in *in) { return in->err; }

int zin_is_compressed(const pk_in *in)
{
	(void)in;
	return 0;
}

void zin_close(pk_in *in)
{
	if (!in)
		return;
	if (in->owned && in->f)
		fclose(in->f);
	free(in);
}

size_t zio_block_bound(size_t len) { return len + 64; }

long zio_block_decompress(void *dst, size_t cap, const void *src, size_t len)
{
	(void)dst;
	(void)cap;
	(void)src;
	(void)len;
	return -1;   /* no zstd here: every database block reads as corrupt, and says so */
}
