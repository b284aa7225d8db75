-- SPDX-License-Identifier: GPL-2.0-only
--
-- 002: the toolchain a cell was built with, pinned: the compiler binary
-- every symbolic link followed, its checksum, and the Debian package and
-- version that installed it; the same for the linker.

ALTER TABLE cell ADD COLUMN cc_binary TEXT;
ALTER TABLE cell ADD COLUMN cc_sha256 TEXT;
ALTER TABLE cell ADD COLUMN cc_package TEXT;
ALTER TABLE cell ADD COLUMN cc_package_version TEXT;
ALTER TABLE cell ADD COLUMN ld_binary TEXT;
ALTER TABLE cell ADD COLUMN ld_sha256 TEXT;
ALTER TABLE cell ADD COLUMN ld_package TEXT;
ALTER TABLE cell ADD COLUMN ld_package_version TEXT;
