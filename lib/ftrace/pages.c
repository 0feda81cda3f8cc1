// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pages of one per-CPU ring buffer, oldest first, as the kernel's
 * non-consuming iterator reads them (rb_iter_reset/rb_inc_iter in
 * kernel/trace/ring_buffer.c): the reader page from its read offset, then
 * the ring from the head page up to and including the commit page.
 *
 * The head page is the page whose predecessor's list.next carries
 * RB_PAGE_HEAD in its low bits; cpu_buffer->head_page is only a hint the
 * writer updates lazily, so it is the fallback, counted as an anomaly.
 *
 * A list from a dump can loop anywhere: both walks remember the pages they
 * met (8 bytes a page) and stop at the first one met twice, so no page is
 * read, and no event printed, twice.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

struct kt_page_iter {
	struct kt_session *s;
	struct kt_buffer *b;
	struct kt_cpu *c;
	uint8_t *page;
	enum { PI_READER, PI_RING, PI_BACK, PI_DONE } state;
	/* PI_BACK: pages recovered backwards from the commit page, newest first */
	uint64_t *back;
	uint64_t nr_back;
	bool walk_broke;	/* a next pointer could not be read */
	uint64_t next_bpage;	/* next buffer_page in the ring */
	uint64_t head;
	uint64_t steps, max_steps;
	uint32_t start;		/* offset of the first unread event of the current page */
	uint64_t cur_bpage;
	bool expect_data;	/* the current page lies before the commit page */
	struct kt_seen seen;	/* buffer_pages returned or skipped so far */
	const uint8_t *data;	/* the current sub-buffer: @page or in a window of @ra */
	/*
	 * Read-ahead (kt_page_iter__set_readahead(); ra NULL: off): windows
	 * of up to ra_cap sub-buffers of the pages ahead of the walk, each
	 * read with one call of the target's read_blocks() and checked, on
	 * @readers' threads when there are; a ring of ra_nb windows of which
	 * ra_len, from ra_head, are filled. The ahead walk (ahead_*) finds
	 * their addresses as the walk will meet the pages.
	 */
	struct ra_win {
		struct kt_read_job job;
		uint64_t *addr;
		unsigned int next;	/* the next block the walk takes */
		bool ready;		/* read: waited for */
	} *ra;
	unsigned int ra_nb, ra_cap, ra_head, ra_len;
	struct kt_readers *readers;
	/* kt_page_iter__on_release(): before a window's pages are read over */
	void (*release)(void *ctx);
	void *release_ctx;
	bool ahead_on, ahead_end, ahead_dpage_ok;
	uint64_t ahead_bpage, ahead_dpage, ahead_steps;
	const struct kt_page_check *data_chk;	/* @data's, when from a window */
};

/*
 * The forward walk broke (an unreadable or wild next pointer) before the
 * commit page. The list is doubly linked: walk back from the commit page
 * along prev until a page already returned, so the pages after the break
 * are still read, oldest first. What neither walk reaches is lost and
 * was counted as an anomaly where the walk broke.
 */
static int recover_backwards(struct kt_page_iter *it)
{
	struct kt_session *s = it->s;
	struct kt_cpu *c = it->c;
	uint64_t p = c->commit_page, raw, n;
	bool joined = false;

	it->back = calloc(it->max_steps + 1, sizeof(*it->back));
	if (!it->back)
		return -ENOMEM;
	for (n = 0; n <= it->max_steps; n++) {
		int r = kt_seen__add(&it->seen, p);

		if (r < 0)
			return r;
		if (r) {
			joined = true;
			break;
		}
		it->back[it->nr_back++] = p;
		if (kt_read_u64(s, p + s->l.bp_list.off + s->l.lh_prev.off, &raw))
			break;
		p = kt_bpage__from_list(&s->l, raw);
	}
	kt_warn(s, "%s: cpu%d: %llu pages recovered backwards from the commit page 0x%llx%s",
		it->b->name, c->info.cpu, (unsigned long long)it->nr_back,
		(unsigned long long)c->commit_page,
		joined ? "" : "; the pages between the two breaks are lost");
	it->state = PI_BACK;
	return 0;
}

