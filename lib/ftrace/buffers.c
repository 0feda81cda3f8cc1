// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Trace arrays and their ring buffers: global_trace, then every instance
 * on the ftrace_trace_arrays list (kernel/trace/trace.c), each with its
 * per-CPU struct ring_buffer_per_cpu.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

/* trace_clocks[] (kernel/trace/trace.c) names each clock by its function */
static const struct {
	const char *func;
	const char *name;
} clocks[] = {
	{ "trace_clock_local", "local" },
	{ "trace_clock_global", "global" },
	{ "trace_clock_counter", "counter" },
	{ "trace_clock_jiffies", "uptime" },
	{ "trace_clock", "perf" },
	{ "ktime_get_mono_fast_ns", "mono" },
	{ "ktime_get_raw_fast_ns", "mono_raw" },
	{ "ktime_get_boot_fast_ns", "boot" },
	{ "ktime_get_tai_fast_ns", "tai" },
	{ "trace_clock_x86_tsc", "x86-tsc" },
};

static void buffer_clock(struct kt_session *s, struct kt_buffer *b)
{
	uint64_t fn, addr;
	size_t i;

	strcpy(b->clock, "unknown");
	if (kt_read_member(s, b->rb, &s->l.rb_clock, &fn))
		return;
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!kt_symbol(s, clocks[i].func, &addr) && addr == fn) {
			strcpy(b->clock, clocks[i].name);
			return;
		}
	}
}

static int cpu_load(struct kt_session *s, struct kt_buffer *b, int cpu, uint64_t cb)
{
	const struct kt_layout *l = &s->l;
	struct kt_cpu *c = &b->cpus[cpu];
	uint64_t v = UINT64_MAX;
	int err = 0;

	c->info.cpu = cpu;
	if (!cb)
		return 0;
	c->cpu_buffer = cb;
	/* the first failure's errno: -ENODATA is a page the dump left out */
	err = kt_read_member(s, cb, &l->cpu_nr_pages, &c->info.nr_pages);
	err = err ? err : kt_read_member(s, cb, &l->cpu_pages, &c->pages);
	err = err ? err : kt_read_member(s, cb, &l->cpu_head_page, &c->head_page);
	err = err ? err : kt_read_member(s, cb, &l->cpu_tail_page, &c->tail_page);
	err = err ? err : kt_read_member(s, cb, &l->cpu_commit_page, &c->commit_page);
	err = err ? err : kt_read_member(s, cb, &l->cpu_reader_page, &c->reader_page);
	err = err ? err : kt_read_member(s, cb, &l->cpu_entries, &c->info.entries);
	err = err ? err : kt_read_member(s, cb, &l->cpu_overrun, &c->info.overrun);
	if (err) {
		/*
		 * the whole CPU is lost, its size unknown: counted apart from
		 * pages (cpus_unread). makedumpfile -d 31 on a kernel it does
		 * not support (7.x: "kernel version is not supported") drops
		 * slab pages such as this one.
		 */
		if (err == -ENODATA)
			kt_warn(s, "%s: cpu%d: struct ring_buffer_per_cpu at 0x%llx is not in the dump "
				   "(filtered out when the dump was made): none of cpu%d's events "
				   "can be read", b->name, cpu, (unsigned long long)cb, cpu);
		else
			kt_warn(s, "%s: cpu%d: cannot read struct ring_buffer_per_cpu at 0x%llx: %s: "
				   "none of cpu%d's events can be read", b->name, cpu,
				(unsigned long long)cb, strerror(-err), cpu);
		b->loss.cpus_unread++;
		c->cpu_buffer = 0;
		return 0;
	}
	/*
	 * rb_allocate_cpu_buffer() sets cpu to the slot of buffers[] the
	 * struct is put in: a struct in another slot is another CPU's (or a
	 * pointer gone wrong), and read here would print that CPU's events
	 * twice, the second time under this CPU's number
	 */
	if (kt_read_member(s, cb, &l->cpu_cpu, &v) || v != (uint64_t)cpu) {
		kt_warn(s, "%s: cpu%d: buffers[%d] points to a ring_buffer_per_cpu at 0x%llx whose "
			   "cpu is %lld, skipped", b->name, cpu, cpu, (unsigned long long)cb,
			(long long)(int32_t)v);
		b->loss.list_anomalies++;
		c->cpu_buffer = 0;
		return 0;
	}
	if (!kt_read_member(s, cb, &l->cpu_commit_overrun, &v))
		c->info.commit_overrun = v;
	if (!kt_read_member(s, cb, &l->cpu_dropped_events, &v))
		c->info.dropped_events = v;
	if (!kt_read_member(s, cb, &l->cpu_read, &v))
		c->info.read = v;
	if (!kt_read_member(s, cb, &l->cpu_entries_bytes, &v))
		c->info.entries_bytes = v;
	if (c->info.nr_pages > KT_MAX_PAGES_PER_CPU) {
		kt_warn(s, "%s: cpu%d: nr_pages %llu is implausible, capping the walk",
			b->name, cpu, (unsigned long long)c->info.nr_pages);
		b->loss.list_anomalies++;
		c->info.nr_pages = KT_MAX_PAGES_PER_CPU;
	}
	c->info.present = true;
	b->loss.events_overrun += c->info.overrun;
	b->loss.events_dropped += c->info.dropped_events + c->info.commit_overrun;
	return 0;
}

