// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ktrace-extract --make-profile: write the layout profile of one kernel.
 *
 * A profile is made at install time, when there is no dump to run the
 * core against, so it holds the answers to the questions the core can
 * ask, enumerated:
 *  - the members, symbols and enumerators libktrace asks by name (the
 *    list below, kept beside lib/: layout.c's table and the extra
 *    questions in events.c, trace_printk.c, render.c, session.c, text.c,
 *    buffers.c, kallsyms.c, cmdlines.c), absent ones recorded as absent;
 *  - every enumerator of the kernel whose name has no lower-case letter:
 *    print formats name enumerators the core resolves (fmt.c), and which
 *    ones depends on the events built into that kernel;
 *  - with a reference dump of the same kernel (--make-profile FILE -x
 *    VMLINUX VMCORE), whatever a complete extraction asked as well
 *    (text of every buffer, trace.dat and every event format).
 * tests/t-profile.sh checks that an extraction through a profile asks
 * nothing it lacks, so a question added to lib/ without adding it here
 * fails the tests instead of a capture.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ktrace/ktrace.h>

#include "../dump.h"
#include "profile.h"
#include "profile-private.h"

struct question {
	char kind;		/* 's', 'm', 'z', 'e' */
	const char *a, *b;
};

#define RB_OLD "struct ring_buffer"		/* before 5.6 */
#define RB_NEW "struct trace_buffer"
#define CPU "struct ring_buffer_per_cpu"
#define BP "struct buffer_page"
#define DP "struct buffer_data_page"
#define TR "struct trace_array"
#define CALL "struct trace_event_call"
#define CLASS "struct trace_event_class"
#define FIELD "struct ftrace_event_field"
#define SC "struct saved_cmdlines_buffer"
#define TE "struct trace_entry"

