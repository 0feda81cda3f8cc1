/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the crash extension. Crash's convention is that an extension
 * exports nothing but its constructor and destructor; the functions the
 * files of this extension share are hidden from crash's namespace.
 */
#ifndef KTRACE_CRASH_H
#define KTRACE_CRASH_H

#include <stdio.h>

#pragma GCC visibility push(hidden)

struct kt_target;
struct kt_session;
struct kt_buffer;
struct kt_loss;

/* target.c: libktrace's target on readmem(), symbol_value(), datatype_info() */
void kc_target__init(struct kt_target *t);
/* forget the type answers cached for the crash session */
void kc_target__free(void);

/* session.c: the session of this crash session, opened on first use */
struct kt_session *kc_session(void);
struct kt_session *kc_session_ftrace(void);
void kc_session__close(void);

/* subcommands (argv[0] is the subcommand's name); print to @out */
void kc_cmd_show(int argc, char **argv, FILE *out);
void kc_cmd_dump(int argc, char **argv, FILE *out);
void kc_cmd_list(int argc, char **argv, FILE *out);
void kc_cmd_last_boot_info(int argc, char **argv, FILE *out);
void kc_cmd_events(int argc, char **argv, FILE *out);
void kc_cmd_ticket(int argc, char **argv, FILE *out);
/* relay.c */
void kc_cmd_blktrace(int argc, char **argv, FILE *out);
void kc_cmd_lttng(int argc, char **argv, FILE *out);
/* log.c */
void kc_cmd_dmesg(int argc, char **argv, FILE *out);
void kc_cmd_timeline(int argc, char **argv, FILE *out);

#pragma GCC visibility pop

#endif
