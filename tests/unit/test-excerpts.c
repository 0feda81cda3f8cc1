// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernels' own lines, replayed on the fake kernel: each file of
 * tests/unit/excerpts (scripts/make-excerpts, from the fixtures) holds
 * events as a dump's event table gave them (id, fields, print fmt), records
 * (buffer, CPU, time stamp, bytes) and, for each record, the line the
 * kernel's /sys/kernel/tracing/trace printed for it. The fake kernel gets
 * those events and records, libktrace renders them (text and JSON), and
 * every kernel line must be there from its CPU column on: the CPU, the
 * irqs-off/need-resched/hardirq/preempt columns, the time stamp, the event
 * and its text. Nothing expected is ktrace's own output. The function
 * tracer's events print their ips with kallsyms: an excerpt's "ksym" lines
 * (the vmlinux's symbols there) are the fake kernel's kallsyms. The
 * syscall events are printed by the kernel's syscall printer from their
 * struct syscall_metadata: an excerpt's "syscall" lines (fk_syscall()).
 * The blk tracer's entries (a "blk" line: fk_blk()) print the saved
 * cmdline of their pid: its "comm" lines are the fake kernel's savedcmd.
 * A function_graph run ("kline" lines, scripts/make-excerpts-graph): the
 * records from the buffer's oldest on and the kernel's trace file up to
 * the last one's line, header included; ktrace's text must be those lines
 * and no other (run_check()). A latency tracer's run ("maxbuf", "tac"...:
 * scripts/make-excerpts-latency) is its max buffer, global.snapshot, with
 * what its header prints from (fk_maxbuf(), fk_preempt()).
 *
 * The same records written as trace.dat (versions 6 and 7, each buffer on
 * its own) are read back by trace-cmd report (-N: no plugins, so each
 * event is printed by its format as the kernel's trace file prints it;
 * -t: time stamps in ns): every record must be there with its CPU, time
 * stamp, event name and the kernel's text. Skipped, and said, where
 * trace-cmd is not installed.
 *
 * usage: test-excerpts [DIR]   (default: tests/unit/excerpts, or
 * $KTRACE_EXCERPTS)
 */
#include <dirent.h>
#include <inttypes.h>
#include <unistd.h>
#include "excerpt.h"
#include "fake-tracers.h"

/* The kernel's line from its CPU column on ("[001] d..2.     2.078318: ..."). */
static const char *from_cpu(const char *line)
{
	const char *p = strstr(line, "] ");

	while (p && p > line && p[-1] != '[')
		p--;
	return p && p > line ? p - 1 : NULL;
}

/* The time stamp column of a kernel line ("2.078318:"), as the key of a line. */
static int stamp_of(const char *line, char *out, size_t n)
{
	const char *p = from_cpu(line), *q;

	if (!p || !(p = strchr(p, ']')))
		return -1;
	p++;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')	/* the flags */
		p++;
	while (*p == ' ')
		p++;
	q = strstr(p, ": ");
	if (!q || (size_t)(q - p + 1) >= n)
		return -1;
	memcpy(out, p, (size_t)(q - p + 1));
	out[q - p + 1] = 0;
	return 0;
}

/* The output line holding @stamp on CPU column @cpu, for a diagnostic. */
static void show_near(const char *text, const char *cpucol, const char *stamp)
{
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *l = strndup(p, len);

		if (strstr(l, cpucol) && strstr(l, stamp))
			printf("#   ktrace: %s\n", l);
		free(l);
		p = eol ? eol + 1 : NULL;
	}
}

static int json_plain(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			return 0;
	return 1;
}

/*
 * Whether @fmt has a conversion that libtraceevent (glibc's printf) prints
 * otherwise than the kernel's vsnprintf() (lib/vsprintf.c): the '#' flag of
 * a zero ("0x0" in the kernel, "0" in glibc), a precision of 0 (the kernel
 * prints a zero's digit), the hh length. trace-cmd report prints such an
 * event's text its own way from the same bytes; its lines are matched by
 * CPU, time stamp and event, the text difference counted and said.
 */
