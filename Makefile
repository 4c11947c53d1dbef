# Columnar-Constructive Networks in Go. `make help` lists the targets.
GO      ?= go
BIN     := bin/ccn
SCALE   ?= quick

.PHONY: help build test verify bench test-learning clean

help:
	@echo "make build          build bin/ccn"
	@echo "make test           go vet + every unit test and the gradient comparison suite (short mode)"
	@echo "make verify         ccn verify: every engine against the Gorgonia reference, as a table"
	@echo "make bench          benchmarks of every hot path (ns/step, allocations)"
	@echo "make test-learning  the long learning check (millions of trace-patterning steps per method)"

build:
	$(GO) build -o $(BIN) ./cmd/ccn

test:
	$(GO) vet ./...
	$(GO) test -short -timeout 20m ./...

verify: build
	./$(BIN) verify

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

test-learning:
	$(GO) test -run 'TestLearns' -timeout 60m -v ./experiments/

clean:
	rm -rf bin
