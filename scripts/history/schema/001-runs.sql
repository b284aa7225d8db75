-- SPDX-License-Identifier: GPL-2.0-only
--
-- 001: runs, their cells and every result of a cell.
--
-- A run is one report (a parity report.json, a diagnose.json); a cell is
-- what the report says of one target and compiler ("x86_64/clang": the
-- compiler as the run was asked for it, so that LLVM=-19 and LLVM=-22
-- are one cell whose compiler version changed); a result is one thing
-- the report judged in that cell: its build, its boot, a test, a warning
-- flag, a changed type.

CREATE TABLE run (
	id INTEGER PRIMARY KEY,
	kind TEXT NOT NULL,		-- parity, diagnose, survey, bisect
	recorded TEXT NOT NULL,		-- UTC, ISO 8601
	report TEXT NOT NULL,		-- the report's absolute path
	report_sha256 TEXT NOT NULL,
	tree TEXT,			-- linux-6.1.192
	tree_package TEXT,		-- linux-source-6.1 1:6.1.192-1 (Debian)
	series TEXT,			-- sha256 of patches/series and its patches
	kparity TEXT,			-- git describe of the checkout
	verdict TEXT
);

CREATE TABLE cell (
	id INTEGER PRIMARY KEY,
	run INTEGER NOT NULL REFERENCES run(id),
	name TEXT NOT NULL,		-- x86_64/clang
	build TEXT,			-- x86_64/clang-19, the build directory's name
	target TEXT,
	compiler TEXT,
	compiler_version TEXT,		-- as the compiler says it
	config TEXT,			-- sha256 of the cell's .config
	UNIQUE (run, name)
);
CREATE INDEX cell_name ON cell (name, run);

CREATE TABLE result (
	cell INTEGER NOT NULL REFERENCES cell(id),
	kind TEXT NOT NULL,		-- build, boot, test, warning, kabi
	key TEXT NOT NULL,		-- '' for build and boot; a test's, a flag's, a type's name
	state TEXT NOT NULL,		-- pass, fail, skip, ...; present; changed, incompatible
	value REAL,			-- seconds, a count
	detail TEXT,			-- why: a failure's reason
	PRIMARY KEY (cell, kind, key)
) WITHOUT ROWID;
