// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The standalone extractor's target: memory through libkdumpfile, symbols
 * and types from the vmlinux.
 *
 * libkdumpfile recognises ELF vmcores (/proc/vmcore copies, QEMU's
 * dump-guest-memory, makedumpfile -E) and kdump-compressed ones
 * (makedumpfile -c/-l/-p/-z), reads vmcoreinfo, takes the KASLR offset
 * from its KERNELOFFSET line and walks the dump's own page tables for
 * KDUMP_KVADDR reads. The flattened format (makedumpfile -F, what Debian's
 * kdump-tools saves) is rearranged by flat.c before libkdumpfile sees it.
 *
 * The vmcore is opened O_RDONLY and never written.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <libkdumpfile/kdumpfile.h>

#include "dump.h"
#include <ktrace/ktrace.h>
#include "dump-private.h"
#include "flat.h"
#include "kdump-desc.h"
#include "kdump-reblock.h"
#include "symbols.h"
#include "types/dwarf.h"
#include "msg.h"


/* A vmcoreinfo line, or NULL; the caller frees it. */
static char *vmcoreinfo_line(kdump_ctx_t *ctx, const char *key)
{
	char *val = NULL;

	if (kdump_vmcoreinfo_line(ctx, key, &val) != KDUMP_OK)
		return NULL;
	return val;
}

/*
 * A context whose kdump_open_fd() failed. libkdumpfile before 0.5.4 frees
 * a kdump-compressed file's private data on that path but leaves its
 * page_size override registered (fixed in 0.5.4 by "diskdump: Remove
 * page_size override", ae178dd): kdump_free() then reads freed memory
 * and crashes (a header with a lying max_mapnr, sub_hdr_size or note
 * size). The context is left unfreed: the process is about to report
 * the error and exit.
 */
static void forsake_ctx(struct kx_dump *d)
{
#if KDUMPFILE_VERSION >= KDUMPFILE_MKVER(0, 5, 4)
	kdump_free(d->ctx);
#endif
	d->ctx = NULL;
}

/*
 * Every page descriptor of a kdump-compressed image checked before
 * libkdumpfile reads a page (kdump-desc.c): one that claims a compressed
 * page larger than a page would make libkdumpfile 0.5.1 write past its
 * buffer. The dump is then read from a copy in memory with those
 * descriptors zeroed (their pages unreadable), when it fits in a quarter
 * of this machine's memory; else it is not read.
 */
static int flat_filled(const void *flat, uint64_t off, uint64_t len)
{
	return kx_flat__filled(flat, off, len);
}

static enum kx_error check_descriptors(struct kx_dump *d, int fd, char *msg, size_t msglen)
{
	/* a re-blocked image is whole: what was cut is already size 0 in it */
	int cut = kx_flat__truncated(d->flat) && d->reblocked < 0;
	struct kx_kdesc k;
	struct stat st;
	uint64_t size, cap;
	char why[200] = "";
	int ret;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return KX_OK;
	size = (uint64_t)st.st_size;
	ret = kx_kdesc__scan(fd, size, cut ? flat_filled : NULL, d->flat, &k, why, sizeof(why));
	if (ret < 0) {
		kx_set_msg(msg, msglen, "vmcore %s: %s%s", d->path,
			   cut ? "flattened dump cut short, and " : "", why);
		return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DUMP;
	}
	if (cut && !k.kdump) {
		/* an ELF image's lost bytes would be read as zeros */
		kx_set_msg(msg, msglen, "vmcore %s: flattened dump cut short and not "
			   "kdump-compressed: what is lost cannot be told from zeros", d->path);
		return KX_ERR_DUMP;
	}
	if (d->verbose && k.descs)
		fprintf(stderr, "dump: %llu page descriptors checked\n",
			(unsigned long long)k.descs);
	d->kdump_signed = k.kdump;
	if (k.ncut)
		fprintf(stderr,
			"warning: vmcore %s: %zu of its %llu pages were in the part of the file "
			"that is lost: they are unreadable\n",
			d->path, k.ncut, (unsigned long long)k.descs);
	if (!k.nzero) {
		kx_kdesc__free(&k);
		return KX_OK;
	}
	cap = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / 4;
	ret = kx_kdesc__repair(fd, size, &k, cap, &d->repaired, why, sizeof(why));
	if (ret) {
		kx_set_msg(msg, msglen, "vmcore %s: %zu of its %llu page descriptors %s, and %s%s%s",
			d->path, k.nzero, (unsigned long long)k.descs,
			k.nlying ? "claim a compressed page larger than a page" :
				   "point past where the file was cut",
			why, ret == -EFBIG ? " (a quarter of RAM)" : "",
			ret == -EFBIG && k.nlying ? "; libkdumpfile 0.5.4 or later reads it safely" : "");
		kx_kdesc__free(&k);
		return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DUMP;
	}
	if (k.nlying)
		fprintf(stderr,
			"warning: vmcore %s: %zu of its %llu page descriptors claim a compressed "
			"page larger than a page (the first: %u bytes, the block is %u): those "
			"pages are unreadable; the dump is read from a copy in memory (%llu MiB) "
			"with them zeroed, libkdumpfile %s would write past its buffer\n",
			d->path, k.nlying, (unsigned long long)k.descs, k.first_size, k.block,
			(unsigned long long)(size >> 20), KDUMPFILE_VERSION_STRING);
	kx_kdesc__free(&k);
	return KX_OK;
}

