# shellcheck shell=bash
# ktrace-qemu: the virtual machine (sourced by ktrace-qemu, not run).
# The accelerator, one boot until the panic (or not), and the capture of
# the dumps (and of the truth disk of the marker workload).

# /dev/kvm may exist where KVM does not work: nested, QEMU aborts at the first
# vCPU reset ("failed to set MSR 0x10a"). Probe once (a KVM guest that is
# still running after 3 s works), cache the answer per host kernel and QEMU,
# and fall back to TCG. Where KVM passes that probe but stops the real guest
# ("internal-error": seen on nested hosts), boot falls back to TCG and the
# cached answer becomes tcg; so does a guest that writes nothing to its
# console before the boot times out. KTRACE_ACCEL=tcg|kvm overrides. The TCG CPU model has
# 4-level paging like most machines that dump (KTRACE_CPU=max: 5-level).
# An arm64 guest (arch=arm64: QEMU's virt machine) runs under TCG on this
# x86-64 host, with -cpu max (the 16 KiB and 64 KiB granules, LPA2), its
# pointer authentication QEMU's own cheap algorithm (pauth-impdef: the
# architected one is most of TCG's time); no KVM probe. A ppc64el guest
# (arch=ppc64el) is QEMU's pseries machine under TCG, -cpu power9 (the
# machine's default, named so that fixtures stay the same on a newer QEMU).
# An s390x guest (arch=s390x) is QEMU's s390-ccw-virtio machine under TCG,
# -cpu max (every facility TCG emulates; Debian's kernels want a z10).
probe_kvm() {
	local key f rc=0
	[ "$arch" = amd64 ] || return 1
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	key=$(printf '%s %s' "$(uname -r)" "$(qemu-system-x86_64 --version | head -n1)" | sha256sum | cut -c1-12)
	f=$KTRACE_CACHE/accel-$key
	accel_file=$f
	if [ ! -s "$f" ]; then
		mkdir -p "$KTRACE_CACHE"
		timeout 3 qemu-system-x86_64 -accel kvm -cpu host -machine q35 -nodefaults \
			-display none -no-reboot >/dev/null 2>&1 || rc=$?
		if [ $rc -eq 124 ]; then echo kvm >"$f"; else echo tcg >"$f"; fi
	fi
	[ "$(cat "$f")" = kvm ]
}
accel_file= accel_auto=
accel_name=${KTRACE_ACCEL:-auto}
if [ "$accel_name" = auto ]; then
	accel_auto=1
	accel_name=tcg
	probe_kvm && accel_name=kvm
fi
set_accel() {
	case $accel_name in
	kvm)
		[ "$arch" = amd64 ] || usage_err "KTRACE_ACCEL=kvm: an $arch guest runs under TCG only"
		accel=(-accel kvm -cpu host) ;;
	tcg)
		if [ "$arch" = arm64 ]; then
			accel=(-accel tcg -cpu "${KTRACE_CPU:-max,pauth-impdef=on}")
		elif [ "$arch" = ppc64el ]; then
			accel=(-accel tcg -cpu "${KTRACE_CPU:-power9}")
		elif [ "$arch" = s390x ]; then
			accel=(-accel tcg -cpu "${KTRACE_CPU:-max}")
		else
			accel=(-accel tcg -cpu "${KTRACE_CPU:-max,la57=off}")
		fi ;;
	*) usage_err "KTRACE_ACCEL must be auto, kvm or tcg" ;;
	esac
}
set_accel

# kvm_failed: KVM stopped the guest; with the accelerator chosen by the
# probe, remember tcg for this host and use it from now on (status 0)
kvm_failed() {
	[ "$accel_name" = kvm ] && [ -n "$accel_auto" ] || return 1
	[ -n "$accel_file" ] && echo tcg >"$accel_file"
	note "KVM stopped the guest (internal-error, or not one byte on its console) although /dev/kvm works: TCG from now on (remembered in ${accel_file:-nothing})"
	accel_name=tcg
	set_accel
}

# qmp CMD-JSON...: one QMP session over the unix socket; prints the replies.
qmp() {
	local reply
	reply=$({
		echo '{"execute":"qmp_capabilities"}'
		for c; do echo "$c"; done
		sleep 0.2
	} | socat -t 600 -T 600 - "UNIX-CONNECT:$work/qmp.sock" 2>/dev/null) || return 1
	printf '%s\n' "$reply" | grep -v '"QMP"' | grep -v '^{"return": {}}$' || true
}

