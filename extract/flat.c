// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The flattened dump format, rearranged for libkdumpfile.
 *
 * makedumpfile -F (and QEMU's kdump-*-flat dump-guest-memory formats,
 * and Debian's kdump-tools, which saves every dump this way) writes a
 * kdump-compressed or ELF image as a stream that needs no seeking:
 *
 *   a 4096-byte header: char signature[16] = "makedumpfile",
 *                       int64 type = 1, int64 version = 1 (big-endian)
 *   records:            int64 offset, int64 size (big-endian), then size
 *                       bytes that belong at offset of the real image
 *   an end mark:        offset = size = -1
 *
 * libkdumpfile 0.5.1 cannot read it and only reads dumps through file
 * descriptors (file.fd, file.fdset): there is no read callback to plug
 * an index of the records into. The choices were a memfd holding the
 * rearranged image, or our own kdump-compressed reader (header,
 * bitmaps, page descriptors, four decompressors) plus address
 * translation through libaddrxlat with a physical-read callback, about
 * 1,500 lines that would duplicate libkdumpfile.
 *
 * We take the memfd: one sequential pass copies each record to its
 * offset in an anonymous memory file (memfd_create), which libkdumpfile
 * then reads like any dump. It needs no disk space and no temporary
 * file to clean up; it costs memory equal to the rearranged image,
 * which is about the size of the flattened file (the pages stay
 * compressed; regions never written are holes and cost nothing).
 * Measured on QEMU kdump-zlib dumps of 256 MiB guests (5.10, 6.1, 6.12):
 * 36-42 MB files, 35-41 MiB of memory, rearranged in 60-180 ms. A multi-GiB
 * flattened dump costs that much RAM or swap, and `makedumpfile -R`
 * once to a real file is then the better choice, which the verbose
 * output says. The file is sealed against writes once complete.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/kdumpfile.h>

#include "flat.h"
#include "io.h"
#include "kdump-desc.h"

#define MDF_SIGNATURE "makedumpfile"
#define MDF_HEADER_SIZE 4096
#define MDF_TYPE_FLAT 1
#define MDF_END (-1)
/* makedumpfile writes records of at most a few pages; be generous */
#define MDF_MAX_RECORD (64ULL << 20)

struct mdf_header {
	char signature[16];
	int64_t type;		/* big-endian */
	int64_t version;	/* big-endian */
};

struct mdf_record {
	int64_t offset;		/* big-endian; -1 ends the stream */
	int64_t size;		/* big-endian */
};

struct kx_flat {
	int fd;			/* memfd holding the rearranged image */
	uint64_t image_size;
	uint64_t records;
	uint64_t memory;
	/*
	 * A file cut short, read with --force: the image has holes where
	 * the lost records belonged, which read as zeros. What the records
	 * read did fill, sorted and merged, tells them apart.
	 */
	int truncated;
	struct kx_flat_range {
		uint64_t off, end;
	} *filled;
	size_t nfilled, capfilled;
};

static int add_filled(struct kx_flat *flat, uint64_t off, uint64_t end)
{
	if (flat->nfilled && flat->filled[flat->nfilled - 1].end == off) {
		flat->filled[flat->nfilled - 1].end = end;
		return 0;
	}
	if (flat->nfilled == flat->capfilled) {
		size_t cap = flat->capfilled ? flat->capfilled * 2 : 256;
		struct kx_flat_range *p = realloc(flat->filled, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		flat->filled = p;
		flat->capfilled = cap;
	}
	flat->filled[flat->nfilled].off = off;
	flat->filled[flat->nfilled++].end = end;
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct kx_flat_range *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* sorted, overlapping and adjacent ranges merged */
static void merge_filled(struct kx_flat *flat)
{
	size_t i, n = 0;

	if (!flat->nfilled)
		return;
	qsort(flat->filled, flat->nfilled, sizeof(*flat->filled), cmp_range);
	for (i = 1; i < flat->nfilled; i++) {
		if (flat->filled[i].off <= flat->filled[n].end) {
			if (flat->filled[i].end > flat->filled[n].end)
				flat->filled[n].end = flat->filled[i].end;
		} else {
			flat->filled[++n] = flat->filled[i];
		}
	}
	flat->nfilled = n + 1;
}

int kx_flat__filled(const struct kx_flat *flat, uint64_t off, uint64_t len)
{
	size_t lo = 0, hi;

	if (!flat || !flat->truncated)
		return 1;
	hi = flat->nfilled;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (flat->filled[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < flat->nfilled && flat->filled[lo].off <= off &&
	       off + len <= flat->filled[lo].end;
}

int kx_flat__truncated(const struct kx_flat *flat)
{
	return flat && flat->truncated;
}

/*
 * Copy every record to its place; @pos starts after the file header.
 * With @flat NULL only walk the record headers to the end mark (the file
 * is whole), the data checked to be in the file of @file_size bytes.
 */
static int rearrange(struct kx_flat *flat, int fd, const char *path,
		     uint64_t file_size, char *msg, size_t msglen)
{
	uint64_t pos = MDF_HEADER_SIZE;
	size_t bufsize = 1 << 20;
	char *buf;
	int ret;

	buf = malloc(flat ? bufsize : 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		struct mdf_record rec;
		int64_t off, size;
		uint64_t done;

		ret = kx_pread_full(fd, &rec, sizeof(rec), pos);
		if (ret) {
			snprintf(msg, msglen,
				 "vmcore %s: flattened dump truncated: no record "
				 "header or end mark at offset %llu (%s)",
				 path, (unsigned long long)pos,
				 ret == -ENODATA ? "end of file" : strerror(-ret));
			ret = ret == -ENODATA ? -EIO : ret;
			goto cut;
		}
		off = (int64_t)be64toh((uint64_t)rec.offset);
		size = (int64_t)be64toh((uint64_t)rec.size);
		if (off == MDF_END && size == MDF_END)
			break;
		if (off < 0 || size <= 0 || (uint64_t)size > MDF_MAX_RECORD ||
		    (uint64_t)off > UINT64_MAX / 2) {
			snprintf(msg, msglen,
				 "vmcore %s: flattened dump corrupt: record at "
				 "offset %llu has offset %lld size %lld",
				 path, (unsigned long long)pos, (long long)off,
				 (long long)size);
			ret = -EINVAL;
			goto out;
		}
		pos += sizeof(rec);
		if (!flat) {
			/* only whether the data is there */
			if (pos + (uint64_t)size > file_size) {
				snprintf(msg, msglen,
					 "vmcore %s: flattened dump truncated: "
					 "record data at offset %llu (end of file)",
					 path, (unsigned long long)pos);
				ret = -EIO;
				goto out;
			}
			pos += (uint64_t)size;
			continue;
		}
		for (done = 0; done < (uint64_t)size;) {
			size_t n = (uint64_t)size - done < bufsize ?
					   (size_t)((uint64_t)size - done) :
					   bufsize;

			ret = kx_pread_full(fd, buf, n, pos);
			if (ret) {
				snprintf(msg, msglen,
					 "vmcore %s: flattened dump truncated: "
					 "record data at offset %llu (%s)",
					 path, (unsigned long long)pos,
					 ret == -ENODATA ? "end of file" :
							   strerror(-ret));
				ret = ret == -ENODATA ? -EIO : ret;
				goto cut;
			}
			ret = kx_pwrite_full(flat->fd, buf, n, (uint64_t)off + done);
			if (ret) {
				snprintf(msg, msglen,
					 "vmcore %s: cannot hold the rearranged "
					 "flattened dump in memory (%llu bytes "
					 "so far): %s",
					 path, (unsigned long long)flat->image_size,
					 strerror(-ret));
				goto out;
			}
			if (flat->truncated &&
			    add_filled(flat, (uint64_t)off + done, (uint64_t)off + done + n)) {
				ret = -ENOMEM;
				goto out;
			}
			pos += n;
			done += n;
		}
		flat->records++;
		if ((uint64_t)(off + size) > flat->image_size)
			flat->image_size = (uint64_t)(off + size);
	}
	ret = 0;
	goto out;
cut:
	/*
	 * --force: what was read is kept (the whole records and the part of
	 * the last one in the file); the caller says which bytes are holes
	 */
	if (flat && flat->truncated && ret == -EIO) {
		merge_filled(flat);
		ret = 0;
	}
out:
	free(buf);
	return ret;
}

int kx_flat__probe(int fd)
{
	struct mdf_header hdr;
	int ret = kx_pread_full(fd, &hdr, sizeof(hdr), 0);

	if (ret == -ENODATA)
		return 0;
	if (ret)
		return ret;
	return !strncmp(hdr.signature, MDF_SIGNATURE, sizeof(hdr.signature)) &&
	       (int64_t)be64toh((uint64_t)hdr.type) == MDF_TYPE_FLAT;
}

uint32_t kx_flat__block(int fd)
{
	unsigned char rec[16], raw[512];
	struct kx_kdhdr h;
	uint64_t off, size;

	if (kx_pread_full(fd, rec, sizeof(rec), MDF_HEADER_SIZE))
		return 0;
	memcpy(&off, rec, 8);
	memcpy(&size, rec + 8, 8);
	/*
	 * the first record is the disk_dump_header; QEMU writes it alone (464
	 * bytes), makedumpfile with the rest of its first block: what is past
	 * the record is read as zeros
	 */
	size = be64toh(size);
	if (be64toh(off) != 0 || size < 432)
		return 0;
	if (size > sizeof(raw))
		size = sizeof(raw);
	memset(raw, 0, sizeof(raw));
	if (kx_pread_full(fd, raw, (size_t)size, MDF_HEADER_SIZE + sizeof(rec)) ||
	    !kx_kdhdr__parse(raw, &h))
		return 0;
	return h.block;
}

int kx_flat__check(int fd, const char *path, char *msg, size_t msglen)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(msg, msglen, "vmcore %s: fstat: %s", path, strerror(errno));
		return -errno;
	}
	return rearrange(NULL, fd, path, (uint64_t)st.st_size, msg, msglen);
}

int kx_flat__by_lib(void)
{
#if KDUMPFILE_VERSION >= KDUMPFILE_MKVER(0, 5, 4)
	const char *e = getenv("KTRACE_FLAT");

	return !e || strcmp(e, "rearrange");
#else
	return 0;
#endif
}

int kx_flat__open(int fd, const char *path, int force, struct kx_flat **out, char *msg,
		  size_t msglen)
{
	struct mdf_header hdr;
	struct kx_flat *flat = NULL;
	struct stat st;
	int ret;

	*out = NULL;
	if (msglen)
		msg[0] = '\0';
	ret = kx_pread_full(fd, &hdr, sizeof(hdr), 0);
	if (ret == -ENODATA)
		return 0;	/* too short to be flattened; libkdumpfile decides */
	if (ret) {
		snprintf(msg, msglen, "vmcore %s: read header: %s", path,
			 strerror(-ret));
		return ret;
	}
	if (strncmp(hdr.signature, MDF_SIGNATURE, sizeof(hdr.signature)))
		return 0;
	if ((int64_t)be64toh((uint64_t)hdr.type) != MDF_TYPE_FLAT) {
		snprintf(msg, msglen,
			 "vmcore %s: makedumpfile header of unknown type %lld",
			 path, (long long)be64toh((uint64_t)hdr.type));
		return -EINVAL;
	}

	flat = calloc(1, sizeof(*flat));
	if (!flat)
		return -ENOMEM;
	flat->fd = memfd_create("ktrace-flattened", MFD_CLOEXEC |
				MFD_ALLOW_SEALING);
	if (flat->fd < 0) {
		ret = -errno;
		snprintf(msg, msglen, "vmcore %s: memfd_create: %s", path,
			 strerror(errno));
		goto out;
	}
	flat->truncated = force;	/* until the end mark is met */
	ret = rearrange(flat, fd, path, 0, msg, msglen);
	if (ret)
		goto out;
	if (flat->truncated && !msg[0]) {
		flat->truncated = 0;	/* whole after all */
		free(flat->filled);
		flat->filled = NULL;
		flat->nfilled = flat->capfilled = 0;
	}
	/* the size may end in a hole the last record did not fill */
	ret = ftruncate(flat->fd, (off_t)flat->image_size) ? -errno : kx_memfd_seal(flat->fd);
	if (ret) {
		snprintf(msg, msglen, "vmcore %s: seal rearranged image: %s",
			 path, strerror(-ret));
		goto out;
	}
	if (!fstat(flat->fd, &st))
		flat->memory = (uint64_t)st.st_blocks * 512;
	*out = flat;
	flat = NULL;
out:
	kx_flat__close(flat);
	return ret;
}

void kx_flat__close(struct kx_flat *flat)
{
	if (!flat)
		return;
	if (flat->fd >= 0)
		close(flat->fd);
	free(flat->filled);
	free(flat);
}

int kx_flat__fd(const struct kx_flat *flat)
{
	return flat->fd;
}

uint64_t kx_flat__memory(const struct kx_flat *flat)
{
	return flat->memory;
}
