// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the ktrace recorder's decoder (lib/krec/decode.c), on
 * an event table and records both taken from the input, as a dump could
 * hold them: formats that do not match their sizes, string offsets
 * anywhere, ids with no entry, records of any length.
 *
 * Input: 1 byte, the number of events (1 + n % 4) and, in its bit 7, the
 * kernel's byte order (set: big-endian, as s390x writes); per event 21 bytes
 * (id u16, size u16, nr_str u8, str_off u16[8]), then its format and
 * name, NUL-terminated; the rest: records, each a length byte and that
 * many bytes.
 */
#include <stdlib.h>
#include "fake-kernel.h"
#include "krec/krec.h"

#define MAX_EVENTS 4

static int cmp_id(const void *a, const void *b)
{
	const struct kt_krec_event *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kt_krec_hdr hdr = { 0, 2, 4, 8, false };
	struct kt_krec_event ev[MAX_EVENTS];
	const uint8_t *p = in + 1, *end = in + len;
	struct kt_loss loss = { 0 };
	char out[1200];
	int nr, i, k;

	if (len < 1)
		return 0;
	nr = 1 + in[0] % MAX_EVENTS;
	hdr.be = in[0] & 0x80;
	memset(ev, 0, sizeof(ev));
	for (i = 0; i < nr; i++) {
		const uint8_t *z;

		if (end - p < 21)
			return 0;
		ev[i].id = (uint16_t)(p[0] | p[1] << 8);
		ev[i].size = (uint16_t)(p[2] | p[3] << 8);
		ev[i].nr_str = p[4] % (KT_KREC_MAX_ARGS + 1);
		for (k = 0; k < KT_KREC_MAX_ARGS; k++)
			ev[i].str_off[k] = (uint16_t)(p[5 + 2 * k] | p[6 + 2 * k] << 8);
		p += 21;
		z = memchr(p, 0, end - p);
		if (!z)
			return 0;
		ev[i].format = (char *)p;
		p = z + 1;
		z = memchr(p, 0, end - p);
		if (!z)
			return 0;
		ev[i].name = (char *)p;
		p = z + 1;
		kt_krec__parse(&ev[i], &hdr);
	}
	qsort(ev, nr, sizeof(ev[0]), cmp_id);
	while (p < end) {
		uint32_t n = *p++;
		uint8_t *rec;

		if (n > (uint32_t)(end - p))
			n = (uint32_t)(end - p);
		/* a copy of exactly n bytes: ASan sees any read past the record */
		rec = malloc(n ? n : 1);
		if (!rec)
			return 0;
		memcpy(rec, p, n);
		kt_krec__text(ev, nr, &hdr, rec, n, out, sizeof(out), &loss);
		kt_krec__text(ev, nr, &hdr, rec, n, out, 7, &loss);
		free(rec);
		p += n;
	}
	return 0;
}
