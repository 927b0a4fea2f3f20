# mgpu: two commands do everything on a fresh Debian 12 machine.
#
#   make demo    install what is missing, build, run the main example
#   make check   install what is missing, build, run every test
#
# Other targets: build, check-sanitize (ASan+UBSan build running the lit
# suite; before landing), fuzz (a mutation campaign, utils/fuzz.py;
# FUZZ_MUTANTS, FUZZ_SEED, FUZZ_BUILD), fuzz-smoke (1500 mutants, seed 1, on
# FUZZ_BUILD: ASan+UBSan by default, the release build in CI), device-bundle
# (every run test and benchmark compiled for the GPU machine; see
# bench/device-check.sh), format-check, docs, clean.

BUILD      ?= build
ASAN_BUILD ?= build-asan
LLVM_DIR   ?= /usr/lib/llvm-22
PACKAGES   := llvm-22-dev libmlir-22-dev mlir-22-tools libomp-22-dev cmake ninja-build g++ python3 clang-format
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CMAKE_ARGS := -G Ninja -DCMAKE_BUILD_TYPE=Release \
              -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
              -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit \
              "-DLLVM_LIT_ARGS=-sv --time-tests"

.PHONY: all deps configure build check check-sanitize fuzz fuzz-smoke demo device-bundle docs docs-check format-check clean

all: build

deps:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "mgpu: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD)

check: build
	ninja -C $(BUILD) check-mgpu
	@$(MAKE) --no-print-directory docs-check

# -O1, as the sanitizers' authors recommend: their checks stay precise and
# the instrumented build compiles faster than at -O3.
$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_ARGS) -DMGPU_SANITIZE=ON \
	  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG"

check-sanitize: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	$(SANITIZER_ENV) ninja -C $(ASAN_BUILD) check-mgpu

SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 \
                 UBSAN_OPTIONS=print_stacktrace=1
FUZZ_MUTANTS  ?= 5000
FUZZ_SEED     ?= 1
FUZZ_BUILD    ?= $(ASAN_BUILD)

# Findings are left under $(FUZZ_BUILD)/fuzz-findings, one reproducer each.
fuzz: deps $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	$(SANITIZER_ENV) python3 utils/fuzz.py --build $(FUZZ_BUILD) \
	  --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED) \
	  --out $(FUZZ_BUILD)/fuzz-findings

fuzz-smoke: deps $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	$(SANITIZER_ENV) python3 utils/fuzz.py --build $(FUZZ_BUILD) \
	  --mutants 1500 --seed 1 --out $(FUZZ_BUILD)/fuzz-findings

# The demo needs the two tools and the runtimes mgpu-run loads, not the C
# API, the plugin or the test programs: `make check` builds those after it.
demo: configure
	ninja -C $(BUILD) mgpu-opt mgpu-run
	@./examples/demo.sh $(BUILD)

device-bundle: build
	python3 bench/make-device-bundle.py --build $(BUILD) --out $(BUILD)/device-bundle

GENERATED_DOCS := Dialects/MGPUDialect.md KernelFormPasses.md GPUPasses.md \
                  HostPasses.md PipelinesPasses.md

docs: build
	ninja -C $(BUILD) mlir-doc
	@for d in $(GENERATED_DOCS); do cp $(BUILD)/docs/$$d docs/$$(basename $$d); done
	@python3 utils/op-coverage.py docs/MGPUDialect.md test > docs/OpCoverage.md

# The committed docs must be what ODS generates now.
docs-check: build
	@ninja -C $(BUILD) mlir-doc >/dev/null
	@for d in $(GENERATED_DOCS); do \
	  if ! diff -q $(BUILD)/docs/$$d docs/$$(basename $$d) >/dev/null; then \
	    echo "docs-check: docs/$$(basename $$d) is stale; run 'make docs'"; exit 1; \
	  fi; \
	done; echo "docs-check: docs are up to date"
	@python3 utils/check-readme-passes.py .
	@python3 utils/op-coverage.py docs/MGPUDialect.md test --check docs/OpCoverage.md

format-check: deps
	@files=$$(git ls-files '*.cpp' '*.h' '*.c'); \
	clang-format --dry-run --Werror $$files && echo "format-check: clean"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
