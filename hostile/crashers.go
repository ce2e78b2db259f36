package hostile

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
)

// crasherFiles are the crashers fuzzing found before, kept in the tree:
// crashers/CODEC/NAME, each the input's bytes (the reproducer a run with
// -fuzz keeps, DIR/hostile/CODEC-fuzz.bin) or a go test fuzz v1 file of
// one []byte value, as go test -fuzz writes them. Every run decodes them
// as the class fuzz, with or without -fuzz, so a crasher found once stays
// in the matrix and its verdicts.
//
//go:embed crashers
var crasherFiles embed.FS

// KnownCrashers returns the crashers kept in the tree for the codec
// named, in name order; none when it has none.
func KnownCrashers(codec string) ([]External, error) {
	return knownCrashers(crasherFiles, codec)
}

func knownCrashers(fsys fs.FS, codec string) ([]External, error) {
	dir := path.Join("crashers", codec)
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []External
	for _, e := range entries {
		if e.IsDir() || e.Name()[0] == '.' {
			continue
		}
		name := path.Join(dir, e.Name())
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		data := b
		if bytes.HasPrefix(b, []byte(fuzzV1)) {
			if data, err = corpusEntry(b); err != nil {
				return nil, fmt.Errorf("hostile: %s: %w", name, err)
			}
		}
		out = append(out, External{Name: name, Data: data})
	}
	return out, nil
}

// joinCrashers returns known with the crashers of found that are not
// among them (by their bytes) after them.
func joinCrashers(known, found []External) []External {
	out := slices.Clone(known)
	for _, f := range found {
		if !slices.ContainsFunc(out, func(k External) bool { return bytes.Equal(k.Data, f.Data) }) {
			out = append(out, f)
		}
	}
	return out
}
