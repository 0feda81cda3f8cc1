// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The vmlinux DWARF one compilation unit at a time.
 *
 * libdw finds a unit from an offset by reading the header of every unit
 * before it (libdw/libdw_findcu.c), and dwarf_getaranges() reads the
 * header of every unit .debug_aranges names. On a distribution vmlinux
 * that is some 3,000 headers spread over 150+ MB of .debug_info, and
 * each one read through the file mapping brings the pages around it in
 * too (the kernel maps up to fault_around_bytes, 64 KiB, per fault):
 * about 100 MB of resident file pages for a dozen units of interest.
 *
 * So the unit that holds an address is looked up in .debug_aranges here,
 * and libdw is given an ELF image in memory (elf_memory()) whose
 * .debug_info is that one unit and whose other .debug_* sections are
 * the file's own bytes, nothing copied. Unit-relative references
 * (DW_FORM_ref1..ref_udata), the only kind GCC emits within a unit of a
 * kernel built without LTO, and offsets into .debug_abbrev, .debug_str
 * and the other sections stay valid. Only the pages of the units read
 * and of the strings and abbreviations they use become resident.
 *
 * The image is read by libelf as a file is: since elfutils 0.189
 * dwarf_begin_elf() takes each section with elf_rawdata(), which gives
 * only data read from a file or memory image, never data added with
 * elf_newdata() (ELF_E_DATA_MISMATCH; libdw then says "invalid ELF
 * file"). So the images live in one mapping of our own: header slots,
 * one page each, and after them the file from its first .debug_*
 * section to the end of its last, mapped read-only. An image starts at
 * its slot (ELF header, section headers, section names) and ends with
 * the mapping; its sections' offsets reach past the slots into the
 * file's bytes. Every image and the walk over every unit read those
 * bytes through this one mapping, so no page of them is resident twice.
 *
 * A walk over every unit (the slow path of types for a name no anchor
 * finds) reads all of .debug_info through an image of the same kind, and
 * gives back the pages of the units it has left behind: clean pages of
 * a file, read again from it if a DIE kept in the index is asked for.
 *
 * Compressed sections (SHF_COMPRESSED, or the older .zdebug_*) are not
 * the file's bytes: then, as when libdw refuses an image, libdw's own
 * lookup on the whole file, which decompresses them.
 */
#include <byteswap.h>
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "dwarf-unit.h"

/* header slots: one per unit read, and one for the walk over every unit */
#define DUNIT_SLOTS 1024
/* see map_sections() */
#define MAP_ALIGN ((size_t)2 << 20)

/* the file's .debug_* sections, given to every image */
struct dsec {
	uint64_t off;		/* in the file */
	uint64_t size;
	GElf_Word type;
	size_t name;		/* offset in kx_dunits.names */
};

/* one unit read: its image, its handle, its unit DIE */
struct dunit {
	uint64_t off;		/* of the unit header in .debug_info */
	uint64_t die_off;
	Elf *elf;
	Dwarf *dw;
	Dwarf_Die cudie;
};

struct kx_dunits {
	Elf *elf;
	int fd;
	int swap;		/* the file's byte order is not ours */
	int class;		/* ELFCLASS32 or ELFCLASS64 */
	int compressed;		/* a .debug_* section is */
	GElf_Ehdr ehdr;
	const struct dsec *info, *aranges;
	struct dsec secs[24];
	size_t nsecs;
	char names[512];	/* the images' .shstrtab */
	size_t names_len, shstrtab_name;
	struct dunit *units;
	size_t nunits, units_cap;
	/*
	 * The images' mapping: nslots header slots of slot_size bytes, then
	 * the file's bytes from map_file_off on. NULL when there is none
	 * (compressed sections, or mmap() failed).
	 */
	char *map;
	size_t map_len, slot_size, nslots, slots_used;
	uint64_t map_file_off;
	int image_failed;	/* libdw refused an image, or there is none */
	/* the walk over every unit: its handle and image */
	Dwarf *all;
	Elf *all_elf;
};

static uint64_t get_uint(const struct kx_dunits *u, const unsigned char *p,
			 unsigned int size)
{
	uint64_t v = 0;
	uint32_t v32;
	uint16_t v16;

	switch (size) {
	case 2:
		memcpy(&v16, p, 2);
		return u->swap ? bswap_16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return u->swap ? bswap_32(v32) : v32;
	default:
		memcpy(&v, p, 8);
		return u->swap ? bswap_64(v) : v;
	}
}

/* Store @v in @size bytes at @p in the file's byte order; return the end */
static unsigned char *put_uint(const struct kx_dunits *u, unsigned char *p,
			       unsigned int size, uint64_t v)
{
	uint64_t v64 = u->swap ? bswap_64(v) : v;
	uint32_t v32 = u->swap ? bswap_32((uint32_t)v) : (uint32_t)v;
	uint16_t v16 = u->swap ? bswap_16((uint16_t)v) : (uint16_t)v;

	switch (size) {
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v64, 8);
		break;
	}
	return p + size;
}

