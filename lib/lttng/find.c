// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LTTng kernel sessions in a dump: find them (the `sessions` list of
 * lttng-tracer), their channels and per-CPU ring buffers, and each
 * buffer's page sets and counters (read into a struct kt_lttng_state for
 * kt_lttng__plan(), walk.c). The types come from the DWARF of the lttng
 * modules (--module-debuginfo) through the target; the names and
 * meanings are those of lttng-modules 2.13 (src/lttng-events.c,
 * include/ringbuffer/{backend,frontend}_types.h). Every value is read in
 * the kernel's byte order (the target's: kt_read_member()), the packet
 * headers too (kt_lttng__parse_header()).
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "lttng.h"
#include "find.h"

static int member(struct kt_session *s, const char *type, const char *name, struct kt_member *m)
{
	uint64_t off, size;
	int err = s->t.member(s->t.priv, type, name, &off, &size);

	m->present = !err;
	m->off = (uint32_t)off;
	m->size = (uint32_t)size;
	return err;
}

#define SESSION	"struct lttng_kernel_session_private"
#define CHANP	"struct lttng_kernel_channel_buffer_private"
#define RBCHAN	"struct lttng_kernel_ring_buffer_channel"
#define RB	"struct lttng_kernel_ring_buffer"
#define PAGES	"struct lttng_kernel_ring_buffer_backend_pages"

int kt_lttng__layout(struct kt_session *s, struct kt_lttng_layout *l)
{
	int err = 0;

	memset(l, 0, sizeof(*l));
	err |= member(s, SESSION, "list", &l->s_list);
	err |= member(s, SESSION, "chan", &l->s_chan);
	err |= member(s, SESSION, "name", &l->s_name);
	err |= member(s, SESSION, "metadata_cache", &l->s_metadata_cache);
	err |= member(s, "struct lttng_metadata_cache", "data", &l->mc_data);
	err |= member(s, "struct lttng_metadata_cache", "metadata_written", &l->mc_written);
	err |= member(s, CHANP, "node", &l->c_node);
	err |= member(s, CHANP, "id", &l->c_id);
	err |= member(s, CHANP, "channel_type", &l->c_type);
	err |= member(s, CHANP, "rb_chan", &l->c_rb_chan);
	err |= member(s, RBCHAN, "commit_count_mask", &l->ch_commit_count_mask);
	err |= member(s, RBCHAN, "backend.buf", &l->ch_buf);
	err |= member(s, RBCHAN, "backend.subbuf_size", &l->ch_subbuf_size);
	err |= member(s, RBCHAN, "backend.num_subbuf", &l->ch_num_subbuf);
	err |= member(s, RBCHAN, "backend.config.alloc", &l->ch_alloc);
	err |= member(s, RBCHAN, "backend.config.mode", &l->ch_mode);
	err |= member(s, RB, "offset", &l->b_offset);
	err |= member(s, RB, "consumed", &l->b_consumed);
	err |= member(s, RB, "commit_hot", &l->b_commit_hot);
	err |= member(s, RB, "last_tsc", &l->b_last_tsc);
	err |= member(s, RB, "backend.buf_wsb", &l->b_wsb);
	err |= member(s, RB, "backend.array", &l->b_array);
	err |= member(s, RB, "backend.num_pages_per_subbuf", &l->b_pages_per_subbuf);
	err |= member(s, RB, "records_lost_full", &l->b_lost_full);
	err |= member(s, RB, "records_lost_wrap", &l->b_lost_wrap);
	err |= member(s, RB, "records_lost_big", &l->b_lost_big);
	err |= member(s, "struct commit_counters_hot", "cc", &l->cc);
	err |= member(s, PAGES, "p", &l->pages_p);
	err |= member(s, "struct lttng_kernel_ring_buffer_backend_page", "virt", &l->page_virt);
	err |= s->t.type_size(s->t.priv, "struct commit_counters_hot", &l->cc_size);
	err |= s->t.type_size(s->t.priv, "struct lttng_kernel_ring_buffer_backend_page",
			      &l->page_size);
	err |= s->t.type_size(s->t.priv, "struct lttng_kernel_ring_buffer_backend_subbuffer",
			      &l->wsb_size);
	/* channel_backend.name (the transport's), for --list only */
	member(s, RBCHAN, "backend.name", &l->ch_name);
	return err ? -ENOENT : 0;
}

/*
 * Read the buffer at @addr of channel @c into @b (page-set headers and
 * counters). 0 (@b->damaged and a message when refused), -ENOMEM.
 */
int kt_lttng__read_buf(struct kt_session *s, const struct kt_lttng_layout *l,
		       struct kt_lttng_chan *c, uint64_t addr, int cpu, struct kt_lttng_buf *b)
{
	uint64_t wsb, cur_idx, id, hot, v, i;
	uint8_t hdr[KT_LTTNG_PH_SIZE];
	char why[200];
	int err;

