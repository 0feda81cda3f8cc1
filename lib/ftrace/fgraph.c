// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The function_graph tracer's own trace file: print_graph_function_flags()
 * and print_graph_headers_flags() of kernel/trace/trace_functions_graph.c,
 * the same in 5.10, 6.1 and 6.12 unless a comment says otherwise.
 *
 * The printer keeps state per CPU as the kernel's fgraph_data does (the
 * last pid, the depth comments are indented to, the function entered at
 * each depth, the irq depth when irqs are hidden), and folds a call whose
 * next record on its CPU is its own return into one "func();" line, which
 * needs that next record before the merged order reaches it.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"
#include "render.h"

/* TRACE_GRAPH_PRINT_* of kernel/trace/trace.h: the same bits in 5.10 to 6.12 */
#define GRAPH_OVERRUN		0x1
#define GRAPH_CPU		0x2
#define GRAPH_OVERHEAD		0x4
#define GRAPH_PROC		0x8
#define GRAPH_DURATION		0x10
#define GRAPH_ABS_TIME		0x20
#define GRAPH_REL_TIME		0x40
#define GRAPH_IRQS		0x80
#define GRAPH_TAIL		0x100
#define GRAPH_RETVAL		0x800	/* 6.5, with CONFIG_FUNCTION_GRAPH_RETVAL */
#define GRAPH_RETVAL_HEX	0x1000
/* tracer_flags.val's default: cpu, overhead, duration, irqs (sleep/graph time) */
#define GRAPH_DEFAULT		(GRAPH_CPU | GRAPH_OVERHEAD | GRAPH_DURATION | GRAPH_IRQS)

#define RETFUNC_DEPTH		50	/* FTRACE_RETFUNC_DEPTH */
#define GRAPH_INDENT		2	/* TRACE_GRAPH_INDENT */
#define PROCINFO_LENGTH		14	/* TRACE_GRAPH_PROCINFO_LENGTH */

enum fill { FILL_NONE, FILL_FULL, FILL_START, FILL_END };

struct fgraph_cpu {
	int last_pid;
	int depth;
	int depth_irq;
	uint64_t enter_funcs[RETFUNC_DEPTH];
};

struct kt_fgraph {
	struct kt_render *rc;		/* the context its records are rendered in */
	struct kt_session *s;
	struct kt_buffer *b;
	const struct kt_trace_opts *o;
	uint32_t flags;
	int cpu_width;			/* max_bytes_for_cpu */
	uint64_t irq_start, irq_end;	/* __irqentry_text_start/_end */
	uint64_t text_delta;		/* tr->text_delta (6.12): a previous boot's text */
	bool ret_eq;			/* funcgraph-retval printed "= X" (before 6.13), not "ret=X" */
	int nr_cpus;
	struct fgraph_cpu *cpus;
};

/* the graph's entry or return, its fields read once */
struct graph_rec {
	uint64_t func, calltime, rettime, overrun, retval;
	int depth;
	bool has_retval;
	/* an entry's argument registers (funcgraph-args, 6.15+), copied: the record goes */
	uint32_t nargs;
	uint8_t args[16 * 8];
};

/*
 * The tracer's options (funcgraph-*): before 6.19 one static tracer_flags
 * of the tracer shared by every trace array, since then each instance's
 * own copy (kt_opts__tracer_flags()).
 */
static uint32_t read_flags(struct kt_session *s, struct kt_buffer *b)
{
	uint64_t val;

	if (kt_opts__tracer_flags(s, b->tr, &val)) {
		kt_warn(s, "buffer %s: the function_graph tracer's options (struct tracer_flags "
			   "val) are not in the dump: printed with their defaults", b->name);
		return GRAPH_DEFAULT;
	}
	return (uint32_t)val;
}

struct kt_fgraph *kt_fgraph__new(struct kt_render *rc, struct kt_buffer *b)
{
	struct kt_session *s = rc->s;
	const struct kt_trace_opts *o = kt_opts__load(s, b);
	struct kt_fgraph *g;
	int cpu, n;

