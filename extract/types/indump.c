// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dump as its own debuginfo (see indump.h).
 *
 * Symbols: v6.0 (commit 5fd8fea935a1, "vmcoreinfo: include kallsyms
 * symbols") lists kallsyms_names, kallsyms_num_syms, the token tables and
 * kallsyms_offsets/kallsyms_relative_base in VMCOREINFO, so the kernel's
 * own symbol table can be decoded from the dump (lib/kallsyms.c); its
 * addresses are run-time ones, KASLR applied. Before v6.0 a System.map
 * gives link-time addresses, moved by KERNELOFFSET. Symbols neither has
 * (kallsyms does not list its own tables) come from VMCOREINFO.
 *
 * Types: the kernel keeps its BTF in .BTF, between __start_BTF and
 * __stop_BTF, in memory for /sys/kernel/btf/vmlinux. It is read through
 * the dump and handed to libbpf's btf__new(); types/btf.c answers.
 *
 * A dump is evidence: BTF bytes that cannot be read are read as zeros and
 * counted, and so are whole zero pages inside it (BTF has none: every
 * type record has a kind, and the string section holds each string
 * once). What libbpf still accepts is used, and every "absent" answered
 * from damaged BTF is counted, since the type may have been named in the
 * lost bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/btf.h>
#include <ktrace/ktrace.h>

#include "dump.h"
#include "btf.h"
#include "indump.h"
#include "sysmap.h"

/* Debian's 6.12 BTF is 6 MB; more than this is not a BTF section */
#define KX_BTF_MAX	(64u << 20)
#define KX_PAGE		4096u
#define KX_NOTED	8	/* names kept for the report */

struct kx_indump {
	struct kx_dump *d;
	struct kt_target dt;		/* the dump's own read() */
	struct kx_sysmap *map;		/* --system-map, or NULL */
	uint64_t kaslr;			/* added to the map's relocatable symbols */
	struct kt_kallsyms *ks;		/* the dump's kallsyms, or NULL */
	char ks_err[256];		/* why not, when a System.map stands in */
	struct kx_btf *btf;
	uint64_t btf_start, btf_size;
	uint64_t btf_unreadable;	/* bytes read as zeros */
	uint64_t btf_zero_pages;	/* whole zero pages inside it */
	uint64_t btf_first_bad;		/* address of the first of either */
	unsigned int doubtful;		/* "absent" answered from damaged BTF */
	char *doubtful_names[KX_NOTED];
	unsigned int ambiguous;		/* enumerators with several values */
	char *ambiguous_names[KX_NOTED];
	char describe[512];
};

const void *kx_indump__btf_raw(const struct kx_indump *x, uint32_t *size)
{
	return x->btf ? kx_btf__raw(x->btf, size) : NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int x_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_indump *x = priv;

	return x->dt.read(x->dt.priv, kvaddr, buf, len);
}

static int x_read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len, void *buf,
			 unsigned char *ok)
{
	struct kx_indump *x = priv;

	return x->dt.read_blocks(x->dt.priv, kvaddrs, n, len, buf, ok);
}

static int x_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct kx_indump *x = priv;
	int reloc;

	if (x->map) {
		if (!kx_sysmap__lookup(x->map, name, addr, &reloc)) {
			*addr += reloc ? x->kaslr : 0;
			return 0;
		}
	} else if (x->ks && !kt_kallsyms__find(x->ks, name, addr, NULL)) {
		return 0;
	}
	return kx_dump__vmcoreinfo_symbol(x->d, name, addr);
}

/* remember @what (a type, member or enumerator) once, for the report */
static void note(char **names, unsigned int *count, const char *what)
{
	unsigned int i;

	for (i = 0; i < KX_NOTED && i < *count; i++)
		if (names[i] && !strcmp(names[i], what))
			return;
	if (*count < KX_NOTED)
		names[*count] = strdup(what);
	(*count)++;
}

static int doubt(struct kx_indump *x, int ret, const char *type, const char *member)
{
	char buf[256];

	if (ret != -ENOENT || !(x->btf_unreadable || x->btf_zero_pages))
		return ret;
	snprintf(buf, sizeof(buf), "%s%s%s", type, member ? "." : "", member ? member : "");
	note(x->doubtful_names, &x->doubtful, buf);
	return ret;
}

static int x_member(void *priv, const char *type, const char *member, uint64_t *offset,
		    uint64_t *size)
{
	struct kx_indump *x = priv;

	return doubt(x, kx_btf__member(x->btf, type, member, offset, size), type, member);
}

static int x_type_size(void *priv, const char *type, uint64_t *size)
{
	struct kx_indump *x = priv;

	return doubt(x, kx_btf__size(x->btf, type, size), type, NULL);
}