static const struct question questions[] = {
	/* lib/layout.c: the ring buffer under both of its names */
	{ 'm', RB_OLD, "cpus" }, { 'm', RB_OLD, "buffers" },
	{ 'm', RB_OLD, "clock" }, { 'm', RB_OLD, "subbuf_size" },
	{ 'm', RB_OLD, "subbuf_order" }, { 'm', RB_OLD, "time_stamp_abs" },
	{ 'm', RB_NEW, "cpus" }, { 'm', RB_NEW, "buffers" },
	{ 'm', RB_NEW, "clock" }, { 'm', RB_NEW, "subbuf_size" },
	{ 'm', RB_NEW, "subbuf_order" }, { 'm', RB_NEW, "time_stamp_abs" },
	{ 'm', RB_NEW, "buffer" },	/* 5.x trace_buffer was array_buffer */
	{ 'm', TR, "array_buffer" }, { 'm', TR, "trace_buffer" },
	{ 'm', "struct array_buffer", "buffer" },
	{ 'm', CPU, "cpu" }, { 'm', CPU, "nr_pages" }, { 'm', CPU, "pages" },
	{ 'm', CPU, "head_page" }, { 'm', CPU, "tail_page" },
	{ 'm', CPU, "commit_page" }, { 'm', CPU, "reader_page" },
	{ 'm', CPU, "entries" }, { 'm', CPU, "overrun" },
	{ 'm', CPU, "commit_overrun" }, { 'm', CPU, "dropped_events" },
	{ 'm', CPU, "read" }, { 'm', CPU, "entries_bytes" },
	{ 'm', CPU, "lost_events" },
	{ 'm', CPU, "buffer" },		/* buffers.c: kt_ring__check() (--ring) */
	{ 'm', BP, "list" }, { 'm', BP, "write" }, { 'm', BP, "read" },
	{ 'm', BP, "entries" }, { 'm', BP, "real_end" }, { 'm', BP, "page" },
	{ 'm', DP, "time_stamp" }, { 'm', DP, "commit" }, { 'm', DP, "data" },
	{ 'm', "struct list_head", "next" }, { 'm', "struct list_head", "prev" },
	{ 'm', TR, "name" }, { 'm', TR, "list" }, { 'm', TR, "clock_id" },
	{ 'm', CALL, "list" }, { 'm', CALL, "class" }, { 'm', CALL, "name" },
	{ 'm', CALL, "tp" }, { 'm', CALL, "event.type" },
	{ 'm', CALL, "print_fmt" }, { 'm', CALL, "flags" }, { 'm', CALL, "data" },
	{ 'm', CLASS, "system" }, { 'm', CLASS, "fields" },
	{ 'm', CLASS, "get_fields" }, { 'm', CLASS, "probe" },
	{ 'm', FIELD, "link" }, { 'm', FIELD, "name" }, { 'm', FIELD, "type" },
	{ 'm', FIELD, "offset" }, { 'm', FIELD, "size" },
	{ 'm', FIELD, "is_signed" }, { 'm', FIELD, "len" },
	{ 'm', "struct tracepoint", "name" },
	{ 'm', SC, "map_pid_to_cmdline" }, { 'm', SC, "map_cmdline_to_pid" },
	{ 'm', SC, "cmdline_num" }, { 'm', SC, "saved_cmdlines" },
	{ 'm', TE, "type" }, { 'm', TE, "flags" }, { 'm', TE, "preempt_count" },
	{ 'm', TE, "pid" }, { 'm', TE, "preempt_lazy_count" },
	/* lib/ftrace/events.c, trace_printk.c, render.c, session.c, text.c */
	{ 'm', "struct syscall_metadata", "enter_fields" },
	{ 'm', "struct syscall_metadata", "name" }, { 'm', "struct syscall_metadata", "syscall_nr" },
	{ 'm', "struct syscall_metadata", "nb_args" }, { 'm', "struct syscall_metadata", "types" },
	{ 'm', "struct syscall_metadata", "args" }, { 'm', "struct syscall_metadata", "user_mask" },
	{ 'm', "struct trace_bprintk_fmt", "fmt" },
	{ 'm', TR, "trace_flags" }, { 'm', TR, "current_trace" },
	{ 'm', "struct tracer", "name" },
	/* lib/ftrace/buffers.c: snapshot buffers */
	{ 'm', TR, "max_buffer" }, { 'm', TR, "snapshot_buffer" }, { 'm', TR, "allocated_snapshot" },
	{ 'm', TR, "text_delta" },	/* lib/ftrace/fgraph.c */
	/* lib/ftrace/probe.c: dynamic events' printers, an eprobe's event, kretprobed() */
	{ 'm', CALL, "event.funcs" },
	{ 'm', "struct trace_probe_event", "call" }, { 'm', "struct trace_probe_event", "probes" },
	{ 'm', "struct trace_probe", "list" }, { 'm', "struct trace_eprobe", "tp" },
	{ 'm', "struct trace_eprobe", "event_system" }, { 'm', "struct trace_eprobe", "event_name" },
	{ 's', "kprobe_funcs", NULL }, { 's', "kretprobe_funcs", NULL },
	{ 's', "enter_syscall_print_funcs", NULL }, { 's', "exit_syscall_print_funcs", NULL },
	{ 's', "uprobe_funcs", NULL }, { 's', "eprobe_funcs", NULL },
	{ 's', "fentry_funcs", NULL }, { 's', "fexit_funcs", NULL },
	{ 's', "synth_event_funcs", NULL }, { 's', "__kretprobe_trampoline", NULL },
	{ 's', "arch_rethook_trampoline", NULL }, { 's', "kretprobe_trampoline", NULL },
	{ 'm', TR, "data_delta" }, { 'm', TR, "range_addr_start" },	/* lib/ftrace/bootmap.c */
	{ 'm', TR, "scratch" }, { 'm', TR, "flags" },
	{ 'm', "struct trace_scratch", "clock" }, { 'm', "struct trace_scratch", "text_addr" },
	{ 'm', "struct trace_scratch", "kaslr_addr" }, { 'm', "struct trace_scratch", "nr_entries" },
	{ 'm', "struct trace_scratch", "entries" }, { 'm', "struct trace_mod_entry", "mod_addr" },
	{ 'm', "struct trace_mod_entry", "mod_name" }, { 'z', "struct trace_mod_entry", NULL },
	/* lib/ftrace/fgraph.c: the function graph's options and irq entry text */
	{ 'm', "struct tracer", "flags" }, { 'm', "struct tracer_flags", "val" },
	{ 'm', TR, "current_trace_flags" },
	{ 's', "__irqentry_text_start", NULL }, { 's', "__irqentry_text_end", NULL },
	/* lib/ftrace/blk.c: the blk tracer's TRACE_BLK id and its options */
	{ 'm', "struct trace_event", "type" },
	{ 's', "trace_blk_event", NULL }, { 's', "blk_tracer_flags", NULL },
	{ 'm', "struct task_struct", "migration_disabled" },
	/* PREEMPT_RT (session.c) and the osnoise tracer's header (options.c) */
	{ 's', "rt_spin_lock", NULL }, { 's', "osnoise_data", NULL },
	{ 'm', "struct osnoise_data", "tainted" },
	/* the latency tracers' header (latency.c) */
	{ 's', "__per_cpu_offset", NULL }, { 's', "preempt_dynamic_mode", NULL },
	{ 's', "preempt_model_str", NULL }, { 's', "preempt_modes", NULL },	/* 6.15+ */
	{ 'm', "struct array_buffer", "data" }, { 'm', "struct array_buffer", "time_start" },
	{ 'm', "struct array_buffer", "cpu" },
	{ 'm', "struct trace_array_cpu", "saved_latency" },
	{ 'm', "struct trace_array_cpu", "critical_start" },
	{ 'm', "struct trace_array_cpu", "critical_end" },
	{ 'm', "struct trace_array_cpu", "comm" }, { 'm', "struct trace_array_cpu", "pid" },
	{ 'm', "struct trace_array_cpu", "uid" }, { 'm', "struct trace_array_cpu", "nice" },
	{ 'm', "struct trace_array_cpu", "policy" },
	{ 'm', "struct trace_array_cpu", "rt_priority" },
	/* the bound of a line of the trace file (lib/ftrace/evalguard.c) */
	{ 'm', "struct trace_seq", "buffer" },
	/* lib/modsyms.c: symbols of loaded modules */
	{ 'm', "struct module", "list" }, { 'm', "struct module", "kallsyms" },
	{ 'm', "struct module", "name" },
	{ 'm', "struct mod_kallsyms", "symtab" }, { 'm', "struct mod_kallsyms", "num_symtab" },
	{ 'm', "struct mod_kallsyms", "strtab" },
	/* lib/printk/: the kernel log (5.10+ printk ring buffer) */
	{ 'm', "struct printk_ringbuffer", "desc_ring" },
	{ 'm', "struct printk_ringbuffer", "text_data_ring" },
	{ 'm', "struct printk_ringbuffer", "fail" },
	{ 'm', "struct prb_desc_ring", "count_bits" }, { 'm', "struct prb_desc_ring", "descs" },
	{ 'm', "struct prb_desc_ring", "infos" }, { 'm', "struct prb_desc_ring", "head_id" },
	{ 'm', "struct prb_desc_ring", "tail_id" },
	{ 'm', "struct prb_data_ring", "size_bits" }, { 'm', "struct prb_data_ring", "data" },
	{ 'm', "struct prb_data_ring", "head_lpos" }, { 'm', "struct prb_data_ring", "tail_lpos" },
	{ 'm', "struct prb_desc", "state_var" }, { 'm', "struct prb_desc", "text_blk_lpos.begin" },
	{ 'm', "struct prb_desc", "text_blk_lpos.next" },
	{ 'm', "struct printk_info", "seq" }, { 'm', "struct printk_info", "ts_nsec" },
	{ 'm', "struct printk_info", "text_len" }, { 'm', "struct printk_info", "facility" },
	{ 'm', "struct printk_info", "flags" }, { 'm', "struct printk_info", "level" },
	{ 'm', "struct printk_info", "caller_id" },
	{ 'm', "struct printk_info", "dev_info.subsystem" },
	{ 'm', "struct printk_info", "dev_info.device" },
	{ 'z', "struct prb_desc", NULL }, { 'z', "struct printk_info", NULL },
	{ 's', "prb", NULL },
	/* lib/krec/find.c: the ktrace recorder's types, absent from vmlinux
	 * (they come from the module's .ko, --module-debuginfo) */
	{ 'm', "struct krec_entry", "hlist" }, { 'm', "struct krec_entry", "name" },
	{ 'm', "struct krec_entry", "format" }, { 'm', "struct krec_entry", "id" },
	{ 'm', "struct krec_entry", "size" }, { 'm', "struct krec_entry", "nr_str" },
	{ 'm', "struct krec_entry", "str_off" }, { 'm', "struct krec_entry", "enabled" },
	{ 'm', "struct krec_entry", "owner" }, { 'm', "struct hlist_node", "next" },
	{ 'm', "struct krec_record", "id" }, { 'm', "struct krec_record", "size" },
	{ 'm', "struct krec_record", "pid" }, { 'm', "struct krec_record", "args" },
	/* lib/relay/: relay channels (kernel/relay.c) and blktrace's */
	{ 'm', "struct rchan", "subbuf_size" }, { 'm', "struct rchan", "n_subbufs" },
	{ 'm', "struct rchan", "cb" }, { 'm', "struct rchan", "private_data" },
	{ 'm', "struct rchan", "buf" }, { 'm', "struct rchan", "is_global" },
	{ 'm', "struct rchan", "list" }, { 'm', "struct rchan", "base_filename" },
	{ 'm', "struct rchan", "parent" },
	{ 'm', "struct rchan_buf", "start" }, { 'm', "struct rchan_buf", "offset" },
	{ 'm', "struct rchan_buf", "subbufs_produced" },
	{ 'm', "struct rchan_buf", "subbufs_consumed" },
	{ 'm', "struct rchan_buf", "padding" }, { 'm', "struct rchan_buf", "bytes_consumed" },
	{ 'm', "struct rchan_buf", "dentry" }, { 'm', "struct rchan_buf", "cpu" },
	/* lib/relay/find.c: what relay dropped (6.17+; blktrace's dropped) */
	{ 'm', "struct rchan_buf", "stats.full_count" },
	{ 'm', "struct rchan_buf", "stats.big_count" },
	{ 'm', "struct dentry", "d_name.name" },
	{ 'm', "struct blk_trace", "rchan" }, { 'm', "struct blk_trace", "dev" },
	{ 'm', "struct blk_trace", "dropped" }, { 'm', "struct blk_trace", "trace_state" },
	{ 's', "relay_channels", NULL }, { 's', "blk_relay_callbacks", NULL },
	{ 's', "__per_cpu_offset", NULL },
	/* sizes of the types above (not asked today; cheap to have) */
	{ 'z', RB_OLD, NULL }, { 'z', RB_NEW, NULL }, { 'z', CPU, NULL }, { 'z', BP, NULL }, { 'z', DP, NULL },
	{ 'z', TR, NULL }, { 'z', "struct array_buffer", NULL }, { 'z', CALL, NULL },
	{ 'z', CLASS, NULL }, { 'z', FIELD, NULL }, { 'z', SC, NULL }, { 'z', TE, NULL },
	{ 'z', "struct list_head", NULL }, { 'z', "struct tracer", NULL },
	/* symbols: buffers.c, cmdlines.c, events.c, kallsyms.c, trace_printk.c,
	 * render.c, session.c; init_uts_ns for checking the dump */
	{ 's', "global_trace", NULL }, { 's', "nr_cpu_ids", NULL },
	{ 's', "ftrace_trace_arrays", NULL }, { 's', "savedcmd", NULL },
	{ 's', "ftrace_events", NULL }, { 's', "ftrace_common_fields", NULL },
	{ 's', "kallsyms_names", NULL }, { 's', "kallsyms_token_table", NULL },
	{ 's', "kallsyms_token_index", NULL }, { 's', "kallsyms_addresses", NULL },
	{ 's', "kallsyms_offsets", NULL }, { 's', "kallsyms_relative_base", NULL },
	{ 's', "kallsyms_num_syms", NULL }, { 's', "kallsyms_markers", NULL },
	{ 's', "kallsyms_seqs_of_names", NULL }, { 's', "_stext", NULL }, { 's', "_text", NULL },
	{ 's', "__start___trace_bprintk_fmt", NULL },
	{ 's', "__stop___trace_bprintk_fmt", NULL },
	{ 's', "__start___tracepoint_str", NULL }, { 's', "__stop___tracepoint_str", NULL },
	{ 's', "trace_bprintk_fmt_list", NULL }, { 's', "tracing_gen_ctx_irq_test", NULL },
	{ 's', "no_hash_pointers", NULL }, { 's', "ptr_key", NULL },
	{ 's', "init_uts_ns", NULL }, { 's', "modules", NULL },
	/* blk.c: 6.19's blk_io_trace2, told by blk_trace.version */
	{ 'm', "struct blk_trace", "version" },
	/* btf.c: the kernel's BTF, for function arguments (func-args, 6.15+) */
	{ 's', "__start_BTF", NULL }, { 's', "__stop_BTF", NULL },
	/* panic.c */
	{ 's', "panic_cpu", NULL }, { 's', "crashing_cpu", NULL },
	/* ident.c */
	{ 's', "vmcoreinfo_data", NULL }, { 's', "vmcoreinfo_size", NULL },
	{ 's', "vmcoreinfo_note", NULL },
	/* options.c: record-tgid */
	{ 's', "tgid_map", NULL }, { 's', "tgid_map_max", NULL },
	/* trace_clocks[] functions (buffers.c) */
	{ 's', "trace_clock_local", NULL }, { 's', "trace_clock_global", NULL },
	{ 's', "trace_clock_counter", NULL }, { 's', "trace_clock_jiffies", NULL },
	{ 's', "trace_clock", NULL }, { 's', "ktime_get_mono_fast_ns", NULL },
	{ 's', "ktime_get_raw_fast_ns", NULL }, { 's', "ktime_get_boot_fast_ns", NULL },
	{ 's', "ktime_get_tai_fast_ns", NULL }, { 's', "trace_clock_x86_tsc", NULL },
};

