// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printers of kernel/trace/trace_output.c that ftrace's own events and
 * the line context go through: seq_print_ip_sym() with the buffer's
 * sym-offset/sym-addr options, trace_print_context() with its irq-info and
 * record-tgid columns, the function, print, bputs, kernel and user stack
 * printers, and the raw and hex forms of print_trace_line() (trace.c).
 * Every fact here is the same in 5.10, 6.1 and 6.12 unless a comment says
 * otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"
#include "render.h"
#include "../put.h"

/*
 * seq_print_ip_sym() with the buffer's options: "0" for a NULL ip; the
 * symbol name (kallsyms_lookup(), no module), or with sym-offset
 * sprint_symbol()'s "name+0x1a/0x40 [module]"; "0x%08lx" when no symbol
 * holds it ("0x%lx" with sym-offset, as sprint_symbol() prints it); then
 * " <%016lx>" with sym-addr. The kernel's "%#lx" prints 0 as "0x0".
 */
void kt_output__ip_sym(struct kt_session *s, const struct kt_trace_opts *o,
		       struct trace_seq *q, uint64_t ip)
{
	uint64_t start, size;
	const char *name, *mod;

	if (!ip) {
		trace_seq_putc(q, '0');
		return;
	}
	name = kt_symbol_lookup(s, ip, &start, &size, &mod);
	/* kretprobed(): the kretprobe trampoline is not named (probe.c) */
	if ((s->kretprobe_tramp && ip == s->kretprobe_tramp) ||
	    (s->kretprobe_by_name && name && !(o && o->sym_offset) &&
	     !strcmp(name, "kretprobe_trampoline")))
		trace_seq_puts(q, "[unknown/kretprobe'd]");
	else if (!name)
		trace_seq_printf(q, o && o->sym_offset ? "0x%llx" : "0x%08llx",
				 (unsigned long long)ip);
	else if (o && o->sym_offset)
		trace_seq_printf(q, "%s+0x%llx/0x%llx%s%s%s", name,
				 (unsigned long long)(ip - start), (unsigned long long)size,
				 mod ? " [" : "", mod ? mod : "", mod ? "]" : "");
	else
		kt_seq_put(q, name, strlen(name));
	if (o && o->sym_addr)
		trace_seq_printf(q, " <%016llx>", (unsigned long long)ip);
}

uint64_t kt_output__field(struct tep_event *ev, const char *name, struct tep_record *r,
			  bool *ok)
{
	return kt_output__field_at(tep_find_field(ev, name), r, ok);
}

/* kt_output__field() of a field already found (NULL: none) */
uint64_t kt_output__field_at(struct tep_format_field *f, struct tep_record *r, bool *ok)
{
	unsigned long long v = 0;

	if (!kt_field_inside(f, r->size < 0 ? 0 : (uint64_t)r->size) ||
	    tep_read_number_field(f, r->data, &v)) {
		*ok = false;
		return 0;
	}
	return v;
}

/* trailing newlines are the kernel's; the caller adds exactly one */
void kt_output__text(struct trace_seq *q, const char *p, size_t max)
{
	size_t n = strnlen(p, max);

	while (n && p[n - 1] == '\n')
		n--;
	trace_seq_printf(q, "%.*s", (int)n, p);
}

/*
 * trace_user_stack_print(): "<user stack trace>", then " => " and
 * seq_print_user_ip() per non-zero entry of the FTRACE_STACK_ENTRIES (8).
 * Without sym-userobj the kernel has no mm and prints " <%016lx>". With
 * it, the kernel looked the task up when the file was read and printed the
 * mapped file and offset ("/bin/sh[+0x1234]"); ktrace does not walk the
 * task's VMAs, so those records are counted as not rendered and said so.
 */
static bool print_user_stack(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			     struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	struct tep_format_field *f = tep_find_field(ev, "caller");
	uint32_t off, i;

	if (!f || f->offset < 0 || f->offset > r->size)
		return false;
	if (b->opts.sym_userobj) {
		b->loss.events_unrendered++;
		if (!b->opts.warned_userobj)
			kt_warn(s, "buffer %s: option sym-userobj is on: the kernel printed the "
				   "file of each user stack address, ktrace prints the address "
				   "alone, marked [sym-userobj not rendered]", b->name);
		b->opts.warned_userobj = true;
	}
	trace_seq_puts(q, "<user stack trace>");
	for (i = 0, off = (uint32_t)f->offset; i < 8 && off + 8 <= (uint32_t)r->size;
	     i++, off += 8) {
		uint64_t ip = kt_get64(s->l.be, (const uint8_t *)r->data + off);

		if (!ip)
			break;
		trace_seq_printf(q, "\n =>  <%016llx>", (unsigned long long)ip);
		if (b->opts.sym_userobj)
			trace_seq_puts(q, " [sym-userobj not rendered]");
	}
	return true;
}

