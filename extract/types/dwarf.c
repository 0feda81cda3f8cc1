// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Types of the crashed kernel, from the vmlinux DWARF through libdw.
 *
 * A distribution vmlinux carries 150+ MB of .debug_info in about 3,000
 * compilation units and no .debug_names index; indexing all of it costs
 * seconds. The types the tracing core needs are private to a few files
 * (struct ring_buffer_per_cpu to kernel/trace/ring_buffer.c, struct
 * trace_array to kernel/trace/trace.h), so we find the unit that defines
 * them from the address of a function defined in the same file, looked
 * up in .debug_aranges (dwarf-unit.c). Only that unit is read, through a
 * libdw handle of its own, and every named type and enumerator met at
 * its top is remembered, so the next question about the same file costs
 * a hash lookup.
 *
 * A type listed in anchor_groups[] is searched only in its anchors'
 * units: these are the files that define it, so not finding it there
 * means this kernel does not have it (e.g. struct ring_buffer after its
 * rename to struct trace_buffer in v5.6), and the core's presence probes
 * stay fast. A group without anchors holds the types of an out-of-tree
 * module, absent from any vmlinux. Any other name falls back to reading
 * every unit, once per session, reported as slow.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dwarf.h"
#include "dwarf-index.h"
#include "dwarf-unit.h"
#include "symbols.h"

/*
 * Functions defined in the file that defines a group of types. Several
 * per group because files moved: saved_cmdlines_buffer and
 * trace_find_cmdline() went from trace.c to trace_sched_switch.c in v6.8.
 */
struct anchor_group {
	const char *const *names;	/* types or enumerator prefixes */
	const char *const *anchors;	/* functions */
};

static const char *const rb_types[] = {
	"struct ring_buffer_per_cpu", "struct buffer_page",
	"struct buffer_data_page", "struct trace_buffer", "struct ring_buffer",
	"struct ring_buffer_event", "struct ring_buffer_iter",
	"struct rb_irq_work", "struct ring_buffer_meta",
	"struct buffer_data_read_page", "RB_", NULL,
};
static const char *const rb_anchors[] = {
	"ring_buffer_lock_reserve", "ring_buffer_record_on",
	"ring_buffer_event_data", NULL,
};

static const char *const tr_types[] = {
	"struct trace_array", "struct array_buffer", "struct trace_array_cpu",
	"struct saved_cmdlines_buffer", "struct trace_entry",
	"struct print_entry", "struct bprint_entry", "struct bputs_entry",
	"struct trace_iterator", "struct tracer", "struct trace_pid_list", "struct trace_seq",
	"struct trace_options", "struct trace_option_dentry",
	/* the persistent ring buffer's boot map (6.12+, trace.c) */
	"struct trace_scratch", "struct trace_mod_entry",
	"TRACE_FLAG_", "TRACE_ITER_", "TRACE_ARRAY_FL_", NULL,
};
static const char *const tr_anchors[] = {
	"trace_find_cmdline", "tracing_mark_write", "tracer_tracing_on",
	"trace_save_cmdline", "trace_array_get_by_name", NULL,
};

static const char *const ev_types[] = {
	"struct trace_event_call", "struct trace_event_class",
	"struct ftrace_event_field", "struct trace_event",
	"struct trace_event_file", "struct trace_subsystem_dir",
	"struct event_subsystem", "struct trace_event_functions",
	"TRACE_EVENT_FL_", "EVENT_FILE_FL_", "TRACE_EVENT_TYPE_", NULL,
};
static const char *const ev_anchors[] = {
	"trace_define_field", "trace_event_raw_init", "trace_add_event_call",
	"trace_event_reg", NULL,
};

static const char *const uts_types[] = {
	"struct uts_namespace", "struct new_utsname", NULL,
};
static const char *const uts_anchors[] = {
	"copy_utsname", "free_uts_ns", NULL,
};

/*
 * kernel/trace/trace_osnoise.c (5.14+, CONFIG_OSNOISE_TRACER: the rt
 * flavours; Debian's cloud kernels have none of it)
 */
static const char *const osn_types[] = { "struct osnoise_data", NULL };
static const char *const osn_anchors[] = {
	"osnoise_main", "osnoise_tracer_init", "osnoise_arch_register", NULL,
};

