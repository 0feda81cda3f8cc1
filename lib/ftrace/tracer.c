// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printer of a buffer, chosen once (tracer.h): the kernel's struct
 * tracer print_header() and print_line() as print_trace_line() and s_show()
 * in kernel/trace/trace.c call them.
 */
#include <stdlib.h>
#include <string.h>
#include "render.h"
#include "tracer.h"

bool kt_tracer__buff_start(uint64_t started[KT_CPUMASK_WORDS], int cpu, uint64_t idx)
{
	if (cpu < 0 || cpu >= KT_CPUMASK_WORDS * 64 || (started[cpu / 64] & (1ULL << (cpu % 64))))
		return false;
	started[cpu / 64] |= 1ULL << (cpu % 64);
	/*
	 * "iter->idx > 1", and s_next() gives the first entry idx 0: the
	 * first two entries never carry the line (the second one's CPU is
	 * still marked started)
	 */
	return idx > 2;
}

/* test_cpu_buff_start(): the first record of each CPU after the first two */
static void buff_start(struct kt_tracer *t, int cpu, uint64_t idx, struct trace_seq *q)
{
	if (t->annotate && kt_tracer__buff_start(t->started, cpu, idx))
		trace_seq_printf(q, "##### CPU %d buffer started ####\n", cpu);
}

/*
 * print_trace_fmt(): the context columns and the event, the line of every
 * record no tracer's print_line() took. Only print_trace_fmt() calls
 * test_cpu_buff_start(); the loss line is print_trace_line()'s.
 */
static enum kt_print_line trace_fmt(struct kt_tracer *t, const struct kt_record *r,
				    struct trace_seq *q)
{
	if (!t->timeline) {
		buff_start(t, r->cpu, t->idx, q);
		kt_output__lost(r, q);
	}
	kt_output__record(t->rc, t->b, t->o, r, q);
	/* print_bin_fmt() ends a record where its bytes end (the graph's end in a newline) */
	if (!t->timeline && (!t->o->bin || t->graph))
		trace_seq_putc(q, '\n');
	return KT_LINE_ONE;
}

/* the default: nop's, function's and the events' print_trace_fmt() */
static const struct kt_tracer_ops default_ops = {
	.name = "default",
	.jobs = true,
};

/* s_show()'s print_trace_header() and the rest of the header (options.c) */
static void default_header(struct kt_tracer *t, FILE *out)
{
	kt_opts__header(t->s, t->b, out);
}

/* a recorder's ring (krec, --ring): "[CPU] " and the recorder's text */
static enum kt_print_line ring_line(struct kt_tracer *t, struct kt_iter *it,
				    const struct kt_record *r, struct trace_seq *q)
{
	(void)it;
	if (!t->timeline) {
		kt_output__lost(r, q);
		/* "SECONDS.MICROS " first: the timeline stamps its lines itself */
		trace_seq_printf(q, "%5llu.%06u ", (unsigned long long)(r->ts / 1000000000),
				 (unsigned)(r->ts % 1000000000) / 1000);
	}
	trace_seq_printf(q, "[%03d] ", r->cpu);
	if (t->b->ops->text(t->b, r, q) == -ENOENT)
		t->b->loss.events_unknown++;
	if (!t->timeline)
		trace_seq_putc(q, '\n');
	return KT_LINE_ONE;
}

/* what it is, how full, no ftrace columns (a ring has no trace array) */
static void ring_header(struct kt_tracer *t, FILE *out)
{
	struct kt_buffer *b = t->b;
	uint64_t in, all;
	int cpu, nr = 0;

	/* #P: the CPUs that have a per-CPU buffer (see kt_opts__header()) */
	for (cpu = 0; cpu < b->nr_cpus; cpu++)
		nr += b->cpus[cpu].info.present;
	kt_buffer__entry_counts(b, &in, &all);
	fprintf(out, "# ring: %s (%s)\n#\n# entries-in-buffer/entries-written: %llu/%llu   "
		     "#P:%d\n#\n", b->name, b->ops->kind, (unsigned long long)in,
		(unsigned long long)all, nr);
}

/* a ring's record as JSON: where and when, then the recorder's own members */
static void ring_json(struct kt_tracer *t, const struct kt_record *r, FILE *out)
{
	uint64_t us = (r->ts + 500) / 1000;

	fputs("{\"instance\":", out);
	kt_json__str(out, t->b->name, 256);
	fprintf(out, ",\"cpu\":%d,\"ts\":%llu,\"timestamp\":\"%llu.%06llu\",\"size\":%u",
		r->cpu, (unsigned long long)r->ts, (unsigned long long)(us / 1000000),
		(unsigned long long)(us % 1000000), r->size);
	if (r->missed || r->missed_unknown)
		fprintf(out, ",\"lost_before\":%lld", kt_record__lost_before(r));
	t->b->ops->json(t->b, r, out);
	fputs("}\n", out);
}

