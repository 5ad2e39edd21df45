# Thin wrapper over CMake. `make demo` and `make test` set up a fresh Debian
# machine (as root: missing packages are installed with apt-get), build cucc
# and its runtime, then run a sample or the whole test suite.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PKGS = libclang-19-dev cmake gcc g++ make binutils

.PHONY: all deps configure build demo test sanitize clean

all: build

deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "cucc: please install:$$missing (as root: apt-get install$$missing)"; exit 1; fi; \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: configure
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	$(BUILD)/cucc samples/vector_add.cu -o $(BUILD)/vector_add
	$(BUILD)/vector_add

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# ASan+UBSan build of the compiler and the runtime, with the whole suite.
# LeakSanitizer is off: libclang keeps its allocations until exit by design.
sanitize: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCUCC_SANITIZE=ON >/dev/null
	cmake --build build-asan -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build-asan --output-on-failure -j$(JOBS)

clean:
	rm -rf $(BUILD) build-asan
