// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What libtraceevent evaluates per record, guarded. The print fmt was
 * made safe to parse (fmtcheck.c); these bound its evaluation:
 *
 * - __kt_nz(), __kt_width(), __kt_prec(): the print functions
 *   fmtcheck.c wrapped divisors and '*' arguments in. A zero divisor is
 *   noted (the line is then counted as not rendered) and 1 divides
 *   instead; a '*' is clamped as vsnprintf() clamps it.
 * - __print_hex(), __print_hex_str(), __print_array(): libtraceevent
 *   prints as many bytes as the format's length says, from the field on,
 *   whatever the record holds (an unsigned count: -1 reads 4 GiB). Each
 *   length is evaluated here first and must stay inside the record.
 * - a line longer than the kernel's trace_seq: the kernel printed none
 *   of the event's text (trace_seq_printf() drops what does not fit).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "render.h"

/*
 * trace_print_array_seq() prints "{0x64636261,0x676665}"; libtraceevent
 * before 1.8 (Debian 12's 1.7.1) printed "1684234849 6776421". Whether
 * this libtraceevent prints the kernel's form is asked of it once, with a
 * one-event handle of its own: records it would print otherwise are
 * counted as not rendered, never printed wrong.
 */
static pthread_once_t int_array_once = PTHREAD_ONCE_INIT;
static bool int_array_kernel;

static void int_array_probe(void)
{
	static const char fmt[] =
		"name: kt_array\nID: 9\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:char s[8];\toffset:8;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"%s\", __print_array(REC->s, 2, 4)\n";
	unsigned char d[16] = { 9, 0, 0, 0, 1, 0, 0, 0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 0 };
	struct tep_handle *t = tep_alloc();
	struct tep_record r = { .data = d, .size = sizeof(d) };
	struct trace_seq q;

	if (!t)
		return;
	tep_set_long_size(t, 8);
	tep_set_page_size(t, 4096);
	trace_seq_init(&q);
	if (!tep_parse_event(t, fmt, sizeof(fmt) - 1, "kt")) {
		tep_print_event(t, &q, &r, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&q);
		int_array_kernel = q.buffer && !strcmp(q.buffer, "{0x64636261,0x676665}");
	}
	trace_seq_destroy(&q);
	tep_free(t);
}

/* the widest a width or precision is worth: past any trace_seq (fmtcheck.c) */
#define WIDTH_CAP	65536

/* a divisor of zero: 1 in its place, the record counted (kt_render__event()) */
static unsigned long long kt_nz(struct trace_seq *q, unsigned long long *args)
{
	struct kt_render *rc = kt_render__printing();

	if (args[0])
		return args[0];
	if (rc)
		rc->div_zero = true;
	return 1;
}

/* set_field_width(): what does not fit in 24 bits is clamped */
static unsigned long long kt_width(struct trace_seq *q, unsigned long long *args)
{
	long long v = (int)args[0];

	return (unsigned long long)(v > WIDTH_CAP ? WIDTH_CAP : v < -WIDTH_CAP ? -WIDTH_CAP : v);
}

/* set_precision(): a precision past 16 bits is clamped to 0..PRECISION_MAX */
static unsigned long long kt_prec(struct trace_seq *q, unsigned long long *args)
{
	long long v = (int)args[0];

	if (v < -32768)
		return 0;
	return (unsigned long long)(v > WIDTH_CAP ? WIDTH_CAP : v);
}

void kt_guard__register(struct tep_handle *tep)
{
	/* one argument each, as __kt_ptr(): never a conversion's own argument (fastfmt.c) */
	tep_register_print_function(tep, kt_nz, TEP_FUNC_ARG_LONG, "__kt_nz",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, kt_width, TEP_FUNC_ARG_LONG, "__kt_width",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, kt_prec, TEP_FUNC_ARG_LONG, "__kt_prec",
				    TEP_FUNC_ARG_LONG, TEP_FUNC_ARG_VOID);
}

/* a __data_loc's offset and length in @r (render.c checked them: field_outside()) */
static bool data_loc(const struct tep_format_field *f, const struct kt_record *r, uint32_t *off,
		     uint32_t *len)
{
	uint32_t loc;

	if (!f || !kt_field_inside(f, r->size) || f->size < 4)
		return false;
	loc = kt_get32(tep_is_file_bigendian(f->event->tep), (const uint8_t *)r->data + f->offset);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (uint32_t)f->offset + 4;
	return *off <= r->size && *len <= r->size - *off;
}

static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *a)
{
	return a->field.field ? a->field.field : tep_find_any_field(ev, a->field.name);
}

