// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Relay channels in a dump: find them, read their buffers.
 *
 * find: relay_open() puts every channel on relay_channels (a static
 * LIST_HEAD of kernel/relay.c) through rchan.list. A channel's buffers
 * are per CPU (rchan.buf is a percpu pointer to struct rchan_buf *;
 * per_cpu_ptr() adds __per_cpu_offset[cpu]), or one shared by every CPU
 * when is_global (the one of CPU 0).
 * walk: each buffer's state through kt_relay__plan() (walk.c), refused
 * with a message when a value is out of range.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "relay.h"

struct relay_layout {
	struct kt_member ch_subbuf_size, ch_n_subbufs, ch_cb, ch_private_data, ch_buf,
		ch_is_global, ch_list, ch_parent, ch_base_filename;
	struct kt_member b_start, b_offset, b_produced, b_consumed, b_dentry, b_padding,
		b_bytes_consumed, b_cpu;
	/* after 6.12 (6.12 has not, 7.2 has): what relay itself dropped
	 * (refused while full, too big) */
	struct kt_member b_full_count, b_big_count;
	struct kt_member d_name;	/* dentry.d_name.name */
};

static int probe_layout(struct kt_session *s, struct relay_layout *l)
{
	int err = 0;

	err |= kt_member__probe(s, "struct rchan", "subbuf_size", &l->ch_subbuf_size);
	err |= kt_member__probe(s, "struct rchan", "n_subbufs", &l->ch_n_subbufs);
	err |= kt_member__probe(s, "struct rchan", "cb", &l->ch_cb);
	err |= kt_member__probe(s, "struct rchan", "private_data", &l->ch_private_data);
	err |= kt_member__probe(s, "struct rchan", "buf", &l->ch_buf);
	err |= kt_member__probe(s, "struct rchan", "is_global", &l->ch_is_global);
	err |= kt_member__probe(s, "struct rchan", "list", &l->ch_list);
	err |= kt_member__probe(s, "struct rchan", "base_filename", &l->ch_base_filename);
	err |= kt_member__probe(s, "struct rchan_buf", "start", &l->b_start);
	err |= kt_member__probe(s, "struct rchan_buf", "offset", &l->b_offset);
	err |= kt_member__probe(s, "struct rchan_buf", "subbufs_produced", &l->b_produced);
	err |= kt_member__probe(s, "struct rchan_buf", "subbufs_consumed", &l->b_consumed);
	err |= kt_member__probe(s, "struct rchan_buf", "padding", &l->b_padding);
	err |= kt_member__probe(s, "struct rchan_buf", "bytes_consumed", &l->b_bytes_consumed);
	/* names only: without them a channel is still read */
	kt_member__probe(s, "struct rchan", "parent", &l->ch_parent);
	kt_member__probe(s, "struct rchan_buf", "dentry", &l->b_dentry);
	kt_member__probe(s, "struct rchan_buf", "cpu", &l->b_cpu);
	kt_member__probe(s, "struct rchan_buf", "stats.full_count", &l->b_full_count);
	kt_member__probe(s, "struct rchan_buf", "stats.big_count", &l->b_big_count);
	kt_member__probe(s, "struct dentry", "d_name.name", &l->d_name);
	return err ? -ENOENT : 0;
}

void kt_relay__ask_layout(struct kt_session *s)
{
	struct relay_layout l;

	probe_layout(s, &l);
	kt_relay__blktrace_ask_layout(s);
}

void kt_relay__free(struct kt_relay *r)
{
	int i, j;

	if (!r)
		return;
	for (i = 0; i < r->nr_chans; i++) {
		struct kt_relay_chan *c = &r->chans[i];

		for (j = 0; j < c->nr_bufs; j++) {
			free(c->bufs[j].padding);
			free(c->bufs[j].file);
			kt_relay_plan__free(&c->bufs[j].plan);
		}
		free(c->bufs);
		free(c->parent);
	}
	free(r->chans);
	free(r);
}

