/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* LTTng: the layout, sessions, channels and buffers read from a dump */
#ifndef KTRACE_LIB_LTTNG_FIND_H
#define KTRACE_LIB_LTTNG_FIND_H

#include "../internal.h"
#include "lttng.h"

struct kt_lttng_layout {
	struct kt_member s_list, s_chan, s_name, s_metadata_cache, mc_data, mc_written;
	struct kt_member c_node, c_id, c_type, c_rb_chan;
	struct kt_member ch_commit_count_mask, ch_buf, ch_subbuf_size, ch_num_subbuf, ch_alloc,
		ch_mode, ch_name;
	struct kt_member b_offset, b_consumed, b_commit_hot, b_last_tsc, b_wsb, b_array,
		b_pages_per_subbuf, b_lost_full, b_lost_wrap, b_lost_big;
	struct kt_member cc, pages_p, page_virt;
	uint64_t cc_size, page_size, wsb_size;
};

struct kt_lttng_buf {
	uint64_t addr;			/* struct lttng_kernel_ring_buffer * */
	int cpu;
	uint64_t array, pages_per_subbuf, page;
	uint64_t id_addr, cc_addr;	/* the slot being written: buf_wsb[].id, commit_hot[].cc */
	uint64_t last_tsc, discarded;
	struct kt_lttng_pkt *sets;
	uint64_t *set_addr;		/* backend.array[i] */
	struct kt_lttng_state st;
	struct kt_lttng_plan plan;
	bool damaged;
};

struct kt_lttng_chan {
	uint64_t addr;			/* struct lttng_kernel_channel_buffer_private * */
	unsigned int id;
	const char *session;
	bool overwrite;
	uint64_t subbuf_size, num_subbuf, commit_count_mask;
	struct kt_lttng_buf *bufs;
	int nr_bufs;
	uint64_t packets;
	struct kt_lttng_loss loss;
};

int kt_lttng__layout(struct kt_session *s, struct kt_lttng_layout *l);
int kt_lttng__read_buf(struct kt_session *s, const struct kt_lttng_layout *l,
		       struct kt_lttng_chan *c, uint64_t addr, int cpu, struct kt_lttng_buf *b);
int kt_lttng__read_set(struct kt_session *s, const struct kt_lttng_layout *l,
		       const struct kt_lttng_buf *b, uint64_t set, uint8_t *out, uint64_t len);

#endif
