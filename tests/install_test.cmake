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