/* the name of the dentry at @d, or NULL */
static char *dentry_name(struct kt_session *s, const struct relay_layout *l, uint64_t d)
{
	uint64_t name;
	char *out = NULL;

	if (!d || !l->d_name.present || kt_read_member(s, d, &l->d_name, &name) || !name ||
	    kt_read_string(s, name, 256, &out))
		return NULL;
	return out;
}

/* struct rchan_buf at @addr of channel @c: its state, padding[] and plan */
static int read_buf(struct kt_session *s, const struct relay_layout *l, struct kt_relay_chan *c,
		    uint64_t addr, int cpu)
{
	struct kt_relay_buf *b = &c->bufs[c->nr_bufs];
	uint64_t v, pad, i;
	uint8_t *raw = NULL;
	char why[160];
	int err;

	memset(b, 0, sizeof(*b));
	b->addr = addr;
	b->cpu = cpu;
	b->st.subbuf_size = c->subbuf_size;
	b->st.n_subbufs = c->n_subbufs;
	if (kt_read_member(s, addr, &l->b_start, &b->start) ||
	    kt_read_member(s, addr, &l->b_offset, &b->st.offset) ||
	    kt_read_member(s, addr, &l->b_produced, &b->st.produced) ||
	    kt_read_member(s, addr, &l->b_consumed, &b->st.consumed) ||
	    kt_read_member(s, addr, &l->b_bytes_consumed, &b->st.bytes_consumed) ||
	    kt_read_member(s, addr, &l->b_padding, &pad)) {
		kt_warn(s, "relay: channel %s at 0x%llx: cannot read struct rchan_buf at 0x%llx "
			   "(cpu %d)", c->base_filename, (unsigned long long)c->addr,
			(unsigned long long)addr, cpu);
		c->loss.bufs_unreadable++;
		return 0;
	}
	if (l->b_cpu.present && !kt_read_member(s, addr, &l->b_cpu, &v) && !c->global)
		b->cpu = v < KT_MAX_CPUS ? (int)v : cpu;
	if (l->b_dentry.present && !kt_read_member(s, addr, &l->b_dentry, &v))
		b->file = dentry_name(s, l, v);
	if (l->b_full_count.present && l->b_big_count.present) {
		uint64_t full, big;

		if (!kt_read_member(s, addr, &l->b_full_count, &full) &&
		    !kt_read_member(s, addr, &l->b_big_count, &big)) {
			c->has_stats = true;
			c->stats_dropped += (uint32_t)full + (uint64_t)(uint32_t)big;
		}
	}
	c->nr_bufs++;
	if (!c->n_subbufs || c->n_subbufs > KT_RELAY_MAX_SUBBUFS) {
		why[0] = 0;	/* kt_relay__plan() says why */
		goto plan;
	}
	b->padding = calloc(c->n_subbufs, sizeof(*b->padding));
	raw = malloc(c->n_subbufs * 8);
	if (!b->padding || !raw) {
		err = -ENOMEM;
		goto out;
	}
	if (!b->start || !pad || kt_read(s, pad, raw, c->n_subbufs * 8)) {
		kt_warn(s, "relay: channel %s at 0x%llx: buffer of cpu %d at 0x%llx: cannot read "
			   "its start 0x%llx or padding[%llu] at 0x%llx",
			c->base_filename, (unsigned long long)c->addr, b->cpu,
			(unsigned long long)addr, (unsigned long long)b->start,
			(unsigned long long)c->n_subbufs, (unsigned long long)pad);
		c->loss.bufs_unreadable++;
		b->damaged = true;
		err = 0;
		goto out;
	}
	for (i = 0; i < c->n_subbufs; i++)
		b->padding[i] = kt_get64(s->l.be, raw + 8 * i);
plan:
	b->st.padding = b->padding;
	err = kt_relay__plan(&b->st, &b->plan, why, sizeof(why));
	if (err == -EBADMSG) {
		kt_warn(s, "relay: channel %s at 0x%llx: buffer of cpu %d at 0x%llx: %s: refused",
			c->base_filename, (unsigned long long)c->addr, b->cpu,
			(unsigned long long)addr, why);
		c->loss.bufs_damaged++;
		b->damaged = true;
		err = 0;
	} else if (!err) {
		c->unread += b->plan.unread;
		c->loss.subbufs_overwritten += b->plan.overwritten;
	}
out:
	free(raw);
	return err;
}