static int add_name(struct kx_dunits *u, const char *name, size_t *off)
{
	size_t len = strlen(name) + 1;

	if (len > sizeof(u->names) - u->names_len)
		return -ENOMEM;
	memcpy(u->names + u->names_len, name, len);
	*off = u->names_len;
	u->names_len += len;
	return 0;
}

/* the bytes of section @s in the images' mapping */
static const unsigned char *sec_bytes(const struct kx_dunits *u,
				      const struct dsec *s)
{
	return (const unsigned char *)u->map + u->nslots * u->slot_size +
	       (s->off - u->map_file_off);
}

/* Collect the file's .debug_* sections: their place, type and name. */
static int collect_sections(struct kx_dunits *u)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int ret;

	if (elf_getshdrstrndx(u->elf, &shstrndx))
		return -EIO;
	u->names_len = 1;
	while ((scn = elf_nextscn(u->elf, scn))) {
		struct dsec *s;
		GElf_Shdr shdr;
		const char *name;
		char plain[64];

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    !shdr.sh_size)
			continue;
		name = elf_strptr(u->elf, shstrndx, shdr.sh_name);
		if (!name)
			continue;
		if (!strncmp(name, ".zdebug_", 8)) {
			u->compressed = 1;
			snprintf(plain, sizeof(plain), ".%s", name + 2);
			name = plain;
		} else if (strncmp(name, ".debug_", 7)) {
			continue;
		} else if (shdr.sh_flags & SHF_COMPRESSED) {
			u->compressed = 1;
		}
		if (u->nsecs == sizeof(u->secs) / sizeof(u->secs[0]))
			break;
		s = &u->secs[u->nsecs];
		s->off = shdr.sh_offset;
		s->size = shdr.sh_size;
		s->type = shdr.sh_type;
		ret = add_name(u, name, &s->name);
		if (ret)
			return ret;
		if (!strcmp(name, ".debug_info"))
			u->info = s;
		else if (!strcmp(name, ".debug_aranges"))
			u->aranges = s;
		u->nsecs++;
	}
	if (!u->info)
		return -ENOENT;
	return add_name(u, ".shstrtab", &u->shstrtab_name);
}

/* the size of an image's headers: ELF header, section headers, names */
static size_t headers_size(const struct kx_dunits *u)
{
	size_t ehsize = u->class == ELFCLASS32 ? 52 : 64;
	size_t shentsize = u->class == ELFCLASS32 ? 40 : 64;

	/* the null section, the .debug_* sections, .shstrtab */
	return ehsize + (u->nsecs + 2) * shentsize + u->names_len;
}

/*
 * Map the header slots and, after them, the file from its first .debug_*
 * section to the end of its last (the sections between are mapped too,
 * never read). Nothing is mapped, and libdw reads the whole file, when
 * a section is compressed or lies past the end of the file.
 */
