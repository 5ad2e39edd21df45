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
