// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The loss account (lib/loss.c): each recorder's counters added member by
 * member, which of them make the exit status 10, and the summary lines and
 * JSON every front end prints, word for word as they were printed before
 * the account was one table (the tests and users' scripts read them).
 */
#include <stddef.h>
#include "fake-check.h"
#include "internal.h"

static char *printed(void (*fn)(const void *l, FILE *f, const char *prefix), const void *l,
		     const char *prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(l, f, prefix);
	fclose(f);
	return buf;
}

static void ftrace_print(const void *l, FILE *f, const char *prefix)
{
	kt_loss__print(l, f, prefix);
}

static void relay_print(const void *l, FILE *f, const char *prefix)
{
	kt_relay_loss__print(l, f, prefix);
}

static void lttng_print(const void *l, FILE *f, const char *prefix)
{
	kt_lttng_loss__print(l, f, prefix);
}

#define NR(s) (sizeof(s) / sizeof(uint64_t))

/* every member set alone: lost or only a figure, as @figure lists */
static void check_any(const char *what, size_t size, const size_t *figure, size_t nr_figure,
		      bool (*any)(const void *l))
{
	uint64_t l[64] = { 0 };
	size_t i, k, bad = 0;

	CHECK(!any(l), "%s: nothing counted, nothing lost", what);
	for (i = 0; i < size / sizeof(uint64_t); i++) {
		bool want = true;

		for (k = 0; k < nr_figure; k++)
			if (figure[k] == i * sizeof(uint64_t))
				want = false;
		l[i] = 1;
		if (any(l) != want) {
			printf("#   member %zu: any() %d\n", i, !want);
			bad++;
		}
		l[i] = 0;
	}
	CHECK(!bad, "%s: each member alone is a loss (exit 10) or only a figure", what);
}

static bool ftrace_any(const void *l) { return kt_loss__any(l); }
static bool relay_any(const void *l) { return kt_relay_loss__any(l); }
static bool lttng_any(const void *l) { return kt_lttng_loss__any(l); }

static void test_any(void)
{
	/* what the kernel overwrote or dropped as meant, and the figures */
	static const size_t figure[] = {
		offsetof(struct kt_loss, pages_total),
		offsetof(struct kt_loss, events_overrun),
		offsetof(struct kt_loss, events_dropped),
		offsetof(struct kt_loss, events_missed_pages),
		offsetof(struct kt_loss, events_missed_stored),
		offsetof(struct kt_loss, inflight_bytes),
		offsetof(struct kt_loss, events_unread),
		offsetof(struct kt_loss, log_records),
		offsetof(struct kt_loss, log_overwritten),
		offsetof(struct kt_loss, log_dropped),
		offsetof(struct kt_loss, log_inflight),
	};

	check_any("kt_loss", sizeof(struct kt_loss), figure, sizeof(figure) / sizeof(figure[0]),
		  ftrace_any);
	check_any("kt_relay_loss", sizeof(struct kt_relay_loss), NULL, 0, relay_any);
	check_any("kt_lttng_loss", sizeof(struct kt_lttng_loss), NULL, 0, lttng_any);
}

/* @to and @from filled so that their sum is 1001 * i + 1 in member i */
static void fill(uint64_t *to, uint64_t *from, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		to[i] = 1000 * i;
		from[i] = i + 1;
	}
}

/* the members of @sum that are not the sum fill() set up */
static size_t not_added(const uint64_t *sum, size_t n)
{
	size_t i, bad = 0;

	for (i = 0; i < n; i++)
		bad += sum[i] != 1001 * i + 1;
	return bad;
}

static void test_add(void)
{
	struct kt_loss a, b;
	struct kt_relay_loss ra, rb;
	struct kt_lttng_loss la, lb;

	fill((uint64_t *)&a, (uint64_t *)&b, NR(a));
	kt_loss__add(&a, &b);
	CHECK(!not_added((uint64_t *)&a, NR(a)), "kt_loss__add(): every member of struct kt_loss added");

	fill((uint64_t *)&ra, (uint64_t *)&rb, NR(ra));
	kt_relay_loss__add(&ra, &rb);
	CHECK(!not_added((uint64_t *)&ra, NR(ra)), "kt_relay_loss__add(): every member added");

	fill((uint64_t *)&la, (uint64_t *)&lb, NR(la));
	kt_lttng_loss__add(&la, &lb);
	CHECK(!not_added((uint64_t *)&la, NR(la)), "kt_lttng_loss__add(): every member added");
}

