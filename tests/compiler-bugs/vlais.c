// SPDX-License-Identifier: GPL-2.0-only
/*
 * A variable-length array as a struct member (VLAIS).  GCC accepts it as
 * an extension; Clang refuses it for good.  The kernel removed every use
 * (SHASH_DESC_ON_STACK and friends) rather than wait for Clang.
 *
 * check-name: variable-length array in a struct (VLAIS)
 * check-source: seed (2012): "the use of variable length arrays in structs (VLAIS)"
 * check-source: kernel a0a77af14117 ("crypto: LLVMLinux: Add macro to remove use of VLAIS in crypto code")
 * check-command: $CC $CFLAGS -c "$SRC" -o "$OUT.o"
 * check-expect: gcc: accept
 * check-expect: clang: reject /'variable length array in structure' extension will never be supported/
 */

int probe_vlais(int n)
{
	struct {
		int len;
		char buf[n];
	} s;

	s.len = n;
	return sizeof(s) + s.len;
}
