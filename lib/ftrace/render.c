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
#include "../internal.h"
#include "render.h"
#include "../put.h"
#include "fmt.h"
#include "../kprintf.h"

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

/* the context's handle and what is cached of its events */
static void render_release(struct kt_render *rc)
{
	if (rc->tep)
		tep_free(rc->tep);
	free(rc->tried);
	rc->tep = NULL;
	rc->tried = NULL;
	rc->printk = false;
	memset(&rc->fn, 0, sizeof(rc->fn));
}

void kt_text__free_tep(struct kt_session *s)
{
	render_release(&s->render);
}

/*
 * The context whose records libtraceevent is printing on this thread:
 * the print functions it calls (__kt_ptr(), __kt_sym(), __kt_nz()) get
 * the trace_seq and their arguments but no private data, so the context
 * is set for the length of tep_print_event() (print_info()) and for no
 * longer. The one thread-local of rendering, and only for that call.
 */
static __thread struct kt_render *printing;

struct kt_render *kt_render__printing(void)
{
	return printing;
}

static void print_info(struct kt_render *rc, struct trace_seq *q, struct tep_record *rec)
{
	struct kt_render *outer = printing;

	printing = rc;
	tep_print_event(rc->tep, q, rec, "%s", TEP_PRINT_INFO);
	printing = outer;
}

/*
 * Whether libtraceevent's text of bprint record @rec depends on bytes past
 * its end: @rec printed from a copy followed by zeros and from one followed
 * by 0x01 0x00 pairs (a %s ends within two bytes either way) must be the
 * same. The padding holds 8 bytes for each character of its format and
 * more: a conversion is two characters at least and takes 16 bytes at
 * most, with its alignment. Printing a record twice costs a little: only
 * the bprints libtraceevent prints come here.
 */
static bool bprint_reads_past(struct kt_render *rc, struct tep_event *ev,
			      const struct tep_record *rec)
{
	struct tep_record c = *rec;
	struct trace_seq t0, t1;
	/* a conversion is 2 characters of the format or more, and takes 16 bytes at most */
	size_t pad = 8 * kt_trace_printk__fmt_len(rc, ev, rec) + 256, size = (size_t)rec->size;
	uint8_t *buf;
	bool differ;
	size_t i;

	/* a trial: libtraceevent's failed mark (see the caller) is the caller's to judge */
	int failed = ev->flags & TEP_EVENT_FL_FAILED;

	buf = malloc(size + pad);
	if (!buf)
		return false;
	memcpy(buf, rec->data, size);
	c.data = buf;
	memset(buf + size, 0, pad);
	trace_seq_init(&t0);
	print_info(rc, &t0, &c);
	trace_seq_terminate(&t0);
	if (!failed)
		ev->flags &= ~TEP_EVENT_FL_FAILED;	/* each trial from the same state */
	for (i = 0; i < pad; i++)
		buf[size + i] = (i & 1) ? 0 : 1;
	trace_seq_init(&t1);
	print_info(rc, &t1, &c);
	trace_seq_terminate(&t1);
	differ = t0.len != t1.len || memcmp(t0.buffer, t1.buffer, t0.len);
	if (!failed)
		ev->flags &= ~TEP_EVENT_FL_FAILED;
	trace_seq_destroy(&t0);
	trace_seq_destroy(&t1);
	free(buf);
	return differ;
}

/*
 * %p as the trace file printed it. Before the hash-ptr option (5.11,
 * TRACE_ITER_HASH_PTR) event output showed the raw pointer; since, the
 * option (on by default) hashes it like vsprintf: siphash with the boot's
 * ptr_key, the low 32 bits, NULL and error pointers left raw; the
 * no_hash_pointers boot option turns hashing off.
 */
