// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * print_fmt rewritten for libtraceevent, where its printing is not the
 * kernel's (the enumerators are in already: fmt.c).
 *
 * 1. Bare %p. The kernel prints it through vsprintf: hashed with
 *    siphash and the boot's ptr_key (lib/vsprintf.c ptr_to_hashval()),
 *    or raw when the trace array's hash-ptr option is off (then
 *    trace_event_format() turns %p into %px). libtraceevent prints
 *    "0x...". For rendering, each bare %p becomes %s over a print
 *    function that prints what the kernel would.
 * 2. Numbers glibc prints otherwise than the kernel. libtraceevent hands
 *    each conversion to the C library's printf, which prints "%#x" of 0
 *    as "0" (the kernel: "0x0") and "%.0d" of 0 as nothing (the kernel:
 *    "0"). It has no hook for its number conversions, but it does call
 *    the print functions a handle registers, with the arguments it
 *    evaluated as it would have for the conversion. So each integer
 *    conversion with a '#' or a precision becomes %s over __kt_num(value,
 *    conversion, width, precision) (render.c), which prints it with
 *    kprintf.c: in place, before libtraceevent parses the format, rather
 *    than a repair of its text afterwards (which cannot tell a "0" the
 *    kernel printed from one it did not). So do the '+' and ' ' flags,
 *    which libtraceevent 1.7.1's parser does not know, and the h and hh
 *    sizes, which it prints wrongly. The other integer conversions (flags
 *    '-', '0' and a width) print the same both ways
 *    (tests/unit/test-kprintf.c) and stay with libtraceevent.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "fmt.h"
#include "../kprintf.h"

/* Split "arg, arg, ..." at top-level commas; returns the count (max @max). */
static int split_args(const char *p, const char **start, size_t *len, int max)
{
	int n = 0, depth = 0;
	const char *a;

	while (*p == ' ' || *p == ',') {
		if (*p == ',')
			break;
		p++;
	}
	if (*p != ',')
		return 0;
	p++;
	a = p;
	for (;; p++) {
		if (*p == '"' || *p == '\'') {
			p = kt_fmt__skip_quoted(p) - 1;
			continue;
		}
		if (*p == '(' || *p == '{' || *p == '[')
			depth++;
		else if ((*p == ')' || *p == '}' || *p == ']') && depth)
			depth--;
		if (!*p || (*p == ',' && !depth)) {
			if (n < max) {
				start[n] = a;
				len[n] = p - a;
			}
			n++;
			if (!*p)
				break;
			a = p + 1;
		}
	}
	return n < max ? n : max;
}

#define MAX_ARGS 64

/*
 * libtraceevent 1.7 drops the parentheses of a parenthesized operand:
 * "REC->flags & (0x40000 | 0x80000)" is evaluated as
 * "(REC->flags & 0x40000) | 0x80000" (timer_start's flags printed "D|P|I"
 * where the kernel printed nothing). Innermost parentheses that hold only
 * integer constants and operators are folded into one number first.
 */
struct cexpr {
	const char *p, *end;
	bool bad;
};

static void cx_space(struct cexpr *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

static uint64_t cx_binary(struct cexpr *c, int min_prec);

static uint64_t cx_unary(struct cexpr *c)
{
	char *e;
	uint64_t v;

	cx_space(c);
	if (c->p >= c->end) {
		c->bad = true;
		return 0;
	}
	if (*c->p == '~') {
		c->p++;
		return ~cx_unary(c);
	}
	if (*c->p == '-') {
		c->p++;
		return -cx_unary(c);
	}
	if (*c->p == '+') {
		c->p++;
		return cx_unary(c);
	}
	if (!isdigit((unsigned char)*c->p)) {
		c->bad = true;
		return 0;
	}
	v = strtoull(c->p, &e, 0);
	c->p = e;
	while (c->p < c->end && strchr("uUlL", *c->p))
		c->p++;
	return v;
}

static int cx_op(struct cexpr *c, int *len)
{
	static const struct { const char *op; int prec; } ops[] = {
		{ "<<", 3 }, { ">>", 3 }, { "*", 5 }, { "/", 5 }, { "%", 5 },
		{ "+", 4 }, { "-", 4 }, { "&", 2 }, { "^", 1 }, { "|", 0 },
	};
	size_t i;

	cx_space(c);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].op);

		if ((size_t)(c->end - c->p) >= n && !strncmp(c->p, ops[i].op, n)) {
			*len = (int)n;
			return ops[i].prec;
		}
	}
	return -1;
}

