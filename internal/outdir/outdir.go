// Package outdir owns the directories serbench writes its outputs into.
//
// A directory is serbench's when serbench created it, found it empty, or
// finds in it the marker file serbench leaves (Marker). serbench writes
// only into its own directories, and in them replaces only the files it
// writes: a user's file is never moved, overwritten or removed. A file,
// or a directory holding files serbench did not write, is refused before
// any time is spent measuring, with an error naming what was found.
//
// A run works in the subdirectory Work of its output directory until it
// ends; Publish then moves the run's files into the directory, one rename
// each, so the previous outputs stay complete until the new ones are.
//
// One process writes a directory at a time: Open locks it (the file
// LockName, locked and holding the writer's pid) until Close or the
// process's end, and refuses a directory another live process holds,
// naming it. A lock whose process died is released by the kernel and
// taken over.
//
// serbench follows no symbolic link inside an output directory: Open
// refuses a directory holding one, and every write, removal and
// subdirectory of this package refuses a link where a file or directory
// of serbench's would be, so that a link never leads serbench to write
// or remove a user's files elsewhere. The output directory itself may be
// a link: the user named it.
package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Marker is the file that marks a directory as serbench's.
const Marker = ".serbench"

// WorkName is the subdirectory a run works in until it ends.
const WorkName = "partial"

const markerText = "This directory holds serbench's outputs. serbench replaces the files it writes here\n" +
	"and leaves every other file alone; remove this marker and serbench will refuse the directory.\n"

// known are the names an output directory held before serbench marked
// its directories: one holding nothing else is adopted as serbench's.
// Every directory serbench writes now carries the marker, whatever study
// wrote it, so this list names no later study's files.
var known = []string{
	Marker, LockName, WorkName, "journal.jsonl",
	"results.json", "results.bench", "results.csv", "report.html", "summary.md",
	"fidelity.json", "fidelity.csv", "hostile.json", "hostile.csv", "hostile",
	"REPRODUCTION.md",
}

// An Error says why a path cannot be an output directory.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("outdir: cannot write into %s: %s", e.Path, e.Reason)
}

// A Dir is an output directory that serbench owns, locked by this
// process until Close.
type Dir struct {
	path string
	lock *os.File
	// Stale is the pid a dead writer left in the lock, which Open took
	// over; 0 when there was none.
	Stale int
}

// Open claims path as an output directory: it creates it when it does not
// exist, adopts it when it is empty (or holds only what serbench writes),
// and refuses a file or a directory holding anything else. It leaves the
// marker in the directory, which also proves the directory writable.
func Open(path string) (*Dir, error) {
	if path == "" {
		return nil, &Error{Path: `""`, Reason: "no directory named"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Path: path, Reason: err.Error()}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, &Error{Path: path, Reason: reason(err)}
		}
	case errors.Is(err, syscall.ENOTDIR):
		return nil, &Error{Path: path, Reason: "a directory on its path is a file; name a directory that can be created"}
	case err != nil:
		return nil, &Error{Path: path, Reason: reason(err)}
	case !fi.IsDir():
		return nil, &Error{Path: path, Reason: "it is a file, and serbench writes a directory of files; name a new or empty directory"}
	default:
		if err := adoptable(abs); err != nil {
			return nil, &Error{Path: path, Reason: err.Error()}
		}
	}
	if err := noLinks(abs); err != nil {
		return nil, &Error{Path: path, Reason: err.Error()}
	}
	d := &Dir{path: filepath.Clean(path)}
	if err := d.acquire(abs); err != nil {
		return nil, err
	}
	if err := writeMarker(abs); err != nil {
		d.Close()
		return nil, &Error{Path: path, Reason: reason(err)}
	}
	return d, nil
}

// LockName is the file whose lock marks the process writing a directory.
const LockName = ".serbench.lock"

// acquire locks the directory abs for this process and writes its pid in
// the lock file; a directory another live process holds is an *Error
// naming that process.
func (d *Dir) acquire(abs string) error {
	path := filepath.Join(abs, LockName)
	if err := notLink(path); err != nil {
		return &Error{Path: d.path, Reason: err.Error()}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return &Error{Path: d.path, Reason: reason(err)}
	}
	held, err := lockFile(f)
	if err != nil {
		f.Close()
		return &Error{Path: d.path, Reason: "locking it: " + reason(err)}
	}
	old := readPid(f)
	if held {
		f.Close()
		who := "another process"
		if old > 0 {
			who = fmt.Sprintf("serbench process %d", old)
		}
		return &Error{Path: d.path, Reason: fmt.Sprintf("%s is writing it; wait until it ends, or name another directory", who)}
	}
	if old > 0 && old != os.Getpid() {
		d.Stale = old
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return &Error{Path: d.path, Reason: reason(err)}
	}
	d.lock = f
	return nil
}

// readPid returns the pid a lock file holds, 0 when none.
func readPid(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		return 0
	}
	return pid
}

// Close releases the directory's lock; the Dir is not written after.
func (d *Dir) Close() error {
	if d == nil || d.lock == nil {
		return nil
	}
	// An empty lock file says its last writer ended; a pid left in it,
	// that the writer died.
	err := d.lock.Truncate(0)
	if cerr := d.lock.Close(); err == nil { // closing the file releases its lock
		err = cerr
	}
	d.lock = nil
	return err
}

