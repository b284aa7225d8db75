#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/diagnose.sh: a GCC kernel build replayed through Clang's
# diagnostics; its parser, triage and diff on recorded Clang output
# (tests/fixtures/diagnose/README says how each was made), its bad inputs,
# and one real replay of the tiny x86_64 GCC cell.

load common

setup() {
	F=$BATS_TEST_DIRNAME/fixtures/diagnose
	D=$TOP/scripts/diagnose.sh
	L=$TOP/scripts/diagnose
}

# fake_build DIR: a build directory with a .config, a vmlinux linked from
# a.o, a source link to a tree holding one C file, and kernel-build.sh's
# marks
fake_build() {
	mkdir -p "$1" "$1.src/scripts/clang-tools"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$1.src/Makefile"
	echo 'int x;' >"$1.src/a.c"
	printf 'CLANG_TARGET_FLAGS_x86\t\t:= x86_64-linux-gnu\n' >"$1.src/scripts/Makefile.clang"
	echo '# Linux/x86_64 6.1.0 Kernel Configuration' >"$1/.config"
	: >"$1/vmlinux"
	echo built >"$1/.kparity-config"
	echo built >"$1/.kparity-built"
	ln -s "$1.src" "$1/source"
	echo 'cmd_vmlinux.o := ld -r -o vmlinux.o a.o b.o' >"$1/.vmlinux.o.cmd"
	jq -n --arg d "$1" --arg f "$1.src/a.c" \
		'[{directory: $d, file: $f, command: "gcc -nostdinc -O2 -c -o a.o \($f)"}]' >"$1/compile_commands.json"
	touch -d '1 minute' "$1/compile_commands.json"
}

@test "diagnose: no build directory, one line, exit 2" {
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/nothing"
	assert_equal "$stderr" "diagnose.sh: no build directory '$BATS_TEST_TMPDIR/nothing'"
	assert_output ""
}

@test "diagnose: a build directory with no vmlinux holds no successful build, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/vmlinux"
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b' holds no successful build (no vmlinux)"
}

@test "diagnose: a build whose last make failed, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/.kparity-built"
	run -2 --separate-stderr "$D" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b' holds no successful build (its last build failed or did not finish)"
}

@test "diagnose: a unit whose source has gone, exit 2" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b.src/a.c"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: unit source '$BATS_TEST_TMPDIR/b.src/a.c' is gone (1 of 1 units; the tree changed since the build)"
}

@test "diagnose: -C is a cell of the run's tree, KERNEL's own; a missing one is one line" {
	local T=$BATS_TEST_TMPDIR
	run -2 --separate-stderr "$D" -O "$T" -C x86_64-gcc
	assert_equal "$stderr" "diagnose.sh: no cell 'x86_64-gcc' in '$T/kernel' (make parity first)"
	KERNEL=6.12 run -2 --separate-stderr "$D" -O "$T" -C x86_64-gcc
	assert_equal "$stderr" "diagnose.sh: no cell 'x86_64-gcc' in '$T/6.12/kernel' (make parity first)"
	run -2 --separate-stderr "$D" -O "$T" -C ../kernel/x86_64-gcc
	assert_equal "$stderr" "diagnose.sh: -C takes a cell's name (x86_64-gcc), not '../kernel/x86_64-gcc'"
	run -2 --separate-stderr "$D" -O "$T" -C x86_64-gcc "$T/b"
	assert_equal "$stderr" "diagnose.sh: -C names the cell to replay; no BUILD_DIR with it"
}

@test "diagnose: a 6.12 cell is replayed into 6.12's own diagnose directory" {
	local T=$BATS_TEST_TMPDIR
	need_tool clang-19
	fake_build "$T/6.12/kernel/x86_64-gcc"
	rm "$T/6.12/kernel/x86_64-gcc.src/a.c"
	KERNEL=6.12 run -2 --separate-stderr "$D" -c clang-19 -O "$T" -C x86_64-gcc
	assert_equal "$stderr" "diagnose.sh: unit source '$T/6.12/kernel/x86_64-gcc.src/a.c' is gone (1 of 1 units; the tree changed since the build)"
	run -0 ls "$T/6.12/diagnose"
	assert_output x86_64-gcc-clang-19
	assert [ ! -e "$T/diagnose" ]
}

