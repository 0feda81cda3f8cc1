// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * blktrace through relay (kernel/trace/blktrace.c): do_blk_trace_setup()
 * opens channel "trace" in debugfs block/<dev>/ with callbacks
 * blk_relay_callbacks and the struct blk_trace as private_data, whose
 * rchan points back at it. Its subbuf_start() refuses to overwrite (normal
 * mode) and counts what it then drops in blk_trace->dropped. The relay
 * data is already blktrace's file format: struct blk_io_trace records
 * and their pdu, never split across sub-buffers (relay_reserve()), so the
 * unread part is copied record by record, each one checked. The records
 * are the kernel's byte order and are written as they are, as the daemon
 * writes them on that machine (big-endian on s390x; blkparse swaps them
 * by their magic).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../internal.h"
#include "relay.h"

/* enum of kernel/trace/blktrace.c (5.10 .. 6.12) */
static const char *const blk_states[] = { "?", "setup", "running", "stopped" };

struct blk_layout {
	struct kt_member rchan, dev, dropped, state;
};

/* 0, or -ENOENT when a member the owner's name needs is absent */
static int probe_layout(struct kt_session *s, struct blk_layout *b)
{
	if (kt_member__probe(s, "struct blk_trace", "rchan", &b->rchan) ||
	    kt_member__probe(s, "struct blk_trace", "dev", &b->dev) ||
	    kt_member__probe(s, "struct blk_trace", "dropped", &b->dropped))
		return -ENOENT;
	kt_member__probe(s, "struct blk_trace", "trace_state", &b->state);
	return 0;
}

void kt_relay__blktrace_ask_layout(struct kt_session *s)
{
	struct blk_layout b;
	uint64_t cbs;

	kt_symbol(s, "blk_relay_callbacks", &cbs);
	probe_layout(s, &b);
}

void kt_relay__blktrace_owner(struct kt_session *s, struct kt_relay_chan *c)
{
	struct blk_layout b;
	uint64_t cbs, v_rchan, v_dev, v_dropped, v_state = 0;

	if (kt_symbol(s, "blk_relay_callbacks", &cbs) || c->cb != cbs || !c->private_data)
		return;
	if (probe_layout(s, &b))
		goto unknown;
	if (kt_read_member(s, c->private_data, &b.rchan, &v_rchan) || v_rchan != c->addr ||
	    kt_read_member(s, c->private_data, &b.dev, &v_dev) ||
	    kt_read_member(s, c->private_data, &b.dropped, &v_dropped)) {
		kt_warn(s, "relay: channel %s at 0x%llx has blktrace's callbacks but its struct "
			   "blk_trace at 0x%llx is unreadable or does not point back",
			c->base_filename, (unsigned long long)c->addr,
			(unsigned long long)c->private_data);
		return;
	}
	if (b.state.present)
		kt_read_member(s, c->private_data, &b.state, &v_state);
	c->blk_trace = c->private_data;
	c->blk_dev = (uint32_t)v_dev;
	/* after 6.12 (6.12 has not, 7.2 has; the kernel's commit "blktrace:
	 * use rbuf->stats.full_count as a drop indicator"):
	 * blk_trace.dropped, where it is still declared, is never counted;
	 * the dropped file reads the buffers' relay stats */
	c->loss.events_dropped = c->has_stats ? c->stats_dropped : (uint32_t)v_dropped;
	/* the kernel's dev_t: MINORBITS 20 */
	snprintf(c->owner, sizeof(c->owner), "blktrace %s (dev %u:%u, %s)",
		 c->parent ? c->parent : "?", c->blk_dev >> 20, c->blk_dev & 0xfffff,
		 blk_states[v_state < 4 ? v_state : 0]);
	return;
unknown:
	snprintf(c->owner, sizeof(c->owner), "blktrace (struct blk_trace unknown)");
}

struct blk_out {
	FILE *f;
	uint64_t records, bytes;
	uint64_t partly_read;	/* records the reader had read part of */
	int cpu;		/* the buffer's */
	bool be;		/* the kernel's byte order, the records' */
	uint64_t foreign;	/* records whose cpu field is another CPU's */
	struct kt_relay_loss *loss;
};

/* the cpu field of a whole record (struct blk_io_trace at 40, blk_io_trace2 at 44) */
static uint32_t rec_cpu(bool be, const uint8_t *p)
{
	unsigned int at = p[be ? 3 : 0] == KT_BLK_IO_TRACE2_VERSION ? 44 : 40;

	return kt_get32(be, p + at);
}

/*
 * One run: whole records written, anything else counted and skipped. The
 * records of a sub-buffer start at its start; the reader may have stopped
 * inside one (relay_file_read() copies what fits the reader's buffer):
 * the first record not wholly read is written whole, so the reader's file
 * cut after its last whole record and this one join without a gap.
 */