size_t kt_render__ptr_text(const struct kt_render *rc, uint64_t v, char *out)
{
	struct kt_buffer *b = rc ? rc->b : NULL;
	int i;

	if (b && b->hash_ptr == 1 && v && v < (uint64_t)-4095) {
		if (b->s->ptr_key_ok)
			v = kt_siphash_1u64(v, b->s->ptr_key) & 0xffffffffULL;
		else	/* not what the kernel printed: said and counted */
			__atomic_add_fetch(&b->loss.ptrs_unhashed, 1, __ATOMIC_RELAXED);
	}
	/* "%016llx" */
	for (i = 15; i >= 0; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 0xf];
	out[16] = 0;
	return 16;
}

static unsigned long long print_ptr(struct trace_seq *q, unsigned long long *args)
{
	char text[17];

	kt_render__ptr_text(printing, args[0], text);
	trace_seq_puts(q, text);
	return 0;
}

size_t kt_render__sym_text(const struct kt_render *rc, uint64_t addr, int kind, char *out,
			   size_t cap)
{
	struct kt_buffer *b = rc ? rc->b : NULL;
	uint64_t look = kind == 2 ? addr - 1 : addr, start, size;
	const char *name = NULL, *mod = NULL;
	size_t n, m;
	char *p = out;

	if (b)
		name = kt_symbol_lookup(b->s, look, &start, &size, &mod);
	if (!name) {
		if (cap < 20)
			return 0;
		*p++ = '0';
		*p++ = 'x';
		p = kt_put_hex(p, addr);
		*p = 0;
		return (size_t)(p - out);
	}
	n = strlen(name);
	m = mod ? strlen(mod) : 0;
	/* the name, "+0x" and "/0x" with 16 digits each, " [" module "]", NUL */
	if (n + 38 + m + 4 > cap)
		return 0;
	memcpy(p, name, n);
	p += n;
	if (kind) {
		*p++ = '+';
		*p++ = '0';
		*p++ = 'x';
		p = kt_put_hex(p, addr - start);
		*p++ = '/';
		*p++ = '0';
		*p++ = 'x';
		p = kt_put_hex(p, size);
	}
	if (mod) {
		*p++ = ' ';
		*p++ = '[';
		memcpy(p, mod, m);
		p += m;
		*p++ = ']';
	}
	*p = 0;
	return (size_t)(p - out);
}

static unsigned long long print_sym(struct trace_seq *q, unsigned long long *args)
{
	char text[1024];

	/* a name too long for the buffer (none is: KSYM_NAME_LEN is 512) */
	if (!kt_render__sym_text(printing, args[0], (int)args[1], text, sizeof(text)))
		trace_seq_printf(q, "0x%llx", (unsigned long long)args[0]);
	else
		trace_seq_puts(q, text);
	return 0;
}

/*
 * __kt_num(value, conversion, width, precision), which kt_fmt__for_tep()
 * puts in place of an integer conversion glibc would print otherwise than
 * the kernel: the conversion packed by kt_kprintf__pack(), the width and
 * precision the values of its '*' arguments (0 when it has none)
 */
static unsigned long long print_num(struct trace_seq *q, unsigned long long *args)
{
	struct kt_kspec sp;
	char text[128 + 1], *big;
	size_t n;

	kt_kprintf__unpack(args[1], &sp);
	if (sp.width_arg)
		kt_kprintf__set_width(&sp, (int)args[2]);
	if (sp.precision_arg)
		kt_kprintf__set_precision(&sp, (int)args[3]);
	/* kt_seq_put() falls back to trace_seq_puts(): NUL-terminated */
	n = kt_kprintf(text, sizeof(text) - 1, &sp, args[0], NULL);
	if (n < sizeof(text)) {
		text[n] = 0;
		kt_seq_put(q, text, n);
		return 0;
	}
	/* a width or precision of up to FIELD_WIDTH_MAX or PRECISION_MAX */
	big = malloc(n + 1);
	if (big) {
		kt_kprintf(big, n, &sp, args[0], NULL);
		big[n] = 0;
		kt_seq_put(q, big, n);
		free(big);
	}
	return 0;
}

