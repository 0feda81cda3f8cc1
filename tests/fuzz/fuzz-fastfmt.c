// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the compiled print formats (lib/ftrace/fastfmt.c) in
 * both byte orders. An event built from the input is parsed by two
 * libtraceevent handles, one of a little-endian kernel and one of a
 * big-endian one (s390x); the record is the input's bytes as the
 * little-endian kernel wrote them and, for the big-endian one, the same
 * values with every field's words reversed (a number, each element of an
 * array, a __data_loc or __rel_loc word). Both handles must compile the
 * format alike, and the two programs must print the same text or both
 * leave the record to libtraceevent: what a big-endian kernel's program
 * reads in the wrong order prints otherwise.
 *
 * Input: fuzz-events' narrow encoding (tests/fuzz/make-seeds): a 3-byte
 * head (event id, field count; bit 7 ignored), NUL-separated system,
 * name, print_fmt and per field its type and name, per field 3 bytes
 * (offset, size, is_signed); the rest, up to 248 bytes, is the record
 * after its 8-byte trace_entry.
 *
 * An input whose bytes mean different things in the two orders is
 * skipped: fields that overlap, a string of a dynamic field that runs
 * over a reversed word, an array of words printed as one number.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>
#include <event-parse.h>
#include "fake-kernel.h"
#include "ftrace/render.h"

#define MAX_FIELDS 8
#define REC_MAX 256

static void child_death(void)
{
	_exit(1);
}

/* libtraceevent's parser faults on some formats (render.c's trial parse): not ours */
static bool parse_survives(const char *text, size_t len)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (!pid) {
		struct tep_handle *t = tep_alloc();
		int devnull = open("/dev/null", O_WRONLY);

		/*
		 * a fault here is the parser's: the sanitizer's report to
		 * /dev/null and no crash input written by libFuzzer's death
		 * callback; the parent sees the status
		 */
		if (devnull >= 0)
			dup2(devnull, 2);
		__sanitizer_set_death_callback(child_death);
		if (t) {
			tep_set_long_size(t, 8);
			tep_parse_event(t, text, len, "fuzz");
		}
		_exit(0);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

static struct tep_handle *handle(bool be, const char *text, size_t len)
{
	struct tep_handle *t = tep_alloc();

	if (!t)
		return NULL;
	tep_set_long_size(t, 8);
	tep_set_file_bigendian(t, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									: TEP_LITTLE_ENDIAN);
	if (tep_parse_event(t, text, len, "fuzz")) {
		tep_free(t);
		return NULL;
	}
	return t;
}

/* the bytes of one word of each field, reversed; the field's word size */
static unsigned int word_of(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		return (unsigned int)f->size;
	if (f->flags & TEP_FIELD_IS_ARRAY)
		return (unsigned int)f->elementsize;
	return (unsigned int)f->size;
}

/* a field printed whole (not REC->x[N]) under @a */
static bool printed_whole(const struct tep_print_arg *a, const char *name)
{
	for (; a; a = a->next) {
		const struct tep_print_arg *x = a;

		while (x && x->type == TEP_PRINT_TYPE)
			x = x->typecast.item;
		if (x && x->type == TEP_PRINT_SYMBOL)
			x = x->symbol.field;
		while (x && x->type == TEP_PRINT_TYPE)
			x = x->typecast.item;
		if (x && x->type == TEP_PRINT_FIELD && !strcmp(x->field.name, name))
			return true;
		if (x && x->type == TEP_PRINT_FUNC && printed_whole(x->func.args, name))
			return true;
	}
	return false;
}

/*
 * @be's record from @le's: every field's words reversed. false: the input
 * means different things in the two orders (see the head comment).
 */
static bool reverse_fields(struct tep_event *ev, const uint8_t *le, uint8_t *be,
			   uint32_t size)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	uint8_t used[REC_MAX] = { 0 }, turned[REC_MAX] = { 0 };
	struct tep_format_field *f;
	int l;

	memcpy(be, le, size);
	for (l = 0; l < 2; l++) {
		for (f = lists[l]; f; f = f->next) {
			unsigned int w = word_of(f), i, j;

			if (f->offset < 0 || f->size < 0 || (uint32_t)f->offset >= size)
				continue;
			if ((uint32_t)(f->offset + f->size) > size)
				return false;	/* a field cut by the record's end */
			for (i = 0; i < (unsigned int)f->size; i++)
				if (used[f->offset + i]++)
					return false;
			if (w != 1 && w != 2 && w != 4 && w != 8) {
				if (f->size == 2 || f->size == 4 || f->size == 8)
					return false;	/* read as a number of its size */
				continue;
			}
			if ((f->flags & TEP_FIELD_IS_ARRAY) && w > 1 &&
			    w != (unsigned int)f->size &&
			    printed_whole(ev->print_fmt.args, f->name))
				return false;
			if (w == 1)
				continue;
			for (i = 0; i + w <= (unsigned int)f->size; i += w)
				for (j = 0; j < w; j++) {
					be[f->offset + i + j] = le[f->offset + i + w - 1 - j];
					turned[f->offset + i + j] = 1;
				}
		}
	}
	/* a dynamic field's string (up to its NUL, or the record's end) in no reversed word */
	for (f = ev->format.fields; f; f = f->next) {
		uint32_t loc, o, i;

		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->offset < 0 ||
		    (uint32_t)f->offset + (uint32_t)f->size > size ||
		    (f->size != 2 && f->size != 4))
			continue;
		loc = (uint32_t)kt_getn(false, le + f->offset, (unsigned int)f->size);
		o = loc & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			o += (uint32_t)f->offset + (uint32_t)f->size;
		for (i = o; i < size; i++)
			if (turned[i])
				return false;
	}
	return true;
}

