// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile's answers from BTF, for machines without the kernel's debug
 * package: the running kernel's /sys/kernel/btf/vmlinux, or the .BTF
 * section of a vmlinux (CONFIG_DEBUG_INFO_BTF, Debian since 5.x). BTF has
 * types and enumerators but no symbols: those come from System.map
 * (link-time addresses, what a profile stores) or /proc/kallsyms (run-time
 * addresses, moved back by the running kernel's KASLR offset).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "profile-private.h"
#include "symbols.h"
#include "vmlinux.h"

struct msym {
	char *name;
	uint64_t addr;
	unsigned int line;
	uint8_t rank;		/* 3 global, 2 weak, 1 local */
	uint8_t reloc;
};

struct benum {
	const char *name;	/* in the BTF string section */
	int64_t value;
	unsigned int seq;
};

struct btf_src {
	struct btf *btf;
	struct benum *enums;	/* sorted by name, then order in the BTF */
	size_t nenums, enums_cap;
	struct msym *syms;	/* sorted by name, then rank, then line */
	size_t nsyms;
};

static int cmp_msym(const void *a, const void *b)
{
	const struct msym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return y->rank - x->rank;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * "ffffffff82a0b000 D global_trace" lines. Ranks as kx_symtab__lookup()
 * chooses among symbols of one name: global, then weak, then the first
 * local. Absolute symbols and x86_64 per-CPU ones (zero-based, below the
 * kernel half) are not moved by KASLR.
 */
static int load_map(struct btf_src *bs, const char *path, char *msg,
		    size_t msglen)
{
	FILE *f = fopen(path, "re");
	char line[512], name[256], type;
	unsigned long long addr, text = 0;
	size_t cap = 0;
	unsigned int lineno = 0;
	int kallsyms = !strcmp(path, "/proc/kallsyms"), nonzero = 0;

	if (!f) {
		snprintf(msg, msglen, "symbols %s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		struct msym *m;

		lineno++;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (strchr(line, '['))	/* a module's symbol (kallsyms) */
			continue;
		if (bs->nsyms == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			struct msym *ns = realloc(bs->syms, nc * sizeof(*ns));

			if (!ns) {
				fclose(f);
				return -ENOMEM;
			}
			bs->syms = ns;
			cap = nc;
		}
		m = &bs->syms[bs->nsyms];
		m->name = strdup(name);
		if (!m->name) {
			fclose(f);
			return -ENOMEM;
		}
		m->addr = addr;
		m->line = lineno;
		m->rank = isupper((unsigned char)type) ? 3 : 1;
		if (type == 'w' || type == 'W' || type == 'v' || type == 'V')
			m->rank = 2;
		m->reloc = type != 'a' && type != 'A' && addr >= 0xffff800000000000ULL;
		nonzero |= addr != 0;
		if (!strcmp(name, "_text"))
			text = addr;
		bs->nsyms++;
	}
	fclose(f);
	if (!bs->nsyms || !nonzero) {
		snprintf(msg, msglen, "symbols %s: %s", path,
			 bs->nsyms ? "every address is 0 (kptr_restrict; run as root)" :
				     "no symbols");
		return -EINVAL;
	}
	/*
	 * Debian's linux-image packages ship a one-line placeholder ("The
	 * real System.map is in the linux-image-<version>-dbg package").
	 */
	if (bs->nsyms < 1000) {
		snprintf(msg, msglen,
			 "symbols %s: only %zu symbols, not a kernel's symbol map (a "
			 "placeholder? Debian ships the real System.map in the -dbg "
			 "package; use /proc/kallsyms of the running kernel)",
			 path, bs->nsyms);
		return -EINVAL;
	}
	if (kallsyms) {
		/*
		 * Run-time addresses: x86_64 links _text at __START_KERNEL,
		 * 0xffffffff81000000 with the default CONFIG_PHYSICAL_START;
		 * the difference is this boot's KASLR offset.
		 */
		uint64_t off = text - 0xffffffff81000000ULL;
		size_t i;

		if (!text) {
			snprintf(msg, msglen, "symbols %s: no _text", path);
			return -EINVAL;
		}
		for (i = 0; i < bs->nsyms; i++)
			if (bs->syms[i].reloc)
				bs->syms[i].addr -= off;
	}
	qsort(bs->syms, bs->nsyms, sizeof(*bs->syms), cmp_msym);
	return 0;
}

static int b_symbol(void *priv, const char *name, uint64_t *addr, int *reloc)
{
	struct btf_src *bs = priv;
	size_t lo = 0, hi = bs->nsyms;

	/* the first entry of that name: the best ranked */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(bs->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == bs->nsyms || strcmp(bs->syms[lo].name, name))
		return -ENOENT;
	*addr = bs->syms[lo].addr;
	*reloc = bs->syms[lo].reloc;
	return 0;
}

/* "struct foo", "union foo", "enum foo", or a typedef or base type name */
static int find_type(const struct btf *btf, const char *spelled)
{
	static const struct {
		const char *prefix;
		int kind;
	} kw[] = {
		{ "struct ", BTF_KIND_STRUCT },
		{ "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },
	};
	size_t i;
	int id;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t len = strlen(kw[i].prefix);

		if (strncmp(spelled, kw[i].prefix, len))
			continue;
		id = btf__find_by_name_kind(btf, spelled + len, kw[i].kind);
		if (id < 0 && kw[i].kind == BTF_KIND_ENUM)
			id = btf__find_by_name_kind(btf, spelled + len,
						    BTF_KIND_ENUM64);
		return id < 0 ? -ENOENT : id;
	}
	id = btf__find_by_name_kind(btf, spelled, BTF_KIND_TYPEDEF);
	if (id < 0)
		id = btf__find_by_name_kind(btf, spelled, BTF_KIND_INT);
	return id < 0 ? -ENOENT : id;
}

/* @name (@len bytes) in aggregate @id, through anonymous members */
static int find_member(const struct btf *btf, int id, const char *name,
		       size_t len, uint64_t *bitoff, const struct btf_type **agg,
		       int *midx)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_composite(t))
		return -EINVAL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		uint64_t sub;

		if (mn && *mn) {
			if (strlen(mn) == len && !strncmp(mn, name, len)) {
				*bitoff = btf_member_bit_offset(t, i);
				*agg = t;
				*midx = i;
				return 0;
			}
			continue;
		}
		/* an anonymous struct or union: its members are ours */
		if (!find_member(btf, btf__resolve_type(btf, m->type), name, len,
				 &sub, agg, midx)) {
			*bitoff = btf_member_bit_offset(t, i) + sub;
			return 0;
		}
	}
	return -ENOENT;
}

