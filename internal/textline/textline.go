// Package textline reads input one line at a time with a bound on a
// line's length, for the commands that read people's and programs' input
// (the terminal game, the engine protocol, perft files).
package textline

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Max is the longest line the commands read.
const Max = 1 << 20

// ErrTooLong is returned by Read for a line over its limit.
var ErrTooLong = fmt.Errorf("line too long (limit %d MiB)", Max>>20)

// Read returns the next line of r without its "\n" or "\r\n". A line
// longer than limit bytes is read to its end and dropped, and Read returns
// ErrTooLong, so that the next call reads the next line. At the end of r
// it returns io.EOF; a last line without "\n" is a line.
func Read(r *bufio.Reader, limit int) (string, error) {
	var b strings.Builder
	tooLong, read := false, false
	for {
		chunk, err := r.ReadSlice('\n')
		read = read || len(chunk) > 0
		if !tooLong {
			if b.Len()+len(chunk) > limit+2 { // room for "\r\n"
				tooLong = true
			} else {
				b.Write(chunk)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (!errors.Is(err, io.EOF) || !read) {
			return "", err
		}
		break
	}
	line := strings.TrimSuffix(strings.TrimSuffix(b.String(), "\n"), "\r")
	if tooLong || len(line) > limit {
		return "", ErrTooLong
	}
	return line, nil
}
