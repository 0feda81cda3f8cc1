// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Saved cmdlines: the kernel's own pid -> comm cache (savedcmd, in
 * kernel/trace/trace.c, kernel/trace/trace_sched_switch.c since 6.8),
 * read once, looked up as trace_find_cmdline() does.
 */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"

#define TASK_COMM_LEN	16
#define NO_CMDLINE_MAP	UINT32_MAX
#define KT_MAX_CMDLINES	(1u << 20)

struct kt_cmdlines {
	uint32_t *pid_to_map;
	uint32_t nr_pid;	/* PID_MAX_DEFAULT + 1 */
	uint32_t *map_to_pid;
	char *comms;		/* cmdline_num * TASK_COMM_LEN */
	uint32_t num;
	bool failed;
	char buf[TASK_COMM_LEN + 1];
};

void kt_cmdlines__free(struct kt_cmdlines *c)
{
	if (!c)
		return;
	free(c->pid_to_map);
	free(c->map_to_pid);
	free(c->comms);
	free(c);
}

static int cmdlines_load(struct kt_session *s, struct kt_cmdlines *c)
{
	const struct kt_layout *l = &s->l;
	uint64_t sym, sc, num, m2p, names;

	if (!l->sc_map_pid_to_cmdline.present || !l->sc_cmdline_num.present ||
	    !l->sc_saved_cmdlines.present || !l->sc_map_cmdline_to_pid.present)
		return kt_err(ENOENT, "struct saved_cmdlines_buffer not in the debuginfo");
	if (kt_symbol(s, "savedcmd", &sym) || kt_read_u64(s, sym, &sc) || !sc)
		return kt_err(ENOENT, "cannot read savedcmd");
	if (kt_read_member(s, sc, &l->sc_cmdline_num, &num) || !num || num > KT_MAX_CMDLINES)
		return kt_err(EBADMSG, "savedcmd at 0x%llx: bad cmdline_num",
			      (unsigned long long)sc);
	c->num = (uint32_t)num;
	c->nr_pid = l->sc_map_pid_to_cmdline.size / 4;
	if (c->nr_pid < 2 || c->nr_pid > (1u << 22))
		return kt_err(EBADMSG, "savedcmd: map_pid_to_cmdline has %u entries", c->nr_pid);
	c->pid_to_map = malloc((size_t)c->nr_pid * 4);
	c->map_to_pid = malloc((size_t)c->num * 4);
	c->comms = malloc((size_t)c->num * TASK_COMM_LEN);
	if (!c->pid_to_map || !c->map_to_pid || !c->comms)
		return -ENOMEM;
	if (kt_read(s, sc + l->sc_map_pid_to_cmdline.off, c->pid_to_map, (size_t)c->nr_pid * 4))
		return kt_err(EFAULT, "savedcmd: cannot read map_pid_to_cmdline");
	if (kt_read_member(s, sc, &l->sc_map_cmdline_to_pid, &m2p) ||
	    kt_read(s, m2p, c->map_to_pid, (size_t)c->num * 4))
		return kt_err(EFAULT, "savedcmd: cannot read map_cmdline_to_pid");
	/* a pointer before 6.8, a flexible array at the end since */
	if (l->sc_saved_cmdlines.size == 8) {
		if (kt_read_member(s, sc, &l->sc_saved_cmdlines, &names))
			return kt_err(EFAULT, "savedcmd: cannot read saved_cmdlines");
	} else {
		names = sc + l->sc_saved_cmdlines.off;
	}
	kt_order(l->be, c->pid_to_map, c->nr_pid, 4);
	kt_order(l->be, c->map_to_pid, c->num, 4);
	if (kt_read(s, names, c->comms, (size_t)c->num * TASK_COMM_LEN))
		return kt_err(EFAULT, "savedcmd: cannot read saved_cmdlines at 0x%llx",
			      (unsigned long long)names);
	return 0;
}

static struct kt_cmdlines *cmdlines(struct kt_session *s)
{
	if (!s->cmdlines) {
		s->cmdlines = calloc(1, sizeof(*s->cmdlines));
		if (!s->cmdlines)
			return NULL;
		if (cmdlines_load(s, s->cmdlines)) {
			kt_warn(s, "no saved cmdlines: %s", kt_last_error());
			s->cmdlines->failed = true;
		}
	}
	return s->cmdlines->failed ? NULL : s->cmdlines;
}

/*
 * trace_find_cmdline(): pid 0 is "<idle>"; a slot counts only if the
 * reverse map still names this pid (since 5.16 the index is the pid
 * masked with PID_MAX_DEFAULT - 1; before, pids above PID_MAX_DEFAULT
 * were never saved, which the reverse check also covers).
 */
const char *kt_session__comm_r(struct kt_session *s, int pid, char *buf)
{
	struct kt_cmdlines *c;
	uint32_t map;

	if (pid == 0)
		return "<idle>";
	if (pid < 0)
		return "<XXX>";
	c = cmdlines(s);
	if (!c)
		return "<...>";
	map = c->pid_to_map[(uint32_t)pid & (c->nr_pid - 2)];
	if (map == NO_CMDLINE_MAP || map >= c->num || c->map_to_pid[map] != (uint32_t)pid)
		return "<...>";
	memcpy(buf, c->comms + (size_t)map * TASK_COMM_LEN, TASK_COMM_LEN);
	buf[TASK_COMM_LEN] = 0;
	return buf;
}

const char *kt_session__comm(struct kt_session *s, int pid)
{
	struct kt_cmdlines *c = pid > 0 ? cmdlines(s) : NULL;

	return kt_session__comm_r(s, pid, c ? c->buf : NULL);
}

int kt_session__cmdline(struct kt_session *s, int idx, int *pid, const char **comm)
{
	struct kt_cmdlines *c = cmdlines(s);

	while (c && idx >= 0 && (uint32_t)idx < c->num) {
		uint32_t p = c->map_to_pid[idx];

		if (p != NO_CMDLINE_MAP && p && p < c->nr_pid &&
		    c->pid_to_map[p & (c->nr_pid - 2)] == (uint32_t)idx) {
			memcpy(c->buf, c->comms + (size_t)idx * TASK_COMM_LEN, TASK_COMM_LEN);
			c->buf[TASK_COMM_LEN] = 0;
			*pid = (int)p;
			*comm = c->buf;
			return 1;
		}
		return 2;	/* empty slot: caller goes on */
	}
	return 0;
}
