// SPDX-License-Identifier: GPL-2.0-or-later
/* ktrace-extract: what to do once the session is open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "options.h"


static void list_events(struct kt_session *s, FILE *out)
{
	struct kt_buffer *b;
	int i;

	for (i = 0; i < kt_session__event_cnt(s); i++) {
		const struct kt_event *e = kt_session__event(s, i);
		const char *f = kt_event__format(e);

		if (f)
			fprintf(out, "%s\n", f);
		else
			fprintf(out, "name: %s\nID: %d\n# format unavailable\n\n",
				kt_event__name(e), kt_event__id(e));
	}
	/* then the events of other recorders (krec), as their formats */
	kt_session__for_each_buffer(s, i, b)
		kt_buffer__print_events(b, out, true);
}

static int write_buffer(const struct kx_options *o, struct kt_session *s,
			struct kt_buffer *b, FILE *out, bool first)
{
	struct kt_iter_opts io = { .sz = sizeof(io) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct kt_loss_mark *m = NULL;
	int err;

	io.cpumask = o->cpus_given ? o->cpumask : NULL;
	io.cpumask_bits = KT_CPUMASK_WORDS * 64;
	io.ts_min = o->ts_min;
	io.ts_max = o->ts_max;
	to.iter = &io;
	to.last = o->last;
	to.jobs = o->jobs;
	to.header = !o->no_header;
	if (o->format == KX_JSON)
		return kt_json__write(s, b, out, &to);
	if (to.header) {
		if (!first)
			fputc('\n', out);
		kt_buffer__print_banner(b, out);
		/* the account before the read: the trailer says what it lost */
		m = kt_session__loss_mark(s);
		if (!m)
			return -ENOMEM;
	}
	err = kt_text__write(s, b, out, &to);
	if (m)
		kt_session__write_trailer(s, m, b, 0, out);
	kt_loss_mark__free(m);
	return err;
}

/* no buffer (or not @only) ever had an event written: tracing was never on */
static bool nothing_written(struct kt_session *s, struct kt_buffer *only)
{
	struct kt_cpu_info ci;
	struct kt_buffer *b;
	int i, cpu;

	kt_session__for_each_buffer(s, i, b) {
		struct kt_loss l;

		if (only && b != only)
			continue;
		/* a CPU not read (its ring_buffer_per_cpu filtered out) may have
		 * held anything: that is loss (10), never "tracing was off" */
		kt_buffer__loss(b, &l);
		if (l.cpus_unread)
			return false;
		for (cpu = 0; cpu < kt_buffer__nr_cpus(b); cpu++)
			if (!kt_buffer__cpu_info(b, cpu, &ci) && ci.present && ci.entries)
				return false;
	}
	return true;
}

/* a relay channel --list shows lost something (damaged, overwritten, dropped) */
static bool relay_lost(struct kt_session *s)
{
	struct kt_relay_info ri;
	int i, n = kt_session__relay_cnt(s);

	for (i = 0; i < n; i++) {
		kt_relay_chan__info(kt_session__relay(s, i), &ri);
		if (kt_relay_loss__any(&ri.loss))
			return true;
	}
	return false;
}

/*
 * what --list's walk of LTTng's sessions counted (a session, channel or
 * buffer refused, a list broken), the account's as a write's is: --list
 * says 10 then, as for a relay channel
 */
static bool lttng_lost(struct kt_session *s)
{
	struct kt_losses ls = { .sz = sizeof(ls) };

	return !kt_session__losses(s, NULL, &ls) && kt_lttng_loss__any(&ls.lttng);
}

/* --blktrace DIR, --relay DIR: 0 written, 10 written but something lost, 6 none */
static int write_relay(const struct kx_options *o, struct kt_session *s)
{
	const char *dir = o->blktrace ? o->blktrace : o->relay;
	FILE *log = o->quiet ? NULL : stderr;
	int err;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ktrace-extract: cannot create %s: %s\n", dir, strerror(errno));
		return KT_EXIT_FAILURE;
	}
	err = o->blktrace ? kt_blktrace__write(s, dir, log, NULL) :
			    kt_relay__write_raw(s, dir, log, NULL);
	if (err == -ENOENT) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o->vmcore, kt_last_error());
		return KT_EXIT_NOTRACE;
	}
	if (err) {
		fprintf(stderr, "ktrace-extract: %s\n", kt_last_error());
		return KT_EXIT_FAILURE;
	}
	return kt_session__print_losses(s, NULL, o->blktrace ? KT_LOSSES_BLKTRACE : KT_LOSSES_RELAY,
					log, "ktrace-extract: ") ? KT_EXIT_PARTIAL : KT_EXIT_OK;
}

