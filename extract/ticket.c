// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktrace-extract --ticket OUT: libktrace writes the outputs
 * (kt_ticket__write); this front end adds the layout profile the run
 * used, so the ticket can be read again elsewhere without the vmcore's
 * debuginfo: the --profile file as it was, or one made from the vmlinux.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <unistd.h>
#include "dump.h"
#include "ticket.h"
#include "types/indump.h"
#include "types/profile.h"
#include "types/resolve.h"

/* what add_profile() is given: the session and what answered its questions */
struct ticket_src {
	const struct kx_resolver *r;
	struct kt_session *s;
};

static int copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	FILE *in = fopen(from, "r"), *out;
	size_t n;
	int err = 0;

	if (!in)
		return -errno;
	out = fopen(to, "w");
	if (!out) {
		err = -errno;
		fclose(in);
		return err;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			err = -EIO;
	if (ferror(in))
		err = -EIO;
	fclose(in);
	if (fclose(out) && !err)
		err = -EIO;
	return err;
}

/*
 * The dump alone: its BTF and its kallsyms moved back to link-time
 * addresses (KERNELOFFSET) are what --make-profile --btf --system-map
 * takes; written beside the profile for that, then removed. The kallsyms
 * tables' own symbols are not in kallsyms: a profile without them finds
 * them in VMCOREINFO (6.0+); before, the --system-map given is used.
 */
static int profile_from_dump(const struct ticket_src *src, const char *release, const char *dir,
			     const char *path)
{
	struct kx_profile_make_opts po = { .sz = sizeof(po) };
	const char *system_map = kx_resolver__system_map(src->r);
	char *btf = NULL, *map = NULL, *koff, type;
	uint64_t kaslr = 0, addr;
	const char *name;
	const void *raw;
	uint32_t size;
	FILE *f;
	int i, err = -EIO;

	raw = kx_indump__btf_raw(kx_resolver__indump(src->r), &size);
	if (!raw || asprintf(&btf, "%s/.vmlinux.btf.tmp", dir) < 0 ||
	    asprintf(&map, "%s/.System.map.tmp", dir) < 0)
		goto out;
	f = fopen(btf, "w");
	if (!f)
		goto out;
	err = fwrite(raw, 1, size, f) == size ? 0 : -EIO;
	if (fclose(f) || err)
		goto out;
	if (system_map) {
		/* the map given has the kallsyms tables' own symbols too */
		po.system_map = system_map;
		goto make;
	}
	koff = kx_dump__vmcoreinfo_line(kx_resolver__dump(src->r), "KERNELOFFSET");
	if (koff)
		kaslr = strtoull(koff, NULL, 16);
	free(koff);
	f = fopen(map, "w");
	if (!f) {
		err = -errno;
		goto out;
	}
	for (i = 0; kt_session__kallsym(src->s, i, &addr, &type, &name) == 1; i++)
		fprintf(f, "%016" PRIx64 " %c %s\n", addr - kaslr, type, name);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) || err || !i) {
		err = -EIO;
		goto out;
	}
	po.system_map = map;
make:
	po.output = path;
	po.btf = btf;
	po.release = release;
	po.build_id = kt_session__build_id(src->s);
	err = kx_profile__make(&po) ? -EIO : 0;
out:
	if (btf)
		unlink(btf);
	if (map)
		unlink(map);
	free(btf);
	free(map);
	if (err)
		fprintf(stderr, "ktrace-extract: the ticket has no layout profile: making one from "
				"the dump's BTF and kallsyms failed\n");
	return err;
}