static int subbuf_size(struct kt_session *s, struct kt_buffer *b)
{
	const struct kt_layout *l = &s->l;
	uint64_t v;

	b->subbuf_size = l->page_size;
	/*
	 * 6.8 (variable sub-buffers): trace_buffer.subbuf_order says
	 * PAGE_SIZE << order; 6.8's subbuf_size (data size, header excluded)
	 * was dropped again later, so the order is asked first.
	 */
	if (l->rb_subbuf_order.present) {
		if (kt_read_member(s, b->rb, &l->rb_subbuf_order, &v))
			return kt_err(EFAULT, "%s: cannot read %s.subbuf_order at 0x%llx",
				      b->name, l->rb_type, (unsigned long long)b->rb);
		if (v > 8)
			return kt_err(EBADMSG, "%s: sub-buffer order %llu in %s at 0x%llx is "
					       "implausible", b->name, (unsigned long long)v,
				      l->rb_type, (unsigned long long)b->rb);
		v = (uint64_t)l->page_size << v;
		goto check;
	}
	if (!l->rb_subbuf_size.present)
		return 0;
	if (kt_read_member(s, b->rb, &l->rb_subbuf_size, &v))
		return kt_err(EFAULT, "%s: cannot read %s.subbuf_size at 0x%llx", b->name,
			      l->rb_type, (unsigned long long)b->rb);
	v += l->dp_data.off;
check:
	if (v < l->page_size || v > KT_MAX_SUBBUF || (v & (v - 1)))
		return kt_err(EBADMSG, "%s: sub-buffer size %llu in %s at 0x%llx is not a "
				       "power of two between %u and %u", b->name,
			      (unsigned long long)v, l->rb_type, (unsigned long long)b->rb,
			      l->page_size, KT_MAX_SUBBUF);
	b->subbuf_size = (uint32_t)v;
	return 0;
}

/* the ring @b->rb: sub-buffer size, clock, per-CPU buffers; 0 or -errno */
static int ring_load(struct kt_session *s, struct kt_buffer *b)
{
	const struct kt_layout *l = &s->l;
	uint64_t buffers, cpus;
	int cpu, err;

	if (subbuf_size(s, b))
		return -EBADMSG;
	buffer_clock(s, b);
	if ((l->rb_cpus.present && kt_read_member(s, b->rb, &l->rb_cpus, &cpus)) ||
	    kt_read_member(s, b->rb, &l->rb_buffers, &buffers))
		return kt_err(EFAULT, "%s: cannot read %s at 0x%llx", b->name, l->rb_type,
			      (unsigned long long)b->rb);
	b->nr_cpus = s->nr_cpu_ids;
	b->cpus = calloc(b->nr_cpus, sizeof(*b->cpus));
	if (!b->cpus)
		return kt_err(ENOMEM, "out of memory");
	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		uint64_t cb;

		err = kt_read_u64(s, buffers + 8ULL * cpu, &cb);
		if (err) {
			kt_warn(s, "%s: cannot read buffers[%d] at 0x%llx", b->name, cpu,
				(unsigned long long)(buffers + 8ULL * cpu));
			b->loss.list_anomalies++;
			continue;
		}
		cpu_load(s, b, cpu, cb);
	}
	return 0;
}

static struct kt_buffer *buffer_new(struct kt_session *s, const char *name)
{
	struct kt_buffer *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->s = s;
	b->hash_ptr = -1;
	if (name && !(b->name = strdup(name))) {
		free(b);
		return NULL;
	}
	return b;
}

