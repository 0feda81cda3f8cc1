// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Options structs checked libbpf's way (lib/error.c kt_opts__copy()),
 * through the public API: a caller built against an older header (a
 * shorter struct) gets the defaults for what it does not know; one built
 * against a newer header (a longer struct) is refused with EINVAL when a
 * byte past the fields this library knows is not zero, accepted when they
 * are all zero; sz smaller than its own field is refused. Every entry
 * point that takes an options struct checks it before it reads anything
 * else, so NULL sessions and logs are enough here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ktrace/ktrace.h"
#include "../../lib/internal.h"

static int failed;

static void expect(const char *what, int got, int want)
{
	bool ok = got == want;

	printf("%s - %s: %d%s%s\n", ok ? "ok" : "not ok", what, got,
	       ok ? "" : ", want ", ok ? "" : (want ? "an error" : "0"));
	if (!ok)
		printf("#   %s\n", kt_last_error());
	failed |= !ok;
}

/* a caller's struct from a newer header: ours, then NEW more bytes */
#define NEW 16
union big_log {
	struct kt_log_opts o;
	unsigned char b[sizeof(struct kt_log_opts) + NEW];
};

static int dummy_read(void *p, uint64_t a, void *buf, size_t n) { return -1; }
static int dummy_symbol(void *p, const char *n, uint64_t *a) { return -1; }
static int dummy_member(void *p, const char *t, const char *m, uint64_t *off, uint64_t *sz)
{
	return -1;
}
static int dummy_size(void *p, const char *t, uint64_t *sz) { return -1; }

int main(void)
{
	struct kt_log_opts small = { .sz = offsetof(struct kt_log_opts, sz) + sizeof(size_t) };
	struct kt_text_opts to = { .sz = sizeof(to), .last = 3 }, tdst = { .header = true };
	union big_log big;
	char buf[256];
	FILE *out = fmemopen(buf, sizeof(buf), "w");
	unsigned char raw[sizeof(struct kt_iter_opts) + NEW];
	struct kt_target t = { .sz = sizeof(t), .read = dummy_read, .symbol = dummy_symbol,
			       .member = dummy_member, .type_size = dummy_size };
	unsigned char traw[sizeof(t) + NEW];
	struct kt_session *s;

	/* the helper itself */
	expect("kt_opts__copy: NULL source leaves the defaults",
	       kt_opts__copy(&tdst, sizeof(tdst), NULL, "kt_text_opts"), 0);
	expect("kt_opts__copy: NULL source: default kept", tdst.header, 1);
	expect("kt_opts__copy: same size copied", kt_opts__copy(&tdst, sizeof(tdst), &to, "t"), 0);
	expect("kt_opts__copy: same size: field copied", (int)tdst.last, 3);
	expect("kt_opts__copy: same size: a field the caller left 0 is 0", tdst.header, 0);
	to.sz = offsetof(struct kt_text_opts, last);
	tdst = (struct kt_text_opts){ .last = 9 };
	expect("kt_opts__copy: an older caller's shorter struct",
	       kt_opts__copy(&tdst, sizeof(tdst), &to, "t"), 0);
	expect("kt_opts__copy: shorter: the field it lacks keeps its default", (int)tdst.last, 9);
	expect("kt_opts__copy: shorter: sz is the library's own after the copy",
	       tdst.sz == sizeof(tdst), 1);
	to.sz = 3;
	expect("kt_opts__copy: sz smaller than sz itself refused",
	       kt_opts__copy(&tdst, sizeof(tdst), &to, "t"), -EINVAL);

	/* through the public API */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	expect("kt_opts__copy: a newer caller's longer struct, unknown bytes zero: accepted",
	       kt_opts__copy(&small, sizeof(small), &big.o, "kt_log_opts"), 0);
	big.b[sizeof(struct kt_log_opts) + NEW - 1] = 1;
	expect("kt_log__write: a non-zero byte past the known fields: EINVAL",
	       kt_log__write(NULL, out, &big.o), -EINVAL);
	expect("kt_log__write: ... and said", !!strstr(kt_last_error(), "kt_log_opts: byte"), 1);
	small.sz = 0;
	expect("kt_log__write: sz 0 refused", kt_log__write(NULL, out, &small), -EINVAL);

	memset(raw, 0, sizeof(raw));
	*(size_t *)raw = sizeof(raw);
	raw[sizeof(struct kt_iter_opts)] = 0xff;
	errno = 0;
	expect("kt_iter__new: a non-zero unknown byte: NULL",
	       kt_iter__new(NULL, (const struct kt_iter_opts *)raw) == NULL, 1);
	expect("kt_iter__new: ... errno EINVAL", errno, EINVAL);

	{
		unsigned char r[sizeof(struct kt_tracedat_opts) + NEW] = { 0 };

		*(size_t *)r = sizeof(r);
		r[sizeof(r) - 1] = 2;
		expect("kt_tracedat__write_opts: a non-zero unknown byte: EINVAL",
		       kt_tracedat__write_opts(NULL, NULL, out, (const void *)r), -EINVAL);
	}
	{
		unsigned char r[sizeof(struct kt_ticket_opts) + NEW] = { 0 };

		*(size_t *)r = sizeof(r);
		r[sizeof(struct kt_ticket_opts)] = 1;
		expect("kt_ticket__write: a non-zero unknown byte: EINVAL, nothing made",
		       kt_ticket__write(NULL, "/nonexistent/ticket", (const void *)r), -EINVAL);
	}
	memset(traw, 0, sizeof(traw));
	memcpy(traw, &t, sizeof(t));
	*(size_t *)traw = sizeof(traw);
	traw[sizeof(t) + 1] = 7;
	errno = 0;
	s = kt_session__open((const struct kt_target *)traw, NULL);
	expect("kt_session__open: a target with a non-zero unknown byte: NULL", s == NULL, 1);
	expect("kt_session__open: ... errno EINVAL", errno, EINVAL);
	expect("kt_session__open: ... and said", !!strstr(kt_last_error(), "kt_target: byte"), 1);
	fclose(out);
	return failed;
}
