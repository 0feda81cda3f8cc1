// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libktrace's event table and sinks against a fake kernel: formats rebuilt
 * from ftrace_events, lists that loop, ids the table does not know, and
 * dynamic (__data_loc) fields that point outside their record; the loss
 * account (kt_session__losses()) and the "# ktrace:" trailer written from it.
 */
#include "fake-check.h"
#include "internal.h"
#include "relay/relay.h"

static const struct fk_field str_fields[] = {
	{ "__data_loc char[]", "name", 8, 4, 0 },
};

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void put_loc_event(struct fk_pb *pb, uint16_t id, uint32_t loc, const char *str)
{
	uint8_t p[24] = { 0 };
	uint32_t pid = 7;

	memcpy(p, &id, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &loc, 4);
	strncpy((char *)p + 12, str, 11);
	fk_raw(pb, 10, p, sizeof(p));
}

static struct fk_kernel *kernel(struct fk_buffer *gb, struct fk_ring **r)
{
	struct fk_kernel *k = fk_new(1, gb);

	*r = fk_ring_new(k, gb, 0, 2);
	fk_ring_set(*r, 0, 1);
	fk_events_init(k);
	return k;
}

static void test_format(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	const struct kt_event *e;

	fk_seq_event(k, 5);
	fk_event(k, 6, "test", "nofmt", NULL, 0, NULL);
	if (fk_open(k, &fs, false))
		return;
	CHECK_U64(kt_session__event_cnt(fs.s), 2, "format: two events in the table");
	e = kt_session__find_event(fs.s, 5);
	CHECK_STR(e ? kt_event__format(e) : NULL,
		  "name: seq\nID: 5\nformat:\n"
		  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		  "\n"
		  "\tfield:unsigned int seq;\toffset:8;\tsize:4;\tsigned:0;\n"
		  "\n"
		  "print fmt: \"seq=%u\", REC->seq\n",
		  "format: rebuilt as tracefs shows it");
	e = kt_session__find_event(fs.s, 6);
	CHECK(e && strstr(kt_event__format(e), "print fmt: \"\"\n"),
	      "format: a NULL print_fmt reads as \"\"");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* ftrace_events: a -> b -> c -> b */
static void test_events_loop(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	uint64_t b;

	fk_seq_event(k, 1);
	b = fk_seq_event(k, 2);
	fk_seq_event(k, 3);
	fk_w64(k, k->last_call + EC_LIST + LH_NEXT, b + EC_LIST);
	k->reads = 0;
	if (fk_open(k, &fs, false))
		return;
	CHECK_U64(kt_session__event_cnt(fs.s), 3, "events loop: each event once");
	CHECK(strstr(fk_log(&fs), "ftrace_events") != NULL, "events loop: warned");
	CHECK(k->reads < 2000, "events loop: the walk stops at the loop (%llu reads)",
	      (unsigned long long)k->reads);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * An entry that cannot be read, links and all (a module's event where the
 * dump reader cannot translate module memory, ppc64 under libkdumpfile
 * 0.5.1): the events after it are read backwards from the list's tail,
 * each once, and the entry is counted unread.
 */
static void test_events_cut(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	uint64_t b;
	int i, ids = 0;

	fk_seq_event(k, 1);
	b = fk_seq_event(k, 2);
	fk_seq_event(k, 3);
	fk_seq_event(k, 4);
	fk_seq_event(k, 5);
	fk_fail(k, b, -EFAULT);
	if (fk_open(k, &fs, false))
		return;
	CHECK_U64(kt_session__event_cnt(fs.s), 4, "events cut: all but the unreadable one");
	for (i = 0; i < kt_session__event_cnt(fs.s); i++)
		ids = ids * 10 + kt_event__id(kt_session__event(fs.s, i));
	CHECK_U64(ids, 1345, "events cut: ids 1, 3, 4, 5");
	CHECK(strstr(fk_log(&fs), "3 entries read backwards") != NULL,
	      "events cut: said how the rest was read");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* a field list that loops: no format, a warning, no endless walk */
static void test_fields_loop(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	static const struct fk_field f[] = {
		{ "int", "a", 8, 4, 1 }, { "int", "b", 12, 4, 1 }, { "int", "c", 16, 4, 1 },
	};
	struct fk_session fs;
	uint64_t call, class, first, second;

	call = fk_event(k, 9, "test", "loopy", f, 3, "\"a=%d\", REC->a");
	memcpy(&class, fk_ptr(k, call + EC_CLASS, 8), 8);
	/* fields are walked by prev: make the second one point back to the first */
	memcpy(&first, fk_ptr(k, class + CL_FIELDS + LH_PREV, 8), 8);
	memcpy(&second, fk_ptr(k, first + LH_PREV, 8), 8);
	fk_w64(k, second + LH_PREV, first);
	if (fk_open(k, &fs, false))
		return;
	CHECK(kt_event__format(kt_session__find_event(fs.s, 9)) == NULL,
	      "fields loop: no format rather than a wrong one");
	CHECK(strstr(fk_log(&fs), "loopy") || strstr(fk_log(&fs), "field list"),
	      "fields loop: warning names the event");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* a record whose id is not in the table */
static void test_unknown_id(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	char *text, *json;

	fk_seq_event(k, 5);
	pb = fk_page(r, 0, 1000);
	fk_ev(&pb, 10, 5, 1);
	fk_ev(&pb, 10, 77, 2);
	fk_ev(&pb, 10, 5, 3);
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(text && strstr(text, "seq: seq=1\n") && strstr(text, "seq: seq=3\n"),
	      "unknown id: known events rendered");
	CHECK(text && strstr(text, "Unknown type 77\n"), "unknown id: text says so");
	kt_buffer__loss(kt_session__find_buffer(fs.s, NULL), &l);
	CHECK_U64(l.events_unknown, 1, "unknown id: counted");
	CHECK(kt_loss__any(&l), "unknown id: loss reported");
	json = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), true);
	CHECK(json && strstr(json, "\"system\":null,\"event\":null,\"id\":77"),
	      "unknown id: JSON event null with the id");
	if (text && !strstr(text, "Unknown type 77"))
		printf("# %s\n", text);
	free(text);
	free(json);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* kt_session__print_losses()'s lines, with the prefix "x: " */
static char *summary(struct kt_session *s, enum kt_loss_summary what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kt_session__print_losses(s, NULL, what, f, "x: ");
	fclose(f);
	return buf;
}

/*
 * kt_session__losses(), the sized entry point: an unknown id counted, read
 * by a caller built against this header, an older (shorter) one and a
 * newer (longer) one
 */
static void test_losses(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_losses l = { .sz = sizeof(l) };
	/* an older caller's: it knows the counters up to events_unknown */
	size_t old_sz = offsetof(struct kt_losses, ftrace) +
			offsetof(struct kt_loss, events_unknown) + sizeof(uint64_t);
	union {
		struct kt_losses l;
		unsigned char b[sizeof(struct kt_losses) + 16];
	} u;
	size_t i;
	bool tail_kept = true, tail_zero = true;
	char *text;

	fk_seq_event(k, 5);
	pb = fk_page(r, 0, 1000);
	fk_ev(&pb, 10, 5, 1);
	fk_ev(&pb, 10, 77, 2);
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(kt_session__losses(fs.s, NULL, &l) == 0, "losses: the session's read");
	CHECK_U64(l.ftrace.events_unknown, 1, "losses: the session's unknown id");
	CHECK(l.sz == sizeof(l), "losses: sz kept");
	CHECK(!l.krec.events_unknown && !l.log.events_unknown,
	      "losses: an ftrace buffer's count in .ftrace alone");
	memset(&l, 0xff, sizeof(l));
	l.sz = sizeof(l);
	CHECK(kt_session__losses(fs.s, "global", &l) == 0, "losses: the buffer's read");
	CHECK_U64(l.ftrace.events_unknown, 1, "losses: the buffer's unknown id");
	CHECK_U64(l.ftrace.log_records, 0, "losses: the buffer's counts alone");

	memset(u.b, 0xee, sizeof(u.b));
	u.l.sz = old_sz;
	CHECK(kt_session__losses(fs.s, NULL, &u.l) == 0, "losses: an older caller's read");
	CHECK_U64(u.l.ftrace.events_unknown, 1, "losses: an older caller gets what it knows");
	for (i = old_sz; i < sizeof(u.b); i++)
		tail_kept &= u.b[i] == 0xee;
	CHECK(tail_kept, "losses: nothing written past an older caller's sz");

	memset(u.b, 0xee, sizeof(u.b));
	u.l.sz = sizeof(u.b);
	CHECK(kt_session__losses(fs.s, NULL, &u.l) == 0, "losses: a newer caller's read");
	CHECK_U64(u.l.ftrace.events_unknown, 1, "losses: a newer caller's unknown id");
	for (i = sizeof(struct kt_losses); i < sizeof(u.b); i++)
		tail_zero &= !u.b[i];
	CHECK(tail_zero, "losses: the counters this library does not keep are zero");
	CHECK(u.l.sz == sizeof(u.b), "losses: a newer caller's sz kept");

	/* relay's section, once its channels were found: each channel's and the list walk's */
	{
		struct kt_relay_chan c = { 0 };
		struct kt_relay rl = { .chans = &c, .nr_chans = 1 };

		c.loss.bytes_unreadable = 7;
		rl.loss.list_anomalies = 1;
		l.sz = sizeof(l);
		/* a find that failed keeps its state (recorder.c): nothing of it counted */
		fs.s->rec[KT_REC_RELAY].state = &rl;
		fs.s->rec[KT_REC_RELAY].tried = true;
		fs.s->rec[KT_REC_RELAY].err = -ENOENT;
		CHECK(!kt_session__losses(fs.s, NULL, &l) && !kt_relay_loss__any(&l.relay),
		      "losses: nothing of a recorder whose find failed");
		fs.s->rec[KT_REC_RELAY].err = 0;
		CHECK(!kt_session__losses(fs.s, NULL, &l) && l.relay.bytes_unreadable == 7 &&
		      l.relay.list_anomalies == 1 && l.ftrace.events_unknown == 1,
		      "losses: relay's channels and list walk in .relay");
		memset(&fs.s->rec[KT_REC_RELAY], 0, sizeof(fs.s->rec[KT_REC_RELAY]));
	}

	/*
	 * the stderr summaries from the account: blktrace's of its channels
	 * alone, a raw copy's without what blktrace's decoding skipped, the
	 * trace's the session's whole count
	 */
	{
		struct kt_relay_chan c[2] = { { 0 } };
		struct kt_relay rl = { .chans = c, .nr_chans = 2 };
		char *blk, *raw;

		c[0].blk_trace = 0x1000;
		c[0].loss.bufs_damaged = 1;
		c[0].loss.bytes_skipped = 3;
		c[0].loss.records_cut = 1;
		c[1].loss.subbufs_overwritten = 5;
		rl.loss.list_anomalies = 1;
		fs.s->rec[KT_REC_RELAY].state = &rl;
		fs.s->rec[KT_REC_RELAY].tried = true;
		blk = summary(fs.s, KT_LOSSES_BLKTRACE);
		raw = summary(fs.s, KT_LOSSES_RELAY);
		CHECK(!strcmp(blk, "x: relay lost: buffers refused as damaged 1, bytes skipped (no "
				   "valid record) 3, records cut 1, channel list anomalies 1\n"),
		      "summary: blktrace's channels alone");
		CHECK(!strcmp(raw, "x: relay lost: sub-buffers overwritten unread 5, buffers refused "
				   "as damaged 1, channel list anomalies 1\n"),
		      "summary: a raw copy's, what blktrace skipped not lost");
		if (strstr(blk, "overwritten") || strstr(raw, "skipped"))
			printf("# blktrace: %s# raw: %s", blk, raw);
		CHECK(kt_session__print_losses(fs.s, NULL, KT_LOSSES_BLKTRACE, NULL, NULL) == 1,
		      "summary: lost, with nothing printed");
		c[0].loss = (struct kt_relay_loss){ 0 };
		rl.loss.list_anomalies = 0;
		CHECK(kt_session__print_losses(fs.s, NULL, KT_LOSSES_BLKTRACE, NULL, NULL) == 0,
		      "summary: another channel's loss is not blktrace's");
		free(blk);
		free(raw);
		memset(&fs.s->rec[KT_REC_RELAY], 0, sizeof(fs.s->rec[KT_REC_RELAY]));
		CHECK(kt_session__print_losses(fs.s, NULL, KT_LOSSES_TRACE, NULL, NULL) == 1,
		      "summary: the trace's unknown id is a loss");
		CHECK(kt_session__print_losses(fs.s, NULL, (enum kt_loss_summary)99, NULL, NULL) ==
			      -EINVAL, "summary: an unknown one refused");
	}

	l.sz = 0;
	CHECK(kt_session__losses(fs.s, NULL, &l) == -EINVAL, "losses: sz 0 refused");
	l.sz = sizeof(l);
	CHECK(kt_session__losses(fs.s, "nosuch", &l) == -ENOENT, "losses: no such buffer");
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* test_trailer()'s read: the ring's 3 pages (its reader page too), its unknown id */
#define TRAILER_UNKNOWN_1							\
	"# ktrace: pages read: 3, unreadable: 0, filtered from the dump: 0, corrupt "	\
	"(skipped): 0, zero-filled: 0, page-list anomalies: 0\n"			\
	"# ktrace: events overwritten by the kernel: 0, dropped by the kernel: 0, pages " \
	"flagged missed-events: 0, unknown event ids: 1, in-flight bytes (reserved, not " \
	"committed): 0\n"

/* what kt_session__write_trailer() writes, its return in *@ret */
static char *trailer(struct kt_session *s, const struct kt_loss_mark *m, const struct kt_buffer *b,
		     unsigned int flags, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = kt_session__write_trailer(s, m, b, flags, f);
	fclose(f);
	return buf;
}

/*
 * The trailer of a buffer's text: its read's loss lines, the same for a
 * second read (the counts add up, the trailer is the read's), the
 * session's unnamed addresses since the mark as the buffer's; refused
 * without a mark, with an unknown flag, without a buffer
 */
static void test_trailer(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss_mark *m;
	struct kt_buffer *b;
	struct kt_loss l;
	char *text, *first, *again;
	int ret;

	fk_seq_event(k, 5);
	pb = fk_page(r, 0, 1000);
	fk_ev(&pb, 10, 5, 1);
	fk_ev(&pb, 10, 77, 2);
	if (fk_open(k, &fs, false))
		return;
	b = kt_session__find_buffer(fs.s, NULL);
	m = kt_session__loss_mark(fs.s);
	text = fk_text(fs.s, b, false);
	first = trailer(fs.s, m, b, 0, &ret);
	kt_loss_mark__free(m);
	CHECK(ret == 0, "trailer: a buffer's written");
	CHECK_STR(first, TRAILER_UNKNOWN_1, "trailer: the read's loss lines after '# ktrace: '");
	free(text);

	m = kt_session__loss_mark(fs.s);
	text = fk_text(fs.s, b, false);
	again = trailer(fs.s, m, b, 0, &ret);
	kt_loss_mark__free(m);
	kt_buffer__loss(b, &l);
	CHECK_U64(l.events_unknown, 2, "trailer: a second read adds to the buffer's count");
	CHECK_STR(again, first, "trailer: a second read's trailer is the first's");
	free(again);
	free(text);

	/* 5 addresses unnamed before the mark, 3 by the read after it */
	fs.s->addrs_unnamed = 5;
	m = kt_session__loss_mark(fs.s);
	fs.s->addrs_unnamed += 3;
	again = trailer(fs.s, m, b, 0, &ret);
	CHECK(again && strstr(again, "# ktrace: code addresses printed as numbers where the kernel "
				     "printed a symbol (no kallsyms could name them): 3\n"),
	      "trailer: the session's unnamed addresses since the mark are the read's");
	free(again);

	free(trailer(fs.s, NULL, b, 0, &ret));
	CHECK(ret == -EINVAL, "trailer: no mark refused");
	free(trailer(fs.s, m, b, 2, &ret));
	CHECK(ret == -EINVAL, "trailer: an unknown flag refused");
	free(trailer(fs.s, m, NULL, 0, &ret));
	CHECK(ret == -EINVAL, "trailer: a buffer's text without the buffer refused");
	kt_loss_mark__free(m);
	free(first);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* __data_loc pointing past the record (into the next one) and past the page */
static void test_data_loc(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	char *text, *json;

	fk_event(k, 3, "test", "str", str_fields, 1, "\"name=%s\", __get_str(name)");
	pb = fk_page(r, 0, 1000);
	put_loc_event(&pb, 3, 4u << 16 | 12, "ok");
	/* the next record's string is at 24 + 4 + 12 = 40 from this one's data */
	put_loc_event(&pb, 3, 7u << 16 | 40, "bad");
	put_loc_event(&pb, 3, 7u << 16 | 12, "SECRET");
	put_loc_event(&pb, 3, 16u << 16 | 0xfff0, "far");
	put_loc_event(&pb, 3, 0xffffu << 16 | 20, "long");
	if (fk_open(k, &fs, false))
		return;
	json = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), true);
	CHECK(json && strstr(json, "\"fields\":{\"name\":\"ok\"}"), "data_loc: JSON string inside");
	/* its own record: once in "fields", once in "text" */
	CHECK(count(json, "SECRET") == 2, "data_loc: JSON shows SECRET only for its own record (%d)",
	      count(json, "SECRET"));
	CHECK(count(json, "\"name\":null") == 3,
	      "data_loc: JSON null for the 3 that point outside (%d)", count(json, "\"name\":null"));
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(count(text, "SECRET") == 1, "data_loc: text shows SECRET once, for its own record (%d)",
	      count(text, "SECRET"));
	if (count(text, "SECRET") != 1)
		printf("# %s", text);
	CHECK(text && strstr(text, "str: name=ok\n"), "data_loc: text of the good one");
	free(text);
	free(json);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* fields libtraceevent would follow out of the record: a bitmask, a fixed field */
static void test_outside_fields(void)
{
	static const struct fk_field mask[] = { { "__data_loc cpumask_t", "cpumask", 8, 4, 0 } };
	static const struct fk_field wide[] = { { "unsigned long", "far", 200, 8, 0 } };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	char *text;

	fk_event(k, 3, "ipi", "mask", mask, 1, "\"cpumask=%s\", __get_cpumask(cpumask)");
	fk_event(k, 4, "test", "wide", wide, 1, "\"far=%lu\", REC->far");
	pb = fk_page(r, 0, 1000);
	put_loc_event(&pb, 3, 8u << 16 | 12, "\x03");
	put_loc_event(&pb, 3, 0x2322u << 16 | 0x2120, "");
	put_loc_event(&pb, 4, 0, "");
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(count(text, "mask: [corrupt record: field cpumask lies outside its 24 bytes]") == 1,
	      "outside fields: a __data_loc bitmask past the record is named, not followed");
	CHECK(count(text, "wide: [corrupt record: field far lies outside its 24 bytes]") == 1,
	      "outside fields: a fixed field past the record is named, not read");
	CHECK(count(text, "mask: cpumask=") == 1, "outside fields: the good bitmask rendered");
	/*
	 * as the kernel prints a cpumask (trace_print_bitmask_seq(): "%*pb",
	 * lib/vsprintf.c bitmap_string(): 32-bit groups, the first zero-padded
	 * to its bits: 8 bytes, two groups), not libtraceevent's list "0-1"
	 */
	CHECK(count(text, "mask: cpumask=00000000,00000003\n") == 1,
	      "cpumask printed as the kernel's hex (%%*pb), not as a list");
	if (count(text, "corrupt record") != 2 || !count(text, "cpumask=00000000,00000003"))
		printf("# %s", text);
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * A field table whose fields overlap (a damaged offset: "b" moved into
 * "a"): the event's records are not printed from the wrong bytes; the
 * event is named with the two fields, its records counted as unknown, and
 * an intact event beside it is printed.
 */
static void test_overlapping_fields(void)
{
	static const struct fk_field f[] = {
		{ "unsigned int", "a", 8, 4, 0 },
		{ "unsigned int", "b", 10, 4, 0 },
	};
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	char *text;

	fk_seq_event(k, 5);
	fk_event(k, 7, "test", "two", f, 2, "\"a=%u b=%u\", REC->a, REC->b");
	pb = fk_page(r, 0, 1000);
	put_loc_event(&pb, 7, 1, "");
	fk_ev(&pb, 10, 5, 42);
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(!count(text, "a=") && !count(text, "b="),
	      "overlapping fields: no record printed from them");
	CHECK(count(text, "seq=42") == 1, "overlapping fields: the intact event beside printed");
	kt_session__loss(fs.s, &l);
	CHECK(l.events_unknown == 1, "overlapping fields: the record counted (%llu)",
	      (unsigned long long)l.events_unknown);
	CHECK(fs.log && strstr(fs.log, "fields a (offset 8, size 4) and b (offset 10) overlap"),
	      "overlapping fields: said, naming both");
	if (count(text, "seq=42") != 1 || count(text, "a="))
		printf("# %s# log: %s", text, fs.log ? fs.log : "");
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* print fmt using a field the (damaged) field list lacks */
static void test_missing_field(void)
{
	static const struct fk_field f[] = { { "int", "a", 8, 4, 1 } };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	char *text;

	fk_event(k, 5, "test", "sym", f, 1,
		 "\"a=%d kind=%s\", REC->a, __print_symbolic(REC->kind, { 0, \"A\" })");
	fk_event(k, 6, "test", "paren", f, 1,
		 "\"x %s\", (REC->a == 1) ? \"M\" :longC->a == 2) ? \"C\" : \"N\"");
	pb = fk_page(r, 0, 1000);
	fk_ev(&pb, 10, 5, 1);
	fk_ev(&pb, 10, 6, 2);
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	CHECK(text && strstr(text, "Unknown type 5"), "missing field: record shown as unknown");
	CHECK(text && strstr(text, "Unknown type 6"), "unbalanced print fmt: record shown as unknown");
	CHECK(strstr(fk_log(&fs), "REC->kind") != NULL, "missing field: warning names the field");
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* trace_bprintk_fmt_list: a -> b -> a */
static void test_printk_loop(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	uint64_t head = fk_list_head(k), a = fk_alloc(k, 24), b = fk_alloc(k, 24), addr;
	const char *fmt;
	int n = 0;

	fk_sym(k, "trace_bprintk_fmt_list", head);
	fk_w64(k, a + 16, fk_str(k, "a=%d\n"));
	fk_w64(k, b + 16, fk_str(k, "b=%d\n"));
	fk_list_add(k, a, head);
	fk_list_add(k, b, a);
	fk_w64(k, b + LH_NEXT, a);
	if (fk_open(k, &fs, false))
		return;
	while (kt_session__printk_fmt(fs.s, n, &addr, &fmt) > 0)
		n++;
	CHECK(n == 2, "printk formats loop: each format once (%d)", n);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * Symbols of a loaded module: an address inside a sized symbol of its
 * ELF symtab is named, one past it is not; the module list loops and the
 * walk still ends.
 */
static void test_module_symbols(void)
{
	static const char strtab[] = "\0foo\0bar";
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	uint64_t head, mod, ks, tab, str, start = 0;
	const char *name;
	uint8_t sym[3][24] = { { 0 } };

	head = fk_alloc(k, 16);
	mod = fk_alloc(k, MOD_SIZE);
	ks = fk_alloc(k, MKS_SIZE);
	tab = fk_alloc(k, sizeof(sym));
	str = fk_alloc(k, 4096);	/* strings are read a page at a time */
	fk_sym(k, "modules", head);
	fk_w64(k, head + LH_NEXT, mod + MOD_LIST);
	fk_w64(k, mod + MOD_LIST + LH_NEXT, mod + MOD_LIST);	/* loops on itself */
	fk_w64(k, mod + MOD_KALLSYMS, ks);
	fk_w64(k, ks + MKS_SYMTAB, tab);
	fk_w32(k, ks + MKS_NUM, 3);
	fk_w64(k, ks + MKS_STRTAB, str);
	/* sym[0]: undefined; foo at c0001000 (0x40 bytes), bar at c0001040 (0x20) */
	sym[1][0] = 1; sym[1][6] = 1;
	sym[2][0] = 5; sym[2][6] = 1;
	{
		uint64_t v1 = 0xffffffffc0001000ULL, s1 = 0x40;
		uint64_t v2 = 0xffffffffc0001040ULL, s2 = 0x20;

		memcpy(&sym[1][8], &v1, 8); memcpy(&sym[1][16], &s1, 8);
		memcpy(&sym[2][8], &v2, 8); memcpy(&sym[2][16], &s2, 8);
	}
	memcpy(fk_ptr(k, tab, sizeof(sym)), sym, sizeof(sym));
	memcpy(fk_ptr(k, str, sizeof(strtab)), strtab, sizeof(strtab));
	if (fk_open(k, &fs, false))
		return;
	name = kt_session__symbol(fs.s, 0xffffffffc0001010ULL, &start);
	CHECK(name && !strcmp(name, "foo") && start == 0xffffffffc0001000ULL,
	      "module symbols: an address inside foo is foo (got %s)", name ? name : "NULL");
	name = kt_session__symbol(fs.s, 0xffffffffc000105fULL, NULL);
	CHECK(name && !strcmp(name, "bar"), "module symbols: the last byte of bar is bar");
	CHECK(kt_session__symbol(fs.s, 0xffffffffc0001060ULL, NULL) == NULL,
	      "module symbols: past bar's size nothing is named");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * No module loaded (an empty modules list): nothing named, and no
 * qsort() of a NULL array (undefined even with no elements; UBSan's
 * nonnull-attribute check in the sanitizer build)
 */
static void test_module_symbols_none(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;

	fk_sym(k, "modules", fk_list_head(k));
	if (fk_open(k, &fs, false))
		return;
	CHECK(kt_session__symbol(fs.s, 0xffffffffc0001010ULL, NULL) == NULL,
	      "no modules: a module address is not named");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* the LTTng types' sizes (lttng/find.c asks them), the fake kernel's others */
static int lttng_type_size(void *priv, const char *type, uint64_t *size)
{
	if (!strcmp(type, "struct commit_counters_hot") ||
	    !strcmp(type, "struct lttng_kernel_ring_buffer_backend_page") ||
	    !strcmp(type, "struct lttng_kernel_ring_buffer_backend_subbuffer")) {
		*size = 16;
		return 0;
	}
	return fk_type_size(priv, type, size);
}

/*
 * LTTng's walk of --list (kt_session__print_lttng()) adds what it counted
 * to the account as a write does: lttng_tracer's sessions list broken at
 * its first node is a list anomaly in .lttng, and in the summary of what
 * was counted since a mark taken before the list, not after it
 */
static void test_lttng_list_losses(void)
{
	static const char strtab[] = "\0sessions";
	static const char *const types[][2] = {
		{ "struct lttng_kernel_session_private", "list" },
		{ "struct lttng_kernel_session_private", "chan" },
		{ "struct lttng_kernel_session_private", "name" },
		{ "struct lttng_kernel_session_private", "metadata_cache" },
		{ "struct lttng_metadata_cache", "data" },
		{ "struct lttng_metadata_cache", "metadata_written" },
		{ "struct lttng_kernel_channel_buffer_private", "node" },
		{ "struct lttng_kernel_channel_buffer_private", "id" },
		{ "struct lttng_kernel_channel_buffer_private", "channel_type" },
		{ "struct lttng_kernel_channel_buffer_private", "rb_chan" },
		{ "struct lttng_kernel_ring_buffer_channel", "commit_count_mask" },
		{ "struct lttng_kernel_ring_buffer_channel", "backend.buf" },
		{ "struct lttng_kernel_ring_buffer_channel", "backend.subbuf_size" },
		{ "struct lttng_kernel_ring_buffer_channel", "backend.num_subbuf" },
		{ "struct lttng_kernel_ring_buffer_channel", "backend.config.alloc" },
		{ "struct lttng_kernel_ring_buffer_channel", "backend.config.mode" },
		{ "struct lttng_kernel_ring_buffer", "offset" },
		{ "struct lttng_kernel_ring_buffer", "consumed" },
		{ "struct lttng_kernel_ring_buffer", "commit_hot" },
		{ "struct lttng_kernel_ring_buffer", "last_tsc" },
		{ "struct lttng_kernel_ring_buffer", "backend.buf_wsb" },
		{ "struct lttng_kernel_ring_buffer", "backend.array" },
		{ "struct lttng_kernel_ring_buffer", "backend.num_pages_per_subbuf" },
		{ "struct lttng_kernel_ring_buffer", "records_lost_full" },
		{ "struct lttng_kernel_ring_buffer", "records_lost_wrap" },
		{ "struct lttng_kernel_ring_buffer", "records_lost_big" },
		{ "struct commit_counters_hot", "cc" },
		{ "struct lttng_kernel_ring_buffer_backend_pages", "p" },
		{ "struct lttng_kernel_ring_buffer_backend_page", "virt" },
	};
	struct fk_member mem[sizeof(types) / sizeof(types[0])];
	struct kt_losses l = { .sz = sizeof(l) };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct kt_loss_mark *before, *after;
	uint64_t head, mod, ks, tab, str, sessions, v = 0, sz = 16;
	uint8_t sym[2][24] = { { 0 } };
	char *text = NULL;
	size_t i, len = 0;
	FILE *f;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		mem[i] = (struct fk_member){ types[i][0], types[i][1], 8 * (uint32_t)i, 8 };
	k->more_members = mem;
	k->nr_more_members = (int)(sizeof(mem) / sizeof(mem[0]));
	head = fk_alloc(k, 16);
	mod = fk_alloc(k, MOD_SIZE);
	ks = fk_alloc(k, MKS_SIZE);
	tab = fk_alloc(k, sizeof(sym));
	str = fk_alloc(k, 4096);
	sessions = fk_alloc(k, 16);	/* its next pointer NULL: the list broken */
	fk_sym(k, "modules", head);
	fk_w64(k, head + LH_NEXT, mod + MOD_LIST);
	fk_w64(k, mod + MOD_LIST + LH_NEXT, head);
	memcpy(fk_ptr(k, mod + MOD_NAME, sizeof("lttng_tracer")), "lttng_tracer",
	       sizeof("lttng_tracer"));
	fk_w64(k, mod + MOD_KALLSYMS, ks);
	fk_w64(k, ks + MKS_SYMTAB, tab);
	fk_w32(k, ks + MKS_NUM, 2);
	fk_w64(k, ks + MKS_STRTAB, str);
	sym[1][0] = 1; sym[1][6] = 1;	/* "sessions", defined */
	v = sessions;
	memcpy(&sym[1][8], &v, 8);
	memcpy(&sym[1][16], &sz, 8);
	memcpy(fk_ptr(k, tab, sizeof(sym)), sym, sizeof(sym));
	memcpy(fk_ptr(k, str, sizeof(strtab)), strtab, sizeof(strtab));
	if (fk_open(k, &fs, false))
		return;
	fs.s->t.type_size = lttng_type_size;
	before = kt_session__loss_mark(fs.s);
	f = open_memstream(&text, &len);
	kt_session__print_lttng(fs.s, f);
	fclose(f);
	after = kt_session__loss_mark(fs.s);
	CHECK(!kt_session__losses(fs.s, NULL, &l) && l.lttng.list_anomalies == 1,
	      "lttng --list: the broken sessions list in the account (%llu)",
	      (unsigned long long)l.lttng.list_anomalies);
	CHECK(kt_session__print_losses(fs.s, before, KT_LOSSES_LTTNG, NULL, NULL) == 1,
	      "lttng summary: the list's anomaly, counted since a mark before it");
	CHECK(kt_session__print_losses(fs.s, after, KT_LOSSES_LTTNG, NULL, NULL) == 0,
	      "lttng summary: nothing since a mark after it");
	kt_loss_mark__free(before);
	kt_loss_mark__free(after);
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

int main(void)
{
	test_format();
	test_events_loop();
	test_events_cut();
	test_fields_loop();
	test_unknown_id();
	test_losses();
	test_trailer();
	test_data_loc();
	test_printk_loop();
	test_outside_fields();
	test_overlapping_fields();
	test_missing_field();
	test_module_symbols();
	test_lttng_list_losses();
	test_module_symbols_none();
	return fk_failed;
}