/*
 * A kdump-compressed image in blocks larger than its kernel's pages
 * (QEMU's dump of an arm64 guest: 64 KiB blocks, 4 or 16 KiB pages) is
 * read from a copy written again in pages (kdump-reblock.c says why:
 * libkdumpfile 0.5.1 to 0.5.6 takes the block for the page, then
 * VMCOREINFO's PAGESIZE for it, and 0.5.1 then writes past its buffer).
 * When the copy cannot be made the dump is refused here, before
 * libkdumpfile reads it.
 */
static enum kx_error reblock(struct kx_dump *d, int fd, char *msg, size_t msglen)
{
	int cut = kx_flat__truncated(d->flat);
	struct kx_kreblock r;
	struct stat st;
	uint64_t cap;
	char why[240] = "";
	int ret;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return KX_OK;
	ret = kx_kreblock__probe(fd, (uint64_t)st.st_size, &r, why, sizeof(why));
	if (!ret && !r.needed)
		return KX_OK;
	cap = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / 4;
	if (!ret)
		ret = kx_kreblock__write(fd, (uint64_t)st.st_size, cut ? flat_filled : NULL, d->flat,
					 cap, &r, why, sizeof(why));
	if (ret) {
		kx_set_msg(msg, msglen, "vmcore %s: kdump-compressed in blocks of %u bytes for "
			   "pages of %u (VMCOREINFO PAGESIZE), which libkdumpfile %s misreads%s; "
			   "%s%s", d->path, r.block, r.page, KDUMPFILE_VERSION_STRING,
			   KDUMPFILE_VERSION < KDUMPFILE_MKVER(0, 5, 4) ? " past its buffers" : "",
			   why, ret == -EFBIG ? " (a quarter of RAM)" : "");
		return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DUMP;
	}
	d->reblocked = r.fd;
	if (r.bad)
		fprintf(stderr, "warning: vmcore %s: %llu of its %llu blocks of %u bytes cannot be "
			"read or inflated: their pages are unreadable\n", d->path,
			(unsigned long long)r.bad, (unsigned long long)r.blocks, r.block);
	if (d->verbose)
		fprintf(stderr, "dump: %s: blocks of %u bytes for pages of %u: read from a copy "
			"written again in pages, in memory (%llu MiB, %llu blocks)\n", d->path,
			r.block, r.page, (unsigned long long)(r.memory >> 20),
			(unsigned long long)r.blocks);
	return KX_OK;
}

/*
 * Open the vmcore in libkdumpfile; a flattened file is first rearranged
 * into an image libkdumpfile reads (flat.c), unless libkdumpfile reads
 * that format itself (0.5.4).
 */
