/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_EXTRACT_IO_H
#define KTRACE_EXTRACT_IO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Whole positioned reads and writes: EINTR and short transfers retried.
 * 0, -errno, or (reading) -ENODATA at end of file; a write that makes no
 * progress is -EIO.
 */
int kx_pread_full(int fd, void *buf, size_t len, uint64_t off);
int kx_pwrite_full(int fd, const void *buf, size_t len, uint64_t off);
/*
 * Seal a memfd against every change (F_SEAL_WRITE, GROW, SHRINK, SEAL):
 * 0, or -errno. F_SEAL_WRITE fails with EBUSY while a page of the file
 * still holds a transient reference (a page on a per-CPU LRU list, under
 * migration): memfd_wait_for_pins() gives up after a short wait, so a
 * loaded machine saw "Device or resource busy" once in thousands of opens
 * of a flattened dump; a few more tries, 10 ms apart.
 */
int kx_memfd_seal(int fd);

/*
 * The next run of data at or after @off in a file of @size bytes, holes
 * skipped where the file system tells them (SEEK_DATA/SEEK_HOLE; where it
 * cannot, the rest of the file is one run): 1 with [*start, *end), 0 when
 * only holes are left.
 */
int kx_data_extent(int fd, uint64_t off, uint64_t size, uint64_t *start, uint64_t *end);

#endif
