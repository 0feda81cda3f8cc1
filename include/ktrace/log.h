/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the kernel log (the printk ring buffer)
 * (part of <ktrace/ktrace.h>, which includes every part)
 */
#ifndef KTRACE_LOG_H
#define KTRACE_LOG_H

#include <ktrace/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----- the kernel log (printk ring buffer) ----- */

struct kt_log;

/* printk_info.flags (kernel/printk/printk.c enum printk_info_flags) */
#define KT_LOG_NEWLINE	2	/* the text ended with a newline */
#define KT_LOG_CONT	8	/* a fragment of a line (pr_cont) */

/* caller_id: bit 31 set means a CPU number (not in task context), else a pid */
#define KT_LOG_CALLER_CPU	0x80000000u

struct kt_log_record {
	uint64_t seq;		/* sequence number, from 0 at boot */
	uint64_t ts_nsec;	/* local_clock() when printk() was called */
	uint32_t caller_id;	/* raw printk_info.caller_id */
	int level;		/* 0 (KERN_EMERG) .. 7 (KERN_DEBUG); -1 unknown */
	int facility;
	unsigned int flags;	/* KT_LOG_* */
	const char *text;	/* NUL-terminated; may hold '\n' (multi-line records) */
	uint32_t text_len;
	const char *subsystem;	/* dev_info (5.10+): SUBSYSTEM=, "" if none */
	const char *device;	/* dev_info: DEVICE=, "" if none */
};

/**
 * kt_session__log() - the kernel log of the crashed kernel
 * @s: session
 *
 * Reads the lockless printk ring buffer (kernel/printk/printk_ringbuffer.c,
 * 5.10+) through the target on first use, validating every descriptor and
 * text block; a broken one is skipped and counted (kt_log__loss()). The
 * log belongs to the session. Returns NULL and sets errno (message in
 * kt_last_error()) when the dump holds no readable printk ring.
 */
struct kt_log *kt_session__log(struct kt_session *s);

/* Number of valid records, oldest first. */
size_t kt_log__record_cnt(const struct kt_log *log);
/* Record @idx (0: oldest), or NULL. */
const struct kt_log_record *kt_log__record(const struct kt_log *log, size_t idx);
/* The record after @prev (NULL: the first), or NULL at the end. */
const struct kt_log_record *kt_log__next_record(const struct kt_log *log,
						const struct kt_log_record *prev);

#define kt_log__for_each_record(pos, log)				\
	for ((pos) = kt_log__next_record((log), NULL); (pos);		\
	     (pos) = kt_log__next_record((log), (pos)))

/* What the log lost: only the log_* members are set. */
void kt_log__loss(const struct kt_log *log, struct kt_loss *loss);
/* "kernel log records: N, overwritten ..., corrupt (skipped): N, ..." after @prefix */
void kt_log__print_loss(const struct kt_log *log, FILE *out, const char *prefix);

/**
 * kt_log__panic_record() - the "Kernel panic - not syncing: " record
 * @log: the kernel log
 *
 * Return: the last record whose text starts with panic()'s prefix (a
 * multi-line or continued record included), or NULL if the log has none
 * (kdump entered on an oops without panic, or the record was lost).
 */
const struct kt_log_record *kt_log__panic_record(const struct kt_log *log);
/* The panic message: the text after "Kernel panic - not syncing: ", up to
 * the end of its line; NULL if there is no panic record. */
const char *kt_log__panic_message(const struct kt_log *log);

/**
 * kt_session__panic_message() - the panic message, a session-level fact
 * @s: session
 *
 * kt_log__panic_message() of the session's kernel log (read on first
 * use), to go with kt_session__panic_cpu(). Return: the message, or NULL
 * when the log cannot be read (errno, kt_last_error()) or holds no panic
 * record (errno ENOENT).
 */
const char *kt_session__panic_message(struct kt_session *s);

/* "T<pid>" or "C<cpu>" of @r into @buf; returns @buf */
const char *kt_log_record__caller(const struct kt_log_record *r, char *buf, size_t len);

struct kt_log_opts {
	size_t sz;
	/* JSON Lines (a header object, then one object per record) instead of text */
	bool json;
	/* time window [ts_min, ts_max] in ns; 0/UINT64_MAX (or 0/0): unbounded */
	uint64_t ts_min, ts_max;
};

/**
 * kt_log__write() - the kernel log as text or JSON Lines
 * @log: the kernel log
 * @out: where to write
 * @opts: may be NULL
 *
 * Text is what makedumpfile --dump-dmesg writes: "[%5lu.%06lu] " and the
 * text, the lines of a multi-line record indented under the first, bytes
 * that are neither printable nor white space as \xNN. Return: 0 or -errno.
 */
int kt_log__write(const struct kt_log *log, FILE *out, const struct kt_log_opts *opts);

/**
 * kt_log__print_record() - one record as kt_log__write() prints it in text
 * @r: record
 * @out: where to write
 */
void kt_log__print_record(const struct kt_log_record *r, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_LOG_H */