/* the struct rchan at @addr */
static int read_chan(struct kt_session *s, const struct relay_layout *l, uint64_t addr,
		     struct kt_relay_chan *c)
{
	uint64_t global, bufp, parent, percpu, off, bp;
	int cpu, ncpu, err;
	char name[256];

	memset(c, 0, sizeof(*c));
	c->addr = addr;
	if (kt_read_member(s, addr, &l->ch_subbuf_size, &c->subbuf_size) ||
	    kt_read_member(s, addr, &l->ch_n_subbufs, &c->n_subbufs) ||
	    kt_read_member(s, addr, &l->ch_cb, &c->cb) ||
	    kt_read_member(s, addr, &l->ch_private_data, &c->private_data) ||
	    kt_read_member(s, addr, &l->ch_buf, &bufp) ||
	    kt_read_member(s, addr, &l->ch_is_global, &global))
		return kt_err(EFAULT, "relay: cannot read struct rchan at 0x%llx",
			      (unsigned long long)addr);
	c->global = global != 0;
	memset(name, 0, sizeof(name));
	if (!kt_read(s, addr + l->ch_base_filename.off, name,
		     l->ch_base_filename.size < sizeof(name) - 1 ? l->ch_base_filename.size :
								    sizeof(name) - 1))
		snprintf(c->base_filename, sizeof(c->base_filename), "%s", name);
	if (l->ch_parent.present && !kt_read_member(s, addr, &l->ch_parent, &parent))
		c->parent = dentry_name(s, l, parent);
	ncpu = c->global ? 1 : s->nr_cpu_ids;
	c->bufs = calloc(ncpu > 0 ? ncpu : 1, sizeof(*c->bufs));
	if (!c->bufs)
		return -ENOMEM;
	if (kt_symbol(s, "__per_cpu_offset", &percpu)) {
		kt_warn(s, "relay: no symbol __per_cpu_offset: the buffers of channel %s at "
			   "0x%llx are not found", c->base_filename, (unsigned long long)addr);
		c->loss.bufs_unreadable++;
		return 0;
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (kt_read_u64(s, percpu + 8 * (uint64_t)cpu, &off) ||
		    kt_read_u64(s, bufp + off, &bp)) {
			c->loss.bufs_unreadable++;
			continue;
		}
		if (!bp)
			continue;	/* no buffer: CPU never online */
		err = read_buf(s, l, c, bp, c->global ? -1 : cpu);
		if (err)
			return err;
	}
	return 0;
}

static void owner_symbol(struct kt_session *s, struct kt_relay_chan *c)
{
	const char *mod = NULL, *sym;
	uint64_t start = 0, size = 0;

	if (c->owner[0])
		return;
	sym = c->cb ? kt_symbol_lookup(s, c->cb, &start, &size, &mod) : NULL;
	if (sym && start == c->cb)
		snprintf(c->owner, sizeof(c->owner), "%s%s%s%s", sym, mod ? " [" : "",
			 mod ? mod : "", mod ? "]" : "");
	else
		snprintf(c->owner, sizeof(c->owner), "callbacks 0x%llx",
			 (unsigned long long)c->cb);
}

