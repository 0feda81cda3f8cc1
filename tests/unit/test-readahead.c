// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat's read-ahead (lib/ftrace/pages.c, lib/ftrace/readers.c) against a fake
 * kernel: a ring of a few windows of sub-buffers with corrupt pages, a
 * zero-filled one and two unreadable ones, written through read() alone,
 * with a read_blocks() that leaves some blocks to read(), and with that
 * read_blocks() on reader threads (kt_tracedat_opts.jobs). The file, the
 * loss counts and the warnings must be the same.
 */
#include "fake-check.h"

#define NR_PAGES 600	/* two windows of 256 sub-buffers and part of a third */

/* (counted with atomics: reader threads call read_blocks()) */
static int blocks_calls, blocks_left;
static uint64_t dpages[NR_PAGES];	/* the ring's sub-buffers */
static uint64_t subbuf_reads;		/* read() calls of one of them */

static int counting_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	int i;

	for (i = 0; i < NR_PAGES; i++)
		subbuf_reads += kvaddr == dpages[i];
	return fk_read(priv, kvaddr, buf, len);
}

/*
 * read_blocks() over the fake kernel: every seventh block left to read().
 * fk_read() counts its calls in the kernel: the regions are looked up
 * here, which threads may do at once.
 */
static int fk_read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len, void *buf,
			  unsigned char *ok)
{
	size_t i;

	__atomic_fetch_add(&blocks_calls, 1, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		struct fk_region *r = fk_region(priv, kvaddrs[i], len);

		ok[i] = (kvaddrs[i] / FK_PAGE) % 7 && r && !r->err;
		if (ok[i])
			memcpy((char *)buf + i * len, r->buf + (kvaddrs[i] - r->addr), len);
		else
			__atomic_fetch_add(&blocks_left, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static struct fk_kernel *build(struct fk_buffer *gb, struct fk_ring **rp)
{
	struct fk_kernel *k = fk_new(1, gb);
	struct fk_ring *r = fk_ring_new(k, gb, 0, NR_PAGES);
	int i, j;

	for (i = 0; i < NR_PAGES; i++)
		dpages[i] = fk_data_page(k, r->bpage[i]);
	/* head at 5: the walk goes round through the end of the page array */
	fk_ring_set(r, 5, 4);
	for (i = 0; i < NR_PAGES; i++) {
		struct fk_pb pb;

		if (i == 40)
			continue;	/* zero-filled where events were written */
		pb = fk_page(r, i, 1000 * (uint64_t)((i + NR_PAGES - 5) % NR_PAGES));
		for (j = 0; j < 20; j++)
			fk_ev(&pb, 3, 1, (uint32_t)(i * 100 + j));
		if (i % 3 == 0)
			fk_padding(&pb, 64);	/* discarded: a delta to zero */
		if (i == 150) {
			fk_put32(&pb, 29);	/* a null padding the writer never commits */
			fk_ev(&pb, 3, 1, (uint32_t)(i * 100 + j));
		}
		if (i == 200) {		/* time stamps alone */
			pb = fk_page(r, i, 1000 * (uint64_t)(i - 5));
			fk_time_extend(&pb, 5);
			fk_time_stamp(&pb, 1000 * (uint64_t)(i - 5));
		}
	}
	/*
	 * a commit past the sub-buffer; one more at the end of a window (head +
	 * 255); 150 and 200 corrupt inside (walked by kt_page__check()'s lanes)
	 */
	fk_w64(k, fk_data_page(k, r->bpage[77]) + 8, FK_PAGE * 2);
	fk_w64(k, fk_data_page(k, r->bpage[260]) + 8, FK_PAGE * 2);
	fk_fail(k, fk_data_page(k, r->bpage[90]), -EFAULT);
	fk_fail(k, fk_data_page(k, r->bpage[130]), -ENODATA);
	*rp = r;
	return k;
}

struct result {
	char *dat, *log;
	size_t dat_len;
	struct kt_loss loss;
	uint64_t subbuf_reads;
	int err;
};

static void run(bool blocks, int jobs, struct result *res)
{
	struct kt_open_opts o = { .sz = sizeof(o), .no_events = true };
	struct fk_buffer gb;
	struct fk_ring *r;
	struct fk_kernel *k = build(&gb, &r);
	struct kt_session *s;
	struct kt_target t;
	size_t log_len;
	FILE *f, *logf;

	memset(res, 0, sizeof(*res));
	fk_target(k, &t);
	t.read = counting_read;
	if (blocks)
		t.read_blocks = fk_read_blocks;
	if (jobs > 1)
		t.flags = KT_TARGET_BLOCKS_MT;
	logf = open_memstream(&res->log, &log_len);
	o.log = logf;
	s = kt_session__open(&t, &o);
	f = tmpfile();
	if (!s || !f) {
		res->err = -1;
	} else {
		subbuf_reads = 0;
		struct kt_tracedat_opts dopts = { .sz = sizeof(dopts), .jobs = jobs };

		res->err = kt_tracedat__write_opts(s, NULL, f, &dopts);
		res->subbuf_reads = subbuf_reads;
		kt_buffer__loss(kt_session__find_buffer(s, "global"), &res->loss);
		fflush(f);
		res->dat_len = (size_t)ftello(f);
		res->dat = malloc(res->dat_len ? res->dat_len : 1);
		rewind(f);
		if (!res->dat || fread(res->dat, 1, res->dat_len, f) != res->dat_len)
			res->err = -1;
	}
	if (f)
		fclose(f);
	kt_session__free(s);
	fclose(logf);
	fk_free(k);
	free(r);
}

static void same(const struct result *a, const struct result *b, const char *how)
{
	CHECK(a->dat_len == b->dat_len && a->dat && b->dat && !memcmp(a->dat, b->dat, a->dat_len),
	      "%s: the same trace.dat (%zu bytes)", how, a->dat_len);
	CHECK(!memcmp(&a->loss, &b->loss, sizeof(a->loss)), "%s: the same loss counts", how);
	CHECK_STR(b->log, a->log, "the same warnings");
}

int main(void)
{
	struct result plain, ahead, threads;
	int calls;

	run(false, 1, &plain);
	run(true, 1, &ahead);
	CHECK(!plain.err && !ahead.err, "trace.dat written both ways (%d, %d)", plain.err,
	      ahead.err);
	CHECK(blocks_calls >= 3, "read_blocks() read the ring a window at a time (%d calls)",
	      blocks_calls);
	CHECK(blocks_left > 0, "read_blocks() left blocks to read() (%d)", blocks_left);
	/* (and both read the commit page's commit once more, count_inflight()) */
	CHECK(plain.subbuf_reads >= NR_PAGES &&
	      ahead.subbuf_reads - blocks_left == plain.subbuf_reads - NR_PAGES,
	      "read() reads only the sub-buffers read_blocks() left: %llu of %llu",
	      (unsigned long long)ahead.subbuf_reads, (unsigned long long)plain.subbuf_reads);
	same(&plain, &ahead, "read-ahead");
	CHECK_U64(ahead.loss.pages_corrupt, 4, "the corrupt pages counted");
	CHECK_U64(ahead.loss.pages_zero, 1, "the zero-filled page counted");
	CHECK_U64(ahead.loss.pages_unreadable, 1, "the unreadable page counted");
	CHECK_U64(ahead.loss.pages_filtered, 1, "the filtered page counted");

	calls = blocks_calls;
	run(true, 3, &threads);
	CHECK(!threads.err, "trace.dat written with three reader threads (%d)", threads.err);
	CHECK(blocks_calls - calls >= 3, "the readers read it a window at a time (%d calls)",
	      blocks_calls - calls);
	CHECK(threads.subbuf_reads == ahead.subbuf_reads,
	      "read() read the same sub-buffers as without threads (%llu)",
	      (unsigned long long)threads.subbuf_reads);
	same(&plain, &threads, "reader threads");
	free(plain.dat);
	free(plain.log);
	free(ahead.dat);
	free(ahead.log);
	free(threads.dat);
	free(threads.log);
	return fk_failed;
}
