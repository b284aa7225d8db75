# SPDX-License-Identifier: GPL-2.0-only
#
# debcache.sh - Debian packages fetched once per machine into a cache
# outside the source tree: downloads, extractions and what is made of
# them (a kernel image's vmlinux, for its BTF).
#
# Sourced after common.sh. The cache is common.sh's cache_dir:
# $KPARITY_CACHE_DIR, or BUILDDIR/cache, as an absolute path. Every function prints a path and dies (exit 2) on
# failure; nothing half-made is left under the final name.
# shellcheck shell=sh
# shellcheck disable=SC3043 # every /bin/sh kparity runs on has 'local'

# deb_fetch DIR PKG[:ARCH]: DIR/PKG_*.deb (PKG_*_ARCH.deb), downloaded with
# apt-get the first time
deb_fetch() {
	local dir="$1" pkg="$2" deb glob

	glob="${pkg%%:*}_*.deb"
	case "$pkg" in
	*:*) glob="${pkg%%:*}_*_${pkg#*:}.deb" ;;
	esac
	mkdir -p "$dir"
	deb=$(find "$dir" -maxdepth 1 -name "$glob" | sort | tail -n 1)
	if [ -z "$deb" ]; then
		step FETCH "$pkg" >&2
		# the log is opened before the cd, where a relative DIR means it
		(cd "$dir" && apt-get download "$pkg") >>"$dir/dl.log" 2>&1 ||
			die "apt-get download $pkg failed; see '$dir/dl.log'"
		deb=$(find "$dir" -maxdepth 1 -name "$glob" | sort | tail -n 1)
		[ -n "$deb" ] || die "apt-get download left no $glob in '$dir'"
	fi
	echo "$deb"
}

# deb_root CACHE NAME PKG...: the directory CACHE/root/NAME/ with the
# files of every PKG unpacked into it, once (relative symlinks between
# packages, such as the headers' scripts/, then resolve)
deb_root() {
	local cache="$1" name="$2" dir tmp pkg deb

	shift 2
	dir="$cache/root/$name"
	if [ ! -f "$dir/.unpacked" ]; then
		tmp="$cache/root/.$name.tmp"
		rm -rf "$tmp" "$dir"
		mkdir -p "$tmp"
		for pkg in "$@"; do
			deb=$(deb_fetch "$cache/deb" "$pkg") || exit 2
			step UNPACK "$pkg" >&2
			dpkg-deb -x "$deb" "$tmp" || die "cannot unpack '$deb'"
		done
		: >"$tmp/.unpacked"
		mv "$tmp" "$dir"
	fi
	echo "$dir"
}

# headers_deps: from a headers package's Depends (on stdin), the packages
# the tree needs beside it: its common headers and linux-kbuild, one a
# line. Their names follow the release: linux-headers-6.1.0-57-common and
# linux-kbuild-6.1 for 6.1.0-57-amd64, linux-headers-6.12.118+deb12-common
# and linux-kbuild-6.12.118+deb12 for 6.12.118+deb12-amd64, -common-rt
# for an rt flavour.
headers_deps() {
	tr ',|' '\n' | awk '$1 ~ /^linux-headers-.*-common(-rt)?$/ || $1 ~ /^linux-kbuild-/ { print $1 }'
}

# debian_headers CACHE KVER: Debian's headers for KVER (its package and
# the two its Depends names: the common headers and linux-kbuild),
# unpacked once; prints the tree to give as KDIR. The tree's Makefile
# includes the common headers by their installed path, which is pointed
# at the unpacked copy.
debian_headers() {
	local cache="$1" kver="$2" deb deps root tree

	deb=$(deb_fetch "$cache/deb" "linux-headers-$kver") || exit 2
	deps=$(dpkg-deb -f "$deb" Depends | headers_deps)
	[ "$(echo "$deps" | grep -c .)" = 2 ] ||
		die "'$deb' depends on no common headers and linux-kbuild: not a headers package for $kver?"
	# shellcheck disable=SC2086 # two package names, one word each
	root=$(deb_root "$cache" "headers-$kver" "linux-headers-$kver" $deps) || exit 2
	tree="$root/usr/src/linux-headers-$kver"
	[ -f "$tree/.config" ] || die "no '$tree/.config' in the headers of $kver"
	if grep -q '^include /usr/src/[^/]*/Makefile$' "$tree/Makefile"; then
		sed "s|^include \(/usr/src/[^/]*/Makefile\)\$|include $root\1|" \
			"$tree/Makefile" >"$tree/Makefile.tmp"
		mv "$tree/Makefile.tmp" "$tree/Makefile"
	fi
	echo "$tree"
}

# extract_vmlinux_script CACHE: the kernel tree's scripts/extract-vmlinux,
# taken once from Debian's linux-source-6.1 tarball
extract_vmlinux_script() {
	local cache="$1" tar=/usr/src/linux-source-6.1.tar.xz out tmp

	out="$cache/src/extract-vmlinux"
	if [ ! -x "$out" ]; then
		[ -f "$tar" ] || die "no '$tar' (scripts/deps.sh kernel installs linux-source-6.1)"
		tmp="$cache/src/.x.tmp"
		rm -rf "$tmp"
		mkdir -p "$tmp"
		tar -xJf "$tar" -C "$tmp" linux-source-6.1/scripts/extract-vmlinux ||
			die "cannot take scripts/extract-vmlinux from '$tar'"
		mv "$tmp/linux-source-6.1/scripts/extract-vmlinux" "$out"
		rm -rf "$tmp"
	fi
	echo "$out"
}

