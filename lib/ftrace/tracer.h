/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_TRACER_H
#define KTRACE_LIB_TRACER_H

#include <stdio.h>
#include "../internal.h"

/*
 * The printer of a buffer, chosen once per buffer as the kernel's trace
 * file has tr->current_trace: struct tracer's print_header() and
 * print_line() (kernel/trace/trace.h) for the tracers ktrace prints their
 * own way (function_graph, blk with blk_classic, a latency tracer's view),
 * a recorder's ring, and the default of print_trace_fmt(). Each sink
 * chooses for what it writes: text the tracer's lines, the timeline
 * events, JSON events (a latency view's shown records, a ring's own).
 */
struct kt_tracer;

/* the sink a printer is chosen for */
enum kt_tracer_sink {
	KT_SINK_TEXT,		/* the trace file's text */
	KT_SINK_TIMELINE,	/* lines merged with the kernel log: events */
	KT_SINK_JSON,		/* a record an object: events, or a ring's own */
};

/* what a print_line() did with a record (the kernel's enum print_line_t) */
enum kt_print_line {
	KT_LINE_UNHANDLED,	/* TRACE_TYPE_UNHANDLED: print_trace_fmt()'s to print */
	KT_LINE_ONE,		/* the record's text, one entry for --last */
	KT_LINE_LINES,		/* several lines (or none), each its own for --last */
	KT_LINE_NONE,		/* nothing yet (the latency view prints a record later) */
};

struct kt_tracer_ops {
	const char *name;
	/* print_header(), after "# tracer:" where the tracer prints that */
	void (*print_header)(struct kt_tracer *t, FILE *out);
	/* print_line(): the record's text in @q, or KT_LINE_UNHANDLED */
	enum kt_print_line (*print_line)(struct kt_tracer *t, struct kt_iter *it,
					 const struct kt_record *r, struct trace_seq *q);
	/* the per-buffer state (the graph's lookahead, the latency view's delay) */
	int (*begin)(struct kt_tracer *t);
	enum kt_print_line (*end)(struct kt_tracer *t, struct trace_seq *q);
	void (*free)(struct kt_tracer *t);
	/* tracing_iter_reset(): a record before the trace's start, not shown */
	bool (*hidden)(struct kt_tracer *t, const struct kt_record *r);
	/* a record's JSON object, for a buffer whose records are not events */
	void (*print_json)(struct kt_tracer *t, const struct kt_record *r, FILE *out);
	bool jobs;		/* its records may be rendered on -J's worker threads */
	bool own_output;	/* prints what tracer_own_output says ktrace does not */
	bool lost_first;	/* print_trace_line()'s loss line before print_line(), always */
};

struct kt_tracer {
	const struct kt_tracer_ops *ops;
	struct kt_session *s;
	struct kt_buffer *b;
	struct kt_render *rc;
	/* the options the sink prints with (NULL: a recorder's ring has none) */
	const struct kt_trace_opts *o;
	struct kt_trace_opts o_own;	/* @o changed for the tracer or the sink */
	bool timeline;	/* the timeline's: no loss, no "buffer started", lines unended */
	bool annotate;	/* test_cpu_buff_start()'s "CPU buffer started" lines */
	uint64_t idx, started[KT_CPUMASK_WORDS];
	struct kt_fgraph *graph;
	/* the latency view: the record printed once the next one is read */
	struct kt_record prev;
	void *copy;
	size_t cap;
	bool have;
	uint64_t *skipped, done[KT_CPUMASK_WORDS];
	int err;	/* print_line() could not keep a record (-ENOMEM) */
};

/*
 * test_cpu_buff_start(): whether the @idx-th record read (from 1), the
 * first of @cpu, carries "##### CPU N buffer started ####"; marks @cpu
 * started. The text sink's printers and -J's reading thread (jobs.c) ask.
 */
bool kt_tracer__buff_start(uint64_t started[KT_CPUMASK_WORDS], int cpu, uint64_t idx);

/*
 * The printer of @b for @sink: its ops, no state yet. Warns as the choice
 * does (function_graph's columns ktrace does not print).
 */
void kt_tracer__choose(struct kt_tracer *t, struct kt_session *s, struct kt_buffer *b,
		       enum kt_tracer_sink sink);
/* the state for reading @b with options @o (kt_opts__load()'s, or the sink's copy) */
int kt_tracer__begin(struct kt_tracer *t, const struct kt_trace_opts *o, bool annotate);
void kt_tracer__header(struct kt_tracer *t, FILE *out);
/* print_trace_line(): one record's text in @q */
enum kt_print_line kt_tracer__print_line(struct kt_tracer *t, struct kt_iter *it,
					 struct kt_record *r, struct trace_seq *q);
/* a record the trace file does not show (the ops' hidden()) */
bool kt_tracer__hidden(struct kt_tracer *t, const struct kt_record *r);
/* what the printer still holds once the records are read */
enum kt_print_line kt_tracer__end(struct kt_tracer *t, struct trace_seq *q);
void kt_tracer__free(struct kt_tracer *t);

#endif