static bool printf_differs(const char *fmt)
{
	const char *p;

	for (p = fmt ? strchr(fmt, '%') : NULL; p; p = strchr(p + 1, '%')) {
		size_t n = strspn(p + 1, "#0-+ 0123456789.lhzt");
		const char *dot = memchr(p + 1, '.', n);

		if (p[1] == '%') {
			p++;
			continue;
		}
		if (memchr(p + 1, '#', n) || (n >= 2 && !memcmp(p + n - 1, "hh", 2)) ||
		    (dot && dot[1] == '0'))
			return true;
	}
	return false;
}

/*
 * What trace-cmd (no plugin) prints for a syscall event's record whose
 * kernel line's text is @kline ("sys_write(fd: 1, buf: 33198920, count:
 * 2)", "sys_write -> 0x2"): the event's print fmt, which
 * __set_enter_print_fmt() made "fd: 0x%08lx, buf: 0x%08lx, ..." (no
 * argument: "") and __set_exit_print_fmt() "0x%lx", of the kernel's
 * values: hex, with or without 6.18's "0x", under 10 the same digits.
 */
static void syscall_dat_text(const char *kline, const struct xev *sc, char *out, size_t n)
{
	const char *p;
	size_t at = 0;

	*out = 0;
	if (!strcmp(sc->sc_kind, "exit")) {
		p = strstr(kline, " -> ");
		snprintf(out, n, "0x%llx", p ? strtoull(p + 4, NULL, 16) : 0ULL);
		return;
	}
	p = strchr(kline, '(');
	while (p && *p && *p != ')' && at < n) {
		const char *colon = strstr(++p, ": ");

		if (!colon)
			break;
		at += (size_t)snprintf(out + at, n - at, "%s%.*s: 0x%08llx", at ? ", " : "",
				       (int)(colon - p), p, strtoull(colon + 2, NULL, 16));
		p = strpbrk(colon + 2, ",)");
		if (p && *p == ',')
			p++;	/* the space after it is skipped by ++p */
	}
}

/* @r a blk tracer's entry printed by blk_classic (the tracer blk, TRACE_BLK_OPT_CLASSIC) */
static bool blk_classic(const struct excerpt *x, const struct xrec *r)
{
	return x->blk_type && r->id == x->blk_type && (x->blk_flags & 1) && x->tracer &&
	       !strcmp(x->tracer, "blk");
}

/* trace-cmd on PATH: the trace.dat of each excerpt is read by it (dat_lines()) */
static bool have_trace_cmd;
static int dat_lines(const char *path, struct excerpt *x, struct kt_session *s,
		     struct kt_buffer *b, const char *bname, int version);
static char *dat_report(const char *path, struct kt_session *s, struct kt_buffer *b,
			const char *bname, int version);

/*
 * A syscall event's printer and struct syscall_metadata in the fake
 * kernel: event.funcs the kernel's enter_ or exit_syscall_print_funcs
 * (the excerpt's sym facts), its metadata in the layout of the excerpt's
 * struct syscall_metadata facts; an enter event's fields on the
 * metadata's enter_fields, its arguments the fields after __syscall_nr.
 * 0, or -1 with a "not ok" said.
 */
static int syscall_event(const char *path, struct excerpt *x, struct fk_kernel *k, uint64_t call,
			 const struct xev *e)
{
	bool enter = !strcmp(e->sc_kind, "enter");
	char funcs[64];
	int i;

	snprintf(funcs, sizeof(funcs), "%s_syscall_print_funcs", e->sc_kind);
	for (i = 0; i < x->nsym && strcmp(x->sym[i], funcs); i++)
		;
	if (i == x->nsym || fk_syscall(k, call, x->sym_addr[i], e->sc_name, e->sc_nr,
				       enter ? e->f : NULL, enter ? e->nf : 0)) {
		CHECK(0, "%s (%s): %s: the excerpt lacks %s or struct syscall_metadata's layout",
		      path, x->kernel, e->name, funcs);
		return -1;
	}
	return 0;
}

/*
 * A run (function_graph's graph): ktrace's text of the global buffer is
 * the kernel's trace file line for line, its header included, and nothing
 * more but ktrace's own "# ktrace:" lines. The same records as trace.dat
 * (versions 6 and 7): each in trace-cmd's report with its CPU, time stamp
 * in ns and event (trace-cmd prints funcgraph_entry/_exit by their
 * formats, not as a graph).
 */
