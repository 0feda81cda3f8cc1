// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libktrace's kernel log reader (lib/printk/) against a printk ring buffer
 * written into the fake kernel as the kernel writes it: decoding, the
 * text and JSON output, wrap-around of both rings (ids past 2^32 too),
 * broken descriptors skipped and counted, rings that cannot be read, the
 * panic record, the timeline's clock rule and its trailer, the log's part
 * of the loss account.
 */
#include "fake-check.h"
#include "fake-printk.h"
#include "internal.h"

static int open_fkp(struct fk_kernel *k, struct fk_session *fs)
{
	struct kt_open_opts o = { .sz = sizeof(o), .no_events = true };
	struct kt_target t;

	fk_target(k, &t);
	t.member = fkp_member;
	t.type_size = fkp_type_size;
	memset(fs, 0, sizeof(*fs));
	fs->logf = open_memstream(&fs->log, &fs->log_len);
	o.log = fs->logf;
	fs->s = kt_session__open(&t, &o);
	if (!fs->s)
		printf("# kt_session__open: %s\n", kt_last_error());
	return fs->s ? 0 : -1;
}

/* a kernel with one CPU's ring buffer and nothing logged yet */
static struct fk_kernel *kernel(struct fk_buffer *gb)
{
	struct fk_kernel *k = fk_new(1, gb);

	free(fk_ring_new(k, gb, 0, 2));	/* the view; memory stays in k */
	return k;
}

static char *log_text(struct kt_log *log, bool json)
{
	struct kt_log_opts o = { .sz = sizeof(o), .json = json };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kt_log__write(log, f, &o);
	fclose(f);
	return buf;
}

/* the timeline trailer's lines of test_decode()'s log and its buffer's 2 pages */
#define LOG_LINE								\
	"# ktrace: log: kernel log records: 5, overwritten before the crash: 0, dropped by " \
	"the kernel: 0, in flight (reserved, not committed): 0, corrupt (skipped): 0, "	\
	"unreadable: 0\n"
#define GLOBAL_LINES								\
	"# ktrace: global: pages read: 2, unreadable: 0, filtered from the dump: 0, "	\
	"corrupt (skipped): 0, zero-filled: 0, page-list anomalies: 0\n"		\
	"# ktrace: global: events overwritten by the kernel: 0, dropped by the kernel: 0, " \
	"pages flagged missed-events: 0, unknown event ids: 0, in-flight bytes (reserved, " \
	"not committed): 0\n"

