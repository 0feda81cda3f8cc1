// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One record rendered as a line of the trace file: the context the kernel
 * prints (trace_print_context() and trace_print_lat_fmt() in
 * kernel/trace/trace_output.c) followed by the event text, which
 * libtraceevent renders from the print_fmt rebuilt from the dump. The
 * ftrace-internal events (print, bputs, bprint, function) are printed by
 * C functions in the kernel, not from their print_fmt; those are done here
 * the same way.
 */
#include <stdlib.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>
#include <event-parse.h>
#include "internal.h"
#include "render.h"
#include "fmt.h"

static char *resolve_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct kt_session *s = priv;
	uint64_t start;
	const char *name = kt_session__symbol(s, *addrp, &start);

	*modp = NULL;
	if (!name)
		return NULL;
	*addrp = start;
	return (char *)name;
}

void kt_text__free_tep(struct kt_session *s)
{
	if (s->tep)
		tep_free(s->tep);
	s->tep = NULL;
}

/* the buffer being rendered, for __kt_ptr(), which gets no private data */
static __thread struct kt_buffer *render_buffer;

/*
 * %p as the trace file printed it. Before the hash-ptr option (5.11,
 * TRACE_ITER_HASH_PTR) event output showed the raw pointer; since, the
 * option (on by default) hashes it like vsprintf: siphash with the boot's
 * ptr_key, the low 32 bits, NULL and error pointers left raw; the
 * no_hash_pointers boot option turns hashing off.
 */
static unsigned long long print_ptr(struct trace_seq *q, unsigned long long *args)
{
	struct kt_buffer *b = render_buffer;
	uint64_t v = args[0];

	if (b && b->hash_ptr == 1 && v && v < (uint64_t)-4095 && b->s->ptr_key_ok)
		v = kt_siphash_1u64(v, b->s->ptr_key) & 0xffffffffULL;
	trace_seq_printf(q, "%016llx", (unsigned long long)v);
	return 0;
}

/*
 * %ps, %pS and %pB as vsprintf's __sprint_symbol() prints them:
 * "name", "name+0x1a/0x40" (an offset of 0 is "0", as %#lx prints it),
 * " [module]" after a module's symbol, "0x..." for an unknown address.
 * args[1]: 0 %ps, 1 %pS, 2 %pB (the symbol of the address before).
 */
static unsigned long long print_sym(struct trace_seq *q, unsigned long long *args)
{
	struct kt_buffer *b = render_buffer;
	uint64_t addr = args[0], look = args[1] == 2 ? addr - 1 : addr, start, size;
	const char *name = NULL, *mod = NULL;

	if (b)
		name = kt_symbol_lookup(b->s, look, &start, &size, &mod);
	if (!name) {
		trace_seq_printf(q, "0x%llx", (unsigned long long)addr);
		return 0;
	}
	trace_seq_puts(q, name);
	if (args[1])
		trace_seq_printf(q, "+%#llx/%#llx", (unsigned long long)(addr - start),
				 (unsigned long long)size);
	if (mod)
		trace_seq_printf(q, " [%s]", mod);
	return 0;
}

static void probe_hash(struct kt_session *s, struct kt_buffer *b)
{
	uint64_t flags, addr;
	int64_t bit;
	uint8_t nhp = 0;

	b->hash_ptr = 0;
	if (s->t.enumerator && !s->t.enumerator(s->t.priv, "TRACE_ITER_HASH_PTR_BIT", &bit) &&
	    bit >= 0 && bit < 32 && !kt_read_member(s, b->tr, &s->l.tr_trace_flags, &flags))
		b->hash_ptr = !!(flags & (1ULL << bit));
	if (!kt_symbol(s, "no_hash_pointers", &addr) && !kt_read(s, addr, &nhp, 1) && nhp)
		b->hash_ptr = 0;
}

struct tep_handle *kt_render__tep(struct kt_session *s)
{
	struct tep_handle *tep;
	uint64_t addr;

