/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event defined in a module, with what a module's event may hold: an
 * enum named by TRACE_DEFINE_ENUM() (the kernel rewrites the print fmt at
 * load), __print_symbolic(), __print_flags() and %pS of the module's code.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktrace_modev

#if !defined(_KTRACE_MODEV_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KTRACE_MODEV_TRACE_H

#include <linux/tracepoint.h>

#ifndef _KTRACE_MODEV_ENUM
#define _KTRACE_MODEV_ENUM
enum ktrace_modev_state { MODEV_IDLE, MODEV_BUSY, MODEV_DONE, MODEV_FAILED };
#endif

TRACE_DEFINE_ENUM(MODEV_IDLE);
TRACE_DEFINE_ENUM(MODEV_BUSY);
TRACE_DEFINE_ENUM(MODEV_DONE);
TRACE_DEFINE_ENUM(MODEV_FAILED);

TRACE_EVENT(ktrace_modev_state,
	TP_PROTO(unsigned int seq, int state, unsigned int flags, unsigned long fn,
		 const char *tag),
	TP_ARGS(seq, state, flags, fn, tag),
	TP_STRUCT__entry(
		__field(unsigned int, seq)
		__field(int, state)
		__field(unsigned int, flags)
		__field(unsigned long, fn)
		__array(char, tag, 8)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->state = state;
		__entry->flags = flags;
		__entry->fn = fn;
		strscpy(__entry->tag, tag, sizeof(__entry->tag));
	),
	TP_printk("seq=%u state=%s flags=%s fn=%pS tag=%s", __entry->seq,
		  __print_symbolic(__entry->state, { MODEV_IDLE, "idle" },
				   { MODEV_BUSY, "busy" }, { MODEV_DONE, "done" },
				   { MODEV_FAILED, "failed" }),
		  __print_flags(__entry->flags, "|", { 1, "A" }, { 2, "B" }, { 4, "C" }),
		  (void *)__entry->fn, __entry->tag)
);

/*
 * The kernel's vsnprintf() rules where they are not the C library's:
 * %#x of 0 is "0x0" (glibc "0"), %#06x of 0 "0x0000" (glibc "000000"),
 * %.0d of 0 "0" (glibc ""), %#X "0X..."; fired with zeros (i = 0),
 * positive and negative values.
 */
TRACE_EVENT(ktrace_modev_num,
	TP_PROTO(unsigned int i),
	TP_ARGS(i),
	TP_STRUCT__entry(
		__field(unsigned int, x)
		__field(unsigned long, lx)
		__field(int, d)
		__field(unsigned char, c)
	),
	TP_fast_assign(
		__entry->x = i * 0x1111u;
		__entry->lx = (unsigned long)i << 36;
		__entry->d = i & 1 ? -(int)i * 7 : (int)i * 1000;
		__entry->c = (unsigned char)(i * 85);
	),
	TP_printk("x=%#x x6=%#06x x10=%#010x X=%#X lx=%#lx o=%#o d0=%.0d u0=%.0u x0=%.0x "
		  "w=%-6d| pd=%+d sd=% d p5=%.5d c=%#hhx",
		  __entry->x, __entry->x, __entry->x, __entry->x, __entry->lx, __entry->x,
		  __entry->d, __entry->x, __entry->x, __entry->d, __entry->d, __entry->d,
		  __entry->d, __entry->c)
);

#endif /* _KTRACE_MODEV_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktrace_modev_trace
#include <trace/define_trace.h>
