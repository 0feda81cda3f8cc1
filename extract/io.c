// SPDX-License-Identifier: LGPL-2.1-or-later
/* Positioned file I/O shared by the dump containers (flat.c, kdump-desc.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "io.h"

int kx_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENODATA;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int kx_pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int kx_data_extent(int fd, uint64_t off, uint64_t size, uint64_t *start, uint64_t *end)
{
	off_t d, h;

	if (off >= size)
		return 0;
	d = lseek(fd, (off_t)off, SEEK_DATA);
	if (d < 0) {
		if (errno == ENXIO)
			return 0;	/* holes to the end */
		*start = off;		/* no hole support: all data */
		*end = size;
		return 1;
	}
	if ((uint64_t)d >= size)
		return 0;
	h = lseek(fd, d, SEEK_HOLE);
	*start = (uint64_t)d;
	*end = h < 0 || (uint64_t)h > size ? size : (uint64_t)h;
	return 1;
}

int kx_memfd_seal(int fd)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 5; i++) {
		if (!fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL))
			return 0;
		if (errno != EBUSY)
			break;
		nanosleep(&pause, NULL);
	}
	return -errno;
}
