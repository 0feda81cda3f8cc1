/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trace.dat writer internals, shared by tracedat.c (the common parts),
 * tracedat-v6.c and tracedat-v7.c (the two file versions).
 *
 * The format is trace-cmd's (Documentation/trace-cmd/trace-cmd.dat.v6.5.txt
 * and .v7.5.txt in trace-cmd); numbers are written in the byte order of
 * the crashed kernel, which is the order its ring-buffer pages are in.
 */
#ifndef KTRACE_LIB_TRACEDAT_H
#define KTRACE_LIB_TRACEDAT_H

#include <sys/uio.h>
#include "../internal.h"

/* option ids (trace-cmd's enum tracecmd_option_id) */
enum {
	DAT_OPT_DONE = 0,
	DAT_OPT_DATE = 1,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_UNAME = 5,
	DAT_OPT_HOOK = 6,
	DAT_OPT_OFFSET = 7,
	DAT_OPT_CPUCOUNT = 8,
	DAT_OPT_VERSION = 9,
	DAT_OPT_STRINGS = 15,
	DAT_OPT_HEADER_INFO = 16,
	DAT_OPT_FTRACE_EVENTS = 17,
	DAT_OPT_EVENT_FORMATS = 18,
	DAT_OPT_KALLSYMS = 19,
	DAT_OPT_PRINTK = 20,
	DAT_OPT_CMDLINES = 21,
	DAT_OPT_BUFFER_TEXT = 22,
};

struct kt_dat_cpu {
	uint64_t off, size;	/* file offset and bytes of one cpu's pages */
};

struct kt_dat {
	struct kt_session *s;
	FILE *f;
	int64_t base;		/* ftello() where the file starts */
	int err;		/* first error; every later write is a no-op */
	uint32_t page_size;	/* file page: the largest sub-buffer written */
	int nr_cpus;		/* cpu slots of the file (largest nr_cpus) */
	struct kt_buffer **bufs;	/* bufs[0] is the file's top-level buffer */
	int nr_bufs;
	uint8_t *buf;		/* what is written, before it goes to @f */
	size_t buf_len, buf_size;	/* buf_size >= page_size */
	/*
	 * kt_dat__write_ref(): bytes written where they lie (sub-buffers in
	 * the read-ahead's windows), queued in order with the parts of @buf
	 * before them (@buf from seg_start on is not queued yet), for one
	 * writev(2) at the next flush; iov_bytes in all
	 */
	struct iovec *iov;
	int niov;
	size_t seg_start, iov_bytes;
	int id_base;		/* added to the ids of other recorders' events */
	bool used_only;		/* kt_tracedat_opts.used_only */
	struct kt_readers *readers;	/* kt_tracedat_opts.jobs (readers.c), or NULL */
};

/*
 * tracedat.c: primitive writes (errors are sticky in d->err), into d->buf:
 * a ring of 1 GiB is a quarter of a million sub-buffers, each a write(2)
 * of its own through stdio's page-sized buffer
 */
void kt_dat__write(struct kt_dat *d, const void *p, size_t n);
/* @n bytes at the end of d->buf to fill, or NULL after an error */
uint8_t *kt_dat__reserve(struct kt_dat *d, size_t n);
/* @n bytes at @p, which stay as they are until the next kt_dat__flush() */
void kt_dat__write_ref(struct kt_dat *d, const void *p, size_t n);
void kt_dat__flush(struct kt_dat *d);
void kt_dat__u16(struct kt_dat *d, uint16_t v);
void kt_dat__u32(struct kt_dat *d, uint32_t v);
void kt_dat__u64(struct kt_dat *d, uint64_t v);
void kt_dat__str(struct kt_dat *d, const char *str);	/* with its NUL */
uint64_t kt_dat__tell(struct kt_dat *d);
/* overwrite bytes already written at file offset @pos */
void kt_dat__patch(struct kt_dat *d, uint64_t pos, const void *p, size_t n);
void kt_dat__patch_u32(struct kt_dat *d, uint64_t pos, uint32_t v);
void kt_dat__patch_u64(struct kt_dat *d, uint64_t pos, uint64_t v);
void kt_dat__align(struct kt_dat *d, uint32_t align);

/* tracedat.c: the metadata blocks, the same in both file versions */
void kt_dat__magic(struct kt_dat *d, const char *version);
void kt_dat__header_info(struct kt_dat *d);
void kt_dat__ftrace_formats(struct kt_dat *d);
void kt_dat__event_formats(struct kt_dat *d);
void kt_dat__kallsyms(struct kt_dat *d);
void kt_dat__printk(struct kt_dat *d);
void kt_dat__cmdlines(struct kt_dat *d);
/* "CPU: n\nentries: ..." as per_cpu/cpuN/stats shows it; caller frees */
char *kt_dat__cpustat(struct kt_buffer *b, int cpu, size_t *len);
/* the trace_clock file's text: "[clock]\n" */
void kt_dat__clock_text(struct kt_buffer *b, char *buf, size_t len);
/* page-aligned sub-buffers of each cpu of @b; fills @cpus[nr_cpus] */
void kt_dat__cpu_data(struct kt_dat *d, struct kt_buffer *b, struct kt_dat_cpu *cpus);

/* tracedat-v6.c, tracedat-v7.c */
int kt_dat__write_v6(struct kt_dat *d);
int kt_dat__write_v7(struct kt_dat *d);

#endif /* KTRACE_LIB_TRACEDAT_H */
