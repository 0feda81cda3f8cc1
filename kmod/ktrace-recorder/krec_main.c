// SPDX-License-Identifier: GPL-2.0
/*
 * krec: the event table, the ring buffer and the control files.
 *
 * The ring is the kernel's ring buffer (kernel/trace/ring_buffer.c), not
 * ftrace's: allocated with ring_buffer_alloc() in overwrite mode, one
 * per-CPU buffer of buffer_kb KiB each. The event table is the hash
 * krec_table of struct krec_entry by name; each event gets a 16-bit id
 * when it is registered. Control in debugfs, /sys/kernel/debug/krec/:
 *
 *   enabled              global switch (0/1)
 *   events/NAME/enable   per event (0/1)
 *   events/NAME/id       its id
 *   events/NAME/format   its format
 *   table                "id name owner enabled format", one a line
 *   trace                the records rendered as text (krec_read.c)
 *   stats                entries and overrun of the ring, per CPU and in all
 *   mark                 a write records the written line as krec_mark
 *   burst                a write of N records N krec_note events here
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/debugfs.h>
#include <linux/ring_buffer.h>
#include <linux/stringhash.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include "krec.h"
#include "krec_internal.h"

static unsigned int buffer_kb = 16;
module_param(buffer_kb, uint, 0444);
MODULE_PARM_DESC(buffer_kb, "ring buffer size per CPU in KiB (overwrite mode)");
static bool start_enabled = true;
module_param_named(enabled, start_enabled, bool, 0444);
MODULE_PARM_DESC(enabled, "record from load on");

struct trace_buffer *krec_buffer;
EXPORT_SYMBOL_GPL(krec_buffer);
bool krec_enabled;
EXPORT_SYMBOL_GPL(krec_enabled);
struct hlist_head krec_table[1 << KREC_HASH_BITS];
DEFINE_MUTEX(krec_lock);
static u16 krec_next_id = 1;
static struct dentry *krec_dir, *krec_events_dir;

static unsigned int name_bucket(const char *name)
{
	return full_name_hash(NULL, name, strlen(name)) & ((1 << KREC_HASH_BITS) - 1);
}

/* under krec_lock, or with the table frozen (recording off) */
struct krec_entry *krec_find_id(u16 id)
{
	struct krec_entry *e;
	int i;

	for (i = 0; i < ARRAY_SIZE(krec_table); i++)
		hlist_for_each_entry(e, &krec_table[i], hlist)
			if (e->id == id)
				return e;
	return NULL;
}

void krec_write(struct krec_event *ev, ...)
{
	struct krec_entry *e = ev->entry;
	u8 rec[KREC_MAX_RECORD];
	struct krec_record *h = (struct krec_record *)rec;
	const char *f = e->format;
	struct krec_spec sp;
	u32 off = sizeof(*h), end = e->size;
	va_list ap;

	va_start(ap, ev);
	while (krec_next_spec(&f, &sp) > 0) {
		if (sp.conv == 's') {
			const char *s = va_arg(ap, const char *);
			size_t n = strnlen(s ? s : "(null)", 0xfffe);
			u32 loc;

			if (!s)
				s = "(null)";
			if (n > KREC_MAX_RECORD - 1 - end)
				n = KREC_MAX_RECORD - 1 - end;
			memcpy(rec + end, s, n);
			rec[end + n] = 0;
			loc = (u32)(n + 1) << 16 | end;
			memcpy(rec + off, &loc, 4);
			end += n + 1;
		} else if (sp.size == 8) {
			u64 v = va_arg(ap, unsigned long long);

			memcpy(rec + off, &v, 8);
		} else {
			u32 v = va_arg(ap, unsigned int);

			memcpy(rec + off, &v, 4);
		}
		off += sp.size;
	}
	va_end(ap);
	h->id = e->id;
	h->size = end;
	h->pid = current->pid;
	ring_buffer_write(krec_buffer, end, rec);
}
EXPORT_SYMBOL_GPL(krec_write);

static void add_event_files(struct krec_entry *e)
{
	e->dir = debugfs_create_dir(e->name, krec_events_dir);
	debugfs_create_bool("enable", 0644, e->dir, &e->enabled);
	debugfs_create_u16("id", 0444, e->dir, &e->id);
	krec_create_format_file(e);
}

