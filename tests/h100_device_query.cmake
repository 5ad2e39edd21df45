# h100_device_query.cmake: cucc-devicequery attrs under CUCC_DEVICE=sm_90
# against every ATTR line recorded on a real H100 (tests/data). The one
# attribute cucc answers differently on purpose: ClusterLaunch (cucc cannot
# launch thread block clusters). -DTOOL=cucc-devicequery -DDATA=the file
file(STRINGS ${DATA} want REGEX "^ATTR ")
execute_process(COMMAND ${CMAKE_COMMAND} -E env CUCC_DEVICE=sm_90 ${TOOL} attrs
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cucc-devicequery attrs failed (${rc}): ${err}")
endif()
set(n 0)
set(bad "")
foreach(line IN LISTS want)
  if(line MATCHES "^ATTR ClusterLaunch ")
    continue()
  endif()
  string(FIND "${out}\n" "${line}\n" at)
  if(at EQUAL -1)
    string(APPEND bad "\n  H100: ${line}")
  endif()
  math(EXPR n "${n} + 1")
endforeach()
if(n LESS 40)
  message(FATAL_ERROR "only ${n} ATTR lines in ${DATA}")
endif()
if(bad)
  message(FATAL_ERROR "cucc-devicequery differs from the H100 on:${bad}\ncucc's:\n${out}")
endif()
message(STATUS "${n} attributes as the H100 gives them")