/*
 * The keys of the questions asked: each is asked once, and its first
 * answer is the one written, as write_profile() kept it (glibc's qsort()
 * is a stable merge sort). A header's enum is met again in every unit
 * that includes it (6.1: 681,792 upper-case enumerators met, 13,657
 * names), and an answer kept each time cost more memory than reading
 * the DWARF. Asking again read nothing: the first question had read
 * what the resolver needed for it.
 */
struct key_set {
	const char **slots;
	size_t mask, count;
};

/* The answers collected, keyed as in profile.c */
struct answers {
	struct kx_pentry *e;
	size_t n, cap;
	struct kx_psource *src;
	struct key_set asked;
	int err;
};

/* the slot of key @name in @set: where it is, or the empty one to put it */
static const char **key_slot(const struct key_set *set, const char *name)
{
	size_t i = kx_profile_fnv1a(KX_FNV_INIT, name, strlen(name)) & set->mask;

	while (set->slots[i] && strcmp(set->slots[i], name))
		i = (i + 1) & set->mask;
	return &set->slots[i];
}

/* 1 when @name is in @set, 0 when not, -ENOMEM */
static int key_set_has(struct key_set *set, const char *name)
{
	if (!set->slots) {
		set->slots = calloc(4096, sizeof(*set->slots));
		if (!set->slots)
			return -ENOMEM;
		set->mask = 4095;
	}
	return !!*key_slot(set, name);
}

