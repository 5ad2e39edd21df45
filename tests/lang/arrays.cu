// arrays.cu: data as C++ declares it in device code: a struct with an
// array member (its bound is not an initializer: the struct stays plain
// C, default-constructed, as curandState is), array parameters of a
// device function with barriers (they are pointers, as in C, also when the
// function is inlined into its caller: the cuda-samples' dxtc), members
// of anonymous structs and unions (dct8x8's PackedShorts), and
// value-initialization: T() and T{} of a plain struct are zeros, also in a
// template (a surface read outside its surface), where `T v;` is not; and
// for loops in the body of a macro that defines device functions (as
// texture_indirect_functions.h's surface reads zero a texel's bytes); and
// local arrays whose bound is an expression (`float acc[M * N / 32]` in a
// template, `int b[C]` with C a constant): the bound is no initializer.
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

struct Acc {
  int n;
  float s;
  unsigned bits[4];
};

template <class T> __device__ T zero_then(T *scratch) {
  T v = T();   // value-initialized: zeros, whatever the stack held
  *scratch = v;
  return v;
}

#define BYTES_OF(NAME, V)                                        \
  template <class T> __device__ T NAME() {                       \
    T r;                                                         \
    for (int i = 0; i < (int)sizeof(T); i++) ((char *)&r)[i] = V; \
    int n = 0;                                                   \
    for (; n < 3; n++) {}                                        \
    for (int j = n; j > 0;) j--;                                 \
    return r;                                                    \
  }
BYTES_OF(zero_bytes, 0)
BYTES_OF(one_bytes, 1)

// Each thread first fills its stack with junk in a scope that ends, then
// value-initializes in every form; out[] sums what must be zeros.
__global__ void valinit(const int *in, int *out, Acc *scratch) {
  int t = threadIdx.x;
  {
    volatile Acc junk;
    junk.n = in[t] | 1;
    junk.s = 3.5f;
    for (int i = 0; i < 4; i++) junk.bits[i] = ~0u - i;
    out[32 + t] = junk.n;
  }
  Acc a = Acc();
  float4 f = float4();
  Acc b((Acc()));
  Acc c{};
  Acc d = zero_then<Acc>(&scratch[t]);
  int2 e = zero_then<int2>((int2 *)&scratch[32 + t]);
  Acc z = zero_bytes<Acc>();
  int2 o = one_bytes<int2>();
  out[t] = a.n + (int)a.s + (int)a.bits[0] + (int)a.bits[3] + (int)f.x + (int)f.w + b.n + (int)b.bits[2] + c.n +
           (int)c.bits[1] + d.n + (int)d.s + (int)d.bits[3] + e.x + e.y + scratch[t].n + (int)scratch[t].bits[2] +
           z.n + (int)z.bits[3] + o.x - 0x01010101 + o.y - 0x01010101;
}

template <int M, int N> __device__ int bounds(int x) {
  const int C = M + 1;
  float acc[M * N / 2];
  int b[C];
  for (int i = 0; i < M * N / 2; i++) acc[i] = (float)(x + i);
  for (int i = 0; i < C; i++) b[i] = i * x;
  return (int)acc[M * N / 2 - 1] + b[C - 1];
}

__global__ void bound_exprs(int *out) { out[threadIdx.x] = bounds<4, 2>(threadIdx.x); }

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
  int *vo;
  Acc *scr;
  cudaMallocManaged(&vo, 64 * sizeof(int));
  cudaMallocManaged(&scr, 64 * sizeof(Acc));
  cudaMemset(scr, 0x5a, 64 * sizeof(Acc));
  valinit<<<1, 32>>>(in, vo, scr);
  cudaDeviceSynchronize();
  for (int t = 0; t < 32; t++) bad += vo[t] != 0 || vo[32 + t] != (in[t] | 1);
  bound_exprs<<<1, 32>>>(vo);
  cudaDeviceSynchronize();
  for (int t = 0; t < 32; t++) bad += vo[t] != (t + 3) + 4 * t;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
