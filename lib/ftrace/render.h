/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_RENDER_H
#define KTRACE_LIB_RENDER_H

#include <string.h>
#include <event-parse.h>
#include "../internal.h"

/*
 * Rendering's state, struct kt_render (internal.h): the session's own
 * context for its thread, or a worker thread's (jobs.c), with a handle of
 * its own; every printer gets the context it renders for.
 */
struct kt_render *kt_render__session(struct kt_session *s);
struct kt_render *kt_render__new_worker(struct kt_session *s);
void kt_render__free(struct kt_render *rc);
/* the context's libtraceevent handle, the session's made on first use; NULL: no memory */
struct tep_handle *kt_render__tep(struct kt_render *rc);
/* the context libtraceevent is printing for on this thread (its print functions' only way) */
struct kt_render *kt_render__printing(void);
void kt_render__probe_hash(struct kt_session *s, struct kt_buffer *b);
void kt_render__printk_formats(struct kt_render *rc);
void kt_render__context(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
			struct trace_seq *q);
int kt_render__event(struct kt_render *rc, struct kt_buffer *b, const struct kt_record *r,
		     struct trace_seq *q);
struct tep_event *kt_render__find_event(struct kt_render *rc, int id);
bool kt_render__clock_in_ns(const struct kt_buffer *b);

/*
 * trace_seq_puts() of @str, whose length @n is known: the per-line
 * pieces are copied into the trace_seq's buffer (a public struct of
 * libtraceevent's) when they fit, without a call and a strlen() more
 */
static inline void kt_seq_put(struct trace_seq *q, const char *str, size_t n)
{
	if (q->state == TRACE_SEQ__GOOD && n < q->buffer_size - q->len) {
		memcpy(q->buffer + q->len, str, n);
		q->len += (unsigned int)n;
	} else {
		trace_seq_puts(q, str);
	}
}

/*
 * %p (vsprintf's hashed or raw pointer) and %ps/%pS/%pB (@kind 0, 1, 2)
 * of the buffer @rc is rendering, as __kt_ptr() and __kt_sym() print them:
 * the length written at @out, NUL-terminated (0: it does not fit @cap)
 */
size_t kt_render__ptr_text(const struct kt_render *rc, uint64_t v, char *out);
size_t kt_render__sym_text(const struct kt_render *rc, uint64_t addr, int kind, char *out,
			   size_t cap);

/* evalguard.c: libtraceevent's evaluation of a record, bounded */
void kt_guard__register(struct tep_handle *tep);
const char *kt_guard__helpers(struct tep_event *ev, const struct kt_record *r);
uint32_t kt_guard__seq_size(const struct kt_session *s);
/* the text from @o on replaced by "[not rendered: @why]", counted, said once per event */
int kt_guard__not_rendered(struct kt_session *s, struct kt_buffer *b, const struct kt_event *e,
			   struct trace_seq *q, unsigned int o, const char *why);

/* fastfmt.c: print formats printed without libtraceevent */
struct kt_fastfmt;
/* @ev's print format as a program; NULL when it is not one of those */
struct kt_fastfmt *kt_fastfmt__compile(struct tep_event *ev);
/* a record of it printed into @q; non-zero: nothing printed, ask libtraceevent */
int kt_fastfmt__print(const struct kt_render *rc, const struct kt_fastfmt *f,
		      struct trace_seq *q, const void *data, uint32_t size);
void kt_fastfmt__free(struct kt_fastfmt *f);

/* json.c: an event's JSON line, put together in memory */
struct jbuf {
	char *p;
	size_t len, cap;
	bool failed;		/* out of memory: the line is cut */
};
void kt_json__event(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
		    const struct kt_record *r, struct trace_seq *q, struct jbuf *j);

/*
 * Does field @f lie inside a record of @size bytes? libtraceevent keeps a
 * field's offset and size as ints: added as such they overflow, and a
 * negative offset passes a signed comparison (the event table is checked
 * at load, events.c field_fits(); this is every reader's own bound).
 */
static inline bool kt_field_inside(const struct tep_format_field *f, uint64_t size)
{
	return f && f->offset >= 0 && f->size >= 0 &&
	       (uint64_t)f->offset + (uint64_t)f->size <= size;
}

/* output.c: trace_output.c's printers */
void kt_output__ip_sym(struct kt_session *s, const struct kt_trace_opts *o,
		       struct trace_seq *q, uint64_t ip);
uint64_t kt_output__field_at(struct tep_format_field *f, struct tep_record *r, bool *ok);
uint64_t kt_output__field(struct tep_event *ev, const char *name, struct tep_record *r,
			  bool *ok);
void kt_output__text(struct trace_seq *q, const char *p, size_t max);
/* function and function_graph entry records' arguments (func-args, funcgraph-args) */
uint32_t kt_output__fn_args(const struct tep_format_field *args, const struct tep_record *r,
			    const uint8_t **p);
void kt_output__put_args(struct kt_session *s, struct kt_buffer *b, uint64_t func,
			 const uint8_t *args, uint32_t nargs, struct trace_seq *q);
/*
 * trace_printk.c: the text of bprint record @r as bstr_printf() prints it,
 * when its format has a conversion glibc prints otherwise than the kernel;
 * -EOPNOTSUPP (nothing printed) leaves the record to libtraceevent;
 * -EBADMSG (nothing printed): the record holds fewer arguments than the
 * format reads, which the caller counts rather than hand to libtraceevent;
 * -E2BIG (nothing printed): the line would not fit the kernel's trace_seq
 */
/*
 * kt_trace_printk__print(): the record's arguments were read to the end of
 * its format, within the record, and glibc prints them as the kernel did:
 * libtraceevent prints it (the other values: 0 printed, -EOPNOTSUPP not
 * checked here, -EBADMSG and -E2BIG not printable)
 */
#define KT_PRINTK_CHECKED 1
size_t kt_trace_printk__fmt_len(struct kt_render *rc, struct tep_event *ev,
				const struct tep_record *r);
int kt_trace_printk__print(struct kt_render *rc, struct tep_event *ev, struct tep_record *r,
			   struct trace_seq *q);
/* @e's own printer (kt_output__register()); false: it has none, or it did not print */
bool kt_output__ftrace(struct kt_render *rc, struct kt_buffer *b, const struct kt_event *e,
		       struct tep_event *ev, struct tep_record *r, struct trace_seq *q);
struct kt_trace_opts;
/* one record of a trace array's buffer, with its options (output.c) */
void kt_output__record(struct kt_render *rc, struct kt_buffer *b, const struct kt_trace_opts *o,
		       const struct kt_record *r, struct trace_seq *q);
int kt_output__raw_hex(struct kt_render *rc, struct kt_buffer *b, const struct kt_record *r,
		       struct trace_seq *q);

/* probe.c: dynamic events (kprobe, kretprobe, eprobe, fprobe, synthetic) */
int kt_probe__render(struct kt_session *s, struct kt_buffer *b, const struct kt_event *e,
		     struct tep_event *ev, struct tep_record *r, struct trace_seq *q);

#endif
