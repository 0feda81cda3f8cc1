// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libktrace's ring-buffer walk and page decoder against a fake kernel:
 * each case builds per-CPU rings page by page and asserts the exact
 * records (cpu, time stamp, payload) and the loss counters.
 */
#include "fake-check.h"
#include "internal.h"

#define PAGE_NOW 1000000ULL

/* Page @idx (-1: reader) with @n records 10 ns apart, seq from @seq. */
static void fill(struct fk_ring *r, int idx, uint64_t ts, uint32_t seq, int n)
{
	struct fk_pb pb = fk_page(r, idx, ts);
	int i;

	for (i = 0; i < n; i++)
		fk_ev(&pb, 10, 1, seq + i);
}

/* The records fill() writes, skipping the first @skip, appended to @w. */
static void want(char *w, int cpu, uint64_t ts, uint32_t seq, int n, int skip)
{
	int i;

	for (i = skip; i < n; i++)
		sprintf(w + strlen(w), "%s%d/%llu/%u", *w ? " " : "", cpu,
			(unsigned long long)(ts + 10 * (i + 1)), seq + i);
}

static struct kt_buffer *global(struct fk_session *fs)
{
	return kt_session__find_buffer(fs->s, "global");
}

static void loss_of(struct fk_session *fs, struct kt_loss *l)
{
	kt_buffer__loss(global(fs), l);
}

/* ring of 4, head at 2, commit at 1, reader page of 3 events read from 16 */
static void test_wrap(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	struct kt_loss l;
	char w[4096] = "";
	char *got;

	fk_ring_set(r, 2, 1);
	fill(r, -1, 100, 1, 3);
	fk_w32(k, r->reader + BP_READ, 16);	/* the first event was consumed */
	fill(r, 2, 200, 10, 5);
	fill(r, 3, 300, 20, 5);
	fill(r, 0, 400, 30, 5);
	fill(r, 1, 500, 40, 2);
	want(w, 0, 100, 1, 3, 1);
	want(w, 0, 200, 10, 5, 0);
	want(w, 0, 300, 20, 5, 0);
	want(w, 0, 400, 30, 5, 0);
	want(w, 0, 500, 40, 2, 0);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, w, "wrap: reader page from its read offset, then head page 2 round to commit page 1");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_total, 5, "wrap: pages read");
	CHECK(!kt_loss__any(&l), "wrap: nothing lost");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* time extends, absolute stamps and the TS_MSB restore (5.17+) */
static void test_time(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 2);
	uint64_t msb = 0x8ULL << 56;		/* bit 59: beyond the 59 stored bits */
	struct fk_session fs;
	struct fk_pb pb;
	char w[1024];
	char *got;

	fk_ring_set(r, 0, 1);
	pb = fk_page(r, 0, msb | 1000);
	fk_ev(&pb, 10, 1, 1);				/* msb|1010 */
	fk_time_extend(&pb, (1ULL << 30) + 7);		/* msb|1010 + 2^30 + 7 */
	fk_ev(&pb, 3, 1, 2);
	fk_time_stamp(&pb, 5000000000ULL);		/* absolute, low 59 bits */
	fk_ev(&pb, 0, 1, 3);
	fk_ev(&pb, 1, 1, 4);
	pb = fk_page(r, 1, msb | ((1ULL << 59) - 100));
	fk_time_stamp(&pb, 50);		/* wrapped past bit 59: the next MSB value */
	fk_ev(&pb, 2, 1, 5);
	snprintf(w, sizeof(w), "0/%llu/1 0/%llu/2 0/%llu/3 0/%llu/4 0/%llu/5",
		 (unsigned long long)(msb | 1010),
		 (unsigned long long)(msb | (1010 + (1ULL << 30) + 7 + 3)),
		 (unsigned long long)(msb | 5000000000ULL),
		 (unsigned long long)(msb | 5000000001ULL),
		 (unsigned long long)((msb | 50) + (1ULL << 59) + 2));
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, w, "time: extend adds, absolute stamp replaces with TS_MSB restored");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* a discarded event (padding with a length) and the null "rest of page" */
static void test_padding(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 2);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	uint32_t end;
	char *got;

	fk_ring_set(r, 0, 1);
	pb = fk_page(r, 0, 100);
	fk_ev(&pb, 10, 1, 1);
	fk_padding(&pb, 20);		/* its delta does not move the clock */
	fk_ev(&pb, 5, 1, 2);
	/*
	 * rb_reset_tail(): the next event did not fit in the page's last
	 * bytes; a null padding there, write (and so commit) set back before it
	 */
	end = pb.pos;
	fk_put32(&pb, 29);		/* null padding: type 29, delta 0 */
	memset(pb.page + FK_DATA_OFF + pb.pos, 0xee, FK_PAGE - FK_DATA_OFF - pb.pos);
	pb.pos = end;
	fk_commit(&pb);
	fill(r, 1, 200, 3, 1);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/115/2 0/210/3", "padding: discarded event skipped, rest of page ignored");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_corrupt, 0, "padding: no page called corrupt");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * A null padding before the commit end (the writer never commits one) and
 * committed data of nothing but time stamps: corrupt pages, counted; the
 * pages around them are read
 */
