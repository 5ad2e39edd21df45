# math_api_list.cmake: is every function of the CUDA Math API there?
#   cmake -DCUCC=<cucc> -DLIST=<math_api_list.txt> -DWORKDIR=<dir> -DPART=math|fp16
#         [-DPER_KERNEL=16] -P math_api_list.cmake
# PART math: the groups of the math and intrinsics headers; fp16: those of
# cuda_fp16.h and cuda_bf16.h (the groups whose title names either).
# Turns the list into one .cu (a kernel per group, or per PER_KERNEL calls
# of one, each call's value hashed into the kernel's output so that none
# can be dropped; #line makes every diagnostic name the list's line),
# compiles it with cucc and runs it, so
# that each function must be declared, compile to C and link. Fails with the
# names that are missing; prints the calls the list marks refused.
cmake_minimum_required(VERSION 3.20)
# the device C with the C compiler's warnings as errors, as every test's
if(NOT DEFINED ENV{CUCC_DEVICE_WERROR})
  set(ENV{CUCC_DEVICE_WERROR} 1)
endif()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
get_filename_component(listname "${LIST}" NAME)
file(READ "${LIST}" text)
string(REPLACE ";" "," text "${text}")
string(REPLACE "\n" ";" lines "${text}")

if(PART STREQUAL "fp16")
  set(cu "#define FP16 1\n")
else()
  set(cu "#define FP16 0\n")
endif()
string(APPEND cu [==[#include <cstdio>
#include <cuda_runtime.h>
#if FP16
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif
// folds v's bytes into *o
template <class T> __device__ void use(unsigned int *o, T v) {
  const unsigned char *p = (const unsigned char *)&v;
  unsigned int r = *o;
  for (unsigned int k = 0; k < sizeof(T); k++) r = r * 31u + p[k];
  *o = r;
}
struct In {
  float f; double d; int i; unsigned int u; long l; unsigned long ul; long long ll; unsigned long long ull;
  short s; unsigned short us; bool b; float2 f2; short2 s2v; ushort2 us2v; char4 c4v; uchar4 uc4v;
#if FP16
  __half h; __half2 h2; __nv_bfloat16 bf; __nv_bfloat162 bf2;
#endif
};
#define MVARS                                                                                              \
  float f = in->f; double d = in->d; int i = in->i; unsigned int u = in->u; long l = in->l;               \
  unsigned long ul = in->ul; long long ll = in->ll; unsigned long long ull = in->ull; short s = in->s;     \
  unsigned short us = in->us; bool b = in->b; float2 f2 = in->f2; short2 s2v = in->s2v;                  \
  ushort2 us2v = in->us2v; char4 c4v = in->c4v; uchar4 uc4v = in->uc4v;                                   \
  float af[4] = {f, f, f, f}; double ad[4] = {d, d, d, d}; int ai[4] = {i, i, i, i};                      \
  bool ab[4] = {b, b, b, b}; char ac[4] = {'0', 0, 0, 0};                                                  \
  float *pf = af; double *pd = ad; int *pi = ai; bool *pb = ab; char *pc = ac;                            \
  o += blockIdx.x * blockDim.x + threadIdx.x
#define MOUTS                                                                                              \
  use(o, af[0]); use(o, af[1]); use(o, ad[0]); use(o, ad[1]); use(o, ai[0]); use(o, ab[0]); use(o, ab[1])
#define VARS MVARS
#define OUTS MOUTS
#define SHARED
#if FP16
#undef VARS
#undef OUTS
#undef SHARED
#define VARS                                                                                               \
  MVARS; __half h = in->h; __half2 h2 = in->h2; __nv_bfloat16 bf = in->bf; __nv_bfloat162 bf2 = in->bf2;   \
  __half_raw hr = h; __half2_raw h2r = h2; __nv_bfloat16_raw bfr = bf; __nv_bfloat162_raw bf2r = bf2;      \
  __half *ph = &sh[threadIdx.x]; __half2 *ph2 = &sh2[threadIdx.x];                                        \
  __nv_bfloat16 *pbf = &sbf[threadIdx.x]; __nv_bfloat162 *pbf2 = &sbf2[threadIdx.x];                      \
  *ph = h; *ph2 = h2; *pbf = bf; *pbf2 = bf2
#define OUTS                                                                                               \
  MOUTS; use(o, *ph); use(o, *ph2); use(o, *pbf); use(o, *pbf2)
#define SHARED                                                                                             \
  __shared__ __half sh[32]; __shared__ __half2 sh2[32];                                                    \
  __shared__ __nv_bfloat16 sbf[32]; __shared__ __nv_bfloat162 sbf2[32]
#endif
]==])

