// shfl_types.cu: CUDA's shuffles of every type they take: int, unsigned,
// long, unsigned long, long long, unsigned long long, float, double (and a
// short or a char, which promote to int as in CUDA), each with widths 32,
// 16 and 8: by a uniform and a varying lane or offset, in kernels and in
// __device__ helpers (a loop in one: a warp version), under a branch, in a
// partial warp. Each result's type is the value's (`auto`), and its bits
// are checked against a CPU model of the instruction, lane by lane.
#include <cstdio>
#include <cstring>
#include <type_traits>

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
