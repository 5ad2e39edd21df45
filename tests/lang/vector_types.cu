// vector_types.cu: CUDA's vector types char1..double4 and their make_*
// functions, in host and device code, and #pragma unroll. The sizes and
// alignments below were printed by this program built with nvcc 13 on an
// H100 (the "sizes" lines); the kernels are checked against the same
// arithmetic done on the CPU.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int bad = 0;

struct Want { const char *name; size_t size, align; };
#define T(t) {#t, sizeof(t), alignof(t)}
static const Want got[] = {
  T(char1), T(char2), T(char3), T(char4), T(uchar1), T(uchar2), T(uchar3), T(uchar4),
  T(short1), T(short2), T(short3), T(short4), T(ushort1), T(ushort2), T(ushort3), T(ushort4),
  T(int1), T(int2), T(int3), T(int4), T(uint1), T(uint2), T(uint3), T(uint4),
  T(long1), T(long2), T(long3), T(ulong1), T(ulong2), T(ulong3),
  T(longlong1), T(longlong2), T(longlong3), T(ulonglong1), T(ulonglong2), T(ulonglong3),
  T(float1), T(float2), T(float3), T(float4), T(double1), T(double2), T(double3),
};
#undef T
// Recorded on the H100 (nvcc 13.0, x86-64 host).
static const size_t want[][2] = {
  {1, 1}, {2, 2}, {3, 1}, {4, 4}, {1, 1}, {2, 2}, {3, 1}, {4, 4},
  {2, 2}, {4, 4}, {6, 2}, {8, 8}, {2, 2}, {4, 4}, {6, 2}, {8, 8},
  {4, 4}, {8, 8}, {12, 4}, {16, 16}, {4, 4}, {8, 8}, {12, 4}, {16, 16},
  {8, 8}, {16, 16}, {24, 8}, {8, 8}, {16, 16}, {24, 8},
  {8, 8}, {16, 16}, {24, 8}, {8, 8}, {16, 16}, {24, 8},
  {4, 4}, {8, 8}, {12, 4}, {16, 16}, {8, 8}, {16, 16}, {24, 8},
};

// Device-side sizes of the same types: the layout must agree with the host.
__global__ void sizes(unsigned *out) {
  int k = 0;
#define S(t) out[k++] = sizeof(t) * 100 + alignof(t)
  S(char1); S(char2); S(char3); S(char4); S(uchar1); S(uchar2); S(uchar3); S(uchar4);
  S(short1); S(short2); S(short3); S(short4); S(ushort1); S(ushort2); S(ushort3); S(ushort4);
  S(int1); S(int2); S(int3); S(int4); S(uint1); S(uint2); S(uint3); S(uint4);
  S(long1); S(long2); S(long3); S(ulong1); S(ulong2); S(ulong3);
  S(longlong1); S(longlong2); S(longlong3); S(ulonglong1); S(ulonglong2); S(ulonglong3);
  S(float1); S(float2); S(float3); S(float4); S(double1); S(double2); S(double3);
#undef S
}

struct Out {
  char4 c;
  uchar3 u;
  short2 s;
  int3 i;
  uint4 ui;
  longlong2 ll;
  float3 f3;
  float4 f4;
  double2 d2;
  double3 d3;
  float acc;
};

__host__ __device__ Out compute(int t, const float4 *in) {
  Out o;
  o.c = make_char4(t, -t, t * 3, 100 - t);
  o.u = make_uchar3(t * 7, 255 - t, t ^ 0x55);
  o.s = make_short2(t * 1000, -t * 999);
  o.i = make_int3(t, t * t, -t * 12345);
  o.ui = make_uint4(t, 0xffffffffu - t, t << 20, t * 3u);
  o.ll = make_longlong2(1LL << (t % 60), -(long long)t * 1000000007LL);
  float4 v = in[t];
  o.f3 = make_float3(v.x + v.y, v.y * v.z, v.w - v.x);
  o.f4 = make_float4(v.w, v.z, v.y, v.x);
  o.d2 = make_double2(v.x * 0.5, (double)v.y / 3.0);
  o.d3 = make_double3(o.d2.x + o.d2.y, o.d2.x - o.d2.y, (double)t);
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; k++) acc += (k + 1) * (k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w);
#pragma unroll 2
  for (int k = 0; k < t % 5; k++) acc += o.c.x * 0.25f;
  o.acc = acc;
  return o;
}

