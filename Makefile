# Thin wrapper over CMake. `make demo` and `make test` set up a fresh Debian
# machine (as root: missing packages are installed with apt-get), build cucc
# and its runtime, then run a sample or the whole test suite.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# (libthrust-dev, libcu++-dev: the CUDA libraries cucc provides, Thrust and
# libcu++, whose headers it uses unmodified: docs/compatibility.md)
PKGS = libclang-19-dev cmake gcc g++ make binutils libthrust-dev libcu++-dev
# The aarch64 cross runtime, and every sample built for aarch64 and run under
# qemu: AUTO when its packages are installed, ON to install and require them
# (CI), OFF never.
CROSS_AARCH64 ?= AUTO
CROSS_PKGS = gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-arm64-cross qemu-user
ifeq ($(CROSS_AARCH64),ON)
PKGS += $(CROSS_PKGS)
endif
# The MPI tests (tests/mpi: cucc -ccbin mpicxx, run under mpirun with 1, 2
# and 4 ranks): AUTO when Open MPI is installed, ON to install and require
# it (CI), OFF never.
MPI ?= AUTO
MPI_PKGS = libopenmpi-dev openmpi-bin
ifeq ($(MPI),ON)
PKGS += $(MPI_PKGS)
endif
CMAKE_ARGS = -DCUCC_CROSS_AARCH64=$(CROSS_AARCH64) -DCUCC_MPI=$(MPI)

.PHONY: all deps deps-clang configure build demo test test-clang sanitize bench compat clean

all: build

# $(call apt,packages): install those that are missing. A fresh image may
# hold a dpkg run that was interrupted (apt-get then refuses to install
# anything): finish it first.
define apt
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "cucc: please install:$$missing (as root: apt-get install$$missing)"; exit 1; fi; \
	  echo "installing:$$missing"; \
	  DEBIAN_FRONTEND=noninteractive dpkg --configure -a; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt,$(PKGS))

# (libomp-dev: clang's OpenMP, for the host code of tests/buildsys/openmp.cu)
deps-clang:
	$(call apt,$(PKGS) clang libomp-dev)

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS) >/dev/null

build: configure
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	$(BUILD)/cucc samples/vector_add.cu -o $(BUILD)/vector_add
	$(BUILD)/vector_add

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# The whole suite with clang (Debian 12: clang 14): cucc and its runtime
# built by clang, and clang/clang++ the host compilers of every program cucc
# builds ($CC and $CXX, as a user sets them). Its runtime switches barrier
# coroutines the portable way (ucontext, _setjmp/_longjmp) instead of
# sm.c's assembly, so that fallback runs the whole suite too.
test-clang: deps-clang
	cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_FLAGS=-DCUCC_PORTABLE_SWITCH $(CMAKE_ARGS) >/dev/null
	cmake --build build-clang -j$(JOBS)
	CC=clang CXX=clang++ ctest --test-dir build-clang --output-on-failure -j$(JOBS)

# ASan+UBSan build of the compiler and the runtime, with the whole suite.
# LeakSanitizer is off: libclang keeps its allocations until exit by design.
sanitize: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCUCC_SANITIZE=ON $(CMAKE_ARGS) >/dev/null
	cmake --build build-asan -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build-asan --output-on-failure -j$(JOBS)

# The survey of NVIDIA's cuda-samples (tests/compat/samples; issue 22): every
# program of a checkout that needs no NVIDIA library or graphics, built and
# run; prints docs/compatibility.md's table. Not a test: the samples are not
# ours, and CI has no copy. CUDA_SAMPLES=<checkout>; logs in $(BUILD)/compat.
# (Configuring with -DCUCC_SAMPLES=<checkout> gives ctest -L compat instead.)
compat: build
	@[ -n "$(CUDA_SAMPLES)" ] || { echo "usage: make compat CUDA_SAMPLES=<cuda-samples checkout>"; exit 2; }
	rm -rf $(BUILD)/compat
	-KEEP=$(abspath $(BUILD))/compat JOBS=$(JOBS) tests/compat/samples $(CUDA_SAMPLES) $(BUILD)/cucc
	tests/compat/samples --table $(BUILD)/compat

# The spelling benchmark (bench/spell/run; not a test: its timings depend on
# the machine and its load), with OpenBLAS for its matmul reference line.
# BENCH_ARGS: e.g. quick, or names of spellings; CUCC_FLAGS: extra flags.
BENCH_PKGS = libopenblas-dev
bench: build
	$(call apt,$(BENCH_PKGS))
	BUILD=$(BUILD) bench/spell/run $(BENCH_ARGS)

clean:
	rm -rf $(BUILD) build-asan build-clang
