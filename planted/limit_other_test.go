//go:build !linux

package planted

import "testing"

// limitAddressSpace does nothing off Linux.
func limitAddressSpace(*testing.T) {}
