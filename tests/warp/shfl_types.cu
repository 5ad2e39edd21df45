// shfl_types.cu: CUDA's shuffles of every type they take: int, unsigned,
// long, unsigned long, long long, unsigned long long, float, double (and a
// short or a char, which promote to int as in CUDA), __half, __half2,
// __nv_bfloat16 and __nv_bfloat162, each with widths 32, 16 and 8: by a
// uniform and a varying lane or offset, in kernels and in __device__
// helpers (a loop in one: a warp version), under a branch, in a partial
// warp. Each result's type is the value's (`auto`), and its bits (a NaN's
// payload too) are checked against a CPU model of the instruction, lane by
// lane. Also: butterfly sums of __half2 and __nv_bfloat162 in a helper,
// cooperative groups' shuffles and reduce of halves, and a struct of the
// program's own whose __shfl_sync shuffles its half members.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstring>
#include <type_traits>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu
enum { IDX, UP, DOWN, XOR };
enum { NR = 13 };   // results per thread and width

template <class T> __device__ T get(T v, int s, int w) { return __shfl_sync(FULL, v, s, w); }
// rotates each segment of w lanes by 2: a helper with a loop runs as a warp
template <class T> __device__ T rot2(T v, int w) {
  int lane = threadIdx.x % 32;
  for (int i = 0; i < 2; i++) v = __shfl_sync(FULL, v, lane + 1, w);
  return v;
}

template <class T> __global__ void shfl(const T *in, T *out, int w) {
  static_assert(std::is_same<decltype(__shfl_sync(FULL, in[0], 0)), T>::value, "__shfl_sync's type");
  static_assert(std::is_same<decltype(__shfl_up_sync(FULL, in[0], 1u, 8)), T>::value, "__shfl_up_sync's type");
  static_assert(std::is_same<decltype(__shfl_down_sync(FULL, in[0], 1u, 8)), T>::value, "__shfl_down_sync's type");
  static_assert(std::is_same<decltype(__shfl_xor_sync(FULL, in[0], 1, 8)), T>::value, "__shfl_xor_sync's type");
  int t = threadIdx.x, n = blockDim.x;
  T v = in[t];
  T *o = out + t;
  o[0 * n] = __shfl_sync(FULL, v, (t * 5 + 3) % 37, w);   // a varying lane
  o[1 * n] = __shfl_sync(FULL, v, 2, w);                  // a uniform one
  o[2 * n] = __shfl_up_sync(FULL, v, 3, w);
  o[3 * n] = __shfl_down_sync(FULL, v, 5, w);
  auto x = __shfl_xor_sync(FULL, v, 5, w);
  o[4 * n] = x;
  o[5 * n] = __shfl_xor_sync(FULL, v, t % 4 + 1, w);      // a varying lane mask
  o[6 * n] = get(v, t + 7, w);
  o[7 * n] = rot2(v, w);
  T r = v;
  if (t & 1) r = __shfl_xor_sync(__activemask(), v, 2, w);   // odd lanes only
  o[8 * n] = r;
  // widths as constants
  o[9 * n] = __shfl_down_sync(FULL, v, 1, 16);
  o[10 * n] = __shfl_sync(FULL, v, 9, 8);
  o[11 * n] = __shfl_xor_sync(FULL, v, 1);
  o[12 * n] = __shfl_up_sync(FULL, v, 1u, w);
}

// small integers promote to int, as in CUDA
__global__ void small(const short *s, const signed char *c, int *o) {
  int t = threadIdx.x;
  auto a = __shfl_sync(FULL, s[t], 1);
  auto b = __shfl_down_sync(FULL, c[t], 1, 8);
  static_assert(std::is_same<decltype(a), int>::value && std::is_same<decltype(b), int>::value, "promoted");
  o[t] = a;
  o[blockDim.x + t] = b;
}

// __match_any_sync of the types it takes besides int (warp_truth has those)
template <class T> __global__ void match(const T *in, unsigned *o) {
  o[threadIdx.x] = __match_any_sync(FULL, in[threadIdx.x]);
}

