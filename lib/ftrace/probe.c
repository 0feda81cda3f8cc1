// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Dynamic events printed the kernel's way. Their records do not go through
 * a print fmt: kprobe, kretprobe, uprobe, eprobe and fprobe events are
 * printed by print_kprobe_event() and its siblings (trace_kprobe.c,
 * trace_uprobe.c, trace_eprobe.c, trace_fprobe.c) with print_probe_args()
 * (trace_probe.c), synthetic events by print_synth_event()
 * (trace_events_synth.c). The print fmt in the dump, which the kernel
 * synthesized from the same arguments for tracefs (__set_print_fmt(),
 * __set_synth_event_print_fmt()), names each argument and the format its
 * type prints with; the line around them is the printer's:
 *
 *   kprobe, fentry:     "NAME: (ip_sym+off/size) a=.. b=.."
 *   kretprobe, fexit:   "NAME: (ret_ip_sym+off/size <- func_sym) a=.."
 *   uprobe:             "NAME: (0x%lx) ..." and "NAME: (0x%lx <- 0x%lx) ..."
 *   eprobe (5.15+):     "NAME: (system.event) a=.."
 *   synthetic:          "NAME: a=.. b=.." (the print fmt joins with ", ")
 *
 * The same in 5.10, 6.1 and 6.12 unless a comment says otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "../internal.h"
#include "render.h"

enum dyn_spec {
	SPEC_U,		/* %u %Lu %llu %lu */
	SPEC_S,		/* %d %Ld %lld %ld */
	SPEC_X,		/* 0x%x 0x%Lx 0x%llx 0x%lx */
	SPEC_XBARE,	/* %x (synthetic gfp_t and hex fields) */
	SPEC_QSTR,	/* \"%s\": string, ustring, symstr, $comm */
	SPEC_STR,	/* %s, %.*s (synthetic strings) */
	SPEC_SYM,	/* %pS: symbol */
	SPEC_CHR,	/* '%c': char (6.1+) */
};

struct kt_dyn_arg {
	char *name;
	enum dyn_spec spec;
	int count;	/* 0: not an array */
};

static const char *const funcs_sym[KT_DYN_NR] = {
	[KT_DYN_KPROBE] = "kprobe_funcs",
	[KT_DYN_KRETPROBE] = "kretprobe_funcs",
	[KT_DYN_UPROBE] = "uprobe_funcs",
	[KT_DYN_EPROBE] = "eprobe_funcs",
	[KT_DYN_FENTRY] = "fentry_funcs",
	[KT_DYN_FEXIT] = "fexit_funcs",
	[KT_DYN_SYNTH] = "synth_event_funcs",
	[KT_DYN_SYSCALL_ENTER] = "enter_syscall_print_funcs",
	[KT_DYN_SYSCALL_EXIT] = "exit_syscall_print_funcs",
};

/*
 * 6.19+: "u8 nb_args:7; u8 user_arg_is_str:1; s8 user_arg_size; short
 * user_mask": the bit-field byte is the one before user_arg_size. GCC
 * allocates bit-fields from the low bit on a little-endian machine (nb_args
 * its low 7 bits) and from the high bit on a big-endian one (s390x:
 * nb_args its high 7 bits, user_arg_is_str bit 0). Its nb_args is checked
 * against the event's own fields at render time.
 */
static int syscall_nb_args(struct kt_session *s, struct kt_event *e, uint64_t meta, uint64_t *nb)
{
	const struct kt_layout *l = &s->l;
	uint8_t byte;

	if (!l->sm_user_mask.present || l->sm_user_mask.off < 2 ||
	    kt_read(s, meta + l->sm_user_mask.off - 2, &byte, 1))
		return -1;
	*nb = l->be ? byte >> 1 : byte & 0x7f;
	e->sc_user_is_str = l->be ? byte & 1 : byte >> 7;
	return 0;
}