static uint64_t cx_binary(struct cexpr *c, int min_prec)
{
	uint64_t l = cx_unary(c), r;
	int prec, len = 0;	/* set by cx_op() whenever it returns a precedence */

	while (!c->bad && (prec = cx_op(c, &len)) >= min_prec) {
		char op = *c->p;
		bool shift = len == 2;

		c->p += len;
		r = cx_binary(c, prec + 1);
		switch (op) {
		case '<': l = shift && r < 64 ? l << r : 0; break;
		case '>': l = shift && r < 64 ? l >> r : 0; break;
		case '*': l *= r; break;
		case '/': if (r) l /= r; else c->bad = true; break;
		case '%': if (r) l %= r; else c->bad = true; break;
		case '+': l += r; break;
		case '-': l -= r; break;
		case '&': l &= r; break;
		case '^': l ^= r; break;
		case '|': l |= r; break;
		}
	}
	return l;
}

/* fold "( constant expression )" groups in the argument part @args */
static char *fold_constants(const char *args)
{
	char *out = strdup(args), *open, *close;

	if (!out)
		return NULL;
	for (open = out; (open = strchr(open, '(')); open++) {
		struct cexpr c;
		uint64_t v;
		char num[32];
		size_t n;

		close = open + 1 + strcspn(open + 1, "()\"'");
		if (*close != ')')
			continue;
		if (strspn(open + 1, "0123456789abcdefABCDEFxXuUlL |&^+-<>~*/%") !=
		    (size_t)(close - open - 1))
			continue;
		c.p = open + 1;
		c.end = close;
		c.bad = false;
		v = cx_binary(&c, 0);
		cx_space(&c);
		if (c.bad || c.p != c.end)
			continue;
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		n = strlen(num);
		if (n + 2 > (size_t)(close - open + 1))
			continue;	/* never grow the text */
		memmove(open + 1 + n, close, strlen(close) + 1);
		memcpy(open + 1, num, n);
	}
	return out;
}

/*
 * The conversion at @q ('%') if note_number() made it a kernel number
 * (@at): its length, else 0. Sizes as tep_setup() tells libtraceevent: a
 * long of 8 bytes.
 */
static int kernel_number(const char *q, const char *const *at, int nargs, struct kt_kspec *sp)
{
	for (int i = 0; i < nargs; i++)
		if (at[i] == q)
			return kt_kprintf__parse(q, sp, 8);
	return 0;
}

/*
 * The pointer conversions rewritten for libtraceevent, by what follows
 * "%p": bare (vsprintf's hashed or raw pointer), s/f (symbol), S/F
 * (symbol+offset/size), B (backtrace: the symbol of address - 1).
 * Returns the kind and sets *@len to the letters after '%' it spans.
 */
enum { PK_NONE, PK_PTR, PK_SYM, PK_SYM_OFF, PK_SYM_BT, PK_NUM, PK_STAR };

static int pointer_kind(const char *q, size_t *len)
{
	if (*q != 'p')
		return PK_NONE;
	*len = 2;
	switch (q[1]) {
	case 's': case 'f':
		return PK_SYM;
	case 'S': case 'F':
		if (q[2] == 'R')
			*len = 3;
		return PK_SYM_OFF;
	case 'B':
		return PK_SYM_BT;
	}
	if (isalnum((unsigned char)q[1]))
		return PK_NONE;		/* %pM, %pI4 ...: libtraceevent's own */
	*len = 1;
	return PK_PTR;
}

