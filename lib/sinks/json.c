// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The JSON sink, JSON Lines: a header object per buffer
 * ({"buffer":...}), then one object per event:
 * {"instance","cpu","ts","timestamp","pid","comm","system","event",
 *  "flags","preempt_count" (and "preempt_lazy_count" where the kernel has it:
 *  6.1-rt),"fields":{...},"text"}, then a trailer with
 * what the buffer's lines lost ({"buffer_end":...,"loss":{...}}).
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "../ftrace/render.h"
#include "../ftrace/tracer.h"
#include "../put.h"
#include "jobs.h"

/*
 * An event's line is put together in memory and written with one call:
 * a dozen stdio calls a record (fprintf() and fputc() of each piece) were
 * most of the JSON's time. The pieces print as the calls did.
 */

static bool jb_grow(struct jbuf *j, size_t n)
{
	if (!j->failed) {
		size_t cap = j->cap ? j->cap : 4096;
		char *np;

		while (cap < j->len + n)
			cap *= 2;
		np = realloc(j->p, cap);
		if (np) {
			j->p = np;
			j->cap = cap;
			return true;
		}
	}
	j->failed = true;
	return false;
}

static inline bool jb_room(struct jbuf *j, size_t n)
{
	return j->len + n <= j->cap || jb_grow(j, n);
}

static inline void jb_put(struct jbuf *j, const char *s, size_t n)
{
	if (jb_room(j, n)) {
		memcpy(j->p + j->len, s, n);
		j->len += n;
	}
}

static inline void jb_puts(struct jbuf *j, const char *s)
{
	jb_put(j, s, strlen(s));
}

static inline void jb_putc(struct jbuf *j, char c)
{
	if (jb_room(j, 1))
		j->p[j->len++] = c;
}

/* "%lld" */
static inline void jb_dec(struct jbuf *j, int64_t v)
{
	if (jb_room(j, 24))
		j->len = (size_t)(kt_put_dec(j->p + j->len, v, 0, false) - j->p);
}

/* "%llu" */
static inline void jb_udec(struct jbuf *j, uint64_t v)
{
	if (jb_room(j, 24))
		j->len = (size_t)(kt_put_udec(j->p + j->len, v, 0) - j->p);
}

/* "%06llu" */
static inline void jb_udec06(struct jbuf *j, uint64_t v)
{
	if (jb_room(j, 24))
		j->len = (size_t)(kt_put_udec_flags(j->p + j->len, v, 6, true) - j->p);
}

/*
 * The @n bytes at @p as a JSON string's content, at @o (at most 6 bytes
 * each: "\\u00XX"); returns the end
 */
static char *json_escape(char *o, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*o++ = (char)c;
		} else if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (c == '\t') {
			*o++ = '\\';
			*o++ = 't';
		} else {
			*o++ = '\\';
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = "0123456789abcdef"[c >> 4];
			*o++ = "0123456789abcdef"[c & 0xf];
		}
	}
	return o;
}

/* kt_json__str() into @j */
static void jb_str(struct jbuf *j, const char *p, size_t max)
{
	size_t n = strnlen(p, max);
	char *o;

	if (!jb_room(j, 6 * n + 2))
		return;
	o = j->p + j->len;
	*o++ = '"';
	o = json_escape(o, p, n);
	*o++ = '"';
	j->len = (size_t)(o - j->p);
}

/* the string up to its NUL or @max bytes, quoted and escaped, a stretch at a time */
void kt_json__str(FILE *out, const char *p, size_t max)
{
	size_t n = strnlen(p, max), i, k;
	char buf[6 * 256];

	fputc('"', out);
	for (i = 0; i < n; i += k) {
		k = n - i < 256 ? n - i : 256;
		fwrite(buf, 1, (size_t)(json_escape(buf, p + i, k) - buf), out);
	}
	fputc('"', out);
}

