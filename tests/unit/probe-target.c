// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * probe-target: open a vmcore and its vmlinux with the extractor's target
 * and check what it answers against what the dump says of itself.
 *
 *   probe-target [-v] [-f] [-F] [-k VMLINUX] VMCORE
 *   probe-target -e dump|debuginfo|mismatch [-k VMLINUX] VMCORE
 *
 * Checks: init_uts_ns.name.release read through target.read equals the
 * dump's vmcoreinfo OSRELEASE; linux_banner starts with "Linux version
 * <OSRELEASE> "; the tracing layout the core needs resolves; global_trace
 * leads to the ring buffer of cpu 0; a user-space address
 * reads as -EFAULT; with -F (a makedumpfile -d 17/31 dump) some direct
 * map pages read as -ENODATA, without it none. Prints "ok"/"not ok" lines; exit 0 when all pass,
 * 1 otherwise. With -e, passes when opening fails with that error class.
 *
 * With -x, reads that prove the address translation where libktrace
 * cannot read the dump yet (s390x: big-endian): init_uts_ns at its
 * vmcoreinfo address, linux_banner equal to the vmlinux's own bytes,
 * runqueues.cpu of CPUs 0 and 1 through __per_cpu_offset, the first
 * module of the `modules` list (its name, its list's prev back to the
 * head), and the ring buffer's tail page of each CPU (its first u64, the
 * page's time stamp, within the bounds -r CPU:FIRST:LAST gives in
 * seconds: the CPU's oldest event and "now" of its stats file); with
 * -u CPU (nothing traced into that CPU's global ring: a recorder's case,
 * tracing off, events of one CPU only) its tail page empty instead, commit 0.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "types/vmsrc.h"

static int failed;
/* the target's byte order (KT_TARGET_BIG_ENDIAN) */
static int big_endian;

