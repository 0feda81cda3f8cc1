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
#include "internal.h"
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

/* one struct krec_entry; returns the address of its hlist node */
static uint64_t fk_krec_entry(struct fk_kernel *k, uint16_t id, const char *name,
			      const char *fmt, uint16_t size, int nr_str, const uint16_t *offs)
{
	uint64_t e = fk_alloc(k, KE_SZ);
	uint8_t *p = fk_ptr(k, e, KE_SZ);
	int i;

	fk_w64(k, e + KE_NAME, fk_str(k, name));
	fk_w64(k, e + KE_FORMAT, fk_str(k, fmt));
	memcpy(p + KE_ID, &id, 2);
	memcpy(p + KE_SIZE, &size, 2);
	p[KE_NR_STR] = (uint8_t)nr_str;
	for (i = 0; i < nr_str; i++)
		memcpy(p + KE_STR_OFF + 2 * i, &offs[i], 2);
	p[KE_ENABLED] = 1;
	return e + KE_HLIST;
}

/* module "krec" with the symbols krec_buffer (-> @rb) and krec_table (@nb buckets) */
static uint64_t fk_krec_module(struct fk_kernel *k, uint64_t rb, int nb)
{
	static const char strtab[] = "\0krec_buffer\0krec_table";
	uint64_t head = fk_alloc(k, 16), mod = fk_alloc(k, MOD_SIZE), ks = fk_alloc(k, MKS_SIZE);
	uint64_t tab = fk_alloc(k, 3 * 24), str = fk_alloc(k, 4096);
	uint64_t var = fk_alloc(k, 8), table = fk_alloc(k, 8 * nb);
	uint8_t sym[3][24] = { { 0 } };
	uint64_t v, sz;

	fk_sym(k, "modules", head);
	fk_w64(k, head + LH_NEXT, mod + MOD_LIST);
	fk_w64(k, mod + MOD_LIST + LH_NEXT, head);
	memcpy(fk_ptr(k, mod + MOD_NAME, 5), "krec", 5);
	fk_w64(k, mod + MOD_KALLSYMS, ks);
	fk_w64(k, ks + MKS_SYMTAB, tab);
	fk_w32(k, ks + MKS_NUM, 3);
	fk_w64(k, ks + MKS_STRTAB, str);
	memcpy(fk_ptr(k, str, sizeof(strtab)), strtab, sizeof(strtab));
	fk_w64(k, var, rb);
	sym[1][0] = 1; sym[1][6] = 1; v = var; sz = 8;
	memcpy(&sym[1][8], &v, 8); memcpy(&sym[1][16], &sz, 8);
	sym[2][0] = 13; sym[2][6] = 1; v = table; sz = 8ULL * nb;
	memcpy(&sym[2][8], &v, 8); memcpy(&sym[2][16], &sz, 8);
	memcpy(fk_ptr(k, tab, sizeof(sym)), sym, sizeof(sym));
	return table;
}

/* a krec record: header, @args, @str */
static void fk_krec_rec(struct fk_pb *pb, uint32_t delta, uint16_t id, const void *args,
			uint32_t alen, const char *str)
{
	uint8_t p[128] = { 0 };
	uint32_t n = 8 + alen, pid = 77;
	uint16_t own;

	memcpy(p, &id, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, args, alen);
	if (str) {
		memcpy(p + n, str, strlen(str) + 1);
		n += strlen(str) + 1;
	}
	own = (uint16_t)n;
	memcpy(p + 2, &own, 2);
	fk_raw(pb, delta, p, (n + 3) & ~3u);
}

/*
 * The whole path on a fake kernel: module krec found by its symbols, its
 * table walked (a bucket whose chain loops back on itself), its ring read
 * with the page walker, each record decoded or counted; --ring by the
 * module's symbol is the same buffer; --ring on a ring whose per-CPU
 * buffers do not point back is refused.
 */
