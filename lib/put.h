/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * printf's integer conversions for the per-line columns, written by hand:
 * each returns the end of what it wrote at @p (no NUL), and prints what
 * the conversion its comment names would (tests/unit/test-put.c compares
 * them with snprintf()).
 */
#ifndef KTRACE_LIB_PUT_H
#define KTRACE_LIB_PUT_H

#include <stdbool.h>
#include <stdint.h>

/* the count of decimal digits of @u */
static inline int kt_ndigits(uint64_t u)
{
	int n = 1;

	for (; u >= 10000; u /= 10000)
		n += 4;
	return n + (u >= 10) + (u >= 100) + (u >= 1000);
}

/*
 * the @n digits of @u at @p, written from the last (a copy from a
 * scratch buffer would become a memcpy() call of a few bytes)
 */
static inline char *kt_put_digits(char *p, uint64_t u, int n)
{
	char *e = p + n;

	do {
		*--e = (char)('0' + u % 10);
		u /= 10;
	} while (e > p);
	return p + n;
}

/* "%*d" (@width > 0), "%-*d" (@width < 0) or "%0*d" (@zero) of @v */
static inline char *kt_put_dec(char *p, int64_t v, int width, bool zero)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	bool left = width < 0;
	int n = kt_ndigits(u), pad = (left ? -width : width) - n - (v < 0);

	if (!left && !zero)
		for (; pad > 0; pad--)
			*p++ = ' ';
	if (v < 0)
		*p++ = '-';
	if (zero)
		for (; pad > 0; pad--)
			*p++ = '0';
	p = kt_put_digits(p, u, n);
	if (left)
		for (; pad > 0; pad--)
			*p++ = ' ';
	return p;
}

/* "%*llu" (@width > 0), "%-*llu" (@width < 0) or "%0*llu" (@zero) of @v */
static inline char *kt_put_udec_flags(char *p, uint64_t v, int width, bool zero)
{
	bool left = width < 0;
	int n = kt_ndigits(v), pad = (left ? -width : width) - n;

	if (!left)
		for (; pad > 0; pad--)
			*p++ = zero ? '0' : ' ';
	p = kt_put_digits(p, v, n);
	if (left)
		for (; pad > 0; pad--)
			*p++ = ' ';
	return p;
}

/* "%*llu" of @v */
static inline char *kt_put_udec(char *p, uint64_t v, int width)
{
	int n = kt_ndigits(v);

	for (; width > n; width--)
		*p++ = ' ';
	return kt_put_digits(p, v, n);
}

/* "%llx" of @v ("%x" of an unsigned int alike) */
static inline char *kt_put_hex(char *p, uint64_t v)
{
	uint64_t t;
	char *e;
	int n = 1;

	for (t = v >> 4; t; t >>= 4)
		n++;
	e = p + n;
	do {
		*--e = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (e > p);
	return p + n;
}

#endif
