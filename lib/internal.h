/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libktrace internals: the session, the layout table, reading helpers. */
#ifndef KTRACE_LIB_INTERNAL_H
#define KTRACE_LIB_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <ktrace/ktrace.h>

/* Upper bounds on numbers read from the dump (a dump is hostile). */
#define KT_MAX_CPUS		8192
#define KT_MAX_INSTANCES	1024
#define KT_MAX_EVENTS		65536
#define KT_MAX_FIELDS		256
#define KT_MAX_STR		4096
#define KT_MAX_PRINT_FMT	65536
#define KT_MAX_SUBBUF		(1u << 20)	/* 6.8+ allows orders up to ~1 MiB */
#define KT_MAX_PAGES_PER_CPU	(1u << 24)

/* ring buffer page-list flags in the low bits of list.next (ring_buffer.c) */
#define RB_PAGE_HEAD		1UL
#define RB_PAGE_UPDATE		2UL
#define RB_FLAG_MASK		3UL
/* flags in buffer_data_page.commit (ring_buffer.c, since 2.6.36) */
#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)
#define RB_MISSED_FLAGS		(RB_MISSED_EVENTS | RB_MISSED_STORED)
#define RB_WRITE_MASK		0xfffff

/* ring_buffer_event types */
#define RINGBUF_TYPE_DATA_TYPE_LEN_MAX	28
#define RINGBUF_TYPE_PADDING		29
#define RINGBUF_TYPE_TIME_EXTEND	30
#define RINGBUF_TYPE_TIME_STAMP		31
#define TS_SHIFT			27
#define TS_MSB				(0xf8ULL << 56)

/* A member of a kernel struct: offset/size, or absent. */
struct kt_member {
	bool present;
	uint32_t off;
	uint32_t size;
};

/*
 * Everything the core reads, resolved once at session start. Kernel
 * versions differ by which members exist; code branches on .present.
 */
struct kt_layout {
	/* 5.6 renamed struct ring_buffer to struct trace_buffer and the
	 * trace array's struct trace_buffer to struct array_buffer */
	const char *rb_type;		/* "struct trace_buffer" or "struct ring_buffer" */
	struct kt_member tr_array_buffer;	/* trace_array.array_buffer / .trace_buffer */
	struct kt_member ab_buffer;		/* array_buffer.buffer */
	struct kt_member tr_name, tr_list, tr_clock_id, tr_current_trace, tr_trace_flags;
	struct kt_member tracer_name, tracer_flags, tflags_val, tr_current_trace_flags;
	struct kt_member tevent_type;		/* trace_event.type (TRACE_BLK's id) */
	struct kt_member tr_max_buffer, tr_allocated_snapshot, tr_text_delta;
	/* the latency tracers' header (latency.c): array_buffer, trace_array_cpu */
	struct kt_member ab_data, ab_time_start, ab_cpu;
	struct kt_member tac_saved_latency, tac_critical_start, tac_critical_end, tac_comm,
		tac_pid, tac_uid, tac_nice, tac_policy, tac_rt_priority;
	struct kt_member tr_data_delta, tr_range_addr_start, tr_scratch;	/* 6.12 boot-mapped */
	struct kt_member tr_flags;	/* trace_array.flags: TRACE_ARRAY_FL_LAST_BOOT (6.15) */

	struct kt_member rb_cpus, rb_buffers, rb_clock, rb_subbuf_size, rb_subbuf_order;
	struct kt_member rb_time_stamp_abs;

	struct kt_member cpu_buffer;	/* ring_buffer_per_cpu.buffer: back to its ring */
	struct kt_member cpu_cpu, cpu_nr_pages, cpu_pages, cpu_head_page, cpu_tail_page,
		cpu_commit_page, cpu_reader_page, cpu_entries, cpu_overrun,
		cpu_commit_overrun, cpu_dropped_events, cpu_read, cpu_entries_bytes,
		cpu_lost_events;

	struct kt_member bp_list, bp_write, bp_read, bp_entries, bp_real_end, bp_page;
	struct kt_member dp_time_stamp, dp_commit, dp_data;

	struct kt_member lh_next, lh_prev;

	/* event table */
	struct kt_member call_list, call_class, call_name, call_tp, call_event_type,
		call_print_fmt, call_flags, call_event_funcs;
	/* dynamic events (probe.c): an eprobe's event, trace_probe.h/trace_eprobe.c */
	struct kt_member tpe_call, tpe_probes, tp_list, ep_tp, ep_event_system, ep_event_name;
	struct kt_member class_system, class_fields, class_get_fields, class_probe, call_data;
	struct kt_member field_link, field_name, field_type, field_offset, field_size,
		field_is_signed, field_len;
	struct kt_member tp_name;
	struct kt_member sm_enter_fields;	/* syscall enter events' fields */
	/* struct syscall_metadata: what print_syscall_enter()/_exit() print */
	struct kt_member sm_name, sm_syscall_nr, sm_nb_args, sm_types, sm_args, sm_user_mask;
	struct kt_member bpf_fmt;		/* trace_bprintk_fmt.fmt (modules) */

	/* symbols of loaded modules */
	struct kt_member mod_list, mod_name, mod_kallsyms, mks_symtab, mks_num, mks_strtab;

	/* saved cmdlines */
	struct kt_member sc_map_pid_to_cmdline, sc_map_cmdline_to_pid, sc_cmdline_num,
		sc_saved_cmdlines;