static void probe_hash(struct kt_session *s, struct kt_buffer *b)
{
	uint64_t flags, addr;
	int64_t bit;
	uint8_t nhp = 0;

	b->hash_ptr = 0;
	/* unreadable options: the default, hashed (options.c counts that) */
	if (b->tr && s->t.enumerator &&
	    !s->t.enumerator(s->t.priv, "TRACE_ITER_HASH_PTR_BIT", &bit) && bit >= 0 && bit < 32)
		b->hash_ptr = kt_read_member(s, b->tr, &s->l.tr_trace_flags, &flags) ? 1 :
			      !!(flags & (1ULL << bit));
	if (!kt_symbol(s, "no_hash_pointers", &addr) && !kt_read(s, addr, &nhp, 1) && nhp)
		b->hash_ptr = 0;
}

/*
 * A handle set up as every handle of @s: sizes, the header page, the
 * function resolver and ktrace's print functions. @lock: take the
 * session's lock around libtraceevent's parser (false in the trial
 * parse's child, which has no other thread and must not wait for one).
 */
static struct tep_handle *tep_setup(struct kt_session *s, bool lock)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, (int)s->l.page_size);
	/* the fields of the kernel's records are in its byte order */
	tep_set_file_bigendian(tep, s->l.be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									 : TEP_LITTLE_ENDIAN);
	tep_set_cpus(tep, s->nr_cpu_ids);
	if (lock)
		kt_lock(s);
	tep_parse_header_page(tep, s->header_page, strlen(s->header_page), 8);
	if (lock)
		kt_unlock(s);
	tep_set_function_resolver(tep, resolve_func, s);
	/*
	 * The print functions a conversion's argument can be: fastfmt.c
	 * tells them apart by their count of arguments (libtraceevent does
	 * not show a handler's name); evalguard.c's are never one
	 */
	tep_register_print_function(tep, print_ptr, TEP_FUNC_ARG_VOID, "__kt_ptr",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, print_sym, TEP_FUNC_ARG_VOID, "__kt_sym",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_INT, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, print_num, TEP_FUNC_ARG_VOID, "__kt_num",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_INT,
				    TEP_FUNC_ARG_INT, TEP_FUNC_ARG_VOID);
	kt_guard__register(tep);
	return tep;
}

/*
 * A worker thread of jobs.c renders with a context and a libtraceevent
 * handle of its own: the library keeps lookup caches in the handle and
 * its parser's input in globals, so one handle is never shared between
 * threads.
 */
struct kt_render *kt_render__new_worker(struct kt_session *s)
{
	struct kt_render *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return NULL;
	rc->s = s;
	rc->worker = true;
	rc->tried = calloc(65536 / 8, 1);
	rc->tep = tep_setup(s, true);
	if (!rc->tep || !rc->tried) {
		kt_render__free(rc);
		return NULL;
	}
	kt_render__printk_formats(rc);
	return rc;
}

void kt_render__free(struct kt_render *rc)
{
	if (!rc)
		return;
	render_release(rc);
	free(rc);
}

/* the session's own context; its handle is made on first use (kt_render__tep()) */
struct kt_render *kt_render__session(struct kt_session *s)
{
	s->render.s = s;
	return &s->render;
}

void kt_render__probe_hash(struct kt_session *s, struct kt_buffer *b)
{
	if (b->hash_ptr < 0)
		probe_hash(s, b);
}

struct tep_handle *kt_render__tep(struct kt_render *rc)
{
	struct kt_session *s = rc->s;
	struct tep_handle *tep;
	uint64_t addr;

	/* a worker's was made with its context */
	if (rc->tep || rc->worker)
		return rc->tep;
	tep = tep_setup(s, true);
	if (!tep)
		return NULL;
	if (!kt_symbol(s, "ptr_key", &addr) && !kt_read(s, addr, s->ptr_key, 16)) {
		/* siphash_key_t: two u64, in the kernel's byte order */
		kt_order(s->l.be, s->ptr_key, 2, 8);
		s->ptr_key_ok = true;
	}
	else
		kt_warn(s, "cannot read ptr_key: %%p values the kernel hashed are printed raw, "
			   "and counted");
	rc->tep = tep;
	kt_render__printk_formats(rc);
	return tep;
}

