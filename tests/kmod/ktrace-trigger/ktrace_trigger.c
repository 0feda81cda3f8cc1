// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_trigger - panics on demand, for ktrace-qemu's panic regression tests
 *
 * The trigger is a module parameter. Given at load time
 * (insmod ktrace_trigger.ko trigger=bug) it fires from the module's init,
 * before user space could enable the module's events; written later to
 * /sys/module/ktrace_trigger/parameters/trigger it fires in the writer's
 * context, after the events were enabled:
 *
 *   oops    NULL-pointer dereference (panic_on_oops)
 *   bug     BUG() (panic_on_oops)
 *   warn    WARN() (panic_on_warn; without it the write returns)
 *   hung    sleeps in TASK_UNINTERRUPTIBLE forever (hung_task_panic)
 *   lockup  spins with preemption off (softlockup_panic)
 *
 * Each writes ktrace_trigger:ktrace_trigger_fire ("trigger=NAME cpu=N")
 * right before the fault, so the last event of the panicking CPU names it.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/completion.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/bug.h>

#define CREATE_TRACE_POINTS
#include "ktrace_trigger_trace.h"

struct ktrace_trigger_state {
	unsigned long loads;
};

static struct ktrace_trigger_state ktrace_trigger_state;
static struct ktrace_trigger_state *state;
/* volatile: the compiler cannot prove the dereference below is of NULL */
static struct ktrace_trigger_state *volatile nowhere;
static DECLARE_COMPLETION(never);
static char trigger[16];
static bool live;

static int ktrace_trigger_fire(const char *name)
{
	if (!strcmp(name, "oops")) {
		trace_ktrace_trigger_fire(name);
		nowhere->loads++;
	} else if (!strcmp(name, "bug")) {
		trace_ktrace_trigger_fire(name);
		BUG();
	} else if (!strcmp(name, "warn")) {
		trace_ktrace_trigger_fire(name);
		WARN(1, "ktrace_trigger: warn\n");
	} else if (!strcmp(name, "hung")) {
		trace_ktrace_trigger_fire(name);
		wait_for_completion(&never);
	} else if (!strcmp(name, "lockup")) {
		trace_ktrace_trigger_fire(name);
		preempt_disable();
		for (;;)
			cpu_relax();
	} else if (*name) {
		return -EINVAL;
	}
	return 0;
}

static int trigger_set(const char *val, const struct kernel_param *kp)
{
	char name[sizeof(trigger)];

	strscpy(name, val, sizeof(name));
	strim(name);
	if (strcmp(name, "oops") && strcmp(name, "bug") && strcmp(name, "warn") &&
	    strcmp(name, "hung") && strcmp(name, "lockup") && *name)
		return -EINVAL;
	strscpy(trigger, name, sizeof(trigger));
	/* at load time, the parameters are set before the init runs */
	return live ? ktrace_trigger_fire(trigger) : 0;
}

static int trigger_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", trigger);
}

static const struct kernel_param_ops trigger_ops = {
	.set = trigger_set,
	.get = trigger_get,
};
module_param_cb(trigger, &trigger_ops, NULL, 0600);
MODULE_PARM_DESC(trigger, "oops, bug, warn, hung or lockup: fire it now");

static int __init ktrace_trigger_init(void)
{
	state = &ktrace_trigger_state;
	state->loads++;
	trace_ktrace_trigger_load(state->loads);
	live = true;
	return ktrace_trigger_fire(trigger);
}

static void __exit ktrace_trigger_exit(void)
{
}

module_init(ktrace_trigger_init);
module_exit(ktrace_trigger_exit);
MODULE_DESCRIPTION("Panics on demand, for ktrace-qemu's panic regression tests");
MODULE_LICENSE("GPL");
