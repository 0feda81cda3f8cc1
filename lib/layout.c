// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layout table: every offset the core needs, asked of the target once.
 * Members that come and go between kernel versions are recorded as absent
 * and the readers branch on presence, never on a version string.
 */
#include <stddef.h>
#include <string.h>
#include "internal.h"

struct probe {
	size_t slot;		/* offsetof(struct kt_layout, ...) */
	const char *type;	/* NULL: the ring buffer type of this kernel */
	const char *member;
	bool required;
};

#define RB NULL
#define P(f, t, m, r) { offsetof(struct kt_layout, f), t, m, r }

static const struct probe probes[] = {
	/* kernel/trace/ring_buffer.c */
	/* gone in 6.12; nr_cpu_ids bounds the buffers[] array anyway */
	P(rb_cpus, RB, "cpus", false),
	P(rb_buffers, RB, "buffers", true),
	P(rb_clock, RB, "clock", false),
	/* 6.8 (commit 2808e31ec12e): variable sub-buffer size */
	P(rb_subbuf_size, RB, "subbuf_size", false),
	P(rb_subbuf_order, RB, "subbuf_order", false),
	P(rb_time_stamp_abs, RB, "time_stamp_abs", false),

	P(cpu_buffer, "struct ring_buffer_per_cpu", "buffer", false),
	P(cpu_cpu, "struct ring_buffer_per_cpu", "cpu", true),
	P(cpu_nr_pages, "struct ring_buffer_per_cpu", "nr_pages", true),
	P(cpu_pages, "struct ring_buffer_per_cpu", "pages", true),
	P(cpu_head_page, "struct ring_buffer_per_cpu", "head_page", true),
	P(cpu_tail_page, "struct ring_buffer_per_cpu", "tail_page", true),
	P(cpu_commit_page, "struct ring_buffer_per_cpu", "commit_page", true),
	P(cpu_reader_page, "struct ring_buffer_per_cpu", "reader_page", true),
	P(cpu_entries, "struct ring_buffer_per_cpu", "entries", true),
	P(cpu_overrun, "struct ring_buffer_per_cpu", "overrun", true),
	P(cpu_commit_overrun, "struct ring_buffer_per_cpu", "commit_overrun", false),
	P(cpu_dropped_events, "struct ring_buffer_per_cpu", "dropped_events", false),
	P(cpu_read, "struct ring_buffer_per_cpu", "read", false),
	P(cpu_entries_bytes, "struct ring_buffer_per_cpu", "entries_bytes", false),
	P(cpu_lost_events, "struct ring_buffer_per_cpu", "lost_events", false),

	P(bp_list, "struct buffer_page", "list", true),
	P(bp_write, "struct buffer_page", "write", true),
	P(bp_read, "struct buffer_page", "read", true),
	P(bp_entries, "struct buffer_page", "entries", false),
	P(bp_real_end, "struct buffer_page", "real_end", false),
	P(bp_page, "struct buffer_page", "page", true),

	P(dp_time_stamp, "struct buffer_data_page", "time_stamp", true),
	P(dp_commit, "struct buffer_data_page", "commit", true),
	P(dp_data, "struct buffer_data_page", "data", true),

	P(lh_next, "struct list_head", "next", true),
	P(lh_prev, "struct list_head", "prev", true),

	/* kernel/trace/trace.h */
	P(tr_name, "struct trace_array", "name", true),
	P(tr_list, "struct trace_array", "list", true),
	P(tr_clock_id, "struct trace_array", "clock_id", false),
	P(tr_current_trace, "struct trace_array", "current_trace", false),
	P(tr_trace_flags, "struct trace_array", "trace_flags", false),
	P(tracer_name, "struct tracer", "name", false),
	/*
	 * CONFIG_TRACER_MAX_TRACE: the snapshot buffer, allocated on first use;
	 * 7.0 (commit 694b3f6fe0b6) renamed it snapshot_buffer (kt_layout__probe())
	 */
	P(tr_max_buffer, "struct trace_array", "max_buffer", false),
	P(tr_allocated_snapshot, "struct trace_array", "allocated_snapshot", false),
	/* 6.12: boot-mapped buffers, the text offset of the boot that wrote them */
	P(tr_text_delta, "struct trace_array", "text_delta", false),
	/* lib/ftrace/bootmap.c: last_boot_info (6.12), the range-mapped instance */
	P(tr_data_delta, "struct trace_array", "data_delta", false),
	/* 6.15: TRACE_ARRAY_FL_LAST_BOOT, the previous boot's events whatever the deltas */
	P(tr_flags, "struct trace_array", "flags", false),
	P(tr_range_addr_start, "struct trace_array", "range_addr_start", false),
	/* 6.13+: last_boot_info from tr->scratch, not printed */
	P(tr_scratch, "struct trace_array", "scratch", false),
	/* the tracer's own options (funcgraph-*): tracer->flags->val */
	P(tracer_flags, "struct tracer", "flags", false),
	P(tflags_val, "struct tracer_flags", "val", false),
	/* 6.19 ("tracing: Have tracer option be instance specific"): per instance */
	P(tr_current_trace_flags, "struct trace_array", "current_trace_flags", false),
	/* kernel/trace/blktrace.c registers TRACE_BLK by a bare struct trace_event */
	P(tevent_type, "struct trace_event", "type", false),

	/* include/linux/trace_events.h */
	P(call_list, "struct trace_event_call", "list", true),
	P(call_class, "struct trace_event_call", "class", true),
	P(call_name, "struct trace_event_call", "name", true),
	P(call_tp, "struct trace_event_call", "tp", false),
	P(call_event_type, "struct trace_event_call", "event.type", true),
	P(call_print_fmt, "struct trace_event_call", "print_fmt", true),
	P(call_flags, "struct trace_event_call", "flags", false),
	P(call_event_funcs, "struct trace_event_call", "event.funcs", false),
	/* kernel/trace/trace_probe.h and trace_eprobe.c (5.15+) */
	P(tpe_call, "struct trace_probe_event", "call", false),
	P(tpe_probes, "struct trace_probe_event", "probes", false),
	P(tp_list, "struct trace_probe", "list", false),
	P(ep_tp, "struct trace_eprobe", "tp", false),
	P(ep_event_system, "struct trace_eprobe", "event_system", false),
	P(ep_event_name, "struct trace_eprobe", "event_name", false),
	P(class_system, "struct trace_event_class", "system", true),
	P(class_fields, "struct trace_event_class", "fields", true),
	P(class_get_fields, "struct trace_event_class", "get_fields", false),
	P(class_probe, "struct trace_event_class", "probe", false),
	P(call_data, "struct trace_event_call", "data", false),
	P(field_link, "struct ftrace_event_field", "link", true),
	P(field_name, "struct ftrace_event_field", "name", true),
	P(field_type, "struct ftrace_event_field", "type", true),
	P(field_offset, "struct ftrace_event_field", "offset", true),
	P(field_size, "struct ftrace_event_field", "size", true),
	P(field_is_signed, "struct ftrace_event_field", "is_signed", true),
	/* 6.0 (commit b6c7abd1c28a): array length for dynamic arrays */
	P(field_len, "struct ftrace_event_field", "len", false),
	P(tp_name, "struct tracepoint", "name", false),
	P(sm_enter_fields, "struct syscall_metadata", "enter_fields", false),
	P(sm_name, "struct syscall_metadata", "name", false),
	P(sm_syscall_nr, "struct syscall_metadata", "syscall_nr", false),
	P(sm_nb_args, "struct syscall_metadata", "nb_args", false),
	P(sm_types, "struct syscall_metadata", "types", false),
	P(sm_args, "struct syscall_metadata", "args", false),
	/* 6.19: user space arguments recorded and printed (not rendered here yet) */
	P(sm_user_mask, "struct syscall_metadata", "user_mask", false),
	P(bpf_fmt, "struct trace_bprintk_fmt", "fmt", false),

	/* include/linux/module.h: symbols of loaded modules (modsyms.c) */
	P(mod_list, "struct module", "list", false),
	P(mod_name, "struct module", "name", false),
	P(mod_kallsyms, "struct module", "kallsyms", false),
	P(mks_symtab, "struct mod_kallsyms", "symtab", false),
	P(mks_num, "struct mod_kallsyms", "num_symtab", false),
	P(mks_strtab, "struct mod_kallsyms", "strtab", false),

	/* saved cmdlines: kernel/trace/trace.c, trace_sched_switch.c since 6.8 */
	P(sc_map_pid_to_cmdline, "struct saved_cmdlines_buffer", "map_pid_to_cmdline", false),
	P(sc_map_cmdline_to_pid, "struct saved_cmdlines_buffer", "map_cmdline_to_pid", false),
	P(sc_cmdline_num, "struct saved_cmdlines_buffer", "cmdline_num", false),
	P(sc_saved_cmdlines, "struct saved_cmdlines_buffer", "saved_cmdlines", false),

	/*
	 * kernel/printk/printk_ringbuffer.h: the lockless printk ring, 5.10
	 * ("printk: use the lockless ringbuffer"). Before 5.10 was released,
	 * printk_info moved out of prb_desc into desc_ring.infos and the
	 * dictionary ring gave way to printk_info.dev_info; that layout holds
	 * through 6.12. flags:5 and level:3 are bit-fields: the target gives
	 * the byte that holds them.
	 */
	P(prb_desc_ring, "struct printk_ringbuffer", "desc_ring", false),
	P(prb_text_data_ring, "struct printk_ringbuffer", "text_data_ring", false),
	P(prb_fail, "struct printk_ringbuffer", "fail", false),
	P(pdr_count_bits, "struct prb_desc_ring", "count_bits", false),
	P(pdr_descs, "struct prb_desc_ring", "descs", false),
	P(pdr_infos, "struct prb_desc_ring", "infos", false),
	P(pdr_head_id, "struct prb_desc_ring", "head_id", false),
	P(pdr_tail_id, "struct prb_desc_ring", "tail_id", false),
	P(pda_size_bits, "struct prb_data_ring", "size_bits", false),
	P(pda_data, "struct prb_data_ring", "data", false),
	P(pda_head_lpos, "struct prb_data_ring", "head_lpos", false),
	P(pda_tail_lpos, "struct prb_data_ring", "tail_lpos", false),
	P(pd_state_var, "struct prb_desc", "state_var", false),
	P(pd_text_begin, "struct prb_desc", "text_blk_lpos.begin", false),
	P(pd_text_next, "struct prb_desc", "text_blk_lpos.next", false),
	P(pi_seq, "struct printk_info", "seq", false),
	P(pi_ts_nsec, "struct printk_info", "ts_nsec", false),
	P(pi_text_len, "struct printk_info", "text_len", false),
	P(pi_facility, "struct printk_info", "facility", false),
	P(pi_flags, "struct printk_info", "flags", false),
	P(pi_level, "struct printk_info", "level", false),
	P(pi_caller_id, "struct printk_info", "caller_id", false),
	P(pi_subsystem, "struct printk_info", "dev_info.subsystem", false),
	P(pi_device, "struct printk_info", "dev_info.device", false),

	P(te_type, "struct trace_entry", "type", true),
	P(te_flags, "struct trace_entry", "flags", true),
	P(te_preempt_count, "struct trace_entry", "preempt_count", true),
	P(te_pid, "struct trace_entry", "pid", true),
	/* the latency tracers' header (latency.c) */
	P(ab_data, "struct array_buffer", "data", false),
	P(ab_time_start, "struct array_buffer", "time_start", false),
	P(ab_cpu, "struct array_buffer", "cpu", false),
	P(tac_saved_latency, "struct trace_array_cpu", "saved_latency", false),
	P(tac_critical_start, "struct trace_array_cpu", "critical_start", false),
	P(tac_critical_end, "struct trace_array_cpu", "critical_end", false),
	P(tac_comm, "struct trace_array_cpu", "comm", false),
	P(tac_pid, "struct trace_array_cpu", "pid", false),
	P(tac_uid, "struct trace_array_cpu", "uid", false),
	P(tac_nice, "struct trace_array_cpu", "nice", false),
	P(tac_policy, "struct trace_array_cpu", "policy", false),
	P(tac_rt_priority, "struct trace_array_cpu", "rt_priority", false),
	/* PREEMPT_RT's lazy preemption before 6.6-rt: a counter of its own */
	P(te_preempt_lazy_count, "struct trace_entry", "preempt_lazy_count", false),
	/* the bound of a line of the trace file (evalguard.c) */
	P(seq_buffer, "struct trace_seq", "buffer", false),
};

