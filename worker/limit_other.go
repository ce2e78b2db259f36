//go:build !linux

package worker

import "errors"

// limitMemory has no portable way to cap the address space outside Linux.
func limitMemory(uint64) error {
	return errors.New("no address-space limit on this OS")
}
