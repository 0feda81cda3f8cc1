// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftrace's blk tracer (current_tracer=blk with /sys/block/<dev>/trace/enable):
 * its TRACE_BLK entries as kernel/trace/blktrace.c prints them, the same
 * in 5.10, 6.1 and 6.12 (print_one_line(), blk_log_action(),
 * blk_log_action_classic(), what2act[], blk_tracer_print_header()).
 * 6.19's zoned-block tracing made them a struct blk_io_trace2 (a 64-bit
 * action and a 64-byte header, the fields moved; "WZ" for write-zeroes,
 * no bounce): the layout is the one whose type the kernel has.
 *
 * A TRACE_BLK entry is a struct blk_io_trace laid over the ring buffer
 * event (include/uapi/linux/blktrace_api.h): its first 8 bytes (magic,
 * sequence) are the struct trace_entry, time is never written in ftrace
 * mode, then sector, bytes, action, pid, device, cpu, error, pdu_len, and
 * pdu_len bytes after it: the cgroup id first when the action has
 * __BLK_TA_CGROUP (blk_cgroup on), then the action's payload.
 *
 * TRACE_BLK has no trace_event_call: it is registered by the bare
 * struct trace_event trace_blk_event, whose type is read from the dump.
 * It enters the event table as ftrace:blktrace (the name trace-cmd's blk
 * plugin looks for) with a format of the struct's fields.
 */
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"

/* include/uapi/linux/blktrace_api.h, unchanged since 2.6.x but cgroups (4.14) */
#define BLK_TC_SHIFT		16
#define BLK_TC_WRITE		(1 << 1)
#define BLK_TC_FLUSH		(1 << 2)
#define BLK_TC_SYNC		(1 << 3)
#define BLK_TC_PC		(1 << 9)
#define BLK_TC_NOTIFY		(1 << 10)
#define BLK_TC_AHEAD		(1 << 11)
#define BLK_TC_META		(1 << 12)
#define BLK_TC_DISCARD		(1 << 13)
#define BLK_TC_FUA		(1 << 15)
#define BLK_TA_CGROUP		(1 << 8)	/* __BLK_TA_CGROUP, __BLK_TN_CGROUP */
#define BLK_TN_MESSAGE		(2 | (BLK_TC_NOTIFY << BLK_TC_SHIFT))

#define BLK_TC_WRITE_ZEROES	(1ULL << 22)	/* blk_io_trace2 only */
#define BLK_TA_BOUNCE		14		/* gone with blk_io_trace2 */

/* struct blk_io_trace and struct blk_io_trace2 (uapi: fixed) */
struct blk_layout {
	uint32_t sector, bytes, action, action_size, device, error, pdu_len, size;
	const char *fields, *print_fmt;
};

/* blk_tracer_flags.val (TRACE_BLK_OPT_*): tracer options blk_classic, blk_cgroup, blk_cgname */
#define OPT_CLASSIC	0x1
#define OPT_CGNAME	0x4

/* dev_t inside the kernel: MINORBITS 20 */
#define DEV_MAJOR(d)	((unsigned int)((d) >> 20))
#define DEV_MINOR(d)	((unsigned int)((d) & ((1U << 20) - 1)))

/*
 * The fields after the common ones; "data" is the pdu (cgroup id first
 * when the action has __BLK_TA_CGROUP).
 */
