/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_JOBS_H
#define KTRACE_LIB_JOBS_H

#include "../internal.h"

/* one rendered line (or lines: a record's, with its loss notes) */
typedef int (*kt_jobs_emit_fn)(void *ctx, const char *text, size_t len);

/*
 * The records of @it (a trace array's buffer @b) rendered by @nr_jobs
 * worker threads, given to @emit in the iterator's order, or written to
 * @direct (when not NULL) a batch at a time, the sub-buffers of the CPUs
 * @it reads read ahead on one more thread (jobs.c, prefetch.c). -EAGAIN:
 * no thread could be started and nothing was read from @it.
 */
int kt_jobs__text(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it,
		  const struct kt_trace_opts *o_tr, bool annotate, int nr_jobs,
		  kt_jobs_emit_fn emit, void *ctx, FILE *direct);

/*
 * The same for the JSON Lines of @b's events (kt_json__event()), written
 * to @out a batch at a time: the lines of kt_json__write() with one job.
 */
int kt_jobs__json(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it, int nr_jobs,
		  FILE *out);

#endif