/* FUNC_REPEATS_GET_DELTA_TS() of kernel/trace/trace_entries.h (5.13+) */
static uint64_t func_repeats_delta(struct tep_event *ev, struct tep_record *r, bool *ok)
{
	uint64_t top = kt_output__field(ev, "top_delta_ts", r, ok);
	uint64_t bottom = kt_output__field(ev, "bottom_delta_ts", r, ok);

	return (top << 32) | (bottom & 0xffffffffULL);
}

/*
 * trace_func_repeats_print() (func-repeats option of the function tracer,
 * 5.13+): the function as print_fn_trace() prints it, then
 * " (repeats: %u, last_ts:" and trace_print_time() of the last repeat's
 * time stamp (this record's minus the delta), then ")".
 */
static bool func_repeats(struct kt_session *s, struct kt_buffer *b, struct tep_event *ev,
			 struct tep_record *r, uint64_t ip, struct trace_seq *q)
{
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	bool ok = true;
	uint64_t parent = kt_output__field(ev, "parent_ip", r, &ok);
	uint64_t count = kt_output__field(ev, "count", r, &ok);
	uint64_t ts = r->ts - func_repeats_delta(ev, r, &ok);

	if (!ok)
		return false;
	kt_output__ip_sym(s, o, q, ip);
	if (parent && o->print_parent) {
		trace_seq_puts(q, " <-");
		kt_output__ip_sym(s, o, q, parent);
	}
	trace_seq_printf(q, " (repeats: %u, last_ts:", (unsigned)count);
	if (kt_render__clock_in_ns(b)) {
		uint64_t us = (ts + 500) / 1000;	/* ns2usecs() rounds */

		trace_seq_printf(q, " %5llu.%06llu", (unsigned long long)(us / 1000000),
				 (unsigned long long)(us % 1000000));
	} else {
		trace_seq_printf(q, " %12llu", (unsigned long long)ts);
	}
	trace_seq_putc(q, ')');
	return true;
}

/* task_index_to_char() */
static char state_char(uint64_t index)
{
	static const char states[] = "RSDTtXZPI";

	return index < sizeof(states) - 1 ? states[index] : '?';
}

/*
 * The printers of ftrace's own entries, as trace_output.c registers a
 * struct trace_event for each: the text after a line's context, or false
 * when a field is missing (libtraceevent prints the record then). Given to
 * each event of ftrace_printers[] below by its type (kt_output__register()).
 */
/*
 * trace_ctxwake_print() of the wakeup tracers' context switches and wake-ups:
 * " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s"
 */
static bool print_ctxwake(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			  struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	bool ok = true;
	uint64_t prev_pid = kt_output__field(ev, "prev_pid", r, &ok);
	uint64_t prev_prio = kt_output__field(ev, "prev_prio", r, &ok);
	uint64_t prev_state = kt_output__field(ev, "prev_state", r, &ok);
	uint64_t next_cpu = kt_output__field(ev, "next_cpu", r, &ok);
	uint64_t next_pid = kt_output__field(ev, "next_pid", r, &ok);
	uint64_t next_prio = kt_output__field(ev, "next_prio", r, &ok);
	uint64_t next_state = kt_output__field(ev, "next_state", r, &ok);
	char comm[KT_COMM_BUF];

	if (!ok)
		return false;
	trace_seq_printf(q, " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s", (int)prev_pid,
			 (int)prev_prio, state_char(prev_state),
			 ev->name[0] == 'c' ? "==>" : "  +", (int)next_cpu, (int)next_pid,
			 (int)next_prio, state_char(next_state),
			 kt_session__comm_r(s, (int)next_pid, comm));
	return true;
}

/* trace_hwlat_print() */
static bool print_hwlat(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			struct tep_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t seqnum = kt_output__field(ev, "seqnum", r, &ok);
	uint64_t duration = kt_output__field(ev, "duration", r, &ok);
	uint64_t outer = kt_output__field(ev, "outer_duration", r, &ok);
	uint64_t sec = kt_output__field(ev, "tv_sec", r, &ok);
	uint64_t nsec = kt_output__field(ev, "tv_nsec", r, &ok);
	uint64_t count = kt_output__field(ev, "count", r, &ok);
	uint64_t nmi_count = kt_output__field(ev, "nmi_count", r, &ok);
	uint64_t nmi_total = kt_output__field(ev, "nmi_total_ts", r, &ok);

	if (!ok)
		return false;
	trace_seq_printf(q, "#%-5u inner/outer(us): %4llu/%-5llu ts:%lld.%09ld count:%d",
			 (unsigned)seqnum, (unsigned long long)duration,
			 (unsigned long long)outer, (long long)sec, (long)nsec, (int)count);
	/* x86 has no CONFIG_GENERIC_SCHED_CLOCK: the NMI time is printed */
	if ((unsigned)nmi_count)
		trace_seq_printf(q, " nmi-total:%llu nmi-count:%u",
				 (unsigned long long)nmi_total, (unsigned)nmi_count);
	return true;
}