static void map_sections(struct kx_dunits *u)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t slots, span, i;
	struct stat st;
	char *raw, *map;

	if (u->compressed || page <= 0 || fstat(u->fd, &st))
		return;
	for (i = 0; i < u->nsecs; i++) {
		const struct dsec *s = &u->secs[i];

		if (s->off > (uint64_t)st.st_size ||
		    s->size > (uint64_t)st.st_size - s->off)
			return;
		if (s->off < lo)
			lo = s->off;
		if (s->off + s->size > hi)
			hi = s->off + s->size;
	}
	lo -= lo % (uint64_t)page;
	if (hi - lo > SIZE_MAX / 2)
		return;
	span = hi - lo;
	u->slot_size = (headers_size(u) + page - 1) / page * page;
	u->nslots = DUNIT_SLOTS;
	slots = u->nslots * u->slot_size;
	u->map_len = slots + span;
	/*
	 * The whole range reserved at once, then filled in place. The file's
	 * bytes land at an address congruent to their offset modulo 2 MiB,
	 * as in libelf's own mapping of the file (the kernel aligns a large
	 * mapping to 2 MiB): the kernel brings in the cached pages around a
	 * fault by windows aligned on the address (fault_around_bytes), so
	 * this mapping makes the same pages resident as that one would.
	 */
	if (u->map_len > SIZE_MAX - MAP_ALIGN)
		return;
	raw = mmap(NULL, u->map_len + MAP_ALIGN, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return;
	map = raw + (lo - ((uintptr_t)raw + slots)) % MAP_ALIGN;
	if (map > raw)
		munmap(raw, map - raw);
	munmap(map + u->map_len, raw + MAP_ALIGN - map);
	if (mprotect(map, slots, PROT_READ | PROT_WRITE) ||
	    mmap(map + slots, span, PROT_READ, MAP_PRIVATE | MAP_FIXED, u->fd,
		 (off_t)lo) == MAP_FAILED) {
		munmap(map, u->map_len);
		return;
	}
	u->map = map;
	u->map_file_off = lo;
}

int kx_dunits__open(Elf *elf, int fd, struct kx_dunits **out)
{
	struct kx_dunits *u;
	int ret;

	*out = NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->elf = elf;
	u->fd = fd;
	if (!gelf_getehdr(elf, &u->ehdr)) {
		free(u);
		return -EIO;
	}
	u->class = gelf_getclass(elf);
	u->swap = u->ehdr.e_ident[EI_DATA] !=
		  (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB);
	ret = collect_sections(u);
	if (ret) {
		kx_dunits__close(u);
		return ret;
	}
	map_sections(u);
	u->image_failed = !u->map;
	if (u->image_failed && getenv("KTRACE_DEBUG"))
		fprintf(stderr, "ktrace-extract: DWARF: no one-unit images (%s); "
			"reading the whole file\n",
			u->compressed ? "compressed sections" : "cannot map them");
	*out = u;
	return 0;
}

void kx_dunits__close(struct kx_dunits *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nunits; i++) {
		dwarf_end(u->units[i].dw);
		elf_end(u->units[i].elf);
	}
	free(u->units);
	if (u->all)
		dwarf_end(u->all);
	if (u->all_elf)
		elf_end(u->all_elf);
	if (u->map)
		munmap(u->map, u->map_len);
	free(u);
}

/*
 * An image, in the next free slot, whose .debug_info is the @size bytes
 * at @off of the file's .debug_info: NULL when the slots are all taken
 * or libelf will not read it. Its headers are in the file's class and
 * byte order, as libelf reads a file; section offsets count from the
 * slot.
 */
