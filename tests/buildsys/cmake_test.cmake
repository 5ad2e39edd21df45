# cmake_test.cmake: tests/buildsys/cmake configured with
# -DCMAKE_CUDA_COMPILER=<cucc> alone, built, and its programs run.
#   cmake -DCUCC=... -DSRC=tests/buildsys/cmake -DWORK=<folder> [-DRT_LINK=flags]
#         [-DARCHS=80,86 -DARCH=860] -P cmake_test.cmake
# ARCHS: CMAKE_CUDA_ARCHITECTURES (commas for semicolons); ARCH: the
# __CUDA_ARCH__ the programs must see (default 750: CMake's default, sm_75)
# RT_LINK: what programs linked with cucc's runtime need (the sanitizers of
# an ASan build), given to CMake as linker flags.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
set(args -S ${SRC} -B ${WORK} -DCMAKE_CUDA_COMPILER=${CUCC} -DCMAKE_BUILD_TYPE=RelWithDebInfo)
if(ARCHS)
  string(REPLACE "," "\;" a "${ARCHS}")
  list(APPEND args "-DCMAKE_CUDA_ARCHITECTURES=${a}")
endif()
if(NOT ARCH)
  set(ARCH 750)
endif()
if(RT_LINK)
  list(APPEND args "-DCMAKE_EXE_LINKER_FLAGS=${RT_LINK}" "-DCMAKE_SHARED_LINKER_FLAGS=${RT_LINK}")
endif()

function(step)
  string(REPLACE ";" " " line "${ARGN}")
  message("+ ${line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc})")
  endif()
  set(step_out "${out}" PARENT_SCOPE)
endfunction()

step(${CMAKE_COMMAND} ${args})
foreach(re "The CUDA compiler identification is NVIDIA 12\\.8\\.0" "Found CUDAToolkit")
  if(NOT step_out MATCHES "${re}")
    message(FATAL_ERROR "configure output does not match '${re}'")
  endif()
endforeach()
# CUDA::cudart is cucc's runtime, next to the compiler
get_filename_component(prefix ${CUCC} DIRECTORY)
get_filename_component(prefix ${prefix} DIRECTORY)
if(NOT step_out MATCHES "CUDA::cudart is [^\n]*/lib/cucc/lib/libcudart\\.a")
  message(FATAL_ERROR "CUDA::cudart is not cucc's runtime")
endif()
step(${CMAKE_COMMAND} --build ${WORK} -j2)
foreach(exe app app_shared app_cxx "arch;${ARCH}")
  step(${WORK}/${exe})
  if(NOT step_out MATCHES "PASS")
    message(FATAL_ERROR "${exe}: no PASS")
  endif()
endforeach()
message("PASS")
