// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the event table and the renderers. A fake kernel
 * (tests/unit/fake-kernel.h) serves an ftrace_events list built from the
 * input, with a ring page of records of those events; the session reads
 * the table, rebuilds every format (kt_event__format()), and writes the
 * buffer as text (libtraceevent's print path) and JSON.
 *
 * Input, after a 3-byte head (event id, field count; bit 7 of the count:
 * the wide field table):
 *   NUL-separated strings: system, name, print_fmt, then per field its
 *   type and name;
 *   per field 3 bytes: offset, size, is_signed; wide: 9 bytes, offset
 *   and size as 32-bit (negative, overflowing, far: issue 27), is_signed;
 *   wide only: one more string, a trace_printk() format, registered at
 *   the address bprint records of the next id point to;
 *   the rest: record payloads, 16 bytes each after an 8-byte trace_entry
 *   (type = the event id, or the next id for every 4th record).
 * The text is written on the calling thread and, wide, by two workers
 * (jobs.c, 512 KiB stacks): their output must be the same.
 */
#include "fake-kernel.h"

#define MAX_FIELDS 8

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	const uint8_t *p = in + 3, *end = in + len;
	struct fk_field f[MAX_FIELDS];
	const char *sys, *name, *pfmt, *printk = NULL;
	struct kt_open_opts o = { .sz = sizeof(o) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct fk_buffer gb;
	struct fk_kernel *k;
	struct fk_ring *r;
	struct kt_target t;
	struct kt_session *s;
	struct fk_pb pb;
	uint64_t pa = 0;
	FILE *null;
	int id, nf, i;
	bool wide;

	if (len < 3)
		return 0;
	id = in[0] | in[1] << 8;
	wide = in[2] & 0x80;
	nf = (in[2] & 0x7f) % (MAX_FIELDS + 1);
	sys = fk_next_str(&p, end);
	name = sys ? fk_next_str(&p, end) : NULL;
	pfmt = name ? fk_next_str(&p, end) : NULL;
	if (!pfmt)
		return 0;
	for (i = 0; i < nf; i++) {
		f[i].type = fk_next_str(&p, end);
		f[i].name = f[i].type ? fk_next_str(&p, end) : NULL;
		if (!f[i].name)
			return 0;
	}
	if (end - p < (wide ? 9 : 3) * nf)
		return 0;
	for (i = 0; i < nf; i++, p += wide ? 9 : 3) {
		if (wide) {
			memcpy(&f[i].offset, p, 4);
			memcpy(&f[i].size, p + 4, 4);
			f[i].is_signed = p[8] & 1;
		} else {
			f[i].offset = p[0];
			f[i].size = p[1];
			f[i].is_signed = p[2] & 1;
		}
	}
	if (wide && !(printk = fk_next_str(&p, end)))
		return 0;

	k = fk_new(1, &gb);
	r = fk_ring_new(k, &gb, 0, 2);
	fk_ring_set(r, 0, 1);
	fk_events_init(k);
	fk_event(k, id, sys, name, f, nf, pfmt);
	if (printk) {
		static const struct fk_field bprint[] = {
			{ "unsigned long", "ip", 8, 8, 0 },
			{ "const char *", "fmt", 16, 8, 0 },
			{ "u32[]", "buf", 24, 0, 0 },
		};
		uint64_t sec = fk_alloc(k, 8);

		pa = fk_str(k, printk);
		fk_w64(k, sec, pa);
		fk_sym(k, "__start___trace_bprintk_fmt", sec);
		fk_sym(k, "__stop___trace_bprintk_fmt", sec + 8);
		fk_event(k, (id + 1) & 0xffff, "ftrace", "bprint", bprint, 3,
			 "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	} else {
		fk_seq_event(k, (id + 1) & 0xffff);
	}
	pb = fk_page(r, 0, 1000);
	for (i = 0; end - p >= 16 && pb.pos + 40 <= FK_PAGE - FK_DATA_OFF; i++, p += 16) {
		uint8_t rec[32] = { 0 };
		uint16_t type = (uint16_t)(i % 4 == 3 ? id + 1 : id);

		memcpy(rec, &type, 2);
		memcpy(rec + 8, p, 16);
		if (printk && i % 4 == 3)	/* bprint: ip, fmt, then the arguments */
			memcpy(rec + 16, &pa, 8);
		fk_raw(&pb, 10, rec, printk ? 32 : 24);
	}
	fk_target(k, &t);
	null = fopen("/dev/null", "w");
	o.log = null;
	s = kt_session__open(&t, &o);
	if (s) {
		struct kt_buffer *b = kt_session__buffer(s, 0);

		for (i = 0; i < kt_session__event_cnt(s); i++)
			kt_event__format(kt_session__event(s, i));
		kt_text__write(s, b, null, &to);
		kt_json__write(s, b, null, &to);
		if (wide) {
			/* the same text from worker threads, with their smaller stacks */
			struct kt_text_opts tj = { .sz = sizeof(tj), .jobs = 2 };
			char *one = NULL, *two = NULL;
			size_t n1 = 0, n2 = 0;
			FILE *f1 = open_memstream(&one, &n1), *f2 = open_memstream(&two, &n2);

			kt_text__write(s, b, f1, &to);
			kt_text__write(s, b, f2, &tj);
			fclose(f1);
			fclose(f2);
			if (n1 != n2 || memcmp(one, two, n1)) {
				/* what differs, for the report: -J 1's text, then -J 2's */
				fprintf(stderr, "-J 1 (%zu bytes):\n%s\n-J 2 (%zu bytes):\n%s\n", n1,
					one ? one : "", n2, two ? two : "");
				__builtin_trap();
			}
			free(one);
			free(two);
		}
		kt_session__free(s);
	}
	fclose(null);
	fk_free(k);
	free(r);
	return 0;
}
