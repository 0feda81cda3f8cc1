// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sub-buffers read ahead on a thread of their own while the text is
 * rendered on worker threads (jobs.c): reading the dump is half the time
 * of a large trace, and the calling thread, which merges the per-CPU
 * streams, would otherwise wait for every read.
 *
 * The reader walks each CPU's pages with an iterator of its own over a
 * copy of the buffer (its loss counts and warnings are dropped: the
 * calling thread's walk counts and says everything, as with one job) and
 * queues what each read of a sub-buffer gave, data or error, per CPU in
 * walk order. Both walks are the same function of the same dump, so the
 * calling thread's n-th read of a CPU is the reader's n-th: it takes the
 * head of that CPU's queue, and reads the dump itself only if the reader
 * stopped. Memory: a few sub-buffers per CPU, PREFETCH_BYTES in all.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "prefetch.h"

#define PREFETCH_BYTES	(4u << 20)
#define PREFETCH_STACK	(512u << 10)

struct pf_slot {
	uint64_t addr;
	int err;
	uint8_t *data;
};

struct pf_queue {
	struct pf_slot *slots;
	unsigned int head, len;	/* ring of cap slots */
	bool done;		/* the reader's walk of this CPU ended */
	bool diverged;		/* the calling thread read elsewhere: stop */
};

struct kt_prefetch {
	struct kt_session *s;
	struct kt_buffer *b;
	struct kt_buffer shadow;
	struct pf_queue *q;
	unsigned int cap;
	pthread_mutex_t lock;
	pthread_cond_t more, room;
	pthread_t tid;
	bool stop, started;
};

/* the reader thread: its reads of sub-buffers go to the queues */
static __thread struct kt_prefetch *reader_of;
static __thread int reader_cpu;

static void *reader(void *arg)
{
	struct kt_prefetch *p = arg;
	struct kt_page_iter **its;
	bool *ended;
	int cpu, left = 0;

	reader_of = p;
	kt_warn_mute(true);
	its = calloc(p->b->nr_cpus, sizeof(*its));
	ended = calloc(p->b->nr_cpus, sizeof(*ended));
	if (!its || !ended)
		goto out;
	for (cpu = 0; cpu < p->b->nr_cpus; cpu++) {
		if (p->q[cpu].slots)
			its[cpu] = kt_page_iter__new(&p->shadow, cpu);
		ended[cpu] = !its[cpu];
		left += !ended[cpu];
	}
	/* round robin over the CPUs whose queue has room */
	while (left) {
		bool any = false;

		for (cpu = 0; cpu < p->b->nr_cpus; cpu++) {
			struct pf_queue *q = &p->q[cpu];
			struct kt_page_cursor cur;
			bool room;

			if (ended[cpu])
				continue;
			pthread_mutex_lock(&p->lock);
			room = !p->stop && !q->diverged && q->len < p->cap;
			if (p->stop || q->diverged) {
				ended[cpu] = true;
				left--;
			}
			pthread_mutex_unlock(&p->lock);
			if (!room)
				continue;
			any = true;
			reader_cpu = cpu;
			if (kt_page_iter__next_cursor(its[cpu], &cur) <= 0) {
				ended[cpu] = true;
				left--;
				pthread_mutex_lock(&p->lock);
				q->done = true;
				pthread_cond_broadcast(&p->more);
				pthread_mutex_unlock(&p->lock);
			}
		}
		if (!any && left) {
			/* every queue full: wait for the calling thread */
			pthread_mutex_lock(&p->lock);
			for (cpu = 0; cpu < p->b->nr_cpus; cpu++)
				if (!ended[cpu] && !p->stop && !p->q[cpu].diverged &&
				    p->q[cpu].len < p->cap)
					break;
			if (cpu == p->b->nr_cpus && !p->stop)
				pthread_cond_wait(&p->room, &p->lock);
			pthread_mutex_unlock(&p->lock);
		}
	}
out:
	pthread_mutex_lock(&p->lock);
	for (cpu = 0; cpu < p->b->nr_cpus; cpu++)
		p->q[cpu].done = true;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->lock);
	for (cpu = 0; its && cpu < p->b->nr_cpus; cpu++)
		kt_page_iter__free(its[cpu]);
	free(its);
	free(ended);
	kt_warn_mute(false);
	reader_of = NULL;
	return NULL;
}

