// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the fake kernel (fake-kernel.h) lacks for the printers of their own
 * that test-excerpts replays: the VMCOREINFO release, the syscall events'
 * struct syscall_metadata, the blk tracer's trace_blk_event and
 * blk_tracer_flags, a trace array's current tracer and the saved cmdlines,
 * each written at the offsets of a real kernel's layout
 * (fk_kernel.more_members) where the kernel's own code reads them.
 */
#ifndef KTRACE_TESTS_FAKE_TRACERS_H
#define KTRACE_TESTS_FAKE_TRACERS_H

#include "fake-kernel.h"

/*
 * The VMCOREINFO text (vmcoreinfo_data, vmcoreinfo_size), as
 * crash_save_vmcoreinfo_init() keeps it: "KEY=value\n" lines, such as
 * "OSRELEASE=6.1.0-56-cloud-amd64\n".
 */
static FK_UNUSED void fk_vmcoreinfo(struct fk_kernel *k, const char *text)
{
	uint64_t data = fk_str(k, text), ptr = fk_alloc(k, 8), size = fk_alloc(k, 8);

	fk_w64(k, ptr, data);
	fk_w64(k, size, strlen(text));
	fk_sym(k, "vmcoreinfo_data", ptr);
	fk_sym(k, "vmcoreinfo_size", size);
}

/*
 * A syscall event (kernel/trace/trace_syscalls.c, before 6.19): @call's
 * event.funcs is enter_syscall_print_funcs or exit_syscall_print_funcs
 * (@funcs: the symbol's address), its data a struct syscall_metadata
 * { const char *name; int syscall_nr; int nb_args; const char **types;
 * const char **args; struct list_head enter_fields; ... } written at the
 * offsets the kernel's own layout gives (fk_kernel.more_members: "struct
 * syscall_metadata" from the dump's DWARF): @name and @nr. An enter
 * event's @n fields (@f: __syscall_nr, then one per argument) go where
 * syscall_enter_define_fields() put them, on the metadata's enter_fields
 * (its class's get_fields, syscall_get_enter_fields(), returns that
 * list), and its arguments' types and names (each field after
 * __syscall_nr) in types[] and args[]; the event is made with no class
 * field (fk_event(..., NULL, 0, ...)). -1 when the layout lacks a member.
 */
static FK_UNUSED int fk_syscall(struct fk_kernel *k, uint64_t call, uint64_t funcs,
				const char *name, int nr, const struct fk_field *f, int n)
{
	static const char *const need[] = { "name", "syscall_nr", "nb_args", "types", "args",
					    "enter_fields" };
	uint64_t off[6], size[6], meta, types, names, class;
	int i, a = 0;

	for (i = 0; i < 6; i++)
		if (fk_member(k, "struct syscall_metadata", need[i], &off[i], &size[i]) ||
		    size[i] != (i == 1 || i == 2 ? 4 : i == 5 ? 16 : 8))
			return -1;
	meta = fk_alloc(k, 128);
	types = fk_alloc(k, (uint32_t)(8 * n + 8));
	names = fk_alloc(k, (uint32_t)(8 * n + 8));
	fk_w64(k, meta + off[0], fk_str(k, name));
	fk_w32(k, meta + off[1], (uint32_t)nr);
	fk_w64(k, meta + off[3], types);
	fk_w64(k, meta + off[4], names);
	fk_w64(k, meta + off[5] + LH_NEXT, meta + off[5]);
	fk_w64(k, meta + off[5] + LH_PREV, meta + off[5]);
	for (i = 0; i < n; i++) {
		if (!strncmp(f[i].name, "__", 2))
			continue;
		fk_w64(k, types + 8 * (uint64_t)a, fk_str(k, f[i].type));
		fk_w64(k, names + 8 * (uint64_t)a, fk_str(k, f[i].name));
		a++;
	}
	fk_w32(k, meta + off[2], (uint32_t)a);
	if (n) {
		fk_fields(k, meta + off[5], f, n);
		memcpy(&class, fk_ptr(k, call + EC_CLASS, 8), 8);
		fk_w64(k, class + CL_GET_FIELDS, fk_str(k, "syscall_get_enter_fields"));
	}
	fk_w64(k, call + EC_DATA, meta);
	fk_w64(k, call + EC_FUNCS, funcs);
	return 0;
}

/*
 * The blk tracer (kernel/trace/blktrace.c): trace_blk_event, the bare
 * struct trace_event its TRACE_BLK entries are registered with (@type),
 * and blk_tracer_flags (@val: TRACE_BLK_OPT_*), at the offsets of the
 * kernel's struct trace_event.type and struct tracer_flags.val
 * (fk_kernel.more_members). -1 when the layout lacks them.
 */
