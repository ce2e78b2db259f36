#include "textflag.h"

// func request(args *[6]uintptr, def uintptr) uintptr
//
// Valgrind's client request on amd64: the four rotations of RDI (a no-op
// on a real CPU, 3+13+61+51 = 128 bits) followed by xchg %rbx,%rbx, with
// RAX pointing at the request and its arguments and RDX holding the
// default result, which Valgrind replaces. The bytes are spelt out so
// that the assembler cannot choose another encoding Valgrind would not
// recognise.
TEXT ·request(SB), NOSPLIT, $0-24
	MOVQ args+0(FP), AX
	MOVQ def+8(FP), DX
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x03 // rolq $3, %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x0d // rolq $13, %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x3d // rolq $61, %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x33 // rolq $51, %rdi
	BYTE $0x48; BYTE $0x87; BYTE $0xdb             // xchgq %rbx, %rbx
	MOVQ DX, ret+16(FP)
	RET
