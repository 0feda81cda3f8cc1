// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lib/kprintf.c against a table of the kernel's own outputs: every flag,
 * width, precision and length modifier of lib/vsprintf.c. Each expected
 * string is worked out by hand from the kernel's source (format_decode(),
 * number(), string(), widen_string(), the %c case of vsnprintf()), with
 * the rule that decides it beside it; none comes from glibc or from
 * running our code. Where glibc prints otherwise, the comment says what
 * glibc prints.
 */
#include <stdio.h>
#include <string.h>
#include "fake-check.h"
#include "internal.h"
#include "kprintf.h"

#define NOSTR ((const char *)1)	/* the row is a number or %c */

struct row {
	const char *fmt;
	uint64_t v;
	const char *s;
	const char *want;
	int long_size;		/* sizeof(long) of the kernel */
};

static const struct row rows[] = {
	/* number(): "if (i > precision) precision = i": a digit always */
	{ "%d", 0, NOSTR, "0", 8 },
	{ "%.0d", 0, NOSTR, "0", 8 },		/* glibc: "" */
	{ "%.0u", 0, NOSTR, "0", 8 },		/* glibc: "" */
	{ "%.0x", 0, NOSTR, "0", 8 },		/* glibc: "" */
	{ "%.0o", 0, NOSTR, "0", 8 },		/* glibc: "" */
	/* format_decode(): '.' without digits or '*' leaves precision -1 */
	{ "%.d", 0, NOSTR, "0", 8 },		/* glibc: "" */
	{ "%5.0d", 0, NOSTR, "    0", 8 },	/* glibc: "     " */
	/* SPECIAL, base 16: field_width -= 2, then "0x" whatever the value */
	{ "%#x", 0, NOSTR, "0x0", 8 },		/* glibc: "0" */
	{ "%#X", 0, NOSTR, "0X0", 8 },		/* ('X' | locase): glibc "0" */
	{ "%#x", 255, NOSTR, "0xff", 8 },
	{ "%#X", 0xab, NOSTR, "0XAB", 8 },
	{ "%#.0x", 0, NOSTR, "0x0", 8 },		/* glibc: "" */
	{ "%#.4x", 1, NOSTR, "0x0001", 8 },
	/* the prefix goes before the ZEROPAD padding */
	{ "%#06x", 0, NOSTR, "0x0000", 8 },	/* glibc: "000000" */
	{ "%#06x", 0x1f, NOSTR, "0x001f", 8 },
	{ "%#010x", 0x1f, NOSTR, "0x0000001f", 8 },
	{ "%#8x", 0, NOSTR, "     0x0", 8 },	/* glibc: "       0" */
	{ "%#-8x", 0, NOSTR, "0x0     ", 8 },	/* LEFT: trailing spaces */
	/* SPECIAL, base 8: "0" only when the value is not 0 (is_zero) */
	{ "%#o", 0, NOSTR, "0", 8 },
	{ "%#o", 8, NOSTR, "010", 8 },
	{ "%#o", 1, NOSTR, "01", 8 },
	{ "%#5o", 0, NOSTR, "    0", 8 },	/* is_zero: the width is not cut */
	{ "%#06o", 0, NOSTR, "000000", 8 },
	{ "%#06o", 8, NOSTR, "000010", 8 },
	/* the "0" prefix and then the precision's zeros: glibc "010" */
	{ "%#.3o", 8, NOSTR, "0010", 8 },
	/* SPECIAL with base 10 does nothing (need_pfx needs base != 10) */
	{ "%#d", 5, NOSTR, "5", 8 },
	{ "%#u", 0, NOSTR, "0", 8 },
	/* ZEROPAD is kept with a precision: padding, then precision zeros */
	{ "%08.3d", 5, NOSTR, "00000005", 8 },	/* glibc: "     005" */
	{ "%08.3d", (uint32_t)-5, NOSTR, "-0000005", 8 },	/* glibc: "    -005" */
	{ "%06.2x", 0xa, NOSTR, "00000a", 8 },	/* glibc: "    0a" */
	/* LEFT clears ZEROPAD */
	{ "%-05d", 42, NOSTR, "42   ", 8 },
	{ "%-5d", 42, NOSTR, "42   ", 8 },
	{ "%5d", (uint32_t)-42, NOSTR, "  -42", 8 },
	{ "%05d", (uint32_t)-42, NOSTR, "-0042", 8 },
	/* SIGN (d, i only): '-', else PLUS '+', else SPACE ' ' */
	{ "%+d", 5, NOSTR, "+5", 8 },
	{ "%+d", 0, NOSTR, "+0", 8 },
	{ "% d", 5, NOSTR, " 5", 8 },
	{ "%+ d", 5, NOSTR, "+5", 8 },
	{ "% +i", 5, NOSTR, "+5", 8 },
	{ "% 05d", 7, NOSTR, " 0007", 8 },
	{ "%+.3d", 7, NOSTR, "+007", 8 },
	{ "%+u", 5, NOSTR, "5", 8 },		/* no SIGN for u, x, o */
	{ "% x", 5, NOSTR, "5", 8 },
	{ "%+5x", 0xff, NOSTR, "   ff", 8 },
	/* a width smaller than the number */
	{ "%2d", 100, NOSTR, "100", 8 },
	/* the casts of the qualifiers: none is int */
	{ "%d", 0x80000000u, NOSTR, "-2147483648", 8 },
	{ "%d", 0x1ffffffffull, NOSTR, "-1", 8 },
	{ "%u", 0xffffffffu, NOSTR, "4294967295", 8 },
	{ "%x", 0x1ffffffffull, NOSTR, "ffffffff", 8 },
	{ "%i", 0xfffffffeu, NOSTR, "-2", 8 },
	/* 'h' short, "hh" char (FORMAT_TYPE_(U)SHORT, (U)BYTE) */
	{ "%hd", 0xffff, NOSTR, "-1", 8 },
	{ "%hu", 0x10001, NOSTR, "1", 8 },
	{ "%hx", 0x12345, NOSTR, "2345", 8 },
	{ "%hhd", 0xff, NOSTR, "-1", 8 },
	{ "%hhu", 0x1ff, NOSTR, "255", 8 },
	{ "%hhx", 0x1234, NOSTR, "34", 8 },
	{ "%#hhx", 0x100, NOSTR, "0x0", 8 },
	/* 'l' long, "ll" and 'L' long long, 'z' size_t, 't' ptrdiff_t */
	{ "%ld", ~0ull, NOSTR, "-1", 8 },
	{ "%lu", ~0ull, NOSTR, "18446744073709551615", 8 },
	{ "%lx", ~0ull, NOSTR, "ffffffffffffffff", 8 },
	{ "%lld", 0x8000000000000000ull, NOSTR, "-9223372036854775808", 8 },
	{ "%llu", 0x8000000000000000ull, NOSTR, "9223372036854775808", 8 },
	{ "%llx", ~0ull, NOSTR, "ffffffffffffffff", 8 },
	{ "%Lx", ~0ull, NOSTR, "ffffffffffffffff", 8 },
	{ "%#llo", 8, NOSTR, "010", 8 },
	{ "%zd", ~0ull, NOSTR, "-1", 8 },
	{ "%zu", ~0ull, NOSTR, "18446744073709551615", 8 },
	{ "%td", ~0ull, NOSTR, "-1", 8 },
	{ "%tx", ~0ull, NOSTR, "ffffffffffffffff", 8 },
	/* a 32-bit kernel: long, size_t and ptrdiff_t are 4 bytes */
	{ "%lx", ~0ull, NOSTR, "ffffffff", 4 },
	{ "%ld", 0xffffffffull, NOSTR, "-1", 4 },
	{ "%zu", ~0ull, NOSTR, "4294967295", 4 },
	{ "%llx", ~0ull, NOSTR, "ffffffffffffffff", 4 },
	/* the precision is 16 bits: 65537 is 1, 40000 negative, hence 0 */
	{ "%.65537d", 7, NOSTR, "7", 8 },
	{ "%.65538d", 7, NOSTR, "07", 8 },
	{ "%.40000d", 7, NOSTR, "7", 8 },
	/* %c: (unsigned char), spaces only, '0' ignored */
	{ "%c", 'A', NOSTR, "A", 8 },
	{ "%c", 0x141, NOSTR, "A", 8 },
	{ "%3c", 'A', NOSTR, "  A", 8 },
	{ "%-3c", 'A', NOSTR, "A  ", 8 },
	{ "%03c", 'A', NOSTR, "  A", 8 },	/* glibc pads with zeros */
	{ "%lc", 'x', NOSTR, "x", 8 },		/* a qualifier before c is dropped */
	/* %s: string_nocheck() stops at the precision, widen_string() pads */
	{ "%s", 0, "abc", "abc", 8 },
	{ "%5s", 0, "abc", "  abc", 8 },
	{ "%-5s", 0, "abc", "abc  ", 8 },
	{ "%05s", 0, "abc", "  abc", 8 },	/* glibc: "00abc" */
	{ "%2s", 0, "abc", "abc", 8 },
	{ "%.2s", 0, "abc", "ab", 8 },
	{ "%.0s", 0, "abc", "", 8 },
	{ "%.s", 0, "abc", "abc", 8 },		/* precision -1: glibc prints "" */
	{ "%5.1s", 0, "abc", "    a", 8 },
	/* check_pointer(): NULL is "(null)", bounded by error_string() */
	{ "%s", 0, NULL, "(null)", 8 },
	{ "%.3s", 0, NULL, "(nu", 8 },
	{ "%8s", 0, NULL, "  (null)", 8 },
	{ "%-8s", 0, NULL, "(null)  ", 8 },
};

