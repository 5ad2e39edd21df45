// Inlined calls' by-value parameters and results (a device function with a
// barrier is inlined): sroa.c reads a parameter as the caller's argument
// where neither changes while both are live, and a changed parameter copied
// back (`a = f(a)`) as the argument itself. Each kernel checks a case where
// that must not happen as well as one where it may.
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__shared__ int sh[256];

__device__ int bump(int v) {              // changes its parameter
  sh[threadIdx.x] = v;
  __syncthreads();
  v += sh[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  return v;
}
__device__ int twice_if(int v, bool c) {  // changes it under a condition
  __syncthreads();
  if (c) v = 2 * v + 1;
  return v;
}
__device__ int keep(int v) {               // reads it only
  __syncthreads();
  return v * 3;
}
__device__ int add_ref(int &r, int v) {   // the argument changes through a reference
  __syncthreads();
  r += 5;
  return v + r;
}

__global__ void cases(const int *in, int *out) {
  int t = threadIdx.x, n = blockDim.x, i = blockIdx.x * n + t;
  int a = in[i];
  int *o = out + 8 * i;
  int b = bump(a);                 // a read after: stays a
  o[0] = a * 100 + b;
  int c = a;
  c = bump(c);                     // copied back: c itself
  o[1] = c;
  int d = a;
  d = twice_if(d, t & 1);
  o[2] = d + a;
  int e = twice_if(a, t & 2);      // a read after the call
  o[3] = e - a;
  int f = a;
  for (int k = 0; k < 3; k++) f = keep(f) - k;   // in a loop
  o[4] = f;
  int g = a;
  int h = add_ref(g, g);           // v copied before r changes g
  o[5] = h * 10 + g;
  int p = a, q = keep(p);
  p += 7;                          // the argument changes after the call
  o[6] = q + p;
  int r = a;
  r = bump(twice_if(r, t & 4));
  o[7] = r;
}

int main() {
  const int B = 3, T = 64, n = B * T;
  int *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, 8 * n * sizeof(int)));
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
  cases<<<B, T>>>(in, out);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int blk = 0; blk < B; blk++)
    for (int t = 0; t < T; t++) {
      int i = blk * T + t, a = in[i];
      int nb = in[blk * T + (t + 1) % T];
      int w[8];
      w[0] = a * 100 + (a + nb);
      w[1] = a + nb;
      int d = (t & 1) ? 2 * a + 1 : a;
      w[2] = d + a;
      int e = (t & 2) ? 2 * a + 1 : a;
      w[3] = e - a;
      int f = a;
      for (int k = 0; k < 3; k++) f = f * 3 - k;
      w[4] = f;
      w[5] = (a + (a + 5)) * 10 + (a + 5);
      w[6] = a * 3 + a + 7;
      // bump's neighbour value is the neighbour's twice_if result
      int nt = (t + 1) % T, na = nb;
      int tn = (nt & 4) ? 2 * na + 1 : na, tm = (t & 4) ? 2 * a + 1 : a;
      w[7] = tm + tn;
      for (int j = 0; j < 8; j++)
        if (out[8 * i + j] != w[j] && bad++ < 10)
          printf("block %d thread %d case %d: %d, want %d\n", blk, t, j, out[8 * i + j], w[j]);
    }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
