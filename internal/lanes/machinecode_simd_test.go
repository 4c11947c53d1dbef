//go:build goexperiment.simd && amd64

package lanes

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The check of the compiled kernels that doc.go asks for: no legacy-SSE
// instruction inside a loop that also runs 256- or 512-bit instructions
// (and no VZEROUPPER). Go encodes float64 scalars, their spills and the
// zeroing of a vector from a float64 constant (bc(0): XORPS) with legacy
// SSE; run with the vector registers' upper halves in use, each such
// instruction cost about a hundred cycles on an Intel Xeon (docs/performance.md,
// "Intel"). The test disassembles its own binary with binutils' objdump
// (Go's objdump does not decode VEX or EVEX).

// sseFinding is one legacy-SSE instruction inside a vector loop.
type sseFinding struct {
	function, instruction string
}

// objdumpFunction is one function of objdump -d output: its instructions
// in address order.
type objdumpFunction struct {
	name  string
	addrs []uint64
	text  []string
}

var (
	objdumpHeader = regexp.MustCompile(`^([0-9a-f]+) <(.*)>:$`)
	objdumpJump   = regexp.MustCompile(`^j[a-z]+\s+([0-9a-f]+)\b`)
)

// parseObjdump reads the functions of `objdump -d --no-show-raw-insn`
// whose names start with prefix.
func parseObjdump(out []byte, prefix string) []objdumpFunction {
	var fns []objdumpFunction
	var cur *objdumpFunction
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := objdumpHeader.FindStringSubmatch(line); m != nil {
			cur = nil
			if strings.HasPrefix(m[2], prefix) {
				fns = append(fns, objdumpFunction{name: m[2]})
				cur = &fns[len(fns)-1]
			}
			continue
		}
		if cur == nil {
			continue
		}
		addr, text, ok := strings.Cut(line, ":\t")
		if !ok {
			continue
		}
		a, err := strconv.ParseUint(strings.TrimSpace(addr), 16, 64)
		if err != nil {
			continue
		}
		cur.addrs = append(cur.addrs, a)
		cur.text = append(cur.text, strings.TrimSpace(text))
	}
	return fns
}

// legacySSEInVectorLoops returns the legacy-SSE instructions (an xmm
// operand, a mnemonic without the VEX/EVEX "v") that lie inside a loop of
// fn whose body also has a ymm or zmm operand and no VZEROUPPER. A loop is
// the range from a backward jump's target to the jump; the jump back to the
// function's first instruction (after growing the stack) is no loop.
func legacySSEInVectorLoops(fn objdumpFunction) []sseFinding {
	seen := make(map[int]bool)
	var out []sseFinding
	for i, text := range fn.text {
		m := objdumpJump.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		target, err := strconv.ParseUint(m[1], 16, 64)
		if err != nil || target > fn.addrs[i] || target == fn.addrs[0] {
			continue
		}
		start := i
		for start > 0 && fn.addrs[start-1] >= target {
			start--
		}
		body := fn.text[start : i+1]
		vector, cleared := false, false
		for _, t := range body {
			vector = vector || strings.Contains(t, "%ymm") || strings.Contains(t, "%zmm")
			cleared = cleared || strings.HasPrefix(t, "vzeroupper")
		}
		if !vector || cleared {
			continue
		}
		for k, t := range body {
			if strings.Contains(t, "%xmm") && !strings.HasPrefix(t, "v") && !seen[start+k] {
				seen[start+k] = true
				out = append(out, sseFinding{fn.name, t})
			}
		}
	}
	return out
}

// sseInLoopFixture is the mistake the check exists for (mulTAt before it
// was fixed): a vector zeroed from a float64 constant in every iteration
// of a loop around vector code, which Go compiles to a legacy-SSE XORPS.
//
//go:noinline
func sseInLoopFixture(pz, pw unsafe.Pointer, rows, n4 int) {
	for j := 0; j < n4; j += 4 {
		acc := bc(0)
		for r := range rows {
			acc = acc.Add(ldAt(pw, 4*r))
		}
		stAt(acc, pz, j)
	}
}

// testReferences are kernels of the package's tests, written plainly as
// references for the fast ones (preact32PerColumn: scalar conversions
// between its vector calls); they are outside the check.
var testReferences = map[string]bool{"preact32PerColumn": true}

