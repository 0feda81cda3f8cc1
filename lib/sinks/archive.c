// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A ustar archive of a directory's files, plain, gzip (zlib) or zstd
 * compressed by the name's suffix: what the ticket becomes when it is
 * asked for as one file. Written beside the target and renamed, so a
 * half-written archive never carries the final name.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include "../internal.h"
#include "archive.h"

struct kt_archive {
	FILE *f;
	enum { AR_TAR, AR_GZ, AR_ZST } kind;
	z_stream z;
	ZSTD_CCtx *zc;
	char *path, *tmp;
	uint8_t out[1 << 16];
	int err;
};

int kt_archive__kind(const char *path)
{
	size_t n = strlen(path);
	static const struct { const char *sfx; int kind; } k[] = {
		{ ".tar.gz", AR_GZ }, { ".tgz", AR_GZ }, { ".tar.zst", AR_ZST }, { ".tar", AR_TAR },
	};
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		size_t m = strlen(k[i].sfx);

		if (n > m && !strcmp(path + n - m, k[i].sfx))
			return k[i].kind;
	}
	return -1;
}

static int sink(struct kt_archive *a, const void *buf, size_t len, bool end)
{
	if (a->err)
		return a->err;
	if (a->kind == AR_TAR) {
		if (len && fwrite(buf, 1, len, a->f) != len)
			a->err = -EIO;
		return a->err;
	}
	if (a->kind == AR_GZ) {
		a->z.next_in = (Bytef *)buf;
		a->z.avail_in = (uInt)len;
		do {
			int r;

			a->z.next_out = a->out;
			a->z.avail_out = sizeof(a->out);
			r = deflate(&a->z, end ? Z_FINISH : Z_NO_FLUSH);
			if (r == Z_STREAM_ERROR)
				return a->err = -EIO;
			len = sizeof(a->out) - a->z.avail_out;
			if (len && fwrite(a->out, 1, len, a->f) != len)
				return a->err = -EIO;
			if (end && r == Z_STREAM_END)
				break;
		} while (a->z.avail_in || a->z.avail_out == 0 || end);
		return 0;
	}
	{
		ZSTD_inBuffer in = { buf, len, 0 };
		size_t left;

		do {
			ZSTD_outBuffer out = { a->out, sizeof(a->out), 0 };

			left = ZSTD_compressStream2(a->zc, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(left))
				return a->err = -EIO;
			if (out.pos && fwrite(a->out, 1, out.pos, a->f) != out.pos)
				return a->err = -EIO;
		} while (end ? left != 0 : in.pos < in.size);
	}
	return 0;
}

struct kt_archive *kt_archive__create(const char *path)
{
	struct kt_archive *a = calloc(1, sizeof(*a));
	int kind = kt_archive__kind(path);

	if (!a || kind < 0) {
		free(a);
		errno = kind < 0 ? EINVAL : ENOMEM;
		return NULL;
	}
	a->kind = kind;
	a->path = strdup(path);
	if (!a->path || asprintf(&a->tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		goto fail;
	a->f = fopen(a->tmp, "wx");
	if (!a->f)
		goto fail;
	if (kind == AR_GZ && deflateInit2(&a->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		goto fail;
	if (kind == AR_ZST) {
		a->zc = ZSTD_createCCtx();
		if (!a->zc)
			goto fail;
		ZSTD_CCtx_setParameter(a->zc, ZSTD_c_compressionLevel, 3);
	}
	return a;
fail:
	{
		int e = errno ? errno : ENOMEM;

		if (a->f) {
			fclose(a->f);
			unlink(a->tmp);
		}
		free(a->path);
		free(a->tmp);
		free(a);
		errno = e;
	}
	return NULL;
}

static void octal(char *field, size_t width, uint64_t v)
{
	snprintf(field, width, "%0*llo", (int)width - 1, (unsigned long long)v);
}

static int header(struct kt_archive *a, const char *name, uint64_t size, char type, int mode)
{
	char h[512] = { 0 };
	const char *base = name;
	unsigned int sum = 0;
	size_t i, n = strlen(name);

	if (n > 99) {
		/* ustar: a prefix of up to 155 bytes split at a '/' */
		const char *slash = strchr(name + n - 99 > name ? name + n - 100 : name, '/');

		if (!slash || slash - name > 154 || strlen(slash + 1) > 99)
			return a->err = -ENAMETOOLONG;
		memcpy(h + 345, name, slash - name);
		base = slash + 1;
	}
	memcpy(h, base, strlen(base));
	octal(h + 100, 8, mode);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, size);
	octal(h + 136, 12, (uint64_t)time(NULL));
	memset(h + 148, ' ', 8);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (i = 0; i < sizeof(h); i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	return sink(a, h, sizeof(h), false);
}

int kt_archive__add_dir(struct kt_archive *a, const char *name)
{
	char *n;
	int err;

	if (asprintf(&n, "%s/", name) < 0)
		return -ENOMEM;
	err = header(a, n, 0, '5', 0755);
	free(n);
	return err;
}

int kt_archive__add_file(struct kt_archive *a, const char *name, const char *src)
{
	static const char zero[512];
	char buf[1 << 16];
	FILE *f = fopen(src, "r");
	uint64_t size, done = 0;
	size_t n;
	int err;

	if (!f)
		return -errno;
	if (fseeko(f, 0, SEEK_END) || (size = (uint64_t)ftello(f), fseeko(f, 0, SEEK_SET))) {
		fclose(f);
		return -EIO;
	}
	err = header(a, name, size, '0', 0644);
	while (!err && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (done + n > size)
			n = (size_t)(size - done);	/* grew while read: keep the header true */
		done += n;
		err = sink(a, buf, n, false);
	}
	if (!err && done < size)
		err = a->err = -EIO;
	if (!err && size % 512)
		err = sink(a, zero, 512 - size % 512, false);
	fclose(f);
	return err;
}

int kt_archive__close(struct kt_archive *a, bool keep)
{
	static const char zero[1024];
	int err;

	if (!a)
		return 0;
	if (keep) {
		sink(a, zero, sizeof(zero), false);
		if (a->kind != AR_TAR)
			sink(a, "", 0, true);
	}
	err = keep ? a->err : 0;
	if (fflush(a->f) || ferror(a->f))
		err = err ? err : -EIO;
	if (fclose(a->f))
		err = err ? err : -EIO;
	if (keep && !err && rename(a->tmp, a->path))
		err = -errno;
	if (!keep || err)
		unlink(a->tmp);
	if (a->kind == AR_GZ)
		deflateEnd(&a->z);
	ZSTD_freeCCtx(a->zc);
	free(a->path);
	free(a->tmp);
	free(a);
	return err;
}
