// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Print formats printed without libtraceevent: most of a tracepoint-heavy
 * trace is events whose print format is text and plain conversions of
 * fixed fields ("NR %ld = %ld", REC->id, REC->ret; "comm=%s pid=%d ...",
 * REC->comm, REC->pid), and libtraceevent prints each conversion with a
 * vsnprintf() of its own: most of the text's time. Such a format is
 * compiled once into a short program of copies and conversions.
 *
 * A program prints what libtraceevent's pretty_print() prints (1.7, the
 * print cache): it reads a field with tep_read_number(), applies the casts
 * of the format's arguments as eval_type() does, casts the value by the
 * conversion's length modifiers as print_arg_number() does and converts it
 * by the kernel's vsnprintf() rules (kprintf.c; where those are not
 * printf's, kt_fmt__for_tep() gave libtraceevent a __kt_num() that prints
 * the same); __print_symbolic() of such a value prints its
 * name as print_str_arg() does, and %p and %ps (ktrace's __kt_ptr() and
 * __kt_sym()) print what those print, and __get_str() what
 * print_str_arg() prints. Whatever is outside that (another helper such
 * as __print_flags(), a precision of %s, '*', %c, a dynamic field but as
 * a string, an operator other than an array index, a handler or a failed
 * parse) leaves the event to libtraceevent. KTRACE_NO_FASTFMT=1 turns the
 * programs off (tests/t-fastfmt.sh compares both ways on every fixture).
 *
 * A record's fields are in the crashed kernel's byte order, which is the
 * handle's file endianness (tep_setup() sets it from kt_layout.be): a
 * program reads every number, array element and __data_loc word in it, as
 * tep_read_number() does (s390x's records are big-endian).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "render.h"
#include "../put.h"
#include "../kprintf.h"

enum ff_kind { FF_TEXT, FF_NUM, FF_STR, FF_SYM, FF_PTR, FF_KSYM, FF_DSTR };

/* a value of __print_symbolic() and its name (in kt_fastfmt.text) */
struct ff_sym {
	int64_t value;
	uint32_t text, len;
};

struct ff_op {
	enum ff_kind kind;
	struct kt_kspec spec;	/* FF_NUM: the conversion */
	bool left;		/* the '-' flag of %s */
	int width;		/* and its width */
	uint32_t off, size;	/* the bytes read (a number) or the char array */
	uint64_t mask;		/* the casts of the argument */
	uint32_t text, len;	/* FF_TEXT: in kt_fastfmt.text; FF_SYM: in .sym */
	int symkind;		/* FF_KSYM: 0 %ps, 1 %pS, 2 %pB */
	bool relative;		/* FF_DSTR: a __rel_loc field */
};

struct kt_fastfmt {
	int nr;
	bool be;		/* the kernel's records are big-endian */
	size_t max;		/* the longest line a record can print */
	struct ff_op *op;
	char *text;
	struct ff_sym *sym;
};

void kt_fastfmt__free(struct kt_fastfmt *f)
{
	if (!f)
		return;
	free(f->op);
	free(f->text);
	free(f->sym);
	free(f);
}

/* eval_type_str() of a value, not a pointer: a mask, or all of it */
static uint64_t cast_mask(const char *type)
{
	size_t len = strlen(type);

	if (len < 2 || type[len - 1] == '*' || !strncmp(type, "struct", 6))
		return ~0ull;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return 0xffffffff;
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	if (!strcmp(type, "char"))
		return 0xff;
	if (!strcmp(type, "short"))
		return 0xffff;
	if (!strcmp(type, "int"))
		return 0xffffffff;
	return ~0ull;
}

static bool number_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* the argument of a number: a fixed field, REC->array[N], under casts */
static bool number_arg(struct tep_event *ev, struct tep_print_arg *a, struct ff_op *op)
{
	struct tep_format_field *f;

	op->mask = ~0ull;
	for (; a && a->type == TEP_PRINT_TYPE; a = a->typecast.item)
		op->mask &= cast_mask(a->typecast.type);
	if (!a)
		return false;
	if (a->type == TEP_PRINT_FIELD) {
		f = tep_find_any_field(ev, a->field.name);
		if (!f || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) ||
		    f->offset < 0 || !number_size(f->size))
			return false;
		op->off = (uint32_t)f->offset;
		op->size = (uint32_t)f->size;
		return true;
	}
	if (a->type == TEP_PRINT_OP && !strcmp(a->op.op, "[")) {
		struct tep_print_arg *l = a->op.left, *r = a->op.right;
		unsigned long long i;
		char *end;

		if (!l || !r || l->type != TEP_PRINT_FIELD || r->type != TEP_PRINT_ATOM ||
		    !isdigit((unsigned char)r->atom.atom[0]))
			return false;
		f = tep_find_any_field(ev, l->field.name);
		if (!f || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) ||
		    f->offset < 0 || f->size < 0 || !number_size(f->elementsize))
			return false;
		i = strtoull(r->atom.atom, &end, 0);
		if (*end || i >= (unsigned long long)f->size / (unsigned)f->elementsize)
			return false;
		op->off = (uint32_t)(f->offset + i * (unsigned)f->elementsize);
		op->size = (uint32_t)f->elementsize;
		return true;
	}
	return false;
}