/* openat's flag names, as its print fmt lists them ({ 0x1, "O_WRONLY" }, ...) */
static void openat_flags(struct kt_event *e)
{
	const char *p = e->print_fmt;
	uint64_t dir = 0;
	int n = 1;

	while (p && (p = strstr(p, "{ 0x")) && n < 20) {
		char name[32];
		unsigned long long v;
		int len = 0;

		if (sscanf(p, "{ 0x%llx, \"%31[A-Z_]\" }%n", &v, name, &len) != 2 || !len)
			break;
		e->sc_oflags[n] = v;
		e->sc_oflag_names[n++] = strdup(name);
		if (!strcmp(name, "O_DIRECTORY"))
			dir = v;
		if (!strcmp(name, "O_CREAT"))
			e->sc_ocreat = v;
		p += len;
	}
	/* print_syscall_enter()'s table puts O_TMPFILE (__O_TMPFILE | O_DIRECTORY) first */
	e->sc_oflags[0] = 020000000 | dir;
	e->sc_oflag_names[0] = strdup("O_TMPFILE");
	e->sc_nr_oflags = n;
	e->sc_openat = dir && n > 10;
}

static int syscall_user(struct kt_session *s, struct kt_event *e, uint64_t meta)
{
	const struct kt_layout *l = &s->l;
	int8_t size;
	int16_t mask;

	if (kt_read(s, meta + l->sm_user_mask.off, &mask, 2) ||
	    kt_read(s, meta + l->sm_user_mask.off - 1, &size, 1))
		return -1;
	kt_order(l->be, &mask, 1, 2);
	e->sc_user = true;
	e->sc_user_mask = (uint16_t)mask;
	e->sc_user_arg_size = size;
	if (!strcmp(e->sc_name, "sys_openat")) {
		openat_flags(e);
		if (!e->sc_openat)
			e->dyn_bad = strdup("sys_openat's print fmt does not list its flags");
	}
	return 0;
}

/*
 * A syscall event's struct syscall_metadata (trace_event_call.data): its
 * name, number and arguments' names and types, as print_syscall_enter()
 * and print_syscall_exit() print them. 0, or what it lacks in e->dyn_bad.
 */
static void syscall_meta(struct kt_session *s, struct kt_event *e)
{
	const struct kt_layout *l = &s->l;
	uint64_t meta, nr = 0, nb = 0, names, types, p;
	int i;

	if (!l->call_data.present || !l->sm_name.present || !l->sm_syscall_nr.present ||
	    kt_read_member(s, e->call, &l->call_data, &meta) || !meta ||
	    kt_read_member(s, meta, &l->sm_name, &p) || kt_read_string(s, p, 256, &e->sc_name) ||
	    kt_read_member(s, meta, &l->sm_syscall_nr, &nr))
		goto bad;
	e->sc_nr = (int)(int32_t)nr;
	if (e->dyn == KT_DYN_SYSCALL_EXIT)
		return;
	if (l->sm_user_mask.present && syscall_nb_args(s, e, meta, &nb))
		goto bad;
	if (!l->sm_args.present || !l->sm_types.present ||
	    (!l->sm_user_mask.present && (!l->sm_nb_args.present ||
					  kt_read_member(s, meta, &l->sm_nb_args, &nb))) ||
	    nb > 6 ||
	    kt_read_member(s, meta, &l->sm_args, &names) ||
	    kt_read_member(s, meta, &l->sm_types, &types))
		goto bad;
	e->sc_nb_args = (int)nb;
	/*
	 * 6.18 ("tracing: Have syscall trace events show "0x" for values
	 * greater than 10"): a value under 10 in decimal, the others with
	 * "0x". Nothing in the dump's data tells it (the print fmt is the
	 * same): the release does, or 6.19's user_mask beside it.
	 */
	if (l->sm_user_mask.present) {
		e->sc_0x = true;
	} else {
		unsigned int major, minor;

		if (kt_ident__version(s, &major, &minor)) {
			e->dyn_bad = strdup("the kernel's release is not known, and 6.18 changed how "
					    "syscall arguments are printed");
			return;
		}
		e->sc_0x = major > 6 || (major == 6 && minor >= 18);
	}
	if (!nb)
		return;
	if (l->sm_user_mask.present && syscall_user(s, e, meta))
		goto bad;
	e->sc_args = calloc(nb, sizeof(char *));
	e->sc_types = calloc(nb, sizeof(char *));
	if (!e->sc_args || !e->sc_types)
		goto bad;
	for (i = 0; i < (int)nb; i++)
		if (kt_read_u64(s, names + 8 * i, &p) || kt_read_string(s, p, 256, &e->sc_args[i]) ||
		    kt_read_u64(s, types + 8 * i, &p) || kt_read_string(s, p, 256, &e->sc_types[i]))
			goto bad;
	return;
bad:
	e->dyn_bad = strdup("its struct syscall_metadata cannot be read");
}