	/* trace_entry (common fields) */
	struct kt_member te_type, te_flags, te_preempt_count, te_pid, te_preempt_lazy_count;

	/*
	 * the kernel log: the lockless printk ring buffer of 5.10+
	 * (kernel/printk/printk_ringbuffer.h); absent before
	 */
	struct kt_member prb_desc_ring, prb_text_data_ring, prb_fail;
	struct kt_member pdr_count_bits, pdr_descs, pdr_infos, pdr_head_id, pdr_tail_id;
	struct kt_member pda_size_bits, pda_data, pda_head_lpos, pda_tail_lpos;
	struct kt_member pd_state_var, pd_text_begin, pd_text_next;
	struct kt_member pi_seq, pi_ts_nsec, pi_text_len, pi_facility, pi_flags, pi_level,
		pi_caller_id, pi_subsystem, pi_device;
	uint32_t prb_desc_size, printk_info_size;	/* 0: type unknown */
	struct kt_member seq_buffer;		/* trace_seq.buffer: a page, 8 KiB since 6.7 */

	uint32_t page_size;
	/*
	 * the kernel's byte order (KT_TARGET_BIG_ENDIAN: s390x): every word
	 * read from its memory or its records goes through kt_get16/32/64()
	 */
	bool be;
};

struct kt_dyn_arg;

struct kt_event {
	struct kt_session *s;
	int id;
	char *system;
	char *name;
	char *format;		/* as tracefs shows it */
	char *print_fmt;	/* as in the dump */
	char *resolved;		/* format with enumerators resolved (lazy) */
	bool tep_tried;
	/*
	 * the text the session's libtraceevent handle was given for this
	 * event (NULL: none), so that the handle of each worker thread
	 * (jobs.c) parses exactly the same, without the checks again
	 */
	char *tep_text;
	bool format_failed;
	/* its own printers, by its type (output.c, kt_output__register()); NULL: its print fmt */
	const struct kt_printer *printer;
	/* a synthesized event's field lines (ftrace's blk): no field list to read */
	const char *fields_text;
	uint64_t class;		/* struct trace_event_class * */
	uint64_t probe;		/* class->probe: code in the unit that defined the event */
	uint64_t call;	/* kernel address of the trace_event_call */
	/* a dynamic event (probe.c): its kind, and how its kernel printer prints it */
	int dyn;		/* enum kt_dyn_kind */
	char *dyn_base;		/* an eprobe's "system.event" */
	struct kt_dyn_arg *dyn_args;
	int nr_dyn_args;
	char *dyn_bad;		/* why its records cannot be printed (NULL: they can) */
	/* a syscall event: its struct syscall_metadata (probe.c) */
	char *sc_name;		/* "sys_write" */
	char **sc_args, **sc_types;
	int sc_nb_args, sc_nr;
	/* 6.19+: arguments whose user space data the record holds (bit i: args[i]) */
	bool sc_user;		/* the 6.19+ printer */
	bool sc_0x;		/* 6.18+: values under 10 in decimal, others "0x%lx" */
	unsigned sc_user_mask;
	int sc_user_arg_size;	/* the argument holding an array's length; < 0 or str: a string */
	bool sc_user_is_str;
	int sc_openat;		/* sys_openat's own form: flags from its print fmt */
	uint64_t sc_oflags[20];	/* O_TMPFILE, then the print fmt's { mask, name } in order */
	char *sc_oflag_names[20];
	uint64_t sc_ocreat;	/* O_CREAT's value in that fmt */
	int sc_nr_oflags;
	bool dyn_warned;
	bool guard_warned;	/* a record of it was not rendered (evalguard.c): said once */
	/*
	 * its print format compiled (fastfmt.c) on first use: 0 not yet,
	 * 1 @fast is it, -1 none (printed by libtraceevent)
	 */
	int fast_state;
	struct kt_fastfmt *fast;
};

/*
 * Dynamic events: their records are printed by a function of their own
 * (print_kprobe_event(), print_synth_event()...), not by their print fmt,
 * which the kernel synthesized for tracefs alone. The kind comes from
 * trace_event_call.event.funcs, the kernel's own table of printers.
 */
enum kt_dyn_kind {
	KT_DYN_NONE,
	KT_DYN_KPROBE,		/* kprobe_funcs */
	KT_DYN_KRETPROBE,	/* kretprobe_funcs */
	KT_DYN_UPROBE,		/* uprobe_funcs */
	KT_DYN_EPROBE,		/* eprobe_funcs (5.15+) */
	KT_DYN_FENTRY,		/* fentry_funcs (6.4+, fprobe events) */
	KT_DYN_FEXIT,		/* fexit_funcs */
	KT_DYN_SYNTH,		/* synth_event_funcs */
	KT_DYN_SYSCALL_ENTER,	/* enter_syscall_print_funcs (syscalls:sys_enter_*) */
	KT_DYN_SYSCALL_EXIT,	/* exit_syscall_print_funcs */
	KT_DYN_NR
};

struct kt_cpu {
	struct kt_cpu_info info;
	uint64_t cpu_buffer;	/* struct ring_buffer_per_cpu * */
	uint64_t reader_page, head_page, commit_page, tail_page, pages;
};

struct kt_record;
struct trace_seq;

/*
 * A ring that is not a trace array's (a recorder's, or any struct
 * trace_buffer named with --ring): its records are decoded by these.
 */
