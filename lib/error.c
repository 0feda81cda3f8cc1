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