/*
 * Once per session: the printers' tables, and the kretprobe trampoline
 * that seq_print_sym() names "[unknown/kretprobe'd]" (kretprobed()): by
 * address since 5.15 (is_kretprobe_trampoline(): arch_rethook_trampoline
 * with CONFIG_KRETPROBE_ON_RETHOOK, 6.0+, else __kretprobe_trampoline);
 * before, by the name kallsyms_lookup() gave, "kretprobe_trampoline".
 */
void kt_probe__init(struct kt_session *s)
{
	int k;

	for (k = 1; k < KT_DYN_NR; k++)
		if (kt_symbol(s, funcs_sym[k], &s->dyn_funcs[k]))
			s->dyn_funcs[k] = 0;
	if (kt_symbol(s, "__kretprobe_trampoline", &s->kretprobe_tramp) &&
	    kt_symbol(s, "arch_rethook_trampoline", &s->kretprobe_tramp)) {
		uint64_t a;

		s->kretprobe_tramp = 0;
		s->kretprobe_by_name = !kt_symbol(s, "kretprobe_trampoline", &a);
	}
}

static int spec_of(const char *p, size_t n, enum dyn_spec *spec)
{
	static const struct {
		const char *text;
		enum dyn_spec spec;
	} t[] = {
		{ "%u", SPEC_U }, { "%Lu", SPEC_U }, { "%llu", SPEC_U }, { "%lu", SPEC_U },
		{ "%d", SPEC_S }, { "%Ld", SPEC_S }, { "%lld", SPEC_S }, { "%ld", SPEC_S },
		{ "0x%x", SPEC_X }, { "0x%Lx", SPEC_X }, { "0x%llx", SPEC_X }, { "0x%lx", SPEC_X },
		{ "%x", SPEC_XBARE }, { "\"%s\"", SPEC_QSTR }, { "%s", SPEC_STR },
		{ "%.*s", SPEC_STR }, { "%pS", SPEC_SYM }, { "'%c'", SPEC_CHR },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strlen(t[i].text) == n && !memcmp(t[i].text, p, n)) {
			*spec = t[i].spec;
			return 0;
		}
	return -EINVAL;
}

/* "NAME=SPEC" or "NAME={SPEC,SPEC,...}" (an array of count SPEC) */
static int parse_arg(const char *p, size_t n, struct kt_dyn_arg *a)
{
	const char *eq = memchr(p, '=', n);
	const char *v, *end = p + n;

	if (!eq || eq == p)
		return -EINVAL;
	a->name = strndup(p, eq - p);
	if (!a->name)
		return -ENOMEM;
	v = eq + 1;
	if (v < end && *v == '{' && end[-1] == '}') {
		const char *q = v + 1, *c;
		enum dyn_spec first = SPEC_U, sp;

		for (;;) {
			c = memchr(q, ',', end - 1 - q);
			if (!c)
				c = end - 1;
			if (spec_of(q, c - q, &sp) || (a->count && sp != first))
				return -EINVAL;
			first = sp;
			a->count++;
			if (c == end - 1)
				break;
			q = c + 1;
		}
		a->spec = first;
		return 0;
	}
	return spec_of(v, end - v, &a->spec);
}

/* the first C string of a print fmt, its escapes undone */
static char *fmt_string(const char *pf)
{
	const char *p = pf;
	char *out, *o;

	while (*p == ' ')
		p++;
	if (*p++ != '"')
		return NULL;
	out = o = malloc(strlen(p) + 1);
	if (!out)
		return NULL;
	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		*o++ = *p;
	}
	*o = 0;
	if (*p != '"') {
		free(out);
		return NULL;
	}
	return out;
}

