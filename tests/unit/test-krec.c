// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ktrace recorder's decoder (lib/krec/decode.c) on good and hostile
 * tables and records: a format that does not match the table's size or
 * string offsets, a string whose data location points past the record,
 * an id with no entry, a record shorter than its header. Each is counted
 * (events_unknown, records_bad) and rendered as krec's own read interface
 * renders it; none may read outside the record (run under ASan too).
 */
#include "fake-check.h"
#include "krec/krec.h"

static const struct kt_krec_hdr hdr = { .id_off = 0, .size_off = 2, .pid_off = 4, .len = 8 };

/* a record: header, then @args (already packed), then @strs */
static uint32_t record(uint8_t *buf, uint16_t id, const void *args, uint32_t alen,
		       const char *str, uint32_t pad)
{
	uint32_t n = 8 + alen, own;

	memset(buf, 0, 256);
	buf[0] = id & 0xff;
	buf[1] = id >> 8;
	buf[4] = 42;
	memcpy(buf + 8, args, alen);
	if (str) {
		memcpy(buf + n, str, strlen(str) + 1);
		n += strlen(str) + 1;
	}
	own = n;
	buf[2] = own & 0xff;
	buf[3] = own >> 8;
	return (n + pad + 3) & ~3u;	/* as the ring rounds it */
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

int main(void)
{
	struct kt_krec_event ev[4] = {
		{ .id = 1, .name = "demo_xmit", .format = "dev=%s len=%u seq=%llu", .size = 24,
		  .nr_str = 1, .str_off = { 8 } },
		{ .id = 2, .name = "demo_state", .format = "%-8s -> %8s (%ld) %%", .size = 24,
		  .nr_str = 2, .str_off = { 8, 12 } },
		/* hostile: the format says 8 + 4 + 8 bytes, the table 16 */
		{ .id = 3, .name = "bad_size", .format = "a=%d b=%lu", .size = 16 },
		/* hostile: %p is no krec conversion */
		{ .id = 5, .name = "bad_conv", .format = "p=%p", .size = 16 },
	};
	struct kt_krec_event wrong_off = { .id = 9, .name = "wrong_off", .format = "%s %s",
					   .size = 16, .nr_str = 2, .str_off = { 8, 8 } };
	struct kt_loss loss = { 0 };
	uint8_t rec[256], args[32];
	char out[256];
	uint32_t n;
	int i, err;

	for (i = 0; i < 4; i++)
		kt_krec__parse(&ev[i], &hdr);
	CHECK(!ev[0].bad_format && ev[0].nr_args == 3, "demo_xmit: format matches size 24");
	CHECK(!ev[1].bad_format, "demo_state: two strings, a long, a literal %%");
	CHECK(ev[2].bad_format, "bad_size: format of 20 bytes, table says 16: refused");
	CHECK(ev[3].bad_format, "bad_conv: %%p refused");
	CHECK(kt_krec__parse(&wrong_off, &hdr) == -EBADMSG,
	      "string offsets that are not the format's: refused");

	/* good records, rendered as krec_render() does */
	put32(args, (uint32_t)(5 << 16 | 24));
	put32(args + 4, 1500);
	put64(args + 8, 123456789012ULL);
	n = record(rec, 1, args, 16, "eth0", 0);
	err = kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: dev=eth0 len=1500 seq=123456789012", "a string, an int, a u64");
	CHECK(!err, "decoded: 0");
	put32(args, (uint32_t)(5 << 16 | 24));
	put32(args + 4, (uint32_t)(6 << 16 | 29));
	put64(args + 8, (uint64_t)-5);
	n = record(rec, 2, args, 16, "idle", 0);
	memcpy(rec + 29, "reset", 6);
	rec[2] = 35;
	n = 36;
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_state: idle     ->    reset (-5) %", "widths, a negative long, %%");
	CHECK_U64(loss.events_unknown + loss.records_bad, 0, "nothing counted for good records");

	/* hostile records */
	put32(args, (uint32_t)(200 << 16 | 24));	/* length past the record */
	n = record(rec, 1, args, 16, "eth0", 0);
	err = kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: (bad record)", "string length past the record");
	CHECK(err == -EBADMSG, "  -EBADMSG");
	put32(args, (uint32_t)(5 << 16 | 0xfff0));	/* offset past the record */
	n = record(rec, 1, args, 16, "eth0", 0);
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: (bad record)", "string offset past the record");
	put32(args, (uint32_t)(4 << 16 | 8));		/* into the fixed part */
	n = record(rec, 1, args, 16, "eth0", 0);
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: (bad record)", "string inside the fixed part");
	put32(args, (uint32_t)(4 << 16 | 24));		/* no NUL inside its length */
	n = record(rec, 1, args, 16, "eth0", 0);
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: (bad record)", "string without its NUL");
	n = record(rec, 1, args, 4, NULL, 0);		/* shorter than the fixed part */
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "demo_xmit: (bad record)", "record shorter than its event's fixed part");
	n = record(rec, 3, args, 8, NULL, 0);
	kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "bad_size: (bad record)", "event whose format does not match its size");
	n = record(rec, 4, args, 8, NULL, 0);
	err = kt_krec__text(ev, 4, &hdr, rec, n, out, sizeof(out), &loss);
	CHECK_STR(out, "<id 4>: (no such event)", "an id with no entry");
	CHECK(err == -ENOENT, "  -ENOENT");
	err = kt_krec__text(ev, 4, &hdr, rec, 3, out, sizeof(out), &loss);
	CHECK_STR(out, "<id 0>: (no such event)", "a record shorter than the header");
	CHECK_U64(loss.records_bad, 6, "records_bad counts the undecodable records");
	CHECK_U64(loss.events_unknown, 2, "events_unknown counts the unknown ids");
	CHECK(kt_loss__any(&loss), "the loss is reported (exit status 10)");

	/* a small output buffer truncates, never overflows */
	put32(args, (uint32_t)(5 << 16 | 24));
	n = record(rec, 1, args, 16, "eth0", 0);
	kt_krec__text(ev, 4, &hdr, rec, n, out, 12, &loss);
	CHECK_STR(out, "demo_xmit: ", "truncated to the output buffer");
	return fk_failed;
}
