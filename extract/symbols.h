/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbols of the crashed kernel, from the vmlinux ELF .symtab.
 *
 * Addresses here are link-time addresses, as in the vmlinux file and its
 * DWARF. The caller adds the KASLR offset where it applies
 * (kx_symtab__relocatable()).
 */
#ifndef KTRACE_EXTRACT_SYMBOLS_H
#define KTRACE_EXTRACT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <libelf.h>

struct kx_symtab;

/*
 * Build the name index of @elf's .symtab; the index reads names and
 * addresses from @elf, which must stay open until kx_symtab__free().
 * Return 0, or -ENOENT when the file has no .symtab, -EIO when it cannot
 * be read, -ENOMEM.
 */
int kx_symtab__load(Elf *elf, struct kx_symtab **out);
void kx_symtab__free(struct kx_symtab *st);

/*
 * Link-time address of @name. Among several symbols of that name a
 * global one wins over a weak one, and a weak one over a local one; among
 * locals of the same name the first in the table wins.
 * *@relocatable tells whether KASLR moves it: zero-based per-CPU symbols
 * (x86_64 .data..percpu) and absolute symbols do not move.
 * Return 0 or -ENOENT.
 */
int kx_symtab__lookup(const struct kx_symtab *st, const char *name,
		      uint64_t *addr, int *relocatable);

/* number of symbols indexed */
size_t kx_symtab__count(const struct kx_symtab *st);

/*
 * Every named function and object of the table as kallsyms would list
 * it: its address (@kaslr added where KASLR moves it), an nm-style type
 * letter and its name (in @st's ELF, valid while it is open). Arrays
 * malloc()ed, freed by the caller. Return 0, -ENOENT (none), -ENOMEM.
 */
int kx_symtab__list(const struct kx_symtab *st, uint64_t kaslr, uint64_t **addr, char **types,
		    const char ***names, uint32_t *n);

#endif /* KTRACE_EXTRACT_SYMBOLS_H */
