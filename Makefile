# hostloop: the two entry points are `make run` and `make test`; both install
# what they need (scripts/setup.sh) on a fresh Debian machine.
JOBS ?= $(shell nproc)
BUILD ?= build
V8_ROOT_FILE := $(BUILD)/v8-root

.PHONY: all setup build run test test-release test-asan test-tsan bench format clean

all: build

# Installs build tools and V8 (libnode108 + libnode-dev), records the V8 root.
setup:
	@mkdir -p $(BUILD)
	@scripts/setup.sh > $(V8_ROOT_FILE).tmp && tail -n 1 $(V8_ROOT_FILE).tmp > $(V8_ROOT_FILE) && rm -f $(V8_ROOT_FILE).tmp

define configure
	cmake -S . -B $(BUILD)/$(1) -DHOSTLOOP_V8_ROOT=$$(cat $(V8_ROOT_FILE)) $(2) > /dev/null
	cmake --build $(BUILD)/$(1) -j$(JOBS)
endef

build: setup
	$(call configure,release,-DCMAKE_BUILD_TYPE=RelWithDebInfo)

# The main job: the tour of what hostloop does.
run: build
	$(BUILD)/release/hostloop examples/tour.mjs

# Every test: the release build, the whole suite under ASan+UBSan, and the
# engine-independent loop tests under TSan (libnode is not TSan-instrumented).
test: test-release test-asan test-tsan
	@echo "all test suites passed"

test-release: build
	ctest --test-dir $(BUILD)/release -j$(JOBS) --output-on-failure

test-asan: setup
	$(call configure,asan,-DCMAKE_BUILD_TYPE=Debug -DHOSTLOOP_SANITIZE=address)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	ctest --test-dir $(BUILD)/asan -j$(JOBS) --output-on-failure

test-tsan: setup
	$(call configure,tsan,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DHOSTLOOP_SANITIZE=thread -DHOSTLOOP_LOOP_ONLY=ON)
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	ctest --test-dir $(BUILD)/tsan -j$(JOBS) --output-on-failure

# Benchmarks: one table with node, deno and bun beside hostloop.
bench: build
	bash bench/install_peers.sh
	python3 bench/run.py --hostloop $(BUILD)/release/hostloop --loop-bench $(BUILD)/release/bench/loop_bench

format:
	clang-format -i $$(git ls-files 'src/*.h' 'src/*.cc' 'include/*.h' 'bench/*.cc' 'examples/*.cc')

clean:
	rm -rf $(BUILD)
