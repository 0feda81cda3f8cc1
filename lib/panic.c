// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The panicking CPU, a session-level fact every front end can ask for.
 *
 * kernel/panic.c keeps it in panic_cpu (an atomic_t, PANIC_CPU_INVALID = -1
 * until someone panics; 4.5+). Since the same 4.5 change crash_kexec() takes
 * panic_cpu too, so a kdump started by an oops with panic_on_oops off still
 * records the CPU. x86 also keeps crashing_cpu (arch/x86/kernel/reboot.c),
 * set by native_machine_crash_shutdown() on the CPU that enters the capture
 * kernel: the fallback when panic_cpu is absent or still -1.
 */
#include <string.h>
#include "internal.h"

static int read_cpu(struct kt_session *s, const char *sym, int *cpu)
{
	uint64_t addr;
	uint32_t v;
	int err;

	err = kt_symbol(s, sym, &addr);
	if (err)
		return err;
	/* atomic_t and int are both a 32-bit int at offset 0 */
	err = kt_read_u32(s, addr, &v);
	if (err) {
		kt_warn(s, "cannot read %s at 0x%llx: %s", sym, (unsigned long long)addr,
			strerror(-err));
		return err;
	}
	*cpu = (int32_t)v;
	return 0;
}

void kt_panic__load(struct kt_session *s)
{
	static const char *const syms[] = { "panic_cpu", "crashing_cpu" };
	size_t i;
	int cpu;

	s->panic_cpu = -1;
	s->panic_cpu_source = NULL;
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (read_cpu(s, syms[i], &cpu))
			continue;
		if (cpu < 0)
			continue;
		if (cpu >= s->nr_cpu_ids) {
			kt_warn(s, "%s is %d, not below nr_cpu_ids %d: ignored", syms[i], cpu,
				s->nr_cpu_ids);
			continue;
		}
		s->panic_cpu = cpu;
		s->panic_cpu_source = syms[i];
		return;
	}
}

int kt_session__panic_cpu(const struct kt_session *s, const char **source)
{
	if (source)
		*source = s->panic_cpu_source;
	return s->panic_cpu;
}
