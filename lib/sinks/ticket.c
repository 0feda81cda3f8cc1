// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ticket: everything a support engineer attaches, in one directory or
 * one archive, from one pass over the dump. The ring pages are kept in
 * memory after their first read (pagecache.c), so the text, JSON and
 * trace.dat outputs read each page of the dump once.
 *
 *   summary.txt       identity, panic, per buffer time range, counts, loss
 *   trace.txt         the text ktrace-extract prints (every buffer)
 *   trace.jsonl       JSON Lines of every buffer
 *   trace.dat         for trace-cmd report and KernelShark
 *   dmesg.txt         the kernel log, as ktrace-extract --dmesg writes it
 *   timeline.txt      log and events by time stamp (ktrace-extract --timeline)
 *   (front end)       e.g. the layout profile that was used
 *   manifest.sha256   "sha256  file" lines: sha256sum -c manifest.sha256
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "../internal.h"
#include "archive.h"
#include "../ftrace/render.h"
#include "sha256.h"

#define TICKET_CACHE_DEFAULT	(1ull << 30)
#define TICKET_PANIC_LAST	20

struct ticket {
	struct kt_session *s;
	const struct kt_ticket_opts *o;
	char *dir;
	struct kt_loss *loss;	/* per buffer, what one read loses */
	struct kt_loss *after;	/* per buffer, the counts after the text pass */
	int err;
	char msg[512];
	/* the sums of the files hashed as they were written (struct hashed) */
	struct {
		char name[32];
		char hex[65];
	} sums[8];
	int nsums;
};

/*
 * A file of the ticket hashed as it is written: the capture kernel then
 * reads none of it back for the manifest. Only written in order (the
 * position is told, for ftell(); trace.dat, whose offsets are patched
 * in place, is hashed from the file instead).
 */
struct hashed {
	struct ticket *t;
	const char *name;
	int fd;
	off_t pos;
	struct kt_sha256 c;
};

static ssize_t hashed_write(void *cookie, const char *buf, size_t n)
{
	struct hashed *h = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(h->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		kt_sha256__update(&h->c, buf + done, (size_t)w);
		done += (size_t)w;
		h->pos += w;
	}
	return done ? (ssize_t)done : -1;
}

static int hashed_seek(void *cookie, off64_t *off, int whence)
{
	struct hashed *h = cookie;

	if (whence != SEEK_CUR || *off) {
		errno = ESPIPE;
		return -1;
	}
	*off = h->pos;
	return 0;
}

static int hashed_close(void *cookie)
{
	struct hashed *h = cookie;
	struct ticket *t = h->t;
	int err = close(h->fd);

	if (!err && t->nsums < (int)(sizeof(t->sums) / sizeof(t->sums[0])) &&
	    strlen(h->name) < sizeof(t->sums[0].name)) {
		strcpy(t->sums[t->nsums].name, h->name);
		kt_sha256__final(&h->c, t->sums[t->nsums].hex);
		t->nsums++;
	}
	free(h);
	return err;
}

/*
 * The ticket's first failure, kept with what was being done to @path (and
 * @name in it, when not NULL).
 */
static int fail_at(struct ticket *t, int err, const char *what, const char *path,
		   const char *name)
{
	if (!t->err) {
		t->err = err;
		snprintf(t->msg, sizeof(t->msg), "%s %s%s%s: %s", what, path, name ? "/" : "",
			 name ? name : "", strerror(-err));
	}
	return err;
}

static int fail(struct ticket *t, int err, const char *what, const char *name)
{
	return fail_at(t, err, what, t->dir, name);
}

static FILE *create(struct ticket *t, const char *name)
{
	char *p;
	FILE *f;

	if (asprintf(&p, "%s/%s", t->dir, name) < 0) {
		fail(t, -ENOMEM, "creating", name);
		return NULL;
	}
	f = fopen(p, "w");
	if (!f)
		fail(t, -errno, "creating", name);
	free(p);
	return f;
}

