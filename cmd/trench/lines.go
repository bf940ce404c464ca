package main

import (
	"bufio"

	"trench/textline"
)

// maxLine is the longest line engine reads.
const maxLine = textline.Max

// errLineTooLong is returned by readLine for a line over its limit.
var errLineTooLong = textline.ErrTooLong

// readLine reads one line of at most limit bytes (textline.Read).
func readLine(r *bufio.Reader, limit int) (string, error) { return textline.Read(r, limit) }
