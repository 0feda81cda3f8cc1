/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the ftrace flight recorder of a crashed kernel, read back.
 *
 * Naming follows libbpf: functions on a handle are object__verb, free
 * functions kt_verb. Int-returning calls give 0 or a negative errno;
 * pointer-returning calls give NULL and set errno. Handles are opaque.
 * Everything hangs off a session; sessions share nothing, so several
 * dumps can be open at once.
 */
#ifndef KTRACE_KTRACE_H
#define KTRACE_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <ktrace/target.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kt_session;
struct kt_buffer;	/* one trace array's ring buffer: global or an instance */
struct kt_iter;
struct kt_event;

/*
 * Exit statuses shared by the front ends (documented in the man pages).
 * 0, 1 and 10 mean output was written; the others mean nothing was.
 */
#define KT_EXIT_OK		0
#define KT_EXIT_FAILURE		1  /* unexpected failure (output I/O, no memory) */
#define KT_EXIT_USAGE		2  /* bad command line */
#define KT_EXIT_DUMP		3  /* vmcore unreadable or not a dump */
#define KT_EXIT_DEBUGINFO	4  /* vmlinux missing, unreadable or without DWARF */
#define KT_EXIT_MISMATCH	5  /* vmlinux does not match the dump */
#define KT_EXIT_NOTRACE		6  /* the dump holds no usable ftrace ring buffer */
#define KT_EXIT_PARTIAL		10 /* trace written, but data was lost (see the loss summary) */

/* Every count of what could not be read or what the kernel dropped. */
struct kt_loss {
	uint64_t pages_total;		/* data pages we tried to read */
	uint64_t pages_unreadable;	/* not mapped / read error */
	uint64_t pages_filtered;	/* excluded from the dump by a filter */
	uint64_t pages_corrupt;		/* failed validation, skipped */
	uint64_t pages_zero;		/* all-zero header where data was expected */
	uint64_t events_overrun;	/* overwritten by the writer (cpu_buffer->overrun) */
	uint64_t events_dropped;	/* dropped_events + commit_overrun counters */
	uint64_t events_missed_pages;	/* pages whose commit carried RB_MISSED_EVENTS */
	uint64_t events_missed_stored;	/* counts stored at the end of such pages */
	uint64_t events_unknown;	/* records whose event id is not in the table */
	uint64_t inflight_bytes;	/* reserved but not committed (write - commit) */
	uint64_t list_anomalies;	/* page-list pointers that were broken or looped */
	/* records the kernel printed in a way ktrace cannot (yet): an option
	 * or tracer it does not render; said on stderr, never printed wrongly */
	uint64_t events_unrendered;
	/* the kernel log (printk ring buffer), when it was read */
	uint64_t log_records;		/* records read and valid */
	uint64_t log_overwritten;	/* records overwritten before the crash (normal) */
	uint64_t log_dropped;		/* records the kernel itself lost (no space) */
	uint64_t log_inflight;		/* reserved, not committed at the crash */
	uint64_t log_corrupt;		/* descriptors or text blocks failing validation, skipped */
	uint64_t log_unreadable;	/* descriptors or text not in the dump */
	/* records of a known event that its format cannot decode (a recorder's
	 * table disagrees with its records: sizes, string offsets) */
	uint64_t records_bad;
	/* code addresses the kernel printed as symbols, printed as numbers
	 * here: the dump's kallsyms (and the modules') could not name them */
	uint64_t addrs_unnamed;
	/* code addresses named from a substitute of the dump's kallsyms (the
	 * vmlinux's symbol table, kallsyms_else): likely, not certainly, the
	 * kernel's own names */
	uint64_t addrs_substituted;
	/* %p values the kernel printed hashed with the boot's ptr_key, which
	 * the dump does not hold (a filtered page): printed raw here */
	uint64_t ptrs_unhashed;
	/* buffers whose options (trace_flags) could not be read: printed with
	 * the kernel's default options, which may not be what it printed */
	uint64_t options_unread;
	/* trace buffers the kernel had that could not be read: an instance
	 * whose trace_array or ring buffer is damaged, or the instance list
	 * (ftrace_trace_arrays) missing, broken or looping, so that the
	 * instances past the break are not known */
	uint64_t buffers_unread;
	/* entries of the event table (ftrace_events) that could not be read, one
	 * more when the list was cut (broken, looping, empty): the table is not
	 * whole. Not in kt_loss__any(): a record of a missing event is counted
	 * in events_unknown; the table itself (--events) is partial */
	uint64_t events_unread;
	/* per-CPU buffers whose struct ring_buffer_per_cpu could not be read
	 * (filtered out of the dump, or damaged): none of that CPU's events
	 * were read, and how many there were is not known */
	uint64_t cpus_unread;
};

