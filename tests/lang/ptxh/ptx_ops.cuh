// ptx_ops.cuh: device helpers written in inline PTX, in a header of the
// program's own (as CUB's are in its headers). Their constraints ("=h" a
// 16-bit register, "=f" a float one, "=d", "=l") name no register class of
// the host's target: a host compile that parses this header (cucc's host
// unit includes it as it is) must not see the PTX, which clang would refuse
// even in a function it never emits.
#pragma once

__device__ __forceinline__ float fmul_rz(float a, float b) {
  float d;
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}

__device__ __forceinline__ double add_f64(double a, double b) {
  double d;
  asm("add.f64 %0, %1, %2;" : "=d"(d) : "d"(a), "d"(b));
  return d;
}

__device__ __forceinline__ unsigned short ld_u16(const unsigned short *p) {
  unsigned short v;
  asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

// arithmetic in a directed rounding: .rm down, .rp up, .rz toward zero
__device__ __forceinline__ float add_rm(float a, float b) {
  float d;
  asm("add.rm.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
__device__ __forceinline__ float sub_rp(float a, float b) {
  float d;
  asm("sub.rp.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
__device__ __forceinline__ float div_rz(float a, float b) {
  float d;
  asm("div.rz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b));
  return d;
}
__device__ __forceinline__ double fma_rp(double a, double b, double c) {
  double d;
  asm("fma.rp.f64 %0, %1, %2, %3;" : "=d"(d) : "d"(a), "d"(b), "d"(c));
  return d;
}

// as CUB spells its loads: a macro per cache modifier, each line of it
// ending in a backslash
#define PTXH_LOAD(name, mod)                                          \
  __device__ __forceinline__ unsigned long long name(const unsigned long long *p) { \
    unsigned long long v;                                             \
    asm volatile("ld." #mod ".u64 %0, [%1];" : "=l"(v) : "l"(p));     \
    return v;                                                         \
  }
PTXH_LOAD(ld_cg, global.cg)
PTXH_LOAD(ld_cs, global.cs)
#undef PTXH_LOAD

// a host and device function: its body is host code too, and stays
__host__ __device__ inline int twice(int x) { return 2 * x; }
