// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: one ring-buffer sub-buffer from a dump, as hostile as
 * it gets, through kt_page__load() and kt_page__next().
 *
 * Input: one byte of parameters (bit 0: a 4-byte commit as 32-bit kernels
 * have, data at 12; bits 1-2: sub-buffer of 4, 8, 16 or 32 KiB; bit 3: a
 * big-endian kernel's page, s390x's: its words and the event header's
 * bit-fields in that order), two
 * bytes of read offset (buffer_page.read), then the page (zero-padded to
 * the sub-buffer size, which is allocated exactly so that AddressSanitizer
 * sees any read past it).
 *
 * Beyond not crashing: every record must lie inside the committed data,
 * and kt_page__check() with kt_page__load_checked() must load the page as
 * kt_page__load() does (the page checked among copies of itself, so that
 * more than one of its lanes walks).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kt_layout l = { 0 };
	struct kt_page_cursor c;
	uint32_t subbuf, start;
	const uint8_t *d;
	uint8_t *page;
	uint32_t sz;
	uint64_t ts;
	int ret, n = 0;

	if (len < 3)
		return 0;
	l.dp_time_stamp = (struct kt_member){ true, 0, 8 };
	if (in[0] & 1) {
		l.dp_commit = (struct kt_member){ true, 8, 4 };
		l.dp_data = (struct kt_member){ true, 12, 0 };
	} else {
		l.dp_commit = (struct kt_member){ true, 8, 8 };
		l.dp_data = (struct kt_member){ true, 16, 0 };
	}
	subbuf = 4096u << ((in[0] >> 1) & 3);
	l.be = (in[0] >> 3) & 1;
	start = in[1] | in[2] << 8;
	in += 3;
	len -= 3;
	page = calloc(1, subbuf);
	if (!page)
		return 0;
	memcpy(page, in, len < subbuf ? len : subbuf);
	ret = kt_page__load(&c, &l, page, subbuf, start);
	{
		const uint8_t *pages[5] = { page, page, page, page, page };
		struct kt_page_check chk[5];
		struct kt_page_cursor cc;
		int i;

		kt_page__check(&l, pages, 5, subbuf, chk);
		for (i = 0; i < 5; i++) {
			if (kt_page__load_checked(&cc, &l, page, subbuf, start, &chk[i]) != ret)
				abort();
			if (!ret && memcmp(&cc, &c, sizeof(c)))
				abort();	/* a cursor unlike kt_page__load()'s */
		}
	}
	if (!ret) {
		while ((ret = kt_page__next(&c, &d, &sz, &ts)) > 0) {
			const uint8_t *data = page + l.dp_data.off;

			if (d < data || d + sz > data + c.len || c.len > subbuf - l.dp_data.off)
				abort();	/* a record outside the committed data */
			n++;
		}
		/* load validated the page: the walk cannot fail afterwards */
		if (ret < 0)
			abort();
	}
	free(page);
	(void)n;
	return 0;
}
