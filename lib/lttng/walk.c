// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LTTng ring buffers: the packets of one buffer in order, from values
 * read out of the dump (no target access here: the fuzzer drives it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "lttng.h"

void kt_lttng__parse_header(bool be, const uint8_t *hdr, size_t len, struct kt_lttng_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	if (len < KT_LTTNG_PH_SIZE)
		return;
	pkt->readable = true;
	pkt->magic = kt_get32(be, hdr + KT_LTTNG_PH_MAGIC);
	pkt->seq = kt_get64(be, hdr + KT_LTTNG_PH_SEQ_NUM);
	pkt->content_size = kt_get64(be, hdr + KT_LTTNG_PH_CONTENT_SIZE);
	pkt->packet_size = kt_get64(be, hdr + KT_LTTNG_PH_PACKET_SIZE);
}

void kt_lttng_plan__free(struct kt_lttng_plan *p)
{
	free(p->set);
	free(p->bytes);
	memset(p, 0, sizeof(*p));
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* a delivered packet: its header complete (client_buffer_end() ran) */
static bool delivered(const struct kt_lttng_pkt *k, uint64_t subbuf_size)
{
	return k->readable && k->magic == KT_CTF_MAGIC && k->content_size != ~0ull &&
	       k->content_size >= 8ull * KT_LTTNG_PH_SIZE && k->content_size % 8 == 0 &&
	       k->packet_size >= k->content_size && k->packet_size % 8 == 0 &&
	       k->packet_size <= 8 * subbuf_size;
}

int kt_lttng__plan(const struct kt_lttng_state *st, struct kt_lttng_plan *p, char *why, size_t n)
{
	uint64_t sb = st->subbuf_size, nsb = st->num_subbuf, pos, cur_seq, in_sb, wrap, cc, i;
	uint64_t first, seq, found;
	int err = 0;

	memset(p, 0, sizeof(*p));
	if (!pow2(sb) || sb > KT_LTTNG_MAX_SUBBUF_SIZE || sb < KT_LTTNG_PH_SIZE) {
		snprintf(why, n, "sub-buffer size %llu is not a power of two in [%u, %llu]",
			 (unsigned long long)sb, KT_LTTNG_PH_SIZE,
			 (unsigned long long)KT_LTTNG_MAX_SUBBUF_SIZE);
		return -EBADMSG;
	}
	/* client_buffer_end(): packet_size is the data rounded up to PAGE_SIZE */
	if (!pow2(st->page) || st->page < KT_LTTNG_PH_SIZE || st->page > sb) {
		snprintf(why, n, "page size %llu is not a power of two in [%u, %llu]",
			 (unsigned long long)st->page, KT_LTTNG_PH_SIZE, (unsigned long long)sb);
		return -EBADMSG;
	}
	if (!pow2(nsb) || nsb > KT_LTTNG_MAX_SUBBUFS) {
		snprintf(why, n, "%llu sub-buffers: not a power of two up to %u",
			 (unsigned long long)nsb, KT_LTTNG_MAX_SUBBUFS);
		return -EBADMSG;
	}
	if (st->nr_sets < nsb || st->nr_sets > nsb + 1) {
		snprintf(why, n, "%llu page sets for %llu sub-buffers", (unsigned long long)st->nr_sets,
			 (unsigned long long)nsb);
		return -EBADMSG;
	}
	if (st->cur_set >= st->nr_sets) {
		snprintf(why, n, "sub-buffer id index %llu out of range (%llu page sets)",
			 (unsigned long long)st->cur_set, (unsigned long long)st->nr_sets);
		return -EBADMSG;
	}
	if (st->consumed > st->offset) {
		snprintf(why, n, "consumed position 0x%llx past the write position 0x%llx",
			 (unsigned long long)st->consumed, (unsigned long long)st->offset);
		return -EBADMSG;
	}
	pos = st->offset;
	in_sb = pos & (sb - 1);
	cur_seq = pos / sb;
	/* commit_hot[].cc counts the bytes committed to this slot since the
	 * buffer was made: wrap * subbuf_size for the full turns before
	 * (lib_ring_buffer_check_deliver(): buf_trunc >> num_subbuf_order) */
	wrap = pos / (sb * nsb);
	cc = (st->commit_cur - wrap * sb) & st->commit_count_mask;
	p->set = calloc(st->nr_sets, sizeof(*p->set));
	p->bytes = calloc(st->nr_sets, sizeof(*p->bytes));
	if (!p->set || !p->bytes) {
		kt_lttng_plan__free(p);
		return -ENOMEM;
	}
	if (in_sb) {
		const struct kt_lttng_pkt *k = &st->sets[st->cur_set];

		if (in_sb < KT_LTTNG_PH_SIZE) {
			snprintf(why, n, "write position 0x%llx inside the packet header",
				 (unsigned long long)pos);
			err = -EBADMSG;
			goto fail;
		}
		if (cc > in_sb) {
			snprintf(why, n, "commit count %llu past the %llu bytes reserved in "
				 "sub-buffer %llu", (unsigned long long)cc,
				 (unsigned long long)in_sb, (unsigned long long)(cur_seq % nsb));
			err = -EBADMSG;
			goto fail;
		}
		if (!k->readable || k->magic != KT_CTF_MAGIC || k->seq != cur_seq) {
			snprintf(why, n, "the sub-buffer being written (page set %llu) has no "
				 "packet header of sequence %llu (magic 0x%x, sequence %llu)",
				 (unsigned long long)st->cur_set, (unsigned long long)cur_seq,
				 k->magic, (unsigned long long)k->seq);
			err = -EBADMSG;
			goto fail;
		}
		if (cc < KT_LTTNG_PH_SIZE)
			cc = KT_LTTNG_PH_SIZE;	/* the header itself is written */
		p->uncommitted = in_sb - cc;
		p->cur_data = cc;
	}
	/* the delivered packets: cur_seq - 1, cur_seq - 2, ... while found,
	 * at most num_subbuf - 1 (the slot being written was the oldest), and
	 * not before the reader's position */
	first = cur_seq;
	for (seq = cur_seq; seq > 0 && cur_seq - seq < nsb - (in_sb ? 1 : 0) &&
			    seq - 1 >= st->consumed / sb; seq--) {
		found = st->nr_sets;
		for (i = 0; i < st->nr_sets; i++)
			if ((!in_sb || i != st->cur_set) && delivered(&st->sets[i], sb) &&
			    st->sets[i].seq == seq - 1)
				found = i;
		if (found == st->nr_sets)
			break;
		first = seq - 1;
	}
	if (first > st->consumed / sb)
		p->overwritten = first - st->consumed / sb;
	for (seq = first; seq < cur_seq; seq++)
		for (i = 0; i < st->nr_sets; i++)
			if ((!in_sb || i != st->cur_set) && delivered(&st->sets[i], sb) &&
			    st->sets[i].seq == seq) {
				p->set[p->nr] = i;
				p->bytes[p->nr++] = st->sets[i].packet_size / 8;
				break;
			}
	for (i = 0; i < st->nr_sets; i++)
		if (st->sets[i].readable && st->sets[i].magic != KT_CTF_MAGIC &&
		    st->sets[i].magic != 0)
			p->bad_sets++;
	if (in_sb) {
		p->set[p->nr] = st->cur_set;
		/* a power of two up to sb: the rounded size is within it */
		p->bytes[p->nr++] = (cc + st->page - 1) & ~(st->page - 1);
		p->has_cur = true;
	}
	return 0;
fail:
	kt_lttng_plan__free(p);
	return err;
}

int kt_lttng__close_packet(bool be, uint8_t *pkt, size_t len, uint64_t data, uint64_t page,
			   uint64_t ts_end, uint64_t discarded)
{
	uint64_t psize;

	if (data < KT_LTTNG_PH_SIZE || data > len || len < KT_LTTNG_PH_SIZE)
		return -EBADMSG;
	psize = page ? (data + page - 1) / page * page : data;
	if (psize > len)
		psize = len;
	kt_putn(be, pkt + KT_LTTNG_PH_TS_END, ts_end, 8);
	kt_putn(be, pkt + KT_LTTNG_PH_CONTENT_SIZE, data * 8, 8);
	kt_putn(be, pkt + KT_LTTNG_PH_PACKET_SIZE, psize * 8, 8);
	kt_putn(be, pkt + KT_LTTNG_PH_DISCARDED, discarded, 8);
	/* the unused tail: zeros, as a fresh sub-buffer page after a write */
	memset(pkt + data, 0, psize - data);
	return 0;
}

int kt_lttng__check_metadata(const char *text, size_t len, char *why, size_t n)
{
	static const char trace[] = "trace {";
	size_t i;

	if (memchr(text, 0, len)) {
		snprintf(why, n, "metadata has a NUL byte at %zu of %zu",
			 (size_t)((const char *)memchr(text, 0, len) - text), len);
		return -EBADMSG;
	}
	/* lttng-events.c writes the trace block among the first declarations
	 * (_lttng_session_metadata_statedump()), the streams and events after */
	if (!memmem(text, len, trace, sizeof(trace) - 1)) {
		snprintf(why, n, "metadata (%zu bytes) has no trace block", len);
		return -EBADMSG;
	}
	i = len;
	while (i && (text[i - 1] == '\n' || text[i - 1] == ' ' || text[i - 1] == '\t'))
		i--;
	if (i < 2 || text[i - 1] != ';' || text[i - 2] != '}') {
		snprintf(why, n, "metadata cut short: %zu bytes end inside a declaration", len);
		return -EBADMSG;
	}
	return 0;
}
