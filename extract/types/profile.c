// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A layout profile as a source of the target's answers (see profile.h):
 * reading and verifying the file, checking it belongs to the dump, and
 * the target callbacks. Memory still comes from the dump.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <ktrace/ktrace.h>

#include "../msg.h"
#include "profile.h"
#include "profile-private.h"

struct kx_profile {
	char *path;
	char release[65];
	char build_id[129];
	char arch[32];
	int upper_enums_complete;	/* "enumerators upper" */
	struct kx_pentry *e;		/* sorted by key */
	size_t n;

	/* at capture time */
	struct kx_dump *dump;
	uint64_t kaslr_offset;
	FILE *log;
	unsigned int unknown;
	char **reported;
	size_t nreported;
};


uint64_t kx_profile_fnv1a(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct kx_pentry *)a)->key,
		      ((const struct kx_pentry *)b)->key);
}

/* split @line at tabs into at most @max fields; returns the count */
static int split(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return line ? max + 1 : n;
}

static int parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || *end ? -EINVAL : 0;
}

static int parse_i64(const char *s, int64_t *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* One body line into @e; -EINVAL when malformed. */
static int parse_entry(char *line, struct kx_pentry *e)
{
	char *f[6];
	int n = split(line, f, 5);

	memset(e, 0, sizeof(*e));
	if (!strcmp(f[0], "sym") && n == 4) {
		if (parse_u64(f[2], 16, &e->v1) ||
		    (strcmp(f[3], "r") && strcmp(f[3], "a")))
			return -EINVAL;
		e->present = 1;
		e->reloc = f[3][0] == 'r';
		return kx_pentry_key(e, 's', f[1], NULL);
	}
	if (!strcmp(f[0], "nosym") && n == 2)
		return kx_pentry_key(e, 's', f[1], NULL);
	if (!strcmp(f[0], "member") && n == 4 && !strcmp(f[3], "-"))
		return kx_pentry_key(e, 'm', f[1], f[2]);
	if (!strcmp(f[0], "member") && n == 5) {
		if (parse_u64(f[3], 10, &e->v1) || parse_u64(f[4], 10, &e->v2))
			return -EINVAL;
		e->present = 1;
		return kx_pentry_key(e, 'm', f[1], f[2]);
	}
	if (!strcmp(f[0], "size") && n == 3) {
		if (strcmp(f[2], "-")) {
			if (parse_u64(f[2], 10, &e->v1))
				return -EINVAL;
			e->present = 1;
		}
		return kx_pentry_key(e, 'z', f[1], NULL);
	}
	if (!strcmp(f[0], "enum") && n == 3) {
		int64_t v;

		if (strcmp(f[2], "-")) {
			if (parse_i64(f[2], &v))
				return -EINVAL;
			e->v1 = (uint64_t)v;
			e->present = 1;
		}
		return kx_pentry_key(e, 'e', f[1], NULL);
	}
	return -EINVAL;
}

static int parse_header(struct kx_profile *p, char *line)
{
	char *f[3];
	int n = split(line, f, 2);

	if (n != 2)
		return -EINVAL;
	if (!strcmp(f[0], "release"))
		snprintf(p->release, sizeof(p->release), "%s", f[1]);
	else if (!strcmp(f[0], "build-id"))
		snprintf(p->build_id, sizeof(p->build_id), "%s", f[1]);
	else if (!strcmp(f[0], "arch"))
		snprintf(p->arch, sizeof(p->arch), "%s", f[1]);
	else if (!strcmp(f[0], "enumerators"))
		p->upper_enums_complete = !strcmp(f[1], "upper");
	else if (strcmp(f[0], "source") && strcmp(f[0], "created"))
		return -EINVAL;
	return 0;
}

int kx_profile__load(const char *path, struct kx_profile **out, char *msg,
		     size_t msglen)
{
	struct kx_profile *p;
	FILE *f;
	char *line = NULL;
	size_t cap = 0, lineno = 0, ecap = 0;
	uint64_t h = KX_FNV_INIT, want_h, want_n;
	ssize_t len;
	int ret = -EINVAL, ended = 0;

	*out = NULL;
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		kx_set_msg(msg, msglen, "profile %s: %s", path, strerror(errno));
		return ret;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path))) {
		ret = -ENOMEM;
		kx_set_msg(msg, msglen, "profile %s: out of memory", path);
		goto out;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (ended) {
			kx_set_msg(msg, msglen, "profile %s: line %zu: text after the end line",
				path, lineno);
			goto out;
		}
		if (lineno == 1 && strcmp(line, "ktrace-profile\t1\n")) {
			kx_set_msg(msg, msglen,
				"profile %s: not a ktrace layout profile of version 1",
				path);
			goto out;
		}
		if ((size_t)len != strlen(line) || line[len - 1] != '\n') {
			kx_set_msg(msg, msglen, "profile %s: line %zu: %s", path, lineno,
				line[len - 1] != '\n' ? "truncated (no end line)" :
							"NUL byte");
			goto out;
		}
		if (!strncmp(line, "end\t", 4)) {
			char *fl[3];

			line[len - 1] = '\0';
			if (split(line, fl, 3) != 3 || parse_u64(fl[1], 10, &want_n) ||
			    parse_u64(fl[2], 16, &want_h)) {
				kx_set_msg(msg, msglen, "profile %s: line %zu: malformed end line",
					path, lineno);
				goto out;
			}
			if (want_n != lineno - 1 || want_h != h) {
				kx_set_msg(msg, msglen,
					"profile %s: %s: the file is corrupted or was "
					"edited; make it again with ktrace-extract "
					"--make-profile", path,
					want_n != lineno - 1 ? "line count mismatch" :
							       "checksum mismatch");
				goto out;
			}
			ended = 1;
			continue;
		}
		h = kx_profile_fnv1a(h, line, (size_t)len);
		line[len - 1] = '\0';
		if (lineno == 1)
			continue;
		if (line[0] == '#')
			continue;
		if (!strncmp(line, "sym\t", 4) || !strncmp(line, "nosym\t", 6) ||
		    !strncmp(line, "member\t", 7) || !strncmp(line, "size\t", 5) ||
		    !strncmp(line, "enum\t", 5)) {
			if (p->n == ecap) {
				size_t nc = ecap ? 2 * ecap : 1024;
				struct kx_pentry *ne = realloc(p->e, nc * sizeof(*ne));

				if (!ne) {
					ret = -ENOMEM;
					kx_set_msg(msg, msglen, "profile %s: out of memory", path);
					goto out;
				}
				p->e = ne;
				ecap = nc;
			}
			ret = parse_entry(line, &p->e[p->n]);
			if (ret) {
				kx_set_msg(msg, msglen, "profile %s: line %zu: %s", path, lineno,
					ret == -ENOMEM ? "out of memory" : "malformed answer");
				goto out;
			}
			p->n++;
		} else if (parse_header(p, line)) {
			kx_set_msg(msg, msglen, "profile %s: line %zu: unknown line '%.40s'",
				path, lineno, line);
			ret = -EINVAL;
			goto out;
		}
	}
	if (ferror(f)) {
		ret = -EIO;
		kx_set_msg(msg, msglen, "profile %s: read: %s", path, strerror(errno));
		goto out;
	}
	if (!ended) {
		kx_set_msg(msg, msglen, "profile %s: %s", path,
			lineno ? "truncated (no end line)" : "empty file");
		goto out;
	}
	if (!p->release[0]) {
		kx_set_msg(msg, msglen, "profile %s: no release line", path);
		goto out;
	}
	if (p->n)	/* qsort(NULL, 0, ...) is undefined: a profile of no entries */
		qsort(p->e, p->n, sizeof(*p->e), cmp_entry);
	*out = p;
	p = NULL;
	ret = 0;
