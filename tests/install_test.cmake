# install_test.cmake: cucc works from an install prefix, finding its headers
# and runtime relative to its own executable. -DBUILD=... -DSRC=...
set(prefix ${BUILD}/tests/t/install_tree/prefix)
file(REMOVE_RECURSE ${BUILD}/tests/t/install_tree)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND ${prefix}/bin/cucc ${SRC}/samples/vector_add.cu -o ${prefix}/vector_add
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed cucc failed: ${err}")
endif()
execute_process(COMMAND ${prefix}/vector_add 1000 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS")
  message(FATAL_ERROR "program built by the installed cucc failed: ${out}")
endif()

# the tools installed beside cucc (issue 25): the calculator, a program's
# kernels through the cucc beside it, deviceQuery, and the profile summary
function(run_tool what want)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT "${out}${err}" MATCHES "${want}")
    message(FATAL_ERROR "installed ${what} failed (${rc}), or no '${want}':\n${out}${err}")
  endif()
endfunction()
run_tool(cucc-occupancy "Threads per block +768 \\(cudaOccupancyMaxPotentialBlockSize"
         ${prefix}/bin/cucc-occupancy --arch sm_90 --regs 40)
run_tool("cucc-occupancy FILE.cu" "kernel vector_add\\([^\n]*vector_add.cu:[0-9]+\\)\n  Device +sm_90"
         ${prefix}/bin/cucc-occupancy ${SRC}/samples/vector_add.cu --arch sm_90)
run_tool(cucc-devicequery "Result = PASS" ${prefix}/bin/cucc-devicequery)
run_tool("CUCC_PROFILE=summary" "cuda_gpu_kern_sum[^\n]*\n.*vector_add"
         ${CMAKE_COMMAND} -E env CUCC_PROFILE=summary ${prefix}/vector_add 1000)

# the prefix is relocatable: moved elsewhere, its cucc still finds all of
# it, and serves CMake's CUDA language and FindCUDAToolkit from there
if(CMAKE_SRC)
  set(moved ${BUILD}/tests/t/install_tree/moved)
  file(RENAME ${prefix} ${moved})
  set(prefix ${moved})
  execute_process(COMMAND ${CMAKE_COMMAND} -DCUCC=${prefix}/bin/cucc -DSRC=${CMAKE_SRC}
                          -DWORK=${BUILD}/tests/t/install_tree/cmake "-DRT_LINK=${RT_LINK}"
                          -P ${SRC}/tests/buildsys/cmake_test.cmake
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the CMake project with the installed, moved cucc failed:\n${out}")
  endif()
  if(out MATCHES "${BUILD}/lib/cucc")
    message(FATAL_ERROR "the installed cucc used the build tree:\n${out}")
  endif()
  run_tool("cucc-occupancy FILE.cu, moved" "kernel vector_add"
           ${prefix}/bin/cucc-occupancy ${SRC}/samples/vector_add.cu)
endif()

# with the aarch64 runtime (-DCROSS_CXX=... -DRUNNER=qemu-aarch64;-L;sysroot):
# the installed cucc finds it under lib/<triple> too
if(CROSS_CXX)
  execute_process(COMMAND ${prefix}/bin/cucc -ccbin ${CROSS_CXX} ${SRC}/samples/vector_add.cu
                          -o ${prefix}/vector_add_cross
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "installed cucc failed with -ccbin ${CROSS_CXX}: ${err}")
  endif()
  execute_process(COMMAND ${RUNNER} ${prefix}/vector_add_cross 1000 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS")
    message(FATAL_ERROR "aarch64 program built by the installed cucc failed: ${out}")
  endif()
endif()
