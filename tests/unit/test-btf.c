// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/ftrace/btf.c: function arguments printed by a BTF prototype as the kernel's
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
 * The kinds no fixture has shown are expected as 7.2's print_function_args()
 * (kernel/trace/trace_output.c of Debian's linux-source-7.2) writes them,
 * worked out by hand: "(STRUCT)[0x1:0x2]", "...]", "?0x1", an enum value
 * with no enumerator as the number alone. A module's function must be
 * refused (its prototype is in the module's BTF); damaged BTF refused at
 * parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "fake-check.h"
#include "fake-btf.h"
#include "internal.h"

static struct kt_btf *kernel_btf(void)
{
	struct kt_btf *out = NULL;
	size_t size;
	uint8_t *d = fk_btf_kernel(&size);

	CHECK(kt_btf__parse(d, size, &out) == 0 && out, "a BTF of %zu bytes parses", size);
	return out;
}

/* the registers as the record holds them: in the kernel's byte order */
static bool args_be;

static char *print(const struct kt_btf *b, const char *name, bool mod, const uint64_t *regs,
		   uint32_t n, int *err)
{
	uint8_t args[16 * 8];
	struct trace_seq q;
	char *text;
	uint32_t k;

	for (k = 0; k < n; k++)
		for (int j = 0; j < 8; j++)
			args[8 * k + (args_be ? 7 - j : j)] = (uint8_t)(regs[k] >> (8 * j));
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
	{
		uint64_t r[6] = { 1, 2, 3, 4, 5, 6 }, m3[6] = { 3 }, m8[6] = { 8 };

		/* default: "(%s)[0x%lx", then ":0x%lx" per further long of t->size */
		expect(b, "by_value", r, "(p=(STRUCT)[0x1:0x2], x=3)");
		/* ++a == FTRACE_REGS_MAX_ARGS inside the struct: "...]", then ")" */
		expect(b, "five_then_pair", r, "(a=1, b=2, c=3, d=4, e=5, s=(STRUCT)[0x6:...])");
		/* BTF_KIND_UNKN: '?', then the value as a pointer */
		expect(b, "void_arg", r, "(v=?0x1)");
		/* an enum: "%ld", the name only when one has the value */
		expect(b, "enum_arg", m3, "(m=3)");
		expect(b, "enum_arg", m8, "(m=8 [HRTIMER_MODE_HARD])");
	}
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

static void swap32(uint8_t *p)
{
	uint8_t t = p[0];

	p[0] = p[3];
	p[3] = t;
	t = p[1];
	p[1] = p[2];
	p[2] = t;
}

/*
 * A big-endian kernel's BTF (s390x's): the same blob with its magic and
 * every word of its header and type section swapped (every BTF type
 * record is a row of 32-bit words), its strings as they are; and the
 * argument registers big-endian as the record holds them. Every line
 * must print as the little-endian kernel's does.
 */
static void test_big_endian(void)
{
	struct kt_btf *b = NULL;
	size_t size, i;
	uint8_t *d = fk_btf_kernel(&size);
	uint32_t hdr_len = d[4] | d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
	uint32_t type_off = d[8] | d[9] << 8 | (uint32_t)d[10] << 16 | (uint32_t)d[11] << 24;
	uint32_t type_len = d[12] | d[13] << 8 | (uint32_t)d[14] << 16 | (uint32_t)d[15] << 24;
	uint64_t vfs[6] = { 0x2d76500, 0x2ba4080, 2, 0, 0, 0 };
	uint64_t hrt[6] = { 0x764ae60, 4818448558, 0, 10, 0, 0 };
	uint64_t neg[6] = { (uint64_t)-22, 0xffffffffffffffea, 3, 4, 5, 6 };
	uint64_t r[6] = { 1, 2, 3, 4, 5, 6 }, m8[6] = { 8 };
	uint8_t t = d[0];

	d[0] = d[1];
	d[1] = t;
	for (i = 4; i < hdr_len; i += 4)
		swap32(d + i);
	for (i = 0; i < type_len; i += 4)
		swap32(d + hdr_len + type_off + i);
	CHECK(kt_btf__parse(d, size, &b) == 0 && b, "a big-endian BTF of %zu bytes parses", size);
	if (!b)
		return;
	args_be = true;
	/* ksid-s390x-fargs's own lines (the kernel's trace file) */
	expect(b, "vfs_write", vfs, "(file=0x2d76500, buf=0x2ba4080, count=0x2, pos=0x0)");
	expect(b, "hrtimer_start_range_ns", hrt,
	       "(timer=0x764ae60, tim=4818448558, delta_ns=0x0, "
	       "mode=10 [HRTIMER_MODE_ABS_PINNED_HARD])");
	expect(b, "nr_context_switches_cpu", neg, "(cpu=-22)");
	expect(b, "seven", neg, "(a=-22, b=-22, c=3, d=4, e=5, f=6, ...)");
	expect(b, "by_value", r, "(p=(STRUCT)[0x1:0x2], x=3)");
	expect(b, "enum_arg", m8, "(m=8 [HRTIMER_MODE_HARD])");
	args_be = false;
	kt_btf__destroy(b);
}

int main(void)
{
	test_kernel_lines();
	test_big_endian();
	test_damaged();
	return fk_failed;
}