out:
	if (p && !ret)
		ret = -EINVAL;	/* a failure above that only set the message */
	free(line);
	fclose(f);
	kx_profile__free(p);
	return ret;
}

void kx_profile__free(struct kx_profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->e[i].key);
	for (i = 0; i < p->nreported; i++)
		free(p->reported[i]);
	free(p->reported);
	free(p->e);
	free(p->path);
	free(p);
}

const char *kx_profile__path(const struct kx_profile *p)
{
	return p->path;
}

const char *kx_profile__release(const struct kx_profile *p)
{
	return p->release;
}

const char *kx_profile__build_id(const struct kx_profile *p)
{
	return p->build_id;
}

const char *kx_profile__arch(const struct kx_profile *p)
{
	return p->arch;
}

unsigned int kx_profile__unknown(const struct kx_profile *p)
{
	return p->unknown;
}

static const struct kx_pentry *find(const struct kx_profile *p, char kind,
				    const char *a, const char *b)
{
	struct kx_pentry key = { 0 };
	const struct kx_pentry *e;

	if (kx_pentry_key(&key, kind, a, b))
		return NULL;
	e = bsearch(&key, p->e, p->n, sizeof(*p->e), cmp_entry);
	free(key.key);
	return e;
}

/* A question without an answer line: report it once, answer -ENOENT. */
static int unknown(struct kx_profile *p, const char *what, const char *a,
		   const char *b)
{
	char *k = NULL, **nr;
	size_t i;

	if (asprintf(&k, "%s %s%s%s", what, a, b ? "." : "", b ? b : "") < 0)
		return -ENOENT;
	for (i = 0; i < p->nreported; i++) {
		if (!strcmp(p->reported[i], k)) {
			free(k);
			return -ENOENT;
		}
	}
	p->unknown++;
	nr = realloc(p->reported, (p->nreported + 1) * sizeof(*nr));
	if (!nr) {
		free(k);
		return -ENOENT;
	}
	p->reported = nr;
	p->reported[p->nreported++] = k;
	if (p->log)
		fprintf(p->log,
			"warning: profile %s has no answer for %s (made by an older "
			"ktrace? make it again); taken as absent\n",
			p->path, k);
	return -ENOENT;
}

