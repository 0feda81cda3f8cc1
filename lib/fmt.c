// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * print_fmt, made printable outside the kernel.
 *
 * 1. Enumerators. TP_printk() arguments like __print_symbolic(REC->mode,
 *    { HRTIMER_MODE_ABS, "ABS" }) reach the format file as names; the
 *    kernel's own output code was compiled with their values, and only
 *    TRACE_DEFINE_ENUM'd names are rewritten at boot (trace_event_eval_
 *    update()). We do for every name what that does for some: ask the
 *    debuginfo for the value and write it in.
 * 2. Bare %p. The kernel prints it through vsprintf: hashed with
 *    siphash and the boot's ptr_key (lib/vsprintf.c ptr_to_hashval()),
 *    or raw when the trace array's hash-ptr option is off (then
 *    trace_event_format() turns %p into %px). libtraceevent prints
 *    "0x...". For rendering, each bare %p becomes %s over a print
 *    function that prints what the kernel would.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "fmt.h"

void kt_sb__add(struct kt_sb *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *np = realloc(b->p, cap);

		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void sb_str(struct kt_sb *b, const char *s) { kt_sb__add(b, s, strlen(s)); }

/* end of the quoted format string starting at @p (at the opening quote) */
const char *kt_fmt__skip_quoted(const char *p)
{
	char q = *p++;

	while (*p && *p != q) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p ? p + 1 : p;
}

/*
 * Successes are cached by name (an enumerator has one value kernel-wide);
 * failures are not, since another event's unit may know the name.
 */
static int lookup_enum(struct kt_session *s, const char *name, uint64_t code, int64_t *value)
{
	struct kt_enum_cache *c = &s->enums;
	size_t i;
	int err;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->names[i], name)) {
			*value = c->values[i];
			return 0;
		}
	}
	if (s->t.enumerator_at && code)
		err = s->t.enumerator_at(s->t.priv, name, code, value);
	else if (s->t.enumerator && !s->t.enumerator_at)
		err = s->t.enumerator(s->t.priv, name, value);
	else
		err = -ENOENT;
	if (err)
		return err;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		char **nn = realloc(c->names, cap * sizeof(*nn));
		int64_t *nv;

		if (!nn)
			return 0;
		c->names = nn;
		nv = realloc(c->values, cap * sizeof(*nv));
		if (!nv)
			return 0;
		c->values = nv;
		c->cap = cap;
	}
	c->names[c->n] = strdup(name);
	if (c->names[c->n])
		c->values[c->n++] = *value;
	return 0;
}

void kt_fmt__free(struct kt_session *s)
{
	size_t i;

	for (i = 0; i < s->enums.n; i++)
		free(s->enums.names[i]);
	free(s->enums.names);
	free(s->enums.values);
	memset(&s->enums, 0, sizeof(s->enums));
}

/* an enumerator candidate: upper case, digits and '_', not a macro call */
static bool enum_candidate(const char *id, size_t n, const char *after)
{
	size_t i;
	bool upper = false;

	if (n < 2 || n > 127 || !strncmp(id, "REC", n))
		return false;
	for (i = 0; i < n; i++) {
		if (islower((unsigned char)id[i]))
			return false;
		upper |= isupper((unsigned char)id[i]);
	}
	while (*after == ' ')
		after++;
	return upper && *after != '(';
}

/* Replace enumerator names in the argument part @args with their values. */
static void resolve_args(struct kt_session *s, struct kt_sb *out, const char *args, uint64_t code)
{
	const char *p = args;

	while (*p) {
		if (*p == '"' || *p == '\'') {
			const char *e = kt_fmt__skip_quoted(p);

			kt_sb__add(out, p, e - p);
			p = e;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *e = p;
			char name[128];
			int64_t v;
			bool member = (p - args >= 2 && p[-1] == '>' && p[-2] == '-') ||
				      (p > args && p[-1] == '.');

			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			if (!member && enum_candidate(p, e - p, e)) {
				memcpy(name, p, e - p);
				name[e - p] = 0;
				if (!lookup_enum(s, name, code, &v)) {
					char num[32];

					snprintf(num, sizeof(num), v < 0 ? "(%lld)" : "%lld",
						 (long long)v);
					sb_str(out, num);
					p = e;
					continue;
				}
			}
			kt_sb__add(out, p, e - p);
			p = e;
		} else if (isdigit((unsigned char)*p)) {
			const char *e = p;

			while (isalnum((unsigned char)*e))
				e++;
			kt_sb__add(out, p, e - p);
			p = e;
		} else {
			kt_sb__add(out, p, 1);
			p++;
		}
	}
}