static void check(int ok, const char *fmt, const char *what, const char *why)
{
	printf("%s - ", ok ? "ok" : "not ok");
	printf(fmt, what);
	if (!ok && why && *why)
		printf(": %s", why);
	printf("\n");
	if (!ok)
		failed = 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *error_name(enum kx_error e)
{
	switch (e) {
	case KX_OK:
		return "ok";
	case KX_ERR_DUMP:
		return "dump";
	case KX_ERR_DEBUGINFO:
		return "debuginfo";
	case KX_ERR_MISMATCH:
		return "mismatch";
	case KX_ERR_NOMEM:
		return "nomem";
	}
	return "?";
}

/* The kernel's unsigned long (64-bit) at @addr, in the host's order. */
static int read_u64(struct kt_target *t, uint64_t addr, uint64_t *val)
{
	uint64_t raw;
	int ret = t->read(t->priv, addr, &raw, sizeof(raw));

	if (!ret)
		*val = big_endian ? be64toh(raw) : le64toh(raw);
	return ret;
}

static int read_s32(struct kt_target *t, uint64_t addr, int32_t *val)
{
	uint32_t raw;
	int ret = t->read(t->priv, addr, &raw, sizeof(raw));

	if (!ret)
		*val = (int32_t)(big_endian ? be32toh(raw) : le32toh(raw));
	return ret;
}

/* Read a NUL-terminated string of at most @len - 1 bytes at @addr. */
static int read_string(struct kt_target *t, uint64_t addr, char *buf,
		       size_t len)
{
	int ret = t->read(t->priv, addr, buf, len - 1);

	buf[len - 1] = '\0';
	return ret;
}

static void check_uts(struct kx_dump *d, struct kt_target *t)
{
	const char *rel = kx_dump__osrelease(d);
	uint64_t addr, off, size;
	char buf[256];
	int ret;

	ret = t->symbol(t->priv, "init_uts_ns", &addr);
	if (!ret)
		ret = t->member(t->priv, "struct uts_namespace", "name.release",
				&off, &size);
	if (!ret)
		ret = read_string(t, addr + off, buf,
				  size + 1 < sizeof(buf) ? size + 1 : sizeof(buf));
	check(!ret && !strcmp(buf, rel), "init_uts_ns release is %s", rel,
	      ret ? strerror(-ret) : buf);
	if (ret)
		fprintf(stderr, "  %s\n", kx_dump__last_error(d));

	ret = t->symbol(t->priv, "linux_banner", &addr);
	if (!ret)
		ret = read_string(t, addr, buf, 128);
	snprintf(buf + 128, sizeof(buf) - 128, "Linux version %s ", rel);
	check(!ret && !strncmp(buf, buf + 128, strlen(buf + 128)),
	      "linux_banner names %s", rel, ret ? strerror(-ret) : buf);
}

static void check_layout(struct kt_target *t)
{
	static const char *const members[][2] = {
		{ "struct ring_buffer_per_cpu", "reader_page" },
		{ "struct ring_buffer_per_cpu", "pages" },
		{ "struct buffer_page", "page" },
		{ "struct buffer_page", "list" },
		{ "struct buffer_data_page", "commit" },
		{ "struct buffer_data_page", "data" },
		{ "struct trace_event_call", "event.type" },
		{ "struct trace_event_call", "class" },
		{ "struct list_head", "next" },
	};
	char what[128];
	uint64_t off, size;
	int64_t value;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		snprintf(what, sizeof(what), "%s.%s", members[i][0],
			 members[i][1]);
		ret = t->member(t->priv, members[i][0], members[i][1], &off,
				&size);
		check(!ret, "member %s resolves", what,
		      ret ? strerror(-ret) : NULL);
		if (!ret)
			printf("# %s: offset %llu size %llu\n", what,
			       (unsigned long long)off,
			       (unsigned long long)size);
	}
	/* renamed in v5.6 (commit 1c5eb4481e01 "tracing: Rename
	 * trace_buffer to array_buffer") */
	ret = t->member(t->priv, "struct trace_array", "array_buffer.buffer",
			&off, &size);
	if (ret == -ENOENT)
		ret = t->member(t->priv, "struct trace_array",
				"trace_buffer.buffer", &off, &size);
	check(!ret, "member %s resolves", "struct trace_array buffer",
	      ret ? strerror(-ret) : NULL);
	ret = t->enumerator(t->priv, "TRACE_FLAG_IRQS_OFF", &value);
	check(!ret && value == 1, "enumerator %s is 1", "TRACE_FLAG_IRQS_OFF",
	      ret ? strerror(-ret) : "other value");
}

/* a type outside the anchor table: the slow path through every unit */
static void check_absent(struct kt_target *t)
{
	uint64_t off, size;
	int ret;

	ret = t->member(t->priv, "struct no_such_struct_ktrace", "x", &off,
			&size);
	check(ret == -ENOENT, "%s is absent", "struct no_such_struct_ktrace",
	      strerror(-ret));
	/* renamed struct trace_buffer in v5.6: absent, and found fast */
	ret = t->member(t->priv, "struct ring_buffer", "cpus", &off, &size);
	printf("# struct ring_buffer: %s\n", ret ? strerror(-ret) : "present");
}

/*
 * global_trace -> array_buffer.buffer -> buffers[0] -> cpu == 0: reads
 * through the heap. (struct trace_buffer lost its cpus member in v6.12;
 * it was struct ring_buffer before v5.6.)
 */
static int member_of(struct kt_target *t, const char *type, const char *alt,
		     const char *member, uint64_t *off)
{
	uint64_t size;
	int ret = t->member(t->priv, type, member, off, &size);

	if (ret == -ENOENT && alt)
		ret = t->member(t->priv, alt, member, off, &size);
	return ret;
}

