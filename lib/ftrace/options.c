// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace options of a trace array, as its trace file obeys them:
 * trace_array.trace_flags, whose bits are the enumerators TRACE_ITER_*_BIT
 * of kernel/trace/trace.h (their values moved between versions: 6.12 added
 * FIELDS before PRINTK and TRACE_PRINTK before PAUSE_ON_TRACE, so they are
 * asked of the target, never numbered here), the TGID column of
 * record-tgid, and the header trace_default_header() prints
 * (kernel/trace/trace.c).
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

static bool flag(struct kt_session *s, uint64_t flags, const char *bit_name, bool *present)
{
	int64_t bit;

	*present = s->t.enumerator && !s->t.enumerator(s->t.priv, bit_name, &bit) &&
		   bit >= 0 && bit < 64;
	return *present && (flags & (1ULL << bit));
}

static void tracer_name(struct kt_session *s, struct kt_buffer *b, char *buf, size_t len)
{
	uint64_t cur, name;
	char *str;

	snprintf(buf, len, "nop");
	if (kt_read_member(s, b->tr, &s->l.tr_current_trace, &cur) ||
	    kt_read_member(s, cur, &s->l.tracer_name, &name) ||
	    kt_read_string(s, name, 64, &str))
		return;
	snprintf(buf, len, "%s", str);
	free(str);
}

static void load(struct kt_session *s, struct kt_buffer *b, struct kt_trace_opts *o);

int kt_opts__tracer_flags(struct kt_session *s, uint64_t tr, uint64_t *val)
{
	const struct kt_layout *l = &s->l;
	uint64_t cur, fl;

	if (!l->tflags_val.present)
		return -ENOENT;
	if (l->tr_current_trace_flags.present) {
		if (kt_read_member(s, tr, &l->tr_current_trace_flags, &fl) || !fl)
			return -ENOENT;
	} else if (kt_read_member(s, tr, &l->tr_current_trace, &cur) || !cur ||
		   !l->tracer_flags.present || kt_read_member(s, cur, &l->tracer_flags, &fl) ||
		   !fl) {
		return -ENOENT;
	}
	return kt_read_member(s, fl, &l->tflags_val, val) ? -ENOENT : 0;
}

const struct kt_trace_opts *kt_opts__load(struct kt_session *s, struct kt_buffer *b)
{
	struct kt_trace_opts *o = &b->opts;

	if (o->loaded)
		return o;
	o->loaded = true;
	load(s, b, o);
	/* a latency tracer's trace file is its max buffer (latency.c) */
	o->lat_view = kt_latency__view(s, b, o, &o->lat_time_start);
	if (o->lat_view)
		o->tracer_own_output = false;
	return o;
}

