package forward

import "github.com/ccn-go/ccn/arch"

// The engines of this package are arch.Engines (the float32 network an
// arch.EngineOf[float32]). For a Column the prediction is h_t itself.
var (
	_ arch.Engine = (*Column)(nil)
	_ arch.Engine = (*DenseRTRL)(nil)
	_ arch.Engine = (*Network)(nil)
	_ arch.Engine = (*SnAp1)(nil)
	_ arch.Engine = (*UORO)(nil)

	_ arch.EngineOf[float32] = (*NetworkOf[float32])(nil) // the float32 engine
)