/* Add @name, not in @set, kept by the caller while @set is */
static int key_set_add(struct key_set *set, const char *name)
{
	if (2 * (set->count + 1) > set->mask + 1) {
		struct key_set bigger = { .mask = 2 * set->mask + 1 };
		size_t i;

		bigger.slots = calloc(bigger.mask + 1, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		for (i = 0; i <= set->mask; i++)
			if (set->slots[i])
				*key_slot(&bigger, set->slots[i]) = set->slots[i];
		free(set->slots);
		set->slots = bigger.slots;
		set->mask = bigger.mask;
	}
	*key_slot(set, name) = name;
	set->count++;
	return 0;
}

static void key_set_free(struct key_set *set)
{
	free(set->slots);
	*set = (struct key_set){ 0 };
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct kx_pentry *)a)->key,
		      ((const struct kx_pentry *)b)->key);
}

/* Ask @src question (@kind, @a, @b) and keep the answer. */
static int ask(struct answers *as, char kind, const char *a, const char *b)
{
	struct kx_psource *src = as->src;
	struct kx_pentry *e;
	int64_t v;
	int reloc = 0, ret;

	if (as->n == as->cap) {
		size_t nc = as->cap ? 2 * as->cap : 4096;
		struct kx_pentry *ne = realloc(as->e, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		as->e = ne;
		as->cap = nc;
	}
	e = &as->e[as->n];
	memset(e, 0, sizeof(*e));
	ret = kx_pentry_key(e, kind, a, kind == 'm' ? b : NULL);
	if (ret)
		return ret;
	ret = key_set_has(&as->asked, e->key);
	if (ret) {
		free(e->key);
		return ret < 0 ? ret : 0;
	}
	switch (kind) {
	case 's':
		ret = src->symbol(src->priv, a, &e->v1, &reloc);
		e->reloc = !!reloc;
		break;
	case 'm':
		ret = src->member(src->priv, a, b, &e->v1, &e->v2);
		break;
	case 'z':
		ret = src->type_size(src->priv, a, &e->v1);
		break;
	default:
		ret = src->enumerator(src->priv, a, &v);
		e->v1 = (uint64_t)v;
		break;
	}
	/* but -ENOMEM, any error (-ENOENT, -EINVAL through a non-aggregate) is absent */
	e->present = !ret;
	if (ret != -ENOMEM)
		ret = key_set_add(&as->asked, e->key);
	if (ret) {
		free(e->key);
		return ret;
	}
	as->n++;
	return 0;
}

static int has_lower(const char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			return 1;
	return 0;
}

static int ask_enum(void *arg, const char *name)
{
	struct answers *as = arg;

	if (has_lower(name))
		return 0;
	return ask(as, 'e', name, NULL);
}

/* --- recording a reference extraction ---------------------------------- */

struct recorder {
	struct kt_target inner;
	struct answers *as;
};

static int rec_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct recorder *r = priv;

	return r->inner.read(r->inner.priv, kvaddr, buf, len);
}