static void load(struct kt_session *s, struct kt_buffer *b, struct kt_trace_opts *o)
{
	uint64_t flags;
	bool p;

	tracer_name(s, b, o->tracer, sizeof(o->tracer));
	/*
	 * A tracer with a print_line() or print_header() of its own
	 * (function_graph, the latency tracers, blk, mmiotrace...) prints its
	 * buffer its own way; ktrace renders only nop's and function's.
	 */
	o->tracer_own_output = strcmp(o->tracer, "nop") && strcmp(o->tracer, "function") &&
			       /* their records' printers are output.c's, the headers here */
			       strcmp(o->tracer, "hwlat") && strcmp(o->tracer, "osnoise") &&
			       strcmp(o->tracer, "timerlat");
	/*
	 * 6.12: a boot-mapped buffer that still holds the previous boot's
	 * events (tr->text_delta, tr->data_delta not 0) is printed by
	 * print_event_fields(), its functions moved by the delta; ktrace does
	 * not print that (no fixture: QEMU boots once), it says so (text.c)
	 */
	if (s->l.tr_text_delta.present) {
		uint64_t text = 0, data = 0;

		kt_read_member(s, b->tr, &s->l.tr_text_delta, &text);
		if (s->l.tr_data_delta.present)
			kt_read_member(s, b->tr, &s->l.tr_data_delta, &data);
		o->last_boot = text || data;
	}
	/*
	 * 6.15+: the kernel moves a previous boot's addresses while
	 * TRACE_ARRAY_FL_LAST_BOOT is set (trace_adjust_address(): module
	 * addresses by their module_delta even when text_delta is 0, a boot
	 * with nokaslr or the same KASLR slot); the flag is cleared when the
	 * buffer is written again (the fixtures' persistent buffers)
	 */
	if (!o->last_boot && s->l.tr_flags.present && b->tr) {
		uint64_t fl = 0;
		int64_t mask;	/* an enumerator BIT(2), a mask (not a bit number) */

		if (s->t.enumerator && !s->t.enumerator(s->t.priv, "TRACE_ARRAY_FL_LAST_BOOT", &mask) &&
		    mask > 0 && !kt_read_member(s, b->tr, &s->l.tr_flags, &fl) &&
		    (fl & (uint64_t)mask))
			o->last_boot = true;
	}
	/* blk's print_line() and print_header() are blk.c's */
	if (s->blk_type && !strcmp(o->tracer, "blk"))
		o->tracer_own_output = false;
	/* TRACE_DEFAULT_FLAGS: print-parent, irq-info and context-info on */
	o->irq_info = o->context_info = o->print_parent = true;
	/* another recorder's buffer (krec) has no trace_array: its defaults */
	if (!s->l.tr_trace_flags.present || !b->tr)
		return;
	if (kt_read_member(s, b->tr, &s->l.tr_trace_flags, &flags)) {
		kt_warn(s, "%s: cannot read its options (trace_flags of trace_array 0x%llx): "
			   "printed with the kernel's defaults, counted", kt_buffer__name(b),
			(unsigned long long)b->tr);
		b->loss.options_unread = 1;
		return;
	}
	o->irq_info = flag(s, flags, "TRACE_ITER_IRQ_INFO_BIT", &p);
	o->known = p;
	if (!p)	{	/* no enumerators (no DWARF enums, old profile): defaults */
		o->irq_info = true;
		return;
	}
	o->context_info = flag(s, flags, "TRACE_ITER_CONTEXT_INFO_BIT", &p) || !p;
	o->print_parent = flag(s, flags, "TRACE_ITER_PRINT_PARENT_BIT", &p) || !p;
	o->record_tgid = flag(s, flags, "TRACE_ITER_RECORD_TGID_BIT", &p);
	o->sym_offset = flag(s, flags, "TRACE_ITER_SYM_OFFSET_BIT", &p);
	o->sym_addr = flag(s, flags, "TRACE_ITER_SYM_ADDR_BIT", &p);
	o->raw = flag(s, flags, "TRACE_ITER_RAW_BIT", &p);
	o->hex = flag(s, flags, "TRACE_ITER_HEX_BIT", &p);
	o->bin = flag(s, flags, "TRACE_ITER_BIN_BIT", &p);
	o->sym_userobj = flag(s, flags, "TRACE_ITER_SYM_USEROBJ_BIT", &p);
	o->verbose = flag(s, flags, "TRACE_ITER_VERBOSE_BIT", &p);
	o->latency_fmt = flag(s, flags, "TRACE_ITER_LATENCY_FMT_BIT", &p);
	/* print_trace_line(): printk-msg-only needs trace_printk on too */
	o->printk_msgonly = flag(s, flags, "TRACE_ITER_PRINTK_MSGONLY_BIT", &p) &&
			    flag(s, flags, "TRACE_ITER_PRINTK_BIT", &p);
	/* 6.x: print_event_fields() instead of the event's own printer */
	o->fields = flag(s, flags, "TRACE_ITER_FIELDS_BIT", &p);
	/* 7.x: trace_print_bitmask_seq() prints "%*pbl" instead of "%*pb" */
	o->bitmask_list = flag(s, flags, "TRACE_ITER_BITMASK_LIST_BIT", &p);
	return;
}

/*
 * trace_find_tgid(): tgid_map[pid] for pid <= tgid_map_max, 0 when the map
 * was never allocated (record-tgid never on) or the pid is beyond it.
 * tgid_map_max came with the map's sizing by pid_max (5.14, backported to
 * 5.10.y); without it the map had PID_MAX_DEFAULT + 1 entries.
 */
