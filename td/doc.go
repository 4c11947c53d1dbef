// Package td learns any gradient engine online with TD(λ), paper Algorithm 1
// (Appendix A.2): a learner v (an arch.Engine) predicts the discounted return
// of a stream, and after every step
//
//	y = v(x_0); z = 0
//	loop: observe x', cumulant c
//	      y' = v(x')
//	      δ  = c + γ·y' − y
//	      z  = γλ·z + ∇v(x)
//	      θ  = θ + Optimizer(α, δ·z)
//	      y  = y'
//
// Agent is the TD(λ) agent; the update direction δ·z goes through an Optimizer: Adam
// with β1 = 0 (paper Table 1) or RMSProp as the authors' code runs it. A
// Layout tells the optimizer where the learner's head lies; a Staged learner
// (a growing network, paper §3.2) changes its layout at a stage change, and
// the agent moves its trace and the optimizer's state with it. LearnFrozen
// lets a FrozenLearner's frozen parameters keep learning too, with their own
// trace and optimizer (frozen features that learn slowly, the paper's §6).
//
// The package knows nothing of environments, run settings or files: package
// experiments builds the learner and the optimizer from a run's settings and
// drives the agent.
package td