# cun: the lines of cu so far; cuN_<line>: the list's line of a call at
# the .cu's <line> (libclang's diagnostics name the .cu's lines, not #line's)
function(emit text)
  string(APPEND cu "${text}")
  string(REGEX MATCHALL "\n" nl "${text}")
  list(LENGTH nl nnl)
  math(EXPR cun "${cun} + ${nnl}")
  set(cu "${cu}" PARENT_SCOPE)
  set(cun ${cun} PARENT_SCOPE)
endfunction()
string(REGEX MATCHALL "\n" nl "${cu}")
list(LENGTH nl cun)
set(n 0)            # line number in the list
set(k 0)            # kernels
set(calls 0)
set(open OFF)
set(incall 0)       # calls in the open kernel
# (a C compiler's time grows faster than a kernel's size: clang takes half
# as long on kernels of 16 calls as on a kernel per group, gcc as long)
if(NOT PER_KERNEL)
  set(PER_KERNEL 16)
endif()
set(skip OFF)       # a group of the other part
set(refused "")
foreach(line IN LISTS lines)
  math(EXPR n "${n} + 1")
  if(line MATCHES "^@ (.*)")
    set(title "${CMAKE_MATCH_1}")
    set(skip OFF)
    if(title MATCHES "cuda_fp16\\.h|cuda_bf16\\.h")
      if(NOT PART STREQUAL "fp16")
        set(skip ON)
      endif()
    elseif(PART STREQUAL "fp16")
      set(skip ON)
    endif()
    if(open)
      emit("  OUTS;\n}\n")
    endif()
    set(open OFF)
    if(NOT skip)
      math(EXPR k "${k} + 1")
      emit("// ${title}\n__global__ void g${k}(const In *in, unsigned int *o) {\n  SHARED;\n  VARS;\n")
      set(open ON)
      set(incall 0)
    endif()
  elseif(line MATCHES "^[ \t]*(#.*)?$" OR skip)
  elseif(line MATCHES "^(.*[^ ]) *# *refused: *(.*)$")
    string(APPEND refused "${listname}:${n}: refused: ${CMAKE_MATCH_1}: ${CMAKE_MATCH_2}\n")
  elseif(NOT open)
    message(FATAL_ERROR "${listname}:${n}: a call before the first '@ group' line")
  else()
    if(incall GREATER_EQUAL ${PER_KERNEL})
      # a group's next calls in a kernel of their own
      math(EXPR k "${k} + 1")
      emit("  OUTS;\n}\n// ${title}, continued\n__global__ void g${k}(const In *in, unsigned int *o) {\n  SHARED;\n  VARS;\n")
      set(incall 0)
    endif()
    math(EXPR incall "${incall} + 1")
    math(EXPR calls "${calls} + 1")
    math(EXPR at "${cun} + 2")
    set(cuN_${at} ${n})
    if(line MATCHES "^void (.*)")
      emit("#line ${n} \"${listname}\"\n  ${CMAKE_MATCH_1};\n")
    else()
      emit("#line ${n} \"${listname}\"\n  use(o, ${line});\n")
    endif()
  endif()
endforeach()
if(open)
  string(APPEND cu "  OUTS;\n}\n")
