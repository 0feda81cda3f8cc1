// SPDX-License-Identifier: GPL-2.0
/*
 * krec's read interface: the ring rendered as text, oldest first, merged
 * over CPUs by time stamp (the lower CPU first on a tie), without
 * consuming it; one line a record:
 *
 *   SECONDS.MICROS [CPU] NAME: TEXT
 *
 * This rendering is what a reader of a crash dump must reproduce.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/ring_buffer.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include "krec.h"
#include "krec_internal.h"

static void show_record(struct seq_file *m, int cpu, u64 ts, const void *data, u32 len)
{
	const struct krec_record *h = data;
	struct krec_entry *e = NULL;
	char text[KREC_MAX_RECORD + 64];
	u32 rem_ns;
	u64 sec = div_u64_rem(ts, NSEC_PER_SEC, &rem_ns);

	seq_printf(m, "%5llu.%06u [%03d] ", sec, rem_ns / 1000, cpu);
	if (len >= sizeof(*h))
		e = krec_find_id(h->id);
	if (!e) {
		seq_printf(m, "<id %u>: (no such event)\n", len >= sizeof(*h) ? h->id : 0);
		return;
	}
	if (h->size < len)
		len = h->size;
	if (krec_render(e, data, len, text, sizeof(text)))
		seq_printf(m, "%s: (bad record)\n", e->name);
	else
		seq_printf(m, "%s: %s\n", e->name, text);
}

#ifdef KREC_READ_PREPARE
static struct ring_buffer_iter *iter_prepare(int cpu)
{
	return ring_buffer_read_prepare(krec_buffer, cpu, GFP_KERNEL);
}

static void iter_start(struct ring_buffer_iter **it, int nr)
{
	int cpu;

	ring_buffer_read_prepare_sync();
	for (cpu = 0; cpu < nr; cpu++)
		if (it[cpu])
			ring_buffer_read_start(it[cpu]);
}
#else
static struct ring_buffer_iter *iter_prepare(int cpu)
{
	return ring_buffer_read_start(krec_buffer, cpu, GFP_KERNEL);
}

static void iter_start(struct ring_buffer_iter **it, int nr)
{
}
#endif

static int trace_show(struct seq_file *m, void *v)
{
	struct ring_buffer_iter **it;
	int cpu, nr = nr_cpu_ids;

	it = kcalloc(nr, sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	mutex_lock(&krec_lock);
	for_each_online_cpu(cpu)
		it[cpu] = iter_prepare(cpu);
	iter_start(it, nr);
	for (;;) {
		struct ring_buffer_event *ev, *best = NULL;
		u64 ts, best_ts = 0;
		int best_cpu = -1;

		for (cpu = 0; cpu < nr; cpu++) {
			if (!it[cpu])
				continue;
			ev = ring_buffer_iter_peek(it[cpu], &ts);
			if (ev && (!best || ts < best_ts)) {
				best = ev;
				best_ts = ts;
				best_cpu = cpu;
			}
		}
		if (!best)
			break;
		show_record(m, best_cpu, best_ts, ring_buffer_event_data(best),
			    ring_buffer_event_length(best));
		ring_buffer_iter_advance(it[best_cpu]);
	}
	for (cpu = 0; cpu < nr; cpu++)
		if (it[cpu])
			ring_buffer_read_finish(it[cpu]);
	mutex_unlock(&krec_lock);
	kfree(it);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(trace);

static int stats_show(struct seq_file *m, void *v)
{
	int cpu;

	seq_printf(m, "entries: %lu\noverrun: %lu\n", ring_buffer_entries(krec_buffer),
		   ring_buffer_overruns(krec_buffer));
	for_each_online_cpu(cpu)
		seq_printf(m, "cpu%d: entries: %lu overrun: %lu\n", cpu,
			   ring_buffer_entries_cpu(krec_buffer, cpu),
			   ring_buffer_overrun_cpu(krec_buffer, cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int table_show(struct seq_file *m, void *v)
{
	struct krec_entry *e;
	int i;

	mutex_lock(&krec_lock);
	for (i = 0; i < ARRAY_SIZE(krec_table); i++)
		hlist_for_each_entry(e, &krec_table[i], hlist)
			seq_printf(m, "%u %s %s %d \"%s\"\n", e->id, e->name,
				   e->owner ? module_name(e->owner) : "-", e->enabled, e->format);
	mutex_unlock(&krec_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(table);

static int format_show(struct seq_file *m, void *v)
{
	struct krec_entry *e = m->private;

	seq_printf(m, "name: %s\nID: %u\nsize: %u\nformat: \"%s\"\n", e->name, e->id, e->size,
		   e->format);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(format);

void krec_create_format_file(struct krec_entry *e)
{
	debugfs_create_file("format", 0444, e->dir, e, &format_fops);
}

void krec_create_read_files(struct dentry *dir)
{
	debugfs_create_file("trace", 0444, dir, NULL, &trace_fops);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("table", 0444, dir, NULL, &table_fops);
}