	if (s->tep)
		return s->tep;
	tep = tep_alloc();
	if (!tep)
		return NULL;
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, (int)s->l.page_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_cpus(tep, s->nr_cpu_ids);
	tep_parse_header_page(tep, s->header_page, strlen(s->header_page), 8);
	tep_set_function_resolver(tep, resolve_func, s);
	tep_register_print_function(tep, print_ptr, TEP_FUNC_ARG_VOID, "__kt_ptr",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, print_sym, TEP_FUNC_ARG_VOID, "__kt_sym",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_INT, TEP_FUNC_ARG_VOID);
	if (!kt_symbol(s, "ptr_key", &addr) && !kt_read(s, addr, s->ptr_key, 16))
		s->ptr_key_ok = true;
	s->tep = tep;
	return tep;
}

/*
 * Does every REC->name in the print fmt of @fmt (format text) name one of
 * its fields? libtraceevent 1.7.1 dereferences NULL parsing
 * __print_symbolic() or __print_flags() of an unknown field (found by
 * fuzzing); a field list cut short in a damaged dump gives exactly that.
 * On a miss, the name is copied into @miss.
 */
static bool fmt_fields_known(const char *fmt, char *miss, size_t len)
{
	const char *pf = strstr(fmt, "\nprint fmt: "), *p, *f;
	bool quoted = false;
	int depth = 0;

	if (!pf)
		return true;
	for (p = pf + strlen("\nprint fmt: "); *p && *p != '\n'; p++) {
		size_t n;
		bool found = false;

		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '"')
			quoted = !quoted;
		if (!quoted && (*p == '(' || *p == '[' || *p == '{'))
			depth++;
		/* unbalanced brackets crash its parser too (found by fuzzing) */
		if (!quoted && (*p == ')' || *p == ']' || *p == '}') && --depth < 0) {
			snprintf(miss, len, "%s", "<unbalanced brackets>");
			return false;
		}
		if (quoted || strncmp(p, "REC->", 5))
			continue;
		p += 5;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		/* "\tfield:TYPE NAME;" or "NAME[N];" */
		for (f = strstr(fmt, "\tfield:"); f && f < pf && !found; f = strstr(f + 1, "\tfield:")) {
			const char *end = strchr(f, ';'), *name;

			if (!end)
				break;
			if (end[-1] == ']')
				while (end > f && *end != '[')
					end--;
			for (name = end; name > f && name[-1] != ' '; name--)
				;
			found = (size_t)(end - name) == n && !strncmp(name, p, n);
		}
		if (!found) {
			snprintf(miss, len, "%.*s", (int)n, p);
			return false;
		}
	}
	if (quoted || depth) {
		snprintf(miss, len, "%s", quoted ? "<unclosed quote>" : "<unbalanced brackets>");
		return false;
	}
	return true;
}

/*
 * The format comes from the dump, and libtraceevent's parser was written
 * for formats the kernel made: fuzzing found inputs it divides by zero or
 * dereferences NULL on. A trial parse in a child process, once per event
 * id met (about a millisecond), keeps such a format from taking the
 * whole extraction (or a crash session) down with it.
 */
