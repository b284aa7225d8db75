#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# history.sh: parity reports recorded in SQLite, and what the runs say
# over time. The reports are the recorded one of tests/fixtures/report/
# with results changed by the jq filters below, one per run.

load common

setup() {
	need_tool jq
	need_tool sqlite3
	F=$BATS_TEST_DIRNAME/fixtures/report
	T=$BATS_TEST_TMPDIR
	export KPARITY_HISTORY_DB=$T/db/results.db
	H=$TOP/scripts/history.sh
}

# report NAME FILTER: $T/NAME/report/report.json, the recorded report
# with three KUnit results per cell and FILTER applied
report() {
	mkdir -p "$T/$1/report"
	jq "(.matrix[0].cells[] | .tests) = {kinds: [\"kunit\"],
		results: [{name: \"a.one\", status: \"pass\"}, {name: \"a.two\", status: \"pass\"},
			  {name: \"a.three\", status: \"fail\"}],
		counts: {pass: 2, fail: 1, skip: 0, timeout: 0, \"not-run\": 0}} | $2" \
		"$F/report.json" >"$T/$1/report/report.json"
}

clang='.matrix[0].cells[1]'
v19='"Debian clang version 19.1.7 (3~deb12u1)"'

# four runs, recorded once for the whole file: clang 19 brings a warning
# and a failure, then clang 14 again
setup_file() {
	local T=$BATS_FILE_TMPDIR/four r

	command -v sqlite3 >/dev/null && command -v jq >/dev/null || return 0
	export KPARITY_HISTORY_DB=$T/db/results.db
	F=$BATS_TEST_DIRNAME/fixtures/report
	report r1 .
	report r2 "$clang.compiler_version = $v19 | $clang.warnings.by_flag = {\"-Wfoo\": 2}
		| $clang.tests.results[1].status = \"fail\""
	report r3 .
	report r4 .
	for r in r1 r2 r3 r4; do
		"$TOP/scripts/history.sh" record "$T/$r/report/report.json" 2>/dev/null
	done
}

# four_runs: this test's copy of the four runs' database and reports
four_runs() {
	cp -a "$BATS_FILE_TMPDIR/four/." "$T/"
	sqlite3 "$KPARITY_HISTORY_DB" "UPDATE run SET report = replace(report, '$BATS_FILE_TMPDIR/four/', '$T/');"
}

@test "history: the first run of a cell is 'first' for each result that is not a pass" {
	report r1 .
	run -0 merged "$H" record "$T/r1/report/report.json"
	assert_output "  HISTORY run 1 in $KPARITY_HISTORY_DB"
	run -0 "$H" show
	assert_output "$(cat <<'EOF'
x86_64/clang (x86_64/clang, 14.0.6): run 1, 1 runs recorded
  first    boot: fail
  first    kabi struct bits: incompatible
  first    kabi struct grows: incompatible
  first    kabi vs gcc: fail
  first    test a.three: fail
  3 more unchanged and passing (--all lists them)
x86_64/gcc (x86_64/gcc, 12.2.0-14+deb12u1): run 1, 1 runs recorded
  first    boot: fail
  first    test a.three: fail
  3 more unchanged and passing (--all lists them)
EOF
)"
}

@test "history: a new warning and a new failure, and what changed between the runs" {
	four_runs
	run -0 "$H" show -r 2 x86_64/clang
	assert_output "$(cat <<'EOF'
x86_64/clang (x86_64/clang, 19.1.7): run 2, 2 runs recorded, previous 1
  always   boot: fail, always since 2 runs (every run recorded)
  always   kabi struct bits: incompatible, always since 2 runs (every run recorded)
  always   kabi struct grows: incompatible, always since 2 runs (every run recorded)
  always   kabi vs gcc: fail, always since 2 runs (every run recorded)
  always   test a.three: fail, always since 2 runs (every run recorded)
  new      test a.two: fail, was pass; first in run 2, after run 1: compiler_version 14.0.6 -> 19.1.7, cc_package_version 1:14.0.6-12 -> -
  new      warning -Wfoo: present; first in run 2, after run 1: compiler_version 14.0.6 -> 19.1.7, cc_package_version 1:14.0.6-12 -> -
  2 more unchanged and passing (--all lists them)
EOF
)"
}

@test "history: a warning gone, a failure fixed, then flaky; an old failure is 'always'" {
	four_runs
	run -0 "$H" show -r 3 x86_64/clang
	assert_line '  gone     warning -Wfoo: was present; first in run 3, after run 2: compiler_version 19.1.7 -> 14.0.6, cc_package_version - -> 1:14.0.6-12'
	run -0 "$H" show x86_64/clang
	assert_output "$(cat <<'EOF'
x86_64/clang (x86_64/clang, 14.0.6): run 4, 4 runs recorded, previous 3
  always   boot: fail, always since 4 runs (every run recorded)
  always   kabi struct bits: incompatible, always since 4 runs (every run recorded)
  always   kabi struct grows: incompatible, always since 4 runs (every run recorded)
  always   kabi vs gcc: fail, always since 4 runs (every run recorded)
  always   test a.three: fail, always since 4 runs (every run recorded)
  flaky    test a.two: pass now, flaky (1 of 4 runs bad); first in run 3, after run 2: compiler_version 19.1.7 -> 14.0.6, cc_package_version - -> 1:14.0.6-12
  2 more unchanged and passing (--all lists them)
EOF
)"
}

@test "history: --all lists the passing results, with how long each has passed" {
	four_runs
	run -0 "$H" show --all x86_64/gcc
	assert_output "$(cat <<'EOF'
x86_64/gcc (x86_64/gcc, 12.2.0-14+deb12u1): run 4, 4 runs recorded, previous 3
  always   boot: fail, always since 4 runs (every run recorded)
  always   build: pass, always since 4 runs (every run recorded)
  always   test a.one: pass, always since 4 runs (every run recorded)
  always   test a.three: fail, always since 4 runs (every run recorded)
  always   test a.two: pass, always since 4 runs (every run recorded)
EOF
)"
}