static const struct kt_tracer_ops ring_ops = {
	.name = "ring",
	.print_header = ring_header,
	.print_line = ring_line,
	.print_json = ring_json,
	.own_output = true,
};

/* print_graph_function(), graph_trace_open()'s lookahead (fgraph.c) */
static enum kt_print_line graph_line(struct kt_tracer *t, struct kt_iter *it,
				     const struct kt_record *r, struct trace_seq *q)
{
	/* one record, any number of lines (none when hidden) */
	return kt_fgraph__record(t->graph, it, r, q) ? KT_LINE_LINES : KT_LINE_UNHANDLED;
}

/* print_graph_headers() */
static void graph_header(struct kt_tracer *t, FILE *out)
{
	kt_fgraph__header(t->graph, out);
}

static const struct kt_tracer_ops graph_ops = {
	.name = "function_graph",
	.print_header = graph_header,
	.print_line = graph_line,
	.own_output = true,
	.lost_first = true,
};

/*
 * blk_tracer_print_line(): with blk_classic, TRACE_BLK lines of the
 * tracer's own; no context columns, no "CPU buffer started" (that is
 * print_trace_fmt()'s). The loss line first, as print_trace_line() has it.
 */
static enum kt_print_line blk_line(struct kt_tracer *t, struct kt_iter *it,
				   const struct kt_record *r, struct trace_seq *q)
{
	(void)it;
	if (r->type != t->s->blk_type)
		return KT_LINE_UNHANDLED;
	if (!t->timeline)
		kt_output__lost(r, q);
	kt_blk__print(t->s, t->b, r->data, r->size, r->cpu, r->ts, true, q);
	if (!t->timeline)
		trace_seq_putc(q, '\n');
	return KT_LINE_ONE;
}

/* s_show(): "# tracer: blk", then blk_tracer_print_header() */
static void blk_header(struct kt_tracer *t, FILE *out)
{
	kt_blk__header(t->s, t->b, out);
}

/* blk without blk_classic: its events' lines are print_trace_fmt()'s */
static const struct kt_tracer_ops blk_ops = {
	.name = "blk",
	.print_header = blk_header,
	.jobs = true,
};

/* blk_classic: the lines are the tracer's, on the reading thread */
static const struct kt_tracer_ops blk_classic_ops = {
	.name = "blk classic",
	.print_header = blk_header,
	.print_line = blk_line,
};

/*
 * A latency tracer's trace file (latency.c): each line's context needs the
 * time stamp of the line after it (trace_find_next_entry() over all CPUs),
 * so a record is printed once the next one is read: @r NULL, the last one.
 */
static enum kt_print_line lat_print(struct kt_tracer *t, const struct kt_record *r,
				    struct trace_seq *q)
{
	const struct kt_record *prev = &t->prev;

	if (!t->have)
		return KT_LINE_NONE;
	t->idx++;
	/* test_cpu_buff_start(): no "buffer started" on a CPU that skipped entries */
	if (!(prev->cpu >= 0 && prev->cpu < t->b->nr_cpus && t->skipped[prev->cpu]))
		buff_start(t, prev->cpu, t->idx, q);
	kt_output__lost(prev, q);
	if (t->o->context_info)
		kt_latency__context(t->s, t->b, prev, t->o->lat_time_start,
				    r ? r->ts : prev->ts, q);
	if (kt_render__event(t->rc, t->b, prev, q) == -ENOENT)
		t->b->loss.events_unknown++;
	trace_seq_putc(q, '\n');
	return KT_LINE_ONE;
}

/* tracing_iter_reset(): the leading records from before the trace's start */
static bool lat_hidden(struct kt_tracer *t, const struct kt_record *r)
{
	return kt_latency__skip(t->o, r, t->done);
}

static enum kt_print_line lat_line(struct kt_tracer *t, struct kt_iter *it,
				   const struct kt_record *r, struct trace_seq *q)
{
	enum kt_print_line ret;

	(void)it;
	if (lat_hidden(t, r))
		return KT_LINE_NONE;
	ret = lat_print(t, r, q);
	/* the record's bytes are the iterator's until the next call */
	if (r->size > t->cap) {
		void *n = realloc(t->copy, r->size);

		if (!n) {
			t->err = -ENOMEM;
			return KT_LINE_NONE;
		}
		t->copy = n;
		t->cap = r->size;
	}
	memcpy(t->copy, r->data, r->size);
	t->prev = *r;
	t->prev.data = t->copy;
	t->have = true;
	return ret;
}

