cmake_minimum_required(VERSION 3.25)
# ctest replay.keeps_going_fuzz: the fuzz binary's replay goes on past failing inputs. It replays copies of three
# seeds of TARGET and, between them, two inputs larger than 1 MiB; ASAN_OPTIONS=max_allocation_size_mb=1 makes
# reading those fail (the driver reads an input into one buffer). The replay must run every seed, the two after
# a failure too (the observation log names each input it starts), exit 1, and count the one failure twice with
# the smaller input shown; with SUITE_REPLAY_STOP_AT_FIRST=1 it must stop at the first failing input.
# The inputs in WORK/inputs, the observation logs beside it.
set(inputs ${WORK}/inputs)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${inputs})
file(GLOB seeds ${SEEDS}/*)
list(SORT seeds)
set(letters a c e)
foreach(i RANGE 2)
  list(GET seeds ${i} seed)
  list(GET letters ${i} letter)
  file(COPY_FILE ${seed} ${inputs}/${letter}-seed)
endforeach()
string(REPEAT "x" 1048576 mib)
file(WRITE ${inputs}/b-big "${mib}${mib}${mib}")
file(WRITE ${inputs}/d-big "${mib}${mib}")

# symbolize=0: the reports need no function names here, and symbolizing each costs a fifth of a second.
function(replay log rc_var out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env FUZZ=${TARGET} ASAN_OPTIONS=max_allocation_size_mb=1:symbolize=0
                          SUITE_OBSERVE=${log} ${ARGN} ${FUZZ} ${inputs}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(fail what)
  message(FATAL_ERROR "replay.keeps_going_fuzz: ${what}; the replay printed:\n${out}")
endfunction()

replay(${WORK}/all.log rc out)
file(STRINGS ${WORK}/all.log started REGEX "^input ")
if(NOT rc EQUAL 1)
  fail("exit status ${rc}, expected 1")
endif()
if(NOT started STREQUAL "input a-seed;input c-seed;input e-seed")
  fail("the log names the inputs [${started}], expected the three seeds")
endif()
foreach(line IN ITEMS "replay:   2 x signature: ${TARGET}:-:AddressSanitizer:allocation-size-too-big"
                      "replay: smallest: ${inputs}/d-big (2097152 bytes); its report:"
                      "replay: the failing input is ${inputs}/d-big"
                      "replay: ${TARGET}: 2 of 5 inputs failed:")
  string(FIND "${out}" "${line}" at)
  if(at EQUAL -1)
    fail("the summary lacks '${line}'")
  endif()
endforeach()

replay(${WORK}/first.log rc out SUITE_REPLAY_STOP_AT_FIRST=1)
file(STRINGS ${WORK}/first.log started REGEX "^input ")
string(FIND "${out}" "replay: the failing input is ${inputs}/b-big" named)
string(FIND "${out}" "replay: failure " summary)
if(rc EQUAL 0 OR NOT started STREQUAL "input a-seed" OR named EQUAL -1 OR NOT summary EQUAL -1)
  fail("SUITE_REPLAY_STOP_AT_FIRST=1: exit status ${rc} and the inputs [${started}] started; expected a failure "
       "naming b-big, after a-seed alone, with no summary")
endif()
message(STATUS "the replay went on past two failing inputs and summarized them; SUITE_REPLAY_STOP_AT_FIRST=1 stopped at the first")