/* the program's text of @rec on @t's event; NULL: not compiled or left to libtraceevent */
static char *program_text(struct tep_handle *t, int id, const uint8_t *rec, uint32_t size,
			  bool *compiled)
{
	struct tep_event *ev = tep_find_event(t, id);
	struct kt_fastfmt *f = ev ? kt_fastfmt__compile(ev) : NULL;
	struct trace_seq q;
	char *text = NULL;

	*compiled = f;
	if (!f)
		return NULL;
	trace_seq_init(&q);
	if (!kt_fastfmt__print(NULL, f, &q, rec, size)) {
		trace_seq_terminate(&q);
		text = strdup(q.buffer);
	}
	trace_seq_destroy(&q);
	kt_fastfmt__free(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	const uint8_t *p = in + 3, *end = in + len;
	const char *sys, *name, *pfmt, *type[MAX_FIELDS], *fname[MAX_FIELDS];
	uint8_t le[REC_MAX] = { 0 }, be[REC_MAX];
	struct tep_handle *tl = NULL, *tb = NULL;
	char *text = NULL, *lt = NULL, *bt = NULL;
	bool lc, bc;
	size_t tlen = 0;
	uint32_t size;
	int id, nf, i;
	FILE *m;

	if (len < 3)
		return 0;
	id = in[0] | in[1] << 8;
	nf = (in[2] & 0x7f) % (MAX_FIELDS + 1);
	sys = fk_next_str(&p, end);
	name = sys ? fk_next_str(&p, end) : NULL;
	pfmt = name ? fk_next_str(&p, end) : NULL;
	if (!pfmt)
		return 0;
	for (i = 0; i < nf; i++) {
		type[i] = fk_next_str(&p, end);
		fname[i] = type[i] ? fk_next_str(&p, end) : NULL;
		if (!fname[i])
			return 0;
	}
	if (end - p < 3 * nf)
		return 0;
	/* the format file of the event, as tracefs shows it */
	m = open_memstream(&text, &tlen);
	if (!m)
		return 0;
	fprintf(m, "name: %s\nID: %d\nformat:\n", name, id);
	fprintf(m, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		   "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (i = 0; i < nf; i++, p += 3) {
		const char *br = strchr(type[i], '[');

		/* "char[16]" "comm": "char comm[16]"; "__data_loc char[]" stays whole */
		if (br && strncmp(type[i], "__data_loc", 10) && strncmp(type[i], "__rel_loc", 9))
			fprintf(m, "\tfield:%.*s %s%s;", (int)(br - type[i]), type[i], fname[i],
				br);
		else
			fprintf(m, "\tfield:%s %s;", type[i], fname[i]);
		fprintf(m, "\toffset:%u;\tsize:%u;\tsigned:%u;\n", p[0], p[1], p[2] & 1);
	}
	fprintf(m, "\nprint fmt: %s\n", pfmt);
	if (fclose(m) || !text)
		goto out;
	size = 8 + (uint32_t)(end - p > REC_MAX - 8 ? REC_MAX - 8 : end - p);
	le[0] = (uint8_t)id;
	le[1] = (uint8_t)(id >> 8);
	memcpy(le + 8, p, size - 8);

	if (!parse_survives(text, tlen))
		goto out;
	tl = handle(false, text, tlen);
	tb = handle(true, text, tlen);
	if (!tl || !tb || !tep_find_event(tl, id) ||
	    !reverse_fields(tep_find_event(tl, id), le, be, size))
		goto out;
	lt = program_text(tl, id, le, size, &lc);
	bt = program_text(tb, id, be, size, &bc);
	if (lc != bc || !lt != !bt || (lt && strcmp(lt, bt))) {
		fprintf(stderr, "format: %s\nlittle-endian: %s %s\nbig-endian:    %s %s\n", pfmt,
			lc ? "compiled" : "not compiled", lt ? lt : "(left to libtraceevent)",
			bc ? "compiled" : "not compiled", bt ? bt : "(left to libtraceevent)");
		abort();
	}
out:
	free(lt);
	free(bt);
	if (tl)
		tep_free(tl);
	if (tb)
		tep_free(tb);
	free(text);
	return 0;
}