/* kernel/trace/trace_syscalls.c: the fields of the syscall enter events */
static const char *const sc_types[] = {
	"struct syscall_metadata", "struct syscall_trace_enter",
	"struct syscall_trace_exit", NULL,
};
static const char *const sc_anchors[] = {
	"syscall_enter_register", "ftrace_syscall_enter", "get_syscall_name", NULL,
};

/* kernel/trace/trace_printk.c: formats of modules' trace_printk() */
static const char *const pk_types[] = { "struct trace_bprintk_fmt", NULL };
static const char *const pk_anchors[] = {
	"module_trace_bprintk_format_notify", "__trace_bprintk", "trace_is_tracepoint_string",
	NULL,
};

/* include/linux/module.h, for the symbols of loaded modules */
static const char *const mod_types[] = { "struct module", "struct mod_kallsyms", NULL };
static const char *const mod_anchors[] = {
	"module_kallsyms_lookup_name", "module_address_lookup", "find_module", NULL,
};

/* kernel/printk/printk_ringbuffer.c (5.10+): the kernel log */
static const char *const prb_types[] = {
	"struct printk_ringbuffer", "struct prb_desc_ring", "struct prb_data_ring",
	"struct prb_desc", "struct prb_data_blk_lpos", "struct printk_info",
	"struct printk_record", "struct prb_reserved_entry", NULL,
};
static const char *const prb_anchors[] = {
	"prb_reserve", "prb_commit", "prb_read_valid", "prb_first_valid_seq", NULL,
};

/* kernel/relay.c: relay channels (struct rchan in include/linux/relay.h) */
static const char *const relay_types[] = { "struct rchan", "struct rchan_buf", NULL };
static const char *const relay_anchors[] = {
	"relay_open", "relay_switch_subbuf", "relay_flush", NULL,
};

/* kernel/trace/blktrace.c: struct blk_trace (include/linux/blktrace_api.h) */
static const char *const blk_types[] = { "struct blk_trace", "struct blk_io_trace", NULL };
static const char *const blk_anchors[] = {
	"blk_trace_setup", "blk_trace_ioctl", "blk_trace_remove", NULL,
};

/* kernel/trace/trace_eprobe.c (5.15+): an eprobe and the probe it holds */
static const char *const ep_types[] = {
	"struct trace_eprobe", "struct trace_probe", "struct trace_probe_event", NULL,
};
static const char *const ep_anchors[] = {
	"print_eprobe_event", "eprobe_register", "__trace_eprobe_create", NULL,
};

/*
 * kmod/ktrace-recorder (lib/krec/): the krec module is built out of tree,
 * so its types are never in a vmlinux; they come from its .ko
 * (--module-debuginfo, types/modules.c, which asks it first). No anchor:
 * absent at once, instead of a read of every unit of the vmlinux.
 */
static const char *const krec_types[] = {
	"struct krec_entry", "struct krec_record", NULL,
};
static const char *const no_anchors[] = { NULL };

static const struct anchor_group anchor_groups[] = {
	{ krec_types, no_anchors },
	{ ep_types, ep_anchors },
	{ relay_types, relay_anchors },
	{ blk_types, blk_anchors },
	{ prb_types, prb_anchors },
	{ sc_types, sc_anchors },
	{ osn_types, osn_anchors },
	{ mod_types, mod_anchors },
	{ pk_types, pk_anchors },
	{ rb_types, rb_anchors },
	{ tr_types, tr_anchors },
	{ ev_types, ev_anchors },
	{ uts_types, uts_anchors },
};

/* Units tried for common types (struct list_head, struct tracepoint) */
static const char *const any_anchors[] = {
	"ring_buffer_lock_reserve", "tracing_mark_write", "trace_define_field",
	"trace_find_cmdline", "start_kernel", NULL,
};