	if (b->ops || strcmp(o->tracer, "function_graph"))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->rc = rc;
	g->s = s;
	g->b = b;
	g->o = o;
	g->flags = read_flags(s, b);
	/*
	 * 6.13 (funcgraph-retaddr) rewrote print_graph_retval(): "func();
	 * /\* ret=X *\/" and "} /\* func ret=X *\/" where it printed "/\* = X
	 * *\/" and "} /\* func = X *\/"; the kernel of the new one has
	 * TRACE_GRAPH_RETADDR_ENT in enum trace_type, whatever its config
	 */
	if (g->flags & GRAPH_RETVAL) {
		int64_t v;

		g->ret_eq = !s->t.enumerator ||
			    s->t.enumerator(s->t.priv, "TRACE_GRAPH_RETADDR_ENT", &v);
	}
	/* max_bytes_for_cpu = snprintf(NULL, 0, "%u", nr_cpu_ids - 1) */
	for (g->cpu_width = 1, n = s->nr_cpu_ids - 1; n >= 10; n /= 10)
		g->cpu_width++;
	if (kt_symbol(s, "__irqentry_text_start", &g->irq_start) ||
	    kt_symbol(s, "__irqentry_text_end", &g->irq_end))
		g->irq_start = g->irq_end = 0;
	/*
	 * 6.12: a boot-mapped buffer holds the addresses of the boot that
	 * wrote it; functions print at func + text_delta, compare raw.
	 */
	if (s->l.tr_text_delta.present &&
	    kt_read_member(s, b->tr, &s->l.tr_text_delta, &g->text_delta))
		g->text_delta = 0;
	g->nr_cpus = b->nr_cpus;
	g->cpus = calloc((size_t)b->nr_cpus, sizeof(*g->cpus));
	if (!g->cpus) {
		free(g);
		return NULL;
	}
	/* graph_trace_open() */
	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		g->cpus[cpu].last_pid = -1;
		g->cpus[cpu].depth_irq = -1;
	}
	return g;
}

void kt_fgraph__free(struct kt_fgraph *g)
{
	if (!g)
		return;
	free(g->cpus);
	free(g);
}

/*
 * What this printer cannot print the kernel's way: said once, and the
 * buffer's records are then printed by the ordinary path (counted).
 */
bool kt_fgraph__usable(struct kt_fgraph *g)
{
	if (g->o->latency_fmt) {
		kt_warn(g->s, "buffer %s: function_graph with latency-format: ktrace does not "
			      "print its columns; its records are counted as not rendered",
			g->b->name);
		return false;
	}
	if (g->flags & GRAPH_REL_TIME) {
		kt_warn(g->s, "buffer %s: function_graph with relative time (a latency "
			      "tracer's): not printed; its records are counted as not rendered",
			g->b->name);
		return false;
	}
	return true;
}

/* __print_graph_headers_flags(), nothing with context-info off */
void kt_fgraph__header(struct kt_fgraph *g, FILE *out)
{
	uint32_t f = g->flags;

	fprintf(out, "# tracer: %s\n#\n", g->o->tracer);
	if (!g->o->context_info)
		return;
	fprintf(out, "#%s%s%s%s               FUNCTION CALLS\n",
		f & GRAPH_ABS_TIME ? "     TIME       " : "", f & GRAPH_CPU ? " CPU" : "",
		f & GRAPH_PROC ? "  TASK/PID       " : "",
		f & GRAPH_DURATION ? "  DURATION   " : "");
	fprintf(out, "#%s%s%s%s               |   |   |   |\n",
		f & GRAPH_ABS_TIME ? "      |         " : "", f & GRAPH_CPU ? " |  " : "",
		f & GRAPH_PROC ? "   |    |        " : "",
		f & GRAPH_DURATION ? "   |   |      " : "");
}

static void put_cpu(struct kt_fgraph *g, struct trace_seq *q, int cpu)
{
	trace_seq_printf(q, " %*d) ", g->cpu_width, cpu);
}

