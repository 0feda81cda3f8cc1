/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbols from System.map or /proc/kallsyms ("ffffffff82a0b000 D
 * global_trace" lines), at link-time addresses.
 */
#ifndef KTRACE_EXTRACT_TYPES_SYSMAP_H
#define KTRACE_EXTRACT_TYPES_SYSMAP_H

#include <stddef.h>
#include <stdint.h>

struct kx_sysmap;

/*
 * Read @path: a kernel's System.map, or "/proc/kallsyms" (its run-time
 * addresses are moved back by the running kernel's KASLR offset). Return
 * 0, or -errno with a message naming the file and the cause in @msg (a
 * placeholder System.map, addresses hidden by kptr_restrict).
 */
int kx_sysmap__load(const char *path, struct kx_sysmap **out, char *msg, size_t msglen);
void kx_sysmap__free(struct kx_sysmap *m);
size_t kx_sysmap__count(const struct kx_sysmap *m);

/*
 * Link-time address of @name, chosen among symbols of one name as
 * kx_symtab__lookup() chooses: global, then weak, then the first local.
 * *@reloc tells whether KASLR moves it. Return 0 or -ENOENT.
 */
int kx_sysmap__lookup(const struct kx_sysmap *m, const char *name, uint64_t *addr,
		      int *reloc);

#endif /* KTRACE_EXTRACT_TYPES_SYSMAP_H */