static int parse_args(struct kt_event *e, const char *body, const char *sep)
{
	size_t seplen = strlen(sep);
	const char *p = body;

	while (*p) {
		const char *next = strstr(p, sep);
		size_t n = next ? (size_t)(next - p) : strlen(p);
		struct kt_dyn_arg *na;

		na = realloc(e->dyn_args, (e->nr_dyn_args + 1) * sizeof(*na));
		if (!na)
			return -ENOMEM;
		e->dyn_args = na;
		memset(&na[e->nr_dyn_args], 0, sizeof(*na));
		if (parse_arg(p, n, &na[e->nr_dyn_args++]))
			return -EINVAL;
		if (!next)
			break;
		p = next + seplen;
	}
	return 0;
}

/*
 * An eprobe's event: trace_eprobe.event_system and .event_name, reached
 * from its trace_event_call through the trace_probe_event that holds it
 * (trace_probe_event.call) and the first trace_probe on its probes list.
 */
static int eprobe_base(struct kt_session *s, struct kt_event *e)
{
	const struct kt_layout *l = &s->l;
	uint64_t first, ep, sys, ev;
	char *a = NULL, *b = NULL;
	int err = -ENOENT;

	if (!l->tpe_call.present || !l->tpe_probes.present || !l->tp_list.present ||
	    !l->ep_tp.present || !l->ep_event_system.present || !l->ep_event_name.present)
		return -ENOENT;
	if (kt_read_u64(s, e->call - l->tpe_call.off + l->tpe_probes.off, &first))
		return -EFAULT;
	ep = first - l->tp_list.off - l->ep_tp.off;
	if (kt_read_member(s, ep, &l->ep_event_system, &sys) ||
	    kt_read_member(s, ep, &l->ep_event_name, &ev) || kt_read_string(s, sys, 256, &a) ||
	    kt_read_string(s, ev, 256, &b))
		goto out;
	err = asprintf(&e->dyn_base, "%s.%s", a, b) < 0 ? -ENOMEM : 0;
out:
	free(a);
	free(b);
	return err;
}

/*
 * At load: whether @e is a dynamic event, and how its printer prints it.
 * What cannot be followed is kept in e->dyn_bad; its records are then
 * counted as not rendered, never printed by the print fmt.
 */
void kt_probe__classify(struct kt_session *s, struct kt_event *e)
{
	const char *body;
	char *str = NULL;
	uint64_t funcs;
	int k, err;

	if (!s->l.call_event_funcs.present) {
		/*
		 * no way to tell the printer: what looks like a probe's or a
		 * synthetic event's print fmt is said and counted, not guessed
		 */
		if (!strcmp(e->system, "synthetic") || !strncmp(e->print_fmt, "\"(%lx", 5)) {
			e->dyn = KT_DYN_NR;
			e->dyn_bad = strdup("the layout lacks trace_event_call.event.funcs");
		}
		return;
	}
	if (kt_read_member(s, e->call, &s->l.call_event_funcs, &funcs) || !funcs)
		return;
	for (k = 1; k < KT_DYN_NR; k++)
		if (s->dyn_funcs[k] == funcs)
			break;
	if (k == KT_DYN_NR)
		return;
	e->dyn = k;
	if (k == KT_DYN_SYSCALL_ENTER || k == KT_DYN_SYSCALL_EXIT) {
		syscall_meta(s, e);
		return;
	}
	str = fmt_string(e->print_fmt);
	if (!str) {
		e->dyn_bad = strdup("its print fmt is not a string");
		return;
	}
	body = str;
	if (k == KT_DYN_SYNTH) {
		/*
		 * __set_synth_event_print_fmt() joined the arguments with ", "
		 * up to 6.x, with " " in 7.x (as the probes' print fmts; the
		 * trace file's line, print_synth_event(), is the same)
		 */
		err = parse_args(e, body, strstr(body, ", ") || !strchr(body, ' ') ? ", " : " ");
	} else {
		/* __set_print_fmt(): "(%lx)", "(%lx <- %lx)", or nothing (eprobe) */
		if (!strncmp(body, "(%lx)", 5))
			body += 5;
		else if (!strncmp(body, "(%lx <- %lx)", 12))
			body += 12;
		else if (k != KT_DYN_EPROBE)
			body = NULL;
		if (body && *body == ' ')
			body++;
		err = body ? parse_args(e, body, " ") : -EINVAL;
		if (!err && k == KT_DYN_EPROBE && eprobe_base(s, e))
			e->dyn_bad = strdup("its trace_eprobe cannot be read");
	}
	if (err && !e->dyn_bad)
		e->dyn_bad = strdup("its print fmt names an argument type ktrace does not know");
	free(str);
}

