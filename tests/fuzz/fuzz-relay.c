// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: a relay buffer's walk (lib/relay/walk.c) and the
 * blktrace record check, on values a damaged dump could hold.
 *
 * Input: 6 little-endian u64 (subbuf_size, n_subbufs, offset, produced,
 * consumed, bytes_consumed; sizes folded small so the walk is cheap),
 * then n_subbufs u64 of padding (missing ones 0), then the rest as a
 * buffer's data, walked record by record within every unread run that
 * falls inside it.
 */
#include <stdlib.h>
#include <string.h>
#include "relay/relay.h"

static uint64_t u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct kt_relay_state st;
	struct kt_relay_plan p;
	const uint8_t *data;
	uint64_t *pad, i, dlen;
	char why[160];

	if (len < 48)
		return 0;
	st.subbuf_size = u64(in) % 8192;
	st.n_subbufs = u64(in + 8) % 64;
	st.offset = u64(in + 16);
	st.produced = u64(in + 24);
	st.consumed = u64(in + 32);
	st.bytes_consumed = u64(in + 40);
	/* small values often: the interesting cases are near the edges */
	if (st.offset & (1ull << 63))
		st.offset = st.subbuf_size + (st.offset & 3) - 1;
	if (st.produced & (1ull << 63))
		st.produced = st.consumed + (st.produced & 127);
	pad = calloc(st.n_subbufs ? st.n_subbufs : 1, sizeof(*pad));
	if (!pad)
		return 0;
	for (i = 0; i < st.n_subbufs && 48 + 8 * (i + 1) <= len; i++)
		pad[i] = u64(in + 48 + 8 * i) % (st.subbuf_size + 2);
	data = in + 48 + 8 * i;
	dlen = len - 48 - 8 * i;
	st.padding = pad;
	if (!kt_relay__plan(&st, &p, why, sizeof(why))) {
		uint64_t k, total = 0;

		for (k = 0; k < p.nr_segs; k++) {
			uint64_t off = p.segs[k].off, n = p.segs[k].len, pos = 0;

			/* every run inside the buffer and its sub-buffer */
			if (off + n > st.subbuf_size * st.n_subbufs ||
			    off / st.subbuf_size != (off + n - 1) / st.subbuf_size)
				abort();
			total += n;
			if (off >= dlen)
				continue;
			if (n > dlen - off)
				n = dlen - off;
			while (pos < n) {
				/* either kernel byte order, by the run's first bit */
				long r = kt_blk__record_len(data[off] & 1, data + off + pos,
							    n - pos);

				if (r < 0)
					break;
				pos += r ? (uint64_t)r : 1;
			}
		}
		if (total != p.unread || p.nr_segs > st.n_subbufs + 1)
			abort();
		kt_relay_plan__free(&p);
	}
	free(pad);
	return 0;
}
