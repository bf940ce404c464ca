package gemm

// packA copies, for kern, the mb×kb block of op(a) at (ic, pc) into dst as panels of
// mr rows: panel r holds, for each p in 0..kb, the mr values op(a)[ic+r·mr+i][pc+p],
// zeros past row mb.
func packA(kern *kernel, dst []float32, trans bool, a []float32, lda, ic, pc, mb, kb, mr int) {
	ir := 0
	if trans && kern.packARows != nil && mr == kern.mr && mb >= mr {
		panels := mb / mr
		src := a[pc*lda+ic:][:(kb-1)*lda+panels*mr]
		_ = dst[panels*mr*kb-1]
		kern.packARows(&dst[0], &src[0], lda, kb, panels)
		ir = panels * mr
	}
	for ; ir < mb; ir += mr {
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
		if rows < mr {
			// One clear of the panel beats a strided store per missing row.
			clear(panel)
		}
		interleave(kern, panel, a[(ic+ir)*lda+pc:], lda, rows, mr, kb)
	}
}

// packB copies, for kern, the kb×nb block of op(b) at (pc, jc) into dst as panels of
// nr columns: panel r holds, for each p in 0..kb, the nr values
// op(b)[pc+p][jc+r·nr+j], zeros past column nb.
func packB(kern *kernel, dst []float32, trans bool, b []float32, ldb, pc, jc, kb, nb int) {
	nr := kern.nr
	jr := 0
	if !trans && kern.packBRows != nil && nb >= nr {
		panels := nb / nr
		src := b[pc*ldb+jc:][:(kb-1)*ldb+panels*nr]
		kern.packBRows(&dst[0], &src[0], ldb, kb, panels)
		jr = panels * nr
	}
	for ; jr < nb; jr += nr {
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
		if cols < nr {
			clear(panel)
		}
		interleave(kern, panel, b[(jc+jr)*ldb+pc:], ldb, cols, nr, kb)
	}
}

// interleave sets dst[p·r+i] = src[i·ld+p] for i < rows and p < kb: it
// packs rows that lie along k into a panel r wide. Groups of 8 rows go
// through kern's vector transpose where it has one.
func interleave(kern *kernel, dst, src []float32, ld, rows, r, kb int) {
	src = src[:(rows-1)*ld+kb]
	i := 0
	if kern.transpose4 != nil && r == 4 && rows == 4 && kb >= 8 {
		blocks := kb / 8
		_ = dst[32*blocks-1]
		kern.transpose4(&dst[0], &src[0], ld, blocks)
		for p := 8 * blocks; p < kb; p++ {
			for i := range 4 {
				dst[4*p+i] = src[i*ld+p]
			}
		}
		return
	}
	if kern.transpose8 != nil && kb >= 8 {
		blocks := kb / 8
		_ = dst[(8*blocks-1)*r+rows-1]
		for ; i+8 <= rows; i += 8 {
			kern.transpose8(&dst[i], &src[i*ld], ld, r, blocks)
		}
		for i8 := 0; i8 < i; i8++ {
			row := src[i8*ld:][:kb]
			for p := 8 * blocks; p < kb; p++ {
				dst[p*r+i8] = row[p]
			}
		}
	}
	for ; i < rows; i++ {
		row := src[i*ld:][:kb]
		for p, v := range row {
			dst[p*r+i] = v
		}
	}
}
