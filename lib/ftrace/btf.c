// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Function arguments as the kernel prints them (6.15+,
 * CONFIG_FUNCTION_TRACE_ARGS): with option func-args the function
 * tracer's records, with funcgraph-args function_graph's entries, carry
 * the function's argument registers after their fixed fields, and
 * print_function_args() (kernel/trace/trace_output.c) prints them by the
 * function's prototype in the kernel's own BTF: "(name=value, ...)".
 *
 * The BTF is the kernel's .BTF section, __start_BTF..__stop_BTF, read
 * once through the target (the same bytes /sys/kernel/btf/vmlinux had),
 * so this needs no DWARF and works for crash and ktrace-extract alike.
 * It is in the kernel's byte order (big-endian on s390x; its magic says
 * which), and so are the argument registers of the record.
 * The print is 7.2's (Debian's linux-source-7.2): a pointer "0x%lx", an
 * integer "%ld" when BTF_INT_SIGNED else "0x%lx" (bool and char too), an
 * enum "%ld" and " [NAME]" when an enumerator has that value, void or an
 * unknown type "?0x%lx", anything else "(KIND)[0x%lx" with one more
 * ":0x%lx" per long of its size, "..." past FTRACE_REGS_MAX_ARGS. A
 * function missing from vmlinux's BTF prints "()", as the kernel's
 * btf_find_func_proto() fails, unless it is a module's: the kernel then
 * finds it in the module's own BTF, which is not read here, so the caller
 * counts that record as not rendered, as it does when the BTF is unreadable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "render.h"

#define BTF_MAGIC	0xeb9f
#define BTF_MAX_SIZE	(64u << 20)	/* vmlinux BTF is 5-8 MiB */

enum {
	BK_UNKN, BK_INT, BK_PTR, BK_ARRAY, BK_STRUCT, BK_UNION, BK_ENUM, BK_FWD, BK_TYPEDEF,
	BK_VOLATILE, BK_CONST, BK_RESTRICT, BK_FUNC, BK_FUNC_PROTO, BK_VAR, BK_DATASEC,
	BK_FLOAT, BK_DECL_TAG, BK_TYPE_TAG, BK_ENUM64,
};

struct btf_func {
	const char *name;
	uint32_t id;
};

struct kt_btf {
	uint8_t *data;
	const uint8_t *types;
	uint32_t types_len;
	const char *strs;
	uint32_t strs_len;
	uint32_t *off;		/* off[id]: type id's offset in types; id 0 is void */
	uint32_t nr;
	struct btf_func *funcs;	/* BTF_KIND_FUNC by name, then id */
	uint32_t nr_funcs;
	bool be;		/* its byte order, the kernel's: told by the magic */
};

/* btf_kind_str[] of kernel/bpf/btf.c (btf_type_str()) */
static const char *const kind_str[] = {
	"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD", "TYPEDEF",
	"VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC", "FLOAT",
	"DECL_TAG", "TYPE_TAG", "ENUM64",
};

