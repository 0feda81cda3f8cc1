// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The loss account: every counter of what a recorder could not read or
 * what the kernel dropped, described once. The counts live in the public
 * structs each recorder fills (struct kt_loss for ftrace, the ktrace
 * recorder and the kernel log, struct kt_relay_loss for relay channels
 * and blktrace, struct kt_lttng_loss for LTTng: their layout is the
 * library's ABI). Here each struct is a table of its counters, and one
 * set of functions walks a table: adding two accounts, "was anything
 * lost" (the exit status 10), the summary lines and the JSON object. A
 * member added to a struct (callers allocate them: a new ABI version) is
 * one line of its table; the _Static_asserts say when a member has none.
 */
#include <stddef.h>
#include <string.h>
#include "internal.h"

/* one counter: a u64 member of its struct */
struct loss_counter {
	const char *name;	/* the member's name, the JSON key */
	size_t off;
	const char *pre, *post;	/* the summary's words before and after the number */
	int line;		/* summary line it is on (NO_LINE: none, only in JSON) */
	bool lost;		/* data lost (the exit status 10), not only a figure */
};

#define NO_LINE (-1)

/* a summary line: the caller's prefix, @lead, then the counters, ", " apart */
struct loss_line {
	const char *lead;
	const char *sep1;	/* before the first counter */
	bool always;		/* printed even when every counter of it is 0 */
	bool skip_zero;		/* a counter at 0 is left out */
};

struct loss_kind {
	const struct loss_counter *c;
	size_t nr;
	const struct loss_line *lines;
	size_t nr_lines;
};

#define C(type, m, pre, post, line, lost) \
	{ #m, offsetof(struct type, m), pre, post, line, lost }
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * struct kt_loss, in the order of its JSON object (a format others read:
 * the order stays); the summary prints by line, a line's counters in
 * this order.
 */
enum {
	L_PAGES, L_EVENTS, L_RECORDS_BAD, L_UNRENDERED, L_UNNAMED, L_EVENTS_UNREAD,
	L_CPUS_UNREAD, L_BUFFERS_UNREAD, L_OPTIONS_UNREAD, L_UNHASHED, L_SUBSTITUTED, L_LOG,
};

#define F(m, pre, line, lost) C(kt_loss, m, pre, "", line, lost)
static const struct loss_counter ftrace_counters[] = {
	F(pages_total, "pages read: ", L_PAGES, false),
	F(pages_unreadable, "unreadable: ", L_PAGES, true),
	F(pages_filtered, "filtered from the dump: ", L_PAGES, true),
	F(pages_corrupt, "corrupt (skipped): ", L_PAGES, true),
	F(pages_zero, "zero-filled: ", L_PAGES, true),
	F(list_anomalies, "page-list anomalies: ", L_PAGES, true),
	/* what the kernel overwrote or dropped itself is said, but is no
	 * loss of the reading: a flight recorder overwrites by design */
	F(events_overrun, "events overwritten by the kernel: ", L_EVENTS, false),
	F(events_dropped, "dropped by the kernel: ", L_EVENTS, false),
	F(events_missed_pages, "pages flagged missed-events: ", L_EVENTS, false),
	F(events_missed_stored, "", NO_LINE, false),
	F(events_unknown, "unknown event ids: ", L_EVENTS, true),
	F(inflight_bytes, "in-flight bytes (reserved, not committed): ", L_EVENTS, false),
	F(events_unrendered, "events not printed as the kernel would (an option, a tracer or a "
			     "print format ktrace does not render): ", L_UNRENDERED, true),
	F(records_bad, "records their event's format could not decode: ", L_RECORDS_BAD, true),
	F(addrs_unnamed, "code addresses printed as numbers where the kernel printed a "
			 "symbol (no kallsyms could name them): ", L_UNNAMED, true),
	F(addrs_substituted, "code addresses named from the vmlinux's symbol table (the dump's "
			     "kallsyms could not be decoded): ", L_SUBSTITUTED, true),
	F(ptrs_unhashed, "pointers printed raw that the kernel printed hashed (its ptr_key is "
			 "not in the dump): ", L_UNHASHED, true),
	F(options_unread, "buffers printed with the default options (theirs not in the dump): ",
	  L_OPTIONS_UNREAD, true),
	F(buffers_unread, "trace buffers not read (an instance, or the instance list, "
			  "damaged): ", L_BUFFERS_UNREAD, true),
	/* the table printed (--events) is partial; a record of a missing
	 * event is counted in events_unknown */
	F(events_unread, "event table entries not read (the ftrace_events list or an entry "
			 "damaged): ", L_EVENTS_UNREAD, false),
	F(cpus_unread, "per-CPU buffers not read (their ring_buffer_per_cpu filtered out "
		       "of the dump or damaged; how many events they held is not known): ",
	  L_CPUS_UNREAD, true),
	/* the kernel log: overwritten, dropped and in-flight records are the
	 * ring working as the kernel meant it to */
	F(log_records, "kernel log records: ", L_LOG, false),
	F(log_overwritten, "overwritten before the crash: ", L_LOG, false),
	F(log_dropped, "dropped by the kernel: ", L_LOG, false),
	F(log_inflight, "in flight (reserved, not committed): ", L_LOG, false),
	F(log_corrupt, "corrupt (skipped): ", L_LOG, true),
	F(log_unreadable, "unreadable: ", L_LOG, true),
};
#undef F

static const struct loss_line ftrace_lines[] = {
	[L_PAGES] = { "", "", true, false },
	[L_EVENTS] = { "", "", true, false },
	[L_RECORDS_BAD ... L_SUBSTITUTED] = { "", "", false, false },
	/* only where the kernel log was read: trace output stays as it was */
	[L_LOG] = { "", "", false, false },
};

static const struct loss_kind ftrace_kind = {
	ftrace_counters, N(ftrace_counters), ftrace_lines, N(ftrace_lines),
};

/* struct kt_relay_loss: one line, of what is not 0 */
#define R(m, pre) C(kt_relay_loss, m, pre, "", 0, true)
static const struct loss_counter relay_counters[] = {
	R(subbufs_overwritten, "sub-buffers overwritten unread "),
	R(events_dropped, "events dropped by blktrace (buffers full) "),
	R(bufs_damaged, "buffers refused as damaged "),
	R(bufs_unreadable, "buffers unreadable "),
	R(bytes_unreadable, "bytes unreadable "),
	R(bytes_skipped, "bytes skipped (no valid record) "),
	R(records_cut, "records cut "),
	R(list_anomalies, "channel list anomalies "),
};
#undef R

static const struct loss_line relay_lines[] = {
	{ "relay lost:", " ", true, true },
};

static const struct loss_kind relay_kind = {
	relay_counters, N(relay_counters), relay_lines, N(relay_lines),
};

/* struct kt_lttng_loss: one line, every counter */
#define T(m, post) C(kt_lttng_loss, m, "", post, 0, true)
static const struct loss_counter lttng_counters[] = {
	T(sessions_damaged, " sessions damaged"),
	T(chans_damaged, " channels damaged"),
	T(bufs_damaged, " buffers damaged"),
	T(bufs_unreadable, " buffers unreadable"),
	T(packets_overwritten, " packets overwritten"),
	T(packets_unreadable, " packets unreadable"),
	T(sets_damaged, " page sets with a bad header"),
	T(bytes_uncommitted, " bytes uncommitted"),
	T(list_anomalies, " list anomalies"),
};
#undef T

static const struct loss_line lttng_lines[] = {
	{ "lttng: lost:", " ", true, false },
};

static const struct loss_kind lttng_kind = {
	lttng_counters, N(lttng_counters), lttng_lines, N(lttng_lines),
};
#undef C

/* every member has its counter: the add and the JSON miss none */
_Static_assert(N(ftrace_counters) * sizeof(uint64_t) == sizeof(struct kt_loss),
	       "every counter of struct kt_loss is in its table");
_Static_assert(N(relay_counters) * sizeof(uint64_t) == sizeof(struct kt_relay_loss),
	       "every counter of struct kt_relay_loss is in its table");
_Static_assert(N(lttng_counters) * sizeof(uint64_t) == sizeof(struct kt_lttng_loss),
	       "every counter of struct kt_lttng_loss is in its table");
#undef N

static uint64_t counter(const struct loss_counter *c, const void *l)
{
	uint64_t v;

	memcpy(&v, (const char *)l + c->off, sizeof(v));
	return v;
}

static void loss_add(const struct loss_kind *k, void *to, const void *from)
{
	size_t i;

	for (i = 0; i < k->nr; i++) {
		uint64_t v = counter(&k->c[i], to) + counter(&k->c[i], from);

		memcpy((char *)to + k->c[i].off, &v, sizeof(v));
	}
}

static bool loss_any(const struct loss_kind *k, const void *l)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		if (k->c[i].lost && counter(&k->c[i], l))
			return true;
	return false;
}

/* line @line of @l; @prefix NULL: its counters only, continuing the caller's line */
static void loss_line(const struct loss_kind *k, int line, const void *l, FILE *out,
		      const char *prefix)
{
	const struct loss_line *ln = &k->lines[line];
	const char *sep = ln->sep1;
	size_t i;

	if (prefix)
		fprintf(out, "%s%s", prefix, ln->lead);
	for (i = 0; i < k->nr; i++) {
		const struct loss_counter *c = &k->c[i];
		uint64_t v = counter(c, l);

		if (c->line != line || (ln->skip_zero && !v))
			continue;
		fprintf(out, "%s%s%llu%s", sep, c->pre, (unsigned long long)v, c->post);
		sep = ", ";
	}
	if (prefix)
		fputc('\n', out);
}

static bool line_any(const struct loss_kind *k, int line, const void *l)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		if (k->c[i].line == line && counter(&k->c[i], l))
			return true;
	return false;
}