@test "history: --json gives every result's class, streak and the change" {
	four_runs
	run -0 "$H" show --json -r 2
	prog='.run, [.cells[] | .cell, .previous],
		(.cells[0].items[] | select(.kind == "warning") | del(.changed.compiler_version))'
	run -0 jq -c "$prog" <<<"$output"
	assert_output "$(cat <<'EOF'
2
["x86_64/clang",1,"x86_64/gcc",1]
{"kind":"warning","key":"-Wfoo","state":"present","was":"absent","class":"new","streak":1,"since":2,"bad":1,"n":2,"changed":{"from":1,"to":2,"cc_package_version":["1:14.0.6-12",null]}}
EOF
)"
}

@test "history: a series or tree change is named where a result changed" {
	report r1 .
	report r2 '.kernel = "linux-6.1.193" | .matrix[0].cells[0].build.status = "fail"'
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	"$H" record "$T/r2/report/report.json" 2>/dev/null
	run -0 "$H" show x86_64/gcc
	assert_line '  new      build: fail, was pass; first in run 2, after run 1: tree linux-6.1.192 -> linux-6.1.193'
}

@test "history: since.json gives the report its 'since last run' column" {
	four_runs
	report r5 "$clang.tests.results[0].status = \"fail\""
	"$H" record "$T/r5/report/report.json" 2>/dev/null
	run -0 "$TOP/scripts/report.sh" "$T/r5/report/report.json" "$T/r5/report"
	run -0 grep -F 'since' "$T/r5/report/report.md"
	assert_output "$(cat <<'EOF'
| target | compiler | build | boot | warnings | kabi | since last run |
| x86_64 | gcc | pass 2s | FAIL: hang: no verdict from the guest before the time limit | 0 warnings, 0 errors | 4 changed, 2 incompatible, 115 only gcc, 0 only clang (FAIL) | no change since run 4 |
| x86_64 | clang | pass 2s | FAIL: hang: no verdict from the guest before the time limit | 0 warnings, 0 errors | 4 changed, 2 incompatible, 115 only gcc, 0 only clang (FAIL) | 1 new since run 4 |
- x86_64/clang new since run 4: test a.one fail (was pass)
EOF
)"
	run -0 grep -c '<b>since last run</b> 1 new since run 4' "$T/r5/report/report.html"
	assert_output 1
}

