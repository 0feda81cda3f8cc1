// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One resolver for the standalone extractor's types and symbols. The
 * sources are tried in one order, the first that answers fills the
 * target; the dump is the memory behind every one of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <ktrace/ktrace.h>
#include "../dump.h"
#include "../options.h"
#include "indump.h"
#include "modules.h"
#include "profile.h"
#include "resolve.h"
#include "vmsrc.h"

struct kx_resolver {
	enum kx_types_from from;
	struct kx_dump *dump;		/* memory, for every source */
	struct kx_profile *profile;	/* KX_TYPES_PROFILE */
	struct kx_indump *indump;	/* KX_TYPES_DUMP */
	const char *system_map;		/* KX_TYPES_DUMP: --system-map, or NULL */
	struct kx_modtypes *modtypes;	/* the layer of modules' DWARF, or NULL */
	const char *module_debuginfo;	/* --module-debuginfo */
};

/*
 * The order of the checks, and so of the first message when several
 * things are wrong, is kept as it was when each source opened the dump
 * itself:
 *
 * 0. --profile naming a file: the profile is read first (unreadable,
 *    not a profile: exit 4, whatever the dump);
 * 1. the dump's memory (dump.c's first stage: the file, its format,
 *    VMCOREINFO): exit 3;
 * 2. the vmlinux, given or found, and whether it is the dump's (not with
 *    a profile, --from-dump or --system-map): exit 4 or 5; none found,
 *    the dump is kept alone for its own sources;
 * 3. the architecture (the profile's, else the dump's or the vmlinux's)
 *    and address translation, the dump's size: exit 3;
 * then the sources in order: the profile (a directory: its
 * <release>.profile, read only now, as the release is the dump's), and
 * whether it is the dump's kernel (exit 5); the vmlinux's DWARF; the
 * dump's BTF and kallsyms or a System.map (exit 4 or 5).
 */
static int open_dump(struct kx_resolver *r, const struct kx_options *o)
{
	struct kx_dump_opts dopts = { .sz = sizeof(dopts) };
	enum kx_error kerr;
	char msg[1024];

	dopts.force = o->force;
	dopts.verbose = o->verbose;
	if (o->profile) {
		/* the dump alone; the architecture from a profile, else from the dump */
		dopts.no_vmlinux = 1;
		dopts.arch = r->profile ? kx_profile__arch(r->profile) : NULL;
	} else {
		dopts.vmlinux = o->vmlinux;
		dopts.no_vmlinux = o->from_dump || o->system_map;
		dopts.alone_if_no_vmlinux = 1;
	}
	r->dump = kx_dump__open(o->vmcore, &dopts, &kerr, msg, sizeof(msg));
	if (r->dump)
		return -1;
	fprintf(stderr, "ktrace-extract: %s\n", msg);
	return kerr == KX_ERR_MISMATCH ? KT_EXIT_MISMATCH :
	       kerr == KX_ERR_DEBUGINFO ? KT_EXIT_DEBUGINFO :
	       kerr == KX_ERR_NOMEM ? KT_EXIT_FAILURE : KT_EXIT_DUMP;
}

/*
 * Each source returns -1 when it answered (the target filled in), 0 when
 * it is not the one (the next is tried), or the run's exit status when it
 * was the one asked for and failed (said on stderr).
 */

/* --profile: asked for by name, so nothing else is tried */
static int from_profile(struct kx_resolver *r, const struct kx_options *o, struct kt_target *t)
{
	int ret;

	if (!o->profile)
		return 0;
	r->from = KX_TYPES_PROFILE;
	if (!r->profile) {
		ret = kx_profile__open(o->profile, kx_dump__osrelease(r->dump), &r->profile);
		if (ret >= 0)
			return ret;
	}
	return kx_profile__attach(r->profile, r->dump, o->force, o->verbose, t);
}

/*
 * The vmlinux's DWARF, given (-x) or found beside the release: the most
 * complete source (every type, the whole .symtab, module symbols when
 * the dump's kallsyms cannot be decoded). A vmlinux given that does not
 * match, or has no DWARF, failed the dump's opening (--force takes a
 * mismatch); none found, or --from-dump / --system-map: the dump is open
 * alone and the reason kept for the dump's own sources to say.
 */
static int from_dwarf(struct kx_resolver *r, const struct kx_options *o, struct kt_target *t,
		      struct kt_open_opts *so)
{
	struct kx_vmsrc *v = kx_dump__vmsrc(r->dump);
	struct kt_target mem;

	if (!v)
		return 0;
	r->from = KX_TYPES_DWARF;
	/* memory from the dump, types and symbols from the vmlinux */
	kx_dump__target(r->dump, &mem);
	kx_vmsrc__target(v, &mem, t);
	so->kallsyms_else = kx_vmsrc__kallsyms_else;
	so->kallsyms_else_ctx = v;
	return -1;
}