static void test_decode(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = kernel(&gb);
	struct fkp *p = fkp_new(k, 4, 10);
	const struct kt_log_record *r;
	struct fk_session fs;
	struct kt_log *log;
	struct kt_loss l;
	char *got, caller[16];
	int n = 0;

	fkp_printk(p, 1000, 1, 5, "Linux version x");
	fkp_printk(p, 1234567891, 0x80000001, 4, "two\nlines");
	fkp_printk(p, 2000000000, 42, 6, "");
	fkp_printk(p, 3000000000ULL, 1, 0, "Kernel panic - not syncing: Fatal exception\nmore");
	fkp_printk(p, 3000000001ULL, 1, 7, "bin\x01\x7f\tend");
	if (open_fkp(k, &fs))
		goto out;
	log = kt_session__log(fs.s);
	CHECK(log != NULL, "decode: the log opens (%s)", log ? "ok" : kt_last_error());
	if (!log)
		goto close;
	got = log_text(log, false);
	CHECK_STR(got, "[    0.000001] Linux version x\n"
		       "[    1.234567] two\n"
		       "               lines\n"
		       "[    2.000000] \n"
		       "[    3.000000] Kernel panic - not syncing: Fatal exception\n"
		       "               more\n"
		       "[    3.000000] bin\\x01\\x7f\tend\n",
		  "decode: text as makedumpfile --dump-dmesg (multi-line, empty line, \\xNN)");
	free(got);
	kt_log__for_each_record(r, log) {
		CHECK_U64(r->seq, (uint64_t)n, "decode: seq of record");
		n++;
	}
	r = kt_log__record(log, 1);
	CHECK_STR(kt_log_record__caller(r, caller, sizeof(caller)), "C1", "decode: caller C1");
	CHECK(r->level == 4 && r->flags == KT_LOG_NEWLINE, "decode: level 4, LOG_NEWLINE");
	r = kt_log__record(log, 2);
	CHECK_STR(kt_log_record__caller(r, caller, sizeof(caller)), "T42", "decode: caller T42");
	CHECK_STR(kt_log__panic_message(log), "Fatal exception", "decode: the panic message");
	CHECK(kt_log__panic_record(log) == kt_log__record(log, 3), "decode: the panic record");
	CHECK_STR(kt_session__panic_message(fs.s), "Fatal exception",
		  "decode: the panic message as a session fact");
	kt_log__loss(log, &l);
	CHECK(l.log_records == 5 && !kt_loss__any(&l) && !l.log_overwritten,
	      "decode: 5 records, nothing lost");
	{
		struct kt_losses ls = { .sz = sizeof(ls) };

		CHECK(!kt_session__losses(fs.s, NULL, &ls) && ls.log.log_records == 5 &&
		      !ls.ftrace.log_records && !ls.krec.log_records,
		      "losses: the log's records in .log alone");
		kt_session__loss(fs.s, &l);
		CHECK_U64(l.log_records, 5, "kt_session__loss(): .log added in");
	}
	got = log_text(log, true);
	CHECK(got && !strncmp(got, "{\"log\":\"printk\",\"records\":5,", 28) &&
	      strstr(got, "\"panic\":\"Fatal exception\"") &&
	      strstr(got, "{\"seq\":1,\"ts\":1234567891,\"timestamp\":\"1.234567\",\"caller\":\"C1\","
			  "\"level\":4,\"facility\":0,\"flags\":2,\"text\":\"two\\nlines\"}"),
	      "decode: JSON Lines header and record");
	free(got);
	/* the fake buffer's clock is no clock ktrace knows: the log alone */
	{
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);

		kt_timeline__write(fs.s, f, NULL);
		fclose(f);
		CHECK(strstr(got, "# ktrace: timeline: buffer global not merged: clock unknown is "
				  "not comparable") &&
		      strstr(got, "[    1.234567] log [C1] two\n[    1.234567] log [C1] lines\n"),
		      "timeline: a buffer of an unknown clock left out and said; each line of "
		      "a record marked");
		free(got);
	}
	/* the timeline's trailer: the log's line, then each buffer merged */
	{
		struct kt_buffer *b = kt_session__find_buffer(fs.s, NULL);
		struct kt_loss_mark *m = kt_session__loss_mark(fs.s);
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);

		kt_session__write_trailer(fs.s, m, NULL, KT_TRAILER_TIMELINE, f);
		fclose(f);
		CHECK_STR(got, LOG_LINE,
			  "timeline trailer: the log's line; a buffer not merged has none");
		free(got);
		kt_loss_mark__free(m);
		/* a clock the timeline merges */
		strcpy(b->clock, "local");
		m = kt_session__loss_mark(fs.s);
		f = open_memstream(&got, &len);
		kt_timeline__write(fs.s, f, NULL);
		fclose(f);
		free(got);
		f = open_memstream(&got, &len);
		kt_session__write_trailer(fs.s, m, NULL, KT_TRAILER_TIMELINE, f);
		fclose(f);
		CHECK_STR(got, LOG_LINE GLOBAL_LINES,
			  "timeline trailer: the log's line, then the merged buffer's");
		free(got);
		kt_loss_mark__free(m);
	}
close:
	fk_close(&fs);
out:
	free(p);
	fk_free(k);
}