static void loss_print(const struct loss_kind *k, const void *l, FILE *out, const char *prefix)
{
	size_t line;

	for (line = 0; line < k->nr_lines; line++)
		if (k->lines[line].always || line_any(k, line, l))
			loss_line(k, line, l, out, prefix);
}

/* ----- struct kt_loss: ftrace, the ktrace recorder, the kernel log ----- */

void kt_loss__add(struct kt_loss *to, const struct kt_loss *from)
{
	loss_add(&ftrace_kind, to, from);
}

bool kt_loss__any(const struct kt_loss *l)
{
	return loss_any(&ftrace_kind, l);
}

void kt_loss__print(const struct kt_loss *l, FILE *out, const char *prefix)
{
	loss_print(&ftrace_kind, l, out, prefix);
}

void kt_loss__print_log(const struct kt_loss *l, FILE *out, const char *prefix)
{
	loss_line(&ftrace_kind, L_LOG, l, out, prefix);
}

void kt_loss__json(const struct kt_loss *l, FILE *out)
{
	size_t i;

	for (i = 0; i < ftrace_kind.nr; i++)
		fprintf(out, "%s\"%s\":%llu", i ? "," : "{", ftrace_counters[i].name,
			(unsigned long long)counter(&ftrace_counters[i], l));
	fputs("}", out);
}

