# Thin wrapper over CMake. `make demo` and `make test` work on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
DEBS := cmake g++ make pkg-config ccache libsystemc-dev libboost-graph-dev libyaml-cpp-dev \
        nlohmann-json3-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev \
        libonnx-dev libprotobuf-dev libsqlite3-dev

.PHONY: deps configure build demo test bench clean

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

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/cli/polyarch run --arch configs/arch/tpu_v1_like.yaml \
	    --workload workloads/resnet50_layers.yaml --out out/demo

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	for b in $(BUILD)/tests/bench/bench_*; do $$b; done

clean:
	rm -rf $(BUILD) out
