// SPDX-License-Identifier: LGPL-2.1-or-later
/* The text sink: a buffer as /sys/kernel/tracing/trace shows it. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../ftrace/render.h"
#include "../ftrace/tracer.h"
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

/* what the options of @b make the kernel print that ktrace does not */
static void warn_options(struct kt_session *s, struct kt_buffer *b,
			 const struct kt_trace_opts *o_tr, bool own_output)
{
	if (o_tr->tracer_own_output && !own_output && !b->snapshot &&
	    !strncmp(o_tr->tracer, "wakeup", 6))
		kt_warn(s, "buffer %s: tracer %s: the kernel's trace file shows the longest "
			   "latency's trace, buffer %s.snapshot here; this live buffer (trace_pipe's) "
			   "is printed as events, counted as not rendered", b->name, o_tr->tracer,
			b->name);
	else if (o_tr->tracer_own_output && !own_output)
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

/* one record's text (kt_tracer__print_line()) as --last counts it */
static int emit_record(struct line_ring *ring, FILE *out, enum kt_print_line how,
		       struct trace_seq *q)
{
	if (how == KT_LINE_NONE)
		return 0;
	if (how == KT_LINE_LINES)
		return emit_lines(ring, out, q);
	trace_seq_terminate(q);
	return emit(ring, out, q->buffer, q->len);
}

int kt_text__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts)
{
	struct kt_text_opts o = { 0 };
	struct line_ring ring = { 0 };
	const struct kt_trace_opts *o_tr;
	struct kt_record r;
	struct kt_trace_opts o_text;
	struct kt_tracer t;
	struct kt_iter *it;
	struct trace_seq q;
	enum kt_print_line how;
	uint64_t i;
	bool annotate;
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
	/* the buffer's printer, once (tracer.c) */
	kt_tracer__choose(&t, s, b, KT_SINK_TEXT);
	if (o.header)
		kt_tracer__header(&t, out);
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
		warn_options(s, b, o_tr, t.ops->own_output);
	ret = 0;
	err = kt_tracer__begin(&t, o_tr, annotate);
	if (err)
		goto out;
	/* bin: records end where their bytes do (no newline): one thread */
	if (o.jobs > 1 && t.ops->jobs && !o_tr->bin) {
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
		how = kt_tracer__print_line(&t, it, &r, &q);
		err = emit_record(&ring, out, how, &q);
		if (!err)
			err = t.err;
		if (err)
			break;
	}
	if (!err) {
		/* a record the tracer still holds (the latency view's last) */
		trace_seq_reset(&q);
		how = kt_tracer__end(&t, &q);
		if (ret >= 0)
			err = emit_record(&ring, out, how, &q);
	}
	trace_seq_destroy(&q);
out:
	if (ret < 0 && !err)
		err = ret;
	kt_iter__free(it);
	kt_tracer__free(&t);
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