/* trace_osnoise_print(): the share of the CPU left to the thread */
static bool print_osnoise(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			  struct tep_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t runtime = kt_output__field(ev, "runtime", r, &ok);
	uint64_t noise = kt_output__field(ev, "noise", r, &ok);
	uint64_t max_sample = kt_output__field(ev, "max_sample", r, &ok);
	uint64_t hw = kt_output__field(ev, "hw_count", r, &ok);
	uint64_t nmi = kt_output__field(ev, "nmi_count", r, &ok);
	uint64_t irq = kt_output__field(ev, "irq_count", r, &ok);
	uint64_t sirq = kt_output__field(ev, "softirq_count", r, &ok);
	uint64_t thread = kt_output__field(ev, "thread_count", r, &ok);
	uint64_t ratio;

	if (!ok || !runtime)	/* the kernel divides by it */
		return false;
	ratio = (runtime - noise) * 10000000 / runtime;
	trace_seq_printf(q, "%llu %10llu %3llu.%05llu %7llu", (unsigned long long)runtime,
			 (unsigned long long)noise, (unsigned long long)(ratio / 100000),
			 (unsigned long long)(ratio % 100000),
			 (unsigned long long)max_sample);
	trace_seq_printf(q, " %6u %6u %6u %6u %6u", (unsigned)hw, (unsigned)nmi,
			 (unsigned)irq, (unsigned)sirq, (unsigned)thread);
	return true;
}

/* trace_timerlat_print(); "user-ret" came in 6.8 */
static bool print_timerlat(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			   struct tep_record *r, struct trace_seq *q)
{
	bool ok = true;
	static const char *const context[] = { "irq", "thread", "user-ret" };
	uint64_t seqnum = kt_output__field(ev, "seqnum", r, &ok);
	uint64_t ctx = kt_output__field(ev, "context", r, &ok);
	uint64_t latency = kt_output__field(ev, "timer_latency", r, &ok);

	if (!ok || (uint32_t)ctx >= 3)
		return false;
	trace_seq_printf(q, "#%-5u context %6s timer_latency %9llu ns", (unsigned)seqnum,
			 context[(uint32_t)ctx], (unsigned long long)latency);
	return true;
}

/*
 * The ip, parent_ip and args fields of the function event, kept in the
 * context for the last event asked: each context renders with a
 * libtraceevent handle of its own, so the event is the same pointer from
 * record to record (and the cache goes with the handle, render.c)
 */
static struct kt_function_fields *function_fields(struct kt_render *rc, struct tep_event *ev)
{
	struct kt_function_fields *ff = &rc->fn;

	if (ff->ev != ev) {
		ff->ev = ev;
		ff->ip = tep_find_field(ev, "ip");
		ff->parent_ip = tep_find_field(ev, "parent_ip");
		ff->args = tep_find_field(ev, "args");
	}
	return ff;
}

/*
 * The argument registers a function record (option func-args) or a
 * function_graph entry (funcgraph-args) carries after its fixed fields,
 * 6.15+: trace_fn_trace() and print_graph_entry_*() print them when the
 * record holds FTRACE_REGS_MAX_ARGS longs there (6: no architecture
 * overrides it as of 7.2). Their number, or 0 when the record has none.
 */
#define FTRACE_REGS_MAX_ARGS 6

uint32_t kt_output__fn_args(const struct tep_format_field *args, const struct tep_record *r,
			    const uint8_t **p)
{
	*p = NULL;
	if (!args || args->offset <= 0 || r->size < args->offset ||
	    (uint32_t)(r->size - args->offset) < FTRACE_REGS_MAX_ARGS * 8)
		return 0;
	*p = (const uint8_t *)r->data + args->offset;
	return FTRACE_REGS_MAX_ARGS;
}

/*
 * print_function_args() of the record's arguments, or a mark where the
 * kernel's print cannot be told (btf.c): counted and said once.
 */
void kt_output__put_args(struct kt_session *s, struct kt_buffer *b, uint64_t func,
			 const uint8_t *args, uint32_t nargs, struct trace_seq *q)
{
	if (!kt_btf__func_args(s, func, args, nargs, q))
		return;
	b->loss.events_unrendered++;
	kt_lock(s);
	if (!b->opts.warned_args)
		kt_warn(s, "buffer %s: function arguments ktrace cannot print as the kernel did "
			   "(a module's function, whose prototype is in the module's BTF, or the "
			   "kernel's BTF unreadable); those records are marked "
			   "[args not rendered] and counted", b->name);
	b->opts.warned_args = true;
	kt_unlock(s);
	trace_seq_puts(q, "([args not rendered])");
}

