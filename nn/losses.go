package nn

import "math"

// lossChunk is how many positions Losses passes through the net at once.
const lossChunk = 32

// Losses evaluates the net on b as search sees it (batch norms with their
// running statistics) and returns b's losses, weighted and computed as a
// training step computes them: the policy's cross-entropy over every
// action with b's policy offsets, each seat's win/draw/loss cross-entropy
// with b's value offsets, and half the squared error of each seat's score
// in units of ScoreScale. L2 is zero and Total is Policy + Value +
// scoreWeight·Score. Measured on positions the net has not trained on, it
// tells whether the net learned something that carries to new games.
func (inf *Inference) Losses(b Batch, scoreWeight float64) (Losses, error) {
	c := inf.cfg
	if err := b.check(c); err != nil {
		return Losses{}, err
	}
	ws := inf.pool.Get().(*Workspace)
	defer inf.pool.Put(ws)
	fs := c.Shape.Size()
	m := min(b.N, lossChunk)
	logits, probs, score := make([]float32, m*c.Actions), make([]float32, m*c.Seats*3), make([]float32, m*c.Seats)
	var l Losses
	for i := 0; i < b.N; i += lossChunk {
		m = min(lossChunk, b.N-i)
		inf.ForwardWith(ws, b.Input[i*fs:(i+m)*fs], m, logits, probs, score)
		// ForwardWith leaves the value head's logits, before the
		// softmax, in ws.wdl.
		for j := 0; j < m; j++ {
			for s := range c.Seats {
				score[j*c.Seats+s] /= c.ScoreScale
			}
			addLosses(&l, &b, c, i+j, logits[j*c.Actions:(j+1)*c.Actions], ws.wdl[j*c.Seats*3:(j+1)*c.Seats*3], score[j*c.Seats:(j+1)*c.Seats])
		}
	}
	l.Total = l.Policy + l.Value + scoreWeight*l.Score
	return l, nil
}

// BaseLosses returns b's losses, as Inference.Losses computes them, for a
// net of architecture c with both bases (the material value base and the
// capture policy base) whose outputs are all zero: what the search's own
// aids predict, capture-first priors and material values. b must carry
// value, score and policy offsets whatever bases c has.
func BaseLosses(c Config, b Batch, scoreWeight float64) (Losses, error) {
	c.ValueBase, c.PolicyBase = ValueBaseMaterial, PolicyBaseCapture
	if err := b.check(c); err != nil {
		return Losses{}, err
	}
	logits, wdl, score := make([]float32, c.Actions), make([]float32, c.Seats*3), make([]float32, c.Seats)
	var l Losses
	for i := 0; i < b.N; i++ {
		clear(logits)
		clear(wdl)
		clear(score)
		addLosses(&l, &b, c, i, logits, wdl, score)
	}
	l.Total = l.Policy + l.Value + scoreWeight*l.Score
	return l, nil
}

// addLosses adds to l the weighted losses of b's position i given the
// net's policy logits, win/draw/loss logits and scores (in units of
// c.ScoreScale) for it, before b's offsets. It changes logits and wdl.
func addLosses(l *Losses, b *Batch, c Config, i int, logits, wdl, score []float32) {
	w := 1 / float64(b.N)
	if b.Weight != nil {
		w = float64(b.Weight[i]) / float64(b.N)
	}
	if b.PolicyOffset != nil {
		for a, o := range b.PolicyOffset[i*c.Actions : (i+1)*c.Actions] {
			logits[a] += o
		}
	}
	l.Policy += w * softmaxCrossEntropy(logits, b.Policy[i*c.Actions:(i+1)*c.Actions])
	for s := range c.Seats {
		g := 3 * (i*c.Seats + s)
		z := wdl[3*s : 3*s+3]
		var so float32
		if b.ValueOffset != nil {
			o := b.ValueOffset[i*c.Seats+s]
			z[0] += o
			z[2] -= o
			so = b.ScoreOffset[i*c.Seats+s] / c.ScoreScale
		}
		l.Value += w * softmaxCrossEntropy(z, b.Value[g:g+3])
		d := float64(score[s] + so - b.Score[i*c.Seats+s]/c.ScoreScale)
		l.Score += w * 0.5 * d * d
	}
}

// softmaxCrossEntropy is −Σ t·log softmax(z), computed stably.
func softmaxCrossEntropy(z, t []float32) float64 {
	m := z[0]
	for _, v := range z {
		m = max(m, v)
	}
	var sum, st, dot float64
	for j, v := range z {
		sum += math.Exp(float64(v - m))
		if t[j] != 0 {
			st += float64(t[j])
			dot += float64(t[j]) * float64(v-m)
		}
	}
	return st*math.Log(sum) - dot
}