static void test_padding_hostile(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	char *got;

	fk_ring_set(r, 0, 3);
	fill(r, 0, 100, 1, 2);
	pb = fk_page(r, 1, 200);
	fk_ev(&pb, 10, 1, 10);
	fk_put32(&pb, 29);		/* null padding, then more committed events */
	fk_ev(&pb, 10, 1, 11);
	fk_ev(&pb, 10, 1, 12);
	pb = fk_page(r, 2, 300);
	fk_time_extend(&pb, 1000);
	fk_time_stamp(&pb, 5000);
	fk_time_extend(&pb, 7);
	fill(r, 3, 400, 20, 2);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/120/2 0/410/20 0/420/21",
		  "hostile padding: the damaged pages are skipped whole, the others read");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_corrupt, 2, "hostile padding: a null padding before the commit end and "
				      "a page of stamps alone are corrupt pages");
	CHECK(kt_loss__any(&l), "hostile padding: the loss is counted (exit 10)");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * @k's global ring read: its records are @want, @anomalies page-list
 * anomalies counted, and @said (NULL: nothing asked) in the warnings;
 * then @k and @r freed
 */
static void expect_ring(struct fk_kernel *k, struct fk_ring *r, const char *what,
			const char *want, uint64_t anomalies, const char *said)
{
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, want, what);
	loss_of(&fs, &l);
	CHECK_U64(l.list_anomalies, anomalies, what);
	CHECK(!anomalies == !kt_loss__any(&l), "%s: exit %d", what, anomalies ? 10 : 0);
	if (said)
		CHECK(strstr(fk_log(&fs), said) != NULL, "%s: said '%s'", what, said);
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* a ring of @n pages of one event each, head at @head, commit at @commit */
static struct fk_ring *ring_of(struct fk_kernel *k, struct fk_buffer *gb, int n, int head,
			       int commit)
{
	struct fk_ring *r = fk_ring_new(k, gb, 0, n);
	int i;

	fk_ring_set(r, head, commit);
	for (i = 0; i < n; i++)
		fill(r, i, 100 * (i + 1), 10 * i, 1);
	return r;
}

/*
 * The ring's own invariants (rb_check_pages(), the head-page protocol):
 * a list that closes early, a prev that disagrees with next, a second
 * head flag; each counted, the pages still reachable read
 */
