// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Relay buffers walked as the kernel's reader would (lib/relay/walk.c):
 * normal mode with a partly read sub-buffer and padding, a normal-mode
 * writer refused (offset = subbuf_size + 1), flight mode gone round (the
 * overwritten sub-buffers counted, the reader's skip to produced -
 * n_subbufs + 1), and damaged values refused with a message: sizes and
 * counts out of range, offsets past the sub-buffer, padding larger than
 * it, consumed ahead of produced. Then blktrace records: length from
 * pdu_len, a wrong magic or version refused, a record cut by the end, in
 * either kernel byte order (a record of the other order refused).
 */
#include "fake-check.h"
#include "relay/relay.h"

static int plan(uint64_t size, uint64_t n, uint64_t off, uint64_t prod, uint64_t cons,
		uint64_t bytes, const uint64_t *pad, struct kt_relay_plan *p, char *why)
{
	struct kt_relay_state st = { size, n, off, prod, cons, bytes, pad };

	why[0] = 0;
	return kt_relay__plan(&st, p, why, 160);
}

static void blk(uint8_t *p, uint32_t magic, uint16_t pdu)
{
	memset(p, 0, 48 + pdu);
	memcpy(p, &magic, 4);
	memcpy(p + 46, &pdu, 2);
}

int main(void)
{
	uint64_t pad[8] = { 0 };
	struct kt_relay_plan p;
	uint8_t rec[256];
	char why[160];
	int err;

	/* normal mode: sub-buffer 1 read up to 30 of its 90 bytes (padding
	 * 10), sub-buffer 2 the current one, 50 bytes written */
	pad[1] = 10;
	err = plan(100, 4, 50, 2, 1, 30, pad, &p, why);
	CHECK(!err && p.nr_segs == 2 && p.segs[0].off == 130 && p.segs[0].len == 60 &&
		      p.segs[0].head == 30 && p.segs[1].off == 200 && p.segs[1].len == 50 &&
		      !p.segs[1].head && p.unread == 110 && !p.overwritten && !p.full,
	      "normal mode: the rest of the partly read sub-buffer without its padding, then "
	      "the current one up to offset");
	kt_relay_plan__free(&p);

	/* all read: produced == consumed, bytes_consumed == offset */
	err = plan(100, 4, 50, 2, 2, 50, pad, &p, why);
	CHECK(!err && p.unread == 0 && p.nr_segs == 0, "everything read: nothing unread");
	kt_relay_plan__free(&p);

	/* normal mode, full: 4 produced since consumed 1, writes refused;
	 * slot 1 partly read (20), then slots 2, 3, 0 */
	memset(pad, 0, sizeof(pad));
	pad[2] = 5;
	err = plan(100, 4, 101, 5, 1, 20, pad, &p, why);
	CHECK(!err && p.full && p.nr_segs == 4 && p.segs[0].off == 120 && p.segs[0].len == 80 &&
		      p.segs[1].off == 200 && p.segs[1].len == 95 && p.segs[2].off == 300 &&
		      p.segs[3].off == 0 && p.segs[3].len == 100 && !p.overwritten,
	      "normal mode with every sub-buffer unread: all of them, oldest first, none lost");
	kt_relay_plan__free(&p);

	/* flight mode: produced 9, consumed 2, 4 sub-buffers: the reader
	 * skips to 6; 4 overwritten; slots 2, 3, 0 whole, then 1 to 40 */
	memset(pad, 0, sizeof(pad));
	pad[0] = pad[1] = pad[2] = pad[3] = 5;
	err = plan(100, 4, 40, 9, 2, 70, pad, &p, why);
	CHECK(!err && p.overwritten == 4 && p.nr_segs == 4 && p.segs[0].off == 200 &&
		      p.segs[0].len == 95 && p.segs[2].off == 0 && p.segs[3].off == 100 &&
		      p.segs[3].len == 40 && p.unread == 3 * 95 + 40,
	      "flight mode: overwritten sub-buffers counted, the oldest left first");
	kt_relay_plan__free(&p);

	/* damaged */
	memset(pad, 0, sizeof(pad));
	err = plan(100, 0, 0, 0, 0, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "n_subbufs 0"), "n_subbufs 0 refused: %s", why);
	err = plan(100, 1u << 21, 0, 0, 0, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "n_subbufs"), "n_subbufs 2^21 refused: %s", why);
	err = plan(0, 4, 0, 0, 0, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "subbuf_size 0"), "subbuf_size 0 refused: %s", why);
	err = plan(1ull << 40, 4, 0, 0, 0, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "subbuf_size"), "subbuf_size 2^40 refused: %s", why);
	err = plan(100, 4, 102, 0, 0, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "offset 102"), "offset past the sub-buffer: %s", why);
	err = plan(100, 4, 10, 0, 0, 101, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "bytes_consumed 101"),
	      "bytes_consumed past the sub-buffer: %s", why);
	err = plan(100, 4, 10, 3, 5, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "ahead"), "consumed ahead of produced: %s", why);
	pad[3] = 101;
	err = plan(100, 4, 10, 5, 3, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "padding[3] 101"),
	      "padding larger than the sub-buffer: %s", why);
	pad[3] = 0;
	err = plan(100, 4, 101, 9, 3, 0, pad, &p, why);
	CHECK(err == -EBADMSG && strstr(why, "refused"),
	      "a refused writer more than n_subbufs ahead: %s", why);

	/* blktrace records */
	blk(rec, 0x65617407, 16);
	CHECK(kt_blk__record_len(false, rec, 64) == 64, "a record with a 16-byte pdu is 64 bytes");
	CHECK(kt_blk__record_len(false, rec, 63) == -1, "a record cut by the end of the data");
	CHECK(kt_blk__record_len(false, rec, 20) == -1, "a header cut by the end of the data");
	blk(rec, 0x65617406, 0);
	CHECK(kt_blk__record_len(false, rec, 48) == 0, "version 6 refused");
	blk(rec, 0x12345607, 0);
	CHECK(kt_blk__record_len(false, rec, 48) == 0, "a wrong magic refused");
	CHECK(kt_blk__record_len(false, rec, 3) == 0, "3 bytes are no record");
	/* struct blk_io_trace2 (version 8, 6.19+): 64 bytes, pdu_len at 50 */
	memset(rec, 0, sizeof(rec));
	rec[0] = 0x08; rec[1] = 0x74; rec[2] = 0x61; rec[3] = 0x65;
	rec[50] = 16;
	CHECK(kt_blk__record_len(false, rec, 80) == 80, "a blk_io_trace2 record with a 16-byte pdu is 80 bytes");
	CHECK(kt_blk__record_len(false, rec, 79) == -1, "a blk_io_trace2 record cut by the end of the data");
	CHECK(kt_blk__record_len(false, rec, 60) == -1, "a blk_io_trace2 header cut (60 of 64 bytes)");
	/* a big-endian kernel's (s390x): magic and pdu_len in its order; a
	 * record of the other order is no record */
	memset(rec, 0, sizeof(rec));
	rec[0] = 0x65; rec[1] = 0x61; rec[2] = 0x74; rec[3] = 0x07;
	rec[46] = 0x01; rec[47] = 0x02;
	CHECK(kt_blk__record_len(true, rec, 48 + 258) == 48 + 258,
	      "a big-endian record's pdu_len 0x0102 read big-endian (258 bytes)");
	rec[46] = 0; rec[47] = 16;
	CHECK(kt_blk__record_len(true, rec, 64) == 64,
	      "a big-endian record with a 16-byte pdu is 64 bytes");
	CHECK(kt_blk__record_len(true, rec, 63) == -1, "a big-endian record cut by the end");
	CHECK(kt_blk__record_len(false, rec, 64) == 0,
	      "a big-endian record is no record of a little-endian kernel");
	blk(rec, 0x65617407, 16);
	CHECK(kt_blk__record_len(true, rec, 64) == 0,
	      "a little-endian record is no record of a big-endian kernel");
	memset(rec, 0, sizeof(rec));
	rec[0] = 0x65; rec[1] = 0x61; rec[2] = 0x74; rec[3] = 0x08;
	rec[50] = 0; rec[51] = 16;
	CHECK(kt_blk__record_len(true, rec, 80) == 80,
	      "a big-endian blk_io_trace2 record with a 16-byte pdu is 80 bytes");
	return fk_failed;
}