static enum kx_error open_vmcore(struct kx_dump *d, const char *path,
				 char *msg, size_t msglen)
{
	struct stat stbuf;
	kdump_status ks;
	enum kx_error e;
	int fd, ret = 0;

	d->path = strdup(path);
	if (!d->path)
		return KX_ERR_NOMEM;
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		kx_set_msg(msg, msglen, "vmcore %s: %s", path, strerror(errno));
		return KX_ERR_DUMP;
	}
	if (fstat(d->fd, &stbuf)) {
		kx_set_msg(msg, msglen, "vmcore %s: fstat: %s", path,
			strerror(errno));
		return KX_ERR_DUMP;
	}
	if (S_ISDIR(stbuf.st_mode)) {
		kx_set_msg(msg, msglen, "vmcore %s: is a directory", path);
		return KX_ERR_DUMP;
	}
	if (S_ISREG(stbuf.st_mode) && stbuf.st_size == 0) {
		kx_set_msg(msg, msglen, "vmcore %s: empty file", path);
		return KX_ERR_DUMP;
	}
	d->file_size = S_ISREG(stbuf.st_mode) ? (uint64_t)stbuf.st_size : 0;

	/*
	 * libkdumpfile 0.5.4 reads the flattened format; 0.5.1 needs us. Not
	 * in blocks larger than 4 KiB (QEMU's of an arm64 guest): the image
	 * may need re-blocking (reblock()), which takes our rearrangement.
	 */
	if (kx_flat__by_lib() && kx_flat__probe(d->fd) > 0 && kx_flat__block(d->fd) <= 4096)
		d->flat_by_lib = 1;
again:
	if (!d->flat_by_lib)
		ret = kx_flat__open(d->fd, path, d->force, &d->flat, msg, msglen);
	if (ret < 0)
		return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DUMP;
	if (kx_flat__truncated(d->flat)) {
		/* --force: read what is there (check_descriptors() says what is not) */
		fprintf(stderr, "warning: %s; read as far as it goes (--force)\n", msg);
		msg[0] = '\0';
	}
	fd = d->flat ? kx_flat__fd(d->flat) : d->fd;
	if (!d->flat_by_lib) {
		e = reblock(d, fd, msg, msglen);
		if (e)
			return e;
		if (d->reblocked >= 0)
			fd = d->reblocked;
		e = check_descriptors(d, fd, msg, msglen);
		if (e)
			return e;
		if (d->repaired >= 0)
			fd = d->repaired;
	}
	d->image = fd;

	d->ctx = kdump_new();
	if (!d->ctx)
		return KX_ERR_NOMEM;
	/*
	 * read(2), not mmap(2): pages of a mapped dump count in our RSS, so
	 * memory would grow with the size of the trace buffers read.
	 */
	kdump_set_number_attr(d->ctx, KDUMP_ATTR_FILE_MMAP_POLICY, KDUMP_MMAP_NEVER);
	/*
	 * A small page cache: with its default size libkdumpfile (0.5.1,
	 * 0.5.4) was seen to break on a makedumpfile -d 31 dump (a page read
	 * fine before comes back "corrupt", then a read writes through NULL);
	 * with 64 entries it does not. Our own cache (lib/read.c) and the
	 * read-ahead keep what is read again.
	 */
	kdump_set_number_attr(d->ctx, "cache.size", KX_KDUMP_CACHE);
	ks = kdump_open_fd(d->ctx, fd);
	/*
	 * libkdumpfile refuses a damaged flattened file whole (a truncated
	 * one: "Wrong flattened segment size"); ours says where it ends
	 */
	if (ks != KDUMP_OK && d->flat_by_lib) {
		kdump_free(d->ctx);	/* 0.5.4 and later: safe after a failed open */
		d->ctx = NULL;
		d->flat_by_lib = 0;
		goto again;
	}
	if (ks == KDUMP_ERR_NOTIMPL && d->kdump_signed) {
		kx_set_msg(msg, msglen, "vmcore %s: a kdump-compressed header libkdumpfile "
			   "refuses: %s", path, kdump_get_err(d->ctx));
		forsake_ctx(d);
		return KX_ERR_DUMP;
	}
	if (ks == KDUMP_ERR_NOTIMPL) {
		kx_set_msg(msg, msglen,
			"vmcore %s: not a kernel dump (neither ELF, "
			"kdump-compressed nor flattened)", path);
		forsake_ctx(d);
		return KX_ERR_DUMP;
	}
	if (ks != KDUMP_OK) {
		kx_set_msg(msg, msglen, "vmcore %s: cannot open dump: %s", path,
			kdump_get_err(d->ctx));
		forsake_ctx(d);
		return KX_ERR_DUMP;
	}
	ks = kdump_set_string_attr(d->ctx, KDUMP_ATTR_OSTYPE, "linux");
	if (ks != KDUMP_OK) {
		kx_set_msg(msg, msglen, "vmcore %s: kdump_set_string_attr(%s): %s",
			path, KDUMP_ATTR_OSTYPE, kdump_get_err(d->ctx));
		return KX_ERR_DUMP;
	}
	return KX_OK;
}

