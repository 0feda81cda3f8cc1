// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.dat output: what trace-cmd record would have saved, rebuilt from
 * the dump. trace-cmd's library keeps its writer private, so this is our
 * own, written from the format's documentation and checked against
 * trace-cmd report.
 *
 * The ring-buffer sub-buffers are copied as the kernel wrote them (they
 * were validated by the page iterator); only the reader page is touched
 * when a reader had consumed part of it (see copy_subbuf()).
 *
 * trace-cmd (3.1.6, and kbuffer) learns the sub-buffer size from nothing
 * but a page size: it steps through a cpu's data by it and drops a page
 * whose commit is larger (silently: report then shows no events). Not
 * from header_page's "data" field. The page size is the file header's for
 * the top-level buffer (and for instances in version 6), the BUFFER
 * option's for an instance in version 7. Sub-buffers of 6.8+ kernels
 * (buffer_subbuf_size_kb) are written with every page size set to the
 * largest sub-buffer size of the file, and a buffer with smaller
 * sub-buffers gets each zero-padded to it (kbuffer reads up to commit).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "tracedat.h"

/*
 * The version written when the caller does not ask for one: 7, as
 * trace-cmd 3.x records by default; it keeps each instance's own clock.
 * Version 6 is for trace-cmd before 3.0. KTRACE_DAT_VERSION=6|7 in the
 * environment overrides the default (front ends without an option, tests).
 */
#define KT_TRACEDAT_DEFAULT_VERSION	7

/* what one fwrite() hands stdio: large enough that it goes straight to write(2) */
#define DAT_BUF_SIZE	(1u << 20)
/* sub-buffers read at a time (pages.c): 64 of 4 KiB, in the cache while copied */
#define DAT_READAHEAD	(1u << 20)

/* at most this many pieces queued for one writev(2) (IOV_MAX is 1024) */
#define DAT_IOV	256

/* @d->buf from seg_start to its end, queued */
static void queue_buf(struct kt_dat *d)
{
	if (d->buf_len > d->seg_start) {
		d->iov[d->niov].iov_base = d->buf + d->seg_start;
		d->iov[d->niov].iov_len = d->buf_len - d->seg_start;
		d->iov_bytes += d->buf_len - d->seg_start;
		d->niov++;
		d->seg_start = d->buf_len;
	}
}

/*
 * The queue with writev(2) on the stream's descriptor, after what stdio
 * holds; the stream is then set where the descriptor is (stdio keeps
 * its own idea of the offset).
 */
