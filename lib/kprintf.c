// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel's vsnprintf() rules for one conversion (lib/vsprintf.c, the
 * same in 4.19 to 7.x where a trace line can tell; the places where
 * releases differ are named below). Where they are not glibc's:
 * - number() always prints a digit: "%.0d", "%.0x" and "%.d" of 0 print
 *   "0" (glibc: nothing);
 * - '#' is a prefix put before the zero padding and the precision's
 *   zeros: "%#x" of 0 is "0x0" (glibc "0"), "%#06x" of 0 "0x0000" (glibc
 *   "000000"), "%#.3o" of 8 "0010" (glibc "010"); "%#o" of 0 is "0";
 * - '0' still pads when a precision is given: "%08.3d" of 5 is
 *   "00000005" (glibc "     005");
 * - "%.d"/"%.s" is no precision at all (format_decode() leaves -1), and a
 *   negative ".*" precision is 0: "%.*s" of -1 prints nothing;
 * - %c and %s pad with spaces whatever the '0' flag says (widen_string());
 * - a NULL %s prints "(null)" (check_pointer());
 * - the length modifiers are h hh l ll L z t (no j, q or Z): a value is
 *   cast to the modifier's size, signed for d and i only, as
 *   convert_num_spec() (6.14+) and the FORMAT_TYPE_* casts before it do.
 */
#include <string.h>
#include "kprintf.h"

struct out {
	char *buf;
	size_t n, len;
};

/* @count bytes of @c, as far as they fit */
static void pad(struct out *o, char c, int count)
{
	size_t k;

	if (count <= 0)
		return;
	k = o->len < o->n ? o->n - o->len : 0;
	if (k > (size_t)count)
		k = (size_t)count;
	memset(o->buf + o->len, c, k);
	o->len += (size_t)count;
}

/* @n bytes of @s, as far as they fit */
static void put_str(struct out *o, const char *s, size_t n)
{
	size_t k = o->len < o->n ? o->n - o->len : 0;

	memcpy(o->buf + o->len, s, k < n ? k : n);
	o->len += n;
}

static void put(struct out *o, char c)
{
	pad(o, c, 1);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int kt_kprintf__parse(const char *fmt, struct kt_kspec *sp, int long_size)
{
	const char *p = fmt + 1;

	memset(sp, 0, sizeof(*sp));
	sp->width = sp->precision = -1;
	sp->size = 4;
	for (;; p++) {
		uint8_t f = *p == '-' ? KT_KP_LEFT : *p == '+' ? KT_KP_PLUS :
			    *p == ' ' ? KT_KP_SPACE : *p == '#' ? KT_KP_SPECIAL :
			    *p == '0' ? KT_KP_ZEROPAD : 0;

		if (!f)
			break;
		sp->flags |= f;
	}
	if (is_digit(*p)) {
		/*
		 * skip_atoi() into the width: a 24-bit field up to 6.13 (a
		 * larger width wraps), an int since 6.14. Either is past the
		 * one page of trace_seq a line must fit in: held at the max.
		 */
		long w = 0;

		for (; is_digit(*p); p++)
			if (w <= KT_KP_WIDTH_MAX)
				w = w * 10 + (*p - '0');
		sp->width = w > KT_KP_WIDTH_MAX ? KT_KP_WIDTH_MAX : (int)w;
	} else if (*p == '*') {
		sp->width_arg = true;
		p++;
	}
	if (*p == '.') {
		p++;
		if (is_digit(*p)) {
			/*
			 * skip_atoi() into a 16-bit precision (a bit-field, a
			 * short since 6.14), then "if (spec->precision < 0)
			 * spec->precision = 0": "%.40000d" has precision 0
			 */
			uint32_t v = 0;

			for (; is_digit(*p); p++)
				v = (v * 10 + (uint32_t)(*p - '0')) & 0xffff;
			sp->precision = (int16_t)v < 0 ? 0 : (int)v;
		} else if (*p == '*') {
			sp->precision_arg = true;
			p++;
		}
		/* "%.d": no digits and no '*' leave the precision at -1 */
	}
	/* the qualifier: 'l' and 'h' double, 'L', 'z', 't' do not */
	if (*p == 'h') {
		sp->size = 2;
		if (*++p == 'h') {
			sp->size = 1;
			p++;
		}
	} else if (*p == 'l') {
		sp->size = (uint8_t)long_size;
		if (*++p == 'l') {
			sp->size = 8;
			p++;
		}
	} else if (*p == 'L') {
		sp->size = 8;
		p++;
	} else if (*p == 'z' || *p == 't') {
		sp->size = (uint8_t)long_size;	/* size_t, ptrdiff_t */
		p++;
	}
	switch (*p) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': case 's':
		sp->conv = *p;
		return (int)(p + 1 - fmt);
	}
	return 0;
}

