// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The page list of one per-CPU ring buffer, checked as a whole before it
 * is walked (lib/ftrace/pages.c): its head page, and whether it keeps what the
 * kernel keeps true of it (kernel/trace/ring_buffer.c).
 */
#include "../internal.h"

static int bpage_prev(struct kt_session *s, uint64_t bpage, uint64_t *bprev)
{
	uint64_t raw;
	int err = kt_read_u64(s, bpage + s->l.bp_list.off + s->l.lh_prev.off, &raw);

	if (!err)
		*bprev = kt_bpage__from_list(&s->l, raw);
	return err;
}

/* what kt_page_list__head() met in its walk of the ring */
struct ring_check {
	uint64_t len;		/* pages met up to the return to the start */
	uint64_t nr_head, nr_update, nr_bad_flags, nr_bad_prev;
	uint64_t head, update, bad_prev;	/* the first of each */
	bool hint_flagged;	/* cpu_buffer->head_page carries RB_PAGE_HEAD */
};

/*
 * What the kernel's own rb_check_pages() and head-page protocol promise
 * (kernel/trace/ring_buffer.c), each rule broken counted once as a
 * page-list anomaly: the ring closes at its start after nr_pages pages
 * (a next to a later page of the ring closes it early and leaves the
 * pages between out); each page's next has it as prev; one list.next
 * carries RB_PAGE_HEAD, and at most one RB_PAGE_UPDATE, which a writer
 * moving the head leaves for a moment (rb_handle_head_page()): UPDATE
 * before the next page is flagged HEAD, both while the old one is
 * cleared. Returns the head page, 0 when none is flagged.
 */
static uint64_t ring_verdict(struct kt_buffer *b, struct kt_cpu *c, const struct ring_check *rc,
			     bool closed)
{
	struct kt_session *s = b->s;
	const char *name = b->name;
	int cpu = c->info.cpu;

	if (closed && rc->len != c->info.nr_pages) {
		kt_warn(s, "%s: cpu%d: the page list closes after %llu pages, nr_pages is %llu",
			name, cpu, (unsigned long long)rc->len,
			(unsigned long long)c->info.nr_pages);
		b->loss.list_anomalies++;
	}
	if (rc->nr_bad_prev) {
		kt_warn(s, "%s: cpu%d: %llu buffer_pages' prev do not point back at the page whose "
			   "next points at them (the first: 0x%llx)", name, cpu,
			(unsigned long long)rc->nr_bad_prev, (unsigned long long)rc->bad_prev);
		b->loss.list_anomalies++;
	}
	if (rc->nr_head > 1 || rc->nr_update > 1 || rc->nr_bad_flags) {
		kt_warn(s, "%s: cpu%d: %llu pages flagged head, %llu update, %llu with both flags "
			   "(one head, at most one update in the kernel)", name, cpu,
			(unsigned long long)rc->nr_head, (unsigned long long)rc->nr_update,
			(unsigned long long)rc->nr_bad_flags);
		b->loss.list_anomalies++;
	}
	if (rc->nr_head > 1 && rc->hint_flagged)
		return c->head_page;
	if (rc->nr_head)
		return rc->head;
	/* the writer was moving the head: the page it had flagged UPDATE */
	return rc->nr_update ? rc->update : 0;
}

uint64_t kt_page_list__head(struct kt_buffer *b, struct kt_cpu *c)
{
	struct kt_session *s = b->s;
	uint64_t start = kt_bpage__from_list(&s->l, c->pages), p = start, raw, head, q, back;
	struct ring_check rc = { 0 };
	struct kt_seen seen = { 0 };
	uint64_t n, flag;

	kt_seen__reserve(&seen, c->info.nr_pages + 2);	/* else it grows */
	for (n = 0; n <= c->info.nr_pages + 1; n++) {
		if (kt_seen__add(&seen, p)) {
			kt_warn(s, "%s: cpu%d: page list loops at buffer_page 0x%llx without "
				   "returning to 0x%llx", b->name, c->info.cpu,
				(unsigned long long)p, (unsigned long long)start);
			break;
		}
		if (kt_bpage__next(s, p, &raw)) {
			kt_warn(s, "%s: cpu%d: cannot read buffer_page at 0x%llx",
				b->name, c->info.cpu, (unsigned long long)p);
			b->loss.list_anomalies++;
			break;
		}
		rc.len++;
		flag = raw & RB_FLAG_MASK;
		q = kt_bpage__from_list(&s->l, raw);
		if (flag == RB_PAGE_HEAD) {
			if (!rc.nr_head++)
				rc.head = q;
			rc.hint_flagged |= q == c->head_page;
		} else if (flag == RB_PAGE_UPDATE) {
			if (!rc.nr_update++)
				rc.update = q;
		} else if (flag) {
			rc.nr_bad_flags++;
		}
		/* list_add(): next->prev is the page whose next it is */
		if (bpage_prev(s, q, &back) || back != p) {
			if (!rc.nr_bad_prev++)
				rc.bad_prev = q;
		}
		p = q;
		if (p == start)
			break;
	}
	kt_seen__free(&seen);
	if (p != start) {
		kt_warn(s, "%s: cpu%d: page list from 0x%llx does not close within %llu pages",
			b->name, c->info.cpu, (unsigned long long)start,
			(unsigned long long)c->info.nr_pages);
		b->loss.list_anomalies++;
	}
	head = ring_verdict(b, c, &rc, p == start);
	if (!head) {
		kt_warn(s, "%s: cpu%d: no page carries the head flag, using head_page 0x%llx",
			b->name, c->info.cpu, (unsigned long long)c->head_page);
		b->loss.list_anomalies++;
		head = c->head_page;
	}
	return head;
}
