// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace_printk() formats (kernel/trace/trace_printk.c): a bprint record
 * carries only the address of its format. The built-in ones are the
 * pointers between __start___trace_bprintk_fmt and __stop___..., plus the
 * tracepoint strings between __start___tracepoint_str and __stop___...;
 * formats of modules are on trace_bprintk_fmt_list.
 *
 * libtraceevent prints a bprint record's arguments with glibc's printf.
 * A format with a conversion glibc prints otherwise than the kernel
 * ("%#x", "%.0d": kt_kprintf__differs()) is printed here instead, as
 * bstr_printf() prints it: its format cannot be rewritten for
 * libtraceevent as a tracepoint's is (fmt-tep.c), since libtraceevent reads
 * the binary arguments by the conversions of the format itself.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"
#include "render.h"
#include "../kprintf.h"

#define KT_MAX_PRINTK	65536

void kt_trace_printk__free(struct kt_session *s)
{
	int i;

	for (i = 0; i < s->nr_printk; i++)
		free(s->printk_fmts[i]);
	free(s->printk_fmts);
	free(s->printk_addrs);
	s->printk_fmts = NULL;
	s->printk_addrs = NULL;
	s->nr_printk = 0;
}

static int add_fmt(struct kt_session *s, uint64_t addr)
{
	char *fmt;
	char **nf;
	uint64_t *na;

	if (!addr || s->nr_printk >= KT_MAX_PRINTK)
		return 0;
	if (kt_read_string(s, addr, KT_MAX_STR, &fmt))
		return 0;
	nf = realloc(s->printk_fmts, (s->nr_printk + 1) * sizeof(*nf));
	if (!nf) {
		free(fmt);
		return -ENOMEM;
	}
	s->printk_fmts = nf;
	na = realloc(s->printk_addrs, (s->nr_printk + 1) * sizeof(*na));
	if (!na) {
		free(fmt);
		return -ENOMEM;
	}
	s->printk_addrs = na;
	s->printk_fmts[s->nr_printk] = fmt;
	s->printk_addrs[s->nr_printk++] = addr;
	return 0;
}

static void load_section(struct kt_session *s, const char *start, const char *stop)
{
	uint64_t a, b, p;

	if (kt_symbol(s, start, &a) || kt_symbol(s, stop, &b) || b < a ||
	    (b - a) / 8 > KT_MAX_PRINTK)
		return;
	for (; a < b; a += 8) {
		if (kt_read_u64(s, a, &p) || add_fmt(s, p))
			return;
	}
}

static void load_printk(struct kt_session *s)
{
	uint64_t head, pos, fmt;
	/* struct trace_bprintk_fmt { struct list_head list; const char *fmt; } */
	uint64_t off = s->l.bpf_fmt.present ? s->l.bpf_fmt.off : 16;
	struct kt_seen seen = { 0 };
	int n = 0;

	s->printk_tried = true;
	load_section(s, "__start___trace_bprintk_fmt", "__stop___trace_bprintk_fmt");
	load_section(s, "__start___tracepoint_str", "__stop___tracepoint_str");
	if (kt_symbol(s, "trace_bprintk_fmt_list", &head) ||
	    kt_read_u64(s, head + s->l.lh_next.off, &pos))
		return;
	/* bounded, and a node met twice means the list loops */
	while (pos != head && ++n < KT_MAX_PRINTK && !kt_seen__add(&seen, pos)) {
		if (kt_read_u64(s, pos + off, &fmt) || add_fmt(s, fmt) ||
		    kt_read_u64(s, pos + s->l.lh_next.off, &pos))
			break;
	}
	kt_seen__free(&seen);
}

int kt_session__printk_fmt(struct kt_session *s, int idx, uint64_t *addr, const char **fmt)
{
	if (!s->printk_tried)
		load_printk(s);
	if (idx < 0 || idx >= s->nr_printk)
		return 0;
	*addr = s->printk_addrs[idx];
	*fmt = s->printk_fmts[idx];
	return 1;
}

