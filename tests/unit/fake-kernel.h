/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small fake kernel for unit tests of libktrace: a struct kt_target that
 * serves memory from a sparse map of regions the test fills, member
 * offsets from a table of made-up struct layouts, symbols from a table.
 *
 * Layouts are 64-bit, little-endian, shaped like 5.6+ (trace_array has
 * array_buffer, the ring buffer is struct trace_buffer), sub-buffers of
 * one 4 KiB page. Helpers build trace arrays, per-CPU rings and events so
 * that a test states its scenario in a few lines:
 *
 *	struct fk_ring *r = fk_ring_new(k, b, 0, 4);	// cpu0: 4 ring pages
 *	fk_ring_set(r, 2, 1);				// head at 2, commit at 1
 *	pb = fk_page(r, 2, 1000);			// page 2, time stamp 1000
 *	fk_ev(pb, 10, 1, 42);				// +10 ns, event id 1, seq 42
 *
 * Header-only: included by the unit programs and the fuzzers.
 */
#ifndef KTRACE_TESTS_FAKE_KERNEL_H
#define KTRACE_TESTS_FAKE_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ktrace/ktrace.h>

#define FK_UNUSED __attribute__((unused))
#define FK_PAGE 4096u
#define FK_DATA_OFF 16u		/* buffer_data_page.data */
#define FK_MAX_REGIONS 4096
#define FK_MAX_RING 640	/* pages of a ring */

/* ----- fake struct layouts ----- */

struct fk_member {
	const char *type, *member;
	uint32_t off, size;
};

/* list_head */
#define LH_NEXT 0
#define LH_PREV 8
/* trace_array */
#define TR_LIST 0
#define TR_NAME 16
#define TR_ARRAY_BUFFER 32	/* array_buffer.buffer at +8 */
#define TR_CURRENT_TRACE 88	/* struct tracer *: fk_tracer() */
/* opt-in (fk_kernel.maxbuf: fk_maxbuf()): a max buffer, allocated_snapshot, trace_flags */
#define TR_MAX_BUFFER 96	/* struct array_buffer: buffer +8, data +16, time_start +24, cpu +32 */
#define TR_ALLOCATED_SNAPSHOT 136
#define TR_TRACE_FLAGS 140
#define TR_SIZE 160
/* trace_buffer (the ring buffer) */
#define RB_BUFFERS 0
#define RB_CLOCK 8
#define RB_SIZE 64
/* ring_buffer_per_cpu */
#define CB_CPU 0
#define CB_NR_PAGES 8
#define CB_PAGES 16
#define CB_HEAD 24
#define CB_TAIL 32
#define CB_COMMIT 40
#define CB_READER 48
#define CB_ENTRIES 56
#define CB_OVERRUN 64
#define CB_COMMIT_OVERRUN 72
#define CB_DROPPED 80
#define CB_READ 88
#define CB_ENTRIES_BYTES 96
#define CB_BUFFER 112	/* back to the ring; written by tests that need it */
#define CB_SIZE 128
/* buffer_page */
#define BP_LIST 0
#define BP_WRITE 16
#define BP_READ 24
#define BP_ENTRIES 32
#define BP_REAL_END 40
#define BP_PAGE 48
#define BP_SIZE 64
/* trace_event_call */
#define EC_LIST 0
#define EC_CLASS 16
#define EC_NAME 24
#define EC_TYPE 48	/* event.type: event at 32, hlist_node first */
#define EC_PRINT_FMT 56
#define EC_FLAGS 64
#define EC_DATA 72
#define EC_FUNCS 80	/* event.funcs: made up, beside data */
#define EC_PROBES 88	/* an eprobe's trace_probe_event.probes.next (fk_eprobe()) */
#define EC_SIZE 96
/* trace_event_class */
#define CL_SYSTEM 0
#define CL_FIELDS 8
#define CL_GET_FIELDS 24
#define CL_SIZE 32
/* ftrace_event_field */
#define EF_LINK 0
#define EF_NAME 16
#define EF_TYPE 24
#define EF_OFFSET 32
#define EF_SIZE 36
#define EF_SIGNED 40
#define EF_LEN 44
#define EF_SZ 48

/* the ktrace recorder's module types (kmod/ktrace-recorder/krec.h) */
#define KE_HLIST 0
#define KE_NAME 16
#define KE_FORMAT 24
#define KE_ID 32
#define KE_SIZE 34
#define KE_NR_STR 37
#define KE_STR_OFF 46
#define KE_ENABLED 62
#define KE_OWNER 64
#define KE_SZ 88

/* module / mod_kallsyms (symbols of loaded modules) */
#define MOD_LIST 8
#define MOD_KALLSYMS 64
#define MOD_NAME 72
#define MOD_SIZE 128
#define MKS_SYMTAB 0
#define MKS_NUM 8
#define MKS_STRTAB 16
#define MKS_SIZE 32

