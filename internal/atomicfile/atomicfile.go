// Package atomicfile writes files that must survive a crash: a reader sees
// either the old file or the whole new one, never a part.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Create writes data to name like Write, but only as a new file: if name
// exists, it is left alone and the error wraps fs.ErrExist. Two writers
// that pick the same name never replace each other's file.
func Create(name string, data []byte) error {
	return write(name, data, func(tmp, name string) error {
		err := os.Link(tmp, name)
		if err == nil {
			os.Remove(tmp)
		}
		return err
	})
}

// Write writes data to name so that a reader (or a crash) sees
// either the old file or the whole new one: a temporary file in the same
// directory, synced, then renamed, then the directory synced.
func Write(name string, data []byte) error {
	return write(name, data, os.Rename)
}

// write writes data to a synced temporary file in name's directory,
// then puts it in place with install (rename or link), then syncs the
// directory.
func write(name string, data []byte, install func(tmp, name string) error) error {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = install(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
