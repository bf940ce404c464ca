package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportCommand(t *testing.T) {
	run := t.TempDir()
	metrics := `{"elapsed_s":60,"step":100,"games":10,"loss_policy":5.1,"loss_value":0.9,"loss_score":0.5,"loss_total":6.5}
{"elapsed_s":120,"step":200,"games":25,"loss_policy":4.8,"loss_value":0.8,"loss_score":0.4,"loss_total":6.0,"elo":190.8,"arena":{"current":"policy:net=b","games":8,"vs_previous":{"opponent":"policy:net=a","wins":3,"draws":0,"losses":1,"score":0.75,"elo":{"elo":190.8,"low":-50,"high":"+Inf"},"pair_elo":{"elo":190.8,"low":0,"high":400}},"vs_baselines":[{"opponent":"random","wins":4,"draws":0,"losses":0,"score":1,"elo":{"elo":"+Inf","low":"+Inf","high":"+Inf"},"pair_elo":{"elo":"+Inf","low":"+Inf","high":"+Inf"}}]}}
{"elapsed_s":180,"step":300,"games":41,"loss_policy":4.5,"loss_value":0.7,"loss_score":0.4,"loss_total":5.6,"elo":150,"arena":{"current":"policy:net=c","games":8,"vs_previous":{"opponent":"policy:net=b","wins":2,"draws":0,"losses":2,"score":0.5,"elo":{"elo":0,"low":-200,"high":200},"pair_elo":{"elo":0,"low":-150,"high":150}},"vs_baselines":[{"opponent":"random","wins":3,"draws":1,"losses":0,"score":0.875,"elo":{"elo":338,"low":150,"high":"+Inf"},"pair_elo":{"elo":338,"low":160,"high":"+Inf"}}]}}
{"elapsed_s":240,"step":4
`
	if err := os.WriteFile(filepath.Join(run, "metrics.jsonl"), []byte(metrics), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("report", "--run", run)
	if code != 0 {
		t.Fatalf("report: code %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "left out 1 match(es) whose Elo had no finite bound") {
		t.Errorf("the match won with an infinite interval is not reported: %q", out)
	}
	if !strings.Contains(out, run+": skipped 1 unreadable") {
		t.Errorf("the torn line is not reported: %q", out)
	}
	for _, name := range []string{"elo-hours", "elo-log-hours", "elo-positions", "losses"} {
		png, err := os.ReadFile(filepath.Join(run, "report", name+".png"))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Errorf("%s.png: %v, %d bytes", name, err, len(png))
		}
		svg, err := os.ReadFile(filepath.Join(run, "report", name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s.svg: %v", name, err)
		}
	}
	if s, _ := os.ReadFile(filepath.Join(run, "report", "elo-hours.svg")); !bytes.Contains(s, []byte("over random")) || !bytes.Contains(s, []byte("on the run")) {
		t.Error("the Elo chart lacks its legend")
	}

	// Two runs on one chart need --out, and name each curve by its run.
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "metrics.jsonl"), []byte(metrics), 0o644)
	if code, _, errOut := runCLI("report", "--run", run, "--run", other); code != 2 || !strings.Contains(errOut, "--out is required") {
		t.Errorf("two runs without --out: code %d, stderr %q", code, errOut)
	}
	both := filepath.Join(t.TempDir(), "both")
	if code, _, errOut := runCLI("report", "--run", run, "--run", other, "--out", both); code != 0 {
		t.Fatalf("two runs: code %d, stderr %q", code, errOut)
	}
	if s, _ := os.ReadFile(filepath.Join(both, "elo-positions.svg")); !bytes.Contains(s, []byte("other: over random")) {
		t.Error("the two-run chart does not name the curves by run")
	}

	// Losses only without arena matches.
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "metrics.jsonl"), []byte(strings.SplitN(metrics, "\n", 2)[0]+"\n"), 0o644)
	out2 := filepath.Join(t.TempDir(), "plots")
	code, out, _ = runCLI("report", "--run", plain, "--out", out2)
	if code != 0 || !strings.Contains(out, "no Elo charts") {
		t.Errorf("plain run: code %d, %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(out2, "losses.svg")); err != nil {
		t.Error(err)
	}

	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "metrics.jsonl"), nil, 0o644)
	for _, args := range [][]string{{"report"}, {"report", "--run", filepath.Join(run, "nope")}, {"report", "--run", empty}} {
		if code, _, errOut := runCLI(args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
}

// A rated NNUE run's report tells the Elo each doubling of its hours
// added over each fixed opponent: run r3's records, rated to 8 hours.
func TestReportDoublings(t *testing.T) {
	code, out, errOut := runCLI("report", "--run", filepath.Join("..", "..", "docs", "runs", "r3"), "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("report: code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"over alphabeta-hand:nodes=80000 (trench rate: the net at nodes=20000, 100 pairs, balanced-6301.txt): +108 [+94, +122] Elo a doubling of the hours, fitted from 1 hour on (25 ratings)",
		"  2 h–4 h: +186 [+163, +208] (6), +105 [+72, +137] over the doubling before",
		"  4 h–8.15 h: +305 [+287, +323] (15), +119 [+91, +148] over the doubling before",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