static const struct fk_member fk_members[] = {
	{ "struct module", "list", MOD_LIST, 16 },
	{ "struct module", "kallsyms", MOD_KALLSYMS, 8 },
	{ "struct module", "name", MOD_NAME, 56 },
	{ "struct mod_kallsyms", "symtab", MKS_SYMTAB, 8 },
	{ "struct mod_kallsyms", "num_symtab", MKS_NUM, 4 },
	{ "struct mod_kallsyms", "strtab", MKS_STRTAB, 8 },
	{ "struct list_head", "next", LH_NEXT, 8 },
	{ "struct list_head", "prev", LH_PREV, 8 },
	{ "struct trace_array", "list", TR_LIST, 16 },
	{ "struct trace_array", "name", TR_NAME, 8 },
	{ "struct trace_array", "array_buffer", TR_ARRAY_BUFFER, 32 },
	{ "struct array_buffer", "buffer", 8, 8 },
	{ "struct trace_array", "current_trace", TR_CURRENT_TRACE, 8 },
	{ "struct tracer", "name", 0, 8 },
	{ "struct trace_buffer", "buffers", RB_BUFFERS, 8 },
	{ "struct trace_buffer", "clock", RB_CLOCK, 8 },
	{ "struct ring_buffer_per_cpu", "cpu", CB_CPU, 4 },
	{ "struct ring_buffer_per_cpu", "nr_pages", CB_NR_PAGES, 8 },
	{ "struct ring_buffer_per_cpu", "pages", CB_PAGES, 8 },
	{ "struct ring_buffer_per_cpu", "head_page", CB_HEAD, 8 },
	{ "struct ring_buffer_per_cpu", "tail_page", CB_TAIL, 8 },
	{ "struct ring_buffer_per_cpu", "commit_page", CB_COMMIT, 8 },
	{ "struct ring_buffer_per_cpu", "reader_page", CB_READER, 8 },
	{ "struct ring_buffer_per_cpu", "entries", CB_ENTRIES, 8 },
	{ "struct ring_buffer_per_cpu", "overrun", CB_OVERRUN, 8 },
	{ "struct ring_buffer_per_cpu", "commit_overrun", CB_COMMIT_OVERRUN, 8 },
	{ "struct ring_buffer_per_cpu", "dropped_events", CB_DROPPED, 8 },
	{ "struct ring_buffer_per_cpu", "read", CB_READ, 8 },
	{ "struct ring_buffer_per_cpu", "entries_bytes", CB_ENTRIES_BYTES, 8 },
	{ "struct buffer_page", "list", BP_LIST, 16 },
	{ "struct buffer_page", "write", BP_WRITE, 8 },
	{ "struct buffer_page", "read", BP_READ, 4 },
	{ "struct buffer_page", "entries", BP_ENTRIES, 8 },
	{ "struct buffer_page", "real_end", BP_REAL_END, 8 },
	{ "struct buffer_page", "page", BP_PAGE, 8 },
	{ "struct buffer_data_page", "time_stamp", 0, 8 },
	{ "struct buffer_data_page", "commit", 8, 8 },
	{ "struct buffer_data_page", "data", FK_DATA_OFF, 0 },
	{ "struct trace_event_call", "list", EC_LIST, 16 },
	{ "struct trace_event_call", "class", EC_CLASS, 8 },
	{ "struct trace_event_call", "name", EC_NAME, 8 },
	{ "struct trace_event_call", "tp", EC_NAME, 8 },
	{ "struct trace_event_call", "event.type", EC_TYPE, 4 },
	{ "struct trace_event_call", "print_fmt", EC_PRINT_FMT, 8 },
	{ "struct trace_event_call", "flags", EC_FLAGS, 4 },
	{ "struct trace_event_call", "data", EC_DATA, 8 },
	{ "struct trace_event_call", "event.funcs", EC_FUNCS, 8 },
	/* an eprobe's event (fk_eprobe()): its trace_probe_event.probes beside the call */
	{ "struct trace_probe_event", "call", 0, EC_SIZE },
	{ "struct trace_probe_event", "probes", EC_PROBES, 16 },
	{ "struct trace_probe", "list", 0, 16 },
	{ "struct trace_eprobe", "tp", 0, 16 },
	{ "struct trace_eprobe", "event_system", 16, 8 },
	{ "struct trace_eprobe", "event_name", 24, 8 },
	{ "struct trace_event_class", "system", CL_SYSTEM, 8 },
	{ "struct trace_event_class", "fields", CL_FIELDS, 16 },
	{ "struct trace_event_class", "get_fields", CL_GET_FIELDS, 8 },
	{ "struct ftrace_event_field", "link", EF_LINK, 16 },
	{ "struct ftrace_event_field", "name", EF_NAME, 8 },
	{ "struct ftrace_event_field", "type", EF_TYPE, 8 },
	{ "struct ftrace_event_field", "offset", EF_OFFSET, 4 },
	{ "struct ftrace_event_field", "size", EF_SIZE, 4 },
	{ "struct ftrace_event_field", "is_signed", EF_SIGNED, 4 },
	{ "struct ftrace_event_field", "len", EF_LEN, 4 },
	{ "struct tracepoint", "name", 0, 8 },
	{ "struct trace_entry", "type", 0, 2 },
	{ "struct trace_entry", "flags", 2, 1 },
	{ "struct trace_entry", "preempt_count", 3, 1 },
	{ "struct trace_entry", "pid", 4, 4 },
	{ "struct ring_buffer_per_cpu", "buffer", CB_BUFFER, 8 },
	{ "struct krec_entry", "hlist", KE_HLIST, 16 },
	{ "struct krec_entry", "name", KE_NAME, 8 },
	{ "struct krec_entry", "format", KE_FORMAT, 8 },
	{ "struct krec_entry", "id", KE_ID, 2 },
	{ "struct krec_entry", "size", KE_SIZE, 2 },
	{ "struct krec_entry", "nr_str", KE_NR_STR, 1 },
	{ "struct krec_entry", "str_off", KE_STR_OFF, 16 },
	{ "struct krec_entry", "enabled", KE_ENABLED, 1 },
	{ "struct krec_entry", "owner", KE_OWNER, 8 },
	{ "struct hlist_node", "next", 0, 8 },
	{ "struct krec_record", "id", 0, 2 },
	{ "struct krec_record", "size", 2, 2 },
	{ "struct krec_record", "pid", 4, 4 },
	{ "struct krec_record", "args", 8, 0 },
};