static int b_member(void *priv, const char *type, const char *member,
		    uint64_t *offset, uint64_t *size)
{
	struct btf_src *bs = priv;
	const struct btf_type *agg = NULL;
	const struct btf_member *m = NULL;
	uint64_t total = 0, bitoff;
	const char *p = member;
	int id = find_type(bs->btf, type), midx, ret;
	long long sz;

	if (id < 0)
		return id;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		id = btf__resolve_type(bs->btf, id);
		if (id < 0)
			return -EIO;
		if (!len)
			return -EINVAL;
		ret = find_member(bs->btf, id, p, len, &bitoff, &agg, &midx);
		if (ret)
			return ret;
		m = btf_members(agg) + midx;
		if (!dot) {
			uint32_t bits = btf_member_bitfield_size(agg, midx);

			*offset = total + bitoff / 8;
			if (bits)
				sz = (bitoff % 8 + bits + 7) / 8;
			else
				sz = btf__resolve_size(bs->btf, m->type);
			if (sz < 0)
				return -EIO;
			if (size)
				*size = (uint64_t)sz;
			return 0;
		}
		total += bitoff / 8;
		id = m->type;
		p = dot + 1;
	}
}

static int b_type_size(void *priv, const char *type, uint64_t *size)
{
	struct btf_src *bs = priv;
	int id = find_type(bs->btf, type);
	long long sz;

	if (id < 0)
		return id;
	sz = btf__resolve_size(bs->btf, id);
	if (sz < 0)
		return -EIO;
	*size = (uint64_t)sz;
	return 0;
}

