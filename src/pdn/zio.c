/* Plain and zstd-compressed byte streams. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "pdn/zio.h"

struct pk_in {
	FILE *f;
	int owned;
	ZSTD_DCtx *dctx;           /* non-NULL for compressed input */
	unsigned char *zbuf;       /* compressed bytes read from f */
	size_t zcap;
	ZSTD_inBuffer zin;
	unsigned char head[4];     /* bytes read while sniffing the magic number */
	size_t nhead, headpos;
	char err[128];
	int eof;
	int frame_open;             /* inside a zstd frame: the end of the file there is a truncation */
};

pk_in *zin_open(const char *path, int *err)
{
	pk_in *in = calloc(1, sizeof *in);
	if (!in) {
		*err = ENOMEM;
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		in->f = stdin;
	} else {
		in->f = fopen(path, "rb");
		in->owned = 1;
	}
	if (!in->f) {
		*err = errno;
		free(in);
		return NULL;
	}
	in->nhead = fread(in->head, 1, 4, in->f);
	if (in->nhead == 4 && in->head[0] == 0x28 && in->head[1] == 0xB5 && in->head[2] == 0x2F &&
	    in->head[3] == 0xFD) {
		in->dctx = ZSTD_createDCtx();
		in->zcap = ZSTD_DStreamInSize();
		in->zbuf = malloc(in->zcap);
		if (!in->dctx || !in->zbuf) {
			zin_close(in);
			*err = ENOMEM;
			return NULL;
		}
		memcpy(in->zbuf, in->head, 4);
		in->zin = (ZSTD_inBuffer){ in->zbuf, 4, 0 };
		in->nhead = 0;
	}
	return in;
}

int zin_is_compressed(const pk_in *in) { return in->dctx != NULL; }
const char *zin_error(const pk_in *in) { return in->err; }

static long read_plain(pk_in *in, unsigned char *buf, size_t size)
{
	size_t n = 0;
	while (in->headpos < in->nhead && n < size)
		buf[n++] = in->head[in->headpos++];
	if (n < size) {
		n += fread(buf + n, 1, size - n, in->f);
		if (ferror(in->f)) {
			snprintf(in->err, sizeof in->err, "%s", strerror(errno ? errno : EIO));
			return -1;
		}
	}
	return (long)n;
}

long zin_read(pk_in *in, void *buf, size_t size)
{
	if (!in->dctx)
		return read_plain(in, buf, size);
	ZSTD_outBuffer out = { buf, size, 0 };
	while (out.pos == 0) {
		if (in->zin.pos == in->zin.size) {
			if (in->eof)
				return 0;
			size_t n = fread(in->zbuf, 1, in->zcap, in->f);
			if (ferror(in->f)) {
				snprintf(in->err, sizeof in->err, "%s", strerror(errno ? errno : EIO));
				return -1;
			}
			if (n == 0) {
				in->eof = 1;
				if (in->frame_open) {
					snprintf(in->err, sizeof in->err,
						 "truncated zstd data: the file ends inside a frame (the games of its last part are lost)");
					return -1;
				}
				return 0;
			}
			in->zin = (ZSTD_inBuffer){ in->zbuf, n, 0 };
		}
		size_t r = ZSTD_decompressStream(in->dctx, &out, &in->zin);
		if (ZSTD_isError(r)) {
			snprintf(in->err, sizeof in->err, "corrupt zstd data: %s", ZSTD_getErrorName(r));
			return -1;
		}
		in->frame_open = r != 0;   /* 0: a frame has just been completed */
	}
	return (long)out.pos;
}

void zin_close(pk_in *in)
{
	if (!in)
		return;
	if (in->owned && in->f)
		fclose(in->f);
	ZSTD_freeDCtx(in->dctx);
	free(in->zbuf);
	free(in);
}

struct pk_out {
	FILE *f;
	int owned;
	char *tmp, *final;         /* written as tmp, renamed to final when complete */
	ZSTD_CCtx *cctx;
	unsigned char *zbuf;
	size_t zcap;
	const char *msg;
};