struct kx_types {
	struct kx_dunits *units;
	const struct kx_symtab *st;
	FILE *log;
	struct kx_dindex index;
	/* .debug_info offsets of the unit DIEs already indexed */
	uint64_t *cus;
	size_t ncus, cus_cap;
	int all_indexed;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cu_seen(const struct kx_types *t, uint64_t off)
{
	size_t i;

	for (i = 0; i < t->ncus; i++)
		if (t->cus[i] == off)
			return 1;
	return 0;
}

/* Index the named top-level types and all enumerators of @cudie, at @off. */
static int index_cu(struct kx_types *t, Dwarf_Die *cudie, uint64_t off)
{
	int ret;

	if (cu_seen(t, off))
		return 0;
	if (t->ncus == t->cus_cap) {
		size_t cap = t->cus_cap ? 2 * t->cus_cap : 16;
		uint64_t *cus = realloc(t->cus, cap * sizeof(*cus));

		if (!cus)
			return -ENOMEM;
		t->cus = cus;
		t->cus_cap = cap;
	}
	ret = kx_dindex__add_cu(&t->index, cudie);
	if (ret)
		return ret;
	t->cus[t->ncus++] = off;
	return 0;
}

/* Index the unit that defines function @anchor, if the kernel has it. */
static int index_anchor(struct kx_types *t, const char *anchor)
{
	Dwarf_Die cudie;
	uint64_t addr, off;
	double t0 = now_ms();
	int ret;

	if (kx_symtab__lookup(t->st, anchor, &addr, NULL))
		return 0;
	ret = kx_dunits__at_addr(t->units, addr, &cudie, &off);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	if (cu_seen(t, off))
		return 0;
	ret = index_cu(t, &cudie, off);
	if (!ret && t->log)
		fprintf(t->log, "types: read unit %s (anchor %s) in %.1f ms\n",
			dwarf_diename(&cudie) ?: "?", anchor, now_ms() - t0);
	return ret;
}

static int index_all(struct kx_types *t)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	double t0 = now_ms();
	Dwarf *dw;
	int ret;

	if (t->all_indexed)
		return 0;
	dw = kx_dunits__all(t->units);
	if (!dw)
		return -EIO;
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cudie;

		if (!cu_seen(t, off + hsize) && dwarf_offdie(dw, off + hsize, &cudie)) {
			ret = index_cu(t, &cudie, off + hsize);
			if (ret)
				return ret;
		}
		kx_dunits__release(t->units, off, next);
		off = next;
	}
	t->all_indexed = 1;
	if (t->log)
		fprintf(t->log, "types: slow path: read all %zu units in %.0f ms\n",
			t->ncus, now_ms() - t0);
	return 0;
}

/*
 * Every enumerator's name, once: reading all units indexes every
 * enumerator (the first definition of a name wins, as for a lookup), so
 * the names come from the index and not from a second walk of the DWARF
 * (a profile's enumerators: 6.1's 2,172 units are read once, not twice).
 */
int kx_types__enumerators(struct kx_types *t,
			  int (*cb)(void *arg, const char *name), void *arg)
{
	int ret = index_all(t);

	return ret ? ret : kx_dindex__each(&t->index, KX_DENUMERATOR, cb, arg);
}

static int name_in_group(const struct anchor_group *g, const char *name)
{
	const char *const *n;

	for (n = g->names; *n; n++) {
		size_t len = strlen(*n);

		/* entries ending in '_' are enumerator prefixes */
		if ((*n)[len - 1] == '_' ? !strncmp(name, *n, len)
					 : !strcmp(name, *n))
			return 1;
	}
	return 0;
}

/*
 * Find (@kind, @name): in the cache, then in the units of its group's
 * anchors (authoritative: absent there means absent), then for names
 * outside every group in the common units and at last in all units.
 */
static int lookup(struct kx_types *t, enum kx_dkind kind, const char *spelled,
		  const char *name, Dwarf_Die *die)
{
	const struct anchor_group *group = NULL;
	const char *const *a;
	double t0 = now_ms();
	size_t i;
	int ret;

	if (!kx_dindex__find(&t->index, kind, name, die))
		return 0;
	for (i = 0; i < sizeof(anchor_groups) / sizeof(anchor_groups[0]); i++)
		if (name_in_group(&anchor_groups[i], spelled))
			group = &anchor_groups[i];
	for (a = group ? group->anchors : any_anchors; *a; a++) {
		ret = index_anchor(t, *a);
		if (ret)
			return ret;
		if (!kx_dindex__find(&t->index, kind, name, die))
			goto found;
	}
	if (group)
		return -ENOENT;
	ret = index_all(t);
	if (ret)
		return ret;
	if (kx_dindex__find(&t->index, kind, name, die))
		return -ENOENT;
found:
	if (t->log)
		fprintf(t->log, "types: %s resolved in %.1f ms\n", spelled,
			now_ms() - t0);
	return 0;
}