/* What vmcoreinfo tells: release, build-id, KASLR offset. */
static enum kx_error read_vmcoreinfo(struct kx_dump *d, char *msg,
				     size_t msglen)
{
	char *raw = NULL, *s;

	if (kdump_vmcoreinfo_raw(d->ctx, &raw) != KDUMP_OK || !raw || !*raw) {
		kx_set_msg(msg, msglen,
			"vmcore %s: no vmcoreinfo (%s%s): cannot tell the kernel "
			"release, KASLR offset or page tables",
			d->path, d->format,
			d->flat || d->flat_by_lib || strcmp(d->format, "elf") ? "" :
			"; a QEMU guest needs -device vmcoreinfo");
		free(raw);
		return KX_ERR_DUMP;
	}
	free(raw);
	d->osrelease = vmcoreinfo_line(d->ctx, "OSRELEASE");
	if (!d->osrelease) {
		kx_set_msg(msg, msglen, "vmcore %s: vmcoreinfo has no OSRELEASE",
			d->path);
		return KX_ERR_DUMP;
	}
	d->build_id = vmcoreinfo_line(d->ctx, "BUILD-ID");
	s = vmcoreinfo_line(d->ctx, "KERNELOFFSET");
	if (s) {
		d->kaslr_offset = strtoull(s, NULL, 16);
		d->have_kaslr_offset = 1;
		free(s);
	}
	return KX_OK;
}

/* The file format as dump.h promises: "elf", "diskdump", "flattened" */
static void set_format(struct kx_dump *d)
{
	const char *f = NULL;

	if (d->flat || d->flat_by_lib) {
		d->format = "flattened";
		return;
	}
	if (kdump_get_string_attr(d->ctx, KDUMP_ATTR_FILE_FORMAT, &f) !=
	    KDUMP_OK || !f)
		d->format = "unknown";
	else if (!strncmp(f, "elf", 3) || !strncmp(f, "ELF", 3))
		d->format = "elf";
	else if (strstr(f, "diskdump") || strstr(f, "compressed"))
		d->format = "diskdump";
	else
		d->format = f;
}

static enum kx_error open_vmlinux(struct kx_dump *d,
				  const struct kx_dump_opts *opts, char *msg,
				  size_t msglen)
{
	char *found = NULL;
	const char *path = opts->vmlinux;
	int ret;

	if (!path) {
		ret = kx_vmlinux__find(d->osrelease, &found, msg, msglen);
		if (ret)
			return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DEBUGINFO;
		path = found;
	}
	/* the ELF file, its .symtab, its release, its DWARF (types/vmsrc.c) */
	ret = kx_vmsrc__open(path, opts->verbose ? stderr : NULL, &d->vms, msg, msglen);
	free(found);
	if (ret)
		return ret == -ENOMEM ? KX_ERR_NOMEM : KX_ERR_DEBUGINFO;
	return KX_OK;
}

/*
 * Is the vmlinux the crashed kernel's? Compare the build-ids when both
 * sides have one, and the releases when both have one. Then check one
 * symbol that vmcoreinfo carries (SYMBOL(init_uts_ns)): that catches a
 * wrong vmlinux of the same release on kernels without BUILD-ID (before
 * v5.9), and a wrong KASLR offset.
 */
