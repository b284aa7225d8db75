#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
#
# The overlay's probe cache: keyed by the real compiler, atomic under many
# writers, distrustful of what it reads, and owned by the build tree's owner.

load kbuild-helpers

FIX="$BATS_TEST_DIRNAME/fixtures/kbuild"

setup_file() {
	kbuild_setup_file
}

setup() {
	T="$BATS_TEST_TMPDIR"
	OUT="$T/out"
	mkdir -p "$OUT" "$T/bin"
	printf '%s\n' 'cc-option|-finline-limit=100' 'cc-option|-fuse-ld=bogus' \
		'cc-disable-warning|bogus-warning' >"$T/q"
}

# ask_cc CC [MAKE-ARGS...]: the questions in $T/q, asked of CC through the
# overlay with the cache and audit log in $OUT
ask_cc() {
	local cc="$1"

	shift
	(cd "$T" && env -u MAKEFLAGS -u MAKELEVEL make -s -f "$FIX/probe.mk" srctree="$KSRC_DIR" \
		CC="$cc" LD=ld QUESTIONS="$T/q" MAKEFILES="$TOP/kbuild/overlay.mk" \
		KPARITY_OUT="$OUT" KPARITY_AUDIT=1 "$@")
}

# audit_sources: the cached/live column of the audit log, one a line
audit_sources() {
	cut -f 6 "$OUT/.kparity/audit.log"
}

@test "probe cache: a second run answers from the cache" {
	run -0 ask_cc gcc
	assert_output "$(printf '%s\n' y n n)"
	run -0 ask_cc gcc
	assert_output "$(printf '%s\n' y n n)"
	run -0 audit_sources
	assert_output "$(printf '%s\n' live live live cached cached cached)"
	run -0 cache_entries "$OUT/.kparity/probes"
	assert_equal "${#lines[@]}" 3
}

@test "probe cache: swapping the compiler behind one name is not served stale answers" {
	need_tool clang
	ln -s "$(command -v gcc)" "$T/bin/cc"
	run -0 ask_cc "$T/bin/cc"
	assert_output "$(printf '%s\n' y n n)"
	ln -sfn "$(command -v clang)" "$T/bin/cc"
	run -0 ask_cc "$T/bin/cc"
	assert_output "$(printf '%s\n' n n n)"
	ln -sfn "$(command -v gcc)" "$T/bin/cc"
	run -0 ask_cc "$T/bin/cc"
	assert_output "$(printf '%s\n' y n n)"
	run -0 audit_sources
	assert_output "$(printf '%s\n' live live live live live live cached cached cached)"
}

@test "probe cache: a wrapper (ccache) is looked through to the compiler" {
	need_tool ccache
	run -0 ask_cc "ccache clang"
	assert_output "$(printf '%s\n' n n n)"
	run -0 ask_cc clang
	assert_output "$(printf '%s\n' n n n)"
	run -0 cut -f 3,6 "$OUT/.kparity/audit.log"
	assert_output "$(printf 'clang-14.0.6\t%s\n' live live live cached cached cached)"
}

# parallel N: N makes at once sharing one cache; each one's answers in $T/par.K
parallel() {
	local k pids=""

	for k in $(seq "$1"); do
		ask_cc clang >"$T/par.$k" 2>&1 &
		pids="$pids $!"
	done
	for k in $pids; do
		wait "$k" || return 1
	done
}

@test "probe cache: many makes writing one cache at once lose and corrupt nothing" {
	need_tool clang
	for q in -fno-common -fno-strict-aliasing -fbogus-one -fbogus-two -mno-sse -mthumb \
		-Wl,--build-id -Wno-bogus -fwrapv -fno-PIE -mfpu=vfp -Wall; do
		printf 'cc-option|%s\n' "$q" >>"$T/q"
	done
	run -0 parallel 12
	for k in $(seq 12); do
		run -0 cat "$T/par.$k"
		assert_output "$(printf '%s\n' n n n y y n n y n y n y y n y)"
	done
	run -0 cache_entries "$OUT/.kparity/probes"
	assert_equal "${#lines[@]}" 15
	refute_output --partial .tmp.
	# every entry is whole: a warm run answers from all of them
	run -0 ask_cc clang
	run -0 tail -n 15 "$OUT/.kparity/audit.log"
	refute_output --partial live
	run -0 audit_sources
	assert_equal "${#lines[@]}" $((13 * 15))
}

@test "probe cache: garbage in an entry is ignored, reported with V=1, and replaced" {
	run -0 ask_cc gcc KPARITY_AUDIT=0
	for f in "$OUT"/.kparity/probes/*; do
		case "$f" in */tool-*) continue ;; esac
		printf 'all:\n\t$(shell touch %s/pwned)\n$(shell touch %s/pwned)\n' "$T" "$T" >"$f"
	done
	run -0 --separate-stderr ask_cc gcc KBUILD_VERBOSE=1
	assert_output "$(printf '%s\n' y n n)"
	assert_equal "$(printf '%s\n' "$stderr" | grep -c "kparity-probe: ignoring corrupt cache entry '$OUT/.kparity/probes/")" 3
	assert [ ! -e "$T/pwned" ]
	run -0 audit_sources
	assert_output "$(printf '%s\n' live live live)"
	run -0 ask_cc gcc
	run -0 audit_sources
	assert_output "$(printf '%s\n' live live live cached cached cached)"
}