static void check_ring_buffer(struct kx_dump *d, struct kt_target *t)
{
	uint64_t gt, off, buffer = 0, buffers = 0, cpu_buffer = 0;
	int32_t cpu = -1;
	int ret;

	ret = t->symbol(t->priv, "global_trace", &gt);
	if (!ret) {
		ret = member_of(t, "struct trace_array", NULL,
				"array_buffer.buffer", &off);
		if (ret == -ENOENT)
			ret = member_of(t, "struct trace_array", NULL,
					"trace_buffer.buffer", &off);
	}
	if (!ret)
		ret = read_u64(t, gt + off, &buffer);
	if (!ret)
		ret = member_of(t, "struct trace_buffer", "struct ring_buffer",
				"buffers", &off);
	if (!ret)
		ret = read_u64(t, buffer + off, &buffers);
	if (!ret)
		ret = read_u64(t, buffers, &cpu_buffer);
	if (!ret)
		ret = member_of(t, "struct ring_buffer_per_cpu", NULL, "cpu",
				&off);
	if (!ret)
		ret = read_s32(t, cpu_buffer + off, &cpu);
	check(!ret && cpu == 0, "global_trace's buffers[0] is %s",
	      "the buffer of cpu 0", ret ? strerror(-ret) : "another cpu's");
	if (ret)
		fprintf(stderr, "  %s\n", kx_dump__last_error(d));
	else
		printf("# global_trace buffer 0x%llx, cpu 0 buffer 0x%llx\n",
		       (unsigned long long)buffer,
		       (unsigned long long)cpu_buffer);
}

static void check_unmapped(struct kx_dump *d, struct kt_target *t)
{
	char buf[16], what[64], *s;
	uint64_t base = 0;
	int ret;

	if (!big_endian) {
		ret = t->read(t->priv, 0x1000, buf, sizeof(buf));
		check(ret == -EFAULT, "read at %s fails with EFAULT", "0x1000",
		      ret ? strerror(-ret) : "it succeeded");
	} else {
		/*
		 * s390x: the kernel's addresses are an address space of their
		 * own, 0x1000 its lowcore or identity map; 1 TiB past the
		 * identity map's start is past the guest's memory
		 */
		s = kx_dump__vmcoreinfo_line(d, "IDENTITYBASE");
		if (s)
			base = strtoull(s, NULL, 16);
		free(s);
		snprintf(what, sizeof(what), "0x%llx (IDENTITYBASE + 1 TiB)",
			 (unsigned long long)(base + (1ULL << 40)));
		ret = t->read(t->priv, base + (1ULL << 40), buf, sizeof(buf));
		check(ret == -EFAULT, "read at %s fails with EFAULT", what,
		      ret ? strerror(-ret) : "it succeeded");
	}
	/* non-canonical on x86_64 */
	ret = t->read(t->priv, 0x8000000000000000ULL, buf, sizeof(buf));
	check(ret == -EFAULT, "read at %s fails with EFAULT",
	      "0x8000000000000000", ret ? strerror(-ret) : "it succeeded");
}

/*
 * The @len bytes at link address @addr in the vmlinux's file (its
 * initial data), or -1.
 */
static int vmlinux_bytes(const char *path, uint64_t addr, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY), ret = -1;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size)
			continue;
		if (len > sh.sh_size - (addr - sh.sh_addr))
			len = sh.sh_size - (addr - sh.sh_addr);
		if (pread(fd, buf, len, sh.sh_offset + (addr - sh.sh_addr)) == (ssize_t)len)
			ret = (int)len;
		break;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* -x: init_uts_ns where vmcoreinfo says; linux_banner as the vmlinux has it */
static void check_image(struct kx_dump *d, struct kt_target *t)
{
	const char *rel = kx_dump__osrelease(d);
	char buf[256], want[256];
	uint64_t addr = 0, off, size;
	int ret, n;

	ret = kx_dump__vmcoreinfo_symbol(d, "init_uts_ns", &addr) ? -ENOENT : 0;
	if (!ret)
		ret = t->member(t->priv, "struct uts_namespace", "name.release", &off, &size);
	if (!ret)
		ret = read_string(t, addr + off, buf,
				  size + 1 < sizeof(buf) ? size + 1 : sizeof(buf));
	check(!ret && !strcmp(buf, rel), "init_uts_ns at vmcoreinfo's address: release %s",
	      rel, ret ? strerror(-ret) : buf);
	if (!ret)
		printf("# init_uts_ns 0x%llx\n", (unsigned long long)addr);

	ret = t->symbol(t->priv, "linux_banner", &addr);
	if (!ret)
		ret = read_string(t, addr, buf, sizeof(buf));
	n = ret ? -1 : vmlinux_bytes(kx_dump__vmlinux(d), addr - kx_dump__kaslr_offset(d),
				     want, sizeof(want) - 1);
	if (n >= 0)
		want[n] = '\0';
	check(!ret && n > 0 && !strcmp(buf, want), "linux_banner is %s",
	      "the vmlinux's", ret ? strerror(-ret) : n <= 0 ? "not in the vmlinux's file" : buf);
	if (!ret)
		printf("# linux_banner 0x%llx: %.60s\n", (unsigned long long)addr, buf);
}