static enum kx_error check_match(struct kx_dump *d, int force, char *msg,
				 size_t msglen)
{
	const struct kx_vmlinux *vml = &d->vms->vml;
	const char *vrel = vml->release[0] ? vml->release : "unknown";
	const char *vid = vml->build_id[0] ? vml->build_id : "none";
	const char *did = d->build_id ? d->build_id : "none";
	kdump_addr_t dump_addr;
	uint64_t addr;
	int reloc, mismatch = 0;

	if (d->build_id && vml->build_id[0] &&
	    strncasecmp(d->build_id, vml->build_id, strlen(vml->build_id)))
		mismatch = 1;
	if (vml->release[0] && strcmp(vml->release, d->osrelease))
		mismatch = 1;
	if (mismatch) {
		kx_set_msg(msg, msglen,
			"vmlinux %s is %s (build-id %.12s..) but the dump is %s "
			"(build-id %.12s..)",
			vml->path, vrel, vid, d->osrelease, did);
		if (!force)
			return KX_ERR_MISMATCH;
		fprintf(stderr, "warning: %s\n", msg);
	}

	if (!d->have_kaslr_offset) {
		/* no KERNELOFFSET line: no KASLR, or a kernel before v4.8 */
		d->kaslr_offset = 0;
	}
	if (kdump_vmcoreinfo_symbol(d->ctx, "init_uts_ns", &dump_addr) ==
		    KDUMP_OK &&
	    !kx_symtab__lookup(d->vms->symtab, "init_uts_ns", &addr, &reloc)) {
		if (!d->have_kaslr_offset) {
			d->kaslr_offset = dump_addr - addr;
		} else if (addr + d->kaslr_offset != dump_addr) {
			kx_set_msg(msg, msglen,
				"vmlinux %s: init_uts_ns is at 0x%llx + KASLR offset "
				"0x%llx but the dump's vmcoreinfo says 0x%llx: not "
				"the crashed kernel's vmlinux",
				vml->path, (unsigned long long)addr,
				(unsigned long long)d->kaslr_offset,
				(unsigned long long)dump_addr);
			if (!force)
				return KX_ERR_MISMATCH;
			fprintf(stderr, "warning: %s\n", msg);
		}
	}
	return KX_OK;
}

/*
 * QEMU's kdump-compressed dumps (dump-guest-memory -z, and its flattened
 * variants) leave the header's utsname empty, so libkdumpfile does not
 * know the architecture and cannot translate any address. The vmlinux
 * knows it: set arch.name from its ELF machine when the dump did not.
 */
/*
 * The architecture whose arch_crash_save_vmcoreinfo() alone writes one of
 * these lines (arch/<arch>/kernel/...: arm64's kimage_voffset, s390's
 * lowcore_ptr, ppc64's mmu_psize_defs, x86_64's phys_base), or NULL
 */
static const char *vmcoreinfo_arch(struct kx_dump *d)
{
	static const struct {
		const char *key, *arch;
	} keys[] = {
		{ "NUMBER(kimage_voffset)", KDUMP_ARCH_AARCH64 },
		{ "SYMBOL(lowcore_ptr)", KDUMP_ARCH_S390X },
		{ "SYMBOL(mmu_psize_defs)", KDUMP_ARCH_PPC64 },
		{ "NUMBER(phys_base)", KDUMP_ARCH_X86_64 },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *v = NULL;
		kdump_status st = kdump_vmcoreinfo_line(d->ctx, keys[i].key, &v);

		bool found = st == KDUMP_OK && v;

		kdump_clear_err(d->ctx);
		free(v);
		if (found)
			return keys[i].arch;
	}
	return NULL;
}

static enum kx_error set_arch(struct kx_dump *d, const char *given,
			      char *msg, size_t msglen)
{
	static const struct {
		int machine;
		const char *arch;
	} archs[] = {
		{ EM_X86_64, KDUMP_ARCH_X86_64 }, { EM_AARCH64, KDUMP_ARCH_AARCH64 },
		{ EM_386, KDUMP_ARCH_IA32 },	  { EM_PPC64, KDUMP_ARCH_PPC64 },
		{ EM_S390, KDUMP_ARCH_S390X },	  { EM_ARM, KDUMP_ARCH_ARM },
	};
	const char *arch = NULL;
	GElf_Ehdr ehdr;
	size_t i;

	if (kdump_get_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, &arch) ==
		    KDUMP_OK && arch)
		return KX_OK;
	kdump_clear_err(d->ctx);
	if (!d->vms) {
		struct utsname uts;

		/*
		 * no vmlinux to tell: the one given, else what only one
		 * architecture's VMCOREINFO says (QEMU's kdump-compressed dump
		 * of an arm64 guest names no machine), else this machine's
		 */
		if (!given || !*given)
			given = vmcoreinfo_arch(d);
		if ((!given || !*given) && !uname(&uts) && !strcmp(uts.machine, "x86_64"))
			given = KDUMP_ARCH_X86_64;
		if (given && *given &&
		    kdump_set_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME, given) ==
			    KDUMP_OK) {
			if (d->verbose)
				fprintf(stderr, "dump: %s names no architecture; taken as %s\n",
					d->path, given);
			return KX_OK;
		}
		kx_set_msg(msg, msglen,
			"vmcore %s: the dump names no architecture and none was "
			"given", d->path);
		return KX_ERR_DUMP;
	}
	if (!gelf_getehdr(d->vms->vml.elf, &ehdr))
		goto unknown;
	for (i = 0; i < sizeof(archs) / sizeof(archs[0]); i++) {
		if (archs[i].machine != ehdr.e_machine)
			continue;
		if (kdump_set_string_attr(d->ctx, KDUMP_ATTR_ARCH_NAME,
					  archs[i].arch) != KDUMP_OK) {
			kx_set_msg(msg, msglen,
				"vmcore %s: kdump_set_string_attr(%s, %s): %s",
				d->path, KDUMP_ATTR_ARCH_NAME, archs[i].arch,
				kdump_get_err(d->ctx));
			return KX_ERR_DUMP;
		}
		if (d->verbose)
			fprintf(stderr,
				"dump: %s names no architecture; %s from the "
				"vmlinux\n",
				d->path, archs[i].arch);
		return KX_OK;
	}
