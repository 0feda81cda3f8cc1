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
	{ "last_boot_info", kc_cmd_last_boot_info },
	{ "events", kc_cmd_events },
	{ "ticket", kc_cmd_ticket },
	{ "dmesg", kc_cmd_dmesg },
	{ "timeline", kc_cmd_timeline },
	{ "blktrace", kc_cmd_blktrace },
	{ "lttng", kc_cmd_lttng },
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
	"show [-i instance | -r ring] [-c cpus] [-n count] [-s since] [-u until]\n"
	"       ktrace dump [-i instance] -t file | -j file\n"
	"       ktrace list\n"
	"       ktrace last_boot_info -i instance\n"
	"       ktrace events [-v]\n"
	"       ktrace ticket out\n"
	"       ktrace dmesg [-j] [-s since] [-u until]\n"
	"       ktrace timeline [-i instance] [-c cpus] [-s since] [-u until]\n"
	"       ktrace blktrace dir\n"
	"       ktrace lttng dir",
	"  This command reads the ftrace ring buffers (the kernel's flight recorder)",
	"  of the top-level trace array and of every instance from the dump, and",
	"  prints them as /sys/kernel/tracing/trace would have shown them. It prints",
	"  exactly what ktrace-extract(1) prints for the same dump and options.",
	"  Whatever could not be read or was dropped by the kernel is counted, and",
	"  the counts follow each buffer as \"# ktrace:\" lines.",
	"",
	"    show        the trace of every buffer, oldest event first.",
	"      -i instance   only this buffer: \"global\", an instance's name, or a",
	"                    recorder's ring (\"krec\", the ktrace recorder's).",
	"      -r ring       any ring buffer (struct trace_buffer) of the kernel or a",
	"                    module: 0xaddress, a symbol that is the ring, points to",
	"                    it or holds a pointer to it (global_trace), or",
	"                    symbol+offset; raw records when no event table is known.",
	"                    It is listed by \"ktrace list\" from then on.",
	"      -c cpus       only these CPUs, e.g. 0,2-3.",
	"      -s seconds    only events at or after this time stamp (trace clock).",
	"      -u seconds    only events at or before this time stamp.",
	"      -n count      only the last count events of each buffer.",
	"    dump        write the trace to a file.",
	"      -t file       trace.dat (trace-cmd's format; raw sub-buffers copied).",
	"      -j file       JSON Lines: a header object, then one object per event.",
	"      -i instance   only this buffer.",
	"    list        buffers and CPUs: pages, sub-buffer size, entries,",
	"                events overwritten and dropped, trace clock; then the relay",
	"                channels (owner, per-CPU or global, size, unread bytes).",
	"    last_boot_info  the boot-mapped (persistent, 6.12) instance's",
	"                last_boot_info file, as the kernel prints it.",
	"      -i instance   the instance (trace_instance=NAME@... on the command line).",
	"    events      the event table of the dump: id, system and name.",
	"      -v            each event's format, as in events/<system>/<name>/format.",
	"    dmesg       the kernel log, from the printk ring buffer of the dump",
	"                (5.10+), as makedumpfile --dump-dmesg writes it: time",
	"                stamp and text, the lines of a record indented under its",
	"                first. Records that fail validation are skipped and counted.",
	"      -j            JSON Lines: a header object with the counts, then one",
	"                    object per record (seq, ts, caller, level, text, ...).",
	"      -s, -u        only records in this time window (seconds).",
	"    timeline    kernel log records and trace events merged by time stamp,",
	"                each line marked by its source (\"log\" or the buffer).",
	"                Only buffers whose trace clock counts like printk's",
	"                local_clock() are merged (perf, global, local); the others",
	"                (mono, boot, tai, counter, uptime, x86-tsc) are named in a",
	"                \"# ktrace: timeline:\" line, with the reason.",
	"      -i instance   only this buffer.",
	"      -c cpus       only the events of these CPUs.",
	"      -s, -u        only this time window (seconds).",
	"    blktrace    the part of every active blktrace its daemon had not read,",
	"                from the relay sub-buffers, as dir/<dev>.blktrace.<cpu>:",
	"                the files \"blkparse -i <dev>\" reads. Damaged sub-buffer",
	"                state is refused and invalid records skipped, both counted.",
	"    lttng       every LTTng kernel session (lttng-modules 2.13) as a CTF",
	"                1.8 trace babeltrace2 reads: dir/<session>/kernel/ with the",
	"                session's metadata and a stream per channel and CPU, the",
	"                packets in order, the one being written closed. Load the",
	"                modules' debug info first (mod -S dir). Damaged buffers",
	"                are refused with a message and counted.",
	"    ticket      everything for a support ticket, each ring page read once:",
	"                summary.txt (release, build-id, panicking CPU and its last",
	"                events, per buffer time range, counts and loss), trace.txt,",
	"                trace.jsonl, trace.dat and manifest.sha256; out is a",
	"                directory, or an archive named .tar, .tar.gz or .tar.zst.",
	"",
	"  The first ktrace command reads the tracer's state (layout, trace arrays,",
	"  event table); later commands reuse it.",
	"\nEXAMPLE",
	"  List the buffers of a dump with an instance named \"inst\":\n",
	"    crash> ktrace list",
	"    BUFFER            CPU    PAGES   SUBBUF    ENTRIES      OVERRUN      DROPPED    CLOCK",
	"    global              0       17     4096       1321         1241            0   global",
	"    global              1       17     4096       1305         1242            0   global",
	"    inst                0       17     4096        567            0            0    local",
	"    inst                1       17     4096        568            0            0    local",
	"",
	"  The last three events of the instance:\n",
	"    crash> ktrace show -i inst -n 3",
	"    # ktrace: buffer inst: 2 cpus, sub-buffer 4096 bytes, clock local",
	"    # tracer: nop",
	"    #",
	"    # entries-in-buffer/entries-written: 1135/1135   #P:2",
	"    #",
	"    #                                _-----=> irqs-off",
	"    #                               / _----=> need-resched",
	"    #                              | / _---=> hardirq/softirq",
	"    #                              || / _--=> preempt-depth",
	"    #                              ||| /     delay",
	"    #           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION",
	"    #              | |         |   ||||      |         |",
	"                  sh-110     [000] dNh.     2.549888: hrtimer_expire_entry: hrtimer=ffff912fcf626ec0 function=tick_sched_timer now=2528126138",
	"                  sh-110     [000] dNh.     2.549940: hrtimer_start: hrtimer=ffff912fcf626ec0 function=tick_sched_timer expires=2532000000 softexpires=2532000000 mode=ABS",
	"                init-1       [000] ....     2.554886: tracing_mark_write: ktrace-last-marker-inst k5.10 fd4068db",
	"    # ktrace: pages read: 18, unreadable: 0, filtered from the dump: 0, corrupt (skipped): 0, zero-filled: 0, page-list anomalies: 0",
	"    # ktrace: events overwritten by the kernel: 0, dropped by the kernel: 0, pages flagged missed-events: 0, unknown event ids: 0, in-flight bytes (reserved, not committed): 0",
	"",
	"  Count the events of the top-level buffer through a pipe:\n",
	"    crash> ktrace show -i global | grep -vc '^#'",
	"    2626",
	"",
	"  The kernel log around the crash, and what the CPUs traced then:\n",
	"    crash> ktrace dmesg | tail -n 2",
	"    [    4.859590] sysrq: Trigger a crash",
	"    [    4.859973] Kernel panic - not syncing: sysrq triggered crash",
	"    crash> ktrace timeline -s 4.372 | head -n 3",
	"    # ktrace: timeline: the kernel log (printk, local_clock()), buffer global (clock global), buffer inst (clock local) merged by time stamp",
	"    [    4.372156] inst               init-1       [000] .....     4.372157: tracing_mark_write: ktrace-last-marker-inst k6.1 771df90f",
	"    [    4.411188] log    [T127] EXT4-fs (vda): mounted filesystem with ordered data mode. Quota mode: none.",
	"",
	"  Save the whole trace for trace-cmd, and the instance as JSON:\n",
	"    crash> ktrace dump -t /tmp/trace.dat",
	"    /tmp/trace.dat: 5263855 bytes of trace.dat",
	"    crash> ktrace dump -j /tmp/inst.json -i inst",
	"    /tmp/inst.json: 310606 bytes of JSON",
	"",
	"  What blktrace had not read from vda when the machine died:\n",
	"    crash> ktrace blktrace /tmp/bt",
	"    /tmp/bt/vda.blktrace.0: 578 records, 29344 bytes",
	"    /tmp/bt/vda.blktrace.1: 664 records, 33472 bytes",
	"",
	"  Everything for a support ticket, as one archive:\n",
	"    crash> ktrace ticket /tmp/case-1234.tar.zst",
	"    /tmp/case-1234.tar.zst: ticket written (summary.txt, trace.txt, trace.jsonl, trace.dat, manifest.sha256)",
	NULL
};