/* trace_fn_trace(); the function tracer's records are most of a trace */
static bool print_function(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			   struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	struct kt_function_fields *ff = function_fields(rc, ev);
	const uint8_t *args;
	uint32_t nargs;
	bool ok = true;
	uint64_t ip, parent;

	ip = kt_output__field_at(ff->ip, r, &ok);
	if (!ok)
		return false;
	parent = kt_output__field_at(ff->parent_ip, r, &ok);
	kt_output__ip_sym(s, o, q, ip);
	nargs = kt_output__fn_args(ff->args, r, &args);
	if (nargs)
		kt_output__put_args(s, b, ip, args, nargs, q);
	if (ok && parent && o->print_parent) {
		trace_seq_puts(q, " <-");
		kt_output__ip_sym(s, o, q, parent);
	}
	return true;
}

/*
 * trace_stack_print(): one " => symbol" line per caller up to the end of
 * the record or a ULONG_MAX terminator.
 */
static bool print_kernel_stack(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			       struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	struct tep_format_field *f;
	uint32_t off;

	f = tep_find_field(ev, "caller");
	if (!f || f->offset < 0 || f->offset > r->size)
		return false;
	trace_seq_puts(q, "<stack trace>");
	for (off = (uint32_t)f->offset; off + 8 <= (uint32_t)r->size; off += 8) {
		uint64_t ip = kt_get64(s->l.be, (const uint8_t *)r->data + off);

		if (ip == UINT64_MAX)
			break;
		trace_seq_puts(q, "\n => ");
		/*
		 * FTRACE_TRAMPOLINE_MARKER (INT_MAX, 6.3+): a return into
		 * an ftrace trampoline; never a kernel address before
		 */
		if (ip == 0x7fffffff) {
			trace_seq_puts(q, "[FTRACE TRAMPOLINE]");
			continue;
		}
		kt_output__ip_sym(s, o, q, ip);
	}
	return true;
}

/* trace_print_print(): "%ps: %s" */
static bool print_print(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	struct tep_format_field *f;
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", r, &ok);

	if (!ok)
		return false;
	f = tep_find_field(ev, "buf");
	if (!f || f->offset < 0 || f->offset > r->size)
		return false;
	kt_output__ip_sym(s, o, q, ip);
	trace_seq_puts(q, ": ");
	kt_output__text(q, (const char *)r->data + f->offset, r->size - f->offset);
	return true;
}

/* trace_bputs_print() */
static bool print_bputs(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", r, &ok);
	uint64_t str;
	char *text;

	if (!ok)
		return false;
	str = kt_output__field(ev, "str", r, &ok);
	if (!ok)
		return false;
	kt_output__ip_sym(s, o, q, ip);
	trace_seq_puts(q, ": ");
	if (!kt_read_string(s, str, KT_MAX_STR, &text)) {
		kt_output__text(q, text, KT_MAX_STR);
		free(text);
	} else {
		trace_seq_printf(q, "(string at 0x%llx not in the dump)",
				 (unsigned long long)str);
	}
	return true;
}

static bool print_func_repeats(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			       struct tep_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", r, &ok);

	return ok && func_repeats(s, b, ev, r, ip, q);
}

/*
 * The context columns are most of a line's cost (a function tracer's
 * record has little else), so they are put together by hand in a small
 * buffer and given to the trace_seq at once; each helper is the printf
 * conversion its comment names, and returns the end of what it wrote.
 */

/* "%x" of @v, or '.' for 0 */
static char *put_hex_or_dot(char *p, unsigned v)
{
	if (!v) {
		*p++ = '.';
		return p;
	}
	return kt_put_hex(p, v);
}

/*
 * trace_print_lat_fmt(): irqs-off, need-resched, hard/softirq, preempt,
 * migrate. @lazy_pc: the entry's preempt_lazy_count, -1 when it has none.
 * At most 9 characters.
 */