void kt_kprintf__set_width(struct kt_kspec *sp, int width)
{
	/* set_field_width() clamps; format_decode() makes a negative one '-' */
	if (width > KT_KP_WIDTH_MAX)
		width = KT_KP_WIDTH_MAX;
	if (width < -KT_KP_WIDTH_MAX)
		width = -KT_KP_WIDTH_MAX;
	if (width < 0) {
		width = -width;
		sp->flags |= KT_KP_LEFT;
	}
	sp->width = width;
	sp->width_arg = false;
}

void kt_kprintf__set_precision(struct kt_kspec *sp, int precision)
{
	/* set_precision() clamps to 0..PRECISION_MAX; format_decode(): < 0 is 0 */
	if (precision > KT_KP_PRECISION_MAX)
		precision = KT_KP_PRECISION_MAX;
	sp->precision = precision < 0 ? 0 : precision;
	sp->precision_arg = false;
}

/* number(): the sign, the "0x"/"0" prefix, padding and precision */
static void number(struct out *o, const struct kt_kspec *sp, uint64_t num)
{
	unsigned int base = sp->conv == 'o' ? 8 : sp->conv == 'x' || sp->conv == 'X' ? 16 : 10;
	const char *digit = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	bool need_pfx = (sp->flags & KT_KP_SPECIAL) && base != 10, is_zero = !num;
	uint8_t flags = sp->flags;
	int fw = sp->width, prec = sp->precision, i;
	char tmp[24], *t = tmp + sizeof(tmp), pfx[3], *x = pfx;

	if (flags & KT_KP_LEFT)
		flags &= ~KT_KP_ZEROPAD;
	if (sp->conv == 'd' || sp->conv == 'i') {
		if ((int64_t)num < 0) {
			*x++ = '-';
			num = 0 - num;
		} else if (flags & KT_KP_PLUS) {
			*x++ = '+';
		} else if (flags & KT_KP_SPACE) {
			*x++ = ' ';
		}
	}
	/* "0x" always, "0" before an octal number but 0 */
	if (need_pfx && (base == 16 || !is_zero))
		*x++ = '0';
	if (need_pfx && base == 16)
		*x++ = sp->conv;
	/* the digits, from the last */
	if (base == 10) {
		do {
			*--t = (char)('0' + num % 10);
			num /= 10;
		} while (num);
	} else {
		do {
			*--t = digit[num & (base - 1)];
			num >>= base == 16 ? 4 : 3;
		} while (num);
	}
	i = (int)(tmp + sizeof(tmp) - t);
	/* "printing 100 using %2d gives "100", not "00"" */
	if (i > prec)
		prec = i;
	fw -= (int)(x - pfx) + prec;
	if (!(flags & (KT_KP_ZEROPAD | KT_KP_LEFT))) {
		pad(o, ' ', fw);
		fw = 0;
	}
	put_str(o, pfx, (size_t)(x - pfx));
	if (!(flags & KT_KP_LEFT)) {
		pad(o, flags & KT_KP_ZEROPAD ? '0' : ' ', fw);
		fw = 0;
	}
	pad(o, '0', prec - i);
	put_str(o, t, (size_t)i);
	pad(o, ' ', fw);
}

