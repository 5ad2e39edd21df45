// warp_reduce.cu: warp-level primitives without shared-memory trees:
// a block sum by __shfl_down_sync inside each warp (one atomicAdd per
// block), and an inclusive scan by __shfl_up_sync.  Usage: ./warp_reduce [n]
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void block_sum(const int *in, unsigned long long *total, int n) {
  __shared__ int warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = i < n ? in[i] : 0;
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x + 31) / 32 ? warp_sums[lane] : 0;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) atomicAdd(total, (unsigned long long)v);
  }
}

__global__ void warp_scan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  int v = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d *= 2) {
    int u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += u;
  }
  if (i < n) out[i] = v;   // inclusive scan within each warp of 32
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000003;
  int *h = (int *)malloc(n * sizeof(int)), *hs = (int *)malloc(n * sizeof(int));
  unsigned long long want = 0;
  for (int i = 0; i < n; i++) { h[i] = (i * 37) % 1000 - 300; want += (unsigned long long)(long long)h[i]; }
  int *d, *ds;
  unsigned long long *dt, got = 0;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&ds, n * sizeof(int)));
  CHECK(cudaMalloc(&dt, sizeof got));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dt, 0, sizeof got));
  block_sum<<<(n + 255) / 256, 256>>>(d, dt, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&got, dt, sizeof got, cudaMemcpyDeviceToHost));
  warp_scan<<<(n + 127) / 128, 128>>>(d, ds, n);
  CHECK(cudaMemcpy(hs, ds, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0, run = 0; i < n; i++) {
    run = (i % 32 == 0 ? 0 : run) + h[i];
    if (hs[i] != run && bad++ < 3) printf("scan[%d] = %d, want %d\n", i, hs[i], run);
  }
  printf("sum %lld (want %lld), scan %s\n", (long long)got, (long long)want, bad ? "wrong" : "ok");
  bool ok = got == want && !bad;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
