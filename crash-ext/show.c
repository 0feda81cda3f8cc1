// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ktrace subcommands. "show" prints exactly what ktrace-extract prints
 * for the same dump and options (extract/run.c: write_buffer()): the
 * buffer line, the trace as /sys/kernel/tracing/trace shows it, and the
 * loss lines, for every buffer or one.
 */
#include "defs.h"
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

/* The buffer called @name, or NULL (and the names there are) if none. */
static struct kt_buffer *find_buffer(struct kt_session *s, const char *name)
{
	struct kt_buffer *b = kt_session__find_buffer(s, name);
	char names[BUFSIZE];
	size_t n = 0;
	int i;

	if (b)
		return b;
	if (kt_session__buffer_unread(s, name)) {
		error(INFO, "buffer '%s' is in the dump, but could not be read (said above): "
			    "nothing of it is shown\n", name);
		return NULL;
	}
	names[0] = '\0';
	kt_session__for_each_buffer(s, i, b)
		if (n < sizeof(names))
			n += snprintf(names + n, sizeof(names) - n, " %s", kt_buffer__name(b));
	{
		struct kt_loss l;

		kt_session__loss(s, &l);
		error(INFO, "no buffer named '%s'%s; the dump has:%s\n", name,
		      l.buffers_unread ? " among those read" : "", names);
		if (l.buffers_unread)
			error(INFO, "%llu trace buffer%s could not be read (damaged): '%s' may be one\n",
			      (unsigned long long)l.buffers_unread, l.buffers_unread == 1 ? "" : "s",
			      name);
	}
	return NULL;
}

static int show_buffer(struct kt_session *s, struct kt_buffer *b, FILE *out,
		       const struct kt_text_opts *to, bool first)
{
	struct kt_loss_mark *m;
	int err;

	if (!first)
		fputc('\n', out);
	kt_buffer__print_banner(b, out);
	/* the trailer of this read alone, as if it were the session's first */
	m = kt_session__loss_mark(s);
	if (!m)
		return -ENOMEM;
	err = kt_text__write(s, b, out, to);
	kt_session__write_trailer(s, m, b, 0, out);
	kt_loss_mark__free(m);
	return err;
}

