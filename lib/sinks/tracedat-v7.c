// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat version 7: the file is a chain of sections, each behind a
 * 16-byte header (id 2, flags 2, description 4, size 8), from right after
 * the file header to the end. trace-cmd finds the strings section (the
 * descriptions) by walking that chain, so sections are written back to
 * back, and the cpu data's page alignment is padding inside its section.
 *
 * What is where is said by options: the file header points at the first
 * options section. Ours is the last section, written when every offset is
 * known, and holds the metadata sections' offsets and one BUFFER option
 * per buffer: offset of its flyrecord section, name ("" for the top
 * buffer), trace clock, page size, and per cpu its id, data offset and
 * size. trace-cmd 3.1.6 writes and reads this layout (checked against
 * `trace-cmd convert --file-version 7` and `trace-cmd dump --all`).
 */
#include <stdlib.h>
#include <string.h>
#include "tracedat.h"

#define SECTION_HDR	16

/* the strings section: descriptions, addressed by offset */
struct strtab {
	char *buf;
	uint32_t len;
};

static uint32_t strtab_add(struct strtab *t, const char *s, int *err)
{
	size_t n = strlen(s) + 1;
	uint32_t at = t->len;
	char *nb = realloc(t->buf, t->len + n);

	if (!nb) {
		*err = -ENOMEM;
		return 0;
	}
	memcpy(nb + t->len, s, n);
	t->buf = nb;
	t->len += n;
	return at;
}

/* a section header with its size left to section_end() */
static uint64_t section_begin(struct kt_dat *d, uint16_t id, uint32_t desc)
{
	uint64_t pos = kt_dat__tell(d);

	kt_dat__u16(d, id);
	kt_dat__u16(d, 0);	/* flags: not compressed */
	kt_dat__u32(d, desc);
	kt_dat__u64(d, 0);
	return pos;
}

static void section_end(struct kt_dat *d, uint64_t pos)
{
	kt_dat__patch_u64(d, pos + 8, kt_dat__tell(d) - pos - SECTION_HDR);
}

static void option_u64(struct kt_dat *d, uint16_t id, uint64_t v)
{
	kt_dat__u16(d, id);
	kt_dat__u32(d, 8);
	kt_dat__u64(d, v);
}

enum { S_HEADERS, S_FTRACE, S_EVENTS, S_KALLSYMS, S_PRINTK, S_CMDLINES, S_OPTIONS, S_STRINGS,
       NR_S };

static const char *const names[NR_S] = {
	"headers", "ftrace events", "events format", "kallsyms", "printk", "command lines",
	"options", "strings",
};

static const uint16_t meta_opt[S_OPTIONS] = {
	DAT_OPT_HEADER_INFO, DAT_OPT_FTRACE_EVENTS, DAT_OPT_EVENT_FORMATS, DAT_OPT_KALLSYMS,
	DAT_OPT_PRINTK, DAT_OPT_CMDLINES,
};

static void buffer_option(struct kt_dat *d, struct kt_buffer *b, const char *name,
			  uint64_t section, const struct kt_dat_cpu *cpus)
{
	const char *clock = kt_buffer__clock(b);
	uint32_t size;
	int cpu;

	if (!clock || !*clock)
		clock = "local";
	size = 8 + strlen(name) + 1 + strlen(clock) + 1 + 4 + 4 + d->nr_cpus * 20;
	kt_dat__u16(d, DAT_OPT_BUFFER);
	kt_dat__u32(d, size);
	kt_dat__u64(d, section);
	kt_dat__str(d, name);
	kt_dat__str(d, clock);
	kt_dat__u32(d, d->page_size);
	kt_dat__u32(d, d->nr_cpus);
	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		kt_dat__u32(d, cpu);
		kt_dat__u64(d, cpus[cpu].off);
		kt_dat__u64(d, cpus[cpu].size);
	}
}

