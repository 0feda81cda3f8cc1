// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The latency tracers' trace file (wakeup, wakeup_rt, wakeup_dl): with
 * one of them current, a trace array's trace file shows tr->max_buffer,
 * the trace of the longest latency seen (__tracing_open(): print_max),
 * which ktrace lists as NAME.snapshot. The tracer turns latency-format on,
 * so the file has print_trace_header()'s header (what the max_data of the
 * max buffer's CPU recorded: the latency, the task) and
 * print_lat_help_header()'s columns (kernel/trace/trace.c), and each line
 * trace_print_lat_context()'s context: comm-pid, CPU, the latency columns,
 * the time since the trace started and a mark for the gap to the next
 * line, over all CPUs (kernel/trace/trace_output.c).
 *
 * Rendered on PREEMPT_RT kernels (Debian's only kernels with these tracers,
 * 6.1-rt and 6.12-rt, the fixtures), with display-graph off: elsewhere the
 * header's "M:" and columns are choices ktrace has not seen the kernel
 * make, so the buffer stays said and counted.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "render.h"

/* the tracers whose trace file is tr->max_buffer and that ktrace renders */
static bool latency_tracer(const char *name)
{
	return !strcmp(name, "wakeup") || !strcmp(name, "wakeup_rt") || !strcmp(name, "wakeup_dl");
}

/* per_cpu_ptr(@ptr, @cpu) */
static int per_cpu_ptr(struct kt_session *s, uint64_t ptr, int cpu, uint64_t *out)
{
	uint64_t base, off;

	if (kt_symbol(s, "__per_cpu_offset", &base) ||
	    kt_read_u64(s, base + 8ULL * (uint64_t)cpu, &off))
		return -ENOENT;
	*out = ptr + off;
	return 0;
}

/*
 * preempt_model_*() as print_trace_header() asks them: none, voluntary,
 * full, then rt. With CONFIG_PREEMPT_DYNAMIC (6.12-rt has it) the first
 * three are preempt_dynamic_mode (0, 1, 2 of enum preempt_dynamic_mode);
 * NULL: not a PREEMPT_RT kernel (see above).
 *
 * 6.15+ prints preempt_model_str() (kernel/sched/core.c) instead: on a
 * PREEMPT_RT kernel with PREEMPT_DYNAMIC "PREEMPT_{RT,(MODE)}", MODE
 * preempt_modes[preempt_dynamic_mode] ("undef" when negative). Without
 * PREEMPT_DYNAMIC it hangs on CONFIG_PREEMPT_LAZY, which the dump does not
 * tell: NULL, the records counted as not rendered.
 */
static const char *preempt_model(struct kt_session *s, char *buf, size_t len)
{
	static const char *const dyn[] = { "server", "desktop", "preempt" };
	uint64_t addr, modes, str;
	bool dynamic;
	uint32_t mode;
	char *name;

	if (!s->fl.preempt_rt)
		return NULL;
	dynamic = !kt_symbol(s, "preempt_dynamic_mode", &addr) && !kt_read_u32(s, addr, &mode);
	if (kt_symbol(s, "preempt_model_str", &str)) {
		if (dynamic && mode < 3)
			return dyn[mode];
		return "preempt_rt";
	}
	if (!dynamic)
		return NULL;
	if ((int32_t)mode < 0) {
		snprintf(buf, len, "PREEMPT_{RT,(undef)}");
		return buf;
	}
	if (mode > 8 || kt_symbol(s, "preempt_modes", &modes) ||
	    kt_read_u64(s, modes + 8ULL * mode, &str) || !str ||
	    kt_read_string(s, str, 32, &name))
		return NULL;
	snprintf(buf, len, "PREEMPT_{RT,(%s)}", name);
	free(name);
	return buf;
}

/*
 * Whether @b is a latency tracer's trace file that ktrace prints as the
 * kernel does; with its time_start (lat_print_timestamp()'s origin).
 */
bool kt_latency__view(struct kt_session *s, struct kt_buffer *b, const struct kt_trace_opts *o,
		      uint64_t *time_start)
{
	const struct kt_layout *l = &s->l;
	uint64_t val = 0;
	char model[64];

	if (!b->snapshot || !latency_tracer(o->tracer) || !o->latency_fmt || o->verbose ||
	    !preempt_model(s, model, sizeof(model)) || !(s->fl.migrate_col || l->te_preempt_lazy_count.present) || !l->ab_time_start.present || !l->ab_data.present ||
	    !l->ab_cpu.present || !l->tr_max_buffer.present)
		return false;
	/* wakeup's display-graph (TRACE_DISPLAY_GRAPH, 1): the graph's lines */
	if (kt_opts__tracer_flags(s, b->tr, &val))
		val = 0;
	if (val & 1)
		return false;
	return !kt_read_member(s, b->tr + l->tr_max_buffer.off, &l->ab_time_start, time_start);
}