struct kt_ring_ops {
	const char *kind;	/* "krec", "raw" */
	/* the section of struct kt_losses its loss is in, an offsetof() (0: .ftrace) */
	size_t loss_section;
	/* one record as text, no newline; -ENOENT unknown id, -EBADMSG undecodable */
	int (*text)(struct kt_buffer *b, const struct kt_record *r, struct trace_seq *q);
	/* the members of a record's JSON object after cpu, ts and size */
	void (*json)(struct kt_buffer *b, const struct kt_record *r, FILE *out);
	void (*free)(void *priv);
	/*
	 * trace.dat (optional): the events/SYSTEM/NAME/format text of event
	 * @i (malloc'd; NULL past the last) with its id moved up by @id_base,
	 * so it cannot meet ftrace's ids in the file; and a record's id moved
	 * the same way in the copied page.
	 */
	const char *dat_system;
	char *(*dat_format)(struct kt_buffer *b, int i, int id_base);
	void (*dat_fix_record)(struct kt_buffer *b, uint8_t *rec, uint32_t size, int id_base);
};

/*
 * The trace options of one trace array (trace_array.trace_flags, bits
 * TRACE_ITER_*_BIT of kernel/trace/trace.h; options.c) that change what
 * its trace file prints. When trace_flags cannot be read: the defaults.
 */
struct kt_trace_opts {
	bool loaded;		/* kt_opts__load() ran */
	bool known;		/* read from the dump, not the defaults */
	bool irq_info, context_info, print_parent;	/* on by default */
	bool record_tgid, sym_offset, sym_addr, raw, hex, bin, sym_userobj;
	/* options that change the output in ways ktrace does not print */
	bool verbose, latency_fmt, printk_msgonly, fields;
	bool bitmask_list;	/* 7.x: bitmasks and cpumasks printed as lists ("0-3") */
	/* 6.12 boot-mapped, a previous boot's buffer: tr->text_delta or data_delta */
	bool last_boot;
	/* current_tracer: only nop and function print through print_trace_fmt() */
	char tracer[32];
	bool tracer_own_output;
	/* a latency tracer's trace file: this max buffer, latency-format (latency.c) */
	bool lat_view;
	uint64_t lat_time_start;
	bool warned_bin, warned_userobj, warned_blk, warned_args, warned_retaddr;
};

struct kt_buffer {
	struct kt_session *s;
	const struct kt_ring_ops *ops;	/* NULL: a trace array's buffer (ftrace) */
	void *priv;			/* the recorder's, for ops */
	int hash_ptr;		/* -1 unknown, 0 raw %px, 1 hashed */
	struct kt_trace_opts opts;
	char *name;
	bool global;
	bool snapshot;		/* tr->max_buffer (NAME.snapshot) */
	uint64_t tr;		/* struct trace_array *; 0 for a ring of ops */
	uint64_t rb;		/* the ring buffer */
	int nr_cpus;
	uint32_t subbuf_size;	/* bytes, header included */
	char clock[32];
	struct kt_cpu *cpus;
	struct kt_loss loss;
	struct kt_loss open_loss;	/* what the session open counted */
};

struct kt_kallsyms;
struct kt_modsyms;
struct kt_cmdlines;

struct kt_enum_cache {
	char **names;
	int64_t *values;
	size_t n, cap;
};

/*
 * A recorder besides ftrace's trace arrays that a session finds on first
 * use (recorder.c): its ops, in recorder.c's table by id, and per
 * session a slot keeping what was found, or why nothing could be, said
 * again on every later ask. Adding one: a folder under lib/ with its find
 * and free, an id here, a line in recorder.c.
 */
enum kt_recorder_id {
	KT_REC_PRINTK,		/* the kernel log (printk/) */
	KT_REC_RELAY,		/* relay channels (relay/) */
	KT_REC_LTTNG,		/* LTTng's kernel sessions (lttng/) */
	KT_REC_NR
};

struct kt_recorder_ops {
	/*
	 * find: 0 and *@state, or a negative errno with kt_err() said; a
	 * *@state set on failure is kept (and freed with the session)
	 */
	int (*find)(struct kt_session *s, void **state);
	void (*free)(void *state);
	/* add what it counted so far to its section of the account (NULL: none) */
	void (*loss)(const void *state, struct kt_losses *l);
};

struct kt_recorder_slot {
	void *state;
	bool tried;
	int err;		/* the find's, negative */
	char errmsg[256];
};

/* the state of recorder @id, found on the first call: NULL with kt_err() said */
void *kt_recorder__get(struct kt_session *s, enum kt_recorder_id id);
/* what was found, without finding: NULL when not asked yet or not found */
void *kt_recorder__peek(const struct kt_session *s, enum kt_recorder_id id);
void kt_recorder__free_all(struct kt_session *s);
/* the negative errno of recorder @id's find (0: found, or not asked yet) */
int kt_recorder__err(const struct kt_session *s, enum kt_recorder_id id);
/* every recorder found so far adds its counts to @l (its ops' loss) */
void kt_recorder__add_losses(const struct kt_session *s, struct kt_losses *l);
/*
 * account.c: what @b's read since @m lost, as if it were its first, the
 * session's address counts since @m as its own: a buffer's text trailer,
 * JSON's buffer_end
 */