@test "history: a since.json of another report is not shown" {
	report r1 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	jq '.verdict = "pass"' "$T/r1/report/report.json" >"$T/x" && mv "$T/x" "$T/r1/report/report.json"
	run -0 "$TOP/scripts/report.sh" "$T/r1/report/report.json" "$T/r1/report"
	run -1 grep -c 'since last run' "$T/r1/report/report.md"
	assert_output 0
}

@test "history: the toolchain is pinned by Debian package and checksum" {
	need_tool dpkg-query
	report r1 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	gcc=$(readlink -f "$(command -v gcc)")
	prog='.cells["x86_64/gcc"].cc | .binary, .sha256, .package, .version'
	run -0 jq -r "$prog" "$T/r1/report/toolchain.json"
	assert_output "$(printf '%s\n' "$gcc" "$(sha256sum "$gcc" | cut -d' ' -f1)" \
		"$(dpkg-query -S "$gcc" | cut -d: -f1)" \
		"$(dpkg-query -W -f '${Version}' "$(dpkg-query -S "$gcc" | cut -d: -f1)")")"
}

@test "history: a compiler that is not the one the report names is left unpinned" {
	report r1 "$clang.compiler_version = $v19"
	run -0 --separate-stderr "$H" record "$T/r1/report/report.json"
	assert_equal "$stderr" "$(printf '%s\n' \
		"history: 'clang --version' says '$(clang --version | head -n 1)', the report 'Debian clang version 19.1.7 (3~deb12u1)': x86_64/clang not pinned" \
		"  HISTORY run 1 in $KPARITY_HISTORY_DB")"
	run -0 jq -c '.cells["x86_64/clang"].cc' "$T/r1/report/toolchain.json"
	assert_output '{"binary":null,"sha256":null,"package":null,"version":null}'
}

@test "history: a database of a newer schema is refused and left alone" {
	report r1 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA user_version = 99;'
	cp "$KPARITY_HISTORY_DB" "$T/before.db"
	run -2 --separate-stderr "$H" record "$T/r1/report/report.json"
	assert_equal "$stderr" "history: '$KPARITY_HISTORY_DB' has schema 99, newer than this kparity's 3; not touched"
	cmp "$KPARITY_HISTORY_DB" "$T/before.db"
	[ ! -e "$T/r1/report/since.json" ]
	run -2 --separate-stderr "$H" show
	assert_equal "$stderr" "history: '$KPARITY_HISTORY_DB' has schema 99, newer than this kparity's 3; not touched"
}

@test "history: a database of schema 1 is migrated, its runs kept" {
	mkdir -p "$T/db"
	sqlite3 "$KPARITY_HISTORY_DB" <"$TOP/scripts/history/schema/001-runs.sql"
	sqlite3 "$KPARITY_HISTORY_DB" "PRAGMA user_version = 1;
		INSERT INTO run (kind, recorded, report, report_sha256, tree, verdict)
			VALUES ('parity', '2026-01-01T00:00:00Z', '/old/report.json', 'x', 'linux-6.1.100', 'pass');
		INSERT INTO cell (run, name, compiler_version) VALUES (1, 'x86_64/gcc', 'gcc 12.2.0');
		INSERT INTO result (cell, kind, key, state) VALUES (1, 'build', '', 'pass');"
	report r1 '.matrix[0].cells[0].build.status = "fail"'
	run -0 --separate-stderr "$H" record "$T/r1/report/report.json"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA user_version; SELECT id, tree FROM run;'
	assert_output "$(printf '%s\n' 3 '1|linux-6.1.100' '2|linux-6.1.192')"
	run -0 "$H" show x86_64/gcc
	assert_line "  new      build: fail, was pass; first in run 2, after run 1: tree linux-6.1.100 -> linux-6.1.192, series - -> $(sqlite3 "$KPARITY_HISTORY_DB" 'SELECT substr(series, 1, 12) FROM run WHERE id = 2'), compiler_version 12.2.0 -> 12.2.0-14+deb12u1, cc_package_version - -> $(dpkg-query -W -f '${Version}' gcc-12), kparity - -> $(git -C "$TOP" describe --always --dirty), test_kinds - -> kunit"
}