/*
 * A latency tracer's max buffer (opt-in: fk_kernel.maxbuf, fk_maxbuf()):
 * trace_array.max_buffer (a struct array_buffer, its members at a real
 * kernel's offsets), allocated_snapshot and trace_flags.
 */
static const struct fk_member fk_maxbuf_members[] = {
	{ "struct trace_array", "max_buffer", TR_MAX_BUFFER, 40 },
	{ "struct trace_array", "allocated_snapshot", TR_ALLOCATED_SNAPSHOT, 1 },
	{ "struct trace_array", "trace_flags", TR_TRACE_FLAGS, 4 },
	{ "struct array_buffer", "data", 16, 8 },
	{ "struct array_buffer", "time_start", 24, 8 },
	{ "struct array_buffer", "cpu", 32, 4 },
};

/*
 * A 6.15+ boot-mapped instance (opt-in: fk_kernel.bootmap), for
 * last_boot_info: trace_array.flags/range_addr_start/scratch, struct
 * trace_scratch { char clock[16]; unsigned long text_addr, nr_entries;
 * struct trace_mod_entry entries[]; }, trace_mod_entry { unsigned long
 * mod_addr; char mod_name[56]; }, TRACE_ARRAY_FL_LAST_BOOT = BIT(2).
 */
#define TR_FLAGS 64
#define TR_RANGE_ADDR_START 72
#define TR_SCRATCH 80
#define TS_CLOCK 0
#define TS_TEXT_ADDR 16
#define TS_NR_ENTRIES 24
#define TS_ENTRIES 32
#define TME_SIZE 64
#define FK_TRACE_ARRAY_FL_LAST_BOOT 4

static const struct fk_member fk_bootmap_members[] = {
	{ "struct trace_array", "flags", TR_FLAGS, 4 },
	{ "struct trace_array", "range_addr_start", TR_RANGE_ADDR_START, 8 },
	{ "struct trace_array", "scratch", TR_SCRATCH, 8 },
	{ "struct trace_scratch", "clock", TS_CLOCK, 16 },
	{ "struct trace_scratch", "text_addr", TS_TEXT_ADDR, 8 },
	{ "struct trace_scratch", "nr_entries", TS_NR_ENTRIES, 8 },
	{ "struct trace_scratch", "entries", TS_ENTRIES, 0 },
	{ "struct trace_mod_entry", "mod_addr", 0, 8 },
	{ "struct trace_mod_entry", "mod_name", 8, 56 },
};

/* ----- memory ----- */

struct fk_region {
	uint64_t addr;
	uint32_t len;
	int err;		/* nonzero: every read fails with it (-ENODATA, -EFAULT) */
	uint8_t *buf;
};

struct fk_sym {
	const char *name;
	uint64_t addr;
};

struct fk_enum {
	const char *name;
	int64_t value;
};

struct fk_kernel {
	struct fk_region regions[FK_MAX_REGIONS];
	int nr_regions;
	uint64_t brk;
	struct fk_sym syms[64];
	int nr_syms;
	uint64_t reads;		/* reads served, to bound walks in tests */
	/* event table */
	uint64_t events_head, common_head;
	uint64_t last_call;
	uint64_t strpage;
	uint32_t strpos;
	bool bootmap;		/* fk_bootmap_members and TRACE_ARRAY_FL_LAST_BOOT exist */
	bool maxbuf;		/* fk_maxbuf_members exist */
	/* the platform: ring pages of page_size (0: FK_PAGE); what the target says */
	uint32_t page_size, target_page_size;
	unsigned int target_flags;
	/* a real kernel's answers beside the made-up layouts (test-excerpts:
	 * the TRACE_FLAG_* values and the members that decide the columns) */
	const struct fk_member *more_members;
	int nr_more_members;
	const struct fk_enum *enums;
	int nr_enums;
};