/*
 * the number's bytes, sign-extended for d and i (convert_num_spec()); a
 * signed field narrower than that first sign-extended from its own size,
 * as C's promotion of the argument did
 */
static uint64_t cast(const struct kt_kspec *sp, uint64_t v)
{
	unsigned int bits = sp->size >= 8 || !sp->size ? 64 : sp->size * 8u;
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;

	if (sp->sext && sp->sext < 8) {
		unsigned int fb = sp->sext * 8u;

		v &= (1ull << fb) - 1;
		if ((v >> (fb - 1)) & 1)
			v |= ~((1ull << fb) - 1);
	}
	v &= m;
	if ((sp->conv == 'd' || sp->conv == 'i') && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~m;
	return v;
}

size_t kt_kprintf(char *buf, size_t n, const struct kt_kspec *sp, uint64_t v, const char *s)
{
	struct out o = { buf, n, 0 };
	int fw = sp->width, prec = sp->precision;
	size_t len;

	switch (sp->conv) {
	case 'c':
		/* vsnprintf()'s FORMAT_TYPE_CHAR: spaces, never zeros */
		if (!(sp->flags & KT_KP_LEFT))
			pad(&o, ' ', fw - 1);
		put(&o, (char)(unsigned char)v);
		if (sp->flags & KT_KP_LEFT)
			pad(&o, ' ', fw - 1);
		break;
	case 's':
		if (!s) {
			/* check_pointer(): error_string() bounds it at 2 * sizeof(void *) */
			s = "(null)";
			if (prec == -1)
				prec = 16;
		}
		/* string_nocheck() stops at the precision or the NUL */
		len = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
		/* widen_string() */
		if (!(sp->flags & KT_KP_LEFT))
			pad(&o, ' ', fw - (int)len);
		put_str(&o, s, len);
		if (sp->flags & KT_KP_LEFT)
			pad(&o, ' ', fw - (int)len);
		break;
	default:
		number(&o, sp, cast(sp, v));
	}
	return o.len;
}

bool kt_kprintf__differs(const struct kt_kspec *sp)
{
	if (!sp->conv || sp->conv == 'c' || sp->conv == 's')
		return false;
	/*
	 * glibc: '#' and precisions of 0; libtraceevent 1.7.1's own parser
	 * knows neither the '+' nor the ' ' flag ("%+d" prints ">+<d" and
	 * shifts every argument after it) and prints %hhx of 85 as 0xf9 (the
	 * modev fixtures' ktrace_modev_num, tests/t-fastfmt.sh)
	 */
	return (sp->flags & (KT_KP_SPECIAL | KT_KP_PLUS | KT_KP_SPACE)) || sp->precision >= 0 ||
	       sp->precision_arg || sp->size < 4;
}

/*
 * bits 0-7 the conversion, 8-12 the flags, 13-16 the size, 17 and 18
 * width_arg and precision_arg, 19-42 the width + 1, 43-58 the precision + 1,
 * 59-62 sext
 */
uint64_t kt_kprintf__pack(const struct kt_kspec *sp)
{
	return (uint64_t)(unsigned char)sp->conv | (uint64_t)(sp->flags & 0x1f) << 8 |
	       (uint64_t)(sp->size & 0xf) << 13 | (uint64_t)sp->width_arg << 17 |
	       (uint64_t)sp->precision_arg << 18 | (uint64_t)(sp->width + 1) << 19 |
	       (uint64_t)(sp->precision + 1) << 43 | (uint64_t)(sp->sext & 0xf) << 59;
}

void kt_kprintf__unpack(uint64_t code, struct kt_kspec *sp)
{
	sp->conv = (char)(code & 0xff);
	sp->flags = (uint8_t)(code >> 8 & 0x1f);
	sp->size = (uint8_t)(code >> 13 & 0xf);
	sp->width_arg = code >> 17 & 1;
	sp->precision_arg = code >> 18 & 1;
	sp->width = (int)(code >> 19 & 0xffffff) - 1;
	sp->precision = (int)(code >> 43 & 0xffff) - 1;
	sp->sext = (uint8_t)(code >> 59 & 0xf);
}
