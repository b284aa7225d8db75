/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 16-bit code written with 32-bit instructions (.code16gcc), as the x86
 * real-mode setup code is.  The seed lists it as unsupported by Clang's
 * integrated assembler at the time; both assemble it now.
 *
 * check-name: .code16gcc in an assembly file
 * check-source: seed (2012): "assembler for real mode code (.code16gcc)"
 * check-source: kernel arch/x86/boot/ (real-mode setup code)
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-targets: x86_64
 * check-expect: *: accept
 */

	.code16gcc
	.text
	.globl	probe_real_mode
probe_real_mode:
	movl	%eax, %ebx
	pushl	%ebx
	popl	%ecx
	retl
	.code64
	.section .note.GNU-stack, "", @progbits
