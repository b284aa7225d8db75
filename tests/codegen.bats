#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# scripts/codegen.sh and its programs: the size of each compiler's kernel
# by section and per symbol, through the kernel tree's own
# scripts/bloat-o-meter. The cells' images are objects of known symbol
# sizes (tests/fixtures/codegen/*.s), assembled by gcc and by clang.

load common

FIX=tests/fixtures/codegen

setup_file() {
	local build=${KPARITY_BUILD:-build}

	case "$build" in
	/*) ;;
	*) build="$TOP/$build" ;;
	esac
	# the tree whose scripts/bloat-o-meter the cells' source links reach
	KSRC_DIR=$("$TOP/scripts/kernel-src.sh" -o "$build")
	export KSRC_DIR
}

setup() {
	need_tool jq
	need_tool python3
	T=$BATS_TEST_TMPDIR
	B=$T/build
}

# cell COMPILER CC SOURCE: a built cell whose vmlinux is SOURCE assembled
# by CC, its source the kernel tree
cell() {
	local dir=$B/kernel/x86_64-$1

	mkdir -p "$dir"
	cc_obj "$2" "$dir/vmlinux" "$3"
	ln -s "$KSRC_DIR" "$dir/source"
	: >"$dir/.kparity-built"
}

BLOAT='add/remove: 1/1 grow/shrink: 1/1 up/down: 21/-18 (3)
Function                                     old     new   delta
f_grow                                        10      25     +15
f_new                                          -       6      +6
f_gone                                         8       -      -8
f_shrink                                      40      30     -10
Total: Before=74, After=77, chg +4.05%
add/remove: 0/0 grow/shrink: 1/0 up/down: 8/0 (8)
Data                                         old     new   delta
d_var                                         12      20      +8
Total: Before=76, After=84, chg +10.53%'

@test "bloat.awk: each category's summary, totals, growths from the top and shrinks from the end" {
	printf '%s\n' "$BLOAT" >"$T/bloat.txt"
	prog='.function | [.added, .removed, .grown, .shrunk, .up, .down, .net, .before, .after,
		.change_percent, [.grows[] | "\(.symbol) \(.old) \(.new) \(.delta)"],
		[.shrinks[] | "\(.symbol) \(.old) \(.new) \(.delta)"]]'
	awk -f "$TOP/scripts/codegen/bloat.awk" "$T/bloat.txt" >"$T/bloat.json"
	run -0 jq -c "$prog" "$T/bloat.json"
	assert_output '[1,1,1,1,21,-18,3,74,77,4.05,["f_grow 10 25 15","f_new 0 6 6"],["f_shrink 40 30 -10","f_gone 8 0 -8"]]'
	awk -v top=1 -f "$TOP/scripts/codegen/bloat.awk" "$T/bloat.txt" >"$T/top1.json"
	prog='[keys, .data.before, .data.after, .data.change_percent, (.function.grows | length), (.function.shrinks | length)]'
	run -0 jq -c "$prog" "$T/top1.json"
	assert_output '[["data","function"],76,84,10.53,1,1]'
}

@test "bloat.awk: a line it does not know, or a block cut short, is named and nothing printed" {
	printf '%s\n' "$BLOAT" 'Segmentation fault' >"$T/bad.txt"
	run -2 --separate-stderr awk -f "$TOP/scripts/codegen/bloat.awk" "$T/bad.txt"
	assert_output ""
	assert_equal "$stderr" "$T/bad.txt:12: not a bloat-o-meter line"
	printf '%s\n' "$BLOAT" | head -n 4 >"$T/short.txt"
	run -2 --separate-stderr awk -f "$TOP/scripts/codegen/bloat.awk" "$T/short.txt"
	assert_output ""
	assert_equal "$stderr" "$T/short.txt:4: no complete bloat-o-meter block"
}

@test "sections.awk: .text, .rodata, .data and .bss of readelf -SW, 0 for one that is missing" {
	cc_obj clang "$T/new.o" "$FIX/new.s"
	readelf -SW "$T/new.o" >"$T/sections.txt"
	run -0 awk -f "$TOP/scripts/codegen/sections.awk" "$T/sections.txt"
	assert_output '{"text": 77, "rodata": 32, "data": 20, "bss": 64}'
	run -0 awk -f "$TOP/scripts/codegen/sections.awk" /dev/null
	assert_output '{"text": 0, "rodata": 0, "data": 0, "bss": 0}'
}

@test "codegen: gcc's and clang's images by section and per symbol, through the tree's bloat-o-meter" {
	cell gcc gcc "$FIX/old.s"
	cell clang clang "$FIX/new.s"
	run -0 --separate-stderr "$TOP/scripts/codegen.sh" -o "$B" -t x86_64
	assert_equal "$stderr" ""
	assert_output "$(cat <<'EOF'
x86_64: clang against gcc
                             gcc       clang    change
  .text                       74          77    +4.05%
  .rodata                     32          32       +0%
  .data                       12          20   +66.67%
  .bss                        64          64       +0%
  function symbols            74          77    +4.05%
  data symbols                76          84   +10.53%
  rodata symbols              32          32       +0%
  largest function growths:
         +15  f_grow
          +6  f_new
  largest function shrinks:
         -10  f_shrink
          -8  f_gone
EOF
)"
	prog='[.reference, (.targets[] | .target, (.comparisons[] | .old, .new, .sections, .symbols.function.net))]'
	run -0 jq -c "$prog" "$B/report/codegen.json"
	assert_output '["gcc","x86_64","gcc","clang",{"old":{"text":74,"rodata":32,"data":12,"bss":64},"new":{"text":77,"rodata":32,"data":20,"bss":64}},3]'
}

@test "codegen: a cell that has not built is one line, and with nothing measured exit 2" {
	cell gcc gcc "$FIX/old.s"
	run -2 --separate-stderr "$TOP/scripts/codegen.sh" -o "$B" -t x86_64 -O "$T/out.json"
	assert_output ""
	assert_equal "${stderr_lines[0]}" "codegen.sh: no built cell x86_64/clang in '$B/kernel/x86_64-clang' (make parity TARGETS=x86_64 first)"
	assert_equal "${stderr_lines[1]}" "codegen.sh: nothing measured: no target has a built cell of gcc and of another compiler"
	[ ! -e "$T/out.json" ]
}

@test "codegen: an unknown compiler, a bad -n and a missing build directory are one line and exit 2" {
	known=$(awk '!/^[ \t]*(#|$)/ { printf "%s%s", sep, $1; sep = " " }' "$TOP/scripts/targets/compilers.list")
	run -2 --separate-stderr "$TOP/scripts/codegen.sh" -o "$B" -t x86_64 -c "gcc clang-7"
	assert_equal "$stderr" "codegen.sh: unknown compiler 'clang-7' (known: $known)"
	run -2 --separate-stderr "$TOP/scripts/codegen.sh" -o "$B" -n 0
	assert_equal "$stderr" "codegen.sh: -n needs a positive number, not '0'"
	run -2 --separate-stderr "$TOP/scripts/codegen.sh" -o "$T/none" -t x86_64
	assert_equal "$stderr" "codegen.sh: no build directory '$T/none' (make parity first)"
}
