// SPDX-License-Identifier: LGPL-2.1-or-later
/* The vmlinux's DWARF and .symtab as a type and symbol source (vmsrc.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ktrace/ktrace.h>
#include "msg.h"
#include "symbols.h"
#include "types/dwarf.h"
#include "types/vmsrc.h"

int kx_vmsrc__open(const char *path, FILE *log, struct kx_vmsrc **out, char *msg,
		   size_t msglen)
{
	struct kx_vmsrc *v = calloc(1, sizeof(*v));
	int ret;

	if (!v)
		return -ENOMEM;
	v->vml.fd = -1;
	ret = kx_vmlinux__open(&v->vml, path, msg, msglen);
	if (ret)
		goto fail;
	ret = kx_symtab__load(v->vml.elf, &v->symtab);
	if (ret) {
		kx_set_msg(msg, msglen, "vmlinux %s: %s", v->vml.path,
			   ret == -ENOENT ? "no symbol table (.symtab)" : strerror(-ret));
		goto fail;
	}
	kx_vmlinux__read_release(&v->vml, v->symtab);
	ret = kx_types__open(v->vml.elf, v->vml.fd, v->symtab, log, &v->types);
	if (ret) {
		kx_set_msg(msg, msglen, "vmlinux %s: %s", v->vml.path,
			   ret == -ENOENT ? "no DWARF (.debug_info); install the "
					    "kernel's debug package" :
					    strerror(-ret));
		goto fail;
	}
	*out = v;
	return 0;
fail:
	kx_vmsrc__free(v);
	return ret;
}

void kx_vmsrc__free(struct kx_vmsrc *v)
{
	if (!v)
		return;
	kx_types__close(v->types);
	kx_symtab__free(v->symtab);
	kx_vmlinux__close(&v->vml);
	free(v);
}

/* memory: the dump's */
static int src_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_vmsrc *v = priv;

	return v->mem.read(v->mem.priv, kvaddr, buf, len);
}

static int src_read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len,
			   void *buf, unsigned char *ok)
{
	struct kx_vmsrc *v = priv;

	return v->mem.read_blocks(v->mem.priv, kvaddrs, n, len, buf, ok);
}

static int src_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct kx_vmsrc *v = priv;
	int reloc, ret;

	ret = kx_symtab__lookup(v->symtab, name, addr, &reloc);
	if (ret)
		return ret;
	if (reloc)
		*addr += v->kaslr_offset;
	return 0;
}

static int src_member(void *priv, const char *type, const char *member, uint64_t *offset,
		      uint64_t *size)
{
	struct kx_vmsrc *v = priv;

	return kx_types__member(v->types, type, member, offset, size);
}

static int src_type_size(void *priv, const char *type, uint64_t *size)
{
	struct kx_vmsrc *v = priv;

	return kx_types__size(v->types, type, size);
}

static int src_enumerator(void *priv, const char *name, int64_t *value)
{
	struct kx_vmsrc *v = priv;

	return kx_types__enumerator(v->types, name, value);
}

static int src_enumerator_at(void *priv, const char *name, uint64_t code, int64_t *value)
{
	struct kx_vmsrc *v = priv;

	return kx_types__enumerator_at(v->types, name, code - v->kaslr_offset, value);
}

void kx_vmsrc__target(struct kx_vmsrc *v, const struct kt_target *mem, struct kt_target *t)
{
	v->mem = *mem;
	*t = *mem;
	t->priv = v;
	t->read = src_read;
	t->read_blocks = mem->read_blocks ? src_read_blocks : NULL;
	t->symbol = src_symbol;
	/* the vmlinux's .symtab: the dump's kallsyms names are asked of it */
	t->flags |= KT_TARGET_SYMTAB;
	t->member = src_member;
	t->type_size = src_type_size;
	t->enumerator = src_enumerator;
	t->enumerator_at = src_enumerator_at;
}

struct kt_kallsyms *kx_vmsrc__kallsyms_else(void *ctx, const char *why)
{
	struct kx_vmsrc *v = ctx;
	struct kt_kallsyms *k;
	struct kt_target t;
	const char **names;
	uint64_t *addr;
	char *types;
	uint32_t n;

	(void)why;
	if (kx_symtab__list(v->symtab, v->kaslr_offset, &addr, &types, &names, &n))
		return NULL;
	kx_vmsrc__target(v, &v->mem, &t);
	k = kt_kallsyms__from_list(&t, n, addr, types, names);
	free(addr);
	free(types);
	free(names);
	return k;
}
