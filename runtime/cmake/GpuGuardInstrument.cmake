# gpuguard_instrument(<target> [MODE flagged|all] [OUTPUT_DIR <dir>])
#
# Adds <target>_gpuguard: the same program or library, built from copies of
# <target>'s sources in which `gpuguard instrument` inserted runtime checks
# (MODE flagged: at the sites gpuguard warns about; all: at every site it
# cannot prove safe). Each copy is written to <dir>/<absolute source path>
# and remade whenever its source changes. The twin compiles with <target>'s
# include directories, definitions, options and features, links what
# <target> links, and links gpuguard::runtime (and gpuguard::runtime_torch
# when <target> links LibTorch).
#
# Call it after <target>'s own target_* commands: their values are copied
# when it runs. The gpuguard executable is ${GPUGUARD_EXECUTABLE}, else the
# `gpuguard` target of the same build, else `gpuguard` on the PATH.
#
# `gpuguard instrument` reads <target>'s compile commands from
# ${CMAKE_BINARY_DIR}/compile_commands.json, which this function turns on
# for <target>.

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/GpuGuardExecutable.cmake)

function(gpuguard_instrument Target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MODE;OUTPUT_DIR" "")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuguard_instrument(${Target}): unknown arguments "
      "'${ARG_UNPARSED_ARGUMENTS}'; usage: gpuguard_instrument(<target> "
      "[MODE flagged|all] [OUTPUT_DIR <dir>])")
  endif()
  if(NOT TARGET ${Target})
    message(FATAL_ERROR "gpuguard_instrument: '${Target}' is not a target; "
      "call it after add_executable/add_library(${Target} ...)")
  endif()
  if(NOT ARG_MODE)
    set(ARG_MODE flagged)
  endif()
  if(NOT ARG_MODE MATCHES "^(flagged|all)$")
    message(FATAL_ERROR "gpuguard_instrument(${Target}): MODE is "
      "'${ARG_MODE}'; use MODE flagged or MODE all")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/gpuguard/${Target})
  endif()
  cmake_path(ABSOLUTE_PATH ARG_OUTPUT_DIR
    BASE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE)

  # Properties a twin takes over as they are.
  set(CopiedProperties
    INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FEATURES
    LINK_OPTIONS LINK_DIRECTORIES
    INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS
    INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_FEATURES
    INTERFACE_LINK_LIBRARIES INTERFACE_LINK_OPTIONS
    C_STANDARD CXX_STANDARD CXX_STANDARD_REQUIRED CXX_EXTENSIONS
    CUDA_STANDARD CUDA_STANDARD_REQUIRED CUDA_EXTENSIONS
    CUDA_ARCHITECTURES CUDA_SEPARABLE_COMPILATION CUDA_RUNTIME_LIBRARY
    CUDA_RESOLVE_DEVICE_SYMBOLS POSITION_INDEPENDENT_CODE
    LINKER_LANGUAGE)

  get_target_property(Type ${Target} TYPE)
  if(Type STREQUAL "INTERFACE_LIBRARY" OR Type STREQUAL "UTILITY")
    message(FATAL_ERROR "gpuguard_instrument: '${Target}' (${Type}) has no "
      "sources to instrument")
  endif()

  # The gpuguard executable, and what the copies must wait for.
  _gpuguard_executable(gpuguard_instrument ${Target} Tool ToolDepends)

  get_target_property(SourceDir ${Target} SOURCE_DIR)
  get_target_property(BinaryDir ${Target} BINARY_DIR)
  get_target_property(Sources ${Target} SOURCES)
  set(TwinSources "")
  foreach(Source IN LISTS Sources)
    if(Source MATCHES "^\\$<")
      # A generator expression (object files of another target, ...).
      list(APPEND TwinSources ${Source})
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH Source BASE_DIRECTORY ${SourceDir}
      NORMALIZE OUTPUT_VARIABLE Absolute)
    if(NOT EXISTS ${Absolute})
      # A source generated in the build tree.
      cmake_path(ABSOLUTE_PATH Source BASE_DIRECTORY ${BinaryDir}
        NORMALIZE OUTPUT_VARIABLE Generated)
      get_source_file_property(IsGenerated ${Generated}
        TARGET_DIRECTORY ${Target} GENERATED)
      if(IsGenerated)
        set(Absolute ${Generated})
      endif()
    endif()
    get_source_file_property(Language ${Absolute}
      TARGET_DIRECTORY ${Target} LANGUAGE)
    if(NOT Language)
      get_source_file_property(Language ${Source}
        TARGET_DIRECTORY ${Target} LANGUAGE)
    endif()
    get_source_file_property(HeaderOnly ${Absolute}
      TARGET_DIRECTORY ${Target} HEADER_FILE_ONLY)
    cmake_path(GET Absolute EXTENSION LAST_ONLY Extension)
    string(TOLOWER "${Extension}" Extension)
    if(HeaderOnly OR NOT (Language OR
        Extension MATCHES "^\\.(c|cc|cp|cpp|cxx|c\\+\\+|cu)$"))
      # Headers, object files, resources: used as they are.
      list(APPEND TwinSources ${Absolute})
      continue()
    endif()

    # The copy mirrors the source's absolute path (a drive letter becomes a
    # directory), as `gpuguard instrument -o` writes it.
    string(REGEX REPLACE "^/+" "" Relative "${Absolute}")
    string(REPLACE ":" "" Relative "${Relative}")
    set(Copy ${ARG_OUTPUT_DIR}/${Relative})
    cmake_path(RELATIVE_PATH Absolute BASE_DIRECTORY ${CMAKE_SOURCE_DIR}
      OUTPUT_VARIABLE Shown)
    add_custom_command(OUTPUT ${Copy}
      COMMAND ${Tool} instrument -p ${CMAKE_BINARY_DIR} -o ${ARG_OUTPUT_DIR}
              --instrument=${ARG_MODE} ${Absolute}
      DEPENDS ${Absolute} ${ToolDepends}
      COMMENT "gpuguard: instrumenting ${Shown} (${ARG_MODE})"
      VERBATIM)
    if(Language)
      set_source_files_properties(${Copy} PROPERTIES LANGUAGE ${Language})
    endif()
    list(APPEND TwinSources ${Copy})
  endforeach()

  set(Twin ${Target}_gpuguard)
  if(Type STREQUAL "EXECUTABLE")
    add_executable(${Twin} ${TwinSources})
  elseif(Type STREQUAL "OBJECT_LIBRARY")
    add_library(${Twin} OBJECT ${TwinSources})
  else()
    string(REPLACE "_LIBRARY" "" Kind ${Type})
    add_library(${Twin} ${Kind} ${TwinSources})
  endif()

  foreach(Property IN LISTS CopiedProperties)
    get_target_property(Value ${Target} ${Property})
    if(NOT Value STREQUAL "Value-NOTFOUND")
      set_property(TARGET ${Twin} PROPERTY ${Property} "${Value}")
    endif()
  endforeach()
  get_target_property(Libraries ${Target} LINK_LIBRARIES)
  if(NOT Libraries)
    set(Libraries "")
  endif()
  target_link_libraries(${Twin} PRIVATE ${Libraries} gpuguard::runtime)
  # The compile commands `gpuguard instrument` reads.
  set_property(TARGET ${Target} PROPERTY EXPORT_COMPILE_COMMANDS ON)

  # LibTorch: the imported targets (torch, torch_cpu, torch_library, ...) or
  # the library files ${TORCH_LIBRARIES} names.
  set(LinksTorch OFF)
  foreach(Library IN LISTS Libraries)
    if(Library MATCHES "(^|[/:])(lib)?(torch|torch_cpu|torch_cuda|c10)([.][^/]*)?$"
       OR Library MATCHES "^Torch::")
      set(LinksTorch ON)
    endif()
  endforeach()
  if(LinksTorch)
    if(TARGET gpuguard::runtime_torch)
      target_link_libraries(${Twin} PRIVATE gpuguard::runtime_torch)
    else()
      message(WARNING "gpuguard_instrument(${Target}): it links LibTorch, but "
        "gpuguard::runtime_torch was not built; the LibTorch checks of "
        "${Twin} will not link")
    endif()
  endif()
endfunction()
