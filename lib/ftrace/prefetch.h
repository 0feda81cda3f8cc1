/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KTRACE_LIB_PREFETCH_H
#define KTRACE_LIB_PREFETCH_H

#include "../internal.h"

/*
 * Sub-buffers of @b read ahead on a thread of its own, for the CPUs of
 * @cpumask (NULL: all), while the calling thread renders with jobs
 * (prefetch.c); 0 also when it could not start (nothing is read ahead).
 */
int kt_prefetch__start(struct kt_session *s, struct kt_buffer *b, const uint64_t *cpumask,
		       int cpumask_bits);
void kt_prefetch__stop(struct kt_session *s);

#endif
