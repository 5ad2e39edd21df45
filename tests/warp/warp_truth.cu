// warp_truth.cu: warp primitives, atomics and bit intrinsics, printed as
// text. warp_truth.expected is this program's output on a real H100 (nvcc
// -arch=sm_90, CUDA 13); given that file as argv[1], the program compares
// its own output line by line and prints PASS or the differences.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static std::vector<std::string> out;
static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...) {
  char b[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  out.push_back(b);
}

// ---- shuffles: full warps, every type, widths 2..32 ----
template <class T>
__global__ void shfl(T *o, int w, int k) {
  int t = threadIdx.x, lane = t % 32;
  T v = (T)(t * 3 + 1);
  o[t + 0 * 64] = __shfl_sync(0xffffffffu, v, (lane * 7 + k) % 37, w);
  o[t + 1 * 64] = __shfl_up_sync(0xffffffffu, v, k, w);
  o[t + 2 * 64] = __shfl_down_sync(0xffffffffu, v, k, w);
  o[t + 3 * 64] = __shfl_xor_sync(0xffffffffu, v, k, w);
}

template <class T>
static void run_shfl(const char *name) {
  T *d, h[256];
  cudaMalloc(&d, sizeof h);
  for (int w = 2; w <= 32; w *= 2)
    for (int k : {1, 3, 5, 19}) {
      shfl<T><<<1, 64>>>(d, w, k);
      cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
      for (int op = 0; op < 4; op++) {
        double sum = 0;
        for (int t = 0; t < 64; t++) sum += (double)h[op * 64 + t] * (t + 1);
        emit("shfl %s w=%d k=%d op=%d: %.0f %.0f %.0f", name, w, k, op, sum, (double)h[op * 64 + 5], (double)h[op * 64 + 62]);
      }
    }
  cudaFree(d);
}

// ---- votes, match, reduce: divergent, partial last warp, 2-D blocks ----
__global__ void votes(unsigned *o) {
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned *r = o + t * 16;
  for (int i = 0; i < 16; i++) r[i] = 0xdeadbeefu;
  if (t % 3 == 1) {
    unsigned m = __activemask();
    r[0] = m;
    r[1] = __ballot_sync(m, t % 5 == 0);
    r[2] = __any_sync(m, t % 7 == 0);
    r[3] = __all_sync(m, t < 1000);
    r[4] = __all_sync(m, t % 2 == 0);
    r[5] = __match_any_sync(m, t % 4);
    int p = -1;
    r[6] = __match_all_sync(m, t / 1000, &p);
    r[7] = p;
    r[8] = __reduce_add_sync(m, t);
    r[9] = __reduce_min_sync(m, (unsigned)(t * 37 % 101));
    r[10] = __reduce_max_sync(m, t * 37 % 101);
    r[11] = __reduce_and_sync(m, (unsigned)~t);
    r[12] = __reduce_or_sync(m, (unsigned)t);
    r[13] = __reduce_xor_sync(m, (unsigned)(t * 2654435761u));
  } else {
    r[0] = __activemask();
    r[1] = __ballot_sync(__activemask(), 1);
  }
}

static void run_votes(dim3 b) {
  int n = b.x * b.y;
  unsigned *d, *h = new unsigned[n * 16];
  cudaMalloc(&d, n * 16 * sizeof(unsigned));
  votes<<<1, b>>>(d);
  cudaMemcpy(h, d, n * 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int t = 0; t < n; t++) {
    std::string s;
    char x[16];
    for (int i = 0; i < 14; i++) { snprintf(x, sizeof x, " %x", h[t * 16 + i]); s += x; }
    emit("votes %dx%d t=%d:%s", b.x, b.y, t, s.c_str());
  }
  cudaFree(d);
  delete[] h;
}

// ---- legacy forms and a shuffle in 3-D blocks whose warps span rows ----
__global__ void geo(int *o) {
  int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int v = threadIdx.x * 100 + threadIdx.y * 10 + threadIdx.z;
  o[t] = __shfl_xor_sync(0xffffffffu, v, 9) + 1000 * (__ballot_sync(0xffffffffu, threadIdx.y == 1) & 0xff);
}

// ---- atomics under contention ----
__device__ int lockvar;
__global__ void atomics(int *i, unsigned *u, unsigned long long *ull, float *f, double *d, long long *ll) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&i[0], 1);
  atomicSub(&i[1], 2);
  atomicMax(&i[2], t * 7 % 100003);
  atomicMin(&i[3], t * 7 % 100003 - 50000);
  atomicAnd(&u[0], ~(1u << (t % 32)) | (t >= 31 ? 0xffffffffu : 0u));
  atomicOr(&u[1], 1u << (t % 29));
  atomicXor(&u[2], (unsigned)t);
  atomicInc(&u[3], 100u);
  atomicDec(&u[4], 77u);
  atomicAdd(&ull[0], (unsigned long long)t);
  atomicMax(&ll[0], (long long)t * 1000000007ll % 999999937ll);
  atomicAdd(&f[0], 1.0f);
  atomicAdd(&d[0], 0.5);
  int old, cur = i[4];
  do { old = cur; cur = atomicCAS(&i[4], old, old + 3); } while (cur != old);
  atomicExch(&i[5], 42);
  __shared__ int hist[16];
  if (threadIdx.x < 16) hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[t % 16], 1);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&i[6 + threadIdx.x], hist[threadIdx.x]);
  unsigned short *us = (unsigned short *)&u[8];
  unsigned short o2, c2 = us[0];
  do { o2 = c2; c2 = atomicCAS(us, o2, (unsigned short)(o2 + 1)); } while (c2 != o2);
}

