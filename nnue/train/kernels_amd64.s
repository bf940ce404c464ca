#include "textflag.h"

// func addToAVX2(dst, src *float32, n int)
// n is a multiple of 8: blocks of 32 floats, then of 8.
TEXT ·addToAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

loop32:
	CMPQ CX, $32
	JLT  loop8
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VADDPS  (SI), Y0, Y0
	VADDPS  32(SI), Y1, Y1
	VADDPS  64(SI), Y2, Y2
	VADDPS  96(SI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	SUBQ    $32, CX
	JMP     loop32

loop8:
	CMPQ CX, $8
	JLT  done
	VMOVUPS (DI), Y0
	VADDPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	SUBQ    $8, CX
	JMP     loop8

done:
	VZEROUPPER
	RET

// func headAVX2(acc, out *float32, n int) float32
// Two sums of 8 lanes over blocks of 16, then 8; Y6 holds ones, Y7 zeros.
TEXT ·headAVX2(SB), NOSPLIT, $0-28
	MOVQ         acc+0(FP), DI
	MOVQ         out+8(FP), SI
	MOVQ         n+16(FP), CX
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1
	VXORPS       Y7, Y7, Y7
	MOVL         $0x3f800000, AX
	MOVL         AX, X6
	VBROADCASTSS X6, Y6

hloop16:
	CMPQ        CX, $16
	JLT         hloop8
	VMOVUPS     (DI), Y2
	VMOVUPS     32(DI), Y3
	VMAXPS      Y7, Y2, Y2
	VMAXPS      Y7, Y3, Y3
	VMINPS      Y6, Y2, Y2
	VMINPS      Y6, Y3, Y3
	VMULPS      Y2, Y2, Y2
	VMULPS      Y3, Y3, Y3
	VFMADD231PS (SI), Y2, Y0
	VFMADD231PS 32(SI), Y3, Y1
	ADDQ        $64, DI
	ADDQ        $64, SI
	SUBQ        $16, CX
	JMP         hloop16

hloop8:
	CMPQ        CX, $8
	JLT         hdone
	VMOVUPS     (DI), Y2
	VMAXPS      Y7, Y2, Y2
	VMINPS      Y6, Y2, Y2
	VMULPS      Y2, Y2, Y2
	VFMADD231PS (SI), Y2, Y0
	ADDQ        $32, DI
	ADDQ        $32, SI
	SUBQ        $8, CX
	JMP         hloop8

hdone:
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	MOVSS        X0, ret+24(FP)
	VZEROUPPER
	RET

// func gOutAVX2(grad, dacc, acc, out *float32, n int, dy float32)
// Y4 holds 2·dy, Y5 dy, Y6 ones, Y7 zeros. With c = clamp(x, 0, 1),
// dacc = 2·dy·out·c where x < 1 (c is 0 where x ≤ 0).
TEXT ·gOutAVX2(SB), NOSPLIT, $0-44
	MOVQ         grad+0(FP), DX
	MOVQ         dacc+8(FP), BX
	MOVQ         acc+16(FP), DI
	MOVQ         out+24(FP), SI
	MOVQ         n+32(FP), CX
	VBROADCASTSS dy+40(FP), Y5
	VADDPS       Y5, Y5, Y4
	VXORPS       Y7, Y7, Y7
	MOVL         $0x3f800000, AX
	MOVL         AX, X6
	VBROADCASTSS X6, Y6

gloop8:
	CMPQ        CX, $8
	JLT         gdone
	VMOVUPS     (DI), Y0
	VMAXPS      Y7, Y0, Y1
	VMINPS      Y6, Y1, Y1
	VMULPS      Y1, Y1, Y2
	VMOVUPS     (DX), Y3
	VFMADD231PS Y2, Y5, Y3
	VMOVUPS     Y3, (DX)
	VCMPPS      $0x11, Y6, Y0, Y8
	VMULPS      (SI), Y4, Y9
	VMULPS      Y1, Y9, Y9
	VANDPS      Y8, Y9, Y9
	VMOVUPS     Y9, (BX)
	ADDQ        $32, DI
	ADDQ        $32, SI
	ADDQ        $32, DX
	ADDQ        $32, BX
	SUBQ        $8, CX
	JMP         gloop8

gdone:
	VZEROUPPER
	RET
