# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-linked.awk - the objects and archives a kernel build still uses,
# from the commands its .cmd files record. A .cmd file outlives the option
# that built its object, so a build directory configured more than once
# holds the compile commands of units no longer built; this tells them
# apart (scripts/diagnose.sh).
#
# Usage: awk -v build=BUILD_DIR -f diagnose-linked.awk ROOTS CMDLINES
#   ROOTS     paths the build uses for certain, one a line: the members of
#             the archives it links (ar t), the modules' objects, the
#             objects link-vmlinux.sh adds itself
#   CMDLINES  the 'cmd_TARGET := COMMAND' line of every .cmd file
# Prints every object and archive reached, one path a line, relative to
# BUILD_DIR. The roots are ROOTS, vmlinux.o (the link of vmlinux.a and the
# libraries) and every target that is not itself an object, archive or
# module (images, the boot code's and vDSO's links, generated headers);
# from each, every object or archive its command names is reached, and
# from a reached object, what its own command names (objcopy's input of a
# .stub.o); an archive's members are what ar t lists (a ROOT), not what
# its command names. A compile names only its own output, and an object or
# module left from an older configuration is no root, so its unit is not
# reached.

function norm(p) {
	if (index(p, build "/") == 1)
		p = substr(p, length(build) + 2)
	while (substr(p, 1, 2) == "./")
		p = substr(p, 3)
	return p
}

FILENAME == ARGV[1] {
	if ($1 != "")
		root[norm($1)] = 1
	next
}

$2 == ":=" {
	t = $1
	sub(/^(saved)?cmd_/, "", t)
	t = norm(t)
	for (i = 3; i <= NF; i++) {
		w = $i
		gsub(/[;"'()]/, "", w)
		if (w ~ /\.[oa]$/ && norm(w) != t)
			uses[t] = uses[t] " " norm(w)
	}
	if (t == "vmlinux.o" || t !~ /\.(o|ko|a|mod)$/)
		root[t] = 1
}

END {
	n = 0
	for (r in root)
		queue[++n] = r
	for (i = 1; i <= n; i++) {
		if (queue[i] ~ /\.a$/)
			continue
		m = split(uses[queue[i]], u, " ")
		for (j = 1; j <= m; j++)
			if (!(u[j] in root)) {
				root[u[j]] = 1
				queue[++n] = u[j]
			}
	}
	for (i = 1; i <= n; i++)
		if (queue[i] ~ /\.[oa]$/)
			print queue[i]
}