static void test_session(void)
{
	static const uint16_t off8[] = { 8 };
	struct fk_buffer gb, kb;
	struct fk_ring *gr, *kr;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_session fs;
	struct kt_buffer *b;
	struct kt_loss loss;
	uint64_t table, e1, e2, e3;
	uint8_t args[8];
	struct fk_pb pb;
	char *text;

	gr = fk_ring_new(k, &gb, 0, 2);
	fk_ring_set(gr, 0, 1);
	fk_events_init(k);
	kb.rb = fk_alloc(k, RB_SIZE);
	kb.buffers = fk_alloc(k, 8);
	kb.nr_cpus = 1;
	fk_w64(k, kb.rb + RB_BUFFERS, kb.buffers);
	kr = fk_ring_new(k, &kb, 0, 2);
	fk_w64(k, kr->cpu_buffer + CB_BUFFER, kb.rb);
	fk_ring_set(kr, 0, 1);
	table = fk_krec_module(k, kb.rb, 4);
	e1 = fk_krec_entry(k, 1, "demo_xmit", "dev=%s len=%u", 16, 1, off8);
	e2 = fk_krec_entry(k, 2, "bad_size", "a=%d", 20, 0, NULL);
	e3 = fk_krec_entry(k, 3, "mark", "%s", 12, 1, off8);
	/* bucket 0: e1 -> e2 -> e1 (a loop); bucket 3: e3 */
	fk_w64(k, table, e1);
	fk_w64(k, e1, e2);
	fk_w64(k, e2, e1);
	fk_w64(k, table + 24, e3);

	pb = fk_page(kr, 0, 1000000000ULL);
	{
		uint32_t loc = 5u << 16 | 16, len = 1500;

		memcpy(args, &loc, 4);
		memcpy(args + 4, &len, 4);
		fk_krec_rec(&pb, 10, 1, args, 8, "eth0");		/* good */
		loc = 5u << 16 | 200;
		memcpy(args, &loc, 4);
		fk_krec_rec(&pb, 10, 1, args, 8, "eth0");		/* string past the record */
		fk_krec_rec(&pb, 10, 2, args, 4, NULL);		/* format/size mismatch */
		fk_krec_rec(&pb, 10, 9, args, 4, NULL);		/* no such id */
		loc = 5u << 16 | 12;
		memcpy(args, &loc, 4);
		fk_krec_rec(&pb, 10, 3, args, 4, "last");		/* the last mark */
	}
	pb = fk_page(kr, 1, 1000001000ULL);
	fk_commit(&pb);
	if (fk_open(k, &fs, false)) {
		fk_failed = 1;
		return;
	}
	b = kt_session__find_buffer(fs.s, "krec");
	CHECK(b && !strcmp(kt_buffer__kind(b), "krec"), "session: the krec ring is buffer 'krec'");
	if (!b)
		goto out;
	CHECK(strstr(fk_log(&fs), "loops") != NULL, "a looping table chain is said (%s)",
	      "krec_table[0] loops");
	CHECK(strstr(fk_log(&fs), "does not match") != NULL,
	      "an event whose format does not match its size is said");
	text = fk_text(fs.s, b, false);
	CHECK_STR(text,
		  "    1.000000 [000] demo_xmit: dev=eth0 len=1500\n"
		  "    1.000000 [000] demo_xmit: (bad record)\n"
		  "    1.000000 [000] bad_size: (bad record)\n"
		  "    1.000000 [000] <id 9>: (no such event)\n"
		  "    1.000000 [000] mark: last\n",
		  "records decoded as krec renders them, hostile ones marked");
	free(text);
	kt_buffer__loss(b, &loss);
	CHECK_U64(loss.records_bad, 2, "records_bad: the string past the record, the size mismatch");
	CHECK_U64(loss.events_unknown, 1, "events_unknown: id 9");
	CHECK(loss.list_anomalies >= 1, "list_anomalies counts the looping chain");
	{
		struct kt_losses l = { .sz = sizeof(l) };

		/* the account: the krec ring's counts in its own section */
		CHECK(!kt_session__losses(fs.s, NULL, &l) && l.krec.records_bad == 2 &&
		      l.krec.events_unknown == 1 && !l.ftrace.records_bad &&
		      !l.ftrace.events_unknown,
		      "losses: the krec ring's counts in .krec, not .ftrace");
		CHECK(!kt_session__losses(fs.s, "krec", &l) && l.krec.records_bad == 2 &&
		      !l.ftrace.records_bad, "losses: the krec buffer's alone, in .krec");
		kt_session__loss(fs.s, &loss);
		CHECK_U64(loss.records_bad, 2, "kt_session__loss(): .krec added in");
	}
	{
		struct kt_buffer *g = kt_session__find_buffer(fs.s, NULL);
		struct kt_loss_mark *m = kt_session__loss_mark(fs.s);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		/* a timeline of one buffer (-i krec), both of a clock it merges; no log read */
		strcpy(g->clock, "local");
		strcpy(b->clock, "local");
		kt_session__write_trailer(fs.s, m, b, KT_TRAILER_TIMELINE, f);
		fclose(f);
		CHECK(buf && !strncmp(buf, "# ktrace: krec: pages read: ", 28) &&
		      !strstr(buf, "# ktrace: global: ") && !strstr(buf, "# ktrace: log: "),
		      "timeline trailer of one buffer: its lines alone, no log line");
		free(buf);
		kt_loss_mark__free(m);
	}
	CHECK(kt_session__add_ring(fs.s, "krec_buffer") == b,
	      "--ring krec_buffer: the module's pointer names the krec buffer");
	CHECK(!kt_session__add_ring(fs.s, "global_trace") &&
	      strstr(kt_last_error(), "no ring buffer") != NULL,
	      "--ring on a ring whose per-CPU buffers do not point back: refused (%s)",
	      kt_last_error());
out:
	fk_close(&fs);
	fk_free(k);
	free(gr);
	free(kr);
}

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
	{
		struct kt_krec_event wide = { .id = 8, .name = "wide", .format = "%999999999d",
					      .size = 12 };

		CHECK(kt_krec__parse(&wide, &hdr) == -EBADMSG && wide.bad_format,
		      "a width of 9 digits: refused (it would print a gigabyte)");
		wide.format = "%-12.3s|%08x";
		wide.size = 16;
		wide.nr_str = 1;
		wide.str_off[0] = 8;
		CHECK(!kt_krec__parse(&wide, &hdr), "widths and precisions of 2 digits: taken");
	}

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

	/*
	 * krec_demo's demo_irq, as the module's scnprintf() prints it:
	 * number() puts "0x" before the zero padding ("%#06x" of 0 is
	 * "0x0000", glibc's "000000") and prints a digit whatever the
	 * precision ("%.0u" of 0 is "0", glibc's "")
	 */
	{
		struct kt_krec_event irq = { .id = 1, .name = "demo_irq",
					     .format = "irq=%d status=%#06x cpu=%u n=%.0u",
					     .size = 24 };

		CHECK(!kt_krec__parse(&irq, &hdr), "demo_irq: its format matches size 24");
		put32(args, (uint32_t)-1);
		put32(args + 4, 0);
		put32(args + 8, 1);
		put32(args + 12, 0);
		n = record(rec, 1, args, 16, NULL, 0);
		kt_krec__text(&irq, 1, &hdr, rec, n, out, sizeof(out), &loss);
		CHECK_STR(out, "demo_irq: irq=-1 status=0x0000 cpu=1 n=0",
			  "the kernel's rules: \"%#06x\" of 0 is 0x0000, \"%.0u\" of 0 is 0");
	}

	/*
	 * a big-endian kernel's record (s390x): the module memcpy()s every
	 * value, so id, size, pid, the arguments and a string's data
	 * location are in the kernel's order
	 */
	{
		static const struct kt_krec_hdr be = { .id_off = 0, .size_off = 2, .pid_off = 4,
						       .len = 8, .be = true };
		static const uint8_t rec_be[] = {
			0x00, 0x01, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x2a,	/* id 1, size 29, pid 42 */
			0x00, 0x05, 0x00, 0x18,				/* "eth0": 5 << 16 | 24 */
			0x00, 0x00, 0x05, 0xdc,				/* 1500 */
			0x00, 0x00, 0x00, 0x1c, 0xbe, 0x99, 0x1a, 0x14,	/* 123456789012 */
			'e', 't', 'h', '0', 0, 0, 0, 0,
		};
		struct kt_krec_event xmit = ev[0];
		uint32_t len;

		CHECK(!kt_krec__parse(&xmit, &be), "demo_xmit on a big-endian kernel: format matches");
		err = kt_krec__text(&xmit, 1, &be, rec_be, sizeof(rec_be), out, sizeof(out), &loss);
		CHECK_STR(out, "demo_xmit: dev=eth0 len=1500 seq=123456789012",
			  "a big-endian record: string, int and u64 in the kernel's order");
		CHECK(!err, "  decoded: 0");
		CHECK(kt_krec__record_event(&xmit, 1, &be, rec_be, sizeof(rec_be), &len) == &xmit &&
			      len == 29,
		      "its id 1 and its own size 29 read big-endian");
		err = kt_krec__text(&xmit, 1, &hdr, rec_be, sizeof(rec_be), out, sizeof(out), &loss);
		CHECK_STR(out, "<id 256>: (no such event)",
			  "the same bytes read little-endian: id 256, no such event");
	}

	test_session();
	return fk_failed;
}
