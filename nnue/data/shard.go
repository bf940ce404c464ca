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

// Magic opens every Trench shard file; TrichessMagic every Trichess
// one.
const (
	Magic         = "TRNNUEPS"
	TrichessMagic = "TCNNUEPS"
)

// FormatVersion is the shard format version this package writes and reads.
const FormatVersion = 1

// headerSize is the size of a shard's header; a checksum of checksumSize
// bytes ends it.
const (
	headerSize   = 16
	checksumSize = 4
)

// MaxRecords bounds the Trench records of one shard (a 4 GiB file).
const MaxRecords = (1<<32 - 1 - headerSize - checksumSize) / RecordSize

// Errors wrapped by DecodeShard and ReadShard, telling what is wrong.
var (
	ErrMagic    = errors.New("not a position shard (bad magic)")
	ErrVersion  = errors.New("unsupported shard version")
	ErrSize     = errors.New("shard size disagrees with its record count (truncated?)")
	ErrChecksum = errors.New("shard checksum mismatch")
)

// Undecodable reports whether err says a shard's bytes are not a shard of
// the codec's game (ErrMagic, ErrVersion, ErrSize, ErrChecksum or
// ErrRecord), rather than that the file could not be read at all.
func Undecodable(err error) bool {
	for _, e := range []error{ErrMagic, ErrVersion, ErrSize, ErrChecksum, ErrRecord} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Codec is one game's records in shard files and windows: their size,
// encoding and checks, and the magic that opens the game's shards, so
// that a shard of one game is refused as another's data.
type Codec[R any] struct {
	// Game names the game, as its engine.Game does.
	Game string
	// Magic opens the game's shard files, 8 bytes.
	Magic string
	// Size is the size of an encoded record in bytes.
	Size int
	// Append appends the encoding of a record to dst, unchecked.
	Append func(dst []byte, r *R) []byte
	// Decode decodes and checks the record in the first Size bytes of
	// b; its error wraps ErrRecord.
	Decode func(b []byte, r *R) error
	// Check reports what makes a record unfit to encode.
	Check func(r *R) error
	// GameID is the id of a record's game.
	GameID func(r *R) uint64
	// Values is the number of values a record trains (its batches'
	// Outputs), and Returns stores their λ-returns (TrenchReturns,
	// TrichessReturns) in out, Values a record.
	Values  int
	Returns func(rs []R, lambda, scale float64, out []float32)
}

// Trench is the codec of Trench's records (Record); Trichess of
// Trichess's (TrichessRecord).
var (
	Trench = &Codec[Record]{
		Game: "trench", Magic: Magic, Size: RecordSize,
		Append: AppendRecord, Decode: DecodeRecord, Check: (*Record).check,
		GameID: func(r *Record) uint64 { return r.GameID },
		Values: 1, Returns: TrenchReturns,
	}
	Trichess = &Codec[TrichessRecord]{
		Game: "trichess", Magic: TrichessMagic, Size: TrichessRecordSize,
		Append: AppendTrichessRecord, Decode: DecodeTrichessRecord, Check: (*TrichessRecord).check,
		GameID: func(r *TrichessRecord) uint64 { return r.GameID },
		Values: 3, Returns: TrichessReturns,
	}
)

// shardGame names the game whose shards open with magic, or "".
func shardGame(magic string) string {
	switch magic {
	case Magic:
		return "trench"
	case TrichessMagic:
		return "trichess"
	}
	return ""
}

// checkMagic checks that head opens a shard of c's game.
func (c *Codec[R]) checkMagic(head []byte) error {
	if len(head) >= len(c.Magic) && string(head[:len(c.Magic)]) == c.Magic {
		return nil
	}
	if len(head) >= len(c.Magic) {
		if g := shardGame(string(head[:len(c.Magic)])); g != "" {
			return fmt.Errorf("%w: a %s shard, not %s data", ErrMagic, g, c.Game)
		}
	}
	return ErrMagic
}

// MaxRecords bounds the records of one of the game's shards (a 4 GiB
// file).
func (c *Codec[R]) MaxRecords() int {
	return (1<<32 - 1 - headerSize - checksumSize) / c.Size
}

// EncodeShard encodes records as a shard of the game, checking each.
func (c *Codec[R]) EncodeShard(records []R) ([]byte, error) {
	if len(records) > c.MaxRecords() {
		return nil, fmt.Errorf("%d records, more than a shard's %d", len(records), c.MaxRecords())
	}
	buf := make([]byte, headerSize, headerSize+len(records)*c.Size+checksumSize)
	copy(buf, c.Magic)
	binary.LittleEndian.PutUint32(buf[8:], FormatVersion)
	binary.LittleEndian.PutUint32(buf[12:], uint32(len(records)))
	for i := range records {
		if err := c.Check(&records[i]); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		buf = c.Append(buf, &records[i])
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli)), nil
}

