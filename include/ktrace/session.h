/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the session: opening a crashed kernel, exit statuses, the loss account,
 * the dump's kallsyms and identity, the panicking CPU
 * (part of <ktrace/ktrace.h>, which includes every part)
 */
#ifndef KTRACE_SESSION_H
#define KTRACE_SESSION_H

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

/* What a relay channel lost (relay/, blktrace): kt_relay_loss__print() */
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

/* What an LTTng session lost (lttng/): kt_lttng_loss__print() */
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
/*
 * kt_session__buffer_unread - whether the dump has a trace array named
 * @name whose buffer could not be read (its name was, then a page of its
 * ring was not there: a filtered dump; counted in kt_loss.buffers_unread)
 */
bool kt_session__buffer_unread(const struct kt_session *s, const char *name);

#define kt_session__for_each_buffer(s, i, b)				\
	for ((i) = 0; (i) < kt_session__buffer_cnt(s) &&		\
		      ((b) = kt_session__buffer((s), (i))); (i)++)

/* Loss counted over the whole session so far (all buffers read). */
void kt_session__loss(const struct kt_session *s, struct kt_loss *loss);

/*
 * The session's loss account, one section per recorder, behind a sized
 * entry point, libbpf's way: the caller sets .sz = sizeof(it); a library
 * that knows fewer members fills those and zeroes the rest up to .sz (a
 * counter it does not keep lost nothing), one that knows more fills only
 * the first .sz bytes. Sections are only ever appended. Every count is
 * what was counted so far: a second read of a buffer or a second write of
 * a relay channel or an LTTng session adds to it again.
 */
struct kt_losses {
	size_t sz;
	/* ftrace's trace buffers (and rings read with kt_session__add_ring()),
	 * and the session's own counts: addrs_unnamed, addrs_substituted,
	 * buffers_unread, events_unread */
	struct kt_loss ftrace;
	/* the kernel log's, its log_* members only, once it was read
	 * (kt_session__log()) */
	struct kt_loss log;
	/* the ktrace recorder's ring (lib/krec) */
	struct kt_loss krec;
	/* the relay channels', once they were found (kt_session__relay_cnt()):
	 * every channel's and the list walk's; blktrace's decoding adds to it */
	struct kt_relay_loss relay;
	/* what the walks of LTTng's sessions counted: each write
	 * (kt_lttng__write_ctf()) and each list (kt_session__print_lttng()) */
	struct kt_lttng_loss lttng;
};

/**
 * kt_session__losses() - the loss account so far
 * @instance: a buffer's name ("global" or "" the top-level one): its
 *            counts alone, in its recorder's section (.ftrace or .krec),
 *            as kt_buffer__loss() gives them; NULL: the whole session's.
 *            kt_session__loss() is .ftrace, .log and .krec added
 * @l: .sz set by the caller
 *
 * 0; -EINVAL when .sz is smaller than its own member, -ENOENT when there
 * is no buffer @instance (kt_last_error() says which).
 */
int kt_session__losses(const struct kt_session *s, const char *instance, struct kt_losses *l);

/*
 * A moment of the loss account: every buffer's counts and the session's
 * own, kept so that the loss lines written after an output
 * (kt_session__write_trailer()) say what its read lost, and only that,
 * however many reads the session made before (a crash session, a ticket).
 */
struct kt_loss_mark;

/**
 * kt_session__loss_mark() - the loss account now, for a trailer
 *
 * Return: the mark, freed with kt_loss_mark__free(); NULL and errno
 * ENOMEM (kt_last_error() says so).
 */
struct kt_loss_mark *kt_session__loss_mark(const struct kt_session *s);
void kt_loss_mark__free(struct kt_loss_mark *m);

/* the summaries of the account kt_session__print_losses() prints */
enum kt_loss_summary {
	/* ftrace's, the kernel log's and the ktrace recorder's counts added
	 * (kt_session__loss()): kt_loss__print()'s lines, always printed */
	KT_LOSSES_TRACE,
	/* the kernel log's line ("kernel log records: N, ..."), always */
	KT_LOSSES_LOG,
	/* "relay lost: ..." when something was: every relay channel's, as
	 * a raw copy of them loses it (kt_relay__write_raw()) */
	KT_LOSSES_RELAY,
	/* the same, of blktrace's channels alone (kt_blktrace__write()) */
	KT_LOSSES_BLKTRACE,
	/* "lttng: lost: ..." when something was: what LTTng's walks counted */
	KT_LOSSES_LTTNG,
};

/**
 * kt_session__print_losses() - a loss summary from the session's account
 * @m: the account before the output (kt_session__loss_mark()): LTTng's
 *     counts, kept per walk (a crash session writes its sessions more than
 *     once), are printed as counted since; NULL: all of them. The other
 *     summaries are of the whole account: what a relay channel, the kernel
 *     log or a trace buffer lost is counted once
 * @what: which summary
 * @out: where its lines go; NULL: none, the answer only
 * @prefix: before each line ("ktrace-extract: ")
 *
 * The loss lines ktrace-extract and crash's commands end with.
 *
 * Return: 1 when the summary counts data lost (the exit status 10), 0 when
 * not, -EINVAL for an unknown @what.
 */
int kt_session__print_losses(const struct kt_session *s, const struct kt_loss_mark *m,
			     enum kt_loss_summary what, FILE *out, const char *prefix);

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

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_SESSION_H */
