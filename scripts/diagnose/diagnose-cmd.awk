# SPDX-License-Identifier: GPL-2.0-only
#
# diagnose-cmd.awk - a GCC build's compile commands turned into Clang
# -fsyntax-only commands (scripts/diagnose.sh), with one decision table of
# kbuild/flag-translate.sh applied to every judged flag.
#
# Usage: awk -F '\t' -v table=DECISIONS -v clang=CLANG -v pre=WORDS
#            -v level=WORDS -v after=WORD -v post=WORDS -v drop=WORDS
#            [-v outside=FILE] -f flag-words.awk -f diagnose-cmd.awk UNITS
#   UNITS     INDEX TAB DIRECTORY TAB FILE TAB COMMAND (COMMAND as the
#             shell is given it: the compiler, flags, -c -o OBJ FILE)
#   pre       words right after CLANG (--target=..., -fintegrated-as, ...)
#   level     words inserted after the word AFTER (Makefile.extrawarn's
#             first flag, where Kbuild adds the warning level's flags).
#             A command without AFTER gets none of them: its Makefile
#             replaced KBUILD_CFLAGS (arch/x86/boot/compressed/), so
#             Kbuild's W= never reaches it either. Its FILE goes to OUTSIDE
#   post      words at the end, before FILE (-fsyntax-only, ...)
#   drop      flags the tree gives GCC only, dropped whatever the table says
# Prints INDEX TAB DIRECTORY TAB FILE TAB CLANG-COMMAND per unit. The
# object, the dependency file and the source word go; the source is put
# last. Words are split on blanks, which the kernel's commands only use
# between words.

BEGIN {
	fw_load(table)
	n = split(drop, d, " ")
	for (i = 1; i <= n; i++)
		dropped[d[i]] = 1
}

# out(W): append the words W to the command being built
function out(w) {
	if (w != "")
		cmd = cmd " " w
}

{
	n = split($4, w, " ")
	i = 1
	while (i <= n && w[i] !~ /^-/)
		i++
	cmd = clang
	out(pre)
	placed = 0
	for (; i <= n; i++) {
		k = fw_kind(w[i])
		if (k == "arg") {
			if (w[i] != "-o" && w[i] != "-MF")
				out(w[i] " " w[i + 1])
			i++
		} else if (k == "yes") {
			if (w[i] ~ /^(-c|-MD|-MMD|-MP)$/ || w[i] ~ /^-Wp,-M/ || (i == n && w[i] == $3))
				continue
			out(w[i])
		} else if (!(w[i] in dropped)) {
			out(fw_apply(w[i]))
		}
		if (w[i] == after && !placed) {
			out(level)
			placed = 1
		}
	}
	if (!placed && outside != "")
		print $3 >>outside
	out(post)
	out($3)
	print $1 "\t" $2 "\t" $3 "\t" cmd
}
