/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the sinks: the timeline, text, JSON, trace.dat, the ticket, and the lines
 * front ends print about buffers and losses
 * (part of <ktrace/ktrace.h>, which includes every part)
 */
#ifndef KTRACE_SINKS_H
#define KTRACE_SINKS_H

#include <ktrace/ftrace.h>
#include <ktrace/log.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* what kt_session__write_trailer() writes */
#define KT_TRAILER_TIMELINE	(1u << 0)	/* a timeline's: every buffer merged */

/**
 * kt_session__write_trailer() - the "# ktrace:" loss lines ending a text output
 * @m: the account taken just before the output was read (kt_session__loss_mark())
 * @b: the buffer written; with KT_TRAILER_TIMELINE the one buffer merged,
 *     NULL every buffer
 * @flags: 0 (a buffer's text) or KT_TRAILER_TIMELINE
 *
 * A buffer's text ends with the lines of what its read lost, after
 * "# ktrace: ", the session's address counts (kt_loss.addrs_unnamed,
 * addrs_substituted) since @m taken as its own. A timeline ends with the
 * kernel log's line ("# ktrace: log: ", when the log was read) and one
 * set of lines per buffer whose clock it merged ("# ktrace: NAME: "),
 * each buffer's own counts. A buffer's counts are what the session's
 * open counted and what the reads since @m added: what the first read
 * would have counted, whatever the session read before. ktrace-extract,
 * crash's ktrace commands and the ticket write their trailers here.
 *
 * Return: 0, or -EINVAL (@m NULL, a flag unknown, a buffer's text without @b).
 */
int kt_session__write_trailer(const struct kt_session *s, const struct kt_loss_mark *m,
			      const struct kt_buffer *b, unsigned int flags, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_SINKS_H */
