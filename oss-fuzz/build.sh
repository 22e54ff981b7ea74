#!/bin/bash
# OSS-Fuzz / ClusterFuzzLite build script (also run by .clusterfuzzlite/build.sh and tools/oss-fuzz-check).
#
# Runs in the project's checkout (the Dockerfile's WORKDIR) with the builder's environment: CC, CXX, CFLAGS,
# CXXFLAGS (sanitizer and coverage flags included), LIB_FUZZING_ENGINE, SRC, OUT, WORK. Leaves in $OUT, for
# every target of fuzz/CMakeLists.txt: the binary <target>, <target>_seed_corpus.zip (corpus/<target>/),
# <target>.dict and <target>.options (printed by the binary: fuzz --dict=, --options=).
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

# Runs a freshly built binary for its informational flags only: no leak check (LeakSanitizer cannot stop
# the world in an unprivileged build container) and no profile file from a coverage build.
info() {
  ASAN_OPTIONS=detect_leaks=0 LLVM_PROFILE_FILE=/dev/null "$@"
}
targets=$(info "$WORK/build/fuzz/fuzz" --list)
if [[ -z $targets ]]; then
  echo "build.sh: $WORK/build/fuzz/fuzz --list printed no targets" >&2
  exit 1
fi
mkdir -p "$OUT"
for target in $targets; do
  binary=$WORK/build/fuzz/targets/$target
  cp "$binary" "$OUT/$target"
  rm -f "$OUT/${target}_seed_corpus.zip"
  zip -q -j "$OUT/${target}_seed_corpus.zip" corpus/"$target"/*
  info "$binary" --dict="$target" > "$OUT/$target.dict"
  info "$binary" --options="$target" > "$OUT/$target.options"
done
echo "build.sh: $(wc -w <<< "$targets") targets in $OUT"