static uint32_t kind_of(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

/* a word of the BTF, in its byte order */
static uint32_t u32(const struct kt_btf *b, const uint8_t *p)
{
	return kt_get32(b->be, p);
}

/* bytes of the type record at @p (its struct btf_type and what follows), 0: unknown kind */
static uint32_t type_len(const struct kt_btf *b, const uint8_t *p)
{
	uint32_t info = u32(b, p + 4), vlen = info & 0xffff;

	switch (kind_of(info)) {
	case BK_INT: case BK_VAR: case BK_DECL_TAG:
		return 12 + 4;
	case BK_PTR: case BK_FWD: case BK_TYPEDEF: case BK_VOLATILE: case BK_CONST:
	case BK_RESTRICT: case BK_FUNC: case BK_FLOAT: case BK_TYPE_TAG:
		return 12;
	case BK_ARRAY:
		return 12 + 12;
	case BK_STRUCT: case BK_UNION: case BK_DATASEC: case BK_ENUM64:
		return 12 + 12 * vlen;
	case BK_ENUM: case BK_FUNC_PROTO:
		return 12 + 8 * vlen;
	}
	return 0;
}

static const char *str_at(const struct kt_btf *b, uint32_t off)
{
	if (off >= b->strs_len || !memchr(b->strs + off, 0, b->strs_len - off))
		return NULL;
	return b->strs + off;
}

/* the record of type @id, NULL beyond the table; void (id 0) has none */
static const uint8_t *type_at(const struct kt_btf *b, uint32_t id)
{
	return id && id < b->nr ? b->types + b->off[id] : NULL;
}

static int cmp_func(const void *x, const void *y)
{
	const struct btf_func *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

void kt_btf__destroy(struct kt_btf *b)
{
	if (!b)
		return;
	free(b->data);
	free(b->off);
	free(b->funcs);
	free(b);
}

static int btf_load(struct kt_session *s, struct kt_btf **out)
{
	uint64_t start, stop;
	uint8_t *data;
	size_t size;
	int err;

	if (kt_symbol(s, "__start_BTF", &start) || kt_symbol(s, "__stop_BTF", &stop))
		return kt_err(-ENOENT, "the kernel's BTF (__start_BTF, __stop_BTF) is not known");
	if (stop <= start + 24 || stop - start > BTF_MAX_SIZE)
		return kt_err(-EINVAL, "the kernel's BTF at 0x%llx has an implausible size (%llu bytes)",
			      (unsigned long long)start, (unsigned long long)(stop - start));
	size = (size_t)(stop - start);
	data = malloc(size);
	if (!data)
		return kt_err(-ENOMEM, "no memory for the kernel's BTF (%zu bytes)", size);
	err = kt_read(s, start, data, size);
	if (err) {
		free(data);
		return kt_err(err, "cannot read the kernel's BTF (%zu bytes at 0x%llx)", size,
			      (unsigned long long)start);
	}
	return kt_btf__parse(data, size, out);
}

int kt_btf__parse(uint8_t *data, size_t size, struct kt_btf **out)
{
	uint32_t hdr_len, type_off, str_off, pos, n, cap = 0;
	struct kt_btf *b;
	int err;

	b = calloc(1, sizeof(*b));
	if (!b) {
		free(data);
		return kt_err(-ENOMEM, "no memory for the kernel's BTF");
	}
	b->data = data;
	if (size < 24) {
		kt_btf__destroy(b);
		return kt_err(-EINVAL, "the kernel's BTF is damaged (%zu bytes)", size);
	}
	/* the magic in the kernel's byte order: 9f eb little-endian, eb 9f big-endian (s390x) */
	b->be = (b->data[0] << 8 | b->data[1]) == BTF_MAGIC;
	hdr_len = u32(b, b->data + 4);
	type_off = u32(b, b->data + 8);
	b->types_len = u32(b, b->data + 12);
	str_off = u32(b, b->data + 16);
	b->strs_len = u32(b, b->data + 20);
	if (kt_get16(b->be, b->data) != BTF_MAGIC || hdr_len < 24 || hdr_len > size ||
	    type_off > size - hdr_len || b->types_len > size - hdr_len - type_off ||
	    str_off > size - hdr_len || b->strs_len > size - hdr_len - str_off || !b->strs_len) {
		kt_btf__destroy(b);
		return kt_err(-EINVAL, "the kernel's BTF is damaged (its header)");
	}
	b->types = b->data + hdr_len + type_off;
	b->strs = (const char *)b->data + hdr_len + str_off;
	/* index every type: its offset by id, and the functions by name */
	for (pos = 0, n = 1;; n++) {
		uint32_t len;

		if (n >= cap) {
			uint32_t *o = realloc(b->off, (cap = cap ? cap * 2 : 65536) * sizeof(*o));

			if (!o)
				goto nomem;
			b->off = o;
		}
		b->off[n] = pos;
		if (pos == b->types_len)
			break;
		if (b->types_len - pos < 12 || !(len = type_len(b, b->types + pos)) ||
		    len > b->types_len - pos) {
			err = kt_err(-EINVAL, "the kernel's BTF is damaged, or has a kind ktrace "
					      "does not know, at type %u", n);
			kt_btf__destroy(b);
			return err;
		}
		if (kind_of(u32(b, b->types + pos + 4)) == BK_FUNC)
			b->nr_funcs++;
		pos += len;
	}
	b->nr = n;
	b->funcs = calloc(b->nr_funcs ? b->nr_funcs : 1, sizeof(*b->funcs));
	if (!b->funcs)
		goto nomem;
	b->nr_funcs = 0;
	for (n = 1; n < b->nr; n++) {
		const uint8_t *t = type_at(b, n);
		const char *name;

		if (kind_of(u32(b, t + 4)) != BK_FUNC || !(name = str_at(b, u32(b, t))) || !*name)
			continue;
		b->funcs[b->nr_funcs].name = name;
		b->funcs[b->nr_funcs++].id = n;
	}
	if (b->nr_funcs)
		qsort(b->funcs, b->nr_funcs, sizeof(*b->funcs), cmp_func);
	*out = b;
	return 0;
nomem:
	kt_btf__destroy(b);
	return kt_err(-ENOMEM, "no memory to index the kernel's BTF");
}

/* btf_find_by_name_kind(..., BTF_KIND_FUNC): the first function of that name */
static uint32_t find_func(const struct kt_btf *b, const char *name)
{
	uint32_t lo = 0, hi = b->nr_funcs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (strcmp(b->funcs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->nr_funcs && !strcmp(b->funcs[lo].name, name) ? b->funcs[lo].id : 0;
}

/* btf_type_skip_modifiers(): typedefs and qualifiers skipped; NULL for void or a bad id */
static const uint8_t *skip_modifiers(const struct kt_btf *b, uint32_t id)
{
	const uint8_t *t = type_at(b, id);
	int i;

	for (i = 0; t && i < 64; i++) {
		switch (kind_of(u32(b, t + 4))) {
		case BK_TYPEDEF: case BK_VOLATILE: case BK_CONST: case BK_RESTRICT: case BK_TYPE_TAG:
			t = type_at(b, u32(b, t + 8));
			continue;
		}
		return t;
	}
	return NULL;
}

static struct kt_btf *session_btf(struct kt_session *s)
{
	kt_lock(s);
	if (!s->btf_tried) {
		s->btf_tried = true;
		if (btf_load(s, &s->btf))
			kt_warn(s, "function arguments (options func-args, funcgraph-args) are not "
				   "printed: %s", kt_last_error());
	}
	kt_unlock(s);
	return s->btf;
}

void kt_btf__free(struct kt_session *s)
{
	kt_btf__destroy(s->btf);
	s->btf = NULL;
}

int kt_btf__func_args(struct kt_session *s, uint64_t func, const uint8_t *args, uint32_t nargs,
		      struct trace_seq *q)
{
	const struct kt_btf *b = session_btf(s);
	uint64_t start, size;
	const char *name, *mod;

	if (!b)
		return -EOPNOTSUPP;
	name = kt_symbol_lookup(s, func, &start, &size, &mod);
	return kt_btf__print(b, name, mod != NULL, args, nargs, q);
}

int kt_btf__print(const struct kt_btf *b, const char *name, bool in_module, const uint8_t *args,
		  uint32_t nargs, struct trace_seq *q)
{
	const uint8_t *fn, *proto, *p;
	unsigned int len0 = q->len;
	const char *pname;
	uint32_t nr, i, a, id;

	trace_seq_putc(q, '(');
	if (!name)		/* lookup_symbol_name() failed: "()" */
		goto out;
	id = find_func(b, name);
	if (!id) {
		/* the kernel then looks through the modules' BTF: not read here */
		if (in_module)
			goto bad;
		goto out;
	}
	fn = type_at(b, id);
	proto = type_at(b, u32(b, fn + 8));
	if (!proto || kind_of(u32(b, proto + 4)) != BK_FUNC_PROTO)
		goto out;
	nr = u32(b, proto + 4) & 0xffff;
	p = proto + 12;
	/* a: the argument register, i: the parameter (a struct takes several) */
	for (a = 0, i = 0; i < nr; a++, i++, p += 8) {
		const uint8_t *t;
		uint64_t arg;

		if (i)
			trace_seq_puts(q, ", ");
		if (a == nargs) {	/* FTRACE_REGS_MAX_ARGS */
			trace_seq_puts(q, "...");
			break;
		}
		arg = kt_get64(b->be, args + 8 * a);
		pname = str_at(b, u32(b, p));
		if (pname)
			trace_seq_printf(q, "%s=", pname);
		t = skip_modifiers(b, u32(b, p + 4));
		switch (t ? kind_of(u32(b, t + 4)) : BK_UNKN) {
		case BK_UNKN:
			trace_seq_putc(q, '?');
			/* the value still printed */
			__attribute__((fallthrough));
		case BK_PTR:
			trace_seq_printf(q, "0x%llx", (unsigned long long)arg);
			break;
		case BK_INT:
			/* BTF_INT_ENCODING(): BTF_INT_SIGNED is bit 0 of bits 24-27 */
			if ((u32(b, t + 12) >> 24) & 1)
				trace_seq_printf(q, "%lld", (long long)arg);
			else
				trace_seq_printf(q, "0x%llx", (unsigned long long)arg);
			break;
		case BK_ENUM: {
			uint32_t k, vlen = u32(b, t + 4) & 0xffff;

			trace_seq_printf(q, "%lld", (long long)arg);
			for (k = 0; k < vlen; k++) {
				const uint8_t *e = t + 12 + 8 * k;
				const char *ename;

				/* arg == enums[i].val: an unsigned long and an s32 */
				if ((uint64_t)(int64_t)(int32_t)u32(b, e + 4) != arg)
					continue;
				ename = str_at(b, u32(b, e));
				trace_seq_printf(q, " [%s]", ename ? ename : "(null)");
				break;
			}
			break;
		}
		default: {
			/* "This does not handle complex arguments": t->size read as the size */
			uint64_t x, tsize = u32(b, t + 8);

			trace_seq_printf(q, "(%s)[0x%llx", kind_str[kind_of(u32(b, t + 4))],
					 (unsigned long long)arg);
			for (x = 8; x < tsize; x += 8) {
				trace_seq_putc(q, ':');
				if (++a == nargs) {
					trace_seq_puts(q, "...]");
					goto out;
				}
				trace_seq_printf(q, "0x%llx", (unsigned long long)kt_get64(b->be, args + 8 * a));
			}
			trace_seq_putc(q, ']');
			break;
		}
		}
	}
out:
	trace_seq_putc(q, ')');
	return 0;
bad:
	q->len = len0;
	trace_seq_terminate(q);
	return -EOPNOTSUPP;
}
