package dataset

import "math"

// floatAt returns the i-th of a series of floats in (0, 1] that carry
// every digit a float64 has (0.6046602879796196, not 0.25), as measured
// data does: 53 random bits drawn from i by splitmix64, so deterministic,
// never 0, and distinct for the indices a dataset uses.
func floatAt(i int) float64 {
	z := uint64(i) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11+1) / (1 << 53)
}

// measured returns the i-th of a series of measured values below scale:
// most with every digit a float64 has, and every fourth a whole number
// stored in a float (a count, a price in whole units, 1e6), as real data
// holds them. None is 0.
func measured(i int, scale float64) float64 {
	if i%4 == 3 {
		return math.Ceil(scale * floatAt(i))
	}
	return scale * floatAt(i)
}