int kt_opts__tgid(struct kt_session *s, int pid)
{
	uint64_t addr;
	uint32_t tgid;

	if (!s->tgid_tried) {
		s->tgid_tried = true;
		if (!kt_symbol(s, "tgid_map", &addr))
			kt_read_u64(s, addr, &s->tgid_map);
		s->tgid_map_max = 0x8000;	/* PID_MAX_DEFAULT */
		if (!kt_symbol(s, "tgid_map_max", &addr))
			kt_read_u64(s, addr, &s->tgid_map_max);
	}
	if (!s->tgid_map || pid <= 0 || (uint64_t)pid > s->tgid_map_max ||
	    kt_read_u32(s, s->tgid_map + 4ULL * (uint64_t)pid, &tgid))
		return 0;
	return (int)tgid;
}

/*
 * #P is num_online_cpus() when the file was read. At the crash the other
 * CPUs were stopped and marked offline, so __num_online_cpus says 1; the
 * CPUs that have a per-CPU buffer are the ones that were online.
 */
static int online_cpus(struct kt_buffer *b)
{
	int cpu, cnt = 0;

	for (cpu = 0; cpu < b->nr_cpus; cpu++)
		cnt += b->cpus[cpu].info.present;
	return cnt;
}

/*
 * The osnoise and timerlat tracers' print_header() (trace_osnoise.c):
 * CONFIG_PREEMPT_RT has a variant with the lazy-preemption columns (the
 * lines' own columns are trace_print_lat_fmt()'s, whatever the header says)
 */
static void osnoise_header(struct kt_session *s, const char *tracer, FILE *out)
{
	/* the flag columns' legend both tracers' headers begin with */
	static const char flags[] =
		"#                                _-----=> irqs-off\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n";
	static const char rt_flags[] =
		"#                                _-------=> irqs-off\n"
		"#                               / _------=> need-resched\n"
		"#                              | / _-----=> need-resched-lazy\n"
		"#                              || / _----=> hardirq/softirq\n"
		"#                              ||| / _---=> preempt-depth\n"
		"#                              |||| / _--=> preempt-lazy-depth\n"
		"#                              ||||| / _-=> migrate-disable\n";
	uint64_t addr;
	uint8_t tainted = 0;
	struct kt_member m;

	if (!strcmp(tracer, "timerlat")) {
		if (s->fl.preempt_rt) {
			fputs(rt_flags, out);
			fputs("#                              |||||| /\n"
			      "#                              |||||||             ACTIVATION\n"
			      "#           TASK-PID      CPU# |||||||   TIMESTAMP    ID     "
			      "       CONTEXT                LATENCY\n"
			      "#              | |         |   |||||||      |         |      "
			      "            |                       |\n", out);
			return;
		}
		fputs(flags, out);
		fputs("#                              ||| / _-=> migrate-disable\n"
		      "#                              |||| /     delay\n"
		      "#                              |||||            ACTIVATION\n"
		      "#           TASK-PID      CPU# |||||   TIMESTAMP   ID      "
		      "      CONTEXT                 LATENCY\n"
		      "#              | |         |   |||||      |         |      "
		      "            |                       |\n", out);
		return;
	}
	/* osnoise_data.tainted: "# osnoise is tainted!" */
	if (!kt_symbol(s, "osnoise_data", &addr) &&
	    !kt_member__probe(s, "struct osnoise_data", "tainted", &m) && m.present &&
	    !kt_read(s, addr + m.off, &tainted, 1) && tainted)
		fputs("# osnoise is tainted!\n", out);
	if (s->fl.preempt_rt) {
		fputs(rt_flags, out);
		fputs("#                              |||||| /          "
		      "                                     MAX\n"
		      "#                              ||||| /                         "
		      "                    SINGLE      Interference counters:\n"
		      "#                              |||||||               RUNTIME   "
		      "   NOISE  %% OF CPU  NOISE    +-----------------------------+\n"
		      "#           TASK-PID      CPU# |||||||   TIMESTAMP    IN US    "
		      "   IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n"
		      "#              | |         |   |||||||      |           |      "
		      "       |    |            |      |      |      |      |      |\n", out);
		return;
	}
	fputs(flags, out);
	fputs("#                              ||| / _-=> migrate-disable     "
	      "                    MAX\n"
	      "#                              |||| /     delay               "
	      "                    SINGLE      Interference counters:\n"
	      "#                              |||||               RUNTIME   "
	      "   NOISE  %% OF CPU  NOISE    +-----------------------------+\n"
	      "#           TASK-PID      CPU# |||||   TIMESTAMP    IN US    "
	      "   IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n"
	      "#              | |         |   |||||      |           |      "
	      "       |    |            |      |      |      |      |      |\n", out);
}

