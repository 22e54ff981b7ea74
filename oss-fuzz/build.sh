#!/bin/bash
# OSS-Fuzz / ClusterFuzzLite build script (also run by .clusterfuzzlite/build.sh and tools/oss-fuzz-check).
#
# Runs in the project's checkout (the Dockerfile's WORKDIR) with the builder's environment: CC, CXX, CFLAGS,
# CXXFLAGS (sanitizer and coverage flags included), LIB_FUZZING_ENGINE, SRC, OUT, WORK. Leaves in $OUT, for
# every target of fuzz/CMakeLists.txt: the binary <target>, <target>_seed_corpus.zip (corpus/<target>/),
# <target>.dict and <target>.options (printed by the binary: fuzz --dict=, --options=).
#
# Bitcoin Core: when a Bitcoin Core source tree is in the build environment ($BITCOIN_CORE_DIR, else
# $SRC/bitcoin, where a Bitcoin Core fork's ClusterFuzzLite checkout is), the same targets are also built
# against Core's own classes and installed as core_<target>, with the same seeds, dictionary and options.
# Core's kernel library is compiled by Core's CMake with the builder's compiler and flags, so the engine's
# coverage feedback and the sanitizers reach Core's code. Needs ccache and Boost headers in the image.
#
# LevelDB: built from $SRC/leveldb (the Dockerfile clones 1.23 there) with the same compiler and flags, as
# OSS-Fuzz requires of every C++ dependency (libc++, sanitizers); without that directory the system's
# LevelDB is used (tools/oss-fuzz-check, which emulates the environment on a Debian machine).
set -eu

for var in CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE SRC OUT WORK; do
  if [[ -z ${!var+set} ]]; then
    echo "build.sh: $var is not set (OSS-Fuzz's builder sets CC, CXX, CFLAGS, CXXFLAGS," \
         "LIB_FUZZING_ENGINE, SRC, OUT and WORK)" >&2
    exit 1
  fi
done
if [[ ! -f CMakeLists.txt || ! -f fuzz/fuzz.h ]]; then
  echo "build.sh: run from the project's checkout (the Dockerfile's WORKDIR); $PWD is not one" >&2
  exit 1
fi
project=$PWD

cmake_args=()
if [[ -d $SRC/leveldb ]]; then
  # Static, without its tests and benchmarks (they need submodules). No CMAKE_BUILD_TYPE: CFLAGS and CXXFLAGS
  # carry the optimization level, and a build type would append its own (-O3 -DNDEBUG for Release).
  # LevelDB gets the sanitizers but no coverage feedback, like the system one in local builds: its
  # background compaction thread would make the engine's coverage depend on timing.
  echo 'src:*' > "$WORK/no-coverage.txt"
  no_coverage="-fsanitize-coverage-ignorelist=$WORK/no-coverage.txt"
  # AFL++'s compiler wrappers instrument regardless of -fsanitize-coverage; this list turns them off.
  AFL_LLVM_DENYLIST="$WORK/no-coverage.txt" \
  cmake -S "$SRC/leveldb" -B "$WORK/leveldb-build" -G Ninja \
    -DCMAKE_C_FLAGS="$CFLAGS $no_coverage" -DCMAKE_CXX_FLAGS="$CXXFLAGS $no_coverage" \
    -DBUILD_SHARED_LIBS=OFF -DLEVELDB_BUILD_TESTS=OFF -DLEVELDB_BUILD_BENCHMARKS=OFF -DLEVELDB_INSTALL=ON \
    -DCMAKE_INSTALL_PREFIX="$WORK/leveldb"
  AFL_LLVM_DENYLIST="$WORK/no-coverage.txt" cmake --build "$WORK/leveldb-build"
  cmake --install "$WORK/leveldb-build" > /dev/null
  cmake_args+=(-Dleveldb_DIR="$WORK/leveldb/lib/cmake/leveldb")
fi

# -DSUITE_WERROR=OFF: other compilers (OSS-Fuzz's clang is not the 19 the suite is developed with) warn
# differently, and a new warning must not break the fuzzing build. OpenSSL's libcrypto is linked statically:
# the runner images that execute the binaries do not have the builder's packages.
cmake -S "$project" -B "$WORK/build" -G Ninja \
  -DLIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DSUITE_UNIT_TESTS=OFF -DSUITE_PER_TARGET_BINARIES=ON -DBUILD_TESTING=OFF -DSUITE_WERROR=OFF \
  -DOPENSSL_USE_STATIC_LIBS=TRUE \
  "${cmake_args[@]}"
cmake --build "$WORK/build"

core_dir=${BITCOIN_CORE_DIR:-}
if [[ -z $core_dir && -f $SRC/bitcoin/src/coins.h ]]; then
  core_dir=$SRC/bitcoin
fi
if [[ -n $core_dir ]]; then
  echo "build.sh: also building the targets against Bitcoin Core at $core_dir"
  cmake -S "$project" -B "$WORK/build-core" -G Ninja \
    -DSUITE_SUBJECT=core -DBITCOIN_CORE_DIR="$core_dir" \
    -DSUITE_CORE_C_FLAGS="$CFLAGS" -DSUITE_CORE_CXX_FLAGS="$CXXFLAGS" \
    -DLIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
    -DSUITE_UNIT_TESTS=OFF -DSUITE_PER_TARGET_BINARIES=ON -DBUILD_TESTING=OFF -DSUITE_WERROR=OFF \
    -DOPENSSL_USE_STATIC_LIBS=TRUE \
    "${cmake_args[@]}"
  cmake --build "$WORK/build-core"
fi

# Runs a freshly built binary for its informational flags only: no leak check (LeakSanitizer cannot stop
# the world in an unprivileged build container), unsigned overflow silenced as OSS-Fuzz's runners silence it
# (the undefined build instruments it; Bitcoin Core's static initializers overflow inside libstdc++'s string
# comparison), and no profile file from a coverage build.
info() {
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=silence_unsigned_overflow=1 LLVM_PROFILE_FILE=/dev/null "$@"
}
# install BUILD_DIR PREFIX: every target of that build into $OUT as PREFIX<target>, with its seeds (from
# corpus/<target>/), dictionary and options.
install() {
  local build=$1 prefix=$2 targets target binary name
  targets=$(info "$build/fuzz/fuzz" --list)
  if [[ -z $targets ]]; then
    echo "build.sh: $build/fuzz/fuzz --list printed no targets" >&2
    exit 1
  fi
  for target in $targets; do
    binary=$build/fuzz/targets/$target
    name=$prefix$target
    cp "$binary" "$OUT/$name"
    rm -f "$OUT/${name}_seed_corpus.zip"
    zip -q -j "$OUT/${name}_seed_corpus.zip" corpus/"$target"/*
    info "$binary" --dict="$target" > "$OUT/$name.dict"
    # The options name the dictionary by the target's own name.
    info "$binary" --options="$target" | sed "s/^dict = $target.dict\$/dict = $name.dict/" > "$OUT/$name.options"
  done
  echo "build.sh: $(wc -w <<< "$targets") targets in $OUT${prefix:+ (as $prefix<target>)}"
}
mkdir -p "$OUT"
install "$WORK/build" ""
if [[ -n $core_dir ]]; then
  install "$WORK/build-core" core_
fi
