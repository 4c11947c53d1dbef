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
	"sort"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The check of the compiled kernels that doc.go asks for: no legacy-SSE
// instruction may run while the vector registers' upper halves are in use.
// Go encodes float64 scalars, their spills and reloads, the zeroing of a
// vector from a float64 constant (bc(0): XORPS) and of stack memory (MOVUPS
// X15) with legacy SSE; on an Intel Xeon each such instruction run with the
// upper halves in use cost about a hundred cycles (docs/performance.md,
// "Intel"). The test disassembles a binary with binutils' objdump (Go's
// objdump does not decode VEX or EVEX) and follows each function's control
// flow from its entry (upper halves clear): a 256- or 512-bit instruction
// sets them, VZEROUPPER clears them, and a call sets them when its callee
// can return with them set.

// sseFinding is one legacy-SSE instruction that can run with the upper
// halves in use.
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
	objdumpJump   = regexp.MustCompile(`^(j[a-z]+)\s+([0-9a-f]+)\b`)
	objdumpCall   = regexp.MustCompile(`^call\s+[0-9a-f]+ <([^>+]*)>`)
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

func wideVector(ins string) bool {
	return strings.Contains(ins, "%ymm") || strings.Contains(ins, "%zmm")
}

func legacySSE(ins string) bool { return strings.Contains(ins, "%xmm") && !strings.HasPrefix(ins, "v") }

// upperFlow follows fn's control flow from its entry with the upper halves
// clear and returns the legacy-SSE instructions reached with them in use,
// and whether a return can be reached with them in use. dirtyCallee says
// whether a called function can return with them in use.
func upperFlow(fn objdumpFunction, dirtyCallee func(name string) bool) (findings []sseFinding, returnsDirty bool) {
	n := len(fn.text)
	if n == 0 {
		return nil, false
	}
	index := make(map[uint64]int, n)
	for i, a := range fn.addrs {
		index[a] = i
	}
	// after is the state after instruction i given the state before it.
	after := func(i int, dirty bool) bool {
		t := fn.text[i]
		switch {
		case strings.HasPrefix(t, "vzeroupper"):
			return false
		case wideVector(t):
			return true
		}
		if m := objdumpCall.FindStringSubmatch(t); m != nil {
			return dirtyCallee(m[1])
		}
		return dirty
	}
	successors := func(i int) []int {
		t := fn.text[i]
		if strings.HasPrefix(t, "ret") || strings.HasPrefix(t, "int3") || strings.HasPrefix(t, "ud2") {
			return nil
		}
		if m := objdumpJump.FindStringSubmatch(t); m != nil {
			var s []int
			if target, err := strconv.ParseUint(m[2], 16, 64); err == nil {
				if k, ok := index[target]; ok {
					s = append(s, k)
				}
			}
			if m[1] != "jmp" && i+1 < n {
				s = append(s, i+1)
			}
			return s
		}
		if strings.HasPrefix(t, "jmp") { // indirect or out of the function
			return nil
		}
		if i+1 < n {
			return []int{i + 1}
		}
		return nil
	}
	reached, dirtyIn := make([]bool, n), make([]bool, n)
	reached[0] = true
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		out := after(i, dirtyIn[i])
		for _, s := range successors(i) {
			if !reached[s] || (out && !dirtyIn[s]) {
				reached[s], dirtyIn[s] = true, dirtyIn[s] || out
				work = append(work, s)
			}
		}
	}
	for i, t := range fn.text {
		if !reached[i] || !dirtyIn[i] {
			continue
		}
		if legacySSE(t) {
			findings = append(findings, sseFinding{fn.name, t})
		}
		if strings.HasPrefix(t, "ret") {
			returnsDirty = true
		}
	}
	return findings, returnsDirty
}

// upperFindings runs upperFlow over every function, the callees' states
// settled first (iterated until no function changes).
func upperFindings(fns []objdumpFunction) map[string][]sseFinding {
	dirty := make(map[string]bool)
	callee := func(name string) bool { return dirty[name] }
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			if _, d := upperFlow(fn, callee); d && !dirty[fn.name] {
				dirty[fn.name], changed = true, true
			}
		}
	}
	out := make(map[string][]sseFinding)
	for _, fn := range fns {
		if f, _ := upperFlow(fn, callee); len(f) > 0 {
			out[fn.name] = f
		}
	}
	return out
}