@test "diagnose: a stale compile_commands.json is generated afresh, and says so" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	touch -d '1 hour ago' "$BATS_TEST_TMPDIR/b/compile_commands.json"
	cp "$TOP/tests/fixtures/diagnose/gen_compile_commands.py" "$BATS_TEST_TMPDIR/b.src/scripts/clang-tools/"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "$(printf '%s\n' \
		"diagnose.sh: '$BATS_TEST_TMPDIR/b/compile_commands.json' is older than vmlinux; generating a fresh one" \
		"  GEN     $BATS_TEST_TMPDIR/out/compile_commands.json" \
		"diagnose.sh: '$BATS_TEST_TMPDIR/out/compile_commands.json' holds no kernel compile command")"
}

# stale_build DIR: fake_build's, reconfigured: a.c in vmlinux.a, lib/l.c
# in lib/lib.a, the EFI stub's s.c (objcopy makes s.stub.o, which its
# lib.a holds), the boot code's arch/x86/boot/b.c linked into setup.elf,
# link-vmlinux.sh's init/version-timestamp.c, module drivers/m.c and the
# drivers/m.mod.c modpost writes for it; and two
# units' .cmd files left from an older configuration: fs/no-block.c and
# drivers/old1.c, the part of a module no longer built (its ld -r and its
# .ko link are left too)
stale_build() {
	local b="$1" s="$1.src" u units=""

	fake_build "$b"
	mkdir -p "$s/scripts" "$b/lib" "$b/arch/x86/boot" "$b/drivers/firmware/efi/libstub" "$b/fs" "$b/init"
	printf '%s\n' '	objs="${objs} .vmlinux.export.o"' '	objs="${objs} init/version-timestamp.o"' \
		>"$s/scripts/link-vmlinux.sh"
	for u in a lib/l drivers/firmware/efi/libstub/s arch/x86/boot/b init/version-timestamp drivers/m \
		drivers/m.mod fs/no-block drivers/old1; do
		mkdir -p "$(dirname "$s/$u")" "$(dirname "$b/$u")"
		echo "int ${u##*/};" | tr -- -. __ >"$s/$u.c"
		: >"$b/$u.o"
		units="$units $u"
	done
	(cd "$b" && ar cDPrST vmlinux.a a.o && ar cDPrST lib/lib.a lib/l.o &&
		: >drivers/firmware/efi/libstub/s.stub.o &&
		ar cDPrST drivers/firmware/efi/libstub/lib.a drivers/firmware/efi/libstub/s.stub.o)
	echo 'cmd_vmlinux.o := ld -m elf_x86_64 -r -o vmlinux.o --whole-archive vmlinux.a --no-whole-archive --start-group lib/lib.a ./drivers/firmware/efi/libstub/lib.a --end-group' \
		>"$b/.vmlinux.o.cmd"
	echo 'cmd_drivers/firmware/efi/libstub/s.stub.o := objcopy --prefix-symbols=__efistub_ drivers/firmware/efi/libstub/s.o drivers/firmware/efi/libstub/s.stub.o' \
		>"$b/drivers/firmware/efi/libstub/.s.stub.o.cmd"
	echo "cmd_arch/x86/boot/setup.elf := ld -m elf_i386 -T $s/arch/x86/boot/setup.ld arch/x86/boot/b.o -o arch/x86/boot/setup.elf" \
		>"$b/arch/x86/boot/.setup.elf.cmd"
	echo "cmd_fs/no-block.o := gcc -nostdinc -O2 -c -o fs/no-block.o $s/fs/no-block.c" >"$b/fs/.no-block.o.cmd"
	echo 'cmd_drivers/old.o := ld -m elf_x86_64 -r -o drivers/old.o drivers/old1.o' >"$b/drivers/.old.o.cmd"
	echo 'cmd_drivers/old.ko := ld -r -m elf_x86_64 -o drivers/old.ko drivers/old.o drivers/old.mod.o' >"$b/drivers/.old.ko.cmd"
	echo drivers/m.ko >"$b/modules.order"
	echo drivers/m.o >"$b/drivers/m.mod"
	# shellcheck disable=SC2086 # unit names without blanks
	printf '%s\n' $units | jq -R --arg d "$b" --arg s "$s" \
		'{directory: $d, file: "\($s)/\(.).c", command: "gcc -nostdinc -O2 -c -o \(.).o \($s)/\(.).c"}' |
		jq -s . >"$b/compile_commands.json"
	touch -d '1 minute' "$b/compile_commands.json"
}

