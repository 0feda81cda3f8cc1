/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vmlinux as a source of types and symbols: its DWARF (libdw) and its
 * .symtab (libelf), KASLR applied. Memory is not its business: a target
 * made with kx_vmsrc__target() reads through the dump's own target
 * (kx_dump__target()) and asks this source the rest. The dump opens it in
 * its second stage (dump.c: the vmlinux given or found, checked against
 * the dump, its KASLR offset found) and keeps it; the resolver asks for
 * it with kx_dump__vmsrc().
 */
#ifndef KTRACE_EXTRACT_TYPES_VMSRC_H
#define KTRACE_EXTRACT_TYPES_VMSRC_H

#include <stdint.h>
#include <stdio.h>
#include <ktrace/target.h>
#include "vmlinux.h"

struct kx_symtab;
struct kx_types;

struct kx_vmsrc {
	struct kx_vmlinux vml;
	struct kx_symtab *symtab;
	struct kx_types *types;
	/* added to the .symtab's relocatable addresses (the dump's) */
	uint64_t kaslr_offset;
	/* the memory a target of kx_vmsrc__target() reads: the dump's */
	struct kt_target mem;
};

/*
 * Open @path: the ELF file, its .symtab, its release (linux_banner), its
 * DWARF (-v lines on @log, NULL: none). 0 and *@out, or -errno with a
 * message in @msg naming the file and the cause.
 */
int kx_vmsrc__open(const char *path, FILE *log, struct kx_vmsrc **out, char *msg,
		   size_t msglen);
void kx_vmsrc__free(struct kx_vmsrc *v);

/*
 * @t: reads (read, read_blocks, the platform: page size, byte order) as
 * @mem does, symbols, members, sizes and enumerators from @v. Valid while
 * @v is; @v keeps a copy of @mem (one such target per source).
 */
void kx_vmsrc__target(struct kx_vmsrc *v, const struct kt_target *mem, struct kt_target *t);

/*
 * For kt_open_opts.kallsyms_else, @ctx the source (after
 * kx_vmsrc__target()): its .symtab as a kallsyms table, KASLR applied,
 * when the dump's own cannot be decoded
 */
struct kt_kallsyms *kx_vmsrc__kallsyms_else(void *ctx, const char *why);

#endif /* KTRACE_EXTRACT_TYPES_VMSRC_H */