/* the fake kernel's PAGE_SIZE */
#define fk_pgsz(k) ((k)->page_size ? (k)->page_size : FK_PAGE)

static FK_UNUSED struct fk_region *fk_region(struct fk_kernel *k, uint64_t addr, size_t len)
{
	int i;

	for (i = 0; i < k->nr_regions; i++) {
		struct fk_region *r = &k->regions[i];

		if (addr >= r->addr && addr - r->addr < r->len && len <= r->len - (addr - r->addr))
			return r;
	}
	return NULL;
}

static FK_UNUSED int fk_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct fk_kernel *k = priv;
	struct fk_region *r = fk_region(k, kvaddr, len);

	k->reads++;
	if (!r)
		return -EFAULT;
	if (r->err)
		return r->err;
	memcpy(buf, r->buf + (kvaddr - r->addr), len);
	return 0;
}

static FK_UNUSED int fk_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct fk_kernel *k = priv;
	int i;

	for (i = 0; i < k->nr_syms; i++) {
		if (!strcmp(k->syms[i].name, name)) {
			*addr = k->syms[i].addr;
			return 0;
		}
	}
	return -ENOENT;
}

/* @type.@member in @tab (@n entries): 0 and its offset and size, or -ENOENT */
static FK_UNUSED int fk_member_in(const struct fk_member *tab, size_t n, const char *type,
			const char *member, uint64_t *off, uint64_t *size)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(tab[i].type, type) && !strcmp(tab[i].member, member)) {
			*off = tab[i].off;
			*size = tab[i].size;
			return 0;
		}
	}
	return -ENOENT;
}

static FK_UNUSED int fk_member(void *priv, const char *type, const char *member,
			       uint64_t *off, uint64_t *size)
{
	struct fk_kernel *k = priv;

	if (!fk_member_in(fk_members, sizeof(fk_members) / sizeof(fk_members[0]), type, member,
			  off, size))
		return 0;
	if (k->maxbuf && !fk_member_in(fk_maxbuf_members, sizeof(fk_maxbuf_members) /
				       sizeof(fk_maxbuf_members[0]), type, member, off, size))
		return 0;
	if (!fk_member_in(k->more_members, (size_t)k->nr_more_members, type, member, off, size))
		return 0;
	if (!k->bootmap)
		return -ENOENT;
	return fk_member_in(fk_bootmap_members,
			    sizeof(fk_bootmap_members) / sizeof(fk_bootmap_members[0]), type, member,
			    off, size);
}

static FK_UNUSED int fk_enumerator(void *priv, const char *name, int64_t *value)
{
	struct fk_kernel *k = priv;
	int i;

	for (i = 0; i < k->nr_enums; i++) {
		if (!strcmp(k->enums[i].name, name)) {
			*value = k->enums[i].value;
			return 0;
		}
	}
	if (k->bootmap && !strcmp(name, "TRACE_ARRAY_FL_LAST_BOOT")) {
		*value = FK_TRACE_ARRAY_FL_LAST_BOOT;
		return 0;
	}
	return -ENOENT;
}

static FK_UNUSED int fk_type_size(void *priv, const char *type, uint64_t *size)
{
	if (!strcmp(type, "struct list_head")) {
		*size = 16;
		return 0;
	}
	if (((struct fk_kernel *)priv)->bootmap && !strcmp(type, "struct trace_mod_entry")) {
		*size = TME_SIZE;
		return 0;
	}
	return -ENOENT;
}

static FK_UNUSED void fk_target(struct fk_kernel *k, struct kt_target *t)
{
	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	t->priv = k;
	t->read = fk_read;
	t->symbol = fk_symbol;
	t->member = fk_member;
	t->type_size = fk_type_size;
	t->enumerator = k->bootmap || k->nr_enums ? fk_enumerator : NULL;
	t->page_size = k->target_page_size;
	t->flags = k->target_flags;
}

/* A fresh zero-filled region of @len bytes; page-sized ones are page-aligned. */
static FK_UNUSED uint64_t fk_alloc(struct fk_kernel *k, uint32_t len)
{
	struct fk_region *r;
	/* a larger page (16, 64 KiB) is aligned to its size, as the kernel's are */
	uint32_t align = len > FK_PAGE && len <= (64u << 10) && !(len & (len - 1)) ? len :
			 len >= FK_PAGE ? FK_PAGE : 64;

	if (k->nr_regions == FK_MAX_REGIONS) {
		fprintf(stderr, "fake kernel: out of regions\n");
		abort();
	}
	k->brk = (k->brk + align - 1) & ~(uint64_t)(align - 1);
	r = &k->regions[k->nr_regions++];
	r->addr = k->brk;
	r->len = len;
	r->err = 0;
	r->buf = calloc(1, len ? len : 1);
	if (!r->buf)
		abort();
	k->brk += len + 64;	/* a gap: reads past the end fail */
	return r->addr;
}