/* format_decode(): what is not one of d i u o x X c s */
static const char *const invalid[] = {
	"%n", "%jd", "%Zd", "%qd", "%f", "%p", "%%", "%", "%lp", "%hn", "%LLd",
};

static void test_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct kt_kspec sp;
		char got[128], what[32];
		int len = kt_kprintf__parse(r->fmt, &sp, r->long_size);
		size_t n;

		if (len != (int)strlen(r->fmt)) {
			CHECK(0, "%s: parsed (%d of %zu)", r->fmt, len, strlen(r->fmt));
			continue;
		}
		n = kt_kprintf(got, sizeof(got) - 1, &sp, r->v, r->s == NOSTR ? NULL : r->s);
		got[n < sizeof(got) ? n : sizeof(got) - 1] = 0;
		if (r->s == NOSTR)
			snprintf(what, sizeof(what), "0x%llx", (unsigned long long)r->v);
		else
			snprintf(what, sizeof(what), "%s", r->s ? r->s : "NULL");
		CHECK(!strcmp(got, r->want), "\"%s\"%s of %s is \"%s\"", r->fmt,
		      r->long_size == 4 ? " (32-bit)" : "", what, r->want);
		if (strcmp(got, r->want))
			printf("#   got \"%s\"\n", got);
	}
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		struct kt_kspec sp;

		CHECK(!kt_kprintf__parse(invalid[i], &sp, 8), "\"%s\" is not a conversion here",
		      invalid[i]);
	}
}

