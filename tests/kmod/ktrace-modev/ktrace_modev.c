// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_modev: a module whose own trace event (ktrace_modev_state) the
 * module-events fixtures record. Writing N to the fire parameter emits N
 * events (tests/vmcores/modev-run.sh).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#define CREATE_TRACE_POINTS
#include "ktrace_modev_trace.h"

static noinline int modev_work(unsigned int i)
{
	return (int)(i * 3 + 1);
}

static int fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	for (i = 0; i < n && i < 1000; i++) {
		trace_ktrace_modev_state(i, i % 4, i & 7, (unsigned long)modev_work + (i % 2),
					 modev_work(i) & 1 ? "odd" : "even");
		trace_ktrace_modev_num(i);
	}
	return 0;
}

static const struct kernel_param_ops fire_ops = {
	.set = fire_set,
};
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "emit this many ktrace_modev_state events");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ktrace test module: an event defined in a module");