static FK_UNUSED uint8_t *fk_ptr(struct fk_kernel *k, uint64_t addr, size_t len)
{
	struct fk_region *r = fk_region(k, addr, len);

	if (!r) {
		fprintf(stderr, "fake kernel: write outside memory at 0x%llx\n",
			(unsigned long long)addr);
		abort();
	}
	return r->buf + (addr - r->addr);
}

static FK_UNUSED void fk_w64(struct fk_kernel *k, uint64_t addr, uint64_t v)
{
	memcpy(fk_ptr(k, addr, 8), &v, 8);
}

static FK_UNUSED void fk_w32(struct fk_kernel *k, uint64_t addr, uint32_t v)
{
	memcpy(fk_ptr(k, addr, 4), &v, 4);
}

/*
 * A string in a page of strings: string reads go up to the end of the
 * page (kt_read_string), so the rest of the page must be mapped.
 */
static FK_UNUSED uint64_t fk_str(struct fk_kernel *k, const char *s)
{
	uint32_t len = (uint32_t)strlen(s) + 1;
	uint64_t a;

	if (len > FK_PAGE) {
		a = fk_alloc(k, (len + FK_PAGE - 1) & ~(FK_PAGE - 1));
	} else {
		if (!k->strpage || k->strpos + len > FK_PAGE) {
			k->strpage = fk_alloc(k, FK_PAGE);
			k->strpos = 0;
		}
		a = k->strpage + k->strpos;
		k->strpos += len;
	}
	memcpy(fk_ptr(k, a, len), s, len);
	return a;
}

static FK_UNUSED void fk_sym(struct fk_kernel *k, const char *name, uint64_t addr)
{
	if (k->nr_syms == (int)(sizeof(k->syms) / sizeof(k->syms[0]))) {
		fprintf(stderr, "fake kernel: more than %d symbols\n", k->nr_syms);
		abort();
	}
	k->syms[k->nr_syms].name = name;
	k->syms[k->nr_syms].addr = addr;
	k->nr_syms++;
}

/* Make every read of the region holding @addr fail with @err (0: restore). */
static FK_UNUSED void fk_fail(struct fk_kernel *k, uint64_t addr, int err)
{
	fk_region(k, addr, 1)->err = err;
}

static FK_UNUSED void fk_free(struct fk_kernel *k)
{
	int i;

	for (i = 0; i < k->nr_regions; i++)
		free(k->regions[i].buf);
	free(k);
}

/* ----- trace arrays and rings ----- */

struct fk_buffer {
	uint64_t tr, rb, buffers;
	int nr_cpus;
};

struct fk_ring {
	struct fk_kernel *k;
	uint64_t cpu_buffer;
	int nr_pages;
	uint64_t reader;	/* buffer_page of the reader page */
	uint64_t bpage[FK_MAX_RING];	/* ring buffer_pages, in list order */
};

/*
 * A kernel with nr_cpu_ids = @nr_cpus and global_trace; the global buffer
 * is returned (no per-CPU buffers yet: fk_ring_new adds them).
 */
static FK_UNUSED struct fk_kernel *fk_new(int nr_cpus, struct fk_buffer *global)
{
	struct fk_kernel *k = calloc(1, sizeof(*k));
	uint64_t a, head;

	k->brk = 0xffff888000100000ULL;
	a = fk_alloc(k, 4);
	fk_w32(k, a, (uint32_t)nr_cpus);
	fk_sym(k, "nr_cpu_ids", a);
	global->tr = fk_alloc(k, TR_SIZE);
	fk_sym(k, "global_trace", global->tr);
	global->rb = fk_alloc(k, RB_SIZE);
	global->buffers = fk_alloc(k, 8 * nr_cpus);
	global->nr_cpus = nr_cpus;
	fk_w64(k, global->tr + TR_ARRAY_BUFFER + 8, global->rb);
	fk_w64(k, global->rb + RB_BUFFERS, global->buffers);
	/* ftrace_trace_arrays: global_trace alone */
	head = fk_alloc(k, 16);
	fk_sym(k, "ftrace_trace_arrays", head);
	fk_w64(k, head + LH_NEXT, global->tr + TR_LIST);
	fk_w64(k, head + LH_PREV, global->tr + TR_LIST);
	fk_w64(k, global->tr + TR_LIST + LH_NEXT, head);
	fk_w64(k, global->tr + TR_LIST + LH_PREV, head);
	return k;
}

/* An instance named @name, added after the last entry of ftrace_trace_arrays. */
static FK_UNUSED void fk_instance(struct fk_kernel *k, const char *name, struct fk_buffer *b,
				  int nr_cpus)
{
	uint64_t head = 0, last;

	fk_symbol(k, "ftrace_trace_arrays", &head);
	b->tr = fk_alloc(k, TR_SIZE);
	b->rb = fk_alloc(k, RB_SIZE);
	b->buffers = fk_alloc(k, 8 * nr_cpus);
	b->nr_cpus = nr_cpus;
	fk_w64(k, b->tr + TR_NAME, fk_str(k, name));
	fk_w64(k, b->tr + TR_ARRAY_BUFFER + 8, b->rb);
	fk_w64(k, b->rb + RB_BUFFERS, b->buffers);
	memcpy(&last, fk_ptr(k, head + LH_PREV, 8), 8);
	fk_w64(k, last + LH_NEXT, b->tr + TR_LIST);
	fk_w64(k, b->tr + TR_LIST + LH_PREV, last);
	fk_w64(k, b->tr + TR_LIST + LH_NEXT, head);
	fk_w64(k, head + LH_PREV, b->tr + TR_LIST);
}