/* Visit every enumerator: (name, value) to @cb; stop at a non-zero return */
static int walk_enums(const struct btf *btf,
		      int (*cb)(void *arg, const char *name, int64_t value),
		      void *arg)
{
	unsigned int id, n = btf__type_cnt(btf);
	int i, ret;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (i = 0; i < btf_vlen(t); i++, e++) {
				/* kflag: signed enum (else the 32 bits are unsigned) */
				int64_t v = btf_kflag(t) ? (int64_t)(int32_t)e->val :
							   (int64_t)(uint32_t)e->val;

				ret = cb(arg, btf__name_by_offset(btf, e->name_off), v);
				if (ret)
					return ret;
			}
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (i = 0; i < btf_vlen(t); i++, e++) {
				ret = cb(arg, btf__name_by_offset(btf, e->name_off),
					 (int64_t)btf_enum64_value(e));
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static int enum_add(void *arg, const char *name, int64_t value)
{
	struct btf_src *bs = arg;

	if (!name || !*name)
		return 0;
	if (bs->nenums == bs->enums_cap) {
		size_t nc = bs->enums_cap ? 2 * bs->enums_cap : 16384;
		struct benum *ne = realloc(bs->enums, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		bs->enums = ne;
		bs->enums_cap = nc;
	}
	bs->enums[bs->nenums].name = name;
	bs->enums[bs->nenums].value = value;
	bs->enums[bs->nenums].seq = (unsigned int)bs->nenums;
	bs->nenums++;
	return 0;
}

static int cmp_benum(const void *a, const void *b)
{
	const struct benum *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The first enumerator of that name in the BTF */
static int b_enumerator(void *priv, const char *name, int64_t *value)
{
	struct btf_src *bs = priv;
	size_t lo = 0, hi = bs->nenums;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(bs->enums[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == bs->nenums || strcmp(bs->enums[lo].name, name))
		return -ENOENT;
	*value = bs->enums[lo].value;
	return 0;
}

struct enum_names {
	int (*cb)(void *arg, const char *name);
	void *arg;
};

static int enum_name(void *arg, const char *name, int64_t value)
{
	struct enum_names *en = arg;

	return name && *name ? en->cb(en->arg, name) : 0;
}

static int b_enumerators(void *priv, int (*cb)(void *arg, const char *name),
			 void *arg)
{
	struct btf_src *bs = priv;
	struct enum_names en = { cb, arg };

	return walk_enums(bs->btf, enum_name, &en);
}

static void b_close(void *priv)
{
	struct btf_src *bs = priv;
	size_t i;

	if (!bs)
		return;
	for (i = 0; i < bs->nsyms; i++)
		free(bs->syms[i].name);
	free(bs->syms);
	free(bs->enums);
	btf__free(bs->btf);
	free(bs);
}

/* GNU build-id of the running kernel, from /sys/kernel/notes */
static void running_build_id(char *out, size_t outlen)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t pos = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && pos + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		size_t desc;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		desc = pos + 12 + ((namesz + 3) & ~3U);
		if (desc + descsz > (size_t)n)
			return;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(buf + pos + 12, "GNU", 4) && 2 * descsz < outlen) {
			uint32_t i;

			for (i = 0; i < descsz; i++)
				sprintf(out + 2 * i, "%02x", buf[desc + i]);
			return;
		}
		pos = desc + ((descsz + 3) & ~3U);
	}
}

int kx_psource__btf(struct kx_psource *src, const char *btf,
		    const char *system_map, const char *release,
		    const char *build_id, char *msg, size_t msglen)
{
	struct btf_src *bs = calloc(1, sizeof(*bs));
	int running = !strcmp(btf, "/sys/kernel/btf/vmlinux");
	struct kx_vmlinux vml = { .fd = -1 };
	struct utsname uts;
	int ret;

	if (!bs)
		return -ENOMEM;
	memset(src, 0, sizeof(*src));
	if (!system_map) {
		snprintf(msg, msglen, "BTF %s: has no symbols; give --system-map "
			 "(System.map of that kernel, or /proc/kallsyms)", btf);
		ret = -EINVAL;
		goto out;
	}
	bs->btf = btf__parse(btf, NULL);
	if (!bs->btf) {
		ret = -errno;
		snprintf(msg, msglen, "BTF %s: cannot parse: %s", btf, strerror(errno));
		goto out;
	}
	ret = walk_enums(bs->btf, enum_add, bs);
	if (ret)
		goto out;
	qsort(bs->enums, bs->nenums, sizeof(*bs->enums), cmp_benum);
	ret = load_map(bs, system_map, msg, msglen);
	if (ret)
		goto out;
	/* an ELF file (a vmlinux with .BTF) tells its build-id and arch */
	if (!running && !kx_vmlinux__open(&vml, btf, msg, msglen)) {
		struct kx_symtab *st = NULL;
		GElf_Ehdr ehdr;

		snprintf(src->build_id, sizeof(src->build_id), "%s", vml.build_id);
		if (!kx_symtab__load(vml.elf, &st)) {
			kx_vmlinux__read_release(&vml, st);
			snprintf(src->release, sizeof(src->release), "%s", vml.release);
			kx_symtab__free(st);
		}
		if (gelf_getehdr(vml.elf, &ehdr) && ehdr.e_machine == EM_X86_64)
			snprintf(src->arch, sizeof(src->arch), "x86_64");
		kx_vmlinux__close(&vml);
	}
	msg[0] = '\0';
	if (running) {
		running_build_id(src->build_id, sizeof(src->build_id));
		if (!uname(&uts)) {
			snprintf(src->release, sizeof(src->release), "%s", uts.release);
			if (!strcmp(uts.machine, "x86_64"))
				snprintf(src->arch, sizeof(src->arch), "x86_64");
		}
	}
	if (release)
		snprintf(src->release, sizeof(src->release), "%s", release);
	if (build_id)
		snprintf(src->build_id, sizeof(src->build_id), "%s", build_id);
	if (!src->release[0]) {
		snprintf(msg, msglen, "BTF %s: cannot tell the kernel release; give "
			 "--release", btf);
		ret = -EINVAL;
		goto out;
	}
	src->priv = bs;
	src->symbol = b_symbol;
	src->member = b_member;
	src->type_size = b_type_size;
	src->enumerator = b_enumerator;
	src->enumerators = b_enumerators;
	src->close = b_close;
	snprintf(src->source, sizeof(src->source), "btf %s, symbols %s", btf,
		 system_map);
	return 0;
out:
	b_close(bs);
	return ret;
}
