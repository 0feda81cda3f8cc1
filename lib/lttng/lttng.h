/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTTng's kernel ring buffers (lttng-modules 2.13, lib ring buffer):
 * find, walk, decode.
 *
 * find: lttng-tracer keeps every session on the static list `sessions`
 * (src/lttng-events.c) through lttng_kernel_session_private.list; a
 * session's channels hang on its priv->chan list through
 * lttng_kernel_channel_buffer_private.node, each with its ring buffer
 * channel (rb_chan, struct lttng_kernel_ring_buffer_channel). A per-CPU
 * channel's buffers are a percpu array of struct lttng_kernel_ring_buffer
 * (channel_backend.buf, alloc_percpu()). The session's metadata (CTF 1.8
 * TSDL text) is priv->metadata_cache->data, metadata_written bytes.
 *
 * walk: a buffer has num_subbuf writer sub-buffer slots (backend.buf_wsb[],
 * each an id whose low half indexes backend.array[], the page sets) and,
 * in overwrite mode, one more page set the reader owns (buf_rsb). The
 * reader's get_subbuf() swaps its page set with the writer slot it reads
 * (update_read_sb_index()), so after an `lttng snapshot record` the page
 * sets are no longer in slot order. Each page set starts with the packet
 * header the client wrote at the sub-buffer switch
 * (lttng-ring-buffer-client.h: struct packet_header, packet_seq_num =
 * num_subbuf * seq_cnt + index, i.e. the write position divided by the
 * sub-buffer size); so the packets are put in order by their own
 * sequence numbers: the one being written is that of buf->offset, the
 * delivered ones before it are the longest run of consecutive sequence
 * numbers ending just before it, no older than the reader's consumed
 * position.
 */
#ifndef KTRACE_LIB_LTTNG_H
#define KTRACE_LIB_LTTNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ktrace/ktrace.h>

/* struct packet_header of lttng-ring-buffer-client.h (2.13, __packed: the
 * same offsets on every architecture); the TSDL of every kernel trace
 * declares the same packet header and context. The client fills it in the
 * kernel's own byte order, which the TSDL's trace block declares
 * (`byte_order = be` on s390x): it is read and closed in that order. */
#define KT_CTF_MAGIC			0xc1fc1fc1u
#define KT_LTTNG_PH_MAGIC		0
#define KT_LTTNG_PH_UUID		4
#define KT_LTTNG_PH_STREAM_ID		20
#define KT_LTTNG_PH_INSTANCE_ID		24
#define KT_LTTNG_PH_TS_BEGIN		32
#define KT_LTTNG_PH_TS_END		40
#define KT_LTTNG_PH_CONTENT_SIZE	48
#define KT_LTTNG_PH_PACKET_SIZE		56
#define KT_LTTNG_PH_SEQ_NUM		64
#define KT_LTTNG_PH_DISCARDED		72
#define KT_LTTNG_PH_CPU_ID		80
#define KT_LTTNG_PH_SIZE		84	/* offsetof(ctx.header_end) */

/* bounds on what a dump may claim */
#define KT_LTTNG_MAX_SUBBUFS		(1u << 16)
#define KT_LTTNG_MAX_SUBBUF_SIZE	(1ull << 26)
#define KT_LTTNG_MAX_SESSIONS		256
#define KT_LTTNG_MAX_CHANNELS		256
#define KT_LTTNG_MAX_METADATA		(64u << 20)

/* a page set's packet header, as found in the dump */
struct kt_lttng_pkt {
	bool readable;			/* its first page was in the dump */
	uint32_t magic;
	uint64_t seq;			/* packet_seq_num */
	uint64_t content_size, packet_size;	/* bits */
};

/* one buffer's state, as read from its struct lttng_kernel_ring_buffer */
struct kt_lttng_state {
	uint64_t subbuf_size, num_subbuf;
	uint64_t page;			/* the kernel's PAGE_SIZE: a backend page */
	uint64_t offset;		/* buf->offset: the write position */
	uint64_t consumed;		/* buf->consumed: the reader's position */
	uint64_t commit_cur;		/* commit_hot[index of offset].cc */
	uint64_t commit_count_mask;	/* chan->commit_count_mask */
	uint64_t cur_set;		/* backend.array index of the slot being written */
	const struct kt_lttng_pkt *sets;	/* backend.array[]'s headers */
	uint64_t nr_sets;
};

/* the packets to write, oldest first: page-set indexes and sizes */
struct kt_lttng_plan {
	uint64_t *set;			/* backend.array index of each packet */
	uint64_t *bytes;		/* bytes of it to write (packet_size / 8) */
	uint64_t nr;
	bool has_cur;			/* the last one is the packet being written */
	uint64_t cur_data;		/* its committed bytes (content) */
	uint64_t uncommitted;		/* bytes reserved but not committed at the crash */
	uint64_t overwritten;		/* packets older than the run, gone */
	uint64_t bad_sets;		/* page sets whose header was refused */
};

/*
 * The packets of buffer @st, oldest first, into @p (free with
 * kt_lttng_plan__free()). 0; -EBADMSG with the cause in @why when the
 * buffer's own values contradict each other (sizes, offsets, a commit
 * count past the sub-buffer, the current page set out of range);
 * -ENOMEM.
 */
int kt_lttng__plan(const struct kt_lttng_state *st, struct kt_lttng_plan *p, char *why, size_t n);
void kt_lttng_plan__free(struct kt_lttng_plan *p);
/* the header fields of a page set's first bytes @hdr (@len of them),
 * written by a kernel of byte order @be (big-endian) */
void kt_lttng__parse_header(bool be, const uint8_t *hdr, size_t len, struct kt_lttng_pkt *pkt);
/*
 * Close the packet being written: @pkt (its @len bytes, the header
 * first) gets timestamp_end @ts_end, content_size @data bytes, packet_size
 * @data rounded up to @page, events_discarded @discarded, as the client's
 * buffer_end() would have, in the kernel's byte order @be (big-endian);
 * -EBADMSG when @data is shorter than the header.
 */
int kt_lttng__close_packet(bool be, uint8_t *pkt, size_t len, uint64_t data, uint64_t page,
			   uint64_t ts_end, uint64_t discarded);
/*
 * Check the TSDL text @text (@len bytes) LTTng keeps for a session: no
 * NUL, a trace block, and its end at a complete top-level declaration (a
 * '}' then ';'). 0 or -EBADMSG with the cause in @why.
 */
int kt_lttng__check_metadata(const char *text, size_t len, char *why, size_t n);

#endif