static FK_UNUSED uint64_t fk_bpage_new(struct fk_kernel *k)
{
	uint64_t bp = fk_alloc(k, BP_SIZE);

	fk_w64(k, bp + BP_PAGE, fk_alloc(k, fk_pgsz(k)));
	return bp;
}

static FK_UNUSED uint64_t fk_data_page(struct fk_kernel *k, uint64_t bpage)
{
	uint64_t p;

	memcpy(&p, fk_ptr(k, bpage + BP_PAGE, 8), 8);
	return p;
}

/* Link ring pages [i] -> [i+1] (prev too), the last back to the first. */
static FK_UNUSED void fk_ring_link(struct fk_ring *r)
{
	int i;

	for (i = 0; i < r->nr_pages; i++) {
		uint64_t a = r->bpage[i], b = r->bpage[(i + 1) % r->nr_pages];

		fk_w64(r->k, a + BP_LIST + LH_NEXT, b + BP_LIST);
		fk_w64(r->k, b + BP_LIST + LH_PREV, a + BP_LIST);
	}
}

/*
 * Head at ring page @head (the list.next of its predecessor carries
 * RB_PAGE_HEAD, and cpu_buffer->head_page points at it), commit and tail
 * at ring page @commit.
 */
static FK_UNUSED void fk_ring_set(struct fk_ring *r, int head, int commit)
{
	struct fk_kernel *k = r->k;
	int prev = (head + r->nr_pages - 1) % r->nr_pages;

	fk_ring_link(r);
	fk_w64(k, r->bpage[prev] + BP_LIST + LH_NEXT, (r->bpage[head] + BP_LIST) | 1);
	fk_w64(k, r->cpu_buffer + CB_HEAD, r->bpage[head]);
	fk_w64(k, r->cpu_buffer + CB_COMMIT, r->bpage[commit]);
	fk_w64(k, r->cpu_buffer + CB_TAIL, r->bpage[commit]);
}

/* The per-CPU buffer of @cpu in @b: @nr_pages ring pages and a reader page. */
static FK_UNUSED struct fk_ring *fk_ring_new(struct fk_kernel *k, struct fk_buffer *b, int cpu,
					     int nr_pages)
{
	struct fk_ring *r = calloc(1, sizeof(*r));
	int i;

	if (nr_pages > FK_MAX_RING) {
		fprintf(stderr, "fake kernel: a ring of %d pages, more than %d\n", nr_pages,
			FK_MAX_RING);
		abort();
	}
	r->k = k;
	r->nr_pages = nr_pages;
	r->cpu_buffer = fk_alloc(k, CB_SIZE);
	fk_w64(k, b->buffers + 8ULL * cpu, r->cpu_buffer);
	fk_w32(k, r->cpu_buffer + CB_CPU, (uint32_t)cpu);
	fk_w64(k, r->cpu_buffer + CB_NR_PAGES, (uint64_t)nr_pages);
	r->reader = fk_bpage_new(k);
	/* the reader page is off the ring: its list points into it */
	for (i = 0; i < nr_pages; i++)
		r->bpage[i] = fk_bpage_new(k);
	fk_w64(k, r->reader + BP_LIST + LH_NEXT, r->bpage[0] + BP_LIST);
	fk_w64(k, r->reader + BP_LIST + LH_PREV, r->bpage[nr_pages - 1] + BP_LIST);
	fk_w64(k, r->cpu_buffer + CB_READER, r->reader);
	fk_w64(k, r->cpu_buffer + CB_PAGES, r->bpage[0] + BP_LIST);
	fk_ring_set(r, 0, 0);
	return r;
}

/* ----- one sub-buffer, event by event ----- */

struct fk_pb {
	struct fk_kernel *k;
	uint64_t bpage;
	uint8_t *page;		/* the data page */
	uint32_t pos;		/* write position in the data area */
	uint64_t flags;		/* RB_MISSED_* to OR into commit */
};

static FK_UNUSED void fk_commit(struct fk_pb *pb)
{
	uint64_t c = pb->pos | pb->flags;

	memcpy(pb->page + 8, &c, 8);
	fk_w64(pb->k, pb->bpage + BP_WRITE, pb->pos);
}

static FK_UNUSED void fk_pb_open(struct fk_pb *pb, struct fk_kernel *k, uint64_t bpage,
				 uint64_t ts)
{
	pb->k = k;
	pb->bpage = bpage;
	pb->page = fk_ptr(k, fk_data_page(k, bpage), fk_pgsz(k));
	pb->pos = 0;
	pb->flags = 0;
	memcpy(pb->page, &ts, 8);
	fk_commit(pb);
}

