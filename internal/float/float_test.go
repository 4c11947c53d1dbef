package float

import "testing"

func TestViews(t *testing.T) {
	a := []float32{1, 2, 3}
	if !Is32[float32]() || Is32[float64]() {
		t.Fatal("Is32 wrong")
	}
	v := F32(a)
	v[1] = 7
	if a[1] != 7 || len(v) != 3 {
		t.Fatalf("F32 is not a view: %v", a)
	}
	b := []float64{1, 2}
	w := F64(b)
	w[0] = 5
	if b[0] != 5 || len(w) != 2 {
		t.Fatalf("F64 is not a view: %v", b)
	}
	for name, f := range map[string]func(){"F32": func() { F32(b) }, "F64": func() { F64(a) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of the wrong type did not panic", name)
				}
			}()
			f()
		}()
	}
	if n := testing.AllocsPerRun(100, func() { _ = F32(a); _ = F64(b) }); n != 0 {
		t.Errorf("views allocate %v times", n)
	}
}
