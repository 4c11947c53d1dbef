package opcount

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// largest returns the largest n ≥ 1 with cost(n) ≤ budget, or 0 when even
// n = 1 is too costly; cost must be increasing in n.
func largest(budget int, cost func(n int) int) int {
	if cost(1) > budget {
		return 0
	}
	lo, hi := 1, 2 // cost(lo) ≤ budget
	for cost(hi) <= budget {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if cost(mid) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func checkBudget(budget int) {
	if budget < 0 {
		panic(fmt.Sprintf("opcount: negative budget %d", budget))
	}
}

// LargestTBPTT returns the largest hidden size h ≥ 1 whose T-BPTT cost with
// truncation k is at most budget, or 0 if none fits.
func LargestTBPTT(budget, inputs, truncation int) int {
	checkBudget(budget)
	return largest(budget, func(h int) int { return TBPTT(h, inputs, truncation) })
}

// NearestTBPTT returns the hidden size h ≥ 1 whose T-BPTT cost with
// truncation k is closest to budget (the smaller on a tie), which may exceed
// the budget; 1 when even one unit costs more than budget.
func NearestTBPTT(budget, inputs, truncation int) int {
	checkBudget(budget)
	h := max(LargestTBPTT(budget, inputs, truncation), 1)
	below := budget - TBPTT(h, inputs, truncation)
	above := TBPTT(h+1, inputs, truncation) - budget
	if below >= 0 && above < below {
		return h + 1
	}
	return h
}

// LargestColumnar returns the largest number of columns a Columnar network
// can afford within budget, or 0.
func LargestColumnar(budget, inputs int) int {
	checkBudget(budget)
	return largest(budget, func(h int) int { return Columnar(h, inputs) })
}

// LargestCCN returns the largest feature count, a whole number of stages of
// perStage features, that a CCN learning perStage features at a time can
// afford within budget, or 0. (With budget 4000, 12 inputs and 4 per stage
// this is the paper's 16; 19 features would fit if a last stage could be
// partial.)
func LargestCCN(budget, inputs, perStage int) int {
	checkBudget(budget)
	stages := largest(budget, func(s int) int { return CCN(s*perStage, inputs, perStage) })
	return stages * perStage
}

// LargestRTU returns the largest number of trace units an RTU layer can
// afford within budget (RTU's count), or 0.
func LargestRTU(budget, inputs int) int {
	checkBudget(budget)
	return largest(budget, func(n int) int { return RTU(n, inputs) })
}

// LargestConstructive returns the largest feature count a Constructive
// network can afford within budget, or 0.
func LargestConstructive(budget, inputs int) int { return LargestCCN(budget, inputs, 1) }

// Matched returns the compute-matched configurations for budget and input
// size: for every method of the registry of methods that the paper's compute
// model counts (arch.MethodInfo.PaperOps), in the registry's order, the
// largest size within budget (its first size: hidden units, trace units or
// features), for each of truncations if it takes a truncation (T-BPTT) and
// for each of perStages, in whole stages, if it takes features per stage
// (CCN). Configurations that cannot afford a single feature are left out.
func Matched(budget, inputs int, truncations, perStages []int) []Config {
	checkBudget(budget)
	var out []Config
	for _, m := range arch.Methods() {
		info, _ := arch.Info(m)
		if info.PaperOps == nil {
			continue
		}
		ks, us := []int{0}, []int{0}
		if info.Takes(arch.SizeTruncation) {
			ks = truncations
		}
		if info.Takes(arch.SizePerStage) {
			us = perStages
		}
		for _, k := range ks {
			for _, u := range us {
				c := Config{Method: m, Inputs: inputs, Truncation: k, PerStage: u}
				step := max(u, 1) // a whole number of stages
				n := largest(budget, func(n int) int {
					c.Features = n * step
					ops, ok := info.PaperOps(c.Spec())
					if !ok {
						panic(fmt.Sprintf("opcount: %s is out of range of the paper's compute model", c))
					}
					return ops
				})
				if c.Features = n * step; c.Features > 0 {
					out = append(out, c)
				}
			}
		}
	}
	return out
}
