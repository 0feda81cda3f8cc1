// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sub-buffers of a ring walk read ahead, a window at a time, with the
 * target's read_blocks(): for a caller that reads a whole CPU's pages in
 * order (trace.dat). Reading a 1 GiB ring is most of the time of writing
 * it, so while the walk takes the sub-buffers of one window, a thread of
 * its own reads the next window into a second one; on two cores the
 * copying out of the dump and the validation of the pages overlap.
 *
 * Which addresses make a window is the walk's business (pages.c): it
 * reads the list ahead and hands the addresses of the next pages here.
 * The walk then takes a sub-buffer only when it asks for the address the
 * window holds next; anything else (a read that failed, a walk that went
 * elsewhere) it reads from the dump as without read-ahead, so the data,
 * the loss counts and the messages are the same.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "readahead.h"

#define RA_STACK	(256u << 10)

struct ra_window {
	uint8_t *buf;		/* block i at buf + i * len */
	uint64_t *addr;
	unsigned char *ok;	/* block i read whole */
	unsigned int n;
};

struct kt_readahead {
	struct kt_session *s;
	uint32_t len;		/* bytes of a block (a sub-buffer) */
	unsigned int cap;	/* blocks of a window */
	struct ra_window win[2];
	int cur;		/* the window the walk takes from */
	unsigned int next;	/* its next block */
	unsigned int seq;	/* windows the walk has begun */

	/* the thread reads win[!cur] while queued and not done */
	pthread_t tid;
	bool inited, started, failed;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool queued, done, stop;
};

static void window_free(struct ra_window *w)
{
	free(w->buf);
	free(w->addr);
	free(w->ok);
}

struct kt_readahead *kt_readahead__new(struct kt_session *s, uint32_t len, uint32_t bytes)
{
	struct kt_readahead *ra;
	unsigned int cap = len ? bytes / len : 0;
	int i;

	if (!s->t.read_blocks || cap < 2)
		return NULL;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->s = s;
	ra->len = len;
	ra->cap = cap;
	for (i = 0; i < 2; i++) {
		ra->win[i].buf = malloc((size_t)cap * len);
		ra->win[i].addr = calloc(cap, sizeof(uint64_t));
		ra->win[i].ok = calloc(cap, 1);
		if (!ra->win[i].buf || !ra->win[i].addr || !ra->win[i].ok) {
			kt_readahead__free(ra);
			return NULL;
		}
	}
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	ra->inited = true;
	return ra;
}

/* the queued window is read: wait for the thread, and take it back */
static void wait_queued(struct kt_readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	while (ra->queued && !ra->done)
		pthread_cond_wait(&ra->cond, &ra->lock);
	ra->queued = ra->done = false;
	pthread_mutex_unlock(&ra->lock);
}

void kt_readahead__free(struct kt_readahead *ra)
{
	if (!ra)
		return;
	if (ra->started) {
		pthread_mutex_lock(&ra->lock);
		ra->stop = true;
		pthread_cond_broadcast(&ra->cond);
		pthread_mutex_unlock(&ra->lock);
		pthread_join(ra->tid, NULL);
	}
	if (ra->inited) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
	}
	window_free(&ra->win[0]);
	window_free(&ra->win[1]);
	free(ra);
}

unsigned int kt_readahead__cap(const struct kt_readahead *ra)
{
	return ra->cap;
}

unsigned int kt_readahead__seq(const struct kt_readahead *ra)
{
	return ra->seq;
}

static int read_window(struct kt_readahead *ra, struct ra_window *w)
{
	return ra->s->t.read_blocks(ra->s->t.priv, w->addr, w->n, ra->len, w->buf, w->ok);
}

static void *reader(void *arg)
{
	struct kt_readahead *ra = arg;

	pthread_mutex_lock(&ra->lock);
	for (;;) {
		struct ra_window *w;

		while (!ra->stop && (!ra->queued || ra->done))
			pthread_cond_wait(&ra->cond, &ra->lock);
		if (ra->stop)
			break;
		w = &ra->win[!ra->cur];
		pthread_mutex_unlock(&ra->lock);
		/* the target allows this beside the caller's reads (target.h) */
		if (read_window(ra, w))
			memset(w->ok, 0, w->n);
		pthread_mutex_lock(&ra->lock);
		ra->done = true;
		pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

int kt_readahead__take(struct kt_readahead *ra, uint64_t addr, const uint8_t **data)
{
	struct ra_window *w = &ra->win[ra->cur];
	unsigned int i;

	if (ra->next == w->n) {
		/* this window is taken: the next, if it was queued */
		if (!ra->queued)
			return -ENOENT;
		wait_queued(ra);
		ra->cur = !ra->cur;
		ra->next = 0;
		ra->seq++;
		w = &ra->win[ra->cur];
	}
	if (!w->n || w->addr[ra->next] != addr) {
		/* the walk went elsewhere: nothing here is of use */
		w->n = ra->next = 0;
		return -ENOENT;
	}
	i = ra->next++;
	if (!w->ok[i])
		return 0;
	*data = w->buf + (size_t)i * ra->len;
	return 1;
}

int kt_readahead__read(struct kt_readahead *ra, const uint64_t *addrs, unsigned int n)
{
	struct ra_window *w;
	int err;

	/* what the thread reads now is of no use: let it end, drop it */
	if (ra->queued)
		wait_queued(ra);
	w = &ra->win[ra->cur];
	if (n > ra->cap)
		n = ra->cap;
	memcpy(w->addr, addrs, n * sizeof(*addrs));
	w->n = n;
	ra->next = 0;
	kt_lock(ra->s);
	err = read_window(ra, w);
	kt_unlock(ra->s);
	if (err) {
		w->n = 0;
		return err;
	}
	ra->seq++;
	return 0;
}

void kt_readahead__queue(struct kt_readahead *ra, const uint64_t *addrs, unsigned int n)
{
	struct ra_window *w = &ra->win[!ra->cur];
	pthread_attr_t ta;

	if (ra->queued || ra->failed || !n)
		return;
	if (!ra->started) {
		pthread_attr_init(&ta);
		pthread_attr_setstacksize(&ta, RA_STACK);
		ra->started = !pthread_create(&ra->tid, &ta, reader, ra);
		pthread_attr_destroy(&ta);
		if (!ra->started) {
			/* no thread: each window is read when the walk reaches it */
			ra->failed = true;
			return;
		}
	}
	if (n > ra->cap)
		n = ra->cap;
	pthread_mutex_lock(&ra->lock);
	memcpy(w->addr, addrs, n * sizeof(*addrs));
	w->n = n;
	ra->done = false;
	ra->queued = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
}