static FK_UNUSED int fk_blk(struct fk_kernel *k, int type, uint32_t val)
{
	uint64_t toff, tsize, voff, vsize, ev, fl;

	if (fk_member(k, "struct trace_event", "type", &toff, &tsize) || tsize != 4 ||
	    fk_member(k, "struct tracer_flags", "val", &voff, &vsize) || vsize != 4)
		return -1;
	ev = fk_alloc(k, (uint32_t)toff + 8);
	fl = fk_alloc(k, (uint32_t)voff + 8);
	fk_w32(k, ev + toff, (uint32_t)type);
	fk_w32(k, fl + voff, val);
	fk_sym(k, "trace_blk_event", ev);
	fk_sym(k, "blk_tracer_flags", fl);
	return 0;
}

/* @tr's current_trace: a struct tracer named @name (its other members not written) */
static FK_UNUSED void fk_tracer(struct fk_kernel *k, uint64_t tr, const char *name)
{
	uint64_t t = fk_alloc(k, 512);

	fk_w64(k, t, fk_str(k, name));
	fk_w64(k, tr + TR_CURRENT_TRACE, t);
}

/*
 * @tr's current tracer's options, as before 6.19 (one static struct
 * tracer_flags of the tracer, tracer.flags pointing at it; 6.19 gave each
 * instance its own copy, trace_array.current_trace_flags): @val in its
 * val, at the offsets of the kernel's layout (fk_kernel.more_members:
 * "struct tracer" flags, "struct tracer_flags" val). After fk_tracer();
 * -1 when the layout lacks them.
 */
static FK_UNUSED int fk_tracer_flags(struct fk_kernel *k, uint64_t tr, uint32_t val)
{
	uint64_t foff, fsize, voff, vsize, t, fl;

	if (fk_member(k, "struct tracer", "flags", &foff, &fsize) || fsize != 8 || foff > 504 ||
	    fk_member(k, "struct tracer_flags", "val", &voff, &vsize) || vsize != 4)
		return -1;
	memcpy(&t, fk_ptr(k, tr + TR_CURRENT_TRACE, 8), 8);
	fl = fk_alloc(k, (uint32_t)voff + 8);
	fk_w32(k, fl + voff, val);
	fk_w64(k, t + foff, fl);
	return 0;
}

/*
 * savedcmd, the saved cmdlines (kernel/trace/trace_sched_switch.c since
 * 6.8, trace.c before): struct saved_cmdlines_buffer { unsigned
 * map_pid_to_cmdline[PID_MAX_DEFAULT + 1]; unsigned *map_cmdline_to_pid;
 * unsigned cmdline_num; int cmdline_idx; char saved_cmdlines[] (a
 * pointer before 6.1); } at the kernel's offsets (fk_kernel.more_members),
 * holding @n pids' comms as trace_save_cmdline() files them: slot i for
 * the i-th, map_pid_to_cmdline[pid & (PID_MAX_DEFAULT - 1)], the others
 * NO_CMDLINE_MAP. -1 when the layout lacks a member.
 */
static FK_UNUSED int fk_savedcmd(struct fk_kernel *k, const int *pids, const char *const *comms,
				 int n)
{
	static const char *const need[] = { "map_pid_to_cmdline", "map_cmdline_to_pid",
					    "cmdline_num", "saved_cmdlines" };
	uint64_t off[4], size[4], sc, m2p, names, ptr = fk_alloc(k, 8);
	uint32_t nr_pid, num = (uint32_t)n + 1;
	int i;

	for (i = 0; i < 4; i++)
		if (fk_member(k, "struct saved_cmdlines_buffer", need[i], &off[i], &size[i]))
			return -1;
	nr_pid = (uint32_t)size[0] / 4;
	if (nr_pid < 2 || size[1] != 8 || size[2] != 4 || (size[3] != 8 && size[3] != 0))
		return -1;
	sc = fk_alloc(k, (uint32_t)off[3] + 8 + 16 * num);
	memset(fk_ptr(k, sc + off[0], size[0]), 0xff, size[0]);
	m2p = fk_alloc(k, 4 * num);
	memset(fk_ptr(k, m2p, 4 * num), 0xff, 4 * num);
	names = size[3] ? fk_alloc(k, 16 * num) : sc + off[3];
	fk_w64(k, sc + off[1], m2p);
	fk_w32(k, sc + off[2], num);
	if (size[3])
		fk_w64(k, sc + off[3], names);
	for (i = 0; i < n; i++) {
		fk_w32(k, sc + off[0] + 4 * ((uint32_t)pids[i] & (nr_pid - 2)), (uint32_t)i);
		fk_w32(k, m2p + 4 * (uint64_t)i, (uint32_t)pids[i]);
		strncpy((char *)fk_ptr(k, names + 16 * (uint64_t)i, 16), comms[i], 16);
	}
	fk_w64(k, ptr, sc);
	fk_sym(k, "savedcmd", ptr);
	return 0;
}