static int add_profile(void *priv, const char *dir)
{
	const struct ticket_src *src = priv;
	const struct kx_resolver *r = src->r;
	const char *release = kx_dump__osrelease(kx_resolver__dump(r));
	struct kx_profile_make_opts po = { .sz = sizeof(po) };
	char *path;
	int err = 0;

	if (asprintf(&path, "%s/%s.profile", dir, release ? release : "kernel") < 0)
		return -ENOMEM;
	switch (kx_resolver__from(r)) {
	case KX_TYPES_PROFILE:
		err = copy_file(kx_resolver__profile(r), path);
		if (err)
			fprintf(stderr, "ktrace-extract: copying the profile %s into the ticket: %s\n",
				kx_resolver__profile(r), strerror(-err));
		break;
	case KX_TYPES_DUMP:
		err = profile_from_dump(src, release, dir, path);
		break;
	case KX_TYPES_DWARF:
		/* the questions libktrace asks by name, answered from the DWARF */
		po.output = path;
		po.vmlinux = kx_resolver__vmlinux(r);
		/* the out-of-tree recorders' types this run read, as the run did */
		po.module_debuginfo = kx_resolver__module_debuginfo(r);
		if (kx_profile__make(&po)) {
			fprintf(stderr, "ktrace-extract: the ticket has no layout profile: "
					"making one from %s failed\n", po.vmlinux);
			err = -EIO;
		}
		break;
	}
	free(path);
	return err;
}

/* --fsync: stderr too, when it is a file (the kdump hook's log) */
static void sync_stderr(const struct kx_options *o)
{
	struct stat st;

	if (o->fsync && !fstat(STDERR_FILENO, &st) && S_ISREG(st.st_mode))
		fdatasync(STDERR_FILENO);
}

int kx_ticket(const struct kx_options *o, struct kt_session *s, const struct kx_resolver *r)
{
	struct kt_ticket_opts to = { .sz = sizeof(to) };
	struct ticket_src src = { .r = r, .s = s };
	char source[512];
	int ret;

	switch (kx_resolver__from(r)) {
	case KX_TYPES_PROFILE:
		snprintf(source, sizeof(source), "layout profile %s", kx_resolver__profile(r));
		break;
	case KX_TYPES_DWARF:
		snprintf(source, sizeof(source), "DWARF of %s", kx_resolver__vmlinux(r));
		break;
	case KX_TYPES_DUMP:
		snprintf(source, sizeof(source), "the dump itself: %s",
			 kx_indump__describe(kx_resolver__indump(r)));
		break;
	}
	/*
	 * under an address-space limit (the kdump hook's ulimit -v) the page
	 * cache takes a quarter of it, so the rest of the run still fits
	 */
	{
		struct rlimit rl;

		if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY)
			to.cache_bytes = rl.rlim_cur / 4 ? rl.rlim_cur / 4 : 1;
	}
	to.vmcore = o->vmcore;
	to.verbose = o->verbose;
	to.durable = o->fsync;
	to.source = source;
	to.add_files = add_profile;
	to.priv = &src;
	if (kt_ticket__write(s, o->ticket, &to)) {
		fprintf(stderr, "ktrace-extract: ticket %s: %s\n", o->ticket, kt_last_error());
		sync_stderr(o);
		return KT_EXIT_FAILURE;
	}
	if (o->verbose) {
		uint64_t hits, misses;

		kt_session__cache_stats(s, &hits, &misses);
		fprintf(stderr, "ktrace-extract: ticket written to %s: ring pages read from the "
				"dump %llu, served again from memory %llu\n", o->ticket,
			(unsigned long long)misses, (unsigned long long)hits);
	}
	/* ftrace not read: no trace files, a loss (said at the open, and in summary.txt) */
	ret = kt_session__ftrace_error(s) ? KT_EXIT_PARTIAL : kx_run_status(o, s, NULL);
	/*
	 * a kernel with a printk ring whose log could not be read: the ticket
	 * lacks dmesg.txt and timeline.txt, which is a loss (a kernel before
	 * 5.10, whose log ktrace does not read, is not: ENOENT)
	 */
	if (!kt_session__log(s) && errno != ENOENT) {
		fprintf(stderr, "ktrace-extract: ticket %s: no dmesg.txt nor timeline.txt: %s\n",
			o->ticket, kt_last_error());
		if (ret == KT_EXIT_OK)
			ret = KT_EXIT_PARTIAL;
	}
	sync_stderr(o);
	return ret;
}
