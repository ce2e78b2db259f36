package cli

import (
	"io"
	"os"

	"github.com/serbench/serbench/compare"
)

func compareCmd(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return usagef("compare needs two benchmark files: serbench compare OLD.bench NEW.bench")
	}
	var sets [2]*compare.Set
	for i, name := range args {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		sets[i], err = compare.Read(f, name)
		f.Close()
		if err != nil {
			return err
		}
	}
	rows, err := compare.Compare(sets[0], sets[1])
	if err != nil {
		return err
	}
	return compare.WriteText(stdout, args[0], args[1], rows)
}
