/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A BTF blob built type by type (tests/unit/test-btf.c, the btf fuzzer):
 * fk_btf_kernel() holds the prototypes of a few functions of Debian's 7.2
 * kernel (vfs_write, hrtimer_start_range_ns, nr_context_switches_cpu,
 * __check_object_size, __rcu_read_lock), a function of seven int
 * parameters ("seven"), ones taking a 16-byte struct by value ("by_value",
 * "five_then_pair"), one a void-typed parameter ("void_arg") and one an
 * enum ("enum_arg").
 */
#ifndef KTRACE_TESTS_FAKE_BTF_H
#define KTRACE_TESTS_FAKE_BTF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fake-kernel.h"

struct blob {
	uint8_t types[4096], strs[1024];
	uint32_t tlen, slen, nr;
};

static FK_UNUSED void put32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static FK_UNUSED uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = b->slen;

	if (!*s)
		return 0;
	memcpy(b->strs + off, s, strlen(s) + 1);
	b->slen += strlen(s) + 1;
	return off;
}

static FK_UNUSED void w(struct blob *b, uint32_t v)
{
	put32(b->types + b->tlen, v);
	b->tlen += 4;
}

/* a struct btf_type: its id */
static FK_UNUSED uint32_t type(struct blob *b, const char *name, int kind, int vlen, uint32_t size_type)
{
	w(b, str(b, name));
	w(b, (uint32_t)kind << 24 | (uint32_t)vlen);
	w(b, size_type);
	return ++b->nr;
}

static FK_UNUSED uint8_t *finish(struct blob *b, size_t *size)
{
	uint8_t *d = calloc(1, 24 + b->tlen + b->slen);

	d[0] = 0x9f; d[1] = 0xeb; d[2] = 1;
	put32(d + 4, 24);
	put32(d + 8, 0);
	put32(d + 12, b->tlen);
	put32(d + 16, b->tlen);
	put32(d + 20, b->slen);
	memcpy(d + 24, b->types, b->tlen);
	memcpy(d + 24 + b->tlen, b->strs, b->slen);
	*size = 24 + b->tlen + b->slen;
	return d;
}

static FK_UNUSED void param(struct blob *b, const char *name, uint32_t t)
{
	w(b, str(b, name));
	w(b, t);
}

static FK_UNUSED uint8_t *fk_btf_kernel(size_t *size)
{
	struct blob b = { .slen = 1 };
	uint32_t ul, ui, i, ll, bl, ch, size_t_, ktime, file, pfile, pchar, pcchar, cchar, loff,
		ploff, pcloff, cloff, hrt, phrt, mode, cmode, proto, st, vp;
	ul = type(&b, "long unsigned int", 1, 0, 8); w(&b, 64);
	ui = type(&b, "unsigned int", 1, 0, 4); w(&b, 32);
	i = type(&b, "int", 1, 0, 4); w(&b, 1u << 24 | 32);		/* BTF_INT_SIGNED */
	ll = type(&b, "long long int", 1, 0, 8); w(&b, 1u << 24 | 64);
	bl = type(&b, "_Bool", 1, 0, 1); w(&b, 4u << 24 | 8);		/* BTF_INT_BOOL */
	ch = type(&b, "char", 1, 0, 1); w(&b, 1u << 24 | 8);
	size_t_ = type(&b, "size_t", 8, 0, ul);
	ktime = type(&b, "ktime_t", 8, 0, ll);
	file = type(&b, "file", 4, 0, 200);
	pfile = type(&b, "", 2, 0, file);
	cchar = type(&b, "", 10, 0, ch);
	pcchar = type(&b, "", 2, 0, cchar);
	pchar = type(&b, "", 2, 0, ch);
	loff = type(&b, "loff_t", 8, 0, ll);
	ploff = type(&b, "", 2, 0, loff);
	cloff = type(&b, "", 10, 0, loff);
	pcloff = type(&b, "", 2, 0, cloff);
	hrt = type(&b, "hrtimer", 4, 0, 64);
	phrt = type(&b, "", 2, 0, hrt);
	mode = type(&b, "hrtimer_mode", 6, 3, 4);
	w(&b, str(&b, "HRTIMER_MODE_ABS")); w(&b, 0);
	w(&b, str(&b, "HRTIMER_MODE_HARD")); w(&b, 8);
	w(&b, str(&b, "HRTIMER_MODE_ABS_PINNED_HARD")); w(&b, 10);
	cmode = type(&b, "", 10, 0, mode);
	(void)pchar;

	proto = type(&b, "", 13, 4, ui);
	param(&b, "file", pfile); param(&b, "buf", pcchar); param(&b, "count", size_t_);
	param(&b, "pos", ploff);
	type(&b, "vfs_write", 12, 1, proto);
	proto = type(&b, "", 13, 4, 0);
	param(&b, "timer", phrt); param(&b, "tim", ktime); param(&b, "delta_ns", ul);
	param(&b, "mode", cmode);
	type(&b, "hrtimer_start_range_ns", 12, 1, proto);
	proto = type(&b, "", 13, 1, ul);
	param(&b, "cpu", i);
	type(&b, "nr_context_switches_cpu", 12, 1, proto);
	vp = type(&b, "", 2, 0, 0);					/* void * */
	proto = type(&b, "", 13, 3, 0);
	param(&b, "ptr", vp); param(&b, "n", ul); param(&b, "to_user", bl);
	type(&b, "__check_object_size", 12, 1, proto);
	proto = type(&b, "", 13, 0, 0);
	type(&b, "__rcu_read_lock", 12, 1, proto);
	/* seven parameters: the seventh is past x86_64's six registers */
	proto = type(&b, "", 13, 7, 0);
	param(&b, "a", i); param(&b, "b", i); param(&b, "c", i); param(&b, "d", i);
	param(&b, "e", i); param(&b, "f", i); param(&b, "g", i);
	type(&b, "seven", 12, 1, proto);
	/* a struct of two longs passed by value, then an int */
	st = type(&b, "pair", 4, 0, 16);
	proto = type(&b, "", 13, 2, 0);
	param(&b, "p", st); param(&b, "x", i);
	type(&b, "by_value", 12, 1, proto);
	/* five ints, then the struct: its second long is past the registers */
	proto = type(&b, "", 13, 6, 0);
	param(&b, "a", i); param(&b, "b", i); param(&b, "c", i); param(&b, "d", i);
	param(&b, "e", i); param(&b, "s", st);
	type(&b, "five_then_pair", 12, 1, proto);
	/* a parameter of type 0 (void): BTF_KIND_UNKN */
	proto = type(&b, "", 13, 1, 0);
	param(&b, "v", 0);
	type(&b, "void_arg", 12, 1, proto);
	proto = type(&b, "", 13, 1, 0);
	param(&b, "m", mode);
	type(&b, "enum_arg", 12, 1, proto);
	(void)pcloff;
	return finish(&b, size);
}

#endif