static char *put_lat(struct kt_session *s, char *p, unsigned flags, unsigned pc, int lazy_pc)
{
	bool nmi = flags & s->fl.nmi, hardirq = flags & s->fl.hardirq;
	bool softirq = flags & s->fl.softirq, bh_off = s->fl.bh_off && (flags & s->fl.bh_off);
	bool irqs_off = flags & s->fl.irqs_off;
	bool nr = flags & s->fl.need_resched, pr = flags & s->fl.preempt_resched;
	bool lazy = s->fl.need_resched_lazy && (flags & s->fl.need_resched_lazy);
	char a, b, c;

	a = (irqs_off && bh_off) ? 'D' : irqs_off ? 'd' : bh_off ? 'b' :
	    (s->fl.irqs_nosupport && (flags & s->fl.irqs_nosupport)) ? 'X' : '.';
	c = (nmi && hardirq) ? 'Z' : nmi ? 'z' : (hardirq && softirq) ? 'H' :
	    hardirq ? 'h' : softirq ? 's' : '.';
	if (lazy_pc >= 0) {
		/*
		 * PREEMPT_RT's lazy preemption before 6.6-rt (Debian's 6.1-rt):
		 * under CONFIG_PREEMPT_LAZY the need-resched switch keeps only
		 * its 'n' case (TRACE_FLAG_NEED_RESCHED_LAZY took
		 * PREEMPT_RESCHED's bit), need-resched-lazy is a column of its
		 * own ('L'), and the lazy preempt count comes between
		 * preempt-depth and migrate-disable
		 */
		*p++ = a;
		*p++ = nr && !pr ? 'n' : '.';
		*p++ = lazy ? 'L' : '.';
		*p++ = c;
		p = put_hex_or_dot(p, pc & 0xf);
		p = put_hex_or_dot(p, (unsigned)lazy_pc);
		return put_hex_or_dot(p, pc >> 4);
	}
	if (nr && lazy && pr)
		b = 'B';
	else if (nr && pr)
		b = 'N';
	else if (lazy && pr)
		b = 'L';
	else if (nr && lazy)
		b = 'b';
	else if (nr)
		b = 'n';
	else if (lazy)
		b = 'l';
	else if (pr)
		b = 'p';
	else
		b = '.';
	*p++ = a;
	*p++ = b;
	*p++ = c;
	if (!s->fl.migrate_col)
		return put_hex_or_dot(p, pc);
	p = put_hex_or_dot(p, pc & 0xf);
	return put_hex_or_dot(p, pc >> 4);
}

/* trace_print_lat_fmt() of @r (latency.c), at @p */
static char *lat_columns(struct kt_session *s, const struct kt_record *r, char *p)
{
	const struct kt_layout *l = &s->l;
	const uint8_t *d = r->data;
	unsigned flags = r->size > l->te_flags.off ? d[l->te_flags.off] : 0;
	unsigned pc = r->size > l->te_preempt_count.off ? d[l->te_preempt_count.off] : 0;
	int lazy_pc = !l->te_preempt_lazy_count.present ? -1 :
		      r->size > l->te_preempt_lazy_count.off ? d[l->te_preempt_lazy_count.off] : 0;

	return put_lat(s, p, flags, pc, lazy_pc);
}

/*
 * trace_print_context(): comm-pid, the TGID column with record-tgid
 * ("(-------)" when the map has none), [cpu], the latency columns with
 * irq-info, the time stamp. Nothing at all with context-info off
 * (print_trace_fmt()).
 */
void kt_render__context(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
			struct trace_seq *q)
{
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	/* comm 16, pid and tgid 2 x 23, cpu 13, latency 9, time stamp 25, separators */
	char comm[KT_COMM_BUF], line[160], *p = line;
	const char *c;
	size_t n;

	if (!o->context_info)
		return;
	/* "%16s-%-*d " */
	c = kt_session__comm_r(s, r->pid, comm);
	n = strnlen(c, KT_COMM_BUF - 1);
	if (n < 16) {
		memset(p, ' ', 16 - n);
		p += 16 - n;
	}
	memcpy(p, c, n);
	p += n;
	*p++ = '-';
	p = kt_put_dec(p, r->pid, -s->fl.pid_width, false);
	*p++ = ' ';
	if (o->record_tgid) {
		int tgid = kt_opts__tgid(s, r->pid);

		/* "(%*d) ", or "(%.*s) " of "-------" */
		*p++ = '(';
		if (tgid) {
			p = kt_put_dec(p, tgid, s->fl.pid_width, false);
		} else {
			n = s->fl.pid_width < 7 ? (size_t)s->fl.pid_width : 7;
			memset(p, '-', n);
			p += n;
		}
		*p++ = ')';
		*p++ = ' ';
	}
	/* "[%03d] " */
	*p++ = '[';
	p = kt_put_dec(p, r->cpu, 3, true);
	*p++ = ']';
	*p++ = ' ';
	if (o->irq_info)
		p = lat_columns(s, r, p);
	*p++ = ' ';
	if (kt_render__clock_in_ns(b)) {
		uint64_t us = (r->ts + 500) / 1000;	/* ns2usecs() rounds */

		/* " %5llu.%06llu: " */
		p = kt_put_udec(p, us / 1000000, 5);
		*p++ = '.';
		p = kt_put_dec(p, (int64_t)(us % 1000000), 6, true);
	} else {
		/* " %12llu: " */
		p = kt_put_udec(p, r->ts, 12);
	}
	*p++ = ':';
	*p++ = ' ';
	*p = 0;
	kt_seq_put(q, line, (size_t)(p - line));
}

