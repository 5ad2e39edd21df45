// warp_devfn.cu: device functions run as warps (issue 20): their
// statements execute for all the caller's active lanes one after another,
// as on a GPU, so warp-synchronous code in a __device__ function is right.
// Checked against the CPU under several block shapes (every version).
#include <cstdio>

// the reduction slides' tail: warp-synchronous statements on volatile shared memory
__device__ void warpReduce(volatile int *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce(const int *in, int *out) {
  __shared__ int s[256];
  unsigned tid = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  s[tid] = in[blockIdx.x * nt + tid];
  __syncthreads();
  for (unsigned st = nt / 2; st > 32; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid < 32) warpReduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// an inclusive warp scan in shared memory, returning this lane's sum
__device__ int warpScan(volatile int *s, int lane, int v) {
  s[lane] = v;
  for (int k = 1; k < 32; k *= 2)
    if (lane >= k) s[lane] += s[lane - k];
  return s[lane];
}

// a value per lane, with a divergent early return
__device__ int clampedSquare(int v, int hi) {
  if (v > hi) return hi;
  int r = 0;
  for (int i = 0; i < v; i++) r += v;
  return r;
}

// one warp-version calling another, with a store through a pointer
__device__ void scanInto(volatile int *s, int *dst, int lane, int v) { dst[lane] = warpScan(s, lane, v); }

__global__ void scans(const int *in, int *out, int *sq) {
  __shared__ int buf[8][32];
  int t = threadIdx.y * blockDim.x + threadIdx.x, w = t / 32, lane = t % 32;
  int g = blockIdx.x * blockDim.x * blockDim.y + t;
  scanInto(buf[w], out + (g - lane), lane, in[g]);
  if (lane % 3 != 0) sq[g] = clampedSquare(in[g] % 20, 150);   // under a mask
  else sq[g] = -1;
}

int main() {
  const int NB = 16, NT = 256;
  int *in, *out, *sq, fails = 0;
  cudaMallocManaged(&in, NB * NT * sizeof(int));
  cudaMallocManaged(&out, NB * NT * sizeof(int));
  cudaMallocManaged(&sq, NB * NT * sizeof(int));
  for (int i = 0; i < NB * NT; i++) in[i] = (i * 37) % 101;
  dim3 shapes[] = {dim3(256), dim3(64, 4), dim3(32, 8), dim3(16, 16)};
  for (dim3 b : shapes) {
    reduce<<<NB, b>>>(in, out);
    cudaDeviceSynchronize();
    for (int k = 0; k < NB; k++) {
      int ref = 0;
      for (int i = 0; i < NT; i++) ref += in[k * NT + i];
      if (out[k] != ref && fails++ < 5) printf("FAIL reduce %ux%u block %d: %d, expected %d\n", b.x, b.y, k, out[k], ref);
    }
    scans<<<NB, b>>>(in, out, sq);
    cudaDeviceSynchronize();
    for (int i = 0; i < NB * NT; i++) {
      int lane = i % 32, ref = 0;
      for (int j = i - lane; j <= i; j++) ref += in[j];
      int v = in[i] % 20, q = v > 150 ? 150 : v * v;
      if (lane % 3 == 0) q = -1;
      if ((out[i] != ref || sq[i] != q) && fails++ < 5)
        printf("FAIL scans %ux%u thread %d: %d %d, expected %d %d\n", b.x, b.y, i, out[i], sq[i], ref, q);
    }
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