static int relay_load(struct kt_session *s, struct kt_relay *r)
{
	struct relay_layout l;
	struct kt_seen seen = { 0 };
	uint64_t head, node;
	int err = 0;

	if (kt_symbol(s, "relay_channels", &head))
		return 0;	/* no relay in this kernel (CONFIG_RELAY=n) */
	if (kt_read_u64(s, head + s->l.lh_next.off, &node))
		return kt_err(EFAULT, "relay: cannot read relay_channels at 0x%llx",
			      (unsigned long long)head);
	if (node == head)
		return 0;	/* no channel: the types are not needed */
	if (probe_layout(s, &l))
		return kt_err(ENOENT, "relay: the types struct rchan and struct rchan_buf are "
				      "unknown (no debuginfo for kernel/relay.c)");
	while (node != head) {
		struct kt_relay_chan *n;

		if (!node || r->nr_chans >= KT_RELAY_MAX_CHANNELS ||
		    kt_seen__add(&seen, node)) {
			kt_warn(s, "relay: relay_channels is broken or loops at 0x%llx",
				(unsigned long long)node);
			r->loss.list_anomalies++;
			break;
		}
		n = realloc(r->chans, (r->nr_chans + 1) * sizeof(*n));
		if (!n) {
			err = -ENOMEM;
			goto out;
		}
		r->chans = n;
		n = &r->chans[r->nr_chans];
		err = read_chan(s, &l, node - l.ch_list.off, n);
		r->nr_chans++;
		if (err == -EFAULT) {
			kt_warn(s, "%s", kt_last_error());
			r->loss.list_anomalies++;
			err = 0;
			break;
		}
		if (err)
			goto out;
		kt_relay__blktrace_owner(s, n);
		owner_symbol(s, n);
		if (kt_read_u64(s, node + s->l.lh_next.off, &node)) {
			r->loss.list_anomalies++;
			break;
		}
	}
out:
	kt_seen__free(&seen);
	return err;
}

/* the relay channels' find (recorder.c): every channel on relay_channels */
static int relay_find(struct kt_session *s, void **state)
{
	struct kt_relay *r = calloc(1, sizeof(*r));

	if (!r)
		return kt_err(ENOMEM, "relay channels: out of memory");
	*state = r;	/* kept on failure too, as a partly read list is */
	return relay_load(s, r);
}

static void relay_free(void *state)
{
	kt_relay__free(state);
}

void kt_relay__add_losses(const struct kt_relay *r, enum kt_relay_scope scope,
			  struct kt_relay_loss *l)
{
	int i;

	for (i = 0; i < r->nr_chans; i++) {
		struct kt_relay_loss c = r->chans[i].loss;

		if (scope == KT_RELAY_BLKTRACE && !r->chans[i].blk_trace)
			continue;
		/* what blktrace's decoding skipped (a kt_blktrace__write() on
		 * this session before) is not lost from a raw copy */
		if (scope == KT_RELAY_RAW)
			c.bytes_skipped = c.records_cut = 0;
		kt_relay_loss__add(l, &c);
	}
	kt_relay_loss__add(l, &r->loss);
}

/* relay's section of the account: every channel's counts and the list walk's */
static void relay_losses(const void *state, struct kt_losses *l)
{
	kt_relay__add_losses(state, KT_RELAY_ALL, &l->relay);
}

const struct kt_recorder_ops kt_relay_recorder = {
	.find = relay_find,
	.free = relay_free,
	.loss = relay_losses,
};

/* the channels, found on first use: NULL with kt_err() said */
struct kt_relay *kt_relay__get(struct kt_session *s)
{
	return kt_recorder__get(s, KT_REC_RELAY);
}

int kt_session__relay_cnt(struct kt_session *s)
{
	struct kt_relay *r = kt_relay__get(s);

	return r ? r->nr_chans : kt_recorder__err(s, KT_REC_RELAY);
}

struct kt_relay_chan *kt_session__relay(struct kt_session *s, int idx)
{
	struct kt_relay *r = kt_relay__get(s);

	if (!r || idx < 0 || idx >= r->nr_chans)
		return NULL;
	return &r->chans[idx];
}

void kt_relay_chan__info(const struct kt_relay_chan *c, struct kt_relay_info *info)
{
	memset(info, 0, sizeof(*info));
	info->addr = c->addr;
	info->base_filename = c->base_filename;
	info->parent = c->parent;
	info->owner = c->owner;
	info->global = c->global;
	info->subbuf_size = c->subbuf_size;
	info->n_subbufs = c->n_subbufs;
	info->nr_bufs = c->nr_bufs;
	info->unread = c->unread;
	info->blktrace = c->blk_trace != 0;
	info->loss = c->loss;
}
