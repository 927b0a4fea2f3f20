# mgpu: two commands do everything on a fresh Debian 12 machine.
#
#   make demo    install what is missing, build, run the main example
#   make check   install what is missing, build, run every test
#
# Other targets: build, check-sanitize (ASan+UBSan build running the lit
# suite), format-check, docs, clean.

BUILD      ?= build
ASAN_BUILD ?= build-asan
LLVM_DIR   ?= /usr/lib/llvm-22
PACKAGES   := llvm-22-dev libmlir-22-dev mlir-22-tools cmake ninja-build g++ python3
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CMAKE_ARGS := -G Ninja -DCMAKE_BUILD_TYPE=Release \
              -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
              -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit

.PHONY: all deps configure build check check-sanitize demo docs format-check clean

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

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_ARGS) -DMGPU_SANITIZE=ON

check-sanitize: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ninja -C $(ASAN_BUILD) check-mgpu

demo: build
	@./examples/demo.sh $(BUILD)

docs: build
	ninja -C $(BUILD) mlir-doc
	cp $(BUILD)/docs/Dialects/MGPUDialect.md docs/MGPUDialect.md

format-check:
	@files=$$(git ls-files '*.cpp' '*.h' '*.c'); \
	clang-format --dry-run --Werror $$files && echo "format-check: clean"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