/* "struct foo" -> (KX_DSTRUCT, "foo"); a bare name is a typedef or base type */
static int lookup_type(struct kx_types *t, const char *type, Dwarf_Die *die)
{
	static const struct {
		const char *prefix;
		enum kx_dkind kind;
	} kw[] = {
		{ "struct ", KX_DSTRUCT },
		{ "union ", KX_DUNION },
		{ "enum ", KX_DENUM },
	};
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t len = strlen(kw[i].prefix);

		if (!strncmp(type, kw[i].prefix, len)) {
			Dwarf_Die d;
			int ret = lookup(t, kw[i].kind, type, type + len, &d);

			if (!ret)
				*die = d;
			return ret;
		}
	}
	return lookup(t, KX_DTYPEDEF, type, type, die);
}

int kx_types__open(Elf *elf, int fd, const struct kx_symtab *st, FILE *log,
		   struct kx_types **out)
{
	struct kx_types *t;
	int ret;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->st = st;
	t->log = log;
	ret = kx_dunits__open(elf, fd, &t->units);
	if (ret)
		goto out;
	ret = kx_dindex__init(&t->index);
	if (ret)
		goto out;
	*out = t;
	t = NULL;
out:
	kx_types__close(t);
	return ret;
}

void kx_types__close(struct kx_types *t)
{
	if (!t)
		return;
	kx_dindex__fini(&t->index);
	kx_dunits__close(t->units);
	free(t->cus);
	free(t);
}

int kx_types__member(struct kx_types *t, const char *type,
		     const char *member, uint64_t *offset, uint64_t *size)
{
	Dwarf_Die die;
	int ret;

	ret = lookup_type(t, type, &die);
	if (ret)
		return ret;
	return kx_dwarf_member(&die, member, offset, size);
}

int kx_types__size(struct kx_types *t, const char *type, uint64_t *size)
{
	Dwarf_Die die;
	int ret;

	ret = lookup_type(t, type, &die);
	if (ret)
		return ret;
	return kx_dwarf_type_size(&die, size);
}

/*
 * DW_AT_const_value of an enumerator. GCC writes negative values as
 * DW_FORM_sdata and others in the smallest DW_FORM_dataN, which carries
 * no sign: FAULT_FLAG_REMOTE (1 << 7) is a data1 0x80, i.e. 128, which
 * dwarf_formsdata() would sign-extend to -128.
 */
static int enumerator_value(Dwarf_Die *die, int64_t *value)
{
	Dwarf_Attribute attr;
	Dwarf_Sword sval;
	Dwarf_Word uval;

	if (!dwarf_attr(die, DW_AT_const_value, &attr))
		return -EIO;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dwarf_formudata(&attr, &uval))
			return -EIO;
		*value = (int64_t)uval;
		return 0;
	default:
		if (dwarf_formsdata(&attr, &sval))
			return -EIO;
		*value = sval;
		return 0;
	}
}

/*
 * An enumerator as seen from the unit containing @addr (an unrelocated
 * vmlinux address): the cache, else that one unit. Never the slow path:
 * absent there means absent.
 */
int kx_types__enumerator_at(struct kx_types *t, const char *name, uint64_t addr,
			    int64_t *value)
{
	Dwarf_Die die, cudie;
	double t0 = now_ms();
	uint64_t off;
	int ret;

	if (!kx_dindex__find(&t->index, KX_DENUMERATOR, name, &die))
		return enumerator_value(&die, value);
	ret = kx_dunits__at_addr(t->units, addr, &cudie, &off);
	if (ret == -ENOENT || (!ret && cu_seen(t, off)))
		return -ENOENT;
	if (ret)
		return ret;
	ret = index_cu(t, &cudie, off);
	if (ret)
		return ret;
	if (t->log)
		fprintf(t->log, "types: read unit %s (for %s at 0x%llx) in %.1f ms\n",
			dwarf_diename(&cudie) ?: "?", name, (unsigned long long)addr,
			now_ms() - t0);
	if (kx_dindex__find(&t->index, KX_DENUMERATOR, name, &die))
		return -ENOENT;
	return enumerator_value(&die, value);
}

int kx_types__enumerator(struct kx_types *t, const char *name,
			 int64_t *value)
{
	Dwarf_Die die;
	int ret;

	ret = lookup(t, KX_DENUMERATOR, name, name, &die);
	if (ret)
		return ret;
	return enumerator_value(&die, value);
}
