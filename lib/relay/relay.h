/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Relay channels (kernel/relay.c): find, walk, decode.
 *
 * A channel (struct rchan) has one struct rchan_buf per CPU, or a single
 * one for every CPU when is_global. A buffer is n_subbufs sub-buffers of
 * subbuf_size bytes, vmap'd at buf->start. The writer fills sub-buffer
 * subbufs_produced % n_subbufs up to buf->offset; at a switch it records
 * the unused tail of the old one in padding[] and counts it produced. A
 * reader consumed subbufs_consumed whole sub-buffers and bytes_consumed
 * bytes of the next. The client's subbuf_start() callback decides what
 * happens when every sub-buffer is unread: refuse (normal mode; offset is
 * then subbuf_size + 1 and the writer drops until a read) or overwrite
 * the oldest (flight mode; produced runs ahead of consumed by more than
 * n_subbufs, and the kernel's reader skips to produced - n_subbufs + 1).
 * The layout is the same in 5.10, 6.1 and 6.12 (include/linux/relay.h).
 */
#ifndef KTRACE_LIB_RELAY_H
#define KTRACE_LIB_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ktrace/ktrace.h>

/* bounds on a channel read from a dump: relay_open() refuses
 * subbuf_size * n_subbufs above UINT_MAX; we read at most 1 GiB */
#define KT_RELAY_MAX_SUBBUFS	(1u << 20)
#define KT_RELAY_MAX_BYTES	(1ull << 30)
#define KT_RELAY_MAX_CHANNELS	4096

/* one buffer's state, as read from its struct rchan_buf */
struct kt_relay_state {
	uint64_t subbuf_size, n_subbufs;	/* the channel's */
	uint64_t offset;		/* into the current sub-buffer */
	uint64_t produced, consumed;	/* subbufs_produced, subbufs_consumed */
	uint64_t bytes_consumed;	/* into the oldest unread sub-buffer */
	const uint64_t *padding;	/* n_subbufs entries */
};

/* a run of unread bytes at @off from buf->start; @head bytes before it
 * in the same sub-buffer were read (the reader stopped there) */
struct kt_relay_seg {
	uint64_t off;
	uint64_t len;
	uint64_t head;
};

/* what is unread, oldest first (at most n_subbufs + 1 runs) */
struct kt_relay_plan {
	struct kt_relay_seg *segs;
	uint64_t nr_segs;
	uint64_t unread;		/* bytes */
	uint64_t overwritten;		/* sub-buffers the writer overwrote unread */
	bool full;			/* normal mode, every sub-buffer unread: writes refused */
};

/*
 * The unread runs of buffer @st, oldest first, as the kernel's reader
 * (relay_file_read_avail(), relay_file_read_start_pos()) would return
 * them, into @p (p->segs malloc'd; free with kt_relay_plan__free()).
 * 0; -EBADMSG with a message in @why when a value is out of range
 * (sizes, counts, offsets, padding); -ENOMEM.
 */
int kt_relay__plan(const struct kt_relay_state *st, struct kt_relay_plan *p, char *why,
		   size_t n);
void kt_relay_plan__free(struct kt_relay_plan *p);

struct kt_relay_buf {
	uint64_t addr;			/* struct rchan_buf * */
	int cpu;
	uint64_t start;			/* buf->start */
	struct kt_relay_state st;
	uint64_t *padding;
	struct kt_relay_plan plan;
	bool damaged;			/* refused: plan empty */
	char *file;			/* its debugfs file ("trace0"), or NULL */
};

struct kt_relay_chan {
	uint64_t addr;			/* struct rchan * */
	char base_filename[256];
	char *parent;			/* the parent dentry's name, or NULL */
	char owner[160];		/* what opened it: "blktrace vda", a callbacks symbol */
	bool global;
	uint64_t subbuf_size, n_subbufs;
	uint64_t cb, private_data;
	struct kt_relay_buf *bufs;
	int nr_bufs;
	uint64_t unread;
	struct kt_relay_loss loss;
	/* blktrace (blktrace.c): the struct blk_trace this channel is the rchan of */
	uint64_t blk_trace;
	uint32_t blk_dev;
	/* 6.17+ rchan_buf.stats: full_count + big_count, every buffer: the
	 * writes relay refused (blktrace's own 'dropped' counter is gone) */
	bool has_stats;
	uint64_t stats_dropped;
};

struct kt_relay {
	struct kt_relay_chan *chans;
	int nr_chans;
	struct kt_relay_loss loss;	/* the list walk's */
};

struct kt_session;
void kt_relay__free(struct kt_relay *r);
/* which channels' counts kt_relay__add_losses() adds */
enum kt_relay_scope {
	KT_RELAY_ALL,		/* every channel's: the account's section */
	KT_RELAY_RAW,		/* a raw copy's (kt_relay__write_raw()): every channel's
				 * but what blktrace's decoding skipped or cut */
	KT_RELAY_BLKTRACE,	/* blktrace's (kt_blktrace__write()): its channels' */
};
/*
 * Add to @l what @r's channels of @scope lost, and the list walk's: what a
 * write of them lost, as kt_relay__write_raw() and kt_blktrace__write()
 * count it into their caller's struct
 */
void kt_relay__add_losses(const struct kt_relay *r, enum kt_relay_scope scope,
			  struct kt_relay_loss *l);
/* the channels, found on first use (recorder.c): NULL with kt_err() said */
struct kt_relay *kt_relay__get(struct kt_session *s);
/*
 * kt_relay_chan__read() with the read part of the oldest sub-buffer too:
 * @fn gets the run with the @head bytes before it (0 when they are not
 * in the dump), so a client whose records start at the sub-buffer's start
 * can find the boundary the reader stopped inside of.
 */
int kt_relay__read_runs(struct kt_session *s, struct kt_relay_chan *c, int i,
			int (*fn)(void *arg, const uint8_t *data, size_t len, size_t head),
			void *arg);
/* blktrace.c: name the owner of @c if it is a blk_trace's channel */
void kt_relay__blktrace_owner(struct kt_session *s, struct kt_relay_chan *c);
/*
 * Ask the target every question of relay's and blktrace's layouts, the
 * answers dropped (lib/questions.c: what a layout profile must answer)
 */
void kt_relay__ask_layout(struct kt_session *s);
void kt_relay__blktrace_ask_layout(struct kt_session *s);

/*
 * blktrace records (include/uapi/linux/blktrace_api.h): struct
 * blk_io_trace, 48 bytes, then pdu_len bytes; magic is BLK_IO_TRACE_MAGIC
 * << 8 | BLK_IO_TRACE_VERSION (7 since 2.6.19). __blk_add_trace() fills
 * every field in the kernel's own byte order, and the daemon writes the
 * relay data as it is: blkparse reads either order, told by the magic.
 */
#define KT_BLK_IO_TRACE_MAGIC	0x65617400u
#define KT_BLK_IO_TRACE_VERSION	0x07u
#define KT_BLK_IO_TRACE_SIZE	48u
#define KT_BLK_IO_TRACE2_VERSION	0x08u	/* struct blk_io_trace2, 6.19+ */
#define KT_BLK_IO_TRACE2_SIZE	64u
#define KT_BLK2_PDU_LEN_OFF	50u
#define KT_BLK_PDU_LEN_OFF	46u
#define KT_BLK_MAX_PDU		65535u

/*
 * The length of the blktrace record at @p (@len bytes available), written
 * by a kernel of byte order @be (big-endian): 48 + pdu_len; 0 if the magic
 * or version is wrong (a record of the other byte order too); -1 if the
 * record runs past @len (cut).
 */
long kt_blk__record_len(bool be, const uint8_t *p, uint64_t len);

#endif