// testFunction reports whether name (without its package) is a test's,
// benchmark's, example's or fuzz target's, or a closure of one.
func testFunction(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func TestNoLegacySSEInVectorLoops(t *testing.T) {
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		t.Skip("binutils' objdump is not installed (.ci/run installs it)")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build a binary with symbols")
	}
	// go test strips its binaries' symbols; go test -c keeps them.
	exe := filepath.Join(t.TempDir(), "lanes.test")
	build := exec.Command(gotool, "test", "-c", "-o", exe, ".")
	build.Env = append(os.Environ(), "GOEXPERIMENT=simd")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, msg)
	}
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", exe).Output()
	if err != nil {
		t.Fatalf("%s -d %s: %v", objdump, exe, err)
	}
	var z, w [8]float64
	sseInLoopFixture(unsafe.Pointer(&z), unsafe.Pointer(&w), 2, 8) // referenced, so linked into the binary
	const pkg = "github.com/ccn-go/ccn/internal/lanes."
	fns := parseObjdump(out, "github.com/ccn-go/ccn/")
	if len(fns) < 50 {
		t.Fatalf("objdump listed %d functions of the module; the parser reads nothing", len(fns))
	}
	fixtureFound := false
	for _, fn := range fns {
		short := strings.TrimPrefix(fn.name, pkg)
		findings := legacySSEInVectorLoops(fn)
		if short == "sseInLoopFixture" {
			fixtureFound = len(findings) > 0
			continue
		}
		if testReferences[short] || testFunction(short) {
			continue
		}
		for _, f := range findings {
			t.Errorf("%s: legacy-SSE %q inside a loop of vector code", f.function, f.instruction)
		}
	}
	if !fixtureFound {
		t.Error("the check missed the XORPS in sseInLoopFixture's loop: it would miss the mistake it is for")
	}
}

func TestLegacySSEInVectorLoopsTable(t *testing.T) {
	// Hand-written listings: addresses, then instructions.
	fn := func(lines ...string) objdumpFunction {
		var f objdumpFunction
		for i, l := range lines {
			f.addrs = append(f.addrs, uint64(0x100+4*i))
			f.text = append(f.text, l)
		}
		return f
	}
	for _, c := range []struct {
		name string
		fn   objdumpFunction
		want int
	}{
		{"sse in a vector loop", fn("xor %edx,%edx", "xorps %xmm0,%xmm0", "vaddpd %ymm1,%ymm0,%ymm0", "jg 104"), 1},
		{"sse before the loop", fn("subsd %xmm2,%xmm4", "vaddpd %ymm1,%ymm0,%ymm0", "jg 104"), 0},
		{"vzeroupper in the loop", fn("nop", "vaddpd %ymm1,%ymm0,%ymm0", "vzeroupper", "movsd %xmm0,(%rax)", "jg 104"), 0},
		{"scalar loop", fn("nop", "movsd (%rax),%xmm0", "mulsd %xmm1,%xmm0", "jg 104"), 0},
		{"jump back to the entry", fn("movups %xmm15,(%rsp)", "vaddpd %ymm1,%ymm0,%ymm0", "jmp 100"), 0},
		{"zmm loop", fn("nop", "vaddpd %zmm1,%zmm0,%zmm0", "movsd (%rax),%xmm0", "jne 104"), 1},
	} {
		c.fn.name = c.name
		if got := legacySSEInVectorLoops(c.fn); len(got) != c.want {
			t.Errorf("%s: %d findings %v, want %d", c.name, len(got), got, c.want)
		}
	}
	dump := fmt.Sprintf("%x <%s>:\n  %x:\tvaddpd %%ymm1,%%ymm0,%%ymm0\n  %x:\tjg     %x <x+0x4>\n%x <other>:\n  %x:\tnop\n",
		0x200, "github.com/ccn-go/ccn/internal/lanes.k", 0x200, 0x204, 0x200, 0x300, 0x300)
	fns := parseObjdump([]byte(dump), "github.com/ccn-go/ccn/")
	if len(fns) != 1 || len(fns[0].text) != 2 || fns[0].addrs[1] != 0x204 || fns[0].text[1] != "jg     200 <x+0x4>" {
		t.Errorf("parseObjdump = %+v", fns)
	}
}
