// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The hand-written integer conversions of the line columns and of the
 * compiled print formats (lib/put.h) against snprintf() itself: "%*lld",
 * "%-*lld", "%0*lld", the same of "%llu", and "%x"
 * over the edges of every digit count, the extremes and a pseudo-random
 * spread, at every width from none to wider than the number; and
 * kt_seq_put() (lib/ftrace/render.h) against trace_seq_puts() when the piece
 * fits the trace_seq's buffer, fills it exactly, and overflows it.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "fake-check.h"
#include "put.h"
#include "ftrace/render.h"

static int64_t values[4096];
static size_t nvalues;

static void add(int64_t v)
{
	if (nvalues < sizeof(values) / sizeof(values[0]))
		values[nvalues++] = v;
}

static void fill_values(void)
{
	uint64_t x = 0x243f6a8885a308d3ull, p = 1;
	int i;

	add(0);
	add(INT64_MAX);
	add(INT64_MIN);
	add(INT_MAX);
	add(INT_MIN);
	for (i = 0; i < 19; i++, p *= 10) {
		add((int64_t)p - 1);
		add((int64_t)p);
		add((int64_t)p + 1);
		add(-(int64_t)p + 1);
		add(-(int64_t)p);
		add(-(int64_t)p - 1);
	}
	for (i = 0; i < 2000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* every magnitude: shifted right by 0 to 63 bits */
		add((int64_t)(x >> (x % 64)));
		add(-(int64_t)(x >> (x % 64)));
	}
}

int main(void)
{
	char got[64], want[64], *e;
	int bad_dec = 0, bad_udec = 0, bad_hex = 0, n_dec = 0, n_udec = 0, n_hex = 0;
	size_t i;
	int w;

	fill_values();
	for (i = 0; i < nvalues; i++) {
		long long v = values[i];

		for (w = 0; w <= 22; w++) {
			e = kt_put_dec(got, v, w, false);
			*e = 0;
			snprintf(want, sizeof(want), "%*lld", w, v);
			bad_dec += strcmp(got, want) != 0;
			e = kt_put_dec(got, v, -w, false);
			*e = 0;
			snprintf(want, sizeof(want), "%-*lld", w, v);
			bad_dec += strcmp(got, want) != 0;
			e = kt_put_dec(got, v, w, true);
			*e = 0;
			snprintf(want, sizeof(want), "%0*lld", w, v);
			if (strcmp(got, want) && !bad_dec)
				printf("#   %%0%dlld of %lld: got '%s', want '%s'\n", w, v, got, want);
			bad_dec += strcmp(got, want) != 0;
			n_dec += 3;
			e = kt_put_udec(got, (uint64_t)v, w);
			*e = 0;
			snprintf(want, sizeof(want), "%*llu", w, (unsigned long long)v);
			bad_udec += strcmp(got, want) != 0;
			e = kt_put_udec_flags(got, (uint64_t)v, w, false);
			*e = 0;
			bad_udec += strcmp(got, want) != 0;
			e = kt_put_udec_flags(got, (uint64_t)v, -w, false);
			*e = 0;
			snprintf(want, sizeof(want), "%-*llu", w, (unsigned long long)v);
			bad_udec += strcmp(got, want) != 0;
			e = kt_put_udec_flags(got, (uint64_t)v, w, true);
			*e = 0;
			snprintf(want, sizeof(want), "%0*llu", w, (unsigned long long)v);
			bad_udec += strcmp(got, want) != 0;
			n_udec += 4;
		}
		e = kt_put_hex(got, (unsigned)v);
		*e = 0;
		snprintf(want, sizeof(want), "%x", (unsigned)v);
		bad_hex += strcmp(got, want) != 0;
		e = kt_put_hex(got, (uint64_t)v);
		*e = 0;
		snprintf(want, sizeof(want), "%llx", (unsigned long long)v);
		bad_hex += strcmp(got, want) != 0;
		n_hex += 2;
	}
	CHECK(nvalues > 4000, "%zu values", nvalues);
	CHECK(!bad_dec, "%%*lld, %%-*lld, %%0*lld: %d conversions, %d differ from snprintf()",
	      n_dec, bad_dec);
	CHECK(!bad_udec, "%%*llu, %%-*llu, %%0*llu: %d conversions, %d differ from snprintf()", n_udec, bad_udec);
	CHECK(!bad_hex, "%%x, %%llx: %d conversions, %d differ from snprintf()", n_hex, bad_hex);

	/* kt_seq_put(): the same text as trace_seq_puts(), at and past the buffer's end */
	{
		struct trace_seq a, b;
		char piece[300];
		int same = 1, rounds = 0;

		trace_seq_init(&a);
		trace_seq_init(&b);
		for (i = 0; i < sizeof(piece) - 1; i++)
			piece[i] = (char)('a' + i % 26);
		piece[sizeof(piece) - 1] = 0;
		/* lengths 0..299 in turn: crosses the first buffer's end at every offset */
		for (i = 0; i < 20000 && a.len < 1u << 20; i++, rounds++) {
			size_t n = (i * 7) % (sizeof(piece));
			char save = piece[n];

			piece[n] = 0;
			kt_seq_put(&a, piece, n);
			trace_seq_puts(&b, piece);
			piece[n] = save;
			if (a.len != b.len || memcmp(a.buffer, b.buffer, a.len)) {
				same = 0;
				break;
			}
		}
		CHECK(same && a.state == TRACE_SEQ__GOOD,
		      "kt_seq_put(): %d pieces, %u bytes, as trace_seq_puts() put them", rounds, a.len);
		trace_seq_destroy(&a);
		trace_seq_destroy(&b);
	}
	return fk_failed;
}