static void test_print(void)
{
	struct kt_loss l = { 0 };
	struct kt_relay_loss r = { 0 };
	struct kt_lttng_loss t = { 0 };
	char *s;

	s = printed(ftrace_print, &l, "# ktrace: ");
	CHECK_STR(s, "# ktrace: pages read: 0, unreadable: 0, filtered from the dump: 0, "
		     "corrupt (skipped): 0, zero-filled: 0, page-list anomalies: 0\n"
		     "# ktrace: events overwritten by the kernel: 0, dropped by the kernel: 0, "
		     "pages flagged missed-events: 0, unknown event ids: 0, in-flight bytes "
		     "(reserved, not committed): 0\n",
		  "kt_loss__print(): nothing lost, the two lines");
	free(s);

	l.pages_total = 1;
	l.pages_unreadable = 2;
	l.pages_filtered = 3;
	l.pages_corrupt = 4;
	l.pages_zero = 5;
	l.list_anomalies = 6;
	l.events_overrun = 7;
	l.events_dropped = 8;
	l.events_missed_pages = 9;
	l.events_missed_stored = 99;
	l.events_unknown = 10;
	l.inflight_bytes = 11;
	l.records_bad = 12;
	l.events_unrendered = 13;
	l.addrs_unnamed = 14;
	l.events_unread = 15;
	l.cpus_unread = 16;
	l.buffers_unread = 17;
	l.options_unread = 18;
	l.ptrs_unhashed = 19;
	l.addrs_substituted = 20;
	l.log_dropped = 21;
	s = printed(ftrace_print, &l, "p: ");
	CHECK_STR(s, "p: pages read: 1, unreadable: 2, filtered from the dump: 3, "
		     "corrupt (skipped): 4, zero-filled: 5, page-list anomalies: 6\n"
		     "p: events overwritten by the kernel: 7, dropped by the kernel: 8, "
		     "pages flagged missed-events: 9, unknown event ids: 10, in-flight bytes "
		     "(reserved, not committed): 11\n"
		     "p: records their event's format could not decode: 12\n"
		     "p: events not printed as the kernel would (an option, a tracer or a print "
		     "format ktrace does not render): 13\n"
		     "p: code addresses printed as numbers where the kernel printed a symbol (no "
		     "kallsyms could name them): 14\n"
		     "p: event table entries not read (the ftrace_events list or an entry "
		     "damaged): 15\n"
		     "p: per-CPU buffers not read (their ring_buffer_per_cpu filtered out of the "
		     "dump or damaged; how many events they held is not known): 16\n"
		     "p: trace buffers not read (an instance, or the instance list, damaged): 17\n"
		     "p: buffers printed with the default options (theirs not in the dump): 18\n"
		     "p: pointers printed raw that the kernel printed hashed (its ptr_key is not "
		     "in the dump): 19\n"
		     "p: code addresses named from the vmlinux's symbol table (the dump's kallsyms "
		     "could not be decoded): 20\n"
		     "p: kernel log records: 0, overwritten before the crash: 0, dropped by the "
		     "kernel: 21, in flight (reserved, not committed): 0, corrupt (skipped): 0, "
		     "unreadable: 0\n",
		  "kt_loss__print(): every line, in its order, the kernel log's once one of its "
		  "counts is not 0");
	free(s);

	s = printed(relay_print, &r, "x: ");
	CHECK_STR(s, "x: relay lost:\n", "kt_relay_loss__print(): nothing lost");
	free(s);
	r.events_dropped = 3;
	r.subbufs_overwritten = 2;
	r.list_anomalies = 1;
	s = printed(relay_print, &r, "x: ");
	CHECK_STR(s, "x: relay lost: sub-buffers overwritten unread 2, events dropped by "
		     "blktrace (buffers full) 3, channel list anomalies 1\n",
		  "kt_relay_loss__print(): what is not 0, in its order");
	free(s);
	s = printed(relay_print, &r, NULL);
	CHECK_STR(s, " sub-buffers overwritten unread 2, events dropped by blktrace (buffers "
		     "full) 3, channel list anomalies 1",
		  "kt_relay_loss__print(NULL): the counters only, on the caller's line");
	free(s);

	t.sessions_damaged = 1;
	t.list_anomalies = 9;
	s = printed(lttng_print, &t, "y: ");
	CHECK_STR(s, "y: lttng: lost: 1 sessions damaged, 0 channels damaged, 0 buffers "
		     "damaged, 0 buffers unreadable, 0 packets overwritten, 0 packets "
		     "unreadable, 0 page sets with a bad header, 0 bytes uncommitted, 9 list "
		     "anomalies\n",
		  "kt_lttng_loss__print(): every counter");
	free(s);
}

static void test_json(void)
{
	struct kt_loss l = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	l.pages_total = 5;
	l.cpus_unread = 1;
	l.log_unreadable = 2;
	kt_loss__json(&l, f);
	fclose(f);
	CHECK_STR(buf, "{\"pages_total\":5,\"pages_unreadable\":0,\"pages_filtered\":0,"
		       "\"pages_corrupt\":0,\"pages_zero\":0,\"list_anomalies\":0,"
		       "\"events_overrun\":0,\"events_dropped\":0,\"events_missed_pages\":0,"
		       "\"events_missed_stored\":0,\"events_unknown\":0,\"inflight_bytes\":0,"
		       "\"events_unrendered\":0,\"records_bad\":0,\"addrs_unnamed\":0,"
		       "\"addrs_substituted\":0,\"ptrs_unhashed\":0,\"options_unread\":0,"
		       "\"buffers_unread\":0,\"events_unread\":0,\"cpus_unread\":1,"
		       "\"log_records\":0,\"log_overwritten\":0,\"log_dropped\":0,"
		       "\"log_inflight\":0,\"log_corrupt\":0,\"log_unreadable\":2}",
		  "kt_loss__json(): every member, in the order readers know");
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	l.log_records = 7;
	kt_loss__json_log(&l, f);
	fclose(f);
	CHECK_STR(buf, ",\"records\":7,\"overwritten\":0,\"dropped\":0,\"inflight\":0,"
		       "\"corrupt\":0,\"unreadable\":2",
		  "kt_loss__json_log(): the kernel log's counts, as its JSON header names them");
	free(buf);
}

int main(void)
{
	test_any();
	test_add();
	test_print();
	test_json();
	return fk_failed;
}