/* print_graph_proc(): "comm-pid" (comm cut at 7) centred in 14 columns */
static void put_proc(struct kt_fgraph *g, struct trace_seq *q, int pid)
{
	char comm[8], pid_str[12];
	int len, spaces = 0;

	snprintf(comm, sizeof(comm), "%s", kt_session__comm(g->s, pid));
	snprintf(pid_str, sizeof(pid_str), "%d", pid);
	len = (int)(strlen(comm) + strlen(pid_str)) + 1;
	if (len < PROCINFO_LENGTH)
		spaces = PROCINFO_LENGTH - len;
	trace_seq_printf(q, "%*s%s-%s%*s", spaces / 2, "", comm, pid_str,
			 spaces - spaces / 2, "");
}

/* trace_find_mark(): the sign of a duration over 10 us, 100 us, ... 1 s */
static char find_mark(uint64_t d)
{
	static const struct {
		uint64_t val;
		char sym;
	} mark[] = { { 1000000000ULL, '$' }, { 100000000ULL, '@' }, { 10000000ULL, '*' },
		     { 1000000ULL, '#' }, { 100000ULL, '!' }, { 10000ULL, '+' } };
	size_t i;

	for (i = 0; i < sizeof(mark) / sizeof(mark[0]); i++)
		if (d > mark[i].val)
			return mark[i].sym;
	return ' ';
}

/* print_graph_duration() and trace_print_graph_duration() */
static void put_duration(struct kt_fgraph *g, struct trace_seq *q, uint64_t d, enum fill fill)
{
	char usecs[24], nsecs[8];
	int len;

	if (!(g->flags & GRAPH_DURATION) || !g->o->context_info)
		return;
	switch (fill) {
	case FILL_FULL:
		trace_seq_puts(q, "              |  ");
		return;
	case FILL_START:
		trace_seq_puts(q, "  ");
		return;
	case FILL_END:
		trace_seq_puts(q, " |");
		return;
	case FILL_NONE:
		break;
	}
	if (g->flags & GRAPH_OVERHEAD)
		trace_seq_printf(q, "%c ", find_mark(d));
	else
		trace_seq_puts(q, "  ");
	len = snprintf(usecs, sizeof(usecs), "%llu", (unsigned long long)(d / 1000));
	trace_seq_puts(q, usecs);
	if (len < 7) {
		/* at most 7 digits: "%03lu" of the ns cut to 8 - len - 1 chars */
		snprintf(nsecs, (size_t)(8 - len < 5 ? 8 - len : 5), "%03llu",
			 (unsigned long long)(d % 1000));
		trace_seq_printf(q, ".%s", nsecs);
		len += (int)strlen(nsecs) + 1;
	}
	trace_seq_puts(q, " us ");
	for (; len < 8; len++)
		trace_seq_putc(q, ' ');
	trace_seq_puts(q, "|  ");
}

/* the columns before the duration: abstime, cpu, proc (print_graph_prologue()) */
static void put_columns(struct kt_fgraph *g, struct trace_seq *q, const struct kt_record *r)
{
	if (!g->o->context_info)
		return;
	if (g->flags & GRAPH_ABS_TIME)
		trace_seq_printf(q, "%5llu.%06llu |  ", (unsigned long long)(r->ts / 1000000000),
				 (unsigned long long)(r->ts % 1000000000 / 1000));
	if (g->flags & GRAPH_CPU)
		put_cpu(g, q, r->cpu);
	if (g->flags & GRAPH_PROC) {
		put_proc(g, q, r->pid);
		trace_seq_puts(q, " | ");
	}
}

static bool in_irqentry(struct kt_fgraph *g, uint64_t addr)
{
	return addr >= g->irq_start && addr < g->irq_end;
}

/* print_graph_irq(): the "==========>" / "<==========" line of an irq entry function */
static void put_irq(struct kt_fgraph *g, struct trace_seq *q, const struct kt_record *r,
		    uint64_t addr, bool entry)
{
	if (!in_irqentry(g, addr))
		return;
	put_columns(g, q, r);
	put_duration(g, q, 0, FILL_START);
	trace_seq_puts(q, entry ? "==========>" : "<==========");
	put_duration(g, q, 0, FILL_END);
	trace_seq_putc(q, '\n');
}

