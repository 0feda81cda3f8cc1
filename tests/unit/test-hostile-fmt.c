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
	{ "char", "s", 16, 8, 1 },
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
	static const char *const fmts[] = { "hi", "\"q\"", "", "x" };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = kernel(&gb, &r);
	struct fk_session fs;
	struct fk_pb pb;
	struct kt_loss l;
	uint64_t sec = fk_alloc(k, 8 * 4), addr[4];
	char *text;
	int i;

	for (i = 0; i < 4; i++) {
		addr[i] = fk_str(k, fmts[i]);
		fk_w64(k, sec + 8 * i, addr[i]);
	}
	fk_sym(k, "__start___trace_bprintk_fmt", sec);
	fk_sym(k, "__stop___trace_bprintk_fmt", sec + 8 * 4);
	fk_event(k, 6, "ftrace", "bprint", bprint, 3,
		 "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	pb = fk_page(r, 0, 1000);
	for (i = 0; i < 4; i++) {
		uint8_t p[24] = { 6 };
		uint64_t ip = 0x1234;

		memcpy(p + 8, &ip, 8);
		memcpy(p + 16, &addr[i], 8);
		fk_raw(&pb, 10, p, sizeof(p));
	}
	if (fk_open(k, &fs, false))
		return;
	text = text_of(&fs, &l);
	CHECK(text && strstr(text, ": hi\n"), "printk short: a two-byte format printed");
	CHECK(text && strstr(text, ": \"q\"\n"), "printk short: a quoted format keeps its quotes");
	CHECK(text && strstr(text, ": x\n"), "printk short: a one-byte format printed");
	if (!text || !strstr(text, ": hi\n") || !strstr(text, ": \"q\"\n"))
		printf("# %s# %s", text ? text : "", fk_log(&fs));
	free(text);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

int main(void)
{
	(void)int_fields;
	test_field_offsets();
	test_printk_short();
	return fk_failed;
}