// sseInLoopFixture is the first mistake the check found (mulTAt): a vector
// zeroed from a float64 constant in every iteration of a loop around vector
// code, which Go compiles to a legacy-SSE XORPS.
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

// dirtyReturnFixture returns with the upper halves in use, as every lane
// kernel did (normalizeAt, rmspropAt, ...); reloadAfterCallFixture then
// reloads its float64 argument after the call with a legacy-SSE move, as
// their callers did.
//
//go:noinline
func dirtyReturnFixture(p unsafe.Pointer) { stAt(ldAt(p, 0).Add(ldAt(p, 4)), p, 0) }

//go:noinline
func reloadAfterCallFixture(p unsafe.Pointer, x float64) float64 {
	dirtyReturnFixture(p)
	return x * x
}

var fixtures = map[string]bool{"sseInLoopFixture": true, "dirtyReturnFixture": true, "reloadAfterCallFixture": true}

// vector128 are float32 kernels with 128-bit vectors (Float32x4), which Go
// zeroes, moves and spills with legacy-SSE MOVUPS, and the functions they
// are inlined into in bin/ccn: a matter of the compiler's code generation,
// outside the check. testReferences are kernels of the package's tests,
// plain references for the fast ones.
var (
	vector128 = map[string]bool{"Dot4x32": true, "dot4x32Quads": true, "lstmBackward32H4": true, "outer32Set16x4": true,
		"LSTMBackward32": true, "backward.(*TBPTTOf[go.shape.float32]).Step": true}
	testReferences = map[string]bool{"preact32PerColumn": true}
)

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

// TestNoLegacySSEWithUpperHalvesInUse checks the package's test binary
// (built without the PGO profile) or, with LANES_CHECK_BINARY set, that
// binary (make check-machine-code: bin/ccn as built).
func TestNoLegacySSEWithUpperHalvesInUse(t *testing.T) {
	objdump, err := exec.LookPath("objdump")
	if err != nil {
		t.Skip("binutils' objdump is not installed (.ci/run installs it)")
	}
	exe := os.Getenv("LANES_CHECK_BINARY")
	if exe == "" {
		gotool, err := exec.LookPath("go")
		if err != nil {
			t.Skip("no go command to build a binary with symbols")
		}
		// go test strips its binaries' symbols; go test -c keeps them.
		exe = filepath.Join(t.TempDir(), "lanes.test")
		build := exec.Command(gotool, "test", "-c", "-o", exe, ".")
		build.Env = append(os.Environ(), "GOEXPERIMENT=simd")
		if msg, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go test -c: %v\n%s", err, msg)
		}
	}
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", exe).Output()
	if err != nil {
		t.Fatalf("%s -d %s: %v", objdump, exe, err)
	}
	var z, w [8]float64
	sseInLoopFixture(unsafe.Pointer(&z), unsafe.Pointer(&w), 2, 8) // referenced, so linked into the binary
	reloadAfterCallFixture(unsafe.Pointer(&z), 2)
	const pkg = "github.com/ccn-go/ccn/internal/lanes."
	fns := parseObjdump(out, "github.com/ccn-go/ccn/")
	if len(fns) < 50 {
		t.Fatalf("objdump listed %d functions of the module; the parser reads nothing", len(fns))
	}
	findings := upperFindings(fns)
	var names []string
	for name := range findings {
		names = append(names, name)
	}
	sort.Strings(names)
	caught := map[string]bool{}
	for _, name := range names {
		short := strings.TrimPrefix(name, pkg)
		if i := strings.LastIndex(short, "/"); i >= 0 { // another package: forward.(*NetworkOf[...]).Step
			short = short[i+1:]
		}
		switch {
		case fixtures[short]:
			caught[short] = true
			continue
		case vector128[short] || testReferences[short] || testFunction(short):
			continue
		}
		for _, f := range findings[name] {
			t.Errorf("%s: legacy-SSE %q can run with the vector registers' upper halves in use", f.function, f.instruction)
		}
	}
	if os.Getenv("LANES_CHECK_BINARY") == "" {
		for _, f := range []string{"sseInLoopFixture", "reloadAfterCallFixture"} {
			if !caught[f] {
				t.Errorf("the check missed the legacy-SSE instruction of %s: it would miss the mistake it is for", f)
			}
		}
		if caught["dirtyReturnFixture"] {
			t.Error("the check flagged dirtyReturnFixture, which has no legacy-SSE instruction")
		}
	}
}

