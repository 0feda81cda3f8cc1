// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crash> ktrace ticket OUT: the ticket ktrace-extract --ticket writes
 * (libktrace's kt_ticket__write), from crash's view of the dump. crash
 * reads DWARF through gdb and has no layout-profile writer, so this ticket
 * carries no profile; summary.txt says how to make one.
 */
#include "defs.h"
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

void kc_cmd_ticket(int argc, char **argv, FILE *out)
{
	struct kt_ticket_opts to = { .sz = sizeof(to) };
	struct kt_session *s;
	char source[PATH_MAX + 160];

	if (argc != 2 || argv[1][0] == '-')
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session();
	if (!s)
		return;
	snprintf(source, sizeof(source),
		 "crash, DWARF of %s (no layout profile in this ticket: "
		 "ktrace-extract --make-profile FILE -x VMLINUX makes one)", pc->namelist);
	to.vmcore = pc->dumpfile;
	to.source = source;
	if (kt_ticket__write(s, argv[1], &to)) {
		error(INFO, "ticket %s: %s\n", argv[1], kt_last_error());
		return;
	}
	fprintf(out, "%s: ticket written (summary.txt, trace.txt, trace.jsonl, trace.dat, "
		     "manifest.sha256)\n", argv[1]);
}