@test "probe cache: an entry for another key with the right name is not trusted" {
	run -0 ask_cc gcc KPARITY_AUDIT=0
	for f in "$OUT"/.kparity/probes/*; do
		case "$f" in */tool-*) continue ;; esac
		awk -F '\t' -v OFS='\t' '$1 == "r" { $7 = "-fother"; $8 = "y:ok:y" } 1' "$f" >"$f.new"
		mv "$f.new" "$f"
	done
	run -0 ask_cc gcc
	assert_output "$(printf '%s\n' y n n)"
	run -0 audit_sources
	assert_output "$(printf '%s\n' live live live)"
}

@test "probe cache: KPARITY_CACHE=0 writes no cache" {
	run -0 ask_cc gcc KPARITY_CACHE=0 KPARITY_AUDIT=0
	assert_output "$(printf '%s\n' y n n)"
	assert [ ! -e "$OUT/.kparity" ]
}

@test "probe cache: files belong to the build tree's owner, not to root" {
	local want
	want=$(id -u)
	if [ "$want" = 0 ]; then
		chown 65534:65534 "$OUT"
		want=65534
	fi
	run -0 ask_cc gcc
	run -0 find "$OUT/.kparity" ! -user "$want"
	assert_output ""
	# the audit log, three answers, and the identities of gcc and ld
	run -0 find "$OUT/.kparity" -type f
	assert_equal "${#lines[@]}" 6
}

# buckets: the answer files of the cache in $OUT, one a line
buckets() {
	find "$OUT/.kparity/probes" -maxdepth 1 ! -type d -name '*-c*' ! -name 'tool-*' | sort
}

@test "probe cache: entries make cannot open are left to probe.sh, not fatal" {
	local b k=0 bs
	run -0 ask_cc gcc KPARITY_AUDIT=0
	run -0 buckets
	assert_equal "${#lines[@]}" 3
	bs=("${lines[@]}")
	for b in "${bs[@]}"; do
		rm -f "$b"
		case $k in
		0) mkdir "$b" ;;                  # read fails
		1) ln -s "${b##*/}" "$b" ;;       # a symlink loop: open fails
		2) mkfifo "$b" ;;                 # open blocks
		esac
		k=$((k + 1))
	done
	run -0 --separate-stderr ask_cc gcc KBUILD_VERBOSE=1 KPARITY_AUDIT=0
	assert_output "$(printf '%s\n' y n n)"
	# listed by the identity run, then met by each probe: the directory
	# stays (a file cannot replace it), the others are replaced
	assert_equal "$stderr" "$(printf "kparity-probe: %s cache entry '%s'\n" \
		"ignoring unreadable" "${bs[0]}" "ignoring unreadable" "${bs[1]}" "ignoring unreadable" "${bs[2]}" \
		"ignoring unreadable" "${bs[2]}" "ignoring unreadable" "${bs[0]}" "cannot write" "${bs[0]}")"
	run -0 find "$OUT/.kparity/probes" -type f -name '*-cc-option-*'
	assert_equal "${#lines[@]}" 2
	run -0 --separate-stderr ask_cc gcc KBUILD_VERBOSE=1 KPARITY_AUDIT=0
	assert_output "$(printf '%s\n' y n n)"
	assert_equal "$stderr" "$(printf "kparity-probe: %s cache entry '%s'\n" \
		"ignoring unreadable" "${bs[0]}" "ignoring unreadable" "${bs[0]}" "cannot write" "${bs[0]}")"
}

# as_user UID CMD...: CMD run as user UID (with its group), no other groups
as_user() {
	local id="$1"

	shift
	setpriv --reuid="$id" --regid="$id" --clear-groups "$@"
}