void kc_cmd_show(int argc, char **argv, FILE *out)
{
	uint64_t cpumask[KT_CPUMASK_WORDS] = { 0 };
	struct kt_iter_opts io = { .sz = sizeof(io) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct kt_buffer *b, *only = NULL;
	const char *instance = NULL, *ring = NULL;
	struct kt_session *s;
	bool first = true;
	char *end;
	int c, i, err;

	io.ts_max = UINT64_MAX;
	while ((c = getopt(argc, argv, "i:r:c:n:s:u:")) != EOF) {
		switch (c) {
		case 's':
		case 'u': {
			double v;

			errno = 0;
			v = strtod(optarg, &end);
			if (errno || *end || end == optarg || v < 0) {
				error(INFO, "bad time '%s' (seconds)\n", optarg);
				return;
			}
			if (c == 's')
				io.ts_min = (uint64_t)(v * 1e9 + 0.5);
			else
				io.ts_max = (uint64_t)(v * 1e9 + 0.5);
			break;
		}
		case 'i':
			instance = optarg;
			break;
		case 'r':
			ring = optarg;
			break;
		case 'c':
			if (kt_cpumask__parse(optarg, cpumask)) {
				error(INFO, "bad CPU list '%s'\n", optarg);
				return;
			}
			io.cpumask = cpumask;
			io.cpumask_bits = KT_CPUMASK_WORDS * 64;
			break;
		case 'n':
			errno = 0;
			to.last = strtoull(optarg, &end, 10);
			if (errno || *end || !to.last) {
				error(INFO, "bad count '%s'\n", optarg);
				return;
			}
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || argv[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session_ftrace();
	if (!s)
		return;
	/* --ring in ktrace-extract: the ring joins the session's buffers */
	if (ring && !(only = kt_session__add_ring(s, ring))) {
		error(INFO, "%s\n", kt_last_error());
		return;
	}
	if (instance && !(only = find_buffer(s, instance)))
		return;
	to.iter = &io;
	to.header = true;
	kt_session__for_each_buffer(s, i, b) {
		if (only && b != only)
			continue;
		err = show_buffer(s, b, out, &to, first);
		first = false;
		if (err) {
			error(INFO, "buffer %s: %s\n", kt_buffer__name(b), kt_last_error());
			return;
		}
	}
}

/* Write beside @path and rename: no half-written file under its name. */
static void write_file(struct kt_session *s, struct kt_buffer *only, const char *path,
		       bool json, FILE *out)
{
	struct kt_iter_opts io = { .sz = sizeof(io), .ts_max = UINT64_MAX };
	struct kt_text_opts to = { .sz = sizeof(to), .header = true, .iter = &io };
	struct kt_buffer *b;
	char tmp[PATH_MAX];
	struct stat st;
	int i, err = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		error(INFO, "%s: file name too long\n", path);
		return;
	}
	f = fopen(tmp, "w");
	if (!f) {
		error(INFO, "cannot create %s: %s\n", tmp, strerror(errno));
		return;
	}
	if (!json) {
		err = kt_tracedat__write(s, only, f);
	} else {
		kt_session__for_each_buffer(s, i, b) {
			if (only && b != only)
				continue;
			err = kt_json__write(s, b, f, &to);
			if (err)
				break;
		}
	}
	if (err)
		error(INFO, "%s: %s\n", path, kt_last_error());
	if ((fflush(f) || ferror(f)) && !err) {
		err = -errno;
		error(INFO, "writing %s: %s\n", tmp, strerror(errno));
	}
	if (fclose(f) && !err) {
		err = -errno;
		error(INFO, "writing %s: %s\n", tmp, strerror(errno));
	}
	if (!err && rename(tmp, path)) {
		err = -errno;
		error(INFO, "cannot rename %s to %s: %s\n", tmp, path, strerror(errno));
	}
	if (err) {
		unlink(tmp);
		return;
	}
	fprintf(out, "%s: %lld bytes of %s\n", path,
		stat(path, &st) ? -1LL : (long long)st.st_size, json ? "JSON" : "trace.dat");
}

void kc_cmd_dump(int argc, char **argv, FILE *out)
{
	const char *instance = NULL, *dat = NULL, *json = NULL;
	struct kt_buffer *only = NULL;
	struct kt_session *s;
	int c;

	while ((c = getopt(argc, argv, "i:t:j:")) != EOF) {
		switch (c) {
		case 'i':
			instance = optarg;
			break;
		case 't':
			dat = optarg;
			break;
		case 'j':
			json = optarg;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || argv[optind] || (!dat && !json)) {
		if (!argerrs && !argv[optind])
			error(INFO, "dump needs -t FILE or -j FILE\n");
		cmd_usage(pc->curcmd, SYNOPSIS);
	}
	s = kc_session_ftrace();
	if (!s)
		return;
	if (instance && !(only = find_buffer(s, instance)))
		return;
	if (dat)
		write_file(s, only, dat, false, out);
	if (json)
		write_file(s, only, json, true, out);
}

void kc_cmd_list(int argc, char **argv, FILE *out)
{
	struct kt_session *s;

	if (argv[1])
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session_ftrace();
	if (!s)
		return;
	kt_session__print_buffers(s, out);
}

/* "last_boot_info -i NAME": the boot-mapped instance's file (6.12) */
void kc_cmd_last_boot_info(int argc, char **argv, FILE *out)
{
	struct kt_session *s;
	struct kt_buffer *b;
	const char *name = NULL;
	char text[128];
	int c;

	while ((c = getopt(argc, argv, "i:")) != EOF) {
		switch (c) {
		case 'i':
			name = optarg;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || !name || argv[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session_ftrace();
	if (!s)
		return;
	b = kt_session__find_buffer(s, name);
	if (!b) {
		error(INFO, "no buffer named '%s'\n", name);
		return;
	}
	if (kt_session__last_boot_info(s, b, text, sizeof(text))) {
		error(INFO, "%s\n", kt_last_error());
		return;
	}
	fputs(text, out);
}

void kc_cmd_events(int argc, char **argv, FILE *out)
{
	struct kt_buffer *b;
	struct kt_session *s;
	bool verbose = false;
	int c, i;

	while ((c = getopt(argc, argv, "v")) != EOF) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || argv[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	s = kc_session_ftrace();
	if (!s)
		return;
	if (!verbose)
		fprintf(out, "%5s  %s\n", "ID", "SYSTEM:NAME");
	for (i = 0; i < kt_session__event_cnt(s); i++) {
		const struct kt_event *e = kt_session__event(s, i);

		/* -v: the text ktrace-extract --events prints */
		if (verbose)
			fprintf(out, "%s\n", kt_event__format(e));
		else
			fprintf(out, "%5d  %s:%s\n", kt_event__id(e), kt_event__system(e),
				kt_event__name(e));
	}
	kt_session__for_each_buffer(s, i, b)
		kt_buffer__print_events(b, out, verbose);
}
