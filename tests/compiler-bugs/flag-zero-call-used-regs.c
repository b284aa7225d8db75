// SPDX-License-Identifier: GPL-2.0-only
/*
 * -fzero-call-used-regs=used-gpr (CONFIG_ZERO_CALL_USED_REGS): GCC 11
 * has it on every target here; Clang 15 added it for x86_64 and arm64
 * only and says so on 32-bit ARM.  The kernel also requires Clang newer
 * than 15.0.6 for a code generation bug this case does not reach.
 *
 * check-name: -fzero-call-used-regs=used-gpr
 * check-source: kernel security/Kconfig.hardening (CC_HAS_ZERO_CALL_USED_REGS)
 * check-source: llvm-project bug 59242 (the bug behind the Clang > 15.0.6 requirement)
 * check-command: $CC $CFLAGS -fzero-call-used-regs=used-gpr -c "$SRC" -o "$OUT.o"
 * check-expect: gcc <11: reject
 * check-expect: gcc: accept
 * check-expect: clang <15: reject /unknown argument: '-fzero-call-used-regs=used-gpr'/
 * check-expect: clang arm: reject /unsupported option '-fzero-call-used-regs=used-gpr' for target/
 * check-expect: clang: accept
 */

int probe_zeroed(int a, int b)
{
	return a * b + 1;
}