int krec_register_events(struct module *owner, struct krec_event **events, int n)
{
	struct krec_entry *e;
	int i, err = 0;

	mutex_lock(&krec_lock);
	for (i = 0; i < n; i++) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e) {
			err = -ENOMEM;
			break;
		}
		e->name = events[i]->name;
		e->format = events[i]->format;
		e->owner = owner;
		err = krec_parse(e);
		if (err) {
			pr_err("krec: event %s: format \"%s\" not supported\n", e->name, e->format);
			kfree(e);
			break;
		}
		e->id = krec_next_id++;
		e->enabled = true;
		hlist_add_head(&e->hlist, &krec_table[name_bucket(e->name)]);
		add_event_files(e);
		events[i]->entry = e;
	}
	mutex_unlock(&krec_lock);
	if (err)
		krec_unregister_events(events, i);
	return err;
}
EXPORT_SYMBOL_GPL(krec_register_events);

void krec_unregister_events(struct krec_event **events, int n)
{
	int i;

	mutex_lock(&krec_lock);
	for (i = 0; i < n; i++) {
		struct krec_entry *e = events[i]->entry;

		if (!e)
			continue;
		WRITE_ONCE(events[i]->entry, NULL);
		hlist_del(&e->hlist);
		debugfs_remove_recursive(e->dir);
		synchronize_rcu();
		kfree(e);
	}
	mutex_unlock(&krec_lock);
}
EXPORT_SYMBOL_GPL(krec_unregister_events);

/* the recorder's own events */
KREC_EVENT(krec_mark, "%s");
KREC_EVENT(krec_note, "cpu=%d i=%lu tag=%s");
static struct krec_event *own_events[] = { &krec_mark, &krec_note };

static ssize_t mark_write(struct file *file, const char __user *ubuf, size_t cnt,
			  loff_t *ppos)
{
	char buf[128];
	size_t n = min(cnt, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	krec(krec_mark, buf);
	return cnt;
}

static const struct file_operations mark_fops = {
	.write = mark_write,
	.llseek = noop_llseek,
};

static ssize_t burst_write(struct file *file, const char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	static const char *const tags[] = { "alpha", "beta", "gamma-delta", "" };
	unsigned long n, i;
	int err = kstrtoul_from_user(ubuf, cnt, 0, &n);

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		krec(krec_note, raw_smp_processor_id(), i, tags[i % ARRAY_SIZE(tags)]);
		cond_resched();
	}
	return cnt;
}

static const struct file_operations burst_fops = {
	.write = burst_write,
	.llseek = noop_llseek,
};

static int __init krec_init(void)
{
	int err;

	krec_buffer = ring_buffer_alloc((unsigned long)buffer_kb << 10, RB_FL_OVERWRITE);
	if (!krec_buffer)
		return -ENOMEM;
	krec_dir = debugfs_create_dir("krec", NULL);
	krec_events_dir = debugfs_create_dir("events", krec_dir);
	debugfs_create_bool("enabled", 0644, krec_dir, &krec_enabled);
	debugfs_create_file("mark", 0200, krec_dir, NULL, &mark_fops);
	debugfs_create_file("burst", 0200, krec_dir, NULL, &burst_fops);
	krec_create_read_files(krec_dir);
	err = krec_register_events(THIS_MODULE, own_events, ARRAY_SIZE(own_events));
	if (err) {
		debugfs_remove_recursive(krec_dir);
		ring_buffer_free(krec_buffer);
		return err;
	}
	WRITE_ONCE(krec_enabled, start_enabled);
	pr_info("krec: %u KiB per cpu, overwrite\n", buffer_kb);
	return 0;
}

static void __exit krec_exit(void)
{
	WRITE_ONCE(krec_enabled, false);
	krec_unregister_events(own_events, ARRAY_SIZE(own_events));
	debugfs_remove_recursive(krec_dir);
	ring_buffer_free(krec_buffer);
}

module_init(krec_init);
module_exit(krec_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("krec: the ktrace recorder (name+format events on a ring buffer of its own)");
