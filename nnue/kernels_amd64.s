#include "textflag.h"

// The accumulator update, in 16-bit integers that wrap: dst[j] = src[j]
// + Σ ft[a·h+j] over a in added − Σ ft[r·h+j] over r in removed, for j
// < h rounded down to the vector width (the caller does the rest).
// Columns go in blocks of four registers, each block through every row,
// then one register at a time.
//
// Registers: DI dst, SI src, DX ft, R12 the row stride in bytes, R8/R9
// added and its length, R10/R11 removed and its length, AX the column's
// byte offset, BX the blocks left, R13 the row counter, R14 a row.

// func updateAVX2(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int)
TEXT ·updateAVX2(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ft+16(FP), DX
	MOVQ h+24(FP), CX
	MOVQ added+32(FP), R8
	MOVQ nAdded+40(FP), R9
	MOVQ removed+48(FP), R10
	MOVQ nRemoved+56(FP), R11
	MOVQ CX, R12
	SHLQ $1, R12
	XORQ AX, AX
	MOVQ CX, BX
	SHRQ $6, BX
	JZ   avx2tail

avx2block:
	VMOVDQU 0(SI)(AX*1), Y0
	VMOVDQU 32(SI)(AX*1), Y1
	VMOVDQU 64(SI)(AX*1), Y2
	VMOVDQU 96(SI)(AX*1), Y3
	XORQ    R13, R13

avx2add:
	CMPQ    R13, R9
	JGE     avx2subs
	MOVLQSX (R8)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPADDW  0(R14)(AX*1), Y0, Y0
	VPADDW  32(R14)(AX*1), Y1, Y1
	VPADDW  64(R14)(AX*1), Y2, Y2
	VPADDW  96(R14)(AX*1), Y3, Y3
	INCQ    R13
	JMP     avx2add

avx2subs:
	XORQ R13, R13

avx2sub:
	CMPQ    R13, R11
	JGE     avx2store
	MOVLQSX (R10)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPSUBW  0(R14)(AX*1), Y0, Y0
	VPSUBW  32(R14)(AX*1), Y1, Y1
	VPSUBW  64(R14)(AX*1), Y2, Y2
	VPSUBW  96(R14)(AX*1), Y3, Y3
	INCQ    R13
	JMP     avx2sub

avx2store:
	VMOVDQU Y0, 0(DI)(AX*1)
	VMOVDQU Y1, 32(DI)(AX*1)
	VMOVDQU Y2, 64(DI)(AX*1)
	VMOVDQU Y3, 96(DI)(AX*1)
	ADDQ    $128, AX
	DECQ    BX
	JNZ     avx2block

avx2tail:
	MOVQ CX, BX
	ANDQ $63, BX
	SHRQ $4, BX
	JZ   avx2done

avx2one:
	VMOVDQU 0(SI)(AX*1), Y0
	XORQ    R13, R13

avx2oneadd:
	CMPQ    R13, R9
	JGE     avx2onesubs
	MOVLQSX (R8)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPADDW  0(R14)(AX*1), Y0, Y0
	INCQ    R13
	JMP     avx2oneadd

avx2onesubs:
	XORQ R13, R13

avx2onesub:
	CMPQ    R13, R11
	JGE     avx2onestore
	MOVLQSX (R10)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPSUBW  0(R14)(AX*1), Y0, Y0
	INCQ    R13
	JMP     avx2onesub

avx2onestore:
	VMOVDQU Y0, 0(DI)(AX*1)
	ADDQ    $32, AX
	DECQ    BX
	JNZ     avx2one

avx2done:
	VZEROUPPER
	RET

// func updateAVX512(dst, src, ft *int16, h int, added *int32, nAdded int, removed *int32, nRemoved int)
TEXT ·updateAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ft+16(FP), DX
	MOVQ h+24(FP), CX
	MOVQ added+32(FP), R8
	MOVQ nAdded+40(FP), R9
	MOVQ removed+48(FP), R10
	MOVQ nRemoved+56(FP), R11
	MOVQ CX, R12
	SHLQ $1, R12
	XORQ AX, AX
	MOVQ CX, BX
	SHRQ $7, BX
	JZ   z512tail

z512block:
	VMOVDQU16 0(SI)(AX*1), Z0
	VMOVDQU16 64(SI)(AX*1), Z1
	VMOVDQU16 128(SI)(AX*1), Z2
	VMOVDQU16 192(SI)(AX*1), Z3
	XORQ    R13, R13

z512add:
	CMPQ    R13, R9
	JGE     z512subs
	MOVLQSX (R8)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPADDW  0(R14)(AX*1), Z0, Z0
	VPADDW  64(R14)(AX*1), Z1, Z1
	VPADDW  128(R14)(AX*1), Z2, Z2
	VPADDW  192(R14)(AX*1), Z3, Z3
	INCQ    R13
	JMP     z512add

z512subs:
	XORQ R13, R13

z512sub:
	CMPQ    R13, R11
	JGE     z512store
	MOVLQSX (R10)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPSUBW  0(R14)(AX*1), Z0, Z0
	VPSUBW  64(R14)(AX*1), Z1, Z1
	VPSUBW  128(R14)(AX*1), Z2, Z2
	VPSUBW  192(R14)(AX*1), Z3, Z3
	INCQ    R13
	JMP     z512sub

z512store:
	VMOVDQU16 Z0, 0(DI)(AX*1)
	VMOVDQU16 Z1, 64(DI)(AX*1)
	VMOVDQU16 Z2, 128(DI)(AX*1)
	VMOVDQU16 Z3, 192(DI)(AX*1)
	ADDQ    $256, AX
	DECQ    BX
	JNZ     z512block

z512tail:
	MOVQ CX, BX
	ANDQ $127, BX
	SHRQ $5, BX
	JZ   z512done

z512one:
	VMOVDQU16 0(SI)(AX*1), Z0
	XORQ    R13, R13

z512oneadd:
	CMPQ    R13, R9
	JGE     z512onesubs
	MOVLQSX (R8)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPADDW  0(R14)(AX*1), Z0, Z0
	INCQ    R13
	JMP     z512oneadd

z512onesubs:
	XORQ R13, R13

z512onesub:
	CMPQ    R13, R11
	JGE     z512onestore
	MOVLQSX (R10)(R13*4), R14
	IMULQ   R12, R14
	ADDQ    DX, R14
	VPSUBW  0(R14)(AX*1), Z0, Z0
	INCQ    R13
	JMP     z512onesub

z512onestore:
	VMOVDQU16 Z0, 0(DI)(AX*1)
	ADDQ    $64, AX
	DECQ    BX
	JNZ     z512one

z512done:
	VZEROUPPER
	RET

// The output's dot product: Σ clamp(a[j], 0, scale)²·w[j] for j < n
// rounded down to the vector width, each 16-bit a[j] widened to float32,
// in four partial sums (the caller adds the rest). AX is a's byte offset,
// DX w's.

// func dotAVX2(a *int16, w *float32, n int, scale float32) float32
TEXT ·dotAVX2(SB), NOSPLIT, $0-36
	MOVQ         a+0(FP), SI
	MOVQ         w+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSS scale+24(FP), Y5
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1
	VXORPS       Y2, Y2, Y2
	VXORPS       Y3, Y3, Y3
	VXORPS       Y4, Y4, Y4
	XORQ         AX, AX
	XORQ         DX, DX
	MOVQ         CX, BX
	SHRQ         $5, BX
	JZ           dot2tail

dot2block:
	VPMOVSXWD   0(SI)(AX*1), Y6
	VPMOVSXWD   16(SI)(AX*1), Y7
	VPMOVSXWD   32(SI)(AX*1), Y8
	VPMOVSXWD   48(SI)(AX*1), Y9
	VCVTDQ2PS   Y6, Y6
	VCVTDQ2PS   Y7, Y7
	VCVTDQ2PS   Y8, Y8
	VCVTDQ2PS   Y9, Y9
	VMAXPS      Y4, Y6, Y6
	VMAXPS      Y4, Y7, Y7
	VMAXPS      Y4, Y8, Y8
	VMAXPS      Y4, Y9, Y9
	VMINPS      Y5, Y6, Y6
	VMINPS      Y5, Y7, Y7
	VMINPS      Y5, Y8, Y8
	VMINPS      Y5, Y9, Y9
	VMULPS      Y6, Y6, Y6
	VMULPS      Y7, Y7, Y7
	VMULPS      Y8, Y8, Y8
	VMULPS      Y9, Y9, Y9
	VFMADD231PS 0(DI)(DX*1), Y6, Y0
	VFMADD231PS 32(DI)(DX*1), Y7, Y1
	VFMADD231PS 64(DI)(DX*1), Y8, Y2
	VFMADD231PS 96(DI)(DX*1), Y9, Y3
	ADDQ        $64, AX
	ADDQ        $128, DX
	DECQ        BX
	JNZ         dot2block

dot2tail:
	MOVQ CX, BX
	ANDQ $31, BX
	SHRQ $3, BX
	JZ   dot2sum

dot2one:
	VPMOVSXWD   0(SI)(AX*1), Y6
	VCVTDQ2PS   Y6, Y6
	VMAXPS      Y4, Y6, Y6
	VMINPS      Y5, Y6, Y6
	VMULPS      Y6, Y6, Y6
	VFMADD231PS 0(DI)(DX*1), Y6, Y0
	ADDQ        $16, AX
	ADDQ        $32, DX
	DECQ        BX
	JNZ         dot2one

dot2sum:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+32(FP)
	RET

// func dotAVX512(a *int16, w *float32, n int, scale float32) float32
TEXT ·dotAVX512(SB), NOSPLIT, $0-36
	MOVQ         a+0(FP), SI
	MOVQ         w+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSS scale+24(FP), Z5
	VXORPS       Z0, Z0, Z0
	VXORPS       Z1, Z1, Z1
	VXORPS       Z2, Z2, Z2
	VXORPS       Z3, Z3, Z3
	VXORPS       Z4, Z4, Z4
	XORQ         AX, AX
	XORQ         DX, DX
	MOVQ         CX, BX
	SHRQ         $6, BX
	JZ           dot5tail

dot5block:
	VPMOVSXWD   0(SI)(AX*1), Z6
	VPMOVSXWD   32(SI)(AX*1), Z7
	VPMOVSXWD   64(SI)(AX*1), Z8
	VPMOVSXWD   96(SI)(AX*1), Z9
	VCVTDQ2PS   Z6, Z6
	VCVTDQ2PS   Z7, Z7
	VCVTDQ2PS   Z8, Z8
	VCVTDQ2PS   Z9, Z9
	VMAXPS      Z4, Z6, Z6
	VMAXPS      Z4, Z7, Z7
	VMAXPS      Z4, Z8, Z8
	VMAXPS      Z4, Z9, Z9
	VMINPS      Z5, Z6, Z6
	VMINPS      Z5, Z7, Z7
	VMINPS      Z5, Z8, Z8
	VMINPS      Z5, Z9, Z9
	VMULPS      Z6, Z6, Z6
	VMULPS      Z7, Z7, Z7
	VMULPS      Z8, Z8, Z8
	VMULPS      Z9, Z9, Z9
	VFMADD231PS 0(DI)(DX*1), Z6, Z0
	VFMADD231PS 64(DI)(DX*1), Z7, Z1
	VFMADD231PS 128(DI)(DX*1), Z8, Z2
	VFMADD231PS 192(DI)(DX*1), Z9, Z3
	ADDQ        $128, AX
	ADDQ        $256, DX
	DECQ        BX
	JNZ         dot5block

dot5tail:
	MOVQ CX, BX
	ANDQ $63, BX
	SHRQ $4, BX
	JZ   dot5sum

dot5one:
	VPMOVSXWD   0(SI)(AX*1), Z6
	VCVTDQ2PS   Z6, Z6
	VMAXPS      Z4, Z6, Z6
	VMINPS      Z5, Z6, Z6
	VMULPS      Z6, Z6, Z6
	VFMADD231PS 0(DI)(DX*1), Z6, Z0
	ADDQ        $32, AX
	ADDQ        $64, DX
	DECQ        BX
	JNZ         dot5one

dot5sum:
	VADDPS       Z1, Z0, Z0
	VADDPS       Z3, Z2, Z2
	VADDPS       Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+32(FP)
	RET
