/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: ftrace's buffers (trace arrays and any ring buffer), their records,
 * the event table
 * (part of <ktrace/ktrace.h>, which includes every part)
 */
#ifndef KTRACE_FTRACE_H
#define KTRACE_FTRACE_H

#include <ktrace/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----- buffers ----- */

struct kt_cpu_info {
	int cpu;
	bool present;		/* a ring_buffer_per_cpu exists */
	uint64_t nr_pages;
	uint64_t entries;	/* cpu_buffer->entries */
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t dropped_events;
	uint64_t read;		/* already consumed by a reader */
	uint64_t entries_bytes;
};

const char *kt_buffer__name(const struct kt_buffer *b);	/* "global" or instance */
bool kt_buffer__is_global(const struct kt_buffer *b);
int kt_buffer__nr_cpus(const struct kt_buffer *b);	/* cpu slots (nr_cpu_ids) */
uint32_t kt_buffer__subbuf_size(const struct kt_buffer *b);	/* bytes incl. header */
const char *kt_buffer__clock(const struct kt_buffer *b);
uint64_t kt_buffer__kaddr(const struct kt_buffer *b);	/* ring buffer address */
int kt_buffer__cpu_info(const struct kt_buffer *b, int cpu, struct kt_cpu_info *info);
/* Loss counted while reading this buffer. */
void kt_buffer__loss(const struct kt_buffer *b, struct kt_loss *loss);
/*
 * What one read of @b lost, as if it were the first read (a session may
 * print a buffer twice, and reads add to the counts): the counts of the
 * open plus what the read added since @before, kt_buffer__loss() taken
 * just before it.
 */
void kt_buffer__read_loss(const struct kt_buffer *b, const struct kt_loss *before,
			  struct kt_loss *out);
/* entries still in the buffer and ever written, as the trace file header computes */
void kt_buffer__entry_counts(const struct kt_buffer *b, uint64_t *in_buffer, uint64_t *written);
/*
 * The boot-mapped (persistent, 6.12) instance's last_boot_info file, as the
 * kernel prints it; -ENOENT when @b is not boot-mapped, -EOPNOTSUPP when
 * the kernel prints it in a way ktrace does not.
 */
int kt_session__last_boot_info(struct kt_session *s, const struct kt_buffer *b, char *buf,
			       size_t len);

/**
 * kt_session__add_ring() - read any ring buffer of the kernel or a module
 * @spec: "0xADDRESS" of a struct trace_buffer (struct ring_buffer before
 *        5.6), or a SYMBOL (kernel or module) that is the ring, holds a
 *        pointer to it, or holds one in its first 4 KiB (global_trace:
 *        its array_buffer.buffer); SYMBOL+OFFSET names the pointer exactly
 *
 * Each candidate is checked: every per-CPU buffer of a ring points back at
 * it. The ring becomes buffer @spec, its records printed raw (cpu, time
 * stamp, length, hex), or decoded when it is a recorder's ktrace knows.
 * Return: the buffer, or NULL with errno and kt_last_error() set.
 */
struct kt_buffer *kt_session__add_ring(struct kt_session *s, const char *spec);
/* "ftrace" for a trace array's buffer, else the recorder ("krec", "raw") */
const char *kt_buffer__kind(const struct kt_buffer *b);
/*
 * The events of a recorder's ring (nothing for ftrace's buffers, whose
 * events are the session's): "   ID  SYSTEM:NAME" lines, or with
 * @verbose each as an events/SYSTEM/NAME/format text, as --events prints.
 */
void kt_buffer__print_events(struct kt_buffer *b, FILE *out, bool verbose);

/* ----- records ----- */

struct kt_record {
	int cpu;
	uint64_t ts;		/* ring buffer time stamp (clock units, ns for local) */
	const void *data;	/* payload: struct trace_entry first */
	uint32_t size;		/* payload bytes */
	int type;		/* common_type: the event id */
	int pid;
	uint64_t missed;	/* events lost just before this record on its cpu (0: none known) */
	bool missed_unknown;	/* the page said events were lost, count unknown */
};

#define KT_CPUMASK_WORDS 128	/* 8192 CPUs */

struct kt_iter_opts {
	size_t sz;
	/* bitmap of CPUs to read; NULL: all */
	const uint64_t *cpumask;
	int cpumask_bits;
	/* time window [ts_min, ts_max]; 0/UINT64_MAX: unbounded */
	uint64_t ts_min, ts_max;
};

/* Records of @b merged over CPUs in time order, oldest first. */
struct kt_iter *kt_iter__new(struct kt_buffer *b, const struct kt_iter_opts *opts);
/* 1: @rec filled (valid until the next call), 0: end, <0: -errno */
int kt_iter__next(struct kt_iter *it, struct kt_record *rec);
void kt_iter__free(struct kt_iter *it);

/* Raw sub-buffers of one cpu, oldest first, for trace.dat: */
struct kt_page_iter;
struct kt_page_iter *kt_page_iter__new(struct kt_buffer *b, int cpu);
/* 1: *@page points at subbuf_size validated bytes (until the next call), 0: end, <0: -errno */
int kt_page_iter__next(struct kt_page_iter *it, const void **page, uint32_t *len);
void kt_page_iter__free(struct kt_page_iter *it);

/* ----- the event table ----- */

int kt_session__event_cnt(const struct kt_session *s);
/*
 * Of the events whose records were printed through their print format,
 * how many (@used) and how many of those by a compiled program rather
 * than libtraceevent (the return value; KTRACE_NO_FASTFMT=1: none).
 */
int kt_session__fast_formats(const struct kt_session *s, int *used);
const struct kt_event *kt_session__event(const struct kt_session *s, int idx);
const struct kt_event *kt_session__find_event(const struct kt_session *s, int id);
int kt_event__id(const struct kt_event *e);
const char *kt_event__system(const struct kt_event *e);
const char *kt_event__name(const struct kt_event *e);
/*
 * The text of events/<system>/<name>/format, rebuilt from the dump on
 * first use, with enumerator names in print fmt replaced by their values
 * (as the kernel's TRACE_DEFINE_ENUM does). NULL if the field list
 * cannot be read (the reason is in kt_last_error()).
 */
const char *kt_event__format(const struct kt_event *e);

/* header_page and header_event, as tracefs shows them, for this layout */
const char *kt_session__header_page(const struct kt_session *s);
const char *kt_session__header_event(const struct kt_session *s);

/* comm of @pid from the kernel's saved cmdlines; "<...>" if unknown */
const char *kt_session__comm(struct kt_session *s, int pid);
/* iterate saved cmdlines: 1 = filled, 0 = end */
int kt_session__cmdline(struct kt_session *s, int idx, int *pid, const char **comm);
/* kernel symbol containing @addr (kallsyms from the dump); NULL if none */
const char *kt_session__symbol(struct kt_session *s, uint64_t addr, uint64_t *start);
/* walk kallsyms: 1 = filled, 0 = end */
int kt_session__kallsym(struct kt_session *s, int idx, uint64_t *addr, char *type, const char **name);
/*
 * Track what the reads and outputs of @s use from now on: the ids of the
 * events read, the kallsyms entries addresses were named by, for a
 * trace.dat written after them with kt_tracedat_opts.used_only. Off
 * (@on false) forgets them. 0 or -ENOMEM.
 */
int kt_session__track_used(struct kt_session *s, bool on);
/* trace_printk formats: 1 = filled, 0 = end */
int kt_session__printk_fmt(struct kt_session *s, int idx, uint64_t *addr, const char **fmt);

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_FTRACE_H */