/* -x: runqueues.cpu of CPUs 0 and 1, through __per_cpu_offset[] */
static void check_percpu(struct kx_dump *d, struct kt_target *t)
{
	uint64_t offs, rq, off, size, pcpu = 0;
	int32_t cpu = -1;
	char what[32];
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = t->symbol(t->priv, "__per_cpu_offset", &offs);
		if (!ret)
			ret = read_u64(t, offs + 8 * i, &pcpu);
		if (!ret)
			ret = t->symbol(t->priv, "runqueues", &rq);
		if (!ret)
			ret = t->member(t->priv, "struct rq", "cpu", &off, &size);
		if (!ret)
			ret = read_s32(t, rq + pcpu + off, &cpu);
		snprintf(what, sizeof(what), "%d", i);
		check(!ret && cpu == i, "percpu runqueues of cpu %s says its cpu", what,
		      ret ? kx_dump__last_error(d) : "another cpu");
		if (!ret)
			printf("# cpu %d: __per_cpu_offset 0x%llx, runqueues 0x%llx\n", i,
			       (unsigned long long)pcpu, (unsigned long long)(rq + pcpu));
	}
}

/* -x: the first module of `modules`: its name, and its list back to the head */
static void check_module(struct kx_dump *d, struct kt_target *t)
{
	uint64_t head, next = 0, prev = 0, loff, noff, size, mod = 0;
	char name[64] = "", *p;
	int ret, plausible;

	ret = t->symbol(t->priv, "modules", &head);
	if (!ret)
		ret = read_u64(t, head, &next);
	if (!ret && next == head) {
		printf("skip - a module: none loaded\n");
		return;
	}
	if (!ret)
		ret = t->member(t->priv, "struct module", "list", &loff, &size);
	if (!ret)
		ret = t->member(t->priv, "struct module", "name", &noff, &size);
	if (!ret) {
		mod = next - loff;
		ret = read_string(t, mod + noff, name,
				  size + 1 < sizeof(name) ? size + 1 : sizeof(name));
	}
	if (!ret)
		ret = read_u64(t, mod + loff + 8, &prev);
	plausible = !ret && name[0];
	for (p = name; plausible && *p; p++)
		plausible = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			    *p == '_' || *p == '-';
	check(plausible && prev == head, "the first module, %s, links back to `modules`",
	      name[0] ? name : "?", ret ? kx_dump__last_error(d) :
	      !plausible ? "not a module's name" : "its list.prev is not `modules`");
	if (!ret)
		printf("# module %s at 0x%llx\n", name, (unsigned long long)mod);
}

/*
 * -x: each CPU's tail page of global_trace's buffer: its data page
 * (struct buffer_data_page) starts with the page's time stamp, u64 in the
 * kernel's order, within [first, last] seconds of -r when given.
 */
struct ts_bound {
	double first, last;
	int set;
	int unused;	/* -u CPU: the CPU's global ring never written (its tail page empty) */
};

