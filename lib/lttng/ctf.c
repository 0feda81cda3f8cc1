// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * LTTng sessions of a dump as CTF 1.8 trace directories: the session
 * walk (lttng-tracer's `sessions` list, each session's channel list) and
 * the writer. A packet is copied as LTTng wrote it; only the one being
 * written at the crash is closed here, as client_buffer_end() would have
 * closed it at its sub-buffer switch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../internal.h"
#include "lttng.h"
#include "find.h"

#define LTTNG_MODULE	"lttng_tracer"

static void chan_free(struct kt_lttng_chan *c)
{
	int i;

	for (i = 0; i < c->nr_bufs; i++) {
		free(c->bufs[i].sets);
		free(c->bufs[i].set_addr);
		kt_lttng_plan__free(&c->bufs[i].plan);
	}
	free(c->bufs);
	memset(c, 0, sizeof(*c));
}

/* the channel at @cp (struct lttng_kernel_channel_buffer_private *) and its buffers */
static int chan_read(struct kt_session *s, const struct kt_lttng_layout *l, uint64_t cp,
		     const char *session, struct kt_lttng_chan *c, bool *metadata)
{
	uint64_t id, type, rb, buf, alloc, mode, percpu, off;
	int cpu, err;

	memset(c, 0, sizeof(*c));
	c->addr = cp;
	c->session = session;
	*metadata = false;
	if (kt_read_member(s, cp, &l->c_id, &id) || kt_read_member(s, cp, &l->c_type, &type) ||
	    kt_read_member(s, cp, &l->c_rb_chan, &rb) || !rb ||
	    kt_read_member(s, rb, &l->ch_commit_count_mask, &c->commit_count_mask) ||
	    kt_read_member(s, rb, &l->ch_buf, &buf) ||
	    kt_read_member(s, rb, &l->ch_subbuf_size, &c->subbuf_size) ||
	    kt_read_member(s, rb, &l->ch_num_subbuf, &c->num_subbuf) ||
	    kt_read_member(s, rb, &l->ch_alloc, &alloc) ||
	    kt_read_member(s, rb, &l->ch_mode, &mode)) {
		kt_warn(s, "lttng: session %s: cannot read the channel at 0x%llx", session,
			(unsigned long long)cp);
		c->loss.chans_damaged++;
		return 0;
	}
	c->id = (unsigned int)id;
	/* enum channel_type { PER_CPU_CHANNEL, METADATA_CHANNEL }: the metadata
	 * channel's content is the metadata cache, written from there */
	if (type == 1) {
		*metadata = true;
		return 0;
	}
	/* config.mode: RING_BUFFER_OVERWRITE 0, RING_BUFFER_DISCARD 1;
	 * config.alloc: RING_BUFFER_ALLOC_PER_CPU 0 (include/ringbuffer/config.h) */
	c->overwrite = mode == 0;
	if (alloc != 0 || mode > 1) {
		kt_warn(s, "lttng: session %s: channel %u at 0x%llx: alloc %llu, mode %llu: not a "
			   "per-CPU kernel channel, refused", session, c->id,
			(unsigned long long)cp, (unsigned long long)alloc,
			(unsigned long long)mode);
		c->loss.chans_damaged++;
		return 0;
	}
	if (kt_symbol(s, "__per_cpu_offset", &percpu)) {
		kt_warn(s, "lttng: no symbol __per_cpu_offset: the buffers of channel %u are not "
			   "found", c->id);
		c->loss.chans_damaged++;
		return 0;
	}
	c->bufs = calloc(s->nr_cpu_ids > 0 ? s->nr_cpu_ids : 1, sizeof(*c->bufs));
	if (!c->bufs)
		return -ENOMEM;
	for (cpu = 0; cpu < s->nr_cpu_ids; cpu++) {
		if (kt_read_u64(s, percpu + 8 * (uint64_t)cpu, &off)) {
			c->loss.bufs_unreadable++;
			continue;
		}
		err = kt_lttng__read_buf(s, l, c, buf + off, cpu, &c->bufs[c->nr_bufs]);
		if (err)
			return err;
		if (c->bufs[c->nr_bufs].array || c->bufs[c->nr_bufs].damaged)
			c->nr_bufs++;
	}
	return 0;
}

