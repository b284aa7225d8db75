-- SPDX-License-Identifier: GPL-2.0-only
--
-- rows.sql - every result of the last :window runs of one kind up to run
-- :run, a row each, with what the run and the cell were made of; the
-- input of classify.jq. history.sh sets the three parameters.

SELECT r.id AS run, r.recorded, r.tree, r.series, r.kparity, r.test_kinds,
	c.name AS cell, c.build, c.compiler_version, c.config, c.cc_package_version,
	x.kind, x.key, x.state, x.value, x.detail
FROM run r
JOIN cell c ON c.run = r.id
LEFT JOIN result x ON x.cell = c.id
WHERE r.id IN (SELECT id FROM run WHERE kind = :kind AND id <= :run ORDER BY id DESC LIMIT :window)
ORDER BY r.id, c.name, x.kind, x.key;
