package data

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"trench/internal/atomicfile"
	"trench/internal/shardfiles"
)

// Magic opens every shard file.
const Magic = "TRNNUEPS"

// FormatVersion is the shard format version this package writes and reads.
const FormatVersion = 1

// headerSize is the size of a shard's header; a checksum of checksumSize
// bytes ends it.
const (
	headerSize   = 16
	checksumSize = 4
)

// MaxRecords bounds the records of one shard (a 4 GiB file).
const MaxRecords = (1<<32 - 1 - headerSize - checksumSize) / RecordSize

// Errors wrapped by DecodeShard and ReadShard, telling what is wrong.
var (
	ErrMagic    = errors.New("not a position shard (bad magic)")
	ErrVersion  = errors.New("unsupported shard version")
	ErrSize     = errors.New("shard size disagrees with its record count (truncated?)")
	ErrChecksum = errors.New("shard checksum mismatch")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// EncodeShard encodes records as a shard, checking each: its position is
// not over, its result and score are in range.
func EncodeShard(records []Record) ([]byte, error) {
	if len(records) > MaxRecords {
		return nil, fmt.Errorf("%d records, more than a shard's %d", len(records), MaxRecords)
	}
	buf := make([]byte, headerSize, headerSize+len(records)*RecordSize+checksumSize)
	copy(buf, Magic)
	binary.LittleEndian.PutUint32(buf[8:], FormatVersion)
	binary.LittleEndian.PutUint32(buf[12:], uint32(len(records)))
	for i := range records {
		if err := records[i].check(); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		buf = AppendRecord(buf, &records[i])
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli)), nil
}

// shardBody checks a shard's framing (magic, version, size, checksum) and
// returns its records' bytes, unchecked.
func shardBody(data []byte) ([]byte, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, ErrMagic
	}
	if len(data) < headerSize+checksumSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header and a checksum", ErrSize, len(data))
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != FormatVersion {
		return nil, fmt.Errorf("%w: version %d, this program reads %d", ErrVersion, v, FormatVersion)
	}
	n := int64(binary.LittleEndian.Uint32(data[12:]))
	if want := headerSize + n*RecordSize + checksumSize; int64(len(data)) != want {
		return nil, fmt.Errorf("%w: %d records need %d bytes, the shard has %d", ErrSize, n, want, len(data))
	}
	end := len(data) - checksumSize
	if got, want := crc32.Checksum(data[:end], castagnoli), binary.LittleEndian.Uint32(data[end:]); got != want {
		return nil, fmt.Errorf("%w: computed %08x, stored %08x", ErrChecksum, got, want)
	}
	return data[headerSize:end], nil
}

// DecodeShard decodes a shard, checking its magic, version, size,
// checksum and every record. The error wraps ErrMagic, ErrVersion,
// ErrSize, ErrChecksum or ErrRecord, and names the record at fault.
func DecodeShard(data []byte) ([]Record, error) {
	body, err := shardBody(data)
	if err != nil {
		return nil, err
	}
	records := make([]Record, len(body)/RecordSize)
	for i := range records {
		if err := DecodeRecord(body[i*RecordSize:], &records[i]); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
	}
	return records, nil
}

// ReadShard reads and decodes a shard file; errors name the file.
func ReadShard(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	records, err := DecodeShard(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return records, nil
}

// ShardCount reads the record count in the header of the shard file at
// path, checking its magic and version but not its records (ReadShard
// does).
func ShardCount(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var head [headerSize]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return 0, fmt.Errorf("%s: %w: %v", path, ErrSize, err)
	}
	if string(head[:len(Magic)]) != Magic {
		return 0, fmt.Errorf("%s: %w", path, ErrMagic)
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != FormatVersion {
		return 0, fmt.Errorf("%s: %w: version %d, this program reads %d", path, ErrVersion, v, FormatVersion)
	}
	return int(binary.LittleEndian.Uint32(head[12:])), nil
}

// ShardSuffix ends the name of every shard file.
const ShardSuffix = ".pos"

// maxNameTries bounds the names WriteShard tries.
const maxNameTries = 10

// WriteShard writes records atomically as a new shard in dir, named
// "shard-<nanoseconds>-<random>.pos" so that names sort by creation
// time, and returns its path. It never replaces a file, so several
// processes may write into one directory.
func WriteShard(dir string, records []Record) (string, error) {
	data, err := EncodeShard(records)
	if err != nil {
		return "", err
	}
	for try := 1; ; try++ {
		var suffix [4]byte
		rand.Read(suffix[:])
		path := filepath.Join(dir, fmt.Sprintf("shard-%020d-%s%s", time.Now().UnixNano(), hex.EncodeToString(suffix[:]), ShardSuffix))
		err := atomicfile.Create(path, data)
		if errors.Is(err, fs.ErrExist) && try < maxNameTries {
			continue
		}
		return path, err
	}
}

// ShardNames lists the shard files of dir, oldest first.
func ShardNames(dir string) ([]string, error) { return shardfiles.Names(dir, ShardSuffix) }