func TestUpperFlowTable(t *testing.T) {
	// Hand-written listings: addresses 0x100, 0x104, ...
	fn := func(lines ...string) objdumpFunction {
		var f objdumpFunction
		for i, l := range lines {
			f.addrs = append(f.addrs, uint64(0x100+4*i))
			f.text = append(f.text, l)
		}
		return f
	}
	noCallee := func(string) bool { return false }
	dirtyCallee := func(name string) bool { return name == "dirty" }
	for _, c := range []struct {
		name       string
		fn         objdumpFunction
		callee     func(string) bool
		want       int
		wantReturn bool
	}{
		{"sse in a vector loop", fn("xor %edx,%edx", "xorps %xmm0,%xmm0", "vaddpd %ymm1,%ymm0,%ymm0", "jg 104", "ret"), noCallee, 1, true},
		{"sse before the vector code", fn("subsd %xmm2,%xmm4", "vaddpd %ymm1,%ymm0,%ymm0", "vzeroupper", "ret"), noCallee, 0, false},
		{"sse after vzeroupper", fn("vaddpd %ymm1,%ymm0,%ymm0", "vzeroupper", "movsd %xmm0,(%rax)", "ret"), noCallee, 0, false},
		{"sse after the vector code", fn("vaddpd %ymm1,%ymm0,%ymm0", "movsd %xmm0,(%rax)", "ret"), noCallee, 1, true},
		{"scalar code only", fn("movsd (%rax),%xmm0", "mulsd %xmm1,%xmm0", "jg 100", "ret"), noCallee, 0, false},
		{"zmm", fn("vaddpd %zmm1,%zmm0,%zmm0", "movsd (%rax),%xmm0", "ret"), noCallee, 1, true},
		{"a branch around the vector code", fn("je 10c", "vaddpd %ymm1,%ymm0,%ymm0", "vzeroupper", "movsd (%rax),%xmm0", "ret"), noCallee, 0, false},
		{"a jump past vzeroupper", fn("vaddpd %ymm1,%ymm0,%ymm0", "jne 10c", "vzeroupper", "movsd (%rax),%xmm0", "ret"), noCallee, 1, true},
		{"after a dirty callee", fn("call 200 <dirty>", "movsd 0x8(%rsp),%xmm0", "ret"), dirtyCallee, 1, true},
		{"after a clean callee", fn("call 200 <clean>", "movsd 0x8(%rsp),%xmm0", "ret"), dirtyCallee, 0, false},
	} {
		c.fn.name = c.name
		got, ret := upperFlow(c.fn, c.callee)
		if len(got) != c.want || ret != c.wantReturn {
			t.Errorf("%s: %d findings %v, returns dirty %v; want %d, %v", c.name, len(got), got, ret, c.want, c.wantReturn)
		}
	}
	dump := fmt.Sprintf("%x <%s>:\n  %x:\tvaddpd %%ymm1,%%ymm0,%%ymm0\n  %x:\tjg     %x <x+0x4>\n%x <other>:\n  %x:\tnop\n",
		0x200, "github.com/ccn-go/ccn/internal/lanes.k", 0x200, 0x204, 0x200, 0x300, 0x300)
	fns := parseObjdump([]byte(dump), "github.com/ccn-go/ccn/")
	if len(fns) != 1 || len(fns[0].text) != 2 || fns[0].addrs[1] != 0x204 || fns[0].text[1] != "jg     200 <x+0x4>" {
		t.Errorf("parseObjdump = %+v", fns)
	}
	// Through calls: a callee that returns dirty makes its caller's reload a finding.
	two := []objdumpFunction{
		{name: "dirty", addrs: []uint64{0x200, 0x204}, text: []string{"vaddpd %ymm1,%ymm0,%ymm0", "ret"}},
		{name: "caller", addrs: []uint64{0x300, 0x304, 0x308}, text: []string{"call 200 <dirty>", "movsd 0x8(%rsp),%xmm0", "ret"}},
	}
	if got := upperFindings(two); len(got["caller"]) != 1 || len(got["dirty"]) != 0 {
		t.Errorf("upperFindings = %v, want one finding in caller", got)
	}
}
