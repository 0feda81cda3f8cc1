// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the front ends print about buffers besides their records: the
 * "# ktrace: buffer ..." line before a buffer's text and the table of
 * --list. Kept here so that ktrace-extract and the crash command print
 * the same bytes for the same dump.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ktrace/ktrace.h>

void kt_buffer__print_banner(const struct kt_buffer *b, FILE *out)
{
	fprintf(out, "# ktrace: buffer %s: %d cpus, sub-buffer %u bytes, clock %s\n",
		kt_buffer__name(b), kt_buffer__nr_cpus(b), kt_buffer__subbuf_size(b),
		kt_buffer__clock(b));
}

void kt_session__print_buffers(const struct kt_session *s, FILE *out)
{
	struct kt_buffer *b;
	int i, cpu;

	fprintf(out, "%-16s %4s %8s %8s %10s %12s %12s %8s\n", "BUFFER", "CPU", "PAGES",
		"SUBBUF", "ENTRIES", "OVERRUN", "DROPPED", "CLOCK");
	kt_session__for_each_buffer(s, i, b) {
		for (cpu = 0; cpu < kt_buffer__nr_cpus(b); cpu++) {
			struct kt_cpu_info ci;

			if (kt_buffer__cpu_info(b, cpu, &ci) || !ci.present)
				continue;
			fprintf(out, "%-16s %4d %8llu %8u %10llu %12llu %12llu %8s\n",
				kt_buffer__name(b), cpu, (unsigned long long)ci.nr_pages,
				kt_buffer__subbuf_size(b),
				(unsigned long long)(ci.entries - ci.overrun - ci.read),
				(unsigned long long)ci.overrun,
				(unsigned long long)(ci.dropped_events + ci.commit_overrun),
				kt_buffer__clock(b));
		}
	}
	/* the relay channels, read on first use: a cache of the session's,
	 * filled here as any lazily read state */
	kt_session__print_relay((struct kt_session *)s, out);
	kt_session__print_lttng((struct kt_session *)s, out);
	kt_session__print_panic(s, out);
}

void kt_session__print_panic(const struct kt_session *s, FILE *out)
{
	const char *src;
	int cpu = kt_session__panic_cpu(s, &src);

	if (cpu < 0)
		fprintf(out, "panic cpu: none recorded (panic_cpu and crashing_cpu unset)\n");
	else
		fprintf(out, "panic cpu: %d (%s)\n", cpu, src);
}

/* "0,2-3" into a bitmap of KT_CPUMASK_WORDS words (ORed in) */
int kt_cpumask__parse(const char *arg, uint64_t *mask)
{
	char *dup = strdup(arg), *tok, *save = NULL, *end;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long a, b;

		errno = 0;
		a = strtoul(tok, &end, 10);
		b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (errno || *end || end == tok || b < a || b >= KT_CPUMASK_WORDS * 64) {
			free(dup);
			return -EINVAL;
		}
		for (; a <= b; a++)
			mask[a / 64] |= 1ULL << (a % 64);
	}
	free(dup);
	return 0;
}
