// ret_forward.cu: device functions that return another's result or a
// collective's as it is (the caller's array of results written by the
// callee itself, lowering/build.c): chains of them, under divergence, after
// an early return of some lanes, with widths, and a return whose type
// differs (converted, not forwarded). Each lane's answer against a CPU
// model of the warp.
#include <cstdio>

__device__ float sx(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ float sx2(float v, int m) { return sx(v, m); }
__device__ float sx3(float v, int m) { return sx2(v, m) ; }
__device__ int sxi(float v, int m) { return sx(v, m); }   // float -> int
__device__ float sdn(float v, int d, int w) { return __shfl_down_sync(0xffffffffu, v, d, w); }
__device__ float sxm(float v, int m) { return __shfl_xor_sync(__activemask(), v, m); }
__device__ float sxm2(float v, int m) { return sxm(v, m); }
__device__ float early(float v, int t, int m) {
  if ((t >> 1) % 3 == 0) return -1.0f;   // these lanes leave first, in pairs
  return sxm2(v, m);   // partners l ^ 1: both here
}
__device__ float sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += sx3(v, o);
  return v;
}

__global__ void k(const float *in, float *out) {
  int t = threadIdx.x, lane = t & 31;
  float v = in[t];
  float *o = out + 8 * t;
  o[0] = sx3(v, 3);
  o[1] = (float)sxi(v + 0.5f, 5);
  o[2] = sdn(v, 2, 8);
  o[3] = lane < 16 ? sxm(v, 4) : 100.0f;   // partners within the first half
  o[4] = early(v, t, 1);
  o[5] = sum(v);
  if (lane & 1) o[6] = sx2(v, 2);   // odd lanes, partners odd
  else o[6] = 7.0f;
  o[7] = 0;
}

static float cx(const float *w, int l, int m) { return w[l ^ m]; }

int main() {
  const int n = 64;
  float in[n], out[8 * n], *din, *dout;
  for (int i = 0; i < n; i++) in[i] = (float)((i * 37) % 11);
  cudaMalloc(&din, sizeof in);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  k<<<1, n>>>(din, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < n; t++) {
    const float *w = in + (t & ~31);
    int l = t & 31;
    float e[8];
    e[0] = cx(w, l, 3);
    e[1] = (float)(int)(w[l ^ 5] + 0.5f);
    e[2] = (l & 7) + 2 < 8 ? w[l + 2] : w[l];
    e[3] = l < 16 ? cx(w, l, 4) : 100.0f;
    e[4] = (t >> 1) % 3 == 0 ? -1.0f : w[l ^ 1];
    float s = 0;
    for (int j = 0; j < 32; j++) s += w[j];
    e[5] = s;
    e[6] = (l & 1) ? cx(w, l, 2) : 7.0f;
    e[7] = 0;
    for (int j = 0; j < 8; j++)
      if (out[8 * t + j] != e[j]) {
        if (bad++ < 10) printf("FAIL thread %d, o[%d] = %g, expected %g\n", t, j, out[8 * t + j], e[j]);
      }
  }
  if (bad) return 1;
  printf("PASS\n");
  return 0;
}
