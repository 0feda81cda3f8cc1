// SPDX-License-Identifier: GPL-2.0
/*
 * krec_demo: a driver that records into krec with events of its own,
 * declared here where they are used. A write of N to
 * /sys/kernel/debug/krec_demo/burst plays N rounds of a pretend device:
 * a transmit, an interrupt and a state change.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include "krec.h"

KREC_EVENT(demo_xmit, "dev=%s len=%u seq=%llu");
KREC_EVENT(demo_irq, "irq=%d status=%#06x cpu=%u");
KREC_EVENT(demo_state, "%-8s -> %8s (%ld)");
static struct krec_event *demo_events[] = { &demo_xmit, &demo_irq, &demo_state };

static struct dentry *demo_dir;
static atomic64_t demo_seq;

static ssize_t burst_write(struct file *file, const char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	static const char *const states[] = { "idle", "busy", "draining", "reset" };
	unsigned long n, i;
	int err = kstrtoul_from_user(ubuf, cnt, 0, &n);

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		u64 seq = atomic64_inc_return(&demo_seq);

		krec(demo_xmit, i & 1 ? "eth0" : "wlan-long-name0", (unsigned int)(64 + i % 1400),
		     seq);
		krec(demo_irq, 10 + (int)(i % 7), (unsigned int)(i * 0x11) & 0xffff,
		     raw_smp_processor_id());
		krec(demo_state, states[i % 4], states[(i + 1) % 4], (long)i - 5);
		cond_resched();
	}
	return cnt;
}

static const struct file_operations burst_fops = {
	.write = burst_write,
	.llseek = noop_llseek,
};

static int __init demo_init(void)
{
	int err = krec_register_events(THIS_MODULE, demo_events, ARRAY_SIZE(demo_events));

	if (err)
		return err;
	demo_dir = debugfs_create_dir("krec_demo", NULL);
	debugfs_create_file("burst", 0200, demo_dir, NULL, &burst_fops);
	return 0;
}

static void __exit demo_exit(void)
{
	debugfs_remove_recursive(demo_dir);
	krec_unregister_events(demo_events, ARRAY_SIZE(demo_events));
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("krec_demo: a driver with krec events of its own");
