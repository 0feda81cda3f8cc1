// SPDX-License-Identifier: GPL-2.0
/*
 * The format of a krec event: which conversions it has, the bytes each
 * takes in the record, and the text of a record rendered by it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "krec.h"

/* records are packed: arguments sit at any byte offset */
static u32 rd32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 rd64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* at most 3 digits of width and of precision (a reader refuses more) */
#define KREC_MAX_DIGITS	3

static const char *digits(const char *p, bool *bad)
{
	const char *q = p;

	while (*q >= '0' && *q <= '9')
		q++;
	if (q - p > KREC_MAX_DIGITS)
		*bad = true;
	return q;
}

/* flags, width and precision; no '*': every value is in the record */
static const char *skip_head(const char *p, bool *bad)
{
	while (*p && strchr("-+ #0", *p))
		p++;
	p = digits(p, bad);
	if (*p == '.')
		p = digits(p + 1, bad);
	return p;
}

int krec_next_spec(const char **fmt, struct krec_spec *spec)
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
	spec->start = p;
	q = skip_head(p + 1, &bad);
	if (bad)
		return -EINVAL;
	spec->head = q - p;
	while (n < 2 && (*q == 'h' || *q == 'l' || *q == 'z') &&
	       (!n || *q == spec->len[0]) && !(n && *q == 'z'))
		spec->len[n++] = *q++;
	spec->len[n] = 0;
	spec->conv = *q;
	if (!*q || !strchr("diuxXcs", *q))
		return -EINVAL;
	if (*q == 's' || *q == 'c')
		spec->size = 4;
	else
		spec->size = spec->len[0] == 'l' || spec->len[0] == 'z' ? 8 : 4;
	if (*q == 's' && n)
		return -EINVAL;
	*fmt = q + 1;
	return 1;
}

int krec_parse(struct krec_entry *e)
{
	const char *f = e->format;
	struct krec_spec sp;
	u32 off = sizeof(struct krec_record);
	int ret;

	e->nr_args = 0;
	e->nr_str = 0;
	while ((ret = krec_next_spec(&f, &sp)) > 0) {
		if (e->nr_args == KREC_MAX_ARGS)
			return -E2BIG;
		e->arg_size[e->nr_args++] = sp.size;
		if (sp.conv == 's')
			e->str_off[e->nr_str++] = off;
		off += sp.size;
	}
	if (ret < 0)
		return ret;
	e->size = off;
	return 0;
}

/* one conversion rebuilt: the user's flags and width, our length modifier */
static void spec_text(const struct krec_spec *sp, char *out, size_t n)
{
	const char *len = sp->size == 8 ? "ll" : sp->len;

	snprintf(out, n, "%.*s%s%c", sp->head, sp->start, len, sp->conv);
}

int krec_render(const struct krec_entry *e, const void *rec, u32 len, char *buf, size_t size)
{
	const u8 *r = rec;
	const char *f = e->format, *lit = f;
	struct krec_spec sp;
	u32 off = sizeof(struct krec_record);
	size_t w = 0;
	char spec[32];
	int ret;

	buf[0] = 0;
	while ((ret = krec_next_spec(&f, &sp)) > 0) {
		/* the literal text before it, "%%" as '%' */
		for (; lit < sp.start && w + 1 < size; lit++) {
			buf[w++] = *lit;
			if (lit[0] == '%' && lit[1] == '%')
				lit++;
		}
		lit = f;
		spec_text(&sp, spec, sizeof(spec));
		if (off + sp.size > len)
			return -EINVAL;
		if (sp.conv == 's') {
			u32 loc = rd32(r + off);
			u32 so = loc & 0xffff, sl = loc >> 16;

			if (!sl || so + sl > len || r[so + sl - 1])
				return -EINVAL;
			w += scnprintf(buf + w, size - w, spec, (const char *)r + so);
		} else if (sp.size == 8) {
			w += scnprintf(buf + w, size - w, spec,
				       (unsigned long long)rd64(r + off));
		} else {
			w += scnprintf(buf + w, size - w, spec,
				       (unsigned int)rd32(r + off));
		}
		off += sp.size;
	}
	for (; *lit && w + 1 < size; lit++) {
		buf[w++] = *lit;
		if (lit[0] == '%' && lit[1] == '%')
			lit++;
	}
	buf[w] = 0;
	return ret < 0 ? ret : 0;
}