/*
 * bprint records carry the address of their trace_printk() format.
 * libtraceevent sorts the registered formats on its first lookup and
 * never again: a format registered after that is not found, and
 * tep_free() then frees past the sorted array (1.7.1, 1.8.4: a crash
 * found by fuzzing, the first lookup being a "%s" of a const char *
 * field). So every format the dump knows goes in when a handle is made,
 * before any lookup, in each handle alike (trace_printk.c reads them
 * once per session).
 */
void kt_render__printk_formats(struct kt_render *rc)
{
	struct kt_session *s = rc->s;
	struct tep_handle *tep = rc->tep;
	const char *fmt;
	uint64_t addr;
	int i;

	if (rc->printk)
		return;
	rc->printk = true;
	kt_lock(s);
	for (i = 0; kt_session__printk_fmt(s, i, &addr, &fmt); i++) {
		char *quoted, *capped = kt_fmtcheck__printk(fmt, kt_guard__seq_size(s));

		/*
		 * tep_register_print_string() (1.7.1 to 1.8.4) was written for
		 * the lines of printk_formats: it drops a leading '"', a
		 * trailing '"', then looks for a literal "\n" two bytes before
		 * the end, reading before its copy when the format is shorter
		 * than three bytes ("%s" is common: heap out of bounds, found
		 * by ASan) and eating quotes the format's own text begins or
		 * ends with. Quoted, with a "\n" of ours, every format is
		 * long enough and comes back from the strip exactly as it is.
		 */
		if (!capped || asprintf(&quoted, "\"%s\\n\"", capped) < 0) {
			free(capped);
			break;
		}
		tep_register_print_string(tep, quoted, addr);
		free(quoted);
		free(capped);
	}
	kt_unlock(s);
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
	const char *pf = strstr(fmt, "\nprint fmt: "), *p;
	bool quoted = false;
	int depth = 0;

	if (!pf)
		return true;
	for (p = pf + strlen("\nprint fmt: "); *p && *p != '\n'; p++) {
		size_t n;

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
		if (!kt_fmt__field(fmt, p, n, NULL)) {
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
 *
 * Why a process and not a check here: the checks before it
 * (fmt_fields_known(), kt_fmtcheck__apply()) refuse what fuzzing found,
 * but they are ours and the parser is not: nothing shows that no other
 * text faults it. A fault in this process cannot be undone: a SIGSEGV or
 * SIGFPE handler that longjmp()s out leaves the handle half-built and the
 * parser's globals set, and inside crash the signal handlers are crash's.
 * The child ends with _exit(), so crash's exit handlers never run twice.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KT_SANITIZED 1
#else
#define KT_SANITIZED 0
#endif

/*
 * With worker threads running (-J N), the child of fork() may find a lock
 * another thread held: glibc's malloc is made safe across fork, ASan's and
 * TSan's allocators are not (a sanitized child hung in malloc). Sanitized
 * builds parse without the trial while threads run; the sanitizer reports
 * what the trial would have caught.
 */
static bool parse_survives(struct kt_session *s, const char *fmt, const char *system,
			   bool threads)
{
	int status;
	pid_t pid;

	if (KT_SANITIZED && threads)
		return true;
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
		/*
		 * a handle like the one the format goes to: with ktrace's
		 * print functions known, the parser goes on where a bare
		 * handle stops at an unknown __kt_ptr() (and a constant
		 * divided by zero further on crashed only the real parse)
		 */
		t = tep_setup(s, false);
		if (t)
			tep_parse_event(t, fmt, strlen(fmt), system);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * The libtraceevent event for @e, parsed on first use from the format
 * with enumerators resolved and bare %p routed through __kt_ptr().
 */
static void find_event_first(struct kt_session *s, struct tep_handle *tep, struct kt_event *e)
{
	const char *fmt, *pf;
	char *body = NULL, *text = NULL;
	char miss[64];

	e->tep_tried = true;
	fmt = kt_event__format(e);
	if (!fmt)
		return;
	if (!fmt_fields_known(fmt, miss, sizeof(miss))) {
		kt_warn(s, "%s:%s (id %d): print fmt unusable at REC->%s (not among its fields, "
			   "or damaged); its records are shown as unknown",
			e->system, e->name, e->id, miss);
		return;
	}
	pf = strstr(fmt, "\nprint fmt: ");
	if (pf) {
		char *line = strdup(pf + strlen("\nprint fmt: ")), *safe = NULL, why[128];

		if (line) {
			line[strcspn(line, "\n")] = 0;
			if (kt_fmtcheck__apply(line, kt_guard__seq_size(s), &safe, why,
					       sizeof(why)) == -EINVAL) {
				kt_warn(s, "%s:%s (id %d): print fmt refused: %s; its records are "
					   "shown as unknown", e->system, e->name, e->id, why);
				free(line);
				return;
			}
			body = safe ? kt_fmt__for_tep(safe, fmt) : NULL;
			free(safe);
			free(line);
		}
	}
	if (body && asprintf(&text, "%.*s\nprint fmt: %s\n", (int)(pf - fmt), fmt, body) < 0)
		text = NULL;
	free(body);
	if (!text)
		text = strdup(fmt);
	if (!text)
		return;
	if (!parse_survives(s, text, e->system, s->mt)) {
		kt_warn(s, "%s:%s (id %d): libtraceevent crashes on its format; its records are "
			   "shown as unknown", e->system, e->name, e->id);
		free(text);
		return;
	}
	if (tep_parse_event(tep, text, strlen(text), e->system))
		kt_warn(s, "libtraceevent cannot parse the format of %s:%s (id %d)",
			e->system, e->name, e->id);
	e->tep_text = text;
}

/*
 * The libtraceevent event for @id in the handle of @rc: the session's
 * parses it on first use (find_event_first()); a worker's parses the text
 * the session's was given.
 */
struct tep_event *kt_render__find_event(struct kt_render *rc, int id)
{
	struct kt_session *s = rc->s;
	struct tep_handle *tep = kt_render__tep(rc);
	struct kt_event *e;
	struct tep_event *ev;

	if (!tep)
		return NULL;
	ev = tep_find_event(tep, id);
	if (ev)
		return ev;
	e = (struct kt_event *)kt_session__find_event(s, id);
	if (rc->worker) {
		/* a worker's handle: the session's parsed it first (jobs.c) */
		if (!e || !e->tep_text || id < 0 || id > 65535 ||
		    rc->tried[id / 8] & (1 << (id % 8)))
			return NULL;
		rc->tried[id / 8] |= 1 << (id % 8);
		kt_lock(s);
		tep_parse_event(tep, e->tep_text, strlen(e->tep_text), e->system);
		kt_unlock(s);
		return tep_find_event(tep, id);
	}
	if (!e || e->tep_tried)
		return NULL;
	kt_lock(s);
	find_event_first(s, tep, e);
	kt_unlock(s);
	return tep_find_event(tep, id);
}

bool kt_render__clock_in_ns(const struct kt_buffer *b)
{
	/* asked for every line: one look at the first letter mostly */
	switch (b->clock[0]) {
	case 'c':
		return strcmp(b->clock, "counter");
	case 'x':
		return strcmp(b->clock, "x86-tsc");
	case 'u':
		return strcmp(b->clock, "uptime");
	default:
		return true;
	}
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

		if (!kt_field_inside(f, r->size))
			return f;
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		if ((uint64_t)f->offset + 4 > r->size)
			return f;
		loc = kt_get32(tep_is_file_bigendian(ev->tep), (const uint8_t *)r->data + f->offset);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + 4;
		if (off > r->size || len > r->size - off)
			return f;
		/*
		 * an empty cpumask, which no kernel records: libtraceevent 1.7
		 * would size its text for UINT_MAX CPUs (cpumask_worst_size(0)
		 * asks for 3 GB; found by fuzzing)
		 */
		if (!len && f->type && strstr(f->type, "cpumask"))
			return f;
	}
	return NULL;
}

/*
 * @e's print format compiled (fastfmt.c), once per session: from this
 * thread's event @ev (every thread's handle parsed the same text); NULL
 * when it is printed by libtraceevent
 */
static const struct kt_fastfmt *fast_of(struct kt_session *s, const struct kt_event *ce,
					struct tep_event *ev)
{
	struct kt_event *e = (struct kt_event *)ce;
	int state = __atomic_load_n(&e->fast_state, __ATOMIC_ACQUIRE);

	if (state)
		return state > 0 ? e->fast : NULL;
	kt_lock(s);
	if (!e->fast_state) {
		const char *off = getenv("KTRACE_NO_FASTFMT");

		e->fast = off && *off && strcmp(off, "0") ? NULL : kt_fastfmt__compile(ev);
		__atomic_store_n(&e->fast_state, e->fast ? 1 : -1, __ATOMIC_RELEASE);
	}
	kt_unlock(s);
	return e->fast;
}

/* The event part of the line: "name: info" (tracepoints) or the ftrace text. */
int kt_render__event(struct kt_render *rc, struct kt_buffer *b, const struct kt_record *r,
		     struct trace_seq *q)
{
	struct kt_session *s = rc->s;
	struct tep_handle *tep = kt_render__tep(rc);
	struct tep_record rec = { 0 };
	struct tep_format_field *bad;
	const struct kt_event *e;
	struct tep_event *ev;

	if (!tep)
		return -ENOMEM;
	ev = kt_render__find_event(rc, r->type);
	if (b->hash_ptr < 0)
		probe_hash(s, b);
	rc->b = b;
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
	e = kt_session__find_event(s, r->type);
	if (e && kt_output__ftrace(rc, b, e, ev, &rec, q))
		return 0;
	{
		if (e && e->dyn) {
			unsigned int o = q->len;
			int err = kt_probe__render(s, b, e, ev, &rec, q);

			if (err != -EOPNOTSUPP)
				return err;
			/* never printed otherwise than the kernel did: said and counted */
			q->len = o;
			trace_seq_terminate(q);
			b->loss.events_unrendered++;
			kt_lock(s);
			if (!e->dyn_warned)
				kt_warn(s, "%s:%s (id %d): an event ktrace cannot print as "
					   "the kernel did (%s); its records are marked "
					   "[not rendered] and counted", e->system, e->name, e->id,
					e->dyn_bad ? e->dyn_bad : "no printer for its kind yet");
			((struct kt_event *)e)->dyn_warned = true;
			kt_unlock(s);
			trace_seq_printf(q, "%s: [not rendered]", e->name);
			return 0;
		}
	}
	bad = field_outside(ev, r);
	if (bad) {
		trace_seq_printf(q, "%s: [corrupt record: field %s lies outside its %u bytes]",
				 ev->name, bad->name, r->size);
		return -EBADMSG;
	}
	if (!ev->system || strcmp(ev->system, "ftrace")) {
		kt_seq_put(q, ev->name, strlen(ev->name));
		trace_seq_puts(q, ": ");
	} else if (!strcmp(ev->name, "bprint")) {
		/* trace_bprint_print(): "%ps: " then the formatted text */
		bool ok = true;

		kt_output__ip_sym(s, kt_opts__load(s, b), q,
				  kt_output__field(ev, "ip", &rec, &ok));
		trace_seq_puts(q, ": ");
		{
			unsigned int o = q->len;
			int perr = kt_trace_printk__print(rc, ev, &rec, q);
			int failed = ev->flags & TEP_EVENT_FL_FAILED;
			struct trace_seq t;

			if (!perr)
				return 0;
			if (perr == -EBADMSG)
				return kt_guard__not_rendered(s, b, kt_session__find_event(s, r->type),
							      q, o, "a trace_printk() format its "
							      "arguments do not match");
			if (perr == -E2BIG)
				return kt_guard__not_rendered(s, b, kt_session__find_event(s, r->type),
							      q, o, "longer than the kernel's trace_seq");
			/*
			 * libtraceevent reads a bprint's arguments as its format
			 * says, on past the record when the record ends first (a
			 * conversion not printed here, so the arguments were not
			 * counted: found by fuzz-events, a value that differed with
			 * -J 1 and -J 2). Unless kt_trace_printk__print() read them
			 * all within the record, it is printed twice, followed by
			 * zeros and by other bytes: a text that differs came from
			 * past the record, which the kernel never wrote
			 */
			if (perr != KT_PRINTK_CHECKED && bprint_reads_past(rc, ev, &rec))
				return kt_guard__not_rendered(s, b, kt_session__find_event(s, r->type),
							      q, q->len, "a trace_printk() format whose "
							      "arguments run past its record");
			trace_seq_init(&t);
			print_info(rc, &t, &rec);
			trace_seq_terminate(&t);
			/*
			 * libtraceevent (1.7.1) marks bprint failed for good when
			 * one record's format does not match its arguments
			 * (parse_arg_format(): "no argument match"): every later
			 * bprint of the handle printed "[FAILED TO PARSE]", and
			 * which ones depended on -J (found by fuzzing). That
			 * record is counted; the next one is printed on its own.
			 */
			if (!failed && (ev->flags & TEP_EVENT_FL_FAILED)) {
				ev->flags &= ~TEP_EVENT_FL_FAILED;
				trace_seq_destroy(&t);
				return kt_guard__not_rendered(s, b, kt_session__find_event(s, r->type),
							      q, q->len, "a trace_printk() format "
							      "its arguments do not match");
			}
			/* libtraceevent prints "ip: text"; keep the text */
			{
				const char *p = strstr(t.buffer, ": ");
				unsigned int o = q->len;

				kt_output__text(q, p ? p + 2 : t.buffer, t.len);
				trace_seq_destroy(&t);
				if (q->len + 1 >= kt_guard__seq_size(s))
					return kt_guard__not_rendered(
						s, b, kt_session__find_event(s, r->type), q, o,
						"longer than the kernel's trace_seq");
			}
		}
		return 0;
	}
	{
		/*
		 * printed in place, then cut as kt_output__text() would: at a
		 * NUL, without the kernel's trailing newlines (a trace_seq of
		 * its own per record cost a 4 KiB allocation)
		 */
		const struct kt_fastfmt *ff = e ? fast_of(s, e, ev) : NULL;
		unsigned int o = q->len;
		const char *why = NULL;
		size_t n;

		bool fast = ff && !kt_fastfmt__print(rc, ff, q, r->data, r->size);

		if (!fast) {
			/*
			 * a format libtraceevent could not parse: it prints
			 * "[FAILED TO PARSE]" and the raw fields, never the kernel's text
			 */
			why = ev->flags & TEP_EVENT_FL_FAILED ? "a format libtraceevent cannot parse"
							     : kt_guard__helpers(ev, r);
			if (!why) {
				rc->div_zero = false;
				print_info(rc, q, &rec);
				if (rc->div_zero)
					why = "a division by zero";
			}
		}
		trace_seq_terminate(q);
		/* the line and its newline must fit the kernel's trace_seq */
		if (!why && q->len + 1 >= kt_guard__seq_size(s))
			why = "longer than the kernel's trace_seq";
		if (why)
			return kt_guard__not_rendered(s, b, e, q, o, why);
		if (q->len < o)
			return 0;
		/* a program prints no NUL: its strings end at theirs */
		n = fast ? q->len - o : strnlen(q->buffer + o, q->len - o);
		while (n && q->buffer[o + n - 1] == '\n')
			n--;
		q->len = o + (unsigned int)n;
		q->buffer[q->len] = 0;
	}
	return 0;
}
