/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The crashed kernel's vmlinux (or its separate debug file): finding it,
 * opening it, and what identifies it (GNU build-id, release string).
 */
#ifndef KTRACE_EXTRACT_VMLINUX_H
#define KTRACE_EXTRACT_VMLINUX_H

#include <stddef.h>
#include <libelf.h>

struct kx_symtab;

struct kx_vmlinux {
	char *path;
	int fd;
	Elf *elf;
	/* lowercase hex of NT_GNU_BUILD_ID, "" when the file has none */
	char build_id[2 * 64 + 1];
	/* uname -r of the kernel, from linux_banner; "" when unreadable */
	char release[65];
};

/*
 * Open @path read-only as an ELF file. Return 0, or -errno with a message
 * in @msg naming the file and the cause.
 */
int kx_vmlinux__open(struct kx_vmlinux *v, const char *path, char *msg,
		     size_t msglen);
/*
 * Fill v->release from linux_banner ("Linux version <release> (...").
 * A separate debug file keeps .rodata as NOBITS: release stays "".
 */
void kx_vmlinux__read_release(struct kx_vmlinux *v,
			      const struct kx_symtab *st);
void kx_vmlinux__close(struct kx_vmlinux *v);

/*
 * Look for the vmlinux of @release where distributions install it. On
 * success return 0 and a malloc'ed path in *@path; otherwise -ENOENT and
 * the places tried in @msg.
 */
int kx_vmlinux__find(const char *release, char **path, char *msg,
		     size_t msglen);

#endif /* KTRACE_EXTRACT_VMLINUX_H */
