// Package docs holds the project's documentation as Markdown files:
// equations.md (each equation of the paper and the code that implements it)
// and formats.md (every file the project reads or writes). It has no code.
// Its tests check that every Go identifier the documents name, written as
// `package.Name` or `package.Type.Member`, exists in the module's source, and
// the repository's own metadata: LICENSE and CITATION.cff, that make
// test-slurm stops the cluster it starts, and that machine-dependent figures
// stay out of version control.
package docs