/* 8 descriptors, 256 bytes of text, 50 records: both rings wrap, ids pass 2^32 */
static void test_wrap(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = kernel(&gb);
	struct fkp *p = fkp_new(k, 3, 8);
	char texts[50][64], want[4096] = "", *got;
	uint64_t ids[50];
	struct fk_session fs;
	struct kt_log *log;
	struct kt_loss l;
	int i, j;

	for (i = 0; i < 50; i++) {
		snprintf(texts[i], sizeof(texts[i]), "record %d %.*s", i, (i * 7) % 23,
			 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		ids[i] = fkp_printk(p, 1000000ULL * (i + 1), 1, 6, texts[i]);
	}
	for (i = 0; i < p->nr_live; i++)
		for (j = 0; j < 50; j++)
			if (ids[j] == p->live[i])
				sprintf(want + strlen(want), "[    0.%06d] %s\n", 1000 * (j + 1),
					texts[j]);
	for (i = 0, j = 0; i < p->nr_live; i++) {
		uint64_t d = fkp_desc(p, p->live[i]);

		j += fkp_r64(p, d + PD_BEGIN) >> 8 != (fkp_r64(p, d + PD_NEXT) - 1) >> 8;
	}
	CHECK(j > 0, "wrap: %d of the live text blocks wrapped to the ring's start", j);
	CHECK(ids[49] > 0xffffffffULL, "wrap: ids went past 2^32 (0x%llx)",
	      (unsigned long long)ids[49]);
	if (open_fkp(k, &fs))
		goto out;
	log = kt_session__log(fs.s);
	got = log ? log_text(log, false) : NULL;
	CHECK_STR(got, want, "wrap: the records still in both rings, oldest first");
	free(got);
	if (log) {
		kt_log__loss(log, &l);
		CHECK(l.log_records == (uint64_t)p->nr_live && !kt_loss__any(&l),
		      "wrap: %d records, nothing corrupt", p->nr_live);
		CHECK_U64(l.log_overwritten, 50 - (uint64_t)p->nr_live,
			  "wrap: records overwritten = the first one's seq");
		CHECK_U64(kt_log__record(log, 0)->seq, 50 - (uint64_t)p->nr_live,
			  "wrap: seq of the oldest record");
	}
	CHECK(!strstr(fk_log(&fs), "warning"), "wrap: no warning");
	fk_close(&fs);
out:
	free(p);
	fk_free(k);
}

static void test_broken(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = kernel(&gb);
	struct fkp *p = fkp_new(k, 4, 10);
	struct fk_session fs;
	struct kt_log *log;
	struct kt_loss l;
	uint64_t id[10], tail;
	char text[32], *got;
	int i;

	for (i = 0; i < 10; i++) {
		snprintf(text, sizeof(text), "msg %d", i);
		id[i] = fkp_printk(p, 1000000000ULL + i, 1, 6, text);
	}
	tail = fkp_r64(p, p->prb + PRB_TEXT_RING + PDA_TAIL_LPOS);
	fk_w64(k, fkp_desc(p, id[1]) + PD_STATE, FKP_SV(id[1] ^ 0x40, FKP_FINALIZED));
	fk_w64(k, fkp_desc(p, id[2]) + PD_BEGIN, fkp_r64(p, fkp_desc(p, id[2]) + PD_BEGIN) + 4);
	*fk_ptr(k, fkp_info(p, id[3]) + PI_TEXT_LEN, 1) = 200;
	fk_w64(k, p->data + (fkp_r64(p, fkp_desc(p, id[4]) + PD_BEGIN) & (p->size - 1)), 77);
	fk_w64(k, fkp_info(p, id[5]) + PI_SEQ, fkp_r64(p, fkp_info(p, id[5]) + PI_SEQ) + 1);
	fk_w64(k, fkp_desc(p, id[6]) + PD_STATE, FKP_SV(id[6], FKP_RESERVED));
	fk_w64(k, fkp_desc(p, id[7]) + PD_BEGIN, 1);
	fk_w64(k, fkp_desc(p, id[7]) + PD_NEXT, 1);
	fk_w64(k, fkp_desc(p, id[8]) + PD_BEGIN, tail - 64);
	if (open_fkp(k, &fs))
		goto out;
	log = kt_session__log(fs.s);
	got = log ? log_text(log, false) : NULL;
	CHECK_STR(got, "[    1.000000] msg 0\n[    1.000000] msg 9\n",
		  "broken: the two sound records written, the others skipped");
	free(got);
	if (log) {
		kt_log__loss(log, &l);
		CHECK(l.log_corrupt == 6 && l.log_inflight == 1 && l.log_dropped == 1 &&
		      l.log_records == 2 && kt_loss__any(&l),
		      "broken: 6 corrupt, 1 in flight, 1 dropped by the kernel, 2 read");
	}
	CHECK(strstr(fk_log(&fs), "kernel log: descriptor 1 (id 0x") &&
	      strstr(fk_log(&fs), "holds another id: skipped"),
	      "broken: descriptor, id, address and cause named");
	CHECK(strstr(fk_log(&fs), "not aligned") && strstr(fk_log(&fs), "past its") &&
	      strstr(fk_log(&fs), "holds id 0x4d") && strstr(fk_log(&fs), "does not belong"),
	      "broken: lpos, text_len, block id and seq each named");
	CHECK(strstr(fk_log(&fs), "1 more corrupt descriptors skipped") != NULL,
	      "broken: warnings bounded, the rest summed up");
	fk_close(&fs);
out:
	free(p);
	fk_free(k);
}

/* tail_id far behind head_id: the walk stays within the ring */
static void test_bounded(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = kernel(&gb);
	struct fkp *p = fkp_new(k, 2, 10);
	struct fk_session fs;
	struct kt_log *log;
	int i;

	for (i = 0; i < 6; i++)
		fkp_printk(p, 1000 + i, 1, 6, "line");
	fk_w64(k, p->prb + PRB_DESC_RING + PDR_TAIL_ID,
	       fkp_r64(p, p->prb + PRB_DESC_RING + PDR_HEAD_ID) - 1000000);
	if (open_fkp(k, &fs))
		goto out;
	k->reads = 0;
	log = kt_session__log(fs.s);
	CHECK(log && kt_log__record_cnt(log) == 4 && strstr(fk_log(&fs), "more than the ring's 4"),
	      "bounded: tail_id 10^6 behind head: the last 4 read, and said (%llu target reads)",
	      (unsigned long long)k->reads);
	fk_close(&fs);
out:
	free(p);
	fk_free(k);
}

static void test_unreadable(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = kernel(&gb);
	struct fkp *p = fkp_new(k, 4, 10);
	struct fk_session fs;

	fkp_printk(p, 1000, 1, 6, "line");
	fk_fail(k, p->data, -EFAULT);
	if (open_fkp(k, &fs))
		goto out;
	CHECK(!kt_session__log(fs.s) &&
	      strstr(kt_last_error(), "cannot read prb->text_data_ring.data at 0x"),
	      "unreadable text ring: %s", kt_last_error());
	CHECK(!kt_session__log(fs.s) && errno == EFAULT, "unreadable: asked again, same answer");
	fk_close(&fs);
	fk_fail(k, p->data, 0);
	fk_w32(k, p->prb + PRB_DESC_RING + PDR_COUNT_BITS, 40);
	if (open_fkp(k, &fs))
		goto out;
	CHECK(!kt_session__log(fs.s) && strstr(kt_last_error(), "out of range"),
	      "count_bits 40: %s", kt_last_error());
	fk_close(&fs);
	/* no printk ring in the layout (before 5.10) */
	if (fk_open(k, &fs, true))
		goto out;
	CHECK(!kt_session__log(fs.s) && strstr(kt_last_error(), "no lockless printk ring"),
	      "no printk ring in the layout: %s", kt_last_error());
	fk_close(&fs);
out:
	free(p);
	fk_free(k);
}

static void test_clocks(void)
{
	static const char *const yes[] = { "perf", "global", "local" };
	static const char *const no[] = { "mono", "mono_raw", "boot", "tai", "counter",
					  "uptime", "x86-tsc", "unknown" };
	const char *why;
	size_t i;
	bool ok = true;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ok &= kt_clock__comparable(yes[i], &why) && why;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ok &= !kt_clock__comparable(no[i], &why) && why;
	CHECK(ok, "clocks: perf, global, local merged; mono, boot, tai, counter, uptime, "
		  "x86-tsc not");
}

int main(void)
{
	test_decode();
	test_wrap();
	test_broken();
	test_bounded();
	test_unreadable();
	test_clocks();
	return fk_failed;
}
