// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ktrace-extract --make-profile: write the layout profile of one kernel.
 *
 * A profile is made at install time, when there is no dump to run the
 * core against, so it holds the answers to the questions the core can
 * ask, enumerated:
 *  - what lib/ asks of types and symbols, asked by lib/ itself
 *    (kt_session__ask_layouts(), lib/questions.c: every recorder's layout
 *    probes run against a target that answers from the DWARF or BTF and
 *    keeps each question, and the questions lib/ asks while walking
 *    memory), absent ones recorded as absent: a probe added to lib/ is in
 *    the next profile made, with no list here to keep beside it;
 *  - init_uts_ns, which kx_profile__check() reads to match the dump;
 *  - every enumerator of the kernel whose name has no lower-case letter:
 *    print formats name enumerators the core resolves (fmt.c), and which
 *    ones depends on the events built into that kernel;
 *  - with a reference dump of the same kernel (--make-profile FILE -x
 *    VMLINUX VMCORE), whatever a complete extraction asked as well
 *    (text of every buffer, trace.dat and every event format).
 * tests/t-profile.sh checks that an extraction through a profile asks
 * nothing it lacks, on every recorder's fixtures, and that every
 * question lib/ writes as a literal has its line in a profile.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <ktrace/ktrace.h>

#include "../dump.h"
#include "profile.h"
#include "profile-private.h"
#include "modules.h"
#include "vmsrc.h"

/*
 * The keys of the questions asked: each is asked once, and its first
 * answer is the one written, as write_profile() kept it (glibc's qsort()
 * is a stable merge sort). A header's enum is met again in every unit
 * that includes it (6.1: 681,792 upper-case enumerators met, 13,657
 * names), and an answer kept each time cost more memory than reading
 * the DWARF. Asking again read nothing: the first question had read
 * what the resolver needed for it.
 */
struct key_set {
	const char **slots;
	size_t mask, count;
};

/* The answers collected, keyed as in profile.c */
struct answers {
	struct kx_pentry *e;
	size_t n, cap;
	struct kx_psource *src;
	struct key_set asked;
	int err;
};

/* the slot of key @name in @set: where it is, or the empty one to put it */
static const char **key_slot(const struct key_set *set, const char *name)
{
	size_t i = kx_profile_fnv1a(KX_FNV_INIT, name, strlen(name)) & set->mask;

	while (set->slots[i] && strcmp(set->slots[i], name))
		i = (i + 1) & set->mask;
	return &set->slots[i];
}

/* 1 when @name is in @set, 0 when not, -ENOMEM */
static int key_set_has(struct key_set *set, const char *name)
{
	if (!set->slots) {
		set->slots = calloc(4096, sizeof(*set->slots));
		if (!set->slots)
			return -ENOMEM;
		set->mask = 4095;
	}
	return !!*key_slot(set, name);
}

/* Add @name, not in @set, kept by the caller while @set is */
static int key_set_add(struct key_set *set, const char *name)
{
	if (2 * (set->count + 1) > set->mask + 1) {
		struct key_set bigger = { .mask = 2 * set->mask + 1 };
		size_t i;

		bigger.slots = calloc(bigger.mask + 1, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		for (i = 0; i <= set->mask; i++)
			if (set->slots[i])
				*key_slot(&bigger, set->slots[i]) = set->slots[i];
		free(set->slots);
		set->slots = bigger.slots;
		set->mask = bigger.mask;
	}
	*key_slot(set, name) = name;
	set->count++;
	return 0;
}

static void key_set_free(struct key_set *set)
{
	free(set->slots);
	*set = (struct key_set){ 0 };
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct kx_pentry *)a)->key,
		      ((const struct kx_pentry *)b)->key);
}

/*
 * Keep the answer to question (@kind, @a, @b): @ret 0 (present, with
 * @v1, @v2, @reloc) or an error (absent), unless it was asked before.
 * 0, or -ENOMEM.
 */
