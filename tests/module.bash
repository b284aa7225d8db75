# SPDX-License-Identifier: GPL-2.0-only
# Building external modules in a test: Debian's 6.1 cloud kernel (its
# headers, and the BTF and modules of its image) and the acpi-call-dkms
# source, fetched once per machine into the cache (KPARITY_CACHE_DIR,
# default KPARITY_BUILD/cache), never into the tree; and what the module
# suites share. Loaded after common.bash.
# shellcheck disable=SC2034 # MODULE and CHECK are for the suites

MODULE="$TOP/scripts/module.sh"
CHECK="$TOP/scripts/module-check.sh"

# module_setup_file: fetch the inputs; exports KVER, KDIR_DEB (the
# headers), BTF_DEB (the image's vmlinux), MODDIR_DEB (its modules),
# MOD_SRC (acpi-call's source) and CACHE
module_setup_file() {
	local build="${KPARITY_BUILD:-$TOP/build}" abi image

	export PROG=module.bats
	# shellcheck source=scripts/lib/common.sh
	. "$TOP/scripts/lib/common.sh"
	# shellcheck source=scripts/lib/debcache.sh
	. "$TOP/scripts/lib/debcache.sh"
	export CACHE
	CACHE=$(cache_dir "$build")
	abi=$(debian_abi)
	export KVER="6.1.0-$abi-cloud-amd64"
	export KDIR_DEB MOD_SRC BTF_DEB MODDIR_DEB
	KDIR_DEB=$(debian_headers "$CACHE" "$KVER")
	BTF_DEB=$(image_vmlinux "$CACHE" "$KVER")
	image=$(deb_root "$CACHE" "image-$KVER" "linux-image-$KVER")
	MODDIR_DEB="$image/lib/modules/$KVER"
	MOD_SRC=$(deb_root "$CACHE" acpi-call acpi-call-dkms)
	MOD_SRC=$(echo "$MOD_SRC"/usr/src/acpi-call-*)
}

# module_out DIR: DIR as module.sh's build directory, with the kabi under
# test ($KABI), so that its logs and checks go away with DIR
module_out() {
	mkdir -p "$1"
	ln -sf "$KABI" "$1/kabi"
}

# work OUT M CC: the directory module.sh keeps M's logs and checks in for CC
work() {
	printf '%s/module/%s-%s/%s\n' "$1" "$(basename "$2")" "$(printf '%s' "$2" | cksum | cut -d' ' -f1)" "$3"
}

# kinds DIR: in DIR, one M holding the fixture modules that put the check
# to work, below a directory each: nested (three depths, one module
# compiled with -g0), xt (depends on x_tables), pair (one module depends
# on the other, whose type it sees otherwise) and dmachan (struct
# dma_chan, which some kernels define twice)
kinds() {
	local f

	mkdir -p "$1"
	for f in nested xt pair dmachan; do
		cp -r "$TOP/tests/fixtures/module/$f" "$1/"
	done
	printf '%s\n' '# SPDX-License-Identifier: GPL-2.0-only' 'obj-m += nested/ xt/ pair/ dmachan/' >"$1/Kbuild"
}

# assert_kinds_verdicts: the line of each module kinds' M makes, with its
# verdict, from the last run's $stderr, in the order the build made them
assert_kinds_verdicts() {
	# shellcheck disable=SC2154 # bats' run sets stderr
	run -0 sed -n 's/^  MODULE  \([^:]*: [A-Z ]*\).*/\1/p' <<<"$stderr"
	assert_output - <<'OUT'
nested/kp_top.ko: PASS
nested/sub/kp_inner.ko: PASS
nested/sub/deeper/kp_bare.ko: NOT CHECKED
xt/xt_kparity.ko: NOT FULLY CHECKED
pair/kp_base.ko: PASS
pair/kp_user.ko: LAYOUTS DIFFER 
dmachan/kp_dmachan.ko: PASS
OUT
}

# not_this_kernel: skip when the machine runs the kernel under test, whose
# own BTF and modules module.sh would then find by itself
not_this_kernel() {
	[ "$(uname -r)" != "$KVER" ] || skip "this machine runs $KVER itself"
}

# fentry_calls KO: calls to __fentry__ in KO, as objdump shows them
fentry_calls() {
	objdump -dr "$1" | grep -c 'R_X86_64_PLT32[[:space:]]*__fentry__'
}

# mcount_entries KO: the addresses in KO's __mcount_loc, 8 bytes each
mcount_entries() {
	local size

	size=$(section_field "$1" __mcount_loc size)
	echo $((0x${size:-0} / 8))
}
