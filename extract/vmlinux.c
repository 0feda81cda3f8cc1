// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The crashed kernel's vmlinux: finding it, opening it, and what
 * identifies it.
 *
 * Two identities are checked against the dump's vmcoreinfo: the GNU
 * build-id (vmcoreinfo BUILD-ID, since v5.9) and the release string.
 * The release is read from linux_banner in .rodata ("Linux version
 * 6.1.0-27-cloud-amd64 (debian-kernel@...) ..."), which init/version.c
 * builds from UTS_RELEASE in every version we support and which needs
 * no DWARF. Debian's -dbg vmlinux keeps .rodata; a file made with
 * objcopy --only-keep-debug does not, and then only the build-id is
 * checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"
#include "vmlinux.h"

static void read_build_id(struct kx_vmlinux *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(v->elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off, i;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nhdr, &name_off,
					   &desc_off)) > 0) {
			const unsigned char *desc;

			if (nhdr.n_type != NT_GNU_BUILD_ID ||
			    nhdr.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + name_off, "GNU", 4) ||
			    nhdr.n_descsz > 64)
				continue;
			desc = (unsigned char *)data->d_buf + desc_off;
			for (i = 0; i < nhdr.n_descsz; i++)
				sprintf(v->build_id + 2 * i, "%02x", desc[i]);
			return;
		}
	}
}

int kx_vmlinux__open(struct kx_vmlinux *v, const char *path, char *msg,
		     size_t msglen)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->fd = -1;
	v->path = strdup(path);
	if (!v->path) {
		ret = -ENOMEM;
		snprintf(msg, msglen, "vmlinux %s: out of memory", path);
		goto out;
	}
	v->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (v->fd < 0) {
		ret = -errno;
		snprintf(msg, msglen, "vmlinux %s: %s", path, strerror(errno));
		goto out;
	}
	elf_version(EV_CURRENT);
	v->elf = elf_begin(v->fd, ELF_C_READ_MMAP, NULL);
	if (!v->elf || elf_kind(v->elf) != ELF_K_ELF) {
		ret = -EINVAL;
		snprintf(msg, msglen, "vmlinux %s: not an ELF file (%s)", path,
			 elf_errmsg(-1));
		goto out;
	}
	read_build_id(v);
	return 0;
out:
	kx_vmlinux__close(v);
	return ret;
}

void kx_vmlinux__close(struct kx_vmlinux *v)
{
	if (v->elf)
		elf_end(v->elf);
	if (v->fd >= 0)
		close(v->fd);
	free(v->path);
	memset(v, 0, sizeof(*v));
	v->fd = -1;
}

/* Read @len bytes at link-time address @addr from the file's sections. */
static int read_vaddr(struct kx_vmlinux *v, uint64_t addr, char *buf,
		      size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(v->elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC) ||
		    addr < shdr.sh_addr || addr - shdr.sh_addr >= shdr.sh_size)
			continue;
		if (shdr.sh_type != SHT_PROGBITS)
			return -ENODATA;
		if (len > shdr.sh_size - (addr - shdr.sh_addr))
			len = shdr.sh_size - (addr - shdr.sh_addr);
		if (pread(v->fd, buf, len,
			  (off_t)(shdr.sh_offset + addr - shdr.sh_addr)) !=
		    (ssize_t)len)
			return -EIO;
		return (int)len;
	}
	return -EFAULT;
}

void kx_vmlinux__read_release(struct kx_vmlinux *v, const struct kx_symtab *st)
{
	static const char prefix[] = "Linux version ";
	char banner[sizeof(prefix) + sizeof(v->release)];
	uint64_t addr;
	size_t i;
	int n;

	v->release[0] = '\0';
	if (kx_symtab__lookup(st, "linux_banner", &addr, NULL))
		return;
	n = read_vaddr(v, addr, banner, sizeof(banner) - 1);
	if (n <= (int)sizeof(prefix))
		return;
	banner[n] = '\0';
	if (strncmp(banner, prefix, sizeof(prefix) - 1))
		return;
	for (i = 0; i < sizeof(v->release) - 1; i++) {
		char c = banner[sizeof(prefix) - 1 + i];

		if (c == ' ' || c == '\0')
			break;
		v->release[i] = c;
	}
	v->release[i] = '\0';
}

int kx_vmlinux__find(const char *release, char **path, char *msg,
		     size_t msglen)
{
	static const char *const patterns[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/usr/lib/debug/vmlinux-%s",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"%s/.cache/ktrace/kernels/%s/vmlinux",
	};
	const char *home = getenv("HOME");
	size_t used = 0, i;
	char buf[4096];

	*path = NULL;
	used = (size_t)snprintf(msg, msglen,
				"no vmlinux for %s given (--vmlinux) or found in",
				release);
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		if (strstr(patterns[i], "%s/.cache")) {
			if (!home)
				continue;
			snprintf(buf, sizeof(buf), patterns[i], home, release);
		} else {
			snprintf(buf, sizeof(buf), patterns[i], release);
		}
		if (!access(buf, R_OK)) {
			*path = strdup(buf);
			return *path ? 0 : -ENOMEM;
		}
		if (used < msglen)
			used += (size_t)snprintf(msg + used, msglen - used,
						 "%s %s", i ? "," : "", buf);
	}
	return -ENOENT;
}
