// address_space.cu: __isShared, __isLocal, __isGlobal and the shared
// address conversions (__cvta_generic_to_shared, __cvta_shared_to_generic)
// on static and dynamic shared memory, a thread's local arrays (also one
// live across a barrier), cudaMalloc'd, managed and __device__ memory, in
// every thread of several blocks; a shared address is an offset in the
// block's shared memory, as on a GPU (so two blocks' addresses agree).
#include <cstdio>

#define NB 3
#define NT 96

__device__ float dev_var[4];

__device__ unsigned spaces(const void *p) { return __isShared(p) | __isLocal(p) << 1 | __isGlobal(p) << 2; }

__global__ void k(const float *g, float *m, unsigned *o, unsigned long long *cv) {
  __shared__ float s[64];
  __shared__ double s2[8];
  extern __shared__ int dyn[];
  float loc[4];
  int t = threadIdx.x, id = blockIdx.x * NT + t;
  loc[t % 4] = (float)t;
  if (t < 64) s[t] = 1;
  dyn[t] = t;
  __syncthreads();
  unsigned *r = o + id * 9;
  int after = t;   // a local that no barrier crosses
  r[0] = spaces(&s[t % 64]);
  r[1] = spaces(&s2[t % 8]);
  r[2] = spaces(&dyn[t]);
  r[3] = spaces(&loc[t % 4]);   // (loc lives across the barrier)
  r[4] = spaces(g + id);
  r[5] = spaces(m + id);
  r[6] = spaces(&dev_var[1]);
  r[7] = __cvta_shared_to_generic(__cvta_generic_to_shared(&dyn[t])) == (void *)&dyn[t] &&
         __cvta_shared_to_generic(__cvta_generic_to_shared(s)) == (void *)s;
  r[8] = spaces(&after) | (after != t) << 3;
  unsigned long long *c = cv + id * 3;
  c[0] = __cvta_generic_to_shared(&s[8]) - __cvta_generic_to_shared(s);
  c[1] = __cvta_generic_to_shared(&dyn[t]) - __cvta_generic_to_shared(dyn);
  c[2] = __cvta_generic_to_shared(&s[t % 64]);
}

int main() {
  float *g, *m;
  unsigned *o;
  unsigned long long *cv;
  cudaMalloc(&g, NB * NT * sizeof *g);
  cudaMallocManaged(&m, NB * NT * sizeof *m);
  cudaMallocManaged(&o, NB * NT * 9 * sizeof *o);
  cudaMallocManaged(&cv, NB * NT * 3 * sizeof *cv);
  k<<<NB, NT, NT * sizeof(int)>>>(g, m, o, cv);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  // shared 1, local 2, global 4; the round trip 1
  const unsigned want[9] = {1, 1, 1, 2, 4, 4, 4, 1, 2};
  int bad = 0;
  for (int i = 0; i < NB * NT; i++) {
    for (int j = 0; j < 9; j++)
      if (o[i * 9 + j] != want[j] && bad++ < 10) printf("thread %d, pointer %d: %u, want %u\n", i, j, o[i * 9 + j], want[j]);
    unsigned long long *c = cv + i * 3, *c0 = cv + (i % NT) * 3;
    if ((c[0] != 32 || c[1] != (unsigned long long)(i % NT) * 4 || c[2] != c0[2]) && bad++ < 10)
      printf("thread %d: shared addresses %llu %llu %llu\n", i, c[0], c[1], c[2]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
