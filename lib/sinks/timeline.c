// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The timeline sink: kernel log records and trace events of every buffer
 * whose clock counts like printk's, merged by time stamp, each line
 * marked by its source.
 *
 * printk stamps a record with local_clock() (vprintk_store(),
 * kernel/printk/printk.c, 5.10 to 6.12): sched_clock_cpu() of the CPU,
 * which is sched_clock() plus __sched_clock_offset while sched_clock is
 * stable, or sched_clock() filtered per CPU to stay within a tick of the
 * timekeeping clock while it is not (kernel/sched/clock.c). The trace
 * clocks (trace_clocks[] in kernel/trace/trace.c):
 *   perf      trace_clock() is local_clock(): printk's own clock.
 *   global    trace_clock_global() is sched_clock_cpu() = local_clock(),
 *             only kept from going backwards across CPUs.
 *   local     trace_clock_local() is sched_clock(): the same nanoseconds
 *             since boot, local_clock() differing by the small offset or
 *             per-CPU filter above; merged, but events closer than that
 *             (microseconds) to a log record may sort either way.
 *   mono      ktime_get_mono_fast_ns(): CLOCK_MONOTONIC from the
 *             timekeeping clocksource, with its own origin (set when
 *             timekeeping starts, __gtod_offset away from sched_clock)
 *             and NTP frequency slew: the gap to local_clock() is
 *             unknown and grows; not merged. mono_raw, boot (plus time
 *             suspended) and tai (wall clock) likewise.
 *   counter   an event counter, not a time; uptime: jiffies; x86-tsc:
 *             TSC cycles, not nanoseconds: not merged.
 * The heap of iter.c merges the CPUs of one buffer; here the sources
 * (the log and each buffer) are few, so the next line is the smallest
 * of their heads, the log first on a tie, then buffers in session order.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../ftrace/render.h"
#include "../ftrace/tracer.h"

static const struct {
	const char *clock;
	bool comparable;
	const char *why;
} clocks[] = {
	{ "perf", true, "trace_clock() is local_clock(), printk's clock" },
	{ "global", true, "trace_clock_global() is local_clock(), kept monotonic across CPUs" },
	{ "local", true, "sched_clock(), which local_clock() corrects by a bounded offset" },
	{ "mono", false, "CLOCK_MONOTONIC has its own origin and NTP slew, not local_clock()" },
	{ "mono_raw", false, "CLOCK_MONOTONIC_RAW has its own origin, not local_clock()" },
	{ "boot", false, "CLOCK_BOOTTIME has its own origin and counts suspend, not local_clock()" },
	{ "tai", false, "CLOCK_TAI is wall-clock time, not local_clock()" },
	{ "counter", false, "an event counter, not a time" },
	{ "uptime", false, "jiffies, not nanoseconds" },
	{ "x86-tsc", false, "TSC cycles, not nanoseconds" },
};

bool kt_clock__comparable(const char *clock, const char **why)
{
	size_t i;

	for (i = 0; clock && i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (strcmp(clock, clocks[i].clock))
			continue;
		if (why)
			*why = clocks[i].why;
		return clocks[i].comparable;
	}
	if (why)
		*why = "a clock ktrace does not know";
	return false;
}

struct source {
	struct kt_buffer *b;	/* NULL: the kernel log */
	struct kt_iter *it;
	struct kt_tracer t;	/* the buffer's printer (tracer.c) */
	struct kt_record rec;
	const struct kt_log_record *lrec;
	bool have;
	uint64_t ts;
};

static int advance(struct kt_log *log, struct source *src, uint64_t ts_min, uint64_t ts_max)
{
	int ret;

	if (!src->b) {
		do {
			src->lrec = kt_log__next_record(log, src->lrec);
		} while (src->lrec && (src->lrec->ts_nsec < ts_min || src->lrec->ts_nsec > ts_max));
		src->have = src->lrec != NULL;
		src->ts = src->have ? src->lrec->ts_nsec : 0;
		return 0;
	}
	ret = kt_iter__next(src->it, &src->rec);
	src->have = ret > 0;
	src->ts = src->have ? src->rec.ts : 0;
	return ret < 0 ? ret : 0;
}

static void stamp(FILE *out, uint64_t ts, const char *name, int width)
{
	fprintf(out, "[%5llu.%06llu] %-*s ", (unsigned long long)(ts / 1000000000),
		(unsigned long long)(ts % 1000000000 / 1000), width, name);
}

/* @text, each of its lines after the stamp and the source's name */
static void print_lines(FILE *out, uint64_t ts, const char *name, int width, const char *caller,
			const char *text, size_t len)
{
	bool bol = true;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (bol) {
			stamp(out, ts, name, width);
			if (caller)
				fprintf(out, "[%s] ", caller);
			bol = false;
		}
		if (c == '\n') {
			fputc('\n', out);
			bol = true;
		} else if (!caller || (c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r')) {
			/* the run of such characters in one write */
			size_t j = i + 1;

			while (j < len && text[j] != '\n' &&
			       (!caller || ((unsigned char)text[j] >= 0x20 && (unsigned char)text[j] < 0x7f) ||
				((unsigned char)text[j] >= '\t' && (unsigned char)text[j] <= '\r')))
				j++;
			fwrite(text + i, 1, j - i, out);
			i = j - 1;
		} else {
			fprintf(out, "\\x%02x", c);
		}
	}
	if (bol)
		stamp(out, ts, name, width);
	fputc('\n', out);
}