int kt_member__probe(struct kt_session *s, const char *type, const char *member,
		     struct kt_member *m)
{
	uint64_t off, size;
	int err = s->t.member(s->t.priv, type, member, &off, &size);

	if (err) {
		*m = (struct kt_member){ false, 0, 0 };
		return err;
	}
	m->present = true;
	m->off = (uint32_t)off;
	m->size = (uint32_t)size;
	return 0;
}

/* sizeof(@type), or 0 if the target does not know it */
static uint32_t type_size(struct kt_session *s, const char *type)
{
	uint64_t size;

	if (s->t.type_size(s->t.priv, type, &size) || size > UINT32_MAX)
		return 0;
	return (uint32_t)size;
}

static int probe_buffer_types(struct kt_session *s)
{
	struct kt_layout *l = &s->l;
	struct kt_member m;

	/* 5.6 (commit 1c5eb4481e01): trace_array.trace_buffer -> array_buffer */
	if (!kt_member__probe(s, "struct trace_array", "array_buffer", &l->tr_array_buffer)) {
		l->rb_type = "struct trace_buffer";
		return kt_member__probe(s, "struct array_buffer", "buffer", &l->ab_buffer) ?
			kt_err(ENOENT, "struct array_buffer has no member buffer") : 0;
	}
	if (!kt_member__probe(s, "struct trace_array", "trace_buffer", &l->tr_array_buffer) &&
	    !kt_member__probe(s, "struct ring_buffer", "buffers", &m)) {
		l->rb_type = "struct ring_buffer";
		return kt_member__probe(s, "struct trace_buffer", "buffer", &l->ab_buffer) ?
			kt_err(ENOENT, "struct trace_buffer has no member buffer") : 0;
	}
	return kt_err(ENOENT, "struct trace_array has neither array_buffer nor trace_buffer "
			      "(no ftrace in this kernel, or the debuginfo lacks kernel/trace)");
}