/*
 * The arguments of %s: each helper checks @a, fills @op (its kind too)
 * and adds what it may print to *@max.
 */

/* a fixed char array */
static bool string_arg(struct tep_event *ev, struct tep_print_arg *a, struct ff_op *op,
		       size_t *max)
{
	struct tep_format_field *f;

	if (a->type != TEP_PRINT_FIELD)
		return false;
	f = tep_find_any_field(ev, a->field.name);
	if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) ||
	    (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)) || f->offset < 0 ||
	    f->size <= 0 || f->size > 4096)
		return false;
	op->off = (uint32_t)f->offset;
	op->size = (uint32_t)f->size;
	op->kind = FF_STR;
	*max += (size_t)op->width + op->size;
	return true;
}

struct builder {
	struct kt_fastfmt *f;
	size_t cap, tcap, tlen, nsym;
};

static struct ff_op *add_op(struct builder *b)
{
	struct kt_fastfmt *f = b->f;

	if (f->nr == (int)b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 8;
		struct ff_op *n = realloc(f->op, cap * sizeof(*n));

		if (!n)
			return NULL;
		f->op = n;
		b->cap = cap;
	}
	memset(&f->op[f->nr], 0, sizeof(f->op[0]));
	return &f->op[f->nr++];
}

static bool add_char(struct builder *b, char c)
{
	if (b->tlen == b->tcap) {
		size_t cap = b->tcap ? 2 * b->tcap : 64;
		char *n = realloc(b->f->text, cap);

		if (!n)
			return false;
		b->f->text = n;
		b->tcap = cap;
	}
	b->f->text[b->tlen++] = c;
	return true;
}

static bool add_text(struct builder *b, const char *t, uint32_t *at, uint32_t *len)
{
	size_t n = strlen(t), i;

	*at = (uint32_t)b->tlen;
	*len = (uint32_t)n;
	for (i = 0; i < n; i++)
		if (!add_char(b, t[i]))
			return false;
	return true;
}

/*
 * __print_symbolic(field, { value, "name" }...) for %s: print_str_arg()
 * prints the name of the first value equal to the field (eval_flag() of a
 * number), else "0x%llx" of it. A value that is not a number (a name
 * libtraceevent looks up in a table of its own) is left to libtraceevent.
 */
static bool symbol_arg(struct builder *b, struct tep_event *ev, struct tep_print_arg *a,
		       struct ff_op *op)
{
	struct tep_print_flag_sym *fs;
	size_t max = 18, n = 0;

