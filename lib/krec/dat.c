// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * krec's events in trace.dat: each as an events/krec/NAME/format that
 * libtraceevent (trace-cmd report, KernelShark) can print. A record's
 * header has the id where ftrace has common_type (offset 0, 2 bytes) and
 * the pid where ftrace has common_pid, so the common fields line up; the
 * arguments become fields a0, a1, ... in the order of the format (a
 * string as a __data_loc char[], as the record's data location is
 * ftrace's own encoding), and the print fmt is the event's format with
 * REC->aN and __get_str(aN). Ids are moved above ftrace's in the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "krec.h"

/* the conversion of argument @n of @fmt: 'd', 'u', 's'...; 0 if none */
static char conv_of(const char *fmt, int n)
{
	const char *p = fmt;
	int i = -1;

	while ((p = strchr(p, '%'))) {
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		p++;
		while (*p && !strchr("diuxXcs", *p))
			p++;
		if (!*p)
			return 0;
		if (++i == n)
			return *p;
		p++;
	}
	return 0;
}

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

char *kt_krec__dat_format(struct kt_buffer *b, int i, int id_base)
{
	const struct krec *k = b->priv;
	const struct kt_krec_event *e;
	char *buf = NULL;
	size_t len = 0;
	uint32_t off;
	FILE *f;
	int a;

	if (!k || i < 0 || i >= k->nr_events)
		return NULL;
	e = &k->events[i];
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "name: %s\nID: %d\nformat:\n", e->name, e->id + id_base);
	fprintf(f, "\tfield:unsigned short common_type;\toffset:%u;\tsize:2;\tsigned:0;\n",
		k->hdr.id_off);
	fprintf(f, "\tfield:unsigned short common_size;\toffset:%u;\tsize:2;\tsigned:0;\n",
		k->hdr.size_off);
	fprintf(f, "\tfield:int common_pid;\toffset:%u;\tsize:4;\tsigned:1;\n\n", k->hdr.pid_off);
	off = k->hdr.len;
	for (a = 0; !e->bad_format && a < e->nr_args; a++) {
		char c = conv_of(e->format, a);
		bool sgn = c == 'd' || c == 'i';

		if (c == 's')
			fprintf(f, "\tfield:__data_loc char[] a%d;\toffset:%u;\tsize:4;\tsigned:0;\n",
				a, off);
		else
			fprintf(f, "\tfield:%s a%d;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				e->arg_size[a] == 8 ? (sgn ? "long long" : "unsigned long long") :
				(sgn ? "int" : "unsigned int"), a, off, e->arg_size[a], sgn);
		off += e->arg_size[a];
	}
	fputs("\nprint fmt: \"", f);
	if (e->bad_format) {
		fputs("(bad record)\"", f);
	} else {
		put_escaped(f, e->format);
		fputc('"', f);
		for (a = 0; a < e->nr_args; a++) {
			if (conv_of(e->format, a) == 's')
				fprintf(f, ", __get_str(a%d)", a);
			else
				fprintf(f, ", REC->a%d", a);
		}
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void kt_krec__dat_fix_record(struct kt_buffer *b, uint8_t *rec, uint32_t size, int id_base)
{
	const struct krec *k = b->priv;
	uint32_t id;

	if (!k || k->hdr.id_off + 2 > size)
		return;
	/* trace.dat is written in the kernel's byte order, the record as it is */
	id = kt_krec__u16(&k->hdr, rec, size, k->hdr.id_off) + (uint32_t)id_base;
	rec[k->hdr.id_off + k->hdr.be] = id & 0xff;
	rec[k->hdr.id_off + !k->hdr.be] = (id >> 8) & 0xff;
}