/* a length argument's value, as libtraceevent would find it; false: not one we know */
static bool length_of(struct tep_event *ev, struct tep_print_arg *a, const struct kt_record *r,
		      uint64_t *v)
{
	struct tep_format_field *f;
	unsigned long long n;
	uint32_t off;

	switch (a ? a->type : TEP_PRINT_NULL) {
	case TEP_PRINT_ATOM:
		*v = strtoull(a->atom.atom, NULL, 0);
		return true;
	case TEP_PRINT_TYPE:
		return length_of(ev, a->typecast.item, r, v);
	case TEP_PRINT_FIELD:
		f = arg_field(ev, a);
		if (!f || !kt_field_inside(f, r->size) || tep_read_number_field(f, r->data, &n))
			return false;
		*v = n;
		return true;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN: {
		uint32_t len;

		if (!data_loc(a->dynarray.field, r, &off, &len))
			return false;
		*v = len;
		return true;
	}
	default:
		return false;
	}
}

/* where the bytes of a helper's array start in @r; false: not inside it */
static bool array_at(struct tep_event *ev, struct tep_print_arg *a, const struct kt_record *r,
		     uint32_t *at)
{
	struct tep_format_field *f;
	uint32_t len;

	if (a && a->type == TEP_PRINT_DYNAMIC_ARRAY)
		return data_loc(a->dynarray.field, r, at, &len);
	if (!a || a->type != TEP_PRINT_FIELD)
		return false;
	f = arg_field(ev, a);
	if (!f || !kt_field_inside(f, r->size))
		return false;
	*at = (uint32_t)f->offset;
	return true;
}

/* libtraceevent's count is an unsigned int, its element size an int */
static bool helper_inside(struct tep_event *ev, struct tep_print_arg *field,
			  struct tep_print_arg *count, struct tep_print_arg *el_size,
			  const struct kt_record *r)
{
	uint64_t n, es = 1;
	uint32_t at;

	if (!array_at(ev, field, r, &at) || !length_of(ev, count, r, &n))
		return false;
	if (el_size) {
		if (!length_of(ev, el_size, r, &es))
			return false;
		es = (int)es;
		if (es != 1 && es != 2 && es != 4 && es != 8)
			es = 1;		/* "BAD SIZE", a byte read per element */
	}
	return (uint32_t)n * es <= r->size - at;
}

static const char *helpers_in(struct tep_event *ev, struct tep_print_arg *a,
			      const struct kt_record *r)
{
	const char *why = NULL;

	for (; a && !why; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (!helper_inside(ev, a->hex.field, a->hex.size, NULL, r))
				return "a __print_hex() length past its record";
			break;
		case TEP_PRINT_INT_ARRAY:
			if (!helper_inside(ev, a->int_array.field, a->int_array.count,
					   a->int_array.el_size, r))
				return "a __print_array() length past its record";
			pthread_once(&int_array_once, int_array_probe);
			if (!int_array_kernel)
				return "__print_array(), which this libtraceevent (before 1.8) "
				       "prints otherwise than the kernel";
			break;
		case TEP_PRINT_OP:
			why = helpers_in(ev, a->op.left, r);
			if (!why)
				why = helpers_in(ev, a->op.right, r);
			break;
		case TEP_PRINT_TYPE:
			why = helpers_in(ev, a->typecast.item, r);
			break;
		case TEP_PRINT_FUNC:
			why = helpers_in(ev, a->func.args, r);
			break;
		default:
			break;
		}
	}
	return why;
}

/*
 * Why @ev's text for @r cannot be printed as the kernel did, before
 * libtraceevent tries: NULL, or the reason. Its arguments nest at most
 * KT_FMT_MAX_NEST deep (fmtcheck.c), and so does this walk.
 */
const char *kt_guard__helpers(struct tep_event *ev, const struct kt_record *r)
{
	return helpers_in(ev, ev->print_fmt.args, r);
}

/*
 * The text of a record the kernel would not have printed so: the words
 * "[not rendered: why]" in place of it, counted, said once per event.
 */
int kt_guard__not_rendered(struct kt_session *s, struct kt_buffer *b, const struct kt_event *e,
			    struct trace_seq *q, unsigned int o, const char *why)
{
	q->len = o;
	trace_seq_terminate(q);
	trace_seq_printf(q, "[not rendered: %s]", why);
	b->loss.events_unrendered++;
	kt_lock(s);
	if (e && !e->guard_warned)
		kt_warn(s, "%s:%s (id %d): a record's text is %s; such records are marked "
			   "[not rendered] and counted", e->system, e->name, e->id, why);
	if (e)
		((struct kt_event *)e)->guard_warned = true;
	kt_unlock(s);
	return 0;
}

/*
 * The kernel's trace_seq: the size of trace_seq.buffer (a page until
 * 6.7, then 8 KiB less the struct's other members), a page when the
 * debuginfo does not say
 */
uint32_t kt_guard__seq_size(const struct kt_session *s)
{
	const struct kt_member *m = &s->l.seq_buffer;

	return m->present && m->size >= 1024 && m->size <= WIDTH_CAP ? m->size : s->l.page_size;
}
