# Columnar-Constructive Networks in Go. `make help` lists the targets.
GO      ?= go
BIN     := bin/ccn
SCALE   ?= quick
# The engines' hot loops run four float64 lanes per instruction when built
# with Go's SIMD experiment on amd64 (internal/lanes); other builds run the
# scalar reference loops. Binaries, benchmarks and the learning check use the
# lanes; `make test` checks the scalar build and `make test-simd` the lane one.
SIMD    := GOEXPERIMENT=simd

.PHONY: help build pgo test test-full test-race staticcheck cross test-simd check-machine-code test-long verify bench test-learning clean plots

help:
	@echo "make build          build bin/ccn (with the CPU profile cmd/ccn/default.pgo)"
	@echo "make pgo            profile ccn run on the timed configurations into cmd/ccn/default.pgo (about a minute)"
	@echo "make test           go vet + the short tier: every package, every engine against the reference (minutes), scalar build"
	@echo "make test-full      go vet + the full tier: every test at full size, sweeps end to end (no learning check), scalar build"
	@echo "make test-race      the short tier under the race detector, scalar build"
	@echo "make staticcheck    staticcheck ./... in the scalar and the GOEXPERIMENT=simd build"
	@echo "make cross          go vet ./... (tests included) for windows/amd64, darwin/arm64 and linux/arm64: the scalar build elsewhere"
	@echo "make test-simd      the short tier in the GOEXPERIMENT=simd build (lane kernels, lane-against-scalar twins)"
	@echo "make check-machine-code  bin/ccn as built (PGO): no legacy-SSE instruction run with vector upper halves in use (objdump)"
	@echo "make test-long      the reference on long trajectories unrolled into single graphs (minutes)"
	@echo "make verify         ccn verify: every engine against the Gorgonia reference, as a table"
	@echo "make bench          benchmarks of every hot path (ns/step, allocations)"
	@echo "make test-learning  the long learning check (millions of trace-patterning steps per method)"
	@echo "make plots          verify, run or resume every study at SCALE (quick; smoke, medium, paper), render figures/SCALE"
	@echo "make sweep-smoke    every study of experiments/configs at the smoke scale (local pool), then ccn collect"
	@echo "make test-slurm     start a single-node Slurm (root; scripts/slurm-up.sh) and test a sweep through it"

build:
	$(SIMD) $(GO) build -buildvcs=auto -o $(BIN) ./cmd/ccn

# The profile of the profile-guided build (docs/performance.md). go build
# applies cmd/ccn/default.pgo by default; this makes it again.
pgo:
	scripts/pgo-profile.sh

# go test -json through internal/testreport: the usual one line per package,
# failures in full, every skipped test with its reason (a missing tool), and
# the number of tests left to the full tier. The tiers (docs/testing-tiers.md):
# make test is the short tier (go test -short), make test-full every test but
# the learning check (make test-learning), CI runs both.
test:
	$(GO) vet ./...
	$(GO) test -short -timeout 20m -json ./... | $(GO) run ./internal/testreport

test-full:
	$(GO) vet ./...
	$(GO) test -skip '^TestLearnsTracePatterning$$' -timeout 60m -json ./... | $(GO) run ./internal/testreport

test-race:
	$(GO) test -race -short -timeout 40m -json ./... | $(GO) run ./internal/testreport

# staticcheck (honnef.co/go/tools; .ci/run installs the version it pins) over
# both builds: the lane files are compiled only with GOEXPERIMENT=simd.
STATICCHECK ?= staticcheck
staticcheck:
	$(STATICCHECK) ./...
	$(SIMD) $(STATICCHECK) ./...

# A plain go build works on every platform Go supports: the code and its
# tests compile and pass vet where this machine cannot run them.
cross:
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=linux GOARCH=arm64 $(GO) vet ./...

test-long:
	$(GO) test -run 'TestLongUnrolledGraphs' -timeout 30m -v ./reference/

test-simd:
	$(SIMD) $(GO) vet ./...
	$(SIMD) $(GO) test -short -timeout 20m -json ./... | $(SIMD) $(GO) run ./internal/testreport

# test-simd checks the lane package's test binary; this checks the binary the
# runs use, whose profile-guided inlining differs (internal/lanes/doc.go).
check-machine-code: build
	LANES_CHECK_BINARY=$(CURDIR)/$(BIN) $(SIMD) $(GO) test -count=1 -run 'TestNoLegacySSEWithUpperHalvesInUse$$' ./internal/lanes

verify: build
	./$(BIN) verify

bench:
	$(SIMD) $(GO) test -run '^$$' -bench . -benchmem ./...

