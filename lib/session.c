// SPDX-License-Identifier: LGPL-2.1-or-later
/* A session: one crashed kernel's tracer state, read through a target. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "ftrace/fmt.h"
#include "krec/krec.h"

void kt_text__free_tep(struct kt_session *s);

static int probe_enum(struct kt_session *s, const char *name, int dflt)
{
	int64_t v;

	if (s->t.enumerator && !s->t.enumerator(s->t.priv, name, &v))
		return (int)v;
	return dflt;
}

/*
 * TRACE_FLAG_* (kernel/trace/trace.h) are enumerators; a flag that does
 * not exist in this kernel is 0 and never matches.
 */
void kt_session__probe_flags(struct kt_session *s)
{
	struct kt_member m;
	uint64_t off, size, addr;

	s->fl.irqs_off = probe_enum(s, "TRACE_FLAG_IRQS_OFF", 0x01);
	s->fl.bh_off = probe_enum(s, "TRACE_FLAG_BH_OFF", 0);
	s->fl.irqs_nosupport = probe_enum(s, "TRACE_FLAG_IRQS_NOSUPPORT", 0);
	s->fl.need_resched = probe_enum(s, "TRACE_FLAG_NEED_RESCHED", 0x04);
	s->fl.hardirq = probe_enum(s, "TRACE_FLAG_HARDIRQ", 0x08);
	s->fl.softirq = probe_enum(s, "TRACE_FLAG_SOFTIRQ", 0x10);
	s->fl.preempt_resched = probe_enum(s, "TRACE_FLAG_PREEMPT_RESCHED", 0x20);
	s->fl.nmi = probe_enum(s, "TRACE_FLAG_NMI", 0x40);
	s->fl.need_resched_lazy = probe_enum(s, "TRACE_FLAG_NEED_RESCHED_LAZY", 0);
	/*
	 * 5.13 added the migrate-disable column to the trace output, with the
	 * per-task migration_disabled counter it prints (5.11+). It is not in
	 * a struct of the tracer, so presence is probed on what came with it:
	 * the counter, and tracing_gen_ctx_irq_test from 5.12's trace_ctx
	 * rework.
	 */
	s->fl.migrate_col = !s->t.member(s->t.priv, "struct task_struct",
					 "migration_disabled", &off, &size) &&
			    !kt_symbol(s, "tracing_gen_ctx_irq_test", &addr);
	/*
	 * CONFIG_PREEMPT_RT picks the osnoise and timerlat tracers' headers:
	 * its sleeping spinlocks are there (rt_spin_lock) and nowhere else
	 */
	s->fl.preempt_rt = !kt_symbol(s, "rt_spin_lock", &addr);
	/* "%16s-%-7d" since the 5.x pid-width change; 4.19 printed "%-5d" */
	s->fl.pid_width = s->l.rb_type && !strcmp(s->l.rb_type, "struct trace_buffer") ? 7 : 5;
	(void)m;
}

static void build_headers(struct kt_session *s)
{
	const struct kt_layout *l = &s->l;
	uint32_t data = (s->nr_buffers ? s->buffers[0]->subbuf_size : l->page_size) -
			l->dp_data.off;
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "\tfield: u64 timestamp;\toffset:%u;\tsize:%u;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:%u;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n",
		 l->dp_time_stamp.off, l->dp_time_stamp.size, l->dp_commit.off,
		 l->dp_commit.size, l->dp_commit.off, l->dp_data.off, data);
	s->header_page = strdup(buf);
	snprintf(buf, sizeof(buf),
		 "# compressed entry header\n"
		 "\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n"
		 "\tarray       :   32 bits\n"
		 "\n"
		 "\tpadding     : type == %d\n"
		 "\ttime_extend : type == %d\n"
		 "\ttime_stamp : type == %d\n"
		 "\tdata max type_len  == %d\n",
		 RINGBUF_TYPE_PADDING, RINGBUF_TYPE_TIME_EXTEND, RINGBUF_TYPE_TIME_STAMP,
		 RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
	s->header_event = strdup(buf);
}

/*
 * The newest kernel series the fixtures prove (tests/vmcores/): a dump of
 * a newer one is read as any other (the layout is probed, never assumed),
 * but is said once, so that a reader of the output knows what was tested.
 */
#define KT_NEWEST_MAJOR 7
#define KT_NEWEST_MINOR 3

static void newer_kernel(struct kt_session *s)
{
	unsigned int major, minor;
	uint64_t a;

	/* no VMCOREINFO to tell the release (a fake kernel): nothing to say */
	if (kt_symbol(s, "vmcoreinfo_data", &a) && kt_symbol(s, "vmcoreinfo_note", &a))
		return;
	if (kt_ident__version(s, &major, &minor))
		return;
	if (major > KT_NEWEST_MAJOR || (major == KT_NEWEST_MAJOR && minor > KT_NEWEST_MINOR))
		kt_warn(s, "kernel %s is newer than the newest ktrace is tested on (%d.%d): "
			   "what it cannot read or render is said and counted",
			kt_session__release(s), KT_NEWEST_MAJOR, KT_NEWEST_MINOR);
}

