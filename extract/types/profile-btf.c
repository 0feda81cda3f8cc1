// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile's answers from BTF, for machines without the kernel's debug
 * package: the running kernel's /sys/kernel/btf/vmlinux, or the .BTF
 * section of a vmlinux (CONFIG_DEBUG_INFO_BTF, Debian since 5.x). BTF has
 * types and enumerators but no symbols: those come from System.map
 * (link-time addresses, what a profile stores) or /proc/kallsyms (run-time
 * addresses, moved back by the running kernel's KASLR offset). The
 * answering is types/btf.c's and types/sysmap.c's, shared with the dump's
 * own BTF (types/indump.c).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "profile-private.h"
#include "../symbols.h"
#include "btf.h"
#include "sysmap.h"
#include "../vmlinux.h"

struct btf_src {
	struct kx_btf *btf;
	struct kx_sysmap *map;
};

static int b_symbol(void *priv, const char *name, uint64_t *addr, int *reloc)
{
	struct btf_src *bs = priv;

	return kx_sysmap__lookup(bs->map, name, addr, reloc);
}

static int b_member(void *priv, const char *type, const char *member,
		    uint64_t *offset, uint64_t *size)
{
	struct btf_src *bs = priv;

	return kx_btf__member(bs->btf, type, member, offset, size);
}

static int b_type_size(void *priv, const char *type, uint64_t *size)
{
	struct btf_src *bs = priv;

	return kx_btf__size(bs->btf, type, size);
}

static int b_enumerator(void *priv, const char *name, int64_t *value)
{
	struct btf_src *bs = priv;

	return kx_btf__enumerator(bs->btf, name, value, NULL);
}

static int b_enumerators(void *priv, int (*cb)(void *arg, const char *name),
			 void *arg)
{
	struct btf_src *bs = priv;

	return kx_btf__enumerators(bs->btf, cb, arg);
}

static void b_close(void *priv)
{
	struct btf_src *bs = priv;

	if (!bs)
		return;
	kx_sysmap__free(bs->map);
	kx_btf__free(bs->btf);
	free(bs);
}

/* GNU build-id of the running kernel, from /sys/kernel/notes */
static void running_build_id(char *out, size_t outlen)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t pos = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && pos + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		size_t desc;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		desc = pos + 12 + ((namesz + 3) & ~3U);
		if (desc + descsz > (size_t)n)
			return;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(buf + pos + 12, "GNU", 4) && 2 * descsz < outlen) {
			uint32_t i;

			for (i = 0; i < descsz; i++)
				sprintf(out + 2 * i, "%02x", buf[desc + i]);
			return;
		}
		pos = desc + ((descsz + 3) & ~3U);
	}
}

int kx_psource__btf(struct kx_psource *src, const char *btf,
		    const char *system_map, const char *release,
		    const char *build_id, char *msg, size_t msglen)
{
	struct btf_src *bs = calloc(1, sizeof(*bs));
	int running = !strcmp(btf, "/sys/kernel/btf/vmlinux");
	struct kx_vmlinux vml = { .fd = -1 };
	struct btf *parsed;
	struct utsname uts;
	int ret;

	if (!bs)
		return -ENOMEM;
	memset(src, 0, sizeof(*src));
	if (!system_map) {
		snprintf(msg, msglen, "BTF %s: has no symbols; give --system-map "
			 "(System.map of that kernel, or /proc/kallsyms)", btf);
		ret = -EINVAL;
		goto out;
	}
	parsed = btf__parse(btf, NULL);
	if (!parsed) {
		ret = -errno;
		snprintf(msg, msglen, "BTF %s: cannot parse: %s", btf, strerror(errno));
		goto out;
	}
	ret = kx_btf__new(parsed, &bs->btf);
	if (ret)
		goto out;
	ret = kx_sysmap__load(system_map, &bs->map, msg, msglen);
	if (ret)
		goto out;
	/* an ELF file (a vmlinux with .BTF) tells its build-id and arch */
	if (!running && !kx_vmlinux__open(&vml, btf, msg, msglen)) {
		struct kx_symtab *st = NULL;
		GElf_Ehdr ehdr;

		snprintf(src->build_id, sizeof(src->build_id), "%s", vml.build_id);
		if (!kx_symtab__load(vml.elf, &st)) {
			kx_vmlinux__read_release(&vml, st);
			snprintf(src->release, sizeof(src->release), "%s", vml.release);
			kx_symtab__free(st);
		}
		if (gelf_getehdr(vml.elf, &ehdr) && ehdr.e_machine == EM_X86_64)
			snprintf(src->arch, sizeof(src->arch), "x86_64");
		kx_vmlinux__close(&vml);
	}
	msg[0] = '\0';
	if (running) {
		running_build_id(src->build_id, sizeof(src->build_id));
		if (!uname(&uts)) {
			snprintf(src->release, sizeof(src->release), "%s", uts.release);
			if (!strcmp(uts.machine, "x86_64"))
				snprintf(src->arch, sizeof(src->arch), "x86_64");
		}
	}
	if (release)
		snprintf(src->release, sizeof(src->release), "%s", release);
	if (build_id)
		snprintf(src->build_id, sizeof(src->build_id), "%s", build_id);
	if (!src->release[0]) {
		snprintf(msg, msglen, "BTF %s: cannot tell the kernel release; give "
			 "--release", btf);
		ret = -EINVAL;
		goto out;
	}
	src->priv = bs;
	src->symbol = b_symbol;
	src->member = b_member;
	src->type_size = b_type_size;
	src->enumerator = b_enumerator;
	src->enumerators = b_enumerators;
	src->close = b_close;
	snprintf(src->source, sizeof(src->source), "btf %s, symbols %s", btf,
		 system_map);
	return 0;
out:
	b_close(bs);
	return ret;
}
