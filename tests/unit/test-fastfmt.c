// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compiled print formats (lib/ftrace/fastfmt.c) on the records of a
 * little-endian and of a big-endian kernel (s390x): one event whose format
 * takes every kind of read a program makes (numbers of 2, 4 and 8 bytes, an
 * array element, a __print_symbolic() value, a __data_loc and a __rel_loc
 * word, a char array), a record of it laid out in each byte order, printed
 * by the program and by libtraceevent (tep_print_event()) on a handle of
 * that file endianness: both print the line the kernel would.
 */
#include <event-parse.h>
#include "fake-check.h"
#include "ftrace/render.h"

static const char event_fmt[] =
	"name: ff\n"
	"ID: 42\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:short c;\toffset:12;\tsize:2;\tsigned:1;\n"
	"\tfield:u16 arr[3];\toffset:14;\tsize:6;\tsigned:0;\n"
	"\tfield:long b;\toffset:24;\tsize:8;\tsigned:1;\n"
	"\tfield:int state;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[8];\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rname;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%u c=%d arr1=%#x b=%ld state=%s name=%s comm=%s rname=%s\", "
	"REC->a, REC->c, REC->arr[1], REC->b, "
	"__print_symbolic(REC->state, { 0, \"RUNNING\" }, { 258, \"BLOCKED\" }), "
	"__get_str(name), REC->comm, __get_rel_str(rname)\n";

/* what the kernel prints; a record read in the wrong byte order prints otherwise */
static const char want[] = "a=16909060 c=258 arr1=0xabcd b=-2 state=BLOCKED name=x.y "
			   "comm=sh rname=zz";

static void put_word(bool be, uint8_t *p, uint64_t v, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* the record, its fields in the byte order of a big-endian kernel if @be */
static uint32_t put_record(bool be, uint8_t *d)
{
	memset(d, 0, 64);
	put_word(be, d, 42, 2);
	put_word(be, d + 4, 1, 4);
	put_word(be, d + 8, 0x01020304, 4);
	put_word(be, d + 12, 0x0102, 2);
	put_word(be, d + 16, 0xabcd, 2);	/* arr[1] */
	put_word(be, d + 24, (uint64_t)-2, 8);
	put_word(be, d + 32, 258, 4);		/* BLOCKED; 0x02010000 the other way */
	put_word(be, d + 36, 4u << 16 | 52, 4);	/* name: 4 bytes at 52 */
	memcpy(d + 40, "sh", 3);
	put_word(be, d + 48, 3u << 16 | 4, 4);	/* rname: 3 bytes, 4 after its word */
	memcpy(d + 52, "x.y", 4);
	memcpy(d + 56, "zz", 3);
	return 60;
}

static void check_order(bool be)
{
	const char *how = be ? "big-endian" : "little-endian";
	struct tep_handle *tep = tep_alloc();
	struct tep_record rec = { 0 };
	struct trace_seq fast, slow;
	struct kt_fastfmt *f = NULL;
	struct tep_event *ev;
	uint8_t d[64];

	if (!tep) {
		CHECK(0, "%s: tep_alloc()", how);
		return;
	}
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									 : TEP_LITTLE_ENDIAN);
	trace_seq_init(&fast);
	trace_seq_init(&slow);
	if (tep_parse_event(tep, event_fmt, sizeof(event_fmt) - 1, "test")) {
		CHECK(0, "%s: libtraceevent parses the format", how);
		goto out;
	}
	ev = tep_find_event(tep, 42);
	f = ev ? kt_fastfmt__compile(ev) : NULL;
	CHECK(f, "%s: the format is compiled", how);
	rec.size = (int)put_record(be, d);
	rec.data = d;
	if (f) {
		CHECK(!kt_fastfmt__print(NULL, f, &fast, d, (uint32_t)rec.size),
		      "%s: the program prints the record", how);
		trace_seq_terminate(&fast);
		CHECK_STR(fast.buffer, want,
			  be ? "big-endian: the program reads the kernel's order"
			     : "little-endian: the program reads the kernel's order");
	}
	tep_print_event(tep, &slow, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&slow);
	CHECK_STR(slow.buffer, want, be ? "big-endian: libtraceevent prints the same"
					: "little-endian: libtraceevent prints the same");
out:
	kt_fastfmt__free(f);
	trace_seq_destroy(&fast);
	trace_seq_destroy(&slow);
	tep_free(tep);
}

int main(void)
{
	check_order(false);
	check_order(true);
	return fk_failed;
}
