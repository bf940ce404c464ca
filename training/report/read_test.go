package report

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"trench/training"
	"trench/training/rundir"
)

// TestReadRunReadsWhatTrainingWrites writes metrics with training's own
// writer, every field the charts use set, and checks that ReadRun gives
// them back unchanged and that the curves drawn from them are the curves
// of what was written.
func TestReadRunReadsWhatTrainingWrites(t *testing.T) {
	dir := t.TempDir()
	written := []training.Metrics{
		{Step: 100, Elapsed: 60, Positions: 100, Games: 10, LossPolicy: 5.1, LossValue: 0.9, LossScore: 0.5, LossTotal: 6.5},
		rated(120, 300, 150, standing("policy:net=a", 150, 100, 220),
			standing("greedy", -40, -120, 30), standing("random", inf, 250, inf)),
		rated(180, 500, 90, standing("policy:net=b", -60, -inf, 10),
			standing("greedy", -inf, -inf, -300), standing("random", inf, inf, inf)),
	}
	written[1].Step, written[1].LossTotal = 200, 6
	written[2].Step, written[2].LossTotal, written[2].Rejected = 300, 5.5, true
	written[2].Arena.VsBaselines[0].Comparisons = 2
	for _, m := range written {
		if err := training.AppendMetrics(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	run, skipped, err := ReadRun(dir, "a")
	if err != nil || skipped != 0 {
		t.Fatalf("ReadRun: %d skipped, %v", skipped, err)
	}
	if run.Name != "a" || !reflect.DeepEqual(run.Lines, written) {
		t.Fatalf("read back\n%+v\nwant\n%+v", run, written)
	}
	if got, want := EloSeries(run.Lines), EloSeries(written); !reflect.DeepEqual(got, want) {
		t.Errorf("curves of what was read\n%+v\nwant those of what was written\n%+v", got, want)
	}
	if got := EloSeries(run.Lines); len(got) != 3 || len(got[1].Points) != 2 || got[1].Omitted != 0 || len(got[2].Points) != 1 || got[2].Omitted != 1 {
		t.Errorf("got %d curves: want the run's scale, greedy with an estimate and a bound, random with a bound and one omitted", len(got))
	}

	// A line torn by a crash is skipped and counted.
	f, err := os.OpenFile(filepath.Join(dir, rundir.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"step":400,"arena":{"curr`)
	f.Close()
	if run, skipped, err := ReadRun(dir, "a"); err != nil || skipped != 1 || len(run.Lines) != 3 {
		t.Errorf("with a torn last line: %d lines, %d skipped, %v", len(run.Lines), skipped, err)
	}
}

func TestReadRunErrors(t *testing.T) {
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, rundir.MetricsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	torn := t.TempDir()
	if err := os.WriteFile(filepath.Join(torn, rundir.MetricsFile), []byte(`{"step":`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dir, want string }{
		{"missing", filepath.Join(empty, "nope"), "no such file"},
		{"empty", empty, "no metrics lines"},
		{"only a torn line", torn, "no metrics lines"},
	} {
		_, _, err := ReadRun(tc.dir, "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.dir) {
			t.Errorf("%s: got %v, want an error naming %s and saying %q", tc.name, err, tc.dir, tc.want)
		}
	}
}

// FuzzReadRun feeds ReadRun arbitrary metrics files: it must not panic,
// every line must be either read or counted as skipped, and the curves of
// what it read must be drawable.
func FuzzReadRun(f *testing.F) {
	f.Add([]byte(`{"step":1,"elo":3,"arena":{"vs_previous":{"opponent":"a","elo":{"elo":"+Inf","low":1,"high":"+Inf"}}}}` + "\n"))
	f.Add([]byte("{\"step\":1}\n{\"step\":"))
	f.Add([]byte(`{"arena":{"vs_baselines":[{"elo":{"elo":"NaN","low":"-Inf","high":2}}]},"elo":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, rundir.MetricsFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		run, skipped, err := ReadRun(dir, "fuzz")
		if err != nil {
			return
		}
		if lines := strings.Count(string(data), "\n") + 1; len(run.Lines)+skipped > lines {
			t.Errorf("%d lines read and %d skipped from %d lines", len(run.Lines), skipped, lines)
		}
		for _, s := range EloSeries(run.Lines) {
			for _, p := range s.Points {
				if !isFinite(p.Value) || !isFinite(p.Low) || !isFinite(p.High) {
					t.Errorf("%s: point %+v is not finite", s.Name, p)
				}
			}
		}
	})
}

func TestRunNames(t *testing.T) {
	for _, tc := range []struct {
		dirs, want []string
	}{
		{[]string{"runs/a"}, []string{"a"}},
		{[]string{"runs/a/", "runs/b"}, []string{"a", "b"}},
		{[]string{"x/a", "y/a", "y/b"}, []string{"x/a", "y/a", "b"}},
		{[]string{"./a", "a"}, []string{"a", "a"}},
	} {
		if got := RunNames(tc.dirs); !slices.Equal(got, tc.want) {
			t.Errorf("RunNames(%q) = %q, want %q", tc.dirs, got, tc.want)
		}
	}
}