__global__ void fill(const float4 *in, Out *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = compute(t, in);
}

// Vector types passed by value to a kernel, returned from device functions,
// and read per component from a 2-D index.
__device__ int2 swap(int2 a) { return make_int2(a.y, a.x); }
__global__ void by_value(int2 a, float3 b, double2 c, dim3 d, float *out) {
  int2 s = swap(a);
  out[threadIdx.x] = s.x * b.x + s.y * b.y + (float)(c.x * c.y) + d.x + d.y * 10 + d.z * 100 + threadIdx.x;
}

int main() {
  const int n = 200;
  size_t nt = sizeof got / sizeof got[0];
  for (size_t k = 0; k < nt; k++) {
    printf("sizes %s %zu %zu\n", got[k].name, got[k].size, got[k].align);
    if (got[k].size != want[k][0] || got[k].align != want[k][1]) {
      printf("host %s: size %zu align %zu, want %zu %zu\n", got[k].name, got[k].size, got[k].align, want[k][0],
             want[k][1]);
      bad++;
    }
  }
  unsigned *ds;
  cudaMallocManaged(&ds, nt * sizeof *ds);
  sizes<<<1, 1>>>(ds);
  cudaDeviceSynchronize();
  for (size_t k = 0; k < nt; k++)
    if (ds[k] != got[k].size * 100 + got[k].align) {
      printf("device %s: %u, host %zu %zu\n", got[k].name, ds[k], got[k].size, got[k].align);
      bad++;
    }

  float4 *in;
  Out *out;
  cudaMallocManaged(&in, n * sizeof *in);
  cudaMallocManaged(&out, n * sizeof *out);
  for (int t = 0; t < n; t++) in[t] = make_float4(t * 0.5f, 1.0f + t, 2.0f - t * 0.25f, t * t * 0.125f);
  fill<<<(n + 63) / 64, 64>>>(in, out, n);
  if (cudaDeviceSynchronize() != cudaSuccess) bad++;
  for (int t = 0; t < n; t++) {
    Out w = compute(t, in);
    if (memcmp(&w.c, &out[t].c, sizeof w.c) || memcmp(&w.u, &out[t].u, sizeof w.u) ||
        w.s.x != out[t].s.x || w.s.y != out[t].s.y || w.i.x != out[t].i.x || w.i.y != out[t].i.y ||
        w.i.z != out[t].i.z || w.ui.x != out[t].ui.x || w.ui.y != out[t].ui.y || w.ui.z != out[t].ui.z ||
        w.ui.w != out[t].ui.w || w.ll.x != out[t].ll.x || w.ll.y != out[t].ll.y || w.f3.x != out[t].f3.x ||
        w.f3.y != out[t].f3.y || w.f3.z != out[t].f3.z || w.f4.x != out[t].f4.x || w.f4.w != out[t].f4.w ||
        w.d2.x != out[t].d2.x || w.d2.y != out[t].d2.y || w.d3.x != out[t].d3.x || w.d3.z != out[t].d3.z ||
        w.acc != out[t].acc) {
      printf("thread %d differs\n", t);
      bad++;
    }
  }

  float *o2;
  cudaMallocManaged(&o2, 32 * sizeof *o2);
  by_value<<<1, 32>>>(make_int2(3, 4), make_float3(1.5f, 2.5f, 0), make_double2(2.0, 0.25), dim3(1, 2, 3), o2);
  cudaDeviceSynchronize();
  for (int t = 0; t < 32; t++) {
    float w = 4 * 1.5f + 3 * 2.5f + (float)(2.0 * 0.25) + 1 + 20 + 300 + t;
    if (o2[t] != w) {
      printf("by_value %d: %g, want %g\n", t, o2[t], w);
      bad++;
    }
  }
  printf("%s\n", bad ? "FAILED" : "PASS");
  return bad != 0;
}