void kt_probe__free(struct kt_event *e)
{
	int i;

	for (i = 0; i < e->sc_nb_args && e->sc_args; i++) {
		free(e->sc_args[i]);
		free(e->sc_types ? e->sc_types[i] : NULL);
	}
	free(e->sc_args);
	free(e->sc_types);
	for (i = 0; i < e->sc_nr_oflags; i++)
		free(e->sc_oflag_names[i]);
	free(e->sc_name);
	for (i = 0; i < e->nr_dyn_args; i++)
		free(e->dyn_args[i].name);
	free(e->dyn_args);
	free(e->dyn_base);
	free(e->dyn_bad);
}

/* a __data_loc string of the record, "" when it leaves the record */
static const char *loc_string(bool be, const struct tep_record *r, uint32_t at, uint32_t *len)
{
	uint32_t loc, off;
	const char *p;

	if ((uint64_t)at + 4 > (uint64_t)r->size)
		return NULL;
	loc = kt_get32(be, (const uint8_t *)r->data + at);
	off = loc & 0xffff;
	*len = loc >> 16;
	if (off > (uint32_t)r->size || *len > (uint32_t)r->size - off)
		return NULL;
	p = (const char *)r->data + off;
	return p;
}


/*
 * One value. Probe types print *(type *)data with the type's own
 * signedness (print_type_s8() shows -1); synthetic fields are passed as
 * the unsigned slot of their size (print_synth_event_num_val()), which C
 * promotes to int, so only 4- and 8-byte fields show a sign.
 */
static int print_value(struct kt_session *s, struct kt_buffer *b, struct trace_seq *q,
		       const struct tep_record *r, uint32_t at, int size, enum dyn_spec spec,
		       bool synth)
{
	const uint8_t *p = (const uint8_t *)r->data + at;
	uint64_t v;

	if (spec == SPEC_QSTR || spec == SPEC_STR) {
		uint32_t len;
		const char *str = loc_string(s->l.be, r, at, &len);

		if (!str)
			return -EBADMSG;
		/* print_type_string(): a length of 0 is a fetch that faulted */
		if (spec == SPEC_QSTR && !len)
			trace_seq_puts(q, "(fault)");
		else
			trace_seq_printf(q, spec == SPEC_QSTR ? "\"%.*s\"" : "%.*s",
					 (int)strnlen(str, len), str);
		return 0;
	}
	if ((uint64_t)at + (uint64_t)size > (uint64_t)r->size || size <= 0 || size > 8)
		return -EBADMSG;
	v = kt_getn(s->l.be, p, (unsigned int)size);
	switch (spec) {
	case SPEC_U:
		if (synth && size <= 4)
			v = (uint32_t)v;
		trace_seq_printf(q, "%llu", (unsigned long long)v);
		break;
	case SPEC_S:
		if (synth)
			trace_seq_printf(q, "%lld", size <= 4 ? (long long)(int32_t)v : (long long)v);
		else
			trace_seq_printf(q, "%lld", size == 1 ? (long long)(int8_t)v :
						    size == 2 ? (long long)(int16_t)v :
						    size == 4 ? (long long)(int32_t)v : (long long)v);
		break;
	case SPEC_X:
		trace_seq_printf(q, "0x%llx", (unsigned long long)v);
		break;
	case SPEC_XBARE:
		trace_seq_printf(q, "%llx", (unsigned long long)v);
		break;
	case SPEC_CHR:
		trace_seq_printf(q, "'%c'", (char)v);
		break;
	case SPEC_SYM: {
		/* vsprintf's %pS: sprint_symbol(), "0x%lx" when unknown */
		uint64_t start, size2;
		const char *mod, *name = kt_symbol_lookup(s, v, &start, &size2, &mod);

		(void)b;
		if (!name)
			trace_seq_printf(q, "0x%llx", (unsigned long long)v);
		else
			trace_seq_printf(q, "%s+0x%llx/0x%llx%s%s%s", name,
					 (unsigned long long)(v - start), (unsigned long long)size2,
					 mod ? " [" : "", mod ? mod : "", mod ? "]" : "");
		break;
	}
	default:
		return -EINVAL;
	}
	return 0;
}