static void test_list_invariants(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k;
	struct fk_ring *r;

	/* page 1's next skips to page 4: 2 and 3 out of a ring that closes after 4 of 6 */
	k = fk_new(1, &gb);
	r = ring_of(k, &gb, 6, 0, 5);
	fk_w64(k, r->bpage[1] + BP_LIST + LH_NEXT, r->bpage[4] + BP_LIST);
	expect_ring(k, r, "short ring", "0/110/0 0/210/10 0/510/40 0/610/50", 2,
		    "closes after 4 pages, nr_pages is 6");

	/* a prev that does not point back, the ring otherwise whole */
	k = fk_new(1, &gb);
	r = ring_of(k, &gb, 4, 0, 3);
	fk_w64(k, r->bpage[2] + BP_LIST + LH_PREV, r->bpage[0] + BP_LIST);
	expect_ring(k, r, "bad prev", "0/110/0 0/210/10 0/310/20 0/410/30", 1, "prev do not point");

	/* two head flags: the one head_page names is the head */
	k = fk_new(1, &gb);
	r = ring_of(k, &gb, 4, 2, 1);
	fk_w64(k, r->bpage[3] + BP_LIST + LH_NEXT, (r->bpage[0] + BP_LIST) | 1);
	expect_ring(k, r, "two heads", "0/310/20 0/410/30 0/110/0 0/210/10", 1,
		    "2 pages flagged head");

	/* the writer moving the head: UPDATE on the old head, HEAD on the next */
	k = fk_new(1, &gb);
	r = ring_of(k, &gb, 4, 2, 1);
	fk_w64(k, r->bpage[0] + BP_LIST + LH_NEXT, (r->bpage[1] + BP_LIST) | 2);
	expect_ring(k, r, "head update in flight", "0/310/20 0/410/30 0/110/0 0/210/10", 0, NULL);
}

/*
 * buffers[0] pointing at CPU 1's ring_buffer_per_cpu: its cpu field is
 * not its slot, so it is skipped and counted, and CPU 1's events are
 * printed once, as CPU 1's
 */
static void test_cpu_slot(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(2, &gb);
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2), *r1 = fk_ring_new(k, &gb, 1, 2);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r0, 0, 1);
	fk_ring_set(r1, 0, 1);
	fill(r0, 0, 100, 1, 1);
	fill(r1, 0, 150, 2, 1);
	fk_w64(k, gb.buffers, r1->cpu_buffer);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "1/160/2", "cpu slot: CPU 1's events once, as CPU 1's");
	loss_of(&fs, &l);
	CHECK_U64(l.list_anomalies, 1, "cpu slot: counted");
	CHECK(strstr(fk_log(&fs), "whose cpu is 1") != NULL, "cpu slot: said");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r1);
}

/* buffer_page.page not at a page boundary: not a sub-buffer, a corrupt page */
static void test_data_page_not_page(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 1);
	fill(r, 1, 200, 2, 1);
	fill(r, 2, 300, 3, 1);
	/* into page 1's own sub-buffer: its bytes read, but no sub-buffer starts there */
	fk_w64(k, r->bpage[1] + BP_PAGE, fk_data_page(k, r->bpage[1]) + 64);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/310/3", "not a page: the others read");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_corrupt, 1, "not a page: a corrupt page");
	CHECK(kt_loss__any(&l), "not a page: exit 10");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* RB_MISSED_EVENTS with and without RB_MISSED_STORED */
static void test_missed(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	uint64_t cnt = 7;
	char *got;

	fk_ring_set(r, 0, 2);
	pb = fk_page(r, 0, 100);
	fk_ev(&pb, 10, 1, 1);
	fk_ev(&pb, 10, 1, 2);
	pb.flags = 1UL << 31;
	fk_commit(&pb);
	pb = fk_page(r, 1, 200);
	fk_ev(&pb, 10, 1, 3);
	memcpy(pb.page + FK_DATA_OFF + pb.pos, &cnt, 8);	/* stored after the data */
	pb.flags = 3UL << 30;
	fk_commit(&pb);
	fill(r, 2, 300, 4, 1);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1+? 0/120/2 0/210/3+7 0/310/4",
		  "missed: first record of a flagged page carries the loss");
	loss_of(&fs, &l);
	CHECK_U64(l.events_missed_pages, 2, "missed: flagged pages");
	CHECK_U64(l.events_missed_stored, 7, "missed: stored count");
	/*
	 * the text: print_trace_line()'s loss line before the first record
	 * of each flagged page, the count where the page stored it; alike
	 * with worker threads (jobs.c) and without (text.c); and JSON's
	 * "lost_before" of the same records: -1 where how many is not known
	 */
	static const struct {
		int (*write)(struct kt_session *, struct kt_buffer *, FILE *,
			     const struct kt_text_opts *);
		const char *what, *first, *then, *again;
	} outs[] = {
		{ kt_text__write, "", "CPU:0 [LOST EVENTS]\n", "CPU:0 [LOST 7 EVENTS]\n", "[LOST" },
		{ kt_json__write, "JSON ", "\"lost_before\":-1", "\"lost_before\":7", "lost_before" },
	};
	for (size_t w = 0; w < sizeof(outs) / sizeof(outs[0]); w++)
		for (int jobs = 1; jobs <= 2; jobs++) {
			struct kt_text_opts o = { .sz = sizeof(o), .jobs = jobs };
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			const char *a, *b;

			outs[w].write(fs.s, global(&fs), f, &o);
			fclose(f);
			a = buf ? strstr(buf, outs[w].first) : NULL;
			b = buf ? strstr(buf, outs[w].then) : NULL;
			CHECK(a && b && a < b && !strstr(b + strlen(outs[w].then), outs[w].again),
			      "missed, %s-J %d: '%.*s', then '%.*s', nothing more",
			      outs[w].what, jobs, (int)strcspn(outs[w].first, "\n"), outs[w].first,
			      (int)strcspn(outs[w].then, "\n"), outs[w].then);
			free(buf);
		}
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/*
 * a flagged sub-buffer with no event (7.2: persistent-buffer validation
 * empties the invalid ones it flags): the kernel printed a loss line
 * before the next event, which ktrace does not print: counted (exit 10)
 */