stop_qemu() {
	[ -n "$qpid" ] || return 0
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null || true
	qpid=
}

# boot: one boot; sets boot_result to panic, early (QEMU ended or the time
# ran out before /init started: worth a retry), failed (/init could not set
# up the guest) or nopanic; and the time stamps t_qemu, t_init, t_work
# (the workload starts), t_exit (the reproducer exited) and t_panic.
boot() {
	local st c
	rm -f "$work/qmp.sock" "$out/console.log"
	truncate -s 0 "$work/truth.img"
	truncate -s $((64 + (buffer_kb + ${instance_buffer_kb:-0}) * cpus * 8 / 1024))M "$work/truth.img"
	# --truth-disk raw: no file system, the guest writes a tar archive
	[ "$truth_disk" = raw ] || mkfs.ext4 -q -F -E lazy_itable_init=1 "$work/truth.img"
	t_qemu=$(now) t_init= t_work= t_exit= t_panic=
	vmcoreinfo=(-device vmcoreinfo)
	# arm64: virt (PL011 console ttyAMA0, PCIe, fw_cfg for vmcoreinfo), the
	# Image (unpacked when it came compressed), pvpanic on PCI
	# ppc64el: pseries (the vmlinux ELF booted by VOF, QEMU's minimal
	# Open Firmware, rather than SLOF; hvc0 on the first spapr-vty; no
	# pvpanic: the kernel's ibm,os-term RTAS call or the console say it
	# panicked; no fw_cfg, so no vmcoreinfo device: see capture)
	# s390x: s390-ccw-virtio (vmlinuz loaded by QEMU's -kernel; -serial is
	# the SCLP VT220 console ttysclp0; -drive if=virtio a virtio-blk-ccw
	# disk; no pvpanic: panic() ends in a disabled-wait PSW, which QEMU
	# reports as guest-panicked; no fw_cfg either: see capture)
	if [ "$arch" = arm64 ]; then
		machine=(-machine virt -kernel "$arm_image" -device pvpanic-pci)
	elif [ "$arch" = ppc64el ]; then
		machine=(-machine pseries,x-vof=on -kernel "$kernel")
		vmcoreinfo=()
	elif [ "$arch" = s390x ]; then
		machine=(-machine s390-ccw-virtio -kernel "$kernel")
		vmcoreinfo=()
	else
		machine=(-machine q35 -kernel "$kernel" -device pvpanic)
	fi
	"$qemu_bin" "${accel[@]}" -smp "$cpus" -m "$mem" \
		"${machine[@]}" -nodefaults -display none -no-reboot \
		-initrd "$work/initrd" -append "$cmdline" \
		-serial "file:$out/console.log" \
		-drive "file=$work/truth.img,if=virtio,format=raw,cache=unsafe" \
		"${vmcoreinfo[@]}" -action panic=pause \
		-qmp "unix:$work/qmp.sock,server=on,wait=off" &
	qpid=$!
	while :; do
		sleep 0.25
		c=$out/console.log
		[ -n "$t_init" ] || ! grep -aq 'ktrace-guest: init started' "$c" 2>/dev/null || t_init=$(now)
		[ -n "$t_work" ] || ! grep -aq 'ktrace-guest: workload start' "$c" 2>/dev/null || t_work=$(now)
		[ -n "$t_exit" ] || ! grep -aq 'ktrace-guest: reproducer exited' "$c" 2>/dev/null || t_exit=$(now)
		if ! kill -0 "$qpid" 2>/dev/null; then
			wait "$qpid" 2>/dev/null || true
			qpid=
			note "QEMU exited before a panic"
			if grep -aq 'ktrace-guest: FAILED' "$c"; then boot_result=failed
			elif [ -z "$t_init" ]; then boot_result=early
			else boot_result=nopanic; fi
			return
		fi
		if [ -S "$work/qmp.sock" ]; then
			st=$(qmp '{"execute":"query-status"}' | grep -o '"status": "[a-z-]*"' || true)
			case $st in
			*guest-panicked*) t_panic=$(now); boot_result=panic; return ;;
			*internal-error*)
				if [ "$accel_name" = kvm ]; then
					stop_qemu
					boot_result=kvmfail
					return
				fi ;;
			esac
		fi
		# A kernel without a pvpanic driver still says so on the console.
		if grep -aq 'Kernel panic - not syncing' "$c" 2>/dev/null; then
			t_panic=$(now)
			sleep 1
			qmp '{"execute":"stop"}' >/dev/null
			note "panic seen on the console (no pvpanic event): stopped the guest"
			boot_result=panic
			return
		fi
		if grep -aq 'ktrace-guest: FAILED' "$c" 2>/dev/null; then
			stop_qemu
			boot_result=failed
			return
		fi
		if [ -n "$t_exit" ] && [ "$(phase "$t_exit" "$(now)" 0)" -ge "$grace" ]; then
			note "the reproducer exited and no panic followed in ${grace}s"
			stop_qemu
			boot_result=nopanic
			return
		fi
		if [ "$(phase "$t_qemu" "$(now)" 0)" -ge "$timeout" ]; then
			note "no panic after ${timeout}s (${st:-no QMP status})"
			stop_qemu
			if [ -z "$t_init" ]; then boot_result=early; else boot_result=nopanic; fi
			return
		fi
	done
}