static int has_lower(const char *s)
{
	for (; *s; s++)
		if (islower((unsigned char)*s))
			return 1;
	return 0;
}

/*
 * vmcoreinfo's SYMBOL(name) lines: run-time addresses, KASLR applied.
 * Since v6.0 they include the kallsyms tables, which /proc/kallsyms does
 * not list (scripts/kallsyms.c leaves kallsyms_* out): a profile made
 * from /proc/kallsyms has them as absent.
 */
static int vmcoreinfo_symbol(struct kx_profile *p, const char *name,
			     uint64_t *addr)
{
	return p->dump ? kx_dump__vmcoreinfo_symbol(p->dump, name, addr) : -ENOENT;
}

static int target_symbol(void *priv, const char *name, uint64_t *addr)
{
	struct kx_profile *p = priv;
	const struct kx_pentry *e = find(p, 's', name, NULL);

	if (!e || !e->present) {
		if (!vmcoreinfo_symbol(p, name, addr))
			return 0;
		return e ? -ENOENT : unknown(p, "symbol", name, NULL);
	}
	*addr = e->v1 + (e->reloc ? p->kaslr_offset : 0);
	return 0;
}

static int target_member(void *priv, const char *type, const char *member,
			 uint64_t *offset, uint64_t *size)
{
	struct kx_profile *p = priv;
	const struct kx_pentry *e = find(p, 'm', type, member);

	if (!e)
		return unknown(p, "member", type, member);
	if (!e->present)
		return -ENOENT;
	*offset = e->v1;
	if (size)
		*size = e->v2;
	return 0;
}

static int target_type_size(void *priv, const char *type, uint64_t *size)
{
	struct kx_profile *p = priv;
	const struct kx_pentry *e = find(p, 'z', type, NULL);

	if (!e)
		return unknown(p, "size of", type, NULL);
	if (!e->present)
		return -ENOENT;
	*size = e->v1;
	return 0;
}

static int target_enumerator(void *priv, const char *name, int64_t *value)
{
	struct kx_profile *p = priv;
	const struct kx_pentry *e = find(p, 'e', name, NULL);

	if (!e) {
		/* the profile lists every upper-case enumerator of the kernel */
		if (p->upper_enums_complete && !has_lower(name))
			return -ENOENT;
		return unknown(p, "enumerator", name, NULL);
	}
	if (!e->present)
		return -ENOENT;
	*value = (int64_t)e->v1;
	return 0;
}

static int target_read(void *priv, uint64_t kvaddr, void *buf, size_t len)
{
	struct kx_profile *p = priv;
	struct kt_target t;

	kx_dump__target(p->dump, &t);
	return t.read(t.priv, kvaddr, buf, len);
}

static int target_read_blocks(void *priv, const uint64_t *kvaddrs, size_t n, size_t len,
			      void *buf, unsigned char *ok)
{
	struct kx_profile *p = priv;
	struct kt_target t;

	kx_dump__target(p->dump, &t);
	return t.read_blocks(t.priv, kvaddrs, n, len, buf, ok);
}

void kx_profile__target(struct kx_profile *p, struct kx_dump *d, FILE *log,
			struct kt_target *t)
{
	struct kt_target dt;

