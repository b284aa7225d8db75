// SPDX-License-Identifier: GPL-2.0-only
/*
 * The entry point every run case is linked with (scripts/compiler-bugs.sh passes
 * the object as $START).  Cases are freestanding, like the kernel: no C
 * library, so one static binary runs natively or under QEMU user mode
 * without a target sysroot.  _start calls main() and hands its return
 * value to exit_group(2); that exit status is the case's verdict.
 */
int main(void);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	xor	%ebp, %ebp\n"
	"	call	main\n"
	"	mov	%eax, %edi\n"
	"	mov	$231, %eax\n"	/* __NR_exit_group */
	"	syscall\n"
	"	hlt\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl _start\n"
	".type _start, %function\n"
	"_start:\n"
	"	bl	main\n"
	"	mov	x8, #94\n"	/* __NR_exit_group */
	"	svc	#0\n");
#elif defined(__arm__)
__asm__(".text\n"
	".globl _start\n"
	".type _start, %function\n"
	"_start:\n"
	"	bl	main\n"
	"	mov	r7, #248\n"	/* __NR_exit_group, EABI */
	"	svc	#0\n");
#else
#error "no _start for this architecture: add one beside the others"
#endif
