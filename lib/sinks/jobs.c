// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text of a trace array's buffer rendered on worker threads. Most of
 * the time of a large trace goes into printing its events (libtraceevent's
 * printf), not into reading and merging its pages, so the calling thread
 * walks the records in time order as kt_text__write() does with one job,
 * copies them in batches, and worker threads render whole batches, each
 * with a libtraceevent handle of its own; the calling thread writes the
 * rendered batches in the order it made them. The output is the one-job
 * output byte for byte: same records, same order, same text, and the
 * losses a worker counts are added to the buffer's in batch order.
 *
 * Memory stays bounded: a ring of 2 * jobs + 2 batches of at most
 * JOB_RECS records and about JOB_BYTES bytes each. Where threads cannot
 * be had (kdump's capture kernel runs us under ulimit -v), the calling
 * thread does it all, as with one job.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "jobs.h"
#include "../ftrace/prefetch.h"
#include "../ftrace/render.h"
#include "../ftrace/tracer.h"

#define JOB_RECS	1024
#define JOB_BYTES	(256u << 10)
/* the workers print into trace_seq's on the heap: a small stack will do */
#define JOB_STACK	(512u << 10)

struct job_rec {
	struct kt_record r;	/* r.data: an offset into the batch's data */
	bool cpu_started;	/* "##### CPU N buffer started ####" first */
	uint32_t out_off, out_len;
};

enum { BATCH_FREE, BATCH_FILLED, BATCH_RENDERING, BATCH_DONE };

struct job_batch {
	int state;
	struct job_rec *recs;
	unsigned int n;
	uint8_t *data;
	size_t data_len, data_cap;
	char *out;
	size_t out_len, out_cap;
	struct kt_loss loss;	/* what rendering this batch counted */
	int err;
};

struct jobs {
	struct kt_session *s;
	struct kt_buffer *b;
	const struct kt_trace_opts *o_tr;
	FILE *direct;		/* every line goes there: a batch in one write */
	bool json;		/* JSON Lines (kt_json__event()), not text */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct job_batch *ring;
	unsigned int nr;
	uint64_t next_take;	/* the batch the next free worker renders */
	uint64_t filled;	/* batches handed to the workers */
	int started, ready;	/* workers past their set-up, and with a handle */
	bool stop;
};

/* rendered text is appended to the batch's out */
static int out_append(struct job_batch *bt, const char *p, size_t len)
{
	if (bt->out_len + len > bt->out_cap) {
		size_t cap = bt->out_cap ? bt->out_cap : 1 << 16;
		char *n;

		while (cap < bt->out_len + len)
			cap *= 2;
		n = realloc(bt->out, cap);
		if (!n)
			return -ENOMEM;
		bt->out = n;
		bt->out_cap = cap;
	}
	memcpy(bt->out + bt->out_len, p, len);
	bt->out_len += len;
	return 0;
}

/*
 * One record, as kt_text__write() prints it with one job; @wb is the
 * worker's copy of the buffer, whose loss counts are the batch's.
 */
static int render_one(struct jobs *j, struct kt_render *rc, struct kt_buffer *wb,
		      struct job_batch *bt, struct job_rec *jr, struct trace_seq *q, struct jbuf *jb)
{
	struct kt_record r = jr->r;

	r.data = bt->data + (uintptr_t)jr->r.data;
	if (j->json) {
		/* as kt_json__write() with one thread: the losses are in the line */
		jb->len = 0;
		kt_json__event(rc, wb, kt_render__find_event(rc, r.type), &r, q, jb);
		if (jb->failed)
			return -ENOMEM;
		jr->out_off = (uint32_t)bt->out_len;
		jr->out_len = (uint32_t)jb->len;
		return out_append(bt, jb->p, jb->len);
	}
	trace_seq_reset(q);
	if (jr->cpu_started)
		trace_seq_printf(q, "##### CPU %d buffer started ####\n", r.cpu);
	kt_output__lost(&r, q);
	kt_output__record(rc, wb, j->o_tr, &r, q);
	trace_seq_putc(q, '\n');
	trace_seq_terminate(q);
	jr->out_off = (uint32_t)bt->out_len;
	jr->out_len = q->len;
	return out_append(bt, q->buffer, q->len);
}

static void *worker(void *arg)
{
	struct jobs *j = arg;
	struct kt_buffer wb = *j->b;
	struct trace_seq q;
	struct jbuf jb = { 0 };
	/* this worker's own context and libtraceevent handle */
	struct kt_render *rc = kt_render__new_worker(j->s);

	pthread_mutex_lock(&j->lock);
	j->started++;
	j->ready += !!rc;
	pthread_cond_broadcast(&j->done);
	pthread_mutex_unlock(&j->lock);
	if (!rc)
		return NULL;	/* no handle: it takes no batch */
	/* the calling thread said what there is to say about options */
	wb.opts.warned_userobj = true;
	trace_seq_init(&q);
	pthread_mutex_lock(&j->lock);
	for (;;) {
		struct job_batch *bt;
		unsigned int i;

		while (!j->stop && j->next_take == j->filled)
			pthread_cond_wait(&j->work, &j->lock);
		if (j->next_take == j->filled)
			break;	/* stopped, nothing left */
		bt = &j->ring[j->next_take++ % j->nr];
		bt->state = BATCH_RENDERING;
		pthread_mutex_unlock(&j->lock);

		memset(&wb.loss, 0, sizeof(wb.loss));
		bt->out_len = 0;
		bt->err = 0;
		for (i = 0; i < bt->n && !bt->err; i++)
			bt->err = render_one(j, rc, &wb, bt, &bt->recs[i], &q, &jb);
		bt->loss = wb.loss;

		pthread_mutex_lock(&j->lock);
		bt->state = BATCH_DONE;
		pthread_cond_broadcast(&j->done);
	}
	pthread_mutex_unlock(&j->lock);
	trace_seq_destroy(&q);
	free(jb.p);
	kt_render__free(rc);
	return NULL;
}

/* wait for batch @seq, then give its lines to @emit and free it */
static int write_batch(struct jobs *j, uint64_t seq, kt_jobs_emit_fn emit, void *ctx)
{
	struct job_batch *bt = &j->ring[seq % j->nr];
	unsigned int i;
	int err;

	pthread_mutex_lock(&j->lock);
	while (bt->state != BATCH_DONE)
		pthread_cond_wait(&j->done, &j->lock);
	pthread_mutex_unlock(&j->lock);
	kt_loss__add(&j->b->loss, &bt->loss);
	err = bt->err;
	if (emit && j->direct && !err && bt->out_len &&
	    fwrite(bt->out, 1, bt->out_len, j->direct) != bt->out_len)
		err = -EIO;
	for (i = 0; emit && !j->direct && i < bt->n && !err; i++)
		err = emit(ctx, bt->out + bt->recs[i].out_off, bt->recs[i].out_len);
	bt->n = 0;
	bt->data_len = 0;
	bt->state = BATCH_FREE;
	return err;
}

/* @bt goes to the workers */
static void hand_out(struct jobs *j, struct job_batch *bt)
{
	pthread_mutex_lock(&j->lock);
	bt->state = BATCH_FILLED;
	j->filled++;
	pthread_cond_signal(&j->work);
	pthread_mutex_unlock(&j->lock);
}

/*
 * What a worker must find ready: the event parsed in the session's
 * handle (its warnings said once, here, in record order) and the
 * warning about user stacks the one-job path gives on the first one.
 */
static void prepare(struct jobs *j, const struct kt_record *r, uint8_t *seen)
{
	struct kt_buffer *b = j->b;
	struct tep_event *ev;

	if (r->type < 0 || r->type > 65535 || seen[r->type / 8] & (1 << (r->type % 8)))
		return;
	seen[r->type / 8] |= 1 << (r->type % 8);
	ev = kt_render__find_event(kt_render__session(j->s), r->type);
	if (ev && ev->system && !strcmp(ev->system, "ftrace") &&
	    !strcmp(ev->name, "user_stack") && b->opts.sym_userobj && !b->opts.warned_userobj &&
	    /* JSON's text is the event's own, whatever bin, raw and hex say */
	    (j->json || (!j->o_tr->bin && !j->o_tr->raw && !j->o_tr->hex))) {
		kt_warn(j->s, "buffer %s: option sym-userobj is on: the kernel printed the "
			      "file of each user stack address, ktrace prints the address "
			      "alone, marked [sym-userobj not rendered]", b->name);
		b->opts.warned_userobj = true;
	}
}

/* the session's lazy loads, done before any worker can ask for them */
static void warm_up(struct kt_session *s, struct kt_buffer *b)
{
	uint64_t start, size, addr;
	const char *mod, *fmt;
	char comm[KT_COMM_BUF];

	kt_render__tep(kt_render__session(s));
	kt_opts__load(s, b);
	kt_render__probe_hash(s, b);
	kt_symbol_lookup(s, 0, &start, &size, &mod);
	kt_modsyms__lookup(s, 0, &start, &size, &mod);
	kt_session__comm_r(s, 1, comm);
	kt_opts__tgid(s, 1);
	kt_session__printk_fmt(s, 0, &addr, &fmt);
}

static int run(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it,
	       const struct kt_trace_opts *o_tr, bool annotate, int nr_jobs,
	       kt_jobs_emit_fn emit, void *ctx, FILE *direct, bool json)
{
	const struct kt_iter_opts *iop;
	struct jobs j = { .s = s, .b = b, .o_tr = o_tr, .direct = direct, .json = json };
	uint64_t started[KT_CPUMASK_WORDS] = { 0 };
	pthread_mutexattr_t ma;
	pthread_attr_t ta;
	pthread_t *tids;
	uint64_t idx = 0, written = 0;
	uint8_t *seen;
	struct job_batch *cur = NULL;
	struct kt_record r;
	int i, nr_threads = 0, ret = 0, err = 0;

	warm_up(s, b);
	j.nr = 2 * (unsigned int)nr_jobs + 2;
	j.ring = calloc(j.nr, sizeof(*j.ring));
	tids = calloc(nr_jobs, sizeof(*tids));
	seen = calloc(65536 / 8, 1);
	if (!j.ring || !tids || !seen) {
		free(j.ring);
		free(tids);
		free(seen);
		return -ENOMEM;
	}
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&s->mt_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.work, NULL);
	pthread_cond_init(&j.done, NULL);
	s->mt = true;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, JOB_STACK);
	for (i = 0; i < nr_jobs; i++) {
		if (pthread_create(&tids[i], &ta, worker, &j))
			break;
		nr_threads++;
	}
	pthread_attr_destroy(&ta);
	pthread_mutex_lock(&j.lock);
	while (j.started < nr_threads)
		pthread_cond_wait(&j.done, &j.lock);
	pthread_mutex_unlock(&j.lock);
	if (!j.ready) {
		/* no worker: nothing was read, the caller renders alone */
		err = -EAGAIN;
		goto out;
	}
	iop = kt_iter__opts(it);
	kt_prefetch__start(s, b, iop->cpumask, iop->cpumask_bits);

	while (!err && (ret = kt_iter__next(it, &r)) > 0) {
		struct job_rec *jr;

		if (!cur) {
			if (j.filled - written == j.nr) {
				/* the ring is full: the oldest batch first */
				err = write_batch(&j, written++, emit, ctx);
				if (err)
					break;
			}
			cur = &j.ring[j.filled % j.nr];
			if (!cur->recs)
				cur->recs = calloc(JOB_RECS, sizeof(*cur->recs));
			if (!cur->recs) {
				err = -ENOMEM;
				break;
			}
		}
		if (cur->data_len + r.size > cur->data_cap) {
			size_t cap = cur->data_cap ? cur->data_cap : JOB_BYTES;
			uint8_t *n;

			while (cap < cur->data_len + r.size)
				cap *= 2;
			n = realloc(cur->data, cap);
			if (!n) {
				err = -ENOMEM;
				break;
			}
			cur->data = n;
			cur->data_cap = cap;
		}
		idx++;
		prepare(&j, &r, seen);
		jr = &cur->recs[cur->n++];
		jr->r = r;
		jr->r.data = (const void *)(uintptr_t)cur->data_len;
		memcpy(cur->data + cur->data_len, r.data, r.size);
		cur->data_len += r.size;
		/* test_cpu_buff_start(), decided here in reading order (tracer.c) */
		jr->cpu_started = annotate && kt_tracer__buff_start(started, r.cpu, idx);
		if (cur->n == JOB_RECS || cur->data_len >= JOB_BYTES) {
			hand_out(&j, cur);
			cur = NULL;
		}
	}
	if (!err && ret < 0)
		err = ret;
	if (cur && cur->n)
		hand_out(&j, cur);	/* the last batch, not full */
	/* what was handed out is written (or, after an error, only waited for) */
	while (written < j.filled) {
		int e = write_batch(&j, written++, err ? NULL : emit, ctx);

		if (!err)
			err = e;
	}
