// memops.cu: memory operations as CUDA 12.x spells them, each checked
// against a CPU count: every atomic*() in its _block and _system scopes;
// CUDA 12.8's __nv_atomic_* with orders and scopes (arithmetic, and
// load/store/exchange/compare-exchange of a struct); loads and stores with
// cache hints (__ldcs, __stcs... on scalars and vector types).
#include <cstdio>

struct Pair { int a, b; };

__global__ void scoped(int *i, unsigned *u, unsigned long long *ull, float *f, double *d, long long *ll) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd_block(&i[0], 1);
  atomicAdd_system(&i[1], t);
  atomicSub_system(&i[2], 2);
  atomicMax_block(&i[3], t);
  atomicMin_system(&i[4], -t);
  atomicOr_system(&u[0], 1u << (t % 32));
  atomicAnd_block(&u[1], ~(1u << (t % 7)));
  atomicXor_system(&u[2], (unsigned)t);
  atomicInc_system(&u[3], 100u);
  atomicDec_block(&u[4], 1000u);
  atomicAdd_system(&ull[0], (unsigned long long)t << 20);
  atomicExch_block(&ull[1], 7ull);
  atomicCAS_system(&ull[2], 0ull, (unsigned long long)t + 1);   // one thread wins
  atomicAdd_block(&f[0], 0.5f);
  atomicAdd_system(&d[0], 0.25);
  atomicExch_system(&f[1], 3.0f);
  atomicMax_system(&ll[0], -1000000000000ll + t);
}

