// SPDX-License-Identifier: LGPL-2.1-or-later
/* The text sink: a buffer as /sys/kernel/tracing/trace shows it. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../ftrace/render.h"
#include "jobs.h"

struct line_ring {
	char **lines;
	uint64_t cap, n;
};

static int emit(struct line_ring *ring, FILE *out, const char *line, size_t len)
{
	if (!ring->cap)
		/* this thread alone writes @out while a buffer is written */
		return fwrite_unlocked(line, 1, len, out) == len ? 0 : -EIO;
	free(ring->lines[ring->n % ring->cap]);
	ring->lines[ring->n % ring->cap] = strndup(line, len);
	ring->n++;
	return 0;
}

/* each line of @q on its own, as --last counts lines */
static int emit_lines(struct line_ring *ring, FILE *out, struct trace_seq *q)
{
	const char *p, *nl;
	int err = 0;

	trace_seq_terminate(q);
	for (p = q->buffer; !err && p < q->buffer + q->len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(q->buffer + q->len - p));
		if (!nl) {
			err = emit(ring, out, p, (size_t)(q->buffer + q->len - p));
			break;
		}
		err = emit(ring, out, p, (size_t)(nl - p) + 1);
	}
	return err;
}

struct emit_ctx {
	struct line_ring *ring;
	FILE *out;
};

static int emit_job(void *ctx, const char *text, size_t len)
{
	struct emit_ctx *c = ctx;

	return emit(c->ring, c->out, text, len);
}

