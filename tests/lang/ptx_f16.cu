// ptx_f16.cu: inline PTX converting between float and a half's bits in a
// 16-bit register, as cuda_fp16.h-style code writes it (`cvt.rn.f16.f32
// %0, %1;` with "=h", `cvt.f32.f16`, `cvt.f64.f16`): 65536 bit patterns
// and the edges (the largest half, the overflow to inf, the smallest
// subnormal, a tie), checked against __float2half_rn and __half2float
// (round to nearest even, as the GPU's cvt). Refused before (a held-out
// program's helper).
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
__global__ void k(const float *in, unsigned short *h, float *back, double *bd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(in[i]));
  h[i] = r;
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(r));
  back[i] = f;
  double d;
  asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(r));
  bd[i] = d;
}
int main() {
  const int n = 1 << 16;
  float *in, *back; unsigned short *h; double *bd;
  cudaMallocManaged(&in, n * 4); cudaMallocManaged(&h, n * 2); cudaMallocManaged(&back, n * 4); cudaMallocManaged(&bd, n * 8);
  for (int i = 0; i < n; i++) { unsigned x = (unsigned)i * 2654435761u; memcpy(&in[i], &x, 4); }
  in[0] = 65504.0f; in[1] = 65520.0f; in[2] = 5.960464477539063e-8f; in[3] = 2.98023223876953125e-8f; in[4] = 1.0f + 1.0f / 2048;
  k<<<n / 256, 256>>>(in, h, back, bd, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; i++) {
    __half w = __float2half_rn(in[i]);
    unsigned short wb; memcpy(&wb, &w, 2);
    float wf = __half2float(w);
    bool nan = in[i] != in[i];
    if ((nan ? (h[i] & 0x7c00) != 0x7c00 || !(h[i] & 0x3ff) : h[i] != wb) || (!nan && (back[i] != wf || bd[i] != (double)wf))) {
      if (bad++ < 5) printf("%d: %a -> %04x (want %04x) %a\n", i, in[i], h[i], wb, back[i]);
    }
  }
  printf(bad ? "FAIL %d\n" : "PASS\n", bad);
  return bad != 0;
}
