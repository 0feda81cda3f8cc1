// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbols of loaded modules, from the dump: every struct module on the
 * modules list (kernel/module/main.c, kernel/module.c before 6.0) has its
 * ELF symbol table in mod->kallsyms (struct mod_kallsyms: symtab,
 * num_symtab, strtab). Read once on the first address that vmlinux's
 * kallsyms cannot name; names are read when first asked for.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define KT_MAX_MODULES		4096
#define KT_MAX_MOD_SYMS		(1u << 20)
#define ELF64_SYM_SIZE		24
#define SHN_UNDEF		0

struct mod_sym {
	uint64_t value, size;
	uint64_t name_addr;	/* strtab + st_name */
	char *name;		/* read on first use */
	uint32_t module;	/* index into kt_modsyms.names */
};

#define MODULE_NAME_LEN	56

struct kt_modsyms {
	struct mod_sym *syms;
	size_t n, cap;
	char (*names)[MODULE_NAME_LEN + 1];
	uint32_t nr_names;
};

void kt_modsyms__free(struct kt_modsyms *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->syms[i].name);
	free(m->syms);
	free(m->names);
	free(m);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct mod_sym *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* one module's defined, sized symbols into @m */
static int load_module(struct kt_session *s, struct kt_modsyms *m, uint64_t mod)
{
	const struct kt_layout *l = &s->l;
	uint64_t ks, tab, cnt, str, i;
	char (*names)[MODULE_NAME_LEN + 1];
	uint8_t *raw;

	names = realloc(m->names, (m->nr_names + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	m->names = names;
	memset(names[m->nr_names], 0, sizeof(names[0]));
	if (kt_read(s, mod + l->mod_name.off, names[m->nr_names],
		    l->mod_name.size < MODULE_NAME_LEN ? l->mod_name.size : MODULE_NAME_LEN))
		strcpy(names[m->nr_names], "?");
	m->nr_names++;

	if (kt_read_member(s, mod, &l->mod_kallsyms, &ks) || !ks ||
	    kt_read_member(s, ks, &l->mks_symtab, &tab) ||
	    kt_read_member(s, ks, &l->mks_num, &cnt) ||
	    kt_read_member(s, ks, &l->mks_strtab, &str))
		return -EFAULT;
	if (!cnt || cnt > KT_MAX_MOD_SYMS)
		return cnt ? -EBADMSG : 0;
	raw = malloc(cnt * ELF64_SYM_SIZE);
	if (!raw)
		return -ENOMEM;
	if (kt_read(s, tab, raw, cnt * ELF64_SYM_SIZE)) {
		free(raw);
		return -EFAULT;
	}
	for (i = 0; i < cnt; i++) {
		const uint8_t *e = raw + i * ELF64_SYM_SIZE;
		/* Elf64_Sym in the kernel's byte order */
		uint16_t shndx = kt_get16(s->l.be, e + 6);
		uint64_t value = kt_get64(s->l.be, e + 8), size = kt_get64(s->l.be, e + 16);

		if (shndx == SHN_UNDEF || !value || !size || !kt_get32(s->l.be, e))
			continue;
		if (m->n == m->cap) {
			size_t cap = m->cap ? m->cap * 2 : 1024;
			struct mod_sym *n = realloc(m->syms, cap * sizeof(*n));

			if (!n) {
				free(raw);
				return -ENOMEM;
			}
			m->syms = n;
			m->cap = cap;
		}
		m->syms[m->n++] = (struct mod_sym){ value, size, str + kt_get32(s->l.be, e), NULL,
						    m->nr_names - 1 };
	}
	free(raw);
	return 0;
}

static struct kt_modsyms *modsyms(struct kt_session *s)
{
	const struct kt_layout *l = &s->l;
	struct kt_modsyms *m;
	struct kt_seen seen = { 0 };
	uint64_t head, pos;
	int n = 0;

	if (s->modsyms_tried)
		return s->modsyms;
	s->modsyms_tried = true;
	if (kt_symbol(s, "modules", &head) || !l->mod_list.present || !l->mod_name.present ||
	    !l->mod_kallsyms.present || !l->mks_symtab.present || !l->mks_num.present ||
	    !l->mks_strtab.present)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (kt_read_u64(s, head + s->l.lh_next.off, &pos))
		pos = head;
	while (pos != head && ++n <= KT_MAX_MODULES) {
		uint64_t mod = pos - l->mod_list.off;

		if (kt_seen__add(&seen, pos))
			break;
		if (load_module(s, m, mod) == -ENOMEM)
			break;
		if (kt_read_u64(s, pos + s->l.lh_next.off, &pos))
			break;
	}
	kt_seen__free(&seen);
	if (m->n)	/* qsort(NULL, 0, ...) is undefined: no module had symbols */
		qsort(m->syms, m->n, sizeof(*m->syms), cmp_sym);
	s->modsyms = m;
	return m;
}

/*
 * The module symbol whose [value, value + st_size) holds @addr, or NULL;
 * its size as the kernel reports it: up to the module's next symbol.
 */
const char *kt_modsyms__lookup(struct kt_session *s, uint64_t addr, uint64_t *start,
			       uint64_t *size, const char **module)
{
	struct kt_modsyms *m = modsyms(s);
	size_t lo = 0, hi, nx;
	struct mod_sym *e;

	if (!m || !m->n || addr < m->syms[0].value)
		return NULL;
	hi = m->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].value <= addr)
			lo = mid;
		else
			hi = mid;
	}
	e = &m->syms[lo];
	if (addr - e->value >= e->size)
		return NULL;
	/* the name is read on first use; worker threads may ask at once (jobs.c) */
	kt_lock(s);
	if (!e->name && kt_read_string(s, e->name_addr, 512, &e->name)) {
		kt_unlock(s);
		return NULL;
	}
	kt_unlock(s);
	*start = e->value;
	*size = e->size;
	for (nx = lo + 1; nx < m->n; nx++) {
		if (m->syms[nx].module == e->module && m->syms[nx].value > e->value) {
			*size = m->syms[nx].value - e->value;
			break;
		}
	}
	*module = m->names[e->module];
	return e->name;
}

/*
 * Symbol @name of module @module (NULL: the first module that has it).
 * Only the names of that module's symbols are read from the dump.
 */
int kt_modsyms__find(struct kt_session *s, const char *module, const char *name,
		     uint64_t *addr, uint64_t *size)
{
	struct kt_modsyms *m = modsyms(s);
	size_t i;

	if (!m)
		return -ENOENT;
	for (i = 0; i < m->n; i++) {
		struct mod_sym *e = &m->syms[i];

		if (module && strcmp(m->names[e->module], module))
			continue;
		if (!e->name && kt_read_string(s, e->name_addr, 512, &e->name))
			continue;
		if (strcmp(e->name, name))
			continue;
		*addr = e->value;
		*size = e->size;
		return 0;
	}
	return -ENOENT;
}
