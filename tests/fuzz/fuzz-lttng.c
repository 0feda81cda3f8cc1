// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: an LTTng buffer's walk (lib/lttng/walk.c), closing
 * the packet being written, and the metadata check, on values a damaged
 * dump could hold.
 *
 * Input: 6 little-endian u64 (subbuf_size, num_subbuf, offset, consumed,
 * commit count of the current slot, current page-set index; sizes folded
 * small), then one 84-byte packet header per page set (missing ones: not
 * readable), then the rest as metadata text. The kernel's byte order is
 * big-endian when bit 62 of the first u64 is set, its page size 4096 or,
 * with bit 61, the sub-buffer size shifted by the current page-set index.
 */
#include <stdlib.h>
#include <string.h>
#include "lttng/lttng.h"

static uint64_t u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kt_lttng_pkt sets[17];
	struct kt_lttng_state st = { 0 };
	struct kt_lttng_plan p;
	const uint8_t *rest;
	char why[200];
	size_t i, off = 48;
	bool be;

	if (len < 48)
		return 0;
	st.subbuf_size = 1ull << (u64(in) % 17);
	if (u64(in) & (1ull << 63))
		st.subbuf_size = u64(in) % 70000;	/* not a power of two, often */
	st.num_subbuf = 1ull << (u64(in + 8) % 5);
	if (u64(in + 8) & (1ull << 63))
		st.num_subbuf = u64(in + 8) % 20;
	st.offset = u64(in + 16);
	if (st.offset & (1ull << 63))
		st.offset = (st.offset & 0xffff) * 8;	/* near the start, often */
	st.consumed = u64(in + 24);
	if (st.consumed & (1ull << 63))
		st.consumed = st.offset & ~(st.subbuf_size - 1) & 0xfff0000;
	st.commit_cur = u64(in + 32);
	st.commit_count_mask = ~0ull >> (st.num_subbuf ? __builtin_ctzll(st.num_subbuf) : 0);
	st.cur_set = u64(in + 40) % 20;
	be = u64(in) & (1ull << 62);
	st.page = 4096;
	if (u64(in) & (1ull << 61))
		st.page = st.subbuf_size >> (u64(in + 40) % 20);
	st.nr_sets = st.num_subbuf + 1 <= 17 ? st.num_subbuf + 1 : 17;
	memset(sets, 0, sizeof(sets));
	for (i = 0; i < st.nr_sets; i++) {
		if (off + KT_LTTNG_PH_SIZE > len)
			break;
		kt_lttng__parse_header(be, in + off, KT_LTTNG_PH_SIZE, &sets[i]);
		off += KT_LTTNG_PH_SIZE;
	}
	st.sets = sets;
	if (!kt_lttng__plan(&st, &p, why, sizeof(why))) {
		uint64_t k;

		for (k = 0; k < p.nr; k++) {
			if (p.set[k] >= st.nr_sets || p.bytes[k] > st.subbuf_size)
				abort();
			if (p.has_cur && k == p.nr - 1) {
				uint8_t *pkt = calloc(1, st.subbuf_size);

				if (!pkt)
					break;
				if (p.cur_data > st.subbuf_size ||
				    kt_lttng__close_packet(be, pkt, st.subbuf_size, p.cur_data, st.page,
							   1, 2))
					abort();
				free(pkt);
			}
		}
		kt_lttng_plan__free(&p);
	}
	rest = in + off;
	kt_lttng__check_metadata((const char *)rest, len - off, why, sizeof(why));
	return 0;
}
