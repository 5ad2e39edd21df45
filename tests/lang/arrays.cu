// arrays.cu: data as C++ declares it in device code: a struct with an
// array member (its bound is not an initializer: the struct stays plain
// C, default-constructed, as curandState is), array parameters of a
// device function with barriers (they are pointers, as in C, also when the
// function is inlined into its caller: the cuda-samples' dxtc), and
// members of anonymous structs and unions (dct8x8's PackedShorts).
#include <cstdio>

struct Hist {
  unsigned n, bins[8];
  float w = 0.5f;   // an in-class initializer beside the array
};

__device__ void load(const int *in, int vals[16], int idx[16], int base) {
  int t = threadIdx.x;
  vals[t] = in[base + t];
  idx[t] = 15 - t;
  __syncthreads();
  vals[t] += vals[idx[t]];
  __syncthreads();
}

__global__ void kernel(const int *in, int *out, float *wout) {
  __shared__ int vals[16];
  __shared__ int idx[16];
  load(in, vals, idx, blockIdx.x * 16);
  Hist h;   // default construction: n and bins uninitialized, w = 0.5
  h.n = 0;
  for (int i = 0; i < 8; i++) h.bins[i] = 0;
  for (int i = 0; i < 16; i++) {
    h.bins[vals[i] & 7]++;
    h.n++;
  }
  out[blockIdx.x * 16 + threadIdx.x] = vals[threadIdx.x] * 100 + (int)h.bins[threadIdx.x & 7] + (int)h.n * 10000;
  wout[blockIdx.x * 16 + threadIdx.x] = h.w;
}

union Packed {
  struct __align__(8) {
    short lo;
    short hi;
  };
  unsigned int all;
};
struct Tagged {
  int tag;
  union {
    float f;
    int i;
  };
};

__global__ void anon(unsigned *o, Tagged *w) {
  Packed p;
  p.all = 0x00020001u + threadIdx.x;
  Packed *q = &p;
  o[threadIdx.x] = p.lo * 100 + q->hi;
  q->hi = 7;
  o[32 + threadIdx.x] = p.all;
  w[threadIdx.x].i = (int)threadIdx.x;
  w[threadIdx.x].tag = w[threadIdx.x].i + 1;
}

int main() {
  const int B = 4, N = B * 16;
  int *in, *out;
  float *w;
  cudaMallocManaged(&in, N * sizeof(int));
  cudaMallocManaged(&out, N * sizeof(int));
  cudaMallocManaged(&w, N * sizeof(float));
  for (int i = 0; i < N; i++) in[i] = (i * 13) % 29;
  kernel<<<B, 16>>>(in, out, w);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int b = 0; b < B; b++) {
    int v[16], bins[8] = {0};
    for (int t = 0; t < 16; t++) v[t] = in[b * 16 + t] + in[b * 16 + 15 - t];
    for (int t = 0; t < 16; t++) bins[v[t] & 7]++;
    for (int t = 0; t < 16; t++) bad += out[b * 16 + t] != v[t] * 100 + bins[t & 7] + 160000 || w[b * 16 + t] != 0.5f;
  }
  unsigned *ao;
  Tagged *tw;
  cudaMallocManaged(&ao, 64 * sizeof(unsigned));
  cudaMallocManaged(&tw, 32 * sizeof(Tagged));
  anon<<<1, 32>>>(ao, tw);
  cudaDeviceSynchronize();
  for (int t = 0; t < 32; t++)
    bad += ao[t] != (1u + t) * 100 + 2 || ao[32 + t] != ((7u << 16) | (1u + t)) || tw[t].tag != t + 1;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