/*
 * s_show() and trace_default_header(): "# tracer", then nothing more with
 * context-info off or verbose on, else print_func_help_header_irq() with
 * irq-info, print_func_help_header() without; record-tgid widens both.
 * 5.13 added the migrate-disable column and "/BH-disabled" (5.17) came
 * with it in the kernels we read (6.1, 6.12; 5.10 has neither).
 */
void kt_opts__header(struct kt_session *s, struct kt_buffer *b, FILE *out)
{
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	static const char space[] = "            ";
	int prec = o->record_tgid ? 12 : 2;
	uint64_t in, all;

	fprintf(out, "# tracer: %s\n#\n", o->tracer);
	if (o->lat_view) {
		kt_latency__header(s, b, o, online_cpus(b), out);
		return;
	}
	if (!strcmp(o->tracer, "osnoise") || !strcmp(o->tracer, "timerlat")) {
		osnoise_header(s, o->tracer, out);
		return;
	}
	if (!o->context_info || o->verbose)
		return;
	kt_buffer__entry_counts(b, &in, &all);
	fprintf(out, "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n#\n",
		(unsigned long long)in, (unsigned long long)all, online_cpus(b));
	if (!o->irq_info) {
		fprintf(out, "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION\n",
			o->record_tgid ? "   TGID   " : "");
		fprintf(out, "#              | |      %s   |         |         |\n",
			o->record_tgid ? "     |    " : "");
		return;
	}
	if (s->l.te_preempt_lazy_count.present) {
		/* PREEMPT_RT's lazy preemption before 6.6-rt (put_lat(), output.c) */
		fprintf(out, "#                            %.*s  _-------=> irqs-off/BH-disabled\n",
			prec, space);
		fprintf(out, "#                            %.*s / _------=> need-resched\n", prec, space);
		fprintf(out, "#                            %.*s| / _-----=> need-resched-lazy\n", prec,
			space);
		fprintf(out, "#                            %.*s|| / _----=> hardirq/softirq\n", prec,
			space);
		fprintf(out, "#                            %.*s||| / _---=> preempt-depth\n", prec, space);
		fprintf(out, "#                            %.*s|||| / _--=> preempt-lazy-depth\n", prec,
			space);
		fprintf(out, "#                            %.*s||||| / _-=> migrate-disable\n", prec,
			space);
		fprintf(out, "#                            %.*s|||||| /     delay\n", prec, space);
		fprintf(out, "#           TASK-PID  %.*s CPU#  |||||||  TIMESTAMP  FUNCTION\n", prec,
			"     TGID   ");
		fprintf(out, "#              | |    %.*s   |   |||||||      |         |\n", prec,
			"       |    ");
		return;
	}
	if (s->fl.migrate_col) {
		fprintf(out, "#                            %.*s  _-----=> irqs-off/BH-disabled\n",
			prec, space);
		fprintf(out, "#                            %.*s / _----=> need-resched\n", prec, space);
		fprintf(out, "#                            %.*s| / _---=> hardirq/softirq\n", prec, space);
		fprintf(out, "#                            %.*s|| / _--=> preempt-depth\n", prec, space);
		fprintf(out, "#                            %.*s||| / _-=> migrate-disable\n", prec, space);
		fprintf(out, "#                            %.*s|||| /     delay\n", prec, space);
		fprintf(out, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n", prec,
			"     TGID   ");
		fprintf(out, "#              | |    %.*s   |   |||||     |         |\n", prec,
			"       |    ");
		return;
	}
	fprintf(out, "#                            %.*s  _-----=> irqs-off\n", prec, space);
	fprintf(out, "#                            %.*s / _----=> need-resched\n", prec, space);
	fprintf(out, "#                            %.*s| / _---=> hardirq/softirq\n", prec, space);
	fprintf(out, "#                            %.*s|| / _--=> preempt-depth\n", prec, space);
	fprintf(out, "#                            %.*s||| /     delay\n", prec, space);
	fprintf(out, "#           TASK-PID  %.*s CPU#  ||||   TIMESTAMP  FUNCTION\n", prec,
		"     TGID   ");
	fprintf(out, "#              | |    %.*s   |   ||||      |         |\n", prec,
		"       |    ");
}