static void write_queue(struct kt_dat *d)
{
	struct iovec *iov = d->iov;
	int n = d->niov, fd = fileno(d->f);
	off_t pos;

	if (fflush(d->f) || (pos = ftello(d->f)) < 0) {
		d->err = -errno;
		return;
	}
	while (n) {
		ssize_t w = writev(fd, iov, n > DAT_IOV ? DAT_IOV : n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			d->err = w < 0 ? -errno : -EIO;
			return;
		}
		pos += w;
		while (n && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	if (fseeko(d->f, pos, SEEK_SET))
		d->err = -errno;
}

void kt_dat__flush(struct kt_dat *d)
{
	if (d->niov) {
		queue_buf(d);
		if (!d->err)
			write_queue(d);
	} else if (!d->err && d->buf_len && fwrite(d->buf, 1, d->buf_len, d->f) != d->buf_len) {
		d->err = -EIO;
	}
	d->buf_len = d->seg_start = d->iov_bytes = 0;
	d->niov = 0;
}

void kt_dat__write_ref(struct kt_dat *d, const void *p, size_t n)
{
	if (d->err || !n)
		return;
	if (d->niov + 2 > DAT_IOV)
		kt_dat__flush(d);
	queue_buf(d);
	d->iov[d->niov].iov_base = (void *)p;
	d->iov[d->niov].iov_len = n;
	d->iov_bytes += n;
	d->niov++;
}

uint8_t *kt_dat__reserve(struct kt_dat *d, size_t n)
{
	uint8_t *p;

	if (d->buf_len + n > d->buf_size)
		kt_dat__flush(d);
	if (d->err || n > d->buf_size)
		return NULL;
	p = d->buf + d->buf_len;
	d->buf_len += n;
	return p;
}

void kt_dat__write(struct kt_dat *d, const void *p, size_t n)
{
	uint8_t *to;

	if (d->err || !n)
		return;
	if (n > d->buf_size) {
		kt_dat__flush(d);
		if (!d->err && fwrite(p, 1, n, d->f) != n)
			d->err = -EIO;
		return;
	}
	to = kt_dat__reserve(d, n);
	if (to)
		memcpy(to, p, n);
}

/*
 * The file's numbers are in the crashed kernel's byte order, as trace-cmd
 * records on that machine write them (the header's endianness byte says
 * which): its pages go into the file as they are.
 */
static bool swapped(const struct kt_dat *d)
{
	return d->s->l.be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

void kt_dat__u16(struct kt_dat *d, uint16_t v)
{
	if (swapped(d))
		v = __builtin_bswap16(v);
	kt_dat__write(d, &v, 2);
}

void kt_dat__u32(struct kt_dat *d, uint32_t v)
{
	if (swapped(d))
		v = __builtin_bswap32(v);
	kt_dat__write(d, &v, 4);
}

void kt_dat__u64(struct kt_dat *d, uint64_t v)
{
	if (swapped(d))
		v = __builtin_bswap64(v);
	kt_dat__write(d, &v, 8);
}
void kt_dat__str(struct kt_dat *d, const char *str) { kt_dat__write(d, str, strlen(str) + 1); }

uint64_t kt_dat__tell(struct kt_dat *d)
{
	off_t pos = ftello(d->f);

	if (pos < 0) {
		if (!d->err)
			d->err = -errno;
		return 0;
	}
	return (uint64_t)(pos - d->base) + d->iov_bytes + (d->buf_len - d->seg_start);
}

void kt_dat__patch(struct kt_dat *d, uint64_t pos, const void *p, size_t n)
{
	off_t end;

	kt_dat__flush(d);
	if (d->err)
		return;
	end = ftello(d->f);
	if (end < 0 || fseeko(d->f, d->base + (off_t)pos, SEEK_SET)) {
		d->err = -errno;
		return;
	}
	kt_dat__write(d, p, n);
	kt_dat__flush(d);
	if (fseeko(d->f, end, SEEK_SET) && !d->err)
		d->err = -errno;
}

void kt_dat__patch_u32(struct kt_dat *d, uint64_t pos, uint32_t v)
{
	if (swapped(d))
		v = __builtin_bswap32(v);
	kt_dat__patch(d, pos, &v, 4);
}

void kt_dat__patch_u64(struct kt_dat *d, uint64_t pos, uint64_t v)
{
	if (swapped(d))
		v = __builtin_bswap64(v);
	kt_dat__patch(d, pos, &v, 8);
}

void kt_dat__align(struct kt_dat *d, uint32_t align)
{
	static const uint8_t zero[4096];
	uint64_t pad = (align - kt_dat__tell(d) % align) % align;

	while (pad && !d->err) {
		size_t n = pad < sizeof(zero) ? pad : sizeof(zero);

		kt_dat__write(d, zero, n);
		pad -= n;
	}
}

/* ----- metadata ----- */

/* magic, "tracing", version, endianness, long size, page size */
void kt_dat__magic(struct kt_dat *d, const char *version)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint8_t endian = d->s->l.be;
	/* the size of commit (a local_t) is the kernel's long */
	uint8_t long_size = (uint8_t)d->s->l.dp_commit.size;

	kt_dat__write(d, magic, sizeof(magic));
	kt_dat__str(d, version);
	kt_dat__write(d, &endian, 1);
	kt_dat__write(d, &long_size, 1);
	kt_dat__u32(d, d->page_size);
}

void kt_dat__header_info(struct kt_dat *d)
{
	const char *page = kt_session__header_page(d->s);
	const char *event = kt_session__header_event(d->s);

	kt_dat__write(d, "header_page", 12);
	kt_dat__u64(d, strlen(page));
	kt_dat__write(d, page, strlen(page));
	kt_dat__write(d, "header_event", 13);
	kt_dat__u64(d, strlen(event));
	kt_dat__write(d, event, strlen(event));
}

static bool is_ftrace(const struct kt_event *e)
{
	return !strcmp(kt_event__system(e), "ftrace");
}

static void write_format(struct kt_dat *d, const struct kt_event *e)
{
	const char *fmt = kt_event__format(e);

	kt_dat__u64(d, strlen(fmt));
	kt_dat__write(d, fmt, strlen(fmt));
}

/*
 * With kt_tracedat_opts.used_only, the formats of the events read alone,
 * ftrace's own included: given ftrace/user_stack, trace-cmd adds a
 * blktrace format of its own (tracecmd_blk_hack()) with the id after
 * it, and which of the two it then uses depends on the other events
 * of the file.
 */
static bool type_wanted(const struct kt_dat *d, const struct kt_event *e)
{
	int id = kt_event__id(e);

	if (!d->used_only)
		return true;
	return id >= 0 && id <= 65535 && (d->s->type_used[id / 64] >> (id % 64) & 1);
}

/* events/ftrace/<name>/format of every ftrace-internal event */
void kt_dat__ftrace_formats(struct kt_dat *d)
{
	struct kt_session *s = d->s;
	uint32_t n = 0;
	int i;

	for (i = 0; i < kt_session__event_cnt(s); i++) {
		const struct kt_event *e = kt_session__event(s, i);

		n += is_ftrace(e) && type_wanted(d, e) && kt_event__format(e);
	}
	kt_dat__u32(d, n);
	for (i = 0; i < kt_session__event_cnt(s); i++) {
		const struct kt_event *e = kt_session__event(s, i);

		if (is_ftrace(e) && type_wanted(d, e) && kt_event__format(e))
			write_format(d, e);
	}
}

static int by_system(const void *a, const void *b)
{
	const struct kt_event *x = *(const struct kt_event *const *)a;
	const struct kt_event *y = *(const struct kt_event *const *)b;
	int c = strcmp(kt_event__system(x), kt_event__system(y));

	return c ? c : kt_event__id(x) - kt_event__id(y);
}

/* a recorder's events as a system of their own, named after it */
static void recorder_formats(struct kt_dat *d, struct kt_buffer *b)
{
	uint64_t pos;
	uint32_t n = 0;
	char *fmt;

	if (!b->ops || !b->ops->dat_format)
		return;
	kt_dat__str(d, b->ops->dat_system);
	pos = kt_dat__tell(d);
	kt_dat__u32(d, 0);
	while (!d->err && (fmt = b->ops->dat_format(b, (int)n, d->id_base))) {
		kt_dat__u64(d, strlen(fmt));
		kt_dat__write(d, fmt, strlen(fmt));
		free(fmt);
		n++;
	}
	kt_dat__patch_u32(d, pos, n);
}

/* every other system: its name, its count, its formats */
void kt_dat__event_formats(struct kt_dat *d)
{
	struct kt_session *s = d->s;
	int i, j, k, n = 0, nr = kt_session__event_cnt(s);
	const struct kt_event **ev = calloc(nr ? nr : 1, sizeof(*ev));
	uint32_t systems = 0;

	if (!ev) {
		d->err = d->err ? d->err : -ENOMEM;
		return;
	}
	for (i = 0; i < nr; i++) {
		const struct kt_event *e = kt_session__event(s, i);

		if (!is_ftrace(e) && type_wanted(d, e) && kt_event__format(e))
			ev[n++] = e;
	}
	qsort(ev, n, sizeof(*ev), by_system);
	for (i = 0; i < n; i++)
		systems += !i || strcmp(kt_event__system(ev[i - 1]), kt_event__system(ev[i]));
	for (i = 0; i < d->nr_bufs; i++)
		systems += d->bufs[i]->ops && d->bufs[i]->ops->dat_format;
	kt_dat__u32(d, systems);
	for (i = 0; i < n; i = j) {
		const char *sys = kt_event__system(ev[i]);

		for (j = i; j < n && !strcmp(kt_event__system(ev[j]), sys); j++)
			;
		kt_dat__str(d, sys);
		kt_dat__u32(d, j - i);
		for (k = i; k < j; k++)
			write_format(d, ev[k]);
	}
	free(ev);
	for (i = 0; i < d->nr_bufs; i++)
		recorder_formats(d, d->bufs[i]);
}

/* /proc/kallsyms: "addr type name" lines, 4-byte size first */
void kt_dat__kallsyms(struct kt_dat *d)
{
	uint64_t pos = kt_dat__tell(d), size = 0, addr;
	const char *name;
	char line[KT_MAX_STR + 40], nbuf[KT_MAX_STR], type;
	uint32_t *list = NULL;
	/* with used_only, the entries of the list alone (-1: every entry) */
	long nlist = d->used_only ? kt_kallsyms__needed_list(d->s, &list) : -1, li;
	int i, n;

	kt_dat__u32(d, 0);
	/* "%016llx %c %s\n" by hand: a hundred thousand lines, printf was most of the cost */
	for (li = 0; nlist < 0 || li < nlist; li++) {
		size_t len;
		int j;

		i = nlist < 0 ? (int)li : (int)list[li];
		if (kt_kallsyms__entry(d->s, i, &addr, &type, &name, nbuf, sizeof(nbuf)) != 1 ||
		    d->err)
			break;
		len = strlen(name);
		if (len + 20 >= sizeof(line))
			continue;
		for (j = 15; j >= 0; j--, addr >>= 4)
			line[j] = "0123456789abcdef"[addr & 15];
		line[16] = ' ';
		line[17] = type;
		line[18] = ' ';
		memcpy(line + 19, name, len);
		line[19 + len] = '\n';
		n = (int)len + 20;
		kt_dat__write(d, line, n);
		size += n;
	}
	if (size > UINT32_MAX && !d->err)
		d->err = kt_err(EFBIG, "kallsyms of %llu bytes do not fit trace.dat",
				(unsigned long long)size);
	free(list);
	kt_dat__patch_u32(d, pos, (uint32_t)size);
}

/* printk_formats: `0xaddr : "fmt"`, escaped as trace_printk.c t_show() does */
void kt_dat__printk(struct kt_dat *d)
{
	uint64_t pos = kt_dat__tell(d), size = 0, addr;
	const char *fmt;
	char line[2 * KT_MAX_STR + 40];
	int i, n;

	kt_dat__u32(d, 0);
	for (i = 0; kt_session__printk_fmt(d->s, i, &addr, &fmt) == 1 && !d->err; i++) {
		const char *c;

		n = snprintf(line, sizeof(line), "0x%llx : \"", (unsigned long long)addr);
		for (c = fmt; *c && n < (int)sizeof(line) - 8; c++) {
			switch (*c) {
			case '\\': line[n++] = '\\'; line[n++] = '\\'; break;
			case '\t': line[n++] = '\\'; line[n++] = 't'; break;
			case '\n': line[n++] = '\\'; line[n++] = 'n'; break;
			case '"': line[n++] = '\\'; line[n++] = '"'; break;
			default: line[n++] = *c; break;
			}
		}
		line[n++] = '"';
		line[n++] = '\n';
		kt_dat__write(d, line, n);
		size += n;
	}
	kt_dat__patch_u32(d, pos, (uint32_t)size);
}

/* saved_cmdlines: "pid comm" lines, 8-byte size first */
void kt_dat__cmdlines(struct kt_dat *d)
{
	uint64_t pos = kt_dat__tell(d), size = 0;
	const char *comm;
	char line[64];
	int i, pid, ret, n;

	kt_dat__u64(d, 0);
	for (i = 0; (ret = kt_session__cmdline(d->s, i, &pid, &comm)) && !d->err; i++) {
		if (ret != 1)
			continue;	/* an empty slot */
		n = snprintf(line, sizeof(line), "%d %s\n", pid, comm);
		kt_dat__write(d, line, n);
		size += n;
	}
	kt_dat__patch_u64(d, pos, size);
}

/* per_cpu/cpuN/stats (tracing_stats_read()), as trace-cmd stores it */
char *kt_dat__cpustat(struct kt_buffer *b, int cpu, size_t *len)
{
	struct kt_cpu_info ci;
	char *buf = NULL;
	int n;

	if (kt_buffer__cpu_info(b, cpu, &ci) || !ci.present)
		return NULL;
	/* ring_buffer_entries_cpu(): entries - (overrun + read) */
	n = asprintf(&buf, "CPU: %d\nentries: %llu\noverrun: %llu\ncommit overrun: %llu\n"
			   "bytes: %llu\ndropped events: %llu\nread events: %llu\n",
		     cpu, (unsigned long long)(ci.entries - ci.overrun - ci.read),
		     (unsigned long long)ci.overrun, (unsigned long long)ci.commit_overrun,
		     (unsigned long long)ci.entries_bytes, (unsigned long long)ci.dropped_events,
		     (unsigned long long)ci.read);
	if (n < 0)
		return NULL;
	*len = n + 1;
	return buf;
}

/* trace-cmd looks for the bracketed (current) clock in the trace_clock text */
void kt_dat__clock_text(struct kt_buffer *b, char *buf, size_t len)
{
	const char *clock = kt_buffer__clock(b);

	snprintf(buf, len, "[%s]\n", clock && *clock ? clock : "local");
}

/* ----- ring-buffer data ----- */

/* a padding event's header without a time delta, as the kernel lays it out */
static void put_padding(bool be, uint8_t *to)
{
	kt_putn(be, to, be ? (uint32_t)RINGBUF_TYPE_PADDING << 27 : RINGBUF_TYPE_PADDING, 4);
}

/*
 * A discarded event (a filter or trigger dropped it after it was reserved,
 * and it could not be taken back) stays on the page as padding that keeps
 * its time delta (rb_event_discard() in kernel/trace/ring_buffer.c). The
 * kernel's reader does not move its clock for padding; kbuffer adds the
 * delta, so trace-cmd would show every later event on the page that much
 * later (seen with hist-trigger synthetic events). Zero the delta of each
 * such padding from the event at @pos to @len in @out, the copy of the
 * data area @data (the walk was validated by kt_page__load()). The walk
 * reads @data, which the validation has just brought into the cache.
 */
static void zero_discard_deltas(bool be, uint8_t *out, const uint8_t *data, uint32_t pos,
				uint32_t len)
{
	while (pos + 8 <= len) {
		uint32_t hdr = kt_rb_hdr(be, data + pos), type_len = hdr & 0x1f;
		uint32_t delta = hdr >> 5, arr = kt_get32(be, data + pos + 4);

		switch (type_len) {
		case RINGBUF_TYPE_PADDING:
			if (!delta)
				return;
			put_padding(be, out + pos);
			pos += 4 + arr;
			break;
		case RINGBUF_TYPE_TIME_EXTEND:
		case RINGBUF_TYPE_TIME_STAMP:
			pos += 8;
			break;
		case 0:
			pos += 4 + arr;
			break;
		default:
			pos += 4 + 4 * type_len;
			break;
		}
	}
}

/*
 * One sub-buffer into the file page. Events before @cur's position were
 * consumed by a reader (the reader page's read offset): the kernel would
 * not show them again, so they become one padding event, and the page's
 * time stamp becomes the clock there, @cur's (what kbuffer_read_buffer()
 * does for a partly read page). The padding has a zero time delta:
 * kbuffer adds the delta of padding to its clock.
 *
 * The file page, built where it is written: in the read-ahead's window
 * when the sub-buffer lies in one and is a whole file page as it stands
 * but for discarded events' deltas (then written from there at the next
 * flush, kt_dat__write_ref()), else in the output buffer.
 */
static void copy_subbuf(struct kt_dat *d, struct kt_buffer *b, struct kt_page_iter *it,
			const struct kt_page_cursor *cur, uint32_t subbuf)
{
	const struct kt_layout *l = &d->s->l;
	const uint8_t *page = cur->data - l->dp_data.off;
	uint8_t *in = kt_page_iter__window_page(it), *out;

	if (in && subbuf == d->page_size && !cur->pos && !(b->ops && b->ops->dat_fix_record)) {
		/* reads each event's header before it writes it */
		if (cur->discard < cur->len)
			zero_discard_deltas(l->be, in + l->dp_data.off, cur->data, cur->discard,
					    cur->len);
		kt_dat__write_ref(d, in, subbuf);
		return;
	}
	out = kt_dat__reserve(d, d->page_size);
	if (!out)
		return;
	memcpy(out, page, subbuf);
	memset(out + subbuf, 0, d->page_size - subbuf);
	/* from the first one, which the page's validation found */
	if (cur->discard < cur->len)
		zero_discard_deltas(l->be, out + l->dp_data.off, cur->data,
				    cur->discard > cur->pos ? cur->discard : cur->pos, cur->len);
	if (cur->pos) {
		kt_putn(l->be, out + l->dp_time_stamp.off, cur->ts, 8);
		put_padding(l->be, out + l->dp_data.off);
		kt_putn(l->be, out + l->dp_data.off + 4, cur->pos - 4, 4);
	}
	if (b->ops && b->ops->dat_fix_record) {
		struct kt_page_cursor c = *cur;
		const uint8_t *rec;
		uint32_t size;
		uint64_t ts;

		while (kt_page__next(&c, &rec, &size, &ts) > 0)
			b->ops->dat_fix_record(b, out + (rec - page), size, d->id_base);
	}
}

static void dat_flush(void *d)
{
	kt_dat__flush(d);
}

void kt_dat__cpu_data(struct kt_dat *d, struct kt_buffer *b, struct kt_dat_cpu *cpus)
{
	uint32_t subbuf = kt_buffer__subbuf_size(b);
	int cpu;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		struct kt_page_cursor cur;
		struct kt_page_iter *it;
		int ret = 0;

		kt_dat__align(d, d->page_size);
		cpus[cpu].off = kt_dat__tell(d);
		cpus[cpu].size = 0;
		if (cpu >= kt_buffer__nr_cpus(b))
			continue;
		it = kt_page_iter__new(b, cpu);
		if (!it) {
			d->err = d->err ? d->err : -errno;
			return;
		}
		/* without the memory for it, read page by page (kdump's ulimit -v) */
		kt_page_iter__set_readahead(it, DAT_READAHEAD, d->readers);
		kt_page_iter__on_release(it, dat_flush, d);
		while (!d->err && (ret = kt_page_iter__next_cursor(it, &cur)) > 0) {
			copy_subbuf(d, b, it, &cur, subbuf);
			cpus[cpu].size += d->page_size;
		}
		if (ret < 0 && !d->err)
			d->err = ret;
		kt_page_iter__free(it);
	}
}

/* ----- entry ----- */

static int copy_file(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	if (fseeko(from, 0, SEEK_SET))
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0) {
		if (fwrite(buf, 1, n, to) != n)
			return -EIO;
	}
	return ferror(from) ? -EIO : 0;
}