static const struct blk_layout blk_v1 = {
	16, 24, 28, 4, 36, 44, 46, 48,
	"\tfield:u64 sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 bytes;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 action;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 pid;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 device;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:u16 error;\toffset:44;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 pdu_len;\toffset:46;\tsize:2;\tsigned:0;\n"
	"\tfield:u8 data[0];\toffset:48;\tsize:0;\tsigned:0;\n",
	/* what trace-cmd prints without a blk plugin: the fields, plainly */
	"\"%d,%d action=0x%x sector=%llu bytes=%u error=%u pdu_len=%u\", "
	"REC->device >> 20, REC->device & ((1 << 20) - 1), REC->action, REC->sector, "
	"REC->bytes, REC->error, REC->pdu_len",
};
static const struct blk_layout blk_v2 = {
	16, 24, 32, 8, 40, 48, 50, 64,
	"\tfield:u64 sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 bytes;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 pid;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 action;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 device;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:u16 error;\toffset:48;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 pdu_len;\toffset:50;\tsize:2;\tsigned:0;\n",
	/*
	 * no "u8 data[0]" at the end: trace-cmd report -R printed it as a
	 * string past the record, and died where a record ended its page
	 */
	"\"%d,%d action=0x%llx sector=%llu bytes=%u error=%u pdu_len=%u\", "
	"REC->device >> 20, REC->device & ((1 << 20) - 1), REC->action, REC->sector, "
	"REC->bytes, REC->error, REC->pdu_len",
};

static const struct blk_layout *blk_layout(const struct kt_session *s)
{
	return s->blk_v2 ? &blk_v2 : &blk_v1;
}


/*
 * trace_blk_event.type and blk_tracer_flags.val, and the event
 * ftrace:blktrace in the table. A kernel without CONFIG_BLK_DEV_IO_TRACE
 * has neither symbol: nothing to add.
 */
