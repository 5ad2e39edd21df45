// warp_args.cu: lane values passed to __device__ functions that run as
// warps (they shuffle): a callee that only reads its parameter gets the
// caller's lanes as they are (no copy, build.c callw_direct), one that
// changes it gets a copy (the caller's value unchanged after the call); the
// same variable for two parameters, a chain of such calls, a call under a
// divergent branch, and a parameter passed on by a callee. Against the CPU.
#include <cstdio>

__device__ float sum_xor(float v) {   // changes v: the caller's stays
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ float peek(float v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
__device__ float both(float a, float b) { return __shfl_xor_sync(0xffffffffu, a, 1) - b; }
__device__ float chain(float v) { return peek(v, 1) + peek(v, 2) + v; }
__device__ int ipeek(int v, unsigned m) { return __shfl_sync(m, v, 0, 16); }
__device__ float peek16(float v, int d) { return __shfl_down_sync(0x0000ffffu, v, d, 16); }

__global__ void args(const float *in, float *out, int *iout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  int k = (int)x * 3;
  float s = sum_xor(x);
  out[i * 6 + 0] = s;
  out[i * 6 + 1] = x;   // not changed by sum_xor
  out[i * 6 + 2] = both(x, x);
  out[i * 6 + 3] = chain(x);
  float y = -1.0f;
  if ((threadIdx.x & 31) < 16) y = peek16(x, 3);
  out[i * 6 + 4] = y;
  out[i * 6 + 5] = sum_xor(s) / 32.0f;
  iout[i] = ipeek(k, 0xffffffffu) + k;
}

int main() {
  const int n = 128;
  float *in, *out;
  int *iout;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * 6 * sizeof(float));
  cudaMallocManaged(&iout, n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (float)((i * 7) % 13);
  args<<<2, 64>>>(in, out, iout);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int w = i / 32 * 32, l = i % 32;
    float s = 0;
    for (int j = 0; j < 32; j++) s += in[w + j];
    float dn1 = l + 1 < 32 ? in[i + 1] : in[i], dn2 = l + 2 < 32 ? in[i + 2] : in[i];
    float dn3 = l + 3 < 16 ? in[i + 3] : in[i];
    float want[6] = {s, in[i], in[w + (l ^ 1)] - in[i], dn1 + dn2 + in[i], l < 16 ? dn3 : -1.0f, s};
    for (int c = 0; c < 6; c++)
      if (out[i * 6 + c] != want[c]) {
        if (bad++ < 8) printf("thread %d value %d: %g, want %g\n", i, c, out[i * 6 + c], want[c]);
      }
    int k = (int)in[i] * 3, k0 = (int)in[w + (l / 16) * 16] * 3;
    if (iout[i] != k0 + k && bad++ < 8) printf("thread %d int: %d, want %d\n", i, iout[i], k0 + k);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