/*
 * An eprobe's event (kernel/trace/trace_eprobe.c): @call is the
 * trace_probe_event's call, whose probes list's first trace_probe is the
 * tp of a struct trace_eprobe naming the event it probes (@sys, @ev),
 * which print_eprobe_event() prints as "(SYS.EVENT)"; fake offsets
 * (fk_members). Its event.funcs is the caller's to point at eprobe_funcs.
 */
static FK_UNUSED void fk_eprobe(struct fk_kernel *k, uint64_t call, const char *sys, const char *ev)
{
	uint64_t ep = fk_alloc(k, 64);

	fk_w64(k, call + EC_PROBES, ep);
	fk_w64(k, ep + 16, fk_str(k, sys));
	fk_w64(k, ep + 24, fk_str(k, ev));
}

/*
 * A latency tracer's max buffer (kernel/trace/trace.c, CONFIG_TRACER_MAX_TRACE):
 * @live's trace array gets max_buffer, a struct array_buffer of its own
 * ring (@mb: its per-CPU buffers are fk_ring_new()'s), allocated_snapshot
 * set, the buffer's @time_start and @cpu (the CPU of the longest latency),
 * and its per-CPU struct trace_array_cpu (__per_cpu_offset: each CPU's
 * block of 1 KiB), which @tac's members fill for @cpu at the offsets of
 * the kernel's layout (fk_kernel.more_members: "struct trace_array_cpu";
 * comm a string, the others numbers of their size). Sets fk_kernel.maxbuf
 * (the trace_array's members for it); -1 when the layout lacks a member.
 */
static FK_UNUSED int fk_maxbuf(struct fk_kernel *k, struct fk_buffer *live, struct fk_buffer *mb,
			       int nr_cpus, int cpu, uint64_t time_start,
			       const char *const *tac_name, const char *const *tac_val, int ntac)
{
	uint64_t data = fk_alloc(k, 1024u * (uint32_t)nr_cpus), pcpu = fk_alloc(k, 8u * (uint32_t)nr_cpus);
	uint64_t mbuf = live->tr + TR_MAX_BUFFER;
	int i;

	k->maxbuf = true;
	mb->tr = live->tr;
	mb->rb = fk_alloc(k, RB_SIZE);
	mb->buffers = fk_alloc(k, 8u * (uint32_t)nr_cpus);
	mb->nr_cpus = nr_cpus;
	fk_w64(k, mb->rb + RB_BUFFERS, mb->buffers);
	fk_w64(k, mbuf, live->tr);
	fk_w64(k, mbuf + 8, mb->rb);
	fk_w64(k, mbuf + 16, data);
	fk_w64(k, mbuf + 24, time_start);
	fk_w32(k, mbuf + 32, (uint32_t)cpu);
	*fk_ptr(k, live->tr + TR_ALLOCATED_SNAPSHOT, 1) = 1;
	for (i = 0; i < nr_cpus; i++)
		fk_w64(k, pcpu + 8u * (uint64_t)i, 1024u * (uint64_t)i);
	fk_sym(k, "__per_cpu_offset", pcpu);
	for (i = 0; i < ntac; i++) {
		uint64_t off, size, at = data + 1024u * (uint64_t)cpu, v;

		if (fk_member(k, "struct trace_array_cpu", tac_name[i], &off, &size) ||
		    off + size > 1024)
			return -1;
		if (!strcmp(tac_name[i], "comm")) {
			strncpy((char *)fk_ptr(k, at + off, size), tac_val[i], size);
			continue;
		}
		v = strtoull(tac_val[i], NULL, 0);
		if (size == 8)
			fk_w64(k, at + off, v);
		else if (size == 4)
			fk_w32(k, at + off, (uint32_t)v);
		else
			return -1;
	}
	return 0;
}

/*
 * The preemption model the latency header names: preempt_dynamic_mode
 * (@mode, CONFIG_PREEMPT_DYNAMIC) and, 6.15+, preempt_modes[] (@names:
 * the strings preempt_model_str() prints from), each when given.
 */
static FK_UNUSED void fk_preempt(struct fk_kernel *k, const int *mode, const char *const *names,
				 int n)
{
	int i;

	if (mode) {
		uint64_t a = fk_alloc(k, 8);

		fk_w32(k, a, (uint32_t)*mode);
		fk_sym(k, "preempt_dynamic_mode", a);
	}
	if (n) {
		uint64_t a = fk_alloc(k, 8u * (uint32_t)n);

		for (i = 0; i < n; i++)
			fk_w64(k, a + 8u * (uint64_t)i, fk_str(k, names[i]));
		fk_sym(k, "preempt_modes", a);
	}
}

#endif /* KTRACE_TESTS_FAKE_TRACERS_H */