static Elf *unit_image(struct kx_dunits *u, uint64_t off, uint64_t size)
{
	unsigned int ws = u->class == ELFCLASS32 ? 4 : 8;
	size_t ehsize = ws == 4 ? 52 : 64, shentsize = ws == 4 ? 40 : 64;
	size_t shnum = u->nsecs + 2, names_off = ehsize + shnum * shentsize;
	unsigned char *slot, *p;
	uint64_t data;
	size_t i;
	Elf *e;

	if (u->slots_used == u->nslots)
		return NULL;
	slot = (unsigned char *)u->map + u->slots_used * u->slot_size;
	/* the file's offset 0, counted from the slot */
	data = (u->nslots - u->slots_used) * u->slot_size - u->map_file_off;
	/* the ELF header */
	memcpy(slot, u->ehdr.e_ident, EI_NIDENT);
	p = put_uint(u, slot + EI_NIDENT, 2, u->ehdr.e_type);
	p = put_uint(u, p, 2, u->ehdr.e_machine);
	p = put_uint(u, p, 4, EV_CURRENT);
	p = put_uint(u, p, ws, 0);		/* e_entry */
	p = put_uint(u, p, ws, 0);		/* e_phoff */
	p = put_uint(u, p, ws, ehsize);		/* e_shoff */
	p = put_uint(u, p, 4, u->ehdr.e_flags);
	p = put_uint(u, p, 2, ehsize);
	p = put_uint(u, p, 2, 0);		/* e_phentsize */
	p = put_uint(u, p, 2, 0);		/* e_phnum */
	p = put_uint(u, p, 2, shentsize);
	p = put_uint(u, p, 2, shnum);
	p = put_uint(u, p, 2, shnum - 1);	/* e_shstrndx */
	/* the section headers: null, the .debug_* sections, .shstrtab */
	memset(p, 0, shentsize);
	p += shentsize;
	for (i = 0; i <= u->nsecs; i++) {
		const struct dsec *s = i < u->nsecs ? &u->secs[i] : NULL;
		uint64_t sh_off = s ? data + s->off : names_off;
		uint64_t sh_size = s ? s->size : u->names_len;

		if (s == u->info) {
			sh_off += off;
			sh_size = size;
		}
		p = put_uint(u, p, 4, s ? s->name : u->shstrtab_name);
		p = put_uint(u, p, 4, s ? s->type : SHT_STRTAB);
		p = put_uint(u, p, ws, 0);	/* sh_flags */
		p = put_uint(u, p, ws, 0);	/* sh_addr */
		p = put_uint(u, p, ws, sh_off);
		p = put_uint(u, p, ws, sh_size);
		p = put_uint(u, p, 4, 0);	/* sh_link */
		p = put_uint(u, p, 4, 0);	/* sh_info */
		p = put_uint(u, p, ws, 1);	/* sh_addralign */
		p = put_uint(u, p, ws, 0);	/* sh_entsize */
	}
	memcpy(p, u->names, u->names_len);
	e = elf_memory((char *)slot, u->map_len - u->slots_used * u->slot_size);
	if (e)
		u->slots_used++;
	return e;
}

Dwarf *kx_dunits__all(struct kx_dunits *u)
{
	if (u->all)
		return u->all;
	if (!u->image_failed) {
		u->all_elf = unit_image(u, 0, u->info->size);
		if (u->all_elf)
			u->all = dwarf_begin_elf(u->all_elf, DWARF_C_READ, NULL);
		if (u->all)
			return u->all;
		if (u->all_elf)
			elf_end(u->all_elf);
		u->all_elf = NULL;
	}
	u->all = dwarf_begin_elf(u->elf, DWARF_C_READ, NULL);
	return u->all;
}

void kx_dunits__release(struct kx_dunits *u, uint64_t from, uint64_t to)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t first, start, end;

	if (!u->all_elf || page <= 0 || from >= to || to > u->info->size)
		return;
	/* the page holding @to may hold the next unit too: kept */
	first = u->nslots * u->slot_size;
	start = (size_t)(sec_bytes(u, u->info) - (const unsigned char *)u->map) + from;
	end = start + (to - from);
	start -= start % (size_t)page;
	end -= end % (size_t)page;
	/* never a header slot: they are the only pages not of the file */
	if (start < first)
		start = first;
	if (start >= end)
		return;
	/* our own PROT_READ, MAP_PRIVATE mapping of the file: never written */
	madvise(u->map + start, end - start, MADV_DONTNEED);
}

/*
 * The .debug_info offset of the unit whose .debug_aranges set covers
 * @addr (DWARF 5 section 6.1.2; the same layout since DWARF 2): 0, or
 * -ENOENT. A set that cannot be parsed is skipped.
 */
static int aranges_find(const struct kx_dunits *u, uint64_t addr, uint64_t *off)
{
	const unsigned char *p = sec_bytes(u, u->aranges);
	const unsigned char *end = p + u->aranges->size;

	while (end - p >= 4) {
		const unsigned char *set = p, *next;
		unsigned int offsize = 4, asize, tsize;
		uint64_t len = get_uint(u, p, 4), info_off;

		p += 4;
		if (len == 0xffffffff) {
			if (end - p < 8)
				break;
			len = get_uint(u, p, 8);
			p += 8;
			offsize = 8;
		}
		if (len > (uint64_t)(end - p))
			break;
		next = p + len;
		if (next - p < 2 + offsize + 2 || get_uint(u, p, 2) != 2) {
			p = next;
			continue;
		}
		info_off = get_uint(u, p + 2, offsize);
		asize = p[2 + offsize];
		p += 2 + offsize + 2;
		/* a segment selector size other than 0 is not for us */
		if ((asize != 4 && asize != 8) || p[-1]) {
			p = next;
			continue;
		}
		tsize = 2 * asize;
		p += (tsize - (size_t)(p - set) % tsize) % tsize;
		while (next - p >= (ptrdiff_t)tsize) {
			uint64_t start = get_uint(u, p, asize);
			uint64_t length = get_uint(u, p + asize, asize);

			if (!start && !length)
				break;
			if (addr >= start && addr - start < length) {
				*off = info_off;
				return 0;
			}
			p += tsize;
		}
		p = next;
	}
	return -ENOENT;
}