char *kt_fmt__resolve_enums(struct kt_session *s, const char *print_fmt, uint64_t code)
{
	struct kt_sb out = { 0 };
	const char *end;

	if (*print_fmt != '"')
		return strdup(print_fmt);
	end = kt_fmt__skip_quoted(print_fmt);
	kt_sb__add(&out, print_fmt, end - print_fmt);
	resolve_args(s, &out, end, code);
	if (out.oom) {
		free(out.p);
		return NULL;
	}
	return out.p ? out.p : strdup(print_fmt);
}

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
	int prec, len;

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
 * The pointer conversions rewritten for libtraceevent, by what follows
 * "%p": bare (vsprintf's hashed or raw pointer), s/f (symbol), S/F
 * (symbol+offset/size), B (backtrace: the symbol of address - 1).
 * Returns the kind and sets *@len to the letters after '%' it spans.
 */
enum { PK_NONE, PK_PTR, PK_SYM, PK_SYM_OFF, PK_SYM_BT };

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

char *kt_fmt__for_tep(const char *print_fmt)
{
	const char *astart[MAX_ARGS];
	size_t alen[MAX_ARGS], n;
	int wrap[MAX_ARGS] = { 0 };
	struct kt_sb out = { 0 };
	const char *end, *p;
	int nargs, arg = 0, i, kind;
	bool any = false;

	if (*print_fmt != '"')
		return strdup(print_fmt);
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
				folded = kt_fmt__for_tep(whole);
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
		p++;
		while (strchr("-+ #0", *p))
			p++;
		if (*p == '*') {
			arg++;
			p++;
		}
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				arg++;
				p++;
			}
			while (isdigit((unsigned char)*p))
				p++;
		}
		while (strchr("hlLqjzt", *p) && *p)
			p++;
		kind = pointer_kind(p, &n);
		if (kind != PK_NONE && arg < nargs) {
			wrap[arg] = kind;
			any = true;
		}
		arg++;
	}
	if (!any)
		return strdup(print_fmt);
	/* rewrite: each such %p.. -> %s, its argument -> __kt_ptr()/__kt_sym() */
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
			const char *q = p + 1;

			while (q < end && strchr("-+ #0123456789.*hlLqjzt", *q) && *q)
				q++;
			if (pointer_kind(q, &n) != PK_NONE) {
				kt_sb__add(&out, p + 1, q - p - 1);
				sb_str(&out, "s");
				p = q + n - 1;
			}
		}
	}
	for (i = 0; i < nargs; i++) {
		char mode[8];

		sb_str(&out, ", ");
		switch (wrap[i]) {
		case PK_PTR:
			sb_str(&out, "__kt_ptr(");
			kt_sb__add(&out, astart[i], alen[i]);
			sb_str(&out, ")");
			break;
		case PK_SYM:
		case PK_SYM_OFF:
		case PK_SYM_BT:
			sb_str(&out, "__kt_sym(");
			kt_sb__add(&out, astart[i], alen[i]);
			snprintf(mode, sizeof(mode), ", %d)", wrap[i] - PK_SYM);
			sb_str(&out, mode);
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

/* SipHash-2-4 of one 64-bit word (lib/siphash.c siphash_1u64) */
#define ROL64(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND							\
	do {								\
		v0 += v1; v1 = ROL64(v1, 13); v1 ^= v0; v0 = ROL64(v0, 32); \
		v2 += v3; v3 = ROL64(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = ROL64(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = ROL64(v1, 17); v1 ^= v2; v2 = ROL64(v2, 32); \
	} while (0)

uint64_t kt_siphash_1u64(uint64_t first, const uint64_t key[2])
{
	uint64_t v0 = 0x736f6d6570736575ULL ^ key[0];
	uint64_t v1 = 0x646f72616e646f6dULL ^ key[1];
	uint64_t v2 = 0x6c7967656e657261ULL ^ key[0];
	uint64_t v3 = 0x7465646279746573ULL ^ key[1];
	uint64_t b = 8ULL << 56;

	v3 ^= first;
	SIPROUND;
	SIPROUND;
	v0 ^= first;
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return (v0 ^ v1) ^ (v2 ^ v3);
}
