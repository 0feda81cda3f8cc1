// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * schedwake - a task of a real-time policy that sleeps and wakes, for the
 * wakeup_rt and wakeup_dl tracers' fixtures (tests/vmcores/tracer-run.sh);
 * built statically by scripts/make-vmcores (GUEST_TOOLS) for the guest,
 * whose busybox has no chrt.
 *
 * usage: schedwake fifo PRIO COUNT SLEEP_US
 *        schedwake deadline RUNTIME_US:PERIOD_US COUNT SLEEP_US
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

struct attr {		/* struct sched_attr, its first version (48 bytes) */
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

int main(int argc, char **argv)
{
	struct attr a = { .size = sizeof(a) };
	struct timespec ts;
	long count, us, i;

	if (argc != 5) {
		fprintf(stderr, "usage: schedwake fifo PRIO | deadline RUNTIME_US:PERIOD_US "
				"COUNT SLEEP_US\n");
		return 2;
	}
	if (!strcmp(argv[1], "fifo")) {
		a.policy = SCHED_FIFO;
		a.priority = (uint32_t)atoi(argv[2]);
	} else if (!strcmp(argv[1], "deadline")) {
		unsigned long rt, per;

		if (sscanf(argv[2], "%lu:%lu", &rt, &per) != 2) {
			fprintf(stderr, "schedwake: RUNTIME_US:PERIOD_US, not '%s'\n", argv[2]);
			return 2;
		}
		a.policy = SCHED_DEADLINE;
		a.runtime = rt * 1000;
		a.deadline = a.period = per * 1000;
	} else {
		fprintf(stderr, "schedwake: policy fifo or deadline, not '%s'\n", argv[1]);
		return 2;
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0)) {
		perror("schedwake: sched_setattr");
		return 1;
	}
	count = atol(argv[3]);
	us = atol(argv[4]);
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (us % 1000000) * 1000;
	for (i = 0; i < count; i++)
		nanosleep(&ts, NULL);
	return 0;
}
