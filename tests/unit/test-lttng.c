// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * An LTTng buffer's packets as lib/lttng/walk.c orders and closes them,
 * from page-set headers written in either kernel byte order: the client
 * (lttng-ring-buffer-client.h) fills struct packet_header in the kernel's
 * own order, big-endian on s390x. A big-endian buffer is planned as its
 * little-endian twin; the same bytes read in the other order have no
 * packet header; the packet being written is closed in the kernel's order
 * and rounded up to its page size.
 */
#include "fake-check.h"
#include "lttng/lttng.h"

#define SB	16384u		/* sub-buffer size */
#define NSB	4u		/* sub-buffers: 5 page sets in overwrite mode */

static void put(bool be, uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(bool be, const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[be ? i : n - 1 - i];
	return v;
}

/* a page set's header as the client writes it: at the switch (begin),
 * content and packet size all ones; at delivery (end), the sizes */
static void hdr(bool be, uint8_t *p, uint64_t seq, uint64_t content, uint64_t packet)
{
	memset(p, 0, KT_LTTNG_PH_SIZE);
	put(be, p + KT_LTTNG_PH_MAGIC, KT_CTF_MAGIC, 4);
	put(be, p + KT_LTTNG_PH_SEQ_NUM, seq, 8);
	put(be, p + KT_LTTNG_PH_CONTENT_SIZE, content, 8);
	put(be, p + KT_LTTNG_PH_PACKET_SIZE, packet, 8);
	put(be, p + KT_LTTNG_PH_CPU_ID, 1, 4);
}

/*
 * The buffer: write position in sub-buffer 5 (1000 bytes reserved and
 * committed), sub-buffers 2, 3 and 4 delivered in page sets 0, 1 and 2,
 * 5 being written in page set 3, the reader's page set 4 holding 1. Its
 * headers written in byte order @written, read in @read.
 */
static int plan(bool written, bool read, uint64_t page, struct kt_lttng_plan *p,
		struct kt_lttng_pkt *sets, char *why)
{
	uint8_t raw[5][KT_LTTNG_PH_SIZE];
	struct kt_lttng_state st = {
		.subbuf_size = SB, .num_subbuf = NSB, .page = page,
		.offset = 5ull * SB + 1000, .consumed = 0,
		/* one full turn of the 4 slots before: 1 * SB, then 1000 */
		.commit_cur = SB + 1000, .commit_count_mask = ~0ull >> 2,
		.cur_set = 3, .sets = sets, .nr_sets = NSB + 1,
	};
	int i;

	hdr(written, raw[0], 2, 8 * 9000, 8 * 12288);
	hdr(written, raw[1], 3, 8 * 16000, 8 * 16384);
	hdr(written, raw[2], 4, 8 * 4000, 8 * 4096);
	hdr(written, raw[3], 5, ~0ull, ~0ull);
	hdr(written, raw[4], 1, 8 * 500, 8 * 4096);
	for (i = 0; i < 5; i++)
		kt_lttng__parse_header(read, raw[i], KT_LTTNG_PH_SIZE, &sets[i]);
	why[0] = 0;
	return kt_lttng__plan(&st, p, why, 160);
}

int main(void)
{
	struct kt_lttng_pkt sets[5];
	struct kt_lttng_plan p;
	uint8_t pkt[SB];
	char why[160];
	int be, err;

	for (be = 0; be < 2; be++) {
		const char *o = be ? "big-endian" : "little-endian";

		err = plan(be, be, 4096, &p, sets, why);
		CHECK(!err && sets[0].magic == KT_CTF_MAGIC && sets[0].seq == 2 &&
			      sets[0].content_size == 8 * 9000 && sets[1].packet_size == 8 * 16384,
		      "%s: the packet headers read in the kernel's order", o);
		CHECK(!err && p.nr == 4 && p.set[0] == 0 && p.set[1] == 1 && p.set[2] == 2 &&
			      p.set[3] == 3 && p.bytes[0] == 12288 && p.bytes[1] == 16384 &&
			      p.bytes[2] == 4096 && p.has_cur && p.cur_data == 1000 &&
			      p.bytes[3] == 4096 && p.overwritten == 2 && !p.uncommitted &&
			      !p.bad_sets,
		      "%s: sub-buffers 2, 3, 4 delivered, 5 being written (its 1000 bytes, a page), "
		      "0 and 1 overwritten: %s", o, why);
		kt_lttng_plan__free(&p);

		/* the same bytes read in the other order: no packet header */
		err = plan(be, !be, 4096, &p, sets, why);
		CHECK(err == -EBADMSG && strstr(why, "has no packet header of sequence 5"),
		      "%s headers read in the other order: refused (%s)", o, why);

		/* closed as client_buffer_end() would: in the kernel's order */
		memset(pkt, 0xee, sizeof(pkt));
		hdr(be, pkt, 5, ~0ull, ~0ull);
		err = kt_lttng__close_packet(be, pkt, sizeof(pkt), 1000, 4096, 123456789, 7);
		CHECK(!err && get(be, pkt + KT_LTTNG_PH_TS_END, 8) == 123456789 &&
			      get(be, pkt + KT_LTTNG_PH_CONTENT_SIZE, 8) == 8000 &&
			      get(be, pkt + KT_LTTNG_PH_PACKET_SIZE, 8) == 8 * 4096 &&
			      get(be, pkt + KT_LTTNG_PH_DISCARDED, 8) == 7 &&
			      get(be, pkt + KT_LTTNG_PH_MAGIC, 4) == KT_CTF_MAGIC &&
			      get(be, pkt + KT_LTTNG_PH_SEQ_NUM, 8) == 5 &&
			      pkt[1000] == 0 && pkt[4095] == 0 && pkt[4096] == 0xee,
		      "%s: the packet being written closed in the kernel's byte order "
		      "(timestamp_end, content_size 8000 bits, packet_size a page, 7 discarded), "
		      "its tail zeroed up to the page", o);
		kt_lttng__parse_header(be, pkt, KT_LTTNG_PH_SIZE, &sets[0]);
		CHECK(sets[0].content_size == 8000 && sets[0].packet_size == 8 * 4096,
		      "%s: the closed header reads back", o);
	}

	/* the packet being written ends at the kernel's page size */
	err = plan(true, true, 8192, &p, sets, why);
	CHECK(!err && p.nr == 4 && p.bytes[3] == 8192, "big-endian, 8 KiB pages: the packet "
	      "being written is 8192 bytes");
	kt_lttng_plan__free(&p);
	err = plan(true, true, 3000, &p, sets, why);
	CHECK(err == -EBADMSG && strstr(why, "page size 3000"), "a page size of 3000 refused (%s)",
	      why);
	err = plan(true, true, 2 * SB, &p, sets, why);
	CHECK(err == -EBADMSG && strstr(why, "page size 32768"),
	      "a page larger than the sub-buffer refused (%s)", why);
	return fk_failed;
}