/* a field's declaration in format text (fmt.h) */
const char *kt_fmt__field(const char *fmt, const char *name, size_t n, bool *array)
{
	const char *pf = strstr(fmt, "\nprint fmt: "), *f;

	for (f = strstr(fmt, "\tfield:"); f && (!pf || f < pf); f = strstr(f + 1, "\tfield:")) {
		const char *semi = strchr(f, ';'), *end = semi, *nm;

		if (!semi)
			return NULL;
		if (end[-1] == ']')
			while (end > f && *end != '[')
				end--;
		for (nm = end; nm > f && nm[-1] != ' '; nm--)
			;
		if ((size_t)(end - nm) == n && !strncmp(nm, name, n)) {
			if (array)
				*array = end != semi;
			return semi;
		}
	}
	return NULL;
}

/*
 * 4. A signed field narrower than its conversion ("%d" of a short, "%ld"
 *    of an int, "%x" of an s8). The kernel's C promotes it to int,
 *    sign-extended, and then converts; libtraceevent reads the field's
 *    bytes as an unsigned number, so "%d" of a short of -3 prints 65533
 *    and "%d" of an s8 of -1 (mc_event's location) 255. Such a conversion
 *    goes to __kt_num() with the field's size (kt_kspec.sext). Only an
 *    argument that is the field itself, REC->name: the bytes of a signed
 *    field (1, 2 or 4) from the event's own "field:" lines (@fields).
 */