/* --lttng DIR: 0 written, 10 written but something lost, 6 no session */
static int write_lttng(const struct kx_options *o, struct kt_session *s)
{
	FILE *log = o->quiet ? NULL : stderr;
	int err;

	if (mkdir(o->lttng, 0777) && errno != EEXIST) {
		fprintf(stderr, "ktrace-extract: cannot create %s: %s\n", o->lttng, strerror(errno));
		return KT_EXIT_FAILURE;
	}
	err = kt_lttng__write_ctf(s, o->lttng, log, NULL);
	if (err == -ENOENT) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o->vmcore, kt_last_error());
		return KT_EXIT_NOTRACE;
	}
	if (err) {
		fprintf(stderr, "ktrace-extract: %s\n", kt_last_error());
		return KT_EXIT_FAILURE;
	}
	/* one write in the session: the account's LTTng counts are its */
	return kt_session__print_losses(s, NULL, KT_LOSSES_LTTNG, log, "ktrace-extract: ") ?
		       KT_EXIT_PARTIAL : KT_EXIT_OK;
}

/*
 * An output that is a device or a fifo is opened where it is: written
 * beside it and renamed, a temporary file would replace it (as root,
 * -o /dev/null made /dev/null a regular file of the whole output).
 */
static bool is_special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ||
				    S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

