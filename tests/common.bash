# SPDX-License-Identifier: GPL-2.0-only
# Shared setup for the kabi suites: assertion libraries, the binary under
# test, compilers, and a bless mode for expected-output files.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

bats_require_minimum_version 1.5.0

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KABI=${KABI:-$TOP/build/kabi}
# a run a test starts records its results here, never in the user's database
export KPARITY_HISTORY_DB="${BATS_FILE_TMPDIR:-${TMPDIR:-/tmp}}/results.db"

# need_tool TOOL: fail in CI, skip with the reason elsewhere
need_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ -n "${CI:-}" ]; then
		echo "'$1' is missing; CI installs every dependency" >&2
		return 1
	fi
	skip "'$1' is not installed"
}

# cc_obj CC OUT SRC [FLAGS...]: compile SRC (relative to the top) to OUT
cc_obj() {
	local cc=$1 out=$2 src=$3
	shift 3
	need_tool "$cc"
	(cd "$TOP" && "$cc" -g -c "$@" "$src" -o "$out")
}

# expect_file FILE: $output must equal FILE; KPARITY_BLESS=1 rewrites FILE
# shellcheck disable=SC2154 # bats' run sets output
expect_file() {
	if [ -n "${KPARITY_BLESS:-}" ]; then
		printf '%s\n' "$output" >"$1"
	fi
	assert_output "$(cat "$1")"
}

# section_field FILE SECTION off|size: a section's file offset or size (hex)
section_field() {
	readelf -SW "$1" | sed 's/^ *\[ */[/' |
		awk -v s="$2" -v f="$3" '$2 == s { print (f == "off" ? $5 : $6); exit }'
}

# patch_section FILE SECTION OFFSET PRINTF-BYTES: overwrite bytes inside
# an ELF section to make a corrupt input
patch_section() {
	local file=$1 sec=$2 off=$3 bytes=$4 base
	base=$(section_field "$file" "$sec" off)
	[ -n "$base" ] || { echo "no section $sec in $file" >&2; return 1; }
	# shellcheck disable=SC2059 # the bytes are a printf format on purpose
	printf "$bytes" | dd of="$file" bs=1 seek=$((0x$base + off)) conv=notrunc status=none
}

# set_section_type FILE SECTION TYPE: overwrite sh_type of SECTION in a
# little-endian ELF64 FILE (section header: 64 bytes, sh_type at 4)
set_section_type() {
	local file=$1 sec=$2 type=$3 shoff idx
	shoff=$(readelf -hW "$file" | awk '/Start of section headers/ { print $5 }')
	idx=$(readelf -SW "$file" | sed 's/^ *\[ */[/' | awk -v s="$sec" '$2 == s { gsub(/[][]/, "", $1); print $1; exit }')
	[ -n "$idx" ] || { echo "no section $sec in $file" >&2; return 1; }
	# shellcheck disable=SC2059 # octal escapes of one byte
	printf "\\$(printf '%03o' "$type")" |
		dd of="$file" bs=1 seek=$((shoff + idx * 64 + 4)) conv=notrunc status=none
}

# merged CMD...: run CMD with its stderr on stdout; for progress lines,
# whose indent bats 1.8 trims from the first line of $stderr
merged() {
	"$@" 2>&1
}