/* print_probe_args(): " name=value" per argument, arrays as "{a,b}" */
static int probe_args(struct kt_session *s, struct kt_buffer *b, const struct kt_event *e,
		      struct tep_event *ev, const struct tep_record *r, struct trace_seq *q,
		      bool synth)
{
	int i, j, err;

	for (i = 0; i < e->nr_dyn_args; i++) {
		const struct kt_dyn_arg *a = &e->dyn_args[i];
		struct tep_format_field *f = tep_find_field(ev, a->name);
		int n = a->count ? a->count : 1, size;

		if (!f || f->offset < 0 || f->size <= 0)
			return -ENOENT;
		size = f->size / n;
		if (a->spec == SPEC_STR && synth && !(f->flags & TEP_FIELD_IS_DYNAMIC)) {
			/* a synthetic event's fixed string: char[STR_VAR_LEN_MAX] */
			if ((uint64_t)f->offset + f->size > (uint64_t)r->size)
				return -EBADMSG;
			trace_seq_printf(q, "%s%s=%.*s", i ? " " : "", a->name,
					 (int)strnlen((const char *)r->data + f->offset, f->size),
					 (const char *)r->data + f->offset);
			continue;
		}
		if (a->spec == SPEC_STR && synth && strncmp(f->type, "__data_loc char", 15))
			return -EINVAL;	/* a stacktrace field (6.5+): not yet */
		trace_seq_printf(q, "%s%s=", !synth || i ? " " : "", a->name);
		if (a->count)
			trace_seq_putc(q, '{');
		for (j = 0; j < n; j++) {
			err = print_value(s, b, q, r, (uint32_t)(f->offset + j * size),
					  a->spec == SPEC_QSTR ? 4 : size, a->spec, synth);
			if (err)
				return err;
			if (a->count)
				trace_seq_putc(q, j == n - 1 ? '}' : ',');
		}
	}
	return 0;
}

/* the user space data of argument @i (its "__ARG_val" field): -EBADMSG outside the record */
static int user_data(const struct kt_event *e, struct tep_event *ev, struct tep_record *r, int i,
		     const unsigned char **ptr, int *len)
{
	char name[300];
	bool ok = true;
	uint32_t loc;

	snprintf(name, sizeof(name), "__%s_val", e->sc_args[i]);
	loc = (uint32_t)kt_output__field(ev, name, r, &ok);
	if (!ok || (loc & 0xffff) + (loc >> 16) > (uint32_t)r->size)
		return -EBADMSG;
	*ptr = (const unsigned char *)r->data + (loc & 0xffff);
	*len = (int)(loc >> 16);
	return 0;
}

static bool kprint(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;	/* isascii() && isprint() */
}

/* trace_print_flags_seq(s, "|", bits, table) */
static void print_oflags(const struct kt_event *e, unsigned long long bits, struct trace_seq *q)
{
	bool first = true;
	int i;

	for (i = 0; i < e->sc_nr_oflags && bits; i++) {
		uint64_t m = e->sc_oflags[i];

		if ((bits & m) != m)
			continue;
		bits &= ~m;
		if (!first)
			trace_seq_putc(q, '|');
		first = false;
		trace_seq_puts(q, e->sc_oflag_names[i]);
	}
	if (bits) {
		if (!first)
			trace_seq_putc(q, '|');
		trace_seq_printf(q, "0x%llx", bits);
	}
}

/*
 * 6.19+'s print_syscall_enter(): values under 10 in decimal, each user
 * space argument's data after it (a string in quotes; an array as hex
 * bytes, then its printable text), and sys_enter_openat_print()'s form
 * for openat unless the verbose option is on.
 */
