# output_device.cmake: an output that is no regular file (`-o /dev/null`, as
# syntax checks write it) is never removed, neither by a failed compile nor
# before a link or an archive. The test names a FIFO of its own instead of
# /dev/null, which a failure here would delete for the whole machine.
#   cmake -DCUCC=<cucc> -DWORKDIR=<dir> -P output_device.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
set(fifo "${WORKDIR}/sink")
execute_process(COMMAND mkfifo "${fifo}" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "mkfifo failed: ${rc}")
endif()
file(WRITE "${WORKDIR}/bad.cu" "__global__ void k() { no_such_function(); }\nint main() { return 0; }\n")
foreach(mode "" "-c" "-lib")
  execute_process(COMMAND "${CUCC}" ${mode} "${WORKDIR}/bad.cu" -o "${fifo}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out TIMEOUT 60)
  if(NOT rc OR NOT err MATCHES "bad\\.cu:1:[0-9]+: error:")
    message(FATAL_ERROR "cucc ${mode} bad.cu -o sink: exit ${rc}, expected the compile error:\n${err}")
  endif()
  execute_process(COMMAND stat -c %F "${fifo}" OUTPUT_VARIABLE kind OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT kind STREQUAL "fifo")
    message(FATAL_ERROR "after cucc ${mode} failed with -o sink, sink is '${kind}', not the fifo it was")
  endif()
endforeach()
message("PASSED: the fifo named by -o survives failed compiles")