static int keep(struct answers *as, char kind, const char *a, const char *b, int ret,
		uint64_t v1, uint64_t v2, int reloc)
{
	struct kx_pentry *e;
	int err;

	if (as->n == as->cap) {
		size_t nc = as->cap ? 2 * as->cap : 4096;
		struct kx_pentry *ne = realloc(as->e, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		as->e = ne;
		as->cap = nc;
	}
	e = &as->e[as->n];
	memset(e, 0, sizeof(*e));
	err = kx_pentry_key(e, kind, a, kind == 'm' ? b : NULL);
	if (err)
		return err;
	err = key_set_has(&as->asked, e->key);
	if (!err)
		err = key_set_add(&as->asked, e->key);
	if (err) {
		free(e->key);
		return err < 0 ? err : 0;
	}
	/* any error (-ENOENT, -EINVAL through a non-aggregate) is absent */
	e->present = !ret;
	e->v1 = ret ? 0 : v1;
	e->v2 = ret ? 0 : v2;
	e->reloc = !ret && reloc;
	as->n++;
	return 0;
}

/* Ask @src question (@kind, @a, @b) and keep the answer. */
static int ask(struct answers *as, char kind, const char *a, const char *b)
{
	struct kx_psource *src = as->src;
	uint64_t v1 = 0, v2 = 0;
	int64_t v = 0;
	struct kx_pentry key;
	int reloc = 0, ret;

	/* asked before: the source is not asked again (6.1's enumerators) */
	if (kx_pentry_key(&key, kind, a, kind == 'm' ? b : NULL))
		return -ENOMEM;
	ret = key_set_has(&as->asked, key.key);
	free(key.key);
	if (ret)
		return ret < 0 ? ret : 0;
	switch (kind) {
	case 's':
		ret = src->symbol(src->priv, a, &v1, &reloc);
		break;
	case 'm':
		ret = src->member(src->priv, a, b, &v1, &v2);
		break;
	case 'z':
		ret = src->type_size(src->priv, a, &v1);
		break;
	default:
		ret = src->enumerator(src->priv, a, &v);
		v1 = (uint64_t)v;
		break;
	}
	if (ret == -ENOMEM)
		return ret;
	return keep(as, kind, a, b, ret, v1, v2, reloc);
}

static int has_lower(const char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			return 1;
	return 0;
}

static int ask_enum(void *arg, const char *name)
{
	struct answers *as = arg;

	if (has_lower(name))
		return 0;
	return ask(as, 'e', name, NULL);
}

/* --- lib/'s own questions, asked of the source ------------------------- */

/* the source as a target (member() and type_size() are what the modules wrap) */
static int src_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	return -EIO;	/* no dump: what a probe would read is not there */
}

static int src_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct kx_psource *src = priv;
	int reloc;

	return src->symbol(src->priv, name, addr, &reloc);
}

static int src_member(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size)
{
	struct kx_psource *src = priv;
	uint64_t sz;

	return src->member(src->priv, type, member, offset, size ? size : &sz);
}

static int src_type_size(void *priv, const char *type, uint64_t *size)
{
	struct kx_psource *src = priv;

	return src->type_size(src->priv, type, size);
}

/*
 * A target that keeps every question asked of it, with the answers of
 * the target it wraps: lib/'s questions (ask_lib(), wrapping the source
 * and the modules' types) and a reference extraction's (record(),
 * wrapping the dump's target)
 */
struct recorder {
	struct kt_target inner;
	struct answers *as;
};

static int rec_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct recorder *r = priv;

	if (ask(r->as, 's', name, NULL))
		r->as->err = -ENOMEM;
	return r->inner.symbol(r->inner.priv, name, addr);
}

/*
 * Answered by the source, as the profile will answer it: the source has
 * read every unit for the walk over enumerators, while the dump's own
 * resolver, asked a name that none of the units it has read holds (a
 * print format names enumerators of any file), would read them all again.
 */
static int rec_enumerator(void *priv, const char *name, int64_t *value)
{
	struct recorder *r = priv;
	struct kx_psource *src = r->as->src;

	if (ask(r->as, 'e', name, NULL))
		r->as->err = -ENOMEM;
	return src->enumerator(src->priv, name, value);
}

/* lib/'s questions are asked with no dump behind them: a read fails */
static int lib_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	return -EIO;
}

