package arena

import (
	"errors"
	"fmt"
	"math"
)

// LeadSPRT is a sequential probability ratio test of a player's mean
// lead per opening group (points a game above the mean of the others,
// Result.Lead), H0: the lead is Lead0, against H1: it is Lead1, with
// false-positive rate Alpha and false-negative rate Beta. It is the
// test of a challenge (Config.Challenge) in a game of three or more
// seats, where there is no Elo to test.
type LeadSPRT struct {
	Lead0, Lead1, Alpha, Beta float64
}

// Validate reports a test that cannot be run.
func (t LeadSPRT) Validate() error {
	switch {
	case !(t.Lead1 > t.Lead0):
		return fmt.Errorf("lead test: lead1 (%g) must be above lead0 (%g)", t.Lead1, t.Lead0)
	case math.Abs(t.Lead0) > 10 || math.Abs(t.Lead1) > 10:
		return errors.New("lead test: lead0 and lead1 must be within ±10 points")
	}
	return checkRates("lead test", t.Alpha, t.Beta)
}

// Bounds are the log-likelihood ratio's stopping bounds:
// log(β/(1-α)) accepts H0, log((1-β)/α) accepts H1.
func (t LeadSPRT) Bounds() (lower, upper float64) {
	return SPRT{Alpha: t.Alpha, Beta: t.Beta}.Bounds()
}

// priorGroups and priorVariance are the pseudo-observations the test's
// variance starts from: two groups of variance 1 point². A group's lead
// in Trichess varies by about a point, and without them two groups that
// happen to agree would have a variance near 0 and end the test.
const (
	priorGroups   = 2
	priorVariance = 1.0
)

// LLR is the log-likelihood ratio of H1 against H0 for the groups'
// leads, in the normal approximation of the generalised SPRT:
//
//	LLR = n·(L1-L0)·(2·mean - L0 - L1) / (2·variance)
//
// the variance pooled with priorGroups groups of priorVariance.
func (t LeadSPRT) LLR(leads []float64) float64 {
	n := len(leads)
	if n == 0 {
		return 0
	}
	mean := 0.0
	for _, x := range leads {
		mean += x
	}
	mean /= float64(n)
	ss := priorGroups * priorVariance
	for _, x := range leads {
		ss += (x - mean) * (x - mean)
	}
	variance := ss / float64(n-1+priorGroups)
	return float64(n) * (t.Lead1 - t.Lead0) * (2*mean - t.Lead0 - t.Lead1) / (2 * variance)
}

// LeadSPRTResult is a lead test's state after some groups.
type LeadSPRTResult struct {
	Test         LeadSPRT
	Groups       int
	LLR          float64
	Lower, Upper float64
	Decision     Decision
}

// Result computes the test on the complete groups' leads.
func (t LeadSPRT) Result(leads []float64) LeadSPRTResult {
	r := LeadSPRTResult{Test: t, Groups: len(leads), LLR: t.LLR(leads)}
	r.Lower, r.Upper = t.Bounds()
	switch {
	case r.LLR >= r.Upper:
		r.Decision = AcceptH1
	case r.LLR <= r.Lower:
		r.Decision = AcceptH0
	}
	return r
}

// String is e.g. "LLR 2.98 (-2.94, 2.94) [+0.00, +0.30] after 40 groups:
// H1 accepted".
func (r LeadSPRTResult) String() string {
	return fmt.Sprintf("LLR %.2f (%.2f, %.2f) [%+.2f, %+.2f] after %d groups: %s",
		r.LLR, r.Lower, r.Upper, r.Test.Lead0, r.Test.Lead1, r.Groups, r.Decision)
}

// addLead counts a challenge's game towards its group's lead, and once
// the group is complete updates the test, unless it has decided: games
// in flight when it decided count in the tally but not in the test.
func (r *Result) addLead(cfg Config, o Outcome) {
	// The challenger sits in seat s of seating s.
	g := append(r.groupLeads[o.Group], o.lead(o.Seating))
	if len(g) < r.GroupGames {
		r.groupLeads[o.Group] = g
		return
	}
	delete(r.groupLeads, o.Group)
	mean := 0.0
	for _, x := range g {
		mean += x
	}
	r.leads = append(r.leads, mean/float64(len(g)))
	if r.LeadTest.Decision == Continue {
		*r.LeadTest = cfg.LeadTest.Result(r.leads)
	}
}
