package nn

import "math"

// Schedule gives the learning rate of each optimizer step.
type Schedule interface {
	// Rate is the learning rate of step (counted from 0).
	Rate(step uint64) float64
}

// ConstantRate is a fixed learning rate.
type ConstantRate float64

// Rate implements Schedule.
func (r ConstantRate) Rate(uint64) float64 { return float64(r) }

// CosineRate warms up linearly from 0 to Base over Warmup steps, then
// follows a half cosine down to Min at step Total, and stays at Min.
type CosineRate struct {
	Base, Min     float64
	Warmup, Total uint64
}

// Rate implements Schedule.
func (r CosineRate) Rate(step uint64) float64 {
	if step < r.Warmup {
		return r.Base * float64(step+1) / float64(r.Warmup)
	}
	if step >= r.Total || r.Total <= r.Warmup {
		return r.Min
	}
	f := float64(step-r.Warmup) / float64(r.Total-r.Warmup)
	return r.Min + (r.Base-r.Min)*0.5*(1+math.Cos(math.Pi*f))
}

// PhasedRate follows First for the steps before At and Then from step
// At on, e.g. a fine-tuning phase at its own rate after a cosine.
type PhasedRate struct {
	First Schedule
	At    uint64
	Then  Schedule
}

// Rate implements Schedule.
func (r PhasedRate) Rate(step uint64) float64 {
	if step < r.At {
		return r.First.Rate(step)
	}
	return r.Then.Rate(step)
}
