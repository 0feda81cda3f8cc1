/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Checking helpers for the unit programs: TAP-like "ok - "/"not ok - "
 * lines, records of a buffer as a compact string ("cpu/ts/seq ..."), and
 * a session opened on a fake kernel with its warnings captured.
 */
#ifndef KTRACE_TESTS_FAKE_CHECK_H
#define KTRACE_TESTS_FAKE_CHECK_H

#include "fake-kernel.h"

static int fk_failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			printf("ok - ");				\
		} else {						\
			printf("not ok - ");				\
			fk_failed = 1;					\
		}							\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)

#define CHECK_STR(got, want, what)					\
	do {								\
		const char *_g = (got), *_w = (want);			\
		CHECK(_g && !strcmp(_g, _w), "%s", what);		\
		if (!_g || strcmp(_g, _w))				\
			printf("#   got:  %s\n#   want: %s\n", _g ? _g : "(null)", _w); \
	} while (0)

#define CHECK_U64(got, want, what)					\
	do {								\
		unsigned long long _g = (got), _w = (want);		\
		CHECK(_g == _w, "%s: %llu", what, _w);			\
		if (_g != _w)						\
			printf("#   got %llu\n", _g);			\
	} while (0)

/* A session with warnings going to a memory stream. */
struct fk_session {
	struct kt_session *s;
	char *log;
	size_t log_len;
	FILE *logf;
};

static FK_UNUSED int fk_open(struct fk_kernel *k, struct fk_session *fs, bool no_events)
{
	struct kt_open_opts o = { .sz = sizeof(o) };
	struct kt_target t;

	fk_target(k, &t);
	memset(fs, 0, sizeof(*fs));
	fs->logf = open_memstream(&fs->log, &fs->log_len);
	o.log = fs->logf;
	o.no_events = no_events;
	fs->s = kt_session__open(&t, &o);
	fflush(fs->logf);
	if (!fs->s)
		printf("# kt_session__open: %s\n", kt_last_error());
	return fs->s ? 0 : -1;
}

static FK_UNUSED const char *fk_log(struct fk_session *fs)
{
	fflush(fs->logf);
	return fs->log ? fs->log : "";
}

static FK_UNUSED void fk_close(struct fk_session *fs)
{
	kt_session__free(fs->s);
	fclose(fs->logf);
	free(fs->log);
}

/*
 * Every record of @b as "cpu/ts/seq" joined by spaces (seq: the u32 at
 * payload offset 8 that fk_ev() writes), "+L" after a record with a known
 * lost count L, "+?" with an unknown one. Caller frees.
 */
static FK_UNUSED char *fk_records(struct kt_buffer *b)
{
	struct kt_iter *it = kt_iter__new(b, NULL);
	struct kt_record r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n = 0, ret;

	while (it && (ret = kt_iter__next(it, &r)) > 0) {
		uint32_t seq = 0;

		if (r.size >= 12)
			memcpy(&seq, (const uint8_t *)r.data + 8, 4);
		fprintf(f, "%s%d/%llu/%u", n++ ? " " : "", r.cpu, (unsigned long long)r.ts, seq);
		if (r.missed)
			fprintf(f, "+%llu", (unsigned long long)r.missed);
		else if (r.missed_unknown)
			fputs("+?", f);
	}
	kt_iter__free(it);
	fclose(f);
	return buf;
}

static FK_UNUSED char *fk_text(struct kt_session *s, struct kt_buffer *b, bool json)
{
	struct kt_text_opts o = { .sz = sizeof(o) };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (json)
		kt_json__write(s, b, f, &o);
	else
		kt_text__write(s, b, f, &o);
	fclose(f);
	return buf;
}

#endif /* KTRACE_TESTS_FAKE_CHECK_H */