static void run_check(const char *path, struct excerpt *x, struct kt_session *s)
{
	/* the buffer of the run's records: global, or a latency tracer's global.snapshot */
	const char *bname = x->nrec ? x->rec[0].buf : "global";
	struct kt_buffer *b = kt_session__find_buffer(s, bname);
	struct kt_text_opts o = { .sz = sizeof(o), .header = true };
	char *text = NULL, *line, *next;
	size_t len = 0;
	int i = 0, bad = 0, v;
	FILE *f = b ? open_memstream(&text, &len) : NULL;

	if (f) {
		kt_text__write(s, b, f, &o);
		fclose(f);
	}

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (!strncmp(line, "# ktrace", 8))
			continue;
		if (i == x->nkline || strcmp(line, x->kline[i])) {
			printf("#   line %d: kernel: %s\n#   line %d: ktrace: %s\n", i + 1,
			       i < x->nkline ? x->kline[i] : "(no more lines)", i + 1, line);
			bad = 1;
			break;
		}
		i++;
	}
	if (!bad && i < x->nkline)
		printf("#   line %d: kernel: %s\n#   line %d: ktrace: (no more lines)\n", i + 1,
		       x->kline[i], i + 1);
	CHECK(!bad && i == x->nkline, "%s (%s): %s: %d of the kernel's %d lines, in order, and no "
	      "other", path, x->kernel, x->tracer ? x->tracer : "?", i, x->nkline);
	free(text);
	for (v = 6; have_trace_cmd && b && v <= 7; v++) {
		char *rep = dat_report(path, s, b, bname, v);
		int found = 0;

		for (i = 0; rep && i < x->nrec; i++) {
			const struct xrec *r = &x->rec[i];
			const char *name = NULL, *q, *t, *eol;
			char head[16], stamp[200];
			int e;

			for (e = 0; e < x->nev; e++)
				if (x->ev[e].id == r->id)
					name = x->ev[e].name;
			snprintf(head, sizeof(head), "[%03d]", r->cpu);
			snprintf(stamp, sizeof(stamp), " %" PRIu64 ".%09" PRIu64 ": %s:",
				 r->ts / 1000000000, r->ts % 1000000000, name ? name : "?");
			for (q = rep; (q = strstr(q, head)); q++) {
				eol = strchr(q, '\n');
				t = strstr(q, stamp);
				if (t && (!eol || t < eol))
					break;
			}
			found += q != NULL;
		}
		CHECK(rep && found == x->nrec, "%s (%s): trace.dat v%d: %d of %d records in trace-cmd's "
		      "report (CPU, time stamp, event)", path, x->kernel, v, found, x->nrec);
		free(rep);
	}
}