/* '*' arguments: set_field_width(), set_precision() and format_decode() */
static void test_star(void)
{
	struct kt_kspec sp;
	char got[64];
	size_t n;

	CHECK(kt_kprintf__parse("%*d", &sp, 8) == 3 && sp.width_arg, "\"%%*d\": the width is an argument");
	kt_kprintf__set_width(&sp, -5);
	n = kt_kprintf(got, sizeof(got), &sp, 42, NULL);
	got[n] = 0;
	/* format_decode(): a negative width is LEFT and its opposite */
	CHECK_STR(got, "42   ", "\"%*d\" of -5, 42 is \"42   \"");
	CHECK(kt_kprintf__parse("%.*d", &sp, 8) == 4 && sp.precision_arg,
	      "\"%%.*d\": the precision is an argument");
	kt_kprintf__set_precision(&sp, -1);
	n = kt_kprintf(got, sizeof(got), &sp, 0, NULL);
	got[n] = 0;
	CHECK_STR(got, "0", "\"%.*d\" of -1, 0 is \"0\"");
	/* a negative precision is 0 (glibc: as if none, "abc") */
	kt_kprintf__parse("%.*s", &sp, 8);
	kt_kprintf__set_precision(&sp, -1);
	n = kt_kprintf(got, sizeof(got), &sp, 0, "abc");
	got[n] = 0;
	CHECK_STR(got, "", "\"%.*s\" of -1, \"abc\" is \"\"");
	kt_kprintf__parse("%.*s", &sp, 8);
	kt_kprintf__set_precision(&sp, 2);
	n = kt_kprintf(got, sizeof(got), &sp, 0, "abc");
	got[n] = 0;
	CHECK_STR(got, "ab", "\"%.*s\" of 2, \"abc\" is \"ab\"");
	/* set_precision(): clamp(prec, 0, PRECISION_MAX) when it does not fit */
	kt_kprintf__set_precision(&sp, 40000);
	CHECK(sp.precision == 32767, "\".*\" of 40000 is PRECISION_MAX (%d)", sp.precision);
	/* set_field_width(): clamp(width, -FIELD_WIDTH_MAX, FIELD_WIDTH_MAX) (up to 6.13) */
	kt_kprintf__parse("%*d", &sp, 8);
	kt_kprintf__set_width(&sp, -9000000);
	CHECK(sp.width == (1 << 23) - 1 && (sp.flags & KT_KP_LEFT),
	      "'*' of -9000000 is LEFT and FIELD_WIDTH_MAX (%d)", sp.width);
}