static int lib_member(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size)
{
	struct recorder *r = priv;
	uint64_t off = 0, sz = 0;
	int ret = r->inner.member(r->inner.priv, type, member, &off, &sz);

	if (ret != -ENOMEM && keep(r->as, 'm', type, member, ret, off, sz, 0))
		r->as->err = -ENOMEM;
	*offset = off;
	if (size)
		*size = sz;
	return ret;
}

static int lib_type_size(void *priv, const char *type, uint64_t *size)
{
	struct recorder *r = priv;
	uint64_t sz = 0;
	int ret = r->inner.type_size(r->inner.priv, type, &sz);

	if (ret != -ENOMEM && keep(r->as, 'z', type, NULL, ret, sz, 0, 0))
		r->as->err = -ENOMEM;
	*size = sz;
	return ret;
}

int kt_session__ask_layouts(const struct kt_target *target);

/*
 * Let lib/ ask what it asks (lib/questions.c), through a target that
 * answers from the source (and, with @moddir, from the DWARF of the
 * out-of-tree modules there: the ktrace recorder's, lttng-modules')
 * and keeps every question with its answer; the answers steer the
 * probes as the profile's will at capture time.
 */
static int ask_lib(struct answers *as, const char *moddir, int verbose)
{
	struct recorder r = { .as = as };
	struct kt_target t = { .sz = sizeof(t) };
	struct kx_modtypes *mt = NULL;
	int ret;

	r.inner.sz = sizeof(r.inner);
	r.inner.priv = as->src;
	r.inner.read = src_read;
	r.inner.symbol = src_symbol;
	r.inner.member = src_member;
	r.inner.type_size = src_type_size;
	if (moddir) {
		ret = kx_modtypes__open(moddir, verbose ? stderr : NULL, &mt);
		if (ret || !mt) {
			fprintf(stderr, "ktrace-extract: --module-debuginfo %s: %s\n", moddir,
				ret ? strerror(-ret) : "no .ko with DWARF there");
			return ret ? ret : -ENOENT;
		}
		kx_modtypes__wrap(mt, &r.inner);
	}
	t.priv = &r;
	t.read = lib_read;
	t.symbol = rec_symbol;
	t.member = lib_member;
	t.type_size = lib_type_size;
	t.enumerator = rec_enumerator;
	ret = kt_session__ask_layouts(&t);
	if (!ret)
		ret = as->err;
	/* profile.c's kx_profile__check(): the dump's init_uts_ns against VMCOREINFO */
	if (!ret)
		ret = ask(as, 's', "init_uts_ns", NULL);
	kx_modtypes__close(mt);
	return ret;
}

/* --- recording a reference extraction ---------------------------------- */

static int rec_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct recorder *r = priv;

	return r->inner.read(r->inner.priv, kvaddr, buf, len);
}

static int rec_member(void *priv, const char *type, const char *member,
		      uint64_t *offset, uint64_t *size)
{
	struct recorder *r = priv;

	if (ask(r->as, 'm', type, member))
		r->as->err = -ENOMEM;
	return r->inner.member(r->inner.priv, type, member, offset, size);
}

static int rec_type_size(void *priv, const char *type, uint64_t *size)
{
	struct recorder *r = priv;

	if (ask(r->as, 'z', type, NULL))
		r->as->err = -ENOMEM;
	return r->inner.type_size(r->inner.priv, type, size);
}

int kt_tracedat__write(struct kt_session *s, struct kt_buffer *only, FILE *out);

/*
 * Run everything the extractor can do on @vmcore, with a target answering
 * from @src's DWARF through the dump target, and keep every question.
 */
