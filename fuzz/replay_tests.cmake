# The replay binary's loop that goes on past failing inputs (replay_loop.h, replay_signature.h), and the
# tests that show it. Included at the end of fuzz/CMakeLists.txt, where the target `fuzz` is defined.
if(NOT LIB_FUZZING_ENGINE)
  add_library(replay_loop STATIC replay_loop.cpp replay_signature.cpp)
  target_include_directories(replay_loop PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fuzz PRIVATE replay_loop)

  # The behaviour does not depend on the subject: the embedded build checks it.
  if(NOT SUITE_CORE)
    # The loop itself, with inputs that fail in six different ways (fuzz/replay_loop_test.cpp).
    add_executable(replay_loop_test replay_loop_test.cpp)
    target_link_libraries(replay_loop_test PRIVATE replay_loop harness)
    add_test(NAME replay.keeps_going COMMAND replay_loop_test)
    # The fuzz binary on seeds and inputs too large for ASan's allocation limit (check_keeps_going.cmake).
    if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
      add_test(NAME replay.keeps_going_fuzz
        COMMAND ${CMAKE_COMMAND} -DFUZZ=$<TARGET_FILE:fuzz> -DTARGET=tx_check_diff
                -DSEEDS=${PROJECT_SOURCE_DIR}/corpus/tx_check_diff -DWORK=${CMAKE_CURRENT_BINARY_DIR}/keeps_going
                -P ${CMAKE_CURRENT_SOURCE_DIR}/check_keeps_going.cmake)
    endif()
  endif()
endif()