test-learning:
	$(SIMD) $(GO) test -run 'TestLearns' -timeout 60m -v ./experiments/

clean:
	rm -rf bin

# make plots: the paper's figures from one command. Gradients are verified
# first, then every study of experiments/configs is run (or resumed: complete
# runs are never recomputed) at SCALE into results/SCALE, the T-BPTT truncation
# study into results/SCALE/truncation (skipped when its CSVs exist in the
# current format; delete the directory to redo it), and the figures are drawn
# into figures/SCALE, so that no scale overwrites another's figures.
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
STUDIES := $(sort $(wildcard experiments/configs/*.yaml))
RESULTS ?= results/$(SCALE)
FIGURES ?= figures/$(SCALE)
VERIFY_FLAGS_smoke     := --trajectories 1 --length 40 --network-length 10
# The truncation study at paper scale takes ccn truncation's defaults (10 seeds ×
# 40 windows per H, 20 UORO draws per window, 200 ms cost and 50 ms estimator
# timings); quick and smoke shrink it.
TRUNCATION_FLAGS_quick := --quick
TRUNCATION_FLAGS_smoke := --quick --seeds 2 --points 5 --draws 5 --cost-ms 10

# A file without the scale (the trace-patterning files have no medium scale,
# the Atari files' own) is skipped with a line saying so; the truncation
# study, of trace patterning, is skipped at the scales of TRUNCATION_SKIP.
TRUNCATION_SKIP := medium
HAS_SCALE = awk -v s="$(SCALE)" '/^scales:/ { on = 1; next } on && /^[^ \#]/ { on = 0 } on && $$0 ~ "^  " s ":" { found = 1 } END { exit !found }'

plots: build
	./$(BIN) verify $(VERIFY_FLAGS_$(SCALE))
	@n=0; for f in $(STUDIES); do \
		if ! $(HAS_SCALE) $$f; then echo "skipped $$f: it has no scale $(SCALE)"; continue; fi; \
		n=$$((n + 1)); \
		echo "./$(BIN) sweep $$f --scale $(SCALE) --out $(RESULTS) -j $(JOBS)"; \
		./$(BIN) sweep $$f --scale $(SCALE) --out $(RESULTS) -j $(JOBS) || exit $$?; \
	done; \
	if [ $$n -eq 0 ]; then echo "make plots: no file of experiments/configs has the scale $(SCALE)" >&2; exit 2; fi
	@if [ -n "$(filter $(SCALE),$(TRUNCATION_SKIP))" ]; then \
		echo "truncation study: skipped at scale $(SCALE) (a trace-patterning study; scales quick, smoke and the paper's)"; \
	elif head -1 $(RESULTS)/truncation/gradient_bias.csv 2>/dev/null | grep -q '^method,' && [ -f $(RESULTS)/truncation/cost.csv ]; then \
		echo "truncation study: found in $(RESULTS)/truncation"; \
	else \
		echo "./$(BIN) truncation --out $(RESULTS)/truncation $(TRUNCATION_FLAGS_$(SCALE))"; \
		./$(BIN) truncation --out $(RESULTS)/truncation $(TRUNCATION_FLAGS_$(SCALE)) || exit $$?; \
	fi
	./$(BIN) plot --results $(RESULTS) --scale $(SCALE) --out $(FIGURES)

# Sweeps (package sweep, ccn sweep / ccn collect; docs/running-at-scale.md).
# make sweep-smoke: every study at the smoke scale with the local pool, then the
# tables (results/smoke/selection.csv ...). make test-slurm: starts a
# single-node Slurm from Debian's packages (scripts/slurm-up.sh, as root) and
# runs a smoke sweep through it as job arrays, checked against the local pool.
.PHONY: sweep-smoke test-slurm

sweep-smoke: build
	@for f in $(STUDIES); do \
		echo "./$(BIN) sweep $$f --scale smoke --out results/smoke -j $(JOBS)"; \
		./$(BIN) sweep $$f --scale smoke --out results/smoke -j $(JOBS) || exit $$?; \
	done
	./$(BIN) collect results/smoke

# The cluster started for the test is stopped when the test ends, pass or
# fail (or interrupted): one shell with a trap. SLURM_UP and SLURM_DOWN are
# variables so that a test can check the trap without a cluster.
SLURM_UP   ?= scripts/slurm-up.sh
SLURM_DOWN ?= scripts/slurm-down.sh
test-slurm:
	trap '$(SLURM_DOWN)' EXIT; trap 'exit 130' INT TERM; \
	$(SLURM_UP) && \
	$(GO) test -tags slurm -count=1 -run 'TestSlurmArray' -timeout 15m -v ./cmd/ccn/
