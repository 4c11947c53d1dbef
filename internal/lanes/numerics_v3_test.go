//go:build amd64.v3

package lanes

const amd64V3 = true
