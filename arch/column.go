package arch

// ColumnParams is the number of parameters of one LSTM column reading m inputs:
//
//	4m + 8   (W_q: 4 vectors of m; u_q: 4 scalars; b_q: 4 scalars)
//
// Inside a column's block the layout is the Dense{Hidden: 1, Inputs: m} layout
// without w_out: W_q[k] at q·m+k, u_q at 4m+q, b_q at 4m+4+q.
func ColumnParams(m int) int { return 4*m + 8 }

// ColIdxW is the index of W_q[k] in a column block with m inputs.
func ColIdxW(m, q, k int) int { return q*m + k }

// ColIdxU is the index of the recurrent scalar u_q in a column block with m inputs.
func ColIdxU(m, q int) int { return 4*m + q }

// ColIdxB is the index of the bias b_q in a column block with m inputs.
func ColIdxB(m, q int) int { return 4*m + 4 + q }
