// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the kernel's BTF as a hostile dump holds it, through
 * kt_btf__parse() and the function-argument printer (lib/ftrace/btf.c, options
 * func-args and funcgraph-args).
 *
 * A sound blob with Debian 7.2's prototypes of a few functions
 * (tests/unit/fake-btf.h) has the input XORed over it; input beyond the
 * blob's length is appended to it (an empty input leaves it sound). Beyond
 * not crashing: a print is refused with nothing written, or is one
 * parenthesised list no longer than the kernel's bound for it (eight
 * arguments of a name and a 20-digit value each, and an enumerator name).
 */
#include <stdio.h>
#include <event-parse.h>
#include "fake-check.h"
#include "fake-btf.h"
#include "internal.h"

static const char *const names[] = {
	"vfs_write", "hrtimer_start_range_ns", "nr_context_switches_cpu", "__check_object_size",
	"__rcu_read_lock", "seven", "by_value", "enum_arg", "", "missing",
};

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static const uint64_t regs[8] = { 0xffff8d16c251d900, (uint64_t)-22, 2, 10, 0, 7, 8, 9 };
	uint8_t args[sizeof(regs)];
	struct kt_btf *b = NULL;
	size_t size, i, total;
	uint8_t *d = fk_btf_kernel(&size), *all;

	total = size + (len > size ? len - size : 0);
	all = realloc(d, total ? total : 1);
	if (!all)
		abort();
	for (i = 0; i < len; i++)
		all[i] = i < size ? all[i] ^ in[i] : in[i];
	for (i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			args[8 * i + j] = (uint8_t)(regs[i] >> (8 * j));
	if (kt_btf__parse(all, total, &b))
		return 0;	/* refused; the blob is freed */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (uint32_t n = 1; n <= 8; n += 5) {
			struct trace_seq q;
			int err;

			trace_seq_init(&q);
			err = kt_btf__print(b, names[i], i & 1, args, n, &q);
			trace_seq_terminate(&q);
			if (err ? q.len != 0 :
			    (q.len < 2 || q.buffer[0] != '(' || q.buffer[q.len - 1] != ')'))
				abort();
			/* the strings are the blob's: bounded by it, not by a cap of ours */
			if (q.len > 8 * (total + 64))
				abort();
			trace_seq_destroy(&q);
		}
	}
	kt_btf__destroy(b);
	return 0;
}