static int rec_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct recorder *r = priv;

	if (ask(r->as, 's', name, NULL))
		r->as->err = -ENOMEM;
	return r->inner.symbol(r->inner.priv, name, addr);
}

static int rec_member(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size)
{
	struct recorder *r = priv;

	if (ask(r->as, 'm', type, member))
		r->as->err = -ENOMEM;
	return r->inner.member(r->inner.priv, type, member, offset, size);
}

static int rec_type_size(void *priv, const char *type, uint64_t *size)
{
	struct recorder *r = priv;

	if (ask(r->as, 'z', type, NULL))
		r->as->err = -ENOMEM;
	return r->inner.type_size(r->inner.priv, type, size);
}

/*
 * Answered by the source, as the profile will answer it: the source has
 * read every unit for the walk over enumerators, while the dump's own
 * resolver, asked a name that none of the units it has read holds (a
 * print format names enumerators of any file), would read them all again.
 */
static int rec_enumerator(void *priv, const char *name, int64_t *value)
{
	struct recorder *r = priv;
	struct kx_psource *src = r->as->src;

	if (ask(r->as, 'e', name, NULL))
		r->as->err = -ENOMEM;
	return src->enumerator(src->priv, name, value);
}

int kt_tracedat__write(struct kt_session *s, struct kt_buffer *only, FILE *out);