# phase T0 T1 [DIGITS]: seconds from T0 to T1
phase() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%.*f\n", d, b - a }'; }

# A pseries guest has no fw_cfg, so QEMU's ELF dump has no VMCOREINFO note
# (its CPU notes only). The kernel's own note is in the dump's memory: the
# pointer vmcoreinfo_note (the vmlinux's symbol) holds its linear-map address
# (what /sys/kernel/vmcoreinfo prints, as physical). vmcore-add-vmcoreinfo
# writes the dump again with that note after QEMU's (ppc64: virtual is
# physical + PAGE_OFFSET 0xc000000000000000 for both).
# s390-ccw-virtio has no fw_cfg either. There the kernel image is mapped
# apart from the direct map (6.10+: KERNELOFFSET, KERNELOFFPHYS), but
# arch_crash_save_vmcoreinfo() also stores the note's physical address in
# the absolute lowcore (struct lowcore's vmcore_info: absolute 0xe0c in 6.12
# and 7.2, by their DWARF): vmcore-add-vmcoreinfo --s390x-lowcore reads it there.
add_vmcoreinfo() {
	local va r
	if [ "$arch" = s390x ]; then
		set -- --s390x-lowcore
	else
		va=$(readelf -sW "$vmlinux" | awk '$8 == "vmcoreinfo_note" && $4 == "OBJECT" { print "0x" $2; exit }')
		[ -n "$va" ] || die "no symbol vmcoreinfo_note in $vmlinux"
		set -- "$va" 0xc000000000000000
	fi
	r=$("$(ktrace_tool vmcore-add-vmcoreinfo)" "$out/vmcore.elf" "$out/vmcore.elf.tmp" "$@") ||
		{ rm -f "$out/vmcore.elf.tmp"; die "cannot add the VMCOREINFO note"; }
	mv "$out/vmcore.elf.tmp" "$out/vmcore.elf"
	note "vmcore.elf: $r (the kernel's vmcoreinfo_note)"
}