struct kt_open_opts {
	size_t sz;
	/* diagnostics ("warning: ...") go here; NULL: stderr */
	FILE *log;
	/* do not read the event table (raw record access only) */
	bool no_events;
	/*
	 * the target's kallsyms, already decoded with kt_kallsyms__load():
	 * used instead of decoding them again; the caller frees it after
	 * the session
	 */
	struct kt_kallsyms *kallsyms;
	/*
	 * when the dump's kallsyms cannot be decoded (a damaged table, an
	 * encoding not known here), asked once for another table (a
	 * vmlinux's symbol table, KASLR applied; kt_kallsyms__from_list()),
	 * which the session then owns and frees; @why is the reason the
	 * dump's failed. NULL, or returning NULL: addresses are printed as
	 * numbers and counted (kt_loss.addrs_unnamed).
	 */
	struct kt_kallsyms *(*kallsyms_else)(void *ctx, const char *why);
	void *kallsyms_else_ctx;
	/*
	 * open even when ftrace's structures cannot be read (a kernel
	 * without ftrace, a layout ktrace does not know, damaged tracing
	 * structures): the session then has no buffers, and
	 * kt_session__ftrace_error() says why; the kernel log, relay channels
	 * and LTTng need none of ftrace
	 */
	bool ftrace_optional;
};

/**
 * kt_session__open() - read the tracer's state from a target
 * @target: memory, symbols and types of the crashed kernel
 * @opts: may be NULL
 *
 * Resolves the layout of the tracing structures once, finds every trace
 * array and its ring buffer. Returns NULL and sets errno on failure; the
 * message is then in kt_last_error() of the thread.
 */
struct kt_session *kt_session__open(const struct kt_target *target,
				    const struct kt_open_opts *opts);
void kt_session__free(struct kt_session *s);
/*
 * Why ftrace's buffers could not be read, for a session opened with
 * kt_open_opts.ftrace_optional; NULL when they were.
 */
const char *kt_session__ftrace_error(const struct kt_session *s);

/* The message of the last failure of a kt_ call in this thread. */
const char *kt_last_error(void);

/* ----- kallsyms ----- */

struct kt_kallsyms;

/**
 * kt_kallsyms__load() - decode the kernel's own symbol tables
 * @t: reads memory, and knows where kallsyms_num_syms, kallsyms_names,
 *     kallsyms_token_table, kallsyms_token_index and kallsyms_offsets
 *     with kallsyms_relative_base (or kallsyms_addresses) are; v6.0+
 *     lists them in VMCOREINFO
 *
 * Damage that still decodes is refused: a token index that does not
 * follow the tokens, addresses out of order, names out of the order of
 * kallsyms_seqs_of_names (6.1+), and, when @t has KT_TARGET_SYMTAB, names
 * its symbol table does not know.
 *
 * Returns NULL and sets errno on failure (ENOENT: @t does not know the
 * tables; EFAULT: they cannot be read; EBADMSG: they are damaged), the
 * message naming table and address in kt_last_error().
 */
struct kt_kallsyms *kt_kallsyms__load(const struct kt_target *t);
/*
 * kt_kallsyms__from_list() - a table of @num symbols given by the caller
 * (addresses, nm-style type letters, names), looked up as the kernel's
 * own; @t tells where _text is. NULL with errno set on failure.
 */
struct kt_kallsyms *kt_kallsyms__from_list(const struct kt_target *t, uint32_t num,
					   const uint64_t *addr, const char *types,
					   const char *const *names);
void kt_kallsyms__free(struct kt_kallsyms *k);
uint32_t kt_kallsyms__count(const struct kt_kallsyms *k);
/**
 * kt_kallsyms__find() - run-time address of a symbol by name
 *
 * Among symbols of one name a global wins over a weak one, a weak one over
 * a local one, and among locals the lowest address. @type (may be NULL)
 * gets nm's letter. Returns 0, -ENOENT, or -ENOMEM (the name index is
 * built on the first call).
 */
int kt_kallsyms__find(struct kt_kallsyms *k, const char *name, uint64_t *addr, char *type);

int kt_session__buffer_cnt(const struct kt_session *s);
struct kt_buffer *kt_session__buffer(const struct kt_session *s, int idx);
/* "global" (or "" / NULL) names the top-level buffer */
struct kt_buffer *kt_session__find_buffer(const struct kt_session *s, const char *name);

#define kt_session__for_each_buffer(s, i, b)				\
	for ((i) = 0; (i) < kt_session__buffer_cnt(s) &&		\
		      ((b) = kt_session__buffer((s), (i))); (i)++)