/* verif_pid(): a task switch on this CPU since its last graph line */
static void verif_pid(struct kt_fgraph *g, struct trace_seq *q, const struct kt_record *r)
{
	struct fgraph_cpu *c = &g->cpus[r->cpu];
	int prev = c->last_pid;

	if (prev == r->pid)
		return;
	c->last_pid = r->pid;
	if (prev == -1)
		return;
	trace_seq_puts(q, " ------------------------------------------\n");
	put_cpu(g, q, r->cpu);
	put_proc(g, q, prev);
	trace_seq_puts(q, " => ");
	put_proc(g, q, r->pid);
	trace_seq_puts(q, "\n ------------------------------------------\n\n");
}

static void prologue(struct kt_fgraph *g, struct trace_seq *q, const struct kt_record *r,
		     uint64_t irq_addr)
{
	verif_pid(g, q, r);
	if (irq_addr)
		put_irq(g, q, r, irq_addr, true);
	put_columns(g, q, r);
}

static void indent(struct trace_seq *q, int depth)
{
	if (depth > 0)
		trace_seq_printf(q, "%*s", depth * GRAPH_INDENT, "");
}

/*
 * print_graph_retval() (6.5): 0x%lx, or %ld for an error code (a value in
 * [-MAX_ERRNO, -1], also as a sign-extended int), unless retval-hex.
 */
static void put_retval(struct kt_fgraph *g, struct trace_seq *q, const char *func,
		       uint64_t retval, bool leaf)
{
	/* print_graph_retval() before 6.13, and since */
	const char *eq = g->ret_eq ? " = " : " ret=";
	bool hex = g->flags & GRAPH_RETVAL_HEX;
	int64_t err = 0;

	if (retval && !hex) {
		if ((retval & (1ULL << 31)) && !(retval >> 32))
			err = (int32_t)retval;
		else
			err = (int64_t)retval;
		if (err < -4095 || err >= 0)	/* !IS_ERR_VALUE() */
			err = 0;
	}
	if (leaf && (hex || !err))
		trace_seq_printf(q, "%s; /*%s0x%llx */\n", func, eq,
				 (unsigned long long)retval);
	else if (leaf)
		trace_seq_printf(q, "%s; /*%s%lld */\n", func, eq, (long long)err);
	else if (hex || !err)
		trace_seq_printf(q, "} /* %s%s0x%llx */\n", func, eq, (unsigned long long)retval);
	else
		trace_seq_printf(q, "} /* %s%s%lld */\n", func, eq, (long long)err);
}

/* %ps of a function address */
static void put_func(struct kt_fgraph *g, struct trace_seq *q, uint64_t func)
{
	struct kt_trace_opts plain = { 0 };

	kt_output__ip_sym(g->s, &plain, q, func + g->text_delta);
}

/* a call: "%ps" and its arguments (print_function_args()) or "()" */
static void put_call(struct kt_fgraph *g, struct trace_seq *q, const struct graph_rec *e)
{
	put_func(g, q, e->func);
	if (e->nargs)
		kt_output__put_args(g->s, g->b, e->func + g->text_delta, e->args, e->nargs, q);
	else
		trace_seq_puts(q, "()");
}

/* what put_call() (@call) or put_func() (@func) prints, as a string to free */
static char *text_of(struct kt_fgraph *g, uint64_t func, const struct graph_rec *call)
{
	struct trace_seq t;
	char *text;

	trace_seq_init(&t);
	if (call)
		put_call(g, &t, call);
	else
		put_func(g, &t, func);
	trace_seq_terminate(&t);
	text = strdup(t.buffer ? t.buffer : "");
	trace_seq_destroy(&t);
	return text;
}

static bool read_graph(struct tep_event *ev, const struct kt_record *r, struct graph_rec *gr)
{
	struct tep_record rec = { .ts = r->ts, .cpu = r->cpu, .size = (int)r->size,
				  .record_size = (int)r->size, .data = (void *)r->data };
	bool ok = true, ret = !strcmp(ev->name, "funcgraph_exit");

	memset(gr, 0, sizeof(*gr));
	gr->func = kt_output__field(ev, "func", &rec, &ok);
	gr->depth = (int)kt_output__field(ev, "depth", &rec, &ok);
	if (!ret) {
		const uint8_t *args;

		gr->nargs = kt_output__fn_args(tep_find_field(ev, "args"), &rec, &args);
		if (gr->nargs > sizeof(gr->args) / 8)
			gr->nargs = sizeof(gr->args) / 8;
		if (gr->nargs)
			memcpy(gr->args, args, gr->nargs * 8);
	} else {
		gr->overrun = kt_output__field(ev, "overrun", &rec, &ok);
		gr->calltime = kt_output__field(ev, "calltime", &rec, &ok);
		gr->rettime = kt_output__field(ev, "rettime", &rec, &ok);
		if (tep_find_field(ev, "retval")) {
			gr->has_retval = true;
			gr->retval = kt_output__field(ev, "retval", &rec, &ok);
		}
	}
	return ok;
}

