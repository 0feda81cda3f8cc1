// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the event table and the renderers. A fake kernel
 * (tests/unit/fake-kernel.h) serves an ftrace_events list built from the
 * input, with a ring page of records of those events; the session reads
 * the table, rebuilds every format (kt_event__format()), and writes the
 * buffer as text (libtraceevent's print path) and JSON.
 *
 * Input, after a 3-byte head (event id, field count):
 *   NUL-separated strings: system, name, print_fmt, then per field its
 *   type and name;
 *   per field 3 bytes: offset, size, is_signed;
 *   the rest: record payloads, 16 bytes each after an 8-byte trace_entry
 *   (type = the event id, or the next id for every 4th record).
 */
#include "fake-kernel.h"

#define MAX_FIELDS 8

static const char *next_str(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *s = *p, *z = memchr(s, 0, end - s);

	if (!z)
		return NULL;
	*p = z + 1;
	return (const char *)s;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	const uint8_t *p = in + 3, *end = in + len;
	struct fk_field f[MAX_FIELDS];
	const char *sys, *name, *pfmt;
	struct kt_open_opts o = { .sz = sizeof(o) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct fk_buffer gb;
	struct fk_kernel *k;
	struct fk_ring *r;
	struct kt_target t;
	struct kt_session *s;
	struct fk_pb pb;
	FILE *null;
	int id, nf, i;

	if (len < 3)
		return 0;
	id = in[0] | in[1] << 8;
	nf = in[2] % (MAX_FIELDS + 1);
	sys = next_str(&p, end);
	name = sys ? next_str(&p, end) : NULL;
	pfmt = name ? next_str(&p, end) : NULL;
	if (!pfmt)
		return 0;
	for (i = 0; i < nf; i++) {
		f[i].type = next_str(&p, end);
		f[i].name = f[i].type ? next_str(&p, end) : NULL;
		if (!f[i].name)
			return 0;
	}
	if (end - p < 3 * nf)
		return 0;
	for (i = 0; i < nf; i++, p += 3) {
		f[i].offset = p[0];
		f[i].size = p[1];
		f[i].is_signed = p[2] & 1;
	}

	k = fk_new(1, &gb);
	r = fk_ring_new(k, &gb, 0, 2);
	fk_ring_set(r, 0, 1);
	fk_events_init(k);
	fk_event(k, id, sys, name, f, nf, pfmt);
	fk_seq_event(k, (id + 1) & 0xffff);
	pb = fk_page(r, 0, 1000);
	for (i = 0; end - p >= 16 && pb.pos + 32 <= FK_PAGE - FK_DATA_OFF; i++, p += 16) {
		uint8_t rec[24] = { 0 };
		uint16_t type = (uint16_t)(i % 4 == 3 ? id + 1 : id);

		memcpy(rec, &type, 2);
		memcpy(rec + 8, p, 16);
		fk_raw(&pb, 10, rec, sizeof(rec));
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
		kt_session__free(s);
	}
	fclose(null);
	fk_free(k);
	free(r);
	return 0;
}
