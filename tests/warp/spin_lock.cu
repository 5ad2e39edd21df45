// Locks that the threads of one warp take, as people write them: a warp's
// lanes run a loop together, so the lane that took the lock waited at the
// loop's end for lanes spinning on it, forever (frontend/spin.c: the loop
// and its critical section run lane by lane). Per-bucket locks with
// atomicCAS and atomicExch; CUDA by Example's struct Lock taken by every
// thread; one global lock taken with atomicExch in a do-while and released
// by a volatile store; `for (; atomicCAS(...);)` with __nanosleep; a
// cuda::atomic's exchange and store; a lock in a device function; a lock
// in a grid-stride loop; a lock only some lanes of each warp take. Checked
// against the host; each critical section reads and writes through
// volatile and fences before it releases, as the memory model asks (an
// H200 gets these answers; without the fences it did not).
#include <cuda/atomic>
#include <cstdio>

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

struct Lock {
  int *mutex;
  __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0); }
  __device__ void unlock() { atomicExch(mutex, 0); }
};

__device__ int glock;
__device__ float gsum;
__device__ cuda::atomic<int, cuda::thread_scope_device> alock;
__device__ long long asum;

__global__ void buckets(const int *keys, int n, int *locks, int *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = keys[i] % 8;
    while (atomicCAS(&locks[b], 0, 1) != 0);
    hist[b] += 1;   // a plain read-modify-write under the lock
    __threadfence();
    atomicExch(&locks[b], 0);
  }
}

__global__ void by_example(Lock *locks, const int *keys, int n, int *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = keys[i] % 16;
  locks[b].lock();
  volatile int *h = hist;
  h[b] = h[b] + 1;
  __threadfence();
  locks[b].unlock();
}

__global__ void global_lock(const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  do {
  } while (atomicExch(&glock, 1) != 0);
  gsum += 1.0f;
  __threadfence();
  *(volatile int *)&glock = 0;
}

__global__ void polite(const int *keys, int n, int *lock, unsigned long long *sum) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    for (; atomicCAS(lock, 0, 1);) __nanosleep(32);
    volatile unsigned long long *s = sum;
    *s = *s + (unsigned long long)keys[i];
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void libcu(const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    while (alock.exchange(1, cuda::memory_order_acquire) != 0)
      ;
    asum += keys[i];
    alock.store(0, cuda::memory_order_release);
  }
}

__device__ void add_locked(int *lock, volatile double *x, double v) {
  while (atomicCAS(lock, 0, 1))
    ;
  *x = *x + v;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void in_function(const int *keys, int n, int *lock, double *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && threadIdx.x % 32 < 8) add_locked(lock, x, keys[i] * 0.5);
}

int main() {
  const int n = 5000;
  int *keys, *locks, *hist, *lk;
  Lock *L;
  unsigned long long *sum;
  double *x;
  cudaMallocManaged(&keys, n * sizeof(int));
  cudaMallocManaged(&locks, 16 * sizeof(int));
  cudaMallocManaged(&hist, 16 * sizeof(int));
  cudaMallocManaged(&L, 16 * sizeof(Lock));
  cudaMallocManaged(&lk, sizeof(int));
  cudaMallocManaged(&sum, sizeof *sum);
  cudaMallocManaged(&x, sizeof *x);
  long long ks = 0;
  double half = 0;
  int ref8[8] = {0}, ref16[16] = {0};
  for (int i = 0; i < n; i++) {
    keys[i] = i * 13 + 5;
    ks += keys[i];
    ref8[keys[i] % 8]++;
    ref16[keys[i] % 16]++;
    if (i % 128 % 32 < 8) half += keys[i] * 0.5;
  }
  int blocks = (n + 127) / 128, bad;

  for (int i = 0; i < 16; i++) locks[i] = hist[i] = 0;
  buckets<<<blocks, 128>>>(keys, n, locks, hist);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "buckets launch");
  bad = 0;
  for (int b = 0; b < 8; b++) bad += hist[b] != ref8[b];
  CHECK(bad == 0, "per-bucket locks: %d buckets wrong", bad);

  for (int i = 0; i < 16; i++) {
    locks[i] = hist[i] = 0;
    L[i].mutex = &locks[i];
  }
  by_example<<<blocks, 128>>>(L, keys, n, hist);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "by_example launch");
  bad = 0;
  for (int b = 0; b < 16; b++) bad += hist[b] != ref16[b];
  CHECK(bad == 0, "struct Lock: %d buckets wrong", bad);

  global_lock<<<blocks, 128>>>(keys, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "global_lock launch");
  float gs;
  cudaMemcpyFromSymbol(&gs, gsum, sizeof gs);
  CHECK(gs == (float)n, "a global lock: %g, expected %d", gs, n);

  *lk = 0;
  *sum = 0;
  polite<<<7, 96>>>(keys, n, lk, sum);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "polite launch");
  CHECK(*sum == (unsigned long long)ks, "a lock in a grid-stride loop: %llu, expected %lld", *sum, ks);

  libcu<<<blocks, 128>>>(keys, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "libcu launch");
  long long as;
  cudaMemcpyFromSymbol(&as, asum, sizeof as);
  CHECK(as == ks, "cuda::atomic as a lock: %lld, expected %lld", as, ks);

  *lk = 0;
  *x = 0;
  in_function<<<blocks, 128>>>(keys, n, lk, x);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "in_function launch");
  CHECK(*x == half, "a lock in a device function: %g, expected %g", *x, half);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