/* vsnprintf(): the length is the whole conversion's, the buffer is not overrun */
static void test_truncated(void)
{
	struct kt_kspec sp, back;
	char got[8] = "zzzzzzz";
	size_t n;

	kt_kprintf__parse("%#06x", &sp, 8);
	n = kt_kprintf(got, 3, &sp, 0, NULL);
	CHECK(n == 6 && !memcmp(got, "0x0zzzz", 7), "\"%%#06x\" into 3 bytes: \"0x0\", length 6 (%zu)",
	      n);
	kt_kprintf__parse("%-#12.5llx", &sp, 8);
	kt_kprintf__unpack(kt_kprintf__pack(&sp), &back);
	CHECK(back.conv == 'x' && back.flags == sp.flags && back.size == 8 && back.width == 12 &&
	      back.precision == 5 && !back.width_arg && !back.precision_arg,
	      "pack and unpack keep a conversion");
	kt_kprintf__parse("%*.*hd", &sp, 8);
	kt_kprintf__unpack(kt_kprintf__pack(&sp), &back);
	CHECK(back.conv == 'd' && back.size == 2 && back.width == -1 && back.precision == -1 &&
	      back.width_arg && back.precision_arg, "pack and unpack keep '*' and \".*\"");
}

/*
 * The rendering path: events of a fake kernel whose print formats take
 * zero values under '#', a precision and '*', printed by the compiled
 * formats (fastfmt.c) and by libtraceevent (KTRACE_NO_FASTFMT=1), in the
 * text and in JSON's "text". Each line is the kernel's rendering, as
 * worked out from number() for the rows of the table above.
 */
static const struct fk_field num_fields[] = {
	{ "unsigned int", "z", 8, 4, 0 },
	{ "int", "five", 12, 4, 1 },
	{ "unsigned long", "zl", 16, 8, 0 },
	{ "int", "w", 24, 4, 1 },
	{ "int", "p", 28, 4, 1 },
	{ "u16", "ss_mask", 32, 2, 0 },
	{ "int", "root", 36, 4, 1 },
	{ "s8", "lay", 40, 1, 1 },
	{ "short", "adj", 42, 2, 1 },
};

