// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Decoding a krec record by its event's format, as the module's
 * krec_render() does (kmod/ktrace-recorder/krec_fmt.c): the same
 * conversions, the same flags and widths, printed by the kernel's
 * vsnprintf() rules (kprintf.c: the module's scnprintf() prints "%#06x"
 * of 0 as "0x0000"), so the text is the same. A record from a dump is
 * hostile: every offset is checked against it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../internal.h"
#include "../kprintf.h"
#include "krec.h"

struct spec {
	const char *start;	/* '%' */
	int head;		/* '%', flags, width, precision */
	char len[3];
	char conv;
	uint8_t size;
};

/* at most 3 digits of width and of precision: a hostile "%999999999d" is refused */
#define MAX_DIGITS	3

static const char *digits(const char *p, bool *bad)
{
	const char *q = p;

	while (*q >= '0' && *q <= '9')
		q++;
	if (q - p > MAX_DIGITS)
		*bad = true;
	return q;
}

static const char *skip_head(const char *p, bool *bad)
{
	while (*p && strchr("-+ #0", *p))
		p++;
	p = digits(p, bad);
	if (*p == '.')
		p = digits(p + 1, bad);
	return p;
}

/* 1 and the next conversion, 0 at the end, -EBADMSG on one krec refuses */
static int next_spec(const char **fmt, struct spec *sp)
{
	const char *p = *fmt, *q;
	bool bad = false;
	int n = 0;

	for (;;) {
		p = strchr(p, '%');
		if (!p) {
			*fmt += strlen(*fmt);
			return 0;
		}
		if (p[1] != '%')
			break;
		p += 2;
	}
	sp->start = p;
	q = skip_head(p + 1, &bad);
	if (bad || q - p > 16)
		return -EBADMSG;
	sp->head = (int)(q - p);
	while (n < 2 && (*q == 'h' || *q == 'l' || *q == 'z') &&
	       (!n || *q == sp->len[0]) && !(n && *q == 'z'))
		sp->len[n++] = *q++;
	sp->len[n] = 0;
	sp->conv = *q;
	if (!*q || !strchr("diuxXcs", *q) || (*q == 's' && n))
		return -EBADMSG;
	if (*q == 's' || *q == 'c')
		sp->size = 4;
	else
		sp->size = sp->len[0] == 'l' || sp->len[0] == 'z' ? 8 : 4;
	*fmt = q + 1;
	return 1;
}

int kt_krec__parse(struct kt_krec_event *e, const struct kt_krec_hdr *h)
{
	const char *f = e->format;
	struct spec sp;
	uint32_t off = h->len;
	int ret, nr_str = 0;

	e->nr_args = 0;
	e->bad_format = true;
	if (!f)
		return -EBADMSG;
	while ((ret = next_spec(&f, &sp)) > 0) {
		if (e->nr_args == KT_KREC_MAX_ARGS)
			return -EBADMSG;
		e->arg_size[e->nr_args++] = sp.size;
		if (sp.conv == 's') {
			if (nr_str >= e->nr_str || e->str_off[nr_str] != off)
				return -EBADMSG;
			nr_str++;
		}
		off += sp.size;
	}
	if (ret < 0 || nr_str != e->nr_str || off != e->size)
		return -EBADMSG;
	e->bad_format = false;
	return 0;
}

/*
 * The conversion @spec of @v (or string @str) at @w, as the module's
 * scnprintf() prints it: cut at the end of @out, NUL-terminated
 */
static size_t conv(char *out, size_t n, size_t w, const char *spec, uint64_t v, const char *str)
{
	struct kt_kspec ks;
	size_t len, room = n - w - 1;

	/* a long of 8 bytes: the module passes 8-byte values as "ll" anyway */
	if (!kt_kprintf__parse(spec, &ks, 8))
		return w;
	len = kt_kprintf(out + w, room, &ks, v, str);
	w += len < room ? len : room;
	out[w] = 0;
	return w;
}

/* the literal text of @from..@to, "%%" as '%' */
static size_t literal(char *out, size_t n, size_t w, const char *from, const char *to)
{
	for (; from < to && *from && w + 1 < n; from++) {
		out[w++] = *from;
		if (from[0] == '%' && from[1] == '%')
			from++;
	}
	out[w] = 0;
	return w;
}

int kt_krec__render(const struct kt_krec_event *e, const struct kt_krec_hdr *h,
		    const uint8_t *rec, uint32_t len, char *out, size_t n)
{
	const char *f = e->format, *lit = f;
	struct spec sp;
	uint32_t off = h->len;
	size_t w = 0;
	char spec[32];
	int ret;

	if (!n)
		return -EINVAL;
	out[0] = 0;
	if (e->bad_format || len < e->size)
		goto bad;
	while ((ret = next_spec(&f, &sp)) > 0) {
		w = literal(out, n, w, lit, sp.start);
		lit = f;
		snprintf(spec, sizeof(spec), "%.*s%s%c", sp.head, sp.start,
			 sp.size == 8 ? "ll" : sp.len, sp.conv);
		if (off + sp.size > len)
			goto bad;
		if (sp.conv == 's') {
			uint32_t loc = kt_get32(h->be, rec + off), so = loc & 0xffff,
				 sl = loc >> 16;

			if (!sl || so < e->size || so + sl > len || rec[so + sl - 1])
				goto bad;
			w = conv(out, n, w, spec, 0, (const char *)rec + so);
		} else {
			w = conv(out, n, w, spec,
				 sp.size == 8 ? kt_get64(h->be, rec + off) :
						kt_get32(h->be, rec + off), NULL);
		}
		off += sp.size;
	}
	if (ret < 0)
		goto bad;
	literal(out, n, w, lit, lit + strlen(lit));
	return 0;
bad:
	snprintf(out, n, "(bad record)");
	return -EBADMSG;
}

uint16_t kt_krec__u16(const struct kt_krec_hdr *h, const uint8_t *rec, uint32_t size,
		      uint32_t off)
{
	return off + 2 <= size ? kt_get16(h->be, rec + off) : 0;
}

const struct kt_krec_event *kt_krec__find(const struct kt_krec_event *ev, int nr, uint32_t id)
{
	int lo = 0, hi = nr - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (ev[mid].id == id)
			return &ev[mid];
		if (ev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

const struct kt_krec_event *kt_krec__record_event(const struct kt_krec_event *ev, int nr,
						  const struct kt_krec_hdr *h, const uint8_t *rec,
						  uint32_t size, uint32_t *len)
{
	uint32_t own = kt_krec__u16(h, rec, size, h->size_off);

	/* the ring rounds a record up to 4 bytes; its own size says what is data */
	*len = own && own <= size ? own : size;
	if (size < h->len)
		return NULL;
	return kt_krec__find(ev, nr, kt_krec__u16(h, rec, size, h->id_off));
}

int kt_krec__text(const struct kt_krec_event *ev, int nr, const struct kt_krec_hdr *h,
		  const uint8_t *rec, uint32_t size, char *out, size_t n, struct kt_loss *loss)
{
	const struct kt_krec_event *e;
	char text[1024];
	uint32_t len;
	int err;

	e = kt_krec__record_event(ev, nr, h, rec, size, &len);
	if (!e) {
		snprintf(out, n, "<id %u>: (no such event)",
			 size >= h->len ? kt_krec__u16(h, rec, size, h->id_off) : 0);
		loss->events_unknown++;
		return -ENOENT;
	}
	err = kt_krec__render(e, h, rec, len, text, sizeof(text));
	snprintf(out, n, "%s: %s", e->name, text);
	if (err)
		loss->records_bad++;
	return err;
}