/* trace_print_lat_fmt() of @r (latency.c) */
void kt_output__lost(const struct kt_record *r, struct trace_seq *q)
{
	if (r->missed)
		trace_seq_printf(q, "CPU:%d [LOST %llu EVENTS]\n", r->cpu,
				 (unsigned long long)r->missed);
	else if (r->missed_unknown)
		trace_seq_printf(q, "CPU:%d [LOST EVENTS]\n", r->cpu);
}

void kt_output__lat_columns(struct kt_session *s, const struct kt_record *r, struct trace_seq *q)
{
	char cols[16], *p = lat_columns(s, r, cols);

	*p = 0;
	trace_seq_puts(q, cols);
}

/* trace_seq_putmem_hex() of a little-endian value: its bytes last to first, then ' ' */
static void put_hex(struct trace_seq *q, uint64_t v, int bytes)
{
	trace_seq_printf(q, "%0*llx ", 2 * bytes, (unsigned long long)v);
}

/* trace_fn_raw() */
static bool raw_function(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			 struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	uint64_t parent;

	if (!ok)
		return false;
	parent = kt_output__field(ev, "parent_ip", rec, &ok);
	trace_seq_printf(q, "%llx %llx", (unsigned long long)ip, (unsigned long long)parent);
	return true;
}

/* trace_fn_hex(), then print_hex_fmt()'s newline */
static bool hex_function(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			 struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	uint64_t parent;

	if (!ok)
		return false;
	parent = kt_output__field(ev, "parent_ip", rec, &ok);
	put_hex(q, ip, 8);
	put_hex(q, parent, 8);
	return true;
}

/* trace_func_repeats_raw(): "%lu %lu %u %llu" (hex: trace_nop_print()) */
static bool raw_func_repeats(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			     struct tep_record *rec, const struct kt_record *r,
			     struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	uint64_t parent, count, delta;

	if (!ok)
		return false;
	parent = kt_output__field(ev, "parent_ip", rec, &ok);
	count = kt_output__field(ev, "count", rec, &ok);
	delta = func_repeats_delta(ev, rec, &ok);
	if (!ok)
		return false;
	trace_seq_printf(q, "%llu %llu %u %llu", (unsigned long long)ip,
			 (unsigned long long)parent, (unsigned)count, (unsigned long long)delta);
	return true;
}

/* trace_print_raw(): "# %lx %s" */
static bool raw_print(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
		      struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	struct tep_format_field *f = tep_find_field(ev, "buf");

	if (!ok || !f || f->offset < 0 || f->offset > (int)r->size)
		return false;
	trace_seq_printf(q, "# %llx ", (unsigned long long)ip);
	kt_output__text(q, (const char *)r->data + f->offset, r->size - f->offset);
	return true;
}

/* trace_bputs_raw(), trace_bprint_raw(): ": %lx : " then the text */
static bool raw_bputs(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
		      struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	struct trace_seq t;
	const char *p;

	if (!ok)
		return false;
	trace_seq_init(&t);
	kt_render__event(rc, b, r, &t);
	trace_seq_terminate(&t);
	p = strstr(t.buffer, ": ");
	trace_seq_printf(q, ": %llx : %s", (unsigned long long)ip, p ? p + 2 : t.buffer);
	trace_seq_destroy(&t);
	return true;
}

/* bytes into @q, NULs included (libtraceevent has no trace_seq_putmem()) */
static void put_bytes(struct trace_seq *q, const uint8_t *p, unsigned n)
{
	while (n--)
		trace_seq_putc(q, *p++);
}

/* SEQ_PUT_FIELD(): a field's bytes as they are, in the kernel's byte order (@be) */
static void put_field(struct trace_seq *q, bool be, uint64_t v, unsigned int bytes)
{
	uint8_t d[8];

	kt_putn(be, d, v, bytes);
	put_bytes(q, d, bytes);
}

/* trace_fn_bin() */
static bool bin_function(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			 struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	bool ok = true;
	uint64_t ip = kt_output__field(ev, "ip", rec, &ok);
	uint64_t parent = kt_output__field(ev, "parent_ip", rec, &ok);

	if (!ok)
		return false;
	put_field(q, rc->s->l.be, ip, 8);
	put_field(q, rc->s->l.be, parent, 8);
	return true;
}

/* trace_ctxwake_bin(): the seven fields of a switch or wake-up, each its own size */
static bool bin_ctxwake(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			struct tep_record *rec, const struct kt_record *r, struct trace_seq *q)
{
	static const char *const ctx[] = { "prev_pid", "prev_prio", "prev_state", "next_cpu",
					   "next_pid", "next_prio", "next_state" };
	size_t i;

	for (i = 0; i < sizeof(ctx) / sizeof(ctx[0]); i++) {
		struct tep_format_field *f = tep_find_field(ev, ctx[i]);

		if (!kt_field_inside(f, r->size) || f->size > 8)
			return false;
	}
	for (i = 0; i < sizeof(ctx) / sizeof(ctx[0]); i++) {
		struct tep_format_field *f = tep_find_field(ev, ctx[i]);

		put_bytes(q, (const uint8_t *)r->data + f->offset, (unsigned)f->size);
	}
	return true;
}