/*
 * tracing_iter_reset(): a CPU the tracer never reset still holds records
 * from before the trace's start; the file skips the leading ones of each
 * CPU (time stamp before time_start). @done: the CPUs past them.
 */
bool kt_latency__skip(const struct kt_trace_opts *o, const struct kt_record *r, uint64_t *done)
{
	if (r->cpu < 0 || r->cpu >= KT_CPUMASK_WORDS * 64 ||
	    (done[r->cpu / 64] & (1ULL << (r->cpu % 64))))
		return false;
	if (r->ts < o->lat_time_start)
		return true;
	done[r->cpu / 64] |= 1ULL << (r->cpu % 64);
	return false;
}

/* each CPU's skipped_entries (tracing_iter_reset()): @skip has nr_cpus slots */
int kt_latency__skipped(struct kt_buffer *b, const struct kt_trace_opts *o, uint64_t *skip)
{
	uint64_t done[KT_CPUMASK_WORDS] = { 0 };
	/* a look ahead: what the reading counts is the printing's to count */
	struct kt_loss loss = b->loss;
	struct kt_iter *it = kt_iter__new(b, NULL);
	struct kt_record r;
	int ret;

	if (!it)
		return -ENOMEM;
	kt_warn_mute(true);
	while ((ret = kt_iter__next(it, &r)) > 0)
		if (kt_latency__skip(o, &r, done) && r.cpu < b->nr_cpus)
			skip[r.cpu]++;
	kt_warn_mute(false);
	kt_iter__free(it);
	b->loss = loss;
	return ret < 0 ? ret : 0;
}

/*
 * get_total_entries() of the max buffer after tracing_iter_reset(): a CPU
 * with skipped entries counts only what is shown, its overruns not at all.
 */
static int entry_counts(struct kt_session *s, struct kt_buffer *b, const struct kt_trace_opts *o,
			uint64_t *in_buffer, uint64_t *written)
{
	uint64_t *skip, in = 0, all = 0;
	int cpu, ret;

	skip = calloc((size_t)b->nr_cpus + 1, sizeof(*skip));
	if (!skip)
		return -ENOMEM;
	ret = kt_latency__skipped(b, o, skip);
	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		const struct kt_cpu_info *i = &b->cpus[cpu].info;
		uint64_t e;

		if (!i->present)
			continue;
		e = i->entries - (i->overrun + i->read);	/* rb_num_of_entries() */
		if (e > i->entries)
			e = 0;
		if (skip[cpu]) {
			e = e > skip[cpu] ? e - skip[cpu] : 0;
			in += e;
			all += e;
		} else {
			in += e;
			all += e + i->overrun;
		}
	}
	free(skip);
	*in_buffer = in;
	*written = all;
	return ret < 0 ? ret : 0;
}

static uint64_t tac(struct kt_session *s, uint64_t data, const struct kt_member *m)
{
	uint64_t v = 0;

	kt_read_member(s, data, m, &v);
	return v;
}