static unsigned int signed_field_size(const char *fields, const char *a, size_t alen)
{
	const char *semi, *nl, *sz, *sg;
	unsigned int size;
	bool array;

	while (alen && isspace((unsigned char)*a))
		a++, alen--;
	while (alen && isspace((unsigned char)a[alen - 1]))
		alen--;
	if (!fields || alen <= 5 || strncmp(a, "REC->", 5) ||
	    strspn(a + 5, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    alen - 5)
		return 0;
	semi = kt_fmt__field(fields, a + 5, alen - 5, &array);
	if (!semi || array)
		return 0;
	/* "\tsize:N;\tsigned:S;" on the field's own line */
	nl = strchr(semi, '\n');
	sz = strstr(semi, "size:");
	sg = strstr(semi, "signed:");
	if (!sz || !sg || (nl && sg > nl))
		return 0;
	size = (unsigned int)strtoul(sz + 5, NULL, 10);
	return sg[7] == '1' && (size == 1 || size == 2 || size == 4) ? size : 0;
}

/*
 * The argument that the conversion at @p takes (its '*' ones before it,
 * from *@arg on): a kernel number's are noted in @wrap, @code, @star, and
 * where its conversion starts in @at. Returns false when the arguments run
 * out before it.
 */
static bool note_number(const char *p, int *arg, int nargs, int *wrap, uint64_t *code,
			int (*star)[2], const char **at, const char *const *astart,
			const size_t *alen, const char *fields)
{
	struct kt_kspec sp;
	unsigned int sext = 0;
	int v;

	if (!kt_kprintf__parse(p, &sp, 8))
		return true;
	v = *arg + sp.width_arg + sp.precision_arg;
	if (v < nargs && sp.conv != 'c' && sp.conv != 's') {
		sext = signed_field_size(fields, astart[v], alen[v]);
		if (sext >= (sp.size ? sp.size : 8u))
			sext = 0;
	}
	if (!sext && !kt_kprintf__differs(&sp))
		return true;
	if (v >= nargs)
		return false;
	sp.sext = (uint8_t)sext;
	wrap[v] = PK_NUM;
	at[v] = p;
	code[v] = kt_kprintf__pack(&sp);
	star[v][0] = sp.width_arg ? *arg : -1;
	star[v][1] = sp.precision_arg ? *arg + sp.width_arg : -1;
	if (sp.width_arg)
		wrap[*arg] = PK_STAR;
	if (sp.precision_arg)
		wrap[*arg + sp.width_arg] = PK_STAR;
	return true;
}

/* argument @i in parentheses */
static void put_arg(struct kt_sb *out, const char *const *astart, const size_t *alen, int i)
{
	kt_sb__str(out, "(");
	kt_sb__add(out, astart[i], alen[i]);
	kt_sb__str(out, ")");
}

/*
 * __kt_num(value, conversion, width, precision): what render.c's
 * print_num() reads. Each argument that is an expression goes in
 * parentheses: libtraceevent 1.7.1 fails a function's argument that is an
 * operation followed by a comma ("REC->pfn_val & 3, ..."; dax's formats).
 */
static void put_number_call(struct kt_sb *out, const char *const *astart, const size_t *alen,
			    int i, uint64_t code, const int star[2])
{
	char num[32];
	int k;

	kt_sb__str(out, "__kt_num(");
	put_arg(out, astart, alen, i);
	snprintf(num, sizeof(num), ", %llu", (unsigned long long)code);
	kt_sb__str(out, num);
	for (k = 0; k < 2; k++) {
		kt_sb__str(out, ", ");
		if (star[k] >= 0)
			put_arg(out, astart, alen, star[k]);
		else
			kt_sb__str(out, "0");
	}
	kt_sb__str(out, ")");
}

/* a width or a precision at @p: '*' (one argument more) or digits */
static const char *skip_count(const char *p, int *arg)
{
	if (*p == '*') {
		(*arg)++;
		return p + 1;
	}
	while (isdigit((unsigned char)*p))
		p++;
	return p;
}

/*
 * 3. Cpumasks. The kernel prints __get_cpumask() as it prints
 *    __get_bitmask(), through trace_print_bitmask_seq(): "%*pb", 32-bit
 *    hex groups ("00000000,0000000c"), or with 7.x's option bitmask-list
 *    "%*pbl" (both, output.c counts those). libtraceevent (1.7.1 and
 *    later) prints a cpumask as a list ("2-3") and a bitmask as the
 *    kernel's hex: each __get_cpumask() becomes __get_bitmask().
 */
static char *cpumask_as_bitmask(const char *print_fmt)
{
	static const char *const from[] = { "__get_cpumask(", "__get_rel_cpumask(" };
	static const char *const to[] = { "__get_bitmask(", "__get_rel_bitmask(" };
	struct kt_sb out = { 0 };
	const char *p = print_fmt;

	for (;;) {
		const char *best = NULL;
		int k, w = 0;

		for (k = 0; k < 2; k++) {
			const char *q = strstr(p, from[k]);

			if (q && (!best || q < best)) {
				best = q;
				w = k;
			}
		}
		if (!best)
			break;
		kt_sb__add(&out, p, (size_t)(best - p));
		kt_sb__str(&out, to[w]);
		p = best + strlen(from[w]);
	}
	kt_sb__str(&out, p);
	if (out.oom) {
		free(out.p);
		return NULL;
	}
	return out.p;
}

char *kt_fmt__for_tep(const char *print_fmt, const char *fields)
{
	const char *astart[MAX_ARGS], *at[MAX_ARGS] = { 0 };
	size_t alen[MAX_ARGS], n;
	int wrap[MAX_ARGS] = { 0 }, star[MAX_ARGS][2];
	uint64_t code[MAX_ARGS];
	struct kt_sb out = { 0 };
	const char *end, *p;
	int nargs, arg = 0, i, kind;
	bool any = false, nums = true;

	if (*print_fmt != '"')
		return strdup(print_fmt);
	if (strstr(print_fmt, "cpumask(")) {
		char *bm = cpumask_as_bitmask(print_fmt), *r;

		if (bm && strcmp(bm, print_fmt)) {
			r = kt_fmt__for_tep(bm, fields);
			free(bm);
			return r;
		}
		free(bm);
	}
	end = kt_fmt__skip_quoted(print_fmt);
	{
		char *folded = fold_constants(end), *whole;
		size_t head = (size_t)(end - print_fmt);

		if (folded && strcmp(folded, end)) {
			whole = malloc(head + strlen(folded) + 1);
			if (whole) {
				memcpy(whole, print_fmt, head);
				strcpy(whole + head, folded);
				free(folded);
				folded = kt_fmt__for_tep(whole, fields);
				free(whole);
				return folded;
			}
		}
		free(folded);
	}
	nargs = split_args(end, astart, alen, MAX_ARGS);
	/* walk the conversions of the format, counting arguments */
	for (p = print_fmt + 1; p < end - 1; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		/* libtraceevent fails an event whose arguments run out: no rewrite */
		nums = nums && note_number(p, &arg, nargs, wrap, code, star, at, astart, alen,
					   fields);
		p++;
		while (strchr("-+ #0", *p))
			p++;
		p = skip_count(p, &arg);
		if (*p == '.')
			p = skip_count(p + 1, &arg);
		while (strchr("hlLqjzt", *p) && *p)
			p++;
		kind = pointer_kind(p, &n);
		if (kind != PK_NONE && arg < nargs) {
			wrap[arg] = kind;
			any = true;
		}
		arg++;
	}
	for (i = 0; i < nargs; i++) {
		if (wrap[i] == PK_NUM || wrap[i] == PK_STAR) {
			if (!nums)
				wrap[i] = PK_NONE;
			any |= nums;
		}
	}
	if (!any)
		return strdup(print_fmt);
	/*
	 * rewrite: each such %p.. -> %s, its argument -> __kt_ptr()/__kt_sym();
	 * each kernel number -> %s, its argument(s) -> __kt_num()
	 */
	for (p = print_fmt; p < end; p++) {
		kt_sb__add(&out, p, 1);
		if (*p == '\\' && p[1] && p + 1 < end) {
			kt_sb__add(&out, ++p, 1);
			continue;
		}
		if (*p == '%' && p + 1 < end && p[1] == '%') {
			kt_sb__add(&out, ++p, 1);
			continue;
		}
		if (*p == '%') {
			struct kt_kspec sp;
			const char *q = p + 1;
			int klen = nums ? kernel_number(p, at, nargs, &sp) : 0;

			if (klen) {
				kt_sb__str(&out, "s");
				p += klen - 1;
				continue;
			}
			while (q < end && strchr("-+ #0123456789.*hlLqjzt", *q) && *q)
				q++;
			if (pointer_kind(q, &n) != PK_NONE) {
				kt_sb__add(&out, p + 1, q - p - 1);
				kt_sb__str(&out, "s");
				p = q + n - 1;
			}
		}
	}
	for (i = 0; i < nargs; i++) {
		char mode[8];

		if (wrap[i] == PK_STAR)
			continue;	/* inside its number's __kt_num() */
		kt_sb__str(&out, ", ");
		switch (wrap[i]) {
		case PK_PTR:
			kt_sb__str(&out, "__kt_ptr(");
			kt_sb__add(&out, astart[i], alen[i]);
			kt_sb__str(&out, ")");
			break;
		case PK_SYM:
		case PK_SYM_OFF:
		case PK_SYM_BT:
			kt_sb__str(&out, "__kt_sym(");
			kt_sb__add(&out, astart[i], alen[i]);
			snprintf(mode, sizeof(mode), ", %d)", wrap[i] - PK_SYM);
			kt_sb__str(&out, mode);
			break;
		case PK_NUM:
			put_number_call(&out, astart, alen, i, code[i], star[i]);
			break;
		default:
			kt_sb__add(&out, astart[i], alen[i]);
		}
	}
	if (out.oom) {
		free(out.p);
		return NULL;
	}
	return out.p;
}