@test "diagnose: units whose .cmd files outlived the build's configuration are not replayed, and are named" {
	need_tool clang-19
	stale_build "$BATS_TEST_TMPDIR/b"
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$(printf '%s\n' "$stderr" | grep -e STALE)" \
		"STALE   2 units no longer built, not replayed: fs/no-block.c drivers/old1.c"
	local q='[.units.replayed, .units.stale_not_replayed, .units.ok, .stale, (.slowest | map(.unit) | sort)]'
	run -0 jq -c "$q" "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '[7,2,7,["drivers/old1.c","fs/no-block.c"],["a.c","arch/x86/boot/b.c","drivers/firmware/efi/libstub/s.c","drivers/m.c","drivers/m.mod.c","init/version-timestamp.c","lib/l.c"]]'
}

# sorted CMD...: CMD's output, sorted (diagnose-linked.awk's order is awk's)
sorted() {
	"$@" | LC_ALL=C sort
}

@test "diagnose-linked.awk: what links, images and objcopy reach; no stale object, no archive's own command" {
	printf '%s\n' vmlinux.a lib/x.stub.o init/version-timestamp.o >"$BATS_TEST_TMPDIR/roots"
	printf '%s\n' \
		'cmd_vmlinux.o := ld -r -o vmlinux.o --whole-archive vmlinux.a --start-group ./lib/lib.a --end-group' \
		'cmd_lib/x.stub.o := objcopy --prefix-symbols=__efistub_ lib/x.o lib/x.stub.o' \
		'cmd_lib/x.o := gcc -nostdinc -c -o lib/x.o /s/lib/x.c' \
		'cmd_vmlinux.a := rm -f vmlinux.a; ar cDPrST vmlinux.a init/built-in.a; ar mPiT $(ar t vmlinux.a | sed -n 1p) vmlinux.a init/head.o' \
		'savedcmd_/b/arch/x86/boot/setup.elf := ld -m elf_i386 -T /s/setup.ld /b/arch/x86/boot/a20.o -o /b/arch/x86/boot/setup.elf' \
		'cmd_fs/no-block.o := gcc -nostdinc -c -o fs/no-block.o /s/fs/no-block.c' \
		'cmd_drivers/old.o := ld -r -o drivers/old.o drivers/old1.o' \
		'cmd_drivers/old.ko := ld -r -o drivers/old.ko drivers/old.o drivers/old.mod.o' \
		'cmd_scripts/mod/elfconfig.h := scripts/mod/mk_elfconfig < scripts/mod/empty.o > scripts/mod/elfconfig.h' \
		>"$BATS_TEST_TMPDIR/cmdlines"
	run -0 sorted awk -v build=/b -f "$L/diagnose-linked.awk" "$BATS_TEST_TMPDIR/roots" "$BATS_TEST_TMPDIR/cmdlines"
	assert_output "$(printf '%s\n' arch/x86/boot/a20.o init/version-timestamp.o lib/lib.a lib/x.o lib/x.stub.o \
		scripts/mod/empty.o vmlinux.a vmlinux.o | LC_ALL=C sort)"
}

@test "diagnose-live.awk: a unit whose object is not linked goes to the stale list; one that makes no object stays" {
	printf '%s\n' init/main.o lib/x.o >"$BATS_TEST_TMPDIR/linked"
	printf '%s\t/b\t%s\t%s\n' \
		1 /s/init/main.c 'gcc -nostdinc -c -o init/main.o /s/init/main.c' \
		2 /s/fs/no-block.c 'gcc -nostdinc -c -o fs/no-block.o /s/fs/no-block.c' \
		3 /s/lib/x.c 'gcc -nostdinc -c -o /b/lib/x.o /s/lib/x.c' \
		4 /s/kernel/bounds.c 'gcc -nostdinc -S -o kernel/bounds.s /s/kernel/bounds.c' >"$BATS_TEST_TMPDIR/units"
	run -0 awk -F '\t' -v stale="$BATS_TEST_TMPDIR/stale" -f "$L/diagnose-live.awk" \
		"$BATS_TEST_TMPDIR/linked" "$BATS_TEST_TMPDIR/units"
	assert_output "$(sed -n -e 1p -e 3p -e 4p "$BATS_TEST_TMPDIR/units")"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/stale")" /s/fs/no-block.c
}

@test "diagnose: an archive the build links that ar cannot list, one line, exit 2" {
	need_tool clang-19
	stale_build "$BATS_TEST_TMPDIR/b"
	echo garbage >"$BATS_TEST_TMPDIR/b/lib/lib.a"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: cannot list the archive '$BATS_TEST_TMPDIR/b/lib/lib.a': ar: lib/lib.a: file format not recognized"
	run -1 test -e "$BATS_TEST_TMPDIR/out/diagnose.json"
}

@test "diagnose: a build directory whose .cmd files link nothing, one line, exit 2" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/.vmlinux.o.cmd"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b' links no object: none of its .cmd files holds a link command"
}