void kt_loss_mark__buffer(const struct kt_session *s, const struct kt_loss_mark *m,
			  const struct kt_buffer *b, struct kt_loss *l);
extern const struct kt_recorder_ops kt_printk_recorder, kt_relay_recorder, kt_lttng_recorder;

/*
 * What rendering records into text keeps between records (ftrace/render.c),
 * passed to every printer as the kernel passes its struct trace_iterator:
 * the session has one for the thread that renders without workers, and each
 * worker thread of jobs.c one of its own, so that neither another session
 * nor another worker shares a libtraceevent handle or a cache.
 */
struct tep_handle;
struct tep_event;
struct tep_format_field;
struct kt_render {
	struct kt_session *s;
	struct tep_handle *tep;		/* one per context: libtraceevent caches in it */
	bool worker;			/* a worker's: parses the text the session's parsed */
	bool printk;			/* trace_printk formats registered in @tep */
	uint8_t *tried;			/* a worker's: event ids parsed (or tried) */
	struct kt_buffer *b;		/* the buffer being rendered, for %p and %pS */
	bool div_zero;			/* __kt_nz() met a zero (evalguard.c) */
	/*
	 * the function event's ip, parent_ip and args fields, for the event
	 * last met (output.c): its records are most of a trace; freed with
	 * @tep, whose memory a new handle may reuse
	 */
	struct kt_function_fields {
		struct tep_event *ev;
		struct tep_format_field *ip, *parent_ip, *args;
	} fn;
};

struct kt_session {
	struct kt_target t;
	FILE *log;
	struct kt_layout l;
	int nr_cpu_ids;
	int panic_cpu;			/* -1: none recorded (panic.c) */
	const char *panic_cpu_source;	/* the symbol it came from */
	char *release, *build_id;	/* from VMCOREINFO (ident.c) */
	uint32_t vmci_page_size;	/* VMCOREINFO PAGESIZE, 0: not said */
	char ident_err[160];		/* why there is no VMCOREINFO, not yet said */
	char *ftrace_err;		/* kt_open_opts.ftrace_optional: why no buffers */
	bool ident_tried;
	struct kt_pagecache *pagecache;	/* NULL: ring pages are read each time */
	struct kt_rcache *rcache;	/* small reads, a page at a time (read.c) */
	uint64_t cache_hits, cache_misses;	/* of caches since freed */

	struct kt_buffer **buffers;
	int nr_buffers;

	struct kt_event *events;	/* sorted by id */
	uint64_t dyn_funcs[KT_DYN_NR];	/* &kprobe_funcs... (probe.c) */
	/* seq_print_sym()'s kretprobed(): the trampoline's address, or by name (5.10) */
	uint64_t kretprobe_tramp;
	bool kretprobe_by_name;
	uint64_t common_head;		/* ftrace_common_fields */
	char *common_fields;		/* its format lines, read once */
	int blk_type;			/* TRACE_BLK (blk.c), 0: not in this kernel */
	uint32_t blk_flags;		/* blk_tracer_flags.val: blk_classic, blk_cgname */
	bool blk_v2;			/* 6.19+: TRACE_BLK is a struct blk_io_trace2 */
	int nr_events;
	char *header_page, *header_event;

	struct kt_cmdlines *cmdlines;
	struct kt_kallsyms *kallsyms;
	bool kallsyms_tried;
	struct kt_kallsyms *(*kallsyms_else)(void *ctx, const char *why);
	void *kallsyms_else_ctx;
	uint64_t addrs_unnamed;		/* kt_symbol_lookup()s no table could answer */
	uint64_t addrs_substituted;	/* ... answered by the kallsyms_else table */
	uint64_t buffers_unread;	/* instances the list walk could not read or reach */
	char **unread_names;		/* ... of those, the ones whose name was read */
	unsigned int nr_unread_names;
	uint64_t events_unread;		/* event table entries not read, or the list cut */
	bool kallsyms_substitute;	/* s->kallsyms came from kallsyms_else */
	bool kallsyms_borrowed;	/* kt_open_opts.kallsyms: the caller frees it */
	/*
	 * kt_session__track_used(): bit i of sym_used is set once a lookup
	 * answered with kallsyms entry i (in address order), bit id of
	 * type_used once a read met an event of that id; set by any thread
	 */
	uint64_t *sym_used, *type_used;
	struct kt_modsyms *modsyms;
	bool modsyms_tried;
	char **printk_fmts;
	uint64_t *printk_addrs;
	int nr_printk;
	bool printk_tried;
	/* the recorders found on first use (recorder.c): the kernel log, relay, LTTng */
	struct kt_recorder_slot rec[KT_REC_NR];
	/* the kernel's BTF, for function arguments (btf.c), read on first use */
	struct kt_btf *btf;
	bool btf_tried;

	/* rendering on the session's own thread (render.c; workers have their own) */
	struct kt_render render;
	/*
	 * Worker threads render (jobs.c): while @mt is set, reading the
	 * target, libtraceevent's parser (it keeps its input in globals) and
	 * the lazy loads go under @mt_lock (recursive: a load reads memory).
	 */
	bool mt;
	pthread_mutex_t mt_lock;
	struct kt_prefetch *prefetch;	/* sub-buffers read ahead (prefetch.c) */
	struct kt_enum_cache enums;
	/* %p as the kernel printed it: hashed with ptr_key, or raw */
	bool ptr_key_ok;
	uint64_t ptr_key[2];
	bool no_hash_pointers;
	/* record-tgid: the pid -> tgid map (tgid_map, tgid_map_max) */
	bool tgid_tried;
	uint64_t tgid_map, tgid_map_max;