endif()
string(APPEND cu "#line 1 \"math_api_list_main\"
int main() {
  In *in;
  unsigned int *o;
  cudaMallocManaged(&in, sizeof(In));
  cudaMallocManaged(&o, 32 * ${k} * sizeof(unsigned int));
  memset(in, 0, sizeof(In));
  memset(o, 0, 32 * ${k} * sizeof(unsigned int));
  in->f = 0.75f; in->d = 0.625; in->i = 4; in->u = 0xffffffffu; in->l = 3; in->ul = 5; in->ll = -7;
  in->ull = 9; in->s = 2; in->us = 6; in->b = true; in->f2 = make_float2(0.25f, 3.0f);
  in->s2v = make_short2(3, -4); in->us2v = make_ushort2(3, 4);
  in->c4v = make_char4(1, -2, 3, -4); in->uc4v = make_uchar4(1, 2, 3, 4);
#if FP16
  in->h = __float2half(1.5f); in->h2 = __floats2half2_rn(0.5f, -2.0f);
  in->bf = __float2bfloat16(1.5f); in->bf2 = __floats2bfloat162_rn(0.5f, -2.0f);
#endif
")
foreach(j RANGE 1 ${k})
  math(EXPR off "32 * (${j} - 1)")
  string(APPEND cu "  g${j}<<<1, 32>>>(in, o + ${off});\n")
endforeach()
string(APPEND cu "  if (cudaDeviceSynchronize() != cudaSuccess) { printf(\"FAIL: %s\\n\", cudaGetErrorString(cudaGetLastError())); return 1; }
  unsigned int h = 0;
  for (int j = 0; j < 32 * ${k}; j++) h = h * 31u + o[j];
  printf(\"PASS: ${calls} calls in ${k} kernels (%08x)\\n\", h);
  return 0;
}
")
set(src "${WORKDIR}/math_api_list_${PART}.cu")
file(WRITE "${src}" "${cu}")
if(refused)
  message("${refused}")
endif()

# (a presence test: the device C is compiled for speed of compiling)
execute_process(COMMAND "${CUCC}" -Ofc=max "${src}" -o "${WORKDIR}/math_api_list"
  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  # one line per missing call, from the diagnostics at the list's lines
  string(REPLACE ";" "," err "${err}")
  string(REPLACE "\n" ";" errs "${err}")
  set(missing "")
  set(other "")
  get_filename_component(cuname "${src}" NAME)
  foreach(e IN LISTS errs)
    set(ln "")
    if(e MATCHES "${cuname}:([0-9]+):[0-9]+: error: (.*)")
      set(why "${CMAKE_MATCH_2}")
      if(DEFINED cuN_${CMAKE_MATCH_1})
        set(ln ${cuN_${CMAKE_MATCH_1}})
      endif()
    elseif(e MATCHES "${listname}:([0-9]+):[0-9]+: error: (.*)")
      set(ln ${CMAKE_MATCH_1})
      set(why "${CMAKE_MATCH_2}")
    endif()
    if(NOT ln STREQUAL "")
      math(EXPR ix "${ln} - 1")
      list(GET lines ${ix} call)
      string(FIND "${missing}" "line ${ln}:" seen)
      if(seen EQUAL -1)
        string(APPEND missing "MISSING: ${call}  (${listname} line ${ln}: ${why})\n")
      endif()
    elseif(e MATCHES "error")
      string(APPEND other "${e}\n")
    endif()
  endforeach()
  string(REGEX MATCHALL "MISSING: " cnt "${missing}")
  list(LENGTH cnt nmiss)
  message("${missing}${other}")
  message(FATAL_ERROR "math_api_list: ${nmiss} of ${calls} calls missing or failing (cucc exit ${rc}; libclang stops after 20 errors: more may follow)")
endif()
execute_process(COMMAND "${WORKDIR}/math_api_list" WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc
  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASS")
  message(FATAL_ERROR "math_api_list: the program failed (${rc})")
endif()
