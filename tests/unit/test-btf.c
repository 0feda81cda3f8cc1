// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/btf.c: function arguments printed by a BTF prototype as the kernel's
 * print_function_args() does (options func-args and funcgraph-args). The
 * BTF blob is built here, type by type, with the prototypes of Debian's
 * 7.2 kernel; the expected lines are the kernel's own, copied from the
 * trace files of the fixtures ksid-fargs and ksid-fgargs:
 *   vfs_write(file=0xffff8d16c251d900, buf=0x2565740, count=0x2, pos=0x0)
 *   hrtimer_start_range_ns(timer=0xffff8d16cf721db8, tim=316664000000,
 *     delta_ns=0x0, mode=10 [HRTIMER_MODE_ABS_PINNED_HARD])
 *   nr_context_switches_cpu(cpu=0)
 *   __check_object_size(ptr=0xffff8c7e82482000, n=0x22, to_user=0x0)
 *   __rcu_read_lock()
 * What the kernel's print has not been compared with (a struct passed by
 * value, an enum value without a name, a module's function) must be
 * refused, never guessed; damaged BTF refused at parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "fake-check.h"
#include "internal.h"

struct blob {
	uint8_t types[4096], strs[1024];
	uint32_t tlen, slen, nr;
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = b->slen;

	if (!*s)
		return 0;
	memcpy(b->strs + off, s, strlen(s) + 1);
	b->slen += strlen(s) + 1;
	return off;
}

static void w(struct blob *b, uint32_t v)
{
	put32(b->types + b->tlen, v);
	b->tlen += 4;
}

/* a struct btf_type: its id */
static uint32_t type(struct blob *b, const char *name, int kind, int vlen, uint32_t size_type)
{
	w(b, str(b, name));
	w(b, (uint32_t)kind << 24 | (uint32_t)vlen);
	w(b, size_type);
	return ++b->nr;
}

static uint8_t *finish(struct blob *b, size_t *size)
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

static void param(struct blob *b, const char *name, uint32_t t)
{
	w(b, str(b, name));
	w(b, t);
}

static struct kt_btf *kernel_btf(void)
{
	struct blob b = { .slen = 1 };
	uint32_t ul, ui, i, ll, bl, ch, size_t_, ktime, file, pfile, pchar, pcchar, cchar, loff,
		ploff, pcloff, cloff, hrt, phrt, mode, cmode, proto, st, vp;
	struct kt_btf *out = NULL;
	uint8_t *d;
	size_t size;

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
	/* a struct passed by value: not compared with the kernel, refused */
	st = type(&b, "pair", 4, 0, 8);
	proto = type(&b, "", 13, 1, 0);
	param(&b, "p", st);
	type(&b, "by_value", 12, 1, proto);
	proto = type(&b, "", 13, 1, 0);
	param(&b, "m", mode);
	type(&b, "enum_arg", 12, 1, proto);
	(void)pcloff;
	d = finish(&b, &size);
	CHECK(kt_btf__parse(d, size, &out) == 0 && out, "a BTF of %u types parses", b.nr);
	return out;
}

static char *print(const struct kt_btf *b, const char *name, bool mod, const uint64_t *regs,
		   uint32_t n, int *err)
{
	uint8_t args[16 * 8];
	struct trace_seq q;
	char *text;
	uint32_t k;

	for (k = 0; k < n; k++)
		for (int j = 0; j < 8; j++)
			args[8 * k + j] = (uint8_t)(regs[k] >> (8 * j));
	trace_seq_init(&q);
	*err = kt_btf__print(b, name, mod, args, n, &q);
	trace_seq_terminate(&q);
	text = strdup(q.buffer);
	trace_seq_destroy(&q);
	return text;
}

static void expect(const struct kt_btf *b, const char *name, const uint64_t *regs,
		   const char *want)
{
	int err;
	char *got = print(b, name, false, regs, 6, &err);

	CHECK_STR(err ? NULL : got, want, name ? name : "(no symbol)");
	free(got);
}

