// SPDX-License-Identifier: GPL-2.0-or-later
/* ktrace-extract: the trace of a crashed kernel, from its vmcore. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <ktrace/ktrace.h>
#include "dump.h"
#include "options.h"

int main(int argc, char **argv)
{
	struct kx_options o;
	struct kx_dump_opts dopts = { .sz = sizeof(dopts) };
	struct kt_open_opts sopts = { .sz = sizeof(sopts) };
	struct kx_dump *d;
	struct kt_session *s;
	struct kt_target t;
	enum kx_error kerr;
	char msg[1024];
	int ret;

	ret = kx_options__parse(&o, argc, argv);
	if (ret >= 0)
		return ret;
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
	sopts.no_events = o.list_only;
	s = kt_session__open(&t, &sopts);
	if (!s) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o.vmcore, kt_last_error());
		kx_dump__close(d);
		return KT_EXIT_NOTRACE;
	}
	ret = kx_run(&o, s);
	kt_session__free(s);
	kx_dump__close(d);
	return ret;
}