capture() {
	local need_elf= f ib
	note "guest panicked after $(phase "$t_qemu" "$t_panic")s ($accel_name); dumping"
	rm -f "$out"/vmcore.*
	dump() {
		local r
		r=$(qmp "{\"execute\":\"dump-guest-memory\",\"arguments\":{\"paging\":false,\"protocol\":\"file:$1\",\"format\":\"$2\"}}")
		case $r in *error*) die "dump-guest-memory $2: $r" ;; esac
		[ -s "$1" ] || die "dump-guest-memory $2 wrote nothing"
	}
	case " $formats " in *" elf "* | *" kdump "* | *" d31 "*) need_elf=1 ;; esac
	# arm64: kdump is QEMU's kdump-zlib rearranged (makedumpfile -R), not
	# makedumpfile's work on the ELF (this host's reads x86_64 dumps only)
	[ "$arch" = arm64 ] && case " $formats " in *" elf "*) ;; *) need_elf= ;; esac
	[ -n "$need_elf" ] && dump "$out/vmcore.elf" elf
	case " $formats " in
	*" flat "*) dump "$out/vmcore.flat" kdump-zlib ;;
	*" kdump "*) [ "$arch" = arm64 ] && dump "$out/vmcore.flat" kdump-zlib ;;
	esac
	qmp '{"execute":"quit"}' >/dev/null || true
	wait "$qpid" 2>/dev/null || true
	qpid=
	case $arch in ppc64el | s390x) [ -n "$need_elf" ] && add_vmcoreinfo ;; esac

	# read_truth: the truth disk's files into OUTDIR/truth: the ext4 file
	# system's (debugfs), or with --truth-disk raw the tar archive the
	# guest wrote to the disk itself (the zeros after it end the archive)
	read_truth() {
		rm -rf "$out/truth"
		mkdir -p "$out/truth"
		if [ "$truth_disk" = raw ]; then
			tar -x -f "$work/truth.img" -C "$out/truth" --no-same-owner 2>/dev/null || true
		else
			debugfs -R "rdump / $out/truth" "$work/truth.img" >/dev/null 2>&1 || true
			if [ -d "$out/truth/lost+found" ]; then rmdir "$out/truth/lost+found"; fi
		fi
	}

	# the truth, when the marker workload got as far as saving it (a panic
	# in early boot or module init comes before); a reproducer that saves
	# its own truth on /dev/vda says "ktrace-guest: truth saved" too
	if [ "$mode" = run ] && grep -aq 'ktrace-guest: truth saved' "$out/console.log"; then
		read_truth
		# a reproducer that wrote the last marker into ftrace's buffer
		# (LAST_MARKER_GLOBAL of /workload.env) before saving the trace
		: >"$out/workload.env"
		if [ -s "$out/truth/global.trace" ] && grep -qF -- "$last_global" "$out/truth/global.trace"; then
			q LAST_MARKER_global "$last_global" >>"$out/workload.env"
		fi
		# and LAST_MARKER_INSTANCE into an instance's (snap-run.sh; one the
		# kernel command line made, persist-run.sh): NAME.trace holds it
		for f in "$out"/truth/*.trace; do
			ib=${f##*/} ib=${ib%.trace}
			[ "$ib" != global ] && [ -s "$f" ] && grep -qF -- "$last_instance" "$f" &&
				q "LAST_MARKER_$ib" "$last_instance" >>"$out/workload.env"
		done
	elif [ "$mode" = markers ] && { [ -n "$fixture" ] || grep -aq 'ktrace-guest: truth saved' "$out/console.log"; }; then
		read_truth
		[ -s "$out/truth/global.trace" ] || die "no truth/global.trace on the truth disk"
		{
			[ -n "$no_trace" ] || q LAST_MARKER_global "$last_global"
			[ -z "$instance" ] || q "LAST_MARKER_$instance" "$last_instance"
		} >"$out/workload.env"
	fi

	# QEMU's ELF has its program headers at offset 192, where makedumpfile
	# 1.7.2 does not look: it reads a normalised copy. The VMCOREINFO note is
	# enough for makedumpfile (-x vmlinux is 20 times slower); -x only as a
	# fallback (none for a kernel without a vmlinux).
	kdump() { # OUT LEVEL
		local norm=$work/vmcore.norm
		if [ ! -e "$norm" ]; then
			cp "$out/vmcore.elf" "$norm"
			chmod u+w "$norm"
			"$(ktrace_tool vmcore-normalize)" "$norm"
		fi
		rm -f "$1"
		makedumpfile -c -d "$2" "$norm" "$1" >"$work/makedumpfile.log" 2>&1 ||
			{ [ -n "$vmlinux" ] && rm -f "$1" && makedumpfile -c -d "$2" -x "$vmlinux" "$norm" "$1" >"$work/makedumpfile.log" 2>&1; } ||
			{ cat "$work/makedumpfile.log" >&2; die "makedumpfile -d $2 failed"; }
	}
	# makedumpfile -R: the flattened file's blocks at their offsets, the
	# same bytes (an arm64 guest's kdump-compressed dump, QEMU's own)
	rearrange() { # OUT
		rm -f "$1"
		makedumpfile -R "$1" <"$out/vmcore.flat" >"$work/makedumpfile.log" 2>&1 ||
			{ cat "$work/makedumpfile.log" >&2; die "makedumpfile -R failed"; }
	}
	if [ "$arch" = arm64 ]; then
		case " $formats " in *" kdump "*) rearrange "$out/vmcore.kdump" ;; esac
		case " $formats " in *" flat "*) ;; *) rm -f "$out/vmcore.flat" ;; esac
	else
		case " $formats " in *" kdump "*) kdump "$out/vmcore.kdump" 17 ;; esac
		case " $formats " in *" d31 "*) kdump "$out/vmcore.d31" 31 ;; esac
	fi
	case " $formats " in *" elf "*) ;; *) rm -f "$out/vmcore.elf" ;; esac
	rm -f "$work/vmcore.norm"
	chmod 0644 "$out"/vmcore.*
	t_captured=$(now)
}
