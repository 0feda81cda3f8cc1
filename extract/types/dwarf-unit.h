/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to types*.c: the vmlinux DWARF one compilation unit at a time,
 * each read through a libdw handle that sees that unit alone.
 */
#ifndef KTRACE_EXTRACT_TYPES_DWARF_UNIT_H
#define KTRACE_EXTRACT_TYPES_DWARF_UNIT_H

#include <stdint.h>
#include <elfutils/libdw.h>
#include <libelf.h>

struct kx_dunits;

/*
 * Prepare to read the units of @elf, opened read-only on @fd (whose
 * .debug_* sections the in-memory ELF images that hold one unit each
 * map; nothing is written to it). Return 0, -ENOENT when @elf has no
 * .debug_info, -EIO, -ENOMEM.
 */
int kx_dunits__open(Elf *elf, int fd, struct kx_dunits **out);
void kx_dunits__close(struct kx_dunits *u);

/*
 * The unit whose code holds link-time address @addr (.debug_aranges):
 * its unit DIE in *@cudie, valid until kx_dunits__close(), and the
 * offset of that DIE in the file's .debug_info in *@die_off.
 * Return 0, -ENOENT (no unit there), -EIO, -ENOMEM.
 */
int kx_dunits__at_addr(struct kx_dunits *u, uint64_t addr, Dwarf_Die *cudie,
		       uint64_t *die_off);

/* A handle on all of .debug_info, made on first use, for walks over every unit */
Dwarf *kx_dunits__all(struct kx_dunits *u);
/*
 * A walk with kx_dunits__all() is done with [@from, @to) of .debug_info
 * (one unit, or several): the whole pages there may leave memory, DIEs
 * there stay valid, read again. Walks may nest (a walk's callback may
 * start another): each gives back what it has passed, and a page given
 * back that another walk still reads comes back from the file.
 */
void kx_dunits__release(struct kx_dunits *u, uint64_t from, uint64_t to);

#endif /* KTRACE_EXTRACT_TYPES_DWARF_UNIT_H */