static void check_ring_pages(struct kx_dump *d, struct kt_target *t, const struct ts_bound *b)
{
	uint64_t gt, off, buffer = 0, buffers = 0, cpu_buffer = 0, bpage = 0, page = 0;
	uint64_t ts = 0, commit = 0;
	char what[32], why[160];
	int cpu, ret;

	for (cpu = 0; cpu < 2; cpu++) {
		ret = t->symbol(t->priv, "global_trace", &gt);
		if (!ret)
			ret = member_of(t, "struct trace_array", NULL, "array_buffer.buffer", &off);
		if (!ret)
			ret = read_u64(t, gt + off, &buffer);
		if (!ret)
			ret = member_of(t, "struct trace_buffer", NULL, "buffers", &off);
		if (!ret)
			ret = read_u64(t, buffer + off, &buffers);
		if (!ret)
			ret = read_u64(t, buffers + 8 * cpu, &cpu_buffer);
		if (!ret)
			ret = member_of(t, "struct ring_buffer_per_cpu", NULL, "tail_page", &off);
		if (!ret)
			ret = read_u64(t, cpu_buffer + off, &bpage);
		if (!ret)
			ret = member_of(t, "struct buffer_page", NULL, "page", &off);
		if (!ret)
			ret = read_u64(t, bpage + off, &page);
		if (!ret)
			ret = read_u64(t, page, &ts);
		if (!ret)
			ret = member_of(t, "struct buffer_data_page", NULL, "commit", &off);
		if (!ret)
			ret = read_u64(t, page + off, &commit);
		snprintf(what, sizeof(what), "%d", cpu);
		/* RB_MISSED_EVENTS and RB_MISSED_STORED are the commit's high bits */
		commit &= 0xfffff;
		if (ret)
			snprintf(why, sizeof(why), "%s", kx_dump__last_error(d));
		else
			snprintf(why, sizeof(why), "time stamp %.6f s, commit %llu", ts / 1e9,
				 (unsigned long long)commit);
		if (b[cpu].unused)
			check(!ret && !commit, "cpu %s's tail page is empty (nothing traced there)",
			      what, why);
		else
			check(!ret && ts && commit && commit < (1u << 20) &&
				      (!b[cpu].set || (ts >= b[cpu].first * 1e9 - 1e3 &&
						       ts <= b[cpu].last * 1e9 + 1e3)),
			      "cpu %s's tail page starts with its time stamp", what, why);
		if (!ret)
			printf("# cpu %d: buffer_page 0x%llx, data page 0x%llx: %s\n", cpu,
			       (unsigned long long)bpage, (unsigned long long)page, why);
	}
}

/*
 * Read the first 8 bytes of each page of the first 64 MiB of the direct
 * map (x86_64: page_offset_base; elsewhere the 64 MiB that hold the page
 * of vmcoreinfo_data). A filtered dump (makedumpfile -d 17 or
 * 31) must answer -ENODATA for some (free pages), an unfiltered one for
 * none, and no page may fail with -EIO.
 */
static void check_filtered(struct kx_dump *d, struct kt_target *t,
			   int expect_filtered)
{
	uint64_t base = 0xffff888000000000ULL, addr, v, i;
	unsigned long ok = 0, nodata = 0, fault = 0, io = 0;
	int ret;

	if (!t->symbol(t->priv, "page_offset_base", &addr)) {
		if (t->read(t->priv, addr, &base, sizeof(base))) {
			check(0, "read %s", "page_offset_base", kx_dump__last_error(d));
			return;
		}
	} else if (!t->symbol(t->priv, "vmcoreinfo_data", &addr)) {
		/*
		 * not x86_64 (arm64's linear map moves with the RAM's base and
		 * KASLR): the 64 MiB around a page the kernel allocated
		 */
		if (read_u64(t, addr, &base)) {
			check(0, "read %s", "vmcoreinfo_data", kx_dump__last_error(d));
			return;
		}
		base &= ~((64ULL << 20) - 1);
	}
	for (i = 0; i < (64ULL << 20) / 4096; i++) {
		ret = t->read(t->priv, base + i * 4096, &v, sizeof(v));
		if (!ret)
			ok++;
		else if (ret == -ENODATA)
			nodata++;
		else if (ret == -EFAULT)
			fault++;
		else if (io++ == 0)
			fprintf(stderr, "  %s\n", kx_dump__last_error(d));
	}
	printf("# direct map 0x%llx + 64 MiB: %lu read, %lu filtered, "
	       "%lu unmapped, %lu errors\n",
	       (unsigned long long)base, ok, nodata, fault, io);
	check(io == 0 && ok > 0, "direct map pages read %s", "without errors",
	      NULL);
	check(expect_filtered ? nodata > 0 : nodata == 0,
	      "filtered pages are %s", expect_filtered ? "ENODATA" : "none",
	      NULL);
}