@test "history: a corrupt database is one line, and the report stays" {
	report r1 .
	mkdir -p "$T/db"
	head -c 4096 /dev/urandom >"$KPARITY_HISTORY_DB"
	cp "$T/r1/report/report.json" "$T/report.before"
	run -2 --separate-stderr "$H" record "$T/r1/report/report.json"
	assert_equal "$stderr" "history: cannot read '$KPARITY_HISTORY_DB': file is not a database"
	cmp "$T/r1/report/report.json" "$T/report.before"
	run -0 "$TOP/scripts/report.sh" "$T/r1/report/report.json" "$T/r1/report"
	run -1 grep -c 'since last run' "$T/r1/report/report.md"
}

@test "history: a read-only database is one line, nothing earlier lost" {
	need_tool setpriv
	# root writes whatever the mode; nobody does not, so nobody records,
	# in a directory it can reach
	T=$(mktemp -d /tmp/kparity-history.XXXXXX)
	chmod 755 "$T"
	export KPARITY_HISTORY_DB=$T/db/results.db
	report r1 .
	report r2 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	before=$("$H" runs)
	chmod -R a+rwX "$T"
	chmod a-w "$KPARITY_HISTORY_DB" "$T/db"
	as=()
	[ "$(id -u)" != 0 ] || as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	run -2 --separate-stderr "${as[@]}" env KPARITY_HISTORY_DB="$KPARITY_HISTORY_DB" "$H" record "$T/r2/report/report.json"
	assert_equal "$stderr" "history: not recorded in '$KPARITY_HISTORY_DB': attempt to write a readonly database"
	run -0 "$H" runs
	assert_output "$before"
	rm -rf "$T"
}

@test "history: a full disk is one line, nothing earlier lost" {
	report r1 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	before=$("$H" runs)
	# a report whose results need far more room than the database has
	jq '.matrix[0].cells[].tests.results = [range(0; 3000) | {name: "big.t\(.)", status: "pass"}]' \
		"$T/r1/report/report.json" >"$T/big.json"
	mkdir -p "$T/big/report"
	mv "$T/big.json" "$T/big/report/report.json"
	cp "$KPARITY_HISTORY_DB" "$T/before.db"
	size=$(( $(stat -c %s "$KPARITY_HISTORY_DB") + 65536 ))
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		# a small tmpfs, in a mount namespace of its own: a real ENOSPC
		mkdir "$T/small"
		run -2 --separate-stderr unshare -m sh -c 'mount -t tmpfs -o size=$1 tmpfs "$2" &&
			cp "$3" "$2/results.db" || exit 3
			rc=0; KPARITY_HISTORY_DB="$2/results.db" "$4" record "$5" || rc=$?
			cp "$2/results.db" "$3"; exit "$rc"' sh "$size" "$T/small" "$KPARITY_HISTORY_DB" "$H" "$T/big/report/report.json"
		assert_equal "$stderr" "history: not recorded in '$T/small/results.db': database or disk is full"
	else
		# a file size limit: the write fails with EFBIG, which SQLite calls an I/O error
		run -2 --separate-stderr bash -c 'ulimit -f "$1" && exec "$2" record "$3"' sh "$((size / 1024))" "$H" "$T/big/report/report.json"
		assert_equal "$stderr" "history: not recorded in '$KPARITY_HISTORY_DB': disk I/O error"
	fi
	run -0 "$H" runs
	assert_output "$before"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA integrity_check;'
	assert_output ok
}

