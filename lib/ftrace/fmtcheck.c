// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A print fmt from the dump, made safe before libtraceevent parses it.
 * libtraceevent (1.7, 1.8) trusts a format as the kernel made it; a dump
 * is hostile, and these killed or drowned the process (issue 27):
 *
 * - division: "REC->pid / 0", or by a field that holds 0, is evaluated
 *   with the machine's division (SIGFPE). Every divisor that is not a
 *   non-zero constant is wrapped in __kt_nz(), ktrace's print function
 *   (render.c): it passes the value, or notes a zero so that the line is
 *   counted as not rendered. The kernel itself would have faulted
 *   printing it (its TP_printk() divides as C does). A divisor cannot
 *   simply be refused: devfreq_monitor prints "total_time == 0 ? 0 :
 *   (100 * busy_time) / total_time", where the kernel divides only when
 *   it may. (libtraceevent 1.7 and 1.8 parse "c ? x : y / z" as
 *   "(c ? x : y) / z", so that one divides by zero for them where the
 *   kernel did not: counted too, where it used to be SIGFPE.)
 * - depth: the parser and the evaluator recurse per bracket, cast,
 *   prefix and binary operator. Measured (1.7.1, x86-64, parse and
 *   print): 165 bytes a level for casts and '+' chains, 232 for
 *   parentheses, 313 for '!' chains. A worker thread (jobs.c) has 512
 *   KiB; KT_FMT_MAX_NEST (256) levels take at most 80 KiB of it, so -J
 *   never decides the output. The kernel's deepest formats (mm's gfp
 *   flags, 6.12's dma events) count 24 by nesting() on the 5.10, 6.1 and
 *   6.12 fixtures: the cap leaves ten times that.
 * - widths and precisions: vsnprintf() clamps them (lib/vsprintf.c
 *   set_field_width(), set_precision()), and the kernel's whole line must
 *   fit its trace_seq (a page; 8 KiB less its header since 6.7), or the
 *   event's text is dropped. A width or precision past the trace_seq
 *   overflows it as surely as a billion does: capped there. A '*' taken
 *   from a record is clamped the same way by __kt_width() and __kt_prec().
 *   Widths that alone exceed the trace_seq: the kernel printed none of
 *   any record's text, and the format is refused.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "fmt.h"

#define MAX_STAR_ARGS	256

static bool is_open(char c) { return c == '(' || c == '[' || c == '{'; }
static bool is_close(char c) { return c == ')' || c == ']' || c == '}'; }
static bool is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/*
 * How deep libtraceevent's recursive descent goes over the argument part
 * @p: an open bracket is a level, and so is every operator and every
 * closed bracket (a cast, a parenthesized operand) after the last comma
 * of its level, until its own bracket closes.
 */
static int nesting(const char *p)
{
	int ops[KT_FMT_MAX_NEST + 2] = { 0 };
	int level = 0, depth = 0, max = 0;

	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			p = kt_fmt__skip_quoted(p) - 1;
			continue;
		}
		if (is_open(*p)) {
			if (++level > KT_FMT_MAX_NEST)
				return level;
			ops[level] = 0;
			depth++;
		} else if (is_close(*p) && level) {
			depth -= 1 + ops[level];
			ops[--level]++;
			depth++;
		} else if (*p == ',') {
			depth -= ops[level];
			ops[level] = 0;
		} else if (*p == '-' && p[1] == '>') {
			p++;	/* REC->field */
		} else if (strchr("+-*/%&|^!~<>=?:", *p)) {
			ops[level]++;
			depth++;
		}
		if (depth > max)
			max = depth;
	}
	return max;
}

/* past the bracket that closes the one at @p (at the end if none) */
static const char *bracket_end(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			p = kt_fmt__skip_quoted(p) - 1;
			continue;
		}
		if (is_open(*p))
			depth++;
		else if (is_close(*p) && !--depth)
			return p + 1;
	}
	return p;
}

/* "unsigned long", "u64", "struct page *": the text of a cast, not an operand */
static bool is_type(const char *p, const char *end)
{
	const char *q;

	while (p < end && *p == ' ')
		p++;
	if (p == end || isdigit((unsigned char)*p))
		return false;
	for (q = p; q < end; q++)
		if (!is_ident(*q) && *q != ' ' && *q != '*')
			return false;
	return !memmem(p, (size_t)(end - p), "REC", 3);
}

/*
 * The end of the operand starting at @p, the right side of a '/' or '%':
 * C's cast-expression, prefix operators and casts, then a primary
 * (bracketed, quoted, a name or a number) and its postfixes.
 */