const char *kt_session__ftrace_error(const struct kt_session *s)
{
	return s ? s->ftrace_err : NULL;
}

struct kt_session *kt_session__open(const struct kt_target *target,
				    const struct kt_open_opts *opts)
{
	struct kt_open_opts o = { 0 };
	struct kt_session *s;
	int err, i;

	if (!target || !target->read || !target->symbol || !target->member ||
	    !target->type_size) {
		kt_err(EINVAL, "target lacks a required callback");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		kt_err(ENOMEM, "out of memory");
		return NULL;
	}
	/* what a caller built against an older target.h does not set stays NULL */
	if (kt_opts__copy(&s->t, sizeof(s->t), target, "kt_target") ||
	    kt_opts__copy(&o, sizeof(o), opts, "kt_open_opts")) {
		free(s);
		return NULL;
	}
	s->log = o.log ? o.log : stderr;
	if (o.kallsyms) {
		s->kallsyms = o.kallsyms;
		s->kallsyms_tried = true;
		s->kallsyms_borrowed = true;
	}
	s->kallsyms_else = o.kallsyms_else;
	s->kallsyms_else_ctx = o.kallsyms_else_ctx;

	/* the kernel's byte order: every word read below goes by it */
	s->l.be = !!(s->t.flags & KT_TARGET_BIG_ENDIAN);
	newer_kernel(s);
	err = kt_layout__probe(s);
	if (!err)
		err = kt_buffers__load(s);
	if (err && o.ftrace_optional) {
		/* the other recorders read on: no buffers, and why */
		s->ftrace_err = strdup(kt_last_error());
		if (!s->ftrace_err)
			goto fail;
		for (i = 0; i < s->nr_buffers; i++)
			kt_buffer__free(s->buffers[i]);
		free(s->buffers);
		s->buffers = NULL;
		s->nr_buffers = 0;
		if (!s->nr_cpu_ids && kt_buffers__nr_cpu_ids(s))
			kt_warn(s, "%s", kt_last_error());
		kt_panic__load(s);
		build_headers(s);	/* what a libtraceevent handle is set up with */
		return s;
	}
	if (err)
		goto fail;
	kt_session__probe_flags(s);
	kt_panic__load(s);
	for (i = 0; i < s->nr_buffers; i++)
		s->buffers[i]->open_loss = s->buffers[i]->loss;
	build_headers(s);
	if (!o.no_events) {
		err = kt_events__load(s);
		if (err)
			kt_warn(s, "no event table: %s", kt_last_error());
	}
	/* other recorders: a failure there leaves ftrace's buffers readable */
	if (kt_krec__load(s))
		kt_warn(s, "%s", kt_last_error());
	return s;
fail:
	{
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", kt_last_error());
		kt_session__free(s);
		kt_err(err, "%s", msg);
	}
	return NULL;
}

void kt_session__free(struct kt_session *s)
{
	int i;

	if (!s)
		return;
	kt_text__free_tep(s);
	kt_fmt__free(s);
	for (i = 0; i < s->nr_buffers; i++)
		kt_buffer__free(s->buffers[i]);
	free(s->buffers);
	for (i = 0; i < (int)s->nr_unread_names; i++)
		free(s->unread_names[i]);
	free(s->unread_names);
	kt_events__free(s);
	kt_cmdlines__free(s->cmdlines);
	if (!s->kallsyms_borrowed)
		kt_kallsyms__free(s->kallsyms);
	kt_modsyms__free(s->modsyms);
	kt_trace_printk__free(s);
	kt_recorder__free_all(s);
	kt_btf__free(s);
	kt_ident__free(s);
	kt_pagecache__free(s);
	kt_rcache__free(s);
	kt_session__track_used(s, false);
	free(s->ftrace_err);
	free(s->header_page);
	free(s->header_event);
	free(s);
}

int kt_session__buffer_cnt(const struct kt_session *s) { return s->nr_buffers; }

struct kt_buffer *kt_session__buffer(const struct kt_session *s, int idx)
{
	return idx >= 0 && idx < s->nr_buffers ? s->buffers[idx] : NULL;
}

struct kt_buffer *kt_session__find_buffer(const struct kt_session *s, const char *name)
{
	int i;

	if (!name || !*name)
		name = "global";
	for (i = 0; i < s->nr_buffers; i++) {
		if (!strcmp(s->buffers[i]->name, name))
			return s->buffers[i];
	}
	errno = ENOENT;
	return NULL;
}

const char *kt_session__header_page(const struct kt_session *s) { return s->header_page; }
const char *kt_session__header_event(const struct kt_session *s) { return s->header_event; }