static struct kt_buffer *buffer_load(struct kt_session *s, uint64_t tr, bool global)
{
	const struct kt_layout *l = &s->l;
	struct kt_buffer *b = buffer_new(s, global ? "global" : NULL);
	uint64_t name;
	int err;

	if (!b)
		return NULL;
	b->tr = tr;
	b->global = global;
	if (!global && (kt_read_member(s, tr, &l->tr_name, &name) ||
			kt_read_string(s, name, 256, &b->name))) {
		kt_err(EFAULT, "trace_array at 0x%llx: cannot read its name",
		       (unsigned long long)tr);
		goto fail;
	}
	if (!b->name)
		goto fail;
	err = kt_read_u64(s, tr + l->tr_array_buffer.off + l->ab_buffer.off, &b->rb);
	if (err) {
		kt_err(err, "%s: cannot read the ring buffer pointer of trace_array at 0x%llx: %s",
		       b->name, (unsigned long long)tr, strerror(-err));
		goto fail;
	}
	if (!b->rb) {
		kt_err(ENOENT, "%s: trace_array at 0x%llx has no ring buffer", b->name,
		       (unsigned long long)tr);
		goto fail;
	}
	if (ring_load(s, b))
		goto fail;
	return b;
fail:
	/* an instance known by name but not read: a request for it is told so */
	if (!global && b->name) {
		char **n = realloc(s->unread_names, (s->nr_unread_names + 1) * sizeof(*n));

		if (n) {
			s->unread_names = n;
			n[s->nr_unread_names] = strdup(b->name);
			if (n[s->nr_unread_names])
				s->nr_unread_names++;
		}
	}
	kt_buffer__free(b);
	return NULL;
}

bool kt_session__buffer_unread(const struct kt_session *s, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < s->nr_unread_names; i++)
		if (!strcmp(s->unread_names[i], name))
			return true;
	return false;
}

/*
 * The snapshot buffer of trace array @tr (its tracefs file "snapshot"):
 * tr->max_buffer (snapshot_buffer since 7.0), CONFIG_TRACER_MAX_TRACE, named "NAME.snapshot" after
 * its trace array, like the truth files of tests/vmcores/snap-run.sh (a '/'
 * would not do: trace-cmd report names a buffer by what follows it). Only
 * once allocated_snapshot is set (the first
 * snapshot, or a latency tracer): before, max_buffer is a ring of one page
 * per CPU never written. 0 with *@out NULL when there is none.
 */
static int snapshot_load(struct kt_session *s, const struct kt_buffer *live,
			 struct kt_buffer **out)
{
	const struct kt_layout *l = &s->l;
	struct kt_buffer *b;
	uint8_t allocated = 0;
	char *name;

	*out = NULL;
	if (!l->tr_allocated_snapshot.present ||
	    kt_read(s, live->tr + l->tr_allocated_snapshot.off, &allocated, 1) || !allocated)
		return 0;
	if (!l->tr_max_buffer.present) {
		/* a kernel that renamed the member again: said and counted, never silent */
		kt_warn(s, "%s: trace_array at 0x%llx has a snapshot buffer (allocated_snapshot "
			   "set), but struct trace_array has neither max_buffer nor "
			   "snapshot_buffer: %s.snapshot is not read", live->name,
			(unsigned long long)live->tr, live->name);
		s->buffers_unread++;
		return 0;
	}
	if (asprintf(&name, "%s.snapshot", live->name) < 0)
		return -ENOMEM;
	b = buffer_new(s, name);
	free(name);
	if (!b)
		return -ENOMEM;
	b->tr = live->tr;
	b->snapshot = true;
	if (kt_read_u64(s, live->tr + l->tr_max_buffer.off + l->ab_buffer.off, &b->rb) ||
	    !b->rb) {
		kt_warn(s, "%s: trace_array at 0x%llx: its snapshot buffer pointer is unreadable "
			   "or NULL though allocated_snapshot is set", live->name,
			(unsigned long long)live->tr);
		kt_buffer__free(b);
		return 0;
	}
	if (ring_load(s, b)) {
		kt_warn(s, "%s", kt_last_error());
		kt_buffer__free(b);
		return 0;
	}
	*out = b;
	return 0;
}

/* @b, then its snapshot buffer when it has one */
static int add_with_snapshot(struct kt_session *s, struct kt_buffer *b)
{
	struct kt_buffer *snap;
	int err = kt_session__add_buffer(s, b);

	if (err)
		return err;
	err = snapshot_load(s, b, &snap);
	if (err || !snap)
		return err;
	err = kt_session__add_buffer(s, snap);
	if (err)
		kt_buffer__free(snap);
	return err;
}