int kt_blk__add_event(struct kt_session *s)
{
	struct kt_event *ne, *e;
	uint64_t addr, type, val;

	if (kt_symbol(s, "trace_blk_event", &addr))
		return 0;
	if (!s->l.tevent_type.present || kt_read_member(s, addr, &s->l.tevent_type, &type) ||
	    !type || type > 65535) {
		kt_warn(s, "trace_blk_event at 0x%llx: its type (struct trace_event) cannot be "
			   "read: the blk tracer's records are shown as unknown",
			(unsigned long long)addr);
		return 0;
	}
	if (!kt_symbol(s, "blk_tracer_flags", &addr) && s->l.tflags_val.present &&
	    !kt_read_member(s, addr, &s->l.tflags_val, &val))
		s->blk_flags = (uint32_t)val;
	/*
	 * 6.19+: the tracer writes and prints struct blk_io_trace2, and
	 * struct blk_trace has the version it sets up (asking for the type
	 * itself costs a search of every unit of DWARF where it is absent)
	 */
	{
		struct kt_member ver;

		s->blk_v2 = !kt_member__probe(s, "struct blk_trace", "version", &ver);
	}
	ne = realloc(s->events, (size_t)(s->nr_events + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	s->events = ne;
	e = &ne[s->nr_events];
	memset(e, 0, sizeof(*e));
	e->s = s;
	e->id = (int)type;
	e->system = strdup("ftrace");
	e->name = strdup("blktrace");
	e->print_fmt = strdup(blk_layout(s)->print_fmt);
	e->fields_text = blk_layout(s)->fields;
	if (!e->system || !e->name || !e->print_fmt) {
		free(e->system);
		free(e->name);
		free(e->print_fmt);
		return -ENOMEM;
	}
	s->nr_events++;
	s->blk_type = e->id;
	return 0;
}

/* current_tracer is blk: its header, blk_classic's lines */
bool kt_blk__tracer(struct kt_session *s, struct kt_buffer *b)
{
	return s->blk_type && !b->ops && !strcmp(kt_opts__load(s, b)->tracer, "blk");
}

/* blk_tracer_print_line(): TRACE_BLK lines of their own with blk_classic */
bool kt_blk__classic(struct kt_session *s, struct kt_buffer *b)
{
	return kt_blk__tracer(s, b) && (s->blk_flags & OPT_CLASSIC);
}

/* s_show(): "# tracer: blk", then blk_tracer_print_header() */
void kt_blk__header(struct kt_session *s, struct kt_buffer *b, FILE *out)
{
	fputs("# tracer: blk\n#\n", out);
	if (s->blk_flags & OPT_CLASSIC)
		fputs("# DEV   CPU TIMESTAMP     PID ACT FLG\n"
		      "#  |     |     |           |   |   |\n", out);
}

/* fill_rwbs() */
static void fill_rwbs(char *rwbs, uint64_t action, uint32_t bytes)
{
	uint64_t tc = action >> BLK_TC_SHIFT;
	int i = 0;

	if ((action & ~BLK_TA_CGROUP) == BLK_TN_MESSAGE) {
		rwbs[i++] = 'N';
		goto out;
	}
	if (tc & BLK_TC_FLUSH)
		rwbs[i++] = 'F';
	if (tc & BLK_TC_DISCARD) {
		rwbs[i++] = 'D';
	} else if (tc & BLK_TC_WRITE_ZEROES) {
		rwbs[i++] = 'W';
		rwbs[i++] = 'Z';
	} else if (tc & BLK_TC_WRITE)
		rwbs[i++] = 'W';
	else if (bytes)
		rwbs[i++] = 'R';
	else
		rwbs[i++] = 'N';
	if (tc & BLK_TC_FUA)
		rwbs[i++] = 'F';
	if (tc & BLK_TC_AHEAD)
		rwbs[i++] = 'A';
	if (tc & BLK_TC_SYNC)
		rwbs[i++] = 'S';
	if (tc & BLK_TC_META)
		rwbs[i++] = 'M';
out:
	rwbs[i] = '\0';
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

struct blk_rec {
	const uint8_t *t;
	const uint8_t *pdu;	/* after the cgroup id */
	int pdu_len;		/* pdu_real_len() */
	uint64_t action;
	uint32_t bytes, device;
	uint64_t sector;
	uint16_t error;
	int pid;
	char comm[16 + 1];	/* TASK_COMM_LEN and a NUL (kt_session__comm_r()) */
	const char *cmd;	/* trace_find_cmdline() */
};

/* blk_log_dump_pdu(): the bytes in hex, the zeros at the end cut to " .." */
static void dump_pdu(struct trace_seq *q, const struct blk_rec *t)
{
	int i, end;

	if (!t->pdu_len)
		return;
	for (end = t->pdu_len - 1; end >= 0; end--)
		if (t->pdu[end])
			break;
	end++;
	trace_seq_putc(q, '(');
	for (i = 0; i < t->pdu_len; i++) {
		trace_seq_printf(q, "%s%02x", i == 0 ? "" : " ", t->pdu[i]);
		if (i == end && end != t->pdu_len - 1) {
			trace_seq_puts(q, " ..) ");
			return;
		}
	}
	trace_seq_puts(q, ") ");
}

/* blk_log_generic(): queue, merges, getrq, sleeprq, issue, insert, bounce */
static bool log_generic(struct trace_seq *q, const struct blk_rec *t)
{
	if (t->action & (BLK_TC_PC << BLK_TC_SHIFT)) {
		trace_seq_printf(q, "%u ", t->bytes);
		dump_pdu(q, t);
		trace_seq_printf(q, "[%s]", t->cmd);
	} else if (t->bytes >> 9) {
		trace_seq_printf(q, "%llu + %u [%s]", (unsigned long long)t->sector,
				 t->bytes >> 9, t->cmd);
	} else {
		trace_seq_printf(q, "[%s]", t->cmd);
	}
	return true;
}

/* blk_log_with_error(): requeue, complete (error is a __u16 printed %d) */
static bool log_with_error(struct trace_seq *q, const struct blk_rec *t)
{
	if (t->action & (BLK_TC_PC << BLK_TC_SHIFT)) {
		dump_pdu(q, t);
		trace_seq_printf(q, "[%d]", t->error);
	} else if (t->bytes >> 9) {
		trace_seq_printf(q, "%llu + %u [%d]", (unsigned long long)t->sector,
				 t->bytes >> 9, t->error);
	} else {
		trace_seq_printf(q, "%llu [%d]", (unsigned long long)t->sector, t->error);
	}
	return true;
}

/* blk_log_remap(): struct blk_io_trace_remap, big-endian */
static bool log_remap(struct trace_seq *q, const struct blk_rec *t)
{
	uint32_t from;

	if (t->pdu_len < 16)
		return false;
	from = (uint32_t)t->pdu[0] << 24 | (uint32_t)t->pdu[1] << 16 |
	       (uint32_t)t->pdu[2] << 8 | t->pdu[3];
	trace_seq_printf(q, "%llu + %u <- (%d,%d) %llu", (unsigned long long)t->sector,
			 t->bytes >> 9, DEV_MAJOR(from), DEV_MINOR(from),
			 (unsigned long long)be64(t->pdu + 8));
	return true;
}

static bool log_plug(struct trace_seq *q, const struct blk_rec *t)
{
	trace_seq_printf(q, "[%s]", t->cmd);
	return true;
}

/* blk_log_unplug(): the request count, a big-endian u64 */
static bool log_unplug(struct trace_seq *q, const struct blk_rec *t)
{
	if (t->pdu_len < 8)
		return false;
	trace_seq_printf(q, "[%s] %llu", t->cmd, (unsigned long long)be64(t->pdu));
	return true;
}

/* blk_log_split(): the new sector, a big-endian u64 */
static bool log_split(struct trace_seq *q, const struct blk_rec *t)
{
	if (t->pdu_len < 8)
		return false;
	trace_seq_printf(q, "%llu / %llu [%s]", (unsigned long long)t->sector,
			 (unsigned long long)be64(t->pdu), t->cmd);
	return true;
}

/* what2act[], indexed by __BLK_TA_*: the short and the verbose name */
static const struct {
	const char *act[2];
	bool (*print)(struct trace_seq *q, const struct blk_rec *t);
} what2act[] = {
	[1] = { { "Q", "queue" }, log_generic },
	[2] = { { "M", "backmerge" }, log_generic },
	[3] = { { "F", "frontmerge" }, log_generic },
	[4] = { { "G", "getrq" }, log_generic },
	[5] = { { "S", "sleeprq" }, log_generic },
	[6] = { { "R", "requeue" }, log_with_error },
	[7] = { { "D", "issue" }, log_generic },
	[8] = { { "C", "complete" }, log_with_error },
	[9] = { { "P", "plug" }, log_plug },
	[10] = { { "U", "unplug_io" }, log_unplug },
	[11] = { { "UT", "unplug_timer" }, log_unplug },
	[12] = { { "I", "insert" }, log_generic },
	[13] = { { "X", "split" }, log_split },
	[14] = { { "B", "bounce" }, log_generic },
	[15] = { { "A", "remap" }, log_remap },
};

/*
 * blk_log_action() (with the cgroup id as "LOW32,HIGH32"; blk_cgname's
 * cgroup path is not in the record: counted, not printed) or
 * blk_log_action_classic().
 */
static bool log_action(struct kt_session *s, struct kt_buffer *b, const struct blk_rec *t,
		       const char *act, bool classic, int cpu, uint64_t ts,
		       struct trace_seq *q)
{
	char rwbs[8];

	fill_rwbs(rwbs, t->action, t->bytes);
	if (classic) {
		trace_seq_printf(q, "%3d,%-3d %2d %5llu.%09llu %5u %2s %3s ",
				 DEV_MAJOR(t->device), DEV_MINOR(t->device), cpu,
				 (unsigned long long)(ts / 1000000000),
				 (unsigned long long)(ts % 1000000000), (unsigned)t->pid, act, rwbs);
	} else if (t->action & BLK_TA_CGROUP) {
		uint64_t id = kt_get64(s->l.be, t->t + blk_layout(s)->size);

		if (s->blk_flags & OPT_CGNAME) {
			b->loss.events_unrendered++;
			if (!b->opts.warned_blk)
				kt_warn(s, "buffer %s: blk tracer option blk_cgname is on: the "
					   "kernel printed each record's cgroup path, ktrace its id "
					   "(marked [cgroup path not rendered]); counted", b->name);
			b->opts.warned_blk = true;
			trace_seq_printf(q, "%3d,%-3d [cgroup path not rendered: id %llx,%llx] "
					    "%2s %3s ", DEV_MAJOR(t->device), DEV_MINOR(t->device),
					 (unsigned long long)(id & 0xffffffffULL),
					 (unsigned long long)(id >> 32), act, rwbs);
			return true;
		}
		trace_seq_printf(q, "%3d,%-3d %llx,%-llx %2s %3s ", DEV_MAJOR(t->device),
				 DEV_MINOR(t->device), (unsigned long long)(id & 0xffffffffULL),
				 (unsigned long long)(id >> 32), act, rwbs);
	} else {
		trace_seq_printf(q, "%3d,%-3d %2s %3s ", DEV_MAJOR(t->device),
				 DEV_MINOR(t->device), act, rwbs);
	}
	return true;
}

/*
 * print_one_line(): one TRACE_BLK record of @size bytes at @data, the
 * kernel's text without its final newline (the caller's). Classic: the
 * whole line (blk_tracer_print_line()), else what print_trace_fmt() prints
 * after the context columns. A record too short for what it says it holds
 * is printed as corrupt and counted.
 */
void kt_blk__print(struct kt_session *s, struct kt_buffer *b, const void *data, uint32_t size,
		   int cpu, uint64_t ts, bool classic, struct trace_seq *q)
{
	const struct blk_layout *L = blk_layout(s);
	bool long_act = b->opts.verbose;
	struct blk_rec t = { .t = data };
	unsigned int what;
	bool has_cg;
	uint32_t pdu_len;
	int cg, i;

	if (size < L->size)
		goto corrupt;
	t.sector = kt_get64(s->l.be, t.t + L->sector);
	t.bytes = kt_get32(s->l.be, t.t + L->bytes);
	t.action = kt_getn(s->l.be, t.t + L->action, L->action_size == 8 ? 8 : 4);
	t.device = kt_get32(s->l.be, t.t + L->device);
	t.error = kt_get16(s->l.be, t.t + L->error);
	pdu_len = kt_get16(s->l.be, t.t + L->pdu_len);
	/* iter->ent->pid: struct trace_entry's, over magic and sequence */
	t.pid = (int)kt_get32(s->l.be, t.t + s->l.te_pid.off);
	has_cg = t.action & BLK_TA_CGROUP;
	cg = has_cg ? 8 : 0;
	if (L->size + pdu_len > size || (int)pdu_len < cg)
		goto corrupt;
	t.pdu = t.t + L->size + cg;
	t.pdu_len = (int)pdu_len - cg;
	t.cmd = kt_session__comm_r(s, t.pid, t.comm);
	what = (t.action & ((1U << BLK_TC_SHIFT) - 1)) & ~BLK_TA_CGROUP;
	if ((t.action & ~BLK_TA_CGROUP) == BLK_TN_MESSAGE) {
		/* blk_log_msg(): the message's bytes as they are */
		log_action(s, b, &t, long_act ? "message" : "m", classic, cpu, ts, q);
		for (i = 0; i < t.pdu_len; i++)
			trace_seq_putc(q, (char)t.pdu[i]);
		return;
	}
	if (what == 0 || what >= sizeof(what2act) / sizeof(what2act[0])) {
		trace_seq_printf(q, "Unknown action %x", what);
		return;
	}
	/* blk_io_trace2's what2act[] has no bounce: a record no kernel writes */
	if (s->blk_v2 && what == BLK_TA_BOUNCE)
		goto corrupt;
	log_action(s, b, &t, what2act[what].act[long_act], classic, cpu, ts, q);
	if (what2act[what].print(q, &t))
		return;
corrupt:
	b->loss.events_unknown++;
	trace_seq_printf(q, "[corrupt blk record: %u bytes]", size);
}