/*
 * Last, the dump itself: its BTF (only the types BTF keeps) with its
 * kallsyms (6.0+ lists them in VMCOREINFO) or a System.map; what a
 * capture kernel without debuginfo still has.
 */
static int from_dump(struct kx_resolver *r, const struct kx_options *o, struct kt_target *t,
		     struct kt_open_opts *so)
{
	struct kx_indump_opts xopts = { .sz = sizeof(xopts) };
	const char *why = kx_dump__why_alone(r->dump);
	int ret;

	r->from = KX_TYPES_DUMP;
	if (why && o->verbose)
		fprintf(stderr, "ktrace-extract: %s\n", why);
	xopts.system_map = o->system_map;
	xopts.force = o->force;
	xopts.verbose = o->verbose;
	ret = kx_indump__attach(r->dump, &xopts, &r->indump, t);
	if (ret >= 0)
		return ret;
	r->system_map = o->system_map;
	so->kallsyms = kx_indump__kallsyms(r->indump);
	if (why || o->verbose)
		fprintf(stderr, "ktrace-extract: %s%s: %s\n", why ? "no vmlinux or profile for " : "",
			why ? kx_dump__osrelease(r->dump) : "dump alone",
			kx_indump__describe(r->indump));
	return -1;
}

/* --profile names a directory of <release>.profile files */
static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int kx_resolver__open(const struct kx_options *o, struct kx_resolver **out, struct kt_target *t,
		      struct kt_open_opts *so)
{
	struct kx_resolver *r = calloc(1, sizeof(*r));
	int ret = 0;

	if (!r)
		return KT_EXIT_FAILURE;
	/* a profile file is read before the dump (0. above) */
	if (o->profile && !is_dir(o->profile))
		ret = kx_profile__open(o->profile, NULL, &r->profile);
	/* the dump, once: the memory every source reads (1. to 3.) */
	if (ret <= 0)
		ret = open_dump(r, o);
	/*
	 * A profile named on the command line is the user's choice (the
	 * kdump hooks give one where no debuginfo is installed); then the
	 * most complete source, DWARF; the dump's own BTF and kallsyms last,
	 * as what is left when nothing else is at hand.
	 */
	if (ret < 0)
		ret = from_profile(r, o, t);
	if (!ret)
		ret = from_dwarf(r, o, t, so);
	if (!ret)
		ret = from_dump(r, o, t, so);
	if (ret >= 0) {
		kx_resolver__close(r);
		return ret;
	}
	/* whichever answered: a type it lacks is looked up in the modules' DWARF */
	r->modtypes = kx_modtypes__attach(o->module_debuginfo, kx_dump__vmlinux(r->dump),
					  o->verbose ? stderr : NULL, t);
	if (r->modtypes)
		r->module_debuginfo = o->module_debuginfo;
	*out = r;
	return -1;
}

void kx_resolver__close(struct kx_resolver *r)
{
	if (!r)
		return;
	/* the sources before the dump they read */
	kx_indump__free(r->indump);
	kx_dump__close(r->dump);
	kx_profile__free(r->profile);
	kx_modtypes__close(r->modtypes);
	free(r);
}

enum kx_types_from kx_resolver__from(const struct kx_resolver *r)
{
	return r->from;
}

struct kx_dump *kx_resolver__dump(const struct kx_resolver *r)
{
	return r->dump;
}

const char *kx_resolver__vmlinux(const struct kx_resolver *r)
{
	return r->from == KX_TYPES_DWARF ? kx_dump__vmlinux(r->dump) : NULL;
}

const char *kx_resolver__profile(const struct kx_resolver *r)
{
	return r->profile ? kx_profile__path(r->profile) : NULL;
}

struct kx_indump *kx_resolver__indump(const struct kx_resolver *r)
{
	return r->indump;
}

const char *kx_resolver__system_map(const struct kx_resolver *r)
{
	return r->system_map;
}

const char *kx_resolver__module_debuginfo(const struct kx_resolver *r)
{
	return r->from == KX_TYPES_DWARF ? r->module_debuginfo : NULL;
}

void kx_resolver__report_failed_open(struct kx_resolver *r)
{
	if (r->indump)
		kx_indump__report(r->indump, stderr);
	kx_dump__report(kx_resolver__dump(r), stderr);
}

int kx_resolver__report(struct kx_resolver *r)
{
	unsigned int n;

	kx_dump__report(kx_resolver__dump(r), stderr);
	if (r->indump)
		return kx_indump__report(r->indump, stderr) ? 1 : 0;
	/*
	 * a profile made by an older ktrace, without answers to what this one
	 * asks (a member renamed in a newer kernel, a new reader): what hangs
	 * on them was taken as absent, which may be a buffer or an option
	 * not read; said above question by question, counted here
	 */
	n = r->profile ? kx_profile__unknown(r->profile) : 0;
	if (!n)
		return 0;
	fprintf(stderr, "ktrace-extract: the profile had no answer to %u question%s of this "
			"ktrace: what depends on %s may be missing (make the profile again)\n",
		n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
	return 1;
}