@test "diagnose: a module of modules.order without its .mod file, one line, exit 2" {
	need_tool clang-19
	stale_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b/drivers/m.mod"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: '$BATS_TEST_TMPDIR/b/modules.order' names 'drivers/m.ko', but there is no '$BATS_TEST_TMPDIR/b/drivers/m.mod'"
}

@test "diagnose: a clang the project does not know, exit 2" {
	fake_build "$BATS_TEST_TMPDIR/b"
	run -2 --separate-stderr "$D" -c clang-77 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: unknown compiler 'clang-77' (known: gcc gcc-11 gcc-12 clang clang-13 clang-14 clang-15 clang-16 clang-19 clang-22 clang-gas)"
}

@test "diagnose: an unknown warning level, exit 2" {
	run -2 --separate-stderr "$D" -W 3 "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: -W takes 1, 2 or 12 (the kernel's W= levels this replays), not '3'"
}

@test "bench-diagnose: -n and -j take a positive number; no operand; exit 2" {
	run -2 --separate-stderr "$TOP/scripts/bench-diagnose.sh" -o "$BATS_TEST_TMPDIR" -n x
	assert_equal "$stderr" "bench-diagnose.sh: -n needs a positive number, not 'x'"
	run -2 --separate-stderr "$TOP/scripts/bench-diagnose.sh" -o "$BATS_TEST_TMPDIR" -j 0
	assert_equal "$stderr" "bench-diagnose.sh: -j needs a positive number, not '0'"
	run -2 --separate-stderr "$TOP/scripts/bench-diagnose.sh" -o "$BATS_TEST_TMPDIR" extra
	assert_equal "${stderr_lines[0]}" "usage: bench-diagnose.sh [-o BUILDDIR] [-n RUNS] [-j JOBS]"
}

@test "bench-diagnose: a Clang that is not installed, exit 2 before any build" {
	run -2 --separate-stderr env LLVM=-99 "$TOP/scripts/bench-diagnose.sh" -o "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "bench-diagnose.sh: cannot find 'clang-99' (LLVM=-99)"
	assert [ ! -e "$BATS_TEST_TMPDIR/b" ]
}

