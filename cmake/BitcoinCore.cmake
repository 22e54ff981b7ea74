# The `core` flavor: Bitcoin Core's kernel library, built by Bitcoin Core's own CMake from the source tree
# named by BITCOIN_CORE_DIR, with this build's compilers and flags, as the subject under test.
#
# Core's build runs on every build of ours (BUILD_ALWAYS): its own Ninja decides what changed, so an edit
# in the reviewer's tree is recompiled and relinked before any of our targets link against it, and an
# unchanged tree costs a no-op Ninja run. ccache (WITH_CCACHE) makes a fresh build directory cheap too.
include(ExternalProject)
find_package(Threads REQUIRED)

# A Bitcoin Core source tree is what Core's own CMake builds the kernel library from; which of the classes
# the suite tests it has is the feature probe's business (cmake/CoreProbe.cmake), never a refusal here.
function(suite_check_core_dir dir)
  foreach(file CMakeLists.txt src/kernel/CMakeLists.txt)
    if(NOT EXISTS "${dir}/${file}")
      message(FATAL_ERROR "BITCOIN_CORE_DIR='${dir}' is not a Bitcoin Core source tree: expected ${dir}/${file}. "
        "Set BITCOIN_CORE_DIR (cache variable or environment) to the top of a checkout, the folder holding "
        "src/coins.h.")
    endif()
  endforeach()
endfunction()
suite_check_core_dir("${BITCOIN_CORE_DIR}")

include(${CMAKE_CURRENT_LIST_DIR}/CoreProbe.cmake)
suite_probe_core_features("${BITCOIN_CORE_DIR}")

# SUITE_CORE_COMPILE_ONLY: compile the adapters (and whatever else is asked for) against the tree's headers
# and link nothing: no Core build at all. What CI does with the API-variant trees (core/variants/): their
# headers are all the adapters need (none of them includes Core's generated bitcoin-build-config.h).
option(SUITE_CORE_COMPILE_ONLY "Compile against BITCOIN_CORE_DIR's headers without building or linking Bitcoin Core" OFF)
if(SUITE_CORE_COMPILE_ONLY)
  add_library(bitcoin_core_kernel INTERFACE)
  target_include_directories(bitcoin_core_kernel SYSTEM INTERFACE ${BITCOIN_CORE_DIR}/src
    ${BITCOIN_CORE_DIR}/src/leveldb/include)
  target_compile_definitions(bitcoin_core_kernel INTERFACE ABORT_ON_FAILED_ASSUME)
  return()
endif()

