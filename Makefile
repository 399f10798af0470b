# Thin wrapper over CMake. `make demo` and `make test` work on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
DEBS := cmake g++ make pkg-config ccache libsystemc-dev libboost-graph-dev libyaml-cpp-dev \
        nlohmann-json3-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev \
        libonnx-dev libonnx-testdata libprotobuf-dev libsqlite3-dev libopenmpi-dev openmpi-bin \
        llvm-14-tools pybind11-dev python3-dev

.PHONY: deps configure program build demo test validate bench clean fuzz sanitize tsan clang-deps configure-asan

deps:
	@missing=$$(for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done | tr '\n' ' '); \
	if [ -n "$$(echo $$missing | tr -d ' ')" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "polyarch needs: sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

# The program and its libraries only: the first run does not wait for the test programs.
program: configure
	cmake --build $(BUILD) -j $(JOBS) --target polyarch

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: program
	$(BUILD)/cli/polyarch run --arch configs/arch/tpu_v1_like.yaml \
	    --workload workloads/resnet50_layers.yaml --out out/demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Every validation case against its published or measured figure (tests/validation/<case>/):
# writes $(BUILD)/validation/results.csv and regenerates docs/validation.md. Not a pass/fail
# test of accuracy; it fails only when a case cannot run.
validate: program
	python3 tests/validation/run_validation.py --polyarch $(BUILD)/cli/polyarch \
	    --out $(BUILD)/validation --jobs $(JOBS)

bench: build
	for b in $(BUILD)/tests/bench/bench_*; do $$b; done

# Robustness (docs/building.md, "Robustness"). `sanitize` builds everything with clang under ASan + UBSan in
# build-asan and runs the whole test suite there; the libraries also carry libFuzzer's coverage
# instrumentation, so `fuzz` links its harnesses (tests/fuzz/) in the same build directory and
# runs each for FUZZ_SECONDS on a corpus kept in build-asan/corpus/, seeded from the shipped files
# (a crash stops it and leaves crash-* in the working directory). -O1 with line tables keeps
# stack traces exact at half the compile time of -O2 -g.
FUZZ_SECONDS ?= 60
FUZZERS := fuzz_arch_yaml fuzz_layer_list fuzz_scalesim_csv fuzz_onnx fuzz_sweep_yaml fuzz_npy
FUZZ_SEEDS_fuzz_arch_yaml := configs/arch tests/data/config_tree
FUZZ_SEEDS_fuzz_layer_list := workloads tests/data/layer_list tests/data/config_tree
FUZZ_SEEDS_fuzz_scalesim_csv := tests/data/scalesim tests/data/scalesim_csv workloads
FUZZ_SEEDS_fuzz_onnx := tests/data/onnx
FUZZ_SEEDS_fuzz_sweep_yaml := configs/sweeps
FUZZ_SEEDS_fuzz_npy := tests/data/npy
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitizers/lsan.supp \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/tests/sanitizers/tsan.supp
CLANG_DEBS := clang libclang-rt-14-dev
SANITIZER_CMAKE := -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only"

clang-deps: deps
	@$(MAKE) --no-print-directory deps DEBS="$(CLANG_DEBS)"

configure-asan: clang-deps
	CC=clang CXX=clang++ cmake -S . -B build-asan $(SANITIZER_CMAKE) -DPOLYARCH_SANITIZE=address \
	    -DPOLYARCH_FUZZ=ON

# The whole test suite under ASan + UBSan, less the report-identity runs (every shipped arch x
# workload through the program: minutes of simulation that the release suite already checks
# and that exercise no code the other tests do not). Without LeakSanitizer: its scan at exit
# reads the stacks of SystemC's coroutines, which SystemC allocates on the heap with a guard page
# it protects (mprotect), and on this project's machines the scan faults there ("Tracer caught
# signal 11") in about half the processes that simulated, depending on the address layout.
# The fuzz harnesses, which simulate nothing, keep leak detection.
SANITIZE_TEST_ENV := $(SANITIZER_ENV) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
sanitize: configure-asan
	cmake --build build-asan -j $(JOBS)
	cd build-asan && $(SANITIZE_TEST_ENV) ctest --output-on-failure -j $(JOBS) -E ReportIdentity

fuzz: configure-asan
	cmake --build build-asan -j $(JOBS) --target $(FUZZERS)
	$(foreach f,$(FUZZERS),mkdir -p build-asan/corpus/$(f) && $(SANITIZER_ENV) \
	    build-asan/tests/fuzz/$(f) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
	    -print_final_stats=1 build-asan/corpus/$(f) $(FUZZ_SEEDS_$(f)) &&) true

# TSan for the sweep runner: its spec, database, worker pool (forked workers, pipes, signals),
# the sweep/merge/export CLI and MPI ranks, i.e. every test named Sweep* or WorkerPool*.
tsan: clang-deps
	CC=clang CXX=clang++ cmake -S . -B build-tsan $(SANITIZER_CMAKE) -DPOLYARCH_SANITIZE=thread
	cmake --build build-tsan -j $(JOBS) --target polyarch test_cli test_sweep
	cd build-tsan && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) -R 'Sweep|WorkerPool'


clean:
	rm -rf $(BUILD) out