/* print_trace_header() and print_lat_help_header(), after "# tracer" */
void kt_latency__header(struct kt_session *s, struct kt_buffer *b, const struct kt_trace_opts *o,
			int online, FILE *out)
{
	const struct kt_layout *l = &s->l;
	uint64_t mb = b->tr + l->tr_max_buffer.off, data_pcpu = 0, cpu = 0, data = 0;
	uint64_t in = 0, all = 0;
	char comm[17] = "", model[64];
	struct trace_seq q;

	if (!o->context_info)
		return;
	if (entry_counts(s, b, o, &in, &all))
		kt_warn(s, "buffer %s: could not count its records for the latency header", b->name);
	if (!in)	/* trace_empty(): nothing at all */
		return;
	kt_read_member(s, mb, &l->ab_data, &data_pcpu);
	kt_read_member(s, mb, &l->ab_cpu, &cpu);
	if (per_cpu_ptr(s, data_pcpu, (int)(uint32_t)cpu, &data))
		kt_warn(s, "buffer %s: __per_cpu_offset unreadable: the latency header's task "
			   "and latency are those of an unreadable trace_array_cpu", b->name);
	if (l->tac_comm.present)
		kt_read(s, data + l->tac_comm.off, comm, 16);
	comm[16] = '\0';
	fprintf(out, "# %s latency trace v1.1.5 on %s\n", o->tracer,
		kt_session__release(s) ? kt_session__release(s) : "");
	fputs("# --------------------------------------------------------------------\n", out);
	fprintf(out, "# latency: %lu us, #%llu/%llu, CPU#%d | (M:%s VP:%d, KP:%d, SP:%d HP:%d",
		(unsigned long)(tac(s, data, &l->tac_saved_latency) / 1000),
		(unsigned long long)in, (unsigned long long)all, (int)(uint32_t)cpu,
		preempt_model(s, model, sizeof(model)), 0, 0, 0, 0);
	fprintf(out, " #P:%d)\n", online);
	fputs("#    -----------------\n", out);
	fprintf(out, "#    | task: %.16s-%d (uid:%d nice:%ld policy:%ld rt_prio:%ld)\n", comm,
		(int)(uint32_t)tac(s, data, &l->tac_pid), (int)(uint32_t)tac(s, data, &l->tac_uid),
		(long)tac(s, data, &l->tac_nice), (long)tac(s, data, &l->tac_policy),
		(long)tac(s, data, &l->tac_rt_priority));
	fputs("#    -----------------\n", out);
	if (tac(s, data, &l->tac_critical_start)) {
		trace_seq_init(&q);
		trace_seq_puts(&q, "#  => started at: ");
		kt_output__ip_sym(s, o, &q, tac(s, data, &l->tac_critical_start));
		trace_seq_puts(&q, "\n#  => ended at:   ");
		kt_output__ip_sym(s, o, &q, tac(s, data, &l->tac_critical_end));
		trace_seq_puts(&q, "\n#\n");
		trace_seq_terminate(&q);
		fputs(q.buffer, out);
		trace_seq_destroy(&q);
	}
	fputs("#\n", out);
	if (l->te_preempt_lazy_count.present) {
		/* PREEMPT_RT's lazy preemption before 6.6-rt (put_lat(), output.c) */
		fputs("#                    _--------=> CPU#            \n"
		      "#                   / _-------=> irqs-off/BH-disabled\n"
		      "#                  | / _------=> need-resched    \n"
		      "#                  || / _-----=> need-resched-lazy\n"
		      "#                  ||| / _----=> hardirq/softirq \n"
		      "#                  |||| / _---=> preempt-depth   \n"
		      "#                  ||||| / _--=> preempt-lazy-depth\n"
		      "#                  |||||| / _-=> migrate-disable \n"
		      "#                  ||||||| /     delay           \n"
		      "#  cmd     pid     |||||||| time  |   caller     \n"
		      "#     \\   /        ||||||||  \\    |    /       \n", out);
	} else {
		fputs("#                    _------=> CPU#            \n"
		      "#                   / _-----=> irqs-off/BH-disabled\n"
		      "#                  | / _----=> need-resched    \n"
		      "#                  || / _---=> hardirq/softirq \n"
		      "#                  ||| / _--=> preempt-depth   \n"
		      "#                  |||| / _-=> migrate-disable \n"
		      "#                  ||||| /     delay           \n"
		      "#  cmd     pid     |||||| time  |   caller     \n"
		      "#     \\   /        ||||||  \\    |    /       \n", out);
	}
}

/* trace_find_mark(): the gap to the next line, in ns */
static char mark(uint64_t d)
{
	static const struct { uint64_t val; char sym; } marks[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' }, { 10000000ULL, '*' },
		{ 1000000ULL, '#' }, { 100000ULL, '!' }, { 10000ULL, '+' },
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (d > marks[i].val)
			return marks[i].sym;
	return ' ';
}

/*
 * trace_print_lat_context() without verbose: lat_print_generic() (comm
 * "%8.8s", pid, CPU, trace_print_lat_fmt()) and lat_print_timestamp()
 * with @next_ts, the time stamp of the line that follows (its own when
 * it is the last).
 */
void kt_latency__context(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
			 uint64_t time_start, uint64_t next_ts, struct trace_seq *q)
{
	char comm[KT_COMM_BUF];
	uint64_t abs_ts = r->ts - time_start, rel_ts = next_ts - r->ts;

	trace_seq_printf(q, "%8.8s-%-7d %3d", kt_session__comm_r(s, r->pid, comm), r->pid, r->cpu);
	kt_output__lat_columns(s, r, q);
	if (kt_render__clock_in_ns(b)) {
		abs_ts = (abs_ts + 500) / 1000;	/* ns2usecs() */
		rel_ts = (rel_ts + 500) / 1000;
		trace_seq_printf(q, " %4lldus%c: ", (long long)abs_ts, mark(rel_ts * 1000));
	} else {
		trace_seq_printf(q, " %4lld: ", (long long)abs_ts);
	}
}
