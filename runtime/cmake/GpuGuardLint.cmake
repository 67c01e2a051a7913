# gpuguard_lint(<target> [CHECKS <glob>...] [WARNINGS_AS_ERRORS]
#               [ARGS <gpuguard option>...])
#
# Checks every C++ and CUDA source of <target> with gpuguard as part of the
# build, what CMake's CXX_CLANG_TIDY does for C++ alone: <target> is built
# only after its sources were checked. Each source is checked with its own
# compile command (from ${CMAKE_BINARY_DIR}/compile_commands.json, which
# this function turns on for <target>) and checked again only when it or a
# project header it includes changes. CHECKS chooses the checks
# (`--checks`; the project's .clang-tidy files apply otherwise);
# WARNINGS_AS_ERRORS turns every finding into an error that fails the
# build; ARGS passes further options to gpuguard (`--config-file=...`,
# `--baseline=...`).
#
# Findings are printed once, when a source is checked; the check's stamp
# records that it ran. The gpuguard executable is ${GPUGUARD_EXECUTABLE},
# else the `gpuguard` target of the same build, else `gpuguard` on the PATH.

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/GpuGuardExecutable.cmake)

function(gpuguard_lint Target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "WARNINGS_AS_ERRORS" "" "CHECKS;ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuguard_lint(${Target}): unknown arguments "
      "'${ARG_UNPARSED_ARGUMENTS}'; usage: gpuguard_lint(<target> "
      "[CHECKS <glob>...] [WARNINGS_AS_ERRORS] [ARGS <option>...])")
  endif()
  if(NOT TARGET ${Target})
    message(FATAL_ERROR "gpuguard_lint: '${Target}' is not a target; call it "
      "after add_executable/add_library(${Target} ...)")
  endif()
  get_target_property(Type ${Target} TYPE)
  if(Type STREQUAL "INTERFACE_LIBRARY" OR Type STREQUAL "UTILITY")
    message(FATAL_ERROR "gpuguard_lint: '${Target}' (${Type}) has no sources "
      "to check")
  endif()
  _gpuguard_executable(gpuguard_lint ${Target} Tool ToolDepends)

  set(Options --quiet)
  if(ARG_CHECKS)
    list(JOIN ARG_CHECKS "," Checks)
    list(APPEND Options "--checks=${Checks}")
  endif()
  if(ARG_WARNINGS_AS_ERRORS)
    list(APPEND Options "--warnings-as-errors=*")
  endif()
  list(APPEND Options ${ARG_ARGS})

  get_target_property(SourceDir ${Target} SOURCE_DIR)
  get_target_property(Sources ${Target} SOURCES)
  set(Stamps "")
  foreach(Source IN LISTS Sources)
    if(Source MATCHES "^\\$<")
      continue() # A generator expression: nothing of <target>'s own.
    endif()
    cmake_path(ABSOLUTE_PATH Source BASE_DIRECTORY ${SourceDir}
      NORMALIZE OUTPUT_VARIABLE Absolute)
    get_source_file_property(HeaderOnly ${Absolute}
      TARGET_DIRECTORY ${Target} HEADER_FILE_ONLY)
    cmake_path(GET Absolute EXTENSION LAST_ONLY Extension)
    string(TOLOWER "${Extension}" Extension)
    if(HeaderOnly OR NOT Extension MATCHES "^\\.(cc|cp|cpp|cxx|c\\+\\+|cu)$")
      continue() # Headers are checked through the sources that include them.
    endif()

    # One stamp per source, beside a depfile of the project headers it read
    # (-MMD: not the system's), so that a source is checked again when it or
    # one of them changes.
    string(REGEX REPLACE "^/+" "" Relative "${Absolute}")
    string(REPLACE ":" "" Relative "${Relative}")
    set(Stamp
      ${CMAKE_CURRENT_BINARY_DIR}/gpuguard-lint/${Target}/${Relative}.checked)
    cmake_path(RELATIVE_PATH Absolute BASE_DIRECTORY ${CMAKE_SOURCE_DIR}
      OUTPUT_VARIABLE Shown)
    add_custom_command(OUTPUT ${Stamp}
      COMMAND ${Tool} -p ${CMAKE_BINARY_DIR} ${Options}
              --extra-arg=-MMD --extra-arg=-MF --extra-arg=${Stamp}.d
              --extra-arg=-MT --extra-arg=${Stamp}
              ${Absolute}
      COMMAND ${CMAKE_COMMAND} -E touch ${Stamp}
      DEPENDS ${Absolute} ${ToolDepends}
      DEPFILE ${Stamp}.d
      COMMENT "gpuguard: checking ${Shown}"
      VERBATIM)
    list(APPEND Stamps ${Stamp})
  endforeach()
  if(NOT Stamps)
    message(WARNING "gpuguard_lint(${Target}): no C++ or CUDA source to check")
    return()
  endif()

  add_custom_target(${Target}_gpuguard_lint DEPENDS ${Stamps})
  add_dependencies(${Target} ${Target}_gpuguard_lint)
  # The compile commands gpuguard reads.
  set_property(TARGET ${Target} PROPERTY EXPORT_COMPILE_COMMANDS ON)
endfunction()
