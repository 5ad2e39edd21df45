# plot.cmake: cucc-occupancy --plot: an SVG of the three graphs with the
# configuration marked (the register cliff: 12 registers, 40 warps); a PNG
# through a converter when one is installed (-DCONVERTER=ON), else a clear
# error. -DTOOL -DWORK -DCONVERTER
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(args --arch sm_20:regsPerSM=16384 --threads 256 --regs 12)
execute_process(COMMAND ${TOOL} ${args} --plot ${WORK}/cliff.svg RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/cliff.svg)
  message(FATAL_ERROR "--plot cliff.svg failed: ${err}")
endif()
file(READ ${WORK}/cliff.svg svg)
foreach(re "^<\\?xml[^\n]*\n<svg xmlns=\"http://www.w3.org/2000/svg\"" "</svg>\n$"
           ">Varying block size<" ">Varying registers per thread<" ">Varying shared memory per block<"
           "sm_20, GeForce GTX 480 \\(regsPerSM=16384\\)" "5 blocks, 40 of 48 warps per SM \\(83%\\)"
           "<title>12: 40 warps per SM</title>" "<title>256: 40 warps per SM</title>")
  if(NOT svg MATCHES "${re}")
    message(FATAL_ERROR "cliff.svg does not match '${re}'")
  endif()
endforeach()
# every element closed: as many opening as closing tags of each kind
foreach(t g text title svg)
  string(REGEX MATCHALL "<${t}[ >]" open "${svg}")
  string(REGEX MATCHALL "</${t}>" close "${svg}")
  list(LENGTH open o)
  list(LENGTH close c)
  if(NOT o EQUAL c)
    message(FATAL_ERROR "cliff.svg: ${o} <${t}> but ${c} </${t}>")
  endif()
endforeach()
# a name that is neither
execute_process(COMMAND ${TOOL} ${args} --plot ${WORK}/cliff.pdf RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "must end in .svg or .png")
  message(FATAL_ERROR "--plot cliff.pdf: ${rc} ${err}")
endif()
execute_process(COMMAND ${TOOL} ${args} --plot ${WORK}/cliff.png RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(CONVERTER)
  file(READ ${WORK}/cliff.png head LIMIT 8 HEX)
  if(NOT rc EQUAL 0 OR NOT head STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "--plot cliff.png with a converter: ${rc} ${err}")
  endif()
else()
  if(rc EQUAL 0 OR NOT err MATCHES "rsvg-convert" OR EXISTS ${WORK}/cliff.png)
    message(FATAL_ERROR "--plot cliff.png without a converter: ${rc} ${err}")
  endif()
endif()
message("PASS")
