// Package docs holds the project's documentation as Markdown files, one topic
// per page (architecture.md, cli.md, equations.md, formats.md, running-at-scale.md,
// results.md, verification.md, performance.md, atari.md, truncation-study.md,
// rtu.md, stages.md, extending.md, testing-tiers.md), beside the front page
// README.md and CONTRIBUTING.md at the
// repository root. It has no code.
//
// Its tests check the documents against the repository: every relative link
// and #anchor resolves; every Go identifier they name, written as
// `package.Name` or `package.Type.Member`, exists in the module's source;
// every backquoted repository path exists; every `make TARGET` and `ccn
// SUBCOMMAND` in their code exists; code quoted in extending.md is the
// source's; README.md stays a front page (at most 250 lines and 25 KB) whose
// test command is make test. They also check the repository's own metadata:
// LICENSE and CITATION.cff, that make test-slurm stops the cluster it starts,
// and that machine-dependent figures stay out of version control.
package docs
