// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbols of the crashed kernel, from the vmlinux ELF .symtab.
 *
 * A distribution vmlinux has 110,000 to 190,000 symbols; the core asks
 * for a few dozen. One pass over .symtab fills an open-addressing hash
 * table keyed by name, so that a lookup costs one hash and a probe or
 * two. A slot holds only the symbol's index in .symtab and the hash of
 * its name (8 bytes: 4 MB for 6.12's table, where copies of name,
 * address and binding took 12 MB); the rest is read from .symtab, which
 * libelf maps and does not copy.
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
	uint32_t index;		/* in .symtab; 0 (the null symbol): empty slot */
	uint32_t hash;
};

struct kx_symtab {
	Elf *elf;
	Elf_Data *syms;
	size_t strndx;		/* section of the names */
	size_t fixed_shndx;	/* see section_fixed() */
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

/* The symbol of slot @s and its name; NULL when .symtab cannot say */
static const char *slot_sym(const struct kx_symtab *st, const struct kx_sym *s,
			    GElf_Sym *sym)
{
	if (!gelf_getsym(st->syms, (int)s->index, sym))
		return NULL;
	return elf_strptr(st->elf, st->strndx, sym->st_name);
}

static int symtab_insert(struct kx_symtab *st, uint32_t index, const char *name,
			 unsigned char bind)
{
	uint32_t h = name_hash(name);
	size_t i = h & st->mask;

	for (;;) {
		struct kx_sym *s = &st->slots[i];
		const char *sname;
		GElf_Sym sym;

		if (!s->index) {
			*s = (struct kx_sym){ index, h };
			st->count++;
			return 0;
		}
		if (s->hash == h) {
			sname = slot_sym(st, s, &sym);
			if (!sname)
				return -EIO;
			if (!strcmp(sname, name)) {
				if (bind_rank(bind) > bind_rank(GELF_ST_BIND(sym.st_info)))
					s->index = index;
				return 0;
			}
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
	if (nsyms > UINT32_MAX)
		return -EIO;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->elf = elf;
	st->syms = data;
	st->strndx = symshdr.sh_link;
	st->fixed_shndx = fixed_shndx;
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
		ret = symtab_insert(st, (uint32_t)i, name, GELF_ST_BIND(sym.st_info));
		if (ret)
			goto out;
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
		const char *sname;
		GElf_Sym sym;

		if (!s->index)
			return -ENOENT;
		if (s->hash == h) {
			sname = slot_sym(st, s, &sym);
			if (sname && !strcmp(sname, name)) {
				*addr = sym.st_value;
				if (relocatable)
					*relocatable = sym.st_shndx != SHN_ABS &&
						       sym.st_shndx != st->fixed_shndx;
				return 0;
			}
		}
		i = (i + 1) & st->mask;
	}
}

size_t kx_symtab__count(const struct kx_symtab *st)
{
	return st->count;
}

int kx_symtab__list(const struct kx_symtab *st, uint64_t kaslr, uint64_t **addr, char **types,
		    const char ***names, uint32_t *n)
{
	size_t cap = st->count, i, m = 0;
	uint64_t *a = malloc(cap * sizeof(*a) + 1);
	char *t = malloc(cap + 1);
	const char **nm = malloc(cap * sizeof(*nm) + 1);

	if (!a || !t || !nm) {
		free(a), free(t), free(nm);
		return -ENOMEM;
	}
	for (i = 0; i <= st->mask; i++) {
		const struct kx_sym *s = &st->slots[i];
		unsigned char type, bind;
		const char *name;
		GElf_Sym sym;

		if (!s->index || m == cap)
			continue;
		name = slot_sym(st, s, &sym);
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
			continue;
		a[m] = sym.st_value + (sym.st_shndx != SHN_ABS && sym.st_shndx != st->fixed_shndx ?
				       kaslr : 0);
		t[m] = bind == STB_WEAK ? 'W' : type == STT_OBJECT ? 'D' : 'T';
		if (bind == STB_LOCAL)
			t[m] = (char)(t[m] - 'A' + 'a');
		nm[m++] = name;
	}
	if (!m) {
		free(a), free(t), free(nm);
		return -ENOENT;
	}
	*addr = a;
	*types = t;
	*names = nm;
	*n = (uint32_t)m;
	return 0;
}