/*
 * The kernel log's counts as members of the log's JSON header: named as
 * struct kt_loss names them, without "log_" ("records", "corrupt", ...)
 */
void kt_loss__json_log(const struct kt_loss *l, FILE *out)
{
	size_t i;

	for (i = 0; i < ftrace_kind.nr; i++)
		if (ftrace_counters[i].line == L_LOG)
			fprintf(out, ",\"%s\":%llu", ftrace_counters[i].name + strlen("log_"),
				(unsigned long long)counter(&ftrace_counters[i], l));
}

/* ----- struct kt_relay_loss: relay channels, blktrace ----- */

void kt_relay_loss__add(struct kt_relay_loss *to, const struct kt_relay_loss *from)
{
	loss_add(&relay_kind, to, from);
}

bool kt_relay_loss__any(const struct kt_relay_loss *l)
{
	return loss_any(&relay_kind, l);
}

/* "relay lost: what N, ..." (what is not 0) after @prefix; NULL: " what N, ..." only */
void kt_relay_loss__print(const struct kt_relay_loss *l, FILE *out, const char *prefix)
{
	loss_line(&relay_kind, 0, l, out, prefix);
}

/* ----- struct kt_lttng_loss: LTTng sessions ----- */

void kt_lttng_loss__add(struct kt_lttng_loss *to, const struct kt_lttng_loss *from)
{
	loss_add(&lttng_kind, to, from);
}

bool kt_lttng_loss__any(const struct kt_lttng_loss *l)
{
	return loss_any(&lttng_kind, l);
}

void kt_lttng_loss__print(const struct kt_lttng_loss *l, FILE *out, const char *prefix)
{
	loss_line(&lttng_kind, 0, l, out, prefix);
}