/*
 * ftrace's kernel_stack: "unsigned long caller[8]" in the format, but
 * since 5.2 struct stack_entry's caller[] holds as many as the depth saved
 * (fewer or more than 8), all of which trace_stack_print() prints: the
 * rest of the record. (user_stack's is a fixed FTRACE_STACK_ENTRIES.)
 */
static bool stack_callers(const struct tep_format_field *f, const struct kt_record *r)
{
	return (f->flags & TEP_FIELD_IS_ARRAY) && !strcmp(f->name, "caller") && f->offset >= 0 &&
	       (uint32_t)f->offset <= r->size && f->event->system &&
	       !strcmp(f->event->system, "ftrace") && !strcmp(f->event->name, "kernel_stack");
}

static void json_field(struct jbuf *out, struct tep_format_field *f, const struct kt_record *r)
{
	const uint8_t *d = r->data;
	unsigned long long v;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc, off, len;

		if (f->offset < 0 || (uint64_t)f->offset + 4 > r->size) {
			jb_puts(out, "null");
			return;
		}
		loc = kt_get32(tep_is_file_bigendian(f->event->tep), d + f->offset);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + 4;
		if (off > r->size || len > r->size - off) {
			jb_puts(out, "null");	/* points outside the record */
			return;
		}
		if (f->flags & TEP_FIELD_IS_STRING) {
			jb_str(out, (const char *)d + off, len);
		} else {
			jb_put(out, "\"<", 2);
			jb_udec(out, len);
			jb_put(out, " bytes>\"", 8);
		}
		return;
	}
	if (stack_callers(f, r)) {
		/* as many as the record holds, all of which trace_stack_print() prints */
		uint32_t off, es = f->elementsize ? (uint32_t)f->elementsize : 8;

		jb_putc(out, '[');
		for (off = (uint32_t)f->offset; off + es <= r->size; off += es) {
			if (off != (uint32_t)f->offset)
				jb_putc(out, ',');
			jb_udec(out, kt_getn(tep_is_file_bigendian(f->event->tep), d + off, es));
		}
		jb_putc(out, ']');
		return;
	}
	if (!kt_field_inside(f, r->size)) {
		jb_puts(out, "null");
		return;
	}
	/*
	 * libtraceevent calls every char and u8 array a string; a u8 array
	 * (a kprobe's "+0(%ax):u8[4]", a MAC address) is numbers
	 */
	if ((f->flags & TEP_FIELD_IS_STRING) &&
	    (!(f->flags & TEP_FIELD_IS_ARRAY) || strstr(f->type, "char"))) {
		/* "char buf[]" of size 0 (ftrace's print, bputs): the rest of the record */
		jb_str(out, (const char *)d + f->offset,
			     f->size ? (size_t)f->size : r->size - (uint32_t)f->offset);
		return;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		unsigned i, es = f->elementsize ? f->elementsize : 1;
		/* a flexible array ("unsigned long args[]", size 0): the rest of the record */
		unsigned n = f->size ? (unsigned)f->arraylen : (r->size - (uint32_t)f->offset) / es;
		unsigned size = f->size ? (unsigned)f->size : r->size - (uint32_t)f->offset;

		jb_putc(out, '[');
		for (i = 0; i < n && (i + 1) * es <= size; i++) {
			const uint8_t *p = d + f->offset + i * es;

			v = kt_getn(tep_is_file_bigendian(f->event->tep), p, es);
			if (i)
				jb_putc(out, ',');
			jb_udec(out, v);
		}
		jb_putc(out, ']');
		return;
	}
	if (tep_read_number_field(f, d, &v)) {
		jb_puts(out, "null");
		return;
	}
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		long long sv = f->size == 1 ? (int8_t)v : f->size == 2 ? (int16_t)v :
			       f->size == 4 ? (int32_t)v : (long long)v;
		jb_dec(out, sv);
	} else {
		jb_udec(out, v);
	}
}