static int write_buf(struct kt_session *s, const struct kt_lttng_layout *l,
		     struct kt_lttng_chan *c, struct kt_lttng_buf *b, const char *path,
		     uint64_t *bytes)
{
	uint8_t *pkt = malloc(c->subbuf_size);
	FILE *f = NULL;
	uint64_t k, n;
	int err = 0;

	if (!pkt)
		return -ENOMEM;
	f = fopen(path, "wb");
	if (!f) {
		err = kt_err(errno, "cannot create %s: %s", path, strerror(errno));
		goto out;
	}
	for (k = 0; k < b->plan.nr; k++) {
		bool cur = b->plan.has_cur && k == b->plan.nr - 1;

		n = b->plan.bytes[k];
		memset(pkt, 0, c->subbuf_size);
		if (kt_lttng__read_set(s, l, b, b->plan.set[k], pkt,
				       cur ? b->plan.cur_data : n)) {
			kt_warn(s, "lttng: channel %u of session %s, cpu %d: packet in page set "
				   "%llu not in the dump", c->id, c->session, b->cpu,
				(unsigned long long)b->plan.set[k]);
			c->loss.packets_unreadable++;
			continue;
		}
		if (cur && kt_lttng__close_packet(s->l.be, pkt, c->subbuf_size, b->plan.cur_data,
						  b->page, b->last_tsc, b->discarded)) {
			c->loss.bufs_damaged++;
			continue;
		}
		if (fwrite(pkt, 1, n, f) != n) {
			err = kt_err(EIO, "cannot write %s", path);
			goto out;
		}
		*bytes += n;
	}
out:
	if (f && fclose(f) && !err)
		err = kt_err(EIO, "cannot write %s", path);
	free(pkt);
	return err;
}

static int write_metadata(struct kt_session *s, const struct kt_lttng_layout *l, uint64_t sp,
			  const char *name, const char *path, FILE *log, struct kt_lttng_loss *loss)
{
	uint64_t cache, data, len;
	char *text = NULL, why[160];
	FILE *f;
	int err = 0;

	if (kt_read_member(s, sp, &l->s_metadata_cache, &cache) || !cache ||
	    kt_read_member(s, cache, &l->mc_data, &data) ||
	    kt_read_member(s, cache, &l->mc_written, &len) || !data) {
		kt_warn(s, "lttng: session %s at 0x%llx: cannot read its metadata cache", name,
			(unsigned long long)sp);
		loss->sessions_damaged++;
		return -EBADMSG;
	}
	if (log)
		fprintf(log, "lttng: session %s at 0x%llx: metadata cache at 0x%llx: %llu bytes at "
			     "0x%llx (metadata_written at 0x%llx)\n", name, (unsigned long long)sp,
			(unsigned long long)cache, (unsigned long long)len,
			(unsigned long long)data, (unsigned long long)(cache + l->mc_written.off));
	if (!len || len > KT_LTTNG_MAX_METADATA) {
		kt_warn(s, "lttng: session %s: metadata cache at 0x%llx claims %llu bytes: refused",
			name, (unsigned long long)cache, (unsigned long long)len);
		loss->sessions_damaged++;
		return -EBADMSG;
	}
	text = malloc(len);
	if (!text)
		return -ENOMEM;
	if (kt_read(s, data, text, len)) {
		kt_warn(s, "lttng: session %s: metadata (%llu bytes at 0x%llx) not in the dump",
			name, (unsigned long long)len, (unsigned long long)data);
		loss->sessions_damaged++;
		err = -EBADMSG;
		goto out;
	}
	if (kt_lttng__check_metadata(text, len, why, sizeof(why))) {
		kt_warn(s, "lttng: session %s: metadata cache at 0x%llx: %s: refused", name,
			(unsigned long long)cache, why);
		loss->sessions_damaged++;
		err = -EBADMSG;
		goto out;
	}
	/* the kernel's cache holds the declarations only: the signature a
	 * plain-text CTF metadata file starts with is the consumer's to add */
	f = fopen(path, "wb");
	if (!f || fputs("/* CTF 1.8 */\n\n", f) < 0 || fwrite(text, 1, len, f) != len || fclose(f)) {
		err = kt_err(errno ? errno : EIO, "cannot write %s", path);
		goto out;
	}
out:
	free(text);
	return err;
}

static int mkdirs(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return kt_err(errno, "cannot create %s: %s", path, strerror(errno));
	return 0;
}

/*
 * Each session: @fn(arg, session address, name). Bounded and cycle-checked.
 */
/* what the LTTng recorder's find keeps (recorder.c): the layout and the sessions list */
struct lttng_found {
	struct kt_lttng_layout l;
	uint64_t head;		/* lttng_tracer's sessions */
	struct kt_lttng_loss loss;	/* what every walk (write, list) counted: the account's */
};

