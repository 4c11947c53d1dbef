package report

import "testing"

func TestSeedRanges(t *testing.T) {
	for _, tt := range []struct {
		seeds []uint64
		want  string
	}{
		{nil, ""},
		{[]uint64{7}, "7"},
		{[]uint64{0, 1, 2, 3, 4}, "0-4"},
		{[]uint64{100, 101, 102, 7}, "100-102, 7"},
		{[]uint64{0, 2, 3}, "0, 2-3"},
	} {
		if got := seedRanges(tt.seeds); got != tt.want {
			t.Errorf("seedRanges(%v) = %q, want %q", tt.seeds, got, tt.want)
		}
	}
}
