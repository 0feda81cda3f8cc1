/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the recorders besides ftrace and the kernel log: relay channels
 * (blktrace), LTTng's kernel sessions
 * (part of <ktrace/ktrace.h>, which includes every part)
 */
#ifndef KTRACE_RECORDERS_H
#define KTRACE_RECORDERS_H

#include <ktrace/session.h>

#ifdef __cplusplus
extern "C" {
#endif


/*
 * Relay channels (lib/relay/): every channel on the kernel's
 * relay_channels list, its per-CPU (or global) buffers, and what in them
 * no reader consumed, oldest first. blktrace moves block-layer events to
 * user space through relay; the unread part of its channels is written
 * as the files blkparse reads.
 */
struct kt_relay_chan;

/* struct kt_relay_loss: the loss account's (session.h) */
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
 * metadata, written as CTF 1.8 traces babeltrace2 reads (struct
 * kt_lttng_loss: the loss account's, session.h).
 */
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
/*
 * one line per LTTng session and channel, as --list shows them; nothing
 * without. What its walk lost is added to the session's account
 * (kt_session__losses()), as a write's is
 */
void kt_session__print_lttng(struct kt_session *s, FILE *out);
bool kt_lttng_loss__any(const struct kt_lttng_loss *l);
void kt_lttng_loss__print(const struct kt_lttng_loss *l, FILE *out, const char *prefix);

#ifdef __cplusplus
}
#endif

#endif /* KTRACE_RECORDERS_H */