static int record(struct answers *as, const struct kx_profile_make_opts *o)
{
	struct kx_dump_opts dopts = { .sz = sizeof(dopts) };
	struct kt_text_opts to = { .sz = sizeof(to) };
	struct kt_open_opts sopts = { .sz = sizeof(sopts) };
	struct recorder r = { .as = as };
	struct kt_target t = { .sz = sizeof(t) }, mem;
	struct kt_session *s;
	struct kt_buffer *b;
	struct kx_dump *d;
	enum kx_error kerr;
	char msg[1024];
	FILE *null;
	int i;

	dopts.vmlinux = o->vmlinux;
	d = kx_dump__open(o->vmcore, &dopts, &kerr, msg, sizeof(msg));
	if (!d) {
		fprintf(stderr, "ktrace-extract: %s\n", msg);
		return kerr == KX_ERR_MISMATCH ? KT_EXIT_MISMATCH : KT_EXIT_DUMP;
	}
	/* memory from the dump, the questions asked of the vmlinux's DWARF */
	kx_dump__target(d, &mem);
	kx_vmsrc__target(kx_dump__vmsrc(d), &mem, &r.inner);
	/*
	 * the machine as the dump says it: the kernel's byte order (s390x:
	 * every pointer read little-endian is garbage) and its page size
	 */
	t.flags = r.inner.flags & KT_TARGET_BIG_ENDIAN;
	t.page_size = r.inner.page_size;
	t.priv = &r;
	t.read = rec_read;
	t.symbol = rec_symbol;
	t.member = rec_member;
	t.type_size = rec_type_size;
	t.enumerator = rec_enumerator;
	null = fopen("/dev/null", "we");
	s = null ? kt_session__open(&t, &sopts) : NULL;
	if (!s) {
		fprintf(stderr, "ktrace-extract: %s: %s\n", o->vmcore,
			null ? kt_last_error() : strerror(errno));
		if (null)
			fclose(null);
		kx_dump__close(d);
		return KT_EXIT_NOTRACE;
	}
	to.header = true;
	kt_session__for_each_buffer(s, i, b)
		kt_text__write(s, b, null, &to);
	kt_tracedat__write(s, NULL, null);
	for (i = 0; i < kt_session__event_cnt(s); i++)
		kt_event__format(kt_session__event(s, i));
	kt_session__free(s);
	fclose(null);
	kx_dump__close(d);
	return as->err ? KT_EXIT_FAILURE : KT_EXIT_OK;
}

/* --- writing ------------------------------------------------------------ */

struct out {
	FILE *f;
	uint64_t h;
	size_t lines;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return;
	fputs(buf, o->f);
	o->h = kx_profile_fnv1a(o->h, buf, (size_t)n);
	o->lines++;
}

static void put_entry(struct out *o, const struct kx_pentry *e)
{
	const char *name = e->key + 2, *tab = strchr(name, '\t');

	switch (e->key[0]) {
	case 's':
		if (e->present)
			put(o, "sym\t%s\t%016" PRIx64 "\t%c\n", name, e->v1,
			    e->reloc ? 'r' : 'a');
		else
			put(o, "nosym\t%s\n", name);
		break;
	case 'm':
		if (!tab)
			return;
		if (e->present)
			put(o, "member\t%s\t%" PRIu64 "\t%" PRIu64 "\n", name, e->v1,
			    e->v2);
		else
			put(o, "member\t%s\t-\n", name);
		break;
	case 'z':
		if (e->present)
			put(o, "size\t%s\t%" PRIu64 "\n", name, e->v1);
		else
			put(o, "size\t%s\t-\n", name);
		break;
	case 'e':
		/* absent upper-case enumerators are implied by "enumerators upper" */
		if (e->present)
			put(o, "enum\t%s\t%" PRId64 "\n", name, (int64_t)e->v1);
		else if (has_lower(name))
			put(o, "enum\t%s\t-\n", name);
		break;
	}
}

static int write_profile(const struct kx_profile_make_opts *o,
			 struct answers *as)
{
	struct kx_psource *src = as->src;
	struct out out = { .h = KX_FNV_INIT };
	char *tmp = NULL;
	time_t now = time(NULL);
	struct tm tm;
	size_t i, kept = 0;
	int ret = 0;