// butterfly sums in a helper, with the half types' arithmetic
__device__ __half2 hsum(__half2 v, int w) {
  for (int o = w / 2; o > 0; o /= 2) v = __hadd2(v, __shfl_xor_sync(FULL, v, o, w));
  return v;
}
__device__ __nv_bfloat162 bsum(__nv_bfloat162 v, int w) {
  for (int o = w / 2; o > 0; o /= 2) v = __hadd2(v, __shfl_down_sync(FULL, v, o, w));
  return v;
}

// the program's own struct, shuffled member by member with CUDA's overloads
struct HP {
  __half2 a;
  __nv_bfloat16 b;
};
__device__ HP __shfl_sync(unsigned m, HP v, int s, int w = 32) {
  HP r;
  r.a = __shfl_sync(m, v.a, s, w);
  r.b = __shfl_sync(m, v.b, s, w);
  return r;
}

__global__ void halves(const __half2 *h, const __nv_bfloat162 *b, const HP *hp, float *o, HP *ho) {
  int t = threadIdx.x, n = blockDim.x;
  __half2 s8 = hsum(h[t], 8), s32 = hsum(h[t], 32);
  __nv_bfloat162 b16 = bsum(b[t], 16);
  o[t] = __low2float(s8), o[n + t] = __high2float(s32), o[2 * n + t] = __low2float(b16) + __high2float(b16);
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  auto y = tile.shfl_xor(h[t], 3);
  auto z = tile.shfl_down(b[t].x, 2);
  static_assert(std::is_same<decltype(y), __half2>::value && std::is_same<decltype(z), __nv_bfloat16>::value, "cg");
  o[3 * n + t] = __low2float(y) * 1000 + __bfloat162float(z);
  o[4 * n + t] = __half2float(cg::reduce(tile, h[t].y, cg::plus<__half>()));
  auto q = __shfl_sync(FULL, hp[t], 31 - t % 32);
  static_assert(std::is_same<decltype(q), HP>::value, "HP");
  ho[t] = q;
}

// the instruction for lanes [0, nl) of a warp, each value sz bytes; a lane
// that does not execute it (past a partial warp's last thread) gives 0
static void model(int op, const char *v, const int *arg, int w, int nl, char *o, size_t sz) {
  for (int l = 0; l < nl; l++) {
    int a = arg[l], s;
    if (op == IDX) s = (l & ~(w - 1)) | (a & (w - 1));
    else if (op == UP) s = (l & (w - 1)) >= a ? l - a : l;
    else if (op == DOWN) s = (l & (w - 1)) + a < w ? l + a : l;
    else s = (l ^ a) < ((l | (w - 1)) + 1) ? l ^ a : l;
    if (s < nl) memcpy(o + l * sz, v + s * sz, sz);
    else memset(o + l * sz, 0, sz);
  }
}

template <class T> T mk(int i);
template <> int mk<int>(int i) { return i * 7919 - 123456; }
template <> unsigned mk<unsigned>(int i) { return 0xfffff000u + (unsigned)i * 3u; }
template <> long mk<long>(int i) { return -(1L << 40) * i + i; }
template <> unsigned long mk<unsigned long>(int i) { return (1UL << 63) + ((unsigned long)i << 35) + (unsigned long)i; }
template <> long long mk<long long>(int i) { return (1LL << 50) - (long long)i * 1000003; }
template <> unsigned long long mk<unsigned long long>(int i) { return ~0ULL - (unsigned long long)i * 77; }
template <> float mk<float>(int i) { return i * 0.25f - 3.0f; }
template <> double mk<double>(int i) { return i * 1e10 + 0.5; }
// every 17th a NaN with a payload, every 13th -0: a shuffle moves bits
static unsigned short h16(int i, bool bf) {
  if (i % 17 == 5) return (unsigned short)((bf ? 0x7f81u : 0x7c01u) + (unsigned)i);
  if (i % 13 == 7) return 0x8000u;
  return bf ? __bfloat16_as_ushort(__float2bfloat16(i * 0.5f - 20)) : __half_as_ushort(__float2half(i * 0.5f - 20));
}
template <> __half mk<__half>(int i) { return __ushort_as_half(h16(i, false)); }
template <> __nv_bfloat16 mk<__nv_bfloat16>(int i) { return __ushort_as_bfloat16(h16(i, true)); }
template <> __half2 mk<__half2>(int i) { return __halves2half2(mk<__half>(i), mk<__half>(3 * i + 1)); }
template <> __nv_bfloat162 mk<__nv_bfloat162>(int i) {
  return __halves2bfloat162(mk<__nv_bfloat16>(i), mk<__nv_bfloat16>(3 * i + 1));
}