int main(int argc, char **argv)
{
	struct kx_dump_opts opts = { .sz = sizeof(opts) };
	const char *expect = NULL;
	struct kx_dump *d;
	struct kt_target t, mem;
	enum kx_error err = KX_OK;
	char msg[1024];
	double t0;
	struct ts_bound bound[2] = { { 0 } };
	int expect_filtered = 0, extended = 0, c, cpu;
	double first, last;

	while ((c = getopt(argc, argv, "vfFxu:k:e:r:")) != -1) {
		switch (c) {
		case 'x':
			extended = 1;
			break;
		case 'u':
			if (sscanf(optarg, "%d", &cpu) != 1 || cpu < 0 || cpu > 1) {
				fprintf(stderr, "%s: -u CPU, CPU 0 or 1\n", argv[0]);
				return 2;
			}
			bound[cpu].unused = 1;
			break;
		case 'r':
			if (sscanf(optarg, "%d:%lf:%lf", &cpu, &first, &last) != 3 || cpu < 0 ||
			    cpu > 1) {
				fprintf(stderr, "%s: -r CPU:FIRST:LAST, CPU 0 or 1\n", argv[0]);
				return 2;
			}
			bound[cpu].first = first;
			bound[cpu].last = last;
			bound[cpu].set = 1;
			break;
		case 'F':
			expect_filtered = 1;
			break;
		case 'v':
			opts.verbose = 1;
			break;
		case 'f':
			opts.force = 1;
			break;
		case 'k':
			opts.vmlinux = optarg;
			break;
		case 'e':
			expect = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-v] [-f] [-F] [-x [-r CPU:FIRST:LAST]...] "
					"[-k vmlinux] [-e dump|debuginfo|mismatch] vmcore\n",
				argv[0]);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: one vmcore expected\n", argv[0]);
		return 2;
	}

	t0 = now_ms();
	d = kx_dump__open(argv[optind], &opts, &err, msg, sizeof(msg));
	if (expect) {
		check(!d && !strcmp(error_name(err), expect),
		      "open fails with error class %s", expect,
		      d ? "it opened" : error_name(err));
		printf("# %s\n", d ? "" : msg);
		kx_dump__close(d);
		return failed;
	}
	if (!d) {
		printf("not ok - open: %s error: %s\n", error_name(err), msg);
		return 1;
	}
	printf("# %s: %s, release %s, KASLR offset 0x%llx, vmlinux %s, "
	       "opened in %.0f ms\n",
	       argv[optind], kx_dump__format(d), kx_dump__osrelease(d),
	       (unsigned long long)kx_dump__kaslr_offset(d),
	       kx_dump__vmlinux(d), now_ms() - t0);
	/* memory from the dump, types and symbols from the vmlinux opened with it */
	kx_dump__target(d, &mem);
	if (kx_dump__vmsrc(d))
		kx_vmsrc__target(kx_dump__vmsrc(d), &mem, &t);
	else
		t = mem;
	big_endian = !!(t.flags & KT_TARGET_BIG_ENDIAN);
	check_uts(d, &t);
	t0 = now_ms();
	check_layout(&t);
	printf("# layout resolved in %.1f ms\n", now_ms() - t0);
	t0 = now_ms();
	check_absent(&t);
	printf("# absent type answered in %.1f ms\n", now_ms() - t0);
	check_ring_buffer(d, &t);
	check_unmapped(d, &t);
	check_filtered(d, &t, expect_filtered);
	if (extended) {
		check_image(d, &t);
		check_percpu(d, &t);
		check_module(d, &t);
		check_ring_pages(d, &t, bound);
	}
	kx_dump__close(d);
	return failed;
}