# SUITE_CORE_LIBS_DIR: a build directory of Core's own (configured by Core's CMake with its fuzz binary or
# tests) whose static libraries we link instead of building the kernel library ourselves. tools/versus-core
# uses it so that both sides run the very same compiled Core code, and a planted bug is compiled once.
set(SUITE_CORE_LIBS_DIR "" CACHE PATH "Link the libraries of this Bitcoin Core build directory instead of building Core's kernel")
if(SUITE_CORE_LIBS_DIR)
  set(core_build ${SUITE_CORE_LIBS_DIR})
  set(core_libs)
  foreach(lib lib/libbitcoin_node.a lib/libbitcoin_common.a lib/libbitcoin_consensus.a lib/libbitcoin_util.a
      lib/libbitcoin_clientversion.a lib/libbitcoin_crypto.a src/secp256k1/lib/libsecp256k1.a src/libminisketch.a
      src/libleveldb.a src/libcrc32c.a src/univalue/libunivalue.a)
    if(NOT EXISTS ${core_build}/${lib})
      message(FATAL_ERROR "SUITE_CORE_LIBS_DIR='${core_build}' has no ${lib}: build Core's fuzz binary or "
        "test_bitcoin there first")
    endif()
    list(APPEND core_libs ${core_build}/${lib})
  endforeach()
  # Core's node library calls libevent (its HTTP server and networking); the archives call each other.
  find_library(SUITE_LIBEVENT event)
  find_library(SUITE_LIBEVENT_PTHREADS event_pthreads)
  if(NOT SUITE_LIBEVENT OR NOT SUITE_LIBEVENT_PTHREADS)
    message(FATAL_ERROR "libevent not found (Core's node library needs it): install the Debian package libevent-dev")
  endif()
  set(core_includes ${BITCOIN_CORE_DIR}/src ${core_build}/src ${BITCOIN_CORE_DIR}/src/leveldb/include)
  # Linked as an object into every executable: what Core's executables define for its libraries.
  add_library(bitcoin_core_translation OBJECT ${PROJECT_SOURCE_DIR}/core/translation.cpp)
  target_include_directories(bitcoin_core_translation SYSTEM PRIVATE ${core_includes})
  add_library(bitcoin_core_kernel INTERFACE)
  add_dependencies(bitcoin_core_kernel bitcoin_core_translation)
  target_include_directories(bitcoin_core_kernel SYSTEM INTERFACE ${core_includes})
  target_link_libraries(bitcoin_core_kernel INTERFACE $<TARGET_OBJECTS:bitcoin_core_translation>
    "-Wl,--start-group" ${core_libs} "-Wl,--end-group" ${SUITE_LIBEVENT_PTHREADS} ${SUITE_LIBEVENT} Threads::Threads)
  # What that build was configured with and its users must match: its extra preprocessor flags (e.g.
  # ABORT_ON_FAILED_ASSUME, which changes Assume() in Core's inline code), and the profile runtime when its
  # code carries coverage counters.
  file(STRINGS ${core_build}/CMakeCache.txt core_cppflags REGEX "^APPEND_CPPFLAGS:")
  file(STRINGS ${core_build}/CMakeCache.txt core_cxxflags REGEX "^CMAKE_CXX_FLAGS:")
  string(REGEX REPLACE "^[^=]*=" "" core_cppflags "${core_cppflags}")
  if(core_cppflags)
    separate_arguments(core_cppflags UNIX_COMMAND "${core_cppflags}")
    target_compile_options(bitcoin_core_kernel INTERFACE ${core_cppflags})
    target_compile_options(bitcoin_core_translation PRIVATE ${core_cppflags})
  endif()
  if(core_cxxflags MATCHES "-fprofile-instr-generate")
    target_link_options(bitcoin_core_kernel INTERFACE -fprofile-instr-generate)
  endif()
  return()
endif()

find_program(SUITE_CORE_CCACHE_PROGRAM ccache)
if(NOT SUITE_CORE_CCACHE_PROGRAM)
  message(FATAL_ERROR "ccache not found: install the Debian package ccache (tools/setup does)")
endif()

# SUITE_CORE_SANITIZERS: Core's SANITIZERS option. "fuzzer" in it makes Core compile with
# -fsanitize=fuzzer-no-link, so the engine's coverage feedback comes from Core's code.
set(SUITE_CORE_SANITIZERS "" CACHE STRING "Bitcoin Core's SANITIZERS option for its kernel library")
# Extra compiler flags for Core's build, e.g. the coverage preset's instrumentation.
set(SUITE_CORE_C_FLAGS "" CACHE STRING "Extra C compiler flags for Bitcoin Core's kernel library")
set(SUITE_CORE_CXX_FLAGS "" CACHE STRING "Extra C++ compiler flags for Bitcoin Core's kernel library")
# Where Core's own build lives: by default one per source tree, so that switching BITCOIN_CORE_DIR between
# trees never reconfigures one tree's build for the other. Named by a hash of the tree's path relative to
# this checkout, so that another clone builds the same tree at the same relative paths (ccache, below).
set(SUITE_CORE_BUILD_DIR "" CACHE PATH "Build directory of Bitcoin Core's kernel library (default: one per tree under this build)")
if(SUITE_CORE_BUILD_DIR)
  set(core_build ${SUITE_CORE_BUILD_DIR})
else()
  get_filename_component(core_real "${BITCOIN_CORE_DIR}" REALPATH)
  file(RELATIVE_PATH core_relative "${PROJECT_SOURCE_DIR}" "${core_real}")
  string(MD5 core_tree_id "${core_relative}")
  string(SUBSTRING "${core_tree_id}" 0 8 core_tree_id)
  set(core_build ${CMAKE_BINARY_DIR}/bitcoin-core-${core_tree_id})