enum { NT = 80 };   // two warps and a half

template <class T> static int check(const char *name) {
  T *in, *out;
  cudaMallocManaged(&in, NT * sizeof(T));
  cudaMallocManaged(&out, NR * NT * sizeof(T));
  for (int i = 0; i < NT; i++) in[i] = mk<T>(i);
  int bad = 0;
  for (int w = 32; w >= 8; w /= 2) {
    memset(out, 0x5a, NR * NT * sizeof(T));
    shfl<T><<<1, NT>>>(in, out, w);
    if (cudaDeviceSynchronize() != cudaSuccess) return printf("%s: launch failed\n", name), 1;
    for (int b = 0; b < NT; b += 32) {
      int nl = NT - b < 32 ? NT - b : 32;
      const char *v = (const char *)(in + b);
      T ref[NR][32], x[32];
      int a[NR][32];
      for (int l = 0; l < 32; l++) {
        int t = b + l;
        a[0][l] = (t * 5 + 3) % 37, a[1][l] = 2, a[2][l] = 3, a[3][l] = 5, a[4][l] = 5, a[5][l] = t % 4 + 1;
        a[6][l] = t + 7, a[7][l] = l + 1, a[8][l] = 2, a[9][l] = 1, a[10][l] = 9, a[11][l] = 1, a[12][l] = 1;
      }
      static const int op[NR] = {IDX, IDX, UP, DOWN, XOR, XOR, IDX, IDX, XOR, DOWN, IDX, XOR, UP};
      const int wd[NR] = {w, w, w, w, w, w, w, w, w, 16, 8, 32, w};
      for (int k = 0; k < NR; k++)
        if (k != 7 && k != 8) model(op[k], v, a[k], wd[k], nl, (char *)ref[k], sizeof(T));
      model(IDX, v, a[7], w, nl, (char *)x, sizeof(T));   // rot2: twice
      model(IDX, (const char *)x, a[7], w, nl, (char *)ref[7], sizeof(T));
      model(XOR, v, a[8], w, nl, (char *)ref[8], sizeof(T));
      for (int l = 0; l < nl; l += 2) memcpy(&ref[8][l], v + l * sizeof(T), sizeof(T));   // even lanes: v
      for (int k = 0; k < NR; k++)
        for (int l = 0; l < nl; l++)
          if (memcmp(&out[k * NT + b + l], &ref[k][l], sizeof(T))) {
            if (bad++ < 5) printf("%s: width %d result %d thread %d differs\n", name, w, k, b + l);
          }
    }
  }
  cudaFree(in);
  cudaFree(out);
  return bad;
}

template <class T> static int check_match(const char *name) {
  T *in;
  unsigned *o;
  cudaMallocManaged(&in, 64 * sizeof(T));
  cudaMallocManaged(&o, 64 * sizeof(unsigned));
  for (int i = 0; i < 64; i++) in[i] = mk<T>(i % 5);
  match<T><<<1, 64>>>(in, o);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < 64; i++) {
    unsigned m = 0;
    for (int l = 0; l < 32; l++) m |= (unsigned)(in[(i & ~31) + l] == in[i]) << l;
    bad += o[i] != m;
  }
  if (bad) printf("%s: __match_any_sync differs in %d threads\n", name, bad);
  cudaFree(in);
  cudaFree(o);
  return bad;
}