static int lttng_find(struct kt_session *s, void **state)
{
	struct lttng_found *f;
	uint64_t head, size;

	if (kt_modsyms__find(s, LTTNG_MODULE, "sessions", &head, &size))
		return kt_err(ENOENT, "lttng: no symbol sessions in module %s (lttng-modules "
				      "not loaded)", LTTNG_MODULE);
	f = calloc(1, sizeof(*f));
	if (!f)
		return kt_err(ENOMEM, "lttng: out of memory");
	f->head = head;
	*state = f;
	if (kt_lttng__layout(s, &f->l))
		return kt_err(ENOENT, "lttng: the lttng-modules types (struct "
				      "lttng_kernel_session_private, struct lttng_kernel_ring_buffer, "
				      "...) are unknown: give the modules' DWARF (--module-debuginfo)");
	return 0;
}

static void lttng_losses(const void *state, struct kt_losses *l)
{
	const struct lttng_found *f = state;

	kt_lttng_loss__add(&l->lttng, &f->loss);
}

const struct kt_recorder_ops kt_lttng_recorder = {
	.find = lttng_find,
	.free = free,
	.loss = lttng_losses,
};

static int for_each_session(struct kt_session *s, const struct kt_lttng_layout *l,
			    uint64_t head, struct kt_lttng_loss *loss,
			    int (*fn)(void *arg, uint64_t sp, const char *name), void *arg)
{
	struct kt_seen seen = { 0 };
	uint64_t node;
	char name[256];
	int n = 0, err = 0;

	if (kt_read_u64(s, head + s->l.lh_next.off, &node))
		return kt_err(EFAULT, "lttng: cannot read sessions at 0x%llx",
			      (unsigned long long)head);
	while (node != head) {
		uint64_t sp = node - l->s_list.off;
		size_t nl = l->s_name.size < sizeof(name) ? l->s_name.size : sizeof(name) - 1;

		if (!node || n++ >= KT_LTTNG_MAX_SESSIONS || kt_seen__add(&seen, node)) {
			kt_warn(s, "lttng: the sessions list is broken or loops at 0x%llx",
				(unsigned long long)node);
			loss->list_anomalies++;
			break;
		}
		memset(name, 0, sizeof(name));
		if (kt_read(s, sp + l->s_name.off, name, nl) || !name[0] ||
		    strchr(name, '/') || name[0] == '.')
			snprintf(name, sizeof(name), "session-%d", n);
		name[sizeof(name) - 1] = 0;
		err = fn(arg, sp, name);
		if (err)
			break;
		if (kt_read_u64(s, node + s->l.lh_next.off, &node)) {
			loss->list_anomalies++;
			break;
		}
	}
	kt_seen__free(&seen);
	return err;
}

/* each channel of session @sp: @fn(arg, channel) */
static int for_each_chan(struct kt_session *s, const struct kt_lttng_layout *l, uint64_t sp,
			 const char *name, struct kt_lttng_loss *loss,
			 int (*fn)(void *arg, struct kt_lttng_chan *c), void *arg)
{
	struct kt_seen seen = { 0 };
	uint64_t head = sp + l->s_chan.off, node;
	struct kt_lttng_chan c;
	bool meta;
	int n = 0, err = 0;

	if (kt_read_u64(s, head + s->l.lh_next.off, &node)) {
		loss->list_anomalies++;
		return 0;
	}
	while (node != head) {
		if (!node || n++ >= KT_LTTNG_MAX_CHANNELS || kt_seen__add(&seen, node)) {
			kt_warn(s, "lttng: session %s: the channel list is broken or loops at 0x%llx",
				name, (unsigned long long)node);
			loss->list_anomalies++;
			break;
		}
		err = chan_read(s, l, node - l->c_node.off, name, &c, &meta);
		if (!err && !meta)
			err = fn(arg, &c);
		kt_lttng_loss__add(loss, &c.loss);
		chan_free(&c);
		if (err)
			break;
		if (kt_read_u64(s, node + s->l.lh_next.off, &node)) {
			loss->list_anomalies++;
			break;
		}
	}
	kt_seen__free(&seen);
	return err;
}

struct write_arg {
	struct kt_session *s;
	struct kt_lttng_layout *l;
	const char *dir;
	char kdir[4096];
	FILE *log;
	struct kt_lttng_loss *loss;
	int sessions;
	uint64_t bytes;
};