static const char *operand_end(const char *p)
{
	for (;;) {
		while (*p == ' ' || (*p && strchr("-+!~*&", *p) && p[1] != '>'))
			p++;
		if (*p == '(') {
			const char *close = bracket_end(p);

			if (*close && close[-1] == ')' && is_type(p + 1, close - 1)) {
				p = close;
				continue;
			}
			p = close;
		} else if (*p == '"' || *p == '\'') {
			p = kt_fmt__skip_quoted(p);
		} else {
			while (is_ident(*p))
				p++;
		}
		break;
	}
	for (;;) {
		if (*p == '[' || *p == '(') {
			p = bracket_end(p);
		} else if ((p[0] == '-' && p[1] == '>') || p[0] == '.') {
			p += p[0] == '.' ? 1 : 2;
			while (is_ident(*p))
				p++;
		} else {
			return p;
		}
	}
}

/* @p..@end: a non-zero integer constant, in brackets and casts or not */
static bool nonzero_constant(const char *p, const char *end)
{
	unsigned long long v;
	char *e;

	for (;;) {
		while (p < end && *p == ' ')
			p++;
		while (end > p && end[-1] == ' ')
			end--;
		if (p == end || *p != '(')
			break;
		{
			const char *close = bracket_end(p);

			if (close == end) {		/* ( x ) */
				p++;
				end--;
			} else if (close < end && is_type(p + 1, close - 1)) {
				p = close;		/* (type) x */
			} else {
				return false;
			}
		}
	}
	/* sizeof(u64): the size of a complete type is never 0 (the dma events) */
	if ((size_t)(end - p) > 7 && !strncmp(p, "sizeof", 6) &&
	    (p[6] == '(' || p[6] == ' ') && bracket_end(p + 6 + strspn(p + 6, " ")) == end)
		return true;
	if (p == end || !isdigit((unsigned char)*p))
		return false;
	v = strtoull(p, &e, 0);
	while (e < end && strchr("uUlL", *e))
		e++;
	return e == end && v;
}

/* a number of the format text, saturated; @p is at its first digit */
static unsigned long number(const char **p)
{
	unsigned long v = 0;

	for (; isdigit((unsigned char)**p); (*p)++)
		v = v > 1000000000UL ? v : v * 10 + (unsigned long)(**p - '0');
	return v;
}

enum star { STAR_NONE, STAR_WIDTH, STAR_PREC };

/*
 * The quoted format at @p (up to @end) into @o with every width and
 * precision capped at @cap; the '*' arguments in @star (by argument
 * index). Returns the least the conversions print (their widths, the
 * precisions of numbers), at most @cap + 1 (then it cannot fit), or -1:
 * more arguments take a '*' than @star holds.
 */
static long format_text(struct kt_sb *o, const char *p, const char *end, unsigned long cap,
			unsigned char *star)
{
	unsigned long least = 0;
	int arg = 0;

	while (p < end) {
		const char *start = p;
		unsigned long w = 0, prec = 0;
		char num[16];
		bool has_prec = false;

		if (*p != '%' || p + 1 >= end || p[1] == '%') {
			/* text, an escape or "%%": copied as it is */
			size_t step = (*p == '\\' || *p == '%') && p + 1 < end ? 2 : 1;

			kt_sb__add(o, p, step);
			p += step;
			continue;
		}
		p++;
		while (p < end && strchr("-+ #0", *p))
			p++;
		kt_sb__add(o, start, (size_t)(p - start));
		if (*p == '*') {
			if (arg >= MAX_STAR_ARGS)
				return -1;
			star[arg++] = STAR_WIDTH;
			kt_sb__add(o, p++, 1);
		} else if (isdigit((unsigned char)*p)) {
			w = number(&p);
			w = w > cap ? cap : w;
			snprintf(num, sizeof(num), "%lu", w);
			kt_sb__add(o, num, strlen(num));
		}
		if (*p == '.') {
			kt_sb__add(o, p++, 1);
			if (*p == '*') {
				if (arg >= MAX_STAR_ARGS)
					return -1;
				star[arg++] = STAR_PREC;
				kt_sb__add(o, p++, 1);
			} else if (isdigit((unsigned char)*p)) {
				prec = number(&p);
				prec = prec > cap ? cap : prec;
				has_prec = true;
				snprintf(num, sizeof(num), "%lu", prec);
				kt_sb__add(o, num, strlen(num));
			}
		}
		start = p;
		while (p < end && strchr("hlLqjzt", *p))
			p++;
		/* a precision is the least of a number's digits, a string's most */
		if (has_prec && p < end && strchr("diouxX", *p))
			least += prec > w ? prec : w;
		else
			least += w;
		if (least > cap)
			least = cap + 1;
		/*
		 * a conversion the kernel knows (vsprintf.c format_decode()):
		 * anything else is FORMAT_TYPE_INVALID, where the kernel stops
		 * printing, and libtraceevent does not take an argument for it
		 * as this count would: every later argument (a '*' width among
		 * them, then unclamped) would be another one
		 */
		if (p < end && !strchr("diouxXcspfeEgGaAn", *p))
			return -2;
		if (p < end)
			p++;
		kt_sb__add(o, start, (size_t)(p - start));
		if (arg < MAX_STAR_ARGS)
			arg++;
	}
	return (long)least;
}

