// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace_printk() formats (kernel/trace/trace_printk.c): a bprint record
 * carries only the address of its format. The built-in ones are the
 * pointers between __start___trace_bprintk_fmt and __stop___..., plus the
 * tracepoint strings between __start___tracepoint_str and __stop___...;
 * formats of modules are on trace_bprintk_fmt_list.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define KT_MAX_PRINTK	65536

void kt_trace_printk__free(struct kt_session *s)
{
	int i;

	for (i = 0; i < s->nr_printk; i++)
		free(s->printk_fmts[i]);
	free(s->printk_fmts);
	free(s->printk_addrs);
	s->printk_fmts = NULL;
	s->printk_addrs = NULL;
	s->nr_printk = 0;
}

static int add_fmt(struct kt_session *s, uint64_t addr)
{
	char *fmt;
	char **nf;
	uint64_t *na;

	if (!addr || s->nr_printk >= KT_MAX_PRINTK)
		return 0;
	if (kt_read_string(s, addr, KT_MAX_STR, &fmt))
		return 0;
	nf = realloc(s->printk_fmts, (s->nr_printk + 1) * sizeof(*nf));
	if (!nf) {
		free(fmt);
		return -ENOMEM;
	}
	s->printk_fmts = nf;
	na = realloc(s->printk_addrs, (s->nr_printk + 1) * sizeof(*na));
	if (!na) {
		free(fmt);
		return -ENOMEM;
	}
	s->printk_addrs = na;
	s->printk_fmts[s->nr_printk] = fmt;
	s->printk_addrs[s->nr_printk++] = addr;
	return 0;
}

static void load_section(struct kt_session *s, const char *start, const char *stop)
{
	uint64_t a, b, p;

	if (kt_symbol(s, start, &a) || kt_symbol(s, stop, &b) || b < a ||
	    (b - a) / 8 > KT_MAX_PRINTK)
		return;
	for (; a < b; a += 8) {
		if (kt_read_u64(s, a, &p) || add_fmt(s, p))
			return;
	}
}

static void load_printk(struct kt_session *s)
{
	uint64_t head, pos, fmt;
	/* struct trace_bprintk_fmt { struct list_head list; const char *fmt; } */
	uint64_t off = s->l.bpf_fmt.present ? s->l.bpf_fmt.off : 16;
	struct kt_seen seen = { 0 };
	int n = 0;

	s->printk_tried = true;
	load_section(s, "__start___trace_bprintk_fmt", "__stop___trace_bprintk_fmt");
	load_section(s, "__start___tracepoint_str", "__stop___tracepoint_str");
	if (kt_symbol(s, "trace_bprintk_fmt_list", &head) ||
	    kt_read_u64(s, head + s->l.lh_next.off, &pos))
		return;
	/* bounded, and a node met twice means the list loops */
	while (pos != head && ++n < KT_MAX_PRINTK && !kt_seen__add(&seen, pos)) {
		if (kt_read_u64(s, pos + off, &fmt) || add_fmt(s, fmt) ||
		    kt_read_u64(s, pos + s->l.lh_next.off, &pos))
			break;
	}
	kt_seen__free(&seen);
}

int kt_session__printk_fmt(struct kt_session *s, int idx, uint64_t *addr, const char **fmt)
{
	if (!s->printk_tried)
		load_printk(s);
	if (idx < 0 || idx >= s->nr_printk)
		return 0;
	*addr = s->printk_addrs[idx];
	*fmt = s->printk_fmts[idx];
	return 1;
}