/* the reader's read of a sub-buffer, queued for the calling thread */
static int reader_read(struct kt_prefetch *p, uint64_t addr, void *buf, uint32_t len)
{
	struct pf_queue *q = &p->q[reader_cpu];
	int err = kt_read_page(p->s, addr, buf, len);
	struct pf_slot *sl;

	pthread_mutex_lock(&p->lock);
	if (q->diverged || p->stop) {
		pthread_mutex_unlock(&p->lock);
		return err;
	}
	if (q->len == p->cap) {
		/*
		 * one walk step read several sub-buffers (it skipped bad
		 * ones) and the queue is full: the calling thread reads
		 * this CPU itself from its next read on
		 */
		q->diverged = true;
		pthread_cond_broadcast(&p->more);
		pthread_mutex_unlock(&p->lock);
		return err;
	}
	sl = &q->slots[(q->head + q->len) % p->cap];
	sl->addr = addr;
	sl->err = err;
	if (!err)
		memcpy(sl->data, buf, len);
	q->len++;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->lock);
	return err;
}

int kt_prefetch__read(struct kt_session *s, struct kt_buffer *b, int cpu, uint64_t addr,
		      void *buf, uint32_t len)
{
	struct kt_prefetch *p = s->prefetch;
	struct pf_queue *q;
	int err;

	if (reader_of)
		return reader_read(reader_of, addr, buf, len);
	if (!p || b->cpus != p->b->cpus || cpu < 0 || cpu >= p->b->nr_cpus ||
	    len != p->b->subbuf_size)
		return kt_read_page(s, addr, buf, len);
	q = &p->q[cpu];
	if (!q->slots)
		return kt_read_page(s, addr, buf, len);
	pthread_mutex_lock(&p->lock);
	while (!q->len && !q->done && !q->diverged)
		pthread_cond_wait(&p->more, &p->lock);
	if (q->len && q->slots[q->head].addr == addr && !q->diverged) {
		struct pf_slot *sl = &q->slots[q->head];

		err = sl->err;
		if (!err)
			memcpy(buf, sl->data, len);
		q->head = (q->head + 1) % p->cap;
		q->len--;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->lock);
		return err;
	}
	/* not what the reader read next: from here this CPU is read here */
	q->diverged = true;
	q->len = 0;
	pthread_cond_signal(&p->room);
	pthread_mutex_unlock(&p->lock);
	return kt_read_page(s, addr, buf, len);
}

int kt_prefetch__start(struct kt_session *s, struct kt_buffer *b, const uint64_t *cpumask,
			int cpumask_bits)
{
	struct kt_prefetch *p;
	pthread_attr_t ta;
	unsigned int i;
	int cpu;

	if (s->pagecache || !b->nr_cpus || !b->subbuf_size)
		return 0;	/* the ticket's cache serves its own reads */
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->s = s;
	p->b = b;
	p->shadow = *b;
	p->cap = PREFETCH_BYTES / b->subbuf_size / (unsigned int)b->nr_cpus;
	if (p->cap < 2)
		p->cap = 2;
	if (p->cap > 64)
		p->cap = 64;
	p->q = calloc(b->nr_cpus, sizeof(*p->q));
	if (!p->q)
		goto fail;
	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		/* the CPUs the calling thread's iterator reads (iter.c) */
		if (!b->cpus[cpu].info.present ||
		    (cpumask && (cpu >= cpumask_bits ||
				 !(cpumask[cpu / 64] & (1ULL << (cpu % 64))))))
			continue;
		p->q[cpu].slots = calloc(p->cap, sizeof(struct pf_slot));
		if (!p->q[cpu].slots)
			goto fail;
		for (i = 0; i < p->cap; i++) {
			p->q[cpu].slots[i].data = malloc(b->subbuf_size);
			if (!p->q[cpu].slots[i].data)
				goto fail;
		}
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->more, NULL);
	pthread_cond_init(&p->room, NULL);
	s->prefetch = p;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, PREFETCH_STACK);
	i = pthread_create(&p->tid, &ta, reader, p);
	pthread_attr_destroy(&ta);
	if (i) {
		s->prefetch = NULL;
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->more);
		pthread_cond_destroy(&p->room);
		goto fail;
	}
	p->started = true;
	return 0;
fail:
	for (cpu = 0; p->q && cpu < b->nr_cpus; cpu++) {
		for (i = 0; p->q[cpu].slots && i < p->cap; i++)
			free(p->q[cpu].slots[i].data);
		free(p->q[cpu].slots);
	}
	free(p->q);
	free(p);
	return 0;	/* no read-ahead: the calling thread reads, as with one job */
}

void kt_prefetch__stop(struct kt_session *s)
{
	struct kt_prefetch *p = s->prefetch;
	unsigned int i;
	int cpu;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->tid, NULL);
	s->prefetch = NULL;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->more);
	pthread_cond_destroy(&p->room);
	for (cpu = 0; cpu < p->b->nr_cpus; cpu++) {
		for (i = 0; p->q[cpu].slots && i < p->cap; i++)
			free(p->q[cpu].slots[i].data);
		free(p->q[cpu].slots);
	}
	free(p->q);
	free(p);
}