static pk_out *open_out(const char *path, bool by_name, int *err)
{
	pk_out *out = calloc(1, sizeof *out);
	if (!out) {
		*err = ENOMEM;
		return NULL;
	}
	size_t len = strlen(path);
	if (strcmp(path, "-") == 0) {
		out->f = stdout;
	} else {
		/* A regular file (or a new one) is written beside itself and renamed when
		 * complete: a full disk or a failed run never leaves a truncated file that
		 * looks whole, nor spoils the one that was there. Devices and pipes are
		 * written directly. */
		struct stat sb;
		bool atomic = stat(path, &sb) != 0 ? errno == ENOENT : S_ISREG(sb.st_mode);
		if (atomic) {
			out->final = strdup(path);
			out->tmp = malloc(len + 32);
			if (!out->final || !out->tmp) {
				free(out->final);
				free(out->tmp);
				free(out);
				*err = ENOMEM;
				return NULL;
			}
			snprintf(out->tmp, len + 32, "%s.tmp%ld", path, (long)getpid());
		}
		out->f = fopen(atomic ? out->tmp : path, "wb");
		out->owned = 1;
	}
	if (!out->f) {
		*err = errno;
		free(out->final);
		free(out->tmp);
		free(out);
		return NULL;
	}
	if (by_name && len > 4 && strcmp(path + len - 4, ".zst") == 0) {
		out->cctx = ZSTD_createCCtx();
		out->zcap = ZSTD_CStreamOutSize();
		out->zbuf = malloc(out->zcap);
		if (!out->cctx || !out->zbuf) {
			*err = ENOMEM;
			out->msg = "out of memory";
			zout_close(out, NULL);
			return NULL;
		}
		ZSTD_CCtx_setParameter(out->cctx, ZSTD_c_compressionLevel, 19);
		ZSTD_CCtx_setParameter(out->cctx, ZSTD_c_checksumFlag, 1);
	}
	return out;
}

pk_out *zout_open(const char *path, int *err)
{
	return open_out(path, true, err);
}

pk_out *zout_open_plain(const char *path, int *err)
{
	return open_out(path, false, err);
}

static int drain(pk_out *out, const void *buf, size_t size, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer in = { buf, size, 0 };
	for (;;) {
		ZSTD_outBuffer o = { out->zbuf, out->zcap, 0 };
		size_t left = ZSTD_compressStream2(out->cctx, &o, &in, mode);
		if (ZSTD_isError(left)) {
			out->msg = ZSTD_getErrorName(left);
			return -1;
		}
		if (o.pos && fwrite(out->zbuf, 1, o.pos, out->f) != o.pos) {
			out->msg = strerror(errno ? errno : EIO);
			return -1;
		}
		if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
			return 0;
	}
}

int zout_write(pk_out *out, const void *buf, size_t size)
{
	if (out->cctx)
		return drain(out, buf, size, ZSTD_e_continue);
	if (fwrite(buf, 1, size, out->f) != size) {
		out->msg = strerror(errno ? errno : EIO);
		return -1;
	}
	return 0;
}

int zout_close(pk_out *out, const char **msg)
{
	int rc = out->msg ? -1 : 0;
	if (rc == 0 && out->cctx && drain(out, "", 0, ZSTD_e_end) < 0)
		rc = -1;
	if (fflush(out->f) != 0 && rc == 0) {
		out->msg = strerror(errno ? errno : EIO);
		rc = -1;
	}
	if (out->owned && fclose(out->f) != 0 && rc == 0) {
		out->msg = strerror(errno ? errno : EIO);
		rc = -1;
	}
	if (out->tmp) {
		if (rc == 0 && rename(out->tmp, out->final) != 0) {
			out->msg = strerror(errno);
			rc = -1;
		}
		if (rc != 0)
			unlink(out->tmp);
		free(out->tmp);
		free(out->final);
	}
	if (msg)
		*msg = out->msg;
	ZSTD_freeCCtx(out->cctx);
	free(out->zbuf);
	free(out);
	return rc;
}

size_t zio_compressed_size(const void *buf, size_t len, int level)
{
	size_t cap = ZSTD_compressBound(len);
	void *out = malloc(cap);
	if (!out)
		return 0;
	size_t n = ZSTD_compress(out, cap, buf, len, level);
	free(out);
	return ZSTD_isError(n) ? 0 : n;
}

size_t zio_block_bound(size_t len)
{
	return ZSTD_compressBound(len);
}

size_t zio_block_compress(void *dst, size_t cap, const void *src, size_t len, int level)
{
	size_t n = ZSTD_compress(dst, cap, src, len, level);
	return ZSTD_isError(n) ? 0 : n;
}

long zio_block_decompress(void *dst, size_t cap, const void *src, size_t len)
{
	size_t n = ZSTD_decompress(dst, cap, src, len);
	return ZSTD_isError(n) ? -1 : (long)n;
}
