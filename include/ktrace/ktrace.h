/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libktrace: the ftrace flight recorder of a crashed kernel, read back.
 *
 * Naming follows libbpf: functions on a handle are object__verb, free
 * functions kt_verb. Int-returning calls give 0 or a negative errno;
 * pointer-returning calls give NULL and set errno. Handles are opaque.
 * Everything hangs off a session; sessions share nothing, so several
 * dumps can be open at once.
 */
#ifndef KTRACE_KTRACE_H
#define KTRACE_KTRACE_H

/*
 * The API in parts, by concern: session.h (open, losses, identity),
 * ftrace.h (buffers, records, events), log.h (the kernel log),
 * recorders.h (relay, LTTng), sinks.h (text, JSON, trace.dat, the ticket,
 * the timeline); the target a front end supplies is target.h.
 */
#include <ktrace/session.h>
#include <ktrace/ftrace.h>
#include <ktrace/log.h>
#include <ktrace/recorders.h>
#include <ktrace/sinks.h>

#endif /* KTRACE_KTRACE_H */