/* print_graph_entry(): a leaf folded with its return, or an opening brace */
static void graph_entry(struct kt_fgraph *g, struct kt_iter *it, struct tep_event *ev,
			const struct kt_record *r, const struct graph_rec *e,
			struct trace_seq *q)
{
	struct fgraph_cpu *c = &g->cpus[r->cpu];
	struct tep_event *next_ev;
	struct graph_rec ret;
	struct kt_record next;
	bool leaf = false;
	int pid = r->pid;

	/* check_irq_entry(): hidden irqs, from their entry function down */
	if (!(g->flags & GRAPH_IRQS)) {
		if (c->depth_irq >= 0)
			return;
		if (in_irqentry(g, e->func)) {
			c->depth_irq = e->depth;
			return;
		}
	}
	prologue(g, q, r, e->func);
	/* get_return_for_leaf(): the CPU's next record, its return? (@r is gone after) */
	if (kt_iter__peek_cpu(it, &next)) {
		next_ev = kt_render__find_event(g->rc, next.type);
		if (next_ev && next_ev->system && !strcmp(next_ev->system, "ftrace") &&
		    !strcmp(next_ev->name, "funcgraph_exit") && next.pid == pid &&
		    read_graph(next_ev, &next, &ret) && ret.func == e->func)
			leaf = true;
	}
	if (leaf) {
		char *name;

		kt_iter__take_peeked(it);
		c->depth = e->depth - 1;
		if (e->depth >= 0 && e->depth < RETFUNC_DEPTH)
			c->enter_funcs[e->depth] = 0;
		put_duration(g, q, ret.rettime - ret.calltime, FILL_NONE);
		indent(q, e->depth);
		name = text_of(g, 0, e);
		if ((g->flags & GRAPH_RETVAL) && ret.has_retval)
			put_retval(g, q, name ? name : "", ret.retval, true);
		else
			trace_seq_printf(q, "%s;\n", name ? name : "");
		free(name);
		put_irq(g, q, r, ret.func, false);
		return;
	}
	c->depth = e->depth;
	if (e->depth >= 0 && e->depth < RETFUNC_DEPTH)
		c->enter_funcs[e->depth] = e->func;
	put_duration(g, q, 0, FILL_FULL);
	indent(q, e->depth);
	put_call(g, q, e);
	trace_seq_puts(q, " {\n");
}

/* print_graph_return(): the closing brace, named when its entry is not seen */
static void graph_return(struct kt_fgraph *g, const struct kt_record *r,
			 const struct graph_rec *e, struct trace_seq *q)
{
	struct fgraph_cpu *c = &g->cpus[r->cpu];
	bool match = true;

	/* check_irq_return() */
	if (!(g->flags & GRAPH_IRQS) && c->depth_irq != -1) {
		if (c->depth_irq >= e->depth)
			c->depth_irq = -1;
		return;
	}
	c->depth = e->depth - 1;
	if (e->depth >= 0 && e->depth < RETFUNC_DEPTH) {
		match = c->enter_funcs[e->depth] == e->func;
		c->enter_funcs[e->depth] = 0;
	}
	prologue(g, q, r, 0);
	put_duration(g, q, e->rettime - e->calltime, FILL_NONE);
	indent(q, e->depth);
	if ((g->flags & GRAPH_RETVAL) && e->has_retval) {
		char *name = text_of(g, e->func, NULL);

		put_retval(g, q, name ? name : "", e->retval, false);
		free(name);
	} else if (match && !(g->flags & GRAPH_TAIL)) {
		trace_seq_puts(q, "}\n");
	} else {
		trace_seq_puts(q, "} /* ");
		put_func(g, q, e->func);
		trace_seq_puts(q, " */\n");
	}
	if (g->flags & GRAPH_OVERRUN)
		trace_seq_printf(q, " (Overruns: %llu)\n", (unsigned long long)e->overrun);
	put_irq(g, q, r, e->func, false);
}