/*
 * Run everything the extractor can do on @vmcore, with a target answering
 * from @src's DWARF through the dump target, and keep every question.
 */
static int record(struct answers *as, const struct kx_profile_make_opts *o)
{
	struct kx_dump_opts dopts = { .sz = sizeof(dopts) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct kt_open_opts sopts = { .sz = sizeof(sopts) };
	struct recorder r = { .as = as };
	struct kt_target t = { .sz = sizeof(t) };
	struct kt_session *s;
	struct kt_buffer *b;
	struct kx_dump *d;
	enum kx_error kerr;
	char msg[1024];
	FILE *null;
	int i;

	dopts.vmlinux = o->vmlinux;
	d = kx_dump__open(o->vmcore, &dopts, &kerr, msg, sizeof(msg));
	if (!d) {
		fprintf(stderr, "ktrace-extract: %s\n", msg);
		return kerr == KX_ERR_MISMATCH ? KT_EXIT_MISMATCH : KT_EXIT_DUMP;
	}
	kx_dump__target(d, &r.inner);
	t.priv = &r;
	t.read = rec_read;
	t.symbol = rec_symbol;
	t.member = rec_member;
	t.type_size = rec_type_size;
	t.enumerator = rec_enumerator;
	null = fopen("/dev/null", "we");
	s = null ? kt_session__open(&t, &sopts) : NULL;
	if (!s) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o->vmcore,
			null ? kt_last_error() : strerror(errno));
		if (null)
			fclose(null);
		kx_dump__close(d);
		return KT_EXIT_NOTRACE;
	}
	to.header = true;
	kt_session__for_each_buffer(s, i, b)
		kt_text__write(s, b, null, &to);
	kt_tracedat__write(s, NULL, null);
	for (i = 0; i < kt_session__event_cnt(s); i++)
		kt_event__format(kt_session__event(s, i));
	kt_session__free(s);
	fclose(null);
	kx_dump__close(d);
	return as->err ? KT_EXIT_FAILURE : KT_EXIT_OK;
}