/* Page @idx of the ring (-1: the reader page), emptied, with time stamp @ts. */
static FK_UNUSED struct fk_pb fk_page(struct fk_ring *r, int idx, uint64_t ts)
{
	struct fk_pb pb;

	fk_pb_open(&pb, r->k, idx < 0 ? r->reader : r->bpage[idx], ts);
	memset(pb.page + FK_DATA_OFF, 0, fk_pgsz(r->k) - FK_DATA_OFF);
	return pb;
}

static FK_UNUSED void fk_put32(struct fk_pb *pb, uint32_t v)
{
	memcpy(pb->page + FK_DATA_OFF + pb->pos, &v, 4);
	pb->pos += 4;
}

/*
 * A data record of @len payload bytes (a multiple of 4) with time delta
 * @delta; small records use type_len, large ones the length word, as
 * rb_update_event() does.
 */
static FK_UNUSED void fk_raw(struct fk_pb *pb, uint32_t delta, const void *payload, uint32_t len)
{
	if (len <= 28 * 4 && len) {
		fk_put32(pb, (len / 4) | delta << 5);
	} else {
		fk_put32(pb, delta << 5);
		fk_put32(pb, len + 4);
	}
	memcpy(pb->page + FK_DATA_OFF + pb->pos, payload, len);
	pb->pos += len;
	fk_commit(pb);
}

/* A record: trace_entry {id, flags 0, pc 0, pid} + u32 seq. */
static FK_UNUSED void fk_ev(struct fk_pb *pb, uint32_t delta, uint16_t id, uint32_t seq)
{
	uint8_t p[12] = { 0 };
	uint32_t pid = 100 + seq % 7;

	memcpy(p, &id, 2);
	memcpy(p + 4, &pid, 4);
	memcpy(p + 8, &seq, 4);
	fk_raw(pb, delta, p, sizeof(p));
}

static FK_UNUSED void fk_time_extend(struct fk_pb *pb, uint64_t delta)
{
	fk_put32(pb, 30 | (uint32_t)(delta & ((1u << 27) - 1)) << 5);
	fk_put32(pb, (uint32_t)(delta >> 27));
	fk_commit(pb);
}

static FK_UNUSED void fk_time_stamp(struct fk_pb *pb, uint64_t ts)
{
	fk_put32(pb, 31 | (uint32_t)(ts & ((1u << 27) - 1)) << 5);
	fk_put32(pb, (uint32_t)(ts >> 27));
	fk_commit(pb);
}

/* A discarded event: padding of @len bytes after its array word. */
static FK_UNUSED void fk_padding(struct fk_pb *pb, uint32_t len)
{
	fk_put32(pb, 29 | 1 << 5);
	fk_put32(pb, len);
	pb->pos += len - 4;
	fk_commit(pb);
}

/* ----- the event table ----- */

struct fk_field {
	const char *type, *name;
	uint32_t offset, size;
	int is_signed;
};

/* the fuzzers' inputs: the NUL-terminated string at *@p (before @end), *@p moved past it */
static FK_UNUSED const char *fk_next_str(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *s = *p, *z = memchr(s, 0, (size_t)(end - s));

	if (!z)
		return NULL;
	*p = z + 1;
	return (const char *)s;
}

static FK_UNUSED uint64_t fk_list_head(struct fk_kernel *k)
{
	uint64_t h = fk_alloc(k, 16);

	fk_w64(k, h + LH_NEXT, h);
	fk_w64(k, h + LH_PREV, h);
	return h;
}

/* list_add(): @node after @head */
static FK_UNUSED void fk_list_add(struct fk_kernel *k, uint64_t node, uint64_t head)
{
	uint64_t next;

	memcpy(&next, fk_ptr(k, head + LH_NEXT, 8), 8);
	fk_w64(k, node + LH_NEXT, next);
	fk_w64(k, node + LH_PREV, head);
	fk_w64(k, next + LH_PREV, node);
	fk_w64(k, head + LH_NEXT, node);
}

/* fields are added with list_add, so the list holds them last-first */
static FK_UNUSED void fk_fields(struct fk_kernel *k, uint64_t head, const struct fk_field *f,
				int n)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t e = fk_alloc(k, EF_SZ);

		fk_w64(k, e + EF_NAME, fk_str(k, f[i].name));
		fk_w64(k, e + EF_TYPE, fk_str(k, f[i].type));
		fk_w32(k, e + EF_OFFSET, f[i].offset);
		fk_w32(k, e + EF_SIZE, f[i].size);
		fk_w32(k, e + EF_SIGNED, (uint32_t)f[i].is_signed);
		fk_list_add(k, e + EF_LINK, head);
	}
}

/* ftrace_events and ftrace_common_fields (common_type/flags/preempt_count/pid) */
static FK_UNUSED void fk_events_init(struct fk_kernel *k)
{
	static const struct fk_field common[] = {
		{ "unsigned short", "common_type", 0, 2, 0 },
		{ "unsigned char", "common_flags", 2, 1, 0 },
		{ "unsigned char", "common_preempt_count", 3, 1, 0 },
		{ "int", "common_pid", 4, 4, 1 },
	};

	k->events_head = fk_list_head(k);
	fk_sym(k, "ftrace_events", k->events_head);
	k->common_head = fk_list_head(k);
	fk_sym(k, "ftrace_common_fields", k->common_head);
	fk_fields(k, k->common_head, common, 4);
}