/* Loss counted over the whole session so far (all buffers read). */
void kt_session__loss(const struct kt_session *s, struct kt_loss *loss);

/**
 * kt_session__panic_cpu() - the CPU that panicked (or entered kdump)
 * @source: if not NULL, set to the kernel symbol the answer came from
 *          ("panic_cpu", "crashing_cpu"), or NULL when there is none
 *
 * Return: the CPU number, or -1 when the dump records no panicking CPU.
 */
int kt_session__panic_cpu(const struct kt_session *s, const char **source);

/**
 * kt_session__cache_pages() - keep ring-buffer sub-buffers after their first read
 * @max_bytes: memory the cache may hold; 0 turns it off and frees it
 *
 * For callers that write several outputs of the same buffers: each page
 * of the dump is then read once. Return: 0 or -ENOMEM.
 */
int kt_session__cache_pages(struct kt_session *s, uint64_t max_bytes);
/* pages served from the cache, and read from the dump, since it was turned on */
void kt_session__cache_stats(const struct kt_session *s, uint64_t *hits, uint64_t *misses);

/* OSRELEASE and BUILD-ID (hex) of the crashed kernel's VMCOREINFO; NULL if unknown */
const char *kt_session__release(struct kt_session *s);
const char *kt_session__build_id(struct kt_session *s);

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

/**
 * kt_clock__comparable() - whether a trace clock counts like printk's
 * @clock: a trace clock name, as kt_buffer__clock() gives it
 * @why: set to a phrase saying why, for the "# ktrace:" line; may be NULL
 *
 * printk stamps records with local_clock(). "perf" (trace_clock()) is
 * local_clock(); "global" is local_clock() made monotonic over CPUs;
 * "local" is sched_clock(), which local_clock() corrects by at most a
 * tick-bounded offset. The others (mono, mono_raw, boot, tai: timekeeping
 * clocks with their own origin and NTP slew; counter; uptime in jiffies;
 * x86-tsc in cycles) are not comparable.
 */
bool kt_clock__comparable(const char *clock, const char **why);

struct kt_timeline_opts {
	size_t sz;
	/* only this buffer (NULL: every buffer whose clock is comparable) */
	struct kt_buffer *only;
	/* CPUs and time window of the trace records; the window applies to
	 * the kernel log too */
	const struct kt_iter_opts *iter;
};

/**
 * kt_timeline__write() - kernel log records and trace events by time stamp
 * @s: session
 * @out: where to write
 * @opts: may be NULL
 *
 * Every line is "[%5lu.%06lu] SOURCE " and what the source's own output
 * has: "log", "[T<pid>] " or "[C<cpu>] " and the record's text for the
 * kernel log, the buffer's name and the trace line for an event; each
 * line of a multi-line record or event is marked so. Each source keeps
 * its own order (early-boot printk stamps can go backwards). Buffers whose clock is not comparable
 * with printk's are left out, each with a "# ktrace: timeline:" line
 * saying why. The kernel log must be readable. Return: 0 or -errno.
 */
int kt_timeline__write(struct kt_session *s, FILE *out, const struct kt_timeline_opts *opts);

/* ----- sinks ----- */

struct kt_text_opts {
	size_t sz;
	/* print the "# tracer: nop" header block */
	bool header;
	/* only the last N records (0: all) */
	uint64_t last;
	const struct kt_iter_opts *iter;
	/*
	 * worker threads rendering a trace array's text (0 or 1: none, the
	 * calling thread does it all); the output is the same either way
	 */
	int jobs;
	/* text even where the buffer's bin option makes the kernel's binary */
	bool text;
};

/* Render @b as /sys/kernel/tracing/trace would. */
int kt_text__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts);

/*
 * One JSON object per event, one per line (JSON Lines); with
 * @opts->header, a header object before them ({"buffer":NAME,...}) and a
 * trailer after ({"buffer_end":NAME,"loss":{...}}: kt_loss__json() of what
 * the buffer's lines lost, the counts text prints as "# ktrace:" lines).
 */
int kt_json__write(struct kt_session *s, struct kt_buffer *b, FILE *out,
		   const struct kt_text_opts *opts);

/*
 * trace.dat (trace-cmd's format) of every buffer, or only of @only:
 * raw sub-buffers copied, not decoded. The first buffer is the file's
 * top-level buffer, the others its instance buffers.
 */
int kt_tracedat__write(struct kt_session *s, struct kt_buffer *only, FILE *out);

