package gemm

// packA copies the mb×kb block of op(a) at (ic, pc) into dst as panels of
// mr rows: panel r holds, for each p in 0..kb, the mr values op(a)[ic+r·mr+i][pc+p],
// zeros past row mb.
func packA(dst []float32, trans bool, a []float32, lda, ic, pc, mb, kb, mr int) {
	for ir := 0; ir < mb; ir += mr {
		panel := dst[ir*kb : (ir+mr)*kb]
		rows := min(mr, mb-ir)
		if trans {
			// a is stored k×m: op(a)'s column pc+p is a's row, contiguous.
			for p := range kb {
				src := a[(pc+p)*lda+ic+ir:][:rows]
				d := panel[p*mr : p*mr+mr]
				copy(d, src)
				clear(d[rows:])
			}
			continue
		}
		for i := range rows {
			src := a[(ic+ir+i)*lda+pc:][:kb]
			for p, v := range src {
				panel[p*mr+i] = v
			}
		}
		for i := rows; i < mr; i++ {
			for p := range kb {
				panel[p*mr+i] = 0
			}
		}
	}
}

// packB copies, for kern, the kb×nb block of op(b) at (pc, jc) into dst as panels of
// nr columns: panel r holds, for each p in 0..kb, the nr values
// op(b)[pc+p][jc+r·nr+j], zeros past column nb.
func packB(kern *kernel, dst []float32, trans bool, b []float32, ldb, pc, jc, kb, nb int) {
	nr := kern.nr
	for jr := 0; jr < nb; jr += nr {
		panel := dst[jr*kb : (jr+nr)*kb]
		cols := min(nr, nb-jr)
		if !trans && cols == nr {
			src := b[pc*ldb+jc+jr:][:(kb-1)*ldb+nr]
			kern.packB(&panel[0], &src[0], ldb, kb)
			continue
		}
		if !trans {
			for p := range kb {
				src := b[(pc+p)*ldb+jc+jr:][:cols]
				d := panel[p*nr : p*nr+nr]
				copy(d, src)
				clear(d[cols:])
			}
			continue
		}
		// b is stored n×k: op(b)'s column jc+jr+j is b's row, contiguous.
		for j := range cols {
			src := b[(jc+jr+j)*ldb+pc:][:kb]
			for p, v := range src {
				panel[p*nr+j] = v
			}
		}
		for j := cols; j < nr; j++ {
			for p := range kb {
				panel[p*nr+j] = 0
			}
		}
	}
}