static int syscall_render_user(const struct kt_event *e, struct tep_event *ev,
			       struct tep_record *r, const struct kt_trace_opts *o,
			       struct trace_seq *q)
{
	uint64_t v[6];
	bool ok = true, done = false;
	int i, n = 0;
	struct tep_format_field *f;

	/* the record's own argument fields: as many as the metadata's nb_args */
	for (f = ev->format.fields; f; f = f->next)
		n += !!strncmp(f->name, "__", 2);	/* not __syscall_nr, __data_loc's */
	if (n != e->sc_nb_args)
		return -EOPNOTSUPP;
	for (i = 0; i < e->sc_nb_args; i++) {
		v[i] = kt_output__field(ev, e->sc_args[i], r, &ok);
		if (!ok)
			return -EBADMSG;
	}
	trace_seq_printf(q, "%s(", e->sc_name);
	for (i = 0; i < e->sc_nb_args && !done; i++) {
		const unsigned char *p;
		int len, x;
		bool printable = false;
		uint64_t want;

		if (i)
			trace_seq_puts(q, ", ");
		if (e->sc_openat && !o->verbose && i == 2) {
			int bits = (int)v[2];

			trace_seq_puts(q, "flags: ");
			if (!(bits & (e->sc_ocreat | e->sc_oflags[0])))
				done = true;
			if (!(bits & 3)) {
				if (!bits) {
					trace_seq_puts(q, "O_RDONLY");
					continue;
				}
				trace_seq_puts(q, "O_RDONLY|");
			}
			print_oflags(e, (unsigned long long)(long long)bits, q);
			continue;
		}
		if (e->sc_openat && !o->verbose && i == 3) {
			trace_seq_printf(q, "%s: 0%03o", e->sc_args[i], (unsigned int)v[i]);
			continue;
		}
		if (e->sc_openat && !o->verbose) {
			trace_seq_printf(q, "%s: %llu", e->sc_args[i], (unsigned long long)v[i]);
		} else {
			if (o->verbose)
				trace_seq_printf(q, "%s ", e->sc_types[i]);
			trace_seq_printf(q, v[i] < 10 ? "%s: %llu" : "%s: 0x%llx", e->sc_args[i],
					 (unsigned long long)v[i]);
		}
		if (!(e->sc_user_mask & (1u << i)))
			continue;
		if (user_data(e, ev, r, i, &p, &len))
			return -EBADMSG;
		if (e->sc_openat && !o->verbose) {
			trace_seq_printf(q, " \"%.*s\"", len, (const char *)p);
			continue;
		}
		if (e->sc_user_arg_size < 0 || e->sc_user_is_str) {
			trace_seq_printf(q, " \"%.*s\"", len, (const char *)p);
			continue;
		}
		if (e->sc_user_arg_size >= e->sc_nb_args)
			return -EOPNOTSUPP;
		want = (uint64_t)(int)v[e->sc_user_arg_size];	/* "val" is an int */
		trace_seq_puts(q, " (");
		for (x = 0; x < len; x++) {
			printable |= kprint(p[x]);
			if (x)
				trace_seq_putc(q, ':');
			trace_seq_printf(q, "%02x", p[x]);
		}
		if ((int64_t)len < (int64_t)want)
			trace_seq_puts(q, ", ...");
		trace_seq_putc(q, ')');
		if (!printable)
			continue;
		trace_seq_puts(q, " \"");
		for (x = 0; x < len; x++)
			trace_seq_putc(q, kprint(p[x]) ? (char)p[x] : '.');
		if ((int64_t)len < (int64_t)want)
			trace_seq_puts(q, "\"...");
		else
			trace_seq_putc(q, '"');
	}
	trace_seq_putc(q, ')');
	return 0;
}

/*
 * print_syscall_enter() and print_syscall_exit() (kernel/trace/
 * trace_syscalls.c; enter before 6.19's user data): "sys_write(fd: 1,
 * buf: 55d0, count: 5)", since 6.18 "sys_write(fd: 1, buf: 0x55d0,
 * count: 5)" (the verbose option puts each type before its name),
 * "sys_write -> 0x5".
 * The kernel prints the metadata of the record's syscall number; a record
 * of another number than its event's is not printed here (counted).
 */