	/* enum-derived values (TRACE_FLAG_*) */
	struct {
		int irqs_off, bh_off, irqs_nosupport, need_resched, hardirq, softirq,
			preempt_resched, nmi, need_resched_lazy;
		bool migrate_col;	/* 5.13+: the migrate-disable column */
		bool preempt_rt;	/* CONFIG_PREEMPT_RT (osnoise's headers) */
		int pid_width;		/* %-5d before 5.14, %-7d after */
	} fl;
};

/* function arguments by the kernel's BTF (btf.c) */
struct trace_seq;
/*
 * print_function_args(): "(name=value, ...)" of the function at @func
 * from its @nargs argument registers at @args (FTRACE_REGS_MAX_ARGS of
 * them, little-endian longs). -EOPNOTSUPP, with nothing added to @q, when
 * the kernel's print cannot be told: the caller counts the record.
 */
int kt_btf__func_args(struct kt_session *s, uint64_t func, const uint8_t *args, uint32_t nargs,
		      struct trace_seq *q);
void kt_btf__free(struct kt_session *s);
/* the parts, for tests: a BTF blob (taken, freed on failure) and a function's print by name */
struct kt_btf;
int kt_btf__parse(uint8_t *data, size_t size, struct kt_btf **out);
int kt_btf__print(const struct kt_btf *b, const char *name, bool in_module, const uint8_t *args,
		  uint32_t nargs, struct trace_seq *q);
void kt_btf__destroy(struct kt_btf *b);

/* errors (error.c) */
int kt_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kt_warn(struct kt_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a caller's options struct checked and copied, libbpf's way (error.c) */
int kt_opts__copy(void *dst, size_t dst_sz, const void *src, const char *what);
/* this thread's warnings dropped (a read-ahead walk's: prefetch.c) */
void kt_warn_mute(bool mute);

static inline void kt_lock(struct kt_session *s)
{
	if (s->mt)
		pthread_mutex_lock(&s->mt_lock);
}

static inline void kt_unlock(struct kt_session *s)
{
	if (s->mt)
		pthread_mutex_unlock(&s->mt_lock);
}

/* the comm of @pid into @buf (KT_COMM_BUF bytes), for threads (cmdlines.c) */
#define KT_COMM_BUF 17
const char *kt_session__comm_r(struct kt_session *s, int pid, char *buf);

/* target access (read.c) */
int kt_read(struct kt_session *s, uint64_t addr, void *buf, size_t len);
void kt_rcache__free(struct kt_session *s);
int kt_read_u64(struct kt_session *s, uint64_t addr, uint64_t *v);
int kt_read_u32(struct kt_session *s, uint64_t addr, uint32_t *v);
/* read an integer member of @m.size bytes (1, 2, 4 or 8) at @base */
int kt_read_member(struct kt_session *s, uint64_t base, const struct kt_member *m, uint64_t *v);
/* read a NUL-terminated string of at most @max bytes; caller frees */
int kt_read_string(struct kt_session *s, uint64_t addr, size_t max, char **out);
int kt_symbol(struct kt_session *s, const char *name, uint64_t *addr);
/* probe.c: which events are dynamic, and how the kernel prints them */
void kt_probe__init(struct kt_session *s);
void kt_probe__classify(struct kt_session *s, struct kt_event *e);
void kt_probe__free(struct kt_event *e);
/* a ring-buffer sub-buffer, through the page cache when one is on (pagecache.c) */
int kt_read_page(struct kt_session *s, uint64_t addr, void *buf, uint32_t len);
/* a sub-buffer of CPU @cpu of @b, read ahead when it was (prefetch.c) */
int kt_prefetch__read(struct kt_session *s, struct kt_buffer *b, int cpu, uint64_t addr,
		      void *buf, uint32_t len);
void kt_pagecache__free(struct kt_session *s);

/*
 * A word of the crashed kernel, in its byte order (@be: big-endian, its
 * kt_layout.be): every multi-byte value read from its memory, its ring
 * buffer pages and its records. kt_le64/kt_le32 below are for what is
 * little-endian whatever the kernel (our own formats).
 */
static inline uint16_t kt_get16(bool be, const void *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, 2);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return be ? v : __builtin_bswap16(v);
#else
	return be ? __builtin_bswap16(v) : v;
#endif
}

static inline uint32_t kt_get32(bool be, const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return be ? v : __builtin_bswap32(v);
#else
	return be ? __builtin_bswap32(v) : v;
#endif
}

static inline uint64_t kt_get64(bool be, const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return be ? v : __builtin_bswap64(v);
#else
	return be ? __builtin_bswap64(v) : v;
#endif
}

/* an unsigned field of 1, 2, 4 or 8 bytes (any other size: 8) */
static inline uint64_t kt_getn(bool be, const void *p, unsigned int size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return kt_get16(be, p);
	case 4: return kt_get32(be, p);
	default: return kt_get64(be, p);
	}
}