/* a record's lines each marked, as the console prints a multi-line record */
static void print_log(FILE *out, const struct kt_log_record *r, int width)
{
	char caller[16];

	kt_log_record__caller(r, caller, sizeof(caller));
	print_lines(out, r->ts_nsec, "log", width, caller, r->text, r->text_len);
}

static void print_event(struct source *src, FILE *out, struct trace_seq *q, int width)
{
	const struct kt_record *r = &src->rec;

	if (r->missed || r->missed_unknown) {
		stamp(out, r->ts, src->b->name, width);
		trace_seq_reset(q);
		kt_output__lost(r, q);
		fwrite(q->buffer, 1, q->len, out);
	}
	trace_seq_reset(q);
	if (kt_tracer__print_line(&src->t, src->it, &src->rec, q) == KT_LINE_LINES) {
		/* whole lines (none for a record the graph hides): each marked */
		if (q->len && q->buffer[q->len - 1] == '\n')
			q->len--;
		if (q->len)
			print_lines(out, r->ts, src->b->name, width, NULL, q->buffer, q->len);
		return;
	}
	trace_seq_terminate(q);
	/* a stack trace event renders as several lines: each is marked */
	print_lines(out, r->ts, src->b->name, width, NULL, q->buffer, q->len);
}

int kt_timeline__write(struct kt_session *s, FILE *out, const struct kt_timeline_opts *opts)
{
	struct kt_timeline_opts o = { 0 };
	struct kt_iter_opts io = { .sz = sizeof(io), .ts_max = UINT64_MAX };
	struct kt_log *log = kt_session__log(s);
	struct source *srcs;
	struct trace_seq q;
	struct kt_buffer *b;
	int i, n = 1, width = 3, err = 0;
	const char *why;

	if (!log)
		return -errno;
	err = kt_opts__copy(&o, sizeof(o), opts, "kt_timeline_opts");
	if (!err)
		err = kt_opts__copy(&io, sizeof(io), o.iter, "kt_iter_opts");
	if (err)
		return err;
	if (!io.ts_max)
		io.ts_max = UINT64_MAX;
	if (!kt_render__tep(kt_render__session(s)))
		return -ENOMEM;
	srcs = calloc(s->nr_buffers + 1, sizeof(*srcs));
	if (!srcs)
		return -ENOMEM;
	fprintf(out, "# ktrace: timeline: the kernel log (printk, local_clock())");
	kt_session__for_each_buffer(s, i, b) {
		if ((o.only && b != o.only) || !kt_clock__comparable(b->clock, NULL))
			continue;
		fprintf(out, ", buffer %s (clock %s)", b->name, b->clock);
	}
	fprintf(out, " merged by time stamp\n");
	kt_session__for_each_buffer(s, i, b) {
		if (o.only && b != o.only)
			continue;
		if (!kt_clock__comparable(b->clock, &why)) {
			fprintf(out, "# ktrace: timeline: buffer %s not merged: clock %s is not "
				     "comparable with printk's local_clock(): %s\n",
				b->name, b->clock, why);
			continue;
		}
		kt_tracer__choose(&srcs[n].t, s, b, KT_SINK_TIMELINE);
		if (!srcs[n].t.ops->own_output && kt_opts__load(s, b)->tracer_own_output)
			kt_warn(s, "timeline: buffer %s: tracer %s prints its buffer its own way; "
				   "the timeline prints its records as events, counted as not "
				   "rendered", b->name, kt_opts__load(s, b)->tracer);
		err = kt_tracer__begin(&srcs[n].t, b->ops ? NULL : kt_opts__load(s, b), false);
		if (err)
			goto out;
		srcs[n].b = b;
		srcs[n].it = kt_iter__new(b, &io);
		if (!srcs[n].it) {
			err = -errno;
			goto out;
		}
		if ((int)strlen(b->name) > width)
			width = (int)strlen(b->name);
		n++;
	}
	for (i = 0; i < n && !err; i++)
		err = advance(log, &srcs[i], io.ts_min, io.ts_max);
	trace_seq_init(&q);
	while (!err) {
		struct source *next = NULL;

		for (i = 0; i < n; i++)
			if (srcs[i].have && (!next || srcs[i].ts < next->ts))
				next = &srcs[i];
		if (!next)
			break;
		if (!next->b)
			print_log(out, next->lrec, width);
		else
			print_event(next, out, &q, width);
		err = advance(log, next, io.ts_min, io.ts_max);
	}
	trace_seq_destroy(&q);
	if (!err && ferror(out))
		err = -EIO;
out:
	for (i = 1; i <= s->nr_buffers; i++) {
		kt_iter__free(srcs[i].it);
		kt_tracer__free(&srcs[i].t);
	}
	free(srcs);
	return err;
}
