/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KTRACE_EXTRACT_OPTIONS_H
#define KTRACE_EXTRACT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <ktrace/ktrace.h>

enum kx_format { KX_TEXT, KX_JSON, KX_DAT };

#define KX_MAX_JOBS 256

struct kx_options {
	const char *vmcore;
	const char *vmlinux;
	const char *profile;		/* --profile: layout profile instead of DWARF */
	const char *make_profile;	/* --make-profile: write one, VMCORE optional */
	const char *btf, *system_map, *release, *build_id;
	const char *output;	/* NULL or "-": stdout */
	const char *ticket;	/* --ticket: a directory or .tar[.gz|.zst] */
	const char *blktrace;	/* --blktrace: a directory for <dev>.blktrace.<cpu> */
	const char *relay;	/* --relay: a directory for every channel's unread bytes */
	const char *lttng;	/* --lttng: a directory for the LTTng sessions' CTF traces */
	const char *instance;	/* NULL: all */
	const char *ring;	/* --ring: a ring buffer by symbol or address */
	const char *module_debuginfo;	/* --module-debuginfo: a directory of .ko */
	enum kx_format format;
	bool list_only, events, panic_cpu, force, verbose, no_header, quiet;
	unsigned time_limit;		/* --time-limit: seconds, 0: none */
	unsigned long long memory_limit;	/* --memory-limit: MiB, 0: none */
	bool fsync;		/* --fsync: the ticket (and stderr, a file) on disk before exit */
	bool last_boot_info;	/* --last-boot-info: the file of -i's instance */
	bool from_dump;		/* --from-dump: the dump's BTF and kallsyms, no vmlinux */
	bool dmesg, timeline;	/* --dmesg, --timeline: the kernel log, alone or merged */
	uint64_t cpumask[KT_CPUMASK_WORDS];
	bool cpus_given;
	uint64_t last;
	int jobs;		/* --jobs: rendering threads (1: none) */
	int dat_version;	/* --dat-version: 6 or 7; 0: the library's default (7) */
	uint64_t ts_min, ts_max;
};

/* <0: go on; >=0: exit with that status (help, usage error) */
int kx_options__parse(struct kx_options *o, int argc, char **argv);
/* the work after the dump is open; returns the exit status */
int kx_run(const struct kx_options *o, struct kt_session *s);
/* the exit status after the outputs were written (6, 10 or 0); loss on stderr */
int kx_run_status(const struct kx_options *o, struct kt_session *s, struct kt_buffer *only);
/* log.c: --dmesg or --timeline into @out; *@status: the exit status */
int kx_write_log(const struct kx_options *o, struct kt_session *s, struct kt_buffer *only,
		 FILE *out, int *status);

#endif
