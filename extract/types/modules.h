/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Types of out-of-tree modules (a recorder's struct krec_entry), from the
 * DWARF of their .ko files, behind the dump's target: a type the kernel's
 * own source does not know is looked up in the modules.
 */
#ifndef KTRACE_EXTRACT_MODTYPES_H
#define KTRACE_EXTRACT_MODTYPES_H

#include <stdio.h>
#include <ktrace/target.h>

struct kx_modtypes;

/*
 * Read the DWARF of every *.ko in @dir (relocated: a .ko is ET_REL).
 * 0 and *@out (NULL when @dir has no .ko with DWARF), -ENOENT when
 * @dir cannot be read, -ENOMEM. @log: one line per module, or NULL.
 */
int kx_modtypes__open(const char *dir, FILE *log, struct kx_modtypes **out);
void kx_modtypes__close(struct kx_modtypes *m);
/* @t asks @m for member() and type_size() where its own answer is -ENOENT */
void kx_modtypes__wrap(struct kx_modtypes *m, struct kt_target *t);
/*
 * The .ko files of --module-debuginfo @dir (its failures said on stderr),
 * or else those beside @vmlinux (may be NULL), wrapped around @t. NULL
 * when there are none.
 */
struct kx_modtypes *kx_modtypes__attach(const char *dir, const char *vmlinux, FILE *log,
					struct kt_target *t);

#endif
