// Atomics on __shared__ memory, which cucc runs as plain read-modify-writes
// (a block runs on one worker thread; issue 20): lanes of one warp hitting
// the same element (a histogram of few bins: every lane of a warp in one
// bin), every operation and type, results used (a slot per thread), a
// shared struct's member and a whole shared array's first element, under
// divergence; checked against the CPU.
#include <cstdio>
#include <cuda_runtime.h>

struct S {
  int add_i, min_i, max_i;
  unsigned and_u, or_u, xor_u, inc_u, dec_u, cas_u, exch_u;
  unsigned long long add_ull;
  float add_f;
  double add_d;
};

__global__ void hist(const unsigned char *in, int n, unsigned *out, int bins) {
  extern __shared__ unsigned h[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[in[i] % bins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&out[b], h[b]);
}

__global__ void ops(const int *x, int n, S *out, int *slots) {
  __shared__ S s;
  __shared__ int count[1];
  __shared__ int order[256];
  if (threadIdx.x == 0) {
    s = S{0, 0x7fffffff, -0x7fffffff - 1, 0xffffffffu, 0, 0, 0, 1000, 0, 0, 0, 0.0f, 0.0};
    count[0] = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    atomicAdd(&s.add_i, v);
    atomicMin(&s.min_i, v);
    atomicMax(&s.max_i, v);
    atomicAnd(&s.and_u, (unsigned)v | 0xfff00000u);
    atomicOr(&s.or_u, 1u << (i % 32));
    atomicXor(&s.xor_u, (unsigned)v);
    atomicInc(&s.inc_u, 50u);
    atomicDec(&s.dec_u, 2000u);
    atomicAdd(&s.add_ull, (unsigned long long)(v + 5000) << 24);
    atomicAdd(&s.add_f, (float)(v & 15));
    atomicAdd(&s.add_d, v * 0.25);
    if (v % 2) {   // divergent; results used
      unsigned old = atomicCAS(&s.cas_u, s.cas_u, s.cas_u + 1);
      (void)old;
      atomicExch(&s.exch_u, 7u);
      order[atomicAdd(count, 1)] = threadIdx.x;   // the whole array's first element
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = s;
    slots[blockIdx.x] = count[0];
  }
  if (threadIdx.x < count[0]) {
    int t = order[threadIdx.x];   // each odd-valued thread exactly once
    atomicAdd(&slots[gridDim.x + blockIdx.x], t + 1);
  }
}

int main() {
  int bad = 0;
  const int n = 100003, bins = 3;
  unsigned char *in;
  unsigned *hout;
  cudaMallocManaged(&in, n);
  cudaMallocManaged(&hout, bins * sizeof(unsigned));
  unsigned ref[bins] = {0};
  for (int i = 0; i < n; i++) in[i] = (unsigned char)((i / 64) * 7 + (i % 5 == 0));   // runs of equal bins
  for (int i = 0; i < n; i++) ref[in[i] % bins]++;
  for (int g = 1; g <= 13; g += 6) {
    for (int b = 0; b < bins; b++) hout[b] = 0;
    hist<<<g, 128, bins * sizeof(unsigned)>>>(in, n, hout, bins);
    cudaDeviceSynchronize();
    for (int b = 0; b < bins; b++)
      if (hout[b] != ref[b]) {
        printf("hist, %d blocks, bin %d: %u, not %u\n", g, b, hout[b], ref[b]);
        bad++;
      }
  }
  const int m = 1000, threads = 256, blocks = (m + threads - 1) / threads;
  int *x, *slots;
  S *out;
  cudaMallocManaged(&x, m * sizeof(int));
  cudaMallocManaged(&out, blocks * sizeof(S));
  cudaMallocManaged(&slots, 2 * blocks * sizeof(int));
  for (int i = 0; i < m; i++) x[i] = (int)((i * 2654435761u) >> 21) - 1000;
  for (int i = 0; i < 2 * blocks; i++) slots[i] = 0;
  ops<<<blocks, threads>>>(x, m, out, slots);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; b++) {
    S r = {0, 0x7fffffff, -0x7fffffff - 1, 0xffffffffu, 0, 0, 0, 1000, 0, 0, 0, 0.0f, 0.0};
    int odd = 0, tsum = 0;
    for (int i = b * threads; i < m && i < (b + 1) * threads; i++) {
      int v = x[i];
      r.add_i += v;
      r.min_i = v < r.min_i ? v : r.min_i;
      r.max_i = v > r.max_i ? v : r.max_i;
      r.and_u &= (unsigned)v | 0xfff00000u;
      r.or_u |= 1u << (i % 32);
      r.xor_u ^= (unsigned)v;
      r.inc_u = r.inc_u >= 50u ? 0u : r.inc_u + 1;
      r.dec_u = (r.dec_u == 0 || r.dec_u > 2000u) ? 2000u : r.dec_u - 1;
      r.add_ull += (unsigned long long)(v + 5000) << 24;
      r.add_f += (float)(v & 15);
      r.add_d += v * 0.25;
      if (v % 2) odd++, tsum += i - b * threads + 1;
    }
    S &o = out[b];
    int e = o.add_i != r.add_i || o.min_i != r.min_i || o.max_i != r.max_i || o.and_u != r.and_u ||
            o.or_u != r.or_u || o.xor_u != r.xor_u || o.inc_u != r.inc_u || o.dec_u != r.dec_u ||
            o.add_ull != r.add_ull || o.add_f != r.add_f || o.add_d != r.add_d ||
            o.exch_u != (odd ? 7u : 0u) || o.cas_u > (unsigned)odd || slots[b] != odd ||
            slots[blocks + b] != tsum;
    if (e) {
      printf("ops, block %d: add_i %d/%d inc %u/%u dec %u/%u slots %d/%d sum %d/%d\n", b, o.add_i, r.add_i,
             o.inc_u, r.inc_u, o.dec_u, r.dec_u, slots[b], odd, slots[blocks + b], tsum);
      bad++;
    }
  }
  if (cudaGetLastError() != cudaSuccess) bad++;
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