static void refused(const struct kt_btf *b, const char *name, bool mod, const char *why)
{
	uint64_t regs[6] = { 1, 2, 3, 4, 5, 6 };
	int err;
	char *got = print(b, name, mod, regs, 6, &err);

	CHECK(err && !*got, "%s: refused (%s), nothing printed", name, why);
	if (!err || *got)
		printf("#   got %d: %s\n", err, got);
	free(got);
}

static void test_kernel_lines(void)
{
	struct kt_btf *b = kernel_btf();
	uint64_t vfs[6] = { 0xffff8d16c251d900, 0x2565740, 2, 0, 0xffff8d16c2000000, 7 };
	uint64_t hrt[6] = { 0xffff8d16cf721db8, 316664000000, 0, 10, 0, 0 };
	uint64_t cpu[6] = { 0, 0xffff, 1, 2, 3, 4 };
	uint64_t cos[6] = { 0xffff8c7e82482000, 0x22, 0, 0, 0, 0 };
	uint64_t neg[6] = { (uint64_t)-22, 0xffffffffffffffea, 3, 4, 5, 6 };

	if (!b)
		return;
	expect(b, "vfs_write", vfs, "(file=0xffff8d16c251d900, buf=0x2565740, count=0x2, pos=0x0)");
	expect(b, "hrtimer_start_range_ns", hrt,
	       "(timer=0xffff8d16cf721db8, tim=316664000000, delta_ns=0x0, "
	       "mode=10 [HRTIMER_MODE_ABS_PINNED_HARD])");
	expect(b, "nr_context_switches_cpu", cpu, "(cpu=0)");
	expect(b, "__check_object_size", cos, "(ptr=0xffff8c7e82482000, n=0x22, to_user=0x0)");
	expect(b, "__rcu_read_lock", cos, "()");
	/* "%ld" of the whole register: a negative int prints signed */
	expect(b, "nr_context_switches_cpu", neg, "(cpu=-22)");
	/* FTRACE_REGS_MAX_ARGS reached: "..." */
	expect(b, "seven", neg, "(a=-22, b=-22, c=3, d=4, e=5, f=6, ...)");
	/* lookup_symbol_name() or btf_find_func_proto() fails: "()" */
	expect(b, NULL, vfs, "()");
	expect(b, "not_in_btf", vfs, "()");
	refused(b, "by_value", false, "a struct by value");
	refused(b, "enum_arg", false, "an enum value with no enumerator");
	refused(b, "not_in_btf", true, "a module's function, whose BTF is the module's");
	kt_btf__destroy(b);
}

static void test_damaged(void)
{
	struct kt_btf *b = NULL;
	uint8_t *d;
	size_t size;
	struct blob bl = { .slen = 1 };

	type(&bl, "int", 1, 0, 4); w(&bl, 32);
	d = finish(&bl, &size);
	d[0] = 0;					/* magic */
	CHECK(kt_btf__parse(d, size, &b) < 0 && !b, "a BTF without its magic is refused");
	d = finish(&bl, &size);
	put32(d + 12, 1u << 30);			/* types beyond the blob */
	CHECK(kt_btf__parse(d, size, &b) < 0 && !b, "a type section beyond the blob is refused");
	d = finish(&bl, &size);
	d[24 + 7] = 31;					/* kind 31: unknown */
	CHECK(kt_btf__parse(d, size, &b) < 0 && !b, "an unknown kind is refused");
	bl.tlen = 0; bl.nr = 0;
	type(&bl, "s", 4, 60000, 8);			/* members beyond the section */
	d = finish(&bl, &size);
	CHECK(kt_btf__parse(d, size, &b) < 0 && !b, "a struct whose members overrun is refused");
	d = malloc(10);
	CHECK(kt_btf__parse(d, 10, &b) < 0 && !b, "10 bytes are refused");
}

int main(void)
{
	test_kernel_lines();
	test_damaged();
	return fk_failed;
}
