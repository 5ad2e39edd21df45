// shfl_overload.cu: the program's own overloads of the intrinsics' names
// are ordinary functions. A __shfl_sync of its own struct (as programs
// wrote before CUDA shuffled more types) shuffles the members with CUDA's
// overloads; a __shfl_xor_sync of a 12-byte struct inside a butterfly of a
// __device__ helper; a __reduce_add_sync, an __ldg and an atomicAdd of its
// own types, each with a body that says what it does. Checked against a
// CPU model of the shuffles.
#include <cstdio>

struct P { unsigned short a, b; };
__device__ P __shfl_sync(unsigned m, P v, int s, int w = 32) {
  P r;
  r.a = __shfl_sync(m, v.a, s, w);
  r.b = __shfl_sync(m, v.b, s, w);
  return r;
}
__device__ P __shfl_down_sync(unsigned m, P v, unsigned d, int w = 32) {
  P r;
  r.a = __shfl_down_sync(m, v.a, d, w);
  r.b = __shfl_down_sync(m, v.b, d, w);
  return r;
}

struct V3 { float x, y, z; };
__device__ V3 __shfl_xor_sync(unsigned m, V3 v, int x, int w = 32) {
  return V3{__shfl_xor_sync(m, v.x, x, w), __shfl_xor_sync(m, v.y, x, w), __shfl_xor_sync(m, v.z, x, w)};
}
__device__ V3 vsum(V3 v, int width) {
  for (int o = width / 2; o > 0; o /= 2) {
    V3 u = __shfl_xor_sync(0xffffffffu, v, o, width);
    v.x += u.x, v.y += u.y, v.z += u.z;
  }
  return v;
}

// not CUDA's meaning: these say what they do
struct Cnt { int n; };
__device__ Cnt __reduce_add_sync(unsigned, Cnt c) { return Cnt{c.n * 2}; }
__device__ int __ldg(const Cnt *p) { return p->n + 1000; }
__device__ int atomicAdd(Cnt *p, int v) { return atomicAdd(&p->n, v); }

__global__ void k(P *p, V3 *v, int *o, Cnt *c) {
  int t = threadIdx.x;
  P x = p[t];
  p[t] = __shfl_sync(0xffffffffu, x, 3);
  p[64 + t] = __shfl_down_sync(0xffffffffu, x, 2, 8);
  v[t] = vsum(v[t], t < 32 ? 32 : 8);
  Cnt cc = {t};
  o[t] = __reduce_add_sync(0xffffffffu, cc).n;
  o[64 + t] = __ldg(c);
  atomicAdd(c + 1, 1);
}

int main() {
  P *p;
  V3 *v;
  int *o;
  Cnt *c;
  cudaMallocManaged(&p, 128 * sizeof *p);
  cudaMallocManaged(&v, 64 * sizeof *v);
  cudaMallocManaged(&o, 128 * sizeof *o);
  cudaMallocManaged(&c, 2 * sizeof *c);
  for (int i = 0; i < 64; i++) {
    p[i].a = (unsigned short)(i * 7), p[i].b = (unsigned short)(60000 + i);
    v[i] = V3{(float)i, (float)(i * i), (float)-i};
  }
  c[0].n = 5, c[1].n = 0;
  k<<<1, 64>>>(p, v, o, c);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: launch\n"), 1;
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int w0 = t & ~31, l = t & 31;
    int s = w0 + 3;
    bad += p[t].a != (unsigned short)(s * 7) || p[t].b != (unsigned short)(60000 + s);
    int d = (l & 7) + 2 < 8 ? t + 2 : t;
    bad += p[64 + t].a != (unsigned short)(d * 7) || p[64 + t].b != (unsigned short)(60000 + d);
    int wd = t < 32 ? 32 : 8, g = t & ~(wd - 1);
    float sx = 0, sy = 0, sz = 0;
    for (int i = g; i < g + wd; i++) sx += (float)i, sy += (float)(i * i), sz += (float)-i;
    bad += v[t].x != sx || v[t].y != sy || v[t].z != sz;
    bad += o[t] != 2 * t || o[64 + t] != 1005;
  }
  bad += c[1].n != 64;
  if (bad) return printf("FAILED: %d wrong\n", bad), 1;
  printf("PASS\n");
  return 0;
}
