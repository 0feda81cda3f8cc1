// SPDX-License-Identifier: LGPL-2.1-or-later
/* Relay: a buffer's unread runs handed out, --list lines, loss lines. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "relay.h"

#define PAGE	4096u

/* hand [from, to) of a run whose first @head bytes were read, if unread bytes are in it */
static int flush(int (*fn)(void *arg, const uint8_t *data, size_t len, size_t head), void *arg,
		 const uint8_t *run, uint64_t from, uint64_t to, uint64_t head)
{
	uint64_t h = head > from ? head - from : 0;

	if (to <= from || h >= to - from)
		return 0;
	return fn(arg, run, to - from, h);
}

int kt_relay__read_runs(struct kt_session *s, struct kt_relay_chan *c, int i,
			int (*fn)(void *arg, const uint8_t *data, size_t len, size_t head),
			void *arg)
{
	const struct kt_relay_buf *b;
	uint8_t *run = NULL;
	uint64_t k;
	int err = 0;

	if (i < 0 || i >= c->nr_bufs)
		return -EINVAL;
	b = &c->bufs[i];
	if (b->damaged || !b->plan.nr_segs)
		return 0;
	/* a run and its head are at most one sub-buffer (kt_relay__plan()) */
	run = malloc(c->subbuf_size);
	if (!run)
		return -ENOMEM;
	for (k = 0; k < b->plan.nr_segs && !err; k++) {
		const struct kt_relay_seg *g = &b->plan.segs[k];
		uint64_t base = b->start + g->off - g->head, total = g->len + g->head;
		uint64_t pos = 0, from = 0;	/* bytes of [base, base + total) done; run start */

		while (pos < total) {
			/* a page at a time: a page missing from the dump cuts the
			 * run in two, the rest is still handed out */
			uint64_t chunk = PAGE - ((base + pos) & (PAGE - 1));

			if (chunk > total - pos)
				chunk = total - pos;
			if (!kt_read(s, base + pos, run + (pos - from), chunk)) {
				pos += chunk;
				continue;
			}
			/* only unread bytes are lost; the read head is context */
			c->loss.bytes_unreadable += pos + chunk > g->head ?
				pos + chunk - (pos > g->head ? pos : g->head) : 0;
			err = flush(fn, arg, run, from, pos, g->head);
			if (err)
				goto out;
			pos += chunk;
			from = pos;
		}
		err = flush(fn, arg, run, from, pos, g->head);
	}
out:
	free(run);
	return err;
}

struct plain {
	int (*fn)(void *arg, const void *data, size_t len);
	void *arg;
};

static int plain_run(void *arg, const uint8_t *data, size_t len, size_t head)
{
	struct plain *p = arg;

	return p->fn(p->arg, data + head, len - head);
}

int kt_relay_chan__read(struct kt_session *s, struct kt_relay_chan *c, int i, int *cpu,
			int (*fn)(void *arg, const void *data, size_t len), void *arg)
{
	struct plain p = { fn, arg };

	if (i < 0 || i >= c->nr_bufs)
		return -EINVAL;
	if (cpu)
		*cpu = c->bufs[i].cpu;
	return kt_relay__read_runs(s, c, i, plain_run, &p);
}

void kt_session__print_relay(struct kt_session *s, FILE *out)
{
	struct kt_relay *rl = kt_relay__get(s);
	int i, n = rl ? rl->nr_chans : kt_recorder__err(s, KT_REC_RELAY);

	if (n < 0) {
		fprintf(out, "relay: %s\n", kt_last_error());
		return;
	}
	for (i = 0; i < n; i++) {
		const struct kt_relay_chan *c = &rl->chans[i];

		fprintf(out, "relay %s%s%s (struct rchan 0x%llx): %s, %s, %llu x %llu bytes, "
			     "%d buffer%s, unread %llu bytes",
			c->parent ? c->parent : "", c->parent ? "/" : "", c->base_filename,
			(unsigned long long)c->addr,
			c->owner, c->global ? "global" : "per-CPU",
			(unsigned long long)c->n_subbufs, (unsigned long long)c->subbuf_size,
			c->nr_bufs, c->nr_bufs == 1 ? "" : "s", (unsigned long long)c->unread);
		if (kt_relay_loss__any(&c->loss)) {
			fputs(", lost:", out);
			kt_relay_loss__print(&c->loss, out, NULL);
		}
		fputc('\n', out);
	}
}

static int raw_run(void *arg, const void *data, size_t len)
{
	return fwrite(data, 1, len, arg) == len ? 0 : -EIO;
}

int kt_relay__write_raw(struct kt_session *s, const char *dir, FILE *log,
			struct kt_relay_loss *loss)
{
	struct kt_relay *rl = kt_relay__get(s);
	int n = rl ? rl->nr_chans : kt_recorder__err(s, KT_REC_RELAY), i, j, err = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++) {
		struct kt_relay_chan *c = &rl->chans[i];
		const char *p = c->parent;
		char path[4096];

		/* a name of the dump's is a file name only if it is one */
		if (!p || !*p || !strcmp(p, ".") || !strcmp(p, "..") || strchr(p, '/'))
			p = "relay";
		for (j = 0; j < c->nr_bufs && !err; j++) {
			const struct kt_relay_buf *b = &c->bufs[j];
			const char *base = c->base_filename[0] && !strchr(c->base_filename, '/') &&
							   strcmp(c->base_filename, "..") ?
						   c->base_filename : "chan";
			FILE *f;

			if (b->cpu < 0)
				snprintf(path, sizeof(path), "%s/%s-%s.global", dir, p, base);
			else
				snprintf(path, sizeof(path), "%s/%s-%s.%d", dir, p, base, b->cpu);
			f = fopen(path, "w");
			if (!f)
				return kt_err(errno, "cannot create %s: %s", path, strerror(errno));
			err = kt_relay_chan__read(s, c, j, NULL, raw_run, f);
			if (fclose(f) && !err)
				err = -EIO;
			if (err)
				return kt_err(err, "writing %s: %s", path, strerror(-err));
			if (log)
				fprintf(log, "%s: %llu bytes%s\n", path,
					(unsigned long long)b->plan.unread,
					b->damaged ? " (its buffer was refused)" : "");
		}
		if (loss) {
			struct kt_relay_loss l = c->loss;

			/* what blktrace's decoding skipped (kt_blktrace__write()
			 * on this session before) is not lost from a raw copy */
			l.bytes_skipped = 0;
			l.records_cut = 0;
			kt_relay_loss__add(loss, &l);
		}
	}
	if (loss)
		loss->list_anomalies += rl->loss.list_anomalies;
	if (err)
		return err;
	return n ? 0 : kt_err(ENOENT, "no relay channel in the dump");
}