/*
 * The kernel's PAGE_SIZE: a ring-buffer sub-buffer is one page (6.8+:
 * a page shifted by trace_buffer.subbuf_order). 4 KiB on x86_64, but
 * arm64 kernels are built for 4, 16 or 64 KiB and ppc64el for 64 KiB.
 * The kernel's own word (VMCOREINFO PAGESIZE, there since 2.6.24) goes
 * first, then the target's (the dump header); 4096 when neither says: a
 * larger page then shows as sub-buffers whose commit runs past 4 KiB,
 * which are counted corrupt, never printed wrong.
 */
static uint32_t page_size_of(struct kt_session *s)
{
	uint32_t kern = kt_ident__page_size(s), tgt = s->t.page_size;

	if (tgt && (tgt < 4096 || tgt > (256u << 10) || (tgt & (tgt - 1)))) {
		kt_warn(s, "the target's page size %u is implausible, not used", tgt);
		tgt = 0;
	}
	if (kern && tgt && kern != tgt)
		kt_warn(s, "the kernel's VMCOREINFO says PAGESIZE=%u, the dump %u: %u used",
			kern, tgt, kern);
	return kern ? kern : tgt ? tgt : 4096;
}

int kt_layout__probe(struct kt_session *s)
{
	struct kt_layout *l = &s->l;
	int err, first;
	char msg[320];
	size_t i;

	/*
	 * every member probed even after a required one is missing: the
	 * others (the printk ring's, relay's, list_head's) serve the
	 * recorders that need none of ftrace (kt_open_opts.ftrace_optional);
	 * the first failure is the one returned
	 */
	first = probe_buffer_types(s);
	if (first)
		snprintf(msg, sizeof(msg), "%s", kt_last_error());
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct probe *p = &probes[i];
		const char *type = p->type ? p->type : l->rb_type;
		struct kt_member *m = (struct kt_member *)((char *)l + p->slot);

		if (!type)	/* the ring buffer's type is not known */
			continue;
		err = kt_member__probe(s, type, p->member, m);
		if (err && p->required && !first) {
			first = err;
			snprintf(msg, sizeof(msg), "layout: %s has no member %s (%s)", type,
				 p->member, strerror(-err));
		}
	}
	/* 7.0: "tracing: Rename trace_array field max_buffer to snapshot_buffer" */
	if (!l->tr_max_buffer.present)
		kt_member__probe(s, "struct trace_array", "snapshot_buffer", &l->tr_max_buffer);
	l->prb_desc_size = type_size(s, "struct prb_desc");
	l->printk_info_size = type_size(s, "struct printk_info");
	l->page_size = page_size_of(s);
	return first ? kt_err(first, "%s", msg) : 0;
}