/* kt_getn()'s inverse: @v as a field of @size (1 to 8) bytes at @p, in the kernel's order */
static inline void kt_putn(bool be, void *p, uint64_t v, unsigned int size)
{
	uint8_t *d = p;
	unsigned int i;

	for (i = 0; i < size; i++)
		d[be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* @n words of @size (2, 4, 8) bytes at @p, read from the kernel, to the host's order */
void kt_order(bool be, void *p, size_t n, unsigned int size);

/*
 * A ring buffer event's header word (struct ring_buffer_event: u32
 * type_len:5, time_delta:27) as a little-endian kernel lays it out, type_len
 * in bits 0-4: a big-endian compiler gives the first bit-field the high
 * bits (type_len in 27-31), as libtraceevent's kbuffer reads it too.
 */
static inline uint32_t kt_rb_hdr(bool be, const void *p)
{
	uint32_t h = kt_get32(be, p);

	return be ? h >> 27 | h << 5 : h;
}

static inline uint64_t kt_le64(const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return v;
}

static inline uint32_t kt_le32(const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return v;
}

/*
 * seen.c: nodes a list walk has visited. kt_seen__add() gives 1 if @addr
 * was added before (the list loops), 0 if added now, -ENOMEM.
 */
struct kt_seen {
	uint64_t *slots;
	size_t cap, n;
};
int kt_seen__add(struct kt_seen *set, uint64_t addr);
/* room for @n nodes (at most KT_SEEN_RESERVE_MAX): 0, -ENOMEM */
#define KT_SEEN_RESERVE_MAX	(1u << 20)
int kt_seen__reserve(struct kt_seen *set, size_t n);
void kt_seen__free(struct kt_seen *set);

/* layout.c */
int kt_layout__probe(struct kt_session *s);
/* session.c: the TRACE_FLAG_* values and the columns they decide */
void kt_session__probe_flags(struct kt_session *s);
/*
 * questions.c: ask @target every question of types and symbols lib/ may
 * ask, with no dump behind it (reads fail); the target keeps the answers.
 * extract/'s profile maker records them. 0 or -ENOMEM/-EINVAL.
 */
int kt_session__ask_layouts(const struct kt_target *target);
/* @type's @member through the target: 0 and .present, or -errno and absent */
int kt_member__probe(struct kt_session *s, const char *type, const char *member,
		     struct kt_member *m);

/* buffers.c */
int kt_buffers__load(struct kt_session *s);
int kt_buffers__nr_cpu_ids(struct kt_session *s);
/* a struct trace_buffer at @rb as buffer @name (the ring only: no trace array) */
struct kt_buffer *kt_ring__load(struct kt_session *s, const char *name, uint64_t rb);
/* 1 if @rb is a ring buffer: each per-CPU buffer points back at it; 0 if not */
int kt_ring__check(struct kt_session *s, uint64_t rb);
int kt_session__add_buffer(struct kt_session *s, struct kt_buffer *b);
/* ring.c: raw records (no event table) */
extern const struct kt_ring_ops kt_raw_ops;
void kt_raw__json(const struct kt_record *r, FILE *out);
/* krec/find.c: the ktrace recorder (kmod/ktrace-recorder), if loaded */
int kt_krec__load(struct kt_session *s);
void kt_panic__load(struct kt_session *s);
void kt_ident__free(struct kt_session *s);
/* the kernel's PAGE_SIZE as its VMCOREINFO says (PAGESIZE=); 0: not said */
uint32_t kt_ident__page_size(struct kt_session *s);
/* the release's version ("6.18.15+deb13-..." is 6, 18); -ENOENT: not known */
int kt_ident__version(struct kt_session *s, unsigned int *major, unsigned int *minor);
void kt_buffer__free(struct kt_buffer *b);
/*
 * bootmap.c: whether @b's trace array still holds the previous boot's
 * data (6.13+: tr->flags & TRACE_ARRAY_FL_LAST_BOOT): 1 set, 0 clear,
 * -EOPNOTSUPP for a kernel with neither, another -errno when unread
 */
int kt_bootmap__last_boot(struct kt_session *s, const struct kt_buffer *b);

/* events.c */
int kt_events__load(struct kt_session *s);
/* each event its own printers, if it has any (output.c) */
void kt_output__register(struct kt_session *s);
void kt_events__free(struct kt_session *s);

/* cmdlines.c, kallsyms.c, trace_printk.c */
void kt_cmdlines__free(struct kt_cmdlines *c);
void kt_modsyms__free(struct kt_modsyms *m);
/* a loaded module's symbol containing @addr (modsyms.c) */
const char *kt_modsyms__lookup(struct kt_session *s, uint64_t addr, uint64_t *start,
			       uint64_t *size, const char **module);
/* the address and size of symbol @name of module @module (NULL: any module) */
int kt_modsyms__find(struct kt_session *s, const char *module, const char *name,
		     uint64_t *addr, uint64_t *size);
/* the symbol holding @addr: start, size, module name or NULL (kallsyms.c) */
const char *kt_symbol_lookup(struct kt_session *s, uint64_t addr, uint64_t *start,
			     uint64_t *size, const char **module);
void kt_trace_printk__free(struct kt_session *s);
/* the kallsyms entries a trace.dat needs for what was looked up; -1: all */
long kt_kallsyms__needed_list(struct kt_session *s, uint32_t **out);
/* mark what looks like a vmlinux address in a record as looked up */
void kt_kallsyms__mark_record(struct kt_session *s, const uint8_t *data, uint32_t size);
static inline void kt_used__mark(uint64_t *bits, uint32_t i)
{
	uint64_t bit = 1ull << (i % 64);

	if (!(__atomic_load_n(&bits[i / 64], __ATOMIC_RELAXED) & bit))
		__atomic_fetch_or(&bits[i / 64], bit, __ATOMIC_RELAXED);
}
/* printk/: the kernel log */
void kt_log__free(struct kt_log *log);
/* relay/: the relay channels */
struct kt_relay;
void kt_relay__free(struct kt_relay *r);
/*
 * loss.c: the loss account. Adding one recorder's counts to another's,
 * the "kernel log records: ..." line of kt_loss__print(), the log's
 * counts as members of its JSON header (",\"records\":N,...")
 */
void kt_loss__add(struct kt_loss *to, const struct kt_loss *from);
void kt_relay_loss__add(struct kt_relay_loss *to, const struct kt_relay_loss *from);
void kt_lttng_loss__add(struct kt_lttng_loss *to, const struct kt_lttng_loss *from);
void kt_loss__print_log(const struct kt_loss *l, FILE *out, const char *prefix);
void kt_loss__json_log(const struct kt_loss *l, FILE *out);
/* json.c: @p (at most @max bytes, up to a NUL) as a JSON string */
void kt_json__str(FILE *out, const char *p, size_t max);

/* the buffer_page whose list a list_head pointer is at (RB_PAGE_* flags dropped) */
static inline uint64_t kt_bpage__from_list(const struct kt_layout *l, uint64_t list)
{
	return (list & ~RB_FLAG_MASK) - l->bp_list.off;
}

/* buffer_page.list.next of @bpage, with its flags */
static inline int kt_bpage__next(struct kt_session *s, uint64_t bpage, uint64_t *raw)
{
	return kt_read_u64(s, bpage + s->l.bp_list.off + s->l.lh_next.off, raw);
}

/*
 * pagelist.c: walk @c's ring once from cpu_buffer->pages and return its
 * head page (the flagged one; cpu_buffer->head_page when none is), each
 * broken rule of the list counted in @b's loss and said
 */
uint64_t kt_page_list__head(struct kt_buffer *b, struct kt_cpu *c);

/* page.c: validate and walk one sub-buffer */
struct kt_page_cursor {
	const uint8_t *data;	/* start of the data area */
	uint32_t len;		/* committed bytes (flags stripped, validated) */
	uint32_t pos;
	uint64_t ts;		/* running time stamp */
	uint64_t page_ts;
	bool missed;		/* RB_MISSED_EVENTS */
	bool missed_stored;
	uint64_t missed_count;
	uint32_t discard;	/* first padding with a time delta; len: none */
	bool be;		/* the kernel's byte order (kt_layout.be) */
};

/*
 * Validate the sub-buffer at @page (@subbuf_size bytes, header included)
 * and set up @c to walk it. Returns 0, or why the page cannot be
 * trusted: -EBADMSG (commit past the end, an event longer than the data
 * left), -EPROTO (a null padding before the commit end), -ENOMSG
 * (committed data of nothing but time stamps); kt_page__why() names it.
 */
int kt_page__load(struct kt_page_cursor *c, const struct kt_layout *l,
		  const uint8_t *page, uint32_t subbuf_size, uint32_t start);
const char *kt_page__why(int err);
/*
 * The validation kt_page__load() does, of @n pages at once (faster than
 * one at a time); then kt_page__load_checked() with the page's result
 * loads it as kt_page__load() would.
 */
struct kt_page_check {
	int ret;		/* 0, or kt_page__load()'s error */
	uint32_t discard;	/* struct kt_page_cursor's */
};
void kt_page__check(const struct kt_layout *l, const uint8_t *const *pages, unsigned int n,
		    uint32_t subbuf_size, struct kt_page_check *chk);
int kt_page__load_checked(struct kt_page_cursor *c, const struct kt_layout *l,
			  const uint8_t *page, uint32_t subbuf_size, uint32_t start,
			  const struct kt_page_check *chk);
/*
 * Next data record: 1 with data, size and ts set, 0 at the end of the
 * committed data, -EBADMSG if an event header or length is impossible.
 */
int kt_page__next(struct kt_page_cursor *c, const uint8_t **data, uint32_t *size,
		  uint64_t *ts);

/* options.c: the trace options of @b, read once */
const struct kt_trace_opts *kt_opts__load(struct kt_session *s, struct kt_buffer *b);
/*
 * The current tracer's own options (funcgraph-*, display-graph) of trace
 * array @tr: tr->current_trace_flags->val (6.19+: per instance), before
 * that tr->current_trace->flags->val. 0, or -ENOENT when not in the dump.
 */
int kt_opts__tracer_flags(struct kt_session *s, uint64_t tr, uint64_t *val);
/* trace_find_tgid(): 0 when unknown */
int kt_opts__tgid(struct kt_session *s, int pid);
void kt_opts__header(struct kt_session *s, struct kt_buffer *b, FILE *out);
/* latency.c: the latency tracers' trace file */
bool kt_latency__view(struct kt_session *s, struct kt_buffer *b, const struct kt_trace_opts *o,
		      uint64_t *time_start);
void kt_latency__header(struct kt_session *s, struct kt_buffer *b, const struct kt_trace_opts *o,
			int online, FILE *out);
bool kt_latency__skip(const struct kt_trace_opts *o, const struct kt_record *r, uint64_t *done);
int kt_latency__skipped(struct kt_buffer *b, const struct kt_trace_opts *o, uint64_t *skip);
void kt_latency__context(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
			 uint64_t time_start, uint64_t next_ts, struct trace_seq *q);
/* output.c: trace_print_lat_fmt()'s columns of @r */
void kt_output__lat_columns(struct kt_session *s, const struct kt_record *r, struct trace_seq *q);
/*
 * print_trace_line()'s loss line before @r, when the ring lost events
 * before it: "CPU:N [LOST M EVENTS]", or "CPU:N [LOST EVENTS]" when how
 * many is not known; nothing otherwise. Every sink's one place for it.
 */
void kt_output__lost(const struct kt_record *r, struct trace_seq *q);
/* the same in JSON: the "lost_before" of @r, -1 when how many is not known */
static inline long long kt_record__lost_before(const struct kt_record *r)
{
	return r->missed_unknown ? -1LL : (long long)r->missed;
}

/* iter.c: the next record of the CPU of the record returned last */
int kt_iter__peek_cpu(struct kt_iter *it, struct kt_record *rec);
void kt_iter__take_peeked(struct kt_iter *it);
/* the options kt_iter__new() copied and checked */
const struct kt_iter_opts *kt_iter__opts(const struct kt_iter *it);

/* blk.c: ftrace's blk tracer, its TRACE_BLK records and its trace file */
struct trace_seq;
int kt_blk__add_event(struct kt_session *s);
bool kt_blk__tracer(struct kt_session *s, struct kt_buffer *b);
bool kt_blk__classic(struct kt_session *s, struct kt_buffer *b);
void kt_blk__header(struct kt_session *s, struct kt_buffer *b, FILE *out);
void kt_blk__print(struct kt_session *s, struct kt_buffer *b, const void *data, uint32_t size,
		   int cpu, uint64_t ts, bool classic, struct trace_seq *q);

/* fgraph.c: the function_graph tracer's trace file */
struct kt_fgraph;
struct trace_seq;
struct kt_fgraph *kt_fgraph__new(struct kt_render *rc, struct kt_buffer *b);
void kt_fgraph__free(struct kt_fgraph *g);
bool kt_fgraph__usable(struct kt_fgraph *g);
void kt_fgraph__header(struct kt_fgraph *g, FILE *out);
bool kt_fgraph__record(struct kt_fgraph *g, struct kt_iter *it, const struct kt_record *r,
		       struct trace_seq *q);

/*
 * kallsyms.c: kt_session__kallsym(), but a name not expanded yet is
 * expanded into @buf (@len bytes) and not kept: a walk over every entry
 * (trace.dat's kallsyms) does not keep ~100,000 names in memory.
 */
int kt_kallsyms__entry(struct kt_session *s, int idx, uint64_t *addr, char *type,
		       const char **name, char *buf, size_t len);

/* pages.c */
int kt_page_iter__next_cursor(struct kt_page_iter *it, struct kt_page_cursor *cur);
/*
 * Read the ring's sub-buffers ahead, up to @bytes at a time, with the
 * target's read_blocks() (when it has one): for a caller that reads a
 * whole CPU's pages in order (trace.dat). With @readers (readers.c), a
 * few such windows are read and checked on their threads while the
 * caller takes the pages of the one before. 0, or -ENOMEM.
 */
struct kt_readers;
int kt_page_iter__set_readahead(struct kt_page_iter *it, uint32_t bytes,
				struct kt_readers *readers);
uint64_t kt_page_iter__bpage(const struct kt_page_iter *it);
/*
 * The sub-buffer of the cursor just returned, when it lies in a window of
 * the read-ahead: the caller may change it in place and keep using it
 * until @fn (kt_page_iter__on_release()) is called, which is before the
 * window is read over or freed. NULL: the page is the iterator's own and
 * good until the next call.
 */
uint8_t *kt_page_iter__window_page(struct kt_page_iter *it);
void kt_page_iter__on_release(struct kt_page_iter *it, void (*fn)(void *ctx), void *ctx);

/*
 * readers.c: threads that read windows of sub-buffers with the target's
 * read_blocks() and check their pages (kt_page__check()), for the
 * read-ahead of kt_page_iter__set_readahead(). NULL from new() when the
 * target does not allow it (KT_TARGET_BLOCKS_MT) or no thread started.
 */
enum { KT_JOB_IDLE, KT_JOB_QUEUED, KT_JOB_DONE };
struct kt_read_job {
	const uint64_t *addr;	/* n blocks of len bytes */
	unsigned int n;
	size_t len;
	uint8_t *buf;		/* n * len */
	unsigned char *ok;	/* read_blocks()'s */
	const uint8_t **pages;
	struct kt_page_check *chk;
	int err;		/* read_blocks()'s return */
	int state;		/* KT_JOB_*, under the readers' lock */
	struct kt_read_job *next;
};
struct kt_readers;
struct kt_readers *kt_readers__new(struct kt_session *s, int nr);
void kt_readers__free(struct kt_readers *r);
int kt_readers__nr(const struct kt_readers *r);
/* @r NULL: done on the calling thread before it returns */
void kt_readers__submit(struct kt_readers *r, struct kt_session *s, struct kt_read_job *j);
void kt_readers__wait(struct kt_readers *r, struct kt_read_job *j);

#endif /* KTRACE_LIB_INTERNAL_H */
