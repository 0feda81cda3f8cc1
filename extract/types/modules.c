// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Types of modules built out of tree, from their .ko files' DWARF.
 *
 * A .ko is a relocatable object: its .debug_info refers to .debug_str
 * (and the rest) through relocations that only a linker, or libdwfl's
 * offline reporting, applies; dwarf_begin_elf() on the file would read
 * every name as the first string of .debug_str. So each .ko is reported
 * to one offline Dwfl, and its relocated Dwarf indexed whole (a module is
 * a few units, not vmlinux's thousands).
 */
#include <dirent.h>
#include <libgen.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "modules.h"
#include "dwarf-index.h"

struct kx_modtypes {
	Dwfl *dwfl;
	struct kx_dindex index;
	struct kt_target inner;
	int nr_modules;
	int err;
};

struct index_arg {
	struct kx_modtypes *m;
	FILE *log;
	int unused;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

static int index_module(struct kx_modtypes *m, Dwfl_Module *mod, FILE *log, const char *path)
{
	Dwarf_Off off = 0, next;
	Dwarf_Addr bias;
	size_t hsize;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	int ret, units = 0;

	if (!dw) {
		if (log)
			fprintf(log, "modtypes: %s: no DWARF (%s)\n", path, dwfl_errmsg(-1));
		return 0;
	}
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cudie;

		if (dwarf_offdie(dw, off + hsize, &cudie)) {
			ret = kx_dindex__add_cu(&m->index, &cudie);
			if (ret)
				return ret;
			units++;
		}
		off = next;
	}
	if (log)
		fprintf(log, "modtypes: %s: %d units\n", path, units);
	m->nr_modules += units > 0;
	return 0;
}

static int index_one(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		     void *arg)
{
	struct index_arg *a = arg;
	const char *path = NULL;

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, &path, NULL);
	a->m->err = index_module(a->m, mod, a->log, path ? path : name);
	return a->m->err ? DWARF_CB_ABORT : DWARF_CB_OK;
}

int kx_modtypes__open(const char *dir, FILE *log, struct kx_modtypes **out)
{
	struct kx_modtypes *m;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	*out = NULL;
	d = opendir(dir);
	if (!d)
		return -errno;
	m = calloc(1, sizeof(*m));
	if (!m || kx_dindex__init(&m->index)) {
		free(m);
		closedir(d);
		return -ENOMEM;
	}
	m->dwfl = dwfl_begin(&offline_callbacks);
	if (!m->dwfl) {
		ret = -ENOMEM;
		goto out;
	}
	while ((de = readdir(d))) {
		char *path;

		if (!ends_with(de->d_name, ".ko"))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			ret = -ENOMEM;
			goto out;
		}
		if (!dwfl_report_offline(m->dwfl, de->d_name, path, -1) && log)
			fprintf(log, "modtypes: %s: %s\n", path, dwfl_errmsg(-1));
		free(path);
	}
	dwfl_report_end(m->dwfl, NULL, NULL);
	ret = dwfl_getmodules(m->dwfl, index_one, &(struct index_arg){ m, log, 0 }, 0) < 0 ?
		-EIO : 0;
	if (!ret)
		ret = m->err;
	if (ret)
		goto out;
	if (m->nr_modules) {
		*out = m;
		m = NULL;
	}
out:
	closedir(d);
	kx_modtypes__close(m);
	return ret;
}

void kx_modtypes__close(struct kx_modtypes *m)
{
	if (!m)
		return;
	kx_dindex__fini(&m->index);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m);
}

/* "struct foo" -> the DIE of foo in the modules */
static int find_type(struct kx_modtypes *m, const char *type, Dwarf_Die *die)
{
	if (!strncmp(type, "struct ", 7))
		return kx_dindex__find(&m->index, KX_DSTRUCT, type + 7, die);
	if (!strncmp(type, "union ", 6))
		return kx_dindex__find(&m->index, KX_DUNION, type + 6, die);
	return kx_dindex__find(&m->index, KX_DTYPEDEF, type, die);
}

/*
 * A type declared in the module's own sources, not in a kernel header
 * (include/...): the kernel cannot know it, so it is not asked first (a
 * name the vmlinux resolver knows no file for costs it a read of every
 * unit, a second on a distribution kernel).
 */
static bool own_type(Dwarf_Die *die)
{
	const char *file = dwarf_decl_file(die);

	return file && !strstr(file, "/include/");
}

static int wrap_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_modtypes *m = priv;

	return m->inner.read(m->inner.priv, kvaddr, buf, len);
}

static int wrap_read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len,
			    void *buf, unsigned char *ok)
{
	struct kx_modtypes *m = priv;

	return m->inner.read_blocks(m->inner.priv, kvaddrs, n, len, buf, ok);
}

static int wrap_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct kx_modtypes *m = priv;

	return m->inner.symbol(m->inner.priv, name, addr);
}

static int wrap_member(void *priv, const char *type, const char *member, uint64_t *offset,
		       uint64_t *size)
{
	struct kx_modtypes *m = priv;
	Dwarf_Die die;
	int ret;

	if (!find_type(m, type, &die) && own_type(&die))
		return kx_dwarf_member(&die, member, offset, size);
	ret = m->inner.member(m->inner.priv, type, member, offset, size);
	if (ret != -ENOENT || find_type(m, type, &die))
		return ret;
	return kx_dwarf_member(&die, member, offset, size);
}

static int wrap_type_size(void *priv, const char *type, uint64_t *size)
{
	struct kx_modtypes *m = priv;
	Dwarf_Die die;
	int ret;

	if (!find_type(m, type, &die) && own_type(&die))
		return kx_dwarf_type_size(&die, size);
	ret = m->inner.type_size(m->inner.priv, type, size);
	if (ret != -ENOENT || find_type(m, type, &die))
		return ret;
	return kx_dwarf_type_size(&die, size);
}

static int wrap_enumerator(void *priv, const char *name, int64_t *value)
{
	struct kx_modtypes *m = priv;

	return m->inner.enumerator(m->inner.priv, name, value);
}

static int wrap_enumerator_at(void *priv, const char *name, uint64_t code, int64_t *value)
{
	struct kx_modtypes *m = priv;

	return m->inner.enumerator_at(m->inner.priv, name, code, value);
}

void kx_modtypes__wrap(struct kx_modtypes *m, struct kt_target *t)
{
	m->inner = *t;
	t->priv = m;
	t->read = wrap_read;
	t->read_blocks = m->inner.read_blocks ? wrap_read_blocks : NULL;
	t->symbol = wrap_symbol;
	t->member = wrap_member;
	t->type_size = wrap_type_size;
	t->enumerator = m->inner.enumerator ? wrap_enumerator : NULL;
	t->enumerator_at = m->inner.enumerator_at ? wrap_enumerator_at : NULL;
}

struct kx_modtypes *kx_modtypes__attach(const char *dir, const char *vmlinux, FILE *log,
					struct kt_target *t)
{
	struct kx_modtypes *m = NULL;
	char *copy = NULL;
	const char *where = dir;
	int err;

	if (!where && vmlinux) {
		copy = strdup(vmlinux);
		where = copy ? dirname(copy) : NULL;
	}
	if (!where)
		return NULL;
	err = kx_modtypes__open(where, log, &m);
	if (err && dir)
		fprintf(stderr, "ktrace-extract: --module-debuginfo %s: %s\n", dir, strerror(-err));
	else if (!m && dir)
		fprintf(stderr, "ktrace-extract: --module-debuginfo %s: no .ko with DWARF there\n",
			dir);
	free(copy);
	if (m)
		kx_modtypes__wrap(m, t);
	return m;
}
