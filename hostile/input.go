package hostile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// The external classes are inputs from outside serbench: the user's own
// files (serbench hostile -input) and the crashers coverage-guided fuzzing
// found (those kept in the tree, and serbench hostile -fuzz's). They run as any class does, each codec
// in capped children, decoded into a map[string]any where the codec can
// (else its default seed's type); a value decoded without an error is
// "changed", since no value is known to compare it with.

// The external classes' names.
const (
	ClassInput = "input"
	ClassFuzz  = "fuzz"
)

// externalClasses are the external classes; they are not in Classes,
// which every run has, and -classes does not name them.
var externalClasses = []Class{
	{Name: ClassInput, Doc: "the user's own files (-input), each decoded as is", seed: seedGeneric, gen: genExternal},
	{Name: ClassFuzz, Doc: "the crashers coverage-guided fuzzing found, kept in the tree (hostile/crashers) or by -fuzz, each decoded as is", seed: seedGeneric, gen: genExternal},
}

func genExternal(s *source, _ bool) []Input {
	out := make([]Input, len(s.external))
	for i, e := range s.external {
		out[i] = Input{Data: e.Data}
	}
	return out
}

// An External is one outside input: its name (a file's path) and bytes.
type External struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
}

// The limits of -input: each file, and all of them together, are refused
// beyond these sizes before they are read.
const (
	MaxInputSize  = 64 << 20
	MaxInputTotal = 256 << 20
)

// ReadInputs reads the files of paths, a directory's regular files
// (recursively, in name order) too. A path that is not a regular file or
// a directory (a device, a FIFO, a socket), a file over MaxInputSize, or
// files over MaxInputTotal in all, is refused before any of it is read;
// a symbolic link is followed.
func ReadInputs(paths []string) ([]External, error) {
	var files []string
	var total int64
	add := func(path string, fi fs.FileInfo) error {
		switch {
		case !fi.Mode().IsRegular():
			return fmt.Errorf("hostile: -input %s is %s, not a regular file: give files or directories", path, modeName(fi.Mode()))
		case fi.Size() > MaxInputSize:
			return fmt.Errorf("hostile: -input %s is %d bytes, over the limit of %d MiB a file", path, fi.Size(), MaxInputSize>>20)
		}
		total += fi.Size()
		if total > MaxInputTotal {
			return fmt.Errorf("hostile: -input files add up to over %d MiB at %s: give fewer", MaxInputTotal>>20, path)
		}
		files = append(files, path)
		return nil
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("hostile: -input: %w", err)
		}
		if !fi.IsDir() {
			if err := add(p, fi); err != nil {
				return nil, err
			}
			continue
		}
		var in []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || d.Name()[0] == '.' {
				return nil
			}
			in = append(in, path)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("hostile: -input: %w", err)
		}
		slices.Sort(in)
		for _, path := range in {
			fi, err := os.Stat(path)
			if err != nil {
				return nil, fmt.Errorf("hostile: -input: %w", err)
			}
			if err := add(path, fi); err != nil {
				return nil, err
			}
		}
	}
	if len(files) == 0 {
		return nil, errors.New("hostile: -input: no files in " + fmt.Sprint(paths))
	}
	out := make([]External, 0, len(files))
	for _, path := range files {
		b, err := readAtMost(path, MaxInputSize)
		if err != nil {
			return nil, fmt.Errorf("hostile: -input: %w", err)
		}
		out = append(out, External{Name: path, Data: b})
	}
	return out, nil
}

// readAtMost reads a regular file, refusing one that grew past limit
// since it was measured.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no longer a regular file", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s grew past %d MiB while read", path, limit>>20)
	}
	return b, err
}

// modeName names a file mode that is not a regular file's.
func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file (" + m.String() + ")"
}
