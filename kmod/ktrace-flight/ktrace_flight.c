// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_flight: flight-recorder channels on relay.
 *
 * Two relay channels under debugfs ktrace-flight/: "percpu", one buffer
 * per CPU, and "global", one buffer every CPU writes to under a lock.
 * Both run in flight mode: when every sub-buffer is full the writer goes
 * on into the oldest one (subbuf_start always accepts the switch), so the
 * channels always hold the most recent records, as a flight recorder
 * must; nothing here ever reads them. A dump of the machine is where
 * they are read (ktrace-extract --relay).
 *
 * A record: struct flight_record (magic, length, CPU, sequence number
 * of its buffer) and a NUL-terminated text, 8-byte aligned.
 *
 * debugfs ktrace-flight/:
 *   enabled   1: records are written (default), 0: dropped
 *   burst     write N: N records "burst I" into both channels, from the
 *             writing CPU
 *   mark      write TEXT: a record "mark TEXT" into both channels
 *   view      the module's own account of what each buffer still holds:
 *             the sequence number of the first record of the oldest
 *             sub-buffer not overwritten and of the next record, and
 *             the sub-buffers overwritten (the sequence number each
 *             sub-buffer starts with is noted at every switch)
 *   percpuN, global0   the relay files themselves (reading consumes)
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>

static unsigned int subbuf_size = 1024;
module_param(subbuf_size, uint, 0444);
MODULE_PARM_DESC(subbuf_size, "bytes per sub-buffer");
static unsigned int n_subbufs = 8;
module_param(n_subbufs, uint, 0444);
MODULE_PARM_DESC(n_subbufs, "sub-buffers per buffer");

#define FLIGHT_MAGIC	0x74676c66	/* "flgt" */
#define FLIGHT_TEXT_MAX	128

struct flight_record {
	u32 magic;
	u16 len;	/* the whole record, aligned to 8 */
	u16 cpu;
	u64 seq;	/* of its buffer, from 0 */
	char text[];
};

/* the module's own account of one buffer */
struct flight_acct {
	u64 next_seq;
	u64 *first_seq;	/* per sub-buffer slot: the seq it started with */
};

struct flight_chan {
	const char *name;
	bool global;
	struct rchan *chan;
	spinlock_t lock;	/* global: the writers of every CPU */
	struct flight_acct *acct;	/* per CPU; global: [0] */
};

static struct flight_chan chans[] = {
	{ .name = "percpu", .global = false },
	{ .name = "global", .global = true },
};

static struct dentry *dir;
static bool enabled = true;

static struct flight_acct *acct_of(struct flight_chan *fc, struct rchan_buf *buf)
{
	return &fc->acct[fc->global ? 0 : buf->cpu];
}

/*
 * flight mode: always switch, overwriting the oldest sub-buffer if need be
 * ("relayfs: abolish prev_padding", 6.16, dropped the last argument)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
static int flight_subbuf_start(struct rchan_buf *buf, void *subbuf, void *prev_subbuf)
#else
static int flight_subbuf_start(struct rchan_buf *buf, void *subbuf, void *prev_subbuf,
			       size_t prev_padding)
#endif
{
	struct flight_chan *fc = buf->chan->private_data;
	struct flight_acct *a;

	if (!fc || !fc->acct)
		return 1;
	a = acct_of(fc, buf);
	a->first_seq[buf->subbufs_produced % n_subbufs] = a->next_seq;
	return 1;
}

static struct dentry *flight_create_buf_file(const char *filename, struct dentry *parent,
					     umode_t mode, struct rchan_buf *buf,
					     int *is_global)
{
	struct flight_chan *fc = buf->chan->private_data;

	if (fc && fc->global)
		*is_global = 1;
	return debugfs_create_file(filename, mode, parent, buf, &relay_file_operations);
}

static int flight_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static struct rchan_callbacks flight_callbacks = {
	.subbuf_start = flight_subbuf_start,
	.create_buf_file = flight_create_buf_file,
	.remove_buf_file = flight_remove_buf_file,
};

static void flight_write(struct flight_chan *fc, const char *text)
{
	size_t tlen = strnlen(text, FLIGHT_TEXT_MAX - 1) + 1;
	size_t len = ALIGN(sizeof(struct flight_record) + tlen, 8);
	struct flight_record *r;
	struct rchan_buf *buf;
	unsigned long flags;
	int cpu;

	if (!READ_ONCE(enabled) || !fc->chan)
		return;
	local_irq_save(flags);
	if (fc->global)
		spin_lock(&fc->lock);
	cpu = smp_processor_id();
	buf = *this_cpu_ptr(fc->chan->buf);
	r = relay_reserve(fc->chan, len);
	if (r) {
		/* after relay_reserve(): a switch noted next_seq as the new
		 * sub-buffer's first */
		struct flight_acct *a = acct_of(fc, buf);

		memset(r, 0, len);
		r->magic = FLIGHT_MAGIC;
		r->len = len;
		r->cpu = cpu;
		r->seq = a->next_seq++;
		memcpy(r->text, text, tlen - 1);
	}
	if (fc->global)
		spin_unlock(&fc->lock);
	local_irq_restore(flags);
}