unknown:
	kx_set_msg(msg, msglen,
		"vmcore %s: the dump names no architecture and vmlinux %s has "
		"an unsupported one",
		d->path, d->vms->vml.path);
	return KX_ERR_DUMP;
}

static unsigned long kx_dump_ids;

/*
 * The dump is opened in three stages, always in this order, each failing
 * with its own message and class (the exit status main gives it):
 *
 * 1. memory (memory_open()): the file (open_vmcore(): cannot open, not
 *    a dump libkdumpfile knows, a flattened or kdump-compressed file
 *    that cannot be repaired or rearranged), its format, its VMCOREINFO
 *    (read_vmcoreinfo()): KX_ERR_DUMP;
 * 2. the vmlinux (vmlinux_attach(), skipped with @no_vmlinux): given or
 *    found beside the release (open_vmlinux(): missing, not ELF, no
 *    .symtab, no DWARF: KX_ERR_DEBUGINFO, or, none given and
 *    @alone_if_no_vmlinux, the dump kept alone with why), then whether
 *    it is the crashed kernel's (check_match(): KX_ERR_MISMATCH unless
 *    --force);
 * 3. architecture and address translation (xlat_init()): set_arch()
 *    (from VMCOREINFO, else the vmlinux, else @arch or this machine),
 *    kx_dump__check_whole() (a truncated dump: KX_ERR_DUMP unless
 *    --force), kx_dump__init_xlat() (xlat.c, dump-s390x.c, dump-ppc64.c),
 *    then the -v lines.
 *
 * So a bad vmlinux is reported before a truncated dump, an unreadable
 * dump before a bad vmlinux, and a vmlinux of another kernel before the
 * dump's architecture or size is looked at. The first failure ends the
 * open; no later stage runs.
 */
static struct kx_dump *memory_open(const char *vmcore, const struct kx_dump_opts *opts,
				   enum kx_error *e, char *msg, size_t msglen)
{
	struct kx_dump *d = calloc(1, sizeof(*d));

