// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Nothing ktrace-extract writes may replace a file it reads: -o, the
 * ticket and --make-profile write beside their path and rename over it
 * (lib/sinks/archive.c, lib/sinks/ticket.c, run.c, profile-make.c), so `-o VMCORE
 * VMCORE` would replace the dump with its own trace. The outputs are
 * compared with the inputs by device and inode (a hard link or a symbolic
 * link is the same file) before anything is created.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "guard.h"

void kx_guard__add(struct kx_guard *g, const char *path)
{
	struct stat st;

	if (!path || g->n >= KX_GUARD_MAX || stat(path, &st) || S_ISDIR(st.st_mode))
		return;
	g->in[g->n].dev = st.st_dev;
	g->in[g->n].ino = st.st_ino;
	g->in[g->n].path = path;
	g->n++;
}

/* the input @path is, or NULL */
static const struct kx_guard_in *input_at(const struct kx_guard *g, const char *path)
{
	struct stat st;
	int i;

	if (stat(path, &st))
		return NULL;
	for (i = 0; i < g->n; i++)
		if (g->in[i].dev == st.st_dev && g->in[i].ino == st.st_ino)
			return &g->in[i];
	return NULL;
}

static int refuse(const char *opt, const char *out, const struct kx_guard_in *in)
{
	fprintf(stderr, "ktrace-extract: %s %s: refused: it is the input %s (the same file), "
			"which the output would replace\n", opt, out, in->path);
	return -1;
}

int kx_guard__check(const struct kx_guard *g, const char *opt, const char *out,
		    const char *const *dir_names)
{
	const struct kx_guard_in *in;
	struct stat st;

	if (!out || !strcmp(out, "-"))
		return 0;
	in = input_at(g, out);
	if (in)
		return refuse(opt, out, in);
	if (!dir_names || stat(out, &st) || !S_ISDIR(st.st_mode))
		return 0;
	for (; *dir_names; dir_names++) {
		char *p;

		if (asprintf(&p, "%s/%s", out, *dir_names) < 0)
			return 0;
		in = input_at(g, p);
		if (in) {
			refuse(opt, p, in);
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}