static void test_missed_empty(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	char *got;

	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 1);
	pb = fk_page(r, 1, 200);
	pb.flags = 1UL << 31;
	fk_commit(&pb);
	fill(r, 2, 300, 2, 1);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/310/2", "missed, empty page: the other records");
	loss_of(&fs, &l);
	CHECK_U64(l.events_unrendered, 1, "missed, empty page: the loss line not printed, counted");
	CHECK(kt_loss__any(&l), "missed, empty page: exit 10");
	CHECK(strstr(fk_log(&fs), "flagged missed-events holds no event") != NULL,
	      "missed, empty page: said: %s", fk_log(&fs));
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* commit larger than the sub-buffer, and an event longer than the page */
static void test_bad_commit(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	struct fk_pb pb;
	char *got;

	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 2);
	pb = fk_page(r, 1, 200);
	fk_ev(&pb, 10, 1, 3);
	pb.pos = FK_PAGE;	/* commit past the data area */
	fk_commit(&pb);
	pb = fk_page(r, 2, 300);
	fk_ev(&pb, 10, 1, 4);
	fk_put32(&pb, 0);	/* type_len 0: length word follows */
	fk_put32(&pb, 4000);	/* longer than what is left of commit */
	fk_commit(&pb);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/120/2", "bad commit: both bad pages skipped, not half-trusted");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_corrupt, 2, "bad commit: corrupt pages counted");
	CHECK(kt_loss__any(&l), "bad commit: loss reported");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* A ring of 4 (head 0, commit 3) whose page 2 points back to page 1. */
static void test_cycle(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	struct kt_loss l;
	char w[1024] = "";
	char *got;

	fk_ring_set(r, 0, 3);
	fill(r, 0, 100, 1, 2);
	fill(r, 1, 200, 3, 2);
	fill(r, 2, 300, 5, 2);
	fill(r, 3, 400, 7, 2);
	fk_w64(k, r->bpage[2] + BP_LIST + LH_NEXT, r->bpage[1] + BP_LIST);
	want(w, 0, 100, 1, 2, 0);
	want(w, 0, 200, 3, 2, 0);
	want(w, 0, 300, 5, 2, 0);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, w, "cycle: each page once, no record repeated");
	loss_of(&fs, &l);
	CHECK(l.list_anomalies >= 1, "cycle: counted as a page-list anomaly");
	CHECK(strstr(fk_log(&fs), "cpu0") != NULL, "cycle: warning names the cpu");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* page 1's next and page 3's prev both broken: page 2 is lost between */
static void test_broken_both_ways(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	char *got;

	fk_ring_set(r, 0, 3);
	fill(r, 0, 100, 1, 1);
	fill(r, 1, 200, 2, 1);
	fill(r, 2, 300, 3, 1);
	fill(r, 3, 400, 4, 1);
	fk_w64(k, r->bpage[1] + BP_LIST + LH_NEXT, 0xdead000000000100ULL);
	fk_w64(k, r->bpage[3] + BP_LIST + LH_PREV, 0xdead000000000200ULL);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/210/2 0/410/4",
		  "broken both ways: what each walk reaches, in order, nothing twice");
	CHECK(strstr(fk_log(&fs), "lost") != NULL, "broken both ways: the gap is reported");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* page 1's list.next points at unmapped memory */
