# SPDX-License-Identifier: GPL-2.0-only
# Shared setup for the Kbuild overlay suites: the kernel tree, and a way to
# ask its probe macros questions with or without the overlay in front.

load "$(dirname "${BASH_SOURCE[0]}")/common"

# kbuild_setup_file: export KSRC_DIR, the extracted kernel tree, and
# BUILD_DIR, the build directory holding it
kbuild_setup_file() {
	local build="${KPARITY_BUILD:-build}"

	case "$build" in
	/*) ;;
	*) build="$TOP/$build" ;;
	esac
	KSRC_DIR=$("$TOP/scripts/kernel-src.sh" -o "$build" 2>/dev/null)
	BUILD_DIR="$build"
	export KSRC_DIR BUILD_DIR
}

# toolchain NAME: set tc_cc, tc_ld and tc_clang for gcc, clang-14, clang-19
toolchain() {
	case "$1" in
	gcc) tc_cc=gcc tc_ld=ld tc_clang= ;;
	clang-14) tc_cc=clang-14 tc_ld=ld.lld-14 tc_clang=1 ;;
	clang-19) tc_cc=clang-19 tc_ld=ld.lld-19 tc_clang=1 ;;
	*) echo "unknown toolchain '$1'" >&2; return 1 ;;
	esac
	need_tool "$tc_cc"
	need_tool "$tc_ld"
}

# ask TOOLCHAIN stock|overlay QUESTIONS [MAKE-ARGS...]: run the questions
# through the tree's macros from a scratch directory; one answer a line.
# OVERLAY= names another overlay.mk (an installed one) for "overlay"
ask() {
	local tc="$1" how="$2" questions="$3" dir="$BATS_TEST_TMPDIR/ask"

	shift 3
	toolchain "$tc" || return 2
	mkdir -p "$dir"
	if [ "$how" = overlay ]; then
		set -- MAKEFILES="${OVERLAY:-$TOP/kbuild/overlay.mk}" "$@"
	fi
	(cd "$dir" && env -u MAKEFLAGS -u MAKELEVEL make -s -f "$TOP/tests/fixtures/kbuild/probe.mk" \
		srctree="$KSRC_DIR" CC="$tc_cc" LD="$tc_ld" CLANG="$tc_clang" \
		LDEMULATION="-m elf_x86_64" QUESTIONS="$questions" "$@")
}

# matrix QUESTIONS [MAKE-ARGS...]: one row per question, one column per
# toolchain and macro set
matrix() {
	local questions="$1" tc how out="$BATS_TEST_TMPDIR/matrix"

	shift
	mkdir -p "$out"
	set -- "$questions" "$@"
	for tc in gcc clang-14 clang-19; do
		for how in stock overlay; do
			ask "$tc" "$how" "$@" KPARITY_CACHE=0 >"$out/$tc-$how" || return
		done
	done
	printf '%-45s %s\n' question "gcc:stock gcc:overlay clang-14:stock clang-14:overlay clang-19:stock clang-19:overlay"
	paste -d ' ' "$questions" "$out/gcc-stock" "$out/gcc-overlay" "$out/clang-14-stock" \
		"$out/clang-14-overlay" "$out/clang-19-stock" "$out/clang-19-overlay" |
		awk '{ printf "%-45s %-9s %-11s %-14s %-16s %-14s %s\n", $1, $2, $3, $4, $5, $6, $7 }'
}

# cache_entries DIR: the probe cache files in DIR, sorted
cache_entries() {
	find "$1" -type f ! -name 'tool-*' | sort
}

# hooked_tree DIR: in DIR, a tree of symlinks to the kernel tree with its
# series' first patch (the hook, patches/KERNEL/0001-*; 6.1 without KERNEL)
# applied to real copies of what it touches
hooked_tree() {
	local dir="$1" f

	mkdir -p "$dir"
	cp -as "$KSRC_DIR/." "$dir/"
	rm -rf "$dir/.pc"
	for f in Kconfig scripts/Kconfig.include scripts/Makefile.compiler; do
		cp --remove-destination "$KSRC_DIR/$f" "$dir/$f"
	done
	grep -q kparity-kconfig "$dir/Kconfig" ||
		patch -s -d "$dir" -p1 <"$(echo "$TOP/patches/${KERNEL:-6.1}"/0001-*.patch)"
}

# kmake OBJDIR ARGS...: make in the kernel tree with the overlay hooked in
kmake() {
	local objdir="$1"

	shift
	env -u MAKEFLAGS -u MAKELEVEL make -s -C "$KSRC_DIR" O="$objdir" ARCH=x86_64 \
		MAKEFILES="$TOP/kbuild/overlay.mk" "$@"
}