// small integers: every sum exact in both formats
static int check_halves() {
  __half2 *h;
  __nv_bfloat162 *b;
  HP *hp, *ho;
  float *o;
  cudaMallocManaged(&h, 64 * sizeof *h);
  cudaMallocManaged(&b, 64 * sizeof *b);
  cudaMallocManaged(&hp, 64 * sizeof *hp);
  cudaMallocManaged(&ho, 64 * sizeof *ho);
  cudaMallocManaged(&o, 5 * 64 * sizeof *o);
  float hx[64], hy[64], bx[64], by[64];
  for (int i = 0; i < 64; i++) {
    hx[i] = (float)(i % 8), hy[i] = (float)(-(i % 5)), bx[i] = (float)(i % 7), by[i] = (float)(i % 3);
    h[i] = __floats2half2_rn(hx[i], hy[i]);
    b[i] = __floats2bfloat162_rn(bx[i], by[i]);
    hp[i].a = mk<__half2>(i), hp[i].b = mk<__nv_bfloat16>(i + 100);
  }
  halves<<<1, 64>>>(h, b, hp, o, ho);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("halves: launch failed\n"), 1;
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    float s8 = 0, s32 = 0, b16, r16 = 0;
    for (int i = t & ~7; i < (t & ~7) + 8; i++) s8 += hx[i];
    for (int i = t & ~31; i < (t & ~31) + 32; i++) s32 += hy[i];
    for (int i = t & ~15; i < (t & ~15) + 16; i++) r16 += hy[i];
    // a down butterfly: each step adds lane l + o, or the lane itself past its segment
    float vx[16], vy[16];
    for (int l = 0; l < 16; l++) vx[l] = bx[(t & ~15) + l], vy[l] = by[(t & ~15) + l];
    for (int o = 8; o > 0; o /= 2) {
      float nx[16], ny[16];
      for (int l = 0; l < 16; l++) {
        int s = l + o < 16 ? l + o : l;
        nx[l] = vx[l] + vx[s], ny[l] = vy[l] + vy[s];
      }
      memcpy(vx, nx, sizeof vx), memcpy(vy, ny, sizeof vy);
    }
    b16 = vx[t & 15] + vy[t & 15];
    int yl = t ^ 3, zl = (t & 15) + 2 < 16 ? t + 2 : t;
    float cgv = hx[yl] * 1000 + bx[zl];
    bad += o[t] != s8 || o[64 + t] != s32 || o[128 + t] != b16 || o[192 + t] != cgv || o[256 + t] != r16;
    int q = (t & ~31) + 31 - t % 32;
    bad += memcmp(&ho[t].a, &hp[q].a, 4) || memcmp(&ho[t].b, &hp[q].b, 2);
  }
  if (bad) printf("halves: %d differ\n", bad);
  return bad;
}

int main() {
  int bad = 0;
  bad += check<int>("int");
  bad += check<unsigned>("unsigned");
  bad += check<long>("long");
  bad += check<unsigned long>("unsigned long");
  bad += check<long long>("long long");
  bad += check<unsigned long long>("unsigned long long");
  bad += check<float>("float");
  bad += check<double>("double");
  bad += check<__half>("__half");
  bad += check<__half2>("__half2");
  bad += check<__nv_bfloat16>("__nv_bfloat16");
  bad += check<__nv_bfloat162>("__nv_bfloat162");
  bad += check_halves();
  bad += check_match<long>("long");
  bad += check_match<unsigned long>("unsigned long");
  short *s;
  signed char *c;
  int *o;
  cudaMallocManaged(&s, 64 * sizeof *s);
  cudaMallocManaged(&c, 64 * sizeof *c);
  cudaMallocManaged(&o, 128 * sizeof *o);
  for (int i = 0; i < 64; i++) s[i] = (short)(-300 * i), c[i] = (signed char)(i * 5 - 100);
  small<<<1, 64>>>(s, c, o);
  cudaDeviceSynchronize();
  for (int t = 0; t < 64; t++) {
    int w0 = t & ~31, l = t & 31;
    bad += o[t] != s[w0 + 1] || o[64 + t] != ((l & 7) + 1 < 8 ? c[t + 1] : c[t]);
  }
  if (bad) return printf("FAILED: %d differ\n", bad), 1;
  printf("PASS\n");
  return 0;
}
