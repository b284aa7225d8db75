#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The speed half of make codegen: scripts/codegen/speed-stats.awk on fixed
# samples, scripts/codegen/tcrypt.awk on recorded User-Mode Linux
# consoles (tests/fixtures/codegen/*.console, each with the command that
# made it), the table and the JSON of scripts/codegen-speed.sh, and its
# bad input. No kernel is booted here: tests/full/codegen-speed.bats runs
# the protocol on the um cells.

load common

FIX=tests/fixtures/codegen

setup() {
	need_tool jq
	T=$BATS_TEST_TMPDIR
}

# The expected intervals and p values were computed once by an independent
# program (Python: the same generator and resampling order, statistics.median,
# the exact U distribution by enumerating every split of the pooled
# samples, math.erf for the normal approximation), not by this awk.
@test "speed-stats.awk: medians, ratio, bootstrap interval, rank test and verdict per benchmark" {
	prog='[.benchmark, .ref.median, .new.median, .ratio, .ci, .p, .p_method, .aa.median, .aa_ci, .aa_spread, .verdict]'
	awk -f "$TOP/scripts/codegen/speed-stats.awk" "$FIX/speed-samples.txt" >"$T/stats"
	run -0 jq -c "$prog" "$T/stats"
	assert_output "$(cat <<'EOF'
["faster",1000.5,1099.5,1.098951,[1.092942,1.106106],1.1e-05,"exact",999.5,[0.993021,1.006533],0.006979,"significant: new faster"]
["equal",500.5,500.5,1,[0.986028,1.014056],1,"normal",499.5,[0.985045,1.014099],0.014955,"not significant"]
["noise",1000,1020,1.02,[1.017982,1.022022],0.000177,"normal",1005,[0.95952,1.04],0.04048,"within A/A noise"]
EOF
)"
}

@test "speed-stats.awk: slower, no A/A control, and an exact p for small samples" {
	printf '%s\n' 's ref 10' 's ref 11' 's ref 12' 's new 8' 's new 9' 's new 7' 's aa 10' 's aa 11' 's aa 12' \
		'x ref 10' 'x ref 11' 'x ref 12' 'x new 20' 'x new 21' 'x new 22' >"$T/small"
	run -0 awk -f "$TOP/scripts/codegen/speed-stats.awk" "$T/small"
	assert_output "$(cat <<'EOF'
{"benchmark": "s", "ref": {"n": 3, "median": 11}, "new": {"n": 3, "median": 8}, "ratio": 0.727273, "ci": [0.583333, 0.900000], "p": 0.100000, "p_method": "exact", "aa": {"n": 3, "median": 11}, "aa_ratio": 1.000000, "aa_ci": [0.833333, 1.200000], "aa_spread": 0.200000, "verdict": "significant: new slower"}
{"benchmark": "x", "ref": {"n": 3, "median": 11}, "new": {"n": 3, "median": 21}, "ratio": 1.909091, "ci": [1.666667, 2.200000], "p": 0.100000, "p_method": "exact", "aa": null, "aa_ratio": null, "aa_ci": null, "aa_spread": null, "verdict": "no A/A control"}
EOF
)"
}

@test "speed-stats.awk: a malformed line, too few samples and no samples are one line, exit 2" {
	printf '%s\n' 'b ref 1' 'b gcc 2' >"$T/bad"
	run -2 --separate-stderr awk -f "$TOP/scripts/codegen/speed-stats.awk" "$T/bad"
	assert_output ""
	assert_equal "$stderr" "$T/bad:2: not \"BENCHMARK ref|new|aa VALUE\": 'b gcc 2'"
	printf '%s\n' 'b ref 1' 'b ref 2' 'b new 3' >"$T/few"
	run -2 --separate-stderr awk -f "$TOP/scripts/codegen/speed-stats.awk" "$T/few"
	assert_output ""
	assert_equal "$stderr" "$T/few: b: fewer than 2 samples of ref or new"
	printf '# nothing\n' >"$T/none"
	run -2 --separate-stderr awk -f "$TOP/scripts/codegen/speed-stats.awk" "$T/none"
	assert_equal "$stderr" "$T/none: no samples"
}

