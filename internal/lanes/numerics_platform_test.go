package lanes

import (
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// Where the Go compiler fuses x·y + z (arm64, ppc64, s390x, riscv64, and
// amd64 built for GOAMD64=v3 or above: build tag amd64.v3) the probe says so
// and the numerics name it; on amd64 below v3 it does not, and on a CPU with
// AVX and FMA the numerics are the reference platform's, without a suffix
// (`GOAMD64=v3 go test -run Platform ./internal/lanes` checks the other side
// on this machine).
func TestNumericsNamePlatform(t *testing.T) {
	fused := compilerFuses()
	var want bool
	switch runtime.GOARCH {
	case "arm64", "ppc64", "ppc64le", "s390x", "riscv64":
		want = true
	case "amd64":
		want = amd64V3
	default:
		t.Skipf("no expectation of fusion for %s", runtime.GOARCH)
	}
	if fused != want {
		t.Errorf("%s: the compiler fuses x·y + z: %v, want %v", runtime.GOARCH, fused, want)
	}
	n := Numerics()
	if strings.Contains(n, "-fma") != fused {
		t.Errorf("Numerics() = %q with fusion %v", n, fused)
	}
	if runtime.GOARCH == "amd64" && cpu.X86.HasAVX && cpu.X86.HasFMA {
		want := "" // the reference platform: the committed runs' numerics
		if fused {
			want = "/amd64-fma"
		}
		if platform != want {
			t.Errorf("platform suffix %q, want %q", platform, want)
		}
	}
}