@test "history: a recorder killed inside its transaction leaves the database as it was" {
	report r1 .
	report r2 '.matrix[0].cells[].tests.results += [range(0; 300) | {name: "big.t\(.)", status: "pass"}]'
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	before=$("$H" runs)
	cp "$KPARITY_HISTORY_DB" "$T/before.db"
	# the transaction history.sh runs, without its COMMIT, with a small
	# page cache so that SQLite writes into the database file before it
	"$H" record -n "$T/r2/report/report.json" 2>/dev/null |
		sed '/^COMMIT;$/,$d; s/^BEGIN IMMEDIATE;$/PRAGMA cache_size = 1;\n&/' >"$T/tx.sql"
	mkfifo "$T/in" "$T/out"
	sqlite3 "$KPARITY_HISTORY_DB" <"$T/in" >"$T/out" &
	pid=$!
	exec 5>"$T/in" 6<"$T/out"
	cat "$T/tx.sql" >&5
	echo '.print inside' >&5
	# sqlite3 prints the marker once every statement before it has run
	read -r line <&6
	assert_equal "$line" inside
	kill -9 "$pid"
	wait "$pid" || :
	exec 5>&- 6<&-
	# the file was written, and the journal that undoes it is there
	! cmp -s "$KPARITY_HISTORY_DB" "$T/before.db"
	[ -s "$KPARITY_HISTORY_DB-journal" ]
	run -0 "$H" runs
	assert_output "$before"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA integrity_check;'
	assert_output ok
	"$H" record "$T/r2/report/report.json" 2>/dev/null
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'SELECT id FROM run;'
	assert_output "$(printf '%s\n' 1 2)"
}

@test "history: a recorder waits for another's transaction, or says the database is locked" {
	report r1 .
	report r2 .
	report r3 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	mkfifo "$T/in" "$T/out"
	sqlite3 "$KPARITY_HISTORY_DB" <"$T/in" >"$T/out" &
	pid=$!
	exec 5>"$T/in" 6<"$T/out"
	printf 'BEGIN IMMEDIATE;\n.print holding\n' >&5
	read -r line <&6
	assert_equal "$line" holding
	run -2 --separate-stderr env KPARITY_HISTORY_TIMEOUT=0 "$H" record "$T/r2/report/report.json"
	assert_equal "$stderr" "history: not recorded in '$KPARITY_HISTORY_DB': database is locked"
	"$H" record "$T/r3/report/report.json" 2>"$T/waited" &
	waiter=$!
	printf 'COMMIT;\n' >&5
	exec 5>&- 6<&-
	wait "$pid"
	wait "$waiter"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'SELECT id, report FROM run;'
	assert_output "$(printf '%s\n' "1|$T/r1/report/report.json" "2|$T/r3/report/report.json")"
}

@test "history: two recorders at once both record, one after the other" {
	report r1 .
	report r2 .
	"$H" record "$T/r1/report/report.json" 2>"$T/e1" &
	a=$!
	"$H" record "$T/r2/report/report.json" 2>"$T/e2" &
	b=$!
	wait "$a"
	wait "$b"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'SELECT count(*), count(DISTINCT report) FROM run; PRAGMA user_version;'
	assert_output "$(printf '%s\n' '2|2' 3)"
}

@test "history: a report it does not know is one line" {
	mkdir -p "$T/x"
	echo '{"version": 2}' >"$T/x/report.json"
	run -2 --separate-stderr "$H" record "$T/x/report.json"
	assert_equal "$stderr" "history: '$T/x/report.json' is not a report history knows (a parity report.json, a diagnose.json)"
	run -2 --separate-stderr "$H" record "$T/x/none.json"
	assert_equal "$stderr" "history: cannot read '$T/x/none.json'"
}

@test "history: show without a database, or an unknown cell, says so" {
	run -1 --separate-stderr "$H" show
	assert_equal "$stderr" "history: no runs recorded: no '$KPARITY_HISTORY_DB'"
	report r1 .
	"$H" record "$T/r1/report/report.json" 2>/dev/null
	run -2 --separate-stderr "$H" show arm64-virt/gcc
	assert_equal "$stderr" "history: no cell 'arm64-virt/gcc' in run 1"
	run -2 --separate-stderr "$H" bogus
	assert_equal "${lines[0]:-}" ""
}

