// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crash> ktrace blktrace DIR: the unread part of every active blktrace as
 * DIR/<dev>.blktrace.<cpu>, the files blkparse reads; the same files
 * ktrace-extract --blktrace DIR writes (libktrace's kt_blktrace__write).
 */
#include "defs.h"
#include <sys/stat.h>
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

/* ktrace CMD DIR: the session, with DIR made (NULL, said, on failure) */
static struct kt_session *dir_session(int argc, char **argv)
{
	struct kt_session *s;

	if (argc != 2 || argv[1][0] == '-')
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session();
	if (!s)
		return NULL;
	if (mkdir(argv[1], 0777) && errno != EEXIST) {
		error(INFO, "cannot create %s: %s\n", argv[1], strerror(errno));
		return NULL;
	}
	return s;
}

void kc_cmd_blktrace(int argc, char **argv, FILE *out)
{
	struct kt_session *s;
	int err;

	s = dir_session(argc, argv);
	if (!s)
		return;
	err = kt_blktrace__write(s, argv[1], out, NULL);
	if (err) {
		error(INFO, "blktrace %s: %s\n", argv[1], kt_last_error());
		return;
	}
	/* its channels' counts: what the dump holds, whatever was read before */
	kt_session__print_losses(s, NULL, KT_LOSSES_BLKTRACE, out, "ktrace: ");
}

/*
 * crash> ktrace lttng DIR: every LTTng kernel session as a CTF trace,
 * DIR/<session>/kernel/ (kt_lttng__write_ctf(), as ktrace-extract --lttng
 * writes it). The lttng modules' types must be known to crash first
 * (mod -S DIR with the .ko files built with debug info).
 */
void kc_cmd_lttng(int argc, char **argv, FILE *out)
{
	struct kt_loss_mark *m;
	struct kt_session *s;
	int err;

	s = dir_session(argc, argv);
	if (!s)
		return;
	/* what this write counted: the session's earlier ones are in the account */
	m = kt_session__loss_mark(s);
	if (!m) {
		error(INFO, "out of memory\n");
		return;
	}
	err = kt_lttng__write_ctf(s, argv[1], out, NULL);
	if (err)
		error(INFO, "lttng %s: %s\n", argv[1], kt_last_error());
	else
		kt_session__print_losses(s, m, KT_LOSSES_LTTNG, out, "ktrace: ");
	kt_loss_mark__free(m);
}
