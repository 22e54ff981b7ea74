# Whether each component's Bitcoin Core adapters (core/*.cpp, as seam/components.json lists them) compile
# against the tree, asked at configure time, before the build needs them: a tree that reshapes what an
# adapter calls in a way no question of the feature probe foresaw turns off that component, with the
# compiler's first error as the reason, and the rest of the suite builds and runs. A build failure in core/
# against a tree configure accepted is therefore a bug of the suite.
#
# The adapter sources are compiled -fsyntax-only with the flags, warnings and definitions the build gives
# them, so that what passes here compiles there: all of them as one unit first (Core's headers parsed once:
# about 4 s), and only where that fails each component's as one unit, side by side, which names the one
# that fails. Units rather than single sources: each source includes what it uses, so a unit hides nothing
# the build would meet, at a fraction of the cost (file_io's five sources: 24 s one by one, 6 s as one).

# Sets `out` to "file:line: message" of the first error in `log`, with paths relative to the repository or
# the Core tree `dir`; includes the pure virtual members a class lacks when that is the error.
function(suite_adapter_first_error out log dir)
  file(STRINGS ${log} lines REGEX "error:|note: unimplemented pure virtual")
  set(first "")
  set(missing "")
  foreach(line IN LISTS lines)
    if(NOT first AND line MATCHES "error:")
      set(first "${line}")
    elseif(line MATCHES "unimplemented pure virtual method '([^']+)'")
      list(APPEND missing ${CMAKE_MATCH_1})
    endif()
  endforeach()
  if(NOT first)
    set(first "the compiler failed without an error message")
  endif()
  string(REPLACE "${PROJECT_SOURCE_DIR}/" "" first "${first}")
  string(REPLACE "${dir}/" "" first "${first}")
  string(REGEX REPLACE "^([^:]+:[0-9]+):[0-9]+: error: " "\\1: " first "${first}")
  string(REPLACE "|" "/" first "${first}")
  string(REPLACE ";" "," first "${first}")
  if(missing)
    list(REMOVE_DUPLICATES missing)
    list(JOIN missing ", " missing)
    string(APPEND first " (unimplemented pure virtual: ${missing})")
  endif()
  set(${out} "${first}" PARENT_SCOPE)
endfunction()

# Sets `out` to the command compiling `sources` as the unit `name` (<build>/core_probe/adapters/<name>.cpp,
# its log and dependencies beside it), with the flags suite_check_core_adapters computed.
function(suite_adapter_unit out name sources)
  set(unit ${check_dir}/${name}.cpp)
  set(content "// Adapter sources as cmake/CoreAdapters.cmake checks them.\n")
  foreach(source IN LISTS sources)
    string(APPEND content "#include \"${PROJECT_SOURCE_DIR}/${source}\"\n")
  endforeach()
  file(CONFIGURE OUTPUT ${unit} CONTENT "${content}" @ONLY)
  file(REMOVE ${check_dir}/${name}.log ${check_dir}/${name}.d)
  set(${out} COMMAND sh -c "exec \"\$@\" >\"\$0\" 2>&1" ${check_dir}/${name}.log ${CMAKE_CXX_COMPILER} -std=c++20
    -fsyntax-only ${flags} ${SUITE_WARNING_FLAGS} -Wno-mismatched-tags ${defines} -iquote ${PROJECT_SOURCE_DIR}
    -iquote ${PROJECT_SOURCE_DIR}/src -isystem ${dir}/src -isystem ${dir}/src/leveldb/include
    -MD -MF ${check_dir}/${name}.d ${unit} PARENT_SCOPE)
endfunction()

# The headers and sources unit `name` read, as configure dependencies: an edit checks again.
function(suite_adapter_depends name)
  if(EXISTS ${check_dir}/${name}.d)
    file(READ ${check_dir}/${name}.d depends)
    string(REGEX MATCHALL "[^ \\\n:]+" depends "${depends}")
    list(FILTER depends INCLUDE REGEX "^(${dir}|${PROJECT_SOURCE_DIR})/")
    list(FILTER depends EXCLUDE REGEX "^${check_dir}/")
    set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${depends})
  endif()
endfunction()

# Reads and updates suite_probe_core_features' variables: status_<component> for the components still on,
# `shared_adapters_ok`. `sources_of_<component>` are the adapter sources (paths from the repository root)
# left after what the probe turned off; `definitions` the probe's answers.
function(suite_check_core_adapters dir)
  set(check_dir ${CMAKE_BINARY_DIR}/core_probe/adapters)
  file(MAKE_DIRECTORY ${check_dir})
  set(flags ${CMAKE_CXX_FLAGS})
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(defines -DSUITE_SUBJECT_CORE=1 -DABORT_ON_FAILED_ASSUME)
  foreach(definition IN LISTS definitions)
    list(APPEND defines -D${definition})
  endforeach()
  # What is built: the components still on and every component one of them uses (its adapters are compiled
  # for the user's sake even where it is itself off).
  set(built shared)
  foreach(component IN LISTS SUITE_ALL_COMPONENTS)
    if(NOT status_${component} MATCHES "^not tested")
      suite_component_list(used ${component} uses)
      list(APPEND built ${component} ${used})
    endif()
  endforeach()
  # All of them as one unit first (the common case: one parse of Core's headers); only where that fails,
  # each component's alone, side by side, so that the one that fails is named.
  set(all_sources "")
  set(components "")
  foreach(component IN LISTS SUITE_ALL_COMPONENTS ITEMS shared)
    if(component IN_LIST built AND sources_of_${component})
      list(APPEND components ${component})
      list(APPEND all_sources ${sources_of_${component}})
    endif()
  endforeach()
  if(NOT components)
    return()
  endif()
  suite_adapter_unit(command all "${all_sources}")
  execute_process(${command} RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
  suite_adapter_depends(all)
  if(result EQUAL 0)
    return()
  endif()
  set(commands "")
  foreach(component IN LISTS components)
    suite_adapter_unit(command ${component} "${sources_of_${component}}")
    list(APPEND commands ${command})
  endforeach()
  execute_process(${commands} RESULTS_VARIABLE results OUTPUT_QUIET ERROR_QUIET)
  set(i 0)
  set(failed "")
  foreach(component IN LISTS components)
    list(GET results ${i} result)
    math(EXPR i "${i} + 1")
    suite_adapter_depends(${component})
    if(NOT result EQUAL 0)
      suite_adapter_first_error(error ${check_dir}/${component}.log ${dir})
      list(APPEND failed ${component})
      set(error_${component} "${error}")
    endif()
  endforeach()
  # A component whose adapter fails is off; so is every component that uses it (its adapter includes the
  # other's), and every component when a shared adapter fails.
  foreach(component IN LISTS SUITE_ALL_COMPONENTS)
    if(status_${component} MATCHES "^not tested")
      continue()
    endif()
    if("shared" IN_LIST failed)
      set(status_${component} "not tested: the shared adapters do not compile against this tree: ${error_shared}")
    elseif(component IN_LIST failed)
      set(status_${component} "not tested: its adapter does not compile against this tree: ${error_${component}}")
    else()
      suite_component_list(used ${component} uses)
      foreach(other IN LISTS used)
        if(other IN_LIST failed)
          string(CONCAT status_${component} "not tested: needs the ${other} adapter, which does not compile against "
            "this tree: ${error_${other}}")
        endif()
      endforeach()
    endif()
    set(status_${component} "${status_${component}}" PARENT_SCOPE)
  endforeach()
  if("shared" IN_LIST failed)
    set(shared_adapters_ok FALSE PARENT_SCOPE)
  endif()
endfunction()