@test "speed-table.jq: a row per benchmark, the verdict naming the compiler" {
	awk -f "$TOP/scripts/codegen/speed-stats.awk" "$FIX/speed-samples.txt" >"$T/stats"
	grep -v '^#' "$FIX/speed-samples.txt" >"$T/samples"
	jq -n --arg ref gcc --arg new clang --arg kvm "no usable KVM" --argjson runs 10 --argjson sec 1 \
		--arg modes "304 214" --arg cpu 1 --slurpfile stats "$T/stats" --rawfile samples "$T/samples" \
		-f "$TOP/scripts/codegen/speed-json.jq" >"$T/speed.json"
	jq '{version: 2, reference: "gcc", speed: .}' "$T/speed.json" >"$T/codegen.json"
	run -0 jq -r -f "$TOP/scripts/codegen/speed-table.jq" "$T/codegen.json"
	assert_output "$(cat <<'EOF'
um: clang against gcc, 10 runs each and 10 of gcc as the A/A control (tcrypt modes 304 214, 1 s per size)
  benchmark                                    gcc       clang  ratio [95% CI]              p       A/A  verdict
  faster                                    1000.5      1099.5  1.099 [1.093, 1.106]    0.0000   +/-0.7%  significant: clang faster
  equal                                      500.5       500.5  1.000 [0.986, 1.014]    1.0000   +/-1.5%  not significant
  noise                                       1000        1020  1.020 [1.018, 1.022]    0.0002   +/-4.0%  within A/A noise
EOF
)"
	prog='.speed | [.modes, .cpu, .kvm, (.benchmarks[0] | .samples.ref[0:2], .samples.new[0:2], .samples.aa[0:2])]'
	run -0 jq -c "$prog" "$T/codegen.json"
	assert_output '[[304,214],1,"no usable KVM",[1000,1004],[1100,1105],[1003,997]]'
}

@test "codegen-speed: a cell that has not built is one line, exit 2, nothing written" {
	mkdir -p "$T/build"
	run -2 --separate-stderr "$TOP/scripts/codegen-speed.sh" -o "$T/build" -O "$T/out.json"
	assert_output ""
	assert_equal "$stderr" "codegen-speed.sh: no built cell um/gcc in '$T/build/kernel/um-gcc' (scripts/kernel-build.sh -o $T/build -t um -c gcc first)"
	[ ! -e "$T/out.json" ]
}

@test "codegen-speed: bad -n, -S, -m and -c are one line and exit 2" {
	run -2 --separate-stderr "$TOP/scripts/codegen-speed.sh" -o "$T" -n 1
	assert_equal "$stderr" "codegen-speed.sh: -n needs a number of runs of at least 2, not '1'"
	run -2 --separate-stderr "$TOP/scripts/codegen-speed.sh" -o "$T" -S 0
	assert_equal "$stderr" "codegen-speed.sh: -S needs a positive number of seconds, not '0'"
	run -2 --separate-stderr "$TOP/scripts/codegen-speed.sh" -o "$T" -m "304 sha"
	assert_equal "$stderr" "codegen-speed.sh: -m: 'sha' is not a tcrypt mode number"
	run -2 --separate-stderr "$TOP/scripts/codegen-speed.sh" -o "$T" -c x
	assert_equal "$stderr" "codegen-speed.sh: -c needs a CPU number, not 'x'"
}

@test "tcrypt.awk: a cipher's results, on the test's line, in bytes per second" {
	run -0 --separate-stderr awk -v token=probe-1 -f "$TOP/scripts/codegen/tcrypt.awk" "$FIX/um-gcc-214.console"
	assert_equal "$stderr" ""
	assert_output "$(cat <<'EOF'
chacha20-generic-enc/256/16 25210000
chacha20-generic-enc/256/64 99066624
chacha20-generic-enc/256/128 115017984
chacha20-generic-enc/256/256 124132608
chacha20-generic-enc/256/1024 137474048
chacha20-generic-enc/256/1420 142302460
chacha20-generic-enc/256/4096 139927552
EOF
)"
}

@test "tcrypt.awk: a hash's results, on the test's line or the next" {
	run -0 --separate-stderr awk -v token=probe-2 -f "$TOP/scripts/codegen/tcrypt.awk" "$FIX/um-gcc-304.console"
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 22
	assert_equal "${lines[0]}" "sha256-generic/16/16 12078576"
	assert_equal "${lines[1]}" "sha256-generic/64/16 24856896"
	assert_equal "${lines[2]}" "sha256-generic/64/64 27486912"
	assert_equal "${lines[21]}" "sha256-generic/8192/8192 135962624"
}

@test "tcrypt.awk: another boot's token, a cut console, a test without result, a failure: one line, exit 1" {
	c=$FIX/um-gcc-214.console
	run -1 --separate-stderr awk -v token=probe-12 -f "$TOP/scripts/codegen/tcrypt.awk" "$c"
	assert_output ""
	assert_equal "$stderr" "the console is not this boot's (no kparity.token=probe-12 on its command line)"
	head -n 80 "$c" >"$T/cut"
	run -1 --separate-stderr awk -v token=probe-1 -f "$TOP/scripts/codegen/tcrypt.awk" "$T/cut"
	assert_output ""
	assert_equal "$stderr" "the kernel did not get past its initcalls (no panic on the missing root)"
	head -n 79 "$c" >"$T/noresult"
	echo 'tcrypt: test 6 (256 bit key, 4096 byte blocks): ' >>"$T/noresult"
	run -1 --separate-stderr awk -v token=probe-1 -f "$TOP/scripts/codegen/tcrypt.awk" "$T/noresult"
	assert_equal "$stderr" "tcrypt's chacha20-generic-enc/256/4096 has no result"
	{ cat "$c"; echo 'tcrypt: one or more tests failed!'; } >"$T/failed"
	run -1 --separate-stderr awk -v token=probe-1 -f "$TOP/scripts/codegen/tcrypt.awk" "$T/failed"
	assert_output ""
	assert_equal "$stderr" "tcrypt: one or more tests failed"
	head -n 72 "$c" >"$T/none"
	tail -n 1 "$c" >>"$T/none"
	run -1 --separate-stderr awk -v token=probe-1 -f "$TOP/scripts/codegen/tcrypt.awk" "$T/none"
	assert_equal "$stderr" "no tcrypt speed result"
}

