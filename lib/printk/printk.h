/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel log room: find the printk ring buffer, walk its descriptors
 * oldest to newest, decode each record (ringbuffer.c); the log as a
 * session fact, its panic record and its text and JSON output (log.c).
 */
#ifndef KTRACE_LIB_PRINTK_H
#define KTRACE_LIB_PRINTK_H

#include "../internal.h"

/* Upper bounds on what the dump says (log_buf_len is at most 2^31; a
 * larger ring than these is taken for corruption, not read) */
#define KT_LOG_MAX_SIZE_BITS	28	/* 256 MiB of text */
#define KT_LOG_MAX_COUNT_BITS	23	/* 8 M descriptors */

struct kt_log {
	struct kt_session *s;
	struct kt_log_record *recs;	/* oldest first; each text its own allocation */
	size_t n, cap;
	struct kt_loss loss;		/* only log_* */
	char *panic_msg;		/* text after panic()'s prefix, one line */
	const struct kt_log_record *panic;
};

/* ringbuffer.c: read the ring of @s into @log (records and loss) */
int kt_log__read_prb(struct kt_session *s, struct kt_log *log);

#endif /* KTRACE_LIB_PRINTK_H */
