// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The persistent ring buffer (6.12+): an instance made on the command line
 * with trace_instance=NAME@RESERVED (reserve_mem=SIZE:ALIGN:RESERVED, or
 * memmap=) has its ring buffer range-mapped into that memory
 * (__ring_buffer_alloc_range(): struct ring_buffer_meta, then each CPU's
 * sub-buffers), tr->range_addr_start its mapped address. Its buffer_pages
 * are kernel memory like any other instance's, so it is walked and
 * printed the same way; what it adds is the instances file
 * last_boot_info, which this file prints as the kernel does.
 */
#include <stdio.h>
#include "internal.h"

/**
 * kt_session__last_boot_info() - the boot-mapped instance's last_boot_info
 * @s: the session
 * @b: a trace array's buffer
 * @buf: receives the text, NUL-terminated, exactly what the file reads
 * @len: the size of @buf
 *
 * 6.12 (tracing_last_boot_read()): "text delta:\t%ld\ndata delta:\t%ld\n"
 * from tr->text_delta and tr->data_delta, the offsets of the boot that
 * wrote the buffer (0 once this boot writes to it, update_last_data()).
 * Later kernels print the previous boot's KASLR address and module list
 * from tr->scratch instead: not printed here (-EOPNOTSUPP), never guessed.
 *
 * Return: 0; -ENOENT when @b is not a boot-mapped trace array (no
 * range_addr_start, or 0); -EOPNOTSUPP for a layout without the 6.12
 * members; another -errno when the trace array cannot be read.
 */
int kt_session__last_boot_info(struct kt_session *s, const struct kt_buffer *b, char *buf,
			       size_t len)
{
	const struct kt_layout *l = &s->l;
	uint64_t start, text, data;
	int err;

	if (!b->tr || !l->tr_range_addr_start.present)
		return kt_err(-ENOENT, "%s: not a boot-mapped instance (no range_addr_start "
				       "in this kernel's trace_array)", b->name);
	err = kt_read_member(s, b->tr, &l->tr_range_addr_start, &start);
	if (err)
		return kt_err(err, "%s: cannot read trace_array 0x%llx range_addr_start",
			      b->name, (unsigned long long)b->tr);
	if (!start)
		return kt_err(-ENOENT, "%s: not a boot-mapped instance (range_addr_start 0)",
			      b->name);
	if (!l->tr_text_delta.present || !l->tr_data_delta.present || l->tr_scratch.present)
		return kt_err(-EOPNOTSUPP, "%s: last_boot_info of this kernel (trace_array "
					   "without text_delta/data_delta, or with scratch) "
					   "is not printed by ktrace", b->name);
	err = kt_read_member(s, b->tr, &l->tr_text_delta, &text);
	if (!err)
		err = kt_read_member(s, b->tr, &l->tr_data_delta, &data);
	if (err)
		return kt_err(err, "%s: cannot read trace_array 0x%llx text_delta/data_delta",
			      b->name, (unsigned long long)b->tr);
	/* both are long: sign-extend what a narrower read gave */
	if (l->tr_text_delta.size == 4)
		text = (uint64_t)(int64_t)(int32_t)text;
	if (l->tr_data_delta.size == 4)
		data = (uint64_t)(int64_t)(int32_t)data;
	snprintf(buf, len, "text delta:\t%lld\ndata delta:\t%lld\n", (long long)text,
		 (long long)data);
	return 0;
}
