// SPDX-License-Identifier: GPL-2.0-or-later
/* ktrace-extract: the trace of a crashed kernel, from its vmcore. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <ktrace/ktrace.h>
#include "dump.h"
#include "guard.h"
#include "options.h"
#include "types/profile.h"
#include "types/resolve.h"
#include "ticket.h"

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
	po.module_debuginfo = o->module_debuginfo;
	return kx_profile__make(&po);
}

/*
 * Every output of the run checked against every file it reads, before
 * anything is written (guard.c): @vmlinux, @profile and @release are
 * what the open found (NULL before). 0, or KT_EXIT_USAGE said on stderr.
 */
static int guard_outputs(const struct kx_options *o, const char *vmlinux, const char *profile,
			 const char *release)
{
	const char *ticket_names[] = { "trace.txt", "trace.jsonl", "trace.dat", "dmesg.txt",
				       "timeline.txt", "summary.txt", "manifest.sha256",
				       "kernel.profile", NULL, NULL };
	struct kx_guard g = { .n = 0 };
	char *own = NULL;
	int bad;

	kx_guard__add(&g, o->vmcore);
	kx_guard__add(&g, o->vmlinux);
	kx_guard__add(&g, vmlinux);
	kx_guard__add(&g, o->profile);
	kx_guard__add(&g, profile);
	kx_guard__add(&g, o->btf);
	kx_guard__add(&g, o->system_map);
	/* the ticket's profile is named after the release (ticket.c) */
	if (release && asprintf(&own, "%s.profile", release) >= 0)
		ticket_names[8] = own;
	bad = kx_guard__check(&g, "-o", o->output, NULL) ||
	      kx_guard__check(&g, "--ticket", o->ticket, ticket_names) ||
	      kx_guard__check(&g, "--make-profile", o->make_profile, NULL) ||
	      kx_guard__check(&g, "--blktrace", o->blktrace, NULL) ||
	      kx_guard__check(&g, "--relay", o->relay, NULL) ||
	      kx_guard__check(&g, "--lttng", o->lttng, NULL);
	free(own);
	return bad ? KT_EXIT_USAGE : 0;
}

/* seconds since @t0, for -v: what the capture kernel spends where */
static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * The processor time of the run so far, user and system. Beside the wall
 * time it tells this run's own cost from the time the processor served
 * others: in a kdump capture kernel on one CPU, udev loads modules while
 * the hook runs, and the wall time of the run grows by theirs.
 */
static void cpu_time(double *user, double *sys)
{
	int who[2] = { RUSAGE_SELF, RUSAGE_CHILDREN }, i;
	struct rusage ru;

	*user = *sys = 0;
	/* with the children's: the trial parses of event formats (render.c) */
	for (i = 0; i < 2; i++) {
		if (getrusage(who[i], &ru))
			continue;
		*user += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		*sys += (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
}

/*
 * The kdump hook's bounds, set here rather than by timeout(1) and a
 * subshell's ulimit: in an emulated capture kernel each process more
 * costs tens of milliseconds. SIGALRM's default action ends the process
 * as timeout's SIGTERM would (nothing here catches it).
 */
static void set_limits(const struct kx_options *o)
{
	if (o->memory_limit) {
		struct rlimit rl = { .rlim_cur = o->memory_limit << 20,
				     .rlim_max = o->memory_limit << 20 };

		if (setrlimit(RLIMIT_AS, &rl))
			fprintf(stderr, "ktrace-extract: cannot limit memory to %llu MiB: %s\n",
				o->memory_limit, strerror(errno));
	}
	if (o->time_limit) {
		signal(SIGALRM, SIG_DFL);
		alarm(o->time_limit);
	}
}

int main(int argc, char **argv)
{
	struct timespec t0;
	struct kx_options o;
	struct kt_open_opts sopts = { .sz = sizeof(sopts) };
	struct kx_resolver *r;
	struct kt_session *s;
	struct kt_target t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = kx_options__parse(&o, argc, argv);
	if (ret >= 0)
		return ret;
	ret = guard_outputs(&o, NULL, NULL, NULL);
	if (ret)
		return ret;
	set_limits(&o);
	if (o.make_profile)
		return make_profile(&o);
	ret = kx_resolver__open(&o, &r, &t, &sopts);
	if (ret >= 0)
		return ret;
	sopts.no_events = o.list_only;
	/* what needs none of ftrace is still written when ftrace cannot be read */
	sopts.ftrace_optional = o.dmesg || o.timeline || o.relay || o.blktrace || o.lttng ||
				o.ticket;
	if (o.verbose)
		fprintf(stderr, "ktrace-extract: dump and types opened in %.3f s\n", since(&t0));
	s = kt_session__open(&t, &sopts);
	if (!s) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o.vmcore, kt_last_error());
		kx_resolver__report_failed_open(r);
		kx_resolver__close(r);
		return KT_EXIT_NOTRACE;
	}
	if (o.verbose)
		fprintf(stderr, "ktrace-extract: session (layout, buffers, event table) at %.3f s\n",
			since(&t0));
	if (kt_session__ftrace_error(s))
		fprintf(stderr, "ktrace-extract: %s: ftrace's buffers cannot be read (%s); the "
				"kernel log and the other recorders are still read\n", o.vmcore,
			kt_session__ftrace_error(s));
	/* with the vmlinux or profile the open found */
	ret = guard_outputs(&o, kx_resolver__vmlinux(r), kx_resolver__profile(r),
			    kx_dump__osrelease(kx_resolver__dump(r)));
	if (!ret && o.ticket)
		ret = kx_ticket(&o, s, r);
	else if (!ret)
		ret = kx_run(&o, s);
	if (o.verbose) {
		int used, fast = kt_session__fast_formats(s, &used);

		if (used)
			fprintf(stderr, "ktrace-extract: print formats: %d of the %d used were "
					"compiled, the rest printed by libtraceevent\n", fast, used);
	}
	/* the trace is lost: counted as a loss, whatever else was written */
	if (kt_session__ftrace_error(s) && ret == KT_EXIT_OK)
		ret = KT_EXIT_PARTIAL;
	kt_session__free(s);
	/* what the types' source could not answer is a loss too */
	if (kx_resolver__report(r) && ret == KT_EXIT_OK)
		ret = KT_EXIT_PARTIAL;
	kx_resolver__close(r);
	if (o.verbose) {
		double user, sys;

		cpu_time(&user, &sys);
		fprintf(stderr, "ktrace-extract: done in %.3f s (processor time: user %.3f s, "
				"system %.3f s)\n", since(&t0), user, sys);
	}
	return ret;
}