/*
 * The arguments at @p into @o: divisors wrapped in __kt_nz(), the '*'
 * arguments of @star in __kt_width() or __kt_prec(). Operands nest in
 * brackets, so their ends do too: a stack of at most the nesting.
 */
static void arguments(struct kt_sb *o, const char *p, const unsigned char *star)
{
	const char *ends[KT_FMT_MAX_NEST + 8];
	int n = 0, depth = 0, arg = -1;

	for (;; p++) {
		while (n && ends[n - 1] == p) {
			kt_sb__add(o, ")", 1);
			n--;
		}
		if (!*p || (*p == ',' && !depth)) {
			if (arg >= 0 && arg < MAX_STAR_ARGS && star[arg])
				kt_sb__add(o, ")", 1);
			if (!*p)
				return;
			kt_sb__add(o, p, 1);
			while (p[1] == ' ')
				kt_sb__add(o, ++p, 1);
			arg++;
			if (arg < MAX_STAR_ARGS && star[arg] == STAR_WIDTH)
				kt_sb__add(o, "__kt_width(", 11);
			else if (arg < MAX_STAR_ARGS && star[arg] == STAR_PREC)
				kt_sb__add(o, "__kt_prec(", 10);
			continue;
		}
		if (*p == '"' || *p == '\'') {
			const char *e = kt_fmt__skip_quoted(p);

			kt_sb__add(o, p, (size_t)(e - p));
			p = e - 1;
			continue;
		}
		if (is_open(*p))
			depth++;
		else if (is_close(*p) && depth)
			depth--;
		kt_sb__add(o, p, 1);
		if ((*p == '/' || *p == '%') && n < (int)(sizeof(ends) / sizeof(ends[0]))) {
			const char *e = operand_end(p + 1);

			if (!nonzero_constant(p + 1, e)) {
				kt_sb__add(o, "__kt_nz(", 8);
				ends[n++] = e;
			}
		}
	}
}

char *kt_fmtcheck__printk(const char *fmt, uint32_t seq_size)
{
	unsigned char star[MAX_STAR_ARGS] = { 0 };
	struct kt_sb o = { 0 };

	/* an unknown conversion (-2): as it was, its own printer says what it does */
	if (format_text(&o, fmt, fmt + strlen(fmt), seq_size, star) == -2 || o.oom || !o.p) {
		free(o.p);
		return strdup(fmt);
	}
	return o.p;
}

int kt_fmtcheck__apply(const char *print_fmt, uint32_t seq_size, char **out, char *why,
		       size_t len)
{
	unsigned char star[MAX_STAR_ARGS] = { 0 };
	struct kt_sb o = { 0 };
	const char *args = print_fmt;
	int depth;

	*out = NULL;
	if (*print_fmt == '"') {
		long least;

		args = kt_fmt__skip_quoted(print_fmt);
		least = format_text(&o, print_fmt, args, seq_size, star);
		if (least == -2) {
			snprintf(why, len, "a conversion the kernel does not know (it stops "
				 "printing there)");
			free(o.p);
			return -EINVAL;
		}
		if (least < 0) {
			snprintf(why, len, "more than %d arguments", MAX_STAR_ARGS);
			free(o.p);
			return -EINVAL;
		}
		if (least > (long)seq_size - 2) {
			snprintf(why, len, "its widths alone fill the kernel's trace_seq (%u bytes): "
				 "the kernel printed none of its text", seq_size);
			free(o.p);
			return -EINVAL;
		}
	}
	depth = nesting(args);
	if (depth > KT_FMT_MAX_NEST) {
		snprintf(why, len, "its arguments nest deeper than %d levels", KT_FMT_MAX_NEST);
		free(o.p);
		return -EINVAL;
	}
	arguments(&o, args, star);
	if (o.oom || !o.p) {
		free(o.p);
		return -ENOMEM;
	}
	*out = o.p;
	return 0;
}
