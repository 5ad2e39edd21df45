// libcu++ as CUDA programs use it (issue 23): cuda::atomic, atomic_ref and
// cuda::std::atomic with thread scopes and memory orders in kernels and in
// host code (cucc's own <cuda/atomic>), and libcu++'s numerics (Debian's
// libcu++ 1.8 headers, unmodified) in kernels. Every answer is checked
// against the host's.
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/atomic>
#include <cuda/std/complex>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cmath>
#include <complex>
#include <cstdio>
#include <new>
#include <thread>

static int fails;
#define CHECK(c, ...)                             \
  do {                                            \
    if (!(c)) {                                   \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      fails++;                                    \
    }                                             \
  } while (0)

struct Shared {
  cuda::atomic<int, cuda::thread_scope_device> count;
  cuda::std::atomic<float> fsum;
  cuda::atomic<long long, cuda::thread_scope_device> lmin, lmax;
  cuda::atomic<unsigned, cuda::thread_scope_block> umax;
  cuda::atomic<int *> slot;
  cuda::std::atomic<int> xchg;
  cuda::std::atomic_flag flag[64];
  unsigned long long ref[4];
  short shorts[8];
  double dmax;
  cuda::atomic<unsigned, cuda::thread_scope_device> ticket;
  int partial[64];
  int total;
  int taken[64 * 128 + 1];
  int winners;
};

__global__ void atomics(Shared *s, int *out, const double *vals) {
  int b = blockIdx.x, t = threadIdx.x, i = b * blockDim.x + t, n = gridDim.x * blockDim.x;
  s->count.fetch_add(1, cuda::memory_order_relaxed);
  s->fsum += 1.0f;
  s->lmin.fetch_min(1000000LL - i);
  s->lmax.fetch_max((long long)i * 3);
  s->umax.fetch_max((unsigned)(i % 1000));
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> r(s->ref[i % 4]);
  r.fetch_add(i);
  // 2-byte objects share words: a neighbour must not be touched
  cuda::atomic_ref<short, cuda::thread_scope_device> sh(s->shorts[1 + (i & 1) * 2]);
  sh.fetch_add(1);
  // a CAS loop: atomic max of doubles
  cuda::atomic_ref<double> dm(s->dmax);
  double cur = dm.load(), v = vals[i];
  while (cur < v && !dm.compare_exchange_weak(cur, v))
    ;
  // pointers hand out slots; exchange passes every id along
  int *p = s->slot.fetch_add(1);
  *p = i;
  out[i] = s->xchg.exchange(i);
  // one winner per block, by atomic_flag
  if (!s->flag[b].test_and_set()) atomicAdd(&s->winners, 1);
  // the last block to finish sums every block's part (release, acquire)
  if (t == 0) {
    int part = 0;
    for (int k = 0; k < blockDim.x; k++) part += b * blockDim.x + k;
    s->partial[b] = part;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    unsigned me = s->ticket.fetch_add(1, cuda::memory_order_acq_rel);
    if (me == gridDim.x - 1) {
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      int sum = 0;
      for (int k = 0; k < gridDim.x; k++) sum += s->partial[k];
      s->total = sum;
    }
  }
  (void)n;
}

__global__ void numerics(float *f, int *k) {
  int i = threadIdx.x;
  cuda::std::complex<float> z(1.0f * i, 2.0f);
  z = z * z + cuda::std::complex<float>(1.0f, 0.0f);
  f[i] = cuda::std::abs(z);
  f[32 + i] = cuda::std::numeric_limits<float>::epsilon() * i;
  cuda::std::array<int, 4> a = {i, 2 * i, 3 * i, 4 * i};
  int s = 0;
  for (int j = 0; j < (int)a.size(); j++) s += a[j];
  k[i] = s + cuda::std::plus<int>()(i, 1) + cuda::std::max(i, 7) + cuda::std::min(i, 3);
  k[32 + i] = cuda::std::numeric_limits<cuda::std::int16_t>::max() - i +
              (cuda::std::is_same<cuda::std::uint32_t, unsigned>::value ? 1 : 0);
}

// tiles of in[] through shared memory: a thread-scope pipeline of two
// stages (each thread copies its own element), and a block-scope one
// whose copies the block shares (memcpy_async of a group)
__global__ void tiles(const float *in, float *out, int ntiles) {
  __shared__ float buf[2][128];
  __shared__ float all[128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  int t = threadIdx.x;
  const auto one = cuda::aligned_size_t<alignof(float)>(sizeof(float));
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float acc = 0;
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[0][t], &in[t], one, pipe);
  pipe.producer_commit();
  for (int k = 0; k < ntiles; k++) {
    if (k + 1 < ntiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[(k + 1) % 2][t], &in[(k + 1) * 128 + t], one, pipe);
      pipe.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    __syncthreads();
    acc += buf[k % 2][(t + 1) % 128];
    pipe.consumer_release();
    __syncthreads();
  }
  auto block = cooperative_groups::this_thread_block();
  auto bp = cuda::make_pipeline(block, &state);
  float acc2 = 0;
  for (int k = 0; k < ntiles; k++) {
    bp.producer_acquire();
    cuda::memcpy_async(block, all, in + k * 128, sizeof(float) * 128, bp);
    bp.producer_commit();
    bp.consumer_wait();
    acc2 += all[127 - t];
    bp.consumer_release();
  }
  out[t] = acc;
  out[128 + t] = acc2;
}