static int x_enumerator(void *priv, const char *name, int64_t *value)
{
	struct kx_indump *x = priv;
	unsigned int n = 0;
	char buf[160];
	int ret;

	ret = kx_btf__enumerator(x->btf, name, value, &n);
	if (!ret && n > 1) {
		snprintf(buf, sizeof(buf), "%s (%u values, took %" PRId64 ")", name, n, *value);
		note(x->ambiguous_names, &x->ambiguous, buf);
	}
	return doubt(x, ret, name, NULL);
}

/*
 * Read [start, start + size) into @buf: 64 KiB at a time, a page at a
 * time where that fails; what cannot be read stays zero and is counted.
 */
static void read_btf_bytes(struct kx_indump *x, uint64_t start, uint64_t size, char *buf)
{
	static const char zero[KX_PAGE];
	uint64_t pos = 0;

	while (pos < size) {
		uint64_t at = start + pos;
		uint64_t len = 65536 - (at & 65535);

		if (len > size - pos)
			len = size - pos;
		if (x_read(x, at, buf + pos, len)) {
			uint64_t p = 0;

			while (p < len) {
				uint64_t n = KX_PAGE - ((at + p) & (KX_PAGE - 1));

				if (n > len - p)
					n = len - p;
				if (x_read(x, at + p, buf + pos + p, n)) {
					memset(buf + pos + p, 0, n);
					if (!x->btf_unreadable && !x->btf_zero_pages)
						x->btf_first_bad = at + p;
					x->btf_unreadable += n;
				}
				p += n;
			}
		}
		pos += len;
	}
	/* whole zero pages among the bytes that were read */
	for (pos = (KX_PAGE - (start & (KX_PAGE - 1))) & (KX_PAGE - 1);
	     pos + KX_PAGE <= size; pos += KX_PAGE) {
		if (memcmp(buf + pos, zero, KX_PAGE))
			continue;
		if (!x->btf_unreadable && !x->btf_zero_pages)
			x->btf_first_bad = start + pos;
		x->btf_zero_pages++;
	}
	/* an unreadable page reads as a zero page too: count it once */
	x->btf_zero_pages -= x->btf_unreadable / KX_PAGE <= x->btf_zero_pages ?
				     x->btf_unreadable / KX_PAGE : x->btf_zero_pages;
}

static int load_btf(struct kx_indump *x, int verbose)
{
	const char *vmcore = kx_dump__path(x->d);
	uint64_t stop;
	struct btf *btf;
	double t0 = now_ms();
	char *buf;
	int ret;

	if (x_symbol(x, "__start_BTF", &x->btf_start) || x_symbol(x, "__stop_BTF", &stop)) {
		fprintf(stderr, "ktrace-extract: vmcore %s: the kernel has no __start_BTF/__stop_BTF "
			"symbols (built without CONFIG_DEBUG_INFO_BTF?): no types; give -x VMLINUX "
			"or --profile\n", vmcore);
		return -ENOENT;
	}
	if (stop <= x->btf_start || stop - x->btf_start > KX_BTF_MAX) {
		fprintf(stderr, "ktrace-extract: vmcore %s: __start_BTF 0x%" PRIx64 ", __stop_BTF "
			"0x%" PRIx64 ": not a BTF section; give -x VMLINUX or --profile\n",
			vmcore, x->btf_start, stop);
		return -EINVAL;
	}
	x->btf_size = stop - x->btf_start;
	buf = calloc(1, x->btf_size);
	if (!buf)
		return -ENOMEM;
	read_btf_bytes(x, x->btf_start, x->btf_size, buf);
	btf = btf__new(buf, (uint32_t)x->btf_size);
	ret = btf ? 0 : -errno;
	free(buf);
	if (!btf) {
		fprintf(stderr, "ktrace-extract: vmcore %s: BTF at 0x%" PRIx64 " (%" PRIu64 " bytes, "
			"__start_BTF..__stop_BTF): libbpf btf__new: %s", vmcore, x->btf_start,
			x->btf_size, strerror(-ret));
		if (x->btf_unreadable || x->btf_zero_pages)
			fprintf(stderr, " (%" PRIu64 " bytes unreadable, %" PRIu64 " zero pages, "
				"the first at 0x%" PRIx64 ")", x->btf_unreadable, x->btf_zero_pages,
				x->btf_first_bad);
		fprintf(stderr, ": the dump's BTF is damaged, no types; give -x VMLINUX or "
			"--profile\n");
		return ret ? ret : -EINVAL;
	}
	ret = kx_btf__new(btf, &x->btf);
	if (ret)
		return ret;
	/*
	 * a BTF that parses but lacks what every kernel has (a zeroed type
	 * section: libbpf reads it as no types) is damage, not a kernel
	 * without ftrace (which would be exit 6, "no ftrace")
	 */
	{
		uint64_t size;

		if (kx_btf__size(x->btf, "struct task_struct", &size) ||
		    kx_btf__size(x->btf, "struct list_head", &size)) {
			fprintf(stderr, "ktrace-extract: vmcore %s: BTF at 0x%" PRIx64 " (%" PRIu64
				" bytes, __start_BTF..__stop_BTF) has %u types and no struct "
				"task_struct or list_head, which every kernel has: the dump's BTF is "
				"damaged, no types; give -x VMLINUX or --profile\n", vmcore,
				x->btf_start, x->btf_size, kx_btf__type_cnt(x->btf));
			return -EINVAL;
		}
	}
	if (verbose)
		fprintf(stderr, "types: BTF of the dump at 0x%" PRIx64 ": %" PRIu64 " bytes, %u "
			"types, read and indexed in %.1f ms\n", x->btf_start, x->btf_size,
			kx_btf__type_cnt(x->btf), now_ms() - t0);
	return 0;
}