# diagnose NAME VERSION ID...: $T/NAME/diagnose.json, a replay of the
# tiny x86_64 GCC cell at W=1 by Clang VERSION with one finding per ID
diagnose() {
	local name=$1 version=$2
	shift 2
	mkdir -p "$T/$name"
	jq -n --arg v "$version" '{schema: 1, kernel: "6.1.192", build: "build/kernel/x86_64-gcc",
		cell: "x86_64-gcc", level: "1", clang: {command: "clang", version: $v},
		findings: [$ARGS.positional[] | {id: ., group: "clang", count: 1}],
		gcc_only: [], unparsable: [], crashes: []}' --args "$@" >"$T/$name/diagnose.json"
}

@test "history: make diagnose replays are recorded, and a finding new with clang 22 says so" {
	diagnose d1 'Debian clang version 19.1.7 (3~deb12u1)' 'warning|-Wshadow|kernel/fork.c:10:3|x'
	diagnose d2 'Debian clang version 22.1.8 (1~deb12u1)' 'warning|-Wshadow|kernel/fork.c:10:3|x' \
		'warning|-Wunterminated-string-initialization|fs/proc/task_mmu.c:652:3|y'
	"$H" record "$T/d1/diagnose.json" 2>/dev/null
	"$H" record "$T/d2/diagnose.json" 2>/dev/null
	run -0 "$H" show -k diagnose
	assert_output "$(cat <<'EOF2'
x86_64-gcc W=1 (x86_64-gcc, 22.1.8): run 2, 2 runs recorded, previous 1
  always   finding warning|-Wshadow|kernel/fork.c:10:3|x: clang, always since 2 runs (every run recorded)
  new      finding warning|-Wunterminated-string-initialization|fs/proc/task_mmu.c:652:3|y: clang; first in run 2, after run 1: compiler_version 19.1.7 -> 22.1.8
EOF2
)"
	[ ! -e "$T/d2/since.json" ]
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'SELECT kind, tree FROM run;'
	assert_output "$(printf '%s\n' 'diagnose|linux-6.1.192' 'diagnose|linux-6.1.192')"
}

@test "history: a series-survey build is recorded from its PHASE.status and PHASE.diag" {
	d=$T/survey/x86_64_defconfig-clang-19
	mkdir -p "$d"
	printf 'CONFIG_CC_VERSION_TEXT="Debian clang version 19.1.7 (3~deb12u1)"\n' >"$d/.config"
	printf 'exit 0 seconds 900 warnings 1 errors 0\n' >"$d/after.status"
	printf 'warning\t-Wshadow\tkernel/fork.c\t10\tdeclaration shadows a local variable\n' >"$d/after.diag"
	"$H" record "$d/after.status" 2>/dev/null
	printf 'exit 2 seconds 950 warnings 1 errors 1\n' >"$d/after.status"
	printf 'error\t-Wunused-command-line-argument\t(driver)\t0\targument unused during compilation\n' >"$d/after.diag"
	"$H" record "$d/after.status" 2>/dev/null
	run -0 "$H" show -k survey --all
	assert_output "$(cat <<'EOF2'
x86_64_defconfig-clang-19 after (x86_64_defconfig-clang-19, 19.1.7): run 2, 2 runs recorded, previous 1
  new      build: fail, was pass; first in run 2, after run 1: nothing recorded changed
  new      diagnostic error | -Wunused-command-line-argument | (driver) | 0 | argument unused during compilation: error; first in run 2, after run 1: nothing recorded changed
  gone     diagnostic warning | -Wshadow | kernel/fork.c | 10 | declaration shadows a local variable: was warning; first in run 2, after run 1: nothing recorded changed
EOF2
)"
}