static int syscall_render(const struct kt_event *e, struct tep_event *ev, struct tep_record *r,
			  const struct kt_trace_opts *o, struct trace_seq *q)
{
	bool ok = true;
	int64_t nr = (int32_t)kt_output__field(ev, "__syscall_nr", r, &ok);
	int i;

	if (!ok)
		return -EBADMSG;
	if (nr != e->sc_nr)
		return -EOPNOTSUPP;
	if (e->dyn == KT_DYN_SYSCALL_EXIT) {
		uint64_t ret = kt_output__field(ev, "ret", r, &ok);

		if (!ok)
			return -EBADMSG;
		trace_seq_printf(q, "%s -> 0x%llx", e->sc_name, (unsigned long long)ret);
		return 0;
	}
	if (e->sc_user)
		return syscall_render_user(e, ev, r, o, q);
	trace_seq_printf(q, "%s(", e->sc_name);
	for (i = 0; i < e->sc_nb_args; i++) {
		uint64_t v = kt_output__field(ev, e->sc_args[i], r, &ok);

		if (!ok)
			return -EBADMSG;
		if (i)
			trace_seq_puts(q, ", ");
		if (o->verbose)
			trace_seq_printf(q, "%s ", e->sc_types[i]);
		if (e->sc_0x)
			trace_seq_printf(q, v < 10 ? "%s: %llu" : "%s: 0x%llx", e->sc_args[i],
					 (unsigned long long)v);
		else
			trace_seq_printf(q, "%s: %llx", e->sc_args[i], (unsigned long long)v);
	}
	trace_seq_putc(q, ')');
	return 0;
}

/*
 * The event part of a dynamic event's line. 0: printed; -EOPNOTSUPP:
 * ktrace cannot print it as the kernel did (the caller counts it); other
 * negative: the record is corrupt.
 */
int kt_probe__render(struct kt_session *s, struct kt_buffer *b, const struct kt_event *e,
		     struct tep_event *ev, struct tep_record *r, struct trace_seq *q)
{
	struct kt_trace_opts o = *kt_opts__load(s, b);
	bool ok = true;
	uint64_t ip, func;

	if (e->dyn_bad)
		return -EOPNOTSUPP;
	if (e->dyn == KT_DYN_SYSCALL_ENTER || e->dyn == KT_DYN_SYSCALL_EXIT)
		return syscall_render(e, ev, r, &o, q);
	trace_seq_printf(q, "%s: ", e->name);
	switch (e->dyn) {
	case KT_DYN_KPROBE:
	case KT_DYN_FENTRY:
		/* print_kprobe_event(), print_fentry_event() */
		ip = kt_output__field(ev, "__probe_ip", r, &ok);
		if (!ok)
			return -EBADMSG;
		o.sym_offset = true;
		trace_seq_putc(q, '(');
		kt_output__ip_sym(s, &o, q, ip);
		trace_seq_putc(q, ')');
		break;
	case KT_DYN_KRETPROBE:
	case KT_DYN_FEXIT:
		/* print_kretprobe_event(), print_fexit_event() */
		ip = kt_output__field(ev, "__probe_ret_ip", r, &ok);
		func = kt_output__field(ev, "__probe_func", r, &ok);
		if (!ok)
			return -EBADMSG;
		trace_seq_putc(q, '(');
		o.sym_offset = true;
		kt_output__ip_sym(s, &o, q, ip);
		trace_seq_puts(q, " <- ");
		o.sym_offset = false;
		kt_output__ip_sym(s, &o, q, func);
		trace_seq_putc(q, ')');
		break;
	case KT_DYN_EPROBE:
		/* print_eprobe_event() */
		trace_seq_printf(q, "(%s)", e->dyn_base);
		break;
	case KT_DYN_SYNTH:
		/* print_synth_event(); the verbose option's types are counted by the caller */
		return probe_args(s, b, e, ev, r, q, true);
	default:
		/* uprobes: print_uprobe_event(); no fixture proves it yet */
		return -EOPNOTSUPP;
	}
	return probe_args(s, b, e, ev, r, q, false);
}
