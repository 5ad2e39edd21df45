// A warp that waits for a flag another warp of its block sets later, as
// people write it: a block's warps ran one after another between barriers,
// so the flag never came (a hang). Each turn of such a loop now yields to
// the block's other warps (frontend/spin.c, runtime/src/warps.c). A
// volatile __shared__ flag; a volatile pointer parameter; counting warps
// in with atomicAdd and waiting with atomicAdd(&n, 0); atomicOr(&f, 0) with
// __nanosleep; a cuda::atomic_ref's load. Checked against the host.
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

// warp 0 waits for warp 3's data
__global__ void handoff(int *out) {
  __shared__ volatile int ready;
  __shared__ int data[32];
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  int w = threadIdx.x / 32;
  if (w == 0) {
    while (ready == 0)
      ;
    out[blockIdx.x * 32 + threadIdx.x] = data[threadIdx.x];
  } else if (w == 3) {
    data[threadIdx.x % 32] = threadIdx.x + blockIdx.x;
    __threadfence_block();
    if (threadIdx.x % 32 == 0) ready = 1;
  }
}

// the last warp publishes through a flag in global memory, one per block
__global__ void publish(volatile int *flags, int *vals, int *out) {
  unsigned w = threadIdx.x / 32, last = blockDim.x / 32 - 1;
  if (w == last && threadIdx.x % 32 == 0) {
    vals[blockIdx.x] = 1000 + blockIdx.x;
    __threadfence();
    flags[blockIdx.x] = 1;
  }
  if (w == 0) {
    while (flags[blockIdx.x] != 1)
      ;
    if (threadIdx.x == 0) out[blockIdx.x] = vals[blockIdx.x];
  }
}

// thread 0 waits until every warp has counted itself in
__global__ void count_in(int *out) {
  __shared__ int n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) atomicAdd(&n, 1);
  if (threadIdx.x == 0) {
    while (atomicAdd(&n, 0) < (int)(blockDim.x / 32))
      ;
    out[blockIdx.x] = n;
  }
}

// every lane of warp 1 waits, politely, for warp 2
__global__ void polite(int *out) {
  __shared__ int f;
  __shared__ float v[32];
  if (threadIdx.x == 0) f = 0;
  __syncthreads();
  if (threadIdx.x / 32 == 2) {
    v[threadIdx.x % 32] = threadIdx.x * 0.5f;
    __threadfence_block();
    if (threadIdx.x == 64) atomicExch(&f, 1);
  }
  if (threadIdx.x / 32 == 1) {
    while (atomicOr(&f, 0) == 0) __nanosleep(20);
    out[blockIdx.x * 32 + threadIdx.x % 32] = (int)(v[threadIdx.x % 32] * 2);
  }
}

// libcu++: a cuda::atomic_ref's load in the loop
__global__ void libcu(int *out) {
  __shared__ int flag, val;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
  if (threadIdx.x == 96) {
    val = 7 * blockIdx.x;
    f.store(1, cuda::memory_order_release);
  }
  if (threadIdx.x == 5) {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    out[blockIdx.x] = val;
  }
}

int main() {
  const int B = 4;
  int *out, *vals, *flags;
  cudaMallocManaged(&out, B * 32 * sizeof(int));
  cudaMallocManaged(&vals, B * sizeof(int));
  cudaMallocManaged(&flags, B * sizeof(int));
  int bad;

  handoff<<<B, 128>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "handoff launch");
  bad = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 32; t++) bad += out[b * 32 + t] != 96 + t + b;
  CHECK(bad == 0, "a volatile __shared__ flag: %d wrong", bad);

  for (int b = 0; b < B; b++) flags[b] = 0;
  publish<<<B, 160>>>(flags, vals, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "publish launch");
  bad = 0;
  for (int b = 0; b < B; b++) bad += out[b] != 1000 + b;
  CHECK(bad == 0, "a volatile pointer's flag: %d wrong", bad);

  count_in<<<B, 256>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "count_in launch");
  bad = 0;
  for (int b = 0; b < B; b++) bad += out[b] != 8;
  CHECK(bad == 0, "warps counted in with atomicAdd: %d wrong", bad);

  polite<<<B, 96>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "polite launch");
  bad = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 32; t++) bad += out[b * 32 + t] != 64 + t;
  CHECK(bad == 0, "atomicOr(&f, 0) with __nanosleep: %d wrong", bad);

  libcu<<<B, 128>>>(out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "libcu launch");
  bad = 0;
  for (int b = 0; b < B; b++) bad += out[b] != 7 * b;
  CHECK(bad == 0, "cuda::atomic_ref's load: %d wrong", bad);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