static bool parse_survives(const char *fmt, const char *system)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return true;	/* cannot check: go on as without the check */
	if (!pid) {
		struct tep_handle *t;
		int devnull = open("/dev/null", O_WRONLY);

		/* the child's complaints are not the user's business */
		if (devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		t = tep_alloc();
		if (t) {
			tep_set_long_size(t, 8);
			tep_parse_event(t, fmt, strlen(fmt), system);
		}
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * The libtraceevent event for @id, parsed on first use from the format
 * with enumerators resolved and bare %p routed through __kt_ptr().
 */
struct tep_event *kt_render__find_event(struct kt_session *s, int id)
{
	struct tep_handle *tep = kt_render__tep(s);
	struct kt_event *e;
	const char *fmt, *pf;
	char *body = NULL, *text = NULL;
	struct tep_event *ev;
	char miss[64];

	if (!tep)
		return NULL;
	ev = tep_find_event(tep, id);
	if (ev)
		return ev;
	e = (struct kt_event *)kt_session__find_event(s, id);
	if (!e || e->tep_tried)
		return NULL;
	e->tep_tried = true;
	fmt = kt_event__format(e);
	if (!fmt)
		return NULL;
	if (!fmt_fields_known(fmt, miss, sizeof(miss))) {
		kt_warn(s, "%s:%s (id %d): print fmt unusable at REC->%s (not among its fields, "
			   "or damaged); its records are shown as unknown",
			e->system, e->name, e->id, miss);
		return NULL;
	}
	pf = strstr(fmt, "\nprint fmt: ");
	if (pf) {
		char *line = strdup(pf + strlen("\nprint fmt: "));

		if (line) {
			line[strcspn(line, "\n")] = 0;
			body = kt_fmt__for_tep(line);
			free(line);
		}
	}
	if (body && asprintf(&text, "%.*s\nprint fmt: %s\n", (int)(pf - fmt), fmt, body) < 0)
		text = NULL;
	free(body);
	fmt = text ? text : fmt;
	if (!parse_survives(fmt, e->system)) {
		kt_warn(s, "%s:%s (id %d): libtraceevent crashes on its format; its records are "
			   "shown as unknown", e->system, e->name, e->id);
	} else if (tep_parse_event(tep, fmt, strlen(fmt), e->system)) {
		kt_warn(s, "libtraceevent cannot parse the format of %s:%s (id %d)",
			e->system, e->name, e->id);
	}
	free(text);
	return tep_find_event(tep, id);
}

/* %ps: the symbol name alone, or the address when none is known */
static void put_sym(struct kt_session *s, struct trace_seq *q, uint64_t ip)
{
	const char *name;

	if (!ip) {
		trace_seq_putc(q, '0');
		return;
	}
	name = kt_session__symbol(s, ip, NULL);
	if (name)
		trace_seq_puts(q, name);
	else	/* trace_seq_print_sym() */
		trace_seq_printf(q, "0x%08llx", (unsigned long long)ip);
}

static uint64_t field_u64(struct tep_event *ev, const char *name, struct tep_record *r,
			  bool *ok)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	if (!f || f->offset + f->size > r->size || tep_read_number_field(f, r->data, &v)) {
		*ok = false;
		return 0;
	}
	return v;
}

/* trailing newlines are the kernel's; the caller adds exactly one */
static void put_text(struct trace_seq *q, const char *p, size_t max)
{
	size_t n = strnlen(p, max);

	while (n && p[n - 1] == '\n')
		n--;
	trace_seq_printf(q, "%.*s", (int)n, p);
}

static bool render_ftrace(struct kt_session *s, struct tep_event *ev, struct tep_record *r,
			  struct trace_seq *q)
{
	struct tep_format_field *f;
	bool ok = true;
	uint64_t ip;

	if (!strcmp(ev->name, "kernel_stack")) {
		/*
		 * trace_stack_print(): one " => symbol" line per caller up to
		 * the end of the record or a ULONG_MAX terminator.
		 */
		uint32_t off;

		f = tep_find_field(ev, "caller");
		if (!f || f->offset < 0 || f->offset > r->size)
			return false;
		trace_seq_puts(q, "<stack trace>");
		for (off = (uint32_t)f->offset; off + 8 <= (uint32_t)r->size; off += 8) {
			uint64_t ip = kt_le64((const uint8_t *)r->data + off);

			if (ip == UINT64_MAX)
				break;
			trace_seq_puts(q, "\n => ");
			put_sym(s, q, ip);
		}
		return true;
	}
	ip = field_u64(ev, "ip", r, &ok);
	if (!ok)
		return false;
	if (!strcmp(ev->name, "print")) {
		/* trace_print_print(): "%ps: %s" */
		f = tep_find_field(ev, "buf");
		if (!f || f->offset > r->size)
			return false;
		put_sym(s, q, ip);
		trace_seq_puts(q, ": ");
		put_text(q, (const char *)r->data + f->offset, r->size - f->offset);
		return true;
	}
	if (!strcmp(ev->name, "bputs")) {
		uint64_t str = field_u64(ev, "str", r, &ok);
		char *text;

		if (!ok)
			return false;
		put_sym(s, q, ip);
		trace_seq_puts(q, ": ");
		if (!kt_read_string(s, str, KT_MAX_STR, &text)) {
			put_text(q, text, KT_MAX_STR);
			free(text);
		} else {
			trace_seq_printf(q, "(string at 0x%llx not in the dump)",
					 (unsigned long long)str);
		}
		return true;
	}
	if (!strcmp(ev->name, "function")) {
		uint64_t parent = field_u64(ev, "parent_ip", r, &ok);

		put_sym(s, q, ip);
		if (ok && parent) {
			trace_seq_puts(q, " <-");
			put_sym(s, q, parent);
		}
		return true;
	}
	if (!strcmp(ev->name, "bprint")) {
		uint64_t fmt = field_u64(ev, "fmt", r, &ok);
		char *text;

		/* register the format on first sight: it lives in the dump */
		if (ok && !kt_read_string(s, fmt, KT_MAX_STR, &text)) {
			tep_register_print_string(ev->tep, text, fmt);
			free(text);
		}
		return false;
	}
	return false;
}

/* trace_print_lat_fmt(): irqs-off, need-resched, hard/softirq, preempt, migrate */
static void put_lat(struct kt_session *s, struct trace_seq *q, unsigned flags, unsigned pc)
{
	bool nmi = flags & s->fl.nmi, hardirq = flags & s->fl.hardirq;
	bool softirq = flags & s->fl.softirq, bh_off = s->fl.bh_off && (flags & s->fl.bh_off);
	bool irqs_off = flags & s->fl.irqs_off;
	bool nr = flags & s->fl.need_resched, pr = flags & s->fl.preempt_resched;
	bool lazy = s->fl.need_resched_lazy && (flags & s->fl.need_resched_lazy);
	char a, b, c;

	a = (irqs_off && bh_off) ? 'D' : irqs_off ? 'd' : bh_off ? 'b' :
	    (s->fl.irqs_nosupport && (flags & s->fl.irqs_nosupport)) ? 'X' : '.';
	if (nr && lazy && pr)
		b = 'B';
	else if (nr && pr)
		b = 'N';
	else if (lazy && pr)
		b = 'L';
	else if (nr && lazy)
		b = 'b';
	else if (nr)
		b = 'n';
	else if (lazy)
		b = 'l';
	else if (pr)
		b = 'p';
	else
		b = '.';
	c = (nmi && hardirq) ? 'Z' : nmi ? 'z' : (hardirq && softirq) ? 'H' :
	    hardirq ? 'h' : softirq ? 's' : '.';
	trace_seq_printf(q, "%c%c%c", a, b, c);
	if (!s->fl.migrate_col) {
		if (pc)
			trace_seq_printf(q, "%x", pc);
		else
			trace_seq_putc(q, '.');
		return;
	}
	if (pc & 0xf)
		trace_seq_printf(q, "%x", pc & 0xf);
	else
		trace_seq_putc(q, '.');
	if (pc & 0xf0)
		trace_seq_printf(q, "%x", pc >> 4);
	else
		trace_seq_putc(q, '.');
}

void kt_render__context(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
			struct trace_seq *q)
{
	const struct kt_layout *l = &s->l;
	const uint8_t *d = r->data;
	unsigned flags = r->size > l->te_flags.off ? d[l->te_flags.off] : 0;
	unsigned pc = r->size > l->te_preempt_count.off ? d[l->te_preempt_count.off] : 0;

	trace_seq_printf(q, "%16s-%-*d ", kt_session__comm(s, r->pid), s->fl.pid_width, r->pid);
	trace_seq_printf(q, "[%03d] ", r->cpu);
	put_lat(s, q, flags, pc);
	if (kt_render__clock_in_ns(b)) {
		uint64_t us = (r->ts + 500) / 1000;	/* ns2usecs() rounds */

		trace_seq_printf(q, " %5llu.%06llu: ", (unsigned long long)(us / 1000000),
				 (unsigned long long)(us % 1000000));
	} else {
		trace_seq_printf(q, " %12llu: ", (unsigned long long)r->ts);
	}
}

bool kt_render__clock_in_ns(const struct kt_buffer *b)
{
	return strcmp(b->clock, "counter") && strcmp(b->clock, "x86-tsc") &&
	       strcmp(b->clock, "uptime");
}

/*
 * A field the record does not hold: a fixed field past its end, or a
 * __data_loc whose offset and length leave it. Such a record is corrupt,
 * and libtraceevent would follow it: it reads fixed fields without a
 * bound and trusts the length of a dynamic bitmask (a 3 GB allocation,
 * found by fuzzing). Returns the first such field, NULL if none.
 */
static struct tep_format_field *field_outside(struct tep_event *ev, const struct kt_record *r)
{
	struct tep_format_field *f;

	for (f = ev->format.fields; f; f = f->next) {
		uint32_t loc, off, len;

		if (f->offset < 0 || f->size < 0 ||
		    (uint64_t)f->offset + (uint64_t)f->size > r->size)
			return f;
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		if ((uint64_t)f->offset + 4 > r->size)
			return f;
		loc = kt_le32((const uint8_t *)r->data + f->offset);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + 4;
		if (off > r->size || len > r->size - off)
			return f;
	}
	return NULL;
}

/* The event part of the line: "name: info" (tracepoints) or the ftrace text. */
int kt_render__event(struct kt_session *s, struct kt_buffer *b, const struct kt_record *r,
		     struct trace_seq *q)
{
	struct tep_handle *tep = kt_render__tep(s);
	struct tep_record rec = { 0 };
	struct tep_format_field *bad;
	struct tep_event *ev;

	if (!tep)
		return -ENOMEM;
	ev = kt_render__find_event(s, r->type);
	if (b->hash_ptr < 0)
		probe_hash(s, b);
	render_buffer = b;
	if (!ev) {
		trace_seq_printf(q, "Unknown type %d", r->type);
		return -ENOENT;
	}
	rec.ts = r->ts;
	rec.cpu = r->cpu;
	rec.size = (int)r->size;
	rec.record_size = (int)r->size;
	rec.data = (void *)r->data;
	/*
	 * ftrace's own events are rendered here with their own bounds (their
	 * last array is as long as the record: kernel_stack's caller[] holds
	 * as many entries as were saved, not the 8 its format declares).
	 */
	if (ev->system && !strcmp(ev->system, "ftrace") && render_ftrace(s, ev, &rec, q))
		return 0;
	bad = field_outside(ev, r);
	if (bad) {
		trace_seq_printf(q, "%s: [corrupt record: field %s lies outside its %u bytes]",
				 ev->name, bad->name, r->size);
		return -EBADMSG;
	}
	if (!ev->system || strcmp(ev->system, "ftrace"))
		trace_seq_printf(q, "%s: ", ev->name);
	else if (!strcmp(ev->name, "bprint")) {
		/* trace_bprint_print(): "%ps: " then the formatted text */
		bool ok = true;

		put_sym(s, q, field_u64(ev, "ip", &rec, &ok));
		trace_seq_puts(q, ": ");
		{
			struct trace_seq t;

			trace_seq_init(&t);
			tep_print_event(tep, &t, &rec, "%s", TEP_PRINT_INFO);
			trace_seq_terminate(&t);
			/* libtraceevent prints "ip: text"; keep the text */
			{
				const char *p = strstr(t.buffer, ": ");

				put_text(q, p ? p + 2 : t.buffer, t.len);
			}
			trace_seq_destroy(&t);
		}
		return 0;
	}
	{
		struct trace_seq t;

		trace_seq_init(&t);
		tep_print_event(tep, &t, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&t);
		put_text(q, t.buffer, t.len);
		trace_seq_destroy(&t);
	}
	return 0;
}