int kx_run(const struct kx_options *o, struct kt_session *s)
{
	struct kt_buffer *b, *only = NULL;
	FILE *out = stdout;
	struct kt_loss l;
	char *tmp = NULL;
	int i, err = 0, status = KT_EXIT_OK;

	if (o->panic_cpu) {
		int cpu = kt_session__panic_cpu(s, NULL);

		if (cpu < 0)
			printf("none\n");
		else
			printf("%d\n", cpu);
		return fflush(stdout) ? KT_EXIT_FAILURE : KT_EXIT_OK;
	}
	if (o->blktrace || o->relay)
		return write_relay(o, s);
	if (o->lttng)
		return write_lttng(o, s);
	if (o->ring) {
		only = kt_session__add_ring(s, o->ring);
		if (!only) {
			fprintf(stderr, "ktrace-extract: %s\n", kt_last_error());
			return KT_EXIT_NOTRACE;
		}
		if (o->list_only || o->instance)
			only = NULL;	/* listed with the others, or -i chooses */
	}
	if (o->instance) {
		only = kt_session__find_buffer(s, o->instance);
		if (!only && kt_session__buffer_unread(s, o->instance)) {
			/* there, but lost (said above): a loss, not a mistake */
			fprintf(stderr, "ktrace-extract: buffer '%s' is in the dump, but could not be "
					"read (said above): nothing of it is written\n", o->instance);
			kt_session__print_losses(s, NULL, KT_LOSSES_TRACE, o->quiet ? NULL : stderr,
						 "ktrace-extract: ");
			return KT_EXIT_PARTIAL;
		}
		if (!only) {
			struct kt_loss l;

			kt_session__loss(s, &l);
			fprintf(stderr, "ktrace-extract: no buffer named '%s'%s; the dump has:",
				o->instance, l.buffers_unread ? " among those read" : "");
			kt_session__for_each_buffer(s, i, b)
				fprintf(stderr, " %s", kt_buffer__name(b));
			fputc('\n', stderr);
			/*
			 * a trace array that could not be read (said above) may
			 * be the one asked for: not a typo, a loss; nothing written
			 */
			if (l.buffers_unread) {
				fprintf(stderr, "ktrace-extract: %llu trace buffer%s could not be "
						"read (damaged, said above): '%s' may be one\n",
					(unsigned long long)l.buffers_unread,
					l.buffers_unread == 1 ? "" : "s", o->instance);
				return KT_EXIT_NOTRACE;
			}
			return KT_EXIT_USAGE;
		}
	}
	if (o->last_boot_info) {
		/* tracefs instances/NAME/last_boot_info (6.12, boot-mapped) */
		char text[128];

		if (!only) {
			fprintf(stderr, "ktrace-extract: --last-boot-info needs -i INSTANCE\n");
			return KT_EXIT_USAGE;
		}
		err = kt_session__last_boot_info(s, only, text, sizeof(text));
		if (err) {
			fprintf(stderr, "ktrace-extract: %s\n", kt_last_error());
			return KT_EXIT_FAILURE;
		}
		fputs(text, stdout);
		return KT_EXIT_OK;
	}
	if (o->output && strcmp(o->output, "-") && !is_special(o->output)) {
		/* write beside the target and rename: no half-written output */
		if (asprintf(&tmp, "%s.tmp.%d", o->output, (int)getpid()) < 0)
			return KT_EXIT_FAILURE;
		out = fopen(tmp, "w");
		if (!out) {
			fprintf(stderr, "ktrace-extract: cannot create %s: %s\n", tmp,
				strerror(errno));
			free(tmp);
			return KT_EXIT_FAILURE;
		}
	} else if (o->output && strcmp(o->output, "-")) {
		/* a device or a fifo (-o /dev/null): written where it is */
		out = fopen(o->output, "w");
		if (!out) {
			fprintf(stderr, "ktrace-extract: cannot open %s: %s\n", o->output,
				strerror(errno));
			return KT_EXIT_FAILURE;
		}
	}
	if (o->dmesg || o->timeline) {
		err = kx_write_log(o, s, only, out, &status);
		if (status == KT_EXIT_NOTRACE) {
			if (out != stdout) {
				fclose(out);
				if (tmp)
					unlink(tmp);
				free(tmp);
			}
			return status;
		}
	} else if (o->list_only) {
		kt_session__print_buffers(s, out);
	} else if (o->events) {
		list_events(s, out);
	} else if (o->format == KX_DAT) {
		struct kt_tracedat_opts dopts = { .sz = sizeof(dopts),
						  .version = o->dat_version,
						  .jobs = o->jobs };

		err = kt_tracedat__write_opts(s, only, out, &dopts);
	} else {
		bool first = true;

		kt_session__for_each_buffer(s, i, b) {
			if (only && b != only)
				continue;
			err = write_buffer(o, s, b, out, first);
			first = false;
			if (err)
				break;
		}
	}
	if (fflush(out) || ferror(out))
		err = err ? err : -EIO;
	if (out != stdout) {
		if (fclose(out) && !err)
			err = -EIO;
		if (tmp && !err && rename(tmp, o->output))
			err = -errno;
		if (tmp && err)
			unlink(tmp);
		free(tmp);
	}
	if (err) {
		fprintf(stderr, "ktrace-extract: writing %s: %s\n",
			o->output ? o->output : "stdout", strerror(-err));
		return KT_EXIT_FAILURE;
	}
	if (o->dmesg || o->timeline)
		return status;
	if (o->list_only || o->events) {
		kt_session__loss(s, &l);
		if (o->list_only && (relay_lost(s) || lttng_lost(s)))
			return KT_EXIT_PARTIAL;
		/* the table printed is not the kernel's whole table */
		if (o->events && l.events_unread) {
			if (!o->quiet)
				fprintf(stderr, "ktrace-extract: event table entries not read (the "
					"ftrace_events list or an entry damaged): %llu\n",
					(unsigned long long)l.events_unread);
			return KT_EXIT_PARTIAL;
		}
		return kt_loss__any(&l) ? KT_EXIT_PARTIAL : status;
	}
	return kx_run_status(o, s, only);
}

/* after the outputs: tracing never on (6), data lost (10), or 0; loss on stderr */
int kx_run_status(const struct kx_options *o, struct kt_session *s, struct kt_buffer *only)
{
	if (nothing_written(s, only)) {
		fprintf(stderr, "ktrace-extract: %s: the trace buffers are empty: nothing was ever "
				"written to them (tracing was off)\n", o->vmcore);
		return KT_EXIT_NOTRACE;
	}
	return kt_session__print_losses(s, NULL, KT_LOSSES_TRACE, o->quiet ? NULL : stderr,
					"ktrace-extract: ") ? KT_EXIT_PARTIAL : KT_EXIT_OK;
}