	if (!number_arg(ev, a->symbol.field, op))
		return false;
	op->text = (uint32_t)b->nsym;
	for (fs = a->symbol.symbols; fs; fs = fs->next) {
		struct ff_sym *ns, *y;

		if (!fs->value || !isdigit((unsigned char)fs->value[0]) || !fs->str)
			return false;
		ns = realloc(b->f->sym, (b->nsym + 1) * sizeof(*ns));
		if (!ns)
			return false;
		b->f->sym = ns;
		y = &ns[b->nsym++];
		y->value = (int64_t)strtoull(fs->value, NULL, 0);
		if (!add_text(b, fs->str, &y->text, &y->len))
			return false;
		if (y->len > max)
			max = y->len;
		n++;
	}
	op->len = (uint32_t)n;
	op->kind = FF_SYM;
	b->f->max += max + (size_t)op->width;
	return true;
}

/*
 * __get_str(field) for %s: the string a __data_loc (or __rel_loc) field
 * points to. Up to DSTR_MAX bytes are printed by the program; a longer
 * one, or one without its NUL in the record, is left to libtraceevent.
 */
#define DSTR_MAX 256

static bool dstring_arg(struct tep_event *ev, struct tep_print_arg *a, struct ff_op *op,
			size_t *max)
{
	struct tep_format_field *f = tep_find_any_field(ev, a->string.string);

	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || f->offset < 0 ||
	    (f->size != 4 && f->size != 2))
		return false;
	op->off = (uint32_t)f->offset;
	op->size = (uint32_t)f->size;
	op->relative = f->flags & TEP_FIELD_IS_RELATIVE;
	op->kind = FF_DSTR;
	*max += DSTR_MAX + (size_t)op->width;
	return true;
}

/* the bytes a symbol's text may take: KSYM_NAME_LEN, two offsets, a module */
#define KSYM_TEXT 640

/* the widest width or precision compiled, and what a number may then print */
#define FF_WIDTH_MAX 64
#define FF_NUM_MAX (FF_WIDTH_MAX + 26)

/*
 * An integer conversion @sp for @op (its argument read already): one
 * without '*' arguments and within FF_WIDTH_MAX. Its longest text: the
 * width, or the precision or 22 octal digits with a sign and "0x".
 */
static bool number_spec(const struct kt_kspec *sp, struct ff_op *op, size_t *max)
{
	int digits = sp->precision > 22 ? sp->precision : 22;

	if (sp->width_arg || sp->precision_arg || sp->width > FF_WIDTH_MAX ||
	    sp->precision > FF_WIDTH_MAX)
		return false;
	op->spec = *sp;
	op->kind = FF_NUM;
	*max += (size_t)(sp->width > digits + 3 ? sp->width : digits + 3);
	return true;
}

/* an atom of digits */
static bool digits_atom(const struct tep_print_arg *a, unsigned long long *v)
{
	char *end;

	if (!a || a->type != TEP_PRINT_ATOM || !isdigit((unsigned char)a->atom.atom[0]))
		return false;
	*v = strtoull(a->atom.atom, &end, 0);
	return !*end;
}

/*
 * ktrace's own print functions (render.c), which kt_fmt__for_tep() put
 * in place of %p and %ps and of the integer conversions glibc prints
 * otherwise than the kernel: __kt_ptr(value), __kt_sym(value, kind) and
 * __kt_num(value, conversion, width, precision). print_str_arg() lets a
 * function print into the line itself, without the conversion's width.
 * They are told apart by their count of arguments: libtraceevent keeps a
 * handler's name to itself, and they are the only functions ktrace
 * registers (tep_setup()).
 */
static bool func_arg(struct tep_event *ev, struct tep_print_arg *a, struct ff_op *op,
		     size_t *max)
{
	struct tep_print_arg *x;
	unsigned long long v, w, p;
	struct kt_kspec sp;
	int n = 0;

	for (x = a->func.args; x; x = x->next)
		n++;
	x = a->func.args;
	if (n < 1 || n == 3 || n > 4 || op->width || op->left || !number_arg(ev, x, op))
		return false;
	if (n == 1) {
		op->kind = FF_PTR;
		*max += 16;
		return true;
	}
	if (n == 4) {
		/* a '*' width or precision (not a constant) is left to libtraceevent */
		if (!digits_atom(x->next, &v) || !digits_atom(x->next->next, &w) ||
		    !digits_atom(x->next->next->next, &p))
			return false;
		kt_kprintf__unpack(v, &sp);
		return number_spec(&sp, op, max);
	}
	if (!digits_atom(x->next, &v) || v > 2)
		return false;
	op->symkind = (int)v;
	op->kind = FF_KSYM;
	*max += KSYM_TEXT;
	return true;
}