	if (!d) {
		*e = KX_ERR_NOMEM;
		return NULL;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->id = __atomic_add_fetch(&kx_dump_ids, 1, __ATOMIC_RELAXED);
	d->owner = pthread_self();
	d->fd = -1;
	d->repaired = -1;
	d->reblocked = -1;
	d->image = -1;
	d->verbose = opts->verbose;
	d->force = opts->force;

	*e = open_vmcore(d, vmcore, msg, msglen);
	if (*e)
		return d;
	set_format(d);
	*e = read_vmcoreinfo(d, msg, msglen);
	return d;
}

static enum kx_error vmlinux_attach(struct kx_dump *d, const struct kx_dump_opts *opts,
				    char *msg, size_t msglen)
{
	enum kx_error e;

	if (opts->no_vmlinux)
		return KX_OK;
	e = open_vmlinux(d, opts, msg, msglen);
	if (e == KX_ERR_DEBUGINFO && !opts->vmlinux && opts->alone_if_no_vmlinux) {
		/* the caller reads the dump's own BTF and kallsyms */
		d->why_alone = strdup(msg);
		if (!d->why_alone)
			return KX_ERR_NOMEM;
		msg[0] = '\0';
		kx_vmsrc__free(d->vms);
		d->vms = NULL;
		return KX_OK;
	}
	if (e)
		return e;
	e = check_match(d, opts->force, msg, msglen);
	/* the source's relocatable symbols are where the dump has them */
	d->vms->kaslr_offset = d->kaslr_offset;
	return e;
}

static enum kx_error xlat_init(struct kx_dump *d, const struct kx_dump_opts *opts, char *msg,
			       size_t msglen)
{
	enum kx_error e;

	e = set_arch(d, opts->arch, msg, msglen);
	if (e)
		return e;
	e = kx_dump__check_whole(d, msg, msglen);
	if (e)
		return e;
	e = kx_dump__init_xlat(d, msg, msglen);
	if (e)
		return e;
	if (d->verbose && !d->vms)
		fprintf(stderr, "dump: %s: %s, release %s, build-id %s\n",
			d->path, d->format, d->osrelease,
			d->build_id ? d->build_id : "none");
	else if (d->verbose)
		fprintf(stderr,
			"dump: %s: %s, release %s, build-id %s, KASLR offset "
			"0x%llx; vmlinux %s (%zu symbols)\n",
			d->path, d->format, d->osrelease,
			d->build_id ? d->build_id : "none",
			(unsigned long long)d->kaslr_offset, d->vms->vml.path,
			kx_symtab__count(d->vms->symtab));
	if (d->verbose && d->flat)
		fprintf(stderr,
			"dump: flattened file rearranged in memory: %llu MiB "
			"(for repeated use, `makedumpfile -R` it to a file)\n",
			(unsigned long long)(kx_flat__memory(d->flat) >> 20));
	if (d->verbose && d->flat_by_lib)
		fprintf(stderr, "dump: flattened file read by libkdumpfile %s itself\n",
			KDUMPFILE_VERSION_STRING);
	return KX_OK;
}

/* a stage failed with @e: the class and message said, the dump closed */
static void open_failed(struct kx_dump *d, const char *vmcore, enum kx_error e,
			enum kx_error *err, char *msg, size_t msglen)
{
	if (e == KX_ERR_NOMEM && msg && msglen && !msg[0])
		kx_set_msg(msg, msglen, "vmcore %s: out of memory", vmcore);
	*err = e;
	kx_dump__close(d);
	errno = e == KX_ERR_NOMEM ? ENOMEM : EINVAL;
}

/* the three stages, in the order their errors have always been said */
struct kx_dump *kx_dump__open(const char *vmcore, const struct kx_dump_opts *opts,
			      enum kx_error *err, char *msg, size_t msglen)
{
	struct kx_dump_opts defaults = { .sz = sizeof(defaults) };
	struct kx_dump *d;
	enum kx_error e;

