// SPDX-License-Identifier: GPL-2.0-or-later
/* ktrace-extract: the trace of a crashed kernel, from its vmcore. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <ktrace/ktrace.h>
#include "dump.h"
#include "options.h"
#include "profile.h"
#include "ticket.h"
#include "modtypes.h"
#include <libgen.h>
#include <sys/stat.h>

/*
 * Types of out-of-tree modules: --module-debuginfo DIR, or the .ko files
 * beside the vmlinux. @t then asks them what the kernel does not know.
 */
static struct kx_modtypes *module_types(const struct kx_options *o, struct kx_dump *d,
					struct kt_target *t)
{
	struct kx_modtypes *m = NULL;
	const char *vml = d ? kx_dump__vmlinux(d) : NULL;
	char *copy = NULL, *dir = (char *)o->module_debuginfo;
	int err;

	if (!dir && vml) {
		copy = strdup(vml);
		dir = copy ? dirname(copy) : NULL;
	}
	if (!dir)
		return NULL;
	err = kx_modtypes__open(dir, o->verbose ? stderr : NULL, &m);
	if (err && o->module_debuginfo)
		fprintf(stderr, "ktrace-extract: --module-debuginfo %s: %s\n", dir, strerror(-err));
	else if (!m && o->module_debuginfo)
		fprintf(stderr, "ktrace-extract: --module-debuginfo %s: no .ko with DWARF there\n",
			dir);
	free(copy);
	if (m)
		kx_modtypes__wrap(m, t);
	return m;
}

static int make_profile(const struct kx_options *o)
{
	struct kx_profile_make_opts po = { .sz = sizeof(po) };

	po.output = o->make_profile;
	po.vmlinux = o->vmlinux;
	po.btf = o->btf;
	po.system_map = o->system_map;
	po.release = o->release;
	po.build_id = o->build_id;
	po.vmcore = o->vmcore;
	po.verbose = o->verbose;
	return kx_profile__make(&po);
}

int main(int argc, char **argv)
{
	struct kx_options o;
	struct kx_dump_opts dopts = { .sz = sizeof(dopts) };
	struct kt_open_opts sopts = { .sz = sizeof(sopts) };
	struct kx_profile *p = NULL;
	struct kx_modtypes *mt;
	struct kx_dump *d;
	struct kt_session *s;
	struct kt_target t;
	enum kx_error kerr;
	char msg[1024];
	int ret;

	ret = kx_options__parse(&o, argc, argv);
	if (ret >= 0)
		return ret;
	if (o.make_profile)
		return make_profile(&o);
	if (o.profile) {
		ret = kx_profile__open_dump(o.profile, o.vmcore, o.force, o.verbose,
					    &p, &d, &t);
		if (ret >= 0)
			return ret;
		goto open;
	}
	dopts.vmlinux = o.vmlinux;
	dopts.force = o.force;
	dopts.verbose = o.verbose;
	d = kx_dump__open(o.vmcore, &dopts, &kerr, msg, sizeof(msg));
	if (!d) {
		fprintf(stderr, "ktrace-extract: %s\n", msg);
		return kerr == KX_ERR_MISMATCH ? KT_EXIT_MISMATCH :
		       kerr == KX_ERR_DEBUGINFO ? KT_EXIT_DEBUGINFO :
		       kerr == KX_ERR_NOMEM ? KT_EXIT_FAILURE : KT_EXIT_DUMP;
	}
	kx_dump__target(d, &t);
open:
	mt = module_types(&o, d, &t);
	sopts.no_events = o.list_only;
	s = kt_session__open(&t, &sopts);
	if (!s) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o.vmcore, kt_last_error());
		kx_dump__close(d);
		kx_profile__free(p);
		kx_modtypes__close(mt);
		return KT_EXIT_NOTRACE;
	}
	if (o.ticket) {
		struct kx_ticket_src src = { .release = kx_dump__osrelease(d) };

		if (p)
			src.profile = kx_profile__path(p);
		else
			src.vmlinux = kx_dump__vmlinux(d);
		ret = kx_ticket(&o, s, &src);
	} else {
		ret = kx_run(&o, s);
	}
	kt_session__free(s);
	kx_dump__close(d);
	kx_profile__free(p);
	kx_modtypes__close(mt);
	return ret;
}
