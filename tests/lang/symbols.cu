// symbols.cu: __device__ and __constant__ variables (scalars, arrays,
// structs, initialized or not) read and written by kernels and device
// functions, and the host's symbol API with its errors, against a CPU
// reference.
#include <cstdio>
#include <cuda_runtime.h>

struct Coef { float gain; int tap[3]; };

__constant__ float c_w[4];
__constant__ Coef c_coef;
__device__ int d_hits;
__device__ float d_tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ unsigned d_last = 77;
__device__ int d_mark[8];
__device__ float d_unused[5];   // never used by a kernel: still a symbol
namespace ns { __device__ int d_scale = 3; }
static __constant__ int c_static[3];          // internal linkage: bound by key
namespace { __device__ int d_anon = 5; }
namespace ns { static __device__ float d_sfac = 0.5f; }

__device__ float blend(int i) { return c_w[i % 4] * d_tab[i % 8] + c_coef.tap[i % 3]; }

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = blend(i) * c_coef.gain * ns::d_scale;
  if (i & 1) v += c_w[3];         // divergent read of constant memory
  out[i] = v;
  atomicAdd(&d_hits, 1);
  if (i == n - 1) d_last = i;
  if (i < 8) d_mark[i] = i * i;   // kernels write __device__ arrays
}

__global__ void statics(int *out) {
  int i = threadIdx.x;
  out[i] = c_static[i % 3] * d_anon + (int)(ns::d_sfac * 4);
  atomicAdd(&d_anon, 0);
}

__global__ void through_ptr(float *tab, int *hits) { tab[threadIdx.x] *= 2; atomicAdd(hits, 10); }

static int fails;
static void check(bool ok, const char *what) {
  if (!ok) { printf("FAIL: %s\n", what); fails++; }
}

int main() {
  const int n = 100;
  float w[4] = {0.5f, 2.0f, -1.0f, 3.0f};
  Coef cf = {1.5f, {1, -2, 4}};
  check(cudaMemcpyToSymbol(c_w, w, sizeof w) == cudaSuccess, "copy c_w");
  check(cudaMemcpyToSymbol(c_coef, &cf, sizeof cf) == cudaSuccess, "copy c_coef");
  // a part of a symbol, at an offset
  float w3 = 2.5f;
  check(cudaMemcpyToSymbol(c_w, &w3, sizeof w3, 3 * sizeof(float)) == cudaSuccess, "offset copy");
  w[3] = w3;
  float *out;
  cudaMalloc(&out, n * sizeof(float));
  fill<<<(n + 31) / 32, 32>>>(out, n);
  check(cudaDeviceSynchronize() == cudaSuccess, "launch");
  float got[n];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  float tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < n; i++) {
    float v = (w[i % 4] * tab[i % 8] + cf.tap[i % 3]) * cf.gain * 3;
    if (i & 1) v += w[3];
    if (got[i] != v) { printf("out[%d] = %g, expected %g\n", i, got[i], v); fails++; break; }
  }
  int hits = 0;
  unsigned last = 0;
  float dt[8];
  int mark[8];
  check(cudaMemcpyFromSymbol(&hits, d_hits, sizeof hits) == cudaSuccess, "read d_hits");
  check(cudaMemcpyFromSymbol(&last, d_last, sizeof last, 0, cudaMemcpyDeviceToHost) == cudaSuccess, "read d_last");
  check(cudaMemcpyFromSymbol(mark, d_mark, sizeof mark) == cudaSuccess, "read d_mark");
  check(hits == n, "atomic count in a __device__ int");
  check(last == n - 1, "__device__ scalar written by a kernel");
  for (int i = 0; i < 8; i++) check(mark[i] == i * i, "__device__ array written by a kernel");

  // cudaGetSymbolAddress: the variable as an ordinary device pointer
  float *pt = 0;
  int *ph = 0;
  size_t sz = 0;
  check(cudaGetSymbolAddress((void **)&pt, d_tab) == cudaSuccess && pt, "address of d_tab");
  check(cudaGetSymbolAddress((void **)&ph, d_hits) == cudaSuccess && ph, "address of d_hits");
  check(cudaGetSymbolSize(&sz, d_unused) == cudaSuccess && sz == 5 * sizeof(float), "size of d_unused");
  through_ptr<<<1, 8>>>(pt, ph);
  cudaDeviceSynchronize();
  check(cudaMemcpyFromSymbol(dt, d_tab, sizeof dt) == cudaSuccess, "read d_tab again");
  check(cudaMemcpyFromSymbol(&hits, d_hits, sizeof hits) == cudaSuccess, "read d_hits again");
  for (int i = 0; i < 8; i++) check(dt[i] == 2 * tab[i], "kernel through the symbol's address");
  check(hits == n + 80, "atomics through the symbol's address");
  // device to device, through the symbol API
  check(cudaMemcpyToSymbol(d_unused, pt, 5 * sizeof(float), 0, cudaMemcpyDeviceToDevice) == cudaSuccess, "d2d");
  float u[5];
  check(cudaMemcpyFromSymbol(u, d_unused, sizeof u) == cudaSuccess && u[4] == dt[4], "d2d result");

  // static and anonymous-namespace variables: one object for host and device
  int cs[3] = {7, -1, 2}, *so, sh[6];
  check(cudaMemcpyToSymbol(c_static, cs, sizeof cs) == cudaSuccess, "copy to a static __constant__");
  cudaMalloc(&so, sizeof sh);
  statics<<<1, 6>>>(so);
  cudaMemcpy(sh, so, sizeof sh, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; i++) check(sh[i] == cs[i % 3] * 5 + 2, "kernel reading static variables");
  int anon = 0;
  check(cudaMemcpyFromSymbol(&anon, d_anon, sizeof anon) == cudaSuccess && anon == 5, "anonymous namespace symbol");

  // errors, as CUDA reports them
  static float not_a_symbol[4];
  check(cudaMemcpyToSymbol(not_a_symbol, w, sizeof w) == cudaErrorInvalidSymbol, "not a symbol");
  check(cudaGetLastError() == cudaErrorInvalidSymbol, "last error");
  check(cudaMemcpyToSymbol(c_w, w, sizeof w, 4) == cudaErrorInvalidValue, "past the end");
  check(cudaMemcpyToSymbol(c_w, w, 5 * sizeof(float)) == cudaErrorInvalidValue, "too long");
  check(cudaMemcpyToSymbol(c_w, w, sizeof w, 0, cudaMemcpyDeviceToHost) == cudaErrorInvalidMemcpyDirection,
        "direction to");
  check(cudaMemcpyFromSymbol(w, c_w, sizeof w, 0, cudaMemcpyHostToDevice) == cudaErrorInvalidMemcpyDirection,
        "direction from");
  check(cudaGetSymbolAddress((void **)&pt, not_a_symbol) == cudaErrorInvalidSymbol, "address of non-symbol");
  cudaGetLastError();
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
