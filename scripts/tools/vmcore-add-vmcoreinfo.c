// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore-add-vmcoreinfo - copy an ELF vmcore, adding the kernel's own
 * VMCOREINFO note read from the dump's memory.
 *
 * QEMU writes the VMCOREINFO note into its ELF dump only when the guest
 * told it where the note is (the vmcoreinfo device, over fw_cfg). A
 * machine without fw_cfg (ppc64's pseries) gives a dump with CPU notes
 * only. The kernel keeps the note in memory all the same: the pointer
 * vmcoreinfo_note (its System.map address is VA) holds the linear-map
 * address of an ELF note "VMCOREINFO" (what /sys/kernel/vmcoreinfo
 * names). Virtual addresses are taken for physical ones by subtracting
 * PAGE_OFFSET (ppc64: 0xc000000000000000), which holds for the kernel
 * image and the linear map of a kernel that runs where it was linked.
 *
 * OUT is IN with its program headers right after the ELF header (as
 * vmcore-normalize puts them; no section header), its PT_NOTE segment
 * followed by the VMCOREINFO note (one PT_NOTE, as /proc/vmcore has it),
 * and the memory of every PT_LOAD as it was, further down the file.
 * A 64-bit core file of the host's byte order (little-endian), with one
 * exception: QEMU 7.2's dump of a little-endian pseries guest says it is
 * big-endian (QEMU takes the byte order from HID0's HILE bit, which a
 * pseries guest never sets: its interrupts are little-endian by LPCR) and
 * writes its headers and CPU notes big-endian, the memory being the
 * guest's, little-endian. Such a PowerPC64 file is written little-endian:
 * headers converted, the NT_PRSTATUS notes converted (QEMU's layout: 112
 * bytes of zeros, 44 64-bit registers, 40 bytes of zeros), the other CPU
 * notes (floating point, Altivec, VSX, SPE registers) left out.
 *
 * s390x (--s390x-lowcore): QEMU's s390-ccw-virtio has no fw_cfg either,
 * and there the kernel image is mapped apart from the direct map (6.10+),
 * so VA - PAGE_OFFSET is not where vmcoreinfo_note lies. The kernel tells
 * the firmware and stand-alone dumpers where its note is instead:
 * arch_crash_save_vmcoreinfo() (arch/s390/kernel/vmcore_info.c) stores
 * the note's physical address in the absolute lowcore, struct lowcore's
 * vmcore_info (at 0xe0c in 6.12 and 7.2, by their DWARF), which QEMU's
 * dump holds at physical 0xe0c. The machine, its dump and its note are
 * big-endian: the file is written big-endian, QEMU's CPU notes as they
 * are.
 *
 * usage: vmcore-add-vmcoreinfo IN OUT VA PAGE_OFFSET
 *        vmcore-add-vmcoreinfo IN OUT --s390x-lowcore
 */
#define _GNU_SOURCE /* memmem */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALIGN4(x) (((x) + 3) & ~(uint64_t)3)
/* the kernel's VMCOREINFO_BYTES is a page; 64 KiB pages at most here */
#define MAX_DESC (64 * 1024)
/* struct lowcore's vmcore_info: the note's physical address (s390x) */
#define S390_LC_VMCORE_INFO 0xe0c

static const char *in_name;
static int swap; /* IN's headers are of the other byte order */
static int out_swap; /* OUT's headers are: a big-endian machine's (s390x) */
static int mem_swap; /* the guest's memory is: a big-endian machine's */

static uint16_t h16(uint16_t v) { return swap ? __builtin_bswap16(v) : v; }
static uint32_t h32(uint32_t v) { return swap ? __builtin_bswap32(v) : v; }
static uint64_t h64(uint64_t v) { return swap ? __builtin_bswap64(v) : v; }
static uint16_t o16(uint16_t v) { return out_swap ? __builtin_bswap16(v) : v; }
static uint32_t o32(uint32_t v) { return out_swap ? __builtin_bswap32(v) : v; }
static uint64_t o64(uint64_t v) { return out_swap ? __builtin_bswap64(v) : v; }
static uint32_t m32(uint32_t v) { return mem_swap ? __builtin_bswap32(v) : v; }
static uint64_t m64(uint64_t v) { return mem_swap ? __builtin_bswap64(v) : v; }

/* QEMU 7.2's struct PPCElfPrstatus (target/ppc/arch_dump.c) */
#define PPC_PRSTATUS_SIZE 504
#define PPC_PRSTATUS_REGS 112
#define PPC_PRSTATUS_NREGS 44

static int fail(const char *what)
{
	fprintf(stderr, "vmcore-add-vmcoreinfo: %s: %s%s%s\n", in_name, what,
		errno ? ": " : "", errno ? strerror(errno) : "");
	return 1;
}

static int in_fd;
static Elf64_Ehdr ehdr;
static Elf64_Phdr *phdr;

/* read LEN bytes of physical memory at PA from the dump's PT_LOADs */
static int read_phys(uint64_t pa, void *buf, size_t len)
{
	for (int i = 0; i < ehdr.e_phnum; i++) {
		Elf64_Phdr *p = &phdr[i];

		if (p->p_type != PT_LOAD || pa < p->p_paddr ||
		    pa - p->p_paddr >= p->p_filesz ||
		    p->p_filesz - (pa - p->p_paddr) < len)
			continue;
		errno = 0;
		return pread(in_fd, buf, len, p->p_offset + (pa - p->p_paddr)) ==
			       (ssize_t)len ? 0 : -1;
	}
	errno = 0;
	return -1;
}

static int copy(int out, off_t to, off_t from, uint64_t len)
{
	static char buf[1 << 20];

	while (len) {
		size_t n = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t r = pread(in_fd, buf, n, from);

		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		if (pwrite(out, buf, r, to) != r)
			return -1;
		from += r, to += r, len -= r;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t va = 0, page_offset = 0, ptr, note_pa, note_len, notes_len = 0;
	uint64_t old_data = UINT64_MAX, new_data, hdr_end, delta;
	Elf64_Nhdr nh;
	Elf64_Ehdr oehdr;
	char *note, *notes = NULL;
	Elf64_Phdr *nphdr, *ophdr;
	int out, note_idx = -1, n, lowcore = 0;

	if (argc == 4 && !strcmp(argv[3], "--s390x-lowcore")) {
		lowcore = 1;
	} else if (argc == 5) {
		va = strtoull(argv[3], NULL, 0);
		page_offset = strtoull(argv[4], NULL, 0);
	} else {
		fprintf(stderr, "usage: vmcore-add-vmcoreinfo IN OUT VA PAGE_OFFSET\n"
				"       vmcore-add-vmcoreinfo IN OUT --s390x-lowcore\n");
		return 2;
	}
	in_name = argv[1];
	in_fd = open(argv[1], O_RDONLY);
	if (in_fd < 0)
		return fail("cannot open");
	errno = 0;
	if (pread(in_fd, &ehdr, sizeof(ehdr), 0) != sizeof(ehdr))
		return fail("short ELF header");
	if (memcmp(ehdr.e_ident, ELFMAG, SELFMAG) ||
	    ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return fail("not a 64-bit ELF file");
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return fail("a little-endian host only");
	swap = ehdr.e_ident[EI_DATA] != ELFDATA2LSB;
	ehdr.e_type = h16(ehdr.e_type);
	ehdr.e_machine = h16(ehdr.e_machine);
	ehdr.e_version = h32(ehdr.e_version);
	ehdr.e_entry = h64(ehdr.e_entry);
	ehdr.e_phoff = h64(ehdr.e_phoff);
	ehdr.e_shoff = h64(ehdr.e_shoff);
	ehdr.e_flags = h32(ehdr.e_flags);
	ehdr.e_ehsize = sizeof(ehdr); /* QEMU 7.2's big-endian one says 8 */
	ehdr.e_phentsize = h16(ehdr.e_phentsize);
	ehdr.e_phnum = h16(ehdr.e_phnum);
	if (ehdr.e_type != ET_CORE || ehdr.e_phentsize != sizeof(Elf64_Phdr))
		return fail("not a 64-bit ELF core file");
	if (lowcore != (ehdr.e_machine == EM_S390)) {
		errno = 0;
		return fail(lowcore ? "--s390x-lowcore: not an S/390 dump" :
				      "an S/390 dump: its note is found with --s390x-lowcore");
	}
	if (swap && ehdr.e_machine != EM_PPC64 && ehdr.e_machine != EM_S390)
		return fail("big-endian: only QEMU's dumps of s390x and of little-endian PowerPC64 guests are known");
	if (lowcore && !swap)
		return fail("a little-endian S/390 dump");
	/* s390x stays big-endian (memory, notes, headers); ppc64el is made little-endian */
	out_swap = mem_swap = lowcore;
	if (ehdr.e_phnum == PN_XNUM || ehdr.e_phnum == 0)
		return fail("e_phnum overflow (PN_XNUM) or no program header");
	n = ehdr.e_phnum;
	phdr = calloc(n + 1, sizeof(*phdr));
	if (!phdr)
		return fail("out of memory");
	if (pread(in_fd, phdr, n * sizeof(*phdr), ehdr.e_phoff) !=
	    (ssize_t)(n * sizeof(*phdr)))
		return fail("short program headers");
	for (int i = 0; i < n; i++) {
		Elf64_Phdr *p = &phdr[i];

		p->p_type = h32(p->p_type);
		p->p_flags = h32(p->p_flags);
		p->p_offset = h64(p->p_offset);
		p->p_vaddr = h64(p->p_vaddr);
		p->p_paddr = h64(p->p_paddr);
		p->p_filesz = h64(p->p_filesz);
		p->p_memsz = h64(p->p_memsz);
		p->p_align = h64(p->p_align);
	}
	for (int i = 0; i < n; i++) {
		if (phdr[i].p_type == PT_NOTE) {
			if (note_idx >= 0)
				return fail("more than one PT_NOTE");
			note_idx = i;
		} else if (phdr[i].p_type == PT_LOAD && phdr[i].p_filesz &&
			   phdr[i].p_offset < old_data) {
			old_data = phdr[i].p_offset;
		}
	}
	if (old_data == UINT64_MAX)
		return fail("no PT_LOAD");

	/* the pointer, then the note it points to */
	if (lowcore) {
		if (read_phys(S390_LC_VMCORE_INFO, &ptr, sizeof(ptr)))
			return fail("cannot read the absolute lowcore's vmcore_info at 0xe0c");
		note_pa = m64(ptr);
		if (!note_pa) {
			errno = 0;
			return fail("the absolute lowcore's vmcore_info is 0 (no VMCOREINFO set up)");
		}
	} else {
		if (va < page_offset || read_phys(va - page_offset, &ptr, sizeof(ptr)))
			return fail("cannot read the pointer vmcoreinfo_note");
		ptr = m64(ptr);
		if (ptr < page_offset)
			return fail("vmcoreinfo_note is not a linear-map address");
		note_pa = ptr - page_offset;
	}
	if (read_phys(note_pa, &nh, sizeof(nh)))
		return fail("cannot read the note vmcoreinfo_note points to");
	nh.n_namesz = m32(nh.n_namesz);
	nh.n_descsz = m32(nh.n_descsz);
	nh.n_type = m32(nh.n_type);
	if (nh.n_namesz != sizeof("VMCOREINFO") || nh.n_type != 0 ||
	    nh.n_descsz == 0 || nh.n_descsz > MAX_DESC)
		return fail("vmcoreinfo_note points to no VMCOREINFO note");
	note_len = sizeof(nh) + ALIGN4(nh.n_namesz) + ALIGN4(nh.n_descsz);
	note = malloc(note_len);
	if (!note || read_phys(note_pa, note, note_len))
		return fail("cannot read the VMCOREINFO note");
	if (memcmp(note + sizeof(nh), "VMCOREINFO", sizeof("VMCOREINFO")) ||
	    memcmp(note + sizeof(nh) + ALIGN4(nh.n_namesz), "OSRELEASE=", 10))
		return fail("the note is not VMCOREINFO (no OSRELEASE= first)");

	/* the notes QEMU wrote (CPU state), if any, then VMCOREINFO */
	if (note_idx >= 0) {
		notes_len = phdr[note_idx].p_filesz;
		notes = malloc(notes_len + 1);
		if (!notes || pread(in_fd, notes, notes_len, phdr[note_idx].p_offset) !=
				      (ssize_t)notes_len)
			return fail("cannot read the PT_NOTE segment");
		if (memmem(notes, notes_len, "VMCOREINFO", sizeof("VMCOREINFO"))) {
			errno = 0;
			return fail("already has a VMCOREINFO note");
		}
		if (swap && !out_swap) { /* QEMU's PowerPC64 notes: NT_PRSTATUS only */
			uint64_t i = 0, o = 0, len;

			while (notes_len - i >= sizeof(Elf64_Nhdr)) {
				Elf64_Nhdr *h = (Elf64_Nhdr *)(notes + i);
				char *r;
				uint64_t v;

				h->n_namesz = h32(h->n_namesz);
				h->n_descsz = h32(h->n_descsz);
				h->n_type = h32(h->n_type);
				len = sizeof(*h) + ALIGN4(h->n_namesz) + ALIGN4(h->n_descsz);
				if (len > notes_len - i) {
					errno = 0;
					return fail("a CPU note runs past its segment");
				}
				if (h->n_type == NT_PRSTATUS && h->n_namesz == sizeof("CORE") &&
				    h->n_descsz == PPC_PRSTATUS_SIZE) {
					r = notes + i + sizeof(*h) + ALIGN4(h->n_namesz) +
					    PPC_PRSTATUS_REGS;
					for (int k = 0; k < PPC_PRSTATUS_NREGS; k++) {
						memcpy(&v, r + 8 * k, 8);
						v = h64(v);
						memcpy(r + 8 * k, &v, 8);
					}
					memmove(notes + o, notes + i, len);
					o += len;
				}
				i += len;
			}
			notes_len = o;
		}
		nphdr = &phdr[note_idx];
	} else {
		/* a new PT_NOTE first: readers take the notes before the loads */
		memmove(&phdr[1], &phdr[0], n * sizeof(*phdr));
		n++;
		nphdr = &phdr[0];
		memset(nphdr, 0, sizeof(*nphdr));
		nphdr->p_type = PT_NOTE;
	}
	hdr_end = sizeof(ehdr) + n * sizeof(*phdr);
	nphdr->p_offset = hdr_end;
	nphdr->p_filesz = notes_len + note_len;
	nphdr->p_memsz = 0;
	nphdr->p_align = 0;
	/* the memory keeps its offset modulo 64 KiB */
	new_data = hdr_end + nphdr->p_filesz;
	new_data = ((new_data + 0xffff) & ~(uint64_t)0xffff) + (old_data & 0xffff);
	delta = new_data - old_data;

	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return fail("cannot create the output");
	for (int i = 0; i < n; i++) {
		if (phdr[i].p_type != PT_NOTE && phdr[i].p_filesz) {
			if (phdr[i].p_offset < old_data)
				return fail("a segment lies before the memory");
			phdr[i].p_offset += delta;
		}
	}
	/* the headers in OUT's byte order */
	oehdr = ehdr;
	oehdr.e_ident[EI_DATA] = out_swap ? ELFDATA2MSB : ELFDATA2LSB;
	oehdr.e_type = o16(ehdr.e_type);
	oehdr.e_machine = o16(ehdr.e_machine);
	oehdr.e_version = o32(ehdr.e_version);
	oehdr.e_entry = o64(ehdr.e_entry);
	oehdr.e_phoff = o64(sizeof(ehdr));
	oehdr.e_shoff = 0;
	oehdr.e_flags = o32(ehdr.e_flags);
	oehdr.e_ehsize = o16(sizeof(ehdr));
	oehdr.e_phentsize = o16(sizeof(*phdr));
	oehdr.e_phnum = o16(n);
	oehdr.e_shentsize = 0;
	oehdr.e_shnum = 0;
	oehdr.e_shstrndx = o16(SHN_UNDEF);
	ophdr = calloc(n, sizeof(*ophdr));
	if (!ophdr)
		return fail("out of memory");
	for (int i = 0; i < n; i++) {
		ophdr[i].p_type = o32(phdr[i].p_type);
		ophdr[i].p_flags = o32(phdr[i].p_flags);
		ophdr[i].p_offset = o64(phdr[i].p_offset);
		ophdr[i].p_vaddr = o64(phdr[i].p_vaddr);
		ophdr[i].p_paddr = o64(phdr[i].p_paddr);
		ophdr[i].p_filesz = o64(phdr[i].p_filesz);
		ophdr[i].p_memsz = o64(phdr[i].p_memsz);
		ophdr[i].p_align = o64(phdr[i].p_align);
	}
	if (pwrite(out, &oehdr, sizeof(oehdr), 0) != sizeof(oehdr) ||
	    pwrite(out, ophdr, n * sizeof(*ophdr), sizeof(oehdr)) !=
		    (ssize_t)(n * sizeof(*ophdr)) ||
	    (notes_len && pwrite(out, notes, notes_len, hdr_end) != (ssize_t)notes_len) ||
	    pwrite(out, note, note_len, hdr_end + notes_len) != (ssize_t)note_len)
		return fail("cannot write the headers and notes");
	{
		off_t end = lseek(in_fd, 0, SEEK_END);

		if (end < 0 || (uint64_t)end < old_data ||
		    copy(out, new_data, old_data, end - old_data))
			return fail("cannot copy the memory");
	}
	if (close(out))
		return fail("cannot write the output");
	printf("%llu bytes of VMCOREINFO from physical 0x%llx\n",
	       (unsigned long long)nh.n_descsz, (unsigned long long)note_pa);
	return 0;
}
