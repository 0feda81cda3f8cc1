// SPDX-License-Identifier: LGPL-2.1-or-later
/* Error messages: one per thread, lowercase, naming object, address, cause. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static __thread char kt_errbuf[512];

const char *kt_last_error(void)
{
	return kt_errbuf[0] ? kt_errbuf : "no error";
}

/* Record a message for kt_last_error(), set errno, return -err. */
int kt_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kt_errbuf, sizeof(kt_errbuf), fmt, ap);
	va_end(ap);
	if (err < 0)
		err = -err;
	errno = err;
	return -err;
}

/*
 * A caller's options struct, whose first member is its size_t sz,
 * copied into @dst (@dst_sz bytes, this library's own view of it, set
 * to its defaults by the caller): libbpf's OPTS_VALID. A caller built
 * against an older header passes a shorter struct: the fields it does
 * not know keep their defaults. One built against a newer header passes
 * a longer one: the bytes past the fields known here must be zero, for
 * a non-zero one is an option this library would silently ignore. A
 * NULL @src leaves @dst as it is. 0, or -EINVAL said (@what names the
 * struct).
 */
int kt_opts__copy(void *dst, size_t dst_sz, const void *src, const char *what)
{
	const unsigned char *p = src;
	size_t sz, i;

	if (!src)
		return 0;
	memcpy(&sz, src, sizeof(sz));
	if (sz < sizeof(size_t))
		return kt_err(EINVAL, "struct %s: sz is %zu, not the size of the struct "
				      "(set .sz = sizeof(it))", what, sz);
	for (i = dst_sz; i < sz; i++)
		if (p[i])
			return kt_err(EINVAL, "struct %s: byte %zu of %zu is not zero: an option "
					      "this libktrace (which knows %zu bytes) does not have",
				      what, i, sz, dst_sz);
	memcpy(dst, src, sz < dst_sz ? sz : dst_sz);
	/* sz as this library knows the struct */
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	return 0;
}

static __thread bool kt_warn_muted;

void kt_warn_mute(bool mute)
{
	kt_warn_muted = mute;
}

void kt_warn(struct kt_session *s, const char *fmt, ...)
{
	FILE *f = s && s->log ? s->log : stderr;
	va_list ap;

	if (kt_warn_muted)
		return;
	fputs("ktrace: warning: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}