static void test_broken(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r, 0, 3);
	fill(r, 0, 100, 1, 1);
	fill(r, 1, 200, 2, 1);
	fill(r, 2, 300, 3, 1);
	fill(r, 3, 400, 4, 1);
	fk_w64(k, r->bpage[1] + BP_LIST + LH_NEXT, 0xdead000000000100ULL);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	/* forward up to the break, then back along list.prev from the commit page */
	CHECK_STR(got, "0/110/1 0/210/2 0/310/3 0/410/4",
		  "broken pointer: pages up to it are read, the rest recovered backwards");
	loss_of(&fs, &l);
	CHECK(l.list_anomalies >= 1, "broken pointer: page-list anomaly counted");
	CHECK(kt_loss__any(&l), "broken pointer: loss reported");
	CHECK(strstr(fk_log(&fs), "0xdead000000000100") != NULL ||
	      strstr(fk_log(&fs), "buffer_page") != NULL, "broken pointer: warning names the page");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* no list.next carries RB_PAGE_HEAD: cpu_buffer->head_page is the hint */
static void test_no_head(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r, 1, 0);
	fk_ring_link(r);	/* relink: flag gone */
	fill(r, 1, 100, 1, 1);
	fill(r, 2, 200, 2, 1);
	fill(r, 0, 300, 3, 1);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/210/2 0/310/3", "no head flag: walk from head_page");
	loss_of(&fs, &l);
	CHECK_U64(l.list_anomalies, 1, "no head flag: one anomaly");
	CHECK(strstr(fk_log(&fs), "head flag") != NULL, "no head flag: warned");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* offline CPUs: NULL buffers[1] and buffers[3]; the others merged by time */
static void test_offline(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(4, &gb);
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2), *r2 = fk_ring_new(k, &gb, 2, 2);
	struct fk_session fs;
	struct kt_cpu_info ci;
	char *got;

	fk_ring_set(r0, 0, 1);
	fk_ring_set(r2, 0, 0);
	fill(r0, 0, 100, 1, 2);		/* 110 120 */
	fill(r0, 1, 200, 3, 1);		/* 210 */
	fill(r2, 0, 105, 9, 3);		/* 115 125 135 */
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 2/115/9 0/120/2 2/125/10 2/135/11 0/210/3",
		  "offline cpus: the two online ones merged by time stamp");
	kt_buffer__cpu_info(global(&fs), 1, &ci);
	CHECK(!ci.present, "offline cpus: cpu1 not present");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r2);
}

/* a data page left all-zero (a dump filter's doing) between head and commit */
static void test_zero_page(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 1);
	fill(r, 2, 300, 3, 1);	/* page 1 stays zero-filled */
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/310/3", "zero page: the others still read");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_zero, 1, "zero page: counted where data was expected");
	CHECK(kt_loss__any(&l), "zero page: loss reported");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* reads that fail: -ENODATA (filtered out of the dump) and -EFAULT */