struct kt_tracedat_opts {
	size_t sz;
	/* file version: 6 or 7 (sections; per-buffer clocks); 0: the default */
	int version;
	/*
	 * only the formats of the events, and the kallsyms entries, that
	 * the session's reads and outputs used since kt_session__track_used()
	 * (the ticket's trace.dat, written after its text): trace-cmd
	 * report prints the same, from a file a fraction of the size
	 */
	bool used_only;
	/*
	 * threads reading and checking the ring's sub-buffers ahead of the
	 * calling thread, which copies them into the file in order (0 or 1:
	 * none); used where the target allows it (KT_TARGET_BLOCKS_MT).
	 * The file is the same either way.
	 */
	int jobs;
};

/* kt_tracedat__write() with options; @opts may be NULL */
int kt_tracedat__write_opts(struct kt_session *s, struct kt_buffer *only, FILE *out,
			    const struct kt_tracedat_opts *opts);

/* ----- the ticket: every output for a support ticket, in one pass ----- */

struct kt_ticket_opts {
	size_t sz;
	/* named in summary.txt (may be NULL) */
	const char *vmcore;
	/* where types and symbols came from, for summary.txt (may be NULL) */
	const char *source;
	/* memory for keeping ring pages between the outputs; 0: 1 GiB */
	uint64_t cache_bytes;
	/*
	 * called with the ticket directory once the library's files are
	 * written, to add the front end's own (the layout profile); 0 or
	 * -errno. May be NULL.
	 */
	int (*add_files)(void *priv, const char *dir);
	void *priv;
	/* say on the session's log how long each file took */
	bool verbose;
	/*
	 * on disk before the return: each file fdatasync()ed, the directory
	 * (and, once renamed, its parent) fsync()ed; an archive and its
	 * directory likewise. What a kdump capture kernel wants, without a
	 * sync(2) that also waits for everybody else's writes.
	 */
	bool durable;
};

/**
 * kt_ticket__write() - write the ticket of this dump
 * @out: a directory, or an archive name ending in .tar, .tar.gz, .tgz or
 *       .tar.zst; missing parent directories are made
 *
 * summary.txt, trace.txt, trace.jsonl, trace.dat, the front end's files
 * and manifest.sha256, each ring page read from the dump once. What could
 * be written is kept (and listed in the manifest) after a failure. A
 * directory that did not exist is written under a temporary name beside
 * it and renamed to @out at the end: it appears whole (one already there
 * is written into).
 * Return: 0 or -errno, with the reason in kt_last_error().
 */
int kt_ticket__write(struct kt_session *s, const char *out, const struct kt_ticket_opts *opts);

/* "# ktrace: buffer NAME: N cpus, sub-buffer N bytes, clock C", the line
 * the front ends print before a buffer's text */
void kt_buffer__print_banner(const struct kt_buffer *b, FILE *out);
/* one line per buffer and present cpu: pages, entries, overrun, dropped; then
 * the relay channels (kt_session__print_relay()) and the panic cpu */
void kt_session__print_buffers(const struct kt_session *s, FILE *out);
/* "panic cpu: N (symbol)" or "panic cpu: none recorded (...)" */
void kt_session__print_panic(const struct kt_session *s, FILE *out);
/* parse a CPU list ("0,2-3") into @mask (KT_CPUMASK_WORDS words); 0 or -EINVAL */
int kt_cpumask__parse(const char *arg, uint64_t *mask);

/* Loss summary as "# lost: ..." comment lines / a JSON object. */
void kt_loss__print(const struct kt_loss *loss, FILE *out, const char *prefix);
/* every counter of @loss as one JSON object, named as struct kt_loss's fields */
void kt_loss__json(const struct kt_loss *loss, FILE *out);
bool kt_loss__any(const struct kt_loss *loss);

/*
 * Relay channels (lib/relay/): every channel on the kernel's
 * relay_channels list, its per-CPU (or global) buffers, and what in them
 * no reader consumed, oldest first. blktrace moves block-layer events to
 * user space through relay; the unread part of its channels is written
 * as the files blkparse reads.
 */
struct kt_relay_chan;

struct kt_relay_loss {
	uint64_t bufs_damaged;		/* buffers refused (sizes, offsets, padding) */
	uint64_t bufs_unreadable;	/* struct rchan_buf or padding[] not in the dump */
	uint64_t subbufs_overwritten;	/* overwritten unread (flight mode) */
	uint64_t bytes_unreadable;	/* unread data not in the dump */
	uint64_t bytes_skipped;		/* blktrace: not a valid record, skipped */
	uint64_t records_cut;		/* blktrace: a record cut by the end of the data */
	uint64_t events_dropped;	/* blktrace: blk_trace->dropped (buffer full) */
	uint64_t list_anomalies;	/* relay_channels broken or looped */
};