endif()
set(core_kernel ${core_build}/lib/libbitcoinkernel.a)
set(core_secp ${core_build}/src/secp256k1/lib/libsecp256k1.a)

# ccache keys on the command line, which holds absolute paths: rewritten relative to the deepest folder
# that holds both trees, a second build directory (a fresh clone, another preset's twin) hits the cache.
get_filename_component(core_real "${BITCOIN_CORE_DIR}" REALPATH)
get_filename_component(base "${CMAKE_BINARY_DIR}" REALPATH)
while(NOT base STREQUAL "/")
  string(FIND "${core_real}/" "${base}/" at)
  if(at EQUAL 0)
    break()
  endif()
  get_filename_component(base "${base}" DIRECTORY)
endwhile()
set(core_ccache_env CCACHE_BASEDIR=${base} CCACHE_NOHASHDIR=1)
# Core's debug information names its files relative to this checkout too (see CMakeLists.txt): the same
# whichever clone compiled them, and resolvable by the failure report.
file(RELATIVE_PATH base_from_source "${PROJECT_SOURCE_DIR}" "${base}")
set(core_debug_map "-fdebug-prefix-map=${base}=./${base_from_source}")

# Our warning flags are not Core's business; our compiler flags (optimization, coverage) are. Core's
# Assume() is fatal, as in its own fuzz and debug builds: a contract Core states that way is checked too
# (in Core's code and in its headers' inline code compiled into ours, alike).
ExternalProject_Add(bitcoin_core
  SOURCE_DIR ${BITCOIN_CORE_DIR}
  BINARY_DIR ${core_build}
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
    -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    "-DCMAKE_C_FLAGS=${SUITE_CORE_C_FLAGS} ${core_debug_map}"
    "-DCMAKE_CXX_FLAGS=${SUITE_CORE_CXX_FLAGS} ${core_debug_map}"
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    "-DSANITIZERS=${SUITE_CORE_SANITIZERS}"
    -DAPPEND_CPPFLAGS=-DABORT_ON_FAILED_ASSUME
    -DBUILD_KERNEL_LIB=ON -DBUILD_SHARED_LIBS=OFF -DBUILD_KERNEL_TEST=OFF
    -DBUILD_BITCOIN_BIN=OFF -DBUILD_DAEMON=OFF -DBUILD_CLI=OFF -DBUILD_TESTS=OFF -DBUILD_TX=OFF
    -DBUILD_UTIL=OFF -DBUILD_WALLET_TOOL=OFF -DBUILD_BENCH=OFF -DBUILD_FUZZ_BINARY=OFF -DBUILD_GUI=OFF
    -DBUILD_UTIL_CHAINSTATE=OFF -DENABLE_WALLET=OFF -DENABLE_IPC=OFF -DENABLE_EXTERNAL_SIGNER=OFF
    -DWITH_ZMQ=OFF -DWITH_CCACHE=ON -DINSTALL_MAN=OFF
  BUILD_COMMAND ${CMAKE_COMMAND} -E env ${core_ccache_env} ${CMAKE_COMMAND} --build ${core_build} --target bitcoinkernel secp256k1
  BUILD_ALWAYS TRUE
  BUILD_BYPRODUCTS ${core_kernel} ${core_secp}
  INSTALL_COMMAND ""
  USES_TERMINAL_BUILD TRUE
)

# Core's headers as system headers: our warning flags are for our code. Core includes its own headers
# with <...>, which never reach our -iquote directories.
add_library(bitcoin_core_kernel INTERFACE)
add_dependencies(bitcoin_core_kernel bitcoin_core)
target_include_directories(bitcoin_core_kernel SYSTEM INTERFACE
  ${BITCOIN_CORE_DIR}/src ${core_build}/src ${BITCOIN_CORE_DIR}/src/leveldb/include)
target_link_libraries(bitcoin_core_kernel INTERFACE ${core_kernel} ${core_secp} Threads::Threads)
target_compile_definitions(bitcoin_core_kernel INTERFACE ABORT_ON_FAILED_ASSUME)
