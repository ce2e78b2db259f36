//go:build !linux

package planted

import "errors"

// interpose is planted-scaler's attack on Linux's events pipe alone.
func interpose() error {
	return errors.New("planted-scaler interposes on the events pipe on Linux only")
}