/* the arguments vbin_printf() packed, read as bstr_printf() reads them */
struct bstr {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

/*
 * get_arg(): an 8-byte value aligned to 4, a smaller one to its size
 * (a char to 1, a short to 2); little-endian, as the renderer requires
 */
static uint64_t bstr_arg(struct bstr *a, unsigned int size)
{
	size_t align = size < 4 ? size : 4;
	uint64_t v = 0;
	unsigned int i;

	a->off = (a->off + align - 1) & ~(align - 1);
	if (a->off > a->len || a->len - a->off < size) {
		a->bad = true;
		return 0;
	}
	for (i = 0; i < size; i++)
		v |= (uint64_t)a->p[a->off + i] << (8 * i);
	a->off += size;
	return v;
}

/* a %s: the string itself, NUL-terminated, unaligned */
static const char *bstr_str(struct bstr *a)
{
	const char *s = (const char *)a->p + a->off;
	const uint8_t *nul = a->off < a->len ? memchr(s, 0, a->len - a->off) : NULL;

	if (!nul) {
		a->bad = true;
		return "";
	}
	a->off = (size_t)(nul - a->p) + 1;
	return s;
}

/*
 * The pointer conversions printed here: bare %p, %ps, %pS and %pSR,
 * whose value vbin_printf() saves as a pointer in every release (the
 * others are rendered at record time or named differently by release:
 * left to libtraceevent). The symbol kind of kt_render__sym_text(), -1
 * for the bare pointer; *@len the letters after 'p'. -2: not printed here.
 */
static int bstr_pointer(const char *q, const struct kt_kspec *sp, size_t *len)
{
	*len = 0;
	if (!((q[0] >= 'a' && q[0] <= 'z') || (q[0] >= 'A' && q[0] <= 'Z') ||
	      (q[0] >= '0' && q[0] <= '9')))
		return sp->flags || sp->width >= 0 || sp->precision >= 0 ? -2 : -1;
	*len = q[0] == 'S' && q[1] == 'R' ? 2 : 1;
	if ((q[0] != 's' && q[0] != 'S') || sp->width_arg || sp->precision_arg ||
	    (q[*len] >= 'a' && q[*len] <= 'z') || (q[*len] >= 'A' && q[*len] <= 'Z'))
		return -2;
	return q[0] == 'S';
}

/* one piece of the text, NUL-terminated for trace_seq_puts() */
static void bstr_put(struct trace_seq *t, const struct kt_kspec *sp, uint64_t v, const char *s)
{
	char small[128], *text = small;
	size_t n = kt_kprintf(small, sizeof(small) - 1, sp, v, s);

	if (n >= sizeof(small)) {
		text = malloc(n + 1);
		if (!text)
			return;
		kt_kprintf(text, n, sp, v, s);
	}
	text[n] = 0;
	/* a %c of 0 ends the text there, as it does the kernel's line */
	trace_seq_puts(t, text);
	if (text != small)
		free(text);
}

/*
 * @fmt with the arguments @buf (@len bytes) into @t, as bstr_printf()
 * does. -EOPNOTSUPP for a conversion not printed here, -EBADMSG when the
 * arguments end before the format does, -E2BIG when the text would not
 * fit in @limit bytes (the kernel's trace_seq: it printed none of it), the
 * moment that is known: a width taken from the record (%*d of 2^23) is
 * never written out
 */
static int bstr_print(const struct kt_render *rc, const char *fmt, const uint8_t *buf,
		      size_t len, struct trace_seq *t, int limit)
{
	struct bstr a = { buf, len, 0, false };
	const char *p = fmt;

	while (*p) {
		struct kt_kspec sp;
		const char *sym;
		char text[640];
		size_t n;
		int kind, l;

		if ((int)t->len >= limit)
			return -E2BIG;
		if (*p != '%' || p[1] == '%') {
			trace_seq_putc(t, *p);
			p += *p == '%' ? 2 : 1;
			continue;
		}
		l = kt_kprintf__parse(p, &sp, 8);
		if (!l) {
			/* "%p...": parsed as a string, the 's' being the 'p' */
			const char *q = p + 1;

			while (*q && strchr("-+ #0123456789.*", *q))
				q++;
			if (*q != 'p')
				return -EOPNOTSUPP;
			{
				char head[32];

				if ((size_t)(q - p) >= sizeof(head) - 1)
					return -EOPNOTSUPP;
				memcpy(head, p, (size_t)(q - p));
				head[q - p] = 's';
				head[q - p + 1] = 0;
				if (!kt_kprintf__parse(head, &sp, 8))
					return -EOPNOTSUPP;
			}
			kind = bstr_pointer(q + 1, &sp, &n);
			if (kind == -2)
				return -EOPNOTSUPP;
			if (kind == -1) {
				kt_render__ptr_text(rc, bstr_arg(&a, 8), text);
				trace_seq_puts(t, text);
			} else {
				uint64_t v = bstr_arg(&a, 8);

				sym = kt_render__sym_text(rc, v, kind, text, sizeof(text)) ? text : NULL;
				if (!sym)
					return -EOPNOTSUPP;
				bstr_put(t, &sp, 0, sym);
			}
			p = q + 1 + n;
			continue;
		}
		if (sp.width_arg)
			kt_kprintf__set_width(&sp, (int)(int32_t)bstr_arg(&a, 4));
		if (sp.precision_arg)
			kt_kprintf__set_precision(&sp, (int)(int32_t)bstr_arg(&a, 4));
		/* a number's precision pads it with zeros; a string's cuts it */
		if (sp.width >= limit || (sp.conv != 's' && sp.precision >= limit))
			return -E2BIG;
		if (sp.conv == 's')
			bstr_put(t, &sp, 0, bstr_str(&a));
		else
			bstr_put(t, &sp, bstr_arg(&a, sp.conv == 'c' ? 1 : sp.size), NULL);
		p += l;
	}
	if (a.bad)
		return -EBADMSG;
	return (int)t->len >= limit ? -E2BIG : 0;
}

/*
 * does glibc print a conversion of @fmt otherwise than the kernel, or
 * does a width or precision come from the record ('*': libtraceevent
 * would hand glibc whatever the record holds, 2^31 - 1 included)?
 */
static bool fmt_differs(const char *fmt)
{
	const char *p;

	for (p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
		struct kt_kspec sp;

		if (p[1] == '%') {
			p += 2;
			continue;
		}
		if (kt_kprintf__parse(p, &sp, 8) &&
		    (kt_kprintf__differs(&sp) || sp.width_arg || sp.precision_arg))
			return true;
		p++;
	}
	return false;
}

/* bprint record @r's format (its "fmt" address among the trace_printk() formats), or NULL */
static const char *record_fmt(struct kt_session *s, struct tep_event *ev,
			      const struct tep_record *r)
{
	const char *fmt = NULL, *f;
	uint64_t want, addr;
	bool ok = true;
	int i;

	want = kt_output__field(ev, "fmt", (struct tep_record *)r, &ok);
	if (!ok)
		return NULL;
	kt_lock(s);
	for (i = 0; !fmt && kt_session__printk_fmt(s, i, &addr, &f); i++)
		if (addr == want)
			fmt = f;
	kt_unlock(s);
	return fmt;
}

size_t kt_trace_printk__fmt_len(struct kt_render *rc, struct tep_event *ev,
				const struct tep_record *r)
{
	const char *fmt = record_fmt(rc->s, ev, r);

	return fmt ? strlen(fmt) : 0;
}

int kt_trace_printk__print(struct kt_render *rc, struct tep_event *ev, struct tep_record *r,
			   struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	struct tep_format_field *buf = tep_find_field(ev, "buf");
	const char *fmt;
	struct trace_seq t;
	int err;

	if (!buf || buf->offset < 0 || buf->offset > r->size ||
	    tep_is_file_bigendian(ev->tep) || tep_get_long_size(ev->tep) != 8)
		return -EOPNOTSUPP;
	fmt = record_fmt(s, ev, r);
	if (!fmt)
		return -EOPNOTSUPP;
	/*
	 * always read here first: where the record's arguments end before
	 * the format does (-EBADMSG), libtraceevent would read on past the
	 * record (found by fuzz-events: the bytes after it, a '*' width and
	 * a 64-bit value, printed differently with -J 1 and -J 2)
	 */
	trace_seq_init(&t);
	err = bstr_print(rc, fmt, (const uint8_t *)r->data + buf->offset,
			 (size_t)(r->size - buf->offset), &t,
			 (int)kt_guard__seq_size(s) - (int)q->len - 1);
	trace_seq_terminate(&t);
	if (!err && !fmt_differs(fmt))
		err = KT_PRINTK_CHECKED;	/* glibc prints it alike: libtraceevent's, as always */
	if (!err)
		kt_output__text(q, t.buffer, t.len);
	trace_seq_destroy(&t);
	return err;
}