/* cgroup_setup_root's format (6.1), then every conversion glibc prints otherwise */
static const struct {
	const char *fmt, *want;
	bool tep;	/* '*' arguments, operators: libtraceevent's, even with fastfmt */
} lines[] = {
	{ "\"root=%d ss_mask=%#x\", REC->root, REC->ss_mask", "root=1 ss_mask=0x0", false },
	{ "\"a=%#x b=%#06x c=%.0d d=%#o e=%.0u f=%.0x g=%#X\", REC->z, REC->z, REC->z, "
	  "REC->z, REC->z, REC->z, REC->z",
	  "a=0x0 b=0x0000 c=0 d=0 e=0 f=0 g=0X0", false },
	{ "\"h=%08.3d i=%#lx j=%x k=%#.3o l=%#-6x|\", REC->five, REC->zl, REC->z, REC->five, "
	  "REC->z",
	  "h=00000005 i=0x0 j=0 k=0005 l=0x0   |", false },
	/* operations as arguments (dax's "pfn %#llx", REC->pfn_val & ~(...)) */
	{ "\"m=%#x n=%.0d o=%#lx\", REC->five & 4, REC->z & 1, REC->zl | (REC->five << 8)",
	  "m=0x4 n=0 o=0x500", true },
	/* flags libtraceevent 1.7.1 does not parse, sizes it prints wrongly */
	{ "\"q=%+d r=% d s=%+d t=%hhx u=%#hx v=%hhd|\", REC->five, REC->five, REC->z, REC->w, "
	  "REC->w, REC->w",
	  "q=+5 r= 5 s=+0 t=fc u=0xfffc v=-4|", false },
	/* '*': a width of -4 is '-' and 4, the precision 2 */
	{ "\"w=%*.*d| v=%.*x|\", REC->w, REC->p, REC->z, REC->p, REC->z", "w=00  | v=00|",
	  true },
	/*
	 * xen_mmu_set_pud's "pudval %0*llx", (int)... * 2: the kernel prints
	 * "x=0000000000000005|"; libtraceevent cannot parse the cast of a
	 * number, and printed "[FAILED TO PARSE]" and the raw fields with
	 * exit 0 (found by fuzz-events): said and counted instead
	 */
	{ "\"x=%0*llx|\", (int)8 * 2, (unsigned long long)REC->five",
	  "[not rendered: a format libtraceevent cannot parse]", true },
	/*
	 * a signed field narrower than its conversion: C promotes it to int,
	 * sign-extended (mc_event's "location:%d:%d:%d" of three s8 of -1;
	 * libtraceevent printed 255 and "%d" of a short of -3 65533)
	 */
	{ "\"loc=%d adj=%d adjx=%x wl=%ld wlx=%lx wu=%u adjh=%hd|\", REC->lay, REC->adj, "
	  "REC->adj, REC->w, REC->w, REC->w, REC->adj",
	  "loc=-1 adj=-3 adjx=fffffffd wl=-4 wlx=fffffffffffffffc wu=4294967292 adjh=-3|", false },
};

static void put_num_record(struct fk_pb *pb, uint16_t id)
{
	uint8_t d[48] = { 0 };
	int32_t five = 5, w = -4, p = 2, root = 1;
	int16_t adj = -3;

	memcpy(d, &id, 2);
	memcpy(d + 12, &five, 4);
	memcpy(d + 24, &w, 4);
	memcpy(d + 28, &p, 4);
	memcpy(d + 36, &root, 4);
	d[40] = 0xff;		/* lay: -1 */
	memcpy(d + 42, &adj, 2);
	fk_raw(pb, 10, d, sizeof(d));
}

/* @fast: 1 the formats must have been compiled, -1 not */
static void check_render(struct fk_kernel *k, const char *how, int fast)
{
	struct fk_session fs;
	char *text, *json, name[16], want[192];
	size_t i;

	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	json = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), true);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		snprintf(want, sizeof(want), " %s: %s\n", name, lines[i].want);
		CHECK(text && strstr(text, want), "%s: text \"%.*s\"", how, (int)strlen(want) - 2,
		      want + 1);
		snprintf(want, sizeof(want), "\"text\":\"%s: %s\"", name, lines[i].want);
		CHECK(json && strstr(json, want), "%s: JSON %s", how, want);
		{
			const struct kt_event *e = kt_session__find_event(fs.s, 20 + (int)i);

			int want_fast = fast > 0 && !lines[i].tep ? 1 : -1;

			CHECK(e && e->fast_state == want_fast, "%s: %s %s", how, name,
			      want_fast > 0 ? "compiled" : "left to libtraceevent");
		}
	}
	if (getenv("V"))
		printf("# %s# %s", text ? text : "(no text)\n", json ? json : "(no JSON)\n");
	free(text);
	free(json);
	fk_close(&fs);
}