static void replay(const char *path)
{
	struct excerpt x;
	struct fk_buffer gb, ib[MAX_BUF];
	const char *bname[MAX_BUF];
	int nbuf = 1, nr_cpus = 1, i, j, cpu, bi, matched = 0;
	struct fk_kernel *k;
	struct fk_session fs;
	struct fk_ring *rings[MAX_BUF][MAX_CPU] = { { 0 } };
	char *vmci = NULL;

	if (parse(path, &x))
		return;
	for (i = 0; i < x.nrec; i++)
		if (x.rec[i].cpu + 1 > nr_cpus)
			nr_cpus = x.rec[i].cpu + 1;
	/* a CPU the kernel had with no record shown: its overrun line says it */
	for (i = 0; i < x.nov; i++)
		if (x.ov_cpu[i] >= 0 && x.ov_cpu[i] < MAX_CPU && x.ov_cpu[i] + 1 > nr_cpus)
			nr_cpus = x.ov_cpu[i] + 1;
	k = fk_new(nr_cpus, &gb);
	/* trace_flags (and a max buffer's members) before the layout is asked */
	k->maxbuf = x.has_trflags || x.has_maxbuf;
	if (x.has_trflags)
		fk_w32(k, gb.tr + TR_TRACE_FLAGS, (uint32_t)x.trflags);
	k->enums = x.en;
	k->nr_enums = x.nen;
	k->more_members = x.mem;
	k->nr_more_members = x.nmem;
	for (i = 0; i < x.nsym; i++)
		fk_sym(k, x.sym[i], x.sym_addr[i]);
	if (x.nksym)
		fk_kallsyms(k, (const char *const *)x.ksym, x.ksym_addr, x.nksym);
	bname[0] = "global";
	for (i = 0; i < x.nrec; i++) {
		for (j = 0; j < nbuf && strcmp(bname[j], x.rec[i].buf); j++)
			;
		if (j == nbuf && nbuf < MAX_BUF) {
			bname[nbuf] = x.rec[i].buf;
			/* global.snapshot: a latency tracer's max buffer */
			if (!strcmp(bname[nbuf], "global.snapshot")) {
				if (!x.has_maxbuf ||
				    fk_maxbuf(k, &gb, &ib[nbuf], nr_cpus, x.max_cpu, x.time_start,
					      (const char *const *)x.tac_name,
					      (const char *const *)x.tac_val, x.ntac)) {
					CHECK(0, "%s (%s): the excerpt lacks its max buffer (maxbuf) or "
					      "struct trace_array_cpu's layout", path, x.kernel);
					goto out;
				}
			} else {
				fk_instance(k, bname[nbuf], &ib[nbuf], nr_cpus);
			}
			nbuf++;
		}
	}
	if (x.has_pdyn || x.npmodes)
		fk_preempt(k, x.has_pdyn ? &x.pdyn : NULL, (const char *const *)x.pmodes, x.npmodes);
	/*
	 * the buffers' clock: the kernel's default (local), so that
	 * trace-cmd prints time stamps in seconds as the kernel's lines
	 */
	fk_sym(k, "trace_clock_local", 0xffffffff8a000010ULL);
	for (bi = 0; bi < nbuf; bi++)
		fk_w64(k, (bi ? &ib[bi] : &gb)->rb + RB_CLOCK, 0xffffffff8a000010ULL);
	/* the release, which decides how 6.18+ print syscall arguments */
	if (asprintf(&vmci, "OSRELEASE=%s\n", x.kernel) > 0)
		fk_vmcoreinfo(k, vmci);
	if (x.ncomm && fk_savedcmd(k, x.comm_pid, (const char *const *)x.comm, x.ncomm)) {
		CHECK(0, "%s (%s): the excerpt lacks struct saved_cmdlines_buffer's layout", path,
		      x.kernel);
		goto out;
	}
	if (x.tracer)
		fk_tracer(k, gb.tr, x.tracer);
	if (x.has_tflags && (!x.tracer || fk_tracer_flags(k, gb.tr, (uint32_t)x.tflags))) {
		CHECK(0, "%s (%s): the excerpt lacks struct tracer's or tracer_flags' layout", path,
		      x.kernel);
		goto out;
	}
	if (x.blk_type && fk_blk(k, x.blk_type, x.blk_flags)) {
		CHECK(0, "%s (%s): the excerpt lacks struct trace_event's or tracer_flags' layout",
		      path, x.kernel);
		goto out;
	}
	fk_events_init(k);
	for (i = 0; i < x.nev; i++) {
		struct xev *e = &x.ev[i];
		/* a syscall enter event's fields are its metadata's (fk_syscall()) */
		bool enter = e->sc_name && !strcmp(e->sc_kind, "enter");
		uint64_t call = fk_event(k, e->id, e->system, e->name, e->f, enter ? 0 : e->nf,
					 e->fmt);

		if (e->sc_name && syscall_event(path, &x, k, call, e))
			goto out;		/*
		 * a dynamic event: event.funcs the printer's trace_event_functions
		 * (kprobe_funcs, kretprobe_funcs, synth_event_funcs...: sym facts)
		 */
		if (e->funcs) {
			for (j = 0; j < x.nsym && strcmp(x.sym[j], e->funcs); j++)
				;
			if (j == x.nsym) {
				CHECK(0, "%s (%s): %s: the excerpt lacks %s", path, x.kernel, e->name,
				      e->funcs);
				goto out;
			}
			fk_w64(k, call + EC_FUNCS, x.sym_addr[j]);
			if (e->ep_sys)
				fk_eprobe(k, call, e->ep_sys, e->ep_ev);
		}
	}
	/* each CPU's records of a buffer, one to a sub-buffer, in their order */
	for (bi = 0; bi < nbuf; bi++) {
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			int n = 0, p = 0;

			for (i = 0; i < x.nrec; i++)
				n += x.rec[i].cpu == cpu && !strcmp(x.rec[i].buf, bname[bi]);
			rings[bi][cpu] = fk_ring_new(k, bi ? &ib[bi] : &gb, cpu, n + 2);
			for (i = 0; i < x.nrec; i++) {
				struct fk_pb pb;
				uint8_t rec[4096] = { 0 };
				uint32_t len;

				if (x.rec[i].cpu != cpu || strcmp(x.rec[i].buf, bname[bi]))
					continue;
				len = (x.rec[i].len + 3) & ~3u;
				memcpy(rec, x.rec[i].data, x.rec[i].len);
				pb = fk_page(rings[bi][cpu], p++, x.rec[i].ts);
				fk_raw(&pb, 0, rec, len);
			}
			fk_ring_set(rings[bi][cpu], 0, p ? p - 1 : 0);
			/*
			 * the counts a latency header prints: entries written and
			 * overrun (what is left is what the ring holds)
			 */
			for (i = 0; i < x.nov; i++) {
				if (x.ov_cpu[i] != cpu || strcmp(x.ov_buf[i], bname[bi]))
					continue;
				fk_w64(k, rings[bi][cpu]->cpu_buffer + CB_ENTRIES, (uint64_t)n + x.ov_n[i]);
				fk_w64(k, rings[bi][cpu]->cpu_buffer + CB_OVERRUN, x.ov_n[i]);
			}
		}
	}
	if (fk_open(k, &fs, false)) {
		CHECK(0, "%s: the fake kernel of %s does not open", path, x.kernel);
		goto out;
	}
	if (x.nkline) {
		run_check(path, &x, fs.s);
		fk_close(&fs);
		goto out;
	}
	for (bi = 0; bi < nbuf; bi++) {
		struct kt_buffer *b = kt_session__find_buffer(fs.s, bname[bi]);
		char *text = b ? fk_text(fs.s, b, false) : NULL;
		char *json = b ? fk_text(fs.s, b, true) : NULL;

		for (i = 0; i < x.nrec; i++) {
			struct xrec *r = &x.rec[i];
			const char *want = r->line ? from_cpu(r->line) : NULL, *ev;
			char stamp[64] = "", cpucol[16];
			bool whole = false;

			if (strcmp(r->buf, bname[bi]))
				continue;
			/*
			 * blk_classic: blk_tracer_print_line() prints the whole line
			 * ("DEV CPU SECS.NANOS PID ACT ..."), no context columns;
			 * JSON's text is the event's, which that line does not show
			 */
			if (r->line && blk_classic(&x, r)) {
				want = r->line;
				whole = true;
			}
			if (!want) {
				CHECK(0, "%s: record %d has no kernel line", path, i);
				continue;
			}
			stamp_of(r->line, stamp, sizeof(stamp));
			snprintf(cpucol, sizeof(cpucol), "[%03d]", r->cpu);
			if (text && strstr(text, want)) {
				matched++;
			} else {
				CHECK(0, "%s (%s): %s: the kernel's line", path, x.kernel, bname[bi]);
				printf("#   kernel: %s\n", r->line);
				show_near(text ? text : "", cpucol, stamp);
			}
			/* JSON's "text": the event's part of the line */
			ev = whole ? NULL : strstr(want, ": ");
			if (ev && json_plain(ev + 2)) {
				char *key;

				if (asprintf(&key, "\"text\":\"%s\"", ev + 2) > 0) {
					if (!json || !strstr(json, key))
						CHECK(0, "%s (%s): %s: JSON has the text of the kernel's line %s",
						      path, x.kernel, bname[bi], stamp);
					free(key);
				}
			}
		}
		free(text);
		free(json);
	}
	CHECK(matched == x.nrec, "%s (%s): %d of %d kernel lines rendered as the kernel did", path,
	      x.kernel, matched, x.nrec);
	if (have_trace_cmd) {
		int v, n;

		for (v = 6; v <= 7; v++) {
			for (bi = 0, n = 0; bi < nbuf; bi++) {
				struct kt_buffer *b = kt_session__find_buffer(fs.s, bname[bi]);

				if (b)
					n += dat_lines(path, &x, fs.s, b, bname[bi], v);
			}
			CHECK(n == x.nrec, "%s (%s): trace.dat v%d: %d of %d kernel lines in "
			      "trace-cmd's report of it", path, x.kernel, v, n, x.nrec);
		}
	}
	fk_close(&fs);
