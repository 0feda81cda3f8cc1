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
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dump.h"

static int failed;

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
		ret = t->read(t->priv, gt + off, &buffer, sizeof(buffer));
	if (!ret)
		ret = member_of(t, "struct trace_buffer", "struct ring_buffer",
				"buffers", &off);
	if (!ret)
		ret = t->read(t->priv, buffer + off, &buffers, sizeof(buffers));
	if (!ret)
		ret = t->read(t->priv, buffers, &cpu_buffer, sizeof(cpu_buffer));
	if (!ret)
		ret = member_of(t, "struct ring_buffer_per_cpu", NULL, "cpu",
				&off);
	if (!ret)
		ret = t->read(t->priv, cpu_buffer + off, &cpu, sizeof(cpu));
	check(!ret && cpu == 0, "global_trace's buffers[0] is %s",
	      "the buffer of cpu 0", ret ? strerror(-ret) : "another cpu's");
	if (ret)
		fprintf(stderr, "  %s\n", kx_dump__last_error(d));
	else
		printf("# global_trace buffer 0x%llx, cpu 0 buffer 0x%llx\n",
		       (unsigned long long)buffer,
		       (unsigned long long)cpu_buffer);
}

static void check_unmapped(struct kt_target *t)
{
	char buf[16];
	int ret = t->read(t->priv, 0x1000, buf, sizeof(buf));

	check(ret == -EFAULT, "read at %s fails with EFAULT", "0x1000",
	      ret ? strerror(-ret) : "it succeeded");
	/* non-canonical on x86_64 */
	ret = t->read(t->priv, 0x8000000000000000ULL, buf, sizeof(buf));
	check(ret == -EFAULT, "read at %s fails with EFAULT",
	      "0x8000000000000000", ret ? strerror(-ret) : "it succeeded");
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
		if (t->read(t->priv, addr, &base, sizeof(base))) {
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
	struct kt_target t;
	enum kx_error err = KX_OK;
	char msg[1024];
	double t0;
	int expect_filtered = 0, c;

	while ((c = getopt(argc, argv, "vfFk:e:")) != -1) {
		switch (c) {
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
			fprintf(stderr, "usage: %s [-v] [-f] [-F] [-k vmlinux] "
					"[-e dump|debuginfo|mismatch] vmcore\n",
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
	kx_dump__target(d, &t);
	check_uts(d, &t);
	t0 = now_ms();
	check_layout(&t);
	printf("# layout resolved in %.1f ms\n", now_ms() - t0);
	t0 = now_ms();
	check_absent(&t);
	printf("# absent type answered in %.1f ms\n", now_ms() - t0);
	check_ring_buffer(d, &t);
	check_unmapped(&t);
	check_filtered(d, &t, expect_filtered);
	kx_dump__close(d);
	return failed;
}