static void test_read_errors(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 4);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r, 0, 3);
	fill(r, 0, 100, 1, 1);
	fill(r, 1, 200, 2, 1);
	fill(r, 2, 300, 3, 1);
	fill(r, 3, 400, 4, 1);
	fk_fail(k, fk_data_page(k, r->bpage[1]), -ENODATA);
	fk_fail(k, fk_data_page(k, r->bpage[2]), -EFAULT);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/410/4", "read errors: the readable pages still read");
	loss_of(&fs, &l);
	CHECK_U64(l.pages_filtered, 1, "read errors: -ENODATA counted as filtered");
	CHECK_U64(l.pages_unreadable, 1, "read errors: -EFAULT counted as unreadable");
	CHECK_U64(l.pages_total, 5, "read errors: every page tried");
	CHECK(kt_loss__any(&l), "read errors: loss reported");
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* the ring_buffer_per_cpu itself unreadable; the page list of one bpage filtered */
static void test_cpu_buffer_unreadable(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(2, &gb);
	struct fk_ring *r0 = fk_ring_new(k, &gb, 0, 2), *r1 = fk_ring_new(k, &gb, 1, 2);
	struct fk_session fs;
	struct kt_loss l;
	char *got;

	fk_ring_set(r0, 0, 1);
	fk_ring_set(r1, 0, 1);
	fill(r0, 0, 100, 1, 1);
	fill(r0, 1, 200, 2, 1);
	fill(r1, 0, 150, 3, 1);
	fk_fail(k, r1->cpu_buffer, -ENODATA);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/210/2", "cpu_buffer unreadable: the other cpu read");
	loss_of(&fs, &l);
	CHECK(l.cpus_unread == 1, "cpu_buffer unreadable: counted as a cpu not read (%llu)",
	      (unsigned long long)l.cpus_unread);
	CHECK(kt_loss__any(&l), "cpu_buffer unreadable: a loss (exit 10)");
	CHECK(strstr(fk_log(&fs), "ring_buffer_per_cpu") != NULL,
	      "cpu_buffer unreadable: warning names the struct");
	CHECK(strstr(fk_log(&fs), "not in the dump (filtered out") != NULL,
	      "cpu_buffer filtered: the warning says it was filtered out: %s", fk_log(&fs));
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r0);
	free(r1);
}

/* an implausible nr_pages read from the dump bounds nothing by itself */
static void test_huge_nr_pages(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 3);
	struct fk_session fs;
	char *got;

	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 1);
	fill(r, 1, 200, 2, 1);
	fill(r, 2, 300, 3, 1);
	fk_w64(k, r->cpu_buffer + CB_NR_PAGES, ~0ULL);
	fk_w64(k, r->bpage[1] + BP_LIST + LH_NEXT, r->bpage[0] + BP_LIST);	/* and a loop */
	if (fk_open(k, &fs, true))
		return;
	k->reads = 0;
	got = fk_records(global(&fs));
	CHECK_STR(got, "0/110/1 0/210/2", "huge nr_pages with a loop: each page once");
	CHECK(k->reads < 1000, "huge nr_pages with a loop: the walk stops early (%llu reads)",
	      (unsigned long long)k->reads);
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* ftrace_trace_arrays loops back to an instance */
static void test_instances_loop(void)
{
	struct fk_buffer gb, i1, i2;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r = fk_ring_new(k, &gb, 0, 2);
	struct fk_session fs;

	fk_instance(k, "one", &i1, 1);
	fk_instance(k, "two", &i2, 1);
	fk_w64(k, i2.tr + TR_LIST + LH_NEXT, i1.tr + TR_LIST);
	if (fk_open(k, &fs, true))
		return;
	CHECK_U64(kt_session__buffer_cnt(fs.s), 3, "instances loop: global, one, two, once each");
	CHECK(strstr(fk_log(&fs), "ftrace_trace_arrays") != NULL, "instances loop: warned");
	fk_close(&fs);
	fk_free(k);
	free(r);
}

/* nr_cpu_ids not in the dump: the session fails, saying where and why */
static void test_no_nr_cpu_ids(void)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_session fs;
	uint64_t a;
	char want[128];

	fk_symbol(k, "nr_cpu_ids", &a);
	fk_fail(k, a, -ENODATA);
	snprintf(want, sizeof(want), "cannot read nr_cpu_ids at 0x%llx: %s",
		 (unsigned long long)a, strerror(ENODATA));
	CHECK(fk_open(k, &fs, true) && !strcmp(kt_last_error(), want),
	      "nr_cpu_ids unreadable: message names the object, address and cause");
	if (fs.s)
		fk_close(&fs);
	else
		fclose(fs.logf), free(fs.log);
	fk_free(k);
}

/* VMCOREINFO text at vmcoreinfo_data, as the kernel keeps it */
static void vmcoreinfo(struct fk_kernel *k, const char *text)
{
	uint64_t data = fk_alloc(k, FK_PAGE), p = fk_alloc(k, 8), size = fk_alloc(k, 8);

	memcpy(fk_ptr(k, data, strlen(text)), text, strlen(text));
	fk_w64(k, p, data);
	fk_sym(k, "vmcoreinfo_data", p);
	fk_w64(k, size, strlen(text));
	fk_sym(k, "vmcoreinfo_size", size);
}