out:
	for (bi = 0; bi < nbuf; bi++)
		for (cpu = 0; cpu < nr_cpus; cpu++)
			free(rings[bi][cpu]);
	fk_free(k);
	free(vmci);
	excerpt_free(&x);
}

/*
 * The kernel's lines of buffer @bname among trace-cmd report's: @b written
 * as trace.dat version @version, read by `trace-cmd report -N -t`. A line
 * of the report is "COMM-PID [CPU] (FLAGS) SECS.NANOS: EVENT: TEXT", the
 * text after padding; the kernel's is "... [CPU] FLAGS SECS.MICROS: EVENT:
 * TEXT". Compared: CPU, the record's time stamp in ns, the event and its
 * text. Returns the number of kernel lines found.
 */
/*
 * @b written as trace.dat version @version and read back by `trace-cmd
 * report -N -t`: its report (to free), or NULL with a "not ok" said; a
 * warning or error of trace-cmd's is a "not ok" too.
 */
static char *dat_report(const char *path, struct kt_session *s, struct kt_buffer *b,
			const char *bname, int version)
{
	struct kt_tracedat_opts o = { .sz = sizeof(o), .version = version };
	char dat[] = "/tmp/test-excerpts-XXXXXX", *cmd = NULL, *rep = NULL, *err = NULL;
	size_t replen = 0;
	int fd, ret;
	FILE *f, *p;

	fd = mkstemp(dat);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		CHECK(0, "%s: a temporary file for trace.dat: %s", path, strerror(errno));
		return NULL;
	}
	ret = kt_tracedat__write_opts(s, b, f, &o);
	if (fclose(f) || ret) {
		CHECK(0, "%s: %s: trace.dat version %d written (%d)", path, bname, version, ret);
		unlink(dat);
		return NULL;
	}
	if (asprintf(&cmd, "trace-cmd report -N -t -i %s 2>&1", dat) < 0)
		cmd = NULL;
	p = cmd ? popen(cmd, "r") : NULL;
	if (p) {
		FILE *m = open_memstream(&rep, &replen);
		char buf[4096];
		size_t n;

		while (m && (n = fread(buf, 1, sizeof(buf), p)) > 0)
			fwrite(buf, 1, n, m);
		if (m)
			fclose(m);
		ret = pclose(p);
	}
	free(cmd);
	unlink(dat);
	if (!p || !rep || ret) {
		CHECK(0, "%s: %s: trace-cmd report of our trace.dat version %d: status %d: %.300s",
		      path, bname, version, ret, rep ? rep : "");
		free(rep);
		return NULL;
	}
	/* trace-cmd says what it does not like on the same stream: any warning fails */
	err = strstr(rep, "warning");
	if (!err)
		err = strstr(rep, "Error");
	CHECK(!err, "%s: %s: trace-cmd report of version %d says nothing: %.200s", path, bname,
	      version, err ? err : "");
	return rep;
}

