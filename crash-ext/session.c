// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One libktrace session per crash session: opened by the first ktrace
 * command (resolving the layout and walking the trace arrays costs a few
 * hundred gdb queries) and kept until the extension is unloaded.
 */
#include "defs.h"
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

/* kc_session__read_loss() sees struct kt_loss as an array of counters */
_Static_assert(sizeof(struct kt_loss) % sizeof(uint64_t) == 0, "kt_loss holds only u64");

static struct kt_target target;
static struct kt_session *session;
/* each buffer's loss as counted by the open, before any record was read */
static struct kt_loss *open_loss;

struct kt_session *kc_session(void)
{
	struct kt_open_opts opts = { .sz = sizeof(opts) };
	int i;

	if (session)
		return session;
	kc_target__init(&target);
	/* warnings go where ktrace-extract puts them, not into the output */
	opts.log = stderr;
	session = kt_session__open(&target, &opts);
	if (!session) {
		error(INFO, "cannot read the tracer's state from this dump: %s\n",
		      kt_last_error());
		return NULL;
	}
	open_loss = calloc(kt_session__buffer_cnt(session) + 1, sizeof(*open_loss));
	if (!open_loss) {
		error(INFO, "out of memory\n");
		kc_session__close();
		return NULL;
	}
	for (i = 0; i < kt_session__buffer_cnt(session); i++)
		kt_buffer__loss(kt_session__buffer(session, i), &open_loss[i]);
	return session;
}

/*
 * libktrace adds what each read of a buffer loses to the buffer's counts,
 * which is right for one run of ktrace-extract but counts twice when the
 * same session prints a buffer a second time. Report a read as if it were
 * the first: the counts of the open plus what this read added.
 */
void kc_session__read_loss(struct kt_buffer *b, const struct kt_loss *before,
			   struct kt_loss *loss)
{
	uint64_t *l = (uint64_t *)loss;
	const uint64_t *o = NULL, *bf = (const uint64_t *)before;
	size_t k;
	int i;

	for (i = 0; i < kt_session__buffer_cnt(session); i++)
		if (kt_session__buffer(session, i) == b)
			o = (const uint64_t *)&open_loss[i];
	kt_buffer__loss(b, loss);
	if (!o)
		return;
	for (k = 0; k < sizeof(*loss) / sizeof(uint64_t); k++)
		l[k] = o[k] + (l[k] - bf[k]);
}

void kc_session__close(void)
{
	kt_session__free(session);
	session = NULL;
	free(open_loss);
	open_loss = NULL;
}