@test "history: a transaction made for an older schema fails whole once another recorder migrated" {
	mkdir -p "$T/db"
	sqlite3 "$KPARITY_HISTORY_DB" <"$TOP/scripts/history/schema/001-runs.sql"
	sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA user_version = 1;'
	report r1 .
	report r2 .
	# what a recorder that read schema 1 runs, had another migrated meanwhile
	"$H" record -n "$T/r1/report/report.json" >"$T/tx1.sql" 2>/dev/null
	"$H" record "$T/r2/report/report.json" 2>/dev/null
	run -1 sqlite3 "$KPARITY_HISTORY_DB" <"$T/tx1.sql"
	assert_output "Runtime error near line 6: CHECK constraint failed: v = 1 (19)"
	run -0 sqlite3 "$KPARITY_HISTORY_DB" 'PRAGMA user_version; SELECT report FROM run;'
	assert_output "$(printf '%s\n' 3 "$T/r2/report/report.json")"
}

@test "history: since.json compares a cell with its own previous run, across runs of other targets" {
	report r1 '.matrix[0].cells[0].tests.results[0].status = "fail"'
	report r2 '.targets = ["arm64-virt"] | .matrix[0].name = "arm64-virt" | .matrix[0].cells[].target = "arm64-virt"'
	report r3 .
	for r in r1 r2 r3; do
		"$H" record "$T/$r/report/report.json" 2>/dev/null
	done
	run -0 jq -c '.cells["x86_64/gcc"]' "$T/r3/report/since.json"
	assert_output '{"previous":1,"new":[{"kind":"test","key":"a.one","state":"pass","was":"fail"}],"gone":[]}'
}

@test "history: a run records the kinds of tests it judged, or those its cells' results name" {
	report r1 '.test_kinds = ["kunit", "kselftest"]'
	report r2 .
	report r3 '.test_kinds = [] | .matrix[0].cells[].tests = null'
	report r4 '.matrix[0].cells[].tests = null'
	for r in r1 r2 r3 r4; do
		"$H" record "$T/$r/report/report.json" 2>/dev/null
	done
	run -0 sqlite3 "$KPARITY_HISTORY_DB" "SELECT id, quote(test_kinds) FROM run;"
	assert_output "$(printf '%s\n' "1|'kselftest kunit'" "2|'kunit'" "3|''" '4|NULL')"
}

@test "history: a run of KUnit alone does not make the kselftests gone" {
	report r1 '.test_kinds = ["kunit", "kselftest"] | .matrix[0].cells[].tests.results += [{name: "k.self", status: "pass"}]'
	report r2 '.test_kinds = ["kunit"] | .matrix[0].cells[0].tests.results[1].status = "fail"'
	report r3 '.test_kinds = ["kunit", "kselftest"] | .matrix[0].cells[].tests.results += [{name: "k.self", status: "fail"}]'
	report r4 '.test_kinds = [] | .matrix[0].cells[].tests = null'
	for r in r1 r2 r3 r4; do
		"$H" record "$T/$r/report/report.json" 2>/dev/null
	done
	run -0 "$H" show -r 2 x86_64/gcc
	assert_output "$(cat <<'EOF2'
x86_64/gcc (x86_64/gcc, 12.2.0-14+deb12u1): run 2, 2 runs recorded, previous 1
  always   boot: fail, always since 2 runs (every run recorded)
  always   test a.three: fail, always since 2 runs (every run recorded)
  new      test a.two: fail, was pass; first in run 2, after run 1: test_kinds kselftest kunit -> kunit
  2 more unchanged and passing (--all lists them)
EOF2
)"
	# the kselftest's previous run is the last that judged kselftests
	run -0 "$H" show -r 3 x86_64/gcc
	assert_line '  new      test k.self: fail, was pass; first in run 3, after run 1: nothing recorded changed'
	# a run that judged no tests makes none gone
	run -0 "$H" show x86_64/gcc
	assert_output "$(cat <<'EOF2'
x86_64/gcc (x86_64/gcc, 12.2.0-14+deb12u1): run 4, 4 runs recorded, previous 3
  always   boot: fail, always since 4 runs (every run recorded)
  1 more unchanged and passing (--all lists them)
EOF2
)"
	run -0 jq -c '.cells["x86_64/gcc"].gone' "$T/r3/report/since.json"
	assert_output '[]'
}
