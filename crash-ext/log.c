// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "ktrace dmesg" and "ktrace timeline": the kernel log as libktrace reads
 * it from the printk ring buffer, alone or merged with the trace; the same
 * text as ktrace-extract --dmesg and --timeline (extract/log.c).
 */
#include "defs.h"
#include <ktrace/ktrace.h>
#include "ktrace-crash.h"

/* seconds into ns; false after telling why */
static bool parse_secs(const char *arg, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || end == arg || v < 0) {
		error(INFO, "bad time '%s' (seconds)\n", arg);
		return false;
	}
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return true;
}

static struct kt_log *open_log(struct kt_session **s)
{
	struct kt_log *log;

	*s = kc_session();
	if (!*s)
		return NULL;
	log = kt_session__log(*s);
	if (!log)
		error(INFO, "%s\n", kt_last_error());
	return log;
}

void kc_cmd_dmesg(int argc, char **argv, FILE *out)
{
	struct kt_log_opts lo = { .sz = sizeof(lo), .ts_max = UINT64_MAX };
	struct kt_session *s;
	struct kt_log *log;
	int c;

	while ((c = getopt(argc, argv, "js:u:")) != EOF) {
		switch (c) {
		case 'j':
			lo.json = true;
			break;
		case 's':
			if (!parse_secs(optarg, &lo.ts_min))
				return;
			break;
		case 'u':
			if (!parse_secs(optarg, &lo.ts_max))
				return;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || argv[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	log = open_log(&s);
	if (!log)
		return;
	if (kt_log__write(log, out, &lo))
		error(INFO, "writing the kernel log: %s\n", strerror(errno));
}

void kc_cmd_timeline(int argc, char **argv, FILE *out)
{
	uint64_t cpumask[KT_CPUMASK_WORDS] = { 0 };
	struct kt_iter_opts io = { .sz = sizeof(io), .ts_max = UINT64_MAX };
	struct kt_timeline_opts to = { .sz = sizeof(to), .iter = &io };
	struct kt_loss_mark *m;
	const char *instance = NULL;
	struct kt_session *s;
	struct kt_log *log;
	int c, err;

	while ((c = getopt(argc, argv, "i:c:s:u:")) != EOF) {
		switch (c) {
		case 'i':
			instance = optarg;
			break;
		case 'c':
			if (kt_cpumask__parse(optarg, cpumask)) {
				error(INFO, "bad CPU list '%s'\n", optarg);
				return;
			}
			io.cpumask = cpumask;
			io.cpumask_bits = KT_CPUMASK_WORDS * 64;
			break;
		case 's':
			if (!parse_secs(optarg, &io.ts_min))
				return;
			break;
		case 'u':
			if (!parse_secs(optarg, &io.ts_max))
				return;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs || argv[optind])
		cmd_usage(pc->curcmd, SYNOPSIS);
	log = open_log(&s);
	if (!log)
		return;
	if (instance) {
		to.only = kt_session__find_buffer(s, instance);
		if (!to.only) {
			error(INFO, "no buffer named '%s' (see ktrace list)\n", instance);
			return;
		}
	}
	m = kt_session__loss_mark(s);
	if (!m) {
		error(INFO, "out of memory\n");
		return;
	}
	err = kt_timeline__write(s, out, &to);
	if (err)
		error(INFO, "timeline: %s\n", strerror(-err));
	/* the loss lines ktrace-extract prints, each read counted as the first */
	kt_session__write_trailer(s, m, to.only, KT_TRAILER_TIMELINE, out);
	kt_loss_mark__free(m);
}