int main() {
  const int blocks = 64, threads = 128, n = blocks * threads;
  Shared *s;
  int *out;
  double *vals;
  cudaMallocManaged(&s, sizeof *s);
  cudaMallocManaged(&out, n * sizeof(int));
  cudaMallocManaged(&vals, n * sizeof(double));
  memset((void *)s, 0, sizeof *s);
  new (&s->count) cuda::atomic<int, cuda::thread_scope_device>(5);   // host side first
  s->lmin = 1LL << 40;
  s->lmax = -1;
  s->slot = s->taken;
  s->xchg.store(n);
  double best = -1;
  for (int i = 0; i < n; i++) {
    vals[i] = std::sin(i * 0.37) * 1000.0;
    if (vals[i] > best) best = vals[i];
  }
  s->dmax = -1e300;
  atomics<<<blocks, threads>>>(s, out, vals);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "launch");
  CHECK(s->count.load() == n + 5, "fetch_add: %d", s->count.load());
  CHECK(s->fsum.load() == (float)n, "float +=: %g", s->fsum.load());
  CHECK(s->lmin.load() == 1000000LL - (n - 1), "fetch_min: %lld", s->lmin.load());
  CHECK(s->lmax.load() == 3LL * (n - 1), "fetch_max: %lld", s->lmax.load());
  CHECK(s->umax.load() == 999u, "fetch_max unsigned: %u", s->umax.load());
  unsigned long long want[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) want[i % 4] += i;
  CHECK(s->ref[0] == want[0] && s->ref[3] == want[3], "atomic_ref");
  CHECK(s->shorts[0] == 0 && s->shorts[1] == n / 2 && s->shorts[2] == 0 && s->shorts[3] == n / 2 &&
            s->shorts[4] == 0,
        "atomic_ref<short>: %d %d %d %d %d", s->shorts[0], s->shorts[1], s->shorts[2], s->shorts[3], s->shorts[4]);
  CHECK(s->dmax == best, "compare_exchange_weak max: %g, want %g", s->dmax, best);
  CHECK(s->slot.load() == s->taken + n, "atomic<int *>");
  static bool seen[64 * 128 + 1];
  bool perm = true;
  for (int i = 0; i < n; i++) perm &= !seen[s->taken[i]] && (seen[s->taken[i]] = true);
  CHECK(perm, "slots are a permutation");
  for (int i = 0; i <= n; i++) seen[i] = false;
  perm = true;
  for (int i = 0; i < n; i++) perm &= !seen[out[i]] && (seen[out[i]] = true);
  perm &= !seen[s->xchg.load()];
  CHECK(perm, "exchange passes every value along once");
  CHECK(s->winners == blocks, "atomic_flag winners: %d", s->winners);
  CHECK(s->total == n * (n - 1) / 2, "last block's sum: %d", s->total);

  // host side: threads on one cuda::std::atomic, the orders, the flag
  cuda::std::atomic<int> h(0);
  cuda::atomic<unsigned long long, cuda::thread_scope_system> hu(0);
  std::thread a([&] { for (int i = 0; i < 100000; i++) { h++; hu.fetch_add(2, cuda::std::memory_order_relaxed); } });
  std::thread b([&] { for (int i = 0; i < 100000; i++) { h.fetch_add(1); hu += 2; } });
  a.join();
  b.join();
  CHECK(h.load(cuda::std::memory_order_acquire) == 200000 && hu == 400000ull, "host atomics: %d", h.load());
  int e = 200000;
  CHECK(h.compare_exchange_strong(e, 7) && h == 7 && !h.compare_exchange_strong(e, 8) && e == 7, "host CAS");
  cuda::std::atomic<float> hf(1.5f);
  hf.fetch_add(2.0f);
  CHECK(hf.load() == 3.5f, "host float fetch_add");
  cuda::std::atomic_flag hflag = ATOMIC_FLAG_INIT;
  CHECK(!hflag.test_and_set() && hflag.test_and_set(), "host atomic_flag");
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);

  // libcu++'s numerics in a kernel
  float *f;
  int *k;
  cudaMallocManaged(&f, 64 * sizeof(float));
  cudaMallocManaged(&k, 64 * sizeof(int));
  numerics<<<1, 32>>>(f, k);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "numerics launch");
  bool ok = true;
  for (int i = 0; i < 32; i++) {
    std::complex<float> z(1.0f * i, 2.0f);
    z = z * z + std::complex<float>(1.0f, 0.0f);
    ok &= std::fabs(f[i] - std::abs(z)) <= 1e-5f * std::abs(z);
    ok &= f[32 + i] == 1.1920928955078125e-07f * i;
    ok &= k[i] == 10 * i + (i + 1) + (i > 7 ? i : 7) + (i < 3 ? i : 3);
    ok &= k[32 + i] == 32767 - i + 1;
  }
  CHECK(ok, "complex, numeric_limits, array, plus, min, max in a kernel");

  // cuda::pipeline and memcpy_async
  const int ntiles = 9;
  float *in, *tout;
  cudaMallocManaged(&in, ntiles * 128 * sizeof(float));
  cudaMallocManaged(&tout, 256 * sizeof(float));
  for (int i = 0; i < ntiles * 128; i++) in[i] = (float)(i % 1000);
  tiles<<<1, 128>>>(in, tout, ntiles);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "pipeline launch");
  ok = true;
  for (int t = 0; t < 128; t++) {
    float a = 0, b = 0;
    for (int k = 0; k < ntiles; k++) {
      a += in[k * 128 + (t + 1) % 128];
      b += in[k * 128 + 127 - t];
    }
    ok &= tout[t] == a && tout[128 + t] == b;
  }
  CHECK(ok, "thread- and block-scope pipelines: %g %g", tout[0], tout[128]);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