static int lat_begin(struct kt_tracer *t)
{
	t->skipped = calloc((size_t)t->b->nr_cpus + 1, sizeof(*t->skipped));
	if (!t->skipped)
		return -ENOMEM;
	if (t->annotate)
		kt_latency__skipped(t->b, t->o, t->skipped);
	return 0;
}

static enum kt_print_line lat_end(struct kt_tracer *t, struct trace_seq *q)
{
	return lat_print(t, NULL, q);
}

static void lat_free(struct kt_tracer *t)
{
	free(t->copy);
	free(t->skipped);
}

static const struct kt_tracer_ops latency_ops = {
	.name = "latency",
	.print_line = lat_line,
	.begin = lat_begin,
	.end = lat_end,
	.free = lat_free,
	.hidden = lat_hidden,
};

void kt_tracer__choose(struct kt_tracer *t, struct kt_session *s, struct kt_buffer *b,
		       enum kt_tracer_sink sink)
{
	bool timeline = sink == KT_SINK_TIMELINE;

	memset(t, 0, sizeof(*t));
	t->s = s;
	t->b = b;
	t->rc = kt_render__session(s);
	t->timeline = timeline;
	t->ops = &default_ops;
	if (b->ops) {
		t->ops = &ring_ops;
		return;
	}
	/*
	 * JSON's records are events whatever tracer printed them: only a
	 * latency tracer's view changes which (those its file shows)
	 */
	if (sink == KT_SINK_JSON) {
		if (kt_opts__load(s, b)->lat_view)
			t->ops = &latency_ops;
		return;
	}
	/* the function graph tracer prints its buffer itself (fgraph.c) */
	t->graph = kt_fgraph__new(t->rc, b);
	if (t->graph && !kt_fgraph__usable(t->graph)) {
		kt_fgraph__free(t->graph);
		t->graph = NULL;
	}
	if (t->graph)
		t->ops = &graph_ops;
	else if (kt_blk__classic(s, b))
		t->ops = &blk_classic_ops;
	else if (kt_blk__tracer(s, b))
		t->ops = &blk_ops;
	/* the timeline prints a latency tracer's records as events */
	else if (!timeline && kt_opts__load(s, b)->lat_view)
		t->ops = &latency_ops;
}

int kt_tracer__begin(struct kt_tracer *t, const struct kt_trace_opts *o, bool annotate)
{
	t->annotate = annotate;
	t->o = o;
	if (o && (t->graph || t->timeline)) {
		t->o_own = *o;
		t->o = &t->o_own;
	}
	/* what the graph leaves to print_trace_fmt() is printed as with nop */
	if (t->graph)
		t->o_own.tracer_own_output = false;
	/* the timeline is text: bin's records as with bin off */
	else if (t->timeline)
		t->o_own.bin = false;
	return t->ops->begin ? t->ops->begin(t) : 0;
}

void kt_tracer__header(struct kt_tracer *t, FILE *out)
{
	if (t->ops->print_header)
		t->ops->print_header(t, out);
	else
		default_header(t, out);
}

/*
 * print_trace_line(): the loss line, the tracer's print_line(), else
 * print_trace_fmt()'s line. ktrace's default prints "CPU buffer started"
 * before the loss line, the graph's loss line comes before either.
 */
enum kt_print_line kt_tracer__print_line(struct kt_tracer *t, struct kt_iter *it,
					 struct kt_record *r, struct trace_seq *q)
{
	enum kt_print_line ret;

	if (t->ops != &latency_ops)
		t->idx++;
	if (t->ops->lost_first && !t->timeline) {
		kt_output__lost(r, q);
		r->missed = 0;
		r->missed_unknown = false;
	}
	if (t->ops->print_line) {
		ret = t->ops->print_line(t, it, r, q);
		if (ret != KT_LINE_UNHANDLED)
			return ret;
	}
	return trace_fmt(t, r, q);
}

bool kt_tracer__hidden(struct kt_tracer *t, const struct kt_record *r)
{
	return t->ops->hidden && t->ops->hidden(t, r);
}

enum kt_print_line kt_tracer__end(struct kt_tracer *t, struct trace_seq *q)
{
	return t->ops->end ? t->ops->end(t, q) : KT_LINE_NONE;
}

void kt_tracer__free(struct kt_tracer *t)
{
	if (t->ops && t->ops->free)
		t->ops->free(t);
	kt_fgraph__free(t->graph);
	t->graph = NULL;
}