@test "probe cache: a bucket the user cannot read is ignored, re-probed and replaced" {
	local b bs runner=""
	run -0 ask_cc gcc KPARITY_AUDIT=0
	run -0 buckets
	assert_equal "${#lines[@]}" 3
	bs=("${lines[@]}")
	for b in "${bs[@]}"; do
		chmod 000 "$b"
	done
	if [ "$(id -u)" = 0 ]; then
		# root reads anything: ask as another user owning the cache, from
		# copies it can reach
		need_tool setpriv
		mkdir -p "$T/u/src/scripts" "$T/u/scripts"
		cp -r "$TOP/kbuild" "$FIX/probe.mk" "$T/q" "$T/u/"
		cp -r "$TOP/scripts/lib" "$T/u/scripts/"
		cp "$KSRC_DIR"/scripts/Kbuild.include "$KSRC_DIR"/scripts/Makefile.compiler "$T/u/src/scripts/"
		chown -R 65534:65534 "$T/u" "$OUT"
		b="$T"
		while [ "$b" != "$BATS_RUN_TMPDIR" ] && [ "$b" != / ]; do
			chmod a+x "$b"
			b=$(dirname "$b")
		done
		chmod a+x "$BATS_RUN_TMPDIR"
		runner="as_user 65534"
	fi
	run -0 --separate-stderr $runner env -u MAKEFLAGS -u MAKELEVEL make -s -C "$T/u" -f probe.mk \
		srctree="$T/u/src" CC=gcc LD=ld QUESTIONS="$T/u/q" MAKEFILES="$T/u/kbuild/overlay.mk" \
		KPARITY_OUT="$OUT" KBUILD_VERBOSE=1
	assert_output "$(printf '%s\n' y n n)"
	# listed by the identity run, then met by the probes in question order
	assert_equal "$stderr" "$(printf "kparity-probe: ignoring unreadable cache entry '%s'\n" \
		"${bs[@]}" "${bs[1]}" "${bs[2]}" "${bs[0]}")"
	run -0 find "$OUT/.kparity/probes" -type f -name '*-c*' -perm -0400
	assert_equal "${#lines[@]}" 3
}

# ask_copy CHECKOUT [MAKE-ARGS...]: ask_cc gcc with CHECKOUT's overlay
ask_copy() {
	local top="$1"

	shift
	(cd "$T" && env -u MAKEFLAGS -u MAKELEVEL make -s -f "$FIX/probe.mk" srctree="$KSRC_DIR" \
		CC=gcc LD=ld QUESTIONS="$T/q" MAKEFILES="$top/kbuild/overlay.mk" \
		KPARITY_OUT="$OUT" KPARITY_AUDIT=1 "$@")
}

@test "probe cache: make and probe.sh both take the format from kbuild/cache-format" {
	local b
	# a checkout whose format knows one more reason
	mkdir -p "$T/k/scripts"
	cp -r "$TOP/kbuild" "$T/k/"
	cp -r "$TOP/scripts/lib" "$T/k/scripts/"
	sed -i 's/^kp_cache_reasons=.*/&,zz-new/' "$T/k/kbuild/cache-format"
	run -0 ask_copy "$T/k"
	assert_output "$(printf '%s\n' y n n)"
	b=$(grep -l -e '-finline-limit=100' "$OUT"/.kparity/probes/*-cc-option-*)
	sed -i 's/y:ok:y$/n:zz-new:y/' "$b"
	# make reads the record with the new reason as an answer
	run -0 ask_copy "$T/k"
	assert_output "$(printf '%s\n' n n n)"
	run -0 sed -n 4p "$OUT/.kparity/audit.log"
	assert_output "$(printf 'cc-option\t-finline-limit=100\tgcc-12.2.0\tn\tzz-new\tcached\ty')"
	# probe.sh keeps it beside a new record in the same bucket, silently
	printf '%s\n' 'cc-option|-finline-limit=200' >"$T/q"
	run -0 --separate-stderr ask_copy "$T/k" KBUILD_VERBOSE=1
	assert_output y
	assert_equal "$stderr" ""
	run -0 grep -c -e '-finline-limit=' "$b"
	assert_output 2
	# a format without the reason does not trust the record
	printf '%s\n' 'cc-option|-finline-limit=100' >"$T/q"
	run -0 --separate-stderr ask_copy "$TOP" KBUILD_VERBOSE=1
	assert_output y
	assert_equal "$stderr" "kparity-probe: ignoring corrupt cache entry '$b'"
}

@test "overlay: with V=1 one line says it is on, with the tools and the cache" {
	local id='\(([0-9a-f]{32})\)'
	run -0 --separate-stderr ask_cc gcc V=1
	assert_equal "${#lines[@]}" 4
	assert_line -n 0 --regexp "^kparity: overlay $TOP/kbuild/overlay\.mk: CC gcc = gcc-12\.2\.0 $id, LD ld = gnu-ld-2\.40 $id, cache $OUT/\.kparity/probes\$"
	assert_equal "${lines[*]:1}" "y n n"
	assert_equal "$stderr" ""
	run -0 ask_cc gcc V=1 KPARITY_CACHE=0
	assert_line -n 0 --regexp "^kparity: overlay .*, cache off\$"
	# a build directory inside the source tree gets no cache, and says why
	run -0 ask_cc gcc V=1 KPARITY_OUT="$KSRC_DIR/out"
	assert_line -n 0 --regexp "^kparity: overlay .*, cache off \($KSRC_DIR/out/\.kparity is inside the source tree: use an O= outside it\)\$"
	assert [ ! -e "$KSRC_DIR/out" ]
	run -0 ask_cc gcc
	assert_output "$(printf '%s\n' y n n)"
}
