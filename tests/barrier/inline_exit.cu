// inline_exit.cu: a kernel whose threads exit through a __device__ function
// with barriers: its guard `if (i >= n) return;` ends the kernel for them,
// since nothing of the kernel follows the call, and a barrier after the
// guard waits for the others only (exited threads take no part, as since
// Volta). The function is inlined (it has barriers and __shared__ data):
// forms a wrapper kernel takes, nested calls, two guards, a call in the
// kernel's last `if`, and one whose guard is followed by kernel code (there
// the guard's threads come back, and the function's rest runs for the
// others). Checked against the CPU.
#include <cstdio>

#define B 128

__device__ void rotate(float *out, const float *in, int n) {
  __shared__ float s[B];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  s[t] = in[i];
  __syncthreads();
  int last = min(B, n - blockIdx.x * B) - 1;   // the block's last live thread
  out[i] = s[t] + s[t < last ? t + 1 : 0];
}

__device__ void twice_guarded(float *out, const float *in, int n, int m) {
  __shared__ float s[B];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  s[t] = in[i];
  __syncthreads();
  if (t % 4 == 3) {   // a second guard, after a barrier
    out[i] = -1;
    return;
  }
  float v = s[t] * 2;
  __syncthreads();
  s[t] = v;
  __syncthreads();
  out[i] = s[t] + (t >= 4 ? s[t - 4] : 0) + m;
}

__device__ void outer(float *out, const float *in, int n) {
  if (blockIdx.x == 1 && threadIdx.x < 8) return;   // a guard of its own
  rotate(out, in, n);
}

__global__ void k_wrap(float *out, const float *in, int n) { rotate(out, in, n); }
__global__ void k_two(float *out, const float *in, int n) { twice_guarded(out, in, n, 5); }
__global__ void k_outer(float *out, const float *in, int n) { outer(out, in, n); }
__global__ void k_if(float *out, const float *in, int n, int go) {
  if (go) {
    out[n + blockIdx.x * blockDim.x + threadIdx.x] = 7;
    rotate(out, in, n);
  }
}

static int fails;
static void check(const char *what, const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (fails++ < 8) printf("FAILED %s at %d: %g, expected %g\n", what, i, got[i], want[i]);
      return;
    }
}

int main() {
  const int n = 300, grid = (n + B - 1) / B, cap = grid * B * 2;
  float *in, *out, want[2 * 3 * B];
  cudaMallocManaged(&in, cap * sizeof(float));
  cudaMallocManaged(&out, cap * sizeof(float));
  for (int i = 0; i < cap; i++) in[i] = (float)(i * 7 % 31);

  auto rot = [&](int i) {
    int b = i / B, t = i % B, last = (n - b * B < B ? n - b * B : B) - 1;
    return in[i] + in[b * B + (t < last ? t + 1 : 0)];
  };
  cudaMemset(out, 0, cap * sizeof(float));
  k_wrap<<<grid, B>>>(out, in, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: k_wrap %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  for (int i = 0; i < grid * B; i++) want[i] = i < n ? rot(i) : 0;
  check("wrapper", out, want, grid * B);

  cudaMemset(out, 0, cap * sizeof(float));
  k_two<<<grid, B>>>(out, in, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: k_two %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  for (int i = 0; i < grid * B; i++) {
    int t = i % B;
    want[i] = i >= n ? 0 : t % 4 == 3 ? -1 : in[i] * 2 + (t >= 4 ? in[i - 4] * 2 : 0) + 5;
  }
  check("two guards", out, want, grid * B);

  cudaMemset(out, 0, cap * sizeof(float));
  k_outer<<<grid, B>>>(out, in, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: k_outer %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  // block 1's first 8 threads leave before rotate: its others still read
  // s[t + 1] of live threads only (t >= 8), and thread `last` wraps to s[0],
  // which no thread wrote (any value): left out of the check
  for (int i = 0; i < grid * B; i++) want[i] = i >= n || (i / B == 1 && i % B < 8) ? 0 : rot(i);
  for (int i = B; i < 2 * B; i++)
    if (i % B == B - 1) want[i] = out[i];
  check("outer", out, want, grid * B);

  cudaMemset(out, 0, cap * sizeof(float));
  k_if<<<grid, B>>>(out, in, n, 1);
  if (cudaDeviceSynchronize() != cudaSuccess) return printf("FAILED: k_if %s\n", cudaGetErrorString(cudaGetLastError())), 1;
  for (int i = 0; i < grid * B; i++) want[i] = i < n ? rot(i) : 0;
  check("if", out, want, n);
  for (int i = 0; i < grid * B; i++) want[i] = 7;
  check("if (before the call)", out + n, want, grid * B);

  if (fails) return 1;
  printf("PASSED\n");
  return 0;
}