// every block publishes its partial sum with a release store; the last
// block to arrive (acq_rel counter) reads them all with acquire loads
__global__ void lastblock(const int *x, int *part, unsigned *count, int *total, Pair *pr, int *flags) {
  __shared__ int s[64];
  __shared__ bool last;
  int t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  __syncthreads();
  for (int k = 32; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    __nv_atomic_store_n(&part[blockIdx.x], s[0], __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
    unsigned n = __nv_atomic_fetch_add(count, 1u, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    last = n == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    int sum = 0;
    for (int b = 0; b < (int)gridDim.x; b++) sum += __nv_atomic_load_n(&part[b], __NV_ATOMIC_ACQUIRE);
    *total = sum;
  }
  // the other arithmetic forms, each from every thread
  int g = blockIdx.x * 64 + t;
  __nv_atomic_add(&flags[0], 2, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_sub(&flags[1], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_max(&flags[2], g, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_min(&flags[3], -g, __NV_ATOMIC_SEQ_CST);
  __nv_atomic_fetch_or(&flags[4], 1 << (g % 31), __NV_ATOMIC_RELAXED);
  __nv_atomic_xor(&flags[5], g, __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_and(&flags[6], ~(1 << (g % 5)), __NV_ATOMIC_RELAXED);
  // a struct: exchange and compare-exchange by value
  if (g == 5) {
    Pair mine = {g, -g}, old;
    __nv_atomic_exchange(pr, &mine, &old, __NV_ATOMIC_SEQ_CST);
    Pair want = mine, next = {old.a + 1, old.b + 1};
    bool ok = __nv_atomic_compare_exchange(pr, &want, &next, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE);
    Pair seen;
    __nv_atomic_load(pr, &seen, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
    int e = 12345;
    bool no = __nv_atomic_compare_exchange_n(&flags[7], &e, 99, true, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
    flags[8] = ok * 100 + !no * 10 + (e == 0) + seen.a * 1000;   // flags[7] is 0
    Pair z = {0, 0};
    __nv_atomic_store(pr + 1, &z, __NV_ATOMIC_RELEASE);
    flags[9] = __nv_atomic_exchange_n(&flags[10], 77, __NV_ATOMIC_ACQ_REL);
  }
}

// by value at 16 and 4 bytes (a struct of 12 is refused: lang_bad_memops)
struct Quad { long long a, b; };
struct Half2 { short a, b; };
#ifdef BAD
struct Odd { int a, b, c; };
__global__ void odd(Odd *o) { Odd v = {1, 2, 3}, r; __nv_atomic_exchange(o, &v, &r, __NV_ATOMIC_RELAXED); }
#endif
__global__ void widths(Quad *q, Half2 *h) {
  int t = threadIdx.x;
  Quad mine = {t, -t}, old;
  __nv_atomic_exchange(q, &mine, &old, __NV_ATOMIC_ACQ_REL);   // every thread: one wins last
  __nv_atomic_store(&q[1 + t], &old, __NV_ATOMIC_RELEASE);
  Half2 w = {1, 2}, want = {(short)t, (short)t};
  __nv_atomic_compare_exchange(h, &want, &w, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED);   // only t == 7
}

// loads and stores with cache hints, in lane statements and under divergence
__global__ void hints(const float *a, const float4 *b, float *c, float4 *d, int2 *e, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = __ldcs(a + t) + __ldcg(&a[t]) + __ldca(a + t) + __ldlu(a + t) + __ldcv(a + t) + __ldg(a + t);
  __stcs(&c[t], x);
  float4 v = __ldcs(&b[t]);
  if (t % 3 == 0) __stwt(d + t, make_float4(v.w, v.z, v.y, v.x));
  else __stcg(&d[t], v);
  __stwb(&e[t], make_int2(t, -t));
}

int main() {
  const int B = 8, T = 64, N = B * T;
  int *i;
  unsigned *u;
  unsigned long long *ull;
  float *f;
  double *d;
  long long *ll;
  cudaMallocManaged(&i, 5 * sizeof(int));
  cudaMallocManaged(&u, 5 * sizeof(unsigned));
  cudaMallocManaged(&ull, 3 * sizeof(unsigned long long));
  cudaMallocManaged(&f, 2 * sizeof(float));
  cudaMallocManaged(&d, sizeof(double));
  cudaMallocManaged(&ll, sizeof(long long));
  int i0[5] = {0, 0, 10000, -1, 1};
  for (int k = 0; k < 5; k++) i[k] = i0[k];
  u[0] = 0; u[1] = ~0u; u[2] = 0; u[3] = 0; u[4] = 0;
  ull[0] = ull[1] = ull[2] = 0;
  f[0] = f[1] = 0;
  d[0] = 0;
  ll[0] = -2000000000000ll;
  scoped<<<B, T>>>(i, u, ull, f, d, ll);
  cudaDeviceSynchronize();
  int bad = 0;
  long long tsum = (long long)N * (N - 1) / 2;
  unsigned x = 0;
  for (int t = 0; t < N; t++) x ^= (unsigned)t;
  unsigned dec = 0;   // atomicDec from 0 wraps to 1000, then counts down
  for (int t = 0; t < N; t++) dec = (dec == 0 || dec > 1000u) ? 1000u : dec - 1;
  bad += i[0] != N; bad += i[1] != tsum; bad += i[2] != 10000 - 2 * N; bad += i[3] != N - 1; bad += i[4] != -(N - 1);
  bad += u[0] != ~0u; bad += u[1] != ~0x7fu; bad += u[2] != x; bad += u[3] != (unsigned)(N % 101); bad += u[4] != dec;
  bad += ull[0] != (unsigned long long)tsum << 20; bad += ull[1] != 7; bad += ull[2] < 1 || ull[2] > (unsigned long long)N;
  bad += f[0] != 0.5f * N; bad += d[0] != 0.25 * N; bad += f[1] != 3.0f; bad += ll[0] != -1000000000000ll + N - 1;
  if (bad) printf("scoped atomics: %d wrong (i %d %d %d %d %d, u %x %x %x %u %u)\n", bad, i[0], i[1], i[2], i[3], i[4],
                  u[0], u[1], u[2], u[3], u[4]);

  int *xs, *part, *total, *flags;
  unsigned *count;
  Pair *pr;
  cudaMallocManaged(&xs, N * sizeof(int));
  cudaMallocManaged(&part, B * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  cudaMallocManaged(&flags, 11 * sizeof(int));
  cudaMallocManaged(&count, sizeof(unsigned));
  cudaMallocManaged(&pr, 2 * sizeof(Pair));
  long long want = 0;
  for (int k = 0; k < N; k++) want += xs[k] = (k * 37) % 101 - 50;
  *count = 0;
  *total = -1;
  int f0[11] = {0, 0, -1, 1, 0, 0, -1, 0, -1, -1, 33};
  for (int k = 0; k < 11; k++) flags[k] = f0[k];
  pr[0] = Pair{1, 2};
  pr[1] = Pair{3, 4};
  lastblock<<<B, T>>>(xs, part, count, total, pr, flags);
  cudaDeviceSynchronize();
  int orr = 0, andd = -1, xr = 0;
  for (int g = 0; g < N; g++) orr |= 1 << (g % 31), andd &= ~(1 << (g % 5)), xr ^= g;
  int bad2 = 0;
  bad2 += *total != want; bad2 += *count != (unsigned)B;
  bad2 += flags[0] != 2 * N; bad2 += flags[1] != -N; bad2 += flags[2] != N - 1; bad2 += flags[3] != -(N - 1);
  bad2 += flags[4] != orr; bad2 += flags[5] != xr; bad2 += flags[6] != andd;
  bad2 += flags[7] != 0; bad2 += flags[8] != 100 + 10 + 1 + 2000; bad2 += flags[9] != 33; bad2 += flags[10] != 77;
  bad2 += pr[0].a != 2 || pr[0].b != 3; bad2 += pr[1].a != 0 || pr[1].b != 0;
  if (bad2) printf("__nv_atomic: %d wrong (total %d want %lld, flags %d %d %d %d %x %x %x %d %d %d %d, pair %d %d)\n", bad2,
                   *total, want, flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6], flags[7], flags[8],
                   flags[9], flags[10], pr[0].a, pr[0].b);

  Quad *q;
  Half2 *h2;
  cudaMallocManaged(&q, 65 * sizeof(Quad));
  cudaMallocManaged(&h2, sizeof(Half2));
  q[0] = Quad{-1, 1};
  h2[0] = Half2{7, 7};
  widths<<<1, 64>>>(q, h2);
  cudaDeviceSynchronize();
  // the olds and the last value are the 64 threads' values and the first
  // one, each once, and every pair's halves agree (no torn 16 bytes)
  int cnt[65] = {0};
  for (int k = 0; k < 65; k++) {
    bad2 += q[k].a != -q[k].b || q[k].a < -1 || q[k].a > 63;
    if (q[k].a >= -1 && q[k].a <= 63) cnt[q[k].a + 1]++;
  }
  for (int k = 0; k < 65; k++) bad2 += cnt[k] != 1;
  bad2 += h2[0].a != 1 || h2[0].b != 2;
  if (bad2) printf("by value at 16 and 4 bytes: %d wrong\n", bad2);

  const int H = 1000;
  float *a, *c;
  float4 *b, *dd;
  int2 *e;
  cudaMallocManaged(&a, H * sizeof(float));
  cudaMallocManaged(&c, H * sizeof(float));
  cudaMallocManaged(&b, H * sizeof(float4));
  cudaMallocManaged(&dd, H * sizeof(float4));
  cudaMallocManaged(&e, H * sizeof(int2));
  for (int k = 0; k < H; k++) a[k] = k * 0.5f, b[k] = make_float4(k, k + 1, k + 2, k + 3);
  hints<<<(H + 127) / 128, 128>>>(a, b, c, dd, e, H);
  cudaDeviceSynchronize();
  int bad3 = 0;
  for (int k = 0; k < H; k++) {
    float4 w = k % 3 == 0 ? make_float4(k + 3, k + 2, k + 1, k) : b[k];
    bad3 += c[k] != 6 * (k * 0.5f) || dd[k].x != w.x || dd[k].y != w.y || dd[k].z != w.z || dd[k].w != w.w ||
            e[k].x != k || e[k].y != -k;
  }
  if (bad3) printf("cache hints: %d wrong\n", bad3);
  printf("%s\n", bad + bad2 + bad3 ? "FAIL" : "PASS");
  return bad + bad2 + bad3 != 0;
}