struct kt_page_iter *kt_page_iter__new(struct kt_buffer *b, int cpu)
{
	struct kt_page_iter *it;

	if (cpu < 0 || cpu >= b->nr_cpus) {
		errno = EINVAL;
		return NULL;
	}
	it = calloc(1, sizeof(*it));
	if (!it)
		return NULL;
	it->s = b->s;
	it->b = b;
	it->c = &b->cpus[cpu];
	it->page = malloc(b->subbuf_size);
	if (!it->page) {
		free(it);
		return NULL;
	}
	if (!it->c->info.present) {
		it->state = PI_DONE;
		return it;
	}
	it->state = PI_READER;
	it->max_steps = it->c->info.nr_pages + 1;
	kt_seen__reserve(&it->seen, it->max_steps + 1);	/* else it grows */
	return it;
}

/* what the windows of a read-ahead may hold together */
#define RA_MAX_BYTES	(8u << 20)

/* the windows, once no reader is at them */
static void ra_free(struct kt_page_iter *it)
{
	unsigned int i;

	if (it->ra && it->release)
		it->release(it->release_ctx);
	for (i = 0; it->ra && i < it->ra_nb; i++) {
		struct ra_win *w = &it->ra[i];

		kt_readers__wait(it->readers, &w->job);
		free(w->addr);
		free(w->job.buf);
		free(w->job.ok);
		free(w->job.chk);
		free(w->job.pages);
	}
	free(it->ra);
	it->ra = NULL;
	it->ra_nb = it->ra_len = 0;
}

void kt_page_iter__free(struct kt_page_iter *it)
{
	if (!it)
		return;
	ra_free(it);
	kt_seen__free(&it->seen);
	free(it->back);
	free(it->page);
	free(it);
}

int kt_page_iter__set_readahead(struct kt_page_iter *it, uint32_t bytes,
				struct kt_readers *readers)
{
	struct kt_session *s = it->s;
	size_t len = it->b->subbuf_size;
	unsigned int cap = bytes / it->b->subbuf_size, i;
	/* a window being taken, one being read by each reader, as many waiting */
	unsigned int nb = readers ? 2 * (unsigned int)kt_readers__nr(readers) + 1 : 1;