	kx_dump__target(d, &dt);
	memset(t, 0, sizeof(*t));
	p->dump = d;
	p->log = log;
	t->sz = sizeof(*t);
	t->priv = p;
	t->read = target_read;
	t->read_blocks = dt.read_blocks ? target_read_blocks : NULL;
	t->flags = dt.flags & (KT_TARGET_BLOCKS_MT | KT_TARGET_BIG_ENDIAN);
	t->page_size = dt.page_size;
	t->symbol = target_symbol;
	t->member = target_member;
	t->type_size = target_type_size;
	t->enumerator = target_enumerator;
}

enum kx_error kx_profile__check(struct kx_profile *p, struct kx_dump *d,
				int force, char *msg, size_t msglen)
{
	char *bid = kx_dump__vmcoreinfo_line(d, "BUILD-ID");
	char *koff = kx_dump__vmcoreinfo_line(d, "KERNELOFFSET");
	char *uts = kx_dump__vmcoreinfo_line(d, "SYMBOL(init_uts_ns)");
	const char *rel = kx_dump__osrelease(d);
	const struct kx_pentry *e = find(p, 's', "init_uts_ns", NULL);
	enum kx_error ret = KX_OK;
	uint64_t dump_uts;
	int mismatch = 0;

	if (bid && p->build_id[0] &&
	    strncasecmp(bid, p->build_id, strlen(p->build_id)))
		mismatch = 1;
	if (rel && strcmp(rel, p->release))
		mismatch = 1;
	if (mismatch) {
		kx_set_msg(msg, msglen,
			"profile %s is of %s (build-id %.12s..) but the dump is of %s "
			"(build-id %.12s..): make the profile of the crashed kernel",
			p->path, p->release, p->build_id[0] ? p->build_id : "none",
			rel ? rel : "unknown", bid ? bid : "none");
		if (!force) {
			ret = KX_ERR_MISMATCH;
			goto out;
		}
		fprintf(stderr, "warning: %s\n", msg);
	}
	p->kaslr_offset = koff ? strtoull(koff, NULL, 16) : 0;
	if (uts && e && e->present) {
		dump_uts = strtoull(uts, NULL, 16);
		if (!koff) {
			/* no KERNELOFFSET line: before v4.8, or no KASLR */
			p->kaslr_offset = dump_uts - e->v1;
		} else if (e->v1 + p->kaslr_offset != dump_uts) {
			kx_set_msg(msg, msglen,
				"profile %s: init_uts_ns is at 0x%" PRIx64 " + KASLR offset 0x%"
				PRIx64 " but the dump's vmcoreinfo says 0x%" PRIx64
				": not the crashed kernel's profile",
				p->path, e->v1, p->kaslr_offset, dump_uts);
			if (!force) {
				ret = KX_ERR_MISMATCH;
				goto out;
			}
			fprintf(stderr, "warning: %s\n", msg);
		}
	}
out:
	free(bid);
	free(koff);
	free(uts);
	return ret;
}

int kx_profile__open(const char *path, const char *release, struct kx_profile **pp)
{
	char msg[1024], *file = NULL;
	int ret;

	/* a directory holds profiles named <release>.profile: the dump's */
	if (release) {
		if (asprintf(&file, "%s/%s.profile", path, release) < 0)
			return KT_EXIT_FAILURE;
		path = file;
	}
	ret = kx_profile__load(path, pp, msg, sizeof(msg));
	free(file);
	if (!ret)
		return -1;
	fprintf(stderr, "ktrace-extract: %s\n", msg);
	return ret == -ENOMEM ? KT_EXIT_FAILURE : KT_EXIT_DEBUGINFO;
}

int kx_profile__attach(struct kx_profile *p, struct kx_dump *d, int force, int verbose,
		       struct kt_target *t)
{
	char msg[1024];

	if (kx_profile__check(p, d, force, msg, sizeof(msg))) {
		fprintf(stderr, "ktrace-extract: %s\n", msg);
		return KT_EXIT_MISMATCH;
	}
	if (verbose)
		fprintf(stderr, "profile: %s: %s, build-id %s, %zu answers, KASLR "
			"offset 0x%" PRIx64 "\n", p->path, p->release,
			p->build_id[0] ? p->build_id : "none", p->n, p->kaslr_offset);
	kx_profile__target(p, d, stderr, t);
	return -1;
}