/*
 * parse_arg_string(): text up to a conversion, with the escapes \n \t \r
 * \\ (any other \c is c) and %% for %
 */
static const char *text_run(struct builder *b, const char *p)
{
	struct ff_op *op;
	size_t start = b->tlen;

	while (*p && !(*p == '%' && p[1] != '%')) {
		char c = *p;

		if (c == '\\') {
			p++;
			if (!*p)
				return NULL;	/* a trailing backslash: left to libtraceevent */
			c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p;
		} else if (c == '%') {
			p++;	/* "%%" */
		}
		if (!add_char(b, c))
			return NULL;
		p++;
	}
	if (b->tlen == start)
		return p;
	op = add_op(b);
	if (!op)
		return NULL;
	op->kind = FF_TEXT;
	op->text = (uint32_t)start;
	op->len = (uint32_t)(b->tlen - start);
	b->f->max += op->len;
	return p;
}

/* one conversion at @p ('%'), with its argument @a; NULL: not compiled */
static const char *conversion(struct builder *b, struct tep_event *ev, const char *p,
			      struct tep_print_arg *a)
{
	struct ff_op *op = add_op(b);
	struct kt_kspec sp;
	int len;

	if (!op)
		return NULL;
	/* the kernel's conversion (a long of 8 bytes, as tep_setup() says) */
	len = kt_kprintf__parse(p, &sp, 8);
	if (!len || sp.width > FF_WIDTH_MAX)
		return NULL;
	op->width = sp.width < 0 ? 0 : sp.width;
	op->left = sp.flags & KT_KP_LEFT;
	switch (sp.conv) {
	case 's':
		/* a qualifier, a precision (even "%.s"), a flag but '-': libtraceevent's */
		if (sp.size != 4 || sp.width_arg || memchr(p, '.', (size_t)len) ||
		    (sp.flags & ~KT_KP_LEFT) ||
		    !(a->type == TEP_PRINT_SYMBOL ? symbol_arg(b, ev, a, op) :
		      a->type == TEP_PRINT_FUNC ? func_arg(ev, a, op, &b->f->max) :
		      a->type == TEP_PRINT_STRING ? dstring_arg(ev, a, op, &b->f->max) :
		      string_arg(ev, a, op, &b->f->max)))
			return NULL;
		break;
	case 'c':
		return NULL;
	default:
		if (!number_arg(ev, a, op) || !number_spec(&sp, op, &b->f->max))
			return NULL;
	}
	return p + len;
}

struct kt_fastfmt *kt_fastfmt__compile(struct tep_event *ev)
{
	struct builder b = { 0 };
	struct tep_print_arg *a;
	const char *p;

	if (!ev || !ev->print_fmt.format || !ev->print_fmt.print_cache || ev->handler ||
	    (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW)) ||
	    tep_get_long_size(ev->tep) != 8)
		return NULL;
	b.f = calloc(1, sizeof(*b.f));
	if (!b.f)
		return NULL;
	b.f->be = tep_is_file_bigendian(ev->tep);
	a = ev->print_fmt.args;
	for (p = ev->print_fmt.format; p && *p;) {
		if (*p == '%' && p[1] != '%') {
			/* libtraceevent fails an event whose arguments run out */
			p = a ? conversion(&b, ev, p, a) : NULL;
			if (!p)
				break;
			a = a->next;
		} else {
			p = text_run(&b, p);
		}
	}
	if (!p || b.f->max > 4096) {
		kt_fastfmt__free(b.f);
		return NULL;
	}
	return b.f;
}

