// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat version 6: the metadata in a fixed order, options, then the
 * top-level buffer's "flyrecord": per cpu the offset and size of its data,
 * and (with a TRACECLOCK option) the trace_clock text. Each instance is a
 * BUFFER option (offset, name) pointing at its own "flyrecord" table.
 * trace-cmd reads as many cpus there as in the file header and gives
 * instances the file's trace clock and page size.
 */
#include <stdlib.h>
#include <string.h>
#include "tracedat.h"

/* "flyrecord\0", then per cpu the offset and size of its data (patched later) */
static uint64_t write_flyrecord_table(struct kt_dat *d)
{
	uint64_t pos;
	int cpu;

	kt_dat__write(d, "flyrecord", 10);
	pos = kt_dat__tell(d);
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		kt_dat__u64(d, 0);
		kt_dat__u64(d, 0);
	}
	return pos;
}

static void patch_flyrecord_table(struct kt_dat *d, uint64_t pos, const struct kt_dat_cpu *cpus)
{
	int cpu;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		kt_dat__patch_u64(d, pos + cpu * 16, cpus[cpu].off);
		kt_dat__patch_u64(d, pos + cpu * 16 + 8, cpus[cpu].size);
	}
}

static void write_option(struct kt_dat *d, uint16_t id, const void *data, uint32_t size)
{
	kt_dat__u16(d, id);
	kt_dat__u32(d, size);
	kt_dat__write(d, data, size);
}

int kt_dat__write_v6(struct kt_dat *d)
{
	struct kt_buffer *top = d->bufs[0];
	struct kt_dat_cpu *cpus;
	uint64_t *buf_opt = NULL, table;
	char clock[64];
	uint32_t ncpu = d->nr_cpus;
	int i, cpu;

	cpus = calloc(d->nr_cpus, sizeof(*cpus));
	if (d->nr_bufs > 1)
		buf_opt = calloc(d->nr_bufs, sizeof(*buf_opt));
	if (!cpus || (d->nr_bufs > 1 && !buf_opt)) {
		free(cpus);
		return -ENOMEM;
	}
	kt_dat__magic(d, "6");
	kt_dat__header_info(d);
	kt_dat__ftrace_formats(d);
	kt_dat__event_formats(d);
	kt_dat__kallsyms(d);
	kt_dat__printk(d);
	kt_dat__cmdlines(d);
	kt_dat__u32(d, ncpu);

	kt_dat__write(d, "options  ", 10);
	kt_dat__u16(d, DAT_OPT_CPUCOUNT);
	kt_dat__u32(d, 4);
	kt_dat__u32(d, (uint32_t)ncpu);
	kt_dat__clock_text(top, clock, sizeof(clock));
	write_option(d, DAT_OPT_TRACECLOCK, clock, strlen(clock) + 1);
	for (cpu = 0; cpu < kt_buffer__nr_cpus(top); cpu++) {
		size_t len;
		char *stat = kt_dat__cpustat(top, cpu, &len);

		if (stat)
			write_option(d, DAT_OPT_CPUSTAT, stat, len);
		free(stat);
	}
	for (i = 1; i < d->nr_bufs; i++) {
		const char *name = kt_buffer__name(d->bufs[i]);

		kt_dat__u16(d, DAT_OPT_BUFFER);
		kt_dat__u32(d, 8 + strlen(name) + 1);
		buf_opt[i] = kt_dat__tell(d);
		kt_dat__u64(d, 0);
		kt_dat__str(d, name);
	}
	kt_dat__u16(d, DAT_OPT_DONE);

	table = write_flyrecord_table(d);
	/* read right after the table because of the TRACECLOCK option */
	kt_dat__u64(d, strlen(clock));
	kt_dat__write(d, clock, strlen(clock));
	kt_dat__cpu_data(d, top, cpus);
	patch_flyrecord_table(d, table, cpus);

	for (i = 1; i < d->nr_bufs && !d->err; i++) {
		kt_dat__patch_u64(d, buf_opt[i], kt_dat__tell(d));
		table = write_flyrecord_table(d);
		kt_dat__cpu_data(d, d->bufs[i], cpus);
		patch_flyrecord_table(d, table, cpus);
	}
	free(buf_opt);
	free(cpus);
	return d->err;
}
