// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The libktrace target on crash's own services: readmem() for memory,
 * crash's symbol table for addresses (relocated for KASLR by crash), and
 * gdb through datatype_info() for type layouts.
 *
 * Nothing here may end the command: every crash call is used in a form
 * that returns on error (RETURN_ON_ERROR|QUIET, symbol_exists() before
 * symbol_value(), datatype_info() which answers -1 for what is absent).
 */
#include "defs.h"
#include <ktrace/target.h>
#include "ktrace-crash.h"

#define KC_TYPE_MAX 128
#define KC_CACHE_BUCKETS 256

/*
 * Answers of gdb, kept for the crash session. A type query costs crash
 * a gdb request, tens of milliseconds when the name is looked up over
 * all of vmlinux's units, and libktrace asks some questions once per
 * event (TRACE_EVENT_FL_TRACEPOINT_BIT, over a thousand times).
 */
struct answer {
	struct answer *next;
	int err;
	uint64_t a, b;
	char key[];		/* "e NAME" or "m TYPE MEMBER" */
};

static struct answer *cache[KC_CACHE_BUCKETS];

static unsigned int key_hash(const char *key)
{
	unsigned int h = 5381;

	while (*key)
		h = h * 33 + (unsigned char)*key++;
	return h % KC_CACHE_BUCKETS;
}

static struct answer *cache_find(const char *key)
{
	struct answer *a;

	for (a = cache[key_hash(key)]; a; a = a->next)
		if (!strcmp(a->key, key))
			return a;
	return NULL;
}

/* Not cached when out of memory: the next query just asks gdb again. */
static void cache_add(const char *key, int err, uint64_t va, uint64_t vb)
{
	struct answer *a = malloc(sizeof(*a) + strlen(key) + 1);
	unsigned int h = key_hash(key);

	if (!a)
		return;
	strcpy(a->key, key);
	a->err = err;
	a->a = va;
	a->b = vb;
	a->next = cache[h];
	cache[h] = a;
}

void kc_target__free(void)
{
	struct answer *a, *next;
	int i;

	for (i = 0; i < KC_CACHE_BUCKETS; i++) {
		for (a = cache[i]; a; a = next) {
			next = a->next;
			free(a);
		}
		cache[i] = NULL;
	}
}

/* crash names aggregates without their keyword: "struct foo" -> "foo" */
static const char *bare_type(const char *type)
{
	if (!strncmp(type, "struct ", 7))
		return type + 7;
	if (!strncmp(type, "union ", 6))
		return type + 6;
	return type;
}

/*
 * Why a read failed, in target.h's words. readmem() only says that it
 * failed; ask again one level down, as ktrace-extract does with
 * libkdumpfile: no translation is -EFAULT; a kdump-compressed page that
 * makedumpfile excluded is -ENODATA; in an ELF dump, a mapped page that
 * is not there was filtered out too.
 */
static int classify_failure(uint64_t kvaddr)
{
	physaddr_t paddr;
	char page[64];
	int ret;

	if (!IS_KVADDR(kvaddr) || !kvtop(CURRENT_CONTEXT(), kvaddr, &paddr, 0))
		return -EFAULT;
	if (ACTIVE())
		return -EFAULT;
	if (DISKDUMP_DUMPFILE()) {
		ret = pc->readmem(pc->dfd, page, sizeof(page), kvaddr, paddr);
		return ret == PAGE_EXCLUDED ? -ENODATA : -EFAULT;
	}
	return NETDUMP_DUMPFILE() || KDUMP_DUMPFILE() ? -ENODATA : -EFAULT;
}

static int kc_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	uint64_t at = kvaddr, end = kvaddr + len;
	char *p = buf;

	if (!len)
		return 0;
	if (end < kvaddr)
		return -EFAULT;
	if (readmem(kvaddr, KVADDR, buf, len, "ktrace", RETURN_ON_ERROR | QUIET))
		return 0;
	/* find the page that failed, to say why */
	while (at < end) {
		size_t n = MIN(end - at, PAGESIZE() - PAGEOFFSET(at));

		if (!readmem(at, KVADDR, p, n, "ktrace", RETURN_ON_ERROR | QUIET))
			return classify_failure(at);
		at += n;
		p += n;
	}
	return -EFAULT;
}

