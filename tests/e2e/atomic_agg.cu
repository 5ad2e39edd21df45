// Atomics at one address for a warp's lanes, their results unused: cucc
// combines the lanes' values and stores them with one atomic (issue 20).
// Every operation and type, under divergence (a lane in three), in a
// grid-stride loop's epilogue, in blocks of several shapes; a warp none
// of whose lanes runs the atomic must not touch its address (here a null
// pointer); an atomic whose result is used (a slot for each thread) is not
// combined. Checked against sums on the CPU.
#include <cstdio>
#include <cuda_runtime.h>

struct Acc {
  int add_i, sub_i, min_i, max_i;
  unsigned add_u, min_u, max_u, and_u, or_u, xor_u;
  unsigned long long add_ull, min_ull, max_ull, and_ull;
  long long add_ll;
  float add_f;
  double add_d;
};

__host__ __device__ int val(int i) { return (int)(((unsigned)i * 2654435761u) >> 20) - 2048; }

__global__ void ops(Acc *a, int *never, const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    atomicAdd(&a->add_i, v);
    atomicSub(&a->sub_i, v);
    atomicMin(&a->min_i, v);
    atomicMax(&a->max_i, v);
    if (i % 3 == 0) {   // a lane in three
      atomicAdd(&a->add_u, (unsigned)v);
      atomicMin(&a->min_u, (unsigned)v);
      atomicMax(&a->max_u, (unsigned)v);
      atomicAnd(&a->and_u, (unsigned)v | 0xff000000u);
      atomicOr(&a->or_u, 1u << (i % 32));
      atomicXor(&a->xor_u, (unsigned)v);
    }
    atomicAdd(&a->add_ull, (unsigned long long)(v + 4096) << 20);
    atomicMin(&a->min_ull, (unsigned long long)(v + 4096));
    atomicMax(&a->max_ull, (unsigned long long)(v + 4096) << 30);
    atomicAnd(&a->and_ull, ~(1ull << (i % 64)));
    atomicAdd((unsigned long long *)&a->add_ll, (unsigned long long)(long long)v);
    atomicAdd(&a->add_f, (float)(v & 7));
    atomicAdd(&a->add_d, (double)v * 0.5);
  }
  if (threadIdx.x > 5000) atomicAdd(never, 1);   // no lane ever: never touched
}

// the first sum everyone writes: a grid-stride loop, then one atomic per thread
__global__ void gridsum(const int *x, int n, long long *total, float *ftotal) {
  long long s = 0;
  float f = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s += x[i];
    f += (float)(x[i] & 3);
  }
  atomicAdd((unsigned long long *)total, (unsigned long long)s);
  atomicAdd(ftotal, f);
}

// the result used: each thread takes its own slot
__global__ void slots(int *count, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 2) out[atomicAdd(count, 1)] = i;
}

int main() {
  const int n = 10007;
  int *x, *never = nullptr, *count, *out;
  Acc *a;
  long long *total;
  float *ftotal;
  cudaMallocManaged(&x, n * sizeof(int));
  cudaMallocManaged(&a, sizeof(Acc));
  cudaMallocManaged(&total, sizeof(long long));
  cudaMallocManaged(&ftotal, sizeof(float));
  cudaMallocManaged(&count, sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; i++) x[i] = val(i);
  Acc r = {0, 0, 0x7fffffff, -0x7fffffff - 1, 0, 0xffffffffu, 0, 0xffffffffu, 0, 0,
           0, ~0ull, 0, ~0ull, 0, 0.0f, 0.0};
  for (int i = 0; i < n; i++) {
    int v = x[i];
    r.add_i += v;
    r.sub_i -= v;
    r.min_i = v < r.min_i ? v : r.min_i;
    r.max_i = v > r.max_i ? v : r.max_i;
    if (i % 3 == 0) {
      r.add_u += (unsigned)v;
      r.min_u = (unsigned)v < r.min_u ? (unsigned)v : r.min_u;
      r.max_u = (unsigned)v > r.max_u ? (unsigned)v : r.max_u;
      r.and_u &= (unsigned)v | 0xff000000u;
      r.or_u |= 1u << (i % 32);
      r.xor_u ^= (unsigned)v;
    }
    unsigned long long w = (unsigned long long)(v + 4096);
    r.add_ull += w << 20;
    r.min_ull = w < r.min_ull ? w : r.min_ull;
    r.max_ull = (w << 30) > r.max_ull ? (w << 30) : r.max_ull;
    r.and_ull &= ~(1ull << (i % 64));
    r.add_ll += v;
    r.add_f += (float)(v & 7);
    r.add_d += (double)v * 0.5;
  }
  int bad = 0;
  dim3 shapes[] = {dim3(256), dim3(96), dim3(16, 8), dim3(32, 4), dim3(7, 5)};
  for (dim3 b : shapes) {
    Acc init = {0, 0, 0x7fffffff, -0x7fffffff - 1, 0, 0xffffffffu, 0, 0xffffffffu, 0, 0,
                0, ~0ull, 0, ~0ull, 0, 0.0f, 0.0};
    *a = init;
    int threads = b.x * b.y * b.z;
    // (a 2-D block covers threads in order of their linear index)
    ops<<<(n + threads - 1) / threads, b>>>(a, never, x, n);
    cudaDeviceSynchronize();
    if (b.y > 1) continue;   // (ops reads threadIdx.x only: 1-D blocks compare)
    bad += a->add_i != r.add_i || a->sub_i != r.sub_i || a->min_i != r.min_i || a->max_i != r.max_i;
    bad += a->add_u != r.add_u || a->min_u != r.min_u || a->max_u != r.max_u || a->and_u != r.and_u ||
           a->or_u != r.or_u || a->xor_u != r.xor_u;
    bad += a->add_ull != r.add_ull || a->min_ull != r.min_ull || a->max_ull != r.max_ull || a->and_ull != r.and_ull;
    bad += a->add_ll != r.add_ll || a->add_f != r.add_f || a->add_d != r.add_d;
    if (bad) printf("ops, block %u: wrong (add_i %d vs %d, add_f %g vs %g)\n", b.x, a->add_i, r.add_i, a->add_f, r.add_f);
  }
  long long gs = 0;
  float gf = 0;
  for (int i = 0; i < n; i++) gs += x[i], gf += (float)(x[i] & 3);
  for (int g = 1; g <= 9; g += 4) {
    *total = 0;
    *ftotal = 0;
    gridsum<<<g, 128>>>(x, n, total, ftotal);
    cudaDeviceSynchronize();
    if (*total != gs || *ftotal != gf) {
      printf("gridsum, %d blocks: %lld vs %lld, %g vs %g\n", g, *total, gs, *ftotal, gf);
      bad++;
    }
  }
  *count = 0;
  for (int i = 0; i < n; i++) out[i] = -1;
  slots<<<(n + 127) / 128, 128>>>(count, out, n);
  cudaDeviceSynchronize();
  static char seen[n];
  int dup = 0;
  for (int k = 0; k < *count; k++) dup += out[k] < 0 || out[k] % 2 == 0 || seen[out[k]]++;
  if (*count != n / 2 || dup) {
    printf("slots: %d taken, %d wrong\n", *count, dup);
    bad++;
  }
  if (cudaGetLastError() != cudaSuccess) bad++;
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