# image_vmlinux CACHE KVER: the vmlinux (with .BTF) inside Debian's
# linux-image-KVER vmlinuz, made once
image_vmlinux() {
	local cache="$1" kver="$2" root out xv

	out="$cache/btf/vmlinux-$kver"
	if [ ! -f "$out" ]; then
		root=$(deb_root "$cache" "image-$kver" "linux-image-$kver")
		xv=$(extract_vmlinux_script "$cache")
		mkdir -p "$cache/btf"
		step EXTRACT "vmlinux-$kver" >&2
		sh "$xv" "$root/boot/vmlinuz-$kver" >"$out.tmp" ||
			die "extract-vmlinux found no kernel in '$root/boot/vmlinuz-$kver'"
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# debian_abi: the newest ABI N of Debian's 6.1 cloud kernel that apt knows
# (linux-headers-6.1.0-N-cloud-amd64), or $KPARITY_DISTRO_ABI
debian_abi() {
	local n

	if [ -n "${KPARITY_DISTRO_ABI:-}" ]; then
		echo "$KPARITY_DISTRO_ABI"
		return 0
	fi
	n=$(apt-cache pkgnames linux-headers-6.1.0- 2>/dev/null |
		sed -n 's/^linux-headers-6\.1\.0-\([0-9]*\)-cloud-amd64$/\1/p' | sort -n | tail -n 1)
	[ -n "$n" ] || die "apt knows no linux-headers-6.1.0-N-cloud-amd64 (apt-get update?)"
	echo "$n"
}

# deb_orig CACHE PKG: the upstream tarball of the Debian source package
# PKG (CACHE/src/PKG/PKG_VERSION.orig.tar.*), downloaded with 'apt-get
# source --download-only --tar-only' the first time, its checksum checked
# by apt against the archive's signed index (apt needs a deb-src entry:
# scripts/deps.sh parity adds one). Debian's own changes are not fetched.
deb_orig() {
	local cache="$1" pkg="$2" dir tmp tar

	dir="$cache/src/$pkg"
	if [ ! -f "$dir/.fetched" ]; then
		tmp="$cache/src/.$pkg.tmp"
		rm -rf "$tmp" "$dir"
		mkdir -p "$tmp"
		step FETCH "$pkg (source)" >&2
		(cd "$tmp" && apt-get source --download-only --tar-only "$pkg" >dl.log 2>&1) ||
			die "apt-get source --download-only --tar-only $pkg failed; see '$tmp/dl.log' (deb-src entry: scripts/deps.sh parity)"
		: >"$tmp/.fetched"
		mv "$tmp" "$dir"
	fi
	tar=$(find "$dir" -maxdepth 1 -name "${pkg}_*.orig.tar.*" | sort | tail -n 1)
	[ -n "$tar" ] || die "no ${pkg}_*.orig.tar.* in '$dir'"
	echo "$tar"
}

# debian_image_pkg VERSION DEBARCH FLAVOUR
# Usage: pkg=$(debian_image_pkg 6.1.192 amd64 cloud-amd64) || exit 2
# Prints the linux-image package (NAME:DEBARCH VERSION) of Debian's
# FLAVOUR kernel made from Linux VERSION: among the linux-image-*-FLAVOUR
# packages apt knows for DEBARCH, the one whose version's upstream part
# is VERSION (6.1.192-3, 6.12.118-1~deb12u1), newest first. Dies naming
# what apt has when none is.
debian_image_pkg() {
	local version="$1" arch="$2" flavour="$3" mm names found

	mm=$(printf '%s\n' "$version" | cut -d . -f 1-2)
	names=$(apt-cache pkgnames "linux-image-$mm" 2>/dev/null |
		grep -x "linux-image-${mm}[.][-0-9.+a-z]*-$flavour" | sort -V || :)
	# shellcheck disable=SC2086 # package names, one word each
	found=$([ -z "$names" ] || printf '%s\n' $names | sed "s/\$/:$arch/" | xargs apt-cache madison 2>/dev/null |
		awk -F' *[|] *' -v v="$version" '
			{ sub(/^ +/, "", $1); up = $2; sub(/-[^-]*$/, "", up) }
			up == v { print $1 " " $2 }' |
		sort -k 2V | tail -n 1)
	[ -n "$found" ] ||
		die "apt knows no linux-image-$mm*-$flavour for $arch made from Linux $version (apt-get update; a foreign one needs dpkg --add-architecture $arch first)"
	printf '%s\n' "$found"
}

# debian_config CACHE VERSION DEBARCH FLAVOUR
# Usage: config=$(debian_config "$cache" 6.1.192 amd64 cloud-amd64) || exit 2
# Prints the path of Debian's configuration for its FLAVOUR kernel of Linux
# VERSION on DEBARCH, the /boot/config-* of that linux-image package
# (debian_image_pkg), taken out of the package once into
# CACHE/debian-config/PACKAGE_VERSION.config. Its first line names the package.
debian_config() {
	local cache="$1" line pkg ver out deb tmp

	line=$(debian_image_pkg "$2" "$3" "$4") || exit 2
	pkg=${line%% *}
	ver=${line#* }
	out="$cache/debian-config/${pkg}_$ver.config"
	if [ ! -f "$out" ]; then
		deb=$(deb_fetch "$cache/deb" "$pkg:$3") || exit 2
		mkdir -p "$cache/debian-config"
		tmp="$out.tmp"
		printf '# Debian %s %s for %s: /boot/config-* of %s\n' "$pkg" "$ver" "$3" "$(basename "$deb")" >"$tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -xOf - --wildcards './boot/config-*' >>"$tmp" ||
			die "no /boot/config-* in '$deb'"
		grep -q '^CONFIG_' "$tmp" || die "the /boot/config-* of '$deb' sets nothing"
		mv "$tmp" "$out"
	fi
	echo "$out"
}
