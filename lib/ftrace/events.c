// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event table, from the dump: every struct trace_event_call on the
 * ftrace_events list (kernel/trace/trace_events.c), rebuilt into the text
 * tracefs shows in events/<system>/<name>/format (f_show()).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "render.h"
#include "fmt.h"

struct strbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL,
			      sb->buf ? sb->cap - sb->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			sb->oom = true;
			return;
		}
		if (sb->buf && sb->len + n < sb->cap) {
			sb->len += n;
			return;
		}
		sb->cap = (sb->len + n + 1) * 2;
		char *nb = realloc(sb->buf, sb->cap);
		if (!nb) {
			sb->oom = true;
			return;
		}
		sb->buf = nb;
	}
}

/*
 * A field name is a C identifier and a type is printable text; anything
 * else is not a field list the kernel wrote (libtraceevent's parser also
 * crashes on some such bytes), so the list is treated as damaged.
 */
static bool c_identifier(const char *p)
{
	if (!*p || !(isalpha((unsigned char)*p) || *p == '_'))
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

static bool printable(const char *p)
{
	if (!*p)
		return false;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			return false;
	return true;
}

/*
 * Print the fields of the list at @head in the order tracefs does: walking
 * prev pointers (fields are added with list_add, so that is definition
 * order). Bounded; a loop or broken pointer ends the list with a warning.
 */
/*
 * ftrace_event_field.offset and .size are ints the kernel took from the
 * event's struct (offsetof(), sizeof()): never negative, and a record is
 * at most a sub-buffer's data (BUF_MAX_DATA_SIZE; sub-buffers are at most
 * KT_MAX_SUBBUF since 6.8), so a field reaching past that lies outside
 * every record. libtraceevent keeps them as ints and every reader of a
 * field adds them: checked here, once, before any of them sees one.
 */
static bool field_fits(uint64_t off, uint64_t size)
{
	return off <= KT_MAX_SUBBUF && size <= KT_MAX_SUBBUF - off;
}

/* a field's place, for overlaps() */
struct span {
	uint32_t off, size;
	char name[48];
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/*
 * The fields of an event are the members of its entry struct (or of a
 * probe's record, laid out one after the other): no two overlap. Two
 * that do are a damaged table, whose records would be printed from the
 * wrong bytes. 0, or -ERANGE with @why said.
 */
static int overlaps(struct span *sp, int n, char *why, size_t why_len)
{
	int i, last = -1;	/* the field reaching furthest so far (flexible ones have size 0) */

	if (n < 2)
		return 0;
	qsort(sp, (size_t)n, sizeof(*sp), cmp_span);
	for (i = 0; i < n; i++) {
		if (!sp[i].size)
			continue;
		if (last >= 0 && sp[last].off + sp[last].size > sp[i].off) {
			/* cut short if it must be: the names are the table's */
			if (snprintf(why, why_len, "fields %s (offset %u, size %u) and %s (offset "
				     "%u) overlap: the field table is damaged", sp[last].name,
				     sp[last].off, sp[last].size, sp[i].name, sp[i].off) < 0)
				*why = 0;
			return -ERANGE;
		}
		if (last < 0 || sp[i].off + sp[i].size > sp[last].off + sp[last].size)
			last = i;
	}
	return 0;
}

static int print_fields(struct kt_session *s, uint64_t head, struct strbuf *sb, int *nr,
			char *why, size_t why_len)
{
	const struct kt_layout *l = &s->l;
	struct kt_seen seen = { 0 };
	struct span *sp = NULL;
	uint64_t pos;
	int n = 0, err = 0;

	*nr = 0;
	if (kt_read_u64(s, head + l->lh_prev.off, &pos))
		return -EFAULT;
	while (pos != head) {
		uint64_t f = pos - l->field_link.off, name, type, off, size, sign, len = 0;
		char *sname = NULL, *stype = NULL;
		const char *arr;

		if (++n > KT_MAX_FIELDS) {
			err = -ELOOP;
			break;
		}
		err = kt_seen__add(&seen, pos);
		if (err) {
			err = err > 0 ? -ELOOP : err;
			break;
		}
		if (kt_read_member(s, f, &l->field_name, &name) ||
		    kt_read_member(s, f, &l->field_type, &type) ||
		    kt_read_member(s, f, &l->field_offset, &off) ||
		    kt_read_member(s, f, &l->field_size, &size) ||
		    kt_read_member(s, f, &l->field_is_signed, &sign) ||
		    (l->field_len.present && kt_read_member(s, f, &l->field_len, &len)) ||
		    kt_read_string(s, name, 256, &sname) ||
		    kt_read_string(s, type, 256, &stype)) {
			free(sname);
			err = -EFAULT;
			break;
		}
		if (!c_identifier(sname) || !printable(stype)) {
			free(sname);
			free(stype);
			err = -EBADMSG;
			break;
		}
		if (!field_fits(off, size)) {
			snprintf(why, why_len, "field %s has offset %lld and size %lld, outside "
				 "any record (at most %u bytes)", sname, (long long)(int32_t)off,
				 (long long)(int32_t)size, KT_MAX_SUBBUF);
			free(sname);
			free(stype);
			err = -ERANGE;
			break;
		}
		if (!((n - 1) & 63)) {
			struct span *ns = realloc(sp, (size_t)(n + 64) * sizeof(*sp));

			if (!ns) {
				free(sname);
				free(stype);
				err = -ENOMEM;
				break;
			}
			sp = ns;
		}
		sp[n - 1].off = (uint32_t)off;
		sp[n - 1].size = (uint32_t)size;
		snprintf(sp[n - 1].name, sizeof(sp[n - 1].name), "%s", sname);
		arr = strchr(stype, '[');
		if (!strncmp(stype, "__data_loc", 10))
			arr = NULL;
		if (!arr)
			sb_printf(sb, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				  stype, sname, (unsigned)off, (unsigned)size, !!(int)sign);
		else if (len)
			sb_printf(sb, "\tfield:%.*s %s[%d];\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				  (int)(arr - stype), stype, sname, (int)len, (unsigned)off,
				  (unsigned)size, !!(int)sign);
		else
			sb_printf(sb, "\tfield:%.*s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				  (int)(arr - stype), stype, sname, arr, (unsigned)off,
				  (unsigned)size, !!(int)sign);
		free(sname);
		free(stype);
		(*nr)++;
		if (kt_read_u64(s, pos + l->lh_prev.off, &pos)) {
			err = -EFAULT;
			break;
		}
	}
	if (!err)
		err = overlaps(sp, *nr, why, why_len);
	free(sp);
	kt_seen__free(&seen);
	return err;
}

/*
 * trace_event_call.name and .tp share a union; TRACE_EVENT_FL_TRACEPOINT
 * says which. Its bit moved (4.19: 5, 5.x+: 4), so ask the enum when the
 * target can; otherwise look: a struct tracepoint starts with a pointer
 * to its name, a name starts with text, and text never reads as a
 * canonical kernel address.
 */
static int event_name(struct kt_session *s, uint64_t call, char **out)
{
	const struct kt_layout *l = &s->l;
	uint64_t ptr, first, flags;
	int64_t bit;
	int tp = -1;

	if (kt_read_member(s, call, &l->call_name, &ptr))
		return -EFAULT;
	if (s->t.enumerator && l->call_flags.present &&
	    !s->t.enumerator(s->t.priv, "TRACE_EVENT_FL_TRACEPOINT_BIT", &bit) &&
	    bit >= 0 && bit < 32 && !kt_read_member(s, call, &l->call_flags, &flags))
		tp = !!(flags & (1ULL << bit));
	if (tp < 0) {
		if (kt_read_u64(s, ptr, &first))
			return -EFAULT;
		tp = (first >> 47) == 0x1ffff;
	}
	if (tp) {
		if (kt_read_u64(s, ptr + (l->tp_name.present ? l->tp_name.off : 0), &ptr))
			return -EFAULT;
	}
	return kt_read_string(s, ptr, 256, out);
}

static int load_call(struct kt_session *s, uint64_t call, struct kt_event *e)
{
	const struct kt_layout *l = &s->l;
	uint64_t class, sys, fmt, id;
	int err;

	e->call = call;
	e->s = s;
	if (kt_read_member(s, call, &l->call_class, &class) ||
	    kt_read_member(s, call, &l->call_event_type, &id) ||
	    kt_read_member(s, call, &l->call_print_fmt, &fmt) ||
	    kt_read_member(s, class, &l->class_system, &sys))
		return -EFAULT;
	e->class = class;
	e->id = (int)id;
	if (l->class_probe.present)
		kt_read_member(s, class, &l->class_probe, &e->probe);
	err = event_name(s, call, &e->name);
	if (!err)
		err = kt_read_string(s, sys, 256, &e->system);
	if (err)
		return err;
	/*
	 * no print_fmt: the kernel shows "" (dynamic events fill theirs in);
	 * one that cannot be read, or longer than any the kernel makes, is
	 * no format: its records are counted unknown, not printed empty
	 */
	err = fmt ? kt_read_string(s, fmt, KT_MAX_PRINT_FMT, &e->print_fmt) : 0;
	if (err) {
		if (err == -E2BIG)
			kt_warn(s, "%s:%s (id %d): print fmt at 0x%llx longer than %d bytes",
				e->system, e->name, e->id, (unsigned long long)fmt, KT_MAX_PRINT_FMT);
		else
			kt_warn(s, "%s:%s (id %d): print fmt at 0x%llx unreadable", e->system,
				e->name, e->id, (unsigned long long)fmt);
		e->format_failed = true;
	}
	if (!fmt || err)
		e->print_fmt = strdup("\"\"");
	if (!e->print_fmt)
		return -ENOMEM;
	kt_probe__classify(s, e);
	return 0;
}

/*
 * The list of an event's own fields: trace_event_class.fields, unless the
 * class has a get_fields() callback. The only such class in the kernel is
 * the syscall enter class (kernel/trace/trace_syscalls.c), whose fields
 * hang off the struct syscall_metadata in trace_event_call.data.
 */
static int fields_head(struct kt_session *s, struct kt_event *e, uint64_t *head)
{
	const struct kt_layout *l = &s->l;
	uint64_t get_fields = 0, data;

	*head = e->class + l->class_fields.off;
	if (!l->class_get_fields.present ||
	    kt_read_member(s, e->class, &l->class_get_fields, &get_fields) || !get_fields)
		return 0;
	if (!l->sm_enter_fields.present ||
	    kt_read_member(s, e->call, &l->call_data, &data) || !data)
		return kt_err(ENOENT, "%s:%s: fields come from a callback this kernel's "
				      "debuginfo does not explain", e->system, e->name);
	*head = data + l->sm_enter_fields.off;
	return 0;
}

/*
 * The common fields as trace_define_common_fields() defines them (type,
 * flags, preempt_count, pid; PREEMPT_RT 6.1's preempt_lazy_count), at
 * struct trace_entry's offsets: when the list itself (ftrace_common_fields)
 * is not in the dump (makedumpfile -d 31 left its entries' page out on a
 * 6.18 dump), else no event could be printed. NULL when the layout does
 * not know them.
 */
static char *common_from_layout(struct kt_session *s)
{
	const struct kt_layout *l = &s->l;
	struct strbuf c = { 0 };

	if (!l->te_type.present || !l->te_flags.present || !l->te_preempt_count.present ||
	    !l->te_pid.present || l->te_type.size != 2 || l->te_flags.size != 1 ||
	    l->te_preempt_count.size != 1 || l->te_pid.size != 4)
		return NULL;
	sb_printf(&c, "\tfield:unsigned short common_type;\toffset:%u;\tsize:2;\tsigned:0;\n",
		  l->te_type.off);
	sb_printf(&c, "\tfield:unsigned char common_flags;\toffset:%u;\tsize:1;\tsigned:0;\n",
		  l->te_flags.off);
	sb_printf(&c, "\tfield:unsigned char common_preempt_count;\toffset:%u;\tsize:1;"
		      "\tsigned:0;\n", l->te_preempt_count.off);
	sb_printf(&c, "\tfield:int common_pid;\toffset:%u;\tsize:4;\tsigned:1;\n", l->te_pid.off);
	if (l->te_preempt_lazy_count.present)
		sb_printf(&c, "\tfield:unsigned char common_preempt_lazy_count;\toffset:%u;"
			      "\tsize:1;\tsigned:0;\n", l->te_preempt_lazy_count.off);
	if (c.oom) {
		free(c.buf);
		return NULL;
	}
	return c.buf;
}

static int build_format(struct kt_session *s, struct kt_event *e)
{
	struct strbuf sb = { 0 };
	uint64_t head = 0;
	char why[160] = "";
	int nr;

	if (!s->common_fields && s->common_head) {
		struct strbuf c = { 0 };

		if (print_fields(s, s->common_head, &c, &nr, why, sizeof(why)) || c.oom) {
			free(c.buf);
			s->common_fields = common_from_layout(s);
			kt_warn(s, "cannot read ftrace_common_fields at 0x%llx%s%s%s",
				(unsigned long long)s->common_head, *why ? ": " : "", why,
				s->common_fields ? ": the common fields taken from struct "
						   "trace_entry, as the kernel defines them"
						 : ": formats lack common fields");
			s->common_head = 0;
		} else {
			s->common_fields = c.buf ? c.buf : strdup("");
		}
	}
	if (!e->fields_text && fields_head(s, e, &head))
		return -ENOENT;
	sb_printf(&sb, "name: %s\nID: %d\nformat:\n%s\n", e->name, e->id,
		  s->common_fields ? s->common_fields : "");
	if (e->fields_text) {
		sb_printf(&sb, "%s", e->fields_text);
	} else if (*why = 0, print_fields(s, head, &sb, &nr, why, sizeof(why))) {
		free(sb.buf);
		if (*why)
			return kt_err(ERANGE, "%s:%s: %s", e->system, e->name, why);
		return kt_err(EBADMSG, "%s:%s: cannot read its field list at 0x%llx", e->system,
			      e->name, (unsigned long long)head);
	}
	sb_printf(&sb, "\nprint fmt: %s\n", e->print_fmt);
	if (sb.oom) {
		free(sb.buf);
		return -ENOMEM;
	}
	e->format = sb.buf;
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct kt_event *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* room for one more event; 0 or -ENOMEM */
static int events_grow(struct kt_session *s, int *cap)
{
	struct kt_event *ne;

	if (s->nr_events < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	ne = realloc(s->events, (size_t)*cap * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	s->events = ne;
	return 0;
}

/*
 * Walk ftrace_events from @pos (head->next, or head->prev when @back)
 * to the head, loading each trace_event_call. Returns 0, -ENOMEM, 1
 * when the walk stopped at a link it could not read (*@last: the entry
 * before it), or 2 when, backwards, it met an entry already read.
 */
static int events_walk(struct kt_session *s, uint64_t head, uint64_t pos, bool back,
		       struct kt_seen *seen, int *n, int *bad, int *cap, uint64_t *last)
{
	const struct kt_layout *l = &s->l;
	const struct kt_member *link = back ? &l->lh_prev : &l->lh_next;
	int err;

	while (pos != head) {
		uint64_t call = pos - l->call_list.off;
		struct kt_event *e;

		if (++*n > KT_MAX_EVENTS) {
			kt_warn(s, "ftrace_events: more than %d entries, the list loops",
				KT_MAX_EVENTS);
			s->events_unread++;
			return 0;
		}
		err = kt_seen__add(seen, pos);
		if (err < 0)
			return err;
		if (err) {
			--*n;
			if (back)	/* met the forward walk: the list is whole again */
				return 2;
			kt_warn(s, "ftrace_events: entry 0x%llx met twice, the list loops",
				(unsigned long long)pos);
			s->events_unread++;
			return 0;
		}
		err = events_grow(s, cap);
		if (err)
			return err;
		e = &s->events[s->nr_events];
		memset(e, 0, sizeof(*e));
		if (load_call(s, call, e)) {
			kt_probe__free(e);
			free(e->name);
			free(e->system);
			free(e->print_fmt);
			++*bad;
		} else {
			s->nr_events++;
		}
		*last = call;
		if (kt_read_u64(s, pos + link->off, &pos))
			return 1;
	}
	return 0;
}

int kt_events__load(struct kt_session *s)
{
	const struct kt_layout *l = &s->l;
	struct kt_seen seen = { 0 };
	uint64_t head, pos, last = 0;
	int n = 0, bad = 0, cap = 0, err = 0, fwd;

	kt_probe__init(s);
	if (kt_symbol(s, "ftrace_events", &head))
		return kt_err(ENOENT, "symbol ftrace_events not found");
	if (kt_symbol(s, "ftrace_common_fields", &s->common_head))
		kt_warn(s, "symbol ftrace_common_fields not found: formats lack common fields");
	if (kt_read_u64(s, head + l->lh_next.off, &pos))
		return kt_err(EFAULT, "cannot read ftrace_events at 0x%llx",
			      (unsigned long long)head);
	fwd = events_walk(s, head, pos, false, &seen, &n, &bad, &cap, &last);
	if (fwd < 0)
		err = fwd;
	/*
	 * A next pointer that cannot be read (damage, or an entry where the
	 * dump reader cannot translate: modules' events are added at the
	 * list's head, in module memory): the rest of the list backwards
	 * from its tail, where the built-in events are, up to what was read.
	 */
	if (fwd == 1) {
		int before = n, back;
		uint64_t broken = last;

		s->events_unread++;
		if (kt_read_u64(s, head + l->lh_prev.off, &pos)) {
			kt_warn(s, "ftrace_events: broken next pointer after 0x%llx, and its "
				   "prev pointer unreadable", (unsigned long long)broken);
		} else {
			back = events_walk(s, head, pos, true, &seen, &n, &bad, &cap, &last);
			if (back < 0)
				err = back;
			kt_warn(s, "ftrace_events: broken next pointer after 0x%llx; %d entries "
				   "read backwards from the list's tail%s", (unsigned long long)broken,
				n - before,
				back == 1 ? ", up to a prev pointer that cannot be read either" : "");
		}
	}
	kt_seen__free(&seen);
	if (!err)
		err = kt_blk__add_event(s);
	if (err)
		return err;
	if (bad)
		kt_warn(s, "%d of %d trace_event_call entries could not be read", bad, n);
	s->events_unread += (uint64_t)bad;
	/* a kernel with ftrace has hundreds of events: an empty list is damaged */
	if (!n) {
		kt_warn(s, "ftrace_events is empty: the event table is damaged");
		s->events_unread++;
	}
	if (s->nr_events)	/* qsort(NULL, 0, ...) is undefined */
		qsort(s->events, s->nr_events, sizeof(*s->events), cmp_event);
	kt_output__register(s);
	return 0;
}

void kt_events__free(struct kt_session *s)
{
	int i;

	for (i = 0; i < s->nr_events; i++) {
		free(s->events[i].name);
		free(s->events[i].system);
		free(s->events[i].format);
		free(s->events[i].print_fmt);
		free(s->events[i].resolved);
		free(s->events[i].tep_text);
		kt_fastfmt__free(s->events[i].fast);
		kt_probe__free(&s->events[i]);
	}
	free(s->events);
	free(s->common_fields);
	s->common_fields = NULL;
	s->events = NULL;
	s->nr_events = 0;
}

int kt_session__event_cnt(const struct kt_session *s) { return s->nr_events; }

const struct kt_event *kt_session__event(const struct kt_session *s, int idx)
{
	return idx >= 0 && idx < s->nr_events ? &s->events[idx] : NULL;
}

const struct kt_event *kt_session__find_event(const struct kt_session *s, int id)
{
	struct kt_event key = { .id = id };

	if (!s->nr_events)
		return NULL;
	return bsearch(&key, s->events, s->nr_events, sizeof(key), cmp_event);
}

int kt_session__fast_formats(const struct kt_session *s, int *used)
{
	int i, fast = 0, n = 0;

	for (i = 0; i < s->nr_events; i++) {
		int st = __atomic_load_n(&s->events[i].fast_state, __ATOMIC_ACQUIRE);

		n += st != 0;
		fast += st > 0;
	}
	if (used)
		*used = n;
	return fast;
}

int kt_event__id(const struct kt_event *e) { return e->id; }
const char *kt_event__system(const struct kt_event *e) { return e->system; }
const char *kt_event__name(const struct kt_event *e) { return e->name; }
/*
 * The format with enumerator names in print_fmt replaced by their values
 * (see fmt.c), built on first use: it costs debuginfo lookups.
 */
const char *kt_event__format(const struct kt_event *ce)
{
	struct kt_event *e = (struct kt_event *)ce;
	const char *pf;
	char *res;
	size_t head;

	if (e->resolved)
		return e->resolved;
	if (!e->format) {
		if (e->format_failed)
			return NULL;
		if (build_format(e->s, e)) {
			e->format_failed = true;
			kt_warn(e->s, "no format for %s:%s: %s", e->system, e->name,
				kt_last_error());
			return NULL;
		}
	}
	pf = strstr(e->format, "\nprint fmt: ");
	if (!pf)
		return e->format;
	head = pf - e->format;
	res = kt_fmt__resolve_enums(e->s, e->print_fmt, e->probe);
	if (!res)
		return e->format;
	if (asprintf(&e->resolved, "%.*s\nprint fmt: %s\n", (int)head, e->format, res) < 0)
		e->resolved = NULL;
	free(res);
	return e->resolved ? e->resolved : e->format;
}
