// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The JSON sink, JSON Lines: a header object per buffer
 * ({"buffer":...}), then one object per event:
 * {"instance","cpu","ts","timestamp","pid","comm","system","event",
 *  "flags","preempt_count","fields":{...},"text"}.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "render.h"

void kt_json__str(FILE *out, const char *p, size_t max)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < max && p[i]; i++) {
		unsigned char c = (unsigned char)p[i];
		size_t run;

		/* runs of plain characters in one write, not a call each */
		for (run = 0; i + run < max && p[i + run] >= 0x20 && p[i + run] < 0x7f &&
			      p[i + run] != '"' && p[i + run] != '\\'; run++)
			;
		if (run) {
			fwrite(p + i, 1, run, out);
			i += run - 1;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else
			fprintf(out, "\\u%04x", c);
	}
	fputc('"', out);
}

static void json_field(FILE *out, struct tep_format_field *f, const struct kt_record *r)
{
	const uint8_t *d = r->data;
	unsigned long long v;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc, off, len;

		if (f->offset + 4 > (int)r->size) {
			fputs("null", out);
			return;
		}
		loc = kt_le32(d + f->offset);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + 4;
		if (off > r->size || len > r->size - off) {
			fputs("null", out);	/* points outside the record */
			return;
		}
		if (f->flags & TEP_FIELD_IS_STRING)
			kt_json__str(out, (const char *)d + off, len);
		else
			fprintf(out, "\"<%u bytes>\"", len);
		return;
	}
	if (f->offset < 0 || f->size < 0 || (uint32_t)(f->offset + f->size) > r->size) {
		fputs("null", out);
		return;
	}
	/*
	 * libtraceevent calls every char and u8 array a string; a u8 array
	 * (a kprobe's "+0(%ax):u8[4]", a MAC address) is numbers
	 */
	if ((f->flags & TEP_FIELD_IS_STRING) &&
	    (!(f->flags & TEP_FIELD_IS_ARRAY) || strstr(f->type, "char"))) {
		/* "char buf[]" of size 0 (ftrace's print, bputs): the rest of the record */
		kt_json__str(out, (const char *)d + f->offset,
			     f->size ? (size_t)f->size : r->size - (uint32_t)f->offset);
		return;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		unsigned i, es = f->elementsize ? f->elementsize : 1;

		fputc('[', out);
		for (i = 0; i < f->arraylen && (i + 1) * es <= (unsigned)f->size; i++) {
			const uint8_t *p = d + f->offset + i * es;

			v = es == 8 ? kt_le64(p) : es == 4 ? kt_le32(p) :
			    es == 2 ? (unsigned long long)(p[0] | p[1] << 8) : p[0];
			fprintf(out, "%s%llu", i ? "," : "", v);
		}
		fputc(']', out);
		return;
	}
	if (tep_read_number_field(f, d, &v)) {
		fputs("null", out);
		return;
	}
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		long long sv = f->size == 1 ? (int8_t)v : f->size == 2 ? (int16_t)v :
			       f->size == 4 ? (int32_t)v : (long long)v;
		fprintf(out, "%lld", sv);
	} else {
		fprintf(out, "%llu", v);
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

int kt_json__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts)
{
	struct tep_handle *tep = kt_render__tep(s);
	struct kt_text_opts o = { 0 };
	const struct kt_layout *l = &s->l;
	const struct kt_trace_opts *o_tr = b->ops ? NULL : kt_opts__load(s, b);
	/* a latency tracer's file hides what came before its trace (latency.c) */
	bool lat = o_tr && o_tr->lat_view;
	uint64_t done[KT_CPUMASK_WORDS] = { 0 }, done2[KT_CPUMASK_WORDS] = { 0 };
	struct kt_record r;
	struct kt_iter *it;
	struct trace_seq q;
	uint64_t n = 0, total = 0, skip = 0;
	int ret;

	if (!tep)
		return -ENOMEM;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (o.last) {
		/* count first: JSON lines are not kept in memory */
		it = kt_iter__new(b, o.iter);
		if (!it)
			return -errno;
		while (kt_iter__next(it, &r) > 0)
			total += !(lat && kt_latency__skip(o_tr, &r, done2));
		kt_iter__free(it);
		skip = total > o.last ? total - o.last : 0;
	}
	if (o.header)
		json_header(s, b, out);
	it = kt_iter__new(b, o.iter);
	if (!it)
		return -errno;
	trace_seq_init(&q);
	while ((ret = kt_iter__next(it, &r)) > 0) {
		struct tep_event *ev = kt_render__find_event(s, r.type);
		uint64_t us = (r.ts + 500) / 1000;

		if (lat && kt_latency__skip(o_tr, &r, done))
			continue;
		if (n++ < skip)
			continue;
		if (b->ops) {
			fputs("{\"instance\":", out);
			kt_json__str(out, b->name, 256);
			fprintf(out, ",\"cpu\":%d,\"ts\":%llu,\"timestamp\":\"%llu.%06llu\","
				     "\"size\":%u", r.cpu, (unsigned long long)r.ts,
				(unsigned long long)(us / 1000000),
				(unsigned long long)(us % 1000000), r.size);
			if (r.missed || r.missed_unknown)
				fprintf(out, ",\"lost_before\":%lld",
					r.missed_unknown ? -1LL : (long long)r.missed);
			b->ops->json(b, &r, out);
			fputs("}\n", out);
			continue;
		}
		fputs("{\"instance\":", out);
		kt_json__str(out, b->name, 256);
		fprintf(out, ",\"cpu\":%d,\"ts\":%llu,\"timestamp\":\"%llu.%06llu\",\"pid\":%d,"
			     "\"comm\":", r.cpu, (unsigned long long)r.ts,
			(unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000),
			r.pid);
		kt_json__str(out, kt_session__comm(s, r.pid), 32);
		fprintf(out, ",\"flags\":%u,\"preempt_count\":%u",
			r.size > l->te_flags.off ? ((const uint8_t *)r.data)[l->te_flags.off] : 0,
			r.size > l->te_preempt_count.off ?
				((const uint8_t *)r.data)[l->te_preempt_count.off] : 0);
		if (r.missed || r.missed_unknown)
			fprintf(out, ",\"lost_before\":%lld",
				r.missed_unknown ? -1LL : (long long)r.missed);
		if (!ev) {
			b->loss.events_unknown++;
			fprintf(out, ",\"system\":null,\"event\":null,\"id\":%d,\"size\":%u}\n",
				r.type, r.size);
			continue;
		}
		fputs(",\"system\":", out);
		kt_json__str(out, ev->system, 256);
		fputs(",\"event\":", out);
		kt_json__str(out, ev->name, 256);
		fputs(",\"fields\":{", out);
		{
			struct tep_format_field *f;
			int k = 0;

			for (f = ev->format.fields; f; f = f->next, k++) {
				if (k)
					fputc(',', out);
				kt_json__str(out, f->name, 256);
				fputc(':', out);
				json_field(out, f, &r);
			}
		}
		fputs("},\"text\":", out);
		trace_seq_reset(&q);
		kt_render__event(s, b, &r, &q);
		trace_seq_terminate(&q);
		kt_json__str(out, q.buffer, q.len);
		fputs("}\n", out);
	}
	trace_seq_destroy(&q);
	kt_iter__free(it);
	if (ferror(out))
		return -EIO;
	return ret < 0 ? ret : 0;
}
