// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Relay: walk one buffer's unread sub-buffers, oldest first.
 *
 * Pure arithmetic on the values of struct rchan_buf, every one checked
 * before use (a dump is hostile): what the kernel's own reader
 * (relay_file_read_avail(), relay_file_read_start_pos(),
 * relay_file_read_subbuf_avail(), kernel/relay.c) would still return.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "relay.h"

static int bad(char *why, size_t n, const char *fmt, unsigned long long a,
	       unsigned long long b)
{
	if (why && n)
		snprintf(why, n, fmt, a, b);
	return -EBADMSG;
}

static void add(struct kt_relay_plan *p, uint64_t off, uint64_t len, uint64_t head)
{
	if (!len)
		return;
	p->segs[p->nr_segs].off = off;
	p->segs[p->nr_segs].len = len;
	p->segs[p->nr_segs].head = head;
	p->nr_segs++;
	p->unread += len;
}

int kt_relay__plan(const struct kt_relay_state *st, struct kt_relay_plan *p, char *why,
		   size_t n)
{
	uint64_t size = st->subbuf_size, nr = st->n_subbufs;
	uint64_t produced = st->produced, consumed = st->consumed;
	uint64_t bytes = st->bytes_consumed, cur, i;

	memset(p, 0, sizeof(*p));
	if (!nr || nr > KT_RELAY_MAX_SUBBUFS)
		return bad(why, n, "n_subbufs %llu out of range (1..%llu)", nr,
			   KT_RELAY_MAX_SUBBUFS);
	if (!size || size > KT_RELAY_MAX_BYTES / nr)
		return bad(why, n, "subbuf_size %llu out of range (1..%llu)", size,
			   KT_RELAY_MAX_BYTES / nr);
	/* offset is subbuf_size + 1 while a normal-mode writer is refused */
	if (st->offset > size + 1)
		return bad(why, n, "offset %llu past the sub-buffer of %llu bytes", st->offset,
			   size);
	if (bytes > size)
		return bad(why, n, "bytes_consumed %llu past the sub-buffer of %llu bytes", bytes,
			   size);
	if (consumed > produced)
		return bad(why, n, "subbufs_consumed %llu ahead of subbufs_produced %llu",
			   consumed, produced);
	for (i = 0; i < nr; i++)
		if (st->padding[i] > size)
			return bad(why, n, "padding[%llu] %llu larger than the sub-buffer", i,
				   st->padding[i]);
	p->full = st->offset == size + 1;
	if (p->full) {
		/* relay_switch_subbuf() counted the old one produced, then the
		 * client refused the switch: nothing in the current slot; a
		 * refusing writer never runs more than n_subbufs ahead */
		cur = 0;
		if (produced - consumed > nr)
			return bad(why, n, "%llu sub-buffers unread of %llu, with writes refused",
				   produced - consumed, nr);
	} else {
		cur = st->offset;
		if (produced - consumed >= nr) {
			/* flight mode: the writer went round; the reader skips
			 * to the oldest whole sub-buffer still there */
			p->overwritten = produced - nr + 1 - consumed;
			consumed = produced - nr + 1;
			bytes = 0;
		}
	}
	p->segs = calloc(produced - consumed + 1, sizeof(*p->segs));
	if (!p->segs)
		return -ENOMEM;
	for (i = consumed; i < produced; i++) {
		uint64_t slot = i % nr, end = size - st->padding[slot];
		uint64_t from = i == consumed ? bytes : 0;

		if (from < end)
			add(p, slot * size + from, end - from, from);
	}
	if (cur) {
		uint64_t from = consumed == produced ? bytes : 0;

		if (from < cur)
			add(p, (produced % nr) * size + from, cur - from, from);
	}
	return 0;
}

void kt_relay_plan__free(struct kt_relay_plan *p)
{
	free(p->segs);
	p->segs = NULL;
	p->nr_segs = 0;
}

/* a u16 or u32 of the writing kernel's byte order */
static uint32_t blk_get(bool be, const uint8_t *p, unsigned int n)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint32_t)p[be ? i : n - 1 - i] << 8 * (n - 1 - i);
	return v;
}

long kt_blk__record_len(bool be, const uint8_t *p, uint64_t len)
{
	uint32_t magic, size, pdu_off;
	uint16_t pdu;

	if (len < 4)
		return 0;
	/* MAGIC << 8 | version: 7, struct blk_io_trace; 8 (6.19+), struct blk_io_trace2 */
	magic = blk_get(be, p, 4);
	if (magic == (KT_BLK_IO_TRACE_MAGIC | KT_BLK_IO_TRACE_VERSION)) {
		size = KT_BLK_IO_TRACE_SIZE;
		pdu_off = KT_BLK_PDU_LEN_OFF;
	} else if (magic == (KT_BLK_IO_TRACE_MAGIC | KT_BLK_IO_TRACE2_VERSION)) {
		size = KT_BLK_IO_TRACE2_SIZE;
		pdu_off = KT_BLK2_PDU_LEN_OFF;
	} else {
		return 0;
	}
	if (len < size)
		return -1;
	pdu = (uint16_t)blk_get(be, p + pdu_off, 2);
	if (size + (uint64_t)pdu > len)
		return -1;
	return size + pdu;
}