/*
 * Read the unit at @off of .debug_info into a new entry of u->units:
 * 0, -ENOSPC when the slots are all taken, -EIO when the unit cannot be
 * read or libdw refuses its image, -ENOMEM.
 */
static int read_unit(struct kx_dunits *u, uint64_t off, struct dunit **out)
{
	const unsigned char *p = sec_bytes(u, u->info) + off;
	uint64_t left = u->info->size - off, len, hdr = 4;
	struct dunit *du;
	Dwarf_Off next;
	size_t hsize;

	if (off >= u->info->size || left < 4)
		return -EIO;
	len = get_uint(u, p, 4);
	if (len == 0xffffffff) {
		if (left < 12)
			return -EIO;
		len = get_uint(u, p + 4, 8);
		hdr = 12;
	}
	if (len > left - hdr)
		return -EIO;
	/* the last slot is kept for the walk over every unit */
	if (u->slots_used + 1 >= u->nslots)
		return -ENOSPC;
	if (u->nunits == u->units_cap) {
		size_t cap = u->units_cap ? 2 * u->units_cap : 16;
		struct dunit *units = realloc(u->units, cap * sizeof(*units));

		if (!units)
			return -ENOMEM;
		u->units = units;
		u->units_cap = cap;
	}
	du = &u->units[u->nunits];
	memset(du, 0, sizeof(*du));
	du->off = off;
	du->elf = unit_image(u, off, hdr + len);
	if (!du->elf)
		return -EIO;
	du->dw = dwarf_begin_elf(du->elf, DWARF_C_READ, NULL);
	if (!du->dw || dwarf_nextcu(du->dw, 0, &next, &hsize, NULL, NULL, NULL) ||
	    !dwarf_offdie(du->dw, hsize, &du->cudie)) {
		if (du->dw)
			dwarf_end(du->dw);
		elf_end(du->elf);
		return -EIO;
	}
	du->die_off = off + hsize;
	u->nunits++;
	*out = du;
	return 0;
}

/* libdw's own lookup on the whole file (no .debug_aranges, or no image) */
static int whole_file_at_addr(struct kx_dunits *u, uint64_t addr,
			      Dwarf_Die *cudie, uint64_t *die_off)
{
	Dwarf *all = kx_dunits__all(u);

	if (!all)
		return -EIO;
	if (!dwarf_addrdie(all, addr, cudie))
		return -ENOENT;
	*die_off = dwarf_dieoffset(cudie);
	return 0;
}

int kx_dunits__at_addr(struct kx_dunits *u, uint64_t addr, Dwarf_Die *cudie,
		       uint64_t *die_off)
{
	struct dunit *du = NULL;
	uint64_t off;
	size_t i;
	int ret;

	if (!u->aranges || u->image_failed)
		return whole_file_at_addr(u, addr, cudie, die_off);
	ret = aranges_find(u, addr, &off);
	if (ret)
		return ret;
	for (i = 0; i < u->nunits; i++)
		if (u->units[i].off == off)
			du = &u->units[i];
	if (!du) {
		ret = read_unit(u, off, &du);
		if (ret == -ENOSPC)
			/* every slot taken: this unit through the whole file */
			return whole_file_at_addr(u, addr, cudie, die_off);
		if (ret == -EIO) {
			/* libdw would not read the one-unit image: from now
			 * on, libdw's own lookup on the whole file */
			u->image_failed = 1;
			if (getenv("KTRACE_DEBUG"))
				fprintf(stderr, "ktrace-extract: DWARF: libdw refused the "
					"one-unit image (%s); reading the whole file\n",
					dwarf_errmsg(-1));
			return whole_file_at_addr(u, addr, cudie, die_off);
		}
		if (ret)
			return ret;
	}
	*cudie = du->cudie;
	*die_off = du->die_off;
	return 0;
}