// shardBody checks a shard's framing (magic, version, size, checksum) and
// returns its records' bytes, unchecked.
func (c *Codec[R]) shardBody(data []byte) ([]byte, error) {
	if err := c.checkMagic(data); err != nil {
		return nil, err
	}
	if len(data) < headerSize+checksumSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header and a checksum", ErrSize, len(data))
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != FormatVersion {
		return nil, fmt.Errorf("%w: version %d, this program reads %d", ErrVersion, v, FormatVersion)
	}
	n := int64(binary.LittleEndian.Uint32(data[12:]))
	if want := headerSize + n*int64(c.Size) + checksumSize; int64(len(data)) != want {
		return nil, fmt.Errorf("%w: %d records need %d bytes, the shard has %d", ErrSize, n, want, len(data))
	}
	end := len(data) - checksumSize
	if got, want := crc32.Checksum(data[:end], castagnoli), binary.LittleEndian.Uint32(data[end:]); got != want {
		return nil, fmt.Errorf("%w: computed %08x, stored %08x", ErrChecksum, got, want)
	}
	return data[headerSize:end], nil
}

// DecodeShard decodes a shard of the game, checking its magic, version,
// size, checksum and every record. The error wraps ErrMagic, ErrVersion,
// ErrSize, ErrChecksum or ErrRecord, and names the record at fault.
func (c *Codec[R]) DecodeShard(data []byte) ([]R, error) {
	body, err := c.shardBody(data)
	if err != nil {
		return nil, err
	}
	records := make([]R, len(body)/c.Size)
	for i := range records {
		if err := c.Decode(body[i*c.Size:], &records[i]); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
	}
	return records, nil
}

// ReadShard reads and decodes a shard file of the game; errors name the
// file.
func (c *Codec[R]) ReadShard(path string) ([]R, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	records, err := c.DecodeShard(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return records, nil
}

// ShardCount reads the record count in the header of the game's shard
// file at path, checking its magic and version but not its records
// (ReadShard does).
func (c *Codec[R]) ShardCount(path string) (int, error) {
	head, err := shardHeader(path)
	if err != nil {
		return 0, err
	}
	if err := c.checkMagic(head[:]); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return headerCount(path, head)
}

// ShardGameCount reads the header of the shard file at path, of any
// game this package has a codec of, and returns the game its magic
// names and its record count, checking its magic and version but not
// its records; errors name the file.
func ShardGameCount(path string) (game string, records int, err error) {
	head, err := shardHeader(path)
	if err != nil {
		return "", 0, err
	}
	if game = shardGame(string(head[:len(Magic)])); game == "" {
		return "", 0, fmt.Errorf("%s: %w", path, ErrMagic)
	}
	records, err = headerCount(path, head)
	return game, records, err
}

// shardHeader reads the header of the shard file at path.
func shardHeader(path string) ([headerSize]byte, error) {
	var head [headerSize]byte
	f, err := os.Open(path)
	if err != nil {
		return head, err
	}
	defer f.Close()
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return head, fmt.Errorf("%s: %w: %v", path, ErrSize, err)
	}
	return head, nil
}

// headerCount checks the version in the header head of the shard file
// at path and returns its record count.
func headerCount(path string, head [headerSize]byte) (int, error) {
	if v := binary.LittleEndian.Uint32(head[8:]); v != FormatVersion {
		return 0, fmt.Errorf("%s: %w: version %d, this program reads %d", path, ErrVersion, v, FormatVersion)
	}
	return int(binary.LittleEndian.Uint32(head[12:])), nil
}

// WriteShard writes records atomically as a new shard of the game in
// dir, named "shard-<nanoseconds>-<random>.pos" so that names sort by
// creation time, and returns its path. It never replaces a file, so
// several processes may write into one directory.
func (c *Codec[R]) WriteShard(dir string, records []R) (string, error) {
	data, err := c.EncodeShard(records)
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

// EncodeShard encodes Trench records as a shard (Trench.EncodeShard).
func EncodeShard(records []Record) ([]byte, error) { return Trench.EncodeShard(records) }

// DecodeShard decodes a Trench shard (Trench.DecodeShard).
func DecodeShard(data []byte) ([]Record, error) { return Trench.DecodeShard(data) }

// ReadShard reads a Trench shard file (Trench.ReadShard).
func ReadShard(path string) ([]Record, error) { return Trench.ReadShard(path) }

// ShardCount reads the record count of a Trench shard file
// (Trench.ShardCount).
func ShardCount(path string) (int, error) { return Trench.ShardCount(path) }

// WriteShard writes Trench records as a new shard in dir
// (Trench.WriteShard).
func WriteShard(dir string, records []Record) (string, error) { return Trench.WriteShard(dir, records) }

// ShardSuffix ends the name of every shard file.
const ShardSuffix = ".pos"

// maxNameTries bounds the names WriteShard tries.
const maxNameTries = 10

// ShardNames lists the shard files of dir, oldest first.
func ShardNames(dir string) ([]string, error) { return shardfiles.Names(dir, ShardSuffix) }