static void json_header(struct kt_session *s, struct kt_buffer *b, FILE *out)
{
	struct kt_loss l = b->loss;
	uint64_t in, all;

	kt_buffer__entry_counts(b, &in, &all);
	fputs("{\"buffer\":", out);
	kt_json__str(out, b->name, 256);
	if (b->ops)
		fprintf(out, ",\"kind\":\"%s\"", b->ops->kind);
	fprintf(out, ",\"cpus\":%d,\"subbuf_size\":%u,\"clock\":\"%s\","
		     "\"entries_in_buffer\":%llu,\"entries_written\":%llu}\n",
		b->nr_cpus, b->subbuf_size, b->clock, (unsigned long long)in,
		(unsigned long long)all);
	(void)s;
	(void)l;
}

/* the line of a trace array's event @r (@ev: its format, NULL unknown), into @j */
void kt_json__event(struct kt_render *rc, struct kt_buffer *b, struct tep_event *ev,
		    const struct kt_record *r, struct trace_seq *q, struct jbuf *j)
{
	struct kt_session *s = rc->s;
	const struct kt_layout *l = &s->l;
	const uint8_t *d = r->data;
	uint64_t us = (r->ts + 500) / 1000;
	char comm[KT_COMM_BUF];

	jb_puts(j, "{\"instance\":");
	jb_str(j, b->name, 256);
	jb_puts(j, ",\"cpu\":");
	jb_dec(j, r->cpu);
	jb_puts(j, ",\"ts\":");
	jb_udec(j, r->ts);
	jb_puts(j, ",\"timestamp\":\"");
	jb_udec(j, us / 1000000);
	jb_putc(j, '.');
	jb_udec06(j, us % 1000000);
	jb_puts(j, "\",\"pid\":");
	jb_dec(j, r->pid);
	jb_puts(j, ",\"comm\":");
	jb_str(j, kt_session__comm_r(s, r->pid, comm), 32);
	jb_puts(j, ",\"flags\":");
	jb_udec(j, r->size > l->te_flags.off ? d[l->te_flags.off] : 0);
	jb_puts(j, ",\"preempt_count\":");
	jb_udec(j, r->size > l->te_preempt_count.off ? d[l->te_preempt_count.off] : 0);
	/* PREEMPT_RT's lazy preemption before 6.6-rt: its own column of the context */
	if (l->te_preempt_lazy_count.present) {
		jb_puts(j, ",\"preempt_lazy_count\":");
		jb_udec(j, r->size > l->te_preempt_lazy_count.off ?
			   d[l->te_preempt_lazy_count.off] : 0);
	}
	if (r->missed || r->missed_unknown) {
		jb_puts(j, ",\"lost_before\":");
		jb_dec(j, kt_record__lost_before(r));
	}
	if (!ev) {
		b->loss.events_unknown++;
		jb_puts(j, ",\"system\":null,\"event\":null,\"id\":");
		jb_dec(j, r->type);
		jb_puts(j, ",\"size\":");
		jb_udec(j, r->size);
		jb_puts(j, "}\n");
		return;
	}
	jb_puts(j, ",\"system\":");
	jb_str(j, ev->system, 256);
	jb_puts(j, ",\"event\":");
	jb_str(j, ev->name, 256);
	jb_puts(j, ",\"fields\":{");
	{
		struct tep_format_field *f;
		int k = 0;

		for (f = ev->format.fields; f; f = f->next, k++) {
			if (k)
				jb_putc(j, ',');
			jb_str(j, f->name, 256);
			jb_putc(j, ':');
			json_field(j, f, r);
		}
	}
	jb_puts(j, "},\"text\":");
	trace_seq_reset(q);
	kt_render__event(rc, b, r, q);
	trace_seq_terminate(q);
	jb_str(j, q->buffer, q->len);
	jb_puts(j, "}\n");
}

/*
 * @b's records: through its printer for JSON (tracer.c), as text goes
 * through its printer for text: a latency view hides what its trace file
 * does not show, a recorder's ring writes its records its own way
 */