static void run_atomics() {
  int *i, hi[32] = {0, 0, -1, 1 << 30, 0, 0};
  unsigned *u, hu[16] = {0xffffffffu, 0, 0, 0, 0};
  unsigned long long *ull, hull = 0;
  long long *ll, hll = -1;
  float *f, hf = 0;
  double *d, hd = 0;
  cudaMalloc(&i, sizeof hi); cudaMalloc(&u, sizeof hu); cudaMalloc(&ull, 8); cudaMalloc(&ll, 8);
  cudaMalloc(&f, 4); cudaMalloc(&d, 8);
  cudaMemcpy(i, hi, sizeof hi, cudaMemcpyHostToDevice); cudaMemcpy(u, hu, sizeof hu, cudaMemcpyHostToDevice);
  cudaMemcpy(ull, &hull, 8, cudaMemcpyHostToDevice); cudaMemcpy(ll, &hll, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(f, &hf, 4, cudaMemcpyHostToDevice); cudaMemcpy(d, &hd, 8, cudaMemcpyHostToDevice);
  atomics<<<300, 256>>>(i, u, ull, f, d, ll);
  cudaMemcpy(hi, i, sizeof hi, cudaMemcpyDeviceToHost); cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hull, ull, 8, cudaMemcpyDeviceToHost); cudaMemcpy(&hll, ll, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hf, f, 4, cudaMemcpyDeviceToHost); cudaMemcpy(&hd, d, 8, cudaMemcpyDeviceToHost);
  emit("atomics int: %d %d %d %d %d %d", hi[0], hi[1], hi[2], hi[3], hi[4], hi[5]);
  std::string s;
  for (int k = 0; k < 16; k++) s += " " + std::to_string(hi[6 + k]);
  emit("atomics shared histogram:%s", s.c_str());
  emit("atomics unsigned: %x %x %x %u %u %u", hu[0], hu[1], hu[2], hu[3], hu[4], hu[8] & 0xffffu);
  emit("atomics 64-bit: %llu %lld", hull, hll);
  emit("atomics float/double: %.1f %.1f", hf, hd);
}

// ---- bit intrinsics ----
__global__ void bits(unsigned *o, const unsigned *x, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  unsigned a = x[t], b = x[(t + 1) % n];
  unsigned *r = o + t * 20;
  r[0] = __popc(a);
  r[1] = __clz((int)a);
  r[2] = __ffs((int)a);
  r[3] = __brev(a);
  r[4] = __byte_perm(a, b, 0x3210 + t);
  r[5] = __funnelshift_l(a, b, t);
  r[6] = __funnelshift_r(a, b, t);
  r[7] = (unsigned)__mul24((int)a, (int)b);
  r[8] = __umul24(a, b);
  r[9] = (unsigned)__mulhi((int)a, (int)b);
  r[10] = __umulhi(a, b);
  r[11] = (unsigned)(__umul64hi((unsigned long long)a << 20 | b, 0x9e3779b97f4a7c15ull) >> 3);
  r[12] = __sad((int)a, (int)b, 7u);
  r[13] = __usad(a, b, 7u);
  r[14] = __popcll((unsigned long long)a << 32 | b);
  r[15] = __clzll((long long)b);
  r[16] = __ffsll((long long)a << 32);
  r[17] = (unsigned)__float_as_int(__int_as_float((int)a) * 1.0f);
  r[18] = (unsigned)(__brevll((unsigned long long)a) >> 32);
  r[19] = (unsigned)__double_as_longlong(__longlong_as_double((long long)b));
}

int main(int argc, char **argv) {
  run_shfl<int>("int");
  run_shfl<unsigned>("unsigned");
  run_shfl<long long>("longlong");
  run_shfl<unsigned long long>("ulonglong");
  run_shfl<float>("float");
  run_shfl<double>("double");
  run_votes(dim3(80, 1));
  run_votes(dim3(10, 7));
  {
    int *d, h[128];
    cudaMalloc(&d, sizeof h);
    geo<<<1, dim3(4, 4, 8)>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::string s;
    for (int t = 0; t < 128; t += 5) s += " " + std::to_string(h[t]);
    emit("geo 4x4x8:%s", s.c_str());
  }
  run_atomics();
  {
    unsigned hx[40], *dx, *dout, hout[40 * 20];
    for (int k = 0; k < 40; k++) hx[k] = k < 4 ? (unsigned[]){0u, 1u, 0x80000000u, 0xffffffffu}[k] : 2654435761u * k + (k << 20);
    cudaMalloc(&dx, sizeof hx); cudaMalloc(&dout, sizeof hout);
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
    bits<<<1, 64>>>(dout, dx, 40);
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 40; t++) {
      std::string s;
      char x[16];
      for (int i = 0; i < 20; i++) { snprintf(x, sizeof x, " %x", hout[t * 20 + i]); s += x; }
      emit("bits %d:%s", t, s.c_str());
    }
  }
  if (argc < 2) {
    for (auto &l : out) printf("%s\n", l.c_str());
    return 0;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) { printf("cannot open %s\nFAIL\n", argv[1]); return 1; }
  char line[8192];
  size_t k = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '#') continue;
    if (k >= out.size() || out[k] != line) {
      if (bad++ < 10) printf("line %zu differs:\n  got:  %s\n  want: %s\n", k + 1, k < out.size() ? out[k].c_str() : "(none)", line);
    }
    k++;
  }
  fclose(f);
  if (k != out.size()) { printf("%zu lines, want %zu\n", out.size(), k); bad++; }
  printf("%zu lines compared, %d differ\n%s\n", k, bad, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
