// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktrace.so: the crash extension. "extend ktrace.so" registers the
 * command "ktrace", which reads the ftrace ring buffers of the crashed
 * kernel through libktrace, with crash's memory and type services as its
 * target (target.c). Output goes to crash's fp, so "ktrace show | grep"
 * and "ktrace show > file" work as for any crash command.
 */
#include "defs.h"
#include "ktrace-crash.h"

/* filled in from a real dump below */
#define EXAMPLE_LIST
#define EXAMPLE_SHOW

static void cmd_ktrace(void);
static char *help_ktrace[];

static struct command_table_entry command_table[] = {
	{ "ktrace", cmd_ktrace, help_ktrace, 0 },
	{ NULL },
};

static void __attribute__((constructor)) ktrace_init(void)
{
	register_extension(command_table);
}

static void __attribute__((destructor)) ktrace_fini(void)
{
	kc_session__close();
	kc_target__free();
}

static const struct {
	const char *name;
	void (*run)(int argc, char **argv, FILE *out);
} subcommands[] = {
	{ "show", kc_cmd_show },
	{ "dump", kc_cmd_dump },
	{ "list", kc_cmd_list },
	{ "events", kc_cmd_events },
};

static void cmd_ktrace(void)
{
	size_t i;

	if (argcnt < 2)
		cmd_usage(pc->curcmd, SYNOPSIS);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(args[1], subcommands[i].name))
			continue;
		/* the subcommand parses its own options: start getopt afresh */
		optind = 0;
		subcommands[i].run(argcnt - 1, args + 1, fp);
		return;
	}
	error(INFO, "unknown subcommand: %s\n", args[1]);
	cmd_usage(pc->curcmd, SYNOPSIS);
}

static char *help_ktrace[] = {
	"ktrace",
	"ftrace ring buffers of the crashed kernel",
	"show [-i instance] [-c cpus] [-n count]\n"
	"       ktrace dump [-i instance] -t file | -j file\n"
	"       ktrace list\n"
	"       ktrace events [-v]",
	"  This command reads the ftrace ring buffers (the kernel's flight recorder)",
	"  of the top-level trace array and of every instance from the dump, and",
	"  prints them as /sys/kernel/tracing/trace would have shown them. It prints",
	"  exactly what ktrace-extract(1) prints for the same dump and options.",
	"  Whatever could not be read or was dropped by the kernel is counted, and",
	"  the counts follow each buffer as \"# ktrace:\" lines.",
	"",
	"    show        the trace of every buffer, oldest event first.",
	"      -i instance   only this buffer: \"global\" or an instance's name.",
	"      -c cpus       only these CPUs, e.g. 0,2-3.",
	"      -n count      only the last count events of each buffer.",
	"    dump        write the trace to a file.",
	"      -t file       trace.dat (trace-cmd's format; raw sub-buffers copied).",
	"      -j file       JSON Lines: a header object, then one object per event.",
	"      -i instance   only this buffer.",
	"    list        buffers and CPUs: pages, sub-buffer size, entries,",
	"                events overwritten and dropped, trace clock.",
	"    events      the event table of the dump: id, system and name.",
	"      -v            each event's format, as in events/<system>/<name>/format.",
	"",
	"  The first ktrace command reads the tracer's state (layout, trace arrays,",
	"  event table); later commands reuse it.",
	"\nEXAMPLE",
	"  List the buffers of a dump with an instance named \"inst\":\n",
	"    crash> ktrace list",
	EXAMPLE_LIST
	"",
	"  The last three events of the instance:\n",
	"    crash> ktrace show -i inst -n 3",
	EXAMPLE_SHOW
	"",
	"  Only the sched_switch events of the top-level buffer:\n",
	"    crash> ktrace show -i global | grep sched_switch",
	"",
	"  Save the whole trace for trace-cmd, and as JSON:\n",
	"    crash> ktrace dump -t /tmp/trace.dat",
	"    crash> ktrace dump -j /tmp/trace.json",
	NULL
};