# triage_fixture: diagnose.json of the recorded units, in $BATS_TEST_TMPDIR/d.json
triage_fixture() {
	awk -v src=/usr/src/linux-6.1 -f "$L/diagnose-parse.awk" "$F/status.tsv" \
		"$F"/units/0.out "$F"/units/1.out "$F"/units/2.out "$F"/units/3.out "$F"/units/4.out \
		>"$BATS_TEST_TMPDIR/clang.tsv"
	"$TOP/scripts/warnings.sh" -l -s /usr/src/linux-6.1 "$F/gcc.log" >"$BATS_TEST_TMPDIR/gcc.tsv"
	printf '1\t4\t-fconserve-stack\tdrop\t-\tcodegen\tframes may be larger\n' >"$BATS_TEST_TMPDIR/dec.tsv"
	printf '3\t/b\t/usr/src/linux-6.1/crash.c\tclang-19 -fsyntax-only /usr/src/linux-6.1/crash.c\n' >"$BATS_TEST_TMPDIR/cmd.tsv"
	awk -f "$L/diagnose-cpu.awk" "$F/status.tsv" "$F"/units/*.cpu >"$BATS_TEST_TMPDIR/cpu.tsv"
	jq -n -R --arg kernel 6.1.0 --arg build /b --arg cell x86_64-gcc --arg clang clang-19 \
		--arg clang_version 'Debian clang version 19.1.7' --arg target x86_64-linux-gnu \
		--arg level "" --arg src /usr/src/linux-6.1 --argjson host 0 --argjson sets 1 \
		--arg dropped_gcc "-Wno-main" --argjson replay_secs 1 --arg build_secs 2 \
		--rawfile clang_tsv "$BATS_TEST_TMPDIR/clang.tsv" --rawfile gcc_tsv "$BATS_TEST_TMPDIR/gcc.tsv" \
		--rawfile decisions "$BATS_TEST_TMPDIR/dec.tsv" --rawfile commands "$BATS_TEST_TMPDIR/cmd.tsv" \
		--rawfile cpu "$BATS_TEST_TMPDIR/cpu.tsv" --rawfile stale /dev/null --rawfile outside /dev/null \
		-L "$L" -f "$L/diagnose.jq" >"$BATS_TEST_TMPDIR/d.json"
}

@test "diagnose-parse.awk: recorded clang-19 output, with notes, fix-its, an error and a crash" {
	run -0 awk -v src=/usr/src/linux-6.1 -f "$L/diagnose-parse.awk" "$F/status.tsv" \
		"$F"/units/0.out "$F"/units/1.out "$F"/units/2.out "$F"/units/3.out "$F"/units/4.out
	expect_file "$F/parse.expected"
}

@test "diagnose-cpu.awk: each unit's Clang CPU time from what 'times' printed, dash's and bash's format" {
	run -0 awk -f "$L/diagnose-cpu.awk" "$F/status.tsv" "$F/units/0.cpu" "$F/units/1.cpu" "$F/units/4.cpu"
	assert_output "$(printf '%s\t%s\n' /usr/src/linux-6.1/kernel/exit.c 0.420 /usr/src/linux-6.1/kernel/fork.c 0.610 \
		/usr/src/linux-6.1/init/version.c 61.250)"
}

@test "diagnose: the units' CPU time summed, the slowest first" {
	triage_fixture
	run -0 jq -c '[.seconds, .slowest[:2]]' "$BATS_TEST_TMPDIR/d.json"
	assert_output '[{"replay":1,"clang_cpu":62.36,"gcc_build":2},[{"unit":"init/version.c","seconds":61.25},{"unit":"kernel/fork.c","seconds":0.61}]]'
}

@test "diagnose: a header's warning reached by two units is one finding naming both" {
	triage_fixture
	local q='.findings[] | select(.file == "include/linux/thread_info.h")
		| [.group, .line, .col, .count, .units, .notes[0], .gcc[0].flag]'
	run -0 jq -c "$q" "$BATS_TEST_TMPDIR/d.json"
	assert_output '["both",224,29,2,["kernel/exit.c","kernel/fork.c"],"include/linux/compiler.h:78:42: expanded from macro '"'"'unlikely'"'"'","-Wsign-compare"]'
}

@test "diagnose: the three groups, the unparsable unit and the crash, counted" {
	triage_fixture
	run -0 jq -c '[.counts, .units]' "$BATS_TEST_TMPDIR/d.json"
	assert_output '[{"both":13,"clang":8,"gcc":5,"unparsable":1,"crashed":1},{"replayed":5,"host_not_replayed":0,"stale_not_replayed":0,"outside_level":0,"flag_sets":1,"ok":3,"unparsable":1,"crashed":1}]'
}

@test "diagnose: an unparsable unit keeps its first error, a crash its reproducer" {
	triage_fixture
	run -0 jq -c '[.unparsable, .crashes]' "$BATS_TEST_TMPDIR/d.json"
	assert_output '[[{"id":"unparsable|kparity/t.c","unit":"kparity/t.c","error":"kparity/t.c:3:26: expected '"';'"' after return statement"}],[{"id":"crash|crash.c","unit":"crash.c","message":"clang-19: error: clang frontend command failed with exit code 132 (use -v to see invocation)","reproduce":"cd /b && clang-19 -fsyntax-only /usr/src/linux-6.1/crash.c","files":["/tmp/kparity-diagnose/crash/crash-7d02fe.c","/tmp/kparity-diagnose/crash/crash-7d02fe.sh"]}]]'
}

@test "diagnose: the fix-it and the note stay under their finding in diagnose.md" {
	triage_fixture
	run -0 "$TOP/scripts/diagnose-report.sh" "$BATS_TEST_TMPDIR/d.json" "$BATS_TEST_TMPDIR"
	run -0 grep -A 2 -F -e '- `kparity/t.c:2:40` warning -Wuninitialized' "$BATS_TEST_TMPDIR/diagnose.md"
	assert_output "$(printf '%s\n' \
		"- \`kparity/t.c:2:40\` warning -Wuninitialized: variable 'z' is uninitialized when used here (1 unit)" \
		"  - note: kparity/t.c:2:21: initialize the variable 'z' to silence this warning" \
		'  - fix-it: `kparity/t.c:2:21-2:21: replace with " = 0"`')"
}

@test "diagnose-diff: one report against itself: nothing new or gone, exit 0" {
	triage_fixture
	run -0 "$TOP/scripts/diagnose-diff.sh" "$BATS_TEST_TMPDIR/d.json" "$BATS_TEST_TMPDIR/d.json"
	assert_output "new 0 gone 0 unchanged 28"
}

@test "diagnose-diff: a finding gone and one new, exit 1" {
	triage_fixture
	jq '.findings |= map(if .flag == "-Wuninitialized" then .line = 9 | .id = "warning|-Wuninitialized|kparity/t.c:9:40|x" else . end)' \
		"$BATS_TEST_TMPDIR/d.json" >"$BATS_TEST_TMPDIR/e.json"
	run -1 "$TOP/scripts/diagnose-diff.sh" "$BATS_TEST_TMPDIR/d.json" "$BATS_TEST_TMPDIR/e.json"
	assert_output "$(printf '%s\n' 'new 1 gone 1 unchanged 27' \
		'+ clang warning|-Wuninitialized|kparity/t.c:9:40|x' \
		"- clang warning|-Wuninitialized|kparity/t.c:2:40|variable 'z' is uninitialized when used here")"
}

@test "diagnose-diff: a file that is no report, exit 2" {
	echo '{}' >"$BATS_TEST_TMPDIR/x.json"
	run -2 --separate-stderr "$TOP/scripts/diagnose-diff.sh" "$BATS_TEST_TMPDIR/x.json" "$BATS_TEST_TMPDIR/x.json"
	assert_equal "$stderr" "diagnose-diff.sh: '$BATS_TEST_TMPDIR/x.json' is not a schema 1 diagnose report"
}

# translate_cmds FILE CLANG TRIPLE: flag-translate.sh's verdicts on the
# judged flags of every command line in FILE, each flag once, sorted
translate_cmds() {
	local set

	awk '{ print NR "\t.\tx.c\t" $0 }' "$1" |
		awk -F '\t' -f "$TOP/kbuild/flag-words.awk" -f "$L/diagnose-sets.awk" | cut -f2 >"$BATS_TEST_TMPDIR/sets"
	: >"$BATS_TEST_TMPDIR/verdicts"
	while IFS= read -r set; do
		# shellcheck disable=SC2086 # blank-separated flags
		"$TOP/kbuild/flag-translate.sh" -c "$2" -t "$3" -- $set >>"$BATS_TEST_TMPDIR/verdicts" || return 1
	done <"$BATS_TEST_TMPDIR/sets"
	LC_ALL=C sort -u "$BATS_TEST_TMPDIR/verdicts"
}

@test "diagnose: every GCC-only flag of the tiny x86_64 build's command lines, by clang-19" {
	need_tool clang-19
	run -0 translate_cmds "$F/x86_64-tiny.cmds" clang-19 x86_64-linux-gnu
	expect_file "$F/x86_64-tiny.clang-19.tsv"
}

@test "diagnose-cmd.awk: a GCC command becomes a clang -fsyntax-only one" {
	printf '%s\t%s\t%s\n' -falign-jumps=1 drop - -Wimplicit-fallthrough=5 translate -Wimplicit-fallthrough \
		-O2 keep - -Wno-packed-not-aligned drop - -Wno-main keep - >"$BATS_TEST_TMPDIR/t"
	printf '7\t/b\t/s/a.c\t%s\n' "ccache gcc -Wp,-MMD,.a.o.d -nostdinc -I/s/include -include /s/k.h -O2 -falign-jumps=1 -Wno-main -Wimplicit-fallthrough=5 -Wno-packed-not-aligned -I ./d -DKBUILD_BASENAME='\"a\"' -c -o a.o /s/a.c" >"$BATS_TEST_TMPDIR/u"
	run -0 awk -F '\t' -v table="$BATS_TEST_TMPDIR/t" -v clang=clang-19 -v pre=--target=x86_64-linux-gnu \
		-v level=-Wno-sign-compare -v after=-Wno-packed-not-aligned -v drop=-Wno-main -v post=-fsyntax-only \
		-f "$TOP/kbuild/flag-words.awk" -f "$L/diagnose-cmd.awk" "$BATS_TEST_TMPDIR/u"
	assert_output "$(printf '7\t/b\t/s/a.c\t%s' "clang-19 --target=x86_64-linux-gnu -nostdinc -I/s/include -include /s/k.h -O2 -Wimplicit-fallthrough -Wno-sign-compare -I ./d -DKBUILD_BASENAME='\"a\"' -fsyntax-only /s/a.c")"
}

@test "diagnose-cmd.awk: a unit whose Makefile replaced KBUILD_CFLAGS gets no warning level, as in Kbuild" {
	printf '%s\t%s\t%s\n' -O2 keep - -Wundef keep - -Wno-packed-not-aligned drop - >"$BATS_TEST_TMPDIR/t"
	printf '3\t/b\t/s/arch/x86/boot/compressed/acpi.c\t%s\n' "gcc -m64 -O2 -Wundef -c -o arch/x86/boot/compressed/acpi.o /s/arch/x86/boot/compressed/acpi.c" >"$BATS_TEST_TMPDIR/u"
	printf '4\t/b\t/s/init/main.c\t%s\n' "gcc -O2 -Wundef -Wno-packed-not-aligned -c -o init/main.o /s/init/main.c" >>"$BATS_TEST_TMPDIR/u"
	run -0 awk -F '\t' -v table="$BATS_TEST_TMPDIR/t" -v clang=clang-19 -v pre=-fintegrated-as \
		-v level="-Wextra -Wunused" -v after=-Wno-packed-not-aligned -v post=-fsyntax-only \
		-v outside="$BATS_TEST_TMPDIR/outside" \
		-f "$TOP/kbuild/flag-words.awk" -f "$L/diagnose-cmd.awk" "$BATS_TEST_TMPDIR/u"
	assert_output "$(printf '3\t/b\t/s/arch/x86/boot/compressed/acpi.c\t%s\n4\t/b\t/s/init/main.c\t%s' \
		"clang-19 -fintegrated-as -m64 -O2 -Wundef -fsyntax-only /s/arch/x86/boot/compressed/acpi.c" \
		"clang-19 -fintegrated-as -O2 -Wundef -Wextra -Wunused -fsyntax-only /s/init/main.c")"
	run -0 cat "$BATS_TEST_TMPDIR/outside"
	assert_output /s/arch/x86/boot/compressed/acpi.c
}

@test "diagnose: every GCC-only flag of x86_64_defconfig's command line, by clang-19" {
	need_tool clang-19
	run -0 translate_cmds "$F/x86_64_defconfig.cmds" clang-19 x86_64-linux-gnu
	expect_file "$F/x86_64_defconfig.clang-19.tsv"
}

@test "diagnose: every GCC-only flag of vexpress_defconfig's command lines, by clang-19" {
	need_tool clang-19
	run -0 translate_cmds "$F/vexpress_defconfig.cmds" clang-19 arm-linux-gnueabi
	expect_file "$F/vexpress_defconfig.clang-19.tsv"
}

@test "diagnose: diagnose.md gives Clang's CPU time and its slowest units" {
	triage_fixture
	run -0 "$TOP/scripts/diagnose-report.sh" "$BATS_TEST_TMPDIR/d.json" "$BATS_TEST_TMPDIR"
	run -0 sed -n -e '7p' -e "/^## Clang's slowest units/,/^## Units/p" "$BATS_TEST_TMPDIR/diagnose.md"
	assert_output "$(cat <<'EOF2'
| 13 | 8 | 5 | 1 | 1 | 5 (1 flag sets, 0 outside the warning level; not replayed: 0 host units, 0 no longer built) | 1s (Clang: 62.36 CPU-s) | 2s |
## Clang's slowest units

| unit | CPU seconds |
|---|---|
| `init/version.c` | 61.25 |
| `kernel/fork.c` | 0.61 |
| `kernel/exit.c` | 0.42 |
| `crash.c` | 0.05 |
| `kparity/t.c` | 0.03 |

## Units Clang cannot parse
EOF2
)"
}

@test "make diagnose-diff: the two reports named by A= and B=" {
	triage_fixture
	run -0 make -s -C "$TOP" --no-print-directory diagnose-diff A="$BATS_TEST_TMPDIR/d.json" B="$BATS_TEST_TMPDIR/d.json"
	assert_output "new 0 gone 0 unchanged 28"
}

@test "diagnose: diagnose.md counts the Clang-only findings by flag and by file" {
	triage_fixture
	run -0 "$TOP/scripts/diagnose-report.sh" "$BATS_TEST_TMPDIR/d.json" "$BATS_TEST_TMPDIR"
	run -0 sed -n '/^## Only Clang, by flag/,/^## GCC/p' "$BATS_TEST_TMPDIR/diagnose.md"
	assert_output "$(cat <<'EOF2'
## Only Clang, by flag

| flag | findings |
|---|---|
| -Wsign-compare | 6 |
| (none) | 1 |
| -Wuninitialized | 1 |

## Only Clang, by file

| file | findings |
|---|---|
| `include/linux/percpu-refcount.h` | 3 |
| `kparity/t.c` | 2 |
| `include/linux/bio.h` | 1 |
| `include/linux/sbitmap.h` | 1 |
| `kernel/exit.c` | 1 |

## GCC's flags for Clang
EOF2
)"
}

# unsourced TREE: the entries of kbuild/kernel-clang-flags whose warning
# or flag name the file they cite does not mention
unsourced() {
	local level when flag from rest name

	while read -r level when flag from rest; do
		case "$level" in '' | '#'*) continue ;; esac
		name=${flag#-Werror=}
		name=${name#-Wno-}
		name=${name#-W}
		name=${name#-D}
		grep -qF -e "$name" "$1/$from" || echo "$flag $from"
	done <"$TOP/kbuild/kernel-clang-flags"
}

@test "kernel-clang-flags: every flag is in the 6.1 file it cites" {
	local build=${KPARITY_BUILD:-$TOP/build} src

	src=$("$TOP/scripts/kernel-src.sh" -o "$build")
	run -0 unsourced "$src"
	assert_output ""
}

@test "diagnose: a cross GCC's prefix is Clang's target; a unit Clang cannot parse does not stop the run" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	echo 'int y = ;' >"$BATS_TEST_TMPDIR/b.src/b.c"
	jq -n --arg d "$BATS_TEST_TMPDIR/b" --arg s "$BATS_TEST_TMPDIR/b.src" '[
		{directory: $d, file: "\($s)/a.c", command: "ccache arm-linux-gnueabi-gcc -nostdinc -O2 -mno-thumb-interwork -c -o a.o \($s)/a.c"},
		{directory: $d, file: "\($s)/b.c", command: "ccache arm-linux-gnueabi-gcc -nostdinc -O2 -mno-thumb-interwork -c -o b.o \($s)/b.c"}]' \
		>"$BATS_TEST_TMPDIR/b/compile_commands.json"
	touch -d '1 minute' "$BATS_TEST_TMPDIR/b/compile_commands.json"
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	prog='[.clang.target, .units.ok, .unparsable, [.flags.translated[] | [.flag, .decision, .units]]]'
	run -0 jq -c "$prog" "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '["arm-linux-gnueabi",1,[{"id":"unparsable|b.c","unit":"b.c","error":"b.c:1:9: expected expression"}],[["-mno-thumb-interwork","drop",2]]]'
}

@test "diagnose: V=1 shows each Clang command as it runs; the target comes from the tree's table" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	V=1 run -0 --separate-stderr "$D" -c clang-19 -j 1 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$(printf '%s\n' "$stderr" | grep -c "^cd $BATS_TEST_TMPDIR/b && { clang-19 --target=x86_64-linux-gnu -fintegrated-as ")" 1
}

@test "diagnose: a tree without scripts/Makefile.clang names no target, exit 2" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	rm "$BATS_TEST_TMPDIR/b.src/scripts/Makefile.clang"
	run -2 --separate-stderr "$D" -c clang-19 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "$(printf '%s\n' "FLAGS   b: 1 units" \
		"diagnose.sh: cannot tell Clang's target for 'x86_64': no '$BATS_TEST_TMPDIR/b.src/scripts/Makefile.clang'")"
}

@test "diagnose: a GCC log named by -l is the one compared, and each unit's CPU time is kept" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	printf '%s\n' "$BATS_TEST_TMPDIR/b.src/a.c:1:5: warning: 'x' defined but not used [-Wunused-variable]" \
		>"$BATS_TEST_TMPDIR/after.log"
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -l "$BATS_TEST_TMPDIR/after.log" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	prog='[.counts.gcc, .gcc_only[0].id, (.slowest | map(.unit)), (.seconds.clang_cpu >= 0)]'
	run -0 jq -c "$prog" "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '[1,"warning|-Wunused-variable|a.c:1:5|'"'"'x'"'"' defined but not used",["a.c"],true]'
}

@test "diagnose: W=1 on commands without Kbuild's warning set reaches no unit, and says so" {
	need_tool clang-19
	fake_build "$BATS_TEST_TMPDIR/b"
	run -0 --separate-stderr "$D" -c clang-19 -j 1 -W 1 -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/b"
	run -0 printf '%s\n' "${stderr_lines[@]}"
	assert_line --index 1 "diagnose.sh: no unit's command has -Wno-packed-not-aligned, where Kbuild adds W=1's flags: the replay adds them to none"
	run -0 jq -c '[.level, .units.outside_level, .outside_level]' "$BATS_TEST_TMPDIR/out/diagnose.json"
	assert_output '["1",1,["a.c"]]'
	run -1 grep -c -e ' -Wextra ' "$BATS_TEST_TMPDIR/out/commands.tsv"
	assert_output 0
}

@test "diagnose: a GCC log that is not there, exit 2" {
	run -2 --separate-stderr "$D" -l "$BATS_TEST_TMPDIR/none.log" "$BATS_TEST_TMPDIR/b"
	assert_equal "$stderr" "diagnose.sh: no GCC log '$BATS_TEST_TMPDIR/none.log'"
}