/*
 * A kernel of @page-byte pages (arm64's 16k flavour, ppc64el's 64 KiB):
 * a sub-buffer is one such page. Its size comes from the kernel's
 * VMCOREINFO PAGESIZE (@how 0), else from the target (1); the kernel's
 * word wins over a target that disagrees, which is said (2). With
 * neither (3) the pages whose data runs past 4 KiB are counted corrupt,
 * never printed in part: only the page that fits in 4 KiB is read.
 */
static void big_page(uint32_t page, int how, const char *what)
{
	struct fk_buffer gb;
	struct fk_kernel *k = fk_new(1, &gb);
	struct fk_ring *r;
	struct fk_session fs;
	struct kt_loss l;
	char w[65536] = "", text[128];
	char *got;
	/* 16-byte records: the first and last pages hold more than 4 KiB */
	int big = (int)((page - FK_DATA_OFF) / 16);

	k->page_size = page;
	r = fk_ring_new(k, &gb, 0, 3);
	fk_ring_set(r, 0, 2);
	fill(r, 0, 100, 1, 400);
	fill(r, 1, 100000, 1000, 10);
	fill(r, 2, 200000, 2000, big);
	snprintf(text, sizeof(text), "OSRELEASE=6.12.0-test\nPAGESIZE=%u\n", page);
	if (how == 0 || how == 2)
		vmcoreinfo(k, text);
	if (how == 1)
		k->target_page_size = page;
	if (how == 2)
		k->target_page_size = 4096;
	if (how != 3)
		want(w, 0, 100, 1, 400, 0);
	want(w, 0, 100000, 1000, 10, 0);
	if (how != 3)
		want(w, 0, 200000, 2000, big, 0);
	if (fk_open(k, &fs, true))
		return;
	got = fk_records(global(&fs));
	CHECK_STR(got, w, what);
	loss_of(&fs, &l);
	CHECK_U64(l.pages_corrupt, how == 3 ? 2 : 0, what);
	CHECK(how != 2 || strstr(fk_log(&fs), "PAGESIZE=16384, the dump 4096"),
	      "%s: the disagreement said", what);
	CHECK(how == 2 || !strstr(fk_log(&fs), "PAGESIZE"), "%s: nothing said", what);
	free(got);
	fk_close(&fs);
	fk_free(k);
	free(r);
}

static void test_big_pages(void)
{
	big_page(16384, 0, "16 KiB pages (VMCOREINFO): every record of each whole page");
	big_page(16384, 1, "16 KiB pages (the target): every record of each whole page");
	big_page(16384, 2, "16 KiB pages (VMCOREINFO, the target says 4096): the kernel's word");
	big_page(16384, 3, "16 KiB pages, said by nobody: only what fits 4 KiB, the rest counted");
	big_page(65536, 0, "64 KiB pages (VMCOREINFO): every record of each whole page");
}

/*
 * A big-endian kernel's sub-buffer (s390x): its words in its byte order and
 * the event header's bit-fields the other way round (type_len in the high
 * bits). The same events laid out by a little-endian kernel and by a
 * big-endian one must walk to the same records and time stamps.
 */
static uint32_t be_ev_hdr(bool be, uint32_t type_len, uint32_t delta)
{
	return be ? type_len << 27 | (delta & ((1u << 27) - 1)) : (delta << 5) | type_len;
}