	if (msg && msglen)
		msg[0] = '\0';
	if (!opts)
		opts = &defaults;
	d = memory_open(vmcore, opts, &e, msg, msglen);
	if (!e)
		e = vmlinux_attach(d, opts, msg, msglen);
	if (!e)
		e = xlat_init(d, opts, msg, msglen);
	if (!e)
		return d;
	open_failed(d, vmcore, e, err, msg, msglen);
	return NULL;
}

/*
 * libkdumpfile 0.5.1's kdump_free() of a context opened on a
 * kdump-compressed file reads and writes memory it has just freed
 * (valgrind: 4 invalid accesses; a program that only calls kdump_new(),
 * kdump_open_fd() and kdump_free() on k6.1's vmcore.kdump shows them),
 * and glibc sometimes aborts on the damage: at the end of ktrace-extract,
 * after the output was written but before stdio flushed it (a make check
 * run's t-dmesg got an empty --dmesg --json of k6.12-arm64-16k's kdump
 * dump). ktrace-extract closes its dump once, when it ends: such a context
 * is left to the end of the process, reachable from here (no leak to
 * LeakSanitizer). An ELF dump's context is freed.
 */
static void ctx_free(kdump_ctx_t *c)
{
	static kdump_ctx_t **left;
	static size_t nleft;
	const char *fmt = NULL;
	kdump_ctx_t **n;

	if (kdump_get_string_attr(c, KDUMP_ATTR_FILE_FORMAT, &fmt) == KDUMP_OK && fmt &&
	    !strcmp(fmt, "diskdump")) {
		n = realloc(left, (nleft + 1) * sizeof(*n));
		if (n) {
			left = n;
			left[nleft++] = c;
			return;
		}
	}
	kdump_free(c);
}

void kx_dump__close(struct kx_dump *d)
{
	if (!d)
		return;
	kx_dump__fini_xlat(d);
	kx_vmsrc__free(d->vms);
	while (d->nclones)
		ctx_free(d->clones[--d->nclones]);
	free(d->clones);
	if (d->ctx)
		ctx_free(d->ctx);
	kx_flat__close(d->flat);
	if (d->repaired >= 0)
		close(d->repaired);
	if (d->reblocked >= 0)
		close(d->reblocked);
	if (d->fd >= 0)
		close(d->fd);
	free(d->osrelease);
	free(d->build_id);
	free(d->why_alone);
	free(d->path);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

/*
 * The dump alone knows no symbol and no type: those are a type source's
 * (the vmlinux's, types/vmsrc.c; a profile; the dump's BTF)
 */
static int no_symbol(void *priv, const char *name, uint64_t *addr)
{
	return -ENOENT;
}

static int no_member(void *priv, const char *type, const char *member, uint64_t *offset,
		     uint64_t *size)
{
	return -ENOENT;
}

static int no_type_size(void *priv, const char *type, uint64_t *size)
{
	return -ENOENT;
}

static int no_enumerator(void *priv, const char *name, int64_t *value)
{
	return -ENOENT;
}

static int no_enumerator_at(void *priv, const char *name, uint64_t code, int64_t *value)
{
	return -ENOENT;
}

void kx_dump__target(struct kx_dump *d, struct kt_target *t)
{
	memset(t, 0, sizeof(*t));
	t->sz = sizeof(*t);
	t->priv = d;
	t->read = kx_dump__read;
	/* a whole ELF dump is read with pread(2): many sub-buffers at a time */
	/*
	 * a whole ELF dump is read with pread(2); another but a cut ELF one
	 * (whose reads are checked against what the file holds) through
	 * libkdumpfile on clones of its context, on the readers' threads
	 */
	if (d->seg || !d->elf_ok_start) {
		t->read_blocks = kx_dump__read_blocks;
		t->flags |= KT_TARGET_BLOCKS_MT;
	}
	t->symbol = no_symbol;
	t->member = no_member;
	t->type_size = no_type_size;
	t->enumerator = no_enumerator;
	t->enumerator_at = no_enumerator_at;
	/* the platform as the dump says it (ELF header, kdump header, VMCOREINFO) */
	if (d->page_shift >= 12 && d->page_shift <= 18)
		t->page_size = 1u << d->page_shift;
	{
		kdump_num_t order;

		if (kdump_get_number_attr(d->ctx, KDUMP_ATTR_BYTE_ORDER, &order) == KDUMP_OK &&
		    order == KDUMP_BIG_ENDIAN)
			t->flags |= KT_TARGET_BIG_ENDIAN;
		else
			kdump_clear_err(d->ctx);
	}
}

const char *kx_dump__osrelease(const struct kx_dump *d)
{
	return d->osrelease;
}

char *kx_dump__vmcoreinfo_line(const struct kx_dump *d, const char *key)
{
	return vmcoreinfo_line(d->ctx, key);
}

int kx_dump__vmcoreinfo_symbol(const struct kx_dump *d, const char *name, uint64_t *addr)
{
	char key[128], *v;

	if (snprintf(key, sizeof(key), "SYMBOL(%s)", name) >= (int)sizeof(key))
		return -ENOENT;
	v = vmcoreinfo_line(d->ctx, key);
	if (!v)
		return -ENOENT;
	*addr = strtoull(v, NULL, 16);
	free(v);
	return 0;
}

const char *kx_dump__format(const struct kx_dump *d)
{
	return d->format;
}

uint64_t kx_dump__kaslr_offset(const struct kx_dump *d)
{
	return d->kaslr_offset;
}

const char *kx_dump__vmlinux(const struct kx_dump *d)
{
	return d->vms ? d->vms->vml.path : NULL;
}

struct kx_vmsrc *kx_dump__vmsrc(const struct kx_dump *d)
{
	return d->vms;
}

const char *kx_dump__why_alone(const struct kx_dump *d)
{
	return d->why_alone;
}

const char *kx_dump__path(const struct kx_dump *d)
{
	return d->path;
}

const char *kx_dump__last_error(const struct kx_dump *d)
{
	return d->last_error;
}