	/* sort by kind and name, keep the first answer of each question */
	if (as->n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(as->e, as->n, sizeof(*as->e), cmp_key);
	for (i = 0; i < as->n; i++) {
		if (kept && !strcmp(as->e[kept - 1].key, as->e[i].key)) {
			free(as->e[i].key);
			continue;
		}
		as->e[kept++] = as->e[i];
	}
	as->n = kept;

	if (asprintf(&tmp, "%s.tmp.%d", o->output, (int)getpid()) < 0)
		return -ENOMEM;
	out.f = fopen(tmp, "we");
	if (!out.f) {
		ret = -errno;
		fprintf(stderr, "ktrace-extract: cannot create %s: %s\n", tmp,
			strerror(errno));
		free(tmp);
		return ret;
	}
	gmtime_r(&now, &tm);
	put(&out, "ktrace-profile\t1\n");
	put(&out, "# ktrace layout profile: what libktrace needs to know about one "
		  "kernel build; made by ktrace-extract --make-profile\n");
	put(&out, "release\t%s\n", src->release);
	if (src->build_id[0])
		put(&out, "build-id\t%s\n", src->build_id);
	if (src->arch[0])
		put(&out, "arch\t%s\n", src->arch);
	put(&out, "source\t%s%s%s%s%s\n", src->source,
	    o->module_debuginfo ? ", modules' types from " : "",
	    o->module_debuginfo ? o->module_debuginfo : "", o->vmcore ? ", recorded on " : "",
	    o->vmcore ? o->vmcore : "");
	put(&out, "created\t%04d-%02d-%02dT%02d:%02d:%02dZ\n", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	put(&out, "enumerators\tupper\n");
	/* symbols first, as an administrator reading it would look for them */
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 's')
			put_entry(&out, &as->e[i]);
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 'm' || as->e[i].key[0] == 'z')
			put_entry(&out, &as->e[i]);
	for (i = 0; i < as->n; i++)
		if (as->e[i].key[0] == 'e')
			put_entry(&out, &as->e[i]);
	fprintf(out.f, "end\t%zu\t%016" PRIx64 "\n", out.lines, out.h);
	if (fflush(out.f) || ferror(out.f) || fsync(fileno(out.f)))
		ret = -EIO;
	if (fclose(out.f) && !ret)
		ret = -EIO;
	if (!ret && rename(tmp, o->output))
		ret = -errno;
	if (ret) {
		fprintf(stderr, "ktrace-extract: writing %s: %s\n", o->output,
			strerror(-ret));
		unlink(tmp);
	}
	free(tmp);
	return ret;
}

int kx_profile__make(const struct kx_profile_make_opts *o)
{
	struct kx_psource src;
	struct answers as = { .src = &src };
	char msg[1024] = "";
	size_t i, nenum;
	int ret, status = KT_EXIT_FAILURE;

	if (o->vmlinux)
		ret = kx_psource__dwarf(&src, o->vmlinux, o->verbose, msg, sizeof(msg));
	else if (o->btf)
		ret = kx_psource__btf(&src, o->btf, o->system_map, o->release,
				      o->build_id, msg, sizeof(msg));
	else {
		fprintf(stderr, "ktrace-extract: --make-profile needs --vmlinux "
				"or --btf (with --system-map)\n");
		return KT_EXIT_USAGE;
	}
	if (ret) {
		fprintf(stderr, "ktrace-extract: %s\n",
			msg[0] ? msg : strerror(-ret));
		return ret == -ENOMEM ? KT_EXIT_FAILURE : KT_EXIT_DEBUGINFO;
	}
	ret = ask_lib(&as, o->module_debuginfo, o->verbose);
	if (ret)
		goto out;
	nenum = as.n;
	ret = src.enumerators(src.priv, ask_enum, &as);
	if (ret) {
		fprintf(stderr, "ktrace-extract: %s: listing enumerators: %s\n",
			src.source, strerror(-ret));
		goto out;
	}
	nenum = as.n - nenum;
	if (o->vmcore) {
		if (!o->vmlinux) {
			fprintf(stderr, "ktrace-extract: recording on a dump needs "
					"--vmlinux\n");
			status = KT_EXIT_USAGE;
			goto out;
		}
		status = record(&as, o);
		if (status)
			goto out;
	}
	ret = write_profile(o, &as);
	if (ret)
		goto out;
	if (o->verbose)
		fprintf(stderr,
			"profile: %s: %s, build-id %s, %zu answers (%zu enumerators) "
			"from %s\n",
			o->output, src.release, src.build_id[0] ? src.build_id : "none",
			as.n, nenum, src.source);
	status = KT_EXIT_OK;
out:
	for (i = 0; i < as.n; i++)
		free(as.e[i].key);
	free(as.e);
	key_set_free(&as.asked);
	src.close(src.priv);
	return status;
}