typedef bool (*ftrace_print_fn)(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
				struct tep_record *r, struct trace_seq *q);
/*
 * the options raw, hex and bin: the entry's own raw(), hex() or binary()
 * after the context; false: the kernel's trace_nop_print() instead
 * (@r: the record, @rec: the same for libtraceevent's field readers)
 */
typedef bool (*ftrace_raw_fn)(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
			      struct tep_record *rec, const struct kt_record *r,
			      struct trace_seq *q);

/* blk_trace_event_print(): print_one_line() without blk_classic (blk.c) */
static bool print_blk(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
		      struct tep_record *r, struct trace_seq *q)
{
	kt_blk__print(rc->s, b, r->data, (uint32_t)r->size, r->cpu, r->ts, false, q);
	return true;
}

/*
 * The printers of one of ftrace's own entries, as trace_output.c
 * registers a struct trace_event for each with its trace(), raw(), hex()
 * and binary(); an entry without one (NULL) gets the kernel's default for
 * it (bprint's trace: libtraceevent with the trace_printk formats; the
 * others trace_nop_print())
 */
struct kt_printer {
	const char *name;
	ftrace_print_fn trace;
	ftrace_raw_fn raw, hex, bin;
};

static const struct kt_printer ftrace_printers[] = {
	{ "function", print_function, raw_function, hex_function, bin_function },
	{ "user_stack", print_user_stack, NULL, NULL, NULL },
	{ "kernel_stack", print_kernel_stack, NULL, NULL, NULL },
	{ "context_switch", print_ctxwake, NULL, NULL, bin_ctxwake },
	{ "wakeup", print_ctxwake, NULL, NULL, bin_ctxwake },
	{ "hwlat", print_hwlat, NULL, NULL, NULL },
	{ "osnoise", print_osnoise, NULL, NULL, NULL },
	{ "timerlat", print_timerlat, NULL, NULL, NULL },
	{ "print", print_print, raw_print, NULL, NULL },
	{ "bputs", print_bputs, raw_bputs, NULL, NULL },
	{ "bprint", NULL, raw_bputs, NULL, NULL },
	{ "func_repeats", print_func_repeats, raw_func_repeats, NULL, NULL },
};

/* TRACE_BLK, whose entry the kernel registers from blktrace.c (blk.c makes its event) */
static const struct kt_printer blk_printer = { "blktrace", print_blk, NULL, NULL, NULL };

/*
 * Each event of the table its printers, found once by its system and name
 * as register_trace_event() files a struct trace_event under its type:
 * rendering then finds them by the record's type, without a comparison
 * of names per record. Only ftrace's own entries have printers of their
 * own; every other event is printed from its print fmt.
 */
void kt_output__register(struct kt_session *s)
{
	int i;
	size_t k;

	for (i = 0; i < s->nr_events; i++) {
		struct kt_event *e = &s->events[i];

		e->printer = NULL;
		if (s->blk_type && e->id == s->blk_type) {
			e->printer = &blk_printer;
			continue;
		}
		if (!e->system || strcmp(e->system, "ftrace") || !e->name)
			continue;
		for (k = 0; k < sizeof(ftrace_printers) / sizeof(ftrace_printers[0]); k++)
			if (!strcmp(ftrace_printers[k].name, e->name))
				e->printer = &ftrace_printers[k];
	}
}

/* the printers registered for records of type @id, NULL when it has none of its own */
static const struct kt_printer *printer_of(struct kt_session *s, int id)
{
	const struct kt_event *e = kt_session__find_event(s, id);

	return e ? e->printer : NULL;
}

bool kt_output__ftrace(struct kt_render *rc, struct kt_buffer *b, const struct kt_event *e,
		       struct tep_event *ev, struct tep_record *r, struct trace_seq *q)
{
	const struct kt_printer *p = e->printer;

	return p && p->trace && p->trace(rc, b, ev, r, q);
}

/*
 * print_raw_fmt() and print_hex_fmt() (trace.c): "pid cpu ts " (raw) or
 * the three as hex (hex), unless context-info is off, then the event's
 * raw or hex printer. Only function, print, bputs and bprint have a raw
 * printer and only function a hex one; every other event, tracepoints
 * included, gets trace_nop_print()'s "type: N". print_hex_fmt() adds a
 * newline after the event's own. @q gets the text without its final
 * newline, which the caller adds.
 */