out:
	kt_prefetch__stop(s);
	pthread_mutex_lock(&j.lock);
	j.stop = true;
	pthread_cond_broadcast(&j.work);
	pthread_mutex_unlock(&j.lock);
	for (i = 0; i < nr_threads; i++)
		pthread_join(tids[i], NULL);
	s->mt = false;
	pthread_mutex_destroy(&s->mt_lock);
	pthread_mutex_destroy(&j.lock);
	pthread_cond_destroy(&j.work);
	pthread_cond_destroy(&j.done);
	for (i = 0; i < (int)j.nr; i++) {
		free(j.ring[i].recs);
		free(j.ring[i].data);
		free(j.ring[i].out);
	}
	free(j.ring);
	free(tids);
	free(seen);
	return err;
}

int kt_jobs__text(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it,
		  const struct kt_trace_opts *o_tr, bool annotate, int nr_jobs,
		  kt_jobs_emit_fn emit, void *ctx, FILE *direct)
{
	return run(s, b, it, o_tr, annotate, nr_jobs, emit, ctx, direct, false);
}

static int emit_none(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	(void)text;
	(void)len;
	return 0;	/* never called: every batch goes to the FILE */
}

int kt_jobs__json(struct kt_session *s, struct kt_buffer *b, struct kt_iter *it, int nr_jobs,
		  FILE *out)
{
	return run(s, b, it, NULL, false, nr_jobs, emit_none, NULL, out, true);
}