/* A trace_event_call at the tail of ftrace_events; returns its address. */
static FK_UNUSED uint64_t fk_event(struct fk_kernel *k, int id, const char *system,
				   const char *name, const struct fk_field *f, int n,
				   const char *print_fmt)
{
	uint64_t call = fk_alloc(k, EC_SIZE), class = fk_alloc(k, CL_SIZE), last;

	fk_w64(k, call + EC_CLASS, class);
	fk_w64(k, call + EC_NAME, fk_str(k, name));
	fk_w32(k, call + EC_TYPE, (uint32_t)id);
	fk_w64(k, call + EC_PRINT_FMT, print_fmt ? fk_str(k, print_fmt) : 0);
	fk_w64(k, class + CL_SYSTEM, fk_str(k, system));
	fk_w64(k, class + CL_FIELDS + LH_NEXT, class + CL_FIELDS);
	fk_w64(k, class + CL_FIELDS + LH_PREV, class + CL_FIELDS);
	fk_fields(k, class + CL_FIELDS, f, n);
	memcpy(&last, fk_ptr(k, k->events_head + LH_PREV, 8), 8);
	fk_list_add(k, call + EC_LIST, last);
	k->last_call = call;
	return call;
}

/* The "seq" event the fk_ev() records use: id @id, "seq=%u". */
static FK_UNUSED uint64_t fk_seq_event(struct fk_kernel *k, int id)
{
	static const struct fk_field f[] = { { "unsigned int", "seq", 8, 4, 0 } };

	return fk_event(k, id, "test", "seq", f, 1, "\"seq=%u\", REC->seq");
}

/*
 * kallsyms_token_table and kallsyms_token_index with single-character
 * tokens: token c is the character c, one after the other with their NULs
 * as scripts/kallsyms writes them (token 0, the NUL character, is the
 * empty token: one byte). lib/kallsyms.c decodes any token table; this
 * one makes each name's bytes its own tokens.
 */
static FK_UNUSED void fk_kallsyms_tokens(struct fk_kernel *k)
{
	uint64_t ttab = fk_alloc(k, 512), tidx = fk_alloc(k, 512);
	int c;

	for (c = 0; c < 256; c++) {
		unsigned int at = c ? 2 * c - 1 : 0;

		fk_ptr(k, ttab + at, 1)[0] = (uint8_t)c;
		fk_ptr(k, tidx + 2 * c, 2)[0] = (uint8_t)at;
		fk_ptr(k, tidx + 2 * c, 2)[1] = (uint8_t)(at >> 8);
	}
	fk_sym(k, "kallsyms_token_table", ttab);
	fk_sym(k, "kallsyms_token_index", tidx);
}

/*
 * kallsyms_names and kallsyms_num_syms: @n names (each under 127
 * characters: one length byte) of type @types[i] ('T' for all when NULL),
 * in the order of the address table written beside them
 */
static FK_UNUSED void fk_kallsyms_names(struct fk_kernel *k, const char *const *names,
					const char *types, int n)
{
	size_t i, at = 0, len = 0;
	uint64_t p, num = fk_alloc(k, 8);

	for (i = 0; i < (size_t)n; i++)
		len += strlen(names[i]) + 2;
	/* lib/kallsyms.c reads the names to a page end */
	p = fk_alloc(k, (uint32_t)((len / FK_PAGE + 1) * FK_PAGE));
	for (i = 0; i < (size_t)n; i++) {
		size_t l = strlen(names[i]);
		uint8_t *b = fk_ptr(k, p + at, l + 2);

		b[0] = (uint8_t)(l + 1);
		b[1] = types ? (uint8_t)types[i] : 'T';
		memcpy(b + 2, names[i], l);
		at += l + 2;
	}
	fk_sym(k, "kallsyms_names", p);
	fk_w32(k, num, (uint32_t)n);
	fk_sym(k, "kallsyms_num_syms", num);
}

/*
 * A kallsyms of @n symbols (text, 'T') named @names at @addrs, in address
 * order as scripts/kallsyms sorts them, with absolute addresses
 * (kallsyms_addresses): what the function tracer's printers look their
 * ips up in. The last symbol ends the table: an address past it is no
 * symbol's (a module's).
 */
static FK_UNUSED void fk_kallsyms(struct fk_kernel *k, const char *const *names,
				  const uint64_t *addrs, int n)
{
	uint64_t a = fk_alloc(k, (uint32_t)(8 * n + 8));
	int i;

	fk_kallsyms_tokens(k);
	fk_kallsyms_names(k, names, NULL, n);
	for (i = 0; i < n; i++)
		fk_w64(k, a + 8 * (uint64_t)i, addrs[i]);
	fk_sym(k, "kallsyms_addresses", a);
}

#endif /* KTRACE_TESTS_FAKE_KERNEL_H */