int kt_output__raw_hex(struct kt_render *rc, struct kt_buffer *b, const struct kt_record *r,
		       struct trace_seq *q)
{
	const struct kt_trace_opts *o = kt_opts__load(rc->s, b);
	struct tep_event *ev = kt_render__find_event(rc, r->type);
	struct tep_record rec = { .ts = r->ts, .cpu = r->cpu, .size = (int)r->size,
				  .record_size = (int)r->size, .data = (void *)r->data };
	const struct kt_printer *p = ev ? printer_of(rc->s, r->type) : NULL;
	ftrace_raw_fn fn = p ? (o->hex ? p->hex : p->raw) : NULL;

	if (o->context_info && o->hex) {
		put_hex(q, (uint32_t)r->pid, 4);
		put_hex(q, (uint32_t)r->cpu, 4);
		put_hex(q, r->ts, 8);
	} else if (o->context_info) {
		trace_seq_printf(q, "%d %d %llu ", r->pid, r->cpu, (unsigned long long)r->ts);
	}
	if (!ev) {
		/* print_raw_fmt(): "%d ?"; print_hex_fmt(): nothing, then '\n' */
		if (!o->hex)
			trace_seq_printf(q, "%d ?", r->type);
		return -ENOENT;
	}
	if (fn && fn(rc, b, ev, &rec, r, q))
		return 0;
	/* trace_nop_print() */
	trace_seq_printf(q, "type: %d", r->type);
	if (o->hex)
		trace_seq_putc(q, '\n');
	return 0;
}

/*
 * print_bin_fmt() (trace.c): with context-info the pid, the CPU (ints) and
 * the time stamp (u64) as bytes, then the event's binary(): trace_fn_bin()
 * (ip, parent_ip), trace_ctxwake_bin() (the seven fields of a switch or
 * wake-up, each its own size), and for every other event, tracepoints
 * included, trace_nop_print()'s "type: N" line. Nothing else: the caller
 * adds no newline. -ENOENT: an unknown event (the kernel prints nothing).
 */
static int bin_record(struct kt_render *rc, struct kt_buffer *b, const struct kt_trace_opts *o,
		      const struct kt_record *r, struct trace_seq *q)
{
	struct tep_event *ev = kt_render__find_event(rc, r->type);
	struct tep_record rec = { .ts = r->ts, .cpu = r->cpu, .size = (int)r->size,
				  .record_size = (int)r->size, .data = (void *)r->data };
	const struct kt_printer *p = ev ? printer_of(rc->s, r->type) : NULL;

	if (o->context_info) {
		put_field(q, rc->s->l.be, (uint32_t)r->pid, 4);
		put_field(q, rc->s->l.be, (uint32_t)r->cpu, 4);
		put_field(q, rc->s->l.be, r->ts, 8);
	}
	if (!ev)
		return -ENOENT;
	if (p && p->bin && p->bin(rc, b, ev, &rec, r, q))
		return 0;
	trace_seq_printf(q, "type: %d\n", r->type);
	return 0;
}

/* an event whose print fmt prints a bitmask or cpumask (option bitmask-list) */
static bool prints_bitmask(struct kt_session *s, const struct kt_record *r)
{
	const struct kt_event *e = kt_session__find_event(s, r->type);

	/* an unknown event is counted as such (kt_render__event()) */
	return e && e->print_fmt &&
	       (strstr(e->print_fmt, "__get_bitmask") || strstr(e->print_fmt, "__get_cpumask") ||
		strstr(e->print_fmt, "__get_rel_bitmask") || strstr(e->print_fmt, "__get_rel_cpumask"));
}

/*
 * One record of a trace array's buffer as the kernel's trace file shows
 * it with this buffer's options: raw or hex, else the context columns and
 * the event; what the options make the kernel print in a way ktrace does
 * not (bin, latency-format, a tracer's own output...) is counted. The text
 * and the timeline both print through here.
 */
void kt_output__record(struct kt_render *rc, struct kt_buffer *b, const struct kt_trace_opts *o,
		       const struct kt_record *r, struct trace_seq *q)
{
	struct kt_session *s = rc->s;

	if ((o->latency_fmt && !o->lat_view) || o->verbose || o->printk_msgonly || o->fields ||
	    o->tracer_own_output || o->last_boot || (o->bitmask_list && prints_bitmask(s, r)))
		b->loss.events_unrendered++;
	if (o->bin) {
		if (bin_record(rc, b, o, r, q) == -ENOENT)
			b->loss.events_unknown++;
		return;
	}
	if (!o->bin && (o->raw || o->hex)) {
		if (kt_output__raw_hex(rc, b, r, q) == -ENOENT)
			b->loss.events_unknown++;
		return;
	}
	kt_render__context(s, b, r, q);
	if (kt_render__event(rc, b, r, q) == -ENOENT)
		b->loss.events_unknown++;
}