int kt_tracedat__write_opts(struct kt_session *s, struct kt_buffer *only, FILE *out,
			    const struct kt_tracedat_opts *opts)
{
	struct kt_dat d = { .s = s, .f = out };
	struct kt_tracedat_opts o = { 0 };
	FILE *spool = NULL;
	int i, err, jobs, version;

	err = kt_opts__copy(&o, sizeof(o), opts, "kt_tracedat_opts");
	if (err)
		return err;
	version = o.version;
	d.used_only = o.used_only && s->type_used;
	jobs = o.jobs;
	if (!version) {
		const char *env = getenv("KTRACE_DAT_VERSION");

		version = env ? atoi(env) : KT_TRACEDAT_DEFAULT_VERSION;
	}
	if (version != 6 && version != 7)
		return kt_err(EINVAL, "trace.dat version %d: only 6 and 7 are written", version);
	if (s->l.dp_commit.size != 4 && s->l.dp_commit.size != 8)
		return kt_err(EINVAL, "buffer_data_page.commit of %u bytes", s->l.dp_commit.size);

	d.bufs = calloc(kt_session__buffer_cnt(s) + 1, sizeof(*d.bufs));
	if (!d.bufs)
		return -ENOMEM;
	if (only && only->ops && !only->ops->dat_format) {
		free(d.bufs);
		return kt_err(ENOTSUP, "%s: a %s ring, not ftrace's: trace.dat is written for "
				       "ftrace's buffers only", only->name, only->ops->kind);
	}
	if (only) {
		d.bufs[d.nr_bufs++] = only;
	} else {
		/* the global buffer first: it is the file's top-level buffer */
		for (i = 0; i < kt_session__buffer_cnt(s); i++)
			if (kt_buffer__is_global(kt_session__buffer(s, i)))
				d.bufs[d.nr_bufs++] = kt_session__buffer(s, i);
		/* other recorders' rings: those whose events have formats */
		for (i = 0; i < kt_session__buffer_cnt(s); i++)
			if (!kt_buffer__is_global(kt_session__buffer(s, i)) &&
			    (!kt_session__buffer(s, i)->ops ||
			     kt_session__buffer(s, i)->ops->dat_format))
				d.bufs[d.nr_bufs++] = kt_session__buffer(s, i);
	}
	if (!d.nr_bufs) {
		free(d.bufs);
		return kt_err(ENOENT, "no trace buffer to write");
	}
	/* other recorders' ids go above ftrace's */
	for (i = 0; i < kt_session__event_cnt(s); i++)
		if (kt_event__id(kt_session__event(s, i)) >= d.id_base)
			d.id_base = kt_event__id(kt_session__event(s, i)) + 1;
	d.page_size = s->l.page_size ? s->l.page_size : 4096;
	for (i = 0; i < d.nr_bufs; i++) {
		uint32_t sb = kt_buffer__subbuf_size(d.bufs[i]);

		if (!sb || (sb & (sb - 1)) || sb > KT_MAX_SUBBUF) {
			free(d.bufs);
			return kt_err(EINVAL, "%s: sub-buffer size %u is not a power of two",
				      kt_buffer__name(d.bufs[i]), sb);
		}
		if (sb > d.page_size)
			d.page_size = sb;
		if (kt_buffer__nr_cpus(d.bufs[i]) > d.nr_cpus)
			d.nr_cpus = kt_buffer__nr_cpus(d.bufs[i]);
	}
	d.buf_size = d.page_size > DAT_BUF_SIZE ? d.page_size : DAT_BUF_SIZE;
	d.buf = malloc(d.buf_size);
	d.iov = malloc(DAT_IOV * sizeof(*d.iov));
	if (!d.buf || !d.iov) {
		free(d.buf);
		free(d.iov);
		free(d.bufs);
		return -ENOMEM;
	}

	/* offsets are patched in place: spool a pipe through a temporary file */
	d.base = ftello(out);
	if (d.base < 0) {
		spool = tmpfile();
		if (!spool) {
			err = kt_err(errno, "cannot create a temporary file for trace.dat: %s",
				     strerror(errno));
			goto out;
		}
		d.f = spool;
		d.base = 0;
	}
	/* none when the target does not allow it: then the calling thread reads */
	if (jobs > 1)
		d.readers = kt_readers__new(s, jobs);
	err = version == 6 ? kt_dat__write_v6(&d) : kt_dat__write_v7(&d);
	kt_readers__free(d.readers);
	kt_dat__flush(&d);
	if (!err)
		err = d.err;
	if (!err && fflush(d.f))
		err = -errno;
	if (!err && spool)
		err = copy_file(spool, out);
	if (err == -EIO || (err && err != -ENOMEM && err != -EFBIG))
		kt_err(-err, "writing trace.dat: %s", strerror(-err));
out:
	if (spool)
		fclose(spool);
	free(d.buf);
	free(d.iov);
	free(d.bufs);
	return err;
}

int kt_tracedat__write(struct kt_session *s, struct kt_buffer *only, FILE *out)
{
	return kt_tracedat__write_opts(s, only, out, NULL);
}
