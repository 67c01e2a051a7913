# _gpuguard_executable(<caller> <target> <tool-var> <depends-var>)
#
# The gpuguard executable the CMake functions run, for <caller>(<target>):
# ${GPUGUARD_EXECUTABLE}, else the `gpuguard` target of the same build, else
# `gpuguard` on the PATH; and what commands running it must depend on (the
# target, or the file). Stops the configuration with one line naming the
# fix when there is none.

include_guard(GLOBAL)

function(_gpuguard_executable Caller Target ToolVar DependsVar)
  set(Tool "")
  set(ToolDepends "")
  if(GPUGUARD_EXECUTABLE)
    set(Tool ${GPUGUARD_EXECUTABLE})
  elseif(TARGET gpuguard)
    set(Tool $<TARGET_FILE:gpuguard>)
    set(ToolDepends gpuguard)
  else()
    find_program(GPUGUARD_EXECUTABLE gpuguard)
    if(NOT GPUGUARD_EXECUTABLE)
      message(FATAL_ERROR "${Caller}(${Target}): no gpuguard "
        "executable next to the GpuGuard package or on the PATH; pass "
        "-DGPUGUARD_EXECUTABLE=<path to gpuguard>")
    endif()
    set(Tool ${GPUGUARD_EXECUTABLE})
  endif()
  if(NOT ToolDepends AND NOT Tool MATCHES "^\\$<")
    set(ToolDepends ${Tool})
  endif()
  set(${ToolVar} ${Tool} PARENT_SCOPE)
  set(${DependsVar} ${ToolDepends} PARENT_SCOPE)
endfunction()
