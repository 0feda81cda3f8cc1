// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event table of a hostile dump (issue 27): print formats and field
 * tables that used to kill the process inside libtraceevent or make it
 * print without end. Each is refused or bounded, said on the log and
 * counted, and never a signal.
 */
#include "fake-check.h"

static const struct fk_field int_fields[] = {
	{ "int", "a", 8, 4, 1 },
	{ "int", "b", 12, 4, 1 },
	{ "char[8]", "s", 16, 8, 1 },
};

static struct fk_kernel *kernel(struct fk_buffer *gb, struct fk_ring **r)
{
	struct fk_kernel *k = fk_new(1, gb);

	*r = fk_ring_new(k, gb, 0, 2);
	fk_ring_set(*r, 0, 1);
	fk_events_init(k);
	return k;
}

/* a record of event @id: a = @a, b = @b, s = "abcdefg" */
static void put_ab(struct fk_pb *pb, uint16_t id, int32_t a, int32_t b)
{
	uint8_t p[24] = { 0 };

	memcpy(p, &id, 2);
	memcpy(p + 8, &a, 4);
	memcpy(p + 12, &b, 4);
	memcpy(p + 16, "abcdefg", 8);
	fk_raw(pb, 10, p, sizeof(p));
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

/* the text of the global buffer, and its loss */
static char *text_of(struct fk_session *fs, struct kt_loss *l)
{
	struct kt_buffer *b = kt_session__find_buffer(fs->s, NULL);
	char *text = fk_text(fs->s, b, false);

	kt_buffer__loss(b, l);
	return text;
}

/*
 * A negative field offset, one that overflows with its size, and one past
 * any record: the event has no format (its records are counted unknown),
 * the field is named; output.c's own readers never see it. The print
 * event's buf is the one output.c reads by hand.
 */
static void test_field_offsets(void)
{
	static const struct fk_field neg[] = { { "int", "a", 0xfffffff8u, 8, 1 } };
	static const struct fk_field wrap[] = { { "int", "a", 8, 0x7fffffffu, 1 } };
	static const struct fk_field far[] = { { "int", "a", 0x200000u, 4, 1 } };
	static const struct fk_field print[] = {
		{ "unsigned long", "ip", 8, 8, 0 }, { "char[]", "buf", 0xfffffff0u, 0, 1 },
	};
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	char *text, *json;

	fk_event(k, 5, "test", "neg", neg, 1, "\"a=%d\", REC->a");
	fk_event(k, 6, "test", "wrap", wrap, 1, "\"a=%d\", REC->a");
	fk_event(k, 7, "test", "far", far, 1, "\"a=%d\", REC->a");
	fk_event(k, 8, "ftrace", "print", print, 2, "\"%ps: %s\", (void *)REC->ip, REC->buf");
	pb = fk_page(r, 0, 1000);
	put_ab(&pb, 5, 1, 2);
	put_ab(&pb, 6, 1, 2);
	put_ab(&pb, 7, 1, 2);
	put_ab(&pb, 8, 1, 2);
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(count(text, "Unknown type") == 4, "field offsets: the 4 records not printed (%d)",
	      count(text, "Unknown type"));
	CHECK_U64(l.events_unknown, 4, "field offsets: counted");
	CHECK(strstr(fk_log(&fs), "test:neg: field a has offset -8") != NULL,
	      "field offsets: a negative offset is named");
	CHECK(strstr(fk_log(&fs), "test:wrap: field a") && strstr(fk_log(&fs), "test:far: field a") &&
	      strstr(fk_log(&fs), "ftrace:print: field buf has offset -16"),
	      "field offsets: an overflowing, a far and the print event's buf are named");
	json = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), true);
	CHECK(json && count(json, "\"id\":") == 4, "field offsets: JSON has the 4 records");
	if (count(text, "Unknown type") != 4 || !strstr(fk_log(&fs), "ftrace:print"))
		printf("# %s# %s", text ? text : "", fk_log(&fs));
	free(text);
	free(json);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * trace_printk() formats shorter than three bytes ("hi", "%s", "" are in
 * Debian's 6.1), and formats that begin or end with a quote: registered
 * in libtraceevent as they are (ASan: its strip read before the copy).
 */
static void test_printk_short(void)
{
	static const struct fk_field bprint[] = {
		{ "unsigned long", "ip", 8, 8, 0 },
		{ "const char *", "fmt", 16, 8, 0 },
		{ "u32[]", "buf", 24, 0, 0 },
	};
	static const struct fk_field ptr[] = { { "const char *", "s", 16, 8, 0 } };
	/* the last: a format its record's arguments do not match */
	static const char *const fmts[] = { "hi", "\"q\"", "", "x", "%s %s %s", "[%99999999d]" };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	uint64_t sec = fk_alloc(k, 8 * 6), addr[6];
	char *text;
	int i;

	for (i = 0; i < 6; i++) {
		addr[i] = fk_str(k, fmts[i]);
		fk_w64(k, sec + 8 * i, addr[i]);
	}
	fk_sym(k, "__start___trace_bprintk_fmt", sec);
	fk_sym(k, "__stop___trace_bprintk_fmt", sec + 8 * 6);
	fk_event(k, 6, "ftrace", "bprint", bprint, 3,
		 "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	/* a "%s" of a pointer looks the formats up before any bprint is printed */
	fk_event(k, 7, "test", "ptr", ptr, 1, "\"%s\", REC->s");
	pb = fk_page(r, 0, 1000);
	{
		uint8_t p[24] = { 7 };

		memcpy(p + 16, &addr[0], 8);
		fk_raw(&pb, 10, p, sizeof(p));
	}
	for (i = 0; i < 5; i++) {
		uint8_t p[24] = { 6 };
		uint64_t ip = 0x1234;

		memcpy(p + 8, &ip, 8);
		memcpy(p + 16, &addr[(i + 4) % 5], 8);	/* the mismatched one first */
		fk_raw(&pb, 10, p, sizeof(p));
	}
	{
		/* a width no trace_seq holds, of an int argument */
		uint8_t p[28] = { 6 };
		uint32_t five = 5;

		memcpy(p + 16, &addr[5], 8);
		memcpy(p + 24, &five, 4);
		fk_raw(&pb, 10, p, sizeof(p));
	}
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(text && strstr(text, ": hi\n"), "printk short: a two-byte format printed");
	CHECK(text && strstr(text, ": \"q\"\n"), "printk short: a quoted format keeps its quotes");
	CHECK(text && strstr(text, ": x\n"), "printk short: a one-byte format printed");
	CHECK(count(text, "[not rendered: a trace_printk() format its arguments do not match]") == 1,
	      "printk short: a format its arguments do not match: that record counted");
	CHECK(count(text, "[not rendered: longer than the kernel's trace_seq]") == 1 &&
	      strlen(text) < 20000, "printk short: a huge width, capped and counted");
	CHECK_U64(l.events_unrendered, 2, "printk short: counted");
	CHECK(text && strstr(text, "ptr: hi\n"),
	      "printk short: a pointer's string looked up before the first bprint");
	if (!text || !strstr(text, ": hi\n") || !strstr(text, ": \"q\"\n"))
		printf("# %s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * trace_printk() widths and precisions taken from the record ('*'):
 * libtraceevent would give glibc 2^31 - 1 and render gigabytes a record
 * (the run never ended). Printed here as bstr_printf() clamps them, and a
 * line the kernel's trace_seq cannot hold is counted, never written out.
 */
static void test_printk_star(void)
{
	static const struct fk_field bprint[] = {
		{ "unsigned long", "ip", 8, 8, 0 },
		{ "const char *", "fmt", 16, 8, 0 },
		{ "u32[]", "buf", 24, 0, 0 },
	};
	static const int32_t widths[][2] = {
		{ 6, 2 }, { 2147483647, 1 }, { -4, 3 }, { 3, 2147483647 }, { 1, -5 },
	};
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	uint64_t sec = fk_alloc(k, 8), fmt = fk_str(k, "[%*d|%*d]");
	char *text;
	size_t i;

	fk_w64(k, sec, fmt);
	fk_sym(k, "__start___trace_bprintk_fmt", sec);
	fk_sym(k, "__stop___trace_bprintk_fmt", sec + 8);
	fk_event(k, 6, "ftrace", "bprint", bprint, 3,
		 "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	pb = fk_page(r, 0, 1000);
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		/* width, 5, width, 7: four u32 arguments */
		uint8_t p[40] = { 6 };
		uint32_t args[4] = { (uint32_t)widths[i][0], 5, (uint32_t)widths[i][1], 7 };

		memcpy(p + 16, &fmt, 8);
		memcpy(p + 24, args, sizeof(args));
		fk_raw(&pb, 10, p, sizeof(p));
	}
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	/* the kernel's vsnprintf(): a negative '*' width is the '-' flag */
	CHECK(text && strstr(text, ": [     5| 7]\n"), "printk '*': widths 6 and 2");
	CHECK(text && strstr(text, ": [5   |  7]\n"), "printk '*': width -4 is left-aligned");
	CHECK(text && strstr(text, ": [5|7    ]\n"), "printk '*': width -5 too");
	CHECK(count(text, "[not rendered: longer than the kernel's trace_seq]") == 2,
	      "printk '*': 2^31 - 1 as either width: counted, not printed");
	CHECK(text && strlen(text) < 20000, "printk '*': nothing huge written (%zu bytes)",
	      text ? strlen(text) : 0);
	CHECK_U64(l.events_unrendered, 2, "printk '*': counted");
	if (!text || !strstr(text, ": [     5| 7]\n"))
		printf("# %.2000s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * ftrace_common_fields' entries not in the dump (makedumpfile -d 31 left
 * their page out of a 6.18 dump): the common fields are taken from struct
 * trace_entry, and the events print as the kernel printed them (they were
 * "[UNKNOWN EVENT]", uncounted)
 */
static void test_common_fields_lost(void)
{
	static const struct fk_field ab[] = {
		{ "int", "a", 8, 4, 1 },
		{ "int", "b", 12, 4, 1 },
	};
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	uint64_t first;
	char *text;

	fk_event(k, 5, "test", "ab", ab, 2, "\"a=%d b=%d\", REC->a, REC->b");
	memcpy(&first, fk_ptr(k, k->common_head, 8), 8);
	fk_fail(k, first, -ENODATA);
	pb = fk_page(r, 0, 1000);
	put_ab(&pb, 5, 7, -3);
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(text && strstr(text, "ab: a=7 b=-3\n"), "common fields lost: the event printed");
	CHECK(text && !strstr(text, "UNKNOWN"), "common fields lost: no [UNKNOWN EVENT]");
	CHECK(strstr(fk_log(&fs), "common fields taken from struct trace_entry") != NULL,
	      "common fields lost: said: %s", fk_log(&fs));
	if (!text || !strstr(text, "ab: a=7 b=-3\n"))
		printf("# %.1500s", text ? text : "");
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* the text of the global buffer written with @jobs worker threads */
static char *text_jobs(struct fk_session *fs, int jobs)
{
	struct kt_text_opts o = { .sz = sizeof(o), .jobs = jobs };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kt_text__write(fs->s, kt_session__find_buffer(fs->s, NULL), f, &o);
	fclose(f);
	return buf;
}

/*
 * Division and modulo by a constant 0, by a field holding 0, and the
 * kernel's own guarded division (devfreq_monitor): no SIGFPE; the records
 * that divide by zero are marked and counted, the others printed.
 */
static void test_division(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	char *text;

	fk_event(k, 5, "test", "div0", int_fields, 3, "\"q=%d\", REC->a / 0");
	fk_event(k, 6, "test", "mod", int_fields, 3, "\"q=%d r=%d\", REC->a / REC->b, REC->a % (REC->b)");
	fk_event(k, 7, "test", "guarded", int_fields, 3,
		 "\"load=%d\", REC->b == 0 ? 0 : (100 * REC->a) / REC->b");
	fk_event(k, 8, "test", "konst", int_fields, 3,
		 "\"us=%d\", REC->a / 1000 + REC->b % ((unsigned int)(8)) + (1 / 1)");
	fk_event(k, 9, "test", "castdiv", int_fields, 3,
		 "\"x=%d\", REC->a / (int)REC->b - 1");
	pb = fk_page(r, 0, 1000);
	put_ab(&pb, 5, 10, 0);
	put_ab(&pb, 6, 7, 2);
	put_ab(&pb, 6, 7, 0);
	put_ab(&pb, 7, 3, 0);
	put_ab(&pb, 7, 3, 4);
	put_ab(&pb, 8, 4000, 10);
	put_ab(&pb, 9, 10, 5);
	put_ab(&pb, 9, 10, 0);
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(count(text, "div0: [not rendered: a division by zero]") == 1,
	      "division: a constant 0 divisor marks the record");
	CHECK(text && strstr(text, "mod: q=3 r=1\n"), "division: by a field that is not 0");
	CHECK(count(text, "mod: [not rendered: a division by zero]") == 1,
	      "division: by a field that is 0, and modulo");
	/*
	 * libtraceevent 1.7 and 1.8 parse "c ? x : y / z" as "(c ? x : y) / z":
	 * devfreq_monitor's format divides by zero there where the kernel
	 * did not; counted, not printed wrong
	 */
	CHECK(text && strstr(text, "guarded: load=75\n") &&
	      count(text, "guarded: [not rendered: a division by zero]") == 1,
	      "division: libtraceevent's parse of a guarded division, counted");
	CHECK(text && strstr(text, "konst: us=7\n"), "division: by constants as before");
	CHECK(text && strstr(text, "castdiv: x=1\n") &&
	      count(text, "castdiv: [not rendered: a division by zero]") == 1,
	      "division: a cast divisor is the operand, '- 1' is not");
	CHECK_U64(l.events_unrendered, 4, "division: the four counted");
	CHECK(strstr(fk_log(&fs), "test:div0 (id 5): a record's text is a division by zero") != NULL,
	      "division: said on the log");
	if (count(text, "not rendered") != 4 || !strstr(text, "konst: us=7"))
		printf("# %s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * Widths and precisions: static ones capped at the kernel's trace_seq,
 * a '*' from a record clamped, each line bounded; a format whose widths
 * alone fill the trace_seq is refused.
 */
static void test_widths(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	char *text;

	fk_event(k, 5, "test", "wide", int_fields, 3, "\"a=%999999999d\", REC->a");
	fk_event(k, 6, "test", "prec", int_fields, 3, "\"a=%.999999999d\", REC->a");
	fk_event(k, 7, "test", "star", int_fields, 3, "\"[%*d] [%.*s]\", REC->a, REC->b, REC->b, REC->s");
	fk_event(k, 8, "test", "fine", int_fields, 3,
		 "\"[%5d] [%.3s] [%-*d] [%.999999999s]\", REC->a, REC->s, REC->b, REC->a, REC->s");
	fk_event(k, 9, "test", "sum", int_fields, 3, "\"%3000d %3000d\", REC->a, REC->b");
	fk_event(k, 10, "test", "long", int_fields, 3, "\"%2040d %2040d %s\", REC->a, REC->b, REC->s");
	pb = fk_page(r, 0, 1000);
	put_ab(&pb, 5, 1, 2);
	put_ab(&pb, 6, 1, 2);
	put_ab(&pb, 7, 999999999, 2);
	put_ab(&pb, 7, 3, 2);
	put_ab(&pb, 8, 42, 4);
	put_ab(&pb, 9, 1, 2);
	put_ab(&pb, 10, 1, 2);
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(text && strlen(text) < 20000, "widths: the text stays small (%zu bytes)",
	      text ? strlen(text) : 0);
	CHECK(count(text, "Unknown type 5") == 1 && count(text, "Unknown type 6") == 1 &&
	      count(text, "Unknown type 9") == 1,
	      "widths: a width, a number's precision, widths whose sum fill the trace_seq: refused");
	CHECK(strstr(fk_log(&fs), "test:sum (id 9): print fmt refused: its widths alone fill") != NULL,
	      "widths: said on the log");
	CHECK(count(text, "star: [not rendered: longer than the kernel's trace_seq]") == 1,
	      "widths: a '*' width from a record, clamped and bounded");
	CHECK(text && strstr(text, "star: [  2] [ab]\n"), "widths: a '*' of a sane record printed");
	CHECK(text && strstr(text, "fine: [   42] [abc] [42  ] [abcdefg]\n"),
	      "widths: ordinary widths, and a string's huge precision, as the kernel prints them");
	CHECK(count(text, "long: [not rendered: longer than the kernel's trace_seq]") == 1,
	      "widths: a line longer than the trace_seq");
	CHECK_U64(l.events_unrendered, 2, "widths: the lines not rendered counted");
	CHECK_U64(l.events_unknown, 3, "widths: the refused formats' records counted");
	if (!text || !strstr(text, "fine: [   42] [abc]") || !strstr(text, "star: [  2] [ab]"))
		printf("# %.3000s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* __print_hex(), __print_hex_str(), __print_array(): lengths past the record */
static void test_helpers(void)
{
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	bool old_tep;
	char *text;

	fk_event(k, 5, "test", "arr", int_fields, 3, "\"%s\", __print_array(REC->s, 100000000, 8)");
	fk_event(k, 6, "test", "hex", int_fields, 3, "\"%s\", __print_hex(REC->s, 1000000)");
	fk_event(k, 7, "test", "hexstr", int_fields, 3, "\"%s\", __print_hex_str(REC->s, -1)");
	fk_event(k, 8, "test", "hexlen", int_fields, 3, "\"%s\", __print_hex(REC->s, REC->a)");
	fk_event(k, 9, "test", "ok", int_fields, 3,
		 "\"%s %s\", __print_hex(REC->s, 4), __print_array(REC->s, 2, 4)");
	pb = fk_page(r, 0, 1000);
	put_ab(&pb, 5, 1, 2);
	put_ab(&pb, 6, 1, 2);
	put_ab(&pb, 7, 1, 2);
	put_ab(&pb, 8, 8, 2);
	put_ab(&pb, 8, 9, 2);
	put_ab(&pb, 9, 1, 2);
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(count(text, "arr: [not rendered: a __print_array() length past its record]") == 1,
	      "helpers: __print_array() of 100000000 8-byte elements");
	CHECK(count(text, "hex: [not rendered: a __print_hex() length past its record]") == 1,
	      "helpers: __print_hex() of a million bytes");
	CHECK(count(text, "hexstr: [not rendered: a __print_hex() length past its record]") == 1,
	      "helpers: __print_hex_str() of -1 bytes");
	CHECK(text && strstr(text, "hexlen: 61 62 63 64 65 66 67 00\n") &&
	      count(text, "hexlen: [not rendered") == 1,
	      "helpers: a length from the record: 8 fits, 9 does not");
	/*
	 * the kernel's trace_print_array_seq() form (libtraceevent 1.8+);
	 * 1.7 printed "1684234849 6776421": then not rendered, and counted
	 */
	old_tep = text && strstr(text, "ok: [not rendered: __print_array(), which this "
				       "libtraceevent (before 1.8) prints otherwise than the kernel]\n");
	CHECK(text && (strstr(text, "ok: 61 62 63 64 {0x64636261,0x676665}\n") || old_tep),
	      "helpers: lengths inside the record printed as the kernel does, or counted");
	CHECK(!text || !strstr(text, "1684234849"), "helpers: never libtraceevent 1.7's array form");
	CHECK_U64(l.events_unrendered, old_tep ? 5 : 4, "helpers: counted");
	if (!text || !strstr(text, "ok: ") || count(text, "not rendered") != (old_tep ? 5 : 4))
		printf("# %s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * Formats nested deeper than a worker's stack holds: refused before
 * libtraceevent's parser recurses, the same with and without workers.
 */
static void test_nesting(void)
{
	static const char *const unit[] = { "(", "(int)", "!", "- " };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	char *fmt[4], *t1, *t2, *p;
	int i, j;

	/* 12000 levels: past a worker's stack, within KT_MAX_PRINT_FMT */
	for (i = 0; i < 4; i++) {
		p = fmt[i] = malloc(12000 * 6 + 64);
		p += sprintf(p, "\"a=%%d\", ");
		for (j = 0; j < 12000; j++)
			p += sprintf(p, "%s", unit[i]);
		p += sprintf(p, "REC->a");
		for (j = 0; i == 0 && j < 12000; j++)
			*p++ = ')';
		*p = 0;
		fk_event(k, 5 + i, "test", "deep", int_fields, 3, fmt[i]);
	}
	/* longer than KT_MAX_PRINT_FMT: no format, not an empty one */
	p = fmt[0];
	fmt[0] = malloc(70000);
	memset(fmt[0], 'x', 70000);
	memcpy(fmt[0], "\"a=%d\", REC->a + ", 17);
	fmt[0][69999] = 0;
	fk_event(k, 10, "test", "long", int_fields, 3, fmt[0]);
	free(fmt[0]);
	fmt[0] = p;
	/* a kernel-like nesting: mm's gfp flags */
	fk_event(k, 9, "test", "gfp", int_fields, 3,
		 "\"f=%s\", __print_flags(REC->a, \"|\", {(unsigned long)(((( gfp_t)(0x400u|0x800u)) | "
		 "(( gfp_t)0x40u) | (( gfp_t)0x80u)) | (( gfp_t)0x02u)), \"GFP_X\"}, "
		 "{(unsigned long)(( gfp_t)0x01u), \"ONE\"})");
	pb = fk_page(r, 0, 1000);
	for (i = 0; i < 6; i++)
		put_ab(&pb, (uint16_t)(5 + i), 1, 2);
	if (fk_open(k, &fs, false))
		return;
	t1 = text_jobs(&fs, 1);
	fk_close(&fs);
	fk_open(k, &fs, false);
	t2 = text_jobs(&fs, 2);
	CHECK(t1 && t2 && !strcmp(t1, t2), "nesting: the same text with and without workers");
	CHECK(count(t2, "Unknown type") == 5, "nesting: the four deep formats refused (%d)",
	      count(t2, "Unknown type"));
	CHECK(strstr(fk_log(&fs), "test:long (id 10): print fmt at") &&
	      strstr(fk_log(&fs), "longer than 65536 bytes"),
	      "nesting: a print fmt longer than any the kernel makes: said, counted");
	CHECK(strstr(fk_log(&fs), "nest deeper than") != NULL, "nesting: said on the log");
	CHECK(t2 && strstr(t2, "gfp: f=ONE\n"), "nesting: the kernel's gfp flags format printed");
	if (!t2 || !strstr(t2, "gfp: f=ONE") || count(t2, "Unknown type") != 5)
		printf("# %s# %s", t2 ? t2 : "", fk_log(&fs));
	free(t1);
	free(t2);
	for (i = 0; i < 4; i++)
		free(fmt[i]);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

int main(void)
{
	test_field_offsets();
	test_printk_short();
	test_printk_star();
	test_common_fields_lost();
	test_division();
	test_widths();
	test_helpers();
	test_nesting();
	return fk_failed;
}
