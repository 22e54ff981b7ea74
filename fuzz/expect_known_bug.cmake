cmake_minimum_required(VERSION 3.25)
# ctest known_bug.<name>: replays INPUT on TARGET with the known-failing check switched on
# (SUITE_CHECK_KNOWN_BUGS=1) and passes only if it fails, with output matching EXPECT. The failure may
# depend on thread timing, so the input runs up to TRIES times until it fails. A tree where it never fails
# no longer has the bug: the entry fails and says so, and the bug's row in core/features.h is to be retired.
foreach(try RANGE 1 ${TRIES})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env FUZZ=${TARGET} SUITE_CHECK_KNOWN_BUGS=1 ${FUZZ} ${INPUT}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    if(out MATCHES "${EXPECT}")
      message(STATUS "known bug ${NAME} reproduced (try ${try}); see ${DOC}")
      return()
    endif()
    message(FATAL_ERROR "known bug ${NAME}: the input failed, but not as the known bug does "
      "(expected output matching '${EXPECT}'):\n${out}")
  endif()
endforeach()
message(FATAL_ERROR "known bug ${NAME} did not reproduce in ${TRIES} runs of ${INPUT}: this tree seems to fix "
  "it. Retire its row (core/features.h) and its write-up (${DOC}).")