/*
 * A ring buffer of its own (ring_buffer_alloc() by a module, or any
 * struct trace_buffer): the same per-CPU buffers and pages as a trace
 * array's, without the trace array.
 */
struct kt_buffer *kt_ring__load(struct kt_session *s, const char *name, uint64_t rb)
{
	struct kt_buffer *b = buffer_new(s, name);

	if (!b) {
		kt_err(ENOMEM, "out of memory");
		return NULL;
	}
	b->rb = rb;
	b->ops = &kt_raw_ops;
	if (ring_load(s, b)) {
		kt_buffer__free(b);
		return NULL;
	}
	b->open_loss = b->loss;
	return b;
}

/*
 * ring_buffer_per_cpu.buffer points back at its ring and .cpu is its slot
 * in buffers[] (rb_allocate_cpu_buffer(), since 2.6.28): a word that is a
 * ring has at least one per-CPU buffer, and each one names it and its
 * CPU and has a plausible number of pages.
 */
int kt_ring__check(struct kt_session *s, uint64_t rb)
{
	const struct kt_layout *l = &s->l;
	uint64_t buffers, cb, back, c, pages;
	int cpu, found = 0;

	if (!rb || (rb & 7) || !l->cpu_buffer.present ||
	    kt_read_member(s, rb, &l->rb_buffers, &buffers) || !buffers || (buffers & 7))
		return 0;
	for (cpu = 0; cpu < s->nr_cpu_ids; cpu++) {
		if (kt_read_u64(s, buffers + 8ULL * cpu, &cb))
			return 0;
		if (!cb)
			continue;
		if (kt_read_member(s, cb, &l->cpu_buffer, &back) || back != rb ||
		    kt_read_member(s, cb, &l->cpu_cpu, &c) || c != (uint64_t)cpu ||
		    kt_read_member(s, cb, &l->cpu_nr_pages, &pages) || !pages ||
		    pages > KT_MAX_PAGES_PER_CPU)
			return 0;
		found++;
	}
	return found > 0;
}

void kt_buffer__free(struct kt_buffer *b)
{
	if (!b)
		return;
	if (b->ops && b->ops->free)
		b->ops->free(b->priv);
	free(b->cpus);
	free(b->name);
	free(b);
}