static int kc_symbol(void *priv, const char *name, uint64_t *addr)
{
	if (!symbol_exists((char *)name))
		return -ENOENT;
	*addr = symbol_value((char *)name);
	return 0;
}

/* One member, direct or inside an anonymous struct or union. */
static int member_one(const char *type, const char *member, long *off, long *size)
{
	*off = MEMBER_OFFSET((char *)type, (char *)member);
	if (*off >= 0) {
		*size = MEMBER_SIZE((char *)type, (char *)member);
	} else {
		*off = ANON_MEMBER_OFFSET((char *)type, (char *)member);
		if (*off < 0)
			return -ENOENT;
		*size = ANON_MEMBER_SIZE((char *)type, (char *)member);
	}
	/* a flexible array member: gdb says 0, or -1 on some versions */
	if (*size < 0)
		*size = 0;
	return 0;
}

/*
 * "event.type": walk the path one member at a time, each step in the type
 * of the member before (MEMBER_TYPE_NAME gives it without the keyword).
 */
static int member_path(const char *type, const char *member, uint64_t *offset,
		       uint64_t *size)
{
	char cur[KC_TYPE_MAX], path[KC_TYPE_MAX], *name, *dot;
	uint64_t total = 0;
	long off, sz;

	if (snprintf(cur, sizeof(cur), "%s", bare_type(type)) >= (int)sizeof(cur) ||
	    snprintf(path, sizeof(path), "%s", member) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (name = path;; name = dot + 1) {
		char *next;

		dot = strchr(name, '.');
		if (dot)
			*dot = '\0';
		if (member_one(cur, name, &off, &sz))
			return -ENOENT;
		total += off;
		if (!dot)
			break;
		next = MEMBER_TYPE_NAME(cur, name);
		if (!next || !*next ||
		    snprintf(cur, sizeof(cur), "%s", bare_type(next)) >= (int)sizeof(cur))
			return -ENOENT;
	}
	*offset = total;
	*size = sz;
	return 0;
}

static int kc_member(void *priv, const char *type, const char *member, uint64_t *offset,
		     uint64_t *size)
{
	char key[2 * KC_TYPE_MAX + 4];
	struct answer *a;
	int err;

	if (snprintf(key, sizeof(key), "m %s %s", type, member) >= (int)sizeof(key))
		return -ENAMETOOLONG;
	a = cache_find(key);
	if (!a) {
		err = member_path(type, member, offset, size);
		cache_add(key, err, err ? 0 : *offset, err ? 0 : *size);
		return err;
	}
	*offset = a->a;
	*size = a->b;
	return a->err;
}

static int kc_type_size(void *priv, const char *type, uint64_t *size)
{
	long sz = STRUCT_SIZE((char *)bare_type(type));

	if (sz < 0)
		return -ENOENT;
	*size = sz;
	return 0;
}

static int kc_enumerator(void *priv, const char *name, int64_t *value)
{
	char key[KC_TYPE_MAX + 2];
	struct answer *a;
	long v;

	if (snprintf(key, sizeof(key), "e %s", name) >= (int)sizeof(key))
		return -ENAMETOOLONG;
	a = cache_find(key);
	if (!a) {
		if (!enumerator_value((char *)name, &v)) {
			cache_add(key, -ENOENT, 0, 0);
			return -ENOENT;
		}
		cache_add(key, 0, (uint64_t)v, 0);
		*value = v;
		return 0;
	}
	*value = (int64_t)a->a;
	return a->err;
}

void kc_target__init(struct kt_target *t)
{
	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	t->read = kc_read;
	t->symbol = kc_symbol;
	t->member = kc_member;
	t->type_size = kc_type_size;
	t->enumerator = kc_enumerator;
	/* crash's machine: the dump's page size; big-endian where crash runs on one */
	t->page_size = (uint32_t)PAGESIZE();
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	t->flags |= KT_TARGET_BIG_ENDIAN;
#endif
}
