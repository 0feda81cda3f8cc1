/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The target interface: how libktrace reaches the crashed kernel.
 *
 * libktrace never opens a dump or reads DWARF itself. A front end (the
 * standalone extractor on libkdumpfile + libdw, the crash extension on
 * crash's services, a unit test on an in-memory image) fills in a
 * struct kt_target and hands it to kt_session__open().
 *
 * Every callback returns 0 on success or a negative errno:
 *   -ENOENT   the symbol, type or member does not exist in this kernel
 *   -EFAULT   the address is not mapped (no page table entry, not in dump)
 *   -ENODATA  the page exists but was left out of the dump (filtered)
 *   -EIO      the dump could not be read or decompressed
 * A short read is a failed read: read() either fills all of buf or fails.
 */
#ifndef KTRACE_TARGET_H
#define KTRACE_TARGET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kt_target {
	/* sizeof(struct kt_target) as the caller knows it */
	size_t sz;
	/* passed back to every callback */
	void *priv;

	/* Read @len bytes at kernel virtual address @kvaddr into @buf. */
	int (*read)(void *priv, uint64_t kvaddr, void *buf, size_t len);

	/* Address of a kernel symbol, KASLR offset already applied. */
	int (*symbol)(void *priv, const char *name, uint64_t *addr);

	/*
	 * Offset and size in bytes of @member in @type. @type is spelled as
	 * in C ("struct ring_buffer_per_cpu", "union foo", or a typedef).
	 * @member may be a dotted path through embedded aggregates
	 * ("event.type"); members of anonymous structs and unions are found
	 * as if they were direct members. A flexible array has size 0.
	 */
	int (*member)(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size);

	/* sizeof(@type). */
	int (*type_size)(void *priv, const char *type, uint64_t *size);

	/*
	 * Optional (may be NULL): the value of an enumerator, e.g.
	 * "TRACE_FLAG_NMI". Kernel flag values live in enums whose values
	 * moved between versions; this lets the core ask instead of guess.
	 */
	int (*enumerator)(void *priv, const char *name, int64_t *value);

	/*
	 * Optional (may be NULL): the value of an enumerator as the
	 * compilation unit that contains the kernel code address @code sees
	 * it (KASLR applied, as symbol() returns). Event print formats name
	 * enumerators of the file that defined the event; @code is then the
	 * event's probe function, which lets a DWARF reader look in one unit
	 * instead of all of them. A target without per-unit knowledge
	 * leaves this NULL and enumerator() is used.
	 */
	int (*enumerator_at)(void *priv, const char *name, uint64_t code, int64_t *value);

	/*
	 * Optional (may be NULL): read @n blocks of @len bytes, block i at
	 * kernel virtual address @kvaddrs[i], into @buf + i * @len, and set
	 * @ok[i] to 1 for each block read whole. A block left at 0 is one
	 * the caller reads again with read(), which says why it fails, if it
	 * does; a target may leave any block to read(). Returns 0, or a
	 * negative errno when it read none. This is for ring-buffer
	 * sub-buffers met in a walk: a target that can read neighbours in
	 * the dump with one system call does, where read() pays a call per
	 * sub-buffer.
	 */
	int (*read_blocks)(void *priv, const uint64_t *kvaddrs, size_t n, size_t len, void *buf,
			   unsigned char *ok);

	/*
	 * Optional (0 when the caller's struct ends before it): KT_TARGET_*
	 * flags, what the target promises beyond the above.
	 */
	unsigned int flags;

	/*
	 * Optional (0: not known, or the caller's struct ends before it):
	 * the crashed machine's page size in bytes, as the dump says it (a
	 * kdump header, libkdumpfile's arch.page_shift, crash's PAGESIZE()).
	 * Ring-buffer sub-buffers are pages (6.8+: pages shifted by an
	 * order): 16 KiB on some arm64 kernels, 64 KiB on ppc64el. The
	 * kernel's own VMCOREINFO PAGESIZE is asked too; 4096 when neither
	 * says.
	 */
	uint32_t page_size;
};

/*
 * read_blocks() may be called on several threads at once, and while
 * another thread is in read(): the target serialises what it must
 * itself. Without it, libktrace calls the target from one thread at a
 * time (trace.dat then reads the ring on the calling thread alone).
 */
#define KT_TARGET_BLOCKS_MT	(1u << 0)
/*
 * The crashed machine is big-endian (s390x): libktrace reads every word
 * of the kernel's structures, pages and records in that order. A target
 * that cannot tell leaves it clear (little-endian).
 */
#define KT_TARGET_BIG_ENDIAN	(1u << 1)
/*
 * symbol() answers from the kernel's whole symbol table (the vmlinux's
 * .symtab, or its System.map), not from the dump's own kallsyms: the
 * names kt_kallsyms__load() decodes are asked of it, and a table with
 * names it does not know is refused as damaged (EBADMSG).
 */
#define KT_TARGET_SYMTAB	(1u << 2)

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_TARGET_H */