static int blk_run(void *arg, const uint8_t *p, size_t len, size_t head)
{
	struct blk_out *o = arg;
	size_t pos = 0, skip = 0;

	while (pos < head) {
		long r = kt_blk__record_len(o->be, p + pos, len - pos);

		if (r <= 0 || pos + (size_t)r > head)
			break;
		pos += (size_t)r;
	}
	if (pos < head) {
		long r = kt_blk__record_len(o->be, p + pos, len - pos);

		if (r > 0 && pos + (size_t)r > head)
			o->partly_read++;	/* written whole from pos */
		else
			pos = head;		/* no boundary found: from the reader's stop */
	}
	while (pos < len) {
		long r = kt_blk__record_len(o->be, p + pos, len - pos);

		if (r == -1) {
			/* reserved, not (fully) written at the crash, or cut
			 * by a page missing from the dump */
			o->loss->records_cut++;
			o->loss->bytes_skipped += len - pos;
			break;
		}
		if (!r) {
			/* resynchronise on the next magic */
			pos++;
			skip++;
			continue;
		}
		if (skip) {
			o->loss->bytes_skipped += skip;
			skip = 0;
		}
		if (fwrite(p + pos, 1, (size_t)r, o->f) != (size_t)r)
			return -EIO;
		if (o->cpu >= 0 && rec_cpu(o->be, p + pos) != (uint32_t)o->cpu)
			o->foreign++;
		o->records++;
		o->bytes += (uint64_t)r;
		pos += (size_t)r;
	}
	o->loss->bytes_skipped += skip;
	return 0;
}

/* a file name of the device: the debugfs directory's, if it is one */
static void dev_name(const struct kt_relay_chan *c, char *name, size_t n)
{
	const char *p = c->parent;

	if (p && *p && strcmp(p, ".") && strcmp(p, "..") && !strchr(p, '/') && strlen(p) < 64)
		snprintf(name, n, "%s", p);
	else
		snprintf(name, n, "dev%u,%u", c->blk_dev >> 20, c->blk_dev & 0xfffff);
}

static int write_cpu(struct kt_session *s, struct kt_relay_chan *c, int buf, const char *path,
		     FILE *log)
{
	struct blk_out o = { .loss = &c->loss, .cpu = buf < 0 ? -1 : c->bufs[buf].cpu,
			     .be = s->l.be };
	int err;

	o.f = fopen(path, "w");
	if (!o.f)
		return kt_err(errno, "cannot create %s: %s", path, strerror(errno));
	err = buf < 0 ? 0 : kt_relay__read_runs(s, c, buf, blk_run, &o);
	if (fclose(o.f) && !err)
		err = -EIO;
	if (err)
		return kt_err(err, "writing %s: %s", path, strerror(-err));
	if (log)
		fprintf(log, "%s: %llu records, %llu bytes%s%s\n", path,
			(unsigned long long)o.records, (unsigned long long)o.bytes,
			o.partly_read ? " (the first partly read by blktrace)" : "",
			buf >= 0 && c->bufs[buf].damaged ? " (its buffer was refused)" : "");
	/* after 6.12 (6.12 not, 7.2 so) tracepoints run preemptible (SRCU):
	 * __blk_add_trace() takes cpu and that CPU's sequence, then
	 * relay_reserve() writes to the buffer of the CPU it migrated to;
	 * blkparse drops such a record ("cpu N trace info has error cpu M"),
	 * in the daemon's files too */
	if (log && o.foreign)
		fprintf(log, "%s: %llu record%s stamped with another CPU (the kernel wrote "
			     "%s to this CPU's buffer after a migration; blkparse drops %s)\n",
			path, (unsigned long long)o.foreign, o.foreign == 1 ? "" : "s",
			o.foreign == 1 ? "it" : "them", o.foreign == 1 ? "it" : "them");
	return 0;
}

int kt_blktrace__write(struct kt_session *s, const char *dir, FILE *log,
		       struct kt_relay_loss *loss)
{
	struct kt_relay *rl = kt_relay__get(s);
	int n = rl ? rl->nr_chans : kt_recorder__err(s, KT_REC_RELAY), i, found = 0, err = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++) {
		struct kt_relay_chan *c = &rl->chans[i];
		int maxcpu = -1, cpu, j;
		char name[80], path[4096];

		if (!c->blk_trace)
			continue;
		found++;
		dev_name(c, name, sizeof(name));
		for (j = 0; j < c->nr_bufs; j++)
			if (c->bufs[j].cpu > maxcpu)
				maxcpu = c->bufs[j].cpu;
		/* every CPU up to the last with a buffer: blkparse stops at
		 * the first <dev>.blktrace.<cpu> missing */
		for (cpu = 0; cpu <= maxcpu && !err; cpu++) {
			int buf = -1;

			for (j = 0; j < c->nr_bufs; j++)
				if (c->bufs[j].cpu == cpu)
					buf = j;
			snprintf(path, sizeof(path), "%s/%s.blktrace.%d", dir, name, cpu);
			err = write_cpu(s, c, buf, path, log);
		}
		if (loss)
			kt_relay_loss__add(loss, &c->loss);
	}
	if (loss)
		loss->list_anomalies += rl->loss.list_anomalies;
	if (err)
		return err;
	return found ? 0 : kt_err(ENOENT, "no active blktrace in the dump (no relay channel of "
					  "blk_relay_callbacks among %d)", n);
}
