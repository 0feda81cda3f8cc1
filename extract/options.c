// SPDX-License-Identifier: GPL-2.0-or-later
/* ktrace-extract's command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>
#include "options.h"

#define KTRACE_VERSION "0.1"

static void usage(FILE *f)
{
	fputs("usage: ktrace-extract [options] VMCORE\n"
	      "Recover the ftrace ring buffers (flight recorder) of a crashed kernel from its\n"
	      "crash dump and print them as /sys/kernel/tracing/trace would have.\n"
	      "\n"
	      "  -x, --vmlinux FILE     vmlinux with DWARF (or a separate debug file) of the\n"
	      "                         crashed kernel; default: looked up by release\n"
	      "  -P, --profile FILE     layout profile of the crashed kernel instead of its\n"
	      "                         DWARF (made with --make-profile); a directory:\n"
	      "                         its <release>.profile for the dump's release\n"
	      "      --from-dump        types from the dump's own BTF and symbols from its\n"
	      "                         kallsyms (v6.0+), even when a vmlinux is found; what\n"
	      "                         happens by itself when none is given or found\n"
	      "      --system-map FILE  with the dump's BTF, symbols from this System.map\n"
	      "                         (for kernels before 6.0, whose dumps do not list\n"
	      "                         their kallsyms tables)\n"
	      "  -i, --instance NAME    only this buffer (\"global\" or an instance name)\n"
	      "  -r, --ring SPEC        any ring buffer (struct trace_buffer) of the kernel or\n"
	      "                         a module: 0xADDRESS, SYMBOL (the ring, a pointer to\n"
	      "                         it, or a struct holding one) or SYMBOL+OFFSET; only\n"
	      "                         it is printed, raw when no event table is known\n"
	      "      --module-debuginfo DIR\n"
	      "                         .ko files with DWARF of out-of-tree modules (the\n"
	      "                         ktrace recorder's); default: those beside the vmlinux;\n"
	      "                         with --make-profile, their types go in the profile\n"
	      "  -c, --cpu LIST         only these CPUs, e.g. 0,2-3\n"
	      "  -n, --last N           only the last N events of each buffer\n"
	      "      --since SECONDS    only events at or after this time stamp\n"
	      "      --until SECONDS    only events at or before this time stamp\n"
	      "  -j, --json             JSON Lines instead of text\n"
	      "  -J, --jobs N           render the text and JSON, read trace.dat's pages, on\n"
	      "                         N threads (default: the online CPUs; 1: none); the\n"
	      "                         output is the same\n"
	      "  -o, --output FILE      write to FILE (a name ending in .dat writes trace.dat)\n"
	      "  -F, --format FMT       text, json or dat\n"
	      "      --dat-version N    trace.dat file version: 7 (default, trace-cmd 3.x) or 6\n"
	      "  -l, --list             list the buffers and what was lost, nothing else\n"
	      "  -e, --events           print the event table as format text\n"
	      "      --last-boot-info   the boot-mapped instance's last_boot_info (with -i)\n"
	      "      --blktrace DIR     the unread part of every active blktrace: write\n"
	      "                         DIR/<dev>.blktrace.<cpu>, the files blkparse -i <dev>\n"
	      "                         reads (relay channels are listed by --list)\n"
	      "      --relay DIR        the unread bytes of every relay channel, oldest\n"
	      "                         first: DIR/<parent>-<name>.<cpu> (.global)\n"
	      "      --lttng DIR        every LTTng kernel session (lttng-modules 2.13) as a\n"
	      "                         CTF 1.8 trace babeltrace2 reads: DIR/<session>/kernel/\n"
	      "                         (metadata, chan<id>_<cpu>); the modules' DWARF through\n"
	      "                         --module-debuginfo\n"
	      "  -T, --ticket OUT       everything for a support ticket in one pass: a\n"
	      "                         directory, or OUT.tar.gz / OUT.tar.zst / OUT.tar\n"
	      "      --fsync            with --ticket: its files, and stderr when a file, on\n"
	      "                         disk before the exit (fdatasync; no sync(1) for all)\n"
	      "      --panic-cpu        print the CPU that panicked (\"none\" if the dump\n"
	      "                         records none), nothing else\n"
	      "      --dmesg            the kernel log (printk ring buffer) instead of the\n"
	      "                         trace, as makedumpfile --dump-dmesg writes it\n"
	      "                         (JSON Lines with --json)\n"
	      "      --timeline         kernel log records and trace events merged by time\n"
	      "                         stamp, each line marked by its source (buffers whose\n"
	      "                         clock is not comparable with printk's are left out)\n"
	      "      --no-header        no header block before each buffer\n"
	      "  -f, --force            accept a vmlinux that does not match the dump\n"
	      "  -q, --quiet            no loss summary on stderr\n"
	      "  -v, --verbose          report what was resolved and how long it took\n"
	      "      --time-limit SECS  end the run (SIGALRM) after SECS seconds, as\n"
	      "                         timeout(1) would, without a process more\n"
	      "      --memory-limit MIB address space of the run (ulimit -v, in MiB)\n"
	      "  -h, --help             this help\n"
	      "  -V, --version          version\n"
	      "\n"
	      "usage: ktrace-extract --make-profile FILE (-x VMLINUX [VMCORE] |\n"
	      "                      --btf BTF --system-map MAP [--release R])\n"
	      "Write the layout profile of a kernel: from its vmlinux DWARF (with a dump of\n"
	      "that kernel, what a complete extraction asks is recorded too), or from BTF\n"
	      "(/sys/kernel/btf/vmlinux, or a vmlinux with .BTF) and System.map or\n"
	      "/proc/kallsyms.\n"
	      "\n"
	      "Without -x and --profile, and no vmlinux found for the dump's release, types\n"
	      "come from the BTF inside the dump and symbols from its kallsyms (v6.0+; before,\n"
	      "give --system-map); one line on stderr says so.\n"
	      "\n"
	      "Dumps of x86_64, arm64 (4 and 16 KiB pages), ppc64el (4 and 64 KiB) and s390x\n"
	      "(big-endian) are read on any host: byte order and page size come from the dump.\n"
	      "\n"
	      "Exit status: 0 trace written; 10 trace written but data was lost (unreadable,\n"
	      "filtered or corrupt pages, broken page lists, unknown events, damaged BTF or\n"
	      "kallsyms in the dump, records not printed as the kernel would: an option,\n"
	      "a tracer or a damaged print format said on stderr); 1 failure;\n"
	      "2 usage; 3 the dump cannot be read; 4 no usable debuginfo (or a corrupted\n"
	      "profile); 5 vmlinux or profile does not match the dump; 6 the dump holds no usable trace buffer\n"
	      "(--dmesg, --timeline: no readable kernel log).\n", f);
}

static int parse_secs(const char *arg, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || end == arg || v < 0)
		return -EINVAL;
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

int kx_options__parse(struct kx_options *o, int argc, char **argv)
{
	enum { OPT_DAT_VERSION = 300, OPT_SINCE = 256, OPT_UNTIL, OPT_NO_HEADER, OPT_MAKE_PROFILE,
	       OPT_BTF, OPT_SYSTEM_MAP, OPT_RELEASE, OPT_BUILD_ID, OPT_PANIC_CPU, OPT_FROM_DUMP,
	       OPT_DMESG, OPT_TIMELINE, OPT_MODULE_DEBUGINFO, OPT_BLKTRACE, OPT_RELAY,
	       OPT_LTTNG, OPT_LAST_BOOT_INFO, OPT_TIME_LIMIT, OPT_MEMORY_LIMIT,
	       OPT_FSYNC };
	static const struct option longopts[] = {
		{ "vmlinux", required_argument, NULL, 'x' },
		{ "profile", required_argument, NULL, 'P' },
		{ "dat-version", required_argument, NULL, OPT_DAT_VERSION },
		{ "make-profile", required_argument, NULL, OPT_MAKE_PROFILE },
		{ "btf", required_argument, NULL, OPT_BTF },
		{ "system-map", required_argument, NULL, OPT_SYSTEM_MAP },
		{ "release", required_argument, NULL, OPT_RELEASE },
		{ "build-id", required_argument, NULL, OPT_BUILD_ID },
		{ "from-dump", no_argument, NULL, OPT_FROM_DUMP },
		{ "instance", required_argument, NULL, 'i' },
		{ "ring", required_argument, NULL, 'r' },
		{ "module-debuginfo", required_argument, NULL, OPT_MODULE_DEBUGINFO },
		{ "cpu", required_argument, NULL, 'c' },
		{ "last", required_argument, NULL, 'n' },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "json", no_argument, NULL, 'j' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "list", no_argument, NULL, 'l' },
		{ "events", no_argument, NULL, 'e' },
		{ "ticket", required_argument, NULL, 'T' },
		{ "blktrace", required_argument, NULL, OPT_BLKTRACE },
		{ "relay", required_argument, NULL, OPT_RELAY },
		{ "lttng", required_argument, NULL, OPT_LTTNG },
		{ "panic-cpu", no_argument, NULL, OPT_PANIC_CPU },
		{ "last-boot-info", no_argument, NULL, OPT_LAST_BOOT_INFO },
		{ "dmesg", no_argument, NULL, OPT_DMESG },
		{ "timeline", no_argument, NULL, OPT_TIMELINE },
		{ "no-header", no_argument, NULL, OPT_NO_HEADER },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
		{ "memory-limit", required_argument, NULL, OPT_MEMORY_LIMIT },
		{ "fsync", no_argument, NULL, OPT_FSYNC },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool format_given = false;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->ts_max = UINT64_MAX;
	while ((c = getopt_long(argc, argv, "x:P:i:r:c:n:jJ:o:F:lefqvhVT:", longopts, NULL)) != -1) {
		switch (c) {
		case 'x': o->vmlinux = optarg; break;
		case 'P': o->profile = optarg; break;
		case OPT_DAT_VERSION:
			if (strcmp(optarg, "6") && strcmp(optarg, "7")) {
				fprintf(stderr, "ktrace-extract: trace.dat version must be 6 or 7\n");
				return KT_EXIT_USAGE;
			}
			o->dat_version = atoi(optarg);
			break;
		case OPT_MAKE_PROFILE: o->make_profile = optarg; break;
		case OPT_BTF: o->btf = optarg; break;
		case OPT_SYSTEM_MAP: o->system_map = optarg; break;
		case OPT_RELEASE: o->release = optarg; break;
		case OPT_BUILD_ID: o->build_id = optarg; break;
		case OPT_FROM_DUMP: o->from_dump = true; break;
		case OPT_LAST_BOOT_INFO: o->last_boot_info = true; break;
		case 'i': o->instance = optarg; break;
		case 'r': o->ring = optarg; break;
		case OPT_MODULE_DEBUGINFO: o->module_debuginfo = optarg; break;
		case 'c':
			if (kt_cpumask__parse(optarg, o->cpumask)) {
				fprintf(stderr, "ktrace-extract: bad CPU list '%s'\n", optarg);
				return KT_EXIT_USAGE;
			}
			o->cpus_given = true;
			break;
		case 'n':
			errno = 0;
			o->last = strtoull(optarg, &end, 10);
			if (errno || *end || !o->last) {
				fprintf(stderr, "ktrace-extract: bad count '%s'\n", optarg);
				return KT_EXIT_USAGE;
			}
			break;
		case OPT_SINCE:
		case OPT_UNTIL:
			if (parse_secs(optarg, c == OPT_SINCE ? &o->ts_min : &o->ts_max)) {
				fprintf(stderr, "ktrace-extract: bad time '%s' (seconds)\n", optarg);
				return KT_EXIT_USAGE;
			}
			break;
		case 'j': o->format = KX_JSON; format_given = true; break;
		case 'J':
			errno = 0;
			o->jobs = (int)strtol(optarg, &end, 10);
			if (errno || *end || o->jobs < 1 || o->jobs > KX_MAX_JOBS) {
				fprintf(stderr, "ktrace-extract: bad number of jobs '%s' (1 to %d)\n",
					optarg, KX_MAX_JOBS);
				return KT_EXIT_USAGE;
			}
			break;
		case 'o': o->output = optarg; break;
		case 'F':
			format_given = true;
			if (!strcmp(optarg, "text"))
				o->format = KX_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = KX_JSON;
			else if (!strcmp(optarg, "dat"))
				o->format = KX_DAT;
			else {
				fprintf(stderr, "ktrace-extract: unknown format '%s'\n", optarg);
				return KT_EXIT_USAGE;
			}
			break;
		case 'l': o->list_only = true; break;
		case 'e': o->events = true; break;
		case 'T': o->ticket = optarg; break;
		case OPT_BLKTRACE: o->blktrace = optarg; break;
		case OPT_RELAY: o->relay = optarg; break;
		case OPT_LTTNG: o->lttng = optarg; break;
		case OPT_PANIC_CPU: o->panic_cpu = true; break;
		case OPT_DMESG: o->dmesg = true; break;
		case OPT_TIMELINE: o->timeline = true; break;
		case OPT_NO_HEADER: o->no_header = true; break;
		case 'f': o->force = true; break;
		case 'q': o->quiet = true; break;
		case 'v': o->verbose = true; break;
		case OPT_TIME_LIMIT:
		case OPT_MEMORY_LIMIT: {
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || end == optarg || !v ||
			    v > (c == OPT_TIME_LIMIT ? 1000000ull : 1ull << 40)) {
				fprintf(stderr, "ktrace-extract: bad %s '%s'\n",
					c == OPT_TIME_LIMIT ? "time limit (seconds)"
							    : "memory limit (MiB)", optarg);
				return KT_EXIT_USAGE;
			}
			if (c == OPT_TIME_LIMIT)
				o->time_limit = (unsigned)v;
			else
				o->memory_limit = v;
			break;
		}
		case OPT_FSYNC: o->fsync = true; break;
		case 'h': usage(stdout); return KT_EXIT_OK;
		/* the libkdumpfile built against: what a test expects of it (0.5.4+ reads flattened files) */
		case 'V':
			printf("ktrace-extract %s (libkdumpfile %s)\n", KTRACE_VERSION,
			       KDUMPFILE_VERSION_STRING);
			return KT_EXIT_OK;
		default: usage(stderr); return KT_EXIT_USAGE;
		}
	}
	if (o->make_profile && optind >= argc - 1) {
		o->vmcore = optind == argc - 1 ? argv[optind] : NULL;
		return -1;
	}
	if (o->profile && o->vmlinux) {
		fprintf(stderr, "ktrace-extract: --profile and --vmlinux exclude each other\n");
		return KT_EXIT_USAGE;
	}
	if ((o->from_dump || o->system_map) && (o->profile || o->vmlinux)) {
		fprintf(stderr, "ktrace-extract: %s reads the dump's own BTF: not with %s\n",
			o->from_dump ? "--from-dump" : "--system-map",
			o->profile ? "--profile" : "--vmlinux");
		return KT_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ktrace-extract: %s\n",
			optind == argc ? "no vmcore given" : "more than one vmcore given");
		usage(stderr);
		return KT_EXIT_USAGE;
	}
	o->vmcore = argv[optind];
	if (!o->jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o->jobs = n < 1 ? 1 : n > KX_MAX_JOBS ? KX_MAX_JOBS : (int)n;
	}
	if (!format_given && o->output) {
		size_t n = strlen(o->output);

		if (n > 4 && !strcmp(o->output + n - 4, ".dat"))
			o->format = KX_DAT;
	}
	if (o->dmesg && o->timeline) {
		fprintf(stderr, "ktrace-extract: --dmesg and --timeline exclude each other\n");
		return KT_EXIT_USAGE;
	}
	if ((o->dmesg || o->timeline) && o->format == KX_DAT) {
		fprintf(stderr, "ktrace-extract: --%s writes text or JSON, not trace.dat\n",
			o->dmesg ? "dmesg" : "timeline");
		return KT_EXIT_USAGE;
	}
	if (o->timeline && o->format == KX_JSON) {
		fprintf(stderr, "ktrace-extract: --timeline writes text only\n");
		return KT_EXIT_USAGE;
	}
	if (o->ts_min > o->ts_max) {
		fprintf(stderr, "ktrace-extract: --since is after --until\n");
		return KT_EXIT_USAGE;
	}
	return -1;
}