/* a ring of a recorder (or --ring): what it is, how full, no ftrace columns */
static void print_ring_header(struct kt_session *s, struct kt_buffer *b, FILE *out)
{
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

/*
 * A latency tracer's trace file (latency.c): each line's context needs the
 * time stamp of the line after it (trace_find_next_entry() over all CPUs),
 * so a record is printed once the next one is read. One thread.
 */
static int lat_text(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it,
		    const struct kt_trace_opts *o, bool annotate, struct line_ring *ring, FILE *out)
{
	uint64_t started[KT_CPUMASK_WORDS] = { 0 }, done[KT_CPUMASK_WORDS] = { 0 }, idx = 0;
	struct kt_render *rc = kt_render__session(s);
	struct kt_record prev, r;
	struct trace_seq q;
	void *copy = NULL;
	uint64_t *skipped;
	size_t cap = 0;
	bool have = false, last = false;
	int ret, err = 0;

	/* test_cpu_buff_start(): no "buffer started" on a CPU that skipped entries */
	skipped = calloc((size_t)b->nr_cpus + 1, sizeof(*skipped));
	if (!skipped)
		return -ENOMEM;
	if (annotate)
		kt_latency__skipped(b, o, skipped);
	trace_seq_init(&q);
	for (;;) {
		ret = kt_iter__next(it, &r);
		while (ret > 0 && kt_latency__skip(o, &r, done))
			ret = kt_iter__next(it, &r);
		if (ret < 0)
			err = ret;
		if (ret <= 0)
			last = true;
		if (have) {
			trace_seq_reset(&q);
			idx++;
			if (annotate && prev.cpu < KT_CPUMASK_WORDS * 64 &&
			    !(prev.cpu < b->nr_cpus && skipped[prev.cpu]) &&
			    !(started[prev.cpu / 64] & (1ULL << (prev.cpu % 64)))) {
				started[prev.cpu / 64] |= 1ULL << (prev.cpu % 64);
				if (idx > 2)	/* test_cpu_buff_start(), as in kt_text__write() */
					trace_seq_printf(&q, "##### CPU %d buffer started ####\n",
							 prev.cpu);
			}
			kt_output__lost(&prev, &q);
			if (o->context_info)
				kt_latency__context(s, b, &prev, o->lat_time_start,
						    last ? prev.ts : r.ts, &q);
			if (kt_render__event(rc, b, &prev, &q) == -ENOENT)
				b->loss.events_unknown++;
			trace_seq_putc(&q, '\n');
			trace_seq_terminate(&q);
			if (!err)
				err = emit(ring, out, q.buffer, q.len);
		}
		if (last || err)
			break;
		/* the record's bytes are the iterator's until the next call */
		if (r.size > cap) {
			void *n = realloc(copy, r.size);

			if (!n) {
				err = -ENOMEM;
				break;
			}
			copy = n;
			cap = r.size;
		}
		memcpy(copy, r.data, r.size);
		prev = r;
		prev.data = copy;
		have = true;
	}
	trace_seq_destroy(&q);
	free(copy);
	free(skipped);
	return err;
}

/* what the options of @b make the kernel print that ktrace does not */
static void warn_options(struct kt_session *s, struct kt_buffer *b,
			 const struct kt_trace_opts *o_tr, bool graph)
{
	if (o_tr->tracer_own_output && !graph && !b->snapshot && !strncmp(o_tr->tracer, "wakeup", 6))
		kt_warn(s, "buffer %s: tracer %s: the kernel's trace file shows the longest "
			   "latency's trace, buffer %s.snapshot here; this live buffer (trace_pipe's) "
			   "is printed as events, counted as not rendered", b->name, o_tr->tracer,
			b->name);
	else if (o_tr->tracer_own_output && !graph)
		kt_warn(s, "buffer %s: tracer %s prints its buffer its own way: ktrace prints "
			   "its records as events; they are counted as not rendered",
			b->name, o_tr->tracer);
	if (o_tr->last_boot)
		kt_warn(s, "buffer %s: boot-mapped, it holds the previous boot's events "
			   "(text_delta/data_delta not 0, or TRACE_ARRAY_FL_LAST_BOOT set): "
			   "the kernel prints them by their "
			   "fields at moved addresses, ktrace does not; they are counted as "
			   "not rendered", b->name);
	if ((o_tr->latency_fmt && !o_tr->lat_view) || o_tr->verbose || o_tr->printk_msgonly ||
	    o_tr->fields)
		kt_warn(s, "buffer %s: option %s is on: ktrace does not print it as the "
			   "kernel does; its records are counted as not rendered", b->name,
			o_tr->latency_fmt ? "latency-format" : o_tr->verbose ? "verbose" :
			o_tr->fields ? "fields" : "printk-msg-only");
	if (o_tr->bitmask_list)
		kt_warn(s, "buffer %s: option bitmask-list is on: ktrace prints bitmasks and "
			   "cpumasks as hex, not as the kernel's lists; the records of events "
			   "that print one are counted as not rendered", b->name);
}

int kt_text__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts)
{
	struct kt_render *rc = kt_render__session(s);
	struct kt_text_opts o = { 0 };
	struct line_ring ring = { 0 };
	const struct kt_trace_opts *o_tr;
	struct kt_record r;
	struct kt_trace_opts o_plain, o_text;
	struct kt_fgraph *graph = NULL;
	struct kt_iter *it;
	struct trace_seq q;
	uint64_t started[KT_CPUMASK_WORDS] = { 0 };
	uint64_t i, idx = 0;
	bool annotate, classic;
	int ret, err = 0;

	ret = kt_opts__copy(&o, sizeof(o), opts, "kt_text_opts");
	if (ret)
		return ret;
	if (o.last) {
		ring.cap = o.last;
		ring.lines = calloc(o.last, sizeof(char *));
		if (!ring.lines)
			return -ENOMEM;
	}
	it = kt_iter__new(b, o.iter);
	if (!it) {
		free(ring.lines);
		return -errno;
	}
	/* the function graph tracer prints its buffer itself (fgraph.c) */
	graph = kt_fgraph__new(rc, b);
	if (graph && !kt_fgraph__usable(graph)) {
		kt_fgraph__free(graph);
		graph = NULL;
	}
	if (o.header && b->ops)
		print_ring_header(s, b, out);
	else if (o.header && graph)
		kt_fgraph__header(graph, out);
	else if (o.header && kt_blk__tracer(s, b))
		kt_blk__header(s, b, out);
	else if (o.header)
		kt_opts__header(s, b, out);
	/*
	 * test_cpu_buff_start(): when the writer overwrote anything, the
	 * first event of each CPU after the first line says where that
	 * CPU's surviving data starts. Only print_trace_fmt() calls it: with
	 * bin, hex or raw (print_trace_line() returns before) there is none.
	 */
	o_tr = kt_opts__load(s, b);
	if (o.text && o_tr->bin) {	/* a summary's lines: bin off */
		o_text = *o_tr;
		o_text.bin = false;
		o_tr = &o_text;
	}
	annotate = b->loss.events_overrun > 0 && !b->ops &&
		   !(o_tr->bin || o_tr->hex || o_tr->raw);
	if (!b->ops)	/* a recorder's ring has no trace array, no options */
		warn_options(s, b, o_tr, graph);
	/* what the graph leaves to print_trace_fmt() is printed as with nop */
	o_plain = *o_tr;
	o_plain.tracer_own_output = false;
	ret = 0;
	/* the graph looks ahead in each CPU's stream: it stays on this thread */
	/* blk_classic: TRACE_BLK lines of the tracer's own, on this thread */
	classic = kt_blk__classic(s, b);
	if (!b->ops && o_tr->lat_view) {
		err = lat_text(s, b, it, o_tr, annotate, &ring, out);
		goto out;
	}
	/* bin: records end where their bytes do (no newline): one thread */
	if (o.jobs > 1 && !b->ops && !graph && !classic && !o_tr->bin) {
		/* worker threads render, this one reads (jobs.c); same text */
		struct emit_ctx c = { &ring, out };

		err = kt_jobs__text(s, b, it, o_tr, annotate, o.jobs, emit_job, &c,
				    ring.cap ? NULL : out);
		if (err != -EAGAIN)
			goto out;
		err = 0;	/* no thread to be had: this one does it all */
	}
	trace_seq_init(&q);
	while ((ret = kt_iter__next(it, &r)) > 0) {
		trace_seq_reset(&q);
		idx++;
		if (graph) {
			/* print_trace_line(): the loss first, then the tracer's print_line() */
			kt_output__lost(&r, &q);
			r.missed = 0;
			r.missed_unknown = false;
			if (kt_fgraph__record(graph, it, &r, &q)) {
				/* one record, any number of lines (none when hidden) */
				err = emit_lines(&ring, out, &q);
				if (err)
					break;
				continue;
			}
		}
		if (classic && r.type == s->blk_type) {
			/*
			 * blk_tracer_print_line(): the loss first (print_trace_line()),
			 * no context columns, no "CPU buffer started" (that is
			 * print_trace_fmt()'s)
			 */
			kt_output__lost(&r, &q);
			kt_blk__print(s, b, r.data, r.size, r.cpu, r.ts, true, &q);
			trace_seq_putc(&q, '\n');
			trace_seq_terminate(&q);
			err = emit(&ring, out, q.buffer, q.len);
			if (err)
				break;
			continue;
		}
		if (annotate && r.cpu < KT_CPUMASK_WORDS * 64 &&
		    !(started[r.cpu / 64] & (1ULL << (r.cpu % 64)))) {
			started[r.cpu / 64] |= 1ULL << (r.cpu % 64);
			/*
			 * test_cpu_buff_start(): "iter->idx > 1", and s_next()
			 * gives the first entry idx 0: the first two entries
			 * never carry the line (the second one's CPU is still
			 * marked started)
			 */
			if (idx > 2)
				trace_seq_printf(&q, "##### CPU %d buffer started ####\n", r.cpu);
		}
		kt_output__lost(&r, &q);
		if (b->ops) {
			/* "SECONDS.MICROS [CPU] ", the recorder's text after it */
			trace_seq_printf(&q, "%5llu.%06u [%03d] ",
					 (unsigned long long)(r.ts / 1000000000),
					 (unsigned)(r.ts % 1000000000) / 1000, r.cpu);
			if (b->ops->text(b, &r, &q) == -ENOENT)
				b->loss.events_unknown++;
		} else {
			kt_output__record(rc, b, graph ? &o_plain : o_tr, &r, &q);
		}
		/* print_bin_fmt() ends a record where its bytes end */
		if (b->ops || !o_tr->bin || graph)
			trace_seq_putc(&q, '\n');
		trace_seq_terminate(&q);
		err = emit(&ring, out, q.buffer, q.len);
		if (err)
			break;
	}
	trace_seq_destroy(&q);
out:
	if (ret < 0 && !err)
		err = ret;
	kt_iter__free(it);
	kt_fgraph__free(graph);
	if (ring.cap) {
		uint64_t first = ring.n > ring.cap ? ring.n - ring.cap : 0;

		for (i = first; i < ring.n; i++)
			if (!err && fputs(ring.lines[i % ring.cap], out) == EOF)
				err = -EIO;
		for (i = 0; i < ring.cap; i++)
			free(ring.lines[i]);
		free(ring.lines);
	}
	return err;
}
