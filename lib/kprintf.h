/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One conversion of a kernel print format, printed by the kernel's
 * vsnprintf() rules (lib/vsprintf.c: format_decode(), number(),
 * string(), the %c case of vsnprintf()), not the C library's: "%#x" of 0
 * is "0x0", "%.0d" of 0 is "0", "%08.3d" pads with zeros. Used wherever
 * ktrace prints with a format the kernel wrote: the compiled print
 * formats (fastfmt.c), the libtraceevent fallback (render.c's __kt_num(),
 * put in by fmt-tep.c), trace_printk()'s bprint records (trace_printk.c)
 * and the ktrace recorder's decoder (krec/decode.c).
 */
#ifndef KTRACE_LIB_KPRINTF_H
#define KTRACE_LIB_KPRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the flags of format_decode(), by the kernel's names */
#define KT_KP_LEFT	0x01	/* '-' */
#define KT_KP_PLUS	0x02	/* '+' */
#define KT_KP_SPACE	0x04	/* ' ' */
#define KT_KP_SPECIAL	0x08	/* '#': "0x" before hex, "0" before octal */
#define KT_KP_ZEROPAD	0x10	/* '0' */

/* FIELD_WIDTH_MAX and PRECISION_MAX of lib/vsprintf.c */
#define KT_KP_WIDTH_MAX		((1 << 23) - 1)
#define KT_KP_PRECISION_MAX	((1 << 15) - 1)

struct kt_kspec {
	uint8_t flags;		/* KT_KP_* */
	char conv;		/* d i u o x X c s */
	uint8_t size;		/* bytes of a number: 1 hh, 2 h, 4, 8 ll/L, long size for l z t */
	bool width_arg;		/* '*': the width is an argument (kt_kprintf__set_width()) */
	bool precision_arg;	/* ".*": so is the precision (kt_kprintf__set_precision()) */
	int width;		/* -1: none */
	int precision;		/* -1: none */
	/*
	 * 1, 2 or 4: the argument is a signed field of that many bytes, which
	 * C promotes to int (sign-extended) before a wider conversion prints
	 * it ("%d" of a short of -3 is -3, "%lx" of an int of -1 is
	 * ffffffffffffffff); 0: none
	 */
	uint8_t sext;
};

/*
 * Parse the conversion at @fmt ('%') as format_decode() does, a long
 * being @long_size bytes. Returns the characters it spans, or 0 for what
 * is not one conversion of d i u o x X c s ("%%", "%p...", and what the
 * kernel calls invalid: %n, %j, %Z, %q, %f... after which the kernel
 * prints nothing more of the format).
 */
int kt_kprintf__parse(const char *fmt, struct kt_kspec *sp, int long_size);

/* a '*' argument, as set_field_width() and format_decode() take it */
void kt_kprintf__set_width(struct kt_kspec *sp, int width);
/* a ".*" argument, as set_precision() and format_decode() take it */
void kt_kprintf__set_precision(struct kt_kspec *sp, int precision);

/*
 * Print one conversion of @sp into @buf (at most @n bytes, no NUL):
 * @v for a number (cast to sp->size bytes, signed for d and i) or %c,
 * @s for %s (NULL prints "(null)", as check_pointer() does). Returns the
 * length of the whole conversion, as vsnprintf() counts it, even when
 * more than @n.
 */
size_t kt_kprintf(char *buf, size_t n, const struct kt_kspec *sp, uint64_t v, const char *s);

/*
 * May the C library print @sp otherwise than the kernel? An integer
 * conversion with '#' (a prefix before the zeros: "0x0") or a precision
 * (a digit always; '0' still pads). The others print the same both ways
 * (tests/unit/test-kprintf.c).
 */
bool kt_kprintf__differs(const struct kt_kspec *sp);

/* pack @sp into one number and back (fmt-tep.c writes it into __kt_num()) */
uint64_t kt_kprintf__pack(const struct kt_kspec *sp);
void kt_kprintf__unpack(uint64_t code, struct kt_kspec *sp);

#endif