static int write_chan(void *arg, struct kt_lttng_chan *c)
{
	struct write_arg *a = arg;
	char path[4200];
	int i, err;

	for (i = 0; i < c->nr_bufs; i++) {
		if (a->log)
			fprintf(a->log, "lttng: session %s: channel %u: cpu %d: buffer at 0x%llx, "
					"write position 0x%llx (its sub-buffer's id at 0x%llx, "
					"commit count at 0x%llx): %s\n", c->session, c->id,
				c->bufs[i].cpu, (unsigned long long)c->bufs[i].addr,
				(unsigned long long)c->bufs[i].st.offset,
				(unsigned long long)c->bufs[i].id_addr,
				(unsigned long long)c->bufs[i].cc_addr,
				c->bufs[i].damaged ? "refused" : "read");
		if (c->bufs[i].damaged)
			continue;
		snprintf(path, sizeof(path), "%s/chan%u_%d", a->kdir, c->id, c->bufs[i].cpu);
		err = write_buf(a->s, a->l, c, &c->bufs[i], path, &a->bytes);
		if (err)
			return err;
	}
	if (a->log)
		fprintf(a->log, "lttng: session %s: channel %u (%s, %llu x %llu bytes): %d "
				"buffers, %llu packets\n", c->session, c->id,
			c->overwrite ? "overwrite" : "discard", (unsigned long long)c->num_subbuf,
			(unsigned long long)c->subbuf_size, c->nr_bufs,
			(unsigned long long)c->packets);
	return 0;
}

static int write_session(void *arg, uint64_t sp, const char *name)
{
	struct write_arg *a = arg;
	char path[4200];
	int err;

	snprintf(a->kdir, sizeof(a->kdir), "%s/%s", a->dir, name);
	err = mkdirs(a->kdir);
	if (err)
		return err;
	snprintf(a->kdir, sizeof(a->kdir), "%s/%s/kernel", a->dir, name);
	err = mkdirs(a->kdir);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/metadata", a->kdir);
	err = write_metadata(a->s, a->l, sp, name, path, a->log, a->loss);
	if (err == -EBADMSG)
		return 0;	/* without metadata the streams cannot be read: counted */
	if (err)
		return err;
	a->bytes = 0;
	err = for_each_chan(a->s, a->l, sp, name, a->loss, write_chan, a);
	if (!err && a->log)
		fprintf(a->log, "lttng: wrote %s (%llu bytes of packets)\n", a->kdir,
			(unsigned long long)a->bytes);
	a->sessions++;
	return err;
}

int kt_lttng__write_ctf(struct kt_session *s, const char *dir, FILE *log,
			struct kt_lttng_loss *loss)
{
	struct lttng_found *f = kt_recorder__get(s, KT_REC_LTTNG);
	struct kt_lttng_loss wl = { 0 };
	struct write_arg a = { .s = s, .dir = dir, .log = log, .loss = &wl };
	int err;

	if (!f)
		return kt_recorder__err(s, KT_REC_LTTNG);
	a.l = &f->l;
	err = for_each_session(s, &f->l, f->head, &wl, write_session, &a);
	/* this write's count: the session's account's and the caller's */
	kt_lttng_loss__add(&f->loss, &wl);
	if (loss)
		kt_lttng_loss__add(loss, &wl);
	if (err)
		return err;
	if (!a.sessions && !kt_lttng_loss__any(&wl))
		return kt_err(ENOENT, "lttng: no session");
	return 0;
}

struct list_arg {
	struct kt_session *s;
	struct kt_lttng_layout *l;
	FILE *out;
	struct kt_lttng_loss loss;
	const char *session;
};

static int list_chan(void *arg, struct kt_lttng_chan *c)
{
	struct list_arg *a = arg;
	uint64_t bytes = 0;
	int i, damaged = 0;

	for (i = 0; i < c->nr_bufs; i++) {
		uint64_t k;

		damaged += c->bufs[i].damaged;
		for (k = 0; k < c->bufs[i].plan.nr; k++)
			bytes += c->bufs[i].plan.bytes[k];
	}
	fprintf(a->out, "lttng %s/chan%u  %s, %llu sub-buffers of %llu bytes, %d buffers (%d "
			"refused), %llu packets, %llu bytes\n", a->session, c->id,
		c->overwrite ? "overwrite" : "discard", (unsigned long long)c->num_subbuf,
		(unsigned long long)c->subbuf_size, c->nr_bufs, damaged,
		(unsigned long long)c->packets, (unsigned long long)bytes);
	return 0;
}

static int list_session(void *arg, uint64_t sp, const char *name)
{
	struct list_arg *a = arg;

	a->session = name;
	fprintf(a->out, "lttng %s  session at 0x%llx\n", name, (unsigned long long)sp);
	return for_each_chan(a->s, a->l, sp, name, &a->loss, list_chan, a);
}

void kt_session__print_lttng(struct kt_session *s, FILE *out)
{
	struct lttng_found *f = kt_recorder__get(s, KT_REC_LTTNG);
	struct list_arg a = { .s = s, .out = out };

	if (!f)
		return;
	a.l = &f->l;
	for_each_session(s, &f->l, f->head, &a.loss, list_session, &a);
	/* what the list's walk counted: the account's, as a write's is */
	kt_lttng_loss__add(&f->loss, &a.loss);
}