/*
 * print_graph_comment(): any other event as a comment line of the graph,
 * its text between C comment marks, at the depth of the call it happened
 * in; print, bputs and bprint as their message alone, the others as their
 * event printer writes them ("name: ...").
 */
static bool graph_comment(struct kt_fgraph *g, struct tep_event *ev,
			  const struct kt_record *r, struct trace_seq *q)
{
	struct fgraph_cpu *c = &g->cpus[r->cpu];
	const char *text;
	struct trace_seq t;
	size_t len;

	trace_seq_init(&t);
	if (kt_render__event(g->rc, g->b, r, &t) < 0) {
		trace_seq_destroy(&t);
		return false;
	}
	trace_seq_terminate(&t);
	text = t.buffer;
	if (ev->system && !strcmp(ev->system, "ftrace") && (!strcmp(ev->name, "print") ||
	    !strcmp(ev->name, "bputs") || !strcmp(ev->name, "bprint"))) {
		/* trace_print_*_msg_only(): the text after "%ps: " */
		const char *p = strstr(text, ": ");

		text = p ? p + 2 : text;
	}
	prologue(g, q, r, 0);
	put_duration(g, q, 0, FILL_FULL);
	if (c->depth > 0)
		indent(q, c->depth + 1);
	/* the kernel strips one ending newline; kt_render__event() left none */
	len = strlen(text);
	trace_seq_printf(q, "/* %.*s */\n", (int)len, text);
	trace_seq_destroy(&t);
	return true;
}

/*
 * One record of a function_graph buffer into @q, whole lines with their
 * newlines (none at all for a record the kernel hides). False: the
 * kernel prints this record the ordinary way (function and stack trace
 * records, events without a format), the caller does.
 */
bool kt_fgraph__record(struct kt_fgraph *g, struct kt_iter *it, const struct kt_record *r,
		       struct trace_seq *q)
{
	struct tep_event *ev = kt_render__find_event(g->rc, r->type);
	struct graph_rec e;

	if (!ev || r->cpu < 0 || r->cpu >= g->nr_cpus)
		return false;
	if (ev->system && !strcmp(ev->system, "ftrace")) {
		/*
		 * 6.13's funcgraph-retaddr (CONFIG_FUNCTION_GRAPH_RETADDR, off in
		 * Debian's kernels): an entry with its caller, which the kernel
		 * prints as "func() { /\* <-caller+off/size *\/": not printed that
		 * way here, counted and said; printed as an entry without it
		 */
		bool retaddr = !strcmp(ev->name, "fgraph_retaddr_entry");

		if (retaddr) {
			g->b->loss.events_unrendered++;
			kt_lock(g->s);
			if (!g->b->opts.warned_retaddr)
				kt_warn(g->s, "buffer %s: function_graph entries with their return "
					      "address (funcgraph-retaddr) are printed without it; "
					      "counted as not rendered", g->b->name);
			g->b->opts.warned_retaddr = true;
			kt_unlock(g->s);
		}
		if (retaddr || !strcmp(ev->name, "funcgraph_entry") ||
		    !strcmp(ev->name, "funcgraph_exit")) {
			if (!read_graph(ev, r, &e)) {
				g->b->loss.events_unknown++;
				trace_seq_printf(q, "[corrupt %s record: %u bytes]\n", ev->name,
						 r->size);
				return true;
			}
			if (strcmp(ev->name, "funcgraph_exit"))
				graph_entry(g, it, ev, r, &e, q);
			else
				graph_return(g, r, &e, q);
			return true;
		}
		/* TRACE_STACK, TRACE_FN: "dont trace stack and functions as comments" */
		if (!strcmp(ev->name, "kernel_stack") || !strcmp(ev->name, "function"))
			return false;
	}
	return graph_comment(g, ev, r, q);
}
