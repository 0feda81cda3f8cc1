// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every question of types and symbols libktrace may ask a target, asked
 * with no dump behind it: what a layout profile must answer
 * (extract/types/profile-make.c runs this on a recording target over the
 * vmlinux DWARF or BTF and writes every answer, present or absent).
 *
 * Two kinds. The layouts are asked by running the probes themselves, so
 * that a member added to one is in the next profile made: layout.c's
 * table (ftrace and the printk ring), the session's flags, relay's and
 * blktrace's layout, the ktrace recorder's and LTTng's. A probe branches
 * on the answers it gets (trace_array.array_buffer present: the 5.6+ ring
 * buffer's name), as it will on the same answers from the profile, so the
 * run asks what a run on a dump of this kernel asks.
 *
 * The rest are asked while walking the dump's memory (a symbol, then a
 * member of what it points to), which this run has not: they are listed
 * below, beside the file that asks each. tests/t-profile.sh checks that
 * every question lib/ writes as a literal is answered by a profile, so
 * one added to lib/ and not here fails the tests, not a capture.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "krec/krec.h"
#include "lttng/find.h"
#include "relay/relay.h"

struct question {
	char kind;		/* 's' symbol, 'm' member, 'z' size, 'e' enumerator */
	const char *a, *b;	/* the name (a type for 'm'), the member */
};

#define SYM(n) { 's', n, NULL }
#define MEM(t, m) { 'm', t, m }

static const struct question later[] = {
	/* ftrace/buffers.c: the trace arrays, the CPUs, trace_clocks[]' functions */
	SYM("global_trace"), SYM("ftrace_trace_arrays"), SYM("nr_cpu_ids"),
	SYM("trace_clock_local"), SYM("trace_clock_global"), SYM("trace_clock_counter"),
	SYM("trace_clock_jiffies"), SYM("trace_clock"), SYM("ktime_get_mono_fast_ns"),
	SYM("ktime_get_raw_fast_ns"), SYM("ktime_get_boot_fast_ns"),
	SYM("ktime_get_tai_fast_ns"), SYM("trace_clock_x86_tsc"),
	/* ftrace/cmdlines.c, events.c, trace_printk.c */
	SYM("savedcmd"), SYM("ftrace_events"), SYM("ftrace_common_fields"),
	SYM("__start___trace_bprintk_fmt"), SYM("__stop___trace_bprintk_fmt"),
	SYM("__start___tracepoint_str"), SYM("__stop___tracepoint_str"),
	SYM("trace_bprintk_fmt_list"),
	/* ftrace/probe.c: dynamic events' printers, kretprobed() */
	SYM("kprobe_funcs"), SYM("kretprobe_funcs"), SYM("enter_syscall_print_funcs"),
	SYM("exit_syscall_print_funcs"), SYM("uprobe_funcs"), SYM("eprobe_funcs"),
	SYM("fentry_funcs"), SYM("fexit_funcs"), SYM("synth_event_funcs"),
	SYM("__kretprobe_trampoline"), SYM("arch_rethook_trampoline"),
	SYM("kretprobe_trampoline"),
	/* ftrace/bootmap.c: last_boot_info from tr->scratch (6.13+) */
	MEM("struct trace_scratch", "clock"), MEM("struct trace_scratch", "text_addr"),
	MEM("struct trace_scratch", "kaslr_addr"), MEM("struct trace_scratch", "nr_entries"),
	MEM("struct trace_scratch", "entries"), MEM("struct trace_mod_entry", "mod_addr"),
	MEM("struct trace_mod_entry", "mod_name"), { 'z', "struct trace_mod_entry", NULL },
	/* ftrace/fgraph.c: irq entry text */
	SYM("__irqentry_text_start"), SYM("__irqentry_text_end"),
	/* ftrace/blk.c: TRACE_BLK's id, its options, 6.19's blk_io_trace2 */
	SYM("trace_blk_event"), SYM("blk_tracer_flags"), MEM("struct blk_trace", "version"),
	/* ftrace/options.c: the osnoise tracer's header, record-tgid */
	SYM("osnoise_data"), MEM("struct osnoise_data", "tainted"),
	SYM("tgid_map"), SYM("tgid_map_max"),
	/* ftrace/latency.c: the latency tracers' header (preempt_* 6.15+) */
	SYM("__per_cpu_offset"), SYM("preempt_dynamic_mode"), SYM("preempt_model_str"),
	SYM("preempt_modes"),
	/* ftrace/render.c: hashed pointers */
	SYM("no_hash_pointers"), SYM("ptr_key"),
	/* ftrace/btf.c: the kernel's BTF, for function arguments (6.15+) */
	SYM("__start_BTF"), SYM("__stop_BTF"),
	/* kallsyms.c: every form since 4.19 (6.0, 6.15 and 7.0 changed it) */
	SYM("kallsyms_names"), SYM("kallsyms_token_table"), SYM("kallsyms_token_index"),
	SYM("kallsyms_addresses"), SYM("kallsyms_offsets"), SYM("kallsyms_relative_base"),
	SYM("kallsyms_num_syms"), SYM("kallsyms_markers"), SYM("kallsyms_seqs_of_names"),
	SYM("_stext"), SYM("_text"),
	/* modsyms.c, panic.c, ident.c, printk/ringbuffer.c, relay/find.c */
	SYM("modules"), SYM("panic_cpu"), SYM("crashing_cpu"),
	SYM("vmcoreinfo_data"), SYM("vmcoreinfo_size"), SYM("vmcoreinfo_note"),
	SYM("prb"), SYM("relay_channels"),
};

static void ask_later(struct kt_session *s, const struct question *q)
{
	uint64_t v, size;
	int64_t e;

	switch (q->kind) {
	case 's':
		kt_symbol(s, q->a, &v);
		break;
	case 'm':
		s->t.member(s->t.priv, q->a, q->b, &v, &size);
		break;
	case 'z':
		s->t.type_size(s->t.priv, q->a, &size);
		break;
	default:
		if (s->t.enumerator)
			s->t.enumerator(s->t.priv, q->a, &e);
		break;
	}
}

int kt_session__ask_layouts(const struct kt_target *target)
{
	struct kt_lttng_layout ll;
	struct kt_session *s;
	size_t i;

	s = calloc(1, sizeof(*s));
	if (!s)
		return kt_err(ENOMEM, "out of memory");
	if (kt_opts__copy(&s->t, sizeof(s->t), target, "kt_target")) {
		free(s);
		return -EINVAL;
	}
	s->log = stderr;
	/*
	 * little-endian whatever the target says: no answer depends on the
	 * byte order, and LTTng's layout, refused on a big-endian kernel
	 * before it asks anything, is then in the profile of every kernel
	 */
	s->l.be = false;
	/* a required member absent (a kernel without ftrace) is an answer too */
	kt_layout__probe(s);
	kt_session__probe_flags(s);
	kt_relay__ask_layout(s);
	kt_krec__ask_layout(s);
	kt_lttng__layout(s, &ll);
	for (i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		ask_later(s, &later[i]);
	/* what the probes left: the read cache of kt_read(), VMCOREINFO's text */
	kt_session__free(s);
	return 0;
}