/* --- writing ------------------------------------------------------------ */

struct out {
	FILE *f;
	uint64_t h;
	size_t lines;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	fputs(buf, o->f);
	o->h = kx_profile_fnv1a(o->h, buf, (size_t)n);
	o->lines++;
}

static void put_entry(struct out *o, const struct kx_pentry *e)
{
	const char *name = e->key + 2, *tab = strchr(name, '\t');

	switch (e->key[0]) {
	case 's':
		if (e->present)
			put(o, "sym\t%s\t%016" PRIx64 "\t%c\n", name, e->v1,
			    e->reloc ? 'r' : 'a');
		else
			put(o, "nosym\t%s\n", name);
		break;
	case 'm':
		if (!tab)
			return;
		if (e->present)
			put(o, "member\t%s\t%" PRIu64 "\t%" PRIu64 "\n", name, e->v1,
			    e->v2);
		else
			put(o, "member\t%s\t-\n", name);
		break;
	case 'z':
		if (e->present)
			put(o, "size\t%s\t%" PRIu64 "\n", name, e->v1);
		else
			put(o, "size\t%s\t-\n", name);
		break;
	case 'e':
		/* absent upper-case enumerators are implied by "enumerators upper" */
		if (e->present)
			put(o, "enum\t%s\t%" PRId64 "\n", name, (int64_t)e->v1);
		else if (has_lower(name))
			put(o, "enum\t%s\t-\n", name);
		break;
	}
}

static int write_profile(const struct kx_profile_make_opts *o,
			 struct answers *as)
{
	struct kx_psource *src = as->src;
	struct out out = { .h = KX_FNV_INIT };
	char *tmp = NULL;
	time_t now = time(NULL);
	struct tm tm;
	size_t i, kept = 0;
	int ret = 0;