int kt_dat__write_v7(struct kt_dat *d)
{
	struct strtab st = { 0 };
	uint32_t desc[NR_S], *buf_desc;
	uint64_t meta[S_OPTIONS], *fly, first_opts, sec;
	struct kt_dat_cpu *cpus;
	uint32_t ncpu = d->nr_cpus;
	char clock[64];
	int i, cpu, err = 0;

	buf_desc = calloc(d->nr_bufs, sizeof(*buf_desc));
	fly = calloc(d->nr_bufs, sizeof(*fly));
	cpus = calloc((size_t)d->nr_bufs * d->nr_cpus, sizeof(*cpus));
	if (!buf_desc || !fly || !cpus) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < NR_S; i++)
		desc[i] = strtab_add(&st, names[i], &err);
	for (i = 0; i < d->nr_bufs; i++) {
		char name[KT_MAX_STR + 32];

		snprintf(name, sizeof(name), "buffer flyrecord %s",
			 i ? kt_buffer__name(d->bufs[i]) : "");
		buf_desc[i] = strtab_add(&st, name, &err);
	}
	if (err)
		goto out;

	kt_dat__magic(d, "7");
	kt_dat__str(d, "none");		/* compression: name, version */
	kt_dat__str(d, "");
	first_opts = kt_dat__tell(d);
	kt_dat__u64(d, 0);

	sec = section_begin(d, DAT_OPT_STRINGS, desc[S_STRINGS]);
	kt_dat__write(d, st.buf, st.len);
	section_end(d, sec);

	for (i = 0; i < S_OPTIONS; i++) {
		meta[i] = section_begin(d, meta_opt[i], desc[i]);
		switch (i) {
		case S_HEADERS: kt_dat__header_info(d); break;
		case S_FTRACE: kt_dat__ftrace_formats(d); break;
		case S_EVENTS: kt_dat__event_formats(d); break;
		case S_KALLSYMS: kt_dat__kallsyms(d); break;
		case S_PRINTK: kt_dat__printk(d); break;
		case S_CMDLINES: kt_dat__cmdlines(d); break;
		}
		section_end(d, meta[i]);
	}

	for (i = 0; i < d->nr_bufs && !d->err; i++) {
		fly[i] = section_begin(d, DAT_OPT_BUFFER, buf_desc[i]);
		kt_dat__cpu_data(d, d->bufs[i], cpus + (size_t)i * d->nr_cpus);
		section_end(d, fly[i]);
	}

	/* the options, last: everything above is where it will stay */
	kt_dat__patch_u64(d, first_opts, kt_dat__tell(d));
	sec = section_begin(d, 0, desc[S_OPTIONS]);
	kt_dat__u16(d, DAT_OPT_CPUCOUNT);
	kt_dat__u32(d, 4);
	kt_dat__u32(d, ncpu);
	kt_dat__clock_text(d->bufs[0], clock, sizeof(clock));
	kt_dat__u16(d, DAT_OPT_TRACECLOCK);
	kt_dat__u32(d, strlen(clock) + 1);
	kt_dat__str(d, clock);
	for (cpu = 0; cpu < kt_buffer__nr_cpus(d->bufs[0]); cpu++) {
		size_t len;
		char *stat = kt_dat__cpustat(d->bufs[0], cpu, &len);

		if (!stat)
			continue;
		kt_dat__u16(d, DAT_OPT_CPUSTAT);
		kt_dat__u32(d, len);
		kt_dat__write(d, stat, len);
		free(stat);
	}
	for (i = 0; i < S_OPTIONS; i++)
		option_u64(d, meta_opt[i], meta[i]);
	for (i = 0; i < d->nr_bufs; i++)
		buffer_option(d, d->bufs[i], i ? kt_buffer__name(d->bufs[i]) : "", fly[i],
			      cpus + (size_t)i * d->nr_cpus);
	option_u64(d, DAT_OPT_DONE, 0);	/* no further options section */
	section_end(d, sec);
	err = d->err;
out:
	free(st.buf);
	free(cpus);
	free(fly);
	free(buf_desc);
	return err;
}
