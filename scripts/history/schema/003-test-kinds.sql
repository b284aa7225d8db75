-- SPDX-License-Identifier: GPL-2.0-only
--
-- 003: the kinds of tests a run judged (parity.sh -k, TESTS=), sorted: 'kunit',
-- 'kselftest kunit', '' for none; NULL for a run recorded before, or a
-- report that does not say. A run that did not judge a kind of test
-- says nothing of its results: they are not gone.

ALTER TABLE run ADD COLUMN test_kinds TEXT;