static void put_word(bool be, uint8_t *p, uint64_t v, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* the page: 8-byte stamp, 8-byte commit, then the events; returns the commit */
static uint32_t be_page(bool be, uint8_t *page)
{
	uint8_t *d = page + 16;
	uint32_t at = 0;

	memset(page, 0, 4096);
	put_word(be, page, 5000000000ULL, 8);
	/* a record of 8 bytes (type_len 2), 100 ns after the page's stamp */
	put_word(be, d + at, be_ev_hdr(be, 2, 100), 4);
	put_word(be, d + at + 4, 0x11223344, 4);
	put_word(be, d + at + 8, 0x55667788, 4);
	at += 12;
	/* a time extend of 3 << 27 + 7 ns */
	put_word(be, d + at, be_ev_hdr(be, RINGBUF_TYPE_TIME_EXTEND, 7), 4);
	put_word(be, d + at + 4, 3, 4);
	at += 8;
	/* a record with its length word (type_len 0): 4 + 12 bytes */
	put_word(be, d + at, be_ev_hdr(be, 0, 9), 4);
	put_word(be, d + at + 4, 16, 4);
	put_word(be, d + at + 8, 0xaabbccdd, 4);
	at += 20;
	/* a discarded event: padding with a delta, 8 bytes of it */
	put_word(be, d + at, be_ev_hdr(be, RINGBUF_TYPE_PADDING, 5), 4);
	put_word(be, d + at + 4, 8, 4);
	at += 12;
	put_word(be, d + at, be_ev_hdr(be, 1, 1), 4);
	put_word(be, d + at + 4, 0x01020304, 4);
	at += 8;
	put_word(be, page + 8, at | (1ULL << 31), 8);	/* RB_MISSED_EVENTS */
	return at;
}

static void test_big_endian(void)
{
	static uint8_t pages[2][4096];
	struct kt_layout l = { 0 };
	struct kt_page_cursor c[2];
	uint64_t ts[2][8];
	uint32_t sz[2][8], v[2][8];
	int n[2] = { 0, 0 }, k, i, ret[2];

	l.dp_time_stamp = (struct kt_member){ .present = true, .off = 0, .size = 8 };
	l.dp_commit = (struct kt_member){ .present = true, .off = 8, .size = 8 };
	l.dp_data = (struct kt_member){ .present = true, .off = 16, .size = 0 };
	for (k = 0; k < 2; k++) {
		const uint8_t *rec;
		uint32_t size;
		uint64_t t;

		l.be = k;
		be_page(k, pages[k]);
		ret[k] = kt_page__load(&c[k], &l, pages[k], 4096, 0);
		while (!ret[k] && n[k] < 8 && kt_page__next(&c[k], &rec, &size, &t) > 0) {
			ts[k][n[k]] = t;
			sz[k][n[k]] = size;
			v[k][n[k]] = kt_get32(k, rec);
			n[k]++;
		}
	}
	CHECK(!ret[0] && !ret[1], "big-endian page: both layouts load (%d, %d)", ret[0], ret[1]);
	CHECK(n[0] == 3 && n[1] == 3, "big-endian page: 3 records each (%d, %d)", n[0], n[1]);
	for (i = 0; i < n[0] && i < n[1]; i++)
		CHECK(ts[0][i] == ts[1][i] && sz[0][i] == sz[1][i] && v[0][i] == v[1][i],
		      "big-endian page: record %d the same (ts %llu/%llu, %u/%u bytes, 0x%x/0x%x)",
		      i, (unsigned long long)ts[0][i], (unsigned long long)ts[1][i], sz[0][i],
		      sz[1][i], v[0][i], v[1][i]);
	CHECK(ts[1][0] == 5000000100ULL && ts[1][1] == 5000000100ULL + (3ULL << 27) + 7 + 9 &&
	      v[1][0] == 0x11223344 && v[1][1] == 0xaabbccdd && v[1][2] == 0x01020304,
	      "big-endian page: the time stamps and words a big-endian kernel wrote");
	CHECK(c[1].missed && c[1].page_ts == 5000000000ULL && c[1].discard < c[1].len,
	      "big-endian page: its stamp, missed-events flag and discarded event read");
}

int main(void)
{
	test_wrap();
	test_time();
	test_padding();
	test_padding_hostile();
	test_missed();
	test_missed_empty();
	test_bad_commit();
	test_cycle();
	test_broken();
	test_broken_both_ways();
	test_no_head();
	test_list_invariants();
	test_cpu_slot();
	test_data_page_not_page();
	test_offline();
	test_zero_page();
	test_read_errors();
	test_cpu_buffer_unreadable();
	test_huge_nr_pages();
	test_instances_loop();
	test_no_nr_cpu_ids();
	test_big_pages();
	test_big_endian();
	return fk_failed;
}
