# excerpts-lib.pl - what scripts/make-excerpts and make-excerpts-graph share
# (perl, required by both): the dump's event table, the vmlinux's symbols
# where the records' code addresses are, and a record's bytes rebuilt from
# the field values ktrace-extract's JSON gives.
use strict;
use warnings;
no warnings "portable";	# 64-bit addresses in hex()

# The event table (ktrace-extract -e): id -> {id, name, fields [type name off
# size signed], fmt}.
sub read_formats {
	my ($path) = @_;
	my (%ev, $cur);
	open(my $f, "<", $path) or die "$path: $!";
	while (<$f>) {
		chomp;
		if (/^name: (.*)/) { $cur = { name => $1, fields => [] }; }
		elsif (/^ID: (\d+)/ && $cur) { $ev{$1} = $cur; $cur->{id} = $1; }
		elsif (/^\tfield:(.*) ([A-Za-z_0-9]+)(\[\d*\])?;\toffset:(\d+);\tsize:(\d+);\tsigned:(\d+);/ && $cur) {
			push @{$cur->{fields}}, [ $1 . (defined $3 ? $3 : ""), $2, $4, $5, $6 ];
		}
		elsif (/^print fmt: (.*)/ && $cur) { $cur->{fmt} = $1; }
	}
	return %ev;
}

# The vmlinux's text symbols (System.map, moved by the KASLR offset), for
# the events the kernel prints with kallsyms (the function tracer's ips,
# function_graph's functions).
our (@map, %ksym);
sub read_sysmap {
	my ($sysmap, $koff) = @_;
	return if $sysmap eq "" || !open(my $m, "<", $sysmap);
	while (<$m>) {
		push @map, [ hex($1) + hex($koff), $3, $2 ] if /^([0-9a-f]{16}) ([tTwW]) (\S+)$/;
	}
	@map = sort { $a->[0] <=> $b->[0] } @map;
}

# The symbols at the last address at or below $addr (kallsyms_lookup()),
# and those at the next address, which end it: kept for print_ksyms().
sub want_ksyms {
	my ($addr) = @_;
	my ($lo, $hi) = (0, scalar @map);
	while ($hi - $lo > 1) {
		my $mid = int(($lo + $hi) / 2);
		if ($map[$mid][0] <= $addr) { $lo = $mid; } else { $hi = $mid; }
	}
	return 0 if !@map || $map[$lo][0] > $addr;
	$lo-- while $lo && $map[$lo - 1][0] == $map[$lo][0];
	my $at = $map[$lo][0];
	my $i = $lo;
	$ksym{$map[$i][0]}{$map[$i][1]} = $i, $i++ while $i < @map && $map[$i][0] == $at;
	$ksym{$map[$i][0]}{$map[$i][1]} = $i if $i < @map;
	return 1;
}

# scripts/kallsyms.c's may_be_linker_script_provide_symbol(): __start_X,
# __stop_X, __end_X, __X_start, __X_end
sub linker_provided {
	my ($n) = @_;
	return 0 if length($n) < 8 || $n !~ /^__/;
	return $n =~ /^__(start_|stop_|end_)/ || $n =~ /(_start|_end)$/ ? 1 : 0;
}

# The symbols the records need, in address order; those at one address in
# kallsyms' order (scripts/kallsyms.c's compare_symbols(): weak ones last,
# then the linker's, then by fewer leading underscores, then as the map
# has them), whose first kallsyms_lookup() names.
sub print_ksyms {
	for my $addr (sort { $a <=> $b } keys %ksym) {
		my $h = $ksym{$addr};
		my %k = map {
			my $i = $h->{$_};
			$_ => [ ($map[$i][2] =~ /^[wW]$/ ? 1 : 0), linker_provided($_), length(($_ =~ /^(_*)/)[0]), $i ]
		} keys %$h;
		printf "ksym %016x %s\n", $addr, $_ for sort {
			my ($x, $y) = ($k{$a}, $k{$b});
			$x->[0] <=> $y->[0] || $x->[1] <=> $y->[1] || $x->[2] <=> $y->[2] || $x->[3] <=> $y->[3]
		} keys %$h;
	}
}

# A record of event $e rebuilt from JSON record $r's field values, as hex;
# undef when a field's value is not there or does not fit. A flexible
# char[] (print's buf) is the string and its NUL at the field's offset,
# an unsigned long[] its values.
sub bytes_of {
	my ($e, $r) = @_;
	my $fixed = 0;
	for my $fd (@{$e->{fields}}) { my $end = $fd->[2] + $fd->[3]; $fixed = $end if $end > $fixed; }
	my $rec = "\0" x $fixed;
	my $tail = "";
	my %val = (%{$r->{fields}}, common_type => $e->{id}, common_flags => $r->{flags},
		   common_preempt_count => $r->{preempt_count}, common_pid => $r->{pid},
		   common_preempt_lazy_count => $r->{preempt_lazy_count});
	for my $fd (@{$e->{fields}}) {
		my ($t, $n, $o, $s) = @$fd;
		my $v = $val{$n};
		return undef unless defined $v;
		my $b;
		if ($t =~ /^__(data|rel)_loc/) {
			my $str = $v . "\0";
			my $at = $fixed + length($tail);
			my $off = $1 eq "rel" ? $at - ($o + $s) : $at;
			$tail .= $str;
			$b = pack("V", (length($str) << 16) | $off);
		} elsif ($t =~ /char\[\]$/ && $s == 0) {
			return undef if $o != $fixed || $tail ne "";
			$tail = $v . "\0";
			next;
		} elsif ($t =~ /^unsigned long\[\]$/ && $s == 0 && ref($v) eq "ARRAY") {
			# 6.15+ funcgraph_entry's args[] (funcgraph-args): what was saved
			return undef if $o != $fixed || $tail ne "";
			$tail = pack("Q<*", @$v);
			next;
		} elsif ($t =~ /\[(\d+)\]$/ && ref($v) eq "ARRAY") {
			# an integer array (a probe's "u8 arr[4]"): its elements
			my $es = $s / $1;
			my %p = (1 => "C", 2 => "v", 4 => "V", 8 => "Q<");
			# more than declared: kernel_stack's caller[], sized by the depth
			# saved, the event's last field
			return undef unless $p{$es} && (@$v == $1 || (@$v > $1 && $o + $s == $fixed));
			$b = join("", map { pack($p{$es}, $_ < 0 ? $_ + 2 ** (8 * $es) : $_) } @$v);
		} elsif ($t =~ /\[(\d+)\]$/) {
			return undef if length($v) >= $1 && $1 > 0 && length($v) > $1;
			$b = substr($v . ("\0" x $1), 0, $1);
		} else {
			return undef unless $v =~ /^-?\d+$/;
			my %p = (1 => "C", 2 => "v", 4 => "V", 8 => "Q<");
			my %q = (1 => "c", 2 => "s<", 4 => "l<", 8 => "q<");
			$b = pack($v < 0 ? $q{$s} : $p{$s}, $v);
		}
		substr($rec, $o, $s) = $b;
	}
	$rec .= $tail;
	$rec .= "\0" x ((4 - length($rec) % 4) % 4);
	return unpack("H*", $rec);
}

1;