int kt_session__add_buffer(struct kt_session *s, struct kt_buffer *b)
{
	struct kt_buffer **n = realloc(s->buffers, (s->nr_buffers + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->buffers = n;
	s->buffers[s->nr_buffers++] = b;
	return 0;
}

/* s->nr_cpu_ids from the kernel's nr_cpu_ids */
int kt_buffers__nr_cpu_ids(struct kt_session *s)
{
	uint32_t ncpu;
	uint64_t pos;
	int err;

	if (kt_symbol(s, "nr_cpu_ids", &pos))
		return kt_err(ENOENT, "symbol nr_cpu_ids not found");
	err = kt_read_u32(s, pos, &ncpu);
	if (err)
		return kt_err(err, "cannot read nr_cpu_ids at 0x%llx: %s", (unsigned long long)pos,
			      strerror(-err));
	if (!ncpu || ncpu > KT_MAX_CPUS)
		return kt_err(EBADMSG, "nr_cpu_ids %u is implausible", ncpu);
	s->nr_cpu_ids = (int)ncpu;
	return 0;
}

int kt_buffers__load(struct kt_session *s)
{
	const struct kt_layout *l = &s->l;
	uint64_t global, head, pos;
	struct kt_seen seen = { 0 };
	bool met_global = false;
	struct kt_buffer *b;
	int n = 0, err;

	if (kt_symbol(s, "global_trace", &global))
		return kt_err(ENOENT, "symbol global_trace not found: kernel built without ftrace?");
	err = kt_buffers__nr_cpu_ids(s);
	if (err)
		return err;

	b = buffer_load(s, global, true);
	if (!b)
		return -errno;
	err = add_with_snapshot(s, b);
	if (err)
		return err;

	/*
	 * instances: the ftrace_trace_arrays list, bounded, global skipped.
	 * Every kernel with ftrace has the list (global_trace is on it):
	 * without it, or with it broken, instances may be missing unseen,
	 * which is counted (buffers_unread), never silent.
	 */
	if (kt_symbol(s, "ftrace_trace_arrays", &head)) {
		kt_warn(s, "symbol ftrace_trace_arrays not found: instances, if any, not read");
		s->buffers_unread++;
		return 0;
	}
	if (kt_read_u64(s, head + l->lh_next.off, &pos)) {
		kt_warn(s, "cannot read ftrace_trace_arrays at 0x%llx: instances, if any, not read",
			(unsigned long long)head);
		s->buffers_unread++;
		return 0;
	}
	while (pos != head) {
		uint64_t tr = pos - l->tr_list.off;

		if (++n > KT_MAX_INSTANCES) {
			kt_warn(s, "ftrace_trace_arrays: more than %d entries, list loops?",
				KT_MAX_INSTANCES);
			s->buffers_unread++;
			break;
		}
		err = kt_seen__add(&seen, pos);
		if (err < 0)
			goto out;
		if (err) {
			kt_warn(s, "ftrace_trace_arrays: entry 0x%llx met twice, the list loops",
				(unsigned long long)pos);
			s->buffers_unread++;
			break;
		}
		if (tr == global)
			met_global = true;
		if (tr != global) {
			b = buffer_load(s, tr, false);
			if (!b) {
				kt_warn(s, "%s", kt_last_error());
				s->buffers_unread++;
			}
			else if ((err = add_with_snapshot(s, b)))
				goto out;
		}
		if (kt_read_u64(s, pos + l->lh_next.off, &pos)) {
			kt_warn(s, "ftrace_trace_arrays: broken next pointer at 0x%llx",
				(unsigned long long)pos);
			s->buffers_unread++;
			break;
		}
	}
	/* the list walked to its end without global_trace: it is not the kernel's */
	if (pos == head && !met_global) {
		kt_warn(s, "ftrace_trace_arrays does not hold global_trace: the instance list is "
			   "damaged, instances may be missing");
		s->buffers_unread++;
	}
	err = 0;
out:
	kt_seen__free(&seen);
	return err;
}

const char *kt_buffer__name(const struct kt_buffer *b) { return b->name; }
const char *kt_buffer__kind(const struct kt_buffer *b) { return b->ops ? b->ops->kind : "ftrace"; }
bool kt_buffer__is_global(const struct kt_buffer *b) { return b->global; }
int kt_buffer__nr_cpus(const struct kt_buffer *b) { return b->nr_cpus; }
uint32_t kt_buffer__subbuf_size(const struct kt_buffer *b) { return b->subbuf_size; }
const char *kt_buffer__clock(const struct kt_buffer *b) { return b->clock; }
uint64_t kt_buffer__kaddr(const struct kt_buffer *b) { return b->rb; }

int kt_buffer__cpu_info(const struct kt_buffer *b, int cpu, struct kt_cpu_info *info)
{
	if (cpu < 0 || cpu >= b->nr_cpus)
		return -EINVAL;
	*info = b->cpus[cpu].info;
	return 0;
}

void kt_buffer__loss(const struct kt_buffer *b, struct kt_loss *loss)
{
	*loss = b->loss;
}

/* struct kt_loss holds only u64 counters: summed as an array */
_Static_assert(sizeof(struct kt_loss) % sizeof(uint64_t) == 0, "kt_loss holds only u64");

void kt_buffer__read_loss(const struct kt_buffer *b, const struct kt_loss *before,
			  struct kt_loss *out)
{
	const uint64_t *o = (const uint64_t *)&b->open_loss, *af = (const uint64_t *)&b->loss;
	const uint64_t *bf = (const uint64_t *)before;
	uint64_t *l = (uint64_t *)out;
	size_t k;

	for (k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
		l[k] = o[k] + (af[k] - bf[k]);
}

/*
 * As get_total_entries() in kernel/trace/trace.c: entries in the buffer
 * are what the writer put there minus what it overwrote; written adds
 * the overwritten ones back.
 */
void kt_buffer__entry_counts(const struct kt_buffer *b, uint64_t *in_buffer, uint64_t *written)
{
	uint64_t in = 0, all = 0;
	int cpu;

	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		const struct kt_cpu_info *i = &b->cpus[cpu].info;
		uint64_t e;

		if (!i->present)
			continue;
		/* rb_num_of_entries(): entries - (overrun + read) */
		e = i->entries - (i->overrun + i->read);
		if (e > i->entries)
			e = 0;
		in += e;
		all += e + i->overrun;
	}
	*in_buffer = in;
	*written = all;
}
