/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of ktrace_trigger: one right before each fault, so that the
 * last event of the panicking CPU in the dump names the trigger.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktrace_trigger

#if !defined(_KTRACE_TRIGGER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KTRACE_TRIGGER_TRACE_H

#include <linux/tracepoint.h>

/*
 * A fixed array rather than __string(): __assign_str() lost its second
 * argument in 6.10, and this module builds for 5.10 to 6.12 alike.
 */
TRACE_EVENT(ktrace_trigger_fire,
	TP_PROTO(const char *trigger),
	TP_ARGS(trigger),
	TP_STRUCT__entry(
		__array(char, trigger, 16)
		__field(int, cpu)
	),
	TP_fast_assign(
		strscpy(__entry->trigger, trigger, sizeof(__entry->trigger));
		__entry->cpu = raw_smp_processor_id();
	),
	TP_printk("trigger=%s cpu=%d", __entry->trigger, __entry->cpu)
);

TRACE_EVENT(ktrace_trigger_load,
	TP_PROTO(unsigned long loads),
	TP_ARGS(loads),
	TP_STRUCT__entry(
		__field(unsigned long, loads)
	),
	TP_fast_assign(
		__entry->loads = loads;
	),
	TP_printk("loads=%lu", __entry->loads)
);

#endif /* _KTRACE_TRIGGER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ktrace_trigger_trace
#include <trace/define_trace.h>