// A LinkError says a symbolic link is where serbench would write or
// remove.
type LinkError struct{ Path string }

func (e *LinkError) Error() string {
	target, _ := os.Readlink(e.Path)
	return fmt.Sprintf("%s is a symbolic link (to %s), and serbench follows no link inside its output directory; remove the link or name another directory", e.Path, target)
}

// notLink returns a *LinkError when path is a symbolic link.
func notLink(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &LinkError{Path: path}
	}
	return nil
}

// noLinks returns a *LinkError for the first symbolic link under dir,
// which is not followed itself when it is one.
func noLinks(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return errors.New(reason(err))
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		err := filepath.WalkDir(p, func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.Type()&fs.ModeSymlink != 0 {
				return &LinkError{Path: path}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// MakeDir creates the directory path, or finds it there; a symbolic link
// or a file at path is an error. Its parent must exist.
func MakeDir(path string) error {
	if err := notLink(path); err != nil {
		return err
	}
	if err := os.Mkdir(path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &LinkError{Path: path}
	case !fi.IsDir():
		return fmt.Errorf("%s is a file, where serbench writes a directory", path)
	}
	return nil
}

// RemoveMatching removes the files of directory dir whose names match
// pattern (filepath.Match); a symbolic link at dir is an error, and a
// link matching is removed itself, never what it points at.
func RemoveMatching(dir, pattern string) error {
	if err := notLink(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if ok, _ := filepath.Match(pattern, e.Name()); !ok || e.IsDir() {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// adoptable reports whether dir, which exists, may become serbench's.
func adoptable(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return errors.New(reason(err))
	}
	var foreign []string
	for _, e := range entries {
		if e.Name() == Marker {
			return nil
		}
		if !slices.Contains(known, e.Name()) {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	shown := foreign
	if len(shown) > 3 {
		shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(foreign)-3))
	}
	return fmt.Errorf("it holds files serbench did not write (%s); serbench writes only into a new or empty directory or one it wrote before: name another directory", strings.Join(shown, ", "))
}

// writeMarker writes dir's marker, through a temporary file, which proves
// that dir is writable before any time is spent.
func writeMarker(dir string) error {
	return writeAtomic(filepath.Join(dir, Marker), func(w io.Writer) error {
		_, err := io.WriteString(w, markerText)
		return err
	})
}

// reason turns a file-system error into the part of a message that says
// what is wrong, without repeating the path.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return err.Error() + "; name a directory you can write to"
	}
	return err.Error()
}

// Path returns the directory's path as it was named, cleaned.
func (d *Dir) Path() string { return d.path }

// Join returns the path of name in the directory.
func (d *Dir) Join(name string) string { return filepath.Join(d.path, name) }

// Work returns the path of the directory's working directory.
func (d *Dir) Work() string { return filepath.Join(d.path, WorkName) }

// Has reports whether the directory holds name.
func (d *Dir) Has(name string) bool {
	_, err := os.Lstat(d.Join(name))
	return err == nil
}

// NewWork creates an empty working directory, removing the one a
// previous run left, which is serbench's own. The caller first makes sure
// that it holds no unfinished run worth keeping.
func (d *Dir) NewWork() error {
	if err := notLink(d.Work()); err != nil {
		return &Error{Path: d.Work(), Reason: err.Error()}
	}
	if err := os.RemoveAll(d.Work()); err != nil {
		return &Error{Path: d.Work(), Reason: reason(err)}
	}
	if err := os.Mkdir(d.Work(), 0o755); err != nil {
		return &Error{Path: d.Work(), Reason: reason(err)}
	}
	return nil
}

// Publish moves the named files of the working directory into the
// directory, each replacing the file of that name, then removes the
// working directory. A name the working directory does not hold is
// skipped. On an error, what was not moved stays in the working
// directory.
func (d *Dir) Publish(names []string) error {
	for _, name := range names {
		from := filepath.Join(d.Work(), name)
		if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(from, d.Join(name)); err != nil {
			return fmt.Errorf("outdir: publishing %s: %w", name, err)
		}
	}
	if err := os.RemoveAll(d.Work()); err != nil {
		return fmt.Errorf("outdir: removing the working directory: %w", err)
	}
	return nil
}

// WriteFile writes the file name in the directory through write, to a
// temporary name first, so a failure never leaves half a file.
func (d *Dir) WriteFile(name string, write func(io.Writer) error) error {
	return writeAtomic(d.Join(name), write)
}

// WriteAtomic writes path through write, to a temporary file in the same
// directory that is renamed over path once complete.
func WriteAtomic(path string, write func(io.Writer) error) error { return writeAtomic(path, write) }

func writeAtomic(path string, write func(io.Writer) error) error {
	if err := notLink(path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // a no-op after the rename
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes 0600
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Remove removes the file name of the directory, which serbench wrote (a
// study's journal once its matrix is written); a name that is not there
// is no error.
func (d *Dir) Remove(name string) error {
	if err := os.Remove(d.Join(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &Error{Path: d.Join(name), Reason: reason(err)}
	}
	return nil
}
