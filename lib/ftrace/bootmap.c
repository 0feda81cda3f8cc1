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
#include "../internal.h"

/*
 * 6.13+ (show_last_boot_header(), l_show()): a buffer that still holds
 * the previous boot's data (tr->flags & TRACE_ARRAY_FL_LAST_BOOT) shows
 * that boot's clock (6.15+: "trace_clock: NAME"), its kernel text
 * address ("ADDR\t[kernel]": trace_scratch.text_addr, 6.13's kaslr_addr)
 * and each module's ("ADDR\tNAME", trace_scratch.entries[]); once this
 * boot writes to it, "# Current".
 */
static int scratch_info(struct kt_session *s, const struct kt_buffer *b, char *buf, size_t len)
{
	const struct kt_layout *l = &s->l;
	struct kt_member fl, clk, text, nr, ent, maddr, mname;
	uint64_t flags, scratch, addr, n, i, esize;
	int64_t last;
	size_t used;
	int err;

	if (kt_member__probe(s, "struct trace_array", "flags", &fl) || !s->t.enumerator ||
	    s->t.enumerator(s->t.priv, "TRACE_ARRAY_FL_LAST_BOOT", &last) || last <= 0)
		return kt_err(-EOPNOTSUPP, "%s: last_boot_info of this kernel (no trace_array.flags "
					   "or TRACE_ARRAY_FL_LAST_BOOT) is not printed by ktrace",
			      b->name);
	err = kt_read_member(s, b->tr, &fl, &flags);
	if (!err)
		err = kt_read_member(s, b->tr, &l->tr_scratch, &scratch);
	if (err)
		return kt_err(err, "%s: cannot read trace_array 0x%llx flags/scratch", b->name,
			      (unsigned long long)b->tr);
	if (!scratch || !(flags & (uint64_t)last)) {
		snprintf(buf, len, "# Current\n");
		return 0;
	}
	kt_member__probe(s, "struct trace_scratch", "clock", &clk);
	if (kt_member__probe(s, "struct trace_scratch", "text_addr", &text))
		kt_member__probe(s, "struct trace_scratch", "kaslr_addr", &text);
	if (!text.present || kt_member__probe(s, "struct trace_scratch", "nr_entries", &nr) ||
	    kt_member__probe(s, "struct trace_scratch", "entries", &ent) ||
	    kt_member__probe(s, "struct trace_mod_entry", "mod_addr", &maddr) ||
	    kt_member__probe(s, "struct trace_mod_entry", "mod_name", &mname) ||
	    s->t.type_size(s->t.priv, "struct trace_mod_entry", &esize) || !esize || !mname.size ||
	    mname.size > 256)
		return kt_err(-EOPNOTSUPP, "%s: last_boot_info: struct trace_scratch or "
					   "trace_mod_entry of an unknown shape", b->name);
	used = 0;
	if (clk.present && clk.size && clk.size < 64) {
		char name[64] = "";

		if (kt_read(s, scratch + clk.off, name, clk.size))
			return kt_err(-EFAULT, "%s: cannot read trace_scratch 0x%llx", b->name,
				      (unsigned long long)scratch);
		name[clk.size] = 0;
		used += (size_t)snprintf(buf + used, len - used, "trace_clock: %s\n", name);
	}
	if (kt_read_member(s, scratch, &text, &addr) || kt_read_member(s, scratch, &nr, &n))
		return kt_err(-EFAULT, "%s: cannot read trace_scratch 0x%llx", b->name,
			      (unsigned long long)scratch);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "%llx\t[kernel]\n",
					 (unsigned long long)addr);
	/* the scratch area is a page or so: more entries than that is damage */
	if (n > 4096)
		return kt_err(-EBADMSG, "%s: trace_scratch 0x%llx says %llu modules", b->name,
			      (unsigned long long)scratch, (unsigned long long)n);
	for (i = 0; i < n && used < len; i++) {
		uint64_t e = scratch + ent.off + i * esize;
		char name[257] = "";

		if (kt_read_member(s, e, &maddr, &addr) ||
		    kt_read(s, e + mname.off, name, mname.size))
			return kt_err(-EFAULT, "%s: cannot read trace_mod_entry 0x%llx", b->name,
				      (unsigned long long)e);
		name[mname.size] = 0;
		used += (size_t)snprintf(buf + used, len - used, "%llx\t%s\n",
					 (unsigned long long)addr, name);
	}
	if (used >= len)
		return kt_err(-ENOSPC, "%s: last_boot_info longer than %zu bytes", b->name, len);
	return 0;
}

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
 * 6.13+ print the previous boot's clock, kernel address and module list
 * from tr->scratch instead, or "# Current" (scratch_info()).
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
	if (l->tr_scratch.present)
		return scratch_info(s, b, buf, len);
	if (!l->tr_text_delta.present || !l->tr_data_delta.present)
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