	/* the ticket's page cache and the text's prefetch read by themselves */
	if (it->ra || !s->t.read_blocks || s->pagecache || s->prefetch || cap < 2)
		return 0;
	/* RA_MAX_BYTES in all, but at least two windows with readers */
	if ((size_t)nb * bytes > RA_MAX_BYTES)
		nb = RA_MAX_BYTES / bytes > 2 ? RA_MAX_BYTES / bytes : 2;
	it->ra = calloc(nb, sizeof(*it->ra));
	if (!it->ra)
		return -ENOMEM;
	it->ra_nb = nb;
	it->ra_cap = cap;
	it->readers = readers;
	for (i = 0; i < nb; i++) {
		struct ra_win *w = &it->ra[i];

		w->addr = calloc(cap, sizeof(*w->addr));
		w->job.addr = w->addr;
		w->job.len = len;
		w->job.buf = malloc(cap * len);
		w->job.ok = calloc(cap, 1);
		w->job.chk = calloc(cap, sizeof(*w->job.chk));
		w->job.pages = calloc(cap, sizeof(*w->job.pages));
		if (!w->addr || !w->job.buf || !w->job.ok || !w->job.chk || !w->job.pages) {
			ra_free(it);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * buffer_page.page is the address of pages from the page allocator
 * (alloc_pages_node() in rb_allocate_pages(), or the boot-mapped range's
 * sub-buffers, 6.12): at a page boundary. Anything else is not a
 * sub-buffer, whatever its bytes would say.
 */
static bool dpage_plausible(struct kt_session *s, uint64_t dpage)
{
	return dpage && !(dpage & ((uint64_t)s->l.page_size - 1));
}

/*
 * The addresses of the next window's sub-buffers, as the walk will meet
 * them: up to the commit page, not back to the head, while the list
 * reads (where next_raw() stops, this stops); a page whose sub-buffer
 * address does not read is left out, as the walk reads none. Nothing is
 * counted or said here: the walk meets each page after this and does
 * that. 0: the walk ends before.
 */
static unsigned int ahead_collect(struct kt_page_iter *it, struct ra_win *w)
{
	struct kt_session *s = it->s;
	unsigned int n = 0;
	uint64_t raw;

	while (n < it->ra_cap && !it->ahead_end) {
		uint64_t bpage = it->ahead_bpage;

		if (it->ahead_dpage_ok)
			w->addr[n++] = it->ahead_dpage;
		if (bpage == it->c->commit_page || ++it->ahead_steps >= it->max_steps ||
		    kt_bpage__next(s, bpage, &raw) || kt_bpage__from_list(&s->l, raw) == it->head) {
			it->ahead_end = true;
			break;
		}
		it->ahead_bpage = kt_bpage__from_list(&s->l, raw);
		it->ahead_dpage_ok = !kt_read_member(s, it->ahead_bpage, &s->l.bp_page,
						     &it->ahead_dpage) &&
				     dpage_plausible(s, it->ahead_dpage);
	}
	return n;
}

/* windows found and handed to the readers (or read now) until the ring of them is full */
static void ra_refill(struct kt_page_iter *it)
{
	while (it->ra && it->ra_len < it->ra_nb && !it->ahead_end) {
		struct ra_win *w = &it->ra[(it->ra_head + it->ra_len) % it->ra_nb];
		unsigned int n = ahead_collect(it, w);

		if (!n)
			break;
		w->job.n = n;
		w->next = 0;
		w->ready = false;
		kt_readers__submit(it->readers, it->s, &w->job);
		it->ra_len++;
	}
}

/*
 * @dpage of @bpage from the read-ahead, into it->data; false: read it
 * from the dump. The ahead walk starts at the first page asked for.
 */
static bool readahead_take(struct kt_page_iter *it, uint64_t bpage, uint64_t dpage)
{
	struct ra_win *w;
	unsigned int i;

	if (!it->ahead_on) {
		it->ahead_on = true;
		it->ahead_bpage = bpage;
		it->ahead_dpage = dpage;
		it->ahead_dpage_ok = true;
	}
	for (;;) {
		if (!it->ra_len)
			ra_refill(it);
		if (!it->ra_len)
			return false;
		w = &it->ra[it->ra_head];
		if (!w->ready) {
			kt_readers__wait(it->readers, &w->job);
			w->ready = true;
		}
		if (w->job.err) {
			/* the target cannot: each sub-buffer by itself from here */
			ra_free(it);
			return false;
		}
		if (w->next < w->job.n)
			break;
		/* taken whole (the walk is past its last page): read the next one into it */
		if (it->release)
			it->release(it->release_ctx);
		it->ra_head = (it->ra_head + 1) % it->ra_nb;
		it->ra_len--;
		ra_refill(it);
	}
	i = w->next++;
	if (w->addr[i] != dpage) {
		/* the walk went elsewhere (it cannot): no more read-ahead */
		ra_free(it);
		return false;
	}
	if (!w->job.ok[i])
		return false;
	it->data = w->job.buf + (size_t)i * w->job.len;
	it->data_chk = &w->job.chk[i];
	return true;
}

/*
 * Read the data page of @bpage; 0, or <0 with the loss counted.
 * @ahead: the page is one of the ring walk (PI_RING), whose next pages
 * the read-ahead may read now.
 */
static int read_data_page(struct kt_page_iter *it, uint64_t bpage, bool ahead)
{
	struct kt_session *s = it->s;
	struct kt_buffer *b = it->b;
	uint64_t dpage;
	int err;

	b->loss.pages_total++;
	it->data = it->page;
	it->data_chk = NULL;
	err = kt_read_member(s, bpage, &s->l.bp_page, &dpage);
	if (!err && !dpage_plausible(s, dpage)) {
		b->loss.pages_corrupt++;
		kt_warn(s, "%s: cpu%d: buffer_page 0x%llx: its sub-buffer address 0x%llx is not at "
			   "a page boundary, skipped", b->name, it->c->info.cpu,
			(unsigned long long)bpage, (unsigned long long)dpage);
		return -EBADMSG;
	}
	if (!err && ahead && it->ra && readahead_take(it, bpage, dpage))
		return 0;
	if (!err)
		err = kt_prefetch__read(s, b, (int)(it->c - b->cpus), dpage, it->page,
					b->subbuf_size);
	if (err == -ENODATA) {
		b->loss.pages_filtered++;
	} else if (err) {
		b->loss.pages_unreadable++;
		kt_warn(s, "%s: cpu%d: cannot read sub-buffer of buffer_page 0x%llx: %s",
			b->name, it->c->info.cpu, (unsigned long long)bpage, strerror(-err));
	}
	return err;
}

static void count_inflight(struct kt_page_iter *it)
{
	struct kt_session *s = it->s;
	struct kt_cpu *c = it->c;
	uint64_t write, dpage, commit;

	if (kt_read_member(s, c->tail_page, &s->l.bp_write, &write))
		return;
	write &= RB_WRITE_MASK;
	if (c->tail_page != c->commit_page) {
		/* a reservation moved the tail past the commit page */
		it->b->loss.inflight_bytes += write;
		return;
	}
	if (kt_read_member(s, c->commit_page, &s->l.bp_page, &dpage) ||
	    kt_read_u64(s, dpage + s->l.dp_commit.off, &commit))
		return;
	commit &= ~(uint64_t)RB_MISSED_FLAGS;
	if (write > commit)
		it->b->loss.inflight_bytes += write - commit;
}

/*
 * 1: *@page holds the next sub-buffer (subbuf_size bytes as read from the
 * dump, not yet validated), *@start the offset of its first unread event;
 * 0: end; <0 only for allocation failures. Unreadable pages are counted
 * and skipped.
 */
static int next_raw(struct kt_page_iter *it, uint64_t *bpage_out, uint32_t *start)
{
	struct kt_session *s = it->s;
	struct kt_cpu *c = it->c;
	uint64_t bpage, raw, v;

	for (;;) {
		switch (it->state) {
		case PI_DONE:
			if (!it->walk_broke)
				return 0;
			it->walk_broke = false;
			if (recover_backwards(it) < 0)
				return -ENOMEM;
			continue;
		case PI_BACK:
			if (!it->nr_back) {
				it->state = PI_DONE;
				return 0;
			}
			bpage = it->back[--it->nr_back];
			it->expect_data = bpage != c->commit_page;
			*start = 0;
			if (read_data_page(it, bpage, false))
				continue;
			*bpage_out = bpage;
			return 1;
		case PI_READER:
			bpage = c->reader_page;
			it->head = kt_page_list__head(it->b, c);
			it->next_bpage = it->head;
			count_inflight(it);
			it->state = bpage == c->commit_page ? PI_DONE : PI_RING;
			it->expect_data = false;
			*start = 0;
			if (kt_seen__add(&it->seen, bpage) < 0)
				return -ENOMEM;
			if (!kt_read_member(s, bpage, &s->l.bp_read, &v))
				*start = (uint32_t)v;
			if (read_data_page(it, bpage, false))
				continue;
			*bpage_out = bpage;
			return 1;
		case PI_RING:
			bpage = it->next_bpage;
			if (it->steps++ >= it->max_steps) {
				kt_warn(s, "%s: cpu%d: commit page 0x%llx not reached after %llu "
					   "pages, list corrupt", it->b->name, c->info.cpu,
					(unsigned long long)c->commit_page,
					(unsigned long long)it->max_steps);
				it->b->loss.list_anomalies++;
				it->state = PI_DONE;
				return 0;
			}
			switch (kt_seen__add(&it->seen, bpage)) {
			case 0:
				break;
			case 1:
				kt_warn(s, "%s: cpu%d: buffer_page 0x%llx met twice before the commit "
					   "page 0x%llx, page list loops", it->b->name, c->info.cpu,
					(unsigned long long)bpage, (unsigned long long)c->commit_page);
				it->b->loss.list_anomalies++;
				it->state = PI_DONE;
				return 0;
			default:
				return -ENOMEM;
			}
			it->expect_data = bpage != c->commit_page;
			if (bpage == c->commit_page)
				it->state = PI_DONE;
			else if (kt_bpage__next(s, bpage, &raw)) {
				kt_warn(s, "%s: cpu%d: broken page list at buffer_page 0x%llx",
					it->b->name, c->info.cpu, (unsigned long long)bpage);
				it->b->loss.list_anomalies++;
				it->state = PI_DONE;
				it->walk_broke = true;
			} else {
				it->next_bpage = kt_bpage__from_list(&s->l, raw);
				if (it->next_bpage == it->head) {
					kt_warn(s, "%s: cpu%d: back at the head page without meeting "
						   "the commit page 0x%llx", it->b->name,
						c->info.cpu, (unsigned long long)c->commit_page);
					it->b->loss.list_anomalies++;
					it->state = PI_DONE;
				}
			}
			*start = 0;
			if (read_data_page(it, bpage, true))
				continue;
			*bpage_out = bpage;
			return 1;
		}
	}
}

/* Next page whose header validates; the cursor is loaded into @cur. */
int kt_page_iter__next_cursor(struct kt_page_iter *it, struct kt_page_cursor *cur)
{
	const struct kt_layout *l = &it->s->l;
	uint32_t start;
	int ret;

	for (;;) {
		ret = next_raw(it, &it->cur_bpage, &start);
		if (ret <= 0)
			return ret;
		/*
		 * A page the writer has moved past always has a time stamp and
		 * a commit; a zero header there is memory a dump filter (or a
		 * tool that cannot map the page) replaced with zeros.
		 */
		if (it->expect_data && !kt_get64(l->be, it->data + l->dp_time_stamp.off) &&
		    !kt_get64(l->be, it->data + l->dp_commit.off)) {
			it->b->loss.pages_zero++;
			kt_warn(it->s, "%s: cpu%d: sub-buffer of buffer_page 0x%llx is zero-filled "
				       "where events were written, skipped", it->b->name,
				it->c->info.cpu, (unsigned long long)it->cur_bpage);
			continue;
		}
		ret = it->data_chk ? kt_page__load_checked(cur, l, it->data, it->b->subbuf_size,
							   start, it->data_chk)
				   : kt_page__load(cur, l, it->data, it->b->subbuf_size, start);
		if (!ret)
			return 1;
		it->b->loss.pages_corrupt++;
		kt_warn(it->s, "%s: cpu%d: sub-buffer of buffer_page 0x%llx is corrupt (%s), "
			       "skipped", it->b->name, it->c->info.cpu,
			(unsigned long long)it->cur_bpage, kt_page__why(ret));
	}
}

void kt_page_iter__on_release(struct kt_page_iter *it, void (*fn)(void *ctx), void *ctx)
{
	it->release = fn;
	it->release_ctx = ctx;
}

uint8_t *kt_page_iter__window_page(struct kt_page_iter *it)
{
	/* a window's page comes with its check; the page read alone without */
	return it->data_chk ? (uint8_t *)it->data : NULL;
}

uint64_t kt_page_iter__bpage(const struct kt_page_iter *it)
{
	return it->cur_bpage;
}

int kt_page_iter__next(struct kt_page_iter *it, const void **page, uint32_t *len)
{
	struct kt_page_cursor cur;
	int ret = kt_page_iter__next_cursor(it, &cur);

	if (ret <= 0)
		return ret;
	*page = it->data;
	*len = it->b->subbuf_size;
	return 1;
}
