# make_test.cmake: tests/buildsys/make, a Makefile written for nvcc, built with
# NVCC=<cucc>: the program runs, -MMD -MP files name the real headers (not
# cucc's temporary files), and a touched header rebuilds what includes it.
#   cmake -DCUCC=... -DMAKE=... -DSRC=tests/buildsys/make -DWORK=<folder> -P make_test.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(COPY ${SRC}/ DESTINATION ${WORK})

function(make what)
  execute_process(COMMAND ${MAKE} NVCC=${CUCC} ${ARGN} WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("make ${ARGN}: ${rc}\n${out}${err}")
  set(make_rc ${rc} PARENT_SCOPE)
  set(make_out "${out}${err}" PARENT_SCOPE)
endfunction()

make(build)
if(NOT make_rc EQUAL 0)
  message(FATAL_ERROR "make failed")
endif()
execute_process(COMMAND ${WORK}/app RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS")
  message(FATAL_ERROR "the program failed")
endif()

# the dependency files: gcc's format, the .cu and its own headers
file(READ ${WORK}/kernels.d kd)
file(READ ${WORK}/main.d md)
message("kernels.d:\n${kd}")
foreach(re "^kernels\\.o: kernels\\.cu " " kernels\\.cuh" " include/params\\.h" "\ninclude/params\\.h:\n"
           "cuda_runtime\\.h")
  if(NOT kd MATCHES "${re}")
    message(FATAL_ERROR "kernels.d does not match '${re}'")
  endif()
endforeach()
foreach(re "cucc-" "\\.host\\.cpp" "\\.dev\\.c" "^[^:]*\\.ii" "/usr/include/c\\+\\+")
  if(kd MATCHES "${re}" OR md MATCHES "${re}")
    message(FATAL_ERROR "a dependency file matches '${re}' (-MMD: no temporary or system files)")
  endif()
endforeach()
if(md MATCHES "params" OR NOT md MATCHES "^main\\.o: main\\.cu ")
  message(FATAL_ERROR "main.d is wrong:\n${md}")
endif()

# up to date; then a header only kernels.cu includes is newer
make(uptodate -q)
if(NOT make_rc EQUAL 0)
  message(FATAL_ERROR "make -q: not up to date after a build")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(TOUCH ${WORK}/include/params.h)
make(uptodate -q)
if(make_rc EQUAL 0)
  message(FATAL_ERROR "make -q: up to date after params.h changed")
endif()
make(rebuild)
if(NOT make_rc EQUAL 0 OR NOT make_out MATCHES "-c kernels\\.cu" OR make_out MATCHES "-c main\\.cu")
  message(FATAL_ERROR "not only kernels.o was rebuilt")
endif()

# cucc's runtime is linked, never a toolkit's libcudart.so (-L$(CUDA_PATH)/lib64)
execute_process(COMMAND ldd ${WORK}/app OUTPUT_VARIABLE ldd ERROR_VARIABLE ldd)
if(ldd MATCHES "libcudart")
  message(FATAL_ERROR "app is linked with a CUDA toolkit's runtime:\n${ldd}")
endif()
message("PASS")
