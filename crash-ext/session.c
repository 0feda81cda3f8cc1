// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One libktrace session per crash session: opened by the first ktrace
 * command (resolving the layout and walking the trace arrays costs a few
 * hundred gdb queries) and kept until the extension is unloaded.
 */
#include "defs.h"
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

static struct kt_target target;
static struct kt_session *session;

struct kt_session *kc_session(void)
{
	struct kt_open_opts opts = { .sz = sizeof(opts) };

	if (session)
		return session;
	kc_target__init(&target);
	/* warnings go where ktrace-extract puts them, not into the output */
	opts.log = stderr;
	/* the kernel log and the other recorders need none of ftrace */
	opts.ftrace_optional = true;
	session = kt_session__open(&target, &opts);
	if (!session) {
		error(INFO, "cannot read the tracer's state from this dump: %s\n",
		      kt_last_error());
		return NULL;
	}
	if (kt_session__ftrace_error(session))
		error(INFO, "ftrace's buffers cannot be read (%s); ktrace dmesg, timeline, "
			    "blktrace, relay, lttng and ticket still read the rest\n",
		      kt_session__ftrace_error(session));
	return session;
}

/* the session, when ftrace's buffers were read: what show, dump, list and events need */
struct kt_session *kc_session_ftrace(void)
{
	struct kt_session *s = kc_session();

	if (s && kt_session__ftrace_error(s)) {
		error(INFO, "ftrace's buffers cannot be read from this dump: %s\n",
		      kt_session__ftrace_error(s));
		return NULL;
	}
	return s;
}

void kc_session__close(void)
{
	kt_session__free(session);
	session = NULL;
}