struct kt_relay_info {
	uint64_t addr;			/* struct rchan * */
	const char *base_filename;	/* "trace" for blktrace */
	const char *parent;		/* its debugfs directory ("vda"), or NULL */
	const char *owner;		/* "blktrace vda (dev 254:0)", callbacks symbol, "?" */
	bool global;			/* one buffer for every CPU */
	uint64_t subbuf_size, n_subbufs;
	int nr_bufs;			/* buffers found (CPUs with one) */
	uint64_t unread;		/* bytes no reader consumed, every buffer */
	bool blktrace;			/* the rchan of a struct blk_trace */
	struct kt_relay_loss loss;
};

/* the relay channels of the dump (read on first use); <0: -errno, kt_last_error() */
int kt_session__relay_cnt(struct kt_session *s);
struct kt_relay_chan *kt_session__relay(struct kt_session *s, int idx);
void kt_relay_chan__info(const struct kt_relay_chan *c, struct kt_relay_info *info);
/* one line per channel, as --list shows them ("relay ..."); nothing without channels */
void kt_session__print_relay(struct kt_session *s, FILE *out);
/*
 * The unread bytes of buffer @i of @c, oldest first, in runs handed to
 * @fn (its non-zero return stops the walk and is returned). The CPU of
 * the buffer in *@cpu (-1: global). Unreadable runs are counted, not
 * handed. 0 or -errno.
 */
int kt_relay_chan__read(struct kt_session *s, struct kt_relay_chan *c, int i, int *cpu,
			int (*fn)(void *arg, const void *data, size_t len), void *arg);
/*
 * blktrace: for every channel of an active struct blk_trace, write
 * @dir/<dev>.blktrace.<cpu> (struct blk_io_trace records and their pdu,
 * as blkparse reads them) with what its reader had not consumed; a
 * line per file on @log (NULL: none). 0, -ENOENT when no channel is
 * blktrace's, -errno; what was lost is added to @loss.
 */
int kt_blktrace__write(struct kt_session *s, const char *dir, FILE *log,
		       struct kt_relay_loss *loss);
/*
 * Every relay channel's unread bytes, oldest first, as a reader of its
 * relay file would have got them: @dir/<parent>-<base>.<cpu> (.global for
 * a global buffer), a line per file on @log (NULL: none). 0, -ENOENT when
 * the dump has no channel, -errno; what was lost is added to @loss.
 */
int kt_relay__write_raw(struct kt_session *s, const char *dir, FILE *log,
			struct kt_relay_loss *loss);
bool kt_relay_loss__any(const struct kt_relay_loss *l);
void kt_relay_loss__print(const struct kt_relay_loss *l, FILE *out, const char *prefix);

/*
 * LTTng kernel sessions (lib/lttng/, lttng-modules 2.13): every session
 * on lttng-tracer's list, its channels' per-CPU ring buffers and its
 * metadata, written as CTF 1.8 traces babeltrace2 reads.
 */
struct kt_lttng_loss {
	uint64_t sessions_damaged;	/* session or metadata refused or unreadable */
	uint64_t chans_damaged;		/* channel refused or unreadable */
	uint64_t bufs_damaged;		/* buffer refused (ids, sizes, commit counts) */
	uint64_t bufs_unreadable;	/* struct lttng_kernel_ring_buffer not in the dump */
	uint64_t packets_overwritten;	/* older than what the buffer still holds */
	uint64_t packets_unreadable;	/* a page of it not in the dump */
	uint64_t sets_damaged;		/* page sets with a bad packet header */
	uint64_t bytes_uncommitted;	/* reserved but not committed at the crash */
	uint64_t list_anomalies;	/* sessions or channel list broken or looped */
};
/*
 * Write @dir/<session>/kernel/: metadata (the session's TSDL text) and
 * one stream file per channel and CPU (chan<id>_<cpu>), the packets as
 * LTTng wrote them, oldest first, the packet being written closed with
 * its packet context. A line per session on @log (NULL: none). 0,
 * -ENOENT when the dump has no LTTng session (or no lttng types),
 * -errno; what was lost is added to @loss.
 */
int kt_lttng__write_ctf(struct kt_session *s, const char *dir, FILE *log,
			struct kt_lttng_loss *loss);
/* one line per LTTng session and channel, as --list shows them; nothing without */
void kt_session__print_lttng(struct kt_session *s, FILE *out);
bool kt_lttng_loss__any(const struct kt_lttng_loss *l);
void kt_lttng_loss__print(const struct kt_lttng_loss *l, FILE *out, const char *prefix);

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_KTRACE_H */