/* KASLR offset for the System.map, checked on init_uts_ns (vmcoreinfo) */
static int check_map(struct kx_indump *x, const struct kx_indump_opts *o)
{
	char *koff = kx_dump__vmcoreinfo_line(x->d, "KERNELOFFSET");
	uint64_t map_uts, dump_uts;
	int reloc;

	x->kaslr = koff ? strtoull(koff, NULL, 16) : 0;
	if (kx_sysmap__lookup(x->map, "init_uts_ns", &map_uts, &reloc) ||
	    kx_dump__vmcoreinfo_symbol(x->d, "init_uts_ns", &dump_uts))
		goto out;
	if (!koff) {
		/* no KERNELOFFSET line: before v4.8, or no KASLR */
		x->kaslr = dump_uts - map_uts;
	} else if (map_uts + x->kaslr != dump_uts) {
		fprintf(stderr, "%sSystem.map %s: init_uts_ns is at 0x%" PRIx64 " + KASLR offset "
			"0x%" PRIx64 " but the dump's vmcoreinfo says 0x%" PRIx64 ": not the "
			"crashed kernel's System.map\n", o->force ? "warning: " : "ktrace-extract: ",
			o->system_map, map_uts, x->kaslr, dump_uts);
		if (!o->force) {
			free(koff);
			return -EINVAL;
		}
	}
out:
	free(koff);
	return 0;
}

/* The dump's kallsyms; checked against vmcoreinfo's init_uts_ns */
static int load_kallsyms(struct kx_indump *x, int verbose)
{
	/* with a System.map, the names decoded are asked of it */
	struct kt_target t = { .sz = sizeof(t), .priv = x, .read = x_read, .symbol = x_symbol,
			       .flags = (x->map ? KT_TARGET_SYMTAB : 0) |
					(x->dt.flags & KT_TARGET_BIG_ENDIAN) };
	uint64_t a, b;
	double t0 = now_ms();
	int err;

	x->ks = kt_kallsyms__load(&t);
	if (!x->ks) {
		err = errno ? -errno : -EINVAL;
		snprintf(x->ks_err, sizeof(x->ks_err), "%s", kt_last_error());
		return err;
	}
	if (!kt_kallsyms__find(x->ks, "init_uts_ns", &a, NULL) &&
	    !kx_dump__vmcoreinfo_symbol(x->d, "init_uts_ns", &b) && a != b) {
		snprintf(x->ks_err, sizeof(x->ks_err), "kallsyms say init_uts_ns is at 0x%" PRIx64
			 ", vmcoreinfo 0x%" PRIx64 ": the tables are damaged", a, b);
		kt_kallsyms__free(x->ks);
		x->ks = NULL;
		return -EBADMSG;
	}
	if (verbose)
		fprintf(stderr, "symbols: kallsyms of the dump: %u symbols, decoded in %.1f ms\n",
			kt_kallsyms__count(x->ks), now_ms() - t0);
	return 0;
}

int kx_indump__attach(struct kx_dump *d, const struct kx_indump_opts *o,
		      struct kx_indump **out, struct kt_target *t)
{
	struct kx_indump *x = calloc(1, sizeof(*x));
	const char *vmcore = kx_dump__path(d);
	char msg[1024];
	int ret, status = KT_EXIT_DEBUGINFO;

