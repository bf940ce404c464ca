package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxLine is the longest line engine and perft --file read.
const maxLine = 1 << 20

// errLineTooLong is returned by readLine for a line over its limit.
var errLineTooLong = fmt.Errorf("line too long (limit %d MiB)", maxLine>>20)

// readLine returns the next line of r without its "\n" or "\r\n". A line
// longer than limit bytes is read to its end and dropped, and readLine
// returns errLineTooLong, so that the next call reads the next line. At
// the end of r it returns io.EOF; a last line without "\n" is a line.
func readLine(r *bufio.Reader, limit int) (string, error) {
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
		return "", errLineTooLong
	}
	return line, nil
}
