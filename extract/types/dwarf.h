/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Types of the crashed kernel, from the vmlinux DWARF through libdw,
 * looked up in the compilation units that define them instead of
 * indexing all of .debug_info.
 */
#ifndef KTRACE_EXTRACT_TYPES_DWARF_H
#define KTRACE_EXTRACT_TYPES_DWARF_H

#include <stdint.h>
#include <stdio.h>
#include <libelf.h>

struct kx_symtab;
struct kx_types;

/*
 * Read the DWARF of @elf (a vmlinux, or a separate debug file: only the
 * .debug_* sections are used), opened read-only on @fd. @st gives the link-time addresses of the
 * anchor functions. @log, when not NULL, receives one line per resolved
 * type and the time it took. Return 0, -ENOENT when @elf has no DWARF,
 * -ENOMEM.
 */
int kx_types__open(Elf *elf, int fd, const struct kx_symtab *st, FILE *log,
		   struct kx_types **out);
void kx_types__close(struct kx_types *t);

/*
 * The target's member(), type_size() and enumerator(): see
 * include/ktrace/target.h. -ENOENT when absent, -EINVAL when a dotted
 * path goes through something that is not a struct or union.
 */
int kx_types__member(struct kx_types *t, const char *type,
		     const char *member, uint64_t *offset, uint64_t *size);
int kx_types__size(struct kx_types *t, const char *type, uint64_t *size);
int kx_types__enumerator_at(struct kx_types *t, const char *name, uint64_t addr,
			    int64_t *value);
int kx_types__enumerator(struct kx_types *t, const char *name,
			 int64_t *value);

/*
 * Call @cb with the name of every enumerator of an enumeration type at
 * the top of a unit (where kx_types__enumerator() finds them), unit by
 * unit through the handle on all of .debug_info, giving back the pages
 * of the units passed. @cb may ask this resolver anything. Stop at the
 * first nonzero return of @cb and return it; 0, or -EIO.
 */
int kx_types__enumerators(struct kx_types *t,
			  int (*cb)(void *arg, const char *name), void *arg);

#endif /* KTRACE_EXTRACT_TYPES_DWARF_H */
