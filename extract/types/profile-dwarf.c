// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile's answers from the vmlinux DWARF: the same symbol table and
 * type resolver the extractor uses with -x, so a profile answers exactly
 * as the DWARF target would.
 */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libkdumpfile/kdumpfile.h>

#include "profile-private.h"
#include "../symbols.h"
#include "dwarf.h"
#include "../vmlinux.h"

struct dwarf_src {
	struct kx_vmlinux vml;
	struct kx_symtab *symtab;
	struct kx_types *types;
};

static int d_symbol(void *priv, const char *name, uint64_t *addr, int *reloc)
{
	struct dwarf_src *ds = priv;

	return kx_symtab__lookup(ds->symtab, name, addr, reloc);
}

static int d_member(void *priv, const char *type, const char *member,
		    uint64_t *offset, uint64_t *size)
{
	struct dwarf_src *ds = priv;

	return kx_types__member(ds->types, type, member, offset, size);
}

static int d_type_size(void *priv, const char *type, uint64_t *size)
{
	struct dwarf_src *ds = priv;

	return kx_types__size(ds->types, type, size);
}

static int d_enumerator(void *priv, const char *name, int64_t *value)
{
	struct dwarf_src *ds = priv;

	return kx_types__enumerator(ds->types, name, value);
}

/*
 * Every enumerator of an enumeration type at the top of a unit: where
 * the type resolver indexes them, so it finds each name asked again.
 * The resolver walks them through its own handle on all units, which
 * gives back the pages behind it (a second handle on the whole file
 * here made all of .debug_info resident).
 */
static int d_enumerators(void *priv, int (*cb)(void *arg, const char *name),
			 void *arg)
{
	struct dwarf_src *ds = priv;

	return kx_types__enumerators(ds->types, cb, arg);
}

static void d_close(void *priv)
{
	struct dwarf_src *ds = priv;

	if (!ds)
		return;
	kx_types__close(ds->types);
	kx_symtab__free(ds->symtab);
	kx_vmlinux__close(&ds->vml);
	free(ds);
}

static const char *elf_arch(Elf *elf)
{
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(elf, &ehdr))
		return "";
	switch (ehdr.e_machine) {
	case EM_X86_64: return KDUMP_ARCH_X86_64;
	case EM_AARCH64: return KDUMP_ARCH_AARCH64;
	case EM_386: return KDUMP_ARCH_IA32;
	case EM_PPC64: return KDUMP_ARCH_PPC64;
	case EM_S390: return KDUMP_ARCH_S390X;
	case EM_ARM: return KDUMP_ARCH_ARM;
	}
	return "";
}

int kx_psource__dwarf(struct kx_psource *src, const char *vmlinux, int verbose,
		      char *msg, size_t msglen)
{
	struct dwarf_src *ds = calloc(1, sizeof(*ds));
	int ret;

	if (!ds)
		return -ENOMEM;
	ds->vml.fd = -1;
	ret = kx_vmlinux__open(&ds->vml, vmlinux, msg, msglen);
	if (ret)
		goto out;
	ret = kx_symtab__load(ds->vml.elf, &ds->symtab);
	if (ret) {
		snprintf(msg, msglen, "vmlinux %s: %s", vmlinux,
			 ret == -ENOENT ? "no symbol table (.symtab)" : strerror(-ret));
		goto out;
	}
	kx_vmlinux__read_release(&ds->vml, ds->symtab);
	ret = kx_types__open(ds->vml.elf, ds->vml.fd, ds->symtab,
			     verbose ? stderr : NULL, &ds->types);
	if (ret) {
		snprintf(msg, msglen, "vmlinux %s: %s", vmlinux,
			 ret == -ENOENT ? "no DWARF (.debug_info)" : strerror(-ret));
		goto out;
	}
	if (!ds->vml.release[0]) {
		snprintf(msg, msglen,
			 "vmlinux %s: no release in linux_banner (a separate debug "
			 "file?); give the vmlinux itself", vmlinux);
		ret = -EINVAL;
		goto out;
	}
	memset(src, 0, sizeof(*src));
	src->priv = ds;
	src->symbol = d_symbol;
	src->member = d_member;
	src->type_size = d_type_size;
	src->enumerator = d_enumerator;
	src->enumerators = d_enumerators;
	src->close = d_close;
	snprintf(src->release, sizeof(src->release), "%s", ds->vml.release);
	snprintf(src->build_id, sizeof(src->build_id), "%s", ds->vml.build_id);
	snprintf(src->arch, sizeof(src->arch), "%s", elf_arch(ds->vml.elf));
	snprintf(src->source, sizeof(src->source), "dwarf %s", vmlinux);
	return 0;
out:
	d_close(ds);
	return ret;
}