	memset(b, 0, sizeof(*b));
	b->addr = addr;
	b->cpu = cpu;
	b->st.subbuf_size = c->subbuf_size;
	b->st.num_subbuf = c->num_subbuf;
	b->st.commit_count_mask = c->commit_count_mask;
	if (kt_read_member(s, addr, &l->b_offset, &b->st.offset) ||
	    kt_read_member(s, addr, &l->b_consumed, &b->st.consumed) ||
	    kt_read_member(s, addr, &l->b_commit_hot, &hot) ||
	    kt_read_member(s, addr, &l->b_wsb, &wsb) ||
	    kt_read_member(s, addr, &l->b_array, &b->array) ||
	    kt_read_member(s, addr, &l->b_pages_per_subbuf, &b->pages_per_subbuf)) {
		kt_warn(s, "lttng: channel %u of session %s: cannot read the buffer of cpu %d at "
			   "0x%llx", c->id, c->session, cpu, (unsigned long long)addr);
		c->loss.bufs_unreadable++;
		b->damaged = true;
		return 0;
	}
	kt_read_member(s, addr, &l->b_last_tsc, &b->last_tsc);
	if (!kt_read_member(s, addr, &l->b_lost_full, &v))
		b->discarded += v;
	if (!kt_read_member(s, addr, &l->b_lost_wrap, &v))
		b->discarded += v;
	if (!kt_read_member(s, addr, &l->b_lost_big, &v))
		b->discarded += v;
	if (!b->array)
		return 0;	/* never allocated: a CPU never online */
	if (!c->num_subbuf || c->num_subbuf > KT_LTTNG_MAX_SUBBUFS || !c->subbuf_size ||
	    !b->pages_per_subbuf || c->subbuf_size % b->pages_per_subbuf ||
	    c->subbuf_size / b->pages_per_subbuf < KT_LTTNG_PH_SIZE) {
		kt_warn(s, "lttng: channel %u of session %s: buffer of cpu %d at 0x%llx: %llu "
			   "sub-buffers of %llu bytes in %llu pages: refused", c->id, c->session,
			cpu, (unsigned long long)addr, (unsigned long long)c->num_subbuf,
			(unsigned long long)c->subbuf_size,
			(unsigned long long)b->pages_per_subbuf);
		c->loss.bufs_damaged++;
		b->damaged = true;
		return 0;
	}
	b->page = c->subbuf_size / b->pages_per_subbuf;
	b->st.page = b->page;
	/* overwrite mode keeps one more page set for the reader (extra_reader_sb) */
	b->st.nr_sets = c->num_subbuf + (c->overwrite ? 1 : 0);
	b->sets = calloc(b->st.nr_sets, sizeof(*b->sets));
	b->set_addr = calloc(b->st.nr_sets, sizeof(*b->set_addr));
	if (!b->sets || !b->set_addr)
		return -ENOMEM;
	b->st.sets = b->sets;
	for (i = 0; i < b->st.nr_sets; i++) {
		uint64_t pages, virt;

		if (kt_read_u64(s, b->array + 8 * i, &pages) || !pages ||
		    kt_read_u64(s, pages + l->pages_p.off, &virt) || !virt ||
		    kt_read(s, virt, hdr, sizeof(hdr)))
			continue;	/* not readable: plan() skips it */
		b->set_addr[i] = pages;
		kt_lttng__parse_header(s->l.be, hdr, sizeof(hdr), &b->sets[i]);
	}
	/* the slot being written: buf_wsb[index of offset].id */
	cur_idx = (b->st.offset / c->subbuf_size) & (c->num_subbuf - 1);
	b->id_addr = wsb + cur_idx * l->wsb_size;
	b->cc_addr = hot + cur_idx * l->cc_size + l->cc.off;
	if (kt_read_u64(s, wsb + cur_idx * l->wsb_size, &id) ||
	    kt_read_member(s, hot + cur_idx * l->cc_size, &l->cc, &b->st.commit_cur)) {
		kt_warn(s, "lttng: channel %u of session %s: buffer of cpu %d at 0x%llx: cannot "
			   "read sub-buffer %llu's id or commit count", c->id, c->session, cpu,
			(unsigned long long)addr, (unsigned long long)cur_idx);
		c->loss.bufs_unreadable++;
		b->damaged = true;
		return 0;
	}
	/* include/ringbuffer/backend_internal.h: in overwrite mode the index is
	 * the low half of the id (the high half: noref flag, offset count) */
	b->st.cur_set = c->overwrite ? id & 0xffffffffull : id;
	err = kt_lttng__plan(&b->st, &b->plan, why, sizeof(why));
	if (err == -EBADMSG) {
		kt_warn(s, "lttng: channel %u of session %s: buffer of cpu %d at 0x%llx: %s: "
			   "refused", c->id, c->session, cpu, (unsigned long long)addr, why);
		c->loss.bufs_damaged++;
		b->damaged = true;
		return 0;
	}
	if (err)
		return err;
	c->loss.packets_overwritten += b->plan.overwritten;
	c->loss.bytes_uncommitted += b->plan.uncommitted;
	c->loss.sets_damaged += b->plan.bad_sets;
	c->packets += b->plan.nr;
	return 0;
}

/* page set @set of @b, @len bytes of it, into @out */
int kt_lttng__read_set(struct kt_session *s, const struct kt_lttng_layout *l,
		       const struct kt_lttng_buf *b, uint64_t set, uint8_t *out, uint64_t len)
{
	uint64_t j, virt, n;

	if (set >= b->st.nr_sets || !b->set_addr[set])
		return -EFAULT;
	for (j = 0; j * b->page < len; j++) {
		n = len - j * b->page < b->page ? len - j * b->page : b->page;
		if (kt_read_u64(s, b->set_addr[set] + l->pages_p.off + j * l->page_size +
					   l->page_virt.off, &virt) || !virt ||
		    kt_read(s, virt, out + j * b->page, n))
			return -EFAULT;
	}
	return 0;
}
