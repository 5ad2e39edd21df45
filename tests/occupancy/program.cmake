# program.cmake: cucc-occupancy FILE.cu against the CUDA occupancy API in the
# program built from FILE.cu (it prints `OCC name|block|blocks/SM|regs|smem`
# for each kernel): the best block size, the blocks per SM, the registers
# and the shared memory must be the same. Then the report and a plot.
# -DTOOL -DCUCC -DSRC -DWORK
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
macro(run var)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE ${var}
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${${var}}${err}")
  endif()
endmacro()
run(prog_build ${CUCC} -arch=sm_86 ${SRC} -o ${WORK}/kernels)
run(prog ${WORK}/kernels)
# the report (best block sizes), the table and the plot of every kernel
run(report ${TOOL} ${SRC} -arch=sm_86 --csv=${WORK}/kernels.csv --plot ${WORK}/kernels.svg)
file(READ ${WORK}/kernels.csv csv)
run(csv_dyn ${TOOL} ${SRC} -arch=sm_86 --kernel dynamic --dyn-smem 60000 --csv)
string(REGEX MATCHALL "OCC [^\n]*" lines "${prog}")
list(LENGTH lines n)
if(n LESS 6)
  message(FATAL_ERROR "the program printed ${n} kernels:\n${prog}")
endif()
foreach(l IN LISTS lines)
  string(REGEX REPLACE "^OCC " "" l "${l}")
  string(REPLACE "|" ";" l "${l}")
  list(GET l 0 name)
  list(GET l 1 block)
  list(GET l 2 blocks)
  list(GET l 3 regs)
  list(GET l 4 smem)
  set(table "${csv}")
  if(name MATCHES "\\+60000$")
    string(REGEX REPLACE "\\+60000$" "" name "${name}")
    set(table "${csv_dyn}")
  endif()
  string(REGEX REPLACE "([][()*+.^$])" "\\\\\\1" re "${name}")
  if(NOT table MATCHES "\"${re}\",sm_86,chosen,([0-9]+),([0-9]+),([0-9]+),([0-9]+),")
    message(FATAL_ERROR "cucc-occupancy has no chosen row for ${name}:\n${table}")
  endif()
  set(got "${CMAKE_MATCH_1} ${CMAKE_MATCH_4} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3}")
  if(NOT got STREQUAL "${block} ${blocks} ${regs} ${smem}")
    message(FATAL_ERROR "${name}: cucc-occupancy says block ${CMAKE_MATCH_1}, ${CMAKE_MATCH_4} blocks/SM, "
                        "${CMAKE_MATCH_2} registers, ${CMAKE_MATCH_3} bytes; the program ${block}, ${blocks}, "
                        "${regs}, ${smem}")
  endif()
  message("${name}: block ${block}, ${blocks} blocks/SM, ${regs} registers, ${smem} bytes: same")
endforeach()

foreach(re "kernel bounded\\(float \\*\\) \\([^)]*kernels.cu:[0-9]+\\)" "__launch_bounds__\\(128\\)"
           "Threads per block +128 \\(cudaOccupancyMaxPotentialBlockSize's choice"
           "kernel tiled\\(float \\*\\)" "12000 bytes \\(12000 static, 0 dynamic\\)"
           "kernel many<16>\\(float \\*\\)" "sm_86, GeForce RTX 3080")
  if(NOT report MATCHES "${re}")
    message(FATAL_ERROR "the report does not match '${re}':\n${report}")
  endif()
endforeach()
file(READ ${WORK}/kernels.svg svg)
string(REGEX MATCHALL "class=\"me\"" marks "${svg}")
list(LENGTH marks n)
# 5 kernels, 3 graphs each
if(NOT n EQUAL 15 OR NOT svg MATCHES "many&lt;16&gt;\\(float \\*\\)")
  message(FATAL_ERROR "kernels.svg: ${n} marks (15), or no many&lt;16&gt;")
endif()
message("PASS")