# replay COMPILER CONSOLE: a built um cell of COMPILER whose kernel replays
# the recorded CONSOLE (tests/fixtures/codegen/) with each boot's command
# line, so the protocol runs on real consoles without booting
replay() {
	local d=$T/build/kernel/um-$1

	mkdir -p "$d"
	: >"$d/vmlinux"
	: >"$d/.kparity-built"
	cp "$TOP/$FIX/$2" "$d/console"
	cat >"$d/linux" <<'EOF'
#!/bin/sh
exec sed "s|^Kernel command line: .*|Kernel command line: $*|" "$(dirname "$0")/console"
EOF
	chmod +x "$d/linux"
}

@test "codegen-speed: the protocol on replayed consoles: the KVM line, a run per step, the table, the JSON" {
	replay gcc um-gcc-214.console
	replay clang um-gcc-214.console
	echo '{"version": 2, "reference": "gcc", "targets": [{"target": "x86_64"}]}' >"$T/codegen.json"
	run -0 --separate-stderr env KPARITY_KVM_DEVICE="$T/kvm" "$TOP/scripts/codegen-speed.sh" -o "$T/build" \
		-n 2 -m 214 -O "$T/codegen.json"
	assert_equal "$stderr" "$(printf '%s\n' \
		"codegen-speed.sh: no usable KVM: no writable '$T/kvm'; timing natively as User-Mode Linux" \
		'  RUN     1 of 2' '  RUN     2 of 2')"
	assert_output "$(cat <<'EOF'
um: clang against gcc, 2 runs each and 2 of gcc as the A/A control (tcrypt modes 214, 1 s per size)
  benchmark                                    gcc       clang  ratio [95% CI]              p       A/A  verdict
  chacha20-generic-enc/256/16             25210000    25210000  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/64             99066624    99066624  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/128           115017984   115017984  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/256           124132608   124132608  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/1024          137474048   137474048  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/1420          142302460   142302460  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
  chacha20-generic-enc/256/4096          139927552   139927552  1.000 [1.000, 1.000]    1.0000   +/-0.0%  not significant
EOF
)"
	prog='[.targets[0].target, (.speed | .kvm, .runs, (.benchmarks[0] | .samples, .p_method))]'
	run -0 jq -c "$prog" "$T/codegen.json"
	assert_output "[\"x86_64\",\"no usable KVM: no writable '$T/kvm'; timing natively as User-Mode Linux\",2,{\"ref\":[25210000,25210000],\"new\":[25210000,25210000],\"aa\":[25210000,25210000]},\"normal\"]"
}

@test "codegen-speed: with a KVM device but no x86_64/gcc cell to probe it with, one line says so" {
	replay gcc um-gcc-214.console
	replay clang um-gcc-214.console
	run -0 --separate-stderr env KPARITY_KVM_DEVICE=/dev/null "$TOP/scripts/codegen-speed.sh" -o "$T/build" \
		-n 2 -m 214 -O "$T/codegen.json"
	assert_equal "${stderr_lines[0]}" "codegen-speed.sh: KVM not probed: no built x86_64/gcc cell or no qemu-system-x86_64; timing natively as User-Mode Linux"
	assert_equal "${#stderr_lines[@]}" 3
}

@test "codegen-speed: a boot that did not end is one line each, and with nothing to compare exit 2" {
	replay gcc um-gcc-214.console
	replay clang um-gcc-214.console
	head -n 80 "$TOP/$FIX/um-gcc-214.console" >"$T/build/kernel/um-clang/console"
	run -2 --separate-stderr env KPARITY_KVM_DEVICE="$T/kvm" "$TOP/scripts/codegen-speed.sh" -o "$T/build" \
		-n 2 -m 214 -O "$T/codegen.json"
	assert_output ""
	assert_equal "${stderr_lines[1]}" "codegen-speed.sh: um/clang run 1, tcrypt mode 214: the kernel did not get past its initcalls (no panic on the missing root)"
	assert_equal "${stderr_lines[2]}" "  RUN     1 of 2"
	assert_equal "${stderr_lines[5]}" "codegen-speed.sh: cannot compare the samples (chacha20-generic-enc/256/16: fewer than 2 samples of ref or new)"
	[ ! -e "$T/codegen.json" ]
}