static int dat_lines(const char *path, struct excerpt *x, struct kt_session *s,
		     struct kt_buffer *b, const char *bname, int version)
{
	char *rep = dat_report(path, s, b, bname, version);
	int i, found = 0, want = 0, own = 0, dyns = 0;

	if (!rep)
		return 0;
	for (i = 0; i < x->nrec; i++) {
		struct xrec *r = &x->rec[i];
		const char *fc = r->line && !blk_classic(x, r) ? from_cpu(r->line) : NULL;
		const char *ev = fc ? strstr(fc, ": ") : NULL, *q;
		char head[96], name[128], ktext[1024];
		const char *kt;
		bool loose = false, prefix = false, dyn = false;
		const char *fn = NULL;
		const struct xev *sc = NULL;
		char also[64] = "";	/* and this, anywhere in trace-cmd's text */
		/* blk_classic's line: the event's text is the line */
		bool classic = r->line && blk_classic(x, r);
		size_t nl;
		int e;


		if (strcmp(r->buf, bname) || (!ev && !classic))
			continue;
		want++;
		for (e = 0; e < x->nev; e++) {
			if (x->ev[e].id != r->id)
				continue;
			loose = printf_differs(x->ev[e].fmt);
			/* a dynamic event: its printer is the kernel's, trace-cmd's its print fmt */
			dyn = x->ev[e].funcs != NULL;
			if (!strcmp(x->ev[e].system, "ftrace"))
				fn = x->ev[e].name;
			if (x->ev[e].sc_name)
				sc = &x->ev[e];
		}
		/* the event's name: between the time stamp's ": " and the next ": " */
		ev = classic ? r->line : ev + 2;
		q = strstr(ev, ": ");
		nl = q ? (size_t)(q - ev) : strlen(ev);
		/* the kernel's text after the event's name (trace-cmd drops its leading spaces) */
		kt = q ? q + 2 : NULL;
		while (kt && *kt == ' ')
			kt++;
		if (x->blk_type && r->id == x->blk_type) {
			/*
			 * blk_trace_event_print()'s line is the tracer's; trace-cmd
			 * (no plugin) prints ftrace:blktrace by the print fmt ktrace
			 * gives it, "MAJOR,MINOR action=0x.. sector=..": the
			 * kernel's device compared, and with "SECTOR + N" in the
			 * kernel's line its sector and bytes (N sectors of 512)
			 */
			char dev[32] = "";
			unsigned long long sec;
			unsigned int nsec;
			const char *plus = strstr(ev, " + ");

			sscanf(ev, "%31s", dev);
			snprintf(ktext, sizeof(ktext), "%s action=0x", dev);
			while (plus && plus > ev && plus[-1] != ' ')
				plus--;
			if (plus && sscanf(plus, "%llu + %u", &sec, &nsec) == 2)
				snprintf(also, sizeof(also), " sector=%llu bytes=%u ", sec,
					 nsec * 512);
			kt = ktext;
			prefix = true;
			ev = "blktrace";
			nl = strlen(ev);
		} else if (fn && (!strcmp(fn, "print") || !strcmp(fn, "hwlat") ||
				  !strcmp(fn, "osnoise") || !strcmp(fn, "timerlat"))) {
			/*
			 * trace_marker's print ("tracing_mark_write: TEXT") and the
			 * hwlat, osnoise and timerlat tracers' records ("#N ...", no
			 * event name) are the kernel's printers'; trace-cmd prints
			 * their print fmts: matched by CPU, time stamp and event
			 */
			ev = fn;
			nl = strlen(ev);
			kt = NULL;
			dyn = true;
		} else if (sc) {
			syscall_dat_text(ev, sc, ktext, sizeof(ktext));
			kt = ktext;
			ev = sc->name;
			nl = strlen(ev);
		} else if (fn && !strcmp(fn, "function")) {
			/*
			 * print_fn_trace()'s "IP <-PARENT" has no event name; trace-cmd
			 * (no plugin) prints the print fmt " %ps <-- %ps" with the
			 * trace.dat's kallsyms: the kernel's names, another arrow
			 */
			const char *arrow = strstr(ev, " <-");

			if (arrow)
				snprintf(ktext, sizeof(ktext), "%.*s <-- %s", (int)(arrow - ev), ev,
					 arrow + 3);
			else
				snprintf(ktext, sizeof(ktext), "%s", ev);
			kt = ktext;
			ev = fn;
			nl = strlen(ev);
		} else if (fn && !strcmp(fn, "func_repeats")) {
			/*
			 * trace_func_repeats_print()'s "IP <-PARENT (repeats: N,
			 * last_ts: T)" is the print fmt's " %ps <-%ps\t(repeats:%u
			 * delta: -%llu)" in trace-cmd: names and count compared, the
			 * delta not (the kernel prints last_ts in microseconds)
			 */
			const char *rep = strstr(ev, " (repeats: ");

			snprintf(ktext, sizeof(ktext), "%.*s\t(repeats:%u  delta: -",
				 rep ? (int)(rep - ev) : 0, ev,
				 rep ? (unsigned)strtoul(rep + 11, NULL, 10) : 0);
			kt = ktext;
			prefix = true;
			ev = fn;
			nl = strlen(ev);
		}
		if (nl >= sizeof(name))
			nl = sizeof(name) - 1;
		memcpy(name, ev, nl);
		name[nl] = 0;
		snprintf(head, sizeof(head), "[%03d]", r->cpu);
		for (q = rep; (q = strstr(q, head)); q++) {
			char stamp[200], *end;
			const char *t, *eol = strchr(q, '\n');

			snprintf(stamp, sizeof(stamp), " %" PRIu64 ".%09" PRIu64 ": %s:",
				 r->ts / 1000000000, r->ts % 1000000000, name);
			t = strstr(q, stamp);
			if (!t || (eol && t > eol))
				continue;
			/* the text, after the padding trace-cmd aligns it with */
			t += strlen(stamp);
			while (*t == ' ')
				t++;
			end = strchr(t, '\n');
			nl = end ? (size_t)(end - t) : strlen(t);
			if (((kt && (prefix || strlen(kt) == nl) && strlen(kt) <= nl &&
			      !memcmp(kt, t, strlen(kt))) || (!kt && !nl)) &&
			    (!*also || memmem(t, nl, also, strlen(also)))) {
				found++;
				break;
			}
			if (dyn) {
				if (!dyns++)
					printf("# %s: %s: trace-cmd prints the dynamic events (kprobes, "
					       "synthetic...) and ftrace's own by their print fmts, the "
					       "kernel by their printers: \"%.*s\" for the kernel's \"%s\"\n",
					       path, bname, (int)nl, t, r->line);
				found++;
				break;
			}
			if (loose) {
				if (!own++)
					printf("# %s: %s: trace-cmd prints %s with glibc's printf rules, "
					       "not the kernel's: \"%.*s\" for the kernel's \"%s\"\n",
					       path, bname, name, (int)nl, t, kt ? kt : "");
				found++;
				break;
			}
		}
		if (!q) {
			CHECK(0, "%s (%s): %s: trace.dat v%d: trace-cmd report has the kernel's line",
			      path, x->kernel, bname, version);
			printf("#   kernel: %s\n", r->line);
		}
	}
	free(rep);
	if (dyns)
		printf("# %s: %s: trace.dat v%d: %d lines of dynamic events or ftrace's own matched "
		       "by CPU, time stamp and event only\n", path, bname, version, dyns);
	if (own)
		printf("# %s: %s: trace.dat v%d: %d lines of events trace-cmd prints with glibc's "
		       "printf rules matched by CPU, time stamp and event only\n", path, bname,
		       version, own);
	return want == found ? found : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("KTRACE_EXCERPTS");
	char *names[256];
	int n = 0, i;
	DIR *d;
	struct dirent *de;

	if (!dir)
		dir = "tests/unit/excerpts";
	d = opendir(dir);
	if (!d) {
		printf("not ok - %s: %s (run from the project's top, or give the directory)\n", dir,
		       strerror(errno));
		return 1;
	}
	while ((de = readdir(d)) && n < 256) {
		size_t l = strlen(de->d_name);

		if (l > 4 && !strcmp(de->d_name + l - 4, ".txt"))
			if (asprintf(&names[n], "%s/%s", dir, de->d_name) > 0)
				n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	have_trace_cmd = !system("command -v trace-cmd >/dev/null 2>&1");
	if (!have_trace_cmd)
		printf("skip - trace.dat of the excerpts: trace-cmd is not installed "
		       "(scripts/install-deps installs it)\n");
	CHECK(n > 0, "%d excerpt files in %s", n, dir);
	for (i = 0; i < n; i++) {
		replay(names[i]);
		free(names[i]);
	}
	return fk_failed;
}