static void flight_write_all(const char *text)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(chans); i++)
		flight_write(&chans[i], text);
}

static ssize_t burst_write(struct file *f, const char __user *ubuf, size_t n, loff_t *pos)
{
	char text[FLIGHT_TEXT_MAX];
	unsigned int count, i;
	int err;

	err = kstrtouint_from_user(ubuf, n, 0, &count);
	if (err)
		return err;
	for (i = 0; i < count; i++) {
		snprintf(text, sizeof(text), "burst %u of %u", i, count);
		flight_write_all(text);
		cond_resched();
	}
	return n;
}

static ssize_t mark_write(struct file *f, const char __user *ubuf, size_t n, loff_t *pos)
{
	char text[FLIGHT_TEXT_MAX], buf[FLIGHT_TEXT_MAX - 8];
	size_t len = min(n, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	strim(buf);
	snprintf(text, sizeof(text), "mark %s", buf);
	flight_write_all(text);
	return n;
}

static int view_show(struct seq_file *m, void *v)
{
	int i, cpu;

	for (i = 0; i < ARRAY_SIZE(chans); i++) {
		struct flight_chan *fc = &chans[i];

		for_each_possible_cpu(cpu) {
			struct rchan_buf *buf = *per_cpu_ptr(fc->chan->buf, cpu);
			struct flight_acct *a;
			unsigned long flags;
			u64 first = 0, next, produced, over = 0;

			if (!buf)
				continue;
			if (fc->global && cpu)
				break;
			local_irq_save(flags);
			if (fc->global)
				spin_lock(&fc->lock);
			a = acct_of(fc, buf);
			produced = buf->subbufs_produced;
			next = a->next_seq;
			/* n_subbufs slots: the current one and the n - 1
			 * before it; nothing reads, so those before went */
			if (produced >= n_subbufs) {
				over = produced - n_subbufs + 1;
				first = a->first_seq[(produced + 1) % n_subbufs];
			}
			if (fc->global)
				spin_unlock(&fc->lock);
			local_irq_restore(flags);
			seq_printf(m, "%s cpu %d: first %llu next %llu overwritten %llu\n", fc->name,
				   fc->global ? -1 : cpu, first, next, over);
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(view);

static const struct file_operations burst_fops = {
	.owner = THIS_MODULE,
	.write = burst_write,
};

static const struct file_operations mark_fops = {
	.owner = THIS_MODULE,
	.write = mark_write,
};

static void flight_close(void)
{
	int i, cpu;

	for (i = 0; i < ARRAY_SIZE(chans); i++) {
		if (chans[i].chan)
			relay_close(chans[i].chan);
		chans[i].chan = NULL;
		if (chans[i].acct)
			for_each_possible_cpu(cpu)
				kfree(chans[i].acct[cpu].first_seq);
		kfree(chans[i].acct);
		chans[i].acct = NULL;
	}
	debugfs_remove_recursive(dir);
}

static int __init flight_init(void)
{
	int i, cpu;

	if (!subbuf_size || !n_subbufs || subbuf_size < 64)
		return -EINVAL;
	dir = debugfs_create_dir("ktrace-flight", NULL);
	if (IS_ERR_OR_NULL(dir))
		return -ENODEV;
	for (i = 0; i < ARRAY_SIZE(chans); i++) {
		struct flight_chan *fc = &chans[i];

		spin_lock_init(&fc->lock);
		fc->acct = kcalloc(nr_cpu_ids, sizeof(*fc->acct), GFP_KERNEL);
		if (!fc->acct)
			goto nomem;
		for_each_possible_cpu(cpu) {
			fc->acct[cpu].first_seq = kcalloc(n_subbufs, sizeof(u64), GFP_KERNEL);
			if (!fc->acct[cpu].first_seq)
				goto nomem;
		}
		fc->chan = relay_open(fc->name, dir, subbuf_size, n_subbufs, &flight_callbacks, fc);
		if (!fc->chan)
			goto nomem;
	}
	debugfs_create_bool("enabled", 0644, dir, &enabled);
	debugfs_create_file("burst", 0200, dir, NULL, &burst_fops);
	debugfs_create_file("mark", 0200, dir, NULL, &mark_fops);
	debugfs_create_file("view", 0444, dir, NULL, &view_fops);
	return 0;
nomem:
	flight_close();
	return -ENOMEM;
}

static void __exit flight_exit(void)
{
	flight_close();
}

module_init(flight_init);
module_exit(flight_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("flight-recorder channels on relay, read from a dump by ktrace");