	/* sort by kind and name, keep the first answer of each question */
	if (as->n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(as->e, as->n, sizeof(*as->e), cmp_key);
	for (i = 0; i < as->n; i++) {
		if (kept && !strcmp(as->e[kept - 1].key, as->e[i].key)) {
			free(as->e[i].key);
			continue;
		}
		as->e[kept++] = as->e[i];
	}
	as->n = kept;

	if (asprintf(&tmp, "%s.tmp.%d", o->output, (int)getpid()) < 0)
		return -ENOMEM;
	out.f = fopen(tmp, "we");
	if (!out.f) {
		ret = -errno;
		fprintf(stderr, "ktrace-extract: cannot create %s: %s\n", tmp,
			strerror(errno));
		free(tmp);
		return ret;
	}
	gmtime_r(&now, &tm);
	put(&out, "ktrace-profile\t1\n");
	put(&out, "# ktrace layout profile: what libktrace needs to know about one "
		  "kernel build; made by ktrace-extract --make-profile\n");
	put(&out, "release\t%s\n", src->release);
	if (src->build_id[0])
		put(&out, "build-id\t%s\n", src->build_id);
	if (src->arch[0])
		put(&out, "arch\t%s\n", src->arch);
	put(&out, "source\t%s%s%s\n", src->source, o->vmcore ? ", recorded on " : "",
	    o->vmcore ? o->vmcore : "");
	put(&out, "created\t%04d-%02d-%02dT%02d:%02d:%02dZ\n", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	put(&out, "enumerators\tupper\n");
	/* symbols first, as an administrator reading it would look for them */
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 's')
			put_entry(&out, &as->e[i]);
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 'm' || as->e[i].key[0] == 'z')
			put_entry(&out, &as->e[i]);
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 'e')
			put_entry(&out, &as->e[i]);
	fprintf(out.f, "end\t%zu\t%016" PRIx64 "\n", out.lines, out.h);
	if (fflush(out.f) || ferror(out.f) || fsync(fileno(out.f)))
		ret = -EIO;
	if (fclose(out.f) && !ret)
		ret = -EIO;
	if (!ret && rename(tmp, o->output))
		ret = -errno;
	if (ret) {
		fprintf(stderr, "ktrace-extract: writing %s: %s\n", o->output,
			strerror(-ret));
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

int kx_profile__make(const struct kx_profile_make_opts *o)
{
	struct kx_psource src;
	struct answers as = { .src = &src };
	char msg[1024] = "";
	size_t i, nenum;
	int ret, status = KT_EXIT_FAILURE;

	if (o->vmlinux)
		ret = kx_psource__dwarf(&src, o->vmlinux, o->verbose, msg, sizeof(msg));
	else if (o->btf)
		ret = kx_psource__btf(&src, o->btf, o->system_map, o->release,
				      o->build_id, msg, sizeof(msg));
	else {
		fprintf(stderr, "ktrace-extract: --make-profile needs --vmlinux "
				"or --btf (with --system-map)\n");
		return KT_EXIT_USAGE;
	}
	if (ret) {
		fprintf(stderr, "ktrace-extract: %s\n",
			msg[0] ? msg : strerror(-ret));
		return ret == -ENOMEM ? KT_EXIT_FAILURE : KT_EXIT_DEBUGINFO;
	}
	for (i = 0; i < sizeof(questions) / sizeof(questions[0]); i++) {
		ret = ask(&as, questions[i].kind, questions[i].a, questions[i].b);
		if (ret)
			goto out;
	}
	nenum = as.n;
	ret = src.enumerators(src.priv, ask_enum, &as);
	if (ret) {
		fprintf(stderr, "ktrace-extract: %s: listing enumerators: %s\n",
			src.source, strerror(-ret));
		goto out;
	}
	nenum = as.n - nenum;
	if (o->vmcore) {
		if (!o->vmlinux) {
			fprintf(stderr, "ktrace-extract: recording on a dump needs "
					"--vmlinux\n");
			status = KT_EXIT_USAGE;
			goto out;
		}
		status = record(&as, o);
		if (status)
			goto out;
	}
	ret = write_profile(o, &as);
	if (ret)
		goto out;
	if (o->verbose)
		fprintf(stderr,
			"profile: %s: %s, build-id %s, %zu answers (%zu enumerators) "
			"from %s\n",
			o->output, src.release, src.build_id[0] ? src.build_id : "none",
			as.n, nenum, src.source);
	status = KT_EXIT_OK;
out:
	for (i = 0; i < as.n; i++)
		free(as.e[i].key);
	free(as.e);
	key_set_free(&as.asked);
	src.close(src.priv);
	return status;
}
