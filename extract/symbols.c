// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbols of the crashed kernel, from the vmlinux ELF .symtab.
 *
 * A distribution vmlinux has about 150,000 symbols; the core asks for a
 * few dozen. One pass over .symtab fills an open-addressing hash table
 * keyed by name (names point into libelf's mapping of the file, nothing
 * is copied), so that a lookup costs one hash and a probe or two.
 *
 * Static variables such as global_trace are local symbols, so locals are
 * indexed too. Names that several locals share (e.g. "__key") are
 * resolved to the first one; the tracing symbols we need are unique.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

struct kx_sym {
	const char *name;
	uint64_t addr;
	uint32_t hash;
	uint8_t rank;		/* 3 global, 2 weak, 1 local, 0 empty slot */
	uint8_t relocatable;
};

struct kx_symtab {
	struct kx_sym *slots;
	size_t mask;		/* capacity - 1, capacity a power of two */
	size_t count;
};

/* FNV-1a, 32 bits: cheap and good enough for symbol names */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static uint8_t bind_rank(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	default:
		return 1;
	}
}

static void symtab_insert(struct kx_symtab *st, const char *name,
			  uint64_t addr, uint8_t rank, uint8_t relocatable)
{
	uint32_t h = name_hash(name);
	size_t i = h & st->mask;

	for (;;) {
		struct kx_sym *s = &st->slots[i];

		if (!s->rank) {
			*s = (struct kx_sym){ name, addr, h, rank, relocatable };
			st->count++;
			return;
		}
		if (s->hash == h && !strcmp(s->name, name)) {
			if (rank > s->rank) {
				s->addr = addr;
				s->rank = rank;
				s->relocatable = relocatable;
			}
			return;
		}
		i = (i + 1) & st->mask;
	}
}

/*
 * Is @shdr a section whose symbols KASLR does not move? On x86_64 SMP
 * kernels .data..percpu is linked at address 0 and its symbols are
 * offsets into a CPU's per-CPU area (__per_cpu_offset[cpu] + sym).
 */
static int section_fixed(Elf *elf, size_t shstrndx, const GElf_Shdr *shdr)
{
	const char *name = elf_strptr(elf, shstrndx, shdr->sh_name);

	return name && !strcmp(name, ".data..percpu") && shdr->sh_addr == 0;
}

int kx_symtab__load(Elf *elf, struct kx_symtab **out)
{
	struct kx_symtab *st = NULL;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr shdr, symshdr = { 0 };
	Elf_Data *data;
	size_t shstrndx, nsyms, cap, i;
	size_t fixed_shndx = SIZE_MAX;
	int ret;

	*out = NULL;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EIO;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			return -EIO;
		if (shdr.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symshdr = shdr;
		}
		if (section_fixed(elf, shstrndx, &shdr))
			fixed_shndx = elf_ndxscn(scn);
	}
	if (!symscn || !symshdr.sh_entsize)
		return -ENOENT;
	data = elf_getdata(symscn, NULL);
	if (!data)
		return -EIO;
	nsyms = symshdr.sh_size / symshdr.sh_entsize;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	/* load factor at most 1/2 */
	for (cap = 1024; cap < 2 * nsyms; cap <<= 1)
		;
	st->slots = calloc(cap, sizeof(*st->slots));
	if (!st->slots) {
		ret = -ENOMEM;
		goto out;
	}
	st->mask = cap - 1;

	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		unsigned char type;

		if (!gelf_getsym(data, (int)i, &sym)) {
			ret = -EIO;
			goto out;
		}
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, symshdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		symtab_insert(st, name, sym.st_value,
			      bind_rank(GELF_ST_BIND(sym.st_info)),
			      sym.st_shndx != SHN_ABS &&
			      sym.st_shndx != fixed_shndx);
	}
	*out = st;
	st = NULL;
	ret = 0;
out:
	kx_symtab__free(st);
	return ret;
}

void kx_symtab__free(struct kx_symtab *st)
{
	if (!st)
		return;
	free(st->slots);
	free(st);
}

int kx_symtab__lookup(const struct kx_symtab *st, const char *name,
		      uint64_t *addr, int *relocatable)
{
	uint32_t h = name_hash(name);
	size_t i = h & st->mask;

	for (;;) {
		const struct kx_sym *s = &st->slots[i];

		if (!s->rank)
			return -ENOENT;
		if (s->hash == h && !strcmp(s->name, name)) {
			*addr = s->addr;
			if (relocatable)
				*relocatable = s->relocatable;
			return 0;
		}
		i = (i + 1) & st->mask;
	}
}

size_t kx_symtab__count(const struct kx_symtab *st)
{
	return st->count;
}