static void test_render(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 2);
	struct fk_pb pb;
	char name[16];
	size_t i;

	fk_ring_set(r, 0, 1);
	fk_events_init(k);
	pb = fk_page(r, 0, 1000);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		fk_event(k, 20 + (int)i, "test", name, num_fields,
			 sizeof(num_fields) / sizeof(num_fields[0]), lines[i].fmt);
		put_num_record(&pb, (uint16_t)(20 + i));
	}
	check_render(k, "compiled", 1);
	setenv("KTRACE_NO_FASTFMT", "1", 1);
	check_render(k, "libtraceevent", -1);
	unsetenv("KTRACE_NO_FASTFMT");
	fk_free(k);
	free(r);
}

/*
 * trace_printk(): a bprint record's arguments as vbin_printf() packs them
 * (ints aligned to 4, a char to 1, a string inline, a long as 8 bytes
 * aligned to 4), printed as bstr_printf() does when glibc would print a
 * conversion otherwise; a format without such a conversion stays with
 * libtraceevent.
 */
static void test_bprint(void)
{
	static const struct fk_field f[] = {
		{ "unsigned long", "ip", 8, 8, 0 },
		{ "const char *", "fmt", 16, 8, 0 },
		{ "u32", "buf", 24, 0, 0 },
	};
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 2);
	uint64_t fmts = fk_alloc(k, 16), f1, f2;
	uint8_t d[24 + 40] = { 0 };
	int32_t w = -3, seven = 7;
	struct fk_session fs;
	struct fk_pb pb;
	char *text, *json;
	uint16_t id = 6;

	fk_ring_set(r, 0, 1);
	fk_events_init(k);
	fk_event(k, 6, "ftrace", "bprint", f, 3, "\"%ps: %s\", (void *)REC->ip, REC->fmt");
	f1 = fk_str(k, "a=%#x b=%.0d c=%#06x s=%.2s c=%c l=%#lx h=%hhd w=%*d|\n");
	f2 = fk_str(k, "plain=%d %s\n");
	fk_w64(k, fmts, f1);
	fk_w64(k, fmts + 8, f2);
	fk_sym(k, "__start___trace_bprintk_fmt", fmts);
	fk_sym(k, "__stop___trace_bprintk_fmt", fmts + 16);
	pb = fk_page(r, 0, 1000);
	memcpy(d, &id, 2);
	memcpy(d + 16, &f1, 8);
	/* 0, 4, 8: three ints of 0; 12: "xyz"; 16: 'Q'; 20: a long of 0; 28: 0xff */
	memcpy(d + 24 + 12, "xyz", 4);
	d[24 + 16] = 'Q';
	d[24 + 28] = 0xff;
	memcpy(d + 24 + 32, &w, 4);
	memcpy(d + 24 + 36, &seven, 4);
	fk_raw(&pb, 10, d, sizeof(d));
	memset(d + 24, 0, 40);
	memcpy(d + 16, &f2, 8);
	memcpy(d + 24, &seven, 4);
	memcpy(d + 28, "ok", 3);
	fk_raw(&pb, 10, d, 32);
	if (fk_open(k, &fs, false))
		return;
	text = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), false);
	json = fk_text(fs.s, kt_session__find_buffer(fs.s, NULL), true);
	CHECK(text && strstr(text, ": a=0x0 b=0 c=0x0000 s=xy c=Q l=0x0 h=-1 w=7  |\n"),
	      "bprint: text \"a=0x0 b=0 c=0x0000 s=xy c=Q l=0x0 h=-1 w=7  |\"");
	CHECK(json && strstr(json, ": a=0x0 b=0 c=0x0000 s=xy c=Q l=0x0 h=-1 w=7  |\"}"),
	      "bprint: JSON's text alike");
	CHECK(text && strstr(text, ": plain=7 ok\n"), "bprint: a plain format (libtraceevent's)");
	if (getenv("V"))
		printf("# %s# %s", text ? text : "(no text)\n", json ? json : "(no JSON)\n");
	free(text);
	free(json);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

int main(void)
{
	test_table();
	test_star();
	test_truncated();
	test_render();
	test_bprint();
	return fk_failed;
}
