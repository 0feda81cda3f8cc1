// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktrace-extract --dmesg and --timeline: the kernel log of the dump, alone
 * or merged with the trace. The text of --dmesg is the log and nothing
 * else (it compares with makedumpfile --dump-dmesg); what was lost goes
 * to stderr. The timeline ends with the "# ktrace:" loss lines of the log
 * and of each buffer merged, as crash's "ktrace timeline" prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "options.h"

int kx_write_log(const struct kx_options *o, struct kt_session *s, struct kt_buffer *only,
		 FILE *out, int *status)
{
	struct kt_iter_opts io = { .sz = sizeof(io) };
	struct kt_log_opts lo = { .sz = sizeof(lo) };
	struct kt_timeline_opts to = { .sz = sizeof(to) };
	struct kt_log *log = kt_session__log(s);
	struct kt_loss_mark *m;
	int err;

	*status = KT_EXIT_OK;
	if (!log) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o->vmcore, kt_last_error());
		*status = KT_EXIT_NOTRACE;
		return 0;
	}
	if (o->dmesg) {
		lo.json = o->format == KX_JSON;
		lo.ts_min = o->ts_min;
		lo.ts_max = o->ts_max;
		err = kt_log__write(log, out, &lo);
	} else {
		io.cpumask = o->cpus_given ? o->cpumask : NULL;
		io.cpumask_bits = KT_CPUMASK_WORDS * 64;
		io.ts_min = o->ts_min;
		io.ts_max = o->ts_max;
		to.iter = &io;
		to.only = only;
		m = kt_session__loss_mark(s);
		if (!m)
			return -ENOMEM;
		err = kt_timeline__write(s, out, &to);
		kt_session__write_trailer(s, m, only, KT_TRAILER_TIMELINE, out);
		kt_loss_mark__free(m);
	}
	if (kt_session__print_losses(s, NULL, KT_LOSSES_LOG, o->quiet ? NULL : stderr,
				     "ktrace-extract: ") > 0)
		*status = KT_EXIT_PARTIAL;
	/* the timeline's lines are the trace's too */
	if (o->timeline && kt_session__print_losses(s, NULL, KT_LOSSES_TRACE, NULL, NULL) > 0)
		*status = KT_EXIT_PARTIAL;
	return err;
}