	if (!x)
		return KT_EXIT_FAILURE;
	x->d = d;
	kx_dump__target(d, &x->dt);
	if (o->system_map) {
		ret = kx_sysmap__load(o->system_map, &x->map, msg, sizeof(msg));
		if (ret) {
			fprintf(stderr, "ktrace-extract: %s\n", msg);
			goto fail;
		}
		if (check_map(x, o)) {
			status = KT_EXIT_MISMATCH;
			goto fail;
		}
	}
	/* with a System.map, only to lend them to the session (and to tell damage) */
	ret = load_kallsyms(x, o->verbose);
	if (ret && !x->map) {
		uint64_t a;

		/* v6.0 lists kallsyms_names and the rest; a newer layout may lack one */
		if (ret == -ENOENT && kx_dump__vmcoreinfo_symbol(d, "kallsyms_names", &a))
			fprintf(stderr, "ktrace-extract: vmcore %s (%s): its vmcoreinfo does not list "
				"the kallsyms tables (kernels before 6.0 do not): no symbols; give "
				"--system-map (the System.map of %s), -x VMLINUX or --profile\n",
				vmcore, kx_dump__osrelease(d), kx_dump__osrelease(d));
		else if (ret == -ENOENT)
			fprintf(stderr, "ktrace-extract: vmcore %s (%s): kallsyms of the dump: %s "
				"(its vmcoreinfo lists kallsyms_names, not this): an encoding ktrace "
				"does not know; no symbols; give --system-map (the System.map of %s), "
				"-x VMLINUX or --profile\n",
				vmcore, kx_dump__osrelease(d), x->ks_err, kx_dump__osrelease(d));
		else
			fprintf(stderr, "ktrace-extract: vmcore %s: kallsyms of the dump: %s: no "
				"symbols; give --system-map, -x VMLINUX or --profile\n", vmcore,
				x->ks_err);
		goto fail;
	}
	ret = load_btf(x, o->verbose);
	if (ret) {
		status = ret == -ENOMEM ? KT_EXIT_FAILURE : KT_EXIT_DEBUGINFO;
		goto fail;
	}
	snprintf(x->describe, sizeof(x->describe), "types from the dump's BTF (%u types), "
		 "symbols from %s%s (%zu)", kx_btf__type_cnt(x->btf),
		 x->map ? "System.map " : "the dump's kallsyms", x->map ? o->system_map : "",
		 x->map ? kx_sysmap__count(x->map) : (size_t)kt_kallsyms__count(x->ks));
	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	t->priv = x;
	t->read = x_read;
	t->read_blocks = x->dt.read_blocks ? x_read_blocks : NULL;
	t->flags = x->dt.flags & (KT_TARGET_BLOCKS_MT | KT_TARGET_BIG_ENDIAN);
	/* a System.map: the session's own decoding checks names against it too */
	if (x->map)
		t->flags |= KT_TARGET_SYMTAB;
	t->symbol = x_symbol;
	t->member = x_member;
	t->type_size = x_type_size;
	t->enumerator = x_enumerator;
	*out = x;
	return -1;
fail:
	kx_indump__free(x);
	return status;
}

void kx_indump__free(struct kx_indump *x)
{
	unsigned int i;

	if (!x)
		return;
	for (i = 0; i < KX_NOTED; i++) {
		free(x->doubtful_names[i]);
		free(x->ambiguous_names[i]);
	}
	kx_btf__free(x->btf);
	kt_kallsyms__free(x->ks);
	kx_sysmap__free(x->map);
	free(x);
}

struct kt_kallsyms *kx_indump__kallsyms(struct kx_indump *x)
{
	return x->ks;
}

const char *kx_indump__describe(const struct kx_indump *x)
{
	return x->describe;
}

static void print_names(FILE *f, char **names, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count && i < KX_NOTED; i++)
		fprintf(f, "%s%s", i ? ", " : "", names[i] ? names[i] : "?");
	if (count > KX_NOTED)
		fprintf(f, ", and %u more", count - KX_NOTED);
}

unsigned int kx_indump__report(struct kx_indump *x, FILE *f)
{
	unsigned int lost = 0;

	if (x->btf_unreadable || x->btf_zero_pages) {
		lost++;
		fprintf(f, "ktrace-extract: BTF of the dump at 0x%" PRIx64 " (%" PRIu64 " bytes) is "
			"damaged: %" PRIu64 " bytes unreadable, %" PRIu64 " zero-filled pages, the "
			"first at 0x%" PRIx64 "; types named there are lost; %u answers \"absent\" "
			"may be wrong", x->btf_start, x->btf_size, x->btf_unreadable,
			x->btf_zero_pages, x->btf_first_bad, x->doubtful);
		if (x->doubtful) {
			fputs(": ", f);
			print_names(f, x->doubtful_names, x->doubtful);
		}
		fputc('\n', f);
	}
	if (!x->ks && x->map) {
		lost++;
		fprintf(f, "ktrace-extract: kallsyms of the dump cannot be read (%s): symbols from "
			"System.map, but code addresses in the trace are printed as numbers\n",
			x->ks_err);
	}
	if (x->ambiguous) {
		fprintf(f, "ktrace-extract: BTF: %u enumerators have several values among the "
			"kernel's enums (DWARF tells them apart by compilation unit, BTF cannot): ",
			x->ambiguous);
		print_names(f, x->ambiguous_names, x->ambiguous);
		fputc('\n', f);
	}
	return lost;
}
