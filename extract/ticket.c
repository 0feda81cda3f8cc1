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
#include "ticket.h"

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

static int add_profile(void *priv, const char *dir)
{
	const struct kx_ticket_src *src = priv;
	struct kx_profile_make_opts po = { .sz = sizeof(po) };
	char *path;
	int err = 0;

	if (asprintf(&path, "%s/%s.profile", dir, src->release ? src->release : "kernel") < 0)
		return -ENOMEM;
	if (src->profile) {
		err = copy_file(src->profile, path);
		if (err)
			fprintf(stderr, "ktrace-extract: copying the profile %s into the ticket: %s\n",
				src->profile, strerror(-err));
	} else if (src->vmlinux) {
		/* the questions libktrace asks by name, answered from the DWARF */
		po.output = path;
		po.vmlinux = src->vmlinux;
		if (kx_profile__make(&po)) {
			fprintf(stderr, "ktrace-extract: the ticket has no layout profile: "
					"making one from %s failed\n", src->vmlinux);
			err = -EIO;
		}
	}
	free(path);
	return err;
}

int kx_ticket(const struct kx_options *o, struct kt_session *s, const struct kx_ticket_src *src)
{
	struct kt_ticket_opts to = { .sz = sizeof(to) };
	char source[512];

	if (src->profile)
		snprintf(source, sizeof(source), "layout profile %s", src->profile);
	else if (src->vmlinux)
		snprintf(source, sizeof(source), "DWARF of %s", src->vmlinux);
	else
		snprintf(source, sizeof(source), "the dump itself");
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
	to.source = source;
	to.add_files = add_profile;
	to.priv = (void *)src;
	if (kt_ticket__write(s, o->ticket, &to)) {
		fprintf(stderr, "ktrace-extract: ticket %s: %s\n", o->ticket, kt_last_error());
		return KT_EXIT_FAILURE;
	}
	if (o->verbose) {
		uint64_t hits, misses;

		kt_session__cache_stats(s, &hits, &misses);
		fprintf(stderr, "ktrace-extract: ticket written to %s: ring pages read from the "
				"dump %llu, served again from memory %llu\n", o->ticket,
			(unsigned long long)misses, (unsigned long long)hits);
	}
	return kx_run_status(o, s, NULL);
}