/* tep_read_number(): a field of 1, 2, 4 or 8 bytes in the kernel's byte order */
static uint64_t read_number(const struct kt_fastfmt *f, const uint8_t *d, uint32_t size)
{
	return kt_getn(f->be, d, size);
}

/* "%*s" or "%-*s" of @n bytes */
static char *put_str(char *p, const struct ff_op *op, const char *str, size_t n)
{
	int pad = op->width - (int)n;

	if (!op->left)
		for (; pad > 0; pad--)
			*p++ = ' ';
	memcpy(p, str, n);
	p += n;
	for (; pad > 0; pad--)
		*p++ = ' ';
	return p;
}

int kt_fastfmt__print(const struct kt_render *rc, const struct kt_fastfmt *f,
		      struct trace_seq *q, const void *data, uint32_t size)
{
	char stack[4096 + 1], *buf = f->max < sizeof(stack) ? stack : malloc(f->max + 1), *p = buf;
	const uint8_t *d = data;
	int i;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < f->nr; i++) {
		const struct ff_op *op = &f->op[i];
		size_t n;

		switch (op->kind) {
		case FF_TEXT:
			memcpy(p, f->text + op->text, op->len);
			p += op->len;
			break;
		case FF_NUM:
			if (op->off + op->size > size)
				goto out_fail;
			p += kt_kprintf(p, FF_NUM_MAX, &op->spec,
					read_number(f, d + op->off, op->size) & op->mask, NULL);
			break;
		case FF_STR:
			if (op->off + op->size > size)
				goto out_fail;
			n = strnlen((const char *)d + op->off, op->size);
			p = put_str(p, op, (const char *)d + op->off, n);
			break;
		case FF_PTR:
			if (op->off + op->size > size)
				goto out_fail;
			p += kt_render__ptr_text(rc,
						 read_number(f, d + op->off, op->size) & op->mask,
						 p);
			break;
		case FF_KSYM: {
			size_t k;

			if (op->off + op->size > size)
				goto out_fail;
			k = kt_render__sym_text(rc,
						read_number(f, d + op->off, op->size) & op->mask,
						op->symkind, p, KSYM_TEXT);
			if (!k)
				goto out_fail;
			p += k;
			break;
		}
		case FF_DSTR: {
			/* dynamic_offset_field(), then print_str_arg()'s TEP_PRINT_STRING */
			uint32_t loc, o, l;
			const char *str, *nul;

			if (op->off + op->size > size)
				break;	/* offset and length 0: nothing */
			loc = (uint32_t)read_number(f, d + op->off, op->size);
			o = loc & 0xffff;
			l = op->size == 2 ? size - o : (loc >> 16) & 0xffff;
			if (o + l > size)
				l = 0;
			if (o > size)
				o = 0;
			if (op->relative)
				o += op->off + op->size;
			if (!l)
				break;	/* "do not attempt to save zero length dynamic strings" */
			if (o >= size)
				goto out_fail;
			str = (const char *)d + o;
			nul = memchr(str, 0, size - o);
			if (!nul || nul - str > DSTR_MAX)
				goto out_fail;
			p = put_str(p, op, str, (size_t)(nul - str));
			break;
		}
		case FF_SYM: {
			const struct ff_sym *y = f->sym + op->text, *end = y + op->len;
			int64_t v;

			if (op->off + op->size > size)
				goto out_fail;
			v = (int64_t)(read_number(f, d + op->off, op->size) & op->mask);
			for (; y < end && y->value != v; y++)
				;
			if (y < end) {
				p = put_str(p, op, f->text + y->text, y->len);
			} else {
				/* "0x%llx", the conversion's width not applied */
				*p++ = '0';
				*p++ = 'x';
				p = kt_put_hex(p, (uint64_t)v);
			}
			break;
		}
		}
	}
	*p = 0;
	kt_seq_put(q, buf, (size_t)(p - buf));
	if (buf != stack)
		free(buf);
	return 0;
out_fail:
	if (buf != stack)
		free(buf);
	return -ERANGE;
}