/* @name, written in order and hashed on the way (struct hashed) */
static FILE *create_hashed(struct ticket *t, const char *name)
{
	static const cookie_io_functions_t io = {
		.write = hashed_write, .seek = hashed_seek, .close = hashed_close,
	};
	struct hashed *h = calloc(1, sizeof(*h));
	char *p = NULL;
	FILE *f;

	if (!h || asprintf(&p, "%s/%s", t->dir, name) < 0) {
		free(h);
		fail(t, -ENOMEM, "creating", name);
		return NULL;
	}
	h->t = t;
	h->name = name;
	kt_sha256__init(&h->c);
	h->fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(p);
	if (h->fd < 0) {
		fail(t, -errno, "creating", name);
		free(h);
		return NULL;
	}
	f = fopencookie(h, "w", io);
	if (!f) {
		fail(t, -ENOMEM, "creating", name);
		close(h->fd);
		free(h);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

static int finish(struct ticket *t, FILE *f, const char *name, int err)
{
	if (fflush(f) || ferror(f))
		err = err ? err : -EIO;
	if (fclose(f))
		err = err ? err : -EIO;
	return err ? fail(t, err, "writing", name) : 0;
}

static int write_text(struct ticket *t)
{
	struct kt_text_opts to = { .sz = sizeof(to), .header = true };
	struct kt_buffer *b;
	FILE *f = create_hashed(t, "trace.txt");
	int i, err = 0;

	if (!f)
		return t->err;
	kt_session__for_each_buffer(t->s, i, b) {
		struct kt_loss before = b->loss;
		struct kt_loss_mark *m = kt_session__loss_mark(t->s);

		if (!m) {
			err = -ENOMEM;
			break;
		}
		if (i)
			fputc('\n', f);
		kt_buffer__print_banner(b, f);
		err = kt_text__write(t->s, b, f, &to);
		kt_buffer__read_loss(b, &before, &t->loss[i]);
		t->after[i] = b->loss;
		kt_session__write_trailer(t->s, m, b, 0, f);
		kt_loss_mark__free(m);
		if (err)
			break;
	}
	return finish(t, f, "trace.txt", err);
}

/* later passes read the cached pages again: they must not count twice */
static void restore_loss(struct ticket *t)
{
	struct kt_buffer *b;
	int i;

	kt_session__for_each_buffer(t->s, i, b)
		b->loss = t->after[i];
}

static int write_json(struct ticket *t)
{
	struct kt_text_opts to = { .sz = sizeof(to), .header = true };
	struct kt_buffer *b;
	FILE *f = create_hashed(t, "trace.jsonl");
	int i, err = 0;

	if (!f)
		return t->err;
	kt_session__for_each_buffer(t->s, i, b) {
		err = kt_json__write(t->s, b, f, &to);
		if (err)
			break;
	}
	restore_loss(t);
	return finish(t, f, "trace.jsonl", err);
}

/*
 * After the text and JSON: of the event formats and kallsyms, only what
 * their reads and lines used (kt_tracedat_opts.used_only), a tenth of the
 * file on a small buffer; trace-cmd report prints what it prints of the
 * whole file. The capture kernel hashes and writes every byte of it.
 */
static int write_dat(struct ticket *t)
{
	struct kt_tracedat_opts o = { .sz = sizeof(o), .used_only = true };
	FILE *f = create(t, "trace.dat");
	int err;

	if (!f)
		return t->err;
	err = kt_tracedat__write_opts(t->s, NULL, f, &o);
	restore_loss(t);
	return finish(t, f, "trace.dat", err);
}

/*
 * The kernel log and the timeline (printk/, timeline.c). A dump without a
 * readable printk ring gets neither file; the summary says why. The
 * timeline reads the cached pages again: its loss is not counted twice.
 */
static int write_log(struct ticket *t)
{
	struct kt_log *log = kt_session__log(t->s);
	struct kt_loss_mark *m;
	FILE *f;
	int err;

	if (!log)
		return 0;
	f = create_hashed(t, "dmesg.txt");
	if (!f)
		return t->err;
	err = finish(t, f, "dmesg.txt", kt_log__write(log, f, NULL));
	if (err)
		return err;
	f = create_hashed(t, "timeline.txt");
	if (!f)
		return t->err;
	m = kt_session__loss_mark(t->s);
	if (!m) {
		fclose(f);
		return fail(t, -ENOMEM, "writing", "timeline.txt");
	}
	err = kt_timeline__write(t->s, f, NULL);
	/*
	 * the lines ktrace-extract --timeline ends with, of the timeline's
	 * own read as if it were the first (before the counts are put back)
	 */
	if (!err)
		kt_session__write_trailer(t->s, m, NULL, KT_TRAILER_TIMELINE, f);
	kt_loss_mark__free(m);
	restore_loss(t);
	return finish(t, f, "timeline.txt", err);
}

/* panic message, uptime at the panic and the log's counts */
static void summary_log(struct ticket *t, FILE *f)
{
	struct kt_log *log = kt_session__log(t->s);
	const struct kt_log_record *r;

	if (!log) {
		fprintf(f, "kernel log: none (%s)\n", kt_last_error());
		return;
	}
	r = kt_log__panic_record(log);
	if (r) {
		fprintf(f, "panic message: %s\n", kt_log__panic_message(log));
		fprintf(f, "uptime at the panic: %llu.%06llu s (printk time stamp)\n",
			(unsigned long long)(r->ts_nsec / 1000000000),
			(unsigned long long)(r->ts_nsec % 1000000000 / 1000));
	} else {
		fprintf(f, "panic message: none in the kernel log\n");
	}
	kt_log__print_loss(log, f, "");
}

static void put_ts(FILE *f, const struct kt_buffer *b, uint64_t ts)
{
	if (kt_render__clock_in_ns(b)) {
		uint64_t us = (ts + 500) / 1000;

		fprintf(f, "%llu.%06llu", (unsigned long long)(us / 1000000),
			(unsigned long long)(us % 1000000));
	} else {
		fprintf(f, "%llu", (unsigned long long)ts);
	}
}

static void summary_buffer(struct ticket *t, FILE *f, int idx, struct kt_buffer *b)
{
	struct kt_iter_opts io = { .sz = sizeof(io) };
	struct kt_text_opts to = { .sz = sizeof(to), .last = TICKET_PANIC_LAST, .iter = &io,
				   .text = true };
	uint64_t n = 0, on_cpu = 0, first = 0, last = 0, in_buffer, written;
	uint64_t mask[KT_CPUMASK_WORDS] = { 0 };
	long before;
	int cpu = kt_session__panic_cpu(t->s, NULL);
	struct kt_record r;
	struct kt_iter *it;

	kt_buffer__entry_counts(b, &in_buffer, &written);
	fprintf(f, "\nbuffer %s: %d cpus, sub-buffer %u bytes, clock %s\n", kt_buffer__name(b),
		kt_buffer__nr_cpus(b), kt_buffer__subbuf_size(b), kt_buffer__clock(b));
	it = kt_iter__new(b, NULL);
	while (it && kt_iter__next(it, &r) > 0) {
		if (!n++)
			first = r.ts;
		last = r.ts;
		on_cpu += r.cpu == cpu;
	}
	kt_iter__free(it);
	fprintf(f, "  events recovered: %llu (the kernel counted %llu in the buffer, %llu written)\n",
		(unsigned long long)n, (unsigned long long)in_buffer, (unsigned long long)written);
	if (n) {
		fprintf(f, "  time range: ");
		put_ts(f, b, first);
		fprintf(f, " .. ");
		put_ts(f, b, last);
		fputc('\n', f);
	}
	kt_loss__print(&t->loss[idx], f, "  ");
	restore_loss(t);
	if (cpu < 0 || cpu >= KT_CPUMASK_WORDS * 64)
		return;
	if (!on_cpu) {
		fprintf(f, "  last events on the panicking cpu %d: none in this buffer\n", cpu);
		return;
	}
	fprintf(f, "  last events on the panicking cpu %d:\n", cpu);
	mask[cpu / 64] |= 1ull << (cpu % 64);
	io.cpumask = mask;
	io.cpumask_bits = KT_CPUMASK_WORDS * 64;
	fflush(f);
	before = ftell(f);
	kt_text__write(t->s, b, f, &to);
	fflush(f);
	if (before >= 0 && ftell(f) == before)
		fprintf(f, "    none printed: its %llu records print nothing in this "
			   "output (as in the kernel's own)\n", (unsigned long long)on_cpu);
	restore_loss(t);
}

static int write_summary(struct ticket *t)
{
	const char *release = kt_session__release(t->s), *bid = kt_session__build_id(t->s);
	const char *src;
	int cpu = kt_session__panic_cpu(t->s, &src), i;
	struct kt_buffer *b;
	struct kt_loss all;
	FILE *f = create_hashed(t, "summary.txt");

	if (!f)
		return t->err;
	fprintf(f, "ktrace ticket\n");
	if (t->o && t->o->vmcore)
		fprintf(f, "vmcore: %s\n", t->o->vmcore);
	if (t->o && t->o->source)
		fprintf(f, "types and symbols from: %s\n", t->o->source);
	fprintf(f, "release: %s\n", release ? release : "unknown (no VMCOREINFO text in the dump)");
	fprintf(f, "build-id: %s\n", bid ? bid : "unknown (VMCOREINFO has no BUILD-ID: before 5.9)");
	if (cpu >= 0)
		fprintf(f, "panic cpu: %d (from %s)\n", cpu, src);
	else
		fprintf(f, "panic cpu: none recorded (panic_cpu and crashing_cpu unset)\n");
	summary_log(t, f);
	memset(&all, 0, sizeof(all));
	kt_session__for_each_buffer(t->s, i, b)
		kt_loss__add(&all, &t->loss[i]);
	if (t->s->ftrace_err)
		fprintf(f, "ftrace: its buffers could not be read (%s): no trace.txt, "
			   "trace.jsonl nor trace.dat\n", t->s->ftrace_err);
	fprintf(f, "data lost: %s\n", t->s->ftrace_err ? "yes (the trace buffers)" :
		kt_loss__any(&all) ? "yes (see each buffer)" : "no");
	kt_session__for_each_buffer(t->s, i, b)
		summary_buffer(t, f, i, b);
	return finish(t, f, "summary.txt", 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* each step timed on the session's log when asked */
static int step(struct ticket *t, int (*fn)(struct ticket *), const char *what)
{
	double t0 = now();
	int err = fn(t);

	if (t->o && t->o->verbose)
		fprintf(t->s->log, "ticket: %s in %.3f s\n", what, now() - t0);
	return err;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every regular file of the directory but the manifest, sorted */
static int list_files(struct ticket *t, char ***names, size_t *n)
{
	DIR *d = opendir(t->dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return fail(t, -errno, "listing", ".");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "manifest.sha256"))
			continue;
		if (*n == cap) {
			char **m = realloc(*names, (cap = cap ? cap * 2 : 16) * sizeof(**names));

			if (!m)
				break;
			*names = m;
		}
		(*names)[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (*n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(*names, *n, sizeof(**names), cmp_names);
	return 0;
}

static int sha256_file(const char *path, char hex[65])
{
	struct kt_sha256 c;
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	kt_sha256__init(&c);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		kt_sha256__update(&c, buf, n);
	n = ferror(f);
	fclose(f);
	if (n)
		return -EIO;
	kt_sha256__final(&c, hex);
	return 0;
}

static int write_manifest(struct ticket *t, char **names, size_t n)
{
	FILE *f = create(t, "manifest.sha256");
	char hex[65], *p;
	size_t i;
	int err = 0;

	if (!f)
		return t->err;
	for (i = 0; i < n && !err; i++) {
		int k;

		for (k = 0; k < t->nsums && strcmp(t->sums[k].name, names[i]); k++)
			;
		if (k < t->nsums) {
			fprintf(f, "%s  %s\n", t->sums[k].hex, names[i]);
			continue;
		}
		if (asprintf(&p, "%s/%s", t->dir, names[i]) < 0)
			err = -ENOMEM;
		else if (!(err = sha256_file(p, hex)))
			fprintf(f, "%s  %s\n", hex, names[i]);
		free(p);
	}
	return finish(t, f, "manifest.sha256", err);
}

static char *archive_top(const char *out)
{
	const char *base = strrchr(out, '/');
	char *top = strdup(base ? base + 1 : out), *dot;

	if (top && (dot = strstr(top, ".tar")))
		*dot = 0;
	if (top && (dot = strstr(top, ".tgz")))
		*dot = 0;
	return top;
}

static int pack(struct ticket *t, const char *out, char **names, size_t n)
{
	struct kt_archive *a = kt_archive__create(out);
	char *top = archive_top(out), *name, *src;
	size_t i;
	int err = 0;

	if (!a || !top) {
		free(top);
		kt_archive__close(a, false);
		snprintf(t->msg, sizeof(t->msg), "cannot create %s: %s", out, strerror(errno));
		return t->err = -errno;
	}
	err = kt_archive__add_dir(a, top);
	for (i = 0; i <= n && !err; i++) {
		const char *f = i < n ? names[i] : "manifest.sha256";

		if (asprintf(&name, "%s/%s", top, f) < 0)
			err = -ENOMEM;
		else if (asprintf(&src, "%s/%s", t->dir, f) < 0)
			err = -ENOMEM, free(name);
		else {
			err = kt_archive__add_file(a, name, src);
			free(name);
			free(src);
		}
	}
	err = kt_archive__close(a, !err) ?: err;
	if (err)
		snprintf(t->msg, sizeof(t->msg), "writing %s: %s", out, strerror(-err));
	free(top);
	return t->err = err;
}

/* fsync() of @path (a file or a directory); -errno */
static int sync_path(const char *path, bool data_only)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (data_only ? fdatasync(fd) : fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/* the directory that holds @path, as a new string ("." for none) */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * kt_ticket_opts.durable: every file written and the directory holding
 * them on disk; the caller then syncs the parent after a rename.
 */
static void make_durable(struct ticket *t, char **names, size_t n)
{
	size_t i;
	char *p;
	int err = 0;

	for (i = 0; i <= n && !err; i++) {
		const char *name = i < n ? names[i] : "manifest.sha256";

		if (asprintf(&p, "%s/%s", t->dir, name) < 0)
			return;
		err = sync_path(p, true);
		if (err)
			fail(t, err, "syncing", name);
		free(p);
	}
	if (!err && (err = sync_path(t->dir, false)))
		fail(t, err, "syncing", ".");
}

/* mkdir -p of the directory that holds @path */
static int make_parents(const char *path)
{
	char *p = strdup(path), *s;
	int err = 0;

	if (!p)
		return -ENOMEM;
	for (s = strchr(p + 1, '/'); s && !err; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			err = -errno;
		*s = '/';
	}
	free(p);
	return err;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *p;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, e->d_name) >= 0) {
			unlink(p);
			free(p);
		}
	}
	closedir(d);
	rmdir(dir);
}

int kt_ticket__write(struct kt_session *s, const char *out, const struct kt_ticket_opts *opts)
{
	struct kt_ticket_opts own = { 0 };
	const struct kt_ticket_opts *o = &own;
	struct ticket t = { .s = s, .o = o };
	bool archive = kt_archive__kind(out) >= 0;
	uint64_t cache;
	bool durable;
	char **names = NULL;
	size_t n = 0, i;
	struct stat st;
	/* a new directory: written beside @out, renamed to it at the end */
	bool rename_dir = false;
	int err;

	err = kt_opts__copy(&own, sizeof(own), opts, "kt_ticket_opts");
	if (err)
		return err;
	cache = o->cache_bytes ? o->cache_bytes : TICKET_CACHE_DEFAULT;
	durable = o->durable;
	err = make_parents(out);
	if (err)
		return kt_err(-err, "cannot create the directories above %s: %s", out,
			      strerror(-err));
	if (archive) {
		if (asprintf(&t.dir, "%s.d.tmp.%d", out, (int)getpid()) < 0)
			return kt_err(ENOMEM, "out of memory");
	} else if (lstat(out, &st) && errno == ENOENT) {
		rename_dir = true;
		if (asprintf(&t.dir, "%s.tmp.%d", out, (int)getpid()) < 0)
			return kt_err(ENOMEM, "out of memory");
	} else {
		t.dir = strdup(out);
		if (!t.dir)
			return kt_err(ENOMEM, "out of memory");
	}
	if (mkdir(t.dir, 0755) && errno != EEXIST) {
		int e = errno;

		kt_err(e, "cannot create the ticket directory %s: %s", t.dir, strerror(e));
		free(t.dir);
		return -e;
	}
	t.loss = calloc(kt_session__buffer_cnt(s) + 1, sizeof(*t.loss));
	t.after = calloc(kt_session__buffer_cnt(s) + 1, sizeof(*t.after));
	if (!t.loss || !t.after || kt_session__cache_pages(s, cache) ||
	    kt_session__track_used(s, true)) {
		free(t.loss);
		free(t.after);
		free(t.dir);
		return kt_err(ENOMEM, "out of memory");
	}
	for (i = 0; i < (size_t)kt_session__buffer_cnt(s); i++)
		t.after[i] = kt_session__buffer(s, (int)i)->loss;
	/* ftrace not read (kt_open_opts.ftrace_optional): no trace files, said in summary.txt */
	if ((s->ftrace_err ||
	     (!step(&t, write_text, "trace.txt (ring pages read from the dump)") &&
	      !step(&t, write_json, "trace.jsonl") && !step(&t, write_dat, "trace.dat"))) &&
	    !step(&t, write_log, "dmesg.txt and timeline.txt") &&
	    !step(&t, write_summary, "summary.txt") && o && o->add_files) {
		double t0 = now();
		int err = o->add_files(o->priv, t.dir);

		if (err)
			fail(&t, err, "adding front-end files to", ".");
		if (o->verbose)
			fprintf(s->log, "ticket: the front end's files in %.3f s\n", now() - t0);
	}
	kt_session__cache_pages(s, 0);
	kt_session__track_used(s, false);
	/* what was written is kept and listed even after a failure */
	{
		double t0 = now();
		bool written = !list_files(&t, &names, &n) && !write_manifest(&t, names, n);

		if (o && o->verbose) {
			fprintf(s->log, "ticket: manifest.sha256 in %.3f s\n", now() - t0);
			/* one line the kdump hook reads, instead of a stat(1) run */
			fprintf(s->log, "ticket: sizes:");
			for (i = 0; i < n; i++) {
				struct stat st;
				char *p;

				if (asprintf(&p, "%s/%s", t.dir, names[i]) >= 0 && !stat(p, &st))
					fprintf(s->log, " %s %lld", names[i], (long long)st.st_size);
				free(p);
			}
			fputc('\n', s->log);
		}
		if (written && archive && !pack(&t, out, names, n) && durable) {
			err = sync_path(out, true);
			if (err)
				fail_at(&t, err, "syncing", out, NULL);
		} else if (written && !archive && durable) {
			make_durable(&t, names, n);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (archive) {
		remove_dir(t.dir);
	} else if (rename_dir && rename(t.dir, out)) {
		/* kept under its temporary name: said, not removed */
		fail_at(&t, -errno, "renaming to", out, NULL);
		rename_dir = false;
	}
	/* the new name (or the archive's directory entry) on disk too */
	if (durable && (archive || rename_dir)) {
		char *up = parent_of(out);

		if (up)
			sync_path(up, false);
		free(up);
	}
	free(t.loss);
	free(t.after);
	free(t.dir);
	if (t.err)
		return kt_err(-t.err, "%s", t.msg);
	return 0;
}
