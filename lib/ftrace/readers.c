// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader threads for trace.dat: each takes a window of sub-buffers whose
 * addresses the calling thread's walk collected (pages.c), reads it with
 * the target's read_blocks() and validates every page of it, while the
 * calling thread copies the windows before it into the file. Copying the
 * pages out of the dump's page cache and checking them is most of
 * trace.dat's time; the walk, the copy into the file and the writes stay
 * on the calling thread, in order, so the file is the same.
 *
 * Only a target that says read_blocks() may run on several threads
 * (KT_TARGET_BLOCKS_MT) gets readers: they call nothing else of the
 * session, and take none of its locks.
 */
#include <stdlib.h>
#include "../internal.h"

#define READERS_STACK	(256u << 10)

struct kt_readers {
	struct kt_session *s;
	pthread_t *tids;
	int nr;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct kt_read_job *head, *tail;	/* queued, oldest first */
	bool stop;
};

static void job_run(struct kt_session *s, struct kt_read_job *j)
{
	unsigned int i;

	j->err = s->t.read_blocks(s->t.priv, j->addr, j->n, j->len, j->buf, j->ok);
	if (j->err)
		return;
	for (i = 0; i < j->n; i++)
		j->pages[i] = j->buf + (size_t)i * j->len;
	kt_page__check(&s->l, j->pages, j->n, (uint32_t)j->len, j->chk);
}

static void *reader(void *arg)
{
	struct kt_readers *r = arg;
	struct kt_read_job *j;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->head && !r->stop)
			pthread_cond_wait(&r->work, &r->lock);
		if (!r->head)
			break;
		j = r->head;
		r->head = j->next;
		if (!r->head)
			r->tail = NULL;
		pthread_mutex_unlock(&r->lock);
		job_run(r->s, j);
		pthread_mutex_lock(&r->lock);
		j->state = KT_JOB_DONE;
		pthread_cond_broadcast(&r->done);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

struct kt_readers *kt_readers__new(struct kt_session *s, int nr)
{
	struct kt_readers *r;
	pthread_attr_t ta;
	int i;

	if (nr < 1 || !s->t.read_blocks || !(s->t.flags & KT_TARGET_BLOCKS_MT))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->tids = calloc(nr, sizeof(*r->tids));
	if (!r->tids) {
		free(r);
		return NULL;
	}
	r->s = s;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->work, NULL);
	pthread_cond_init(&r->done, NULL);
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, READERS_STACK);
	for (i = 0; i < nr; i++) {
		if (pthread_create(&r->tids[i], &ta, reader, r))
			break;
		r->nr++;
	}
	pthread_attr_destroy(&ta);
	if (!r->nr) {
		kt_readers__free(r);
		return NULL;	/* no thread: the calling thread reads */
	}
	return r;
}

int kt_readers__nr(const struct kt_readers *r)
{
	return r ? r->nr : 0;
}

void kt_readers__free(struct kt_readers *r)
{
	int i;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_broadcast(&r->work);
	pthread_mutex_unlock(&r->lock);
	for (i = 0; i < r->nr; i++)
		pthread_join(r->tids[i], NULL);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->work);
	pthread_cond_destroy(&r->done);
	free(r->tids);
	free(r);
}

/* @j read and checked now (@r NULL), or by a reader thread */
void kt_readers__submit(struct kt_readers *r, struct kt_session *s, struct kt_read_job *j)
{
	j->next = NULL;
	if (!r) {
		kt_lock(s);
		job_run(s, j);
		kt_unlock(s);
		j->state = KT_JOB_DONE;
		return;
	}
	pthread_mutex_lock(&r->lock);
	j->state = KT_JOB_QUEUED;
	if (r->tail)
		r->tail->next = j;
	else
		r->head = j;
	r->tail = j;
	pthread_cond_signal(&r->work);
	pthread_mutex_unlock(&r->lock);
}

/* until @j is done (a job never submitted is: KT_JOB_IDLE) */
void kt_readers__wait(struct kt_readers *r, struct kt_read_job *j)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	while (j->state == KT_JOB_QUEUED)
		pthread_cond_wait(&r->done, &r->lock);
	pthread_mutex_unlock(&r->lock);
}
