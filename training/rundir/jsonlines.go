package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
)

// AppendMetrics appends v as one line of the metrics file of the run
// directory dir (AppendJSONLine).
func AppendMetrics(dir string, v any) error {
	return AppendJSONLine(filepath.Join(dir, MetricsFile), v)
}

// ReadMetrics reads the metrics file of the run directory dir as one T
// a line (ReadJSONLines).
func ReadMetrics[T any](dir string) ([]T, int, error) {
	return ReadJSONLines[T](filepath.Join(dir, MetricsFile))
}

// AppendJSONLine appends v as one JSON line of the file at path,
// creating it, and syncs it. A crash can leave at most a torn last line,
// which ReadJSONLines skips: a line after one starts on a line of its
// own.
func AppendJSONLine(path string, v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	torn, err := endsTorn(f)
	if err == nil {
		if torn {
			line = append([]byte{'\n'}, line...)
		}
		_, err = f.Write(append(line, '\n'))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// endsTorn tells whether f holds a last line without its newline.
func endsTorn(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// ReadJSONLines reads a file of one JSON T a line, skipping lines that
// do not parse (a line torn by a crash) and reporting how many it
// skipped.
func ReadJSONLines[T any](path string) ([]T, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var out []T
	skipped := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m T
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			skipped++
			continue
		}
		out = append(out, m)
	}
	return out, skipped, sc.Err()
}