static int json_write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		      const struct kt_text_opts *opts)
{
	struct kt_render *rc = kt_render__session(s);
	struct tep_handle *tep = kt_render__tep(rc);
	struct kt_text_opts o = { 0 };
	const struct kt_trace_opts *o_tr = b->ops ? NULL : kt_opts__load(s, b);
	struct kt_tracer t, tc;
	struct kt_record r;
	struct kt_iter *it;
	struct trace_seq q;
	struct jbuf jb = { 0 };
	uint64_t n = 0, total = 0, skip = 0;
	int ret;

	if (!tep)
		return -ENOMEM;
	ret = kt_opts__copy(&o, sizeof(o), opts, "kt_text_opts");
	if (ret)
		return ret;
	if (o.last) {
		/* count first: JSON lines are not kept in memory */
		kt_tracer__choose(&tc, s, b, KT_SINK_JSON);
		ret = kt_tracer__begin(&tc, o_tr, false);
		it = ret ? NULL : kt_iter__new(b, o.iter);
		if (!it) {
			ret = ret ? ret : -errno;
			kt_tracer__free(&tc);
			return ret;
		}
		while (kt_iter__next(it, &r) > 0)
			total += !kt_tracer__hidden(&tc, &r);
		kt_iter__free(it);
		kt_tracer__free(&tc);
		skip = total > o.last ? total - o.last : 0;
	}
	if (o.header)
		json_header(s, b, out);
	it = kt_iter__new(b, o.iter);
	if (!it)
		return -errno;
	kt_tracer__choose(&t, s, b, KT_SINK_JSON);
	ret = kt_tracer__begin(&t, o_tr, false);
	if (ret) {
		kt_tracer__free(&t);
		kt_iter__free(it);
		return ret;
	}
	/* a trace array's whole buffer: lines made on worker threads (jobs.c) */
	if (o.jobs > 1 && t.ops->jobs && !skip) {
		ret = kt_jobs__json(s, b, it, o.jobs, out);
		if (ret != -EAGAIN) {
			kt_tracer__free(&t);
			kt_iter__free(it);
			return ret ? ret : ferror(out) ? -EIO : 0;
		}
		/* no thread to be had: this one does it all */
	}
	trace_seq_init(&q);
	while ((ret = kt_iter__next(it, &r)) > 0) {
		struct tep_event *ev = kt_render__find_event(rc, r.type);

		if (kt_tracer__hidden(&t, &r))
			continue;
		if (n++ < skip)
			continue;
		if (t.ops->print_json) {
			t.ops->print_json(&t, &r, out);
			continue;
		}
		jb.len = 0;
		kt_json__event(rc, b, ev, &r, &q, &jb);
		if (jb.failed) {
			ret = -ENOMEM;
			break;
		}
		/* this thread alone writes @out while a buffer is written */
		if (fwrite_unlocked(jb.p, 1, jb.len, out) != jb.len)
			break;	/* ferror() below */
	}
	free(jb.p);
	trace_seq_destroy(&q);
	kt_tracer__free(&t);
	kt_iter__free(it);
	if (ferror(out))
		return -EIO;
	return ret < 0 ? ret : 0;
}

int kt_json__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts)
{
	struct kt_text_opts o = { 0 };
	struct kt_loss_mark *m = NULL;
	struct kt_loss l;
	int ret;

	ret = kt_opts__copy(&o, sizeof(o), opts, "kt_text_opts");
	if (ret)
		return ret;
	if (o.header && !(m = kt_session__loss_mark(s)))
		return -ENOMEM;
	ret = json_write(s, b, out, opts);
	if (o.header && !ferror(out)) {
		/*
		 * as text's "# ktrace:" lines: this read's counts (a ticket, or
		 * crash, reads a buffer more than once), and the session's, of
		 * this buffer's lines
		 */
		kt_loss_mark__buffer(s, m, b, &l);
		fputs("{\"buffer_end\":", out);
		kt_json__str(out, b->name, 256);
		fputs(",\"loss\":", out);
		kt_loss__json(&l, out);
		fputs("}\n", out);
	}
	kt_loss_mark__free(m);
	return ret;
}
